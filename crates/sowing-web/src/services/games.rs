//! The games service: the games in play, kept in a bounded cache over the store, and what
//! can be done to them (create, play, undo, redo, ask the engine, match rounds, records).
//! It knows nothing of HTTP: it answers with the response types or a [`GameError`].

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use hashlink::LruCache;
use sowing::{Game, Move, Record, Rules, Side};

use crate::limits::{AbuseLimits, Limiter};
use crate::matches;
use crate::ops::Ops;
use crate::owners::Caller;
use crate::services::analysis::{Analyses, QueueError, Standing};
use crate::services::engines::{EngineError, Engines};
use crate::services::hub::Hub;
use crate::store::{
    Change, GameRow, LiveRow, NewGame, Notice, Stamp, Store, StoreError, StoreResult,
};
use crate::views::analysis::{AnalysisView, Progress};
use crate::views::games::{
    Brief, EndView, EngineReply, GameSummary, MatchView, MoveAnswer, MoveReplay, Names, Played,
    TraceEvent, View,
};

/// A player that is a person at the screen rather than an engine.
pub const HUMAN: &str = "human";

/// How many games the server keeps in memory by default; the least recently used leave
/// memory beyond that and are read back from the database when asked for again.
pub const DEFAULT_CACHED_GAMES: usize = 1000;

/// Why a request on a game could not be done.
#[derive(Debug)]
pub enum GameError {
    /// No game has this id.
    UnknownGame(String),
    /// No match has this id.
    UnknownMatch(String),
    /// The game has no move with this number.
    NoSuchMove {
        /// The game.
        game: i64,
        /// The number asked for, as given.
        ply: String,
    },
    /// The move is not legal (or not a move) now.
    Illegal {
        /// Why.
        message: String,
        /// The legal moves.
        legal: Vec<String>,
    },
    /// The client saw another number of moves than the game has: it is out of date.
    StalePly {
        /// Moves in the game.
        now: usize,
        /// Moves the client saw.
        seen: usize,
    },
    /// Undo with no move played.
    NothingToUndo,
    /// Redo with no move taken back.
    NothingToRedo,
    /// The engine was asked for a move in a finished game.
    GameOver,
    /// The next round was asked for while the current one goes on.
    RoundNotOver,
    /// The next round was asked for after the last.
    MatchOver,
    /// A round cannot change once the next one has started.
    RoundClosed,
    /// The game moved on while the engine was thinking.
    ChangedMeanwhile,
    /// Another request started that round of the match first.
    RoundTaken,
    /// A round of a match cannot be deleted alone.
    InMatch,
    /// The engine could not answer.
    Engine(EngineError),
    /// The store failed, refused a conflicting write, or holds a game that no longer
    /// replays.
    Store(StoreError),
    /// A task of the server failed.
    Internal(String),
    /// The request lacks the token of the seat it acts for, or acts for the wrong seat.
    Forbidden(String),
    /// Too many requests from this address, or a cap is reached: try again later.
    Limited(String),
    /// A request that does not fit a live game (its message says why).
    Refused(String),
    /// A request that conflicts with the live game's state now (a seat already taken, an
    /// opponent not yet arrived, a game not over).
    Conflict(String),
    /// The game exists but is not played between two seats.
    NotLive(i64),
    /// The request needs a signed-in session and has none (or an expired one).
    SignedOut(String),
    /// No account has this name.
    UnknownAccount(String),
    /// No seek of quick pairing has this id.
    UnknownSeek(String),
    /// No challenge has this id.
    UnknownChallenge(String),
    /// No tournament has this id.
    UnknownTournament(String),
    /// The challenge (id) is no longer open: it is in this state.
    ChallengeGone(i64, String),
    /// The named player takes no challenges from this one (or from anyone).
    ChallengeRefused(String),
    /// Signing up with a name another account has (in any case).
    NameTaken,
    /// A recovery with an unknown name, a wrong code or a code already used (one answer
    /// for all three, so that it tells nobody which names exist).
    WrongRecoveryCode,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::UnknownGame(id) => write!(f, "unknown game {}", shorten(id)),
            GameError::UnknownMatch(id) => write!(f, "unknown match {}", shorten(id)),
            GameError::NoSuchMove { game, ply } => {
                write!(f, "game {game} has no move {}", shorten(ply))
            }
            GameError::Illegal { message, .. } => f.write_str(message),
            GameError::StalePly { now, seen } => {
                write!(f, "the game is at move {now}, not {seen}: reload it")
            }
            GameError::NothingToUndo => f.write_str("there is no move to undo"),
            GameError::NothingToRedo => f.write_str("there is no move to redo"),
            GameError::GameOver => f.write_str("the game is over"),
            GameError::RoundNotOver => f.write_str("the current round is not over"),
            GameError::MatchOver => f.write_str("the match is over"),
            GameError::RoundClosed => f.write_str(
                "a later round of this match has started: this round can no longer change",
            ),
            GameError::ChangedMeanwhile => {
                f.write_str("the game changed while the engine was thinking: reload it")
            }
            GameError::RoundTaken => f.write_str("that round has already been started"),
            GameError::InMatch => {
                f.write_str("a round of a match cannot be deleted alone: the score table needs it")
            }
            GameError::Engine(EngineError::UnknownPlayer(message)) => f.write_str(message),
            GameError::Engine(EngineError::Busy) => {
                f.write_str("the engine is busy with other requests: try again")
            }
            GameError::Engine(EngineError::NoAnswer) => {
                f.write_str("the engine did not answer in time")
            }
            GameError::Store(error) => write!(f, "{error}"),
            GameError::Internal(message)
            | GameError::Forbidden(message)
            | GameError::Limited(message)
            | GameError::Refused(message)
            | GameError::Conflict(message)
            | GameError::SignedOut(message) => f.write_str(message),
            GameError::UnknownAccount(name) => write!(f, "no account is named {}", shorten(name)),
            GameError::UnknownSeek(id) => write!(f, "unknown seek {}", shorten(id)),
            GameError::UnknownChallenge(id) => write!(f, "unknown challenge {}", shorten(id)),
            GameError::UnknownTournament(id) => write!(f, "unknown tournament {}", shorten(id)),
            GameError::ChallengeGone(id, state) => {
                write!(f, "challenge {id} is no longer open: it was {state}")
            }
            GameError::ChallengeRefused(name) => {
                write!(f, "{name} does not take challenges from you")
            }
            GameError::NameTaken => f.write_str("that name is taken: choose another"),
            GameError::WrongRecoveryCode => f.write_str(
                "wrong name or recovery code (each code works once, and new codes end the old)",
            ),
            GameError::NotLive(id) => write!(
                f,
                "game {id} is not played between two seats (it is a one-screen game: \
                 /api/games/{id})"
            ),
        }
    }
}

impl std::error::Error for GameError {}

impl From<StoreError> for GameError {
    fn from(error: StoreError) -> GameError {
        GameError::Store(error)
    }
}

impl From<EngineError> for GameError {
    fn from(error: EngineError) -> GameError {
        GameError::Engine(error)
    }
}

type GameResult<T> = Result<T, GameError>;

/// A game in memory: its row, the game itself, and for a game between two seats its live
/// row (seats, clock, offers).
pub(crate) struct Loaded {
    pub(crate) row: GameRow,
    pub(crate) game: Game,
    pub(crate) live: Option<LiveRow>,
}

impl Loaded {
    /// The game, its row and its live row, read from the store. The row is read first:
    /// what is read after it is as new or newer, so the copy never looks newer than it is
    /// and a server that finds the stored version moved on reads it all again.
    fn read(store: &Store, id: i64) -> StoreResult<Option<Loaded>> {
        Ok(store
            .load_with_live(id)?
            .map(|(row, game, live)| Loaded { row, game, live }))
    }

    /// The copy after another server's `change`, when it is at the version just before
    /// it and the change carries what it did ([`Change::follow`]).
    fn follow(self, change: &Change) -> Option<Loaded> {
        let (row, game, live) = change.follow(self.row, self.game, self.live.as_ref())?;
        Some(Loaded {
            row,
            game,
            live: Some(live),
        })
    }

    /// The copy after our own write, which left the game's row as `stamp` says. Another
    /// server may write after it (PostgreSQL): that write's version is newer, so the next
    /// version check reads the game again.
    pub(crate) fn after_write(mut self, stamp: Stamp) -> Loaded {
        self.row = self.row.stamped(&self.game, stamp);
        self
    }
}

/// Refuses a change through the one-screen routes to a game between two seats: its moves
/// and offers go through `/api/live/{id}` with a seat's token.
/// Refuses a change to a one-screen game from anyone but its owner ([`crate::owners`]), and
/// any change through these routes to a game between two seats.
fn may_change(loaded: &Loaded, who: &Caller) -> GameResult<()> {
    not_live(loaded)?;
    if who.may_change(loaded.row.owner.as_ref()) {
        Ok(())
    } else {
        Err(GameError::Forbidden(format!(
            "game {} belongs to another player: only the player key that created it \
             (or the account it moved into) \
             (X-Player-Key) may change it; anyone may watch it and download its record",
            loaded.row.id
        )))
    }
}

fn not_live(loaded: &Loaded) -> GameResult<()> {
    match loaded.live {
        Some(_) => Err(GameError::Forbidden(format!(
            "game {} is played between two seats: only a seat's token may change it, \
             through /api/live/{}",
            loaded.row.id, loaded.row.id
        ))),
        None => Ok(()),
    }
}

/// A cached game behind its own lock, so that changes to one game are applied (and saved)
/// one at a time while other games go on. `None` until it is read from the store, and again
/// after a failed write (the store, not memory, is then the truth).
pub(crate) type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

/// The games in memory, least recently used first.
struct Cache {
    slots: LruCache<i64, Slot>,
    capacity: usize,
}

impl Cache {
    /// The game's slot, made (empty) if it is not cached, now the most recently used.
    fn slot(&mut self, id: i64) -> Slot {
        if let Some(slot) = self.slots.get(&id) {
            return slot.clone();
        }
        self.shrink(self.capacity - 1);
        let slot = Slot::default();
        self.slots.insert(id, slot.clone());
        slot
    }

    /// Lets the least recently used games go until at most `keep` remain. A game that a
    /// request holds right now stays (else a second copy could be loaded beside it), so
    /// while more requests run at once than the bound, the cache holds more for a while.
    fn shrink(&mut self, keep: usize) {
        while self.slots.len() > keep {
            // Slots are only handed out under the cache's lock, which we hold: a slot that
            // nobody else holds now cannot be taken meanwhile.
            let idle = self
                .slots
                .iter()
                .find(|(_, slot)| Arc::strong_count(slot) == 1)
                .map(|(&id, _)| id);
            match idle {
                Some(id) => {
                    self.slots.remove(&id);
                }
                None => break,
            }
        }
    }

    /// Forgets `id` if its slot is still `slot` (a game that turned out not to exist).
    fn forget(&mut self, id: i64, slot: &Slot) {
        if self.slots.peek(&id).is_some_and(|s| Arc::ptr_eq(s, slot)) {
            self.slots.remove(&id);
        }
    }
}

/// The games service over a store.
pub struct Games {
    pub(crate) store: Arc<Store>,
    cache: std::sync::Mutex<Cache>,
    engines: Engines,
    /// Tells live sockets that a game changed.
    pub(crate) hub: Arc<Hub>,
    /// The abuse limits of the live routes.
    pub(crate) limiter: Limiter,
    /// Whether the first-start tables are being built (`crate::services::first_tables`).
    tables_building: std::sync::atomic::AtomicBool,
    /// The sockets open and the graceful stop.
    pub(crate) ops: Ops,
    /// Origins besides the server's own whose pages may act here (`--allow-origin`),
    /// normalised by [`crate::transport::security::normalize_origin`].
    allowed_origins: Vec<String>,
    /// The server is reached over TLS (a proxy holds the certificate): session cookies are
    /// marked `Secure`.
    secure_cookies: bool,
    /// The time of the live games' clocks.
    pub(crate) time: crate::clock::TimeSource,
    /// Analyses after the game, waiting or running.
    analyses: Analyses,
    /// Quick pairing's seeks whose sockets wait here.
    pub(crate) seekers: crate::services::seekers::Seekers,
    /// The signed-in pages' notices sockets here, by account.
    pub(crate) notices: Arc<crate::services::notices::Notices>,
    /// The tournament pages' sockets here, by tournament (the same wakes, keyed by the
    /// tournament).
    pub(crate) tournament_watch: Arc<crate::services::notices::Notices>,
    /// The lease epoch this server last directed each tournament under (a new one is
    /// logged: a takeover shows in the logs).
    pub(crate) directing: std::sync::Mutex<std::collections::HashMap<i64, i64>>,
    /// The opening explorer's proofs and solves, and the practice.
    pub(crate) school: Arc<crate::services::school::School>,
}

/// Runs store work off the async runtime.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> GameResult<T> {
    tokio::task::spawn_blocking(move || crate::store::off_runtime(work))
        .await
        .map_err(|e| GameError::Internal(format!("database task failed: {e}")))?
        .map_err(|e| {
            e.count();
            GameError::Store(e)
        })
}

/// The longest piece of a client's text that an error message quotes.
const QUOTED: usize = 24;

/// `text` quoted for an error message, cut short (with its length) when it is long, so
/// that a huge token is not echoed back whole.
pub fn shorten(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTED {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(QUOTED).collect();
        format!("{head:?}… ({count} characters)")
    }
}

pub(crate) fn parse_id(text: &str) -> GameResult<i64> {
    text.parse::<i64>()
        .ok()
        .filter(|&id| id > 0)
        .ok_or_else(|| GameError::UnknownGame(text.to_owned()))
}

pub(crate) fn check_ply(game: &Game, expected: Option<usize>) -> GameResult<()> {
    match expected {
        Some(seen) if seen != game.moves().len() => Err(GameError::StalePly {
            now: game.moves().len(),
            seen,
        }),
        _ => Ok(()),
    }
}

pub(crate) fn illegal(game: &Game, message: String) -> GameError {
    GameError::Illegal {
        message,
        legal: game.legal_names(),
    }
}

/// What to ask the engine.
#[derive(Clone, Debug, Default)]
pub struct EngineRequest {
    /// Thinking time.
    pub time: Duration,
    /// Play the move (true) or only suggest it.
    pub play: bool,
    /// The engine to ask; default: the side to move's player when it is a computer, else
    /// the hint engine.
    pub engine: Option<String>,
    /// The number of moves the client saw.
    pub ply: Option<usize>,
    /// Who asks (player key, account): to play, they must own the game.
    pub who: Caller,
}

/// A game's record, as a file.
#[derive(Clone, Debug)]
pub struct RecordFile {
    /// The file's name.
    pub name: String,
    /// The record's text.
    pub text: String,
}

/// What an upload of a record did ([`Games::import`]).
#[derive(Debug)]
pub struct Imported {
    /// The game's view.
    pub view: View,
    /// Whether this upload stored it: `false` when the owner had a game of the same
    /// `client_id` already (from an earlier upload or one at the same time), whose view
    /// this is.
    pub created: bool,
}

/// Saves a new game and reads back the row the store made for it.
pub(crate) fn created_row(store: &Store, new: &NewGame<'_>) -> StoreResult<GameRow> {
    let id = store.create_game(new)?;
    store
        .game_row(id)?
        .ok_or_else(|| StoreError::Database("a game vanished as it was created".into()))
}

/// A game locked for one request, and loaded: what [`Games::lock`] gives. A write consumes
/// it ([`Games::save`]): a failed one leaves the game's slot empty, so that the next request
/// reads the store again rather than trust memory, and no code can go on with the copy.
pub(crate) struct Guard(tokio::sync::OwnedMutexGuard<Option<Loaded>>);

impl Guard {
    /// The game taken out of its slot for a write, and the slot, still locked and empty
    /// until [`Guard::put`].
    pub(crate) fn take(mut self) -> (Loaded, tokio::sync::OwnedMutexGuard<Option<Loaded>>) {
        let loaded = self.0.take();
        (
            loaded.unwrap_or_else(|| unreachable!("{GUARD_HOLDS}")),
            self.0,
        )
    }

    /// The game written back into its slot.
    pub(crate) fn put(
        mut slot: tokio::sync::OwnedMutexGuard<Option<Loaded>>,
        loaded: Loaded,
    ) -> Guard {
        *slot = Some(loaded);
        Guard(slot)
    }
}

const GUARD_HOLDS: &str = "a guard holds its game: it is made loaded and a write consumes it";

impl std::ops::Deref for Guard {
    type Target = Loaded;

    fn deref(&self) -> &Loaded {
        self.0
            .as_ref()
            .unwrap_or_else(|| unreachable!("{GUARD_HOLDS}"))
    }
}

impl std::ops::DerefMut for Guard {
    fn deref_mut(&mut self) -> &mut Loaded {
        self.0
            .as_mut()
            .unwrap_or_else(|| unreachable!("{GUARD_HOLDS}"))
    }
}

impl Games {
    /// The service over a database, with at most `engine_threads` searches at once and the
    /// default bound on games in memory.
    pub fn new(store: Store, engine_threads: usize) -> Games {
        Games::with_cache(store, engine_threads, DEFAULT_CACHED_GAMES)
    }

    /// The service keeping at most `cached_games` games in memory (at least 1).
    pub fn with_cache(store: Store, engine_threads: usize, cached_games: usize) -> Games {
        Games {
            store: Arc::new(store),
            cache: std::sync::Mutex::new(Cache {
                slots: LruCache::new_unbounded(),
                capacity: cached_games.max(1),
            }),
            engines: Engines::new(engine_threads),
            hub: Arc::new(Hub::default()),
            limiter: Limiter::new(AbuseLimits::default()),
            tables_building: std::sync::atomic::AtomicBool::new(false),
            ops: Ops::default(),
            allowed_origins: Vec::new(),
            secure_cookies: false,
            time: crate::clock::TimeSource::System,
            analyses: Analyses::new(crate::services::analysis::Settings::default()),
            seekers: crate::services::seekers::Seekers::default(),
            notices: Arc::default(),
            tournament_watch: Arc::default(),
            directing: std::sync::Mutex::default(),
            school: Arc::default(),
        }
    }

    /// Analyses games after the game as `settings` say.
    pub fn with_analysis(mut self, settings: crate::services::analysis::Settings) -> Games {
        self.analyses = Analyses::new(settings);
        self
    }

    /// Runs the explorer's solves as `settings` say.
    pub fn with_solves(mut self, settings: crate::services::solves::Settings) -> Games {
        self.school = Arc::new(crate::services::school::School::new(settings));
        self
    }

    /// Passes on every change the store announces (from any server sharing it, this one
    /// included) to this process's live sockets ([`Games::hub`]); for SQLite, where this
    /// process is the only writer, nothing is started.
    ///
    /// # Errors
    /// When the store cannot listen.
    pub fn listen(&self) -> Result<(), StoreError> {
        let hub = self.hub.clone();
        let notices = self.notices.clone();
        self.store.listen(move |notice| match notice {
            Notice::Hearing => {
                crate::ops::listening(true);
                hub.set_hearing(true);
                notices.wake_all();
            }
            Notice::Change(change) => hub.publish_change(change),
            Notice::Account(account) => notices.wake(account),
            Notice::Lost => {
                crate::ops::listening(false);
                hub.set_hearing(false);
            }
        })
    }

    /// Sets the abuse limits of the live routes.
    pub fn with_limits(mut self, limits: AbuseLimits) -> Games {
        self.limiter = Limiter::new(limits);
        self
    }

    /// Reads the live games' clocks from `time` (the system's by default).
    pub fn with_time(mut self, time: crate::clock::TimeSource) -> Games {
        self.time = time;
        self
    }

    /// The time now for the live games' clocks, Unix milliseconds.
    pub fn now_ms(&self) -> i64 {
        self.time.now_ms()
    }

    /// Lets pages of these origins act here besides the server's own (each as
    /// [`crate::transport::security::normalize_origin`] gives it).
    pub fn with_allowed_origins(mut self, origins: Vec<String>) -> Games {
        self.allowed_origins = origins;
        self
    }

    /// Marks session cookies `Secure`: the server is reached over TLS.
    pub fn with_secure_cookies(mut self, secure: bool) -> Games {
        self.secure_cookies = secure;
        self
    }

    /// Whether session cookies are marked `Secure` (the server is reached over TLS).
    pub fn secure_cookies(&self) -> bool {
        self.secure_cookies
    }

    /// The origins besides the server's own whose pages may act here.
    pub fn allowed_origins(&self) -> &[String] {
        &self.allowed_origins
    }

    /// The sockets open and the graceful stop.
    pub fn ops(&self) -> &Ops {
        &self.ops
    }

    /// The hub live sockets listen to.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Gives the engines endgame tables (levels 5–6 and `perfect` use them).
    pub fn with_tables(mut self, tables: Option<Arc<sowing_engine::TableSet>>) -> Games {
        self.engines.set_tables(tables);
        self
    }

    /// Hands the engines other tables while serving (the first-start build, when done).
    pub fn replace_tables(&self, tables: Option<Arc<sowing_engine::TableSet>>) {
        self.engines.replace_tables(tables);
    }

    /// Marks the first-start tables as being built, or done.
    pub fn set_tables_building(&self, building: bool) {
        self.tables_building
            .store(building, std::sync::atomic::Ordering::Relaxed);
    }

    /// The exact value of each legal move of a game's current position, from the tables.
    ///
    /// # Errors
    /// When there is no such game, or a table file is unreadable or corrupt.
    pub async fn table_values(
        &self,
        id: &str,
    ) -> GameResult<crate::services::table_values::TableValues> {
        let game = {
            let guard = self.lock(id).await?;
            guard.game.clone()
        };
        let set = self.engines.tables();
        let building = self
            .tables_building
            .load(std::sync::atomic::Ordering::Relaxed);
        tokio::task::spawn_blocking(move || {
            crate::services::table_values::table_values(set.as_deref(), &game, building)
        })
        .await
        .map_err(|e| GameError::Internal(format!("tables task failed: {e}")))?
        .map_err(|e| GameError::Internal(format!("endgame tables: {e}")))
    }

    /// The endgame tables the engines use, if any.
    pub(crate) fn table_set(&self) -> Option<Arc<sowing_engine::TableSet>> {
        self.engines.tables()
    }

    /// A copy of game `id` as it is now.
    pub(crate) async fn game_copy(&self, id: &str) -> GameResult<Game> {
        Ok(self.lock(id).await?.game.clone())
    }

    /// The database, for checks.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// How many games are in memory now.
    pub fn cached_games(&self) -> usize {
        self.cache().slots.len()
    }

    /// The game's slot in the cache (made empty if it is not there).
    pub(crate) fn slot_of(&self, id: i64) -> Slot {
        self.cache().slot(id)
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Empties the game's slot if it is in memory, so that the next request reads it from
    /// the store (its owner changed there).
    pub(crate) async fn forget_copy(&self, id: i64) {
        let slot = self.cache().slots.peek(&id).cloned();
        if let Some(slot) = slot {
            *slot.lock().await = None;
        }
    }

    /// The game's slot, read from the database if needed, locked for the caller.
    pub(crate) async fn lock(&self, id_text: &str) -> GameResult<Guard> {
        let id = parse_id(id_text)?;
        let slot = self.cache().slot(id);
        let mut guard = slot.clone().lock_owned().await;
        if self.store.is_shared() {
            // Another server may have changed the game since we kept it. The hub knows when
            // it hears every change and the game has sockets here; else the store is asked.
            if let Some(seen) = guard.as_ref().map(|loaded| loaded.row.version) {
                let stale = match self.hub.newest(id) {
                    Some(newest) => {
                        crate::ops::freshness_checked("heard");
                        newest > seen
                    }
                    None => {
                        crate::ops::freshness_checked("asked");
                        let store = self.store.clone();
                        blocking(move || store.version(id)).await? != Some(seen)
                    }
                };
                if stale {
                    // Another server's move or live row, as its notice carried it, if that
                    // is all the copy is missing; else the game is read again.
                    *guard = guard.take().and_then(|loaded| {
                        let change = self.hub.heard(id, loaded.row.version + 1)?;
                        loaded.follow(&change)
                    });
                }
            }
        }
        if guard.is_none() {
            let store = self.store.clone();
            let loaded = blocking(move || Loaded::read(&store, id)).await?;
            match loaded {
                Some(loaded) => {
                    self.hub.read_from_store(id, loaded.row.version);
                    *guard = Some(loaded);
                }
                None => {
                    drop(guard);
                    self.cache().forget(id, &slot);
                    return Err(GameError::UnknownGame(id_text.to_owned()));
                }
            }
        }
        Ok(Guard(guard))
    }

    /// Saves what the guarded game now holds with `write` (which returns the stamp it left
    /// on the row, [`Loaded::after_write`]); the guard again on success. On failure the
    /// slot is left empty, so that the next request reads the game again from the store.
    pub(crate) async fn save(
        &self,
        guard: Guard,
        write: impl FnOnce(&Store, &Game, i64, i64) -> Result<Stamp, StoreError> + Send + 'static,
    ) -> GameResult<Guard> {
        let (loaded, slot) = guard.take();
        let store = self.store.clone();
        let loaded = blocking(move || {
            let stamp = write(&store, &loaded.game, loaded.row.id, loaded.row.version)?;
            Ok(loaded.after_write(stamp))
        })
        .await?;
        Ok(Guard::put(slot, loaded))
    }

    /// The full view of a game: state, history, players, match table.
    pub(crate) async fn view_of(&self, loaded: &Loaded) -> GameResult<View> {
        let table = match loaded.row.match_id {
            Some(match_id) => Some(self.match_table(match_id, Some(loaded)).await?),
            None => None,
        };
        let mut view = View::new(&loaded.row, &loaded.game, table);
        view.names = loaded.live.as_ref().map(|live| Names {
            south: live.names[0].clone(),
            north: live.names[1].clone(),
        });
        Ok(view)
    }

    /// The score table of a match, with `current` standing for its own round.
    async fn match_table(&self, match_id: i64, current: Option<&Loaded>) -> GameResult<MatchView> {
        let store = self.store.clone();
        let current_id = current.map(|c| c.row.id);
        let (rounds, others) = blocking(move || {
            let m = store
                .get_match(match_id)?
                .ok_or_else(|| StoreError::Database(format!("match {match_id} is missing")))?;
            let mut games = Vec::new();
            for row in store.match_games(match_id)? {
                if Some(row.id) == current_id {
                    games.push((row.id, None));
                } else if let Some((_, game)) = store.load(row.id)? {
                    games.push((row.id, Some(game)));
                }
            }
            Ok((m.rounds, games))
        })
        .await?;
        let played: Vec<_> = others
            .into_iter()
            .map(|(id, game)| {
                let game = game
                    .as_ref()
                    .unwrap_or_else(|| &current.expect("current round").game);
                (id, *game.start(), *game.position(), game.outcome())
            })
            .collect();
        Ok(MatchView {
            id: match_id,
            table: matches::table(rounds, &played),
        })
    }

    /// Saves a new game and caches it; its view.
    async fn save_new(
        &self,
        game: Game,
        south: String,
        north: String,
        match_round: Option<(i64, u32)>,
        owner: Option<[u8; 32]>,
    ) -> GameResult<View> {
        let store = self.store.clone();
        let created = blocking(move || {
            let new = NewGame::new(&game, &south, &north)
                .in_match(match_round)
                .owned_by(owner);
            let row = created_row(&store, &new)?;
            Ok(Loaded {
                row,
                game,
                live: None,
            })
        })
        .await;
        let loaded = match created {
            Ok(loaded) => {
                crate::ops::game_created("plain");
                loaded
            }
            Err(GameError::Store(StoreError::Conflict(_))) if match_round.is_some() => {
                return Err(GameError::RoundTaken)
            }
            Err(e) => return Err(e),
        };
        self.keep_new(loaded).await
    }

    /// A game just stored, kept in memory: its view.
    async fn keep_new(&self, loaded: Loaded) -> GameResult<View> {
        let view = self.view_of(&loaded).await?;
        let id = loaded.row.id;
        let slot = self.cache().slot(id);
        // A new id: nobody else can hold its slot yet.
        if let Ok(mut guard) = slot.try_lock() {
            *guard = Some(loaded);
        }
        Ok(view)
    }

    /// A new game under `rules`, owned by the player key whose SHA-256 is `owner`.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn create(
        &self,
        rules: Rules,
        south: String,
        north: String,
        owner: [u8; 32],
    ) -> GameResult<View> {
        self.save_new(Game::new(rules), south, north, None, Some(owner))
            .await
    }

    /// A new Hoyito III match of `rounds` rounds under `rules` (H3.3); round 1's view.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn create_match(
        &self,
        rules: Rules,
        rounds: u32,
        south: String,
        north: String,
        owner: [u8; 32],
    ) -> GameResult<View> {
        let store = self.store.clone();
        let match_id = blocking(move || store.create_match(rounds)).await?;
        let start = matches::round_start(rules, 1, None);
        self.save_new(
            Game::from_position(start),
            south,
            north,
            Some((match_id, 1)),
            Some(owner),
        )
        .await
    }

    /// A new game from a record's game, to replay or continue.
    ///
    /// With `client_id` (the name the page gave a game it played offline), an owner's
    /// uploads of one name store one game: when `owner` has a game of that name already,
    /// made by an earlier upload or one under way, nothing is stored and the answer is that
    /// game's view. The database decides (a unique index on owner and name), so two
    /// uploads at once cannot both store.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn import(
        &self,
        game: Game,
        south: String,
        north: String,
        owner: [u8; 32],
        client_id: Option<String>,
    ) -> GameResult<Imported> {
        let Some(client_id) = client_id else {
            let view = self.save_new(game, south, north, None, Some(owner)).await?;
            return Ok(Imported {
                view,
                created: true,
            });
        };
        let store = self.store.clone();
        // No look before the write: the index refuses the second game, and the game that
        // took the name is read after the refusal, so that a repeat and a race are one path.
        let stored = blocking(move || {
            let new = NewGame::new(&game, &south, &north)
                .owned_by(Some(owner))
                .synced_as(Some(&client_id));
            match created_row(&store, &new) {
                Ok(row) => Ok(Ok(Loaded {
                    row,
                    game,
                    live: None,
                })),
                // This owner's earlier (or concurrent) upload of the name stored it: that game.
                Err(StoreError::Conflict(why)) => store
                    .game_by_client(owner, &client_id)?
                    .map(Err)
                    .ok_or(StoreError::Conflict(why)),
                Err(e) => Err(e),
            }
        })
        .await?;
        match stored {
            Ok(loaded) => {
                crate::ops::game_created("plain");
                Ok(Imported {
                    view: self.keep_new(loaded).await?,
                    created: true,
                })
            }
            Err(id) => Ok(Imported {
                view: self.view(&id.to_string()).await?,
                created: false,
            }),
        }
    }

    /// The `limit` most recently changed games of the player key or account whose SHA-256 is
    /// `owner` (with `account`, the live games whose seat it holds too), in short; a live game that ended otherwise than by the rules (resignation, agreement,
    /// flag, closed) shows that result.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn list(
        &self,
        owner: [u8; 32],
        account: Option<i64>,
        limit: usize,
    ) -> GameResult<Vec<GameSummary>> {
        let store = self.store.clone();
        let (rows, results) = blocking(move || {
            let rows = store.list_with_seats(owner, account, limit)?;
            let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
            Ok((rows, store.live_listings(&ids)?))
        })
        .await?;
        let results: std::collections::HashMap<i64, _> = results.into_iter().collect();
        Ok(rows
            .into_iter()
            .map(|row| {
                let live = results.get(&row.id);
                let in_match = row.match_id.is_some();
                let mut summary = GameSummary::of(row);
                summary.live = live.is_some();
                if let Some(live) = live {
                    // A live game's players are people, by the names they gave.
                    let [south, north] = live.names.clone();
                    summary.south = south.unwrap_or(summary.south);
                    summary.north = north.unwrap_or(summary.north);
                    if let Some(result) = &live.result {
                        crate::views::live::show_result(&mut summary, result, in_match);
                    }
                }
                summary
            })
            .collect())
    }

    /// Deletes a game that is not a round of a match, from memory and the database.
    ///
    /// # Errors
    /// When there is no such game, it is a round of a match, or the store fails.
    pub async fn delete(&self, id: &str, who: &Caller) -> GameResult<()> {
        let guard = self.lock(id).await?;
        may_change(&guard, who)?;
        if guard.row.match_id.is_some() {
            return Err(GameError::InMatch);
        }
        let (loaded, _slot) = guard.take();
        let number = loaded.row.id;
        let store = self.store.clone();
        // The slot stays empty: a request that waited for it reads the store, finds nothing.
        blocking(move || store.delete(number)).await?;
        let slot = self.cache().slot(number);
        self.cache().forget(number, &slot);
        Ok(())
    }

    /// A game's view.
    ///
    /// # Errors
    /// When there is no such game, or it cannot be read.
    pub async fn view(&self, id: &str) -> GameResult<View> {
        let guard = self.lock(id).await?;
        self.view_of(&guard).await
    }

    /// Plays the move named `token` (checking the expected ply), saves it, and answers with
    /// the trace and view (or, `brief`, only the state).
    ///
    /// # Errors
    /// When there is no such game, the client is out of date, the move is not legal, or the
    /// store fails.
    pub async fn play(
        &self,
        id: &str,
        token: &str,
        ply: Option<usize>,
        brief: bool,
        who: &Caller,
    ) -> GameResult<MoveAnswer> {
        let received = std::time::Instant::now();
        let guard = self.lock(id).await?;
        may_change(&guard, who)?;
        let game = &guard.game;
        check_ply(game, ply)?;
        if token.chars().count() > QUOTED {
            return Err(illegal(game, format!("{} is not a move", shorten(token))));
        }
        let mv = game
            .parse_move(token)
            .map_err(|e| illegal(game, e.to_string()))?;
        let (guard, trace) = self.play_and_save(guard, mv).await?;
        crate::ops::move_stored("plain", received);
        let loaded = &*guard;
        if brief {
            let game = &loaded.game;
            return Ok(MoveAnswer::Brief(Box::new(Brief {
                trace,
                ply: game.moves().len(),
                state: sowing::State::of(game),
                end: game.end().map(EndView::of),
            })));
        }
        Ok(MoveAnswer::Full(Box::new(Played {
            trace,
            game: self.view_of(loaded).await?,
        })))
    }

    /// Plays `mv` on the locked game and saves it; its trace. The move is acknowledged (the
    /// lock let go) only once it is committed.
    async fn play_and_save(
        &self,
        mut guard: Guard,
        mv: Move,
    ) -> GameResult<(Guard, Vec<TraceEvent>)> {
        let game = &mut guard.game;
        let mut events = Vec::new();
        if let Err(e) = game.play_traced(mv, &mut events) {
            return Err(illegal(game, e.to_string()));
        }
        let n = game.rules().pits_per_row();
        let guard = self
            .save(guard, |store, game, id, seen| {
                store.append_move(id, game, Some(seen))
            })
            .await?;
        Ok((guard, TraceEvent::all(&events, n)))
    }

    /// Move `ply` (from 1, as given) of a game again, with its trace.
    ///
    /// # Errors
    /// When there is no such game or move.
    pub async fn replay_move(&self, id: &str, ply: &str) -> GameResult<MoveReplay> {
        let guard = self.lock(id).await?;
        let loaded = &*guard;
        let game = &loaded.game;
        let no_move = || GameError::NoSuchMove {
            game: loaded.row.id,
            ply: ply.to_owned(),
        };
        let index = ply
            .parse::<usize>()
            .ok()
            .filter(|&p| (1..=game.moves().len()).contains(&p))
            .ok_or_else(no_move)?;
        move_replay(game, index, no_move)
    }

    /// Takes back the last move (checking the expected ply); the view.
    ///
    /// # Errors
    /// When there is no such game or no move, the client is out of date, a later round of
    /// the match has started, or the store fails.
    pub async fn undo(&self, id: &str, ply: Option<usize>, who: &Caller) -> GameResult<View> {
        let mut guard = self.lock(id).await?;
        let loaded = &mut *guard;
        may_change(loaded, who)?;
        check_ply(&loaded.game, ply)?;
        if loaded.game.moves().is_empty() {
            return Err(GameError::NothingToUndo);
        }
        if let (Some(match_id), Some(round)) = (loaded.row.match_id, loaded.row.round) {
            let store = self.store.clone();
            let later = blocking(move || store.match_games(match_id))
                .await?
                .iter()
                .any(|r| r.round.is_some_and(|r| r > round));
            if later {
                return Err(GameError::RoundClosed);
            }
        }
        loaded.game.undo();
        let guard = self
            .save(guard, |store, game, id, seen| {
                store.truncate(id, game, Some(seen))
            })
            .await?;
        self.view_of(&guard).await
    }

    /// Plays again the last move taken back (checking the expected ply).
    ///
    /// # Errors
    /// When there is no such game or nothing to redo, the client is out of date, or the
    /// store fails.
    pub async fn redo(&self, id: &str, ply: Option<usize>, who: &Caller) -> GameResult<Played> {
        let guard = self.lock(id).await?;
        may_change(&guard, who)?;
        let game = &guard.game;
        check_ply(game, ply)?;
        let Some(mv) = game.redo_moves().next() else {
            return Err(GameError::NothingToRedo);
        };
        let (guard, trace) = self.play_and_save(guard, mv).await?;
        Ok(Played {
            trace,
            game: self.view_of(&guard).await?,
        })
    }

    /// A move from the engine, played or only suggested. The game is let go while the
    /// engine thinks: other requests on it (and every other) go on meanwhile.
    ///
    /// # Errors
    /// When there is no such game, it is over, the client is out of date, the engine is
    /// unknown, busy or silent, the game changed meanwhile, or the store fails.
    pub async fn engine(&self, id: &str, request: EngineRequest) -> GameResult<EngineReply> {
        let (game, ply, side_player, game_id) = {
            let guard = self.lock(id).await?;
            let loaded = &*guard;
            if request.play {
                may_change(loaded, &request.who)?;
            }
            check_ply(&loaded.game, request.ply)?;
            if loaded.game.is_over() {
                return Err(GameError::GameOver);
            }
            let player = match loaded.game.position().to_move() {
                Side::South => loaded.row.south.clone(),
                Side::North => loaded.row.north.clone(),
            };
            (
                loaded.game.clone(),
                loaded.game.moves().len(),
                player,
                loaded.row.id,
            )
        };
        let asked = request
            .engine
            .or_else(|| (side_player != HUMAN).then_some(side_player));
        let spec = Engines::spec(asked.as_deref())?;
        let seed = (game_id as u64)
            .wrapping_mul(1_000_003)
            .wrapping_add(ply as u64);
        let answer = self.engines.choose(spec, seed, game, request.time).await?;
        let chosen = answer.chosen.expect("the engine sets its move");
        if !request.play {
            return Ok(EngineReply {
                engine: answer,
                played: None,
            });
        }
        let guard = self.lock(id).await?;
        if guard.game.moves().len() != ply {
            return Err(GameError::ChangedMeanwhile);
        }
        let (guard, trace) = self.play_and_save(guard, chosen).await?;
        let game = self.view_of(&guard).await?;
        Ok(EngineReply {
            engine: answer,
            played: Some(Played { trace, game }),
        })
    }

    /// Where the analysis of a game's moves as they are now stands: under way here (with
    /// its progress), kept (with the analysis), or not asked for. Anyone who may read the
    /// game may read it.
    ///
    /// # Errors
    /// When there is no such game, or the store fails.
    pub async fn analysis(&self, id: &str) -> GameResult<AnalysisView> {
        let (game_id, game) = {
            let guard = self.lock(id).await?;
            (guard.row.id, guard.game.clone())
        };
        self.analysis_of(game_id, &game).await
    }

    async fn analysis_of(&self, id: i64, game: &Game) -> GameResult<AnalysisView> {
        let moves = crate::store::moves_key(game);
        let mut view = AnalysisView {
            game: id,
            status: "none",
            plies: game.moves().len(),
            progress: None,
            analysis: None,
            created: None,
        };
        if let Standing::Working(job) = self.analyses.standing(id, &moves) {
            let running = job.running.load(std::sync::atomic::Ordering::Relaxed);
            view.status = if running { "running" } else { "queued" };
            view.progress = Some(Progress {
                done: job.done.load(std::sync::atomic::Ordering::Relaxed),
                total: job.total,
            });
            return Ok(view);
        }
        let store = self.store.clone();
        let kept = blocking(move || store.analysis(id)).await?;
        if let Some(kept) = kept.filter(|kept| kept.moves == moves) {
            let body = serde_json::from_str(&kept.body).map_err(|e| {
                GameError::Internal(format!("game {id}: the analysis kept does not read: {e}"))
            })?;
            view.status = "done";
            view.analysis = Some(body);
            view.created = Some(kept.created);
        }
        Ok(view)
    }

    /// Asks for the analysis of a game's moves as they are now: queued (the view with its
    /// progress) unless it is under way or kept already. Anyone who may read the game may
    /// ask; a game between two seats only once it is over (no help while it is played).
    ///
    /// # Errors
    /// When there is no such game, it has no moves, it is a live game still played, too
    /// many analyses wait, or the store fails.
    pub async fn request_analysis(&self, id: &str) -> GameResult<AnalysisView> {
        let (game_id, game, playing) = {
            let guard = self.lock(id).await?;
            let playing = guard
                .live
                .as_ref()
                .is_some_and(|live| live.result.is_none() && !guard.game.is_over());
            (guard.row.id, guard.game.clone(), playing)
        };
        if playing {
            return Err(GameError::Conflict(format!(
                "game {game_id} is being played between two seats: its analysis waits for \
                 its end"
            )));
        }
        if game.moves().is_empty() {
            return Err(GameError::Conflict(format!(
                "game {game_id} has no moves to analyse yet"
            )));
        }
        let view = self.analysis_of(game_id, &game).await?;
        if view.status != "none" {
            return Ok(view);
        }
        let tables = self.engines.tables();
        match self
            .analyses
            .queue(game_id, game.clone(), self.store.clone(), tables)
        {
            Ok(_) => self.analysis_of(game_id, &game).await,
            Err(QueueError::Full) => Err(GameError::Limited(
                "too many analyses are waiting: try again in a minute".to_owned(),
            )),
        }
    }

    /// A game's record, with its tags, as a file to download.
    ///
    /// # Errors
    /// When there is no such game.
    pub async fn record(&self, id: &str) -> GameResult<RecordFile> {
        let guard = self.lock(id).await?;
        let loaded = &*guard;
        let mut record = Record::new(loaded.game.clone());
        record.set_tag("Event", "sowing web");
        record.set_tag("Site", format!("game {}", loaded.row.id));
        record.set_tag(
            "Date",
            loaded.row.created.get(..10).unwrap_or("").replace('-', "."),
        );
        if let Some(round) = loaded.row.round {
            record.set_tag("Round", round.to_string());
        }
        // A live game's players are people with the names they gave, not "human".
        let names = loaded.live.as_ref().map(|live| &live.names);
        for (side, player) in [("South", &loaded.row.south), ("North", &loaded.row.north)] {
            let index = usize::from(side == "North");
            let name = names.and_then(|names| names[index].clone());
            record.set_tag(side, name.unwrap_or_else(|| player.clone()));
        }
        Ok(RecordFile {
            name: format!(
                "sowing-{}-{}.txt",
                loaded.game.rules().variant().name(),
                loaded.row.id
            ),
            text: record.to_string(),
        })
    }

    /// Starts the next round of a match (H3.3); its view.
    ///
    /// # Errors
    /// When there is no such match, its current round goes on, it is over, another request
    /// started the round first, or the store fails.
    pub async fn next_round(&self, match_text: &str, who: &Caller) -> GameResult<View> {
        let unknown = || GameError::UnknownMatch(match_text.to_owned());
        let match_id = match_text.parse::<i64>().map_err(|_| unknown())?;
        let store = self.store.clone();
        let Some(m) = blocking(move || store.get_match(match_id)).await? else {
            return Err(unknown());
        };
        let store = self.store.clone();
        let rows = blocking(move || store.match_games(match_id)).await?;
        let last = rows
            .last()
            .ok_or_else(|| GameError::Internal("a match without rounds".to_owned()))?;
        let (south, north) = (last.south.clone(), last.north.clone());
        let (rules, previous, owner) = {
            let guard = self.lock(&last.id.to_string()).await?;
            let loaded = &*guard;
            if loaded.live.is_some() {
                return Err(GameError::Forbidden(format!(
                    "match {match_id} is played between two seats: each round starts by \
                     itself when the one before ends by the rules"
                )));
            }
            may_change(loaded, who)?;
            (loaded.game.rules(), loaded.game.outcome(), loaded.row.owner)
        };
        let table = self.match_table(m.id, None).await?;
        if !table.table.next_round_ready {
            return Err(if previous.is_none() {
                GameError::RoundNotOver
            } else {
                GameError::MatchOver
            });
        }
        let round = rows.len() as u32 + 1;
        let start = matches::round_start(rules, round, previous);
        self.save_new(
            Game::from_position(start),
            south,
            north,
            Some((m.id, round)),
            owner,
        )
        .await
    }
}

/// Move `ply` (from 1) of `game` played again from the position before it, with its trace;
/// `missing` is the error when the game has no such move.
pub(crate) fn move_replay(
    game: &Game,
    ply: usize,
    missing: impl Fn() -> GameError,
) -> GameResult<MoveReplay> {
    MoveReplay::of(game, ply)
        .map_err(|e| GameError::Internal(format!("a move in memory does not replay: {e}")))?
        .ok_or_else(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(capacity: usize) -> Cache {
        Cache {
            slots: LruCache::new_unbounded(),
            capacity,
        }
    }

    #[test]
    fn the_least_recently_used_idle_game_leaves_first() {
        let mut cache = cache(2);
        drop(cache.slot(1));
        drop(cache.slot(2));
        drop(cache.slot(1)); // 2 is now the least recently used
        drop(cache.slot(3));
        let mut ids: Vec<i64> = cache.slots.iter().map(|(&id, _)| id).collect();
        ids.sort_unstable();
        assert_eq!(ids, [1, 3]);
    }

    #[test]
    fn a_game_in_use_stays_until_it_is_let_go() {
        let mut cache = cache(1);
        let held = cache.slot(1);
        let second = cache.slot(2);
        // Both are held: the bound gives way rather than drop a game in use.
        assert_eq!(cache.slots.len(), 2);
        drop(second);
        drop(cache.slot(3));
        // 2, idle, left to make room for 3; 1 is held, so two are cached for now.
        let ids: Vec<i64> = cache.slots.iter().map(|(&id, _)| id).collect();
        assert_eq!(ids, [1, 3]);
        assert!(Arc::ptr_eq(&held, &cache.slot(1)));
        // Once let go, both leave when the next game comes in.
        drop(held);
        drop(cache.slot(4));
        let ids: Vec<i64> = cache.slots.iter().map(|(&id, _)| id).collect();
        assert_eq!(ids, [4]);
    }
}
