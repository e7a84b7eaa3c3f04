//! Matches between two players, as `sow match` plays them: paired openings that a fixed
//! search judges near even, games and H3.3 matches of rounds played through any chooser of
//! moves, the score with its Elo difference, and the report. The command keeps its
//! arguments and the players' seats.
//!
//! ```
//! use sowing::{Rules, Variant};
//! use sowing_engine::arena::{self, Balance};
//!
//! let openings = arena::openings(Rules::new(Variant::HoyitoII), 4, Balance::Any, 1, 3);
//! assert_eq!(openings.moves.len(), 3);
//! assert_eq!(arena::elo(0.5), 0.0);
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

use rayon::prelude::*;
use sowing::{Game, Match, Move, Outcome, Position, Record, Rules, Side, Variant};

use crate::random::{self, Rng};
use crate::{Limits, Score, SearchPlayer, SearchSettings};

mod report;
pub use report::report;

/// Which random openings a match keeps (`--balance`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Balance {
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
    pub fn default_for(rules: Rules) -> Balance {
        match rules.variant() {
            Variant::Ayoayo => Balance::Within(50),
            _ if rules.pits_per_row() > 6 => Balance::Any,
            _ => Balance::Within(300),
        }
    }
}

/// A `--balance` that is neither a number of seeds from 0 to 1000 nor `any`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBalanceError(String);

impl fmt::Display for ParseBalanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}: expected a number of seeds (0 to 1000) or `any`",
            self.0
        )
    }
}

impl std::error::Error for ParseBalanceError {}

impl FromStr for Balance {
    type Err = ParseBalanceError;

    /// `any`, or a decimal number of seeds from 0 to 1000 (kept in centiseeds).
    fn from_str(text: &str) -> Result<Balance, ParseBalanceError> {
        match text {
            "any" => Ok(Balance::Any),
            _ => text
                .parse::<f64>()
                .ok()
                .filter(|seeds| seeds.is_finite() && (0.0..=1000.0).contains(seeds))
                .map(|seeds| Balance::Within((100.0 * seeds).round() as i32))
                .ok_or_else(|| ParseBalanceError(text.to_owned())),
        }
    }
}

/// The time of a match's move, in milliseconds, when no limit is given (`sow match`,
/// `sowing.distributed`).
pub const MATCH_MOVETIME_MS: u64 = 100;

/// Nodes of the search that values openings for `--balance`, on 2×6: a fixed count, not a
/// time, so that the same seed gives the same openings on any machine (about depth 9).
/// On 2×12 four times as many: a move there can start a run of a dozen captures, and the
/// judge must see it through.
pub const BALANCE_NODES: u64 = 100_000;

/// [`BALANCE_NODES`] for the board of `rules`.
pub fn balance_nodes(rules: Rules) -> u64 {
    if rules.pits_per_row() > 6 {
        4 * BALANCE_NODES
    } else {
        BALANCE_NODES
    }
}

/// Random openings drawn for one pair before settling for the most even one seen.
pub const BALANCE_TRIES: u32 = 200;

/// The default of `--opening-plies`: enough that every pair of a long match gets its own
/// near-even opening. On 2×6 there are about 800 positions after 4 moves, and the judge
/// values only 35 of them within 3 seeds in Hoyito II (36 in Hoyito III, 24 within half a
/// seed in Ayoayo); after 6 moves about 19,500, some 6% of them that even. On 2×12 every
/// opening is kept and 4 moves give thousands.
pub fn default_opening_plies(rules: Rules) -> u32 {
    if rules.pits_per_row() > 6 {
        4
    } else {
        6
    }
}

/// The openings of a match, one per pair.
#[derive(Clone, Debug)]
pub struct Openings {
    /// Random plies of each opening.
    pub plies: u32,
    /// How even they were asked to be.
    pub balance: Balance,
    /// The moves of each pair's opening.
    pub moves: Vec<Vec<Move>>,
    /// Pairs whose opening is not as even as asked (none was, in [`BALANCE_TRIES`] draws).
    pub uneven: usize,
    /// Pairs whose opening an earlier pair played too (every draw had been played).
    pub repeated: usize,
    /// Openings played on by self-play to the first position with this many seeds on the
    /// board ([`self_play_openings`]), if they were.
    pub self_play: Option<(usize, usize)>,
}

/// One opening per pair, each from the pair's own seed, and each a position no earlier
/// pair played: a pair whose opening repeats an earlier one draws again, skipping the
/// positions played already. (Pairs are drawn in parallel first, on the current rayon
/// pool; only repeats are redrawn, in order, so the openings follow from the seed alone.)
pub fn openings(rules: Rules, plies: u32, balance: Balance, seed: u64, pairs: u64) -> Openings {
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
        self_play: None,
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

/// The player of [`self_play_openings`]: a quick search with noise, so games differ.
pub const SELF_PLAY: crate::PlayerSpec = crate::PlayerSpec::Level(3);

/// One opening per pair from self-play: `plies` random moves, then [`SELF_PLAY`] against
/// itself until the first position with between `seeds.0` and `seeds.1` seeds on the board;
/// the moves so far are the opening. A game that ends or passes below `seeds.0` first, or
/// reaches a position an earlier pair has, is drawn again (up to [`BALANCE_TRIES`] times).
/// Follows from the seed alone.
pub fn self_play_openings(
    rules: Rules,
    plies: u32,
    seeds: (usize, usize),
    seed: u64,
    pairs: u64,
) -> Openings {
    let mut played = HashSet::new();
    let mut result = Openings {
        plies,
        balance: Balance::Any,
        moves: Vec::new(),
        uneven: 0,
        repeated: 0,
        self_play: Some(seeds),
    };
    let draw = |pair: u64, attempt: u64| -> Option<Game> {
        let draw_seed = seed ^ pair.wrapping_mul(0x9E37_79B9) ^ attempt.wrapping_mul(0x85EB_CA6B);
        let mut rng = Rng::new(draw_seed);
        let mut game = random::opening(rules, plies, &mut rng);
        let mut player = SELF_PLAY.build(draw_seed);
        loop {
            let on_board = game.position().seeds_on_board();
            if game.is_over() || on_board < seeds.0 {
                return None;
            }
            if on_board <= seeds.1 {
                return Some(game);
            }
            let mv = player.choose(&game, &Limits::default(), &mut |_| {});
            game.play(mv).ok()?;
        }
    };
    for pair in 0..pairs {
        let mut chosen = None;
        for attempt in 0..BALANCE_TRIES as u64 {
            if let Some(game) = draw(pair, attempt) {
                if !played.contains(game.position()) {
                    chosen = Some(game);
                    break;
                }
                chosen.get_or_insert(game);
            }
        }
        let game = chosen.unwrap_or_else(|| Game::new(rules));
        if !played.insert(*game.position()) {
            result.repeated += 1;
        }
        result.moves.push(game.moves().to_vec());
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
    let mut rng = Rng::new(seed);
    let mut first = None;
    let mut most_even: Option<(i32, Opening)> = None;
    for _ in 0..BALANCE_TRIES {
        let game = random::opening(rules, plies, &mut rng);
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
pub fn opening_value(game: &Game) -> Option<i32> {
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

/// A side that lost a game by a fault of its player (a crash, a hang, an illegal move), and
/// what it was.
pub type Fault = (Side, String);

/// Plays one game from `start` after `opening` (as far as its moves are legal and do not
/// end the game), asking `choose` for the move of the side to move until the game is over;
/// returns the game and a fault, if any, with the side at fault. A move the rules refuse
/// is that side's fault.
pub fn play_out(
    start: Position,
    opening: &[Move],
    choose: &mut dyn FnMut(Side, &Game) -> Result<Move, String>,
) -> (Game, Option<Fault>) {
    let mut game = Game::from_position(start);
    for &mv in opening {
        if game.play(mv).is_err() || game.is_over() {
            break;
        }
    }
    while !game.is_over() {
        let side = game.position().to_move();
        match choose(side, &game) {
            Ok(mv) => {
                if let Err(e) = game.play(mv) {
                    return (game, Some((side, format!("illegal move: {e}"))));
                }
            }
            Err(fault) => return (game, Some((side, fault))),
        }
    }
    (game, None)
}

/// The two players of a game of a match, as its record names them.
#[derive(Clone, Copy, Debug)]
pub struct Pairing<'a> {
    /// The first player's name.
    pub p1: &'a str,
    /// The second player's name.
    pub p2: &'a str,
    /// Whether the first player is South.
    pub p1_south: bool,
    /// The game's index in the match (from 0; its record's `Round` is one more).
    pub index: u64,
}

impl Pairing<'_> {
    /// The first player's side.
    pub fn p1_side(&self) -> Side {
        if self.p1_south {
            Side::South
        } else {
            Side::North
        }
    }

    /// The record of `game`, with the match's tags.
    fn record(&self, game: Game) -> Record {
        let (south, north) = if self.p1_south {
            (self.p1, self.p2)
        } else {
            (self.p2, self.p1)
        };
        let mut record = Record::new(game);
        record.set_tag("Event", "sow match");
        record.set_tag("Round", (self.index + 1).to_string());
        record.set_tag("South", south);
        record.set_tag("North", north);
        record
    }

    /// How a fault reads in the report: the side, and which player that was.
    fn fault_text(&self, (side, why): &Fault) -> String {
        let who = if *side == self.p1_side() { "p1" } else { "p2" };
        format!("{side} ({who}) {why}")
    }
}

/// How one game (or one H3.3 match of rounds) went, for player 1.
#[derive(Clone, Debug)]
pub struct Played {
    /// 1, ½ or 0 for player 1.
    pub score: f64,
    /// Plies played (in every round).
    pub plies: usize,
    /// The records: one, or one per round.
    pub records: Vec<Record>,
    /// The fault that ended it, as the report says it.
    pub fault: Option<String>,
}

/// One game of `rules` after `opening`, the moves chosen by `choose` for each side; a fault
/// loses the game for the side at fault (the record says so in a `Forfeit` tag).
pub fn play_game(
    rules: Rules,
    opening: &[Move],
    pairing: Pairing<'_>,
    choose: &mut dyn FnMut(Side, &Game) -> Result<Move, String>,
) -> Played {
    let (game, fault) = play_out(Position::start(rules), opening, choose);
    let p1_side = pairing.p1_side();
    let score = match (&fault, game.outcome()) {
        (Some((side, _)), _) => f64::from(u8::from(*side != p1_side)),
        (None, Some(Outcome::Win(side))) => f64::from(u8::from(side == p1_side)),
        _ => 0.5,
    };
    let plies = game.moves().len();
    let mut record = pairing.record(game);
    let fault = fault.map(|fault| {
        record.set_tag("Forfeit", format!("{}: {}", fault.0, fault.1));
        pairing.fault_text(&fault)
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
/// capturer after a drawn round). More rounds won wins, then more seeds in all. The opening
/// is played in round 1 only; a fault ends the match, lost for the side at fault.
pub fn play_rounds(
    rules: Rules,
    rounds: u32,
    opening: &[Move],
    pairing: Pairing<'_>,
    choose: &mut dyn FnMut(Side, &Game) -> Result<Move, String>,
) -> Played {
    let mut rounds_played = Match::new(rules, rounds.max(1) as usize);
    let (mut records, mut plies, mut fault_text) = (Vec::new(), 0, None);
    let mut forfeit = None;
    while let Some(start) = rounds_played.next_start() {
        let round = rounds_played.round();
        let opening = if round == 1 { opening } else { &[] };
        let (game, fault) = play_out(start, opening, choose);
        plies += game.moves().len();
        if fault.is_none() {
            rounds_played
                .record(&game)
                .expect("a round played to its end");
        }
        let mut record = pairing.record(game);
        record.set_tag("MatchRound", round.to_string());
        if let Some(fault) = fault {
            record.set_tag("Forfeit", format!("{}: {}", fault.0, fault.1));
            fault_text = Some(pairing.fault_text(&fault));
            forfeit = Some(fault.0);
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
        Some(side) => f64::from(u8::from(side == pairing.p1_side())),
        None => 0.5,
    };
    Played {
        score,
        plies,
        records,
        fault: fault_text,
    }
}

/// Elo difference for a score fraction (clamped away from 0 and 1).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The result of a match for player 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Games (or matches of rounds) played.
    pub games: usize,
    /// Won by player 1.
    pub wins: usize,
    /// Drawn.
    pub draws: usize,
    /// Lost by player 1.
    pub losses: usize,
    /// Player 1's score as a fraction (a win 1, a draw ½).
    pub score: f64,
    /// Half the width of the score's 95% interval (1.96 standard errors).
    pub margin: f64,
    /// Average plies a game.
    pub length: f64,
    /// Games lost by a fault.
    pub faults: usize,
}

impl Summary {
    /// The summary of `games`.
    ///
    /// # Panics
    /// If `games` is empty.
    pub fn of(games: &[Played]) -> Summary {
        assert!(!games.is_empty(), "a match of no games");
        let n = games.len() as f64;
        let wins = games.iter().filter(|g| g.score == 1.0).count();
        let draws = games.iter().filter(|g| g.score == 0.5).count();
        let score = games.iter().map(|g| g.score).sum::<f64>() / n;
        let variance = games.iter().map(|g| (g.score - score).powi(2)).sum::<f64>() / n;
        Summary {
            games: games.len(),
            wins,
            draws,
            losses: games.len() - wins - draws,
            score,
            margin: 1.96 * (variance / n).sqrt(),
            length: games.iter().map(|g| g.plies).sum::<usize>() as f64 / n,
            faults: games.iter().filter(|g| g.fault.is_some()).count(),
        }
    }

    /// The Elo difference, and the ends of its 95% interval.
    pub fn elo(&self) -> (f64, f64, f64) {
        (
            elo(self.score),
            elo(self.score - self.margin),
            elo(self.score + self.margin),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Player, PlayerSpec};
    use sowing::BySide;

    #[test]
    fn self_play_openings_reach_the_seeds_asked_for_and_follow_from_the_seed() {
        let rules = Rules::new(Variant::HoyitoII);
        let openings = self_play_openings(rules, 6, (28, 36), 3, 8);
        assert_eq!(openings.moves.len(), 8);
        assert_eq!(openings.self_play, Some((28, 36)));
        let mut positions = HashSet::new();
        for moves in &openings.moves {
            let mut game = Game::new(rules);
            for &mv in moves {
                game.play(mv).unwrap();
            }
            assert!(!game.is_over());
            assert!(
                (28..=36).contains(&game.position().seeds_on_board()),
                "{moves:?}"
            );
            positions.insert(*game.position());
        }
        assert_eq!(positions.len() + openings.repeated, 8);
        assert_eq!(
            self_play_openings(rules, 6, (28, 36), 3, 8).moves,
            openings.moves
        );
    }

    /// Random players for both sides, as a chooser.
    fn random_players(seed: u64) -> impl FnMut(Side, &Game) -> Result<Move, String> {
        let mut players: BySide<Box<dyn Player>> = BySide::new(
            PlayerSpec::Random.build(seed),
            PlayerSpec::Random.build(seed ^ 0x5555),
        );
        move |side, game| Ok(players[side].choose(game, &Limits::default(), &mut |_| {}))
    }

    fn pairing(p1_south: bool) -> Pairing<'static> {
        Pairing {
            p1: "one",
            p2: "two",
            p1_south,
            index: 0,
        }
    }

    #[test]
    fn a_fault_or_an_illegal_move_loses_the_game_for_its_side() {
        let rules = Rules::new(Variant::HoyitoII);
        for p1_south in [true, false] {
            let p1_side = pairing(p1_south).p1_side();
            let mut random = random_players(1);
            let mut faulty = |side: Side, game: &Game| {
                if side == p1_side {
                    Err("crashed".to_owned())
                } else {
                    random(side, game)
                }
            };
            let played = play_game(rules, &[], pairing(p1_south), &mut faulty);
            assert_eq!(played.score, 0.0);
            assert_eq!(
                played.fault.as_deref(),
                Some(&*format!("{p1_side} (p1) crashed"))
            );
            assert!(played.records[0].to_string().contains("[Forfeit"));
        }
        // A pass while sowing moves are legal is refused: player 2 (North) loses.
        let played = play_game(rules, &[], pairing(true), &mut |side, game| {
            Ok(if side == Side::North {
                Move::Pass
            } else {
                game.legal_moves()[0]
            })
        });
        assert_eq!(played.score, 1.0);
        assert!(
            played
                .fault
                .as_deref()
                .is_some_and(|f| f.contains("(p2) illegal move")),
            "{:?}",
            played.fault
        );
        let played = play_game(rules, &[], pairing(true), &mut random_players(2));
        assert!(played.fault.is_none() && played.plies > 0);
        assert_eq!(played.records[0].tag("South"), Some("one"));
        assert_eq!(played.records[0].tag("Round"), Some("1"));
    }

    #[test]
    fn hoyito_iii_rounds_alternate_the_starter() {
        let rules = Rules::new(Variant::HoyitoIII);
        let played = play_rounds(rules, 4, &[], pairing(true), &mut random_players(7));
        assert_eq!(played.records.len(), 4);
        for (k, record) in played.records.iter().enumerate() {
            let starter = record.game.start().to_move();
            assert_eq!(starter, if k % 2 == 0 { Side::South } else { Side::North });
            assert_eq!(record.tag("MatchRound"), Some(&*(k + 1).to_string()));
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
    fn pairs_repeat_an_opening_only_when_every_opening_is_played() {
        // Hoyito II has six one-move openings: the seventh and eighth pairs must repeat.
        let rules = Rules::new(Variant::HoyitoII);
        let few = openings(rules, 1, Balance::Any, 3, 8);
        let distinct: HashSet<&Vec<Move>> = few.moves.iter().collect();
        assert_eq!((distinct.len(), few.repeated), (6, 2));
    }

    #[test]
    fn balance_takes_decimal_seeds_or_any_and_has_a_default_per_game() {
        assert_eq!("0.5".parse(), Ok(Balance::Within(50)));
        assert_eq!("3".parse(), Ok(Balance::Within(300)));
        assert_eq!("any".parse(), Ok(Balance::Any));
        for bad in ["-1", "x", "NaN", "inf", ""] {
            assert!(bad.parse::<Balance>().is_err(), "{bad}");
        }
        assert_eq!(
            "x".parse::<Balance>().unwrap_err().to_string(),
            "\"x\": expected a number of seeds (0 to 1000) or `any`"
        );
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

    #[test]
    fn a_summary_counts_each_result_and_its_interval() {
        let game = |score: f64, fault: Option<&str>| Played {
            score,
            plies: 10,
            records: Vec::new(),
            fault: fault.map(str::to_owned),
        };
        let summary = Summary::of(&[
            game(1.0, None),
            game(1.0, None),
            game(0.5, None),
            game(0.0, Some("crash")),
        ]);
        assert_eq!(
            (summary.wins, summary.draws, summary.losses, summary.faults),
            (2, 1, 1, 1)
        );
        assert!((summary.score - 0.625).abs() < 1e-12);
        // Variance (0.375² · 2 + 0.125² + 0.625²) / 4 = 0.171875.
        assert!((summary.margin - 1.96 * (0.171875f64 / 4.0).sqrt()).abs() < 1e-12);
        let (mid, low, high) = summary.elo();
        assert!(low < mid && mid < high && (mid - elo(0.625)).abs() < 1e-12);
        assert_eq!(summary.length, 10.0);
    }
}
