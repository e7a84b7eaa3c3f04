//! Games kept in SQLite (the default) or PostgreSQL (`pg`): one row per game, one row per
//! move, one transaction per change. SQLite runs in write-ahead-logging mode with full sync,
//! so an acknowledged move survives a crash and a half-done write is rolled back rather than
//! left behind; PostgreSQL lets several servers share the games (see [`Store::connect`]).

use std::fmt;
use std::path::Path;
use std::sync::{mpsc, Mutex};

use rusqlite::{params, Connection, ErrorCode, OptionalExtension};
use sowing::{End, Game, Move, Position, Side};

use crate::clock::Clock;

mod pg;

/// Why the store could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// SQLite failed, or the file is not a database of this program.
    Database(String),
    /// A write broke a uniqueness constraint: another writer got there first (the same ply
    /// stored twice, the same round of a match started twice). Nothing was written.
    Conflict(String),
    /// A stored game's start position no longer reads. The stored data is kept as it is.
    BadStart {
        /// The game.
        game: i64,
        /// Why the position text does not read.
        reason: String,
    },
    /// A stored move no longer replays (the rules changed since it was played). The game is
    /// not cut short at that move: it is refused whole, and its stored moves are kept.
    Unreplayable {
        /// The game.
        game: i64,
        /// The move's number, from 1.
        ply: usize,
        /// The move as stored.
        token: String,
        /// Why it does not replay.
        reason: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Database(message) => write!(f, "database: {message}"),
            StoreError::Conflict(message) => write!(f, "database: conflicting write: {message}"),
            StoreError::BadStart { game, reason } => write!(
                f,
                "game {game}: its stored start position no longer reads ({reason}); \
                 the stored game is kept as it is"
            ),
            StoreError::Unreplayable {
                game,
                ply,
                token,
                reason,
            } => write!(
                f,
                "game {game}: its stored move {ply} ({token:?}) no longer replays ({reason}); \
                 the stored moves are kept as they are"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// A store answer.
pub type StoreResult<T> = Result<T, StoreError>;

fn db(error: rusqlite::Error) -> StoreError {
    match error.sqlite_error_code() {
        Some(ErrorCode::ConstraintViolation) => StoreError::Conflict(error.to_string()),
        _ => StoreError::Database(error.to_string()),
    }
}

/// How a game ended, as stored: a stable code (`board-cleared`, `last-four`, `cannot-feed`,
/// `repetition`) and, for the last four, the side that took them. The words for people are
/// made from it ([`End::describe`]), never stored.
pub fn end_code(end: End) -> (&'static str, Option<Side>) {
    match end {
        End::BoardCleared => ("board-cleared", None),
        End::LastFour(side) => ("last-four", Some(side)),
        End::CannotFeed => ("cannot-feed", None),
        End::Repetition => ("repetition", None),
    }
}

/// The end a stored code names; `None` for a code this program does not know.
pub fn end_of_code(code: &str, to: Option<Side>) -> Option<End> {
    match (code, to) {
        ("board-cleared", None) => Some(End::BoardCleared),
        ("last-four", Some(side)) => Some(End::LastFour(side)),
        ("cannot-feed", None) => Some(End::CannotFeed),
        ("repetition", None) => Some(End::Repetition),
        _ => None,
    }
}

/// What is kept about a game besides its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id.
    pub id: i64,
    /// The game's name (`hoyito-ii`, `hoyito-iii`, `ayoayo`).
    pub variant: String,
    /// Pits per row.
    pub pits: usize,
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
    /// How the game ended, or `None` while it goes on.
    pub end: Option<End>,
    /// When it was created (UTC, SQLite's `datetime`).
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// Bumped by every change to the game's moves in a shared (PostgreSQL) store, so that a
    /// server can tell its copy is stale; always 0 in SQLite, where one process owns the file.
    pub version: i64,
}

/// A match of Hoyito III rounds (H3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    /// The match's id.
    pub id: i64,
    /// Rounds to play (R).
    pub rounds: u32,
}

/// The database: SQLite or PostgreSQL, with the same methods. Calls block (callers run them
/// off the async runtime).
pub struct Store {
    backend: Backend,
}

enum Backend {
    Sqlite(Sqlite),
    Postgres(pg::Postgres),
}

/// The SQLite store. One connection behind a mutex: SQLite serialises writers anyway, and
/// each call is short.
struct Sqlite {
    conn: Mutex<Connection>,
    /// Writes waiting for the next group commit.
    queue: Mutex<Vec<Job>>,
}

/// The game row's summary of its moves: how many, the result, how it ended.
#[derive(Clone, Copy, Debug)]
struct Summary {
    plies: usize,
    result: Option<&'static str>,
    end: Option<End>,
}

impl Summary {
    fn of(game: &Game) -> Summary {
        Summary {
            plies: game.moves().len(),
            result: game.outcome().map(|o| o.name()),
            end: game.end(),
        }
    }
}

/// A change to the database, applied inside a transaction. It holds only what is written:
/// a move is its name and the new summary, never a copy of the game.
enum Write {
    Match {
        rounds: u32,
    },
    Game {
        variant: &'static str,
        pits: usize,
        start: String,
        south: String,
        north: String,
        match_round: Option<(i64, u32)>,
        moves: Vec<String>,
        summary: Summary,
        /// A game between two seats: its seats, clock and offers (`game_id` is set here).
        live: Option<Box<LiveRow>>,
    },
    Move {
        id: i64,
        /// The move's index, from 0.
        ply: usize,
        mv: String,
        summary: Summary,
        /// The live row as it is after the move (clock, offers), for a game between seats.
        live: Option<Box<LiveRow>>,
    },
    Truncate {
        id: i64,
        /// The moves kept: `summary.plies`.
        summary: Summary,
        live: Option<Box<LiveRow>>,
    },
    /// A live game's seats, clock, offers or result changed (no move).
    Live(Box<LiveRow>),
    /// A game and its moves, gone.
    Delete {
        id: i64,
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
                variant,
                pits,
                start,
                south,
                north,
                match_round,
                moves,
                summary,
                live,
            } => {
                tx.execute(
                    "INSERT INTO games (variant, pits, start, south, north, match_id, round)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        variant,
                        *pits as i64,
                        start,
                        south,
                        north,
                        match_round.map(|(m, _)| m),
                        match_round.map(|(_, r)| r),
                    ],
                )
                .map_err(db)?;
                let id = tx.last_insert_rowid();
                for (ply, mv) in moves.iter().enumerate() {
                    insert_move(tx, id, ply, mv)?;
                }
                update_summary(tx, id, summary)?;
                if let Some(live) = live {
                    insert_live(tx, id, live)?;
                }
                Ok(id)
            }
            Write::Move {
                id,
                ply,
                mv,
                summary,
                live,
            } => {
                insert_move(tx, *id, *ply, mv)?;
                update_summary(tx, *id, summary)?;
                if let Some(live) = live {
                    put_live(tx, live)?;
                }
                Ok(*id)
            }
            Write::Live(live) => {
                put_live(tx, live)?;
                Ok(live.game_id)
            }
            Write::Truncate { id, summary, live } => {
                tx.execute(
                    "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                    params![id, summary.plies as i64],
                )
                .map_err(db)?;
                update_summary(tx, *id, summary)?;
                if let Some(live) = live {
                    put_live(tx, live)?;
                }
                Ok(*id)
            }
            Write::Delete { id } => {
                tx.execute("DELETE FROM live WHERE game_id = ?1", [id])
                    .map_err(db)?;
                tx.execute("DELETE FROM moves WHERE game_id = ?1", [id])
                    .map_err(db)?;
                tx.execute("DELETE FROM games WHERE id = ?1", [id])
                    .map_err(db)?;
                Ok(*id)
            }
        }
    }
}

fn insert_move(tx: &Connection, id: i64, ply: usize, mv: &str) -> StoreResult<()> {
    tx.prepare_cached("INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)")
        .and_then(|mut insert| insert.execute(params![id, ply as i64, mv]))
        .map_err(db)?;
    Ok(())
}

/// Keeps the game row's move count, result and end in step with its moves.
fn update_summary(tx: &Connection, id: i64, summary: &Summary) -> StoreResult<()> {
    let (reason, to) = summary.end.map(end_code).unzip();
    tx.prepare_cached(
        "UPDATE games SET plies = ?2, result = ?3, end_reason = ?4, end_to = ?5,
                          updated = datetime('now')
         WHERE id = ?1",
    )
    .and_then(|mut update| {
        update.execute(params![
            id,
            summary.plies as i64,
            summary.result,
            reason,
            to.flatten().map(Side::name),
        ])
    })
    .map_err(db)?;
    Ok(())
}

/// The schema's version (`PRAGMA user_version`): 0 was the first, which kept how a game
/// ended in English (`termination`); 1 keeps it as a code (`end_reason`, `end_to`); 2 adds
/// the table `live` (games between two seats: token hashes, clock, offers, results).
const VERSION: i64 = 2;

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
    touched_ms     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS live_open ON live(lobby, outcome);
";

/// A finished live game's result when it did not end by the rules: the outcome (`south`,
/// `north`, `draw`, or `none` for a game closed with no result) and why (`resignation`,
/// `agreement`, `flag`, `abandoned`, `expired`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveResult {
    /// `south`, `north`, `draw` or `none`.
    pub outcome: String,
    /// `resignation`, `agreement`, `flag`, `abandoned` or `expired`.
    pub reason: String,
}

/// Standing offers of a live game: which side made each, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// A draw offer.
    pub draw: Option<Side>,
    /// A takeback request (of the last move).
    pub takeback: Option<Side>,
    /// A rematch offer, once the game is over.
    pub rematch: Option<Side>,
}

/// What is kept about a game between two seats (a "live" game) besides the game row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRow {
    /// The game.
    pub game_id: i64,
    /// SHA-256 of each seat's token (South, North); `None` while a lobby seat is open.
    pub seats: [Option<[u8; 32]>; 2],
    /// The players' names as they gave them (South, North), unescaped.
    pub names: [Option<String>; 2],
    /// Listed in the lobby as an open challenge.
    pub lobby: bool,
    /// The creator's address while the challenge is open (for the cap per address).
    pub address: Option<String>,
    /// The clock, or `None` for unlimited time.
    pub clock: Option<Clock>,
    /// Standing offers.
    pub offers: Offers,
    /// The result when the game ended other than by the rules.
    pub result: Option<LiveResult>,
    /// The rematch's game, once both asked for it.
    pub rematch: Option<i64>,
    /// How many takebacks were granted (a socket that saw another number sends the whole
    /// game again).
    pub takebacks: u32,
    /// Bumped by every write: a write made from an older version is refused.
    pub version: i64,
    /// When it was created, Unix milliseconds.
    pub created_ms: i64,
    /// When a seat last acted (a move, an offer, a seat taken), Unix milliseconds.
    pub touched_ms: i64,
}

impl LiveRow {
    /// The row of a new game between `seats` at `now` (Unix ms): not in the lobby, no
    /// offers, no result, nothing taken back.
    pub fn new(
        seats: [Option<[u8; 32]>; 2],
        names: [Option<String>; 2],
        clock: Option<Clock>,
        now: i64,
    ) -> LiveRow {
        LiveRow {
            game_id: 0,
            seats,
            names,
            lobby: false,
            address: None,
            clock,
            offers: Offers::default(),
            result: None,
            rematch: None,
            takebacks: 0,
            version: 0,
            created_ms: now,
            touched_ms: now,
        }
    }
}

const LIVE_COLUMNS: &str = "game_id, south_hash, north_hash, south_name, north_name, lobby, \
    address, base_ms, increment_ms, south_ms, north_ms, running_since, offer_draw, \
    offer_takeback, offer_rematch, outcome, reason, rematch_id, takebacks, version, \
    created_ms, touched_ms";

fn side_text(side: Option<Side>) -> Option<&'static str> {
    side.map(Side::name)
}

fn hash_blob(hash: &Option<[u8; 32]>) -> Option<&[u8]> {
    hash.as_ref().map(|h| h.as_slice())
}

fn live_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<LiveRow> {
    let bad = |column: usize, what: String| {
        rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, what.into())
    };
    let hash = |column: usize| -> rusqlite::Result<Option<[u8; 32]>> {
        let blob: Option<Vec<u8>> = row.get(column)?;
        blob.map(|b| {
            <[u8; 32]>::try_from(b.as_slice())
                .map_err(|_| bad(column, format!("a seat hash of {} bytes", b.len())))
        })
        .transpose()
    };
    let side = |column: usize| -> rusqlite::Result<Option<Side>> {
        let text: Option<String> = row.get(column)?;
        text.map(|t| {
            t.parse::<Side>()
                .map_err(|_| bad(column, format!("side {t:?}")))
        })
        .transpose()
    };
    let base: Option<i64> = row.get(7)?;
    let clock = base.map(|base_ms| -> rusqlite::Result<Clock> {
        Ok(Clock {
            base_ms,
            increment_ms: row.get(8)?,
            remaining_ms: [row.get(9)?, row.get(10)?],
            running_since: row.get(11)?,
        })
    });
    let outcome: Option<String> = row.get(15)?;
    let reason: Option<String> = row.get(16)?;
    Ok(LiveRow {
        game_id: row.get(0)?,
        seats: [hash(1)?, hash(2)?],
        names: [row.get(3)?, row.get(4)?],
        lobby: row.get(5)?,
        address: row.get(6)?,
        clock: clock.transpose()?,
        offers: Offers {
            draw: side(12)?,
            takeback: side(13)?,
            rematch: side(14)?,
        },
        result: outcome.map(|outcome| LiveResult {
            outcome,
            reason: reason.unwrap_or_default(),
        }),
        rematch: row.get(17)?,
        takebacks: row.get(18)?,
        version: row.get(19)?,
        created_ms: row.get(20)?,
        touched_ms: row.get(21)?,
    })
}

/// The live row's values in `LIVE_COLUMNS` order from `south_hash` on, but `version`.
macro_rules! live_values {
    ($live:expr) => {{
        let live = $live;
        let clock = live.clock.as_ref();
        params![
            hash_blob(&live.seats[0]),
            hash_blob(&live.seats[1]),
            live.names[0],
            live.names[1],
            live.lobby,
            live.address,
            clock.map(|c| c.base_ms),
            clock.map_or(0, |c| c.increment_ms),
            clock.map_or(0, |c| c.remaining_ms[0]),
            clock.map_or(0, |c| c.remaining_ms[1]),
            clock.and_then(|c| c.running_since),
            side_text(live.offers.draw),
            side_text(live.offers.takeback),
            side_text(live.offers.rematch),
            live.result.as_ref().map(|r| r.outcome.as_str()),
            live.result.as_ref().map(|r| r.reason.as_str()),
            live.rematch,
            live.takebacks,
            live.created_ms,
            live.touched_ms,
        ]
    }};
}

fn insert_live(tx: &Connection, id: i64, live: &LiveRow) -> StoreResult<()> {
    let values = live_values!(live);
    let mut all: Vec<&dyn rusqlite::ToSql> = vec![&id];
    all.extend(values.iter().copied());
    tx.execute(
        "INSERT INTO live (game_id, south_hash, north_hash, south_name, north_name, lobby,
             address, base_ms, increment_ms, south_ms, north_ms, running_since, offer_draw,
             offer_takeback, offer_rematch, outcome, reason, rematch_id, takebacks,
             created_ms, touched_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
             ?18, ?19, ?20, ?21)",
        all.as_slice(),
    )
    .map_err(db)?;
    Ok(())
}

/// Writes the live row over the stored one if that is still at `live.version` (bumping it);
/// else nothing is written and the answer is a conflict (another writer got there first).
fn put_live(tx: &Connection, live: &LiveRow) -> StoreResult<()> {
    let values = live_values!(live);
    let mut all: Vec<&dyn rusqlite::ToSql> = vec![&live.game_id, &live.version];
    all.extend(values.iter().copied());
    let changed = tx
        .prepare_cached(
            "UPDATE live SET south_hash = ?3, north_hash = ?4, south_name = ?5,
                 north_name = ?6, lobby = ?7, address = ?8, base_ms = ?9, increment_ms = ?10,
                 south_ms = ?11, north_ms = ?12, running_since = ?13, offer_draw = ?14,
                 offer_takeback = ?15, offer_rematch = ?16, outcome = ?17, reason = ?18,
                 rematch_id = ?19, takebacks = ?20, created_ms = ?21, touched_ms = ?22,
                 version = version + 1
             WHERE game_id = ?1 AND version = ?2",
        )
        .and_then(|mut update| update.execute(all.as_slice()))
        .map_err(db)?;
    if changed == 0 {
        return Err(StoreError::Conflict(format!(
            "game {} changed meanwhile (version {} is no longer the stored one)",
            live.game_id, live.version
        )));
    }
    Ok(())
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

/// [`GameRow::version`] in SQLite: one process owns the file, so nothing needs to tell
/// whether its copy of a game is stale.
const SQLITE_VERSION: i64 = 0;

const GAME_COLUMNS: &str = "id, variant, pits, start, south, north, match_id, round, plies, \
                            result, end_reason, end_to, created, updated";

fn game_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let reason: Option<String> = row.get(10)?;
    let to: Option<String> = row.get(11)?;
    let unknown = |column: usize, text: &str| {
        rusqlite::Error::FromSqlConversionFailure(
            column,
            rusqlite::types::Type::Text,
            format!("unknown end {text:?}").into(),
        )
    };
    let to: Option<Side> = to
        .map(|text| text.parse::<Side>().map_err(|_| unknown(11, &text)))
        .transpose()?;
    let end = reason
        .map(|code| end_of_code(&code, to).ok_or_else(|| unknown(10, &code)))
        .transpose()?;
    Ok(GameRow {
        id: row.get(0)?,
        variant: row.get(1)?,
        pits: row.get::<_, i64>(2)? as usize,
        start: row.get(3)?,
        south: row.get(4)?,
        north: row.get(5)?,
        match_id: row.get(6)?,
        round: row.get(7)?,
        plies: row.get::<_, i64>(8)? as usize,
        result: row.get(9)?,
        end,
        created: row.get(12)?,
        updated: row.get(13)?,
        version: 0,
    })
}

/// The game a row and its stored moves make: the start position, each move replayed.
///
/// # Errors
/// [`StoreError::BadStart`] or [`StoreError::Unreplayable`] when the stored game no longer
/// replays under these rules; the game is refused whole rather than cut short.
fn replay(row: GameRow, tokens: Vec<String>) -> StoreResult<(GameRow, Game)> {
    let id = row.id;
    let start: Position = row.start.parse().map_err(|e| StoreError::BadStart {
        game: id,
        reason: format!("{e}"),
    })?;
    let mut game = Game::from_position(start);
    for (index, token) in tokens.into_iter().enumerate() {
        let played = Move::parse(&token, game.rules().pits_per_row())
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map(drop).map_err(|e| e.to_string()));
        if let Err(reason) = played {
            return Err(StoreError::Unreplayable {
                game: id,
                ply: index + 1,
                token,
                reason,
            });
        }
    }
    Ok((row, game))
}

impl Sqlite {
    /// Opens (creating on first start) the database at `path`; a database written by an
    /// earlier version of this program is upgraded in place, in one transaction.
    ///
    /// # Errors
    /// When the file cannot be opened, is not a database of this program, or is of a newer
    /// version.
    fn open(path: &Path) -> StoreResult<Sqlite> {
        Sqlite::setup(Connection::open(path).map_err(db)?)
    }

    /// A database in memory, for tests.
    ///
    /// # Errors
    /// Only if SQLite itself fails.
    fn in_memory() -> StoreResult<Sqlite> {
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
        tx.execute_batch(SCHEMA).map_err(db)?;
        tx.pragma_update(None, "user_version", VERSION)
            .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Sqlite {
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
                (Ok(()), None) => Err(StoreError::Database("write skipped".to_owned())),
            };
            let _ = job.reply.send(result);
        }
        drop(conn);
        answer
            .recv()
            .unwrap_or_else(|_| Err(StoreError::Database("the write was lost".to_owned())))
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
    /// On a database failure, or [`StoreError::Conflict`] when that round of the match is
    /// already stored; nothing is then saved.
    pub fn create_game(
        &self,
        game: &Game,
        south: &str,
        north: &str,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        let rules = game.rules();
        let n = rules.pits_per_row();
        self.write(Write::Game {
            variant: rules.variant().name(),
            pits: n,
            start: game.start().to_string(),
            south: south.to_owned(),
            north: north.to_owned(),
            match_round,
            moves: game.moves().iter().map(|m| m.name(n).to_string()).collect(),
            summary: Summary::of(game),
            live: None,
        })
    }

    /// Saves a new game between two seats with its live row, in one transaction; its id.
    ///
    /// # Errors
    /// On a database failure; nothing is then saved.
    pub fn create_live_game(
        &self,
        game: &Game,
        live: &LiveRow,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        let rules = game.rules();
        let n = rules.pits_per_row();
        self.write(Write::Game {
            variant: rules.variant().name(),
            pits: n,
            start: game.start().to_string(),
            south: "human".to_owned(),
            north: "human".to_owned(),
            match_round,
            moves: game.moves().iter().map(|m| m.name(n).to_string()).collect(),
            summary: Summary::of(game),
            live: Some(Box::new(live.clone())),
        })
    }

    /// Records a live game's new move with its live row (clock, offers) in one transaction.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] if the ply is already stored or
    /// the live row changed meanwhile; nothing is then saved.
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_live_move(&self, game: &Game, live: &LiveRow) -> StoreResult<i64> {
        let ply = game.moves().len() - 1;
        self.write(Write::Move {
            id: live.game_id,
            ply,
            mv: game.moves()[ply]
                .name(game.rules().pits_per_row())
                .to_string(),
            summary: Summary::of(game),
            live: Some(Box::new(live.clone())),
        })
        .map(|_| SQLITE_VERSION)
    }

    /// A takeback granted in a live game: the moves after `game`'s, and the live row.
    ///
    /// # Errors
    /// On a database failure or a conflict; nothing is then changed.
    pub fn truncate_live(&self, game: &Game, live: &LiveRow) -> StoreResult<i64> {
        self.write(Write::Truncate {
            id: live.game_id,
            summary: Summary::of(game),
            live: Some(Box::new(live.clone())),
        })
        .map(|_| SQLITE_VERSION)
    }

    /// Writes a live game's row (seats, clock, offers, result) if it is still at
    /// `live.version`.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when another writer changed it
    /// first; nothing is then changed.
    pub fn update_live(&self, live: &LiveRow) -> StoreResult<i64> {
        self.write(Write::Live(Box::new(live.clone())))
            .map(|_| SQLITE_VERSION)
    }

    /// A live game's row, or `None` for a game that is not between two seats.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_row(&self, id: i64) -> StoreResult<Option<LiveRow>> {
        self.conn()
            .prepare_cached(&format!(
                "SELECT {LIVE_COLUMNS} FROM live WHERE game_id = ?1"
            ))
            .and_then(|mut select| select.query_row([id], live_row).optional())
            .map_err(db)
    }

    /// The live results of the games `ids` that have one.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_results(&self, ids: &[i64]) -> StoreResult<Vec<(i64, LiveResult)>> {
        let conn = self.conn();
        let mut results = Vec::new();
        // In slices, well under SQLite's limit on bound parameters.
        for chunk in ids.chunks(500) {
            let marks = vec!["?"; chunk.len()].join(", ");
            let mut stmt = conn
                .prepare(&format!(
                    "SELECT game_id, outcome, reason FROM live
                     WHERE outcome IS NOT NULL AND game_id IN ({marks})"
                ))
                .map_err(db)?;
            let rows = stmt
                .query_map(rusqlite::params_from_iter(chunk), |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        LiveResult {
                            outcome: row.get(1)?,
                            reason: row.get(2)?,
                        },
                    ))
                })
                .map_err(db)?;
            for row in rows {
                results.push(row.map_err(db)?);
            }
        }
        Ok(results)
    }

    /// The open challenges of the lobby (a seat free, no result), oldest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn lobby(&self, limit: usize) -> StoreResult<Vec<(GameRow, LiveRow)>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(&format!(
                "SELECT {LIVE_COLUMNS} FROM live
                 WHERE lobby = 1 AND outcome IS NULL
                   AND (south_hash IS NULL OR north_hash IS NULL)
                 ORDER BY created_ms, game_id LIMIT ?1"
            ))
            .map_err(db)?;
        let lives: Vec<LiveRow> = stmt
            .query_map([limit as i64], live_row)
            .map_err(db)?
            .collect::<Result<_, _>>()
            .map_err(db)?;
        drop(stmt);
        drop(conn);
        let mut open = Vec::with_capacity(lives.len());
        for live in lives {
            if let Some(row) = self.game_row(live.game_id)? {
                open.push((row, live));
            }
        }
        Ok(open)
    }

    /// How many open challenges there are in all, and how many `address` posted.
    ///
    /// # Errors
    /// On a database failure.
    pub fn open_challenges(&self, address: &str) -> StoreResult<(usize, usize)> {
        self.conn()
            .query_row(
                "SELECT count(*), count(CASE WHEN address = ?1 THEN 1 END) FROM live
                 WHERE lobby = 1 AND outcome IS NULL
                   AND (south_hash IS NULL OR north_hash IS NULL)",
                [address],
                |r| Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)? as usize)),
            )
            .map_err(db)
    }

    /// Live games with no result that nobody touched since `before_ms` (Unix ms), and open
    /// challenges not taken since `open_before_ms`: the ids, for closing.
    ///
    /// # Errors
    /// On a database failure.
    pub fn stale_live_games(&self, before_ms: i64, open_before_ms: i64) -> StoreResult<Vec<i64>> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare_cached(
                "SELECT game_id FROM live WHERE outcome IS NULL AND (touched_ms < ?1
                   OR (lobby = 1 AND (south_hash IS NULL OR north_hash IS NULL)
                       AND touched_ms < ?2))
                 ORDER BY game_id",
            )
            .map_err(db)?;
        let rows = stmt
            .query_map([before_ms, open_before_ms], |r| r.get(0))
            .map_err(db)?;
        rows.collect::<Result<_, _>>().map_err(db)
    }

    /// Records the move `game` has just played (its last), with the new result, in one
    /// transaction.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] if that ply is already stored
    /// (two writers raced); nothing is then saved.
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_move(&self, id: i64, game: &Game) -> StoreResult<i64> {
        let ply = game.moves().len() - 1;
        self.write(Write::Move {
            id,
            ply,
            mv: game.moves()[ply]
                .name(game.rules().pits_per_row())
                .to_string(),
            summary: Summary::of(game),
            live: None,
        })
        .map(|_| SQLITE_VERSION)
    }

    /// Forgets the moves after the first `game.moves().len()` (an undo), in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn truncate(&self, id: i64, game: &Game) -> StoreResult<i64> {
        self.write(Write::Truncate {
            id,
            summary: Summary::of(game),
            live: None,
        })
        .map(|_| SQLITE_VERSION)
    }

    /// Deletes a game and its moves, in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn delete(&self, id: i64) -> StoreResult<()> {
        self.write(Write::Delete { id }).map(drop)
    }

    /// A game's row.
    ///
    /// # Errors
    /// On a database failure.
    pub fn game_row(&self, id: i64) -> StoreResult<Option<GameRow>> {
        self.conn()
            .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))
            .and_then(|mut select| select.query_row([id], game_row).optional())
            .map_err(db)
    }

    /// A game's row and the game replayed from its moves.
    ///
    /// # Errors
    /// On a database failure; [`StoreError::BadStart`] or [`StoreError::Unreplayable`] when
    /// the stored game no longer replays under these rules (it cannot happen unless the
    /// rules changed). The game is then refused whole rather than cut short, and nothing
    /// stored is changed.
    pub fn load(&self, id: i64) -> StoreResult<Option<(GameRow, Game)>> {
        let Some(row) = self.game_row(id)? else {
            return Ok(None);
        };
        let tokens: Vec<String> = {
            let conn = self.conn();
            let mut stmt = conn
                .prepare_cached("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply")
                .map_err(db)?;
            let rows = stmt.query_map([id], |r| r.get(0)).map_err(db)?;
            rows.collect::<Result<_, _>>().map_err(db)?
        };
        replay(row, tokens).map(Some)
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

/// A change another writer (maybe another server) committed: the game and its new move
/// count and version, as PostgreSQL's `NOTIFY` carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game.
    pub game: i64,
    /// Its moves now.
    pub plies: usize,
    /// Its version now ([`GameRow::version`]).
    pub version: i64,
}

/// Whether `db` (the `--db` argument) names a PostgreSQL database rather than a file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

macro_rules! each {
    ($self:ident, $store:ident => $call:expr) => {
        match &$self.backend {
            Backend::Sqlite($store) => $call,
            Backend::Postgres($store) => pg::off_runtime(|| $call),
        }
    };
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

impl Store {
    /// Opens (creating on first start) the SQLite database at `path`; a database written by
    /// an earlier version of this program is upgraded in place, in one transaction.
    ///
    /// # Errors
    /// When the file cannot be opened, is not a database of this program, or is of a newer
    /// version.
    pub fn open(path: &Path) -> StoreResult<Store> {
        Ok(Store {
            backend: Backend::Sqlite(Sqlite::open(path)?),
        })
    }

    /// An SQLite database in memory, for tests.
    ///
    /// # Errors
    /// Only if SQLite itself fails.
    pub fn in_memory() -> StoreResult<Store> {
        Ok(Store {
            backend: Backend::Sqlite(Sqlite::in_memory()?),
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
            backend: Backend::Postgres(pg::off_runtime(|| pg::Postgres::connect(url))?),
        })
    }

    /// [`Store::connect`] for a `postgres://` URL, else [`Store::open`] on a file.
    ///
    /// # Errors
    /// See [`Store::open`] and [`Store::connect`].
    pub fn open_db(db: &str) -> StoreResult<Store> {
        if is_postgres_url(db) {
            Store::connect(db)
        } else {
            Store::open(Path::new(db))
        }
    }

    /// Whether other processes may change the games (PostgreSQL): a copy in memory must
    /// then be checked against [`Store::version`] before it is trusted.
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Calls `on_change` (on a thread of its own) for every change committed to the store by
    /// anyone, this process included, from now on; for PostgreSQL through `LISTEN`, with a
    /// new connection after a lost one. SQLite has no other writers: nothing is started.
    ///
    /// # Errors
    /// When the listening connection cannot be made.
    pub fn listen(&self, on_change: impl Fn(Change) + Send + 'static) -> StoreResult<()> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(store) => pg::off_runtime(|| store.listen(on_change)),
        }
    }

    /// A game's version now ([`GameRow::version`]), `None` when there is no such game.
    ///
    /// # Errors
    /// On a database failure.
    pub fn version(&self, id: i64) -> StoreResult<Option<i64>> {
        match &self.backend {
            Backend::Sqlite(store) => Ok(store.game_row(id)?.map(|row| row.version)),
            Backend::Postgres(store) => pg::off_runtime(|| store.version(id)),
        }
    }

    /// Creates a match of `rounds` rounds; its id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn create_match(&self, rounds: u32) -> StoreResult<i64> {
        each!(self, store => store.create_match(rounds))
    }

    /// A match by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn get_match(&self, id: i64) -> StoreResult<Option<MatchRow>> {
        each!(self, store => store.get_match(id))
    }

    /// Saves a new game with the moves it already has (an uploaded record), in one
    /// transaction; its id.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when that round of the match is
    /// already stored; nothing is then saved.
    pub fn create_game(
        &self,
        game: &Game,
        south: &str,
        north: &str,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        each!(self, store => store.create_game(game, south, north, match_round))
    }

    /// Records the move `game` has just played (its last), with the new result, in one
    /// transaction.
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] if that ply is already stored
    /// (two writers raced; in PostgreSQL also when the stored game does not have exactly
    /// the moves before it); nothing is then saved.
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_move(&self, id: i64, game: &Game) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.append_move(id, game),
            Backend::Postgres(store) => pg::off_runtime(|| store.append_move(id, game, None)),
        }
    }

    /// [`Store::append_move`] onto the game as it was at `version` ([`GameRow::version`]):
    /// refused with [`StoreError::Conflict`] if another server changed it since (SQLite has
    /// no other writer: there it is [`Store::append_move`]).
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// See [`Store::append_move`].
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_move_at(&self, id: i64, game: &Game, version: i64) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.append_move(id, game),
            Backend::Postgres(store) => {
                pg::off_runtime(|| store.append_move(id, game, Some(version)))
            }
        }
    }

    /// Forgets the moves after the first `game.moves().len()` (an undo), in one transaction.
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn truncate(&self, id: i64, game: &Game) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.truncate(id, game),
            Backend::Postgres(store) => pg::off_runtime(|| store.truncate(id, game, None)),
        }
    }

    /// [`Store::truncate`] of the game as it was at `version`, as [`Store::append_move_at`].
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// See [`Store::truncate`]; [`StoreError::Conflict`] when the game changed since.
    pub fn truncate_at(&self, id: i64, game: &Game, version: i64) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.truncate(id, game),
            Backend::Postgres(store) => pg::off_runtime(|| store.truncate(id, game, Some(version))),
        }
    }

    /// Deletes a game and its moves, in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn delete(&self, id: i64) -> StoreResult<()> {
        each!(self, store => store.delete(id))
    }

    /// A game's row.
    ///
    /// # Errors
    /// On a database failure.
    pub fn game_row(&self, id: i64) -> StoreResult<Option<GameRow>> {
        each!(self, store => store.game_row(id))
    }

    /// A game's row and the game replayed from its moves.
    ///
    /// # Errors
    /// On a database failure; [`StoreError::BadStart`] or [`StoreError::Unreplayable`] when
    /// the stored game no longer replays under these rules (it cannot happen unless the
    /// rules changed). The game is then refused whole rather than cut short, and nothing
    /// stored is changed.
    pub fn load(&self, id: i64) -> StoreResult<Option<(GameRow, Game)>> {
        each!(self, store => store.load(id))
    }

    /// The most recently changed games, newest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn list(&self, limit: usize) -> StoreResult<Vec<GameRow>> {
        each!(self, store => store.list(limit))
    }

    /// The games of a match, by round.
    ///
    /// # Errors
    /// On a database failure.
    pub fn match_games(&self, match_id: i64) -> StoreResult<Vec<GameRow>> {
        each!(self, store => store.match_games(match_id))
    }

    /// The database's own check: `ok` when sound. SQLite checks every page and index;
    /// PostgreSQL (whose pages are its own business) checks that every game's move count
    /// matches its stored moves.
    ///
    /// # Errors
    /// On a database failure.
    pub fn integrity_check(&self) -> StoreResult<String> {
        each!(self, store => store.integrity_check())
    }

    /// Counts the moves stored for a game (for checks and the load generator).
    ///
    /// # Errors
    /// On a database failure.
    pub fn stored_moves(&self, id: i64) -> StoreResult<usize> {
        each!(self, store => store.stored_moves(id))
    }

    /// Saves a new game between two seats with its live row, in one transaction; its id.
    /// `match_round` makes it that round of a match.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when that round of the match is
    /// already stored; nothing is then saved.
    pub fn create_live_game(
        &self,
        game: &Game,
        live: &LiveRow,
        match_round: Option<(i64, u32)>,
    ) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.create_live_game(game, live, match_round),
            Backend::Postgres(store) => {
                pg::off_runtime(|| store.create_live_game(game, live, match_round))
            }
        }
    }

    /// The results of those of the games `ids` that are live games ended otherwise than by
    /// the rules (resignation, agreement, flag, abandoned, expired), for the games list.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_results(&self, ids: &[i64]) -> StoreResult<Vec<(i64, LiveResult)>> {
        match &self.backend {
            Backend::Sqlite(store) => store.live_results(ids),
            Backend::Postgres(store) => pg::off_runtime(|| store.live_results(ids)),
        }
    }

    /// Records a live game's new move with its live row (clock, offers) in one transaction.
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] if the ply is already stored or
    /// the live row changed meanwhile; nothing is then saved.
    ///
    /// # Panics
    /// If `game` has no moves.
    pub fn append_live_move(&self, game: &Game, live: &LiveRow) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.append_live_move(game, live),
            Backend::Postgres(store) => pg::off_runtime(|| store.append_live_move(game, live)),
        }
    }

    /// A takeback granted in a live game: the moves after `game`'s, and the live row.
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// On a database failure or a conflict; nothing is then changed.
    pub fn truncate_live(&self, game: &Game, live: &LiveRow) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.truncate_live(game, live),
            Backend::Postgres(store) => pg::off_runtime(|| store.truncate_live(game, live)),
        }
    }

    /// Writes a live game's row (seats, clock, offers, result) if it is still at
    /// `live.version`.
    /// Returns the game's [`GameRow::version`] after the write.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when another writer changed it
    /// first; nothing is then changed.
    pub fn update_live(&self, live: &LiveRow) -> StoreResult<i64> {
        match &self.backend {
            Backend::Sqlite(store) => store.update_live(live),
            Backend::Postgres(store) => pg::off_runtime(|| store.update_live(live)),
        }
    }

    /// A live game's row, or `None` for a game that is not between two seats.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_row(&self, id: i64) -> StoreResult<Option<LiveRow>> {
        match &self.backend {
            Backend::Sqlite(store) => store.live_row(id),
            Backend::Postgres(store) => pg::off_runtime(|| store.live_row(id)),
        }
    }

    /// The open challenges of the lobby (a seat free, no result), oldest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn lobby(&self, limit: usize) -> StoreResult<Vec<(GameRow, LiveRow)>> {
        match &self.backend {
            Backend::Sqlite(store) => store.lobby(limit),
            Backend::Postgres(store) => pg::off_runtime(|| store.lobby(limit)),
        }
    }

    /// How many open challenges there are in all, and how many `address` posted.
    ///
    /// # Errors
    /// On a database failure.
    pub fn open_challenges(&self, address: &str) -> StoreResult<(usize, usize)> {
        match &self.backend {
            Backend::Sqlite(store) => store.open_challenges(address),
            Backend::Postgres(store) => pg::off_runtime(|| store.open_challenges(address)),
        }
    }

    /// Live games with no result that nobody touched since `before_ms` (Unix ms), and open
    /// challenges not taken since `open_before_ms`: the ids, for closing.
    ///
    /// # Errors
    /// On a database failure.
    pub fn stale_live_games(&self, before_ms: i64, open_before_ms: i64) -> StoreResult<Vec<i64>> {
        match &self.backend {
            Backend::Sqlite(store) => store.stale_live_games(before_ms, open_before_ms),
            Backend::Postgres(store) => {
                pg::off_runtime(|| store.stale_live_games(before_ms, open_before_ms))
            }
        }
    }

    /// The SQLite connection, for tests that write what this program never would.
    #[cfg(test)]
    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        match &self.backend {
            Backend::Sqlite(store) => store.conn(),
            Backend::Postgres(_) => panic!("not an SQLite store"),
        }
    }

    #[cfg(test)]
    fn setup(conn: Connection) -> StoreResult<Store> {
        Ok(Store {
            backend: Backend::Sqlite(Sqlite::setup(conn)?),
        })
    }
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
        assert!(matches!(
            store.append_move(id, &game),
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(store.stored_moves(id).unwrap(), 1);
    }

    #[test]
    fn a_round_started_twice_is_a_conflict() {
        let store = Store::in_memory().unwrap();
        let game = Game::new(Rules::new(Variant::HoyitoIII));
        let match_id = store.create_match(3).unwrap();
        store
            .create_game(&game, "human", "human", Some((match_id, 1)))
            .unwrap();
        let again = store.create_game(&game, "human", "human", Some((match_id, 1)));
        assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
        assert_eq!(store.match_games(match_id).unwrap().len(), 1);
    }

    #[test]
    fn a_game_whose_moves_no_longer_replay_is_refused_and_kept() {
        let store = Store::in_memory().unwrap();
        let mut game = Game::new(Rules::new(Variant::Ayoayo));
        let id = store.create_game(&game, "human", "human", None).unwrap();
        for _ in 0..2 {
            game.play(game.legal_moves()[0]).unwrap();
            store.append_move(id, &game).unwrap();
        }
        // As if the rules had changed: a stored move that is no longer legal.
        store
            .conn()
            .execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES (?1, 2, 'pass')",
                [id],
            )
            .unwrap();
        store
            .conn()
            .execute("UPDATE games SET plies = 3 WHERE id = ?1", [id])
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
        store
            .conn()
            .execute("UPDATE games SET start = 'nonsense' WHERE id = ?1", [id])
            .unwrap();
        assert!(matches!(store.load(id), Err(StoreError::BadStart { .. })));
    }

    #[test]
    fn the_end_is_stored_as_a_code_and_read_back() {
        let ends = [
            End::BoardCleared,
            End::LastFour(Side::South),
            End::LastFour(Side::North),
            End::CannotFeed,
            End::Repetition,
        ];
        for end in ends {
            let (code, to) = end_code(end);
            assert_eq!(end_of_code(code, to), Some(end));
        }
        assert_eq!(end_of_code("last-four", None), None);
        assert_eq!(end_of_code("resigned", None), None);
        // A finished game: its row has the end the game has.
        let store = Store::in_memory().unwrap();
        let mut game = Game::new(Rules::new(Variant::HoyitoII));
        let id = store.create_game(&game, "human", "human", None).unwrap();
        while !game.is_over() {
            game.play(game.legal_moves()[0]).unwrap();
            store.append_move(id, &game).unwrap();
        }
        let row = store.game_row(id).unwrap().unwrap();
        assert_eq!(row.end, game.end());
        assert!(row.end.is_some());
        assert_eq!(row.result.as_deref(), game.outcome().map(|o| o.name()));
        assert_eq!((row.variant.as_str(), row.pits), ("hoyito-ii", 6));
        let stored: String = store
            .conn()
            .query_row("SELECT end_reason FROM games WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(stored, end_code(game.end().unwrap()).0);
        // Undo clears it again.
        game.undo();
        store.truncate(id, &game).unwrap();
        let row = store.game_row(id).unwrap().unwrap();
        assert_eq!((row.end, row.result), (None, None));
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

    /// A version 0 database with one game for each way it wrote an ending, one in play,
    /// and `extra` (a termination text) if given.
    fn version_0(extra: Option<&str>) -> (Connection, Vec<(i64, Option<End>)>) {
        let conn = Connection::open_in_memory().unwrap();
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
        (conn, expected)
    }

    #[test]
    fn a_version_0_database_is_upgraded_and_its_games_keep_their_end() {
        let (conn, expected) = version_0(None);
        let store = Store::setup(conn).unwrap();
        for (id, end) in expected {
            let (row, game) = store.load(id).unwrap().unwrap();
            assert_eq!(row.end, end, "game {id}");
            assert_eq!(game.moves().len(), 0);
        }
        let conn = store.conn();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, VERSION);
        let old_column: i64 = conn
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
        let (conn, _) = version_0(Some("resigned"));
        let path =
            std::env::temp_dir().join(format!("sowing-store-upgrade-{}.db", std::process::id()));
        std::fs::remove_file(&path).ok();
        conn.execute("VACUUM INTO ?1", [path.to_str().unwrap()])
            .unwrap();
        let error = Store::open(&path).err().expect("the upgrade is refused");
        assert!(error.to_string().contains("\"resigned\""), "{error}");
        let conn = Connection::open(&path).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 0);
        let texts: i64 = conn
            .query_row("SELECT count(termination) FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(texts, 6);
        drop(conn);
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn a_version_1_database_gains_the_live_table_and_keeps_its_games() {
        let conn = Connection::open_in_memory().unwrap();
        // Version 1: today's schema without the table `live`.
        let version_1 = SCHEMA
            .split("CREATE TABLE IF NOT EXISTS live")
            .next()
            .unwrap();
        conn.execute_batch(version_1).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let start = Game::new(Rules::new(Variant::Ayoayo)).start().to_string();
        conn.execute(
            "INSERT INTO games (variant, pits, start, south, north) VALUES ('ayoayo', 6, ?1, 'human', 'human')",
            [start],
        )
        .unwrap();
        let id = conn.last_insert_rowid();
        let store = Store::setup(conn).unwrap();
        assert!(store.load(id).unwrap().is_some());
        assert_eq!(store.live_row(id).unwrap(), None);
        let version: i64 = store
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 2);
    }

    #[test]
    fn a_live_row_round_trips_and_a_stale_version_is_a_conflict() {
        let store = Store::in_memory().unwrap();
        let mut game = Game::new(Rules::new(Variant::HoyitoII));
        let live = LiveRow {
            game_id: 0,
            seats: [Some([7; 32]), None],
            names: [Some("Ana".into()), None],
            lobby: true,
            address: Some("192.0.2.1".into()),
            clock: Some(Clock::new(60_000, 2_000)),
            offers: Offers::default(),
            result: None,
            rematch: None,
            takebacks: 0,
            version: 0,
            created_ms: 1,
            touched_ms: 1,
        };
        let id = store.create_live_game(&game, &live, None).unwrap();
        let read = store.live_row(id).unwrap().unwrap();
        assert_eq!(
            read,
            LiveRow {
                game_id: id,
                ..live.clone()
            }
        );
        assert_eq!(store.open_challenges("192.0.2.1").unwrap(), (1, 1));
        assert_eq!(store.lobby(10).unwrap().len(), 1);
        game.play(game.parse_move("C").unwrap()).unwrap();
        let mut next = read.clone();
        next.seats[1] = Some([9; 32]);
        next.offers.draw = Some(Side::North);
        next.clock
            .as_mut()
            .unwrap()
            .after_move(Side::South, 5, true);
        next.result = Some(LiveResult {
            outcome: "draw".into(),
            reason: "agreement".into(),
        });
        store.append_live_move(&game, &next).unwrap();
        let after = store.live_row(id).unwrap().unwrap();
        assert_eq!(
            after,
            LiveRow {
                version: 1,
                ..next.clone()
            }
        );
        assert_eq!(store.stored_moves(id).unwrap(), 1);
        // Written again from version 0: refused, and the move with it.
        game.play(game.legal_moves()[0]).unwrap();
        assert!(matches!(
            store.append_live_move(&game, &next),
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(store.stored_moves(id).unwrap(), 1);
        assert_eq!(store.lobby(10).unwrap().len(), 0, "both seats taken");
    }

    #[test]
    fn a_database_of_a_newer_version_is_refused() {
        let conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        let error = Store::setup(conn).err().expect("refused");
        assert!(error.to_string().contains("newer"), "{error}");
    }
}
