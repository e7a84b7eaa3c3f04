//! The search benchmark's positions at fewer nodes, for instruction counts under callgrind
//! (`sow bench --search` at a million nodes a position is slow there):
//! `valgrind --tool=callgrind target/release/examples/sbench 100000`.

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .map_or(100_000, |a| a.parse().expect("a number of nodes"));
    let rows = sowing_engine::bench::search_bench(nodes, 16, &mut |_| {});
    let total: u64 = rows.iter().map(|r| r.nodes).sum();
    let micros: u64 = rows.iter().map(|r| r.micros).sum();
    println!(
        "{total} nodes, {} nodes/s",
        total * 1_000_000 / micros.max(1)
    );
}
