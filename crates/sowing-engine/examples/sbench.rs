fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .map_or(100_000, |a| a.parse().unwrap());
    let rows = sowing_engine::bench::search_bench(nodes, 16, &mut |_| {});
    let n: u64 = rows.iter().map(|r| r.nodes).sum();
    let us: u64 = rows.iter().map(|r| r.micros).sum();
    println!("{n} nodes {} nps", n * 1_000_000 / us.max(1));
}
