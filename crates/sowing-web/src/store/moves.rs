//! Playing on a stored game: a move appended, moves taken back, a live game's row changed,
//! each in one transaction that holds the game's row and bumps its version, and the same
//! change followed onto another server's copy ([`Change::follow`]).

use sowing::Game;

use super::changes::Change;
use super::error::StoreResult;
use super::games::{changed_meanwhile, insert_move, GameRow, Summary};
use super::live::{put_live, LiveRow};
use super::ratings::settle_rating;
use super::sql::{values, Sql};
use super::write::{Applied, Stamp, Write};
use super::Store;

impl Change {
    /// A copy of the game at the version just before this change (its row, the game, its
    /// live row), brought to this change's version as the writer left the rows: what
    /// reading the game again would give. `None` when the copy is not at the version
    /// before, or the change carries no step, or its move does not play on the copy: read
    /// the game again.
    pub fn follow(
        &self,
        row: GameRow,
        mut game: Game,
        live: Option<&LiveRow>,
    ) -> Option<(GameRow, Game, LiveRow)> {
        let step = self.step.as_ref()?;
        if row.id != self.game || row.version + 1 != self.version || live.is_none() {
            return None;
        }
        if let Some(mv) = &step.mv {
            let mv = game.parse_move(mv).ok()?;
            game.play(mv).ok()?;
        }
        if game.moves().len() != self.plies {
            return None;
        }
        let stamp = Stamp {
            version: self.version,
            updated: step.updated.clone(),
        };
        Some((row.stamped(&game, stamp), game, step.live.clone()))
    }
}

/// Writes the game row's summary of its moves onto the game as `plies_before` and `seen`
/// (when given) describe it; its new version, or `None` when the game is not so.
fn update_summary(
    sql: &mut dyn Sql,
    id: i64,
    summary: &Summary,
    plies_before: Option<usize>,
    seen: Option<i64>,
    now: &str,
) -> StoreResult<Option<i64>> {
    let (reason, to) = summary.end.map(|end| (end.code(), end.side())).unzip();
    let row = sql.query_opt(
        "UPDATE games SET plies = ?2, result = ?3, end_reason = ?4, end_to = ?5,
                          updated = ?6, version = version + 1
         WHERE id = ?1 AND (CAST(?7 AS BIGINT) IS NULL OR plies = ?7)
                       AND (CAST(?8 AS BIGINT) IS NULL OR version = ?8)
         RETURNING version",
        &values![
            id,
            summary.plies,
            summary.result,
            reason,
            to.flatten(),
            now,
            plies_before,
            seen
        ],
    )?;
    row.map(|r| r.int(0)).transpose()
}

/// A game's next move, with the new summary.
struct Append {
    id: i64,
    /// The move's index, from 0.
    ply: usize,
    mv: String,
    summary: Summary,
    /// The version the writer's copy is at, when it must still be the stored one.
    seen: Option<i64>,
    /// The live row as it is after the move (clock, offers), for a game between seats.
    live: Option<LiveRow>,
}

impl Append {
    /// The write of `game`'s last move.
    ///
    /// # Panics
    /// If `game` has no moves.
    fn last_of(id: i64, game: &Game, seen: Option<i64>, live: Option<&LiveRow>) -> Append {
        let ply = game.moves().len() - 1;
        Append {
            id,
            ply,
            mv: game.moves()[ply]
                .name(game.rules().pits_per_row())
                .to_string(),
            summary: Summary::of(game),
            seen,
            live: live.cloned(),
        }
    }
}

impl Write for Append {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let id = self.id;
        let version = update_summary(sql, id, &self.summary, Some(self.ply), self.seen, now)?
            .ok_or_else(|| changed_meanwhile(id))?;
        insert_move(sql, id, self.ply, &self.mv)?;
        let applied = Applied::changed(id, self.summary.plies, version, now);
        let Some(live) = &self.live else {
            return Ok(applied);
        };
        put_live(sql, live)?;
        // Only a rated game's move that ends it can rate it: the other moves need not read
        // the rows back (a query less per move).
        if live.rated && (self.summary.result.is_some() || live.result.is_some()) {
            settle_rating(sql, id)?;
        }
        Ok(applied.stepped(Some(&self.mv), live))
    }
}

/// The moves after `summary.plies` forgotten (an undo, a takeback).
struct Truncate {
    id: i64,
    /// The moves kept: `summary.plies`.
    summary: Summary,
    seen: Option<i64>,
    live: Option<LiveRow>,
}

impl Write for Truncate {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let id = self.id;
        let Some(version) = update_summary(sql, id, &self.summary, None, self.seen, now)? else {
            return match (self.seen, &self.live) {
                // No such game, and nothing said it should be: nothing to forget.
                (None, None) => Ok(Applied::answer(0, now)),
                _ => Err(changed_meanwhile(id)),
            };
        };
        sql.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            &values![id, self.summary.plies],
        )?;
        if let Some(live) = &self.live {
            put_live(sql, live)?;
        }
        Ok(Applied::changed(id, self.summary.plies, version, now))
    }
}

/// A live game's seats, clock, offers or result changed (no move).
pub(super) struct LiveChange(pub(super) LiveRow);

impl Write for LiveChange {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let live = &self.0;
        put_live(sql, live)?;
        settle_rating(sql, live.game_id)?;
        // The game row's version tells other servers their copy is stale.
        let row = sql
            .query_opt(
                "UPDATE games SET updated = ?2, version = version + 1
                 WHERE id = ?1 RETURNING plies, version",
                &values![live.game_id, now],
            )?
            .ok_or_else(|| changed_meanwhile(live.game_id))?;
        Ok(Applied::changed(live.game_id, row.size(0)?, row.int(1)?, now).stepped(None, live))
    }
}

impl Store {
    /// Records the move `game` has just played (its last), with the new result, in one
    /// transaction, onto the game as it was at version `seen` when given; the game's new
    /// [`GameRow::version`].
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when that ply is already stored,
    /// the stored game does not have exactly the moves before it, or its version is no
    /// longer `seen` (another writer got there first); nothing is then saved.
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_move(&self, id: i64, game: &Game, seen: Option<i64>) -> StoreResult<Stamp> {
        self.backend
            .write(Box::new(Append::last_of(id, game, seen, None)))
            .map(Applied::stamp)
    }

    /// Forgets the moves after the first `game.moves().len()` (an undo), in one transaction,
    /// from version `seen` when given; the game's new version (0 when there is no such game
    /// and no version was given: nothing to forget).
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when the game changed since
    /// `seen`; nothing is then changed.
    pub fn truncate(&self, id: i64, game: &Game, seen: Option<i64>) -> StoreResult<Stamp> {
        self.backend
            .write(Box::new(Truncate {
                id,
                summary: Summary::of(game),
                seen,
                live: None,
            }))
            .map(Applied::stamp)
    }

    /// Records a live game's new move with its live row (clock, offers) in one transaction;
    /// the game's new version.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] if the ply is already stored or
    /// the live row changed meanwhile; nothing is then saved.
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_live_move(&self, game: &Game, live: &LiveRow) -> StoreResult<Stamp> {
        self.backend
            .write(Box::new(Append::last_of(
                live.game_id,
                game,
                None,
                Some(live),
            )))
            .map(Applied::stamp)
    }

    /// A takeback granted in a live game: the moves after `game`'s, and the live row; the
    /// game's new version.
    ///
    /// # Errors
    /// On a database failure or a conflict; nothing is then changed.
    pub fn truncate_live(&self, game: &Game, live: &LiveRow) -> StoreResult<Stamp> {
        self.backend
            .write(Box::new(Truncate {
                id: live.game_id,
                summary: Summary::of(game),
                seen: None,
                live: Some(live.clone()),
            }))
            .map(Applied::stamp)
    }

    /// Writes a live game's row (seats, clock, offers, result) if it is still at
    /// `live.version`; the game's new version.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when another writer changed it
    /// first; nothing is then changed.
    pub fn update_live(&self, live: &LiveRow) -> StoreResult<Stamp> {
        self.backend
            .write(Box::new(LiveChange(live.clone())))
            .map(Applied::stamp)
    }
}
