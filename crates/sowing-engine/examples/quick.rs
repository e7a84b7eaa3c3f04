//! The search benchmark position by position: `quick [LESS] [HASH_MIB]` searches each
//! position LESS plies shallower than `sow bench --search` (default 0), with a table of
//! HASH_MIB MiB (default 16).

fn main() {
    let less = std::env::args()
        .nth(1)
        .map_or(0, |a| a.parse().expect("a number of plies"));
    let hash = std::env::args()
        .nth(2)
        .map_or(16, |a| a.parse().expect("a table size in MiB"));
    let positions = sowing_engine::bench::positions();
    let rows = sowing_engine::bench::search_bench(&positions, less, hash, &mut |r| {
        println!(
            "{:>9} nodes depth {:>3} {:>8} us {:>9} nps  {}",
            r.nodes,
            r.depth,
            r.micros,
            r.nodes * 1_000_000 / r.micros.max(1),
            r.position
        )
    });
    let n: u64 = rows.iter().map(|r| r.nodes).sum();
    let t: u64 = rows.iter().map(|r| r.micros).sum();
    println!("total {n} nodes, {} nps", n * 1_000_000 / t.max(1));
}
