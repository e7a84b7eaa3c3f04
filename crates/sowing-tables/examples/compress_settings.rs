//! Measures compressed-layer settings on one raw layer file: for each block size and zstd
//! level, the size ratio, the time to compress, and the time of a read that decompresses
//! its block (random positions, each in a block not cached) — the figures behind
//! `compressed::Settings::default()` (docs/tables.md, "Compressed tables").
//!
//! `cargo run --release -p sowing-tables --example compress_settings -- DIR FAMILY SEEDS
//! [BLOCKS [LEVELS]]`, e.g. `… target/compress-bench/h2 hoyito-ii-2x6-casa-rows=any 20
//! 1024,4096,16384 3,9,19` (FAMILY is the directory name under DIR).

use std::time::Instant;

use sowing_tables::compressed::{self, Settings};
use sowing_tables::{file, Family};

fn list(arg: Option<&String>, default: &str) -> Vec<i64> {
    arg.map_or(default, |s| s.as_str())
        .split(',')
        .map(|n| n.parse().expect("a comma-separated list of numbers"))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: compress_settings DIR FAMILY SEEDS [BLOCKS [LEVELS]]");
        std::process::exit(2);
    }
    let dir = std::path::Path::new(&args[0]);
    let family = *Family::all()
        .iter()
        .find(|f| f.name() == args[1])
        .unwrap_or_else(|| {
            eprintln!("no family named {}", args[1]);
            std::process::exit(2)
        });
    let seeds: usize = args[2].parse().expect("SEEDS: a number");
    let blocks = list(args.get(3), "1024,4096,16384");
    let levels = list(args.get(4), "3,9,19");
    let path = file::layer_path(dir, &family, seeds);
    let raw = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(1)
    });
    let values = &raw[file::HEADER_LEN..];
    println!(
        "{family} layer {seeds}: {} positions, {} bytes raw",
        values.len(),
        raw.len()
    );
    println!("block   level   bytes        ratio   compress s   miss p50 µs   miss p99 µs");
    for &block in &blocks {
        for &level in &levels {
            let settings = Settings {
                block: block as u32,
                level: level as i32,
            };
            let started = Instant::now();
            let bytes = compressed::compress(&family, seeds, values, settings).expect("compress");
            let seconds = started.elapsed().as_secs_f64();
            let size = bytes.len();
            let layer =
                compressed::Layer::new(Box::new(bytes), &path, &family, seeds).expect("read back");
            // Positions spread over the layer, one a block at most, so that each misses.
            let step = (values.len() as u64 / 20_000).max(block as u64 + 1);
            let mut times = Vec::new();
            let mut index = 7u64;
            while index < values.len() as u64 && times.len() < 20_000 {
                let started = Instant::now();
                let v = layer.get(index).expect("decompresses");
                times.push(started.elapsed().as_secs_f64() * 1e6);
                assert_eq!(v, values[index as usize]);
                index += step;
            }
            times.sort_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
            println!(
                "{block:<7} {level:<7} {size:<12} {:<7.2} {seconds:<12.2} {:<13.2} {:.2}",
                raw.len() as f64 / size as f64,
                at(0.5),
                at(0.99)
            );
        }
    }
}
