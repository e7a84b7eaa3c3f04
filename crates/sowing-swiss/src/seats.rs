//! Seats: what each player is due (their preference, and how strongly), and who sits where
//! when two players are paired.
//!
//! As the FIDE rules for colours, with South for White: a player's *difference* is their
//! South games minus their North games.
//! - **absolute**: a difference of +2 or more (North due) or −2 or less (South due), or the
//!   same seat in the last two games (the other seat due);
//! - **strong**: a difference of ±1 (the seat that brings it back to 0);
//! - **mild**: a difference of 0 (the other seat from the last game);
//! - none before the first game.

use std::cmp::Ordering;

use crate::round::Seat;

/// How strongly a seat is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    Mild,
    Strong,
    Absolute,
}

/// The seat a player is due, and how strongly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Preference {
    pub seat: Seat,
    pub strength: Strength,
}

/// South games minus North games.
pub(crate) fn difference(seats: &[Seat]) -> i32 {
    seats
        .iter()
        .map(|seat| match seat {
            Seat::South => 1,
            Seat::North => -1,
        })
        .sum()
}

/// The seat due after these games (`None` before the first).
pub(crate) fn preference(seats: &[Seat]) -> Option<Preference> {
    let last = *seats.last()?;
    let difference = difference(seats);
    let (seat, strength) = if difference >= 2 {
        (Seat::North, Strength::Absolute)
    } else if difference <= -2 {
        (Seat::South, Strength::Absolute)
    } else if seats.len() >= 2 && seats[seats.len() - 2] == last {
        (last.other(), Strength::Absolute)
    } else if difference == 1 {
        (Seat::North, Strength::Strong)
    } else if difference == -1 {
        (Seat::South, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    };
    Some(Preference { seat, strength })
}

/// When two players are due the same seat, how strong the preference is that must go
/// unmet (the weaker of the two); `None` when both can have their seat.
pub(crate) fn clash(a: &[Seat], b: &[Seat]) -> Option<Strength> {
    match (preference(a), preference(b)) {
        (Some(pa), Some(pb)) if pa.seat == pb.seat => Some(pa.strength.min(pb.strength)),
        _ => None,
    }
}

/// One of the two players of a board, for [`allocate`].
pub(crate) struct Sitter<'a> {
    /// Their seats so far.
    pub seats: &'a [Seat],
    /// Their pairing number from 0 (the initial order).
    pub number: usize,
}

/// The seat of the higher-ranked player `higher` against `lower` (who takes the other).
///
/// In order: both players get their due seat when they can; else the stronger preference
/// wins (between two absolute ones, the wider difference); else the two alternate from the
/// last game in which they sat on different seats; else the higher-ranked player gets
/// theirs. With no preference on either side the higher-ranked player sits South when their
/// pairing number (counted from 1) is odd, North when even.
pub(crate) fn allocate(higher: &Sitter<'_>, lower: &Sitter<'_>) -> Seat {
    let (ph, pl) = (preference(higher.seats), preference(lower.seats));
    let (ph, pl) = match (ph, pl) {
        (None, None) => {
            return if higher.number.is_multiple_of(2) {
                Seat::South
            } else {
                Seat::North
            }
        }
        (Some(ph), None) => return ph.seat,
        (None, Some(pl)) => return pl.seat.other(),
        (Some(ph), Some(pl)) if ph.seat != pl.seat => return ph.seat,
        (Some(ph), Some(pl)) => (ph, pl),
    };
    match ph.strength.cmp(&pl.strength) {
        Ordering::Greater => return ph.seat,
        Ordering::Less => return pl.seat.other(),
        Ordering::Equal => {}
    }
    if ph.strength == Strength::Absolute {
        let (dh, dl) = (
            difference(higher.seats).abs(),
            difference(lower.seats).abs(),
        );
        match dh.cmp(&dl) {
            Ordering::Greater => return ph.seat,
            Ordering::Less => return pl.seat.other(),
            Ordering::Equal => {}
        }
    }
    let last_different = higher
        .seats
        .iter()
        .rev()
        .zip(lower.seats.iter().rev())
        .find(|(h, l)| h != l);
    match last_different {
        Some((&h, _)) => h.other(),
        None => ph.seat,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::{North as N, South as S};

    #[test]
    fn preference_follows_the_difference_and_the_last_two_seats() {
        assert_eq!(preference(&[]), None);
        let p = |seats: &[Seat]| preference(seats).map(|p| (p.seat, p.strength));
        assert_eq!(p(&[S]), Some((N, Strength::Strong)));
        assert_eq!(p(&[S, N]), Some((S, Strength::Mild)));
        assert_eq!(p(&[S, S]), Some((N, Strength::Absolute)));
        assert_eq!(p(&[N, S, S]), Some((N, Strength::Absolute)));
        assert_eq!(p(&[S, N, S]), Some((N, Strength::Strong)));
        assert_eq!(p(&[N, N, S, N]), Some((S, Strength::Absolute)));
    }

    #[test]
    fn seats_go_to_the_stronger_preference_then_alternate_then_the_higher_ranked() {
        let sit = |seats: &'static [Seat], number| Sitter { seats, number };
        // Both granted.
        assert_eq!(allocate(&sit(&[S], 0), &sit(&[N], 1)), N);
        // The stronger: the lower-ranked player's absolute beats a strong one.
        assert_eq!(allocate(&sit(&[N], 0), &sit(&[N, S, N, N], 1)), N);
        // Two absolute: the wider difference wins.
        assert_eq!(allocate(&sit(&[N, N], 0), &sit(&[S, N, N], 1)), S);
        assert_eq!(allocate(&sit(&[N, S, S], 0), &sit(&[S, S], 1)), S);
        // Equal strength: alternate from the last game on different seats.
        assert_eq!(allocate(&sit(&[S, N, N, S], 0), &sit(&[N, S, N, S], 1)), S);
        // Same seats all along: the higher-ranked player's preference.
        assert_eq!(allocate(&sit(&[N], 0), &sit(&[N], 1)), S);
        // No history: the initial seat by the pairing number.
        assert_eq!(allocate(&sit(&[], 0), &sit(&[], 5)), S);
        assert_eq!(allocate(&sit(&[], 1), &sit(&[], 5)), N);
    }
}
