//! Games kept in SQLite: one row per game, one row per move, one transaction per change, in
//! write-ahead-logging mode with full sync, so an acknowledged move survives a crash and a
//! half-done write is rolled back rather than left behind.

use std::path::Path;
use std::sync::{mpsc, Mutex};

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
    /// Writes waiting for the next group commit.
    queue: Mutex<Vec<Job>>,
}

/// A change to the database, applied inside a transaction.
enum Write {
    Match {
        rounds: u32,
    },
    Game {
        game: Game,
        south: String,
        north: String,
        match_round: Option<(i64, u32)>,
    },
    Move {
        id: i64,
        game: Game,
    },
    Truncate {
        id: i64,
        game: Game,
    },
}

struct Job {
    write: Write,
    reply: mpsc::SyncSender<StoreResult<i64>>,
}

impl Write {
    /// Applies the change; the new row's id (or the game's).
    fn apply(&self, tx: &Connection) -> StoreResult<i64> {
        match self {
            Write::Match { rounds } => {
                tx.execute("INSERT INTO matches (rounds) VALUES (?1)", [rounds])
                    .map_err(db)?;
                Ok(tx.last_insert_rowid())
            }
            Write::Game {
                game,
                south,
                north,
                match_round,
            } => {
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
                update_summary(tx, id, game)?;
                Ok(id)
            }
            Write::Move { id, game } => {
                let ply = game.moves().len() - 1;
                let mv = game.moves()[ply];
                tx.execute(
                    "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
                    params![
                        id,
                        ply as i64,
                        mv.name(game.rules().pits_per_row()).to_string()
                    ],
                )
                .map_err(db)?;
                update_summary(tx, *id, game)?;
                Ok(*id)
            }
            Write::Truncate { id, game } => {
                tx.execute(
                    "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                    params![id, game.moves().len() as i64],
                )
                .map_err(db)?;
                update_summary(tx, *id, game)?;
                Ok(*id)
            }
        }
    }
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
            queue: Mutex::new(Vec::new()),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (SQLite rolls
        // it back when the transaction is dropped), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs a write in a transaction shared with the writes queued meanwhile (group commit):
    /// whoever holds the connection commits every queued write at once, each inside its own
    /// savepoint so that one failure undoes only itself, and every caller gets its answer
    /// only after that commit. Durability is that of one transaction per write, with one
    /// sync for many.
    fn write(&self, write: Write) -> StoreResult<i64> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Job { write, reply });
        let mut conn = self.conn();
        // A writer that held the connection before us may have committed our write too.
        if let Ok(result) = answer.try_recv() {
            return result;
        }
        let jobs = std::mem::take(&mut *self.queue.lock().unwrap_or_else(|e| e.into_inner()));
        let mut results = Vec::with_capacity(jobs.len());
        let committed = (|| -> StoreResult<()> {
            let mut tx = conn.transaction().map_err(db)?;
            for job in &jobs {
                let mut sp = tx.savepoint().map_err(db)?;
                let result = job.write.apply(&sp);
                if result.is_ok() {
                    sp.commit().map_err(db)?;
                } else {
                    sp.rollback().map_err(db)?;
                }
                results.push(result);
            }
            tx.commit().map_err(db)
        })();
        for (job, result) in jobs.into_iter().zip(
            results
                .into_iter()
                .map(Some)
                .chain(std::iter::repeat_with(|| None)),
        ) {
            let result = match (&committed, result) {
                (Ok(()), Some(result)) => result,
                (Err(e), _) => Err(e.clone()),
                (Ok(()), None) => Err("database: write skipped".to_owned()),
            };
            let _ = job.reply.send(result);
        }
        drop(conn);
        answer
            .recv()
            .unwrap_or_else(|_| Err("database: the write was lost".to_owned()))
    }

    /// Creates a match of `rounds` rounds; its id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn create_match(&self, rounds: u32) -> StoreResult<i64> {
        self.write(Write::Match { rounds })
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
        self.write(Write::Game {
            game: game.clone(),
            south: south.to_owned(),
            north: north.to_owned(),
            match_round,
        })
    }

    /// Records the move `game` has just played (its last), with the new result, in one
    /// transaction. Fails if that ply is already stored: two writers raced.
    ///
    /// # Errors
    /// On a database failure or a conflicting write; nothing is then saved.
    pub fn append_move(&self, id: i64, game: &Game) -> StoreResult<()> {
        self.write(Write::Move {
            id,
            game: game.clone(),
        })
        .map(drop)
    }

    /// Forgets the moves after the first `game.moves().len()` (an undo), in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn truncate(&self, id: i64, game: &Game) -> StoreResult<()> {
        self.write(Write::Truncate {
            id,
            game: game.clone(),
        })
        .map(drop)
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
fn update_summary(tx: &Connection, id: i64, game: &Game) -> StoreResult<()> {
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
    fn concurrent_writers_share_commits_and_keep_every_move() {
        let store = std::sync::Arc::new(Store::in_memory().unwrap());
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let store = store.clone();
                std::thread::spawn(move || {
                    let mut game = Game::new(Rules::new(Variant::ALL[t % 3]));
                    let id = store.create_game(&game, "human", "human", None).unwrap();
                    for _ in 0..30 {
                        let Some(&mv) = game.legal_moves().first() else {
                            break;
                        };
                        game.play(mv).unwrap();
                        store.append_move(id, &game).unwrap();
                        // A stale duplicate in the same batch fails alone.
                        assert!(store.append_move(id, &game).is_err());
                    }
                    (id, game)
                })
            })
            .collect();
        for thread in threads {
            let (id, game) = thread.join().unwrap();
            let (row, loaded) = store.load(id).unwrap().unwrap();
            assert_eq!(loaded.moves(), game.moves());
            assert_eq!(row.plies, game.moves().len());
        }
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
