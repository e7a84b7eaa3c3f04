//! Where the games are kept ([`Database`], read once from `--db`), a copy of it
//! ([`backup`]), and how store calls leave the async runtime ([`off_runtime`]).

use std::fmt;
use std::path::{Path, PathBuf};

use super::error::{StoreError, StoreResult};
use super::{sqlite, Store};

/// Copies the SQLite database `db`, which a running server may be writing, to the file `to`
/// through SQLite's online backup (`sow backup`): the database as it was at one commit,
/// checked, and written whole or not at all; the number of games it holds. A PostgreSQL
/// database is refused: `pg_dump` backs it up.
///
/// # Errors
/// When `db` is a PostgreSQL URL or cannot be read, or the copy cannot be written.
pub fn backup(db: &Database, to: &Path) -> StoreResult<usize> {
    match db {
        Database::Sqlite(path) => sqlite::backup(path, to),
        Database::Postgres(_) => Err(StoreError::Database(
            "a PostgreSQL database is backed up with its own tools (pg_dump); \
             sow backup copies an SQLite file"
                .to_owned(),
        )),
    }
}

/// Where the games are kept: an SQLite file, or a PostgreSQL database that several servers
/// may share. Read once from `--db`: a `postgres://` or `postgresql://` URL, else a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file (created on first open).
    Sqlite(PathBuf),
    /// A PostgreSQL URL.
    Postgres(String),
}

impl From<&str> for Database {
    fn from(db: &str) -> Database {
        if db.starts_with("postgres://") || db.starts_with("postgresql://") {
            Database::Postgres(db.to_owned())
        } else {
            Database::Sqlite(PathBuf::from(db))
        }
    }
}

impl std::str::FromStr for Database {
    type Err = std::convert::Infallible;

    fn from_str(db: &str) -> Result<Database, Self::Err> {
        Ok(Database::from(db))
    }
}

impl fmt::Display for Database {
    /// As messages and logs name it: the file's path, or the URL without its password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => {
                let hidden = url
                    .find("://")
                    .zip(url.rfind('@'))
                    .and_then(|(scheme, at)| {
                        let (user, _password) = url.get(scheme + 3..at)?.split_once(':')?;
                        Some(format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]))
                    });
                f.write_str(hidden.as_deref().unwrap_or(url))
            }
        }
    }
}

impl Database {
    /// The store over this database: the file opened (created on first use), or a pool
    /// connected to the server.
    ///
    /// # Errors
    /// See [`Store::open`] and [`Store::connect`].
    pub fn open(&self) -> StoreResult<Store> {
        match self {
            Database::Sqlite(path) => Store::open(path),
            Database::Postgres(url) => Store::connect(url),
        }
    }
}

thread_local! {
    /// Set while this thread runs store work its caller moved off the async runtime.
    static OFF_RUNTIME: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `work`, store calls that its caller has moved off the async runtime (the service
/// does, with `spawn_blocking`), so that PostgreSQL's blocking client runs them on this
/// thread. A PostgreSQL call from anywhere else that has a runtime (a test's body) runs on
/// a thread of its own instead, as that client cannot block a runtime's thread.
pub fn off_runtime<T>(work: impl FnOnce() -> T) -> T {
    let was = OFF_RUNTIME.with(|flag| flag.replace(true));
    let value = work();
    OFF_RUNTIME.with(|flag| flag.set(was));
    value
}

/// Whether this thread runs store work that its caller moved off the async runtime
/// ([`off_runtime`]).
pub(super) fn moved_off_runtime() -> bool {
    OFF_RUNTIME.with(|flag| flag.get())
}
