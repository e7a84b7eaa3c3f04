//! `sow-load` itself, on a server of its own: a small live run and a small plain run,
//! checking the counts it prints and that it found every game complete on the server and
//! in the database. Seconds, not a benchmark: no time is checked.

use std::process::Command;

/// Runs `sow-load` with `args`; (exit code, standard output, standard error).
fn sow_load(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sow-load"))
        .args(args)
        .output()
        .expect("sow-load runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The text after `label:` on its line of the report.
fn line<'a>(report: &'a str, label: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{label}:")))
        .unwrap_or_else(|| panic!("no {label:?} line in:\n{report}"))
        .trim()
}

/// The number before `word` in `text` (e.g. `986 samples`).
fn number_before(text: &str, word: &str) -> usize {
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == word)
        .unwrap_or_else(|| panic!("no {word:?} in {text:?}"));
    words[at - 1]
        .trim_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap_or_else(|_| panic!("no number before {word:?} in {text:?}"))
}

#[test]
fn ten_live_games_finish_with_every_move_on_every_socket_and_in_the_database() {
    let (code, out, err) = sow_load(&["--live", "--games", "10", "--seed", "3", "--think-ms", "1"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(
        line(&out, "games"),
        "10 at once, 10 finished without error",
        "{out}"
    );
    assert_eq!(line(&out, "errors"), "0", "{out}\n{err}");
    assert_eq!(
        line(&out, "complete"),
        "10/10 games complete on the server; 10/10 games complete in the database \
         (every acknowledged move, in order)"
    );
    // Every acknowledged move reached the opponent's socket and the spectator's, once.
    let moves = number_before(line(&out, "moves"), "in");
    assert!(moves > 10 * 20, "{out}");
    assert_eq!(
        number_before(line(&out, "to opponent"), "samples"),
        moves,
        "{out}"
    );
    assert_eq!(
        number_before(line(&out, "to spectator"), "samples"),
        moves,
        "{out}"
    );
}

#[test]
fn the_plain_mode_still_plays_one_screen_games_to_the_end() {
    let (code, out, err) = sow_load(&["--games", "6", "--seed", "3"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert_eq!(line(&out, "games"), "6 at once, 6 finished", "{out}");
    assert_eq!(line(&out, "errors"), "0", "{out}");
    assert_eq!(line(&out, "complete"), "6/6 games complete in the database");
}

#[test]
fn idle_live_games_hold_their_sockets_and_the_memory_is_read() {
    let (code, out, err) = sow_load(&["--live", "--idle", "4", "--settle", "0"]);
    assert_eq!(code, Some(0), "{out}\n{err}");
    assert!(
        line(&out, "server VmRSS").contains("with 12 sockets open"),
        "{out}"
    );
    assert!(
        line(&out, "per idle game").contains("KiB with its 3 sockets open"),
        "{out}"
    );
    assert_eq!(line(&out, "errors"), "0", "{out}\n{err}");
}

#[test]
fn bad_arguments_exit_with_2_and_say_what() {
    let (code, _, err) = sow_load(&["--live", "--clock", "5 minutes"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--clock \"5 minutes\""), "{err}");
    let (code, _, err) = sow_load(&["--url", "http://10.1.2.3:80"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("only loopback"), "{err}");
    let (code, _, err) = sow_load(&["--live", "--idle", "3", "--url", "http://127.0.0.1:9"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--server-pid"), "{err}");
    let (code, _, err) = sow_load(&["--live", "--game", "chess"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--game"), "{err}");
}
