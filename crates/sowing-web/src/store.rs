//! Games kept in SQLite (the default, [`Store::open`]) or PostgreSQL ([`Store::connect`]):
//! one row per game, one row per move, one transaction per change.
//!
//! This file is the store's contract: the [`Store`] and what a [`Backend`] supplies. The SQL
//! is written once, by what it keeps, for both databases (`?N` parameters, `RETURNING`,
//! `CAST`): `games.rs` (games, their moves and matches), `moves.rs` (playing on a stored
//! game), `live.rs` (games between two seats), `changes.rs` (what the servers tell one
//! another), `analyses.rs`, `accounts.rs` (accounts, sessions and recovery codes),
//! `ratings.rs`, `puzzles.rs`, `seeks.rs` (quick pairing), `challenges.rs`, `tournaments.rs` and `serving.rs` (when the servers last
//! served), each adding its operations to [`Store`] and its writes as [`write::Write`]s,
//! over `sql.rs` (values, rows, statements). A backend (`sqlite.rs`, `postgres.rs`)
//! supplies only what
//! differs: how a connection is had, how writes are made durable (SQLite commits the writes
//! queued meanwhile together; PostgreSQL announces each commit with `NOTIFY` to the other
//! servers), its schema and its upgrades.
//!
//! Every change bumps the game row's [`GameRow::version`]; a write made from a copy at an
//! older version is refused ([`StoreError::Conflict`]), so that several servers sharing
//! PostgreSQL never write over one another.

use std::path::Path;

mod accounts;
mod analyses;
mod challenges;
mod changes;
mod database;
mod error;
mod games;
mod live;
mod moves;
mod openings;
mod postgres;
mod puzzles;
mod ratings;
mod seeks;
mod serving;
mod sql;
mod sqlite;
mod tournaments;
mod write;

pub use accounts::{AccountRow, RecoveryCode, SessionEnd};
pub use analyses::{moves_key, StoredAnalysis};
pub use challenges::{ChallengeRow, Closing, NewChallenge, EVERYONE};
pub use changes::{Change, Notice, Step};
pub use database::{backup, off_runtime, Database};
pub use error::{StoreError, StoreResult, STORE_ERRORS};
pub use games::{GameRow, MatchRow, NewGame};
pub use live::{LiveListing, LiveResult, LiveRow, Offers};
pub use openings::{PlayedMove, MAX_PLAYED_LINE};
pub use postgres::LISTENER_NAME;
pub use puzzles::{NewPuzzle, PuzzleOutcome, PuzzleRow, MAX_EXCLUDED};
pub use ratings::{RatedGameRow, RatingRow};
pub use seeks::{NewSeek, SeekRow, SEEK_ALIVE_MS};
pub use tournaments::{
    start_of, BoardRow, Direction, Ending, EntrantRow, NewTournament, TournamentRow,
};
pub use write::Stamp;

use sql::{Record, Sql, Value};
use write::{Applied, Write};

/// Read work, run on one consistent view of the database.
type ReadWork<'a> = dyn FnMut(&mut dyn Sql) -> StoreResult<()> + Send + 'a;

/// What a database supplies to the store: a consistent read, a durable write, and word of
/// other writers' changes.
trait Backend: Send + Sync {
    /// Runs `work` on one view of the database (one transaction, or one connection that no
    /// writer can use meanwhile).
    fn read(&self, work: &mut ReadWork<'_>) -> StoreResult<()>;
    /// Runs one query. A single statement sees one consistent view by itself, so it needs
    /// no transaction around it: one round trip to a server.
    fn read_statement(&self, sql: &str, values: &[Value]) -> StoreResult<Vec<Record>>;
    /// Applies `write` in a transaction of its own (or a savepoint of a transaction shared
    /// with other writes): all of it is committed before the answer, or none of it.
    fn write(&self, write: Box<dyn Write>) -> StoreResult<Applied>;
    /// Calls `on_notice` for every change committed by anyone from now on, and when the
    /// listener loses or regains its connection (PostgreSQL); nothing when this process is
    /// the only writer (SQLite).
    fn listen(&self, on_notice: Box<dyn Fn(Notice) + Send>) -> StoreResult<()>;
    /// Whether other processes may change the games.
    fn is_shared(&self) -> bool;
    /// The database's own check: `ok` when sound.
    fn integrity_check(&self) -> StoreResult<String>;
}

/// The database: SQLite or PostgreSQL, with the same operations. Calls block (callers run
/// them off the async runtime).
pub struct Store {
    backend: Box<dyn Backend>,
}

impl Store {
    /// Opens (creating on first start) the SQLite database at `path`; a database written by
    /// an earlier version of this program is upgraded in place, in one transaction.
    ///
    /// # Errors
    /// When the file cannot be opened, is not a database of this program, or is of a newer
    /// version.
    pub fn open(path: &Path) -> StoreResult<Store> {
        Ok(Store {
            backend: Box::new(sqlite::Sqlite::open(path)?),
        })
    }

    /// An SQLite database in memory, for tests.
    ///
    /// # Errors
    /// Only if SQLite itself fails.
    pub fn in_memory() -> StoreResult<Store> {
        Ok(Store {
            backend: Box::new(sqlite::Sqlite::in_memory()?),
        })
    }

    /// Connects to the PostgreSQL database at `url` (`postgres://user@host:port/dbname`),
    /// creating the tables on first start. Several servers may share it: each write is one
    /// transaction that the database refuses ([`StoreError::Conflict`]) when the game
    /// changed meanwhile, and each commit is announced with `NOTIFY` ([`Store::listen`]).
    ///
    /// # Errors
    /// When the database cannot be reached, or holds tables of a newer version.
    pub fn connect(url: &str) -> StoreResult<Store> {
        Ok(Store {
            backend: Box::new(postgres::Postgres::connect(url)?),
        })
    }

    /// Whether other processes may change the games (PostgreSQL): a copy in memory must
    /// then be checked against [`Store::version`] before it is trusted.
    pub fn is_shared(&self) -> bool {
        self.backend.is_shared()
    }

    /// Calls `on_notice` (on a thread of its own) for every change committed to the store by
    /// anyone, this process included, from now on; for PostgreSQL through `LISTEN`, with a
    /// new connection after a lost one (told as [`Notice::Lost`], then [`Notice::Hearing`]).
    /// SQLite has no other writers: nothing is started.
    ///
    /// # Errors
    /// When the listening connection cannot be made.
    pub fn listen(&self, on_notice: impl Fn(Notice) + Send + 'static) -> StoreResult<()> {
        self.backend.listen(Box::new(on_notice))
    }

    /// The database's own check: `ok` when sound. SQLite checks every page and index;
    /// PostgreSQL (whose pages are its own business) checks that every game's move count
    /// matches its stored moves.
    ///
    /// # Errors
    /// On a database failure.
    pub fn integrity_check(&self) -> StoreResult<String> {
        self.backend.integrity_check()
    }

    /// Runs `work` on one consistent view of the database.
    fn read<T: Send>(
        &self,
        work: impl FnOnce(&mut dyn Sql) -> StoreResult<T> + Send,
    ) -> StoreResult<T> {
        let mut work = Some(work);
        let mut answer = None;
        self.backend.read(&mut |sql| {
            if let Some(work) = work.take() {
                answer = Some(work(sql)?);
            }
            Ok(())
        })?;
        answer.ok_or_else(|| StoreError::Database("a read did not run".to_owned()))
    }
}
