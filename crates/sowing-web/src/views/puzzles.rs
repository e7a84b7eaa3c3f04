//! The JSON of puzzles (docs/api.md, "Puzzles"): a puzzle with the states along its line,
//! and what a result did to the ratings.

use serde::Serialize;
use sowing::{Game, Move, Position, State};

use crate::ratings::{Rating, PROVISIONAL_DEVIATION};
use crate::store::{PuzzleOutcome, PuzzleRow};

/// A rating as a puzzle answer shows it.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PuzzleRating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD).
    pub deviation: f64,
    /// Its volatility (σ).
    pub volatility: f64,
    /// Deviation above 110: not settled yet.
    pub provisional: bool,
}

impl From<Rating> for PuzzleRating {
    fn from(r: Rating) -> PuzzleRating {
        PuzzleRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
        }
    }
}

/// A puzzle: its position, its line and the machine state before each move and after the
/// last, so that the page shows the line without asking again.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleView {
    /// Its id.
    pub id: i64,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// The position text (options included).
    pub position: String,
    /// The side to move: the player's side (`south` or `north`).
    pub mover: &'static str,
    /// The solution line: the player's moves and the replies between them.
    pub moves: Vec<String>,
    /// The position's proven value for the mover.
    pub value: i32,
    /// Its themes.
    pub themes: Vec<String>,
    /// Its rating now.
    pub rating: PuzzleRating,
    /// Results given for it.
    pub plays: i64,
    /// Of those, solved.
    pub solved: i64,
    /// `self-play` or `game`.
    pub source: String,
    /// The finished game it came from.
    pub game_id: Option<i64>,
    /// `states[i]`: the machine state before move `i` of the line; the last, after it.
    pub states: Vec<State>,
}

impl PuzzleView {
    /// The view of a kept puzzle; `None` when its position or line no longer reads.
    pub fn of(row: &PuzzleRow) -> Option<PuzzleView> {
        let start: Position = row.position.parse().ok()?;
        let n = start.rules().pits_per_row();
        let mut game = Game::from_position(start);
        let mut states = vec![State::of(&game)];
        let moves: Vec<String> = row.moves.split_whitespace().map(str::to_owned).collect();
        for token in &moves {
            game.play(Move::parse(token, n).ok()?).ok()?;
            states.push(State::of(&game));
        }
        Some(PuzzleView {
            id: row.id,
            game: row.variant.clone(),
            position: row.position.clone(),
            mover: start.to_move().name(),
            moves,
            value: row.value,
            themes: row.themes.split_whitespace().map(str::to_owned).collect(),
            rating: row.rating.into(),
            plays: row.plays,
            solved: row.solved,
            source: row.source.clone(),
            game_id: row.game_id,
            states,
        })
    }
}

/// `GET /api/puzzles/next`, `/daily`, `/{id}`: the puzzle, the signed-in player's puzzle
/// rating, and for the daily puzzle its day.
#[derive(Clone, Debug, Serialize)]
pub struct PuzzleAnswer {
    /// The puzzle.
    pub puzzle: PuzzleView,
    /// The signed-in player's puzzle rating in its game (`null` when signed out).
    pub player: Option<PuzzleRating>,
    /// The day it is the daily puzzle of, `YYYY-MM-DD` (UTC); `null` otherwise.
    pub daily: Option<String>,
}

/// `POST /api/puzzles/{id}/result`: the ratings after.
#[derive(Clone, Debug, Serialize)]
pub struct ResultAnswer {
    /// The puzzle's rating after.
    pub puzzle: PuzzleRating,
    /// The signed-in player's puzzle rating after (`null` when signed out: the page keeps
    /// its own).
    pub player: Option<PuzzleRating>,
}

impl From<PuzzleOutcome> for ResultAnswer {
    fn from(o: PuzzleOutcome) -> ResultAnswer {
        ResultAnswer {
            puzzle: o.puzzle.into(),
            player: o.player.map(Into::into),
        }
    }
}

/// Day `day` since 1970-01-01 as `YYYY-MM-DD` (the proleptic Gregorian calendar; Howard
/// Hinnant's `civil_from_days`).
pub fn day_text(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::day_text;

    #[test]
    fn days_are_dates() {
        assert_eq!(day_text(0), "1970-01-01");
        assert_eq!(day_text(20_428), "2025-12-06");
        assert_eq!(day_text(11_016), "2000-02-29");
    }
}
