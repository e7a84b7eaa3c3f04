//! Pairing the players free now: neighbours in the standings, never last game's opponent
//! when anyone else waits, seats by each player's South/North balance.

use std::cmp::Reverse;
use std::collections::HashSet;

use integer_blossom::max_weight_matching;

use crate::model::{Board, Millis, PlayerId, Schedule};

/// No game is paired this close to the end (30 s): it could hardly finish in time to count.
pub const PAIRING_CLOSES_BEFORE_END: Millis = 30_000;

/// How long two players who just played each other, and are the only ones waiting, wait
/// before they are paired again (30 s): long enough for someone else to come free.
pub const REMATCH_AFTER: Millis = 30_000;

/// A player free to play now, with what the pairing weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// Who.
    pub id: PlayerId,
    /// Their points now.
    pub points: u32,
    /// Their rating (orders players level on points).
    pub rating: i32,
    /// Since when they have been free: the longest waiting sits South on a tie of balance,
    /// and is the last to be left out.
    pub free_since: Millis,
    /// The opponent of their last game, if any.
    pub last_opponent: Option<PlayerId>,
    /// Their South games minus their North games.
    pub balance: i32,
}

/// Whether two waiting players may not meet now: one of them played the other last.
fn rematch(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// Pairs the players waiting now (free, active, not paused) and decides their seats.
///
/// - Nothing is paired before `schedule.start`, nor from [`PAIRING_CLOSES_BEFORE_END`]
///   before `schedule.end` on.
/// - The players are ranked by points, then rating (highest first), then id. As many as
///   possible are paired, each as near their opponent in this ranking as possible: the
///   neighbours 1–2, 3–4, … whenever that is allowed; otherwise the pairing that makes the
///   sum of the squared distances in the ranking smallest (several short steps rather than
///   one long one); among those, the player left out of an odd count is the one who has
///   waited least (on equal waits, the lowest-ranked).
/// - Two players never meet when either played the other in their last game — unless they
///   are the only two waiting and one of them has waited [`REMATCH_AFTER`] or more.
/// - On each board the player with the lower balance (South games minus North games) sits
///   South; on equal balances the one who has waited longer, then the higher-ranked.
///
/// The boards come in ranking order (of their better player). A repeated id is read once.
///
/// # Examples
///
/// ```
/// use sowing_arena::*;
///
/// let waiting = |id, points, last: Option<u64>| Waiting {
///     id: PlayerId(id),
///     points,
///     rating: 1500,
///     free_since: 0,
///     last_opponent: last.map(PlayerId),
///     balance: 0,
/// };
/// // 1 and 2 lead, but just played each other: 1 meets 3, and 2 meets 4.
/// let field = [
///     waiting(1, 4, Some(2)),
///     waiting(2, 4, Some(1)),
///     waiting(3, 2, None),
///     waiting(4, 0, None),
/// ];
/// let boards = pair(&field, Schedule { start: 0, end: 600_000 }, 10_000);
/// let ids: Vec<(u64, u64)> = boards.iter().map(|b| (b.south.0, b.north.0)).collect();
/// assert_eq!(ids, [(1, 3), (2, 4)]);
/// ```
pub fn pair(waiting: &[Waiting], schedule: Schedule, now: Millis) -> Vec<Board> {
    if now < schedule.start || now >= schedule.end.saturating_sub(PAIRING_CLOSES_BEFORE_END) {
        return Vec::new();
    }
    let mut seen = HashSet::new();
    let mut ranked: Vec<Waiting> = waiting
        .iter()
        .filter(|w| seen.insert(w.id))
        .copied()
        .collect();
    ranked.sort_by_key(|w| (Reverse(w.points), Reverse(w.rating), w.id));
    let n = ranked.len();
    if n < 2 {
        return Vec::new();
    }

    // The wait order: 0 for the player who has waited least (on equal waits, the
    // lowest-ranked), n − 1 for the longest.
    let mut by_wait: Vec<usize> = (0..n).collect();
    by_wait.sort_by_key(|&i| (Reverse(ranked[i].free_since), Reverse(i)));
    let mut waited = vec![0usize; n];
    for (order, &i) in by_wait.iter().enumerate() {
        waited[i] = order;
    }

    let pairs: Vec<(usize, usize)> = if n == 2 && rematch(&ranked[0], &ranked[1]) {
        let longest = ranked[0].free_since.min(ranked[1].free_since);
        if now.saturating_sub(longest) >= REMATCH_AFTER {
            vec![(0, 1)]
        } else {
            Vec::new()
        }
    } else if let Some(pairs) = neighbours(&ranked, &waited) {
        pairs
    } else {
        matching(&ranked, &waited)
    };

    pairs
        .into_iter()
        .map(|(i, j)| seat(&ranked[i], &ranked[j]))
        .collect()
}

/// The best pairing by the rules of [`pair`], as a maximum-weight matching (the blossom
/// algorithm, `integer-blossom`): pairs `(i, j)` of places in `ranked`, `i < j`, in order.
fn matching(ranked: &[Waiting], waited: &[usize]) -> Vec<(usize, usize)> {
    let n = ranked.len();
    // Tiers, most significant first: players covered, then the sum of squared distances
    // (lower is better), then the wait order of the players covered (higher is better).
    // Each scale exceeds what everything below it can change over a whole matching.
    let n128 = n as i128;
    let wait_scale = n128 * (n128 - 1) / 2 + 1;
    let distance_total = (n128 / 2) * (n128 - 1) * (n128 - 1) * wait_scale;
    let player = distance_total + wait_scale;

    let mut weight = vec![0i128; n * n];
    for i in 0..n {
        for j in i + 1..n {
            if rematch(&ranked[i], &ranked[j]) {
                continue;
            }
            let distance = (j - i) as i128;
            weight[i * n + j] = 2 * player - distance * distance * wait_scale
                + waited[i] as i128
                + waited[j] as i128;
        }
    }
    let mate = max_weight_matching(&weight, n);
    (0..n)
        .filter_map(|i| mate[i].filter(|&j| i < j).map(|j| (i, j)))
        .collect()
}

/// The neighbours 1–2, 3–4, … when every such pair is allowed; for an odd count, leaving out
/// the least-waited of the players whose leaving out keeps every pair neighbours. Then every
/// distance is 1, which no other pairing matches, so this is what [`matching`] would find;
/// `None` when no such pairing exists.
fn neighbours(ranked: &[Waiting], waited: &[usize]) -> Option<Vec<(usize, usize)>> {
    let n = ranked.len();
    let allowed = |i: usize| !rematch(&ranked[i], &ranked[i + 1]);
    let out = if n.is_multiple_of(2) {
        None
    } else {
        // Leaving out place k (even) pairs (0, 1) … (k − 2, k − 1) and (k + 1, k + 2) … .
        let mut prefix = vec![true; n + 1]; // prefix[k]: the pairs below k all allowed
        for k in (2..n).step_by(2) {
            prefix[k] = prefix[k - 2] && allowed(k - 2);
        }
        let mut suffix = vec![true; n + 1]; // suffix[k]: the pairs above k all allowed
        for k in (0..n.saturating_sub(2)).step_by(2).rev() {
            suffix[k] = suffix[k + 2] && allowed(k + 1);
        }
        let k = (0..n)
            .step_by(2)
            .filter(|&k| prefix[k] && suffix[k])
            .min_by_key(|&k| waited[k])?;
        Some(k)
    };
    let places: Vec<usize> = (0..n).filter(|&i| Some(i) != out).collect();
    let pairs: Vec<(usize, usize)> = places.chunks(2).map(|p| (p[0], p[1])).collect();
    pairs
        .iter()
        .all(|&(i, j)| !rematch(&ranked[i], &ranked[j]))
        .then_some(pairs)
}

/// Who sits South: the lower balance, then the longer wait, then `a` (the higher-ranked).
fn seat(a: &Waiting, b: &Waiting) -> Board {
    let key = |w: &Waiting| (w.balance, w.free_since);
    if key(b) < key(a) {
        Board {
            south: b.id,
            north: a.id,
        }
    } else {
        Board {
            south: a.id,
            north: b.id,
        }
    }
}
