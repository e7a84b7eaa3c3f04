//! `sow tables errors`: the strength of a player against perfect play — over positions with
//! a real choice drawn from self-play games, the share of its moves that lose value and
//! the seeds they give up, per seed count on the board.

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Result};
use rayon::prelude::*;
use sowing::{Game, Position, Rules};
use sowing_engine::random::{self, Rng};
use sowing_engine::{PlayerSpec, TableSet};
use sowing_tables::Tables;

/// The player that plays the self-play games the positions come from: a quick search with
/// noise (level 3), so that games differ and reach every kind of endgame.
const SELF_PLAY: PlayerSpec = PlayerSpec::Level(3);

/// Random moves at the start of each self-play game.
const OPENING_PLIES: u32 = 6;

/// A position with its moves' exact values.
struct Sample {
    position: Position,
    /// Each legal move's value for the mover.
    values: Vec<(sowing::Move, i32)>,
}

/// Which positions to measure: how many, from how many seeds on the board up, and the seed
/// of the self-play games they come from.
pub struct Draw {
    /// Positions to measure.
    pub count: usize,
    /// The fewest seeds on the board.
    pub min_seeds: usize,
    /// Seed of the self-play games.
    pub seed: u64,
}

/// Positions inside `tables` with a real choice (two legal moves whose values differ),
/// taken from self-play games: each game contributes the positions it reaches inside the
/// tables, without their history (so the tables' values are exact), no position twice.
fn samples(tables: &Tables, rules: Rules, draw: &Draw) -> Vec<Sample> {
    let Draw {
        count,
        min_seeds,
        seed,
    } = *draw;
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut rng = Rng::new(seed);
    let mut game_seed = seed;
    // Each game gives a handful of positions; stop if games stop giving new ones.
    let mut barren = 0;
    while out.len() < count && barren < 200 {
        game_seed = game_seed.wrapping_add(1);
        let mut player = SELF_PLAY.build(game_seed);
        let mut game = random::opening(rules, OPENING_PLIES, &mut rng);
        let before = out.len();
        while !game.is_over() && game.moves().len() < 600 && out.len() < count {
            let pos = *game.position();
            let seeds = pos.seeds_on_board();
            if seeds >= min_seeds && tables.built(seeds) && seen.insert(pos.hash()) {
                if let Ok(probe) = tables.probe(&pos) {
                    if probe.moves.iter().any(|m| m.1 != probe.value) {
                        out.push(Sample {
                            position: pos,
                            values: probe.moves,
                        });
                    }
                }
            }
            let mv = player.choose(&game, &Default::default(), &mut |_| {});
            if game.play(mv).is_err() {
                break;
            }
        }
        barren = if out.len() > before { 0 } else { barren + 1 };
    }
    out
}

/// Per seed count: positions, moves that lost value, seeds lost.
#[derive(Clone, Copy, Default)]
struct Tally {
    positions: usize,
    lost: usize,
    seeds: i64,
}

/// Measures `spec` (with `tables_for_player`, used only if its settings ask for tables) on
/// the positions of `draw` and prints the table.
pub fn run(
    tables: &Tables,
    rules: Rules,
    spec: &PlayerSpec,
    tables_for_player: Option<Arc<TableSet>>,
    limits: &sowing_engine::Limits,
    draw: Draw,
    threads: usize,
) -> Result<()> {
    let started = std::time::Instant::now();
    let samples = samples(tables, rules, &draw);
    let seed = draw.seed;
    if samples.is_empty() {
        bail!("no self-play position with a real choice inside the tables");
    }
    eprintln!(
        "{} positions with a real choice drawn from self-play ({SELF_PLAY}) in {:.1} s; \
         playing {spec} on each",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    let tallies = Mutex::new(BTreeMap::<usize, Tally>::new());
    let pool = sowing_tables::threads::thread_pool(Some(threads))?;
    pool.install(|| {
        samples.par_iter().enumerate().for_each(|(i, sample)| {
            // A fresh player for each position: nothing learnt from another.
            let mut player = spec.build_with_tables(seed ^ i as u64, tables_for_player.clone());
            let game = Game::from_position(sample.position);
            let mv = player.choose(&game, limits, &mut |_| {});
            let best = sample.values.iter().map(|m| m.1).max().unwrap_or(0);
            let played = sample
                .values
                .iter()
                .find(|m| m.0 == mv)
                .map_or(best, |m| m.1);
            let mut tallies = tallies.lock().unwrap_or_else(|e| e.into_inner());
            let tally = tallies.entry(sample.position.seeds_on_board()).or_default();
            tally.positions += 1;
            if played < best {
                tally.lost += 1;
                tally.seeds += i64::from(best - played);
            }
        });
    });
    let tallies = tallies.into_inner().unwrap_or_else(|e| e.into_inner());
    println!(
        "{} against perfect play ({}, tables to {} seeds), positions with a real choice from self-play:",
        spec,
        sowing_tables::Family::of(rules),
        tables.max_seeds()
    );
    println!(
        "{:>6} {:>10} {:>11} {:>7} {:>11} {:>14}",
        "seeds", "positions", "lost value", "share", "seeds lost", "seeds/position"
    );
    let mut total = Tally::default();
    let line = |label: String, t: &Tally| {
        println!(
            "{label:>6} {:>10} {:>11} {:>6.1}% {:>11} {:>14.3}",
            t.positions,
            t.lost,
            100.0 * t.lost as f64 / t.positions.max(1) as f64,
            t.seeds,
            t.seeds as f64 / t.positions.max(1) as f64
        );
    };
    for (seeds, tally) in &tallies {
        line(seeds.to_string(), tally);
        total.positions += tally.positions;
        total.lost += tally.lost;
        total.seeds += tally.seeds;
    }
    line("all".to_owned(), &total);
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}
