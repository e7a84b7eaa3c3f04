//! Games kept in SQLite: one row per game, one row per move, one transaction per change, in
//! write-ahead-logging mode with full sync, so an acknowledged move survives a crash and a
//! half-done write is rolled back rather than left behind.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};
use sowing::{Game, Move, Position};

/// A database error, as text for the API's error body.
pub type StoreResult<T> = Result<T, String>;

fn db(error: rusqlite::Error) -> String {
    format!("database: {error}")
}

/// What is kept about a game besides its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id.
    pub id: i64,
    /// The start position as position text: it carries the game, board and options.
    pub start: String,
    /// South's player: `human` or an engine spec such as `level:3`.
    pub south: String,
    /// North's player.
    pub north: String,
    /// The match this game is a round of, if any.
    pub match_id: Option<i64>,
    /// Its round in the match, from 1.
    pub round: Option<u32>,
    /// Moves played.
    pub plies: usize,
    /// `south`, `north`, `draw`, or `None` while the game goes on.
    pub result: Option<String>,
    /// How the game ended, in words.
    pub termination: Option<String>,
    /// When it was created (UTC, SQLite's `datetime`).
    pub created: String,
    /// When it last changed.
    pub updated: String,
}

/// A match of Hoyito III rounds (H3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    /// The match's id.
    pub id: i64,
    /// Rounds to play (R).
    pub rounds: u32,
}

/// The database. One connection behind a mutex: SQLite serialises writers anyway, and each
/// call is short (callers run it off the async runtime).
pub struct Store {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id      INTEGER PRIMARY KEY,
    rounds  INTEGER NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    variant     TEXT NOT NULL,
    pits        INTEGER NOT NULL,
    start       TEXT NOT NULL,
    south       TEXT NOT NULL,
    north       TEXT NOT NULL,
    match_id    INTEGER REFERENCES matches(id),
    round       INTEGER,
    plies       INTEGER NOT NULL DEFAULT 0,
    result      TEXT,
    termination TEXT,
    created     TEXT NOT NULL DEFAULT (datetime('now')),
    updated     TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,
    mv      TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_update ON games(updated);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_match ON games(match_id, round);
";

const GAME_COLUMNS: &str =
    "id, start, south, north, match_id, round, plies, result, termination, created, updated";

fn game_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        start: row.get(1)?,
        south: row.get(2)?,
        north: row.get(3)?,
        match_id: row.get(4)?,
        round: row.get(5)?,
        plies: row.get::<_, i64>(6)? as usize,
        result: row.get(7)?,
        termination: row.get(8)?,
        created: row.get(9)?,
        updated: row.get(10)?,
    })
}

impl Store {
    /// Opens (creating on first start) the database at `path`.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a database of this program.
    pub fn open(path: &Path) -> StoreResult<Store> {
        Store::setup(Connection::open(path).map_err(db)?)
    }

    /// A database in memory, for tests.
    ///
    /// # Errors
    /// Only if SQLite itself fails.
    pub fn in_memory() -> StoreResult<Store> {
        Store::setup(Connection::open_in_memory().map_err(db)?)
    }

    fn setup(conn: Connection) -> StoreResult<Store> {
        // WAL: readers never block the writer and a crash mid-write leaves the last commit;
        // synchronous=FULL: a commit is on disk before the move is acknowledged.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(db)?;
        conn.execute_batch(SCHEMA).map_err(db)?;
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (SQLite rolls
        // it back when the transaction is dropped), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates a match of `rounds` rounds; its id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn create_match(&self, rounds: u32) -> StoreResult<i64> {
        let conn = self.conn();
        conn.execute("INSERT INTO matches (rounds) VALUES (?1)", [rounds])
            .map_err(db)?;
        Ok(conn.last_insert_rowid())
    }

    /// A match by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn get_match(&self, id: i64) -> StoreResult<Option<MatchRow>> {
        self.conn()
            .query_row(
                "SELECT id, rounds FROM matches WHERE id = ?1",
                [id],
                |row| {
                    Ok(MatchRow {
                        id: row.get(0)?,
                        rounds: row.get(1)?,
                    })
                },
            )
            .optional()
            .map_err(db)
    }

    /// Saves a new game with the moves it already has (an uploaded record), in one
    /// transaction; its id.
    ///
    /// # Errors
    /// On a database failure; nothing is then saved.
    pub fn create_game(
        &self,
        game: &Game,
        south: &str,
        north: &str,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db)?;
        let rules = game.rules();
        tx.execute(
            "INSERT INTO games (variant, pits, start, south, north, match_id, round)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                rules.variant().name(),
                rules.pits_per_row() as i64,
                game.start().to_string(),
                south,
                north,
                match_round.map(|(m, _)| m),
                match_round.map(|(_, r)| r),
            ],
        )
        .map_err(db)?;
        let id = tx.last_insert_rowid();
        let n = rules.pits_per_row();
        for (ply, mv) in game.moves().iter().enumerate() {
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
                params![id, ply as i64, mv.name(n).to_string()],
            )
            .map_err(db)?;
        }
        update_summary(&tx, id, game)?;
        tx.commit().map_err(db)?;
        Ok(id)
    }

    /// Records the move `game` has just played (its last), with the new result, in one
    /// transaction. Fails if that ply is already stored: two writers raced.
    ///
    /// # Errors
    /// On a database failure or a conflicting write; nothing is then saved.
    pub fn append_move(&self, id: i64, game: &Game) -> StoreResult<()> {
        let ply = game.moves().len() - 1;
        let mv = game.moves()[ply];
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db)?;
        tx.execute(
            "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
            params![
                id,
                ply as i64,
                mv.name(game.rules().pits_per_row()).to_string()
            ],
        )
        .map_err(db)?;
        update_summary(&tx, id, game)?;
        tx.commit().map_err(db)
    }

    /// Forgets the moves after the first `game.moves().len()` (an undo), in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn truncate(&self, id: i64, game: &Game) -> StoreResult<()> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(db)?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![id, game.moves().len() as i64],
        )
        .map_err(db)?;
        update_summary(&tx, id, game)?;
        tx.commit().map_err(db)
    }

    /// A game's row.
    ///
    /// # Errors
    /// On a database failure.
    pub fn game_row(&self, id: i64) -> StoreResult<Option<GameRow>> {
        self.conn()
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                [id],
                game_row,
            )
            .optional()
            .map_err(db)
    }

    /// A game's row and the game replayed from its moves. A stored move that no longer
    /// replays (it cannot happen unless the rules changed) ends the replay there, so the
    /// game stays readable.
    ///
    /// # Errors
    /// On a database failure or an unreadable start position.
    pub fn load(&self, id: i64) -> StoreResult<Option<(GameRow, Game)>> {
        let Some(row) = self.game_row(id)? else {
            return Ok(None);
        };
        let start: Position = row
            .start
            .parse()
            .map_err(|e| format!("game {id}: stored start position: {e}"))?;
        let mut game = Game::from_position(start);
        let tokens: Vec<String> = {
            let conn = self.conn();
            let mut stmt = conn
                .prepare_cached("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply")
                .map_err(db)?;
            let rows = stmt.query_map([id], |r| r.get(0)).map_err(db)?;
            rows.collect::<Result<_, _>>().map_err(db)?
        };
        for token in tokens {
            let played = Move::parse(&token, game.rules().pits_per_row())
                .ok()
                .and_then(|mv| game.play(mv).ok());
            if played.is_none() {
                eprintln!(
                    "sow serve: game {id}: stored move {token:?} does not replay; stopped there"
                );
                break;
            }
        }
        Ok(Some((row, game)))
    }

    /// The most recently changed games, newest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn list(&self, limit: usize) -> StoreResult<Vec<GameRow>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games ORDER BY updated DESC, id DESC LIMIT ?1"
            ))
            .map_err(db)?;
        let rows = stmt.query_map([limit as i64], game_row).map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)
    }

    /// The games of a match, by round.
    ///
    /// # Errors
    /// On a database failure.
    pub fn match_games(&self, match_id: i64) -> StoreResult<Vec<GameRow>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE match_id = ?1 ORDER BY round"
            ))
            .map_err(db)?;
        let rows = stmt.query_map([match_id], game_row).map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)
    }

    /// SQLite's own check of the file: `ok` when every page and index is sound.
    ///
    /// # Errors
    /// On a database failure.
    pub fn integrity_check(&self) -> StoreResult<String> {
        self.conn()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(db)
    }

    /// Counts the moves stored for a game (for checks and the load generator).
    ///
    /// # Errors
    /// On a database failure.
    pub fn stored_moves(&self, id: i64) -> StoreResult<usize> {
        self.conn()
            .query_row("SELECT count(*) FROM moves WHERE game_id = ?1", [id], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n as usize)
            .map_err(db)
    }
}

/// Keeps the game row's move count and result in step with its moves.
fn update_summary(tx: &rusqlite::Transaction<'_>, id: i64, game: &Game) -> StoreResult<()> {
    tx.execute(
        "UPDATE games SET plies = ?2, result = ?3, termination = ?4, updated = datetime('now')
         WHERE id = ?1",
        params![
            id,
            game.moves().len() as i64,
            game.outcome().map(|o| o.name()),
            game.end().map(|e| e.describe()),
        ],
    )
    .map_err(db)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::{Rules, Variant};

    #[test]
    fn moves_round_trip_and_undo_truncates() {
        let store = Store::in_memory().unwrap();
        let mut game = Game::new(Rules::new(Variant::Ayoayo));
        let id = store.create_game(&game, "human", "greedy", None).unwrap();
        for _ in 0..3 {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
            store.append_move(id, &game).unwrap();
        }
        let (row, loaded) = store.load(id).unwrap().unwrap();
        assert_eq!(loaded.moves(), game.moves());
        assert_eq!(row.plies, 3);
        game.undo();
        store.truncate(id, &game).unwrap();
        let (_, loaded) = store.load(id).unwrap().unwrap();
        assert_eq!(loaded.moves().len(), 2);
        assert_eq!(store.stored_moves(id).unwrap(), 2);
    }

    #[test]
    fn a_ply_written_twice_is_refused() {
        let store = Store::in_memory().unwrap();
        let mut game = Game::new(Rules::new(Variant::HoyitoII));
        let id = store.create_game(&game, "human", "human", None).unwrap();
        game.play(game.parse_move("A").unwrap()).unwrap();
        store.append_move(id, &game).unwrap();
        assert!(store.append_move(id, &game).is_err());
        assert_eq!(store.stored_moves(id).unwrap(), 1);
    }
}
