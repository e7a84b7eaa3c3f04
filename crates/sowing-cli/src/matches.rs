//! `sow match`: N games between two players, in parallel, with paired random openings,
//! ending with the score and an Elo difference with its 95% interval.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use sowing::{BySide, Game, Move, Rules, Variant};
use sowing_engine::arena::{self, Balance, Openings, Pairing, Played};
use sowing_engine::{Limits, Player, PlayerSpec, TableSet};

use crate::external::{External, Fault};
use crate::options::{GameOptions, LimitOptions, TablesOption};

/// Play a match between two players and report the score and Elo difference.
///
/// A player is a built-in spec (random, greedy, level:1..6, perfect, search[:settings],
/// mcts[:settings]) or `engine:COMMAND`, a program that speaks UGI (docs/protocol.md).
/// Games come in pairs: each random opening is played once with each player as South.
/// An external engine that crashes, hangs or sends an illegal move loses that game.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    options: GameOptions,
    /// The first player.
    #[arg(long)]
    p1: String,
    /// The second player.
    #[arg(long)]
    p2: String,
    /// Games to play (rounded up to an even number: openings come in pairs).
    #[arg(long, default_value_t = 100)]
    games: u64,
    #[command(flatten)]
    limits: LimitOptions,
    /// Random moves at the start of each pair of games (default 6 on 2×6 boards, 4 on 2×12:
    /// enough near-even openings to give every pair its own).
    #[arg(long)]
    opening_plies: Option<u32>,
    /// Keep only openings that a fixed search values within this many seeds of even (a
    /// decimal; default 3 in Hoyito, 0.5 in Ayoayo, `any` on 2×12), so that a pair of
    /// games measures the players rather than an opening already decided (random openings
    /// often are); `any` keeps every random opening.
    #[arg(long)]
    balance: Option<Balance>,
    /// Openings from self-play instead: after the random plies, level 3 plays both sides to
    /// the first position with MIN to MAX seeds on the board (e.g. 28-36); no balance judge.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_range)]
    self_play_openings: Option<(usize, usize)>,
    /// Hoyito III: play each game as a match of R rounds under H3.3.
    #[arg(long)]
    rounds: Option<u32>,
    /// Seed of the openings and of the players' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Directory for the game records (created if missing).
    #[arg(long, default_value = "match-records")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    tables: TablesOption,
}

/// `MIN-MAX`, two whole numbers.
fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let parsed = text
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
    match parsed {
        Some((min, max)) if min <= max => Ok((min, max)),
        _ => Err(format!("{text:?}: expected MIN-MAX, like 28-36")),
    }
}

/// One side of the match.
#[derive(Clone)]
enum Entrant {
    Builtin(PlayerSpec, Option<Arc<TableSet>>),
    External(String),
}

impl Entrant {
    fn parse(text: &str, tables: Option<Arc<TableSet>>) -> Result<Entrant> {
        match text.strip_prefix("engine:") {
            Some(command) if !command.trim().is_empty() => {
                Ok(Entrant::External(command.to_owned()))
            }
            Some(_) => bail!("engine: needs a command, like engine:'sow engine'"),
            None => Ok(Entrant::Builtin(text.parse()?, tables)),
        }
    }

    fn label(&self) -> String {
        match self {
            Entrant::Builtin(spec, _) => spec.to_string(),
            Entrant::External(command) => format!("engine:{command}"),
        }
    }
}

/// A player ready to play one game.
enum Seat {
    Builtin(Box<dyn Player>),
    External(Result<External, Fault>),
}

impl Seat {
    fn new(entrant: &Entrant, rules: Rules, seed: u64) -> Seat {
        match entrant {
            Entrant::Builtin(spec, tables) => {
                Seat::Builtin(spec.build_with_tables(seed, tables.clone()))
            }
            Entrant::External(command) => Seat::External(External::start(command, rules)),
        }
    }

    fn choose(&mut self, game: &Game, limits: &Limits, timeout: Duration) -> Result<Move, Fault> {
        match self {
            Seat::Builtin(player) => Ok(player.choose(game, limits, &mut |_| {})),
            Seat::External(Ok(engine)) => engine.choose(game, limits, timeout),
            Seat::External(Err(fault)) => Err(fault.clone()),
        }
    }
}

pub fn run(args: Args) -> Result<()> {
    let rules = args.options.rules_or(Variant::HoyitoII)?;
    if args.rounds.is_some() && rules.variant() != Variant::HoyitoIII {
        bail!("--rounds plays Hoyito III matches (H3.3): add --game hoyito-iii");
    }
    let tables = args.tables.resolve()?;
    let p1 = Entrant::parse(&args.p1, tables.clone()).context("--p1")?;
    let p2 = Entrant::parse(&args.p2, tables).context("--p2")?;
    let limits = args.limits.limits(sowing_engine::arena::MATCH_MOVETIME_MS);
    // An external engine may overrun a little; past this it has hung.
    let timeout = limits
        .time
        .map_or(Duration::from_secs(60), |t| t * 3 + Duration::from_secs(2));
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let pairs = args.games.div_ceil(2).max(1);
    let total = 2 * pairs;
    let pool = sowing_tables::threads::thread_pool(args.threads)?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed} / ~{eta}]")
            .expect("a valid template"),
    );
    bar.set_message("choosing openings");
    let balance = args.balance.unwrap_or(Balance::default_for(rules));
    let plies = args
        .opening_plies
        .unwrap_or(arena::default_opening_plies(rules));
    let openings = match args.self_play_openings {
        Some(seeds) => arena::self_play_openings(rules, plies, seeds, args.seed, pairs),
        None => pool.install(|| arena::openings(rules, plies, balance, args.seed, pairs)),
    };
    let points = AtomicU64::new(0);
    let games: Vec<Played> = pool.install(|| {
        (0..total)
            .into_par_iter()
            .map(|index| {
                let opening = &openings.moves[index as usize / 2];
                let p1_south = index % 2 == 0;
                let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(index);
                let played = play(
                    rules,
                    args.rounds,
                    opening,
                    &p1,
                    &p2,
                    p1_south,
                    seed,
                    &limits,
                    timeout,
                    index,
                );
                for (k, record) in played.records.iter().enumerate() {
                    let name = match args.rounds {
                        None => format!("game-{:04}.txt", index + 1),
                        Some(_) => format!("game-{:04}-round-{}.txt", index + 1, k + 1),
                    };
                    if let Err(e) = std::fs::write(args.out.join(name), record.to_string()) {
                        bar.println(format!("could not save a record: {e}"));
                    }
                }
                if let Some(fault) = &played.fault {
                    bar.println(format!(
                        "game {}: {fault}; scored as lost for it",
                        index + 1
                    ));
                }
                let half_points = points.fetch_add((played.score * 2.0) as u64, Ordering::Relaxed)
                    + (played.score * 2.0) as u64;
                bar.inc(1);
                bar.set_message(format!(
                    "p1 {:.1}%",
                    50.0 * half_points as f64 / bar.position().max(1) as f64
                ));
                played
            })
            .collect()
    });
    bar.finish_and_clear();
    report(&args, rules, &openings, &p1, &p2, &games);
    Ok(())
}

fn seats(p1: &Entrant, p2: &Entrant, p1_south: bool, rules: Rules, seed: u64) -> BySide<Seat> {
    let (south, north) = if p1_south { (p1, p2) } else { (p2, p1) };
    BySide::new(
        Seat::new(south, rules, seed),
        Seat::new(north, rules, seed ^ 0x5555),
    )
}

/// Seats both players and plays one game of the match (or, with `rounds`, an H3.3 match of
/// rounds) through the arena.
#[allow(clippy::too_many_arguments)]
fn play(
    rules: Rules,
    rounds: Option<u32>,
    opening: &[Move],
    p1: &Entrant,
    p2: &Entrant,
    p1_south: bool,
    seed: u64,
    limits: &Limits,
    timeout: Duration,
    index: u64,
) -> Played {
    let mut seats = seats(p1, p2, p1_south, rules, seed);
    let (p1, p2) = (p1.label(), p2.label());
    let pairing = Pairing {
        p1: &p1,
        p2: &p2,
        p1_south,
        index,
    };
    let mut choose = |side, game: &Game| {
        seats[side]
            .choose(game, limits, timeout)
            .map_err(|fault| fault.0)
    };
    match rounds {
        None => arena::play_game(rules, opening, pairing, &mut choose),
        Some(rounds) => arena::play_rounds(rules, rounds, opening, pairing, &mut choose),
    }
}

fn report(
    args: &Args,
    rules: Rules,
    openings: &Openings,
    p1: &Entrant,
    p2: &Entrant,
    games: &[Played],
) {
    print!(
        "{}",
        arena::report(
            rules,
            &p1.label(),
            &p2.label(),
            args.rounds.is_some(),
            openings,
            games,
            &args.out.display().to_string(),
        )
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crashing_engine_loses_the_game_and_the_match_carries_on() {
        let rules = Rules::new(Variant::HoyitoII);
        let crash = Entrant::External("exit 3".to_owned());
        let greedy = Entrant::Builtin(PlayerSpec::Greedy, None);
        let limits = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        let timeout = Duration::from_secs(5);
        for p1_south in [true, false] {
            let played = play(
                rules,
                None,
                &[],
                &crash,
                &greedy,
                p1_south,
                1,
                &limits,
                timeout,
                0,
            );
            assert_eq!(played.score, 0.0);
            assert!(
                played.fault.as_deref().is_some_and(|f| f.contains("p1")),
                "{:?}",
                played.fault
            );
            assert!(played.records[0].to_string().contains("[Forfeit"));
        }
        let played = play(
            rules,
            None,
            &[],
            &greedy,
            &greedy,
            true,
            1,
            &limits,
            timeout,
            1,
        );
        assert!(played.fault.is_none() && played.plies > 0);
        assert_eq!(played.records[0].tag("South"), Some("greedy"));
    }
}
