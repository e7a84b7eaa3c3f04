//! `sow puzzles mine`: every puzzle it writes is checked against the tables probed here,
//! through `Tables::probe`, not through the miner's code: the value, the only move, the
//! threshold every other move misses by, each reply being a best defence, and the line
//! stopping where the mover's best stops being the only one.

use serde_json::Value;
use sowing::{Game, Move, Position, Record, Rules};
use sowing_tables::Tables;

mod common;
use common::{assert_ok, assert_refused, sow, stderr, TempDir};

/// The seeds every other move must lose by: written here, not taken from the miner.
fn threshold(position: &Position) -> i32 {
    if position.rules().variant() == sowing::Variant::Ayoayo {
        2
    } else {
        4
    }
}

/// The move that alone keeps the value, each other losing at least the threshold.
fn only_move(tables: &Tables, position: &Position) -> Option<Move> {
    let probe = tables.probe(position).unwrap();
    let keeping: Vec<Move> = probe
        .moves
        .iter()
        .filter(|m| m.1 == probe.value)
        .map(|m| m.0)
        .collect();
    let clear = probe
        .moves
        .iter()
        .all(|m| m.1 == probe.value || m.1 <= probe.value - threshold(position));
    (probe.moves.len() >= 2 && keeping.len() == 1 && clear).then(|| keeping[0])
}

/// The opponent's best defence: the first best move in ring order.
fn defence(tables: &Tables, position: &Position) -> Move {
    let probe = tables.probe(position).unwrap();
    probe.moves.iter().find(|m| m.1 == probe.value).unwrap().0
}

fn mine(tables: &str, args: &[&str], out: &str) -> Vec<Value> {
    let mut all = vec!["puzzles", "mine", "--tables", tables, "--out", out];
    all.extend_from_slice(args);
    let output = sow(&all);
    assert_ok(&output);
    assert!(
        stderr(&output).contains("distinct candidates"),
        "{}",
        stderr(&output)
    );
    std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Checks one puzzle against the tables; returns its line's length.
fn check(tables: &Tables, rules: Rules, puzzle: &Value) -> usize {
    let text = puzzle["position"].as_str().unwrap();
    let start: Position = text.parse().unwrap();
    assert_eq!(start.rules(), rules, "{text}");
    assert_eq!(puzzle["game"], rules.variant().name());
    assert_eq!(
        puzzle["value"],
        tables.probe(&start).unwrap().value,
        "{text}"
    );
    assert!(
        puzzle["themes"].is_array() && puzzle["rating"].is_i64(),
        "{puzzle}"
    );
    let n = rules.pits_per_row();
    let moves: Vec<Move> = puzzle["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| Move::parse(m.as_str().unwrap(), n).unwrap())
        .collect();
    let mover = start.to_move();
    let mut position = start;
    let mut seen = vec![start];
    let mut mover_moves = 0;
    for &mv in &moves {
        if position.to_move() == mover {
            assert_eq!(only_move(tables, &position), Some(mv), "{text}: {position}");
            mover_moves += 1;
        } else {
            assert_eq!(defence(tables, &position), mv, "{text}: {position}");
        }
        assert!(
            !position.is_over(),
            "{text}: the line goes on after the end"
        );
        position.play(mv).unwrap();
        assert!(
            !seen.iter().any(|p| p.repeats(&position)),
            "{text}: a repetition"
        );
        seen.push(position);
    }
    // The line ends on the mover's move ...
    let mut before_last = start;
    for &mv in &moves[..moves.len() - 1] {
        before_last.play(mv).unwrap();
    }
    assert_eq!(
        before_last.to_move(),
        mover,
        "{text}: the line ends on a reply"
    );
    // ... and goes on as long as the mover's best stays the only one.
    if mover_moves < MAX_MOVER_MOVES {
        while !position.is_over() && position.to_move() != mover {
            position.play(defence(tables, &position)).unwrap();
            if seen.iter().any(|p| p.repeats(&position)) {
                return moves.len();
            }
            seen.push(position);
        }
        if !position.is_over() {
            if let Some(mv) = only_move(tables, &position) {
                let mut after = position;
                after.play(mv).unwrap();
                assert!(
                    seen.iter().any(|p| p.repeats(&after)),
                    "{text}: the line stops while {position} still has one move"
                );
            }
        }
    }
    moves.len()
}

/// The longest line, in the mover's moves (docs/puzzles.md).
const MAX_MOVER_MOVES: usize = 8;
#[test]
fn every_mined_puzzle_is_proven_by_the_tables() {
    let dir = TempDir::new("puzzles-mined");
    let tables = dir.path("tables");
    for (game, seeds, extra) in [
        ("hoyito-ii", "12", None),
        ("hoyito-iii", "12", Some("--final-four=north")),
        ("ayoayo", "8", None),
    ] {
        let mut build = vec![
            "tables",
            "build",
            "--game",
            game,
            "--max-seeds",
            seeds,
            "--dir",
            &tables,
            "--quiet",
        ];
        build.extend(extra);
        assert_ok(&sow(&build));
        let out = dir.path(&format!("{game}.jsonl"));
        let mut args = vec!["--game", game, "--count", "150"];
        args.extend(extra);
        let puzzles = mine(&tables, &args, &out);
        assert_eq!(puzzles.len(), 150, "{game}");
        let mut rules = Rules::new(game.parse().unwrap());
        if let Some(option) = extra {
            let (name, value) = option.trim_start_matches("--").split_once('=').unwrap();
            rules.set_option(name, value).unwrap();
        }
        let opened = Tables::open(std::path::Path::new(&tables), rules).unwrap();
        let mut positions = std::collections::HashSet::new();
        let longest = puzzles
            .iter()
            .map(|p| check(&opened, rules, p))
            .max()
            .unwrap();
        assert!(longest >= 3, "{game}: no line with a reply");
        for puzzle in &puzzles {
            let position: Position = puzzle["position"].as_str().unwrap().parse().unwrap();
            assert!(
                positions.insert((
                    position.pits().to_vec(),
                    position.to_move(),
                    position.last_sower()
                )),
                "{game}: a board twice"
            );
        }
        // The same seed mines the same puzzles.
        let again = mine(&tables, &args, &dir.path("again.jsonl"));
        assert_eq!(again, puzzles, "{game}");
    }
}

#[test]
fn games_from_records_are_mined_and_bad_input_refused() {
    let dir = TempDir::new("puzzles-records");
    let tables = dir.path("tables");
    assert_ok(&sow(&[
        "tables",
        "build",
        "--game",
        "hoyito-ii",
        "--max-seeds",
        "12",
        "--dir",
        &tables,
        "--quiet",
    ]));
    // Two games, each move the first legal one: written one after the other.
    let mut file = String::new();
    for opening in ["A", "F"] {
        let mut game = Game::new(Rules::new(sowing::Variant::HoyitoII));
        game.play(game.parse_move(opening).unwrap()).unwrap();
        while !game.is_over() {
            let mv = *game.legal_moves().last().unwrap();
            game.play(mv).unwrap();
        }
        file.push_str(&Record::new(game).to_string());
        file.push('\n');
    }
    let records = dir.path("games.txt");
    std::fs::write(&records, &file).unwrap();
    let out = dir.path("games.jsonl");
    let puzzles = mine(
        &tables,
        &[
            "--game",
            "hoyito-ii",
            "--games",
            &records,
            "--count",
            "1000",
        ],
        &out,
    );
    let rules = Rules::new(sowing::Variant::HoyitoII);
    let opened = Tables::open(std::path::Path::new(&tables), rules).unwrap();
    for puzzle in &puzzles {
        assert_eq!(puzzle["source"], "game");
        check(&opened, rules, puzzle);
    }
    std::fs::write(&records, "[Game \"hoyito-ii\"]\n\n1. Q\n").unwrap();
    assert_refused(
        &sow(&[
            "puzzles",
            "mine",
            "--game",
            "hoyito-ii",
            "--tables",
            &tables,
            "--games",
            &records,
            "--count",
            "5",
            "--out",
            &out,
        ]),
        "record 1",
    );
    assert_refused(
        &sow(&[
            "puzzles", "mine", "--game", "ayoayo", "--tables", &tables, "--count", "5", "--out",
            &out,
        ]),
        "no tables of ayoayo",
    );
}

#[test]
fn the_finished_games_of_a_database_are_mined() {
    let dir = TempDir::new("puzzles-db");
    let tables = dir.path("tables");
    assert_ok(&sow(&[
        "tables",
        "build",
        "--game",
        "hoyito-iii",
        "--max-seeds",
        "12",
        "--dir",
        &tables,
        "--quiet",
    ]));
    let db = dir.path("games.db");
    let store = sowing_web::store::Store::open(std::path::Path::new(&db)).unwrap();
    let rules = Rules::new(sowing::Variant::HoyitoIII);
    for first in 0..3 {
        let mut game = Game::new(rules);
        game.play(game.legal_moves()[first]).unwrap();
        while !game.is_over() {
            game.play(game.legal_moves()[0]).unwrap();
        }
        store
            .create_game(&sowing_web::store::NewGame::new(&game, "ana", "level:1"))
            .unwrap();
    }
    drop(store);
    let out = dir.path("db.jsonl");
    let puzzles = mine(
        &tables,
        &["--game", "hoyito-iii", "--db", &db, "--count", "1000"],
        &out,
    );
    assert!(!puzzles.is_empty(), "three finished games give no puzzle");
    let opened = Tables::open(std::path::Path::new(&tables), rules).unwrap();
    for puzzle in &puzzles {
        assert_eq!(puzzle["source"], "game");
        check(&opened, rules, puzzle);
    }
    assert_refused(
        &sow(&[
            "puzzles",
            "mine",
            "--game",
            "hoyito-iii",
            "--tables",
            &tables,
            "--db",
            &dir.path("none.db"),
            "--count",
            "5",
            "--out",
            &out,
        ]),
        "no such database",
    );
}
