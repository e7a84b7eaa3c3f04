//! The requests the page's engine worker makes, each a JSON object with an `op`, and their
//! JSON replies (`{"error": "…"}` when a request is refused). The replies of `search` and
//! `table_values` have the shapes of the server's `POST /api/games/{id}/engine` and
//! `GET /api/games/{id}/tables` (docs/api.md), so the page reads either.
//!
//! `record` reads a game record or writes one (docs/notation.md); `view`, `replay` and
//! `analyse` answer as the server's game view, `GET
//! /api/games/{id}/moves/{ply}` and analysis do, for the games the page plays offline.
//!
//! A game is a start position (`position`, position text) and the moves played from it
//! (`moves`, move names), so the repetition rule (C.3) sees the whole history.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use sowing::{Game, Position, Record, Rules, Side, State, Variant};
use sowing_engine::random::{self, Rng};
use sowing_engine::{analysis, tables, Engine, Info, Limits, PlayerSpec, Score, TableSet};
use sowing_tables::{compressed, file, Family, Tables, Values, MAX_LAYER_SEEDS};
use sowing_views::{history, EndView, MoveReplay, RulesView, Snapshot};

/// The engine and the tables of one page, kept between requests.
pub struct Session {
    /// The search engine, kept for its table's memory; each search starts a new game on it.
    engine: Option<Engine>,
    /// Each family's tables, as the page loaded them.
    tables: HashMap<Family, Arc<Tables>>,
    /// The same tables as the engine takes them.
    set: Option<Arc<TableSet>>,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

/// A refused request: the message for the page.
type Refusal = String;

impl Session {
    /// A session with no tables.
    pub fn new() -> Session {
        Session {
            engine: None,
            tables: HashMap::new(),
            set: None,
        }
    }

    /// The JSON reply to the JSON `request`, with `data` its bytes (a `tables` request's
    /// layer files, one after another).
    pub fn answer(&mut self, request: &[u8], data: &[u8]) -> String {
        let reply = serde_json::from_slice::<Value>(request)
            .map_err(|e| format!("the request is not JSON: {e}"))
            .and_then(|request| self.dispatch(&request, data));
        match reply {
            Ok(value) => value.to_string(),
            Err(why) => json!({ "error": why }).to_string(),
        }
    }

    fn dispatch(&mut self, request: &Value, data: &[u8]) -> Result<Value, Refusal> {
        match text(request, "op")? {
            "start" => start(request),
            "state" => state(request),
            "perft" => perft(request),
            "search" => self.search(request),
            "tables" => self.load_tables(request, data),
            "table_values" => self.table_values(request),
            "family" => family(request),
            "random_games" => random_games(request),
            "view" => view(request),
            "replay" => replay(request),
            "record" => record(request),
            "analyse" => self.analyse(request),
            op => Err(format!(
                "unknown op {op:?} (expected start, state, perft, search, tables, \
                 table_values, family or random_games)"
            )),
        }
    }

    /// `search`: the move of an engine spec (`level:1` … `level:6`, `perfect` or
    /// `search:…`, default the hint engine `level:6`) with `seed` (default 0) within
    /// `time_ms`, `nodes` and `depth` (each optional), as the server answers it: each search
    /// starts from a clean table, so a level limited by nodes gives the same answer to the
    /// same request every time.
    fn search(&mut self, request: &Value) -> Result<Value, Refusal> {
        let game = game(request)?;
        if game.is_over() {
            return Err("the game is over".into());
        }
        let spec: PlayerSpec = optional_text(request, "engine")?
            .unwrap_or("level:6")
            .parse()
            .map_err(|e| format!("{e}"))?;
        let settings = spec.search_settings().ok_or_else(|| {
            format!("{spec} does not run in the browser (levels, perfect and search do)")
        })?;
        let seed = optional_number(request, "seed")?.unwrap_or(0);
        let limits = Limits {
            time: optional_number(request, "time_ms")?
                .map(|ms| Duration::from_millis(ms.clamp(1, 30_000))),
            nodes: optional_number(request, "nodes")?.map(|n| n.max(1)),
            depth: optional_number(request, "depth")?.map(|d| d.clamp(1, 240) as u32),
            ..Limits::default()
        };
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(settings.clone(), seed));
        engine.set_settings(settings);
        engine.set_seed(seed);
        engine.new_game();
        engine.set_tables(self.set.clone());
        let mut last: Option<Info> = None;
        let result = engine.go(&game, &limits, &mut |info| last = Some(info.clone()));
        self.engine = Some(engine);
        let n = game.rules().pits_per_row();
        let to_move = game.position().to_move();
        let names = |moves: &[sowing::Move]| -> Vec<String> {
            moves.iter().map(|m| m.name(n).to_string()).collect()
        };
        Ok(json!({
            "engine": spec.to_string(),
            "move": result.best.name(n).to_string(),
            "score": last.as_ref().map(|i| evaluation(i.score, to_move)),
            "depth": last.as_ref().map(|i| i.depth),
            "nodes": last.as_ref().map(|i| i.nodes),
            "pv": last.map(|i| names(&i.pv)).unwrap_or_default(),
        }))
    }

    /// `tables`: the layer files of one family (`position`: any position of the game, for
    /// its rules), given one after another in the data, `lengths` bytes each; raw
    /// (`.sowt`) or compressed (`.sowz`), each checked as when read from disk. They replace
    /// what the session held for that family.
    fn load_tables(&mut self, request: &Value, data: &[u8]) -> Result<Value, Refusal> {
        let rules = position(request)?.rules();
        let family = Family::of(rules);
        let lengths = request
            .get("lengths")
            .and_then(Value::as_array)
            .ok_or("lengths: expected an array of byte counts")?;
        let name = format!("{family} (loaded in the page)");
        let path = Path::new(&name);
        let mut layers: Vec<Option<Values>> = Vec::new();
        let mut at = 0usize;
        for length in lengths {
            let length = length.as_u64().ok_or("lengths: expected whole numbers")? as usize;
            let bytes = data
                .get(at..at.saturating_add(length))
                .ok_or("the data is shorter than the lengths say")?;
            at += length;
            let seeds = layer_seeds(bytes).ok_or("a layer file with no header")?;
            if !(1..=MAX_LAYER_SEEDS).contains(&seeds) {
                return Err(format!("a layer of {seeds} seeds"));
            }
            let values = if bytes.starts_with(compressed::MAGIC) {
                Values::Compressed(
                    compressed::Layer::new(Box::new(bytes.to_vec()), path, &family, seeds)
                        .map_err(|e| e.to_string())?,
                )
            } else {
                file::check_raw(bytes, path, &family, seeds).map_err(|e| e.to_string())?;
                Values::Owned(bytes[file::HEADER_LEN..].to_vec())
            };
            if layers.len() < seeds {
                layers.resize_with(seeds, || None);
            }
            if layers[seeds - 1].replace(values).is_some() {
                return Err(format!("layer {seeds} given twice"));
            }
        }
        if at != data.len() {
            return Err("the data is longer than the lengths say".into());
        }
        let tables = Tables::from_layers(path, family, layers);
        let reply = json!({
            "family": family.to_string(),
            "max_seeds": tables.max_seeds(),
            "layers": tables.layers_built(),
        });
        self.tables.insert(family, Arc::new(tables));
        self.set = Some(Arc::new(TableSet::in_memory(
            self.tables.values().cloned().collect(),
        )));
        Ok(reply)
    }

    /// `analyse`: the analysis after the game (`nodes` a position, at most a million) as the
    /// server's `GET /api/games/{id}/analysis` gives it done, with the tables the page loaded.
    fn analyse(&self, request: &Value) -> Result<Value, Refusal> {
        let game = game(request)?;
        let nodes = optional_number(request, "nodes")?.unwrap_or(analysis::DEFAULT_NODES);
        if !(1..=1_000_000).contains(&nodes) {
            return Err("nodes: from 1 to 1000000".into());
        }
        let analysis = analysis::analyse_game(&game, nodes, self.set.clone(), &mut |_| {});
        serde_json::to_value(analysis).map_err(|e| format!("{e}"))
    }

    /// `table_values`: the exact value of each legal move, as the server's
    /// `GET /api/games/{id}/tables` answers (`building` is always false here).
    fn table_values(&self, request: &Value) -> Result<Value, Refusal> {
        let game = game(request)?;
        let held = self.tables.get(&Family::of(game.rules()));
        let mut reply = json!({
            "max_seeds": held.map(|t| t.max_seeds()),
            "building": false,
            "inside": false,
            "not_built": false,
            "value": null,
            "moves": [],
        });
        let Some(held) = held else {
            return Ok(reply);
        };
        let seeds = game.position().seeds_on_board();
        reply["not_built"] =
            json!(!game.is_over() && seeds <= held.max_seeds() && !held.built(seeds));
        if let Some(moves) = tables::move_values(held, &game) {
            let n = game.rules().pits_per_row();
            reply["inside"] = json!(true);
            reply["value"] = json!(moves.iter().map(|m| m.1).max());
            reply["moves"] = moves
                .into_iter()
                .map(|(mv, value)| json!({ "move": mv.name(n).to_string(), "value": value }))
                .collect();
        }
        Ok(reply)
    }
}

/// The layer a table file's header names (bytes 20–23 of either form), if it has a header.
fn layer_seeds(bytes: &[u8]) -> Option<usize> {
    let word = bytes.get(20..24)?;
    Some(u32::from_le_bytes(word.try_into().ok()?) as usize)
}

/// An evaluation from South's point of view, as the server's engine route gives it.
fn evaluation(score: Score, to_move: Side) -> Value {
    let south = if to_move == Side::South {
        score
    } else {
        -score
    };
    json!({
        "kind": if score.is_proven() { "proven" } else { "estimate" },
        "south": south.seeds(),
        "text": score.to_string(),
    })
}

/// `start`: the start position of `game` (`hoyito-ii`, `hoyito-iii`, `ayoayo`) on
/// `pits_per_row` (optional) with `options` (an object of rule options, optional).
fn start(request: &Value) -> Result<Value, Refusal> {
    let variant: Variant = text(request, "game")?.parse().map_err(|e| format!("{e}"))?;
    let mut rules = Rules::new(variant);
    if let Some(pits) = optional_number(request, "pits_per_row")? {
        rules = rules.with_pits(pits as usize).map_err(|e| format!("{e}"))?;
    }
    if let Some(options) = request.get("options") {
        let options = options
            .as_object()
            .ok_or("options: expected an object of option names and values")?;
        for (name, value) in options {
            let value = value
                .as_str()
                .ok_or_else(|| format!("options.{name}: expected text"))?;
            rules.set_option(name, value).map_err(|e| format!("{e}"))?;
        }
    }
    Ok(json!({ "position": Position::start(rules).to_string() }))
}

/// `family`: the name of the tables of `position`'s game and options (as the server's
/// `GET /api/tables/{family}` and `sow tables` name them).
fn family(request: &Value) -> Result<Value, Refusal> {
    Ok(json!({ "family": Family::of(position(request)?.rules()).name() }))
}

/// `state`: the game's JSON state (RULES.md), its position text and how it ended.
fn state(request: &Value) -> Result<Value, Refusal> {
    let game = game(request)?;
    let end = game.end();
    Ok(json!({
        "state": State::of(&game),
        "position": game.position().to_string(),
        "end": end.map(|e| e.code()),
        "end_side": end.and_then(|e| e.side()).map(Side::name),
    }))
}

/// `view`: the parts of the server's game view (docs/api.md) that the moves make: the
/// state, rules, start, history and end, and `ply`.
fn view(request: &Value) -> Result<Value, Refusal> {
    let game = game(request)?;
    Ok(json!({
        "state": State::of(&game),
        "rules": RulesView::of(game.rules()),
        "ply": game.moves().len(),
        "start": Snapshot::of(game.start()),
        "history": history(&game),
        "end": game.end().map(EndView::of),
    }))
}

/// `replay`: move `ply` (from 1) with its trace, as `GET /api/games/{id}/moves/{ply}`.
fn replay(request: &Value) -> Result<Value, Refusal> {
    let game = game(request)?;
    let ply = number(request, "ply")? as usize;
    match MoveReplay::of(&game, ply).map_err(|e| format!("{e}"))? {
        Some(replay) => serde_json::to_value(replay).map_err(|e| format!("{e}")),
        None => Err(format!("ply: the game has no move {ply}")),
    }
}

/// `record`: with `record` (a record's text), its game as a start `position` and `moves`;
/// else the record of the game (`position` and `moves`), with its result.
fn record(request: &Value) -> Result<Value, Refusal> {
    let Some(text) = optional_text(request, "record")? else {
        return Ok(json!({ "record": Record::new(game(request)?).to_string() }));
    };
    let game = Record::parse(text)
        .map_err(|e| format!("record: {e}"))?
        .game;
    let n = game.rules().pits_per_row();
    Ok(json!({
        "position": game.start().to_string(),
        "moves": game.moves().iter().map(|m| m.name(n).to_string()).collect::<Vec<_>>(),
    }))
}

/// `perft`: the move sequences of `depth` plies from `position` ([`sowing::perft`]).
fn perft(request: &Value) -> Result<Value, Refusal> {
    let position = position(request)?;
    let depth = number(request, "depth")?;
    if depth > 12 {
        return Err("depth: at most 12".into());
    }
    Ok(json!({ "nodes": sowing::perft(&position, depth as u32) }))
}

/// `random_games`: plays `games` random games from `position` with the generator of
/// `sow bench` seeded with `seed`, and gives the plies played: the benchmark's work, timed
/// by the caller.
fn random_games(request: &Value) -> Result<Value, Refusal> {
    let start = position(request)?;
    let games = number(request, "games")?;
    let mut rng = Rng::new(number(request, "seed")?);
    let mut game = Game::from_position(start);
    let moves: u64 = (0..games)
        .map(|_| random::play_game(&mut game, start, &mut rng))
        .sum();
    Ok(json!({ "games": games, "moves": moves }))
}

/// The start position of a request (`position`, position text).
fn position(request: &Value) -> Result<Position, Refusal> {
    text(request, "position")?
        .parse()
        .map_err(|e| format!("position: {e}"))
}

/// The game of a request: `position`, then each of `moves` (optional) played.
fn game(request: &Value) -> Result<Game, Refusal> {
    let mut game = Game::from_position(position(request)?);
    let moves = match request.get("moves") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(moves)) => moves.as_slice(),
        Some(_) => return Err("moves: expected an array of move names".into()),
    };
    for (ply, token) in moves.iter().enumerate() {
        let token = token
            .as_str()
            .ok_or("moves: expected an array of move names")?;
        let mv = game
            .parse_move(token)
            .map_err(|e| format!("moves[{ply}]: {e}"))?;
        game.play(mv)
            .map_err(|e| format!("moves[{ply}] ({token}): {e}"))?;
    }
    Ok(game)
}

fn text<'a>(request: &'a Value, key: &str) -> Result<&'a str, Refusal> {
    optional_text(request, key)?.ok_or_else(|| format!("{key}: missing"))
}

fn optional_text<'a>(request: &'a Value, key: &str) -> Result<Option<&'a str>, Refusal> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("{key}: expected text")),
    }
}

fn number(request: &Value, key: &str) -> Result<u64, Refusal> {
    optional_number(request, key)?.ok_or_else(|| format!("{key}: missing"))
}

fn optional_number(request: &Value, key: &str) -> Result<Option<u64>, Refusal> {
    match request.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{key}: expected a whole number")),
    }
}
