//! Property tests over random arenas: players join, pause and come back, pairings are asked
//! for at random times (before the start, during, near and after the end), games end with
//! random results, berserks and move counts. After every event the standings equal a
//! recount written here apart from the crate; every pairing is checked against the rules,
//! and for up to `BRUTE_MAX` players waiting, against an exhaustive search.

use std::collections::HashSet;

use proptest::prelude::*;
use proptest::sample::Index;
use sowing_arena::*;

/// The most players waiting for which a pairing is compared with the exhaustive search.
const BRUTE_MAX: usize = 10;

const SCHEDULE: Schedule = Schedule {
    start: 60_000,
    end: 20 * 60_000,
};

#[derive(Clone, Debug)]
enum Event {
    Join(i32),
    Pause(Index),
    Resume(Index),
    /// Time passes, then a pairing is asked for.
    Pair(Millis),
    /// Time passes, then a game in progress ends.
    Finish {
        game: Index,
        after: Millis,
        result: u8,
        berserk: (bool, bool),
        moves: (u32, u32),
    },
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        1 => (1000..2000i32).prop_map(Event::Join),
        1 => any::<Index>().prop_map(Event::Pause),
        1 => any::<Index>().prop_map(Event::Resume),
        4 => (0..20_000u64).prop_map(Event::Pair),
        6 => (any::<Index>(), 0..40_000u64, 0u8..3, any::<(bool, bool)>(), (0..12u32, 0..12u32))
            .prop_map(|(game, after, result, berserk, moves)| Event::Finish {
                game,
                after,
                result,
                berserk,
                moves,
            }),
    ]
}

fn arena_events() -> impl Strategy<Value = (Vec<i32>, Vec<Event>)> {
    (
        prop::collection::vec(1000..2000i32, 2..=12),
        prop::collection::vec(event(), 1..=120),
    )
}

/// One line of the recount: player, points, performance, rating, sheet, on fire.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    player: PlayerId,
    points: u32,
    performance: Option<i32>,
    rating: i32,
    sheet: Vec<u32>,
    on_fire: bool,
}

/// The standings recounted from the players and the games, plainly.
fn recount(players: &[Player], games: &[Finished]) -> Vec<Line> {
    let rating = |id: PlayerId| players.iter().find(|p| p.id == id).unwrap().rating;
    let mut lines: Vec<Line> = players
        .iter()
        .map(|p| {
            let mut wins_in_a_row = 0;
            let mut sheet = Vec::new();
            let mut sum: i64 = 0;
            for g in games.iter().filter(|g| g.ended <= SCHEDULE.end) {
                let (won, drew, opponent, berserked, moves) = if g.board.south == p.id {
                    let won = g.result == GameResult::SouthWins;
                    let drew = g.result == GameResult::Draw;
                    (won, drew, g.board.north, g.berserk.south, g.moves.south)
                } else if g.board.north == p.id {
                    let won = g.result == GameResult::NorthWins;
                    let drew = g.result == GameResult::Draw;
                    (won, drew, g.board.south, g.berserk.north, g.moves.north)
                } else {
                    continue;
                };
                let factor = if wins_in_a_row >= 2 { 2 } else { 1 };
                let mut points = if won {
                    2 * factor
                } else if drew {
                    factor
                } else {
                    0
                };
                if won && berserked && moves >= 7 {
                    points += 1;
                }
                sheet.push(points);
                wins_in_a_row = if won { wins_in_a_row + 1 } else { 0 };
                sum += i64::from(rating(opponent))
                    + if won {
                        500
                    } else if drew {
                        0
                    } else {
                        -500
                    };
            }
            let n = sheet.len() as i64;
            Line {
                player: p.id,
                points: sheet.iter().sum(),
                performance: (n > 0).then(|| sum.div_euclid(n) as i32),
                rating: p.rating,
                sheet,
                on_fire: wins_in_a_row >= 2,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.performance.cmp(&a.performance))
            .then(b.rating.cmp(&a.rating))
            .then(a.player.cmp(&b.player))
    });
    lines
}

/// Whether two waiting players played each other in the last game of either.
fn just_met(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// The best pairing by trying every one: as many pairs as possible, then the smallest sum of
/// squared ranking distances, then the largest sum of the wait orders of the players paired
/// (`wait[i]`). `allowed[i][j]` for `i < j`. Returns (pairs, sum of squares, wait sum).
fn brute(allowed: &[Vec<bool>], wait: &[u64], used: &mut Vec<bool>) -> (usize, u64, u64) {
    let Some(first) = used.iter().position(|&u| !u) else {
        return (0, 0, 0);
    };
    used[first] = true;
    // Leave `first` out.
    let mut best = brute(allowed, wait, used);
    for other in first + 1..allowed.len() {
        if !used[other] && allowed[first][other] {
            used[other] = true;
            let (pairs, cost, waits) = brute(allowed, wait, used);
            let d = (other - first) as u64;
            let candidate = (pairs + 1, cost + d * d, waits + wait[first] + wait[other]);
            let better = (candidate.0, std::cmp::Reverse(candidate.1), candidate.2)
                > (best.0, std::cmp::Reverse(best.1), best.2);
            if better {
                best = candidate;
            }
            used[other] = false;
        }
    }
    used[first] = false;
    best
}

/// Checks one pairing made at `now` from `waiting` against the rules.
fn check_pairing(waiting: &[Waiting], games: &[Ongoing], now: Millis) -> Result<(), TestCaseError> {
    let closed = now < SCHEDULE.start || now + PAIRING_CLOSES_BEFORE_END >= SCHEDULE.end;
    if closed {
        prop_assert!(
            games.is_empty(),
            "paired at {now}, outside the pairing time"
        );
        return Ok(());
    }
    let find = |id: PlayerId| waiting.iter().find(|w| w.id == id);
    let mut seen = HashSet::new();
    for g in games {
        let (s, n) = (g.board.south, g.board.north);
        prop_assert!(seen.insert(s) && seen.insert(n), "paired twice: {games:?}");
        let (Some(south), Some(north)) = (find(s), find(n)) else {
            return Err(TestCaseError::fail(format!(
                "paired someone not waiting: {g:?}"
            )));
        };
        // The previous opponent only when nobody else waits, and after the delay.
        if just_met(south, north) {
            prop_assert_eq!(waiting.len(), 2, "rematch while others wait: {:?}", games);
            let longest = south.free_since.min(north.free_since);
            prop_assert!(now - longest >= REMATCH_AFTER);
        }
        // Seats: the lower balance sits South.
        prop_assert!(
            south.balance <= north.balance,
            "{south:?} South of {north:?}"
        );
        let before = south.balance.abs().max(north.balance.abs());
        let after = (south.balance + 1).abs().max((north.balance - 1).abs());
        // The larger absolute balance of the board never grows, except from one balance
        // shared by both (d: one goes to d + 1, the other to d − 1).
        if south.balance == north.balance {
            prop_assert_eq!(after, before + 1);
        } else {
            prop_assert!(after <= before);
        }
        // So two players within ±1 stay within it unless both stand on the same +1 or −1.
        if before <= 1 && (south.balance != north.balance || south.balance == 0) {
            prop_assert!(
                after <= 1,
                "within ±1 before, not after: {south:?} {north:?}"
            );
        }
    }
    // Against the exhaustive search: as many pairs, and as near in the ranking.
    // (Two players who just met, alone, are covered above.)
    let lone_rematch = waiting.len() == 2 && just_met(&waiting[0], &waiting[1]);
    if waiting.len() <= BRUTE_MAX && !lone_rematch {
        let mut ranked = waiting.to_vec();
        ranked.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(b.rating.cmp(&a.rating))
                .then(a.id.cmp(&b.id))
        });
        let n = ranked.len();
        let allowed: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..n).map(|j| !just_met(&ranked[i], &ranked[j])).collect())
            .collect();
        // The wait order: 0 for the latest come free (on equal times, the lowest-ranked).
        let mut latest_first: Vec<usize> = (0..n).collect();
        latest_first.sort_by(|&a, &b| {
            ranked[b]
                .free_since
                .cmp(&ranked[a].free_since)
                .then(b.cmp(&a))
        });
        let mut wait = vec![0u64; n];
        for (order, &i) in latest_first.iter().enumerate() {
            wait[i] = order as u64;
        }
        let best = brute(&allowed, &wait, &mut vec![false; n]);
        let place = |id: PlayerId| ranked.iter().position(|w| w.id == id).unwrap();
        let made: u64 = games
            .iter()
            .map(|g| (place(g.board.south).abs_diff(place(g.board.north)) as u64).pow(2))
            .sum();
        let waits: u64 = games
            .iter()
            .map(|g| wait[place(g.board.south)] + wait[place(g.board.north)])
            .sum();
        prop_assert_eq!((games.len(), made, waits), best, "ranked {:?}", ranked);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_arenas_keep_the_rules((ratings, events) in arena_events()) {
        let mut arena = Arena::new(SCHEDULE);
        let mut next_id = 1;
        for rating in ratings {
            arena.join(PlayerId(next_id), rating, 0).unwrap();
            next_id += 1;
        }
        let mut now: Millis = 0;
        for event in events {
            match event {
                Event::Join(rating) => {
                    let joined = arena.join(PlayerId(next_id), rating, now);
                    prop_assert_eq!(joined.is_ok(), now < SCHEDULE.end);
                    next_id += 1;
                }
                Event::Pause(i) => {
                    let id = arena.players()[i.index(arena.players().len())].id;
                    arena.pause(id).unwrap();
                    prop_assert!(arena.waiting().iter().all(|w| w.id != id));
                }
                Event::Resume(i) => {
                    let id = arena.players()[i.index(arena.players().len())].id;
                    let before = arena.standings();
                    arena.resume(id, now).unwrap();
                    // Coming back keeps the points and the streak.
                    let after = arena.standings();
                    let line = |t: &[Standing]| {
                        let s = t.iter().find(|s| s.player == id).unwrap();
                        (s.points, s.on_fire, s.sheet.clone())
                    };
                    prop_assert_eq!(line(&before), line(&after));
                }
                Event::Pair(after) => {
                    now += after;
                    let waiting = arena.waiting();
                    let games = arena.pair(now);
                    check_pairing(&waiting, &games, now)?;
                }
                Event::Finish { game, after, result, berserk, moves } => {
                    now += after;
                    if arena.ongoing().is_empty() {
                        continue;
                    }
                    let id = arena.ongoing()[game.index(arena.ongoing().len())].id;
                    let result = match result {
                        0 => GameResult::SouthWins,
                        1 => GameResult::NorthWins,
                        _ => GameResult::Draw,
                    };
                    let berserk = Seats::new(berserk.0, berserk.1);
                    let moves = Seats::new(moves.0, moves.1);
                    arena.finish(id, result, berserk, moves, now).unwrap();
                }
            }
            // The standings equal the recount, line for line and in order.
            let table = arena.standings();
            let expected = recount(arena.players(), arena.finished());
            let got: Vec<Line> = table
                .iter()
                .map(|s| Line {
                    player: s.player,
                    points: s.points,
                    performance: s.performance,
                    rating: arena.players().iter().find(|p| p.id == s.player).unwrap().rating,
                    sheet: s.sheet.clone(),
                    on_fire: s.on_fire,
                })
                .collect();
            prop_assert_eq!(&got, &expected);
            // No game brings more than 4 + 1.
            prop_assert!(table.iter().flat_map(|s| &s.sheet).all(|&p| p <= 5));
            // Ranks: 1 for the first, shared only by players level on points and performance.
            for (place, pair) in table.windows(2).enumerate() {
                let level = (pair[0].points, pair[0].performance) == (pair[1].points, pair[1].performance);
                prop_assert_eq!(pair[1].rank, if level { pair[0].rank } else { place + 2 });
            }
            // Nobody is in two games at once.
            let mut busy = HashSet::new();
            for g in arena.ongoing() {
                prop_assert!(busy.insert(g.board.south) && busy.insert(g.board.north));
            }
        }
        // The arena's parts give back the same arena.
        let restored = Arena::restore(
            arena.schedule(),
            arena.players().to_vec(),
            arena.finished().to_vec(),
            arena.ongoing().to_vec(),
        );
        prop_assert_eq!(restored, Ok(arena));
    }
}
