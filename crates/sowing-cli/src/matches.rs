//! `sow match`: N games between two players, in parallel, with paired random openings,
//! ending with the score and an Elo difference with its 95% interval.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use sowing::{BySide, Game, Match, Move, Outcome, Position, Record, Rules, Side, Variant};
use sowing_engine::{Limits, Player, PlayerSpec, Score, SearchPlayer, SearchSettings};

use crate::external::{External, Fault};
use crate::options::{GameOptions, LimitOptions};

/// Play a match between two players and report the score and Elo difference.
///
/// A player is a built-in spec (random, greedy, level:1..6, search[:settings],
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
    #[arg(long, value_parser = parse_balance)]
    balance: Option<Balance>,
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
}

/// One side of the match.
#[derive(Clone)]
enum Entrant {
    Builtin(PlayerSpec),
    External(String),
}

impl Entrant {
    fn parse(text: &str) -> Result<Entrant> {
        match text.strip_prefix("engine:") {
            Some(command) if !command.trim().is_empty() => {
                Ok(Entrant::External(command.to_owned()))
            }
            Some(_) => bail!("engine: needs a command, like engine:'sow engine'"),
            None => Ok(Entrant::Builtin(text.parse()?)),
        }
    }

    fn label(&self) -> String {
        match self {
            Entrant::Builtin(spec) => spec.to_string(),
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
            Entrant::Builtin(spec) => Seat::Builtin(spec.build(seed)),
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

/// How one game (or one H3.3 match of rounds) went, for player 1.
struct Played {
    /// 1, ½ or 0 for player 1.
    score: f64,
    plies: usize,
    records: Vec<Record>,
    fault: Option<String>,
}

pub fn run(args: Args) -> Result<()> {
    let rules = args.options.rules_or(Variant::HoyitoII)?;
    if args.rounds.is_some() && rules.variant() != Variant::HoyitoIII {
        bail!("--rounds plays Hoyito III matches (H3.3): add --game hoyito-iii");
    }
    let p1 = Entrant::parse(&args.p1).context("--p1")?;
    let p2 = Entrant::parse(&args.p2).context("--p2")?;
    let limits = args.limits.limits(100);
    // An external engine may overrun a little; past this it has hung.
    let timeout = limits
        .time
        .map_or(Duration::from_secs(60), |t| t * 3 + Duration::from_secs(2));
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let pairs = args.games.div_ceil(2).max(1);
    let total = 2 * pairs;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
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
    let plies = args.opening_plies.unwrap_or(default_opening_plies(rules));
    let openings = pool.install(|| openings(rules, plies, balance, args.seed, pairs));
    let points = AtomicU64::new(0);
    let games: Vec<Played> = pool.install(|| {
        (0..total)
            .into_par_iter()
            .map(|index| {
                let opening = &openings.moves[index as usize / 2];
                let p1_south = index % 2 == 0;
                let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(index);
                let played = match args.rounds {
                    None => play_game(
                        rules, opening, &p1, &p2, p1_south, seed, &limits, timeout, index,
                    ),
                    Some(rounds) => play_rounds(
                        rules, rounds, opening, &p1, &p2, p1_south, seed, &limits, timeout, index,
                    ),
                };
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

/// Which random openings a match keeps (`--balance`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Balance {
    /// Those the search values within this many centiseeds of even.
    Within(i32),
    /// Every one.
    Any,
}

impl Balance {
    /// The default for a game: its games are decided by margins of different sizes. Hoyito
    /// captures come four seeds at a time; Ayoayo games are mostly decided by a seed or
    /// two, so an opening worth 2 seeds there is already won. On Hoyito II's 2×12 board
    /// hardly any opening is near even (the twelve first moves are worth +22 to −78 seeds
    /// to South): every opening is kept there.
    fn default_for(rules: Rules) -> Balance {
        match rules.variant() {
            Variant::Ayoayo => Balance::Within(50),
            _ if rules.pits_per_row() > 6 => Balance::Any,
            _ => Balance::Within(300),
        }
    }
}

fn parse_balance(text: &str) -> Result<Balance, String> {
    match text {
        "any" => Ok(Balance::Any),
        _ => text
            .parse::<f64>()
            .ok()
            .filter(|seeds| seeds.is_finite() && (0.0..=1000.0).contains(seeds))
            .map(|seeds| Balance::Within((100.0 * seeds).round() as i32))
            .ok_or_else(|| format!("{text:?}: expected a number of seeds (0 to 1000) or `any`")),
    }
}

/// Nodes of the search that values openings for `--balance`, on 2×6: a fixed count, not a
/// time, so that the same seed gives the same openings on any machine (about depth 9).
/// On 2×12 four times as many: a move there can start a run of a dozen captures, and the
/// judge must see it through.
const BALANCE_NODES: u64 = 100_000;

/// [`BALANCE_NODES`] for the board of `rules`.
fn balance_nodes(rules: Rules) -> u64 {
    if rules.pits_per_row() > 6 {
        4 * BALANCE_NODES
    } else {
        BALANCE_NODES
    }
}

/// Random openings drawn for one pair before settling for the most even one seen.
const BALANCE_TRIES: u32 = 200;

/// The default of `--opening-plies`: enough that every pair of a long match gets its own
/// near-even opening. On 2×6 there are about 800 positions after 4 moves, and the judge
/// values only 35 of them within 3 seeds in Hoyito II (36 in Hoyito III, 24 within half a
/// seed in Ayoayo); after 6 moves about 19,500, some 6% of them that even. On 2×12 every
/// opening is kept and 4 moves give thousands.
fn default_opening_plies(rules: Rules) -> u32 {
    if rules.pits_per_row() > 6 {
        4
    } else {
        6
    }
}

/// The openings of a match, one per pair.
struct Openings {
    plies: u32,
    balance: Balance,
    moves: Vec<Vec<Move>>,
    /// Pairs whose opening is not as even as asked (none was, in [`BALANCE_TRIES`] draws).
    uneven: usize,
    /// Pairs whose opening an earlier pair played too (every draw had been played).
    repeated: usize,
}

/// One opening per pair, each from the pair's own seed, and each a position no earlier
/// pair played: a pair whose opening repeats an earlier one draws again, skipping the
/// positions played already. (Pairs are drawn in parallel first; only repeats are redrawn,
/// in order, so the openings follow from the seed alone.)
fn openings(rules: Rules, plies: u32, balance: Balance, seed: u64, pairs: u64) -> Openings {
    let pair_seed = |pair: u64| seed ^ pair.wrapping_mul(0x9E37_79B9);
    let judge = Judge::default();
    let no_position = HashSet::new();
    let first: Vec<Opening> = (0..pairs)
        .into_par_iter()
        .map(|pair| opening(rules, plies, balance, pair_seed(pair), &no_position, &judge))
        .collect();
    let mut played = HashSet::new();
    let mut result = Openings {
        plies,
        balance,
        moves: Vec::new(),
        uneven: 0,
        repeated: 0,
    };
    for (pair, mut drawn) in (0..pairs).zip(first) {
        if played.contains(&drawn.position) {
            let again = opening(rules, plies, balance, pair_seed(pair), &played, &judge);
            if played.contains(&again.position) {
                result.repeated += 1;
            } else {
                drawn = again;
            }
        }
        played.insert(drawn.position);
        result.uneven += usize::from(!drawn.even);
        result.moves.push(drawn.moves);
    }
    result
}

/// An opening and what the judge made of it.
struct Opening {
    moves: Vec<Move>,
    /// Where it leads: two move orders to one position are one opening.
    position: Position,
    /// Within the balance asked for.
    even: bool,
}

/// `plies` random legal moves from the start that do not end the game, leaving out those
/// that reach a position in `played`; with `balance`, redrawn until the search values the
/// position within `balance` seeds of even (else the most even of the draws). If every
/// draw reaches a position played already, the first draw.
fn opening(
    rules: Rules,
    plies: u32,
    balance: Balance,
    seed: u64,
    played: &HashSet<Position>,
    judge: &Judge,
) -> Opening {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut first = None;
    let mut most_even: Option<(i32, Opening)> = None;
    for _ in 0..BALANCE_TRIES {
        let game = random_opening(rules, plies, &mut rng);
        let drawn = Opening {
            moves: game.moves().to_vec(),
            position: *game.position(),
            even: true,
        };
        if played.contains(&drawn.position) {
            first.get_or_insert(drawn);
            continue;
        }
        let Balance::Within(balance) = balance else {
            return drawn;
        };
        // An opening the judge could not value at all (no iteration completed) counts as
        // the least even.
        let centiseeds = judge.value(&game).map_or(i32::MAX, i32::abs);
        if centiseeds <= balance {
            return drawn;
        }
        if most_even
            .as_ref()
            .is_none_or(|(best, _)| centiseeds < *best)
        {
            let uneven = Opening {
                even: false,
                ..drawn
            };
            most_even = Some((centiseeds, uneven));
        }
    }
    most_even
        .map(|(_, opening)| opening)
        .or(first)
        .expect("at least one draw")
}

/// The balance judge's values by position, kept because redraws revisit the same draws.
#[derive(Default)]
struct Judge(Mutex<HashMap<Position, Option<i32>>>);

impl Judge {
    /// [`opening_value`] of `game`, judged once per position.
    fn value(&self, game: &Game) -> Option<i32> {
        let position = *game.position();
        let known = self.0.lock().expect("no panics").get(&position).copied();
        known.unwrap_or_else(|| {
            let value = opening_value(game);
            self.0.lock().expect("no panics").insert(position, value);
            value
        })
    }
}

/// What the balance judge — a search of [`balance_nodes`] — values `game` at, in
/// centiseeds for the side to move; `None` if it completed no iteration.
fn opening_value(game: &Game) -> Option<i32> {
    let settings = SearchSettings {
        hash_mib: 1,
        ..SearchSettings::default()
    };
    let limits = Limits {
        nodes: Some(balance_nodes(game.rules())),
        ..Limits::default()
    };
    let mut judge = SearchPlayer::new("judge".to_owned(), settings, 0);
    let result = judge.analyse(game, &limits, &mut |_| {});
    match result.score {
        _ if result.depth == 0 => None,
        Score::Estimate(centi) => Some(centi),
        Score::Proven(margin) => Some(100 * margin),
    }
}

/// `plies` random legal moves from the start that do not end the game.
fn random_opening(rules: Rules, plies: u32, rng: &mut SmallRng) -> Game {
    let mut game = Game::new(rules);
    for _ in 0..plies {
        let legal = game.legal_moves();
        let Some(&mv) = legal.choose(rng) else {
            break;
        };
        game.play(mv).expect("legal");
        if game.is_over() {
            game.undo();
            break;
        }
    }
    game
}

/// Plays one game from `start` after `opening`; returns the game and a fault, if any,
/// with the side at fault.
#[allow(clippy::too_many_arguments)]
fn play_one(
    start: Position,
    opening: &[Move],
    seats: &mut BySide<Seat>,
    limits: &Limits,
    timeout: Duration,
) -> (Game, Option<(Side, String)>) {
    let mut game = Game::from_position(start);
    for &mv in opening {
        if game.play(mv).is_err() || game.is_over() {
            break;
        }
    }
    while !game.is_over() {
        let side = game.position().to_move();
        match seats[side].choose(&game, limits, timeout) {
            Ok(mv) => {
                if let Err(e) = game.play(mv) {
                    return (game, Some((side, format!("illegal move: {e}"))));
                }
            }
            Err(fault) => return (game, Some((side, fault.0))),
        }
    }
    (game, None)
}

fn seats(p1: &Entrant, p2: &Entrant, p1_south: bool, rules: Rules, seed: u64) -> BySide<Seat> {
    let (south, north) = if p1_south { (p1, p2) } else { (p2, p1) };
    BySide::new(
        Seat::new(south, rules, seed),
        Seat::new(north, rules, seed ^ 0x5555),
    )
}

fn record(game: Game, p1: &Entrant, p2: &Entrant, p1_south: bool, index: u64) -> Record {
    let (south, north) = if p1_south { (p1, p2) } else { (p2, p1) };
    let mut record = Record::new(game);
    record.set_tag("Event", "sow match");
    record.set_tag("Round", (index + 1).to_string());
    record.set_tag("South", south.label());
    record.set_tag("North", north.label());
    record
}

#[allow(clippy::too_many_arguments)]
fn play_game(
    rules: Rules,
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
    let (game, fault) = play_one(Position::start(rules), opening, &mut seats, limits, timeout);
    let p1_side = if p1_south { Side::South } else { Side::North };
    let score = match (&fault, game.outcome()) {
        (Some((side, _)), _) => f64::from(u8::from(*side != p1_side)),
        (None, Some(Outcome::Win(side))) => f64::from(u8::from(side == p1_side)),
        _ => 0.5,
    };
    let plies = game.moves().len();
    let mut record = record(game, p1, p2, p1_south, index);
    let fault = fault.map(|(side, why)| {
        record.set_tag("Forfeit", format!("{side}: {why}"));
        format!(
            "{side} ({}) {why}",
            if side == p1_side { "p1" } else { "p2" }
        )
    });
    Played {
        score,
        plies,
        records: vec![record],
        fault,
    }
}

/// A Hoyito III match of `rounds` rounds (H3.3): South starts round 1, the starter
/// alternates; from round 3 the last four go to the previous round's winner (to the
/// capturer after a drawn round). More rounds won wins, then more seeds in all.
#[allow(clippy::too_many_arguments)]
fn play_rounds(
    rules: Rules,
    rounds: u32,
    opening: &[Move],
    p1: &Entrant,
    p2: &Entrant,
    p1_south: bool,
    seed: u64,
    limits: &Limits,
    timeout: Duration,
    index: u64,
) -> Played {
    let p1_side = if p1_south { Side::South } else { Side::North };
    let mut seats = seats(p1, p2, p1_south, rules, seed);
    let mut rounds_played = Match::new(rules, rounds.max(1) as usize);
    let (mut records, mut plies, mut fault_text) = (Vec::new(), 0, None);
    let mut forfeit = None;
    while let Some(start) = rounds_played.next_start() {
        let round = rounds_played.round();
        let opening = if round == 1 { opening } else { &[] };
        let (game, fault) = play_one(start, opening, &mut seats, limits, timeout);
        plies += game.moves().len();
        if fault.is_none() {
            rounds_played
                .record(&game)
                .expect("a round played to its end");
        }
        let mut record = record(game, p1, p2, p1_south, index);
        record.set_tag("MatchRound", round.to_string());
        if let Some((side, why)) = fault {
            record.set_tag("Forfeit", format!("{side}: {why}"));
            fault_text = Some(format!(
                "{side} ({}) {why}",
                if side == p1_side { "p1" } else { "p2" }
            ));
            forfeit = Some(side);
            records.push(record);
            break;
        }
        records.push(record);
    }
    let winner = match (forfeit, rounds_played.outcome()) {
        (Some(side), _) => Some(!side),
        (None, Some(Outcome::Win(side))) => Some(side),
        _ => None,
    };
    let score = match winner {
        Some(side) => f64::from(u8::from(side == p1_side)),
        None => 0.5,
    };
    Played {
        score,
        plies,
        records,
        fault: fault_text,
    }
}

/// Elo difference for a score fraction.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn report(
    args: &Args,
    rules: Rules,
    openings: &Openings,
    p1: &Entrant,
    p2: &Entrant,
    games: &[Played],
) {
    let n = games.len() as f64;
    let wins = games.iter().filter(|g| g.score == 1.0).count();
    let draws = games.iter().filter(|g| g.score == 0.5).count();
    let losses = games.len() - wins - draws;
    let score = games.iter().map(|g| g.score).sum::<f64>() / n;
    let variance = games.iter().map(|g| (g.score - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    let length = games.iter().map(|g| g.plies).sum::<usize>() as f64 / n;
    let unit = if args.rounds.is_some() {
        "matches"
    } else {
        "games"
    };
    println!("{} vs {}: {} {unit}", p1.label(), p2.label(), games.len());
    let plies = openings.plies;
    match openings.balance {
        Balance::Within(centiseeds) => println!(
            "openings: {plies} random plies, valued within ±{} seeds by a {}-node search \
             ({} pairs had none in {BALANCE_TRIES} draws: the most even was played)",
            f64::from(centiseeds) / 100.0,
            balance_nodes(rules),
            openings.uneven
        ),
        Balance::Any => println!("openings: {plies} random plies"),
    }
    if openings.repeated > 0 {
        println!(
            "{} pairs repeat an earlier pair's opening (every draw had been played): \
             more --opening-plies give more openings",
            openings.repeated
        );
    }
    println!("p1 wins {wins}, draws {draws}, losses {losses}");
    println!(
        "p1 score {:.1}% ({:.1} / {})",
        100.0 * score,
        score * n,
        games.len()
    );
    let (low, high) = (elo(score - margin), elo(score + margin));
    println!(
        "Elo difference {:+.0} (95% interval {:+.0} to {:+.0})",
        elo(score),
        low,
        high
    );
    println!("average length {length:.1} plies");
    let faults = games.iter().filter(|g| g.fault.is_some()).count();
    if faults > 0 {
        println!("{faults} {unit} lost by an engine fault (crash, hang or illegal move)");
    }
    println!("records in {}", args.out.display());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crashing_engine_loses_the_game_and_the_match_carries_on() {
        let rules = Rules::new(Variant::HoyitoII);
        let crash = Entrant::External("exit 3".to_owned());
        let greedy = Entrant::Builtin(PlayerSpec::Greedy);
        let limits = Limits {
            nodes: Some(100),
            ..Limits::default()
        };
        for p1_south in [true, false] {
            let played = play_game(
                rules,
                &[],
                &crash,
                &greedy,
                p1_south,
                1,
                &limits,
                Duration::from_secs(5),
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
        let played = play_game(
            rules,
            &[],
            &greedy,
            &greedy,
            true,
            1,
            &limits,
            Duration::from_secs(5),
            1,
        );
        assert!(played.fault.is_none() && played.plies > 0);
    }

    #[test]
    fn hoyito_iii_rounds_alternate_the_starter() {
        let rules = Rules::new(Variant::HoyitoIII);
        let p = Entrant::Builtin(PlayerSpec::Random);
        let limits = Limits::default();
        let played = play_rounds(
            rules,
            4,
            &[],
            &p,
            &p,
            true,
            7,
            &limits,
            Duration::from_secs(5),
            0,
        );
        assert_eq!(played.records.len(), 4);
        for (k, record) in played.records.iter().enumerate() {
            let starter = record.game.start().to_move();
            assert_eq!(starter, if k % 2 == 0 { Side::South } else { Side::North });
        }
    }

    #[test]
    fn balanced_openings_are_even_by_the_judge_distinct_and_follow_from_the_seed() {
        let rules = Rules::new(Variant::HoyitoII);
        let balanced = openings(rules, 4, Balance::Within(300), 7, 3);
        assert_eq!(
            balanced.moves,
            openings(rules, 4, Balance::Within(300), 7, 3).moves
        );
        assert_eq!((balanced.uneven, balanced.repeated), (0, 0));
        let mut positions = HashSet::new();
        for moves in &balanced.moves {
            let mut game = Game::new(rules);
            for &mv in moves {
                game.play(mv).expect("a legal opening");
            }
            let centiseeds = opening_value(&game).expect("a valued opening");
            assert!(
                centiseeds.abs() <= 300,
                "{moves:?}: {centiseeds} centiseeds"
            );
            assert!(positions.insert(*game.position()), "{moves:?} twice");
        }
        // Without balance, every random opening is kept, and no pair repeats one.
        let any = openings(rules, 4, Balance::Any, 9, 40);
        assert!(any.moves.iter().all(|moves| moves.len() == 4));
        assert_eq!(any.repeated, 0);
    }

    #[test]
    fn pairs_repeat_an_opening_only_when_every_opening_is_played_and_the_report_says_so() {
        // Hoyito II has six one-move openings: the seventh and eighth pairs must repeat.
        let rules = Rules::new(Variant::HoyitoII);
        let few = openings(rules, 1, Balance::Any, 3, 8);
        let distinct: HashSet<&Vec<Move>> = few.moves.iter().collect();
        assert_eq!((distinct.len(), few.repeated), (6, 2));
    }

    #[test]
    fn balance_takes_decimal_seeds_or_any_and_has_a_default_per_game() {
        assert_eq!(parse_balance("0.5"), Ok(Balance::Within(50)));
        assert_eq!(parse_balance("3"), Ok(Balance::Within(300)));
        assert_eq!(parse_balance("any"), Ok(Balance::Any));
        for bad in ["-1", "x", "NaN", "inf", ""] {
            assert!(parse_balance(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Balance::default_for(Rules::new(Variant::Ayoayo)),
            Balance::Within(50)
        );
        assert_eq!(
            Balance::default_for(Rules::new(Variant::HoyitoII)),
            Balance::Within(300)
        );
        let long = Rules::new(Variant::HoyitoII)
            .with_pits(12)
            .expect("a board");
        assert_eq!(Balance::default_for(long), Balance::Any);
    }

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        assert!(elo(0.25) < 0.0);
    }
}
