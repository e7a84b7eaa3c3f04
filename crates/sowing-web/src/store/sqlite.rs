//! The store in one SQLite file: write-ahead logging with full sync, so that an acknowledged
//! move survives a crash and a half-done write is rolled back rather than left behind; the
//! writes that arrive together are committed together (one sync for many).

use std::path::Path;
use std::sync::{mpsc, Mutex, MutexGuard};

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, ErrorCode, OptionalExtension};

use super::changes::Notice;
use super::error::{StoreError, StoreResult};
use super::sql::{now_text, Record, Sql, Value};
use super::write::{Applied, Write};
use super::{Backend, ReadWork};

/// The schema's version (`PRAGMA user_version`): 0 was the first, which kept how a game
/// ended in English (`termination`); 1 keeps it as a code (`end_reason`, `end_to`); 2 adds
/// the table `live` (games between two seats); 3 gives each game a `version`, as in
/// PostgreSQL, so that a write from a stale copy is refused alike; 4 gives each game its
/// owner (`owner`, the SHA-256 of a player key) and keeps the last id given (`game_ids`), so
/// that the id of a deleted game is never given again; 5 adds the table `analyses` (each
/// game's analysis after the game, docs/web.md "Analysis"), created on start; 6 adds
/// accounts, their sessions and ratings (`accounts`, `sessions`, `ratings`, `rated_games`)
/// and each live seat's account and whether the game is rated (`live.south_account`,
/// `north_account`, `rated`); 7 adds quick pairing's seeks (`seeks`), created on start,
/// and to each live game whether its first moves are due in time (`first_move_due`) and
/// the time given back to its clock for outages (`credited_ms`), and when the server last
/// served (`serving`); 8 adds accounts' recovery codes (`recovery_codes`), created on start;
/// 9 adds each seat's last quick phrase (`said_south`, `said_north` and their counts) and
/// correspondence clocks (`clock_per_move`); 10 adds challenges by name (`challenges`,
/// `challenge_refusals`), created on start; 11 adds tournaments (`tournaments`,
/// `tournament_players`, `tournament_games`), created on start; 12 adds puzzles (`puzzles`,
/// `puzzle_ratings`, `puzzle_attempts`, `daily_puzzles`, `puzzle_mined_games`), created on
/// start; 13 keeps each puzzle's board (`puzzles.board`, its position without the captures),
/// each board once; 14 keeps the name a page gave a game it played offline and uploaded
/// (`games.client_id`), unique per owner (`games_by_client`), so that an upload made twice
/// stores one game.
const VERSION: i64 = 14;

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
    end_reason  TEXT,
    end_to      TEXT,
    created     TEXT NOT NULL DEFAULT (datetime('now')),
    updated     TEXT NOT NULL DEFAULT (datetime('now')),
    version     INTEGER NOT NULL DEFAULT 0,
    owner       BLOB,
    client_id   TEXT
);
CREATE TABLE IF NOT EXISTS game_ids (last INTEGER NOT NULL);
INSERT INTO game_ids (last)
    SELECT COALESCE(MAX(id), 0) FROM games WHERE NOT EXISTS (SELECT 1 FROM game_ids);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,
    mv      TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_update ON games(updated);
CREATE INDEX IF NOT EXISTS games_by_owner ON games(owner, updated);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_match ON games(match_id, round);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_client ON games(owner, client_id)
    WHERE client_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS live (
    game_id        INTEGER PRIMARY KEY REFERENCES games(id),
    south_hash     BLOB,
    north_hash     BLOB,
    south_name     TEXT,
    north_name     TEXT,
    lobby          INTEGER NOT NULL DEFAULT 0,
    address        TEXT,
    base_ms        INTEGER,
    increment_ms   INTEGER NOT NULL DEFAULT 0,
    south_ms       INTEGER NOT NULL DEFAULT 0,
    north_ms       INTEGER NOT NULL DEFAULT 0,
    running_since  INTEGER,
    offer_draw     TEXT,
    offer_takeback TEXT,
    offer_rematch  TEXT,
    outcome        TEXT,
    reason         TEXT,
    rematch_id     INTEGER,
    takebacks      INTEGER NOT NULL DEFAULT 0,
    version        INTEGER NOT NULL DEFAULT 0,
    created_ms     INTEGER NOT NULL,
    touched_ms     INTEGER NOT NULL,
    south_account  INTEGER,
    north_account  INTEGER,
    rated          INTEGER NOT NULL DEFAULT 0,
    first_move_due INTEGER NOT NULL DEFAULT 0,
    credited_ms    INTEGER NOT NULL DEFAULT 0,
    said_south     TEXT,
    said_south_n   INTEGER NOT NULL DEFAULT 0,
    said_north     TEXT,
    said_north_n   INTEGER NOT NULL DEFAULT 0,
    clock_per_move INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS live_open ON live(lobby, outcome);
CREATE TABLE IF NOT EXISTS accounts (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    owner    BLOB NOT NULL,
    about    TEXT NOT NULL DEFAULT '',
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash BLOB PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions(account_id);
CREATE TABLE IF NOT EXISTS recovery_codes (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    tag        TEXT NOT NULL,
    hash       TEXT NOT NULL,
    PRIMARY KEY (account_id, tag)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    variant    TEXT NOT NULL,
    speed      TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (account_id, variant, speed)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(variant, speed, rating);
CREATE TABLE IF NOT EXISTS rated_games (
    game_id         INTEGER PRIMARY KEY,
    variant         TEXT NOT NULL,
    speed           TEXT NOT NULL,
    south_account   INTEGER NOT NULL,
    north_account   INTEGER NOT NULL,
    outcome         TEXT NOT NULL,
    south_before    REAL NOT NULL,
    north_before    REAL NOT NULL,
    south_after     REAL NOT NULL,
    north_after     REAL NOT NULL,
    south_deviation REAL NOT NULL,
    north_deviation REAL NOT NULL,
    at_ms           INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rated_by_south ON rated_games(south_account, at_ms);
CREATE INDEX IF NOT EXISTS rated_by_north ON rated_games(north_account, at_ms);
CREATE TABLE IF NOT EXISTS analyses (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    moves   TEXT NOT NULL,
    body    TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seeks (
    id         INTEGER PRIMARY KEY,
    pool       TEXT NOT NULL,
    player     BLOB NOT NULL,
    token_hash BLOB NOT NULL,
    name       TEXT,
    account_id INTEGER,
    rating     REAL,
    range_low  REAL,
    range_high REAL,
    address    TEXT NOT NULL,
    server     INTEGER NOT NULL,
    alive_ms   INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    start      TEXT NOT NULL,
    base_ms    INTEGER,
    increment_ms INTEGER NOT NULL DEFAULT 0,
    rated      INTEGER NOT NULL DEFAULT 0,
    game_id    INTEGER,
    seat       TEXT,
    paired_ms  INTEGER
);
CREATE INDEX IF NOT EXISTS seeks_open ON seeks(pool, game_id, id);
CREATE INDEX IF NOT EXISTS seeks_by_player ON seeks(player, id);
CREATE INDEX IF NOT EXISTS seeks_by_server ON seeks(server, id);
CREATE INDEX IF NOT EXISTS seeks_by_game ON seeks(game_id);
CREATE TABLE IF NOT EXISTS challenges (
    id           INTEGER PRIMARY KEY,
    from_account INTEGER NOT NULL,
    from_name    TEXT NOT NULL,
    to_account   INTEGER NOT NULL,
    to_name      TEXT NOT NULL,
    start        TEXT NOT NULL,
    seat         TEXT NOT NULL,
    base_ms      INTEGER,
    increment_ms INTEGER NOT NULL DEFAULT 0,
    per_move     INTEGER NOT NULL DEFAULT 0,
    rated        INTEGER NOT NULL DEFAULT 0,
    token_hash   BLOB NOT NULL,
    state        TEXT NOT NULL,
    game_id      INTEGER,
    created_ms   INTEGER NOT NULL,
    expires_ms   INTEGER NOT NULL,
    answered_ms  INTEGER
);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges(to_account, state);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges(from_account, id);
CREATE TABLE IF NOT EXISTS challenge_refusals (
    account_id INTEGER NOT NULL,
    refused_id INTEGER NOT NULL,
    PRIMARY KEY (account_id, refused_id)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL,
    kind           TEXT NOT NULL,
    start          TEXT NOT NULL,
    base_ms        INTEGER NOT NULL,
    increment_ms   INTEGER NOT NULL,
    rated          INTEGER NOT NULL DEFAULT 0,
    starts_ms      INTEGER NOT NULL,
    minutes        INTEGER,
    rounds         INTEGER,
    min_rating     INTEGER,
    creator        INTEGER,
    creator_name   TEXT,
    created_ms     INTEGER NOT NULL,
    state          TEXT NOT NULL,
    round          INTEGER NOT NULL DEFAULT 0,
    version        INTEGER NOT NULL DEFAULT 0,
    director       INTEGER,
    director_epoch INTEGER NOT NULL DEFAULT 0,
    director_until INTEGER NOT NULL DEFAULT 0,
    finished_ms    INTEGER
);
CREATE INDEX IF NOT EXISTS tournaments_by_state ON tournaments(state, starts_ms);
CREATE INDEX IF NOT EXISTS tournaments_by_creator ON tournaments(creator, state);
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament_id INTEGER NOT NULL,
    account_id    INTEGER NOT NULL,
    name          TEXT NOT NULL,
    rating        INTEGER NOT NULL,
    joined_ms     INTEGER NOT NULL,
    joined_round  INTEGER NOT NULL,
    status        TEXT NOT NULL,
    since_ms      INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    game_id       INTEGER,
    south         INTEGER NOT NULL,
    north         INTEGER,
    result        TEXT,
    berserk_south INTEGER NOT NULL DEFAULT 0,
    berserk_north INTEGER NOT NULL DEFAULT 0,
    moves_south   INTEGER NOT NULL DEFAULT 0,
    moves_north   INTEGER NOT NULL DEFAULT 0,
    started_ms    INTEGER NOT NULL,
    ended_ms      INTEGER,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX IF NOT EXISTS tournament_games_by_game ON tournament_games(game_id);
CREATE INDEX IF NOT EXISTS tournament_games_south_playing ON tournament_games(south)
    WHERE result IS NULL;
CREATE INDEX IF NOT EXISTS tournament_games_north_playing ON tournament_games(north)
    WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS puzzles (
    id         INTEGER PRIMARY KEY,
    variant    TEXT NOT NULL,
    position   TEXT NOT NULL UNIQUE,
    moves      TEXT NOT NULL,
    value      INTEGER NOT NULL,
    themes     TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    plays      INTEGER NOT NULL DEFAULT 0,
    solved     INTEGER NOT NULL DEFAULT 0,
    source     TEXT NOT NULL,
    game_id    INTEGER,
    board      TEXT
);
CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles(variant, rating);
CREATE UNIQUE INDEX IF NOT EXISTS puzzles_by_board ON puzzles(board);
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    account_id INTEGER NOT NULL,
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, variant)
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    account_id INTEGER NOT NULL,
    puzzle_id  INTEGER NOT NULL,
    solved     INTEGER NOT NULL,
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
CREATE TABLE IF NOT EXISTS daily_puzzles (
    day       INTEGER NOT NULL,
    variant   TEXT NOT NULL,
    puzzle_id INTEGER NOT NULL,
    PRIMARY KEY (day, variant)
);
CREATE TABLE IF NOT EXISTS puzzle_mined_games (game_id INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS serving (last_ms INTEGER NOT NULL);
INSERT INTO serving (last_ms) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM serving);
";

fn db(error: rusqlite::Error) -> StoreError {
    match error.sqlite_error_code() {
        Some(ErrorCode::ConstraintViolation) => StoreError::Conflict(error.to_string()),
        Some(ErrorCode::DiskFull) => StoreError::Full(error.to_string()),
        _ => StoreError::Database(error.to_string()),
    }
}

use db as db_error;

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(n) => ToSqlOutput::from(*n),
            Value::Real(x) => ToSqlOutput::from(*x),
            Value::Text(text) => ToSqlOutput::from(text.as_str()),
            Value::Blob(blob) => ToSqlOutput::from(blob.as_slice()),
            Value::Bool(b) => ToSqlOutput::from(*b),
        })
    }
}

/// Statements on a connection, through its cache of prepared statements.
struct Lite<'a>(&'a Connection);

impl Sql for Lite<'_> {
    fn execute(&mut self, sql: &str, params: &[Value]) -> StoreResult<usize> {
        self.0
            .prepare_cached(sql)
            .and_then(|mut statement| statement.execute(rusqlite::params_from_iter(params)))
            .map_err(db)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> StoreResult<Vec<Record>> {
        let mut statement = self.0.prepare_cached(sql).map_err(db)?;
        let columns = statement.column_count();
        let mut rows = statement
            .query(rusqlite::params_from_iter(params))
            .map_err(db)?;
        let mut records = Vec::new();
        while let Some(row) = rows.next().map_err(db)? {
            let record = (0..columns)
                .map(|i| {
                    Ok(match row.get_ref(i).map_err(db)? {
                        ValueRef::Null => Value::Null,
                        ValueRef::Integer(n) => Value::Int(n),
                        ValueRef::Text(text) => {
                            Value::Text(String::from_utf8_lossy(text).into_owned())
                        }
                        ValueRef::Blob(blob) => Value::Blob(blob.to_vec()),
                        ValueRef::Real(x) => Value::Real(x),
                    })
                })
                .collect::<StoreResult<Vec<Value>>>()?;
            records.push(Record(record));
        }
        Ok(records)
    }

    fn serialize_on(&mut self, _key: i64) -> StoreResult<()> {
        Ok(())
    }
}

/// A write waiting for the next group commit, and where its answer goes.
struct Job {
    write: Box<dyn Write>,
    reply: mpsc::SyncSender<StoreResult<Applied>>,
}

/// One connection behind a mutex: SQLite serialises writers anyway, and each call is short.
pub(super) struct Sqlite {
    conn: Mutex<Connection>,
    /// Writes waiting for the next group commit.
    queue: Mutex<Vec<Job>>,
}

/// From version 0 to 1: the English `termination` becomes a code. The texts are those that
/// version 0 wrote (`End::describe` then), spelled out here because they are history: the
/// words for people may change, what old files hold does not.
fn migrate_to_1(tx: &Connection) -> StoreResult<()> {
    tx.execute_batch(
        "ALTER TABLE games ADD COLUMN end_reason TEXT;
         ALTER TABLE games ADD COLUMN end_to TEXT;
         UPDATE games SET
             end_reason = CASE termination
                 WHEN 'the board was cleared' THEN 'board-cleared'
                 WHEN 'the last four went to south' THEN 'last-four'
                 WHEN 'the last four went to north' THEN 'last-four'
                 WHEN 'the player to move could not feed' THEN 'cannot-feed'
                 WHEN 'a position recurred' THEN 'repetition'
             END,
             end_to = CASE termination
                 WHEN 'the last four went to south' THEN 'south'
                 WHEN 'the last four went to north' THEN 'north'
             END;",
    )
    .map_err(db)?;
    let unknown: Option<(i64, String)> = tx
        .query_row(
            "SELECT id, termination FROM games
             WHERE termination IS NOT NULL AND end_reason IS NULL LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(db)?;
    if let Some((id, text)) = unknown {
        return Err(StoreError::Database(format!(
            "cannot upgrade the database: game {id} ended in a way this program does not \
             know ({text:?}); the file is left unchanged"
        )));
    }
    tx.execute_batch("ALTER TABLE games DROP COLUMN termination;")
        .map_err(db)
}

impl Sqlite {
    /// Opens (creating on first start) the database at `path`; a database written by an
    /// earlier version of this program is upgraded in place, in one transaction.
    pub(super) fn open(path: &Path) -> StoreResult<Sqlite> {
        Sqlite::setup(Connection::open(path).map_err(db)?)
    }

    /// A database in memory, for tests.
    pub(super) fn in_memory() -> StoreResult<Sqlite> {
        Sqlite::setup(Connection::open_in_memory().map_err(db)?)
    }

    fn setup(mut conn: Connection) -> StoreResult<Sqlite> {
        // WAL: readers never block the writer and a crash mid-write leaves the last commit;
        // synchronous=FULL: a commit is on disk before the move is acknowledged.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(db)?;
        // Room for every statement of the hot paths (moves, live rows, reads of a game).
        conn.set_prepared_statement_cache_capacity(64);
        let tx = conn.transaction().map_err(db)?;
        let version: i64 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(db)?;
        if version > VERSION {
            return Err(StoreError::Database(format!(
                "the database is of version {version}, newer than this program's ({VERSION})"
            )));
        }
        let has_games: bool = tx
            .query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'games'",
                [],
                |r| r.get(0),
            )
            .map_err(db)?;
        if has_games && version < 1 {
            migrate_to_1(&tx)?;
        }
        if has_games && version < 3 {
            tx.execute_batch("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
                .map_err(db)?;
        }
        if has_games && version < 4 {
            tx.execute_batch("ALTER TABLE games ADD COLUMN owner BLOB")
                .map_err(db)?;
        }
        let has_live: bool = tx
            .query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'live'",
                [],
                |r| r.get(0),
            )
            .map_err(db)?;
        if has_live && version < 6 {
            tx.execute_batch(
                "ALTER TABLE live ADD COLUMN south_account INTEGER;
                 ALTER TABLE live ADD COLUMN north_account INTEGER;
                 ALTER TABLE live ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;",
            )
            .map_err(db)?;
        }
        if has_live && version < 7 {
            tx.execute_batch(
                "ALTER TABLE live ADD COLUMN first_move_due INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE live ADD COLUMN credited_ms INTEGER NOT NULL DEFAULT 0;",
            )
            .map_err(db)?;
        }
        if has_live && version < 9 {
            tx.execute_batch(
                "ALTER TABLE live ADD COLUMN said_south TEXT;
                 ALTER TABLE live ADD COLUMN said_south_n INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE live ADD COLUMN said_north TEXT;
                 ALTER TABLE live ADD COLUMN said_north_n INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE live ADD COLUMN clock_per_move INTEGER NOT NULL DEFAULT 0;",
            )
            .map_err(db)?;
        }
        // Columns added to tables that may be there without them (asked of the table itself:
        // a database set back to an older version keeps its columns): the puzzles' boards of
        // version 13, the games' client ids of version 14.
        for (table, column) in [("puzzles", "board"), ("games", "client_id")] {
            let lacks: bool = tx
                .query_row(
                    "SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = ?1
                     AND NOT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2)",
                    [table, column],
                    |r| r.get(0),
                )
                .map_err(db)?;
            if lacks {
                tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} TEXT"))
                    .map_err(db)?;
            }
        }
        tx.execute_batch(SCHEMA).map_err(db)?;
        tx.pragma_update(None, "user_version", VERSION)
            .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Sqlite {
            conn: Mutex::new(conn),
            queue: Mutex::new(Vec::new()),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (SQLite rolls
        // it back when the transaction is dropped), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Backend for Sqlite {
    fn read(&self, work: &mut ReadWork<'_>) -> StoreResult<()> {
        work(&mut Lite(&self.conn()))
    }

    fn read_statement(&self, sql: &str, values: &[Value]) -> StoreResult<Vec<Record>> {
        Lite(&self.conn()).query(sql, values)
    }

    /// Runs a write in a transaction shared with the writes queued meanwhile (group commit):
    /// whoever holds the connection commits every queued write at once, each inside its own
    /// savepoint so that one failure undoes only itself, and every caller gets its answer
    /// only after that commit. Durability is that of one transaction per write, with one
    /// sync for many.
    fn write(&self, write: Box<dyn Write>) -> StoreResult<Applied> {
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
                let result = job.write.apply(&mut Lite(&sp), &now_text());
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
                (Ok(()), None) => Err(StoreError::Database("write skipped".to_owned())),
            };
            let _ = job.reply.send(result);
        }
        drop(conn);
        answer
            .recv()
            .unwrap_or_else(|_| Err(StoreError::Database("the write was lost".to_owned())))
    }

    fn listen(&self, _on_notice: Box<dyn Fn(Notice) + Send>) -> StoreResult<()> {
        // This process is the file's only writer: it tells its own sockets itself.
        Ok(())
    }

    fn is_shared(&self) -> bool {
        false
    }

    /// SQLite's own check of the file: `ok` when every page and index is sound.
    fn integrity_check(&self) -> StoreResult<String> {
        self.conn()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(db)
    }
}

/// How long a backup waits for a writer holding the whole file (a checkpoint) to let go.
const BACKUP_PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);

/// Copies the database at `db` to `to` through SQLite's online backup, in one step: one read
/// transaction, so the copy is the database as it was at one commit, while the server using
/// it goes on writing (in write-ahead-logging mode a reader never blocks the writer). The
/// copy is written beside `to` and renamed onto it only once whole and checked; the number
/// of games it holds.
pub(super) fn backup(db: &Path, to: &Path) -> StoreResult<usize> {
    use rusqlite::backup::{Backup, StepResult};
    use rusqlite::OpenFlags;
    // Never create the source: a mistyped path is an error, not an empty backup.
    let source = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::Database(format!("{}: {e}", db.display())))?;
    source.busy_timeout(BACKUP_PATIENCE).map_err(db_error)?;
    let partial = to.with_file_name(format!(
        "{}.partial",
        to.file_name()
            .map_or("backup".into(), |n| n.to_string_lossy())
    ));
    std::fs::remove_file(&partial).ok();
    let mut copy = Connection::open(&partial).map_err(db_error)?;
    {
        let backup = Backup::new(&source, &mut copy).map_err(db_error)?;
        let started = std::time::Instant::now();
        loop {
            match backup.step(-1).map_err(db_error)? {
                StepResult::Done => break,
                StepResult::Busy | StepResult::Locked if started.elapsed() < BACKUP_PATIENCE => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                other => {
                    return Err(StoreError::Database(format!(
                        "the backup could not read {}: {other:?}",
                        db.display()
                    )))
                }
            }
        }
    }
    let check: String = copy
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(db_error)?;
    if check != "ok" {
        return Err(StoreError::Database(format!(
            "the copy does not check: {check}"
        )));
    }
    let games: i64 = copy
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .map_err(db_error)?;
    drop(copy);
    std::fs::rename(&partial, to)
        .map_err(|e| StoreError::Database(format!("{}: {e}", to.display())))?;
    Ok(usize::try_from(games).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::super::{NewGame, Store};
    use super::*;
    use rusqlite::params;
    use sowing::{End, Side};
    use sowing::{Game, Rules, Variant};

    /// A database file of its own for a test (none there yet), and a second connection to
    /// it when asked, for writing what this program never would.
    fn temp_file(name: &str) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("sowing-sqlite-{}-{name}.db", std::process::id()));
        for suffix in ["", "-wal", "-shm"] {
            std::fs::remove_file(format!("{}{suffix}", path.display())).ok();
        }
        path
    }

    #[test]
    fn a_game_whose_moves_no_longer_replay_is_refused_and_kept() {
        let path = temp_file("unreplayable");
        let store = Store::open(&path).unwrap();
        let mut game = Game::new(Rules::new(Variant::Ayoayo));
        let id = store
            .create_game(&NewGame::new(&game, "human", "human"))
            .unwrap();
        for _ in 0..2 {
            game.play(game.legal_moves()[0]).unwrap();
            store.append_move(id, &game, None).unwrap();
        }
        // As if the rules had changed: a stored move that is no longer legal.
        let conn = Connection::open(&path).unwrap();
        conn.execute(
            "INSERT INTO moves (game_id, ply, mv) VALUES (?1, 2, 'pass')",
            [id],
        )
        .unwrap();
        conn.execute("UPDATE games SET plies = 3 WHERE id = ?1", [id])
            .unwrap();
        let error = store.load(id).unwrap_err();
        assert!(
            matches!(&error, StoreError::Unreplayable { game, ply: 3, token, .. }
                if *game == id && token == "pass"),
            "{error:?}"
        );
        assert!(error.to_string().contains("no longer replays"), "{error}");
        // Nothing was cut: the moves and the row are as they were.
        assert_eq!(store.stored_moves(id).unwrap(), 3);
        assert_eq!(store.game_row(id).unwrap().unwrap().plies, 3);
        conn.execute("UPDATE games SET start = 'nonsense' WHERE id = ?1", [id])
            .unwrap();
        assert!(matches!(store.load(id), Err(StoreError::BadStart { .. })));
    }

    /// The schema of version 0, as it was.
    const SCHEMA_0: &str = "
        CREATE TABLE matches (id INTEGER PRIMARY KEY, rounds INTEGER NOT NULL,
            created TEXT NOT NULL DEFAULT (datetime('now')));
        CREATE TABLE games (
            id INTEGER PRIMARY KEY, variant TEXT NOT NULL, pits INTEGER NOT NULL,
            start TEXT NOT NULL, south TEXT NOT NULL, north TEXT NOT NULL,
            match_id INTEGER REFERENCES matches(id), round INTEGER,
            plies INTEGER NOT NULL DEFAULT 0, result TEXT, termination TEXT,
            created TEXT NOT NULL DEFAULT (datetime('now')),
            updated TEXT NOT NULL DEFAULT (datetime('now')));
        CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL, mv TEXT NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
        CREATE INDEX games_by_update ON games(updated);
        CREATE UNIQUE INDEX games_by_match ON games(match_id, round);
    ";

    /// A version 0 database at `path` with one game for each way it wrote an ending, one in
    /// play, and `extra` (a termination text) if given.
    fn version_0(path: &Path, extra: Option<&str>) -> Vec<(i64, Option<End>)> {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(SCHEMA_0).unwrap();
        let start = Game::new(Rules::new(Variant::HoyitoII)).start().to_string();
        let texts = [
            (Some("the board was cleared"), Some(End::BoardCleared)),
            (
                Some("the last four went to south"),
                Some(End::LastFour(Side::South)),
            ),
            (
                Some("the last four went to north"),
                Some(End::LastFour(Side::North)),
            ),
            (
                Some("the player to move could not feed"),
                Some(End::CannotFeed),
            ),
            (Some("a position recurred"), Some(End::Repetition)),
            (None, None),
        ];
        let mut expected = Vec::new();
        for (text, end) in texts.into_iter().chain(extra.map(|t| (Some(t), None))) {
            conn.execute(
                "INSERT INTO games (variant, pits, start, south, north, plies, result, termination)
                 VALUES ('hoyito-ii', 6, ?1, 'human', 'greedy', 0, ?2, ?3)",
                params![start, text.map(|_| "draw"), text],
            )
            .unwrap();
            expected.push((conn.last_insert_rowid(), end));
        }
        expected
    }

    fn user_version(path: &Path) -> i64 {
        Connection::open(path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_version_0_database_is_upgraded_and_its_games_keep_their_end() {
        let path = temp_file("version-0");
        let expected = version_0(&path, None);
        let store = Store::open(&path).unwrap();
        for (id, end) in expected {
            let (row, game) = store.load(id).unwrap().unwrap();
            assert_eq!(row.end, end, "game {id}");
            assert_eq!((game.moves().len(), row.version), (0, 0));
        }
        assert_eq!(user_version(&path), VERSION);
        let old_column: i64 = Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'termination'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(old_column, 0);
    }

    #[test]
    fn an_ending_that_version_0_never_wrote_stops_the_upgrade_and_changes_nothing() {
        let path = temp_file("version-0-unknown");
        version_0(&path, Some("resigned"));
        let error = Store::open(&path).err().expect("the upgrade is refused");
        assert!(error.to_string().contains("\"resigned\""), "{error}");
        assert_eq!(user_version(&path), 0);
        let texts: i64 = Connection::open(&path)
            .unwrap()
            .query_row("SELECT count(termination) FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(texts, 6);
    }

    #[test]
    fn a_version_1_database_gains_the_live_table_versions_and_owners_and_keeps_its_games() {
        let path = temp_file("version-1");
        let conn = Connection::open(&path).unwrap();
        // Version 1: today's schema without the table `live`, the games' versions and
        // owners, and the counter of ids.
        let version_1: String = SCHEMA
            .split("CREATE TABLE IF NOT EXISTS live")
            .next()
            .unwrap()
            .replace(
                ",\n    version     INTEGER NOT NULL DEFAULT 0,\n    owner       BLOB,\n    client_id   TEXT",
                "",
            )
            .split_inclusive(';')
            .filter(|statement| !statement.contains("game_ids") && !statement.contains("owner"))
            .collect();
        assert!(!version_1.contains("version") && !version_1.contains("owner"));
        conn.execute_batch(&version_1).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let start = Game::new(Rules::new(Variant::Ayoayo)).start().to_string();
        conn.execute(
            "INSERT INTO games (variant, pits, start, south, north) VALUES ('ayoayo', 6, ?1, 'human', 'human')",
            [start],
        )
        .unwrap();
        let id = conn.last_insert_rowid();
        drop(conn);
        let store = Store::open(&path).unwrap();
        let (row, mut game) = store.load(id).unwrap().unwrap();
        assert_eq!((row.version, row.owner), (0, None));
        // The counter of ids starts past the games there are.
        let next = store
            .create_game(&crate::store::NewGame::new(&game, "human", "human"))
            .unwrap();
        assert_eq!(next, id + 1);
        assert_eq!(store.live_row(id).unwrap(), None);
        game.play(game.legal_moves()[0]).unwrap();
        assert_eq!(store.append_move(id, &game, Some(0)).unwrap().version, 1);
        assert_eq!(user_version(&path), VERSION);
    }

    #[test]
    fn a_version_5_database_gains_accounts_and_keeps_its_live_games() {
        let path = temp_file("version-5");
        let game = Game::new(Rules::new(Variant::HoyitoII));
        let live = super::super::LiveRow::new(
            [Some([7; 32]), Some([8; 32])],
            [Some("Ana".into()), None],
            None,
            5,
        );
        let id = Store::open(&path)
            .unwrap()
            .create_game(&NewGame::live(&game, &live))
            .unwrap();
        // Back to version 5: no accounts, no seats' accounts, none of versions 7 and 8.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP TABLE recovery_codes; DROP TABLE rated_games; DROP TABLE ratings;
             DROP TABLE sessions; DROP TABLE accounts; ALTER TABLE live DROP COLUMN south_account;
             ALTER TABLE live DROP COLUMN north_account; ALTER TABLE live DROP COLUMN rated;
             ALTER TABLE live DROP COLUMN first_move_due; ALTER TABLE live DROP COLUMN credited_ms;
             ALTER TABLE live DROP COLUMN said_south; ALTER TABLE live DROP COLUMN said_south_n;
             ALTER TABLE live DROP COLUMN said_north; ALTER TABLE live DROP COLUMN said_north_n;
             ALTER TABLE live DROP COLUMN clock_per_move;
             DROP TABLE seeks; PRAGMA user_version = 5;",
        )
        .unwrap();
        drop(conn);
        let store = Store::open(&path).unwrap();
        let row = store.live_row(id).unwrap().unwrap();
        assert_eq!(
            (row.names[0].as_deref(), row.accounts, row.rated),
            (Some("Ana"), [None, None], false)
        );
        let ana = store.sign_up("Ana", "h", [1; 32], None, 0, &[]).unwrap();
        assert_eq!(
            store.session_account([1; 32], 0).unwrap().unwrap().id,
            ana.id
        );
        assert_eq!(user_version(&path), VERSION);
    }

    #[test]
    fn a_version_13_database_gains_client_ids_unique_per_owner_and_keeps_its_games() {
        let path = temp_file("version-13");
        let game = Game::new(Rules::new(Variant::HoyitoII));
        let old = Store::open(&path)
            .unwrap()
            .create_game(&NewGame::new(&game, "human", "human").owned_by(Some([1; 32])))
            .unwrap();
        // Back to version 13: no names of uploaded games.
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "DROP INDEX games_by_client; ALTER TABLE games DROP COLUMN client_id;
             PRAGMA user_version = 13;",
        )
        .unwrap();
        drop(conn);
        let store = Store::open(&path).unwrap();
        assert_eq!(user_version(&path), VERSION);
        assert_eq!(store.game_row(old).unwrap().unwrap().owner, Some([1; 32]));
        let named = NewGame::new(&game, "human", "human")
            .owned_by(Some([1; 32]))
            .synced_as(Some("offline-1"));
        let id = store.create_game(&named).unwrap();
        assert!(matches!(
            store.create_game(&named),
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(
            store.game_by_client([1; 32], "offline-1").unwrap(),
            Some(id)
        );
        let elsewhere = named.owned_by(Some([2; 32]));
        assert_ne!(store.create_game(&elsewhere).unwrap(), id);
    }

    #[test]
    fn a_database_of_a_newer_version_is_refused() {
        let path = temp_file("newer");
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        let error = Store::open(&path).err().expect("refused");
        assert!(error.to_string().contains("newer"), "{error}");
    }
}
