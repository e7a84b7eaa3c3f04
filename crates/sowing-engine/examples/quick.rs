fn main() {
    let nodes = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let rows = sowing_engine::bench::search_bench(
        nodes,
        std::env::args()
            .nth(2)
            .and_then(|a| a.parse().ok())
            .unwrap_or(16),
        &mut |r| {
            println!(
                "{:>9} nodes depth {:>3} {:>8} us {:>9} nps  {}",
                r.nodes,
                r.depth,
                r.micros,
                r.nodes * 1_000_000 / r.micros.max(1),
                r.position
            )
        },
    );
    let n: u64 = rows.iter().map(|r| r.nodes).sum();
    let t: u64 = rows.iter().map(|r| r.micros).sum();
    println!("total {n} nodes, {} nps", n * 1_000_000 / t.max(1));
}
