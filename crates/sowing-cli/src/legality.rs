//! `sow bench --legality`: how long deciding the legal moves of a position takes at worst,
//! over random games and the known sowings with the longest cycles (C.1).
//!
//! Every position met is timed once; one that took longer than [`RETIME_ABOVE`] is timed
//! again several times and the fastest kept: a preemption of this shared machine only ever
//! adds time, so the fastest of several runs is the check's own cost (a median of nine was
//! seen 170 times too slow while other builds loaded both cores).

use std::time::{Duration, Instant};

use anyhow::Result;
use sowing::{Game, Position, Rules};
use sowing_engine::random::Rng;

/// Endless sowings whose cycles are the longest known: 4,628,448 and 2,352,774 laps on 2×6,
/// and a 2×12 one that took 44 s to prove endless exactly (docs/rules.md, C.1).
pub const LONG_CYCLES: [&str; 3] = [
    "hoyito-ii 4,0,7,3,5,12/3,1,5,2,1,5 0-0 N -",
    "hoyito-ii 13,2,1,0,1,5/1,0,1,0,2,22 0-0 S -",
    "hoyito-ii 1,2,4,3,4,6,15,0,7,1,0,1/5,4,1,5,1,0,7,1,2,1,3,2 8-12 S -",
];

/// A check slower than this is timed again: nearly every position takes under a microsecond,
/// a sowing refused at the lap cap a few hundred.
const RETIME_ABOVE: Duration = Duration::from_micros(20);
/// How often a slow position is timed again.
const RETIMES: usize = 9;

/// What one board's random games showed.
pub struct Worst {
    /// Positions whose legal moves were decided.
    pub positions: u64,
    /// Their mean time in nanoseconds.
    pub mean_ns: f64,
    /// The slowest position and its time (the fastest of its re-timings if it was slow).
    pub slowest: (Position, Duration),
}

/// The time of deciding the legal moves of `position`: the fastest of `RETIMES` runs.
pub fn retime(position: &Position) -> Duration {
    (0..RETIMES)
        .map(|_| {
            let clock = Instant::now();
            std::hint::black_box(position.legal_moves());
            clock.elapsed()
        })
        .min()
        .expect("at least one run")
}

/// Plays `games` random games (uniform over the legal moves, from `seed`) and times the
/// legal-move list of every position reached.
pub fn random_games(rules: Rules, games: u64, seed: u64) -> Result<Worst> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(rules);
    let mut slowest = (Position::start(rules), Duration::ZERO);
    let (mut positions, mut total) = (0u64, Duration::ZERO);
    for _ in 0..games {
        game.reset(Position::start(rules));
        while !game.is_over() {
            let position = *game.position();
            let clock = Instant::now();
            let moves = position.legal_moves();
            let mut took = clock.elapsed();
            if took > RETIME_ABOVE {
                took = retime(&position);
            }
            positions += 1;
            total += took;
            if took > slowest.1 {
                slowest = (position, took);
            }
            let mv = *rng.pick(&moves).expect("a game that goes on has a move");
            game.play(mv)?;
        }
    }
    Ok(Worst {
        positions,
        mean_ns: total.as_secs_f64() * 1e9 / positions.max(1) as f64,
        slowest,
    })
}
