//! The search benchmark's positions searched shallower, for instruction counts under
//! callgrind (`sow bench --search` is slow there):
//! `valgrind --tool=callgrind target/release/examples/sbench 2` searches each position 2
//! plies less deep than the benchmark (default 0: the benchmark itself).

fn main() {
    let less: u32 = std::env::args()
        .nth(1)
        .map_or(0, |a| a.parse().expect("a number of plies"));
    let positions = sowing_engine::bench::positions();
    let rows = sowing_engine::bench::search_bench(&positions, less, 16, &mut |_| {});
    let total: u64 = rows.iter().map(|r| r.nodes).sum();
    let micros: u64 = rows.iter().map(|r| r.micros).sum();
    println!(
        "{total} nodes, {} nodes/s",
        total * 1_000_000 / micros.max(1)
    );
}
