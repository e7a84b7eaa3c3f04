//! Hoyito III matches (H3.3): who starts each round, who takes the last four, and the score
//! table across rounds. The rules crate plays one round; this is the bookkeeping around it.

use serde::Serialize;
use sowing::{Match, Outcome, Position, Rules};

/// The most rounds a match may have.
pub const MAX_ROUNDS: u32 = 99;

/// The start position of round `round` under the match's `rules` (H3.3, see
/// [`sowing::Match::round_start`]).
pub fn round_start(rules: Rules, round: u32, previous: Option<Outcome>) -> Position {
    Match::round_start(rules, round as usize, previous)
}

/// One row of the score table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundRow {
    /// The round, from 1.
    pub round: u32,
    /// The game id of the round.
    pub game: i64,
    /// Who started it.
    pub starter: &'static str,
    /// Who took the last four in it (`capturer`, `south` or `north`).
    pub final_four: String,
    /// Seeds captured: [South, North].
    pub captured: [u8; 2],
    /// `south`, `north`, `draw`, or null while the round goes on.
    pub winner: Option<&'static str>,
}

/// The score table across rounds, and the match result once every round is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Rounds to play.
    pub rounds: u32,
    /// The rounds so far.
    pub rows: Vec<RoundRow>,
    /// Rounds won: [South, North].
    pub wins: [u32; 2],
    /// Seeds over all rounds: [South, North].
    pub seeds: [u32; 2],
    /// `south`, `north` or `draw` once all rounds are over; null before.
    pub winner: Option<&'static str>,
    /// Whether another round may be started now (the last one is over and rounds remain).
    pub next_round_ready: bool,
}

/// The score table of a match with `rounds` rounds, from the positions and results of the
/// rounds played so far (round order, each `(game id, start, now, outcome)`).
pub fn table(rounds: u32, played: &[(i64, Position, Position, Option<Outcome>)]) -> Table {
    let mut rows = Vec::new();
    let mut finished_rounds: Option<Match> = None;
    for (i, (game, start, now, outcome)) in played.iter().enumerate() {
        let captured = now.captured();
        if let Some(outcome) = outcome {
            // The match's own rules decide wins and the winner (H3.3).
            let _ = finished_rounds
                .get_or_insert_with(|| Match::new(start.rules(), rounds as usize))
                .record_result(captured, *outcome);
        }
        rows.push(RoundRow {
            round: i as u32 + 1,
            game: *game,
            starter: start.to_move().name(),
            final_four: start.rules().final_four.to_string(),
            captured: [captured.south, captured.north],
            winner: outcome.map(|o| o.name()),
        });
    }
    let all_over = played.iter().all(|(.., o)| o.is_some());
    let (wins, seeds, winner) = match &finished_rounds {
        Some(m) => (
            m.wins(),
            m.seeds(),
            m.outcome().filter(|_| all_over).map(|o| o.name()),
        ),
        None => Default::default(),
    };
    Table {
        rounds,
        rows,
        wins: [wins.south as u32, wins.north as u32],
        seeds: [seeds.south as u32, seeds.north as u32],
        winner,
        next_round_ready: all_over && (played.len() as u32) < rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::{BySide, FinalFour, Side, Variant};

    #[test]
    fn round_start_is_a_full_board_with_the_round_settings() {
        let rules = Rules::new(Variant::HoyitoIII);
        let start = round_start(rules, 4, Some(Outcome::Win(Side::South)));
        assert_eq!(start.to_move(), Side::North);
        assert_eq!(start.rules().final_four, FinalFour::To(Side::South));
        assert!(start.pits().iter().all(|&s| s == 4));
        assert_eq!(start.captured(), BySide::new(0, 0));
    }

    fn finished(south: u8, north: u8) -> (i64, Position, Position, Option<Outcome>) {
        let rules = Rules::new(Variant::HoyitoIII);
        let start = round_start(rules, 1, None);
        let now = Position::from_parts(
            rules,
            &[0; 12],
            BySide::new(south, north),
            Side::South,
            None,
        )
        .unwrap();
        let outcome = now.score_outcome();
        (1, start, now, Some(outcome))
    }

    #[test]
    fn h3_3_match_goes_to_more_rounds_then_more_seeds() {
        let t = table(3, &[finished(30, 18), finished(20, 28), finished(25, 23)]);
        assert_eq!(t.wins, [2, 1]);
        assert_eq!(t.winner, Some("south"));
        let t = table(2, &[finished(30, 18), finished(20, 28)]);
        assert_eq!(t.wins, [1, 1]);
        assert_eq!(t.seeds, [50, 46]);
        assert_eq!(t.winner, Some("south"));
        let t = table(2, &[finished(24, 24), finished(24, 24)]);
        assert_eq!(t.winner, Some("draw"));
    }

    #[test]
    fn a_match_is_undecided_until_its_last_round_ends() {
        let t = table(3, &[finished(30, 18)]);
        assert_eq!(t.winner, None);
        assert!(t.next_round_ready);
    }
}
