//! Each game's analysis after the game (docs/web.md, "Analysis"), kept beside the game: one
//! row a game, the game's own while its moves stay those it analysed.

use sowing::Game;

use super::error::StoreResult;
use super::games::changed_meanwhile;
use super::sql::{values, Sql};
use super::write::{Applied, Write};
use super::Store;

/// A game's analysis as kept ([`Store::save_analysis`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAnalysis {
    /// The moves of the game it analysed, by name, separated by spaces: the analysis is
    /// the game's own while the game still has exactly these moves.
    pub moves: String,
    /// The analysis, as JSON.
    pub body: String,
    /// When it was kept (UTC, `2026-12-01 18:47:00`).
    pub created: String,
}

/// The moves of `game` as [`StoredAnalysis::moves`] keeps them.
pub fn moves_key(game: &Game) -> String {
    let n = game.rules().pits_per_row();
    game.moves()
        .iter()
        .map(|m| m.name(n).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A game's analysis, kept over the one before, if any. Not a change to the game: its
/// version stays.
struct Keep {
    id: i64,
    moves: String,
    body: String,
}

impl Write for Keep {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let kept = sql.execute(
            "INSERT INTO analyses (game_id, moves, body, created)
             SELECT id, ?2, ?3, ?4 FROM games WHERE id = ?1
             ON CONFLICT (game_id) DO UPDATE
                 SET moves = excluded.moves, body = excluded.body, created = excluded.created",
            &values![self.id, &self.moves, &self.body, now],
        )?;
        if kept == 0 {
            return Err(changed_meanwhile(self.id));
        }
        Ok(Applied::answer(0, now))
    }
}

impl Store {
    /// Keeps the analysis `body` (JSON) of game `id` as it was with `moves`
    /// ([`moves_key`]), over the one kept before. The game's version does not change.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when there is no such game (it
    /// was deleted meanwhile); nothing is then kept.
    pub fn save_analysis(&self, id: i64, moves: &str, body: &str) -> StoreResult<()> {
        self.backend
            .write(Box::new(Keep {
                id,
                moves: moves.to_owned(),
                body: body.to_owned(),
            }))
            .map(drop)
    }

    /// The analysis kept for game `id`, if any.
    ///
    /// # Errors
    /// On a database failure.
    pub fn analysis(&self, id: i64) -> StoreResult<Option<StoredAnalysis>> {
        self.backend
            .read_statement(
                "SELECT moves, body, created FROM analyses WHERE game_id = ?1",
                &values![id],
            )?
            .first()
            .map(|r| {
                Ok(StoredAnalysis {
                    moves: r.text(0)?,
                    body: r.text(1)?,
                    created: r.text(2)?,
                })
            })
            .transpose()
    }
}
