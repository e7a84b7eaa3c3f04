//! The store in PostgreSQL, shared by several `sow serve` processes.
//!
//! The database decides between servers: a move is stored only onto the game as the server
//! saw it (its move count, and its version when given), the row lock of that `UPDATE`
//! orders concurrent writers of one game, and the moves' primary key (game, ply) refuses a
//! ply stored twice. Every commit is then announced with `NOTIFY sowing_games`, which each
//! server `LISTEN`s to.
//!
//! The announcement is a transaction of its own, after the write's: PostgreSQL serialises
//! every committing transaction that notifies behind one lock, held until its commit is
//! flushed to disk, so a `NOTIFY` inside the writes would queue each move's disk flush
//! behind the others' (no group commit; at a thousand live games, seconds of queue). Alone,
//! the notice commits without waiting for the disk (`synchronous_commit = off`: it is not
//! data, and a notice lost in a crash is a change the other servers find at their next
//! write, which the store refuses from a stale copy).

use std::collections::HashMap;
use std::error::Error;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::BytesMut;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{IsNull, ToSql, Type};
use postgres::{Client, Config, GenericClient, IsolationLevel, NoTls, Statement, Transaction};

use super::changes::Notice;
use super::database::moved_off_runtime;
use super::error::{StoreError, StoreResult};
use super::sql::{now_text, Record, Sql, Value};
use super::write::{Applied, Write};
use super::{Backend, ReadWork};

mod notices;
use notices::{announce, announce_accounts, parse_change, ACCOUNTS_CHANNEL, CHANNEL};

/// How often a lost listener tries to connect again: a refused connection costs little,
/// and every moment without it costs each read a question to the database.
const LISTEN_RETRY: Duration = Duration::from_millis(250);

/// The `application_name` of the connection that listens.
pub const LISTENER_NAME: &str = "sow-listen";

/// The schema's version, kept in the table `sowing_schema`: 1 had games and matches; 2 adds
/// the table `live` (games between two seats), created on start when missing; 3 gives each
/// game its owner (`owner`) and keeps the last id given (`game_ids`), added on start; 4 adds
/// the table `analyses` (each game's analysis after the game), created on start; 5 adds
/// accounts, sessions and ratings, and each live seat's account and `rated`; 6 adds quick
/// pairing's seeks (`seeks`), created on start, to each live game `first_move_due` and
/// `credited_ms`, and when the servers last served (`serving`); 7 adds accounts' recovery
/// codes (`recovery_codes`), created on start; 8 adds each seat's last quick phrase
/// (`said_south`, `said_north` and their counts) and correspondence clocks
/// (`clock_per_move`); 9 adds challenges by name (`challenges`, `challenge_refusals`),
/// created on start; 10 adds tournaments (`tournaments`, `tournament_players`,
/// `tournament_games`), created on start; 11 adds puzzles (`puzzles`, `puzzle_ratings`,
/// `puzzle_attempts`, `daily_puzzles`, `puzzle_mined_games`), created on start; 12 keeps each
/// puzzle's board (`puzzles.board`, its position without the captures), each board once; 13
/// keeps the name a page gave a game it played offline and uploaded (`games.client_id`),
/// unique per owner (`games_by_client`), added on start.
const VERSION: i64 = 13;

/// Connections per server: writes are short, and PostgreSQL itself commits concurrent
/// transactions together.
const POOL_SIZE: u32 = 16;

/// How long a call waits for a pooled connection: under load they are free again within
/// milliseconds; longer means the server is gone, and the caller is better told so.
const POOL_WAIT: Duration = Duration::from_secs(3);

/// The tables, as SQLite's (`lobby` a boolean, the hashes `BYTEA`). The texts of the times
/// are written by the store (`sql.rs`'s `now_text`); the defaults only fill rows made by hand.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id      BIGSERIAL PRIMARY KEY,
    rounds  BIGINT NOT NULL,
    created TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
);
CREATE TABLE IF NOT EXISTS games (
    id          BIGSERIAL PRIMARY KEY,
    variant     TEXT NOT NULL,
    pits        BIGINT NOT NULL,
    start       TEXT NOT NULL,
    south       TEXT NOT NULL,
    north       TEXT NOT NULL,
    match_id    BIGINT REFERENCES matches(id),
    round       BIGINT,
    plies       BIGINT NOT NULL DEFAULT 0,
    result      TEXT,
    end_reason  TEXT,
    end_to      TEXT,
    version     BIGINT NOT NULL DEFAULT 0,
    created     TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
    updated     TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
    owner       BYTEA,
    client_id   TEXT
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS owner BYTEA;
ALTER TABLE games ADD COLUMN IF NOT EXISTS client_id TEXT;
CREATE TABLE IF NOT EXISTS game_ids (last BIGINT NOT NULL);
INSERT INTO game_ids (last)
    SELECT COALESCE(MAX(id), 0) FROM games WHERE NOT EXISTS (SELECT 1 FROM game_ids);
CREATE TABLE IF NOT EXISTS moves (
    game_id BIGINT NOT NULL REFERENCES games(id),
    ply     BIGINT NOT NULL,
    mv      TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_update ON games(updated);
CREATE INDEX IF NOT EXISTS games_by_owner ON games(owner, updated);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_match ON games(match_id, round);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_client ON games(owner, client_id)
    WHERE client_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS live (
    game_id        BIGINT PRIMARY KEY REFERENCES games(id),
    south_hash     BYTEA,
    north_hash     BYTEA,
    south_name     TEXT,
    north_name     TEXT,
    lobby          BOOLEAN NOT NULL DEFAULT FALSE,
    address        TEXT,
    base_ms        BIGINT,
    increment_ms   BIGINT NOT NULL DEFAULT 0,
    south_ms       BIGINT NOT NULL DEFAULT 0,
    north_ms       BIGINT NOT NULL DEFAULT 0,
    running_since  BIGINT,
    offer_draw     TEXT,
    offer_takeback TEXT,
    offer_rematch  TEXT,
    outcome        TEXT,
    reason         TEXT,
    rematch_id     BIGINT,
    takebacks      BIGINT NOT NULL DEFAULT 0,
    version        BIGINT NOT NULL DEFAULT 0,
    created_ms     BIGINT NOT NULL,
    touched_ms     BIGINT NOT NULL
);
ALTER TABLE live ADD COLUMN IF NOT EXISTS south_account BIGINT;
ALTER TABLE live ADD COLUMN IF NOT EXISTS north_account BIGINT;
ALTER TABLE live ADD COLUMN IF NOT EXISTS rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE live ADD COLUMN IF NOT EXISTS first_move_due BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE live ADD COLUMN IF NOT EXISTS credited_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE live ADD COLUMN IF NOT EXISTS said_south TEXT;
ALTER TABLE live ADD COLUMN IF NOT EXISTS said_south_n BIGINT NOT NULL DEFAULT 0;
ALTER TABLE live ADD COLUMN IF NOT EXISTS said_north TEXT;
ALTER TABLE live ADD COLUMN IF NOT EXISTS said_north_n BIGINT NOT NULL DEFAULT 0;
ALTER TABLE live ADD COLUMN IF NOT EXISTS clock_per_move BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX IF NOT EXISTS live_open ON live(lobby, outcome);
CREATE TABLE IF NOT EXISTS accounts (
    id       BIGSERIAL PRIMARY KEY,
    name     TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    owner    BYTEA NOT NULL,
    about    TEXT NOT NULL DEFAULT '',
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash BYTEA PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    created_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions(account_id);
CREATE TABLE IF NOT EXISTS recovery_codes (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    tag        TEXT NOT NULL,
    hash       TEXT NOT NULL,
    PRIMARY KEY (account_id, tag)
);
CREATE TABLE IF NOT EXISTS ratings (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    variant    TEXT NOT NULL,
    speed      TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    PRIMARY KEY (account_id, variant, speed)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(variant, speed, rating);
CREATE TABLE IF NOT EXISTS rated_games (
    game_id         BIGINT PRIMARY KEY,
    variant         TEXT NOT NULL,
    speed           TEXT NOT NULL,
    south_account   BIGINT NOT NULL,
    north_account   BIGINT NOT NULL,
    outcome         TEXT NOT NULL,
    south_before    DOUBLE PRECISION NOT NULL,
    north_before    DOUBLE PRECISION NOT NULL,
    south_after     DOUBLE PRECISION NOT NULL,
    north_after     DOUBLE PRECISION NOT NULL,
    south_deviation DOUBLE PRECISION NOT NULL,
    north_deviation DOUBLE PRECISION NOT NULL,
    at_ms           BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS rated_by_south ON rated_games(south_account, at_ms);
CREATE INDEX IF NOT EXISTS rated_by_north ON rated_games(north_account, at_ms);
CREATE TABLE IF NOT EXISTS analyses (
    game_id BIGINT PRIMARY KEY REFERENCES games(id),
    moves   TEXT NOT NULL,
    body    TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seeks (
    id         BIGSERIAL PRIMARY KEY,
    pool       TEXT NOT NULL,
    player     BYTEA NOT NULL,
    token_hash BYTEA NOT NULL,
    name       TEXT,
    account_id BIGINT,
    rating     DOUBLE PRECISION,
    range_low  DOUBLE PRECISION,
    range_high DOUBLE PRECISION,
    address    TEXT NOT NULL,
    server     BIGINT NOT NULL,
    alive_ms   BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    start      TEXT NOT NULL,
    base_ms    BIGINT,
    increment_ms BIGINT NOT NULL DEFAULT 0,
    rated      BOOLEAN NOT NULL DEFAULT FALSE,
    game_id    BIGINT,
    seat       TEXT,
    paired_ms  BIGINT
);
CREATE INDEX IF NOT EXISTS seeks_open ON seeks(pool, game_id, id);
CREATE INDEX IF NOT EXISTS seeks_by_player ON seeks(player, id);
CREATE INDEX IF NOT EXISTS seeks_by_server ON seeks(server, id);
CREATE INDEX IF NOT EXISTS seeks_by_game ON seeks(game_id);
CREATE TABLE IF NOT EXISTS challenges (
    id           BIGSERIAL PRIMARY KEY,
    from_account BIGINT NOT NULL,
    from_name    TEXT NOT NULL,
    to_account   BIGINT NOT NULL,
    to_name      TEXT NOT NULL,
    start        TEXT NOT NULL,
    seat         TEXT NOT NULL,
    base_ms      BIGINT,
    increment_ms BIGINT NOT NULL DEFAULT 0,
    per_move     BOOLEAN NOT NULL DEFAULT FALSE,
    rated        BOOLEAN NOT NULL DEFAULT FALSE,
    token_hash   BYTEA NOT NULL,
    state        TEXT NOT NULL,
    game_id      BIGINT,
    created_ms   BIGINT NOT NULL,
    expires_ms   BIGINT NOT NULL,
    answered_ms  BIGINT
);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges(to_account, state);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges(from_account, id);
CREATE TABLE IF NOT EXISTS challenge_refusals (
    account_id BIGINT NOT NULL,
    refused_id BIGINT NOT NULL,
    PRIMARY KEY (account_id, refused_id)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id             BIGSERIAL PRIMARY KEY,
    name           TEXT NOT NULL,
    kind           TEXT NOT NULL,
    start          TEXT NOT NULL,
    base_ms        BIGINT NOT NULL,
    increment_ms   BIGINT NOT NULL,
    rated          BOOLEAN NOT NULL DEFAULT FALSE,
    starts_ms      BIGINT NOT NULL,
    minutes        BIGINT,
    rounds         BIGINT,
    min_rating     BIGINT,
    creator        BIGINT,
    creator_name   TEXT,
    created_ms     BIGINT NOT NULL,
    state          TEXT NOT NULL,
    round          BIGINT NOT NULL DEFAULT 0,
    version        BIGINT NOT NULL DEFAULT 0,
    director       BIGINT,
    director_epoch BIGINT NOT NULL DEFAULT 0,
    director_until BIGINT NOT NULL DEFAULT 0,
    finished_ms    BIGINT
);
CREATE INDEX IF NOT EXISTS tournaments_by_state ON tournaments(state, starts_ms);
CREATE INDEX IF NOT EXISTS tournaments_by_creator ON tournaments(creator, state);
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament_id BIGINT NOT NULL,
    account_id    BIGINT NOT NULL,
    name          TEXT NOT NULL,
    rating        BIGINT NOT NULL,
    joined_ms     BIGINT NOT NULL,
    joined_round  BIGINT NOT NULL,
    status        TEXT NOT NULL,
    since_ms      BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament_id BIGINT NOT NULL,
    round         BIGINT NOT NULL,
    board         BIGINT NOT NULL,
    game_id       BIGINT,
    south         BIGINT NOT NULL,
    north         BIGINT,
    result        TEXT,
    berserk_south BOOLEAN NOT NULL DEFAULT FALSE,
    berserk_north BOOLEAN NOT NULL DEFAULT FALSE,
    moves_south   BIGINT NOT NULL DEFAULT 0,
    moves_north   BIGINT NOT NULL DEFAULT 0,
    started_ms    BIGINT NOT NULL,
    ended_ms      BIGINT,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE INDEX IF NOT EXISTS tournament_games_by_game ON tournament_games(game_id);
CREATE INDEX IF NOT EXISTS tournament_games_south_playing ON tournament_games(south)
    WHERE result IS NULL;
CREATE INDEX IF NOT EXISTS tournament_games_north_playing ON tournament_games(north)
    WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS puzzles (
    id         BIGSERIAL PRIMARY KEY,
    variant    TEXT NOT NULL,
    position   TEXT NOT NULL UNIQUE,
    moves      TEXT NOT NULL,
    value      BIGINT NOT NULL,
    themes     TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays      BIGINT NOT NULL DEFAULT 0,
    solved     BIGINT NOT NULL DEFAULT 0,
    source     TEXT NOT NULL,
    game_id    BIGINT,
    board      TEXT
);
ALTER TABLE puzzles ADD COLUMN IF NOT EXISTS board TEXT;
CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles(variant, rating);
CREATE UNIQUE INDEX IF NOT EXISTS puzzles_by_board ON puzzles(board);
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    account_id BIGINT NOT NULL,
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, variant)
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    account_id BIGINT NOT NULL,
    puzzle_id  BIGINT NOT NULL,
    solved     BOOLEAN NOT NULL,
    at_ms      BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
CREATE TABLE IF NOT EXISTS daily_puzzles (
    day       BIGINT NOT NULL,
    variant   TEXT NOT NULL,
    puzzle_id BIGINT NOT NULL,
    PRIMARY KEY (day, variant)
);
CREATE TABLE IF NOT EXISTS puzzle_mined_games (game_id BIGINT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS serving (last_ms BIGINT NOT NULL);
INSERT INTO serving (last_ms) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM serving);
";

type Pool = r2d2::Pool<Connections>;

/// The statements prepared on a connection kept at most: the store's SQL is a few dozen
/// texts, but the games list's `IN (…)` is one text per number of games.
const PREPARED_KEPT: usize = 256;

/// A connection and the statements prepared on it, by their text: each statement is
/// parsed once a connection, not before every query (a round trip each).
struct Connection {
    client: Client,
    prepared: HashMap<String, Statement>,
    /// The outages counted when it was made or last checked ([`Connections::outages`]).
    outages_seen: u64,
    /// Found dead: the pool drops it instead of keeping it.
    broken: bool,
}

/// Makes the pool's connections, and counts the outages seen (calls that found the server
/// gone). An idle connection does not notice that the server restarted; a connection older
/// than the last outage is checked once before use, so that after a restart each dead one
/// is replaced instead of failing a request.
struct Connections {
    config: Config,
    outages: Arc<AtomicU64>,
}

impl r2d2::ManageConnection for Connections {
    type Connection = Connection;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Connection, postgres::Error> {
        Ok(Connection {
            client: self.config.connect(NoTls)?,
            prepared: HashMap::new(),
            outages_seen: self.outages.load(Ordering::SeqCst),
            broken: false,
        })
    }

    fn is_valid(&self, connection: &mut Connection) -> Result<(), postgres::Error> {
        connection.client.simple_query("").map(drop)
    }

    fn has_broken(&self, connection: &mut Connection) -> bool {
        connection.broken || connection.client.is_closed()
    }
}

/// A transaction on a pooled connection, preparing each statement once.
struct Tx<'a> {
    tx: Transaction<'a>,
    prepared: &'a mut HashMap<String, Statement>,
}

impl Tx<'_> {
    /// `sql` (the store's spelling) prepared on this connection.
    fn statement(&mut self, sql: &str) -> StoreResult<Statement> {
        prepared(&mut self.tx, self.prepared, sql)
    }
}

/// `sql` (the store's spelling) prepared through `client`, kept in `prepared` (the
/// connection's statements) for the next time.
fn prepared(
    client: &mut impl GenericClient,
    prepared: &mut HashMap<String, Statement>,
    sql: &str,
) -> StoreResult<Statement> {
    if let Some(statement) = prepared.get(sql) {
        return Ok(statement.clone());
    }
    let statement = client.prepare(&respelled(sql)).map_err(db)?;
    if prepared.len() >= PREPARED_KEPT {
        prepared.clear();
    }
    prepared.insert(sql.to_owned(), statement.clone());
    Ok(statement)
}

/// Runs `work` here when this thread may block (see [`super::off_runtime`]: it is off the
/// async runtime, or there is none), else on a thread of its own.
fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if moved_off_runtime() || tokio::runtime::Handle::try_current().is_err() {
        return work();
    }
    std::thread::scope(|scope| {
        scope
            .spawn(work)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn db(error: postgres::Error) -> StoreError {
    let text = match error.as_db_error() {
        Some(e) => format!("PostgreSQL: {}: {}", e.severity(), e.message()),
        None => format!("PostgreSQL: {error}"),
    };
    let Some(code) = error.code() else {
        // No answer from the server: the connection broke, or none could be made.
        return if error.as_db_error().is_none() {
            StoreError::Unavailable(text)
        } else {
            StoreError::Database(text)
        };
    };
    match code.code() {
        // unique_violation, foreign_key_violation: another writer got there first.
        "23505" | "23503" => StoreError::Conflict(text),
        // disk_full
        "53100" => StoreError::Full(text),
        // connection_exception (class 08), admin_shutdown, crash_shutdown,
        // cannot_connect_now: the server is stopping, restarting or not there.
        c if c.starts_with("08") || matches!(c, "57P01" | "57P02" | "57P03") => {
            StoreError::Unavailable(text)
        }
        _ => StoreError::Database(text),
    }
}

fn pool_error(error: r2d2::Error) -> StoreError {
    StoreError::Unavailable(format!("PostgreSQL: no connection: {error}"))
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(n) if *ty == Type::INT4 => i32::try_from(*n)?.to_sql(ty, out),
            Value::Int(n) => n.to_sql(ty, out),
            Value::Real(x) => x.to_sql(ty, out),
            Value::Text(text) => text.to_sql(ty, out),
            Value::Blob(blob) => blob.to_sql(ty, out),
            Value::Bool(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        // Checked value by value in `to_sql`, which each type's own encoder does.
        [
            Type::INT8,
            Type::INT4,
            Type::FLOAT8,
            Type::TEXT,
            Type::VARCHAR,
            Type::BYTEA,
            Type::BOOL,
        ]
        .contains(ty)
    }

    postgres::types::to_sql_checked!();
}

/// `sql` with SQLite's `?N` parameters as PostgreSQL's `$N` (no statement of the store has
/// a `?` of its own).
fn respelled(sql: &str) -> String {
    sql.replace('?', "$")
}

fn record(row: &postgres::Row) -> StoreResult<Record> {
    let get = |e: postgres::Error| StoreError::Database(format!("PostgreSQL: {e}"));
    let values = row
        .columns()
        .iter()
        .enumerate()
        .map(|(i, column)| {
            let ty = column.type_();
            Ok(if *ty == Type::INT8 {
                row.try_get::<_, Option<i64>>(i)
                    .map_err(get)?
                    .map_or(Value::Null, Value::Int)
            } else if *ty == Type::INT4 {
                row.try_get::<_, Option<i32>>(i)
                    .map_err(get)?
                    .map_or(Value::Null, |n| Value::Int(n.into()))
            } else if *ty == Type::FLOAT8 {
                row.try_get::<_, Option<f64>>(i)
                    .map_err(get)?
                    .map_or(Value::Null, Value::Real)
            } else if *ty == Type::TEXT || *ty == Type::VARCHAR {
                row.try_get::<_, Option<String>>(i)
                    .map_err(get)?
                    .map_or(Value::Null, Value::Text)
            } else if *ty == Type::BYTEA {
                row.try_get::<_, Option<Vec<u8>>>(i)
                    .map_err(get)?
                    .map_or(Value::Null, Value::Blob)
            } else if *ty == Type::BOOL {
                row.try_get::<_, Option<bool>>(i)
                    .map_err(get)?
                    .map_or(Value::Null, Value::Bool)
            } else {
                return Err(StoreError::Database(format!(
                    "column {} is of type {ty}, which no column of this program's tables is",
                    column.name()
                )));
            })
        })
        .collect::<StoreResult<Vec<Value>>>()?;
    Ok(Record(values))
}

fn params(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

impl Sql for Tx<'_> {
    fn execute(&mut self, sql: &str, values: &[Value]) -> StoreResult<usize> {
        let statement = self.statement(sql)?;
        let changed = self.tx.execute(&statement, &params(values)).map_err(db)?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    fn query(&mut self, sql: &str, values: &[Value]) -> StoreResult<Vec<Record>> {
        let statement = self.statement(sql)?;
        self.tx
            .query(&statement, &params(values))
            .map_err(db)?
            .iter()
            .map(record)
            .collect()
    }

    fn serialize_on(&mut self, key: i64) -> StoreResult<()> {
        self.execute("SELECT pg_advisory_xact_lock(?1)", &[Value::Int(key)])
            .map(drop)
    }
}

/// A pool of connections to one database.
pub(super) struct Postgres {
    /// Always set but while dropping (see `Drop`).
    pool: Option<Pool>,
    config: Config,
    /// Calls that found the server gone ([`Connections`]).
    outages: Arc<AtomicU64>,
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // Closing a connection blocks: not on an async runtime's thread.
        if let Some(pool) = self.pool.take() {
            off_runtime(move || drop(pool));
        }
    }
}

impl Postgres {
    /// Connects a pool to `url` and creates the tables if they are missing.
    pub(super) fn connect(url: &str) -> StoreResult<Postgres> {
        let config: Config = url
            .parse()
            .map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {e}")))?;
        off_runtime(|| {
            // One connection first, for a clear error when the server cannot be reached.
            let mut first = config.connect(NoTls).map_err(db)?;
            setup(&mut first)?;
            drop(first);
            let outages = Arc::new(AtomicU64::new(0));
            let pool = r2d2::Pool::builder()
                .max_size(POOL_SIZE)
                .min_idle(Some(1))
                // r2d2 would check each connection with a query of its own (a round trip)
                // every time it is handed out; a broken one is found by `has_broken`, and a
                // query on one that broke meanwhile fails with an error like any other.
                .test_on_check_out(false)
                // While the server is down a request waits this long for a connection,
                // then is refused (503).
                .connection_timeout(POOL_WAIT)
                .build(Connections {
                    config: config.clone(),
                    outages: outages.clone(),
                })
                .map_err(pool_error)?;
            Ok(Postgres {
                pool: Some(pool),
                config: config.clone(),
                outages,
            })
        })
    }

    /// A pooled connection that works, as far as can be known: one made before the last
    /// outage is checked first (a round trip, once after each outage).
    fn connection(&self) -> StoreResult<r2d2::PooledConnection<Connections>> {
        let pool = self
            .pool
            .as_ref()
            .ok_or_else(|| StoreError::Database("the store is closing".to_owned()))?;
        let outages = self.outages.load(Ordering::SeqCst);
        loop {
            let mut connection = pool.get().map_err(pool_error)?;
            if connection.outages_seen == outages || connection.client.simple_query("").is_ok() {
                connection.outages_seen = outages;
                return Ok(connection);
            }
            // Dead since the outage: the pool drops it and makes another.
            connection.broken = true;
        }
    }

    /// `result`, counted as an outage when it found the server gone.
    fn noting<T>(&self, result: StoreResult<T>) -> StoreResult<T> {
        if let Err(StoreError::Unavailable(_)) = &result {
            self.outages.fetch_add(1, Ordering::SeqCst);
        }
        result
    }
}

impl Backend for Postgres {
    /// One snapshot for the whole read: a commit in between cannot split a game's row from
    /// its moves.
    fn read(&self, work: &mut ReadWork<'_>) -> StoreResult<()> {
        self.noting(off_runtime(|| {
            let mut connection = self.connection()?;
            let connection = &mut *connection;
            let tx = connection
                .client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(db)?;
            let mut tx = Tx {
                tx,
                prepared: &mut connection.prepared,
            };
            work(&mut tx)?;
            tx.tx.commit().map_err(db)
        }))
    }

    fn read_statement(&self, sql: &str, values: &[Value]) -> StoreResult<Vec<Record>> {
        self.noting(off_runtime(|| {
            let mut connection = self.connection()?;
            let Connection {
                client,
                prepared: kept,
                ..
            } = &mut *connection;
            let statement = prepared(client, kept, sql)?;
            client
                .query(&statement, &params(values))
                .map_err(db)?
                .iter()
                .map(record)
                .collect()
        }))
    }

    fn write(&self, write: Box<dyn Write>) -> StoreResult<Applied> {
        self.noting(off_runtime(|| {
            let mut connection = self.connection()?;
            let connection = &mut *connection;
            let applied = {
                let tx = connection.client.transaction().map_err(db)?;
                let mut tx = Tx {
                    tx,
                    prepared: &mut connection.prepared,
                };
                let applied = write.apply(&mut tx, &now_text())?;
                tx.tx.commit().map_err(db)?;
                applied
            };
            if let Some(change) = &applied.change {
                // The write stands: a notice that fails is logged, and the other servers'
                // copies are refused at their next write (see the module's doc).
                if let Err(e) = announce(&mut connection.client, change) {
                    e.count();
                    tracing::warn!("NOTIFY after game {}'s write: {e}", change.game);
                }
            }
            if !applied.accounts.is_empty() {
                // A lost notice costs a page its prompt news only: it reads again on its
                // next connection.
                if let Err(e) = announce_accounts(&mut connection.client, &applied.accounts) {
                    e.count();
                    tracing::warn!("NOTIFY of accounts' notices: {e}");
                }
            }
            Ok(applied)
        }))
    }

    /// Starts the thread that hears every commit, connecting again after a lost connection.
    fn listen(&self, on_notice: Box<dyn Fn(Notice) + Send>) -> StoreResult<()> {
        let config = self.config.clone();
        let mut client = off_runtime(|| listening(&config))?;
        std::thread::Builder::new()
            .name("sow-listen".into())
            .spawn(move || loop {
                on_notice(Notice::Hearing);
                let lost = {
                    let mut notices = client.notifications();
                    let mut notices = notices.blocking_iter();
                    loop {
                        match notices.next() {
                            Ok(Some(notice)) if notice.channel() == ACCOUNTS_CHANNEL => {
                                if let Ok(account) = notice.payload().parse() {
                                    on_notice(Notice::Account(account));
                                }
                            }
                            Ok(Some(notice)) => {
                                if let Some(change) = parse_change(notice.payload()) {
                                    on_notice(Notice::Change(change));
                                }
                            }
                            Ok(None) => break "connection closed".to_owned(),
                            Err(e) => break e.to_string(),
                        }
                    }
                };
                on_notice(Notice::Lost);
                tracing::warn!("LISTEN {CHANNEL}: {lost}; connecting again");
                client = loop {
                    std::thread::sleep(LISTEN_RETRY);
                    if let Ok(client) = listening(&config) {
                        break client;
                    }
                };
            })
            .map_err(|e| StoreError::Database(format!("cannot start the listener: {e}")))?;
        Ok(())
    }

    fn is_shared(&self) -> bool {
        true
    }

    /// PostgreSQL's pages are its own business: the check is that every game's move count
    /// matches its stored moves.
    fn integrity_check(&self) -> StoreResult<String> {
        let row = off_runtime(|| {
            self.connection()?
                .client
                .query_one(
                    "SELECT count(*) FROM games g
                     WHERE g.plies <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)",
                    &[],
                )
                .map_err(db)
        })?;
        let wrong: i64 = row.get(0);
        Ok(if wrong == 0 {
            "ok".to_owned()
        } else {
            format!("{wrong} games whose move count is not their stored moves")
        })
    }
}

/// A connection listening on the channel.
fn listening(config: &Config) -> StoreResult<Client> {
    let mut config = config.clone();
    // Named, so that an operator (or a test) can tell it from the pool's connections.
    config.application_name(LISTENER_NAME);
    let mut client = config.connect(NoTls).map_err(db)?;
    client
        .batch_execute(&format!("LISTEN {CHANNEL}; LISTEN {ACCOUNTS_CHANNEL}"))
        .map_err(db)?;
    Ok(client)
}

/// Creates the tables, once even when several servers start together (an advisory lock),
/// and refuses tables of a newer version.
fn setup(client: &mut Client) -> StoreResult<()> {
    let mut tx = client.transaction().map_err(db)?;
    tx.execute("SELECT pg_advisory_xact_lock(1402014)", &[])
        .map_err(db)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS sowing_schema (version BIGINT NOT NULL)")
        .map_err(db)?;
    let version: Option<i64> = tx
        .query_one("SELECT max(version) FROM sowing_schema", &[])
        .map_err(db)?
        .get(0);
    if let Some(version) = version.filter(|&v| v > VERSION) {
        return Err(StoreError::Database(format!(
            "the database is of version {version}, newer than this program's ({VERSION})"
        )));
    }
    tx.batch_execute(SCHEMA).map_err(db)?;
    match version {
        None => {
            tx.execute(
                "INSERT INTO sowing_schema (version) VALUES ($1)",
                &[&VERSION],
            )
            .map_err(db)?;
        }
        Some(older) if older < VERSION => {
            tx.execute("UPDATE sowing_schema SET version = $1", &[&VERSION])
                .map_err(db)?;
        }
        Some(_) => {}
    }
    tx.commit().map_err(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_respelled_for_postgresql() {
        assert_eq!(
            respelled("UPDATE t SET a = ?2 WHERE id = ?1 AND CAST(?3 AS BIGINT) IS NULL"),
            "UPDATE t SET a = $2 WHERE id = $1 AND CAST($3 AS BIGINT) IS NULL"
        );
    }
}
