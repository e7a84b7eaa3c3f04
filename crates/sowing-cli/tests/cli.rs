//! The `sow` command line as other programs drive it: golden `sow replay` games, exit codes
//! and messages on bad input, the JSON of `perft` and `bench`, and `sow engine` on input
//! that is not text.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn sow(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .output()
        .expect("sow runs")
}

fn sow_with_input(args: &[&str], input: &str) -> Output {
    sow_with_bytes(args, input.as_bytes())
}

fn sow_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sow runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

mod common;
use common::{assert_refused, stderr, stdout};

#[test]
fn golden_replays_of_whole_games() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let field = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .unwrap_or_else(|| panic!("{path:?}: no {name}"))
                .trim()
                .to_owned()
        };
        let (args, moves, state) = (field("args:"), field("moves:"), field("state:"));
        let mut argv: Vec<&str> = vec!["replay"];
        argv.extend(args.split_whitespace());
        // All moves in one argument, as other programs often pass them.
        argv.push(&moves);
        let output = sow(&argv);
        assert!(output.status.success(), "{path:?}: {}", stderr(&output));
        assert_eq!(stdout(&output).trim_end(), state, "{path:?}");
        files += 1;
    }
    assert!(files >= 6);
}

#[test]
fn replay_prints_the_start_state() {
    let output = sow(&["replay", "--game", "hoyito-ii"]);
    assert_eq!(
        stdout(&output),
        "{\"game\":\"hoyito-ii\",\"pits_per_row\":6,\"pits\":[4,4,4,4,4,4,4,4,4,4,4,4],\
         \"captured\":[0,0],\"to_move\":\"south\",\"over\":false,\"winner\":null,\
         \"last_sower\":null,\"legal\":[\"A\",\"B\",\"C\",\"D\",\"E\",\"F\"]}\n"
    );
}

#[test]
fn replay_takes_moves_in_several_arguments_and_continues_from_a_state() {
    let whole = sow(&["replay", "--game", "ayoayo", "C", "a", "D"]);
    let first = sow(&["replay", "--game", "ayoayo", "C a"]);
    assert!(first.status.success());
    let file = std::env::temp_dir().join(format!("sow-state-{}.json", std::process::id()));
    std::fs::write(&file, stdout(&first)).unwrap();
    let from_file = sow(&[
        "replay",
        "--game",
        "ayoayo",
        "--from",
        file.to_str().unwrap(),
        "D",
    ]);
    let from_stdin = sow_with_input(
        &["replay", "--game", "ayoayo", "--from", "-", "D"],
        &stdout(&first),
    );
    std::fs::remove_file(&file).unwrap();
    assert!(whole.status.success());
    assert_eq!(stdout(&from_file), stdout(&whole));
    assert_eq!(stdout(&from_stdin), stdout(&whole));
}

#[test]
fn replay_refuses_an_illegal_move_saying_which_ply_and_what_was_legal() {
    let output = sow(&["replay", "--game", "ayoayo", "C", "b"]);
    assert_refused(&output, "ply 2, token \"b\"");
    assert!(
        stderr(&output).contains("legal moves: a c d f"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn replay_refuses_a_token_that_is_no_move() {
    assert_refused(&sow(&["replay", "--game", "hoyito-ii", "C", "Q7"]), "ply 2");
    assert_refused(
        &sow(&["replay", "--game", "hoyito-ii", "pass"]),
        "pass is not legal",
    );
    assert_refused(&sow(&["replay", "--game", "hoyito-ii", "G"]), "not a move");
}

#[test]
fn replay_refuses_moves_after_the_end() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/ayoayo-6-seed9.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let moves = text.lines().find_map(|l| l.strip_prefix("moves:")).unwrap();
    let output = sow(&["replay", "--game", "ayoayo", &format!("{moves} A")]);
    assert_refused(&output, "the game is over");
}

#[test]
fn replay_refuses_malformed_states() {
    let cases = [
        ("{", "JSON state"),
        ("{\"game\":\"hoyito-ii\"}", "missing field"),
        (
            "{\"game\":\"chess\",\"pits_per_row\":6,\"pits\":[],\"captured\":[0,0],\
             \"to_move\":\"south\",\"over\":false,\"winner\":null,\"last_sower\":null}",
            "unknown game",
        ),
        (
            "{\"game\":\"hoyito-ii\",\"pits_per_row\":6,\"pits\":[4,4,4],\"captured\":[0,0],\
             \"to_move\":\"south\",\"over\":false,\"winner\":null,\"last_sower\":null}",
            "\"pits\"",
        ),
        (
            "{\"game\":\"hoyito-ii\",\"pits_per_row\":6,\"pits\":[4,4,4,4,4,4,4,4,4,4,4,4],\
             \"captured\":[0,0],\"to_move\":\"east\",\"over\":false,\"winner\":null,\
             \"last_sower\":null}",
            "\"to_move\"",
        ),
        (
            "{\"game\":\"ayoayo\",\"pits_per_row\":6,\"pits\":[4,4,4,4,4,4,4,4,4,4,4,4],\
             \"captured\":[0,0],\"to_move\":\"south\",\"over\":false,\"winner\":null,\
             \"last_sower\":null}",
            "is a ayoayo game, but --game is hoyito-ii",
        ),
    ];
    for (input, says) in cases {
        let output = sow_with_input(&["replay", "--game", "hoyito-ii", "--from", "-"], input);
        assert_refused(&output, says);
    }
    assert_refused(
        &sow(&[
            "replay",
            "--game",
            "hoyito-ii",
            "--from",
            "/nonexistent/state.json",
        ]),
        "reading /nonexistent/state.json",
    );
}

#[test]
fn bad_command_line_values_exit_with_code_2() {
    assert_refused(&sow(&["replay", "--game", "chess"]), "unknown game");
    assert_refused(
        &sow(&["replay", "--game", "ayoayo", "--pits", "12"]),
        "not played with 12",
    );
    assert_refused(
        &sow(&["replay", "--game", "hoyito-ii", "--casa-rows", "mine"]),
        "casa-rows",
    );
    // An option the game does not have is refused, not ignored.
    assert_refused(
        &sow(&["replay", "--game", "hoyito-ii", "--leftover", "holder"]),
        "leftover is not an option of hoyito-ii (it is for ayoayo); hoyito-ii has casa-rows only",
    );
    assert_refused(
        &sow(&[
            "perft",
            "--game",
            "ayoayo",
            "--casa-rows",
            "any",
            "--depth",
            "1",
        ]),
        "casa-rows is not an option of ayoayo",
    );
    assert_refused(
        &sow(&["play", "--final-four", "south"]),
        "final-four is not an option of hoyito-ii",
    );
    assert_refused(&sow(&["replay"]), "--game is required");
    assert_refused(
        &sow(&["perft", "--game", "hoyito-ii", "--depth", "x"]),
        "depth",
    );
    assert_refused(&sow(&["play", "--north", "wizard"]), "unknown player");
}

#[test]
fn perft_json_and_plain() {
    let output = sow(&["perft", "--game", "hoyito-ii", "--depth", "4", "--json"]);
    assert_eq!(
        stdout(&output),
        "{\"depth\":4,\"game\":\"hoyito-ii\",\"nodes\":819}\n"
    );
    let output = sow(&["perft", "--game", "ayoayo", "--depth", "3"]);
    assert_eq!(stdout(&output), "132\n");
    let output = sow(&[
        "perft",
        "--game",
        "hoyito-ii",
        "--pits",
        "12",
        "--depth",
        "2",
    ]);
    assert_eq!(stdout(&output), "116\n");
}

#[test]
fn bench_json_lists_every_game_and_board() {
    let output = sow(&["bench", "--json", "--games", "20"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rows = rows.as_array().unwrap();
    let boards: Vec<(String, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["game"].as_str().unwrap().to_owned(),
                r["pits_per_row"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        boards,
        [
            ("hoyito-ii".to_owned(), 6),
            ("hoyito-ii".to_owned(), 12),
            ("hoyito-iii".to_owned(), 6),
            ("ayoayo".to_owned(), 6)
        ]
    );
    for row in rows {
        assert!(row["games_per_sec"].as_f64().unwrap() > 0.0);
        assert!(row["moves_per_sec"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn play_in_the_terminal_against_the_computer() {
    let record = std::env::temp_dir().join(format!("sow-play-{}.rec", std::process::id()));
    let script = format!(
        "C\nnonsense\nundo\nC\nsave {}\nload /nonexistent.rec\nquit\n",
        record.display()
    );
    let output = sow_with_input(&["play", "--north", "greedy", "--seed", "3"], &script);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("south (you) plays C"), "{text}");
    assert!(text.contains("north (greedy) plays"), "{text}");
    assert!(text.contains("\"nonsense\" is not a move"), "{text}");
    assert!(
        text.contains("Could not load, the game is unchanged"),
        "{text}"
    );
    let saved = std::fs::read_to_string(&record).unwrap();
    std::fs::remove_file(&record).unwrap();
    let game = sowing::Record::parse(&saved).unwrap().game;
    assert_eq!(game.moves()[0], sowing::Move::parse("C", 6).unwrap());
    assert!(game.moves().len() >= 2, "the computer answered: {saved}");
}

#[test]
fn two_computers_play_a_whole_game() {
    let output = sow_with_input(
        &[
            "play", "--game", "ayoayo", "--south", "random", "--north", "greedy",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("Game over"), "{}", stdout(&output));
}

#[test]
fn the_engine_answers_after_a_line_that_is_not_utf8() {
    // printf 'isready\nposition startpos moves \xff\nisready\n' | sow engine
    let output = sow_with_bytes(
        &["engine"],
        b"isready\nposition startpos moves \xff\nisready\nquery p1turn\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "readyok");
    assert!(lines[1].starts_with("info string error: "), "{text}");
    assert_eq!(lines[2..], ["readyok", "response true"]);
}

#[test]
fn play_takes_the_movers_own_pit_in_either_case() {
    // South types d for D, North types C for c: each is the mover's own pit.
    let output = sow_with_input(
        &[
            "play",
            "--game",
            "hoyito-ii",
            "--south",
            "human",
            "--north",
            "human",
        ],
        "d\nC\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("south (you) plays D"), "{text}");
    assert!(text.contains("north (you) plays c"), "{text}");
}

#[test]
fn play_asks_before_quitting_an_unfinished_game() {
    let args = [
        "play",
        "--game",
        "hoyito-ii",
        "--south",
        "human",
        "--north",
        "human",
    ];
    // One quit asks, and the game goes on: the next move is played.
    let text = stdout(&sow_with_input(&args, "C\nquit\nb\n"));
    assert!(
        text.contains("The game is not over and is not saved"),
        "{text}"
    );
    assert!(text.contains("north (you) plays b"), "{text}");
    // Two in a row leave: the move after them is never read.
    let output = sow_with_input(&args, "C\nquit\nquit\nb\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!stdout(&output).contains("plays b"), "{}", stdout(&output));
    // Before any move there is nothing to lose: one quit leaves.
    let text = stdout(&sow_with_input(&args, "quit\nC\n"));
    assert!(
        !text.contains("not saved") && !text.contains("plays C"),
        "{text}"
    );
}
