//! Endgame practice (docs/web.md, "The school"): a position inside the endgame tables that
//! the player to move wins with best play, taken from a finished game or picked by
//! difficulty; the page then plays it on in the explorer against the tables' best defence
//! and counts the seeds each move gave up (the tables' values before and after it).
//!
//! **Difficulty** is how many of the mover's moves give up seeds: *easy* one, *medium* two
//! or three, *hard* four or more (of at most six). Positions are found by random games from
//! the start, played on inside the tables.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sowing::{Game, Position, Rules};
use sowing_engine::tables::{move_values, value};
use sowing_tables::Tables;

use crate::services::games::{GameError, Games};
use crate::views::games::Snapshot;
use crate::views::school::Practice;

type GameResult<T> = Result<T, GameError>;

/// Random games tried before the closest position found is given instead.
const TRIES: usize = 300;

/// How hard a practice position is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// One move gives up seeds.
    Easy,
    /// Two or three do.
    Medium,
    /// Four or more do.
    Hard,
}

impl Difficulty {
    /// The difficulty named `easy`, `medium` or `hard`.
    pub fn named(name: &str) -> Option<Difficulty> {
        match name {
            "easy" => Some(Difficulty::Easy),
            "medium" => Some(Difficulty::Medium),
            "hard" => Some(Difficulty::Hard),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    /// How far `wrong` wrong moves are from this difficulty (0: it fits).
    fn distance(self, wrong: usize) -> usize {
        let (lo, hi) = match self {
            Difficulty::Easy => (1, 1),
            Difficulty::Medium => (2, 3),
            Difficulty::Hard => (4, usize::MAX),
        };
        if wrong < lo {
            lo - wrong
        } else {
            wrong.saturating_sub(hi)
        }
    }
}

/// A position of `game`'s current one to practise, if it is inside `tables` and its mover
/// wins with best play: its value and how many moves give up seeds.
fn practice_of(tables: &Tables, game: &Game) -> Option<(i32, usize)> {
    let moves = move_values(tables, game)?;
    let best = moves.iter().map(|m| m.1).max()?;
    let position = game.position();
    let captured = position.captured();
    let me = position.to_move();
    let margin = i32::from(captured[me]) - i32::from(captured[!me]);
    (margin + best > 0).then(|| (best, moves.iter().filter(|m| m.1 < best).count()))
}

fn view(position: &Position, value: i32, wrong: usize, difficulty: &'static str) -> Practice {
    Practice {
        position: position.to_string(),
        board: Snapshot::of(position),
        value,
        seeds: position.seeds_on_board(),
        wrong_moves: wrong,
        difficulty,
    }
}

/// A position of `rules` to practise at `difficulty`, from random games (`seed` picks
/// them); the closest found when none fits in [`TRIES`] games.
pub fn pick(tables: &Tables, rules: Rules, difficulty: Difficulty, seed: u64) -> Option<Practice> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut closest: Option<(usize, Practice)> = None;
    for _ in 0..TRIES {
        let mut game = Game::new(rules);
        while !game.is_over() {
            if value(tables, game.position()).is_some() {
                if let Some((v, wrong)) = practice_of(tables, &game) {
                    let distance = difficulty.distance(wrong);
                    if closest.as_ref().is_none_or(|(d, _)| distance < *d) {
                        let found = view(game.position(), v, wrong, difficulty.name());
                        if distance == 0 {
                            return Some(found);
                        }
                        closest = Some((distance, found));
                    }
                }
            }
            let moves = game.legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    closest.map(|(_, found)| found)
}

/// The first position of `game` inside `tables` that its mover wins with best play.
pub fn from_game(tables: &Tables, game: &Game) -> Option<Practice> {
    let mut replay = Game::from_position(*game.start());
    for &mv in game.moves() {
        if let Some((v, wrong)) = practice_of(tables, &replay) {
            return Some(view(replay.position(), v, wrong, "game"));
        }
        replay.play(mv).ok()?;
    }
    None
}

impl Games {
    /// A position to practise: from game `id` when given, else of `rules` at `difficulty`.
    ///
    /// # Errors
    /// An unknown game (404); no tables of these rules, or no position inside them that
    /// the mover wins (409).
    pub async fn practice(
        &self,
        rules: Rules,
        difficulty: Difficulty,
        game_id: Option<&str>,
    ) -> GameResult<Practice> {
        let game = match game_id {
            Some(id) => Some(self.game_copy(id).await?),
            None => None,
        };
        let rules = game.as_ref().map_or(rules, Game::rules);
        let set = self.table_set();
        let seed = rand::random();
        tokio::task::spawn_blocking(move || {
            let tables = match set {
                Some(set) => set
                    .tables(rules)
                    .map_err(|e| GameError::Internal(format!("endgame tables: {e}")))?,
                None => None,
            }
            .ok_or_else(|| {
                GameError::Conflict("the server has no endgame tables of these rules".to_owned())
            })?;
            let found = match &game {
                Some(game) => from_game(&tables, game),
                None => pick(&tables, rules, difficulty, seed),
            };
            found.ok_or_else(|| {
                GameError::Conflict(
                    "no position inside the endgame tables that the player to move wins".to_owned(),
                )
            })
        })
        .await
        .map_err(|e| GameError::Internal(format!("practice task failed: {e}")))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulties_cover_every_count_once() {
        for wrong in 0..7 {
            let fits = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
                .iter()
                .filter(|d| d.distance(wrong) == 0)
                .count();
            assert_eq!(fits, usize::from(wrong > 0), "{wrong}");
        }
    }
}
