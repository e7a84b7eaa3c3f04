//! Games kept in SQLite (the default, [`Store::open`]) or PostgreSQL ([`Store::connect`]):
//! one row per game, one row per move, one transaction per change.
//!
//! The store's contract is written once, here: the row types, the column lists, the row
//! readers and writers, and every operation as SQL that both databases run alike (`?N`
//! parameters, `RETURNING`, `CAST`). A backend ([`Backend`]: `store/sqlite.rs`,
//! `store/postgres.rs`) supplies only what differs: how a connection is had, how writes are
//! made durable (SQLite commits the writes queued meanwhile together; PostgreSQL announces
//! each commit with `NOTIFY` to the other servers), its schema and its upgrades.
//!
//! Every change bumps the game row's [`GameRow::version`]; a write made from a copy at an
//! older version is refused ([`StoreError::Conflict`]), so that several servers sharing
//! PostgreSQL never write over one another.

use std::fmt;
use std::path::{Path, PathBuf};

use sowing::{End, Game, Move, Position, Side};

use crate::clock::LiveClock;

mod postgres;
mod sqlite;

/// Why the store could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The database failed, or is not a database of this program.
    Database(String),
    /// A write broke a uniqueness rule or was made from a stale copy: another writer got
    /// there first (the same ply stored twice, the same round of a match started twice, a
    /// game changed since it was read). Nothing was written.
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
    /// When it was created (UTC, `2026-12-01 18:47:00`).
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// Bumped by every change to the game (its moves or its live row): a copy in memory at
    /// another version is stale, and a write made from it is refused.
    pub version: i64,
    /// SHA-256 of its owner's player key ([`crate::owners`]); `None` for a game stored before
    /// games had owners.
    pub owner: Option<[u8; 32]>,
}

impl GameRow {
    /// The row as a write of `game` that left `stamp` made it: what reading it back at once
    /// would give.
    pub fn stamped(self, game: &Game, stamp: Stamp) -> GameRow {
        let summary = Summary::of(game);
        GameRow {
            plies: summary.plies,
            result: summary.result.map(str::to_owned),
            end: summary.end,
            updated: stamp.updated,
            version: stamp.version,
            ..self
        }
    }
}

/// What the games list shows of a live game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveListing {
    /// Its result, when it ended otherwise than by the rules.
    pub result: Option<LiveResult>,
    /// The players' names as they gave them (South, North).
    pub names: [Option<String>; 2],
}

/// A match of Hoyito III rounds (H3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    /// The match's id.
    pub id: i64,
    /// Rounds to play (R).
    pub rounds: u32,
}

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
    pub clock: Option<LiveClock>,
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
    /// The account holding each seat (South, North), once a signed-in player took or
    /// claimed it ([`AccountRow::id`]).
    pub accounts: [Option<i64>; 2],
    /// A rated game: its end moves both accounts' ratings (once, in the write that ends it).
    pub rated: bool,
}

impl LiveRow {
    /// The row of a new game between `seats` at `now` (Unix ms): not in the lobby, no
    /// offers, no result, nothing taken back.
    pub fn new(
        seats: [Option<[u8; 32]>; 2],
        names: [Option<String>; 2],
        clock: Option<LiveClock>,
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
            accounts: [None, None],
            rated: false,
        }
    }
}

/// A game to save ([`Store::create_game`]): the game with the moves it already has (an
/// uploaded record has some), its players, its round of a match, and for a game between two
/// seats its live row.
#[derive(Clone, Copy, Debug)]
pub struct NewGame<'a> {
    /// The game.
    pub game: &'a Game,
    /// South's player: `human` or an engine spec.
    pub south: &'a str,
    /// North's player.
    pub north: &'a str,
    /// The match and the round (from 1) this game is.
    pub match_round: Option<(i64, u32)>,
    /// The seats, clock and offers of a game between two seats (its `game_id` is ignored).
    pub live: Option<&'a LiveRow>,
    /// SHA-256 of its owner's player key.
    pub owner: Option<[u8; 32]>,
}

impl<'a> NewGame<'a> {
    /// A game between these players, not in a match, not between seats.
    pub fn new(game: &'a Game, south: &'a str, north: &'a str) -> NewGame<'a> {
        NewGame {
            game,
            south,
            north,
            match_round: None,
            live: None,
            owner: None,
        }
    }

    /// A game between two seats (both players `human`).
    pub fn live(game: &'a Game, live: &'a LiveRow) -> NewGame<'a> {
        NewGame {
            live: Some(live),
            ..NewGame::new(game, "human", "human")
        }
    }

    /// The same game, owned by the player key whose SHA-256 is `owner`.
    pub fn owned_by(self, owner: Option<[u8; 32]>) -> NewGame<'a> {
        NewGame { owner, ..self }
    }

    /// The same game as round `match_round` of a match (or in none).
    pub fn in_match(self, match_round: Option<(i64, u32)>) -> NewGame<'a> {
        NewGame {
            match_round,
            ..self
        }
    }
}

/// A change someone (maybe another server) committed: the game and its new move count and
/// version, as PostgreSQL's `NOTIFY` carries it. Version -1: the game was deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game.
    pub game: i64,
    /// Its moves now.
    pub plies: usize,
    /// Its version now ([`GameRow::version`]).
    pub version: i64,
    /// For a move or a change of a live game's row: the change itself, so that a server
    /// whose copy is at the version before can follow it without reading the game
    /// ([`Change::follow`]). `None` for other writes.
    pub step: Option<Box<Step>>,
}

/// A write to a live game as its notice carries it: a move (or none) and what it left in
/// the rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move played, by its name (`A`, `pass` …); `None` when only the live row changed.
    pub mv: Option<String>,
    /// The live row now, at its new version.
    pub live: LiveRow,
    /// The game row's new [`GameRow::updated`].
    pub updated: String,
}

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

impl Step {
    /// The step as the text of a notice: JSON, the live row by the codec of its table
    /// (`live` holds its columns in the order of [`LIVE_COLUMNS`]; a hash is an array of
    /// bytes).
    fn to_text(&self) -> String {
        use serde_json::Value as Json;
        let live: Vec<Json> = live_record(&self.live)
            .0
            .into_iter()
            .map(|value| match value {
                Value::Null => Json::Null,
                Value::Int(n) => n.into(),
                Value::Real(x) => x.into(),
                Value::Text(text) => text.into(),
                Value::Blob(bytes) => bytes.into(),
                Value::Bool(b) => b.into(),
            })
            .collect();
        serde_json::json!({"mv": self.mv, "updated": self.updated, "live": live}).to_string()
    }

    /// The step a notice's text holds ([`Step::to_text`]), `None` if it holds none.
    fn from_text(text: &str) -> Option<Step> {
        use serde_json::Value as Json;
        let json: Json = serde_json::from_str(text).ok()?;
        let values = json
            .get("live")?
            .as_array()?
            .iter()
            .map(|value| match value {
                Json::Null => Some(Value::Null),
                Json::Bool(b) => Some(Value::Bool(*b)),
                Json::Number(n) => n.as_i64().map(Value::Int).or(n.as_f64().map(Value::Real)),
                Json::String(text) => Some(Value::Text(text.clone())),
                Json::Array(bytes) => bytes
                    .iter()
                    .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
                    .collect::<Option<Vec<u8>>>()
                    .map(Value::Blob),
                Json::Object(_) => None,
            })
            .collect::<Option<Vec<Value>>>()?;
        Some(Step {
            mv: match json.get("mv")? {
                Json::Null => None,
                mv => Some(mv.as_str()?.to_owned()),
            },
            live: live_row(&Record(values)).ok()?,
            updated: json.get("updated")?.as_str()?.to_owned(),
        })
    }
}

/// What a store's listener hears ([`Store::listen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// From now on every change committed reaches the listener (it connected, or connected
    /// again after a loss: changes in between were missed).
    Hearing,
    /// A change committed by anyone, this process included.
    Change(Change),
    /// The listener lost its connection: changes are being missed until [`Notice::Hearing`].
    Lost,
}

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

// ---------------------------------------------------------------------------------------
// What a backend supplies.

/// A value bound to or read from SQL: the few types the schema uses.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
    Bool(bool),
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Real(x)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Int(i64::from(n))
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl From<&String> for Value {
    fn from(text: &String) -> Value {
        Value::Text(text.clone())
    }
}

impl From<Side> for Value {
    fn from(side: Side) -> Value {
        Value::from(side.name())
    }
}

impl From<[u8; 32]> for Value {
    fn from(hash: [u8; 32]) -> Value {
        Value::Blob(hash.to_vec())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

/// The values of a statement's parameters, `?1` first.
macro_rules! values {
    ($($value:expr),* $(,)?) => { [$(Value::from($value)),*] };
}

mod accounts;
pub use accounts::{AccountRow, RatedGameRow, RatingRow, SessionEnd};

/// A row read back: its columns in the order selected.
struct Record(Vec<Value>);

impl Record {
    /// The columns from `at` on, taken off this record.
    fn split_off(&mut self, at: usize) -> Record {
        Record(self.0.split_off(at.min(self.0.len())))
    }

    fn bad(&self, column: usize, what: &str) -> StoreError {
        StoreError::Database(format!(
            "column {column} holds {:?}, not {what}",
            self.0.get(column)
        ))
    }

    fn opt_int(&self, column: usize) -> StoreResult<Option<i64>> {
        match self.0.get(column) {
            Some(Value::Int(n)) => Ok(Some(*n)),
            Some(Value::Null) => Ok(None),
            _ => Err(self.bad(column, "an integer")),
        }
    }

    fn int(&self, column: usize) -> StoreResult<i64> {
        self.opt_int(column)?
            .ok_or_else(|| self.bad(column, "an integer"))
    }

    /// A count or size: an integer that is not negative.
    fn size(&self, column: usize) -> StoreResult<usize> {
        usize::try_from(self.int(column)?).map_err(|_| self.bad(column, "a count"))
    }

    fn opt_small(&self, column: usize) -> StoreResult<Option<u32>> {
        self.opt_int(column)?
            .map(|n| u32::try_from(n).map_err(|_| self.bad(column, "a small count")))
            .transpose()
    }

    fn opt_text(&self, column: usize) -> StoreResult<Option<String>> {
        match self.0.get(column) {
            Some(Value::Text(text)) => Ok(Some(text.clone())),
            Some(Value::Null) => Ok(None),
            _ => Err(self.bad(column, "text")),
        }
    }

    fn text(&self, column: usize) -> StoreResult<String> {
        self.opt_text(column)?
            .ok_or_else(|| self.bad(column, "text"))
    }

    fn flag(&self, column: usize) -> StoreResult<bool> {
        match self.0.get(column) {
            Some(Value::Bool(b)) => Ok(*b),
            // SQLite keeps booleans as 0 and 1.
            Some(Value::Int(n)) => Ok(*n != 0),
            _ => Err(self.bad(column, "a boolean")),
        }
    }

    fn real(&self, column: usize) -> StoreResult<f64> {
        match self.0.get(column) {
            Some(Value::Real(x)) => Ok(*x),
            // SQLite may hand back a whole number stored in a REAL column as an integer.
            Some(Value::Int(n)) => Ok(*n as f64),
            _ => Err(self.bad(column, "a number")),
        }
    }

    fn opt_side(&self, column: usize) -> StoreResult<Option<Side>> {
        self.opt_text(column)?
            .map(|text| text.parse::<Side>().map_err(|_| self.bad(column, "a side")))
            .transpose()
    }

    fn opt_hash(&self, column: usize) -> StoreResult<Option<[u8; 32]>> {
        match self.0.get(column) {
            Some(Value::Blob(blob)) => <[u8; 32]>::try_from(blob.as_slice())
                .map(Some)
                .map_err(|_| self.bad(column, "a 32-byte hash")),
            Some(Value::Null) => Ok(None),
            _ => Err(self.bad(column, "a 32-byte hash")),
        }
    }
}

/// Statements on a connection (inside a transaction when the backend says so). The SQL is
/// written with `?1`, `?2`… parameters, which a backend may respell.
trait Sql {
    /// Runs a statement; the rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> StoreResult<usize>;
    /// Runs a query; its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> StoreResult<Vec<Record>>;
}

impl dyn Sql + '_ {
    fn query_opt(&mut self, sql: &str, params: &[Value]) -> StoreResult<Option<Record>> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    fn query_one(&mut self, sql: &str, params: &[Value]) -> StoreResult<Record> {
        self.query_opt(sql, params)?
            .ok_or_else(|| StoreError::Database(format!("no row from {sql:?}")))
    }
}

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
    fn write(&self, write: Write) -> StoreResult<Applied>;
    /// Calls `on_notice` for every change committed by anyone from now on, and when the
    /// listener loses or regains its connection (PostgreSQL); nothing when this process is
    /// the only writer (SQLite).
    fn listen(&self, on_notice: Box<dyn Fn(Notice) + Send>) -> StoreResult<()>;
    /// Whether other processes may change the games.
    fn is_shared(&self) -> bool;
    /// The database's own check: `ok` when sound.
    fn integrity_check(&self) -> StoreResult<String>;
}

// ---------------------------------------------------------------------------------------
// The rows: columns, readers and writers, once for both databases.

const GAME_COLUMNS: &str = "id, variant, pits, start, south, north, match_id, round, plies, \
                            result, end_reason, end_to, created, updated, version, owner";

fn game_row(r: &Record) -> StoreResult<GameRow> {
    let id = r.int(0)?;
    let to = r.opt_side(11)?;
    let end = r
        .opt_text(10)?
        .map(|code| {
            End::from_code(&code, to)
                .ok_or_else(|| StoreError::Database(format!("game {id}: unknown end {code:?}")))
        })
        .transpose()?;
    Ok(GameRow {
        id,
        variant: r.text(1)?,
        pits: r.size(2)?,
        start: r.text(3)?,
        south: r.text(4)?,
        north: r.text(5)?,
        match_id: r.opt_int(6)?,
        round: r.opt_small(7)?,
        plies: r.size(8)?,
        result: r.opt_text(9)?,
        end,
        created: r.text(12)?,
        updated: r.text(13)?,
        version: r.int(14)?,
        owner: r.opt_hash(15)?,
    })
}

const LIVE_COLUMNS: &str = "game_id, south_hash, north_hash, south_name, north_name, lobby, \
    address, base_ms, increment_ms, south_ms, north_ms, running_since, offer_draw, \
    offer_takeback, offer_rematch, outcome, reason, rematch_id, takebacks, version, \
    created_ms, touched_ms, south_account, north_account, rated";

/// An open challenge of the lobby (with `?1` bound to true): listed, a seat free, no result.
const OPEN: &str = "lobby = ?1 AND outcome IS NULL AND (south_hash IS NULL OR north_hash IS NULL)";

fn live_row(r: &Record) -> StoreResult<LiveRow> {
    let clock = match r.opt_int(7)? {
        Some(base_ms) => Some(LiveClock {
            base_ms,
            increment_ms: r.int(8)?,
            remaining_ms: [r.int(9)?, r.int(10)?],
            running_since: r.opt_int(11)?,
        }),
        None => None,
    };
    let reason = r.opt_text(16)?;
    Ok(LiveRow {
        game_id: r.int(0)?,
        seats: [r.opt_hash(1)?, r.opt_hash(2)?],
        names: [r.opt_text(3)?, r.opt_text(4)?],
        lobby: r.flag(5)?,
        address: r.opt_text(6)?,
        clock,
        offers: Offers {
            draw: r.opt_side(12)?,
            takeback: r.opt_side(13)?,
            rematch: r.opt_side(14)?,
        },
        result: r.opt_text(15)?.map(|outcome| LiveResult {
            outcome,
            reason: reason.unwrap_or_default(),
        }),
        rematch: r.opt_int(17)?,
        takebacks: r.opt_small(18)?.unwrap_or(0),
        version: r.int(19)?,
        created_ms: r.int(20)?,
        touched_ms: r.int(21)?,
        accounts: [r.opt_int(22)?, r.opt_int(23)?],
        rated: r.flag(24)?,
    })
}

/// The live row's values for `?1` (the game), `?2` (its version) and then `LIVE_COLUMNS`
/// from `south_hash` to `rated` but `version`.
fn live_values(id: i64, live: &LiveRow) -> Vec<Value> {
    let clock = live.clock.as_ref();
    values![
        id,
        live.version,
        live.seats[0],
        live.seats[1],
        live.names[0].as_ref(),
        live.names[1].as_ref(),
        live.lobby,
        live.address.as_ref(),
        clock.map(|c| c.base_ms),
        clock.map_or(0, |c| c.increment_ms),
        clock.map_or(0, |c| c.remaining_ms[0]),
        clock.map_or(0, |c| c.remaining_ms[1]),
        clock.and_then(|c| c.running_since),
        live.offers.draw,
        live.offers.takeback,
        live.offers.rematch,
        live.result.as_ref().map(|r| r.outcome.as_str()),
        live.result.as_ref().map(|r| r.reason.as_str()),
        live.rematch,
        live.takebacks,
        live.created_ms,
        live.touched_ms,
        live.accounts[0],
        live.accounts[1],
        live.rated,
    ]
    .into()
}

/// The live row's values in the order of `LIVE_COLUMNS`, as [`live_row`] reads them.
fn live_record(live: &LiveRow) -> Record {
    let mut values = live_values(live.game_id, live);
    // `live_values` puts the version second; the columns have it after `takebacks`.
    let version = values.remove(1);
    values.insert(19, version);
    Record(values)
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

/// The time now as the rows keep it: UTC, `2026-12-01 18:47:00` (as SQLite's
/// `datetime('now')` writes it), made here so that both databases store the same text.
fn now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_text(secs)
}

/// `secs` after the Unix epoch as `YYYY-MM-DD HH:MM:SS` (UTC), by the civil calendar
/// (Howard Hinnant's days-to-date).
fn utc_text(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        rest / 3_600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A change to the database. It holds only what is written: a move is its name and the new
/// summary, never a copy of the game.
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
        live: Option<Box<LiveRow>>,
        owner: Option<[u8; 32]>,
    },
    Move {
        id: i64,
        /// The move's index, from 0.
        ply: usize,
        mv: String,
        summary: Summary,
        /// The version the writer's copy is at, when it must still be the stored one.
        seen: Option<i64>,
        /// The live row as it is after the move (clock, offers), for a game between seats.
        live: Option<Box<LiveRow>>,
    },
    Truncate {
        id: i64,
        /// The moves kept: `summary.plies`.
        summary: Summary,
        seen: Option<i64>,
        live: Option<Box<LiveRow>>,
    },
    /// A live game's seats, clock, offers or result changed (no move).
    Live(Box<LiveRow>),
    /// A game and its moves, gone.
    Delete {
        id: i64,
    },
    /// Accounts and their sessions.
    Account(accounts::AccountWrite),
    /// A game's analysis, kept (over the one before, if any). Not a change to the game:
    /// its version stays.
    Analysis {
        id: i64,
        moves: String,
        body: String,
    },
}

/// What a write did: its answer (a new row's id, or the game's new version), the change to
/// announce to other servers, if any, and the time it wrote.
struct Applied {
    answer: i64,
    change: Option<Change>,
    at: String,
}

impl Applied {
    fn stamp(self) -> Stamp {
        Stamp {
            version: self.answer,
            updated: self.at,
        }
    }
}

/// What a change left in its game's row: the new version and the time it wrote
/// ([`GameRow::stamped`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The game's new [`GameRow::version`].
    pub version: i64,
    /// Its new [`GameRow::updated`].
    pub updated: String,
}

fn changed_meanwhile(id: i64) -> StoreError {
    StoreError::Conflict(format!(
        "game {id} changed meanwhile (by another writer); nothing was written"
    ))
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

fn insert_move(sql: &mut dyn Sql, id: i64, ply: usize, mv: &str) -> StoreResult<()> {
    sql.execute(
        "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
        &values![id, ply, mv],
    )?;
    Ok(())
}

/// Writes the live row over the stored one if that is still at `live.version` (bumping
/// it); else a conflict, and the caller's transaction is not committed.
fn put_live(sql: &mut dyn Sql, live: &LiveRow) -> StoreResult<()> {
    let changed = sql.execute(
        "UPDATE live SET south_hash = ?3, north_hash = ?4, south_name = ?5,
             north_name = ?6, lobby = ?7, address = ?8, base_ms = ?9, increment_ms = ?10,
             south_ms = ?11, north_ms = ?12, running_since = ?13, offer_draw = ?14,
             offer_takeback = ?15, offer_rematch = ?16, outcome = ?17, reason = ?18,
             rematch_id = ?19, takebacks = ?20, created_ms = ?21, touched_ms = ?22,
             south_account = ?23, north_account = ?24, rated = ?25, version = version + 1
         WHERE game_id = ?1 AND version = ?2",
        &live_values(live.game_id, live),
    )?;
    if changed == 0 {
        return Err(StoreError::Conflict(format!(
            "game {} changed meanwhile (version {} is no longer the stored one)",
            live.game_id, live.version
        )));
    }
    Ok(())
}

impl Write {
    /// Applies the change inside the caller's transaction.
    fn apply(&self, sql: &mut dyn Sql) -> StoreResult<Applied> {
        let now = now_text();
        let change = |game: i64, plies: usize, version: i64| Applied {
            answer: version,
            change: Some(Change {
                game,
                plies,
                version,
                step: None,
            }),
            at: now.clone(),
        };
        // A live game's change as its notice carries it: the live row written, at its new
        // version.
        let stepped = |applied: Applied, mv: Option<&String>, live: &LiveRow| Applied {
            change: applied.change.map(|change| Change {
                step: Some(Box::new(Step {
                    mv: mv.cloned(),
                    live: LiveRow {
                        version: live.version + 1,
                        ..live.clone()
                    },
                    updated: now.clone(),
                })),
                ..change
            }),
            ..applied
        };
        match self {
            Write::Match { rounds } => {
                let id = sql
                    .query_one(
                        "INSERT INTO matches (rounds, created) VALUES (?1, ?2) RETURNING id",
                        &values![*rounds, &now],
                    )?
                    .int(0)?;
                Ok(Applied {
                    answer: id,
                    change: None,
                    at: now.clone(),
                })
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
                owner,
            } => {
                let (reason, to) = summary.end.map(|end| (end.code(), end.side())).unzip();
                // Ids come from a counter that deleting a game does not lower: an id is
                // never given twice, so an old link cannot open someone else's game.
                let id = sql
                    .query_one("UPDATE game_ids SET last = last + 1 RETURNING last", &[])?
                    .int(0)?;
                sql.execute(
                    "INSERT INTO games (id, variant, pits, start, south, north, match_id, round,
                                            plies, result, end_reason, end_to, created, updated,
                                            owner)
                         VALUES (?13, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?14)",
                    &values![
                        *variant,
                        *pits,
                        start,
                        south,
                        north,
                        match_round.map(|(m, _)| m),
                        match_round.map(|(_, r)| r),
                        summary.plies,
                        summary.result,
                        reason,
                        to.flatten(),
                        &now,
                        id,
                        *owner,
                    ],
                )?;
                for (ply, mv) in moves.iter().enumerate() {
                    insert_move(sql, id, ply, mv)?;
                }
                if let Some(live) = live {
                    sql.execute(
                        &format!(
                            "INSERT INTO live ({LIVE_COLUMNS})
                             VALUES (?1, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,
                                     ?15, ?16, ?17, ?18, ?19, ?20, ?2, ?21, ?22, ?23, ?24,
                                     ?25)"
                        ),
                        &live_values(
                            id,
                            &LiveRow {
                                version: 0,
                                ..(**live).clone()
                            },
                        ),
                    )?;
                }
                Ok(Applied {
                    answer: id,
                    ..change(id, summary.plies, 0)
                })
            }
            Write::Move {
                id,
                ply,
                mv,
                summary,
                seen,
                live,
            } => {
                let version = update_summary(sql, *id, summary, Some(*ply), *seen, &now)?
                    .ok_or_else(|| changed_meanwhile(*id))?;
                insert_move(sql, *id, *ply, mv)?;
                if let Some(live) = live {
                    put_live(sql, live)?;
                    // Only a rated game's move that ends it can rate it: the other moves
                    // need not read the rows back (a query less per move).
                    if live.rated && (summary.result.is_some() || live.result.is_some()) {
                        accounts::settle_rating(sql, *id)?;
                    }
                }
                let applied = change(*id, summary.plies, version);
                Ok(match live {
                    Some(live) => stepped(applied, Some(mv), live),
                    None => applied,
                })
            }
            Write::Truncate {
                id,
                summary,
                seen,
                live,
            } => {
                let Some(version) = update_summary(sql, *id, summary, None, *seen, &now)? else {
                    return match (seen, live) {
                        // No such game, and nothing said it should be: nothing to forget.
                        (None, None) => Ok(Applied {
                            answer: 0,
                            change: None,
                            at: now.clone(),
                        }),
                        _ => Err(changed_meanwhile(*id)),
                    };
                };
                sql.execute(
                    "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                    &values![*id, summary.plies],
                )?;
                if let Some(live) = live {
                    put_live(sql, live)?;
                }
                Ok(change(*id, summary.plies, version))
            }
            Write::Live(live) => {
                put_live(sql, live)?;
                accounts::settle_rating(sql, live.game_id)?;
                // The game row's version tells other servers their copy is stale.
                let row = sql
                    .query_opt(
                        "UPDATE games SET updated = ?2, version = version + 1
                         WHERE id = ?1 RETURNING plies, version",
                        &values![live.game_id, &now],
                    )?
                    .ok_or_else(|| changed_meanwhile(live.game_id))?;
                let applied = change(live.game_id, row.size(0)?, row.int(1)?);
                Ok(stepped(applied, None, live))
            }
            Write::Account(write) => write.apply(sql, &now),
            Write::Delete { id } => {
                for table in [
                    "analyses WHERE game_id",
                    "live WHERE game_id",
                    "moves WHERE game_id",
                    "games WHERE id",
                ] {
                    sql.execute(&format!("DELETE FROM {table} = ?1"), &values![*id])?;
                }
                Ok(change(*id, 0, -1))
            }
            Write::Analysis { id, moves, body } => {
                let kept = sql.execute(
                    "INSERT INTO analyses (game_id, moves, body, created)
                     SELECT id, ?2, ?3, ?4 FROM games WHERE id = ?1
                     ON CONFLICT (game_id) DO UPDATE
                         SET moves = excluded.moves, body = excluded.body,
                             created = excluded.created",
                    &values![*id, moves, body, &now],
                )?;
                if kept == 0 {
                    return Err(changed_meanwhile(*id));
                }
                Ok(Applied {
                    answer: 0,
                    change: None,
                    at: now.clone(),
                })
            }
        }
    }
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

/// A limit as a parameter (PostgreSQL's `LIMIT` takes a 64-bit integer).
fn limit(n: usize) -> Value {
    Value::from(n.min(i64::MAX as usize))
}

/// A game's row, within a read.
/// A game's row and its moves' tokens.
fn read_game(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<(GameRow, Vec<String>)>> {
    let Some(row) = read_game_row(sql, id)? else {
        return Ok(None);
    };
    let tokens = sql
        .query(
            "SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply",
            &values![id],
        )?
        .iter()
        .map(|r| r.text(0))
        .collect::<StoreResult<Vec<String>>>()?;
    Ok(Some((row, tokens)))
}

fn read_live_row(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<LiveRow>> {
    sql.query_opt(
        &format!("SELECT {LIVE_COLUMNS} FROM live WHERE game_id = ?1"),
        &values![id],
    )?
    .as_ref()
    .map(live_row)
    .transpose()
}

fn read_game_row(sql: &mut dyn Sql, id: i64) -> StoreResult<Option<GameRow>> {
    sql.query_opt(
        &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
        &values![id],
    )?
    .as_ref()
    .map(game_row)
    .transpose()
}

fn game_rows(sql: &mut dyn Sql, query: &str, params: &[Value]) -> StoreResult<Vec<GameRow>> {
    sql.query(query, params)?.iter().map(game_row).collect()
}

// ---------------------------------------------------------------------------------------
// The store.

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

    /// Creates a match of `rounds` rounds; its id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn create_match(&self, rounds: u32) -> StoreResult<i64> {
        self.backend
            .write(Write::Match { rounds })
            .map(|a| a.answer)
    }

    /// A match by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn get_match(&self, id: i64) -> StoreResult<Option<MatchRow>> {
        self.read(|sql| {
            sql.query_opt("SELECT id, rounds FROM matches WHERE id = ?1", &values![id])?
                .map(|r| {
                    Ok(MatchRow {
                        id: r.int(0)?,
                        rounds: r.opt_small(1)?.unwrap_or(0),
                    })
                })
                .transpose()
        })
    }

    /// Saves a new game with the moves it already has, and its live row for a game between
    /// two seats, in one transaction; its id.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when that round of the match is
    /// already stored; nothing is then saved.
    pub fn create_game(&self, new: &NewGame<'_>) -> StoreResult<i64> {
        let rules = new.game.rules();
        let n = rules.pits_per_row();
        self.backend
            .write(Write::Game {
                variant: rules.variant().name(),
                pits: n,
                start: new.game.start().to_string(),
                south: new.south.to_owned(),
                north: new.north.to_owned(),
                match_round: new.match_round,
                moves: new
                    .game
                    .moves()
                    .iter()
                    .map(|m| m.name(n).to_string())
                    .collect(),
                summary: Summary::of(new.game),
                live: new.live.map(|live| Box::new(live.clone())),
                owner: new.owner,
            })
            .map(|a| a.answer)
    }

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
            .write(move_write(id, game, seen, None))
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
            .write(Write::Truncate {
                id,
                summary: Summary::of(game),
                seen,
                live: None,
            })
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
            .write(move_write(live.game_id, game, None, Some(live)))
            .map(Applied::stamp)
    }

    /// A takeback granted in a live game: the moves after `game`'s, and the live row; the
    /// game's new version.
    ///
    /// # Errors
    /// On a database failure or a conflict; nothing is then changed.
    pub fn truncate_live(&self, game: &Game, live: &LiveRow) -> StoreResult<Stamp> {
        self.backend
            .write(Write::Truncate {
                id: live.game_id,
                summary: Summary::of(game),
                seen: None,
                live: Some(Box::new(live.clone())),
            })
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
            .write(Write::Live(Box::new(live.clone())))
            .map(Applied::stamp)
    }

    /// Deletes a game, its moves and its live row, in one transaction.
    ///
    /// # Errors
    /// On a database failure; nothing is then changed.
    pub fn delete(&self, id: i64) -> StoreResult<()> {
        self.backend.write(Write::Delete { id }).map(drop)
    }

    /// A game's row.
    ///
    /// # Errors
    /// On a database failure.
    pub fn game_row(&self, id: i64) -> StoreResult<Option<GameRow>> {
        self.read(|sql| read_game_row(sql, id))
    }

    /// A game's version now ([`GameRow::version`]), `None` when there is no such game.
    ///
    /// # Errors
    /// On a database failure.
    pub fn version(&self, id: i64) -> StoreResult<Option<i64>> {
        self.backend
            .read_statement("SELECT version FROM games WHERE id = ?1", &values![id])?
            .first()
            .map(|r| r.int(0))
            .transpose()
    }

    /// A game's row and the game replayed from its moves, read together.
    ///
    /// # Errors
    /// On a database failure; [`StoreError::BadStart`] or [`StoreError::Unreplayable`] when
    /// the stored game no longer replays under these rules (it cannot happen unless the
    /// rules changed). The game is then refused whole rather than cut short, and nothing
    /// stored is changed.
    pub fn load(&self, id: i64) -> StoreResult<Option<(GameRow, Game)>> {
        let read = self.read(|sql| read_game(sql, id))?;
        read.map(|(row, tokens)| replay(row, tokens)).transpose()
    }

    /// [`Store::load`] and [`Store::live_row`] in one read.
    ///
    /// # Errors
    /// As [`Store::load`].
    pub fn load_with_live(&self, id: i64) -> StoreResult<Option<(GameRow, Game, Option<LiveRow>)>> {
        // One statement (a server reloading a game another server changed does this for
        // every move): the row, its live row, and its moves joined by spaces.
        static GAME_WITH_LIVE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
            let prefixed = |table: &str, columns: &str| {
                columns
                    .split(',')
                    .map(|c| format!("{table}.{}", c.trim()))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "SELECT {}, {}, (SELECT string_agg(mv, ' ' ORDER BY ply) FROM moves
                                 WHERE game_id = ?1)
                 FROM games g LEFT JOIN live l ON l.game_id = g.id WHERE g.id = ?1",
                prefixed("g", GAME_COLUMNS),
                prefixed("l", LIVE_COLUMNS)
            )
        });
        let Some(mut row) = self
            .backend
            .read_statement(&GAME_WITH_LIVE, &values![id])?
            .into_iter()
            .next()
        else {
            return Ok(None);
        };
        let games = GAME_COLUMNS.split(',').count();
        let lives = LIVE_COLUMNS.split(',').count();
        let moves = row.split_off(games + lives);
        let live = row.split_off(games);
        let tokens = moves.opt_text(0)?.map_or_else(Vec::new, |text| {
            text.split(' ').map(str::to_owned).collect()
        });
        let live = match live.opt_int(0)? {
            Some(_) => Some(live_row(&live)?),
            None => None,
        };
        let (row, game) = replay(game_row(&row)?, tokens)?;
        Ok(Some((row, game, live)))
    }

    /// The most recently changed games of the player key whose SHA-256 is `owner`, newest
    /// first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn list(&self, owner: [u8; 32], count: usize) -> StoreResult<Vec<GameRow>> {
        self.read(|sql| {
            game_rows(
                sql,
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE owner = ?2
                     ORDER BY updated DESC, id DESC LIMIT ?1"
                ),
                &[limit(count), Value::from(owner)],
            )
        })
    }

    /// The games of a match, by round.
    ///
    /// # Errors
    /// On a database failure.
    pub fn match_games(&self, match_id: i64) -> StoreResult<Vec<GameRow>> {
        self.read(|sql| {
            game_rows(
                sql,
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE match_id = ?1 ORDER BY round"),
                &values![match_id],
            )
        })
    }

    /// Counts the moves stored for a game (for checks and the load generator).
    ///
    /// # Errors
    /// On a database failure.
    pub fn stored_moves(&self, id: i64) -> StoreResult<usize> {
        self.read(|sql| {
            sql.query_one(
                "SELECT count(*) FROM moves WHERE game_id = ?1",
                &values![id],
            )?
            .size(0)
        })
    }

    /// Keeps the analysis `body` (JSON) of game `id` as it was with `moves`
    /// ([`moves_key`]), over the one kept before. The game's version does not change.
    ///
    /// # Errors
    /// On a database failure, or [`StoreError::Conflict`] when there is no such game (it
    /// was deleted meanwhile); nothing is then kept.
    pub fn save_analysis(&self, id: i64, moves: &str, body: &str) -> StoreResult<()> {
        self.backend
            .write(Write::Analysis {
                id,
                moves: moves.to_owned(),
                body: body.to_owned(),
            })
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

    /// A live game's row, or `None` for a game that is not between two seats.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_row(&self, id: i64) -> StoreResult<Option<LiveRow>> {
        self.read(|sql| read_live_row(sql, id))
    }

    /// Those of the games `ids` that are live games, each with its players' names and its
    /// result when it ended otherwise than by the rules (resignation, agreement, flag,
    /// abandoned, expired), for the games list.
    ///
    /// # Errors
    /// On a database failure.
    pub fn live_listings(&self, ids: &[i64]) -> StoreResult<Vec<(i64, LiveListing)>> {
        self.read(|sql| {
            let mut results = Vec::new();
            // In slices, well under either database's limit on bound parameters.
            for chunk in ids.chunks(500) {
                let marks: Vec<String> = (1..=chunk.len()).map(|i| format!("?{i}")).collect();
                let params: Vec<Value> = chunk.iter().map(|&id| Value::from(id)).collect();
                for r in sql.query(
                    &format!(
                        "SELECT game_id, outcome, reason, south_name, north_name FROM live
                         WHERE game_id IN ({})",
                        marks.join(", ")
                    ),
                    &params,
                )? {
                    let result = r
                        .opt_text(1)?
                        .map(|outcome| {
                            Ok::<_, StoreError>(LiveResult {
                                outcome,
                                reason: r.opt_text(2)?.unwrap_or_default(),
                            })
                        })
                        .transpose()?;
                    let names = [r.opt_text(3)?, r.opt_text(4)?];
                    results.push((r.int(0)?, LiveListing { result, names }));
                }
            }
            Ok(results)
        })
    }

    /// The open challenges of the lobby (a seat free, no result), oldest first.
    ///
    /// # Errors
    /// On a database failure.
    pub fn lobby(&self, count: usize) -> StoreResult<Vec<(GameRow, LiveRow)>> {
        self.read(|sql| {
            let lives = sql
                .query(
                    &format!(
                        "SELECT {LIVE_COLUMNS} FROM live WHERE {OPEN}
                         ORDER BY created_ms, game_id LIMIT ?2"
                    ),
                    &[Value::Bool(true), limit(count)],
                )?
                .iter()
                .map(live_row)
                .collect::<StoreResult<Vec<LiveRow>>>()?;
            let mut open = Vec::with_capacity(lives.len());
            for live in lives {
                if let Some(row) = read_game_row(sql, live.game_id)? {
                    open.push((row, live));
                }
            }
            Ok(open)
        })
    }

    /// How many open challenges there are in all, and how many `address` posted.
    ///
    /// # Errors
    /// On a database failure.
    pub fn open_challenges(&self, address: &str) -> StoreResult<(usize, usize)> {
        self.read(|sql| {
            let r = sql.query_one(
                &format!(
                    "SELECT count(*), count(CASE WHEN address = ?2 THEN 1 END) FROM live
                     WHERE {OPEN}"
                ),
                &values![true, address],
            )?;
            Ok((r.size(0)?, r.size(1)?))
        })
    }

    /// Live games with no result that nobody touched since `before_ms` (Unix ms), and open
    /// challenges not taken since `open_before_ms`: the ids, for closing.
    ///
    /// # Errors
    /// On a database failure.
    pub fn stale_live_games(&self, before_ms: i64, open_before_ms: i64) -> StoreResult<Vec<i64>> {
        self.read(|sql| {
            sql.query(
                &format!(
                    "SELECT game_id FROM live WHERE outcome IS NULL
                       AND (touched_ms < ?2 OR ({OPEN} AND touched_ms < ?3))
                     ORDER BY game_id"
                ),
                &values![true, before_ms, open_before_ms],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
        })
    }
}

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

/// The write of `game`'s last move.
///
/// # Panics
/// If `game` has no moves.
fn move_write(id: i64, game: &Game, seen: Option<i64>, live: Option<&LiveRow>) -> Write {
    let ply = game.moves().len() - 1;
    Write::Move {
        id,
        ply,
        mv: game.moves()[ply]
            .name(game.rules().pits_per_row())
            .to_string(),
        summary: Summary::of(game),
        seen,
        live: live.map(|live| Box::new(live.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_as_sqlite_writes_them() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(utc_text(1_796_150_820), "2026-12-01 18:47:00");
        assert_eq!(utc_text(4_107_542_399), "2100-02-28 23:59:59");
    }

    #[test]
    fn a_record_refuses_a_column_of_another_type() {
        let r = Record(vec![Value::Text("x".into()), Value::Int(-1), Value::Null]);
        assert!(r.int(0).is_err());
        assert!(r.size(1).is_err());
        assert_eq!(r.opt_text(2), Ok(None));
        assert!(r.text(2).is_err());
        assert!(r.opt_hash(0).is_err());
    }

    #[test]
    fn a_step_reads_back_from_its_text() {
        let live = LiveRow {
            game_id: 12,
            seats: [Some([7; 32]), Some([255; 32])],
            names: [Some("Ana 'o\\ \"Ñ\"".into()), None],
            lobby: true,
            address: Some("192.0.2.1".into()),
            clock: Some(LiveClock {
                base_ms: 60_000,
                increment_ms: 2_000,
                remaining_ms: [59_000, -3],
                running_since: Some(1_796_150_820_000),
            }),
            offers: Offers {
                draw: Some(Side::North),
                takeback: None,
                rematch: Some(Side::South),
            },
            result: Some(LiveResult {
                outcome: "south".into(),
                reason: "resigned".into(),
            }),
            rematch: Some(13),
            takebacks: 2,
            version: 9,
            created_ms: 1_000,
            touched_ms: 2_000,
            accounts: [Some(4), None],
            rated: true,
        };
        assert_eq!(live_row(&live_record(&live)), Ok(live.clone()));
        for mv in [Some("pass".to_owned()), None] {
            let step = Step {
                mv,
                live: live.clone(),
                updated: "2026-12-04 18:47:00".into(),
            };
            assert_eq!(Step::from_text(&step.to_text()), Some(step));
        }
        for bad in [
            "",
            "{}",
            "12 7 3",
            r#"{"mv": 1, "updated": "x", "live": []}"#,
        ] {
            assert_eq!(Step::from_text(bad), None, "{bad:?}");
        }
    }
}
