//! The next round, as one maximum-weight matching on the graph of allowed pairs.
//!
//! The vertices are the players to pair, and one more, the *bye*, when their count is odd.
//! Two players are joined unless they have met; a player is joined to the bye unless they
//! have had one. Each edge's weight packs, from the most significant down, what the matching
//! should achieve (see [`TIERS`]); the blossom algorithm of `integer-blossom` finds the
//! matching of greatest total weight, which is then the best by those criteria taken in
//! order.

use std::cmp::Reverse;

use integer_blossom::max_weight_matching;

use crate::error::SwissError;
use crate::history::{self, History};
use crate::round::{Board, NextRound, Pairing, Player, Seat};
use crate::seats::{self, Sitter, Strength};

/// The criteria below "as many players as possible get a game or the bye", most important
/// first. Each is a cost to keep low; [`Costs`] holds one edge's.
///
/// 1. seat clashes that break a limit: both players due the same seat absolutely (a
///    difference of ±2 would reach ±3, or a third game on the same seat in a row);
/// 2. the score of the player given the bye (as low as possible);
/// 3. the sum of the score differences of the pairs;
/// 4. the sum of their squares (between pairings of equal total difference, several small
///    floats rather than one long one);
/// 5. the sum of the differences each weighted by the higher player's score (the floats
///    from the lower groups rather than from the higher ones: the higher groups are paired
///    within themselves first);
/// 6. seat preferences not met (each counted, strong ones counted again below that);
/// 7. the Dutch order inside a score group: the top half against the bottom half (1 against
///    the first of the bottom half, 2 against the second, …), rather a transposition in the
///    bottom half than an exchange between the halves; the lowest players of a group float
///    down, to the highest of the next; the bye to the lowest-ranked.
const TIERS: usize = 7;

/// One edge's costs, in the order of [`TIERS`].
type Costs = [i128; TIERS];

/// The players to pair, ranked, with what the weights need to know of each.
struct Field<'h> {
    history: &'h History,
    /// Player indices, best first: by points, then by pairing number.
    ranked: Vec<usize>,
    /// For each place in `ranked`: its score group's first place and size.
    group: Vec<(usize, usize)>,
}

impl Field<'_> {
    fn points(&self, place: usize) -> i128 {
        i128::from(self.history.records[self.ranked[place]].points)
    }

    fn seats(&self, place: usize) -> &[Seat] {
        &self.history.records[self.ranked[place]].seats
    }

    /// The costs of pairing the players at places `a < b`.
    fn pair_costs(&self, a: usize, b: usize) -> Costs {
        let difference = self.points(a) - self.points(b);
        let clash = seats::clash(self.seats(a), self.seats(b));
        let unmet = match clash {
            None => 0,
            Some(Strength::Mild) => 1,
            // Counted as one unmet preference, and again as a strong one.
            Some(_) => 1 + 1,
        };
        let (ga, size_a) = self.group[a];
        let (gb, _) = self.group[b];
        let dutch = if ga == gb {
            // Places inside the group, and its top half's size.
            let (pa, pb, half) = (a - ga, b - ga, size_a / 2);
            let transposed = (pb as i128 - pa as i128 - half as i128).abs();
            let exchanged = if (pa < half) == (pb < half) {
                size_a
            } else {
                0
            };
            transposed + exchanged as i128
        } else {
            // The lowest of the upper group floats down, to the highest of the lower.
            ((ga + size_a - 1 - a) + (b - gb)) as i128
        };
        [
            i128::from(clash == Some(Strength::Absolute)),
            0,
            difference,
            difference * difference,
            difference * (self.points(a) + 1),
            unmet,
            dutch,
        ]
    }

    /// The costs of giving the bye to the player at place `a`.
    fn bye_costs(&self, a: usize) -> Costs {
        let (g, size) = self.group[a];
        [0, self.points(a), 0, 0, 0, 0, (g + size - 1 - a) as i128]
    }
}

/// Pairs the next round of a Swiss tournament.
///
/// `players` are all the entries, `rounds` the rounds played so far, in order. Paired are
/// the players not withdrawn whose first round (`joined`) has come; see the crate's
/// documentation for the rules.
///
/// # Errors
///
/// When the players or rounds are inconsistent (see [`SwissError`]).
///
/// # Examples
///
/// ```
/// use sowing_swiss::{pair_next, Player, PlayerId};
///
/// let players: Vec<Player> = (1..=5).map(|id| Player::new(PlayerId(id), 1500)).collect();
/// let first = pair_next(&players, &[])?;
/// assert_eq!(first.boards.len(), 2);
/// assert_eq!(first.bye, Some(PlayerId(5)));
/// # Ok::<(), sowing_swiss::SwissError>(())
/// ```
pub fn pair_next(players: &[Player], rounds: &[Vec<Pairing>]) -> Result<NextRound, SwissError> {
    let history = history::read(players, rounds)?;
    let mut ranked: Vec<usize> = (0..players.len())
        .filter(|&i| !players[i].withdrawn && players[i].joined <= history.rounds)
        .collect();
    ranked.sort_by_key(|&i| (Reverse(history.records[i].points), history.number[i]));
    let mut group = Vec::with_capacity(ranked.len());
    let mut start = 0;
    while start < ranked.len() {
        let points = history.records[ranked[start]].points;
        let size = ranked[start..]
            .iter()
            .take_while(|&&i| history.records[i].points == points)
            .count();
        group.extend(std::iter::repeat_n((start, size), size));
        start += size;
    }
    let field = Field {
        history: &history,
        ranked,
        group,
    };
    let mate = matching(&field)?;

    let n = field.ranked.len();
    let mut next = NextRound::default();
    for a in 0..n {
        let id = players[field.ranked[a]].id;
        match mate[a] {
            None => next.unpaired.push(id),
            Some(b) if b == n => next.bye = Some(id),
            Some(b) if b > a => {
                let sitter = |place: usize| Sitter {
                    seats: field.seats(place),
                    number: history.number[field.ranked[place]],
                };
                let other = players[field.ranked[b]].id;
                next.boards
                    .push(match seats::allocate(&sitter(a), &sitter(b)) {
                        Seat::South => Board {
                            south: id,
                            north: other,
                        },
                        Seat::North => Board {
                            south: other,
                            north: id,
                        },
                    });
            }
            Some(_) => {}
        }
    }
    Ok(next)
}

/// The matching, by place in `field.ranked`; place `n` is the bye.
fn matching(field: &Field<'_>) -> Result<Vec<Option<usize>>, SwissError> {
    let n = field.ranked.len();
    let with_bye = !n.is_multiple_of(2);
    let vertices = n + usize::from(with_bye);
    let records = &field.history.records;

    // The edges, each with its costs (computed again when needed rather than kept: a
    // field of a thousand would otherwise hold half a million of them).
    let edges = || {
        (0..n).flat_map(move |a| {
            let pairs = (a + 1..n)
                .filter(move |&b| !field.history.have_met(field.ranked[a], field.ranked[b]))
                .map(move |b| (a, b, field.pair_costs(a, b)));
            let bye = (with_bye && records[field.ranked[a]].byes == 0)
                .then(|| (a, n, field.bye_costs(a)));
            pairs.chain(bye)
        })
    };
    // The largest cost of each tier over all edges.
    let mut largest = [0i128; TIERS];
    for (_, _, costs) in edges() {
        for (top, cost) in largest.iter_mut().zip(costs) {
            *top = (*top).max(cost);
        }
    }

    // Scales, least significant tier first: each is above what the tiers below it can add up
    // to over a whole matching (at most `pairs` edges).
    let pairs = (vertices / 2) as i128;
    let mut scale = [0i128; TIERS];
    let mut below = 0i128; // the largest packed cost of one edge, over the tiers so far
    for tier in (0..TIERS).rev() {
        scale[tier] = pairs
            .checked_mul(below)
            .and_then(|total| total.checked_add(1))
            .ok_or(SwissError::TooLarge)?;
        below = largest[tier]
            .checked_mul(scale[tier])
            .and_then(|top| top.checked_add(below))
            .ok_or(SwissError::TooLarge)?;
    }
    // One player covered is worth more than every cost of a whole matching.
    let player = pairs
        .checked_mul(below)
        .and_then(|total| total.checked_add(1))
        .ok_or(SwissError::TooLarge)?;
    // The solver doubles weights; keep well inside its bounds.
    let limit = i128::MAX / 64;
    if player > limit / 2 {
        return Err(SwissError::TooLarge);
    }

    let mut weight = vec![0i128; vertices * vertices];
    for (a, b, costs) in edges() {
        let covered = if b == n { 1 } else { 2 };
        let cost: i128 = costs.iter().zip(&scale).map(|(c, s)| c * s).sum();
        weight[a * vertices + b] = covered * player - cost;
    }
    let mut mate = max_weight_matching(&weight, vertices);
    mate.truncate(n);
    Ok(mate)
}
