//! The committed WebAssembly engine (crates/sowing-web/static/engine/sowing.wasm), run in
//! Node by `wasm-run.mjs`, gives the answers of the native build: perft of each game, the
//! legal moves and results of random games, the engine's move, value, depth, nodes and line
//! at fixed nodes (levels 1–6), and the endgame tables' values (loaded into the module as
//! compressed and raw files, read natively from disk), and a game played offline: its view,
//! each move's trace, its record both ways and its analysis. `scripts/wasm-build.sh --check` (run
//! by scripts/test) ties the committed module to these sources.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use serde_json::{json, Value};
use sowing::{Game, Position, Record, Rules, Side, State, Variant};
use sowing_engine::random::{self, Rng};
use sowing_engine::{levels, tables, Engine, Info, Limits, PlayerSpec, Score, TableSet};
use sowing_tables::{build, compressed, file, Family, Tables};
use sowing_views::{history, EndView, MoveReplay, RulesView, Snapshot};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `cases` on the committed module in Node; one result a case.
fn run_wasm(cases: &[Value], work: &Path) -> Vec<Value> {
    let path = work.join("cases.json");
    std::fs::write(&path, serde_json::to_vec(cases).unwrap()).unwrap();
    let wasm = manifest().join("../sowing-web/static/engine/sowing.wasm");
    let output = Command::new("node")
        .arg(manifest().join("tests/wasm-run.mjs"))
        .arg(&wasm)
        .arg(&path)
        .output()
        .expect("node runs the WebAssembly build (install Node.js: scripts/browser-test.sh needs it too)");
    assert!(
        output.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(results.len(), cases.len());
    results
}

/// `value` with every number as a float: Node writes `-16` where serde writes `-16.0`.
fn numbers_as_floats(value: &Value) -> Value {
    match value {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(items) => items.iter().map(numbers_as_floats).collect(),
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| (k.clone(), numbers_as_floats(v)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
        other => other.clone(),
    }
}

/// Asserts that the module's reply is the native one.
fn assert_agrees(case: &Value, got: &Value, want: &Value) {
    assert_eq!(numbers_as_floats(got), numbers_as_floats(want), "{case}");
}

fn call(request: Value) -> Value {
    json!({ "kind": "call", "request": request })
}

/// The boards compared: each game, Hoyito II on its long board, and option sets.
fn boards() -> Vec<Rules> {
    let mut boards = vec![
        Rules::new(Variant::HoyitoII),
        Rules::new(Variant::HoyitoII).with_pits(12).unwrap(),
        Rules::new(Variant::HoyitoIII),
        Rules::new(Variant::Ayoayo),
    ];
    let mut casa = Rules::new(Variant::HoyitoII);
    casa.set_option("casa-rows", "opponent").unwrap();
    boards.push(casa);
    let mut leftover = Rules::new(Variant::Ayoayo);
    leftover.set_option("leftover", "holder").unwrap();
    boards.push(leftover);
    boards
}

/// Positions along a native random game from `start` (every `step`-th ply).
fn positions_along(start: Position, seed: u64, step: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(start);
    random::play_game(&mut game, start, &mut rng);
    (0..game.moves().len())
        .step_by(step)
        .filter_map(|ply| game.position_at(ply).copied())
        .filter(|p| !p.is_over())
        .collect()
}

fn names(game: &Game, moves: &[sowing::Move]) -> Vec<String> {
    let n = game.rules().pits_per_row();
    moves.iter().map(|m| m.name(n).to_string()).collect()
}

/// The native engine's answer in the shape of the module's `search` reply.
fn native_search(
    position: &Position,
    spec: &str,
    seed: u64,
    nodes: Option<u64>,
    set: Option<Arc<TableSet>>,
) -> Value {
    let spec: PlayerSpec = spec.parse().unwrap();
    let mut engine = Engine::new(spec.search_settings().unwrap(), seed);
    engine.new_game();
    engine.set_tables(set);
    let game = Game::from_position(*position);
    let limits = Limits {
        nodes,
        ..Limits::default()
    };
    let mut last: Option<Info> = None;
    let result = engine.go(&game, &limits, &mut |info| last = Some(info.clone()));
    let info = last.expect("the engine reports");
    let south = if position.to_move() == Side::South {
        info.score
    } else {
        -info.score
    };
    json!({
        "engine": spec.to_string(),
        "move": names(&game, &[result.best])[0],
        "score": {
            "kind": if matches!(info.score, Score::Proven(_)) { "proven" } else { "estimate" },
            "south": south.seeds(),
            "text": info.score.to_string(),
        },
        "depth": info.depth,
        "nodes": info.nodes,
        "pv": names(&game, &info.pv),
    })
}

#[test]
fn a_game_played_offline_answers_as_the_server_does() {
    let work = tempfile::tempdir().unwrap();
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for (b, rules) in boards().into_iter().enumerate() {
        let start = Position::start(rules);
        let mut game = Game::from_position(start);
        random::play_game(&mut game, start, &mut Rng::new(77 + b as u64));
        let moves = names(&game, game.moves());
        let request = json!({"position": start.to_string(), "moves": moves});
        let with = |op: &str, extra: Value| {
            let mut r = request.clone();
            r["op"] = json!(op);
            for (k, v) in extra.as_object().unwrap() {
                r[k] = v.clone();
            }
            call(r)
        };
        cases.push(with("view", json!({})));
        expected.push(json!({
            "state": State::of(&game),
            "rules": RulesView::of(rules),
            "ply": game.moves().len(),
            "start": Snapshot::of(&start),
            "history": history(&game),
            "end": game.end().map(EndView::of),
        }));
        for ply in [1, game.moves().len() / 2, game.moves().len()] {
            cases.push(with("replay", json!({ "ply": ply })));
            expected.push(json!(MoveReplay::of(&game, ply).unwrap().unwrap()));
        }
        let record = Record::new(game.clone()).to_string();
        cases.push(with("record", json!({})));
        expected.push(json!({ "record": record }));
        cases.push(call(json!({"op": "record", "record": record})));
        expected.push(request.clone());
        // Short games' analyses: a few hundred nodes a position, no tables.
        if game.moves().len() <= 80 {
            cases.push(with("analyse", json!({ "nodes": 300 })));
            let analysis = sowing_engine::analysis::analyse_game(&game, 300, None, &mut |_| {});
            expected.push(json!(analysis));
        }
    }
    let results = run_wasm(&cases, work.path());
    for ((case, got), want) in cases.iter().zip(&results).zip(&expected) {
        assert_agrees(case, got, want);
    }
    assert!(
        cases.iter().any(|c| c["request"]["op"] == "analyse"),
        "an analysis compared"
    );
}

#[test]
fn perft_random_games_and_the_benchmark_agree() {
    let work = tempfile::tempdir().unwrap();
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for (b, rules) in boards().into_iter().enumerate() {
        let start = Position::start(rules);
        let depth = if rules.pits_per_row() == 12 { 4 } else { 6 };
        cases.push(call(
            json!({"op": "perft", "position": start.to_string(), "depth": depth}),
        ));
        expected.push(json!({ "nodes": sowing::perft(&start, depth) }));
        for position in positions_along(start, 11 + b as u64, 9).into_iter().take(4) {
            cases.push(call(
                json!({"op": "perft", "position": position.to_string(), "depth": 4}),
            ));
            expected.push(json!({ "nodes": sowing::perft(&position, 4) }));
        }
        // The benchmark's work: the same seeded games, the same number of plies.
        let games = if rules.pits_per_row() == 12 {
            200
        } else {
            2_000
        };
        cases.push(call(json!({
            "op": "random_games", "position": start.to_string(), "games": games, "seed": 2026
        })));
        let mut rng = Rng::new(2026);
        let mut game = Game::new(rules);
        let moves: u64 = (0..games)
            .map(|_| random::play_game(&mut game, start, &mut rng))
            .sum();
        expected.push(json!({ "games": games, "moves": moves }));
    }
    let results = run_wasm(&cases, work.path());
    for ((case, got), want) in cases.iter().zip(&results).zip(&expected) {
        assert_agrees(case, got, want);
    }

    // Random games, each move chosen by the test among the moves the module lists; every
    // ply's list and the final state checked natively.
    let mut games = Vec::new();
    for rules in boards() {
        for seed in 1..=12u32 {
            games.push(json!({
                "kind": "random_game",
                "position": Position::start(rules).to_string(),
                "seed": seed * 7919 + rules.pits_per_row() as u32,
            }));
        }
    }
    let results = run_wasm(&games, work.path());
    let mut ends = std::collections::HashSet::new();
    for (case, got) in games.iter().zip(&results) {
        let start: Position = case["position"].as_str().unwrap().parse().unwrap();
        let mut game = Game::from_position(start);
        let moves = got["moves"].as_array().unwrap_or_else(|| panic!("{got}"));
        assert!(!moves.is_empty());
        for (ply, mv) in moves.iter().enumerate() {
            assert_eq!(
                json!(game.legal_names()),
                got["legal"][ply],
                "{case}, ply {ply}"
            );
            game.play(game.parse_move(mv.as_str().unwrap()).unwrap())
                .unwrap();
        }
        assert!(game.is_over(), "{case}: native play has not ended");
        let end = game.end().unwrap();
        ends.insert(end.code());
        assert_eq!(
            got["final"]["state"],
            serde_json::to_value(State::of(&game)).unwrap()
        );
        assert_eq!(got["final"]["position"], json!(game.position().to_string()));
        assert_eq!(got["final"]["end"], json!(end.code()), "{case}");
        assert_eq!(got["final"]["end_side"], json!(end.side().map(Side::name)));
    }
    assert!(
        ends.len() >= 2,
        "the games end in more than one way: {ends:?}"
    );
}

#[test]
fn the_engine_agrees_at_fixed_nodes() {
    let work = tempfile::tempdir().unwrap();
    let mut positions: Vec<Position> = boards().into_iter().map(Position::start).collect();
    let bench = sowing_engine::bench::positions();
    positions.extend(bench.iter().step_by(5).map(|b| *b.game.position()));
    let mut cases = Vec::new();
    let mut expected = Vec::new();
    for (i, position) in positions.iter().enumerate() {
        for level in levels::LEVELS {
            // Levels 1–5 stop at their own node caps; level 6 is given one.
            let nodes = (level == 6).then_some(20_000);
            let seed = i as u64 * 31 + u64::from(level);
            let spec = format!("level:{level}");
            cases.push(call(json!({
                "op": "search", "position": position.to_string(), "engine": spec,
                "seed": seed, "nodes": nodes,
            })));
            expected.push(native_search(position, &spec, seed, nodes, None));
        }
        cases.push(call(json!({
            "op": "search", "position": position.to_string(),
            "engine": "search:depth=5,quiescence=off", "seed": 0,
        })));
        expected.push(native_search(
            position,
            "search:depth=5,quiescence=off",
            0,
            None,
            None,
        ));
    }
    let results = run_wasm(&cases, work.path());
    for ((case, got), want) in cases.iter().zip(&results).zip(&expected) {
        assert_agrees(case, got, want);
    }
}

/// Builds raw tables of `rules` to `seeds` in `raw`, and their compressed files in `packed`.
fn build_tables(rules: Rules, seeds: usize, raw: &Path, packed: &Path) -> Vec<PathBuf> {
    build::build(raw, rules, seeds, &build::Options::quiet()).unwrap();
    let tables = Tables::open(raw, rules).unwrap();
    let family = Family::of(rules);
    let mut files = Vec::new();
    for layer in tables.layers_built() {
        let values = tables.layer(layer).unwrap();
        let bytes =
            compressed::compress(&family, layer, &values, compressed::Settings::default()).unwrap();
        let path = file::compressed_path(packed, &family, layer);
        file::write_atomically(&path, &bytes).unwrap();
        files.push(path);
    }
    files
}

#[test]
fn the_tables_agree_loaded_compressed_or_raw() {
    let work = tempfile::tempdir().unwrap();
    let (raw, packed) = (work.path().join("raw"), work.path().join("packed"));
    let families = [
        (Rules::new(Variant::HoyitoII), 8, true),
        (Rules::new(Variant::HoyitoIII), 8, true),
        (Rules::new(Variant::Ayoayo), 6, false),
    ];
    let mut cases = Vec::new();
    for (rules, seeds, send_compressed) in families {
        let packed_files = build_tables(rules, seeds, &raw, &packed);
        let files: Vec<String> = if send_compressed {
            packed_files
        } else {
            Tables::open(&raw, rules)
                .unwrap()
                .layers_built()
                .into_iter()
                .map(|s| file::layer_path(&raw, &Family::of(rules), s))
                .collect()
        }
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
        cases.push(json!({
            "kind": "load",
            "request": {"op": "tables", "position": Position::start(rules).to_string()},
            "files": files,
        }));
    }
    let set = Arc::new(TableSet::open(&raw).unwrap());
    let mut expected: Vec<Option<Value>> = vec![None; cases.len()];
    for (rules, _, _) in families {
        cases.push(call(
            json!({"op": "family", "position": Position::start(rules).to_string()}),
        ));
        expected.push(Some(json!({ "family": Family::of(rules).name() })));
    }
    let mut inside_seen = 0;
    for (f, (rules, seeds, _)) in families.into_iter().enumerate() {
        let held = set.tables(rules).unwrap().unwrap();
        for seed in 0..16u64 {
            for position in positions_along(Position::start(rules), 100 * f as u64 + seed, 1)
                .into_iter()
                .filter(|p| p.seeds_on_board() <= seeds + 8)
                .step_by(4)
            {
                let game = Game::from_position(position);
                let moves = tables::move_values(&held, &game);
                inside_seen += usize::from(moves.is_some());
                let n = rules.pits_per_row();
                let seeds_now = position.seeds_on_board();
                cases.push(call(
                    json!({"op": "table_values", "position": position.to_string()}),
                ));
                expected.push(Some(json!({
                    "max_seeds": held.max_seeds(),
                    "building": false,
                    "inside": moves.is_some(),
                    "not_built": seeds_now <= held.max_seeds() && !held.built(seeds_now),
                    "value": moves.as_ref().and_then(|m| m.iter().map(|m| m.1).max()),
                    "moves": moves.unwrap_or_default().into_iter()
                        .map(|(mv, value)| json!({"move": mv.name(n).to_string(), "value": value}))
                        .collect::<Vec<_>>(),
                })));
                // Level 5 uses the tables: at the root inside them (the perfect move), and
                // in the search just above them.
                let spec = "level:5";
                cases.push(call(json!({
                    "op": "search", "position": position.to_string(), "engine": spec,
                    "seed": seed, "nodes": 5_000,
                })));
                expected.push(Some(native_search(
                    &position,
                    spec,
                    seed,
                    Some(5_000),
                    Some(set.clone()),
                )));
            }
        }
    }
    assert!(
        inside_seen > 40,
        "only {inside_seen} positions inside the tables"
    );
    let results = run_wasm(&cases, work.path());
    for (f, (rules, seeds, _)) in families.into_iter().enumerate() {
        assert_eq!(
            results[f]["layers"],
            json!(Tables::open(&raw, rules).unwrap().layers_built()),
            "{}",
            results[f]
        );
        assert_eq!(results[f]["max_seeds"], json!(seeds));
    }
    for ((case, got), want) in cases.iter().zip(&results).zip(&expected) {
        if let Some(want) = want {
            assert_agrees(case, got, want);
        }
    }
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let work = tempfile::tempdir().unwrap();
    let start = Position::start(Rules::new(Variant::Ayoayo)).to_string();
    let cases = vec![
        call(json!({"op": "fly"})),
        call(json!({"op": "perft", "position": "not a position", "depth": 2})),
        call(json!({"op": "state", "position": start, "moves": ["Z"]})),
        call(json!({"op": "search", "position": start, "engine": "greedy"})),
        json!({"kind": "load", "request": {"op": "tables", "position": start}, "files": [
            manifest().join("Cargo.toml").to_string_lossy()
        ]}),
    ];
    let results = run_wasm(&cases, work.path());
    for (case, got) in cases.iter().zip(&results) {
        let error = got["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{case}: {got}"));
        assert!(!error.is_empty());
    }
    // The native build refuses the same requests with the same words.
    let mut session = sowing_wasm::api::Session::new();
    for (case, got) in cases.iter().zip(&results).take(4) {
        let reply: Value =
            serde_json::from_str(&session.answer(case["request"].to_string().as_bytes(), &[]))
                .unwrap();
        assert_eq!(&reply, got);
    }
}
