//! The JSON API (documented in `docs/api.md`): games, moves, undo and redo, the engine,
//! records and matches. Every error is a status with a JSON body `{"error": "..."}`.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use sowing::{
    CasaRows, End, Event, FinalFour, Game, Leftover, Move, Position, Record, Rules, Side,
    TakeReason, Variant,
};
use sowing_engine::PlayerSpec;

use crate::engine::{EngineError, Engines};
use crate::matches;
use crate::store::{GameRow, Store};

/// A player that is a person at the screen rather than an engine.
pub const HUMAN: &str = "human";

/// The server's shared state: the database, the games in play, the engines.
pub struct App {
    store: Arc<Store>,
    /// Games loaded from the database, each behind its own lock so that moves to one game
    /// are applied (and saved) one at a time while other games go on.
    games: std::sync::Mutex<HashMap<i64, Arc<tokio::sync::Mutex<Option<Loaded>>>>>,
    engines: Engines,
}

struct Loaded {
    row: GameRow,
    game: Game,
}

impl App {
    /// The app over a database, with at most `engine_threads` searches at once.
    pub fn new(store: Store, engine_threads: usize) -> App {
        App {
            store: Arc::new(store),
            games: Default::default(),
            engines: Engines::new(engine_threads),
        }
    }

    /// The database, for checks.
    pub fn store(&self) -> &Store {
        &self.store
    }
}

type Shared = State<Arc<App>>;

/// An API error: a status and a message, sent as `{"error": message, ...}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    extra: Option<Value>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            extra: None,
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    fn unknown_game(id: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, format!("unknown game {id:?}"))
    }

    fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let (Some(Value::Object(extra)), Value::Object(map)) = (self.extra, &mut body) {
            map.extend(extra);
        }
        (self.status, Json(body)).into_response()
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body; an empty body reads as `{}`. Malformed JSON is a 400, JSON of the
/// wrong shape a 422, an oversized body a 413, each with a JSON error body.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(text).map(JsonBody).map_err(|e| {
            let status = match e.classify() {
                serde_json::error::Category::Data => StatusCode::UNPROCESSABLE_ENTITY,
                _ => StatusCode::BAD_REQUEST,
            };
            ApiError::new(status, format!("request body: {e}"))
        })
    }
}

/// Query parameters; malformed ones are a 400 with a JSON error body, like everything else.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(value)| QueryParams(value))
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))
    }
}

/// Runs database work off the async runtime.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("database task failed: {e}")))?
        .map_err(ApiError::internal)
}

fn parse_id(text: &str) -> ApiResult<i64> {
    text.parse::<i64>()
        .ok()
        .filter(|&id| id > 0)
        .ok_or_else(|| ApiError::unknown_game(text))
}

impl App {
    /// The game's slot, loaded from the database if needed, locked for the caller.
    async fn lock(&self, id_text: &str) -> ApiResult<tokio::sync::OwnedMutexGuard<Option<Loaded>>> {
        let id = parse_id(id_text)?;
        let slot = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(id)
            .or_default()
            .clone();
        let mut guard = slot.lock_owned().await;
        if guard.is_none() {
            let store = self.store.clone();
            match blocking(move || store.load(id)).await? {
                Some((row, game)) => *guard = Some(Loaded { row, game }),
                None => {
                    drop(guard);
                    self.games
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .remove(&id);
                    return Err(ApiError::unknown_game(id_text));
                }
            }
        }
        Ok(guard)
    }

    /// The full view of a game: state, history, players, match table.
    async fn view(&self, loaded: &Loaded) -> ApiResult<Value> {
        let table = match loaded.row.match_id {
            Some(match_id) => Some(self.match_table(match_id, Some(loaded)).await?),
            None => None,
        };
        Ok(view(&loaded.row, &loaded.game, table))
    }

    /// The score table of a match, with `current` standing for its own round.
    async fn match_table(&self, match_id: i64, current: Option<&Loaded>) -> ApiResult<Value> {
        let store = self.store.clone();
        let current_id = current.map(|c| c.row.id);
        let (rounds, others) = blocking(move || {
            let m = store
                .get_match(match_id)?
                .ok_or_else(|| format!("match {match_id} is missing"))?;
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
        let table = matches::table(rounds, &played);
        let mut value = serde_json::to_value(&table).expect("a table serialises");
        value["id"] = json!(match_id);
        Ok(value)
    }

    async fn save_new(
        &self,
        game: Game,
        south: String,
        north: String,
        match_round: Option<(i64, u32)>,
    ) -> ApiResult<Value> {
        let store = self.store.clone();
        let saved = game.clone();
        let id = blocking(move || {
            let id = store.create_game(&saved, &south, &north, match_round)?;
            store
                .game_row(id)?
                .map(|row| (id, row))
                .ok_or_else(|| "a game vanished as it was created".to_owned())
        })
        .await;
        let (id, row) = match id {
            Ok(ok) => ok,
            Err(e) if match_round.is_some() && e.message.contains("UNIQUE") => {
                return Err(ApiError::conflict("that round has already been started"))
            }
            Err(e) => return Err(e),
        };
        let loaded = Loaded { row, game };
        let value = self.view(&loaded).await?;
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, Arc::new(tokio::sync::Mutex::new(Some(loaded))));
        Ok(value)
    }

    /// Plays `mv` (checking the expected ply), saves it, and answers with the trace and view
    /// (or, `brief`, only the state: for clients that keep their own history).
    async fn play(&self, id: &str, mv: MoveRequest, brief: bool) -> ApiResult<Value> {
        let mut guard = self.lock(id).await?;
        let loaded = guard.as_mut().expect("locked games are loaded");
        check_ply(&loaded.game, mv.ply)?;
        let chosen = match loaded.game.parse_move(&mv.token) {
            Ok(m) => m,
            Err(e) => return Err(illegal(&loaded.game, e.to_string())),
        };
        let trace = self.play_and_save(loaded, chosen).await?;
        if brief {
            let game = &loaded.game;
            return Ok(json!({
                "trace": trace,
                "ply": game.moves().len(),
                "state": sowing::State::of(game),
                "end": game.end().map(end_reason),
            }));
        }
        Ok(json!({ "trace": trace, "game": self.view(loaded).await? }))
    }

    async fn play_and_save(&self, loaded: &mut Loaded, mv: Move) -> ApiResult<Vec<Value>> {
        let mut next = loaded.game.clone();
        let mut events = Vec::new();
        if let Err(e) = next.play_traced(mv, &mut events) {
            return Err(illegal(&loaded.game, e.to_string()));
        }
        let store = self.store.clone();
        let id = loaded.row.id;
        let saved = next.clone();
        blocking(move || {
            store.append_move(id, &saved)?;
            store
                .game_row(id)?
                .ok_or_else(|| format!("game {id} vanished"))
        })
        .await
        .map(|row| loaded.row = row)?;
        // Acknowledged only now that the move is committed.
        loaded.game = next;
        let n = loaded.game.rules().pits_per_row();
        Ok(events.iter().map(|e| event(*e, n)).collect())
    }
}

fn illegal(game: &Game, message: String) -> ApiError {
    let mut error = ApiError::bad(message);
    error.extra = Some(json!({ "legal": legal(game) }));
    error
}

fn check_ply(game: &Game, expected: Option<usize>) -> ApiResult<()> {
    match expected {
        Some(ply) if ply != game.moves().len() => Err(ApiError::conflict(format!(
            "the game is at move {}, not {ply}: reload it",
            game.moves().len()
        ))),
        _ => Ok(()),
    }
}

fn legal(game: &Game) -> Vec<String> {
    game.legal_names()
}

/// One step of a move's trace, for the page's animation.
fn event(event: Event, n: usize) -> Value {
    let pit = |p: sowing::Pit| json!({ "pit": p.index(), "name": p.letter(n).to_string() });
    let mut value = match event {
        Event::Lift {
            pit: p,
            seeds,
            relay,
        } => {
            let mut v = pit(p);
            v["seeds"] = json!(seeds);
            v["relay"] = json!(relay);
            v["kind"] = json!("lift");
            v
        }
        Event::Drop { pit: p } => pit(p),
        Event::Skip { pit: p } => pit(p),
        Event::Take {
            pit: p,
            seeds,
            by,
            why,
        } => {
            let mut v = pit(p);
            v["seeds"] = json!(seeds);
            v["by"] = json!(by.name());
            v["why"] = json!(match why {
                TakeReason::Capture => "capture",
                TakeReason::LastFour => "last-four",
                TakeReason::Leftover => "leftover",
            });
            v
        }
        Event::ExtraTurn | Event::Pass => json!({}),
    };
    value["kind"] = json!(match event {
        Event::Lift { .. } => "lift",
        Event::Drop { .. } => "drop",
        Event::Skip { .. } => "skip",
        Event::Take { .. } => "take",
        Event::ExtraTurn => "extra-turn",
        Event::Pass => "pass",
    });
    value
}

fn end_reason(end: End) -> Value {
    let (reason, side) = match end {
        End::BoardCleared => ("board-cleared", None),
        End::LastFour(side) => ("last-four", Some(side.name())),
        End::CannotFeed => ("cannot-feed", None),
        End::Repetition => ("repetition", None),
    };
    json!({ "reason": reason, "to": side, "text": end.describe() })
}

fn snapshot(position: &Position) -> Value {
    let captured = position.captured();
    json!({
        "pits": position.pits(),
        "captured": [captured.south, captured.north],
        "to_move": position.to_move().name(),
    })
}

fn rules_value(rules: Rules) -> Value {
    json!({
        "game": rules.variant().name(),
        "pits": rules.pits_per_row(),
        "casa_rows": rules.casa_rows.name(),
        "leftover": rules.leftover.name(),
        "final_four": rules.final_four.name(),
    })
}

/// The full view of a game for the page and API clients.
fn view(row: &GameRow, game: &Game, table: Option<Value>) -> Value {
    let n = game.rules().pits_per_row();
    let history: Vec<Value> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(ply, mv)| {
            let before = game.position_at(ply).expect("a position per move");
            let after = game.position_at(ply + 1).expect("a position per move");
            json!({
                "ply": ply + 1,
                "move": mv.name(n).to_string(),
                "side": before.to_move().name(),
                "after": snapshot(after),
            })
        })
        .collect();
    json!({
        "id": row.id,
        "state": sowing::State::of(game),
        "rules": rules_value(game.rules()),
        "players": { "south": row.south, "north": row.north },
        "ply": game.moves().len(),
        "start": snapshot(game.start()),
        "history": history,
        "redo": game.redo_moves().map(|m| m.name(n).to_string()).collect::<Vec<_>>(),
        "end": game.end().map(end_reason),
        "match": table,
        "round": row.round,
        "created": row.created,
        "updated": row.updated,
    })
}

fn summary(row: &GameRow) -> Value {
    let mut fields = row.start.split(' ');
    let variant = fields.next().unwrap_or("");
    let pits = fields.next().map_or(0, |rows| {
        rows.split('/').next().unwrap_or("").split(',').count()
    });
    json!({
        "id": row.id,
        "game": variant,
        "pits": pits,
        "south": row.south,
        "north": row.north,
        "plies": row.plies,
        "result": row.result,
        "termination": row.termination,
        "match": row.match_id,
        "round": row.round,
        "created": row.created,
        "updated": row.updated,
    })
}

fn check_player(text: Option<String>) -> ApiResult<String> {
    let text = text.unwrap_or_else(|| HUMAN.to_owned());
    if text == HUMAN {
        return Ok(text);
    }
    text.parse::<PlayerSpec>()
        .map(|_| text.clone())
        .map_err(|e| ApiError::bad(format!("player {text:?}: {e}")))
}

fn option<T: std::str::FromStr>(name: &str, value: Option<String>) -> ApiResult<Option<T>>
where
    T::Err: std::fmt::Display,
{
    value
        .map(|v| {
            v.parse::<T>()
                .map_err(|e| ApiError::bad(format!("{name}: {e}")))
        })
        .transpose()
}

/// `POST /api/games`: a new game or match.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    game: String,
    pits: Option<usize>,
    casa_rows: Option<String>,
    leftover: Option<String>,
    final_four: Option<String>,
    south: Option<String>,
    north: Option<String>,
    /// Hoyito III only: play a match of this many rounds (H3.3).
    rounds: Option<u32>,
}

pub(crate) async fn create_game(
    State(app): Shared,
    JsonBody(new): JsonBody<NewGame>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let variant: Variant = new
        .game
        .parse()
        .map_err(|e| ApiError::bad(format!("{e}")))?;
    let mut rules = Rules::new(variant);
    if let Some(pits) = new.pits {
        rules = rules
            .with_pits(pits)
            .map_err(|e| ApiError::bad(e.to_string()))?;
    }
    let casa_rows: Option<CasaRows> = option("casa_rows", new.casa_rows)?;
    let leftover: Option<Leftover> = option("leftover", new.leftover)?;
    let final_four: Option<FinalFour> = option("final_four", new.final_four)?;
    let not_for = |what: &str| ApiError::bad(format!("{what} does not apply to {variant}"));
    if let Some(c) = casa_rows {
        if !variant.is_hoyito() {
            return Err(not_for("casa_rows"));
        }
        rules.casa_rows = c;
    }
    if let Some(l) = leftover {
        if variant != Variant::Ayoayo {
            return Err(not_for("leftover"));
        }
        rules.leftover = l;
    }
    if let Some(f) = final_four {
        if variant != Variant::HoyitoIII || new.rounds.is_some() {
            return Err(not_for("final_four (a match decides it by round)"));
        }
        rules.final_four = f;
    }
    let south = check_player(new.south)?;
    let north = check_player(new.north)?;
    let value = match new.rounds {
        None => app.save_new(Game::new(rules), south, north, None).await?,
        Some(rounds) => {
            if variant != Variant::HoyitoIII {
                return Err(not_for("rounds"));
            }
            if !(1..=matches::MAX_ROUNDS).contains(&rounds) {
                return Err(ApiError::bad(format!(
                    "rounds: {rounds} (expected 1 to {})",
                    matches::MAX_ROUNDS
                )));
            }
            let store = app.store.clone();
            let match_id = blocking(move || store.create_match(rounds)).await?;
            let start = matches::round_start(rules, 1, None);
            app.save_new(
                Game::from_position(start),
                south,
                north,
                Some((match_id, 1)),
            )
            .await?
        }
    };
    Ok((StatusCode::CREATED, Json(value)))
}

#[derive(Deserialize)]
pub(crate) struct ListQuery {
    limit: Option<usize>,
}

pub(crate) async fn list_games(
    State(app): Shared,
    QueryParams(query): QueryParams<ListQuery>,
) -> ApiResult<Json<Value>> {
    let limit = query.limit.unwrap_or(100).clamp(1, 1000);
    let store = app.store.clone();
    let rows = blocking(move || store.list(limit)).await?;
    Ok(Json(
        json!({ "games": rows.iter().map(summary).collect::<Vec<_>>() }),
    ))
}

pub(crate) async fn get_game(State(app): Shared, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let guard = app.lock(&id).await?;
    let loaded = guard.as_ref().expect("locked games are loaded");
    Ok(Json(app.view(loaded).await?))
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    /// The number of moves the client saw; a mismatch is refused (409).
    ply: Option<usize>,
}

struct MoveRequest {
    token: String,
    ply: Option<usize>,
}

/// `?brief=true` answers a move with the state alone.
#[derive(Deserialize)]
pub(crate) struct MoveQuery {
    #[serde(default)]
    brief: bool,
}

pub(crate) async fn play_move(
    State(app): Shared,
    Path(id): Path<String>,
    QueryParams(query): QueryParams<MoveQuery>,
    JsonBody(body): JsonBody<MoveBody>,
) -> ApiResult<Json<Value>> {
    app.play(
        &id,
        MoveRequest {
            token: body.mv,
            ply: body.ply,
        },
        query.brief,
    )
    .await
    .map(Json)
}

/// `GET /api/games/{id}/moves/{ply}`: move `ply` (from 1) again, with its trace, for
/// replaying a game with the animation.
pub(crate) async fn move_trace(
    State(app): Shared,
    Path((id, ply)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let guard = app.lock(&id).await?;
    let game = &guard.as_ref().expect("locked games are loaded").game;
    let no_move = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("game {id} has no move {ply:?}"),
        )
    };
    let index = ply
        .parse::<usize>()
        .ok()
        .filter(|&p| (1..=game.moves().len()).contains(&p))
        .ok_or_else(no_move)?;
    let mv = game.moves()[index - 1];
    let before = *game.position_at(index - 1).ok_or_else(no_move)?;
    let mut position = before;
    let mut trace = Vec::new();
    position
        .play_traced(mv, &mut trace)
        .map_err(|e| ApiError::internal(format!("a stored move does not replay: {e}")))?;
    let n = game.rules().pits_per_row();
    Ok(Json(json!({
        "ply": index,
        "move": mv.name(n).to_string(),
        "side": before.to_move().name(),
        "before": snapshot(&before),
        "after": snapshot(game.position_at(index).ok_or_else(no_move)?),
        "trace": trace.iter().map(|e| event(*e, n)).collect::<Vec<_>>(),
    })))
}

/// Undo and redo take an optional expected ply.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlyBody {
    ply: Option<usize>,
}

pub(crate) async fn undo(
    State(app): Shared,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<PlyBody>,
) -> ApiResult<Json<Value>> {
    let mut guard = app.lock(&id).await?;
    let loaded = guard.as_mut().expect("locked games are loaded");
    check_ply(&loaded.game, body.ply)?;
    if loaded.game.moves().is_empty() {
        return Err(ApiError::conflict("there is no move to undo"));
    }
    if let (Some(match_id), Some(round)) = (loaded.row.match_id, loaded.row.round) {
        let store = app.store.clone();
        let later = blocking(move || store.match_games(match_id))
            .await?
            .iter()
            .any(|r| r.round.is_some_and(|r| r > round));
        if later {
            return Err(ApiError::conflict(
                "a later round of this match has started: this round can no longer change",
            ));
        }
    }
    let mut next = loaded.game.clone();
    next.undo();
    let store = app.store.clone();
    let game_id = loaded.row.id;
    let saved = next.clone();
    loaded.row = blocking(move || {
        store.truncate(game_id, &saved)?;
        store
            .game_row(game_id)?
            .ok_or_else(|| format!("game {game_id} vanished"))
    })
    .await?;
    loaded.game = next;
    Ok(Json(json!({ "game": app.view(loaded).await? })))
}

pub(crate) async fn redo(
    State(app): Shared,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<PlyBody>,
) -> ApiResult<Json<Value>> {
    let mut guard = app.lock(&id).await?;
    let loaded = guard.as_mut().expect("locked games are loaded");
    check_ply(&loaded.game, body.ply)?;
    let Some(mv) = loaded.game.redo_moves().next() else {
        return Err(ApiError::conflict("there is no move to redo"));
    };
    let trace = app.play_and_save(loaded, mv).await?;
    Ok(Json(
        json!({ "trace": trace, "game": app.view(loaded).await? }),
    ))
}

/// `POST /api/games/{id}/engine`: a move from the engine, played or only suggested.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineBody {
    /// Thinking time in milliseconds (default 1000, at most 30000).
    time_ms: Option<u64>,
    /// Play the move (true) or only suggest it (a hint, the default).
    #[serde(default)]
    play: bool,
    /// The engine to ask; default: the side to move's player when it is a computer, else
    /// the hint engine.
    engine: Option<String>,
    /// The number of moves the client saw.
    ply: Option<usize>,
}

pub(crate) async fn engine(
    State(app): Shared,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<EngineBody>,
) -> ApiResult<Json<Value>> {
    let time = Duration::from_millis(body.time_ms.unwrap_or(1000).clamp(1, 30_000));
    // Copy the game out and let go of it while the engine thinks: other requests on this
    // game (and every other) go on meanwhile.
    let (game, ply, side_player, game_id) = {
        let guard = app.lock(&id).await?;
        let loaded = guard.as_ref().expect("locked games are loaded");
        check_ply(&loaded.game, body.ply)?;
        if loaded.game.is_over() {
            return Err(ApiError::conflict("the game is over"));
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
    let asked = body
        .engine
        .or_else(|| (side_player != HUMAN).then_some(side_player));
    let spec = Engines::spec(asked.as_deref()).map_err(engine_error)?;
    let seed = (game_id as u64)
        .wrapping_mul(1_000_003)
        .wrapping_add(ply as u64);
    let answer = app
        .engines
        .choose(spec, seed, game, time)
        .await
        .map_err(engine_error)?;
    let chosen = answer.chosen.expect("the engine sets its move");
    if !body.play {
        return Ok(Json(json!({ "engine": answer })));
    }
    let mut guard = app.lock(&id).await?;
    let loaded = guard.as_mut().expect("locked games are loaded");
    if loaded.game.moves().len() != ply {
        return Err(ApiError::conflict(
            "the game changed while the engine was thinking: reload it",
        ));
    }
    let trace = app.play_and_save(loaded, chosen).await?;
    Ok(Json(
        json!({ "engine": answer, "trace": trace, "game": app.view(loaded).await? }),
    ))
}

fn engine_error(error: EngineError) -> ApiError {
    match error {
        EngineError::UnknownPlayer(message) => ApiError::bad(message),
        EngineError::Busy => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "the engine is busy with other requests: try again",
        ),
        EngineError::NoAnswer => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the engine did not answer in time",
        ),
    }
}

pub(crate) async fn export_record(
    State(app): Shared,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let guard = app.lock(&id).await?;
    let loaded = guard.as_ref().expect("locked games are loaded");
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
    record.set_tag("South", loaded.row.south.clone());
    record.set_tag("North", loaded.row.north.clone());
    let name = format!(
        "sowing-{}-{}.txt",
        loaded.game.rules().variant().name(),
        loaded.row.id
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        record.to_string(),
    )
        .into_response())
}

/// `POST /api/records`: a game from an uploaded record, to replay or continue.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordBody {
    record: String,
    south: Option<String>,
    north: Option<String>,
}

pub(crate) async fn import_record(
    State(app): Shared,
    JsonBody(body): JsonBody<RecordBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let record = Record::parse(&body.record).map_err(|e| ApiError::bad(e.to_string()))?;
    let south = check_player(body.south)?;
    let north = check_player(body.north)?;
    let value = app.save_new(record.game, south, north, None).await?;
    Ok((StatusCode::CREATED, Json(value)))
}

pub(crate) async fn next_round(
    State(app): Shared,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let match_id = id
        .parse::<i64>()
        .map_err(|_| ApiError::new(StatusCode::NOT_FOUND, format!("unknown match {id:?}")))?;
    let store = app.store.clone();
    let Some(m) = blocking(move || store.get_match(match_id)).await? else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("unknown match {id:?}"),
        ));
    };
    let store = app.store.clone();
    let rows = blocking(move || store.match_games(match_id)).await?;
    let last = rows
        .last()
        .ok_or_else(|| ApiError::internal("a match without rounds"))?;
    let (south, north) = (last.south.clone(), last.north.clone());
    let last_id = last.id.to_string();
    let (rules, previous) = {
        let guard = app.lock(&last_id).await?;
        let loaded = guard.as_ref().expect("locked games are loaded");
        (loaded.game.rules(), loaded.game.outcome())
    };
    let table = app.match_table(m.id, None).await?;
    if table["next_round_ready"] != json!(true) {
        return Err(ApiError::conflict(if previous.is_none() {
            "the current round is not over"
        } else {
            "the match is over"
        }));
    }
    let round = rows.len() as u32 + 1;
    let start = matches::round_start(rules, round, previous);
    let value = app
        .save_new(
            Game::from_position(start),
            south,
            north,
            Some((m.id, round)),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(value)))
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such API route")
}

pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed on this route",
    )
}
