//! Games kept in PostgreSQL, shared by several `sow serve` processes.
//!
//! The database decides between servers: a move is stored only onto the game as the server
//! saw it (its move count, and its version when given), the row lock of that `UPDATE`
//! orders concurrent writers of one game, and the moves' primary key (game, ply) refuses a
//! ply stored twice. Every commit announces itself with `NOTIFY sowing_games` (sent by the
//! database only if the transaction commits), which each server `LISTEN`s to.

use std::time::Duration;

use postgres::error::SqlState;
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Config, IsolationLevel, NoTls, Row, Transaction};
use r2d2_postgres::PostgresConnectionManager;
use sowing::{Game, Side};

mod live;

use super::{
    end_code, end_of_code, replay, Change, GameRow, LiveRow, MatchRow, StoreError, StoreResult,
    Summary,
};

/// The channel of `NOTIFY`: payload `game plies version` (version -1: the game was deleted).
const CHANNEL: &str = "sowing_games";

/// The schema's version, kept in the table `sowing_schema`: 1 had games and matches; 2 adds
/// the table `live` (games between two seats), created on start when missing.
const VERSION: i64 = 2;

/// Connections per server: writes are short, and PostgreSQL itself commits concurrent
/// transactions together.
const POOL_SIZE: u32 = 16;

/// The time now as SQLite's `datetime('now')` writes it, so that both stores give the same
/// texts (`2026-12-01 18:47:00`, UTC).
const NOW: &str = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')";

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
    updated     TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
);
CREATE TABLE IF NOT EXISTS moves (
    game_id BIGINT NOT NULL REFERENCES games(id),
    ply     BIGINT NOT NULL,
    mv      TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_update ON games(updated);
CREATE UNIQUE INDEX IF NOT EXISTS games_by_match ON games(match_id, round);
";

const GAME_COLUMNS: &str = "id, variant, pits, start, south, north, match_id, round, plies, \
                            result, end_reason, end_to, created, updated, version";

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// Runs `work` here when this thread may block (see [`super::off_runtime`]: it is off the
/// async runtime, or there is none), else on a thread of its own.
pub(super) fn off_runtime<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if super::OFF_RUNTIME.with(|flag| flag.get()) || tokio::runtime::Handle::try_current().is_err()
    {
        return work();
    }
    std::thread::scope(|scope| {
        scope
            .spawn(work)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A pool of connections to one database.
pub(super) struct Postgres {
    /// Always set but while dropping (see `Drop`).
    pool: Option<Pool>,
    config: Config,
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // Closing a connection blocks: not on an async runtime's thread.
        if let Some(pool) = self.pool.take() {
            off_runtime(move || drop(pool));
        }
    }
}

fn db(error: postgres::Error) -> StoreError {
    let text = match error.as_db_error() {
        Some(e) => format!("PostgreSQL: {}: {}", e.severity(), e.message()),
        None => format!("PostgreSQL: {error}"),
    };
    match error.code() {
        Some(code)
            if *code == SqlState::UNIQUE_VIOLATION || *code == SqlState::FOREIGN_KEY_VIOLATION =>
        {
            StoreError::Conflict(text)
        }
        _ => StoreError::Database(text),
    }
}

fn pool_error(error: r2d2::Error) -> StoreError {
    StoreError::Database(format!("PostgreSQL: no connection: {error}"))
}

fn game_row(row: &Row) -> StoreResult<GameRow> {
    let get_error = |e: postgres::Error| StoreError::Database(format!("PostgreSQL: {e}"));
    let id: i64 = row.try_get(0).map_err(get_error)?;
    let reason: Option<String> = row.try_get(10).map_err(get_error)?;
    let to: Option<String> = row.try_get(11).map_err(get_error)?;
    let unknown = |text: &str| StoreError::Database(format!("game {id}: unknown end {text:?}"));
    let to: Option<Side> = to
        .map(|text| text.parse::<Side>().map_err(|_| unknown(&text)))
        .transpose()?;
    let end = reason
        .map(|code| end_of_code(&code, to).ok_or_else(|| unknown(&code)))
        .transpose()?;
    let round: Option<i64> = row.try_get(7).map_err(get_error)?;
    Ok(GameRow {
        id,
        variant: row.try_get(1).map_err(get_error)?,
        pits: row.try_get::<_, i64>(2).map_err(get_error)? as usize,
        start: row.try_get(3).map_err(get_error)?,
        south: row.try_get(4).map_err(get_error)?,
        north: row.try_get(5).map_err(get_error)?,
        match_id: row.try_get(6).map_err(get_error)?,
        round: round.map(|r| r as u32),
        plies: row.try_get::<_, i64>(8).map_err(get_error)? as usize,
        result: row.try_get(9).map_err(get_error)?,
        end,
        created: row.try_get(12).map_err(get_error)?,
        updated: row.try_get(13).map_err(get_error)?,
        version: row.try_get(14).map_err(get_error)?,
    })
}

/// Announces a change; PostgreSQL sends it when (and only if) the transaction commits.
fn notify(tx: &mut Transaction<'_>, id: i64, plies: usize, version: i64) -> StoreResult<()> {
    tx.execute(
        "SELECT pg_notify($1, $2)",
        &[&CHANNEL, &format!("{id} {plies} {version}")],
    )
    .map_err(db)?;
    Ok(())
}

fn parse_change(payload: &str) -> Option<Change> {
    let mut parts = payload.split(' ');
    let change = Change {
        game: parts.next()?.parse().ok()?,
        plies: parts.next()?.parse().ok()?,
        version: parts.next()?.parse().ok()?,
    };
    parts.next().is_none().then_some(change)
}

/// Writes the game row's summary of its moves onto the game as `plies_before` and
/// `seen` (when given) describe it; its new version, or `None` when the game is not so.
fn update_summary(
    tx: &mut Transaction<'_>,
    id: i64,
    summary: &Summary,
    plies_before: Option<usize>,
    seen: Option<i64>,
) -> StoreResult<Option<i64>> {
    let (reason, to) = summary.end.map(end_code).unzip();
    let row = tx
        .query_opt(
            &format!(
                "UPDATE games SET plies = $2, result = $3, end_reason = $4, end_to = $5,
                                  updated = {NOW}, version = version + 1
                 WHERE id = $1 AND ($6::BIGINT IS NULL OR plies = $6)
                               AND ($7::BIGINT IS NULL OR version = $7)
                 RETURNING version"
            ),
            &[
                &id,
                &(summary.plies as i64),
                &summary.result,
                &reason,
                &to.flatten().map(Side::name),
                &plies_before.map(|p| p as i64),
                &seen,
            ],
        )
        .map_err(db)?;
    Ok(row.map(|r| r.get(0)))
}

fn changed_meanwhile(id: i64) -> StoreError {
    StoreError::Conflict(format!(
        "game {id} changed meanwhile (through another server); nothing was written"
    ))
}

impl Postgres {
    /// Connects a pool to `url` and creates the tables if they are missing.
    pub(super) fn connect(url: &str) -> StoreResult<Postgres> {
        let config: Config = url
            .parse()
            .map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {e}")))?;
        // One connection first, for a clear error when the server cannot be reached.
        let mut first = config.connect(NoTls).map_err(db)?;
        setup(&mut first)?;
        drop(first);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(10))
            .build(PostgresConnectionManager::new(config.clone(), NoTls))
            .map_err(pool_error)?;
        Ok(Postgres {
            pool: Some(pool),
            config,
        })
    }

    fn client(&self) -> StoreResult<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>> {
        self.pool
            .as_ref()
            .ok_or_else(|| StoreError::Database("the store is closing".to_owned()))?
            .get()
            .map_err(pool_error)
    }

    /// Runs `work` in one transaction, committed when it succeeds.
    fn transaction<T>(
        &self,
        work: impl FnOnce(&mut Transaction<'_>) -> StoreResult<T>,
    ) -> StoreResult<T> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(db)?;
        let value = work(&mut tx)?;
        tx.commit().map_err(db)?;
        Ok(value)
    }

    /// Starts the thread that hears every commit (see [`super::Store::listen`]).
    pub(super) fn listen(&self, on_change: impl Fn(Change) + Send + 'static) -> StoreResult<()> {
        let config = self.config.clone();
        let mut client = listening(&config)?;
        std::thread::Builder::new()
            .name("sow-listen".into())
            .spawn(move || loop {
                {
                let mut notices = client.notifications();
                let mut notices = notices.blocking_iter();
                loop {
                    match notices.next() {
                        Ok(Some(notice)) => {
                            if let Some(change) = parse_change(notice.payload()) {
                                on_change(change);
                            }
                        }
                        Ok(None) => {
                            eprintln!("sow serve: LISTEN {CHANNEL}: connection closed; connecting again");
                            break;
                        }
                        Err(e) => {
                            eprintln!("sow serve: LISTEN {CHANNEL}: {e}; connecting again");
                            break;
                        }
                    }
                }
                }
                client = loop {
                    std::thread::sleep(Duration::from_secs(1));
                    if let Ok(client) = listening(&config) {
                        break client;
                    }
                };
            })
            .map_err(|e| StoreError::Database(format!("cannot start the listener: {e}")))?;
        Ok(())
    }

    pub(super) fn version(&self, id: i64) -> StoreResult<Option<i64>> {
        let row = self
            .client()?
            .query_opt("SELECT version FROM games WHERE id = $1", &[&id])
            .map_err(db)?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(super) fn create_match(&self, rounds: u32) -> StoreResult<i64> {
        self.transaction(|tx| {
            let row = tx
                .query_one(
                    "INSERT INTO matches (rounds) VALUES ($1) RETURNING id",
                    &[&i64::from(rounds)],
                )
                .map_err(db)?;
            Ok(row.get(0))
        })
    }

    pub(super) fn get_match(&self, id: i64) -> StoreResult<Option<MatchRow>> {
        let row = self
            .client()?
            .query_opt("SELECT id, rounds FROM matches WHERE id = $1", &[&id])
            .map_err(db)?;
        Ok(row.map(|r| MatchRow {
            id: r.get(0),
            rounds: r.get::<_, i64>(1) as u32,
        }))
    }

    pub(super) fn create_game(
        &self,
        game: &Game,
        south: &str,
        north: &str,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        self.create_game_with(game, south, north, match_round, None)
    }

    /// A new game, and its live row when it is between two seats, in one transaction.
    fn create_game_with(
        &self,
        game: &Game,
        south: &str,
        north: &str,
        match_round: Option<(i64, u32)>,
        live: Option<&LiveRow>,
    ) -> StoreResult<i64> {
        let rules = game.rules();
        let n = rules.pits_per_row();
        let moves: Vec<String> = game.moves().iter().map(|m| m.name(n).to_string()).collect();
        let summary = Summary::of(game);
        let (reason, to) = summary.end.map(end_code).unzip();
        self.transaction(|tx| {
            let id: i64 = tx
                .query_one(
                    "INSERT INTO games (variant, pits, start, south, north, match_id, round,
                                        plies, result, end_reason, end_to)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                    &[
                        &rules.variant().name(),
                        &(n as i64),
                        &game.start().to_string(),
                        &south,
                        &north,
                        &match_round.map(|(m, _)| m),
                        &match_round.map(|(_, r)| i64::from(r)),
                        &(summary.plies as i64),
                        &summary.result,
                        &reason,
                        &to.flatten().map(Side::name),
                    ],
                )
                .map_err(db)?
                .get(0);
            if !moves.is_empty() {
                tx.execute(
                    "INSERT INTO moves (game_id, ply, mv)
                     SELECT $1, ord - 1, mv FROM unnest($2::TEXT[]) WITH ORDINALITY AS t(mv, ord)",
                    &[&id, &moves],
                )
                .map_err(db)?;
            }
            if let Some(live) = live {
                live::insert_live(tx, id, live)?;
            }
            notify(tx, id, summary.plies, 0)?;
            Ok(id)
        })
    }

    pub(super) fn append_move(&self, id: i64, game: &Game, seen: Option<i64>) -> StoreResult<i64> {
        let ply = game.moves().len() - 1;
        let mv = game.moves()[ply]
            .name(game.rules().pits_per_row())
            .to_string();
        let summary = Summary::of(game);
        self.transaction(|tx| {
            let version = update_summary(tx, id, &summary, Some(ply), seen)?
                .ok_or_else(|| changed_meanwhile(id))?;
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES ($1, $2, $3)",
                &[&id, &(ply as i64), &mv],
            )
            .map_err(db)?;
            notify(tx, id, summary.plies, version)?;
            Ok(version)
        })
    }

    pub(super) fn truncate(&self, id: i64, game: &Game, seen: Option<i64>) -> StoreResult<i64> {
        let summary = Summary::of(game);
        self.transaction(|tx| {
            let Some(version) = update_summary(tx, id, &summary, None, seen)? else {
                return match seen {
                    Some(_) => Err(changed_meanwhile(id)),
                    // No such game: nothing to forget.
                    None => Ok(0),
                };
            };
            tx.execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                &[&id, &(summary.plies as i64)],
            )
            .map_err(db)?;
            notify(tx, id, summary.plies, version)?;
            Ok(version)
        })
    }

    pub(super) fn delete(&self, id: i64) -> StoreResult<()> {
        self.transaction(|tx| {
            tx.execute("DELETE FROM live WHERE game_id = $1", &[&id])
                .map_err(db)?;
            tx.execute("DELETE FROM moves WHERE game_id = $1", &[&id])
                .map_err(db)?;
            tx.execute("DELETE FROM games WHERE id = $1", &[&id])
                .map_err(db)?;
            notify(tx, id, 0, -1)
        })
    }

    pub(super) fn game_row(&self, id: i64) -> StoreResult<Option<GameRow>> {
        self.client()?
            .query_opt(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
                &[&id],
            )
            .map_err(db)?
            .as_ref()
            .map(game_row)
            .transpose()
    }

    pub(super) fn load(&self, id: i64) -> StoreResult<Option<(GameRow, Game)>> {
        let mut client = self.client()?;
        // One snapshot for the row and its moves: a commit in between cannot split them.
        let mut tx = client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(db)?;
        let Some(row) = tx
            .query_opt(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
                &[&id],
            )
            .map_err(db)?
        else {
            return Ok(None);
        };
        let row = game_row(&row)?;
        let tokens: Vec<String> = tx
            .query(
                "SELECT mv FROM moves WHERE game_id = $1 ORDER BY ply",
                &[&id],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        tx.commit().map_err(db)?;
        replay(row, tokens).map(Some)
    }

    fn rows(&self, query: &str, param: i64) -> StoreResult<Vec<GameRow>> {
        self.client()?
            .query(query, &[&param])
            .map_err(db)?
            .iter()
            .map(game_row)
            .collect()
    }

    pub(super) fn list(&self, limit: usize) -> StoreResult<Vec<GameRow>> {
        self.rows(
            &format!("SELECT {GAME_COLUMNS} FROM games ORDER BY updated DESC, id DESC LIMIT $1"),
            limit.min(i64::MAX as usize) as i64,
        )
    }

    pub(super) fn match_games(&self, match_id: i64) -> StoreResult<Vec<GameRow>> {
        self.rows(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE match_id = $1 ORDER BY round"),
            match_id,
        )
    }

    pub(super) fn integrity_check(&self) -> StoreResult<String> {
        let row = self
            .client()?
            .query_one(
                "SELECT count(*) FROM games g
                 WHERE g.plies <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id)",
                &[],
            )
            .map_err(db)?;
        let wrong: i64 = row.get(0);
        Ok(if wrong == 0 {
            "ok".to_owned()
        } else {
            format!("{wrong} games whose move count is not their stored moves")
        })
    }

    pub(super) fn stored_moves(&self, id: i64) -> StoreResult<usize> {
        let row = self
            .client()?
            .query_one("SELECT count(*) FROM moves WHERE game_id = $1", &[&id])
            .map_err(db)?;
        Ok(row.get::<_, i64>(0) as usize)
    }
}

/// A connection listening on the channel.
fn listening(config: &Config) -> StoreResult<Client> {
    let mut client = config.connect(NoTls).map_err(db)?;
    client
        .batch_execute(&format!("LISTEN {CHANNEL}"))
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
    tx.batch_execute(live::SCHEMA).map_err(db)?;
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
    fn a_change_reads_from_its_payload_and_nothing_else_does() {
        assert_eq!(
            parse_change("12 7 3"),
            Some(Change {
                game: 12,
                plies: 7,
                version: 3
            })
        );
        assert_eq!(parse_change("12 0 -1").map(|c| c.version), Some(-1));
        for bad in ["", "12", "12 7", "12 7 3 4", "a 7 3", "12 -7 3"] {
            assert_eq!(parse_change(bad), None, "{bad:?}");
        }
    }
}
