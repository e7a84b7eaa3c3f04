//! `sow tables`: build, probe (its JSON and its refusals), verify, stats, and resuming a
//! build over damaged files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{assert_ok, assert_refused, sow, stderr, stdout};

/// A fresh directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sow-tables-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn layer(&self, family: &str, seeds: usize) -> PathBuf {
        self.0.join(family).join(format!("layer-{seeds:03}.sowt"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const H2: &str = "hoyito-ii-2x6-casa-rows=any";

/// Every layer up to `seeds` (the tests below probe set-up positions of any size).
fn build(dir: &TempDir, game: &str, seeds: &str) -> Output {
    sow(&[
        "tables",
        "build",
        "--game",
        game,
        "--max-seeds",
        seeds,
        "--layers",
        "all",
        "--dir",
        dir.arg(),
        "--quiet",
    ])
}

#[test]
fn by_default_only_the_layers_play_reaches_are_built_and_others_on_request() {
    let dir = TempDir::new("reachable");
    let reachable = |args: &[&str]| {
        let mut all = vec![
            "tables",
            "build",
            "--game",
            "hoyito-ii",
            "--dir",
            dir.arg(),
            "--quiet",
        ];
        all.extend_from_slice(args);
        sow(&all)
    };
    let built = reachable(&["--max-seeds", "9"]);
    assert_ok(&built);
    assert!(
        stderr(&built).contains("layers 4, 8 in"),
        "{}",
        stderr(&built)
    );
    assert!(dir.layer(H2, 4).exists() && dir.layer(H2, 8).exists());
    assert!(!dir.layer(H2, 5).exists() && !dir.layer(H2, 1).exists());
    // A set-up position with 5 seeds: the tables reach 8, but layer 5 is not built.
    let five = "hoyito-ii 1,1,1,1,1,0/0,0,0,0,0,0 20-23 S -";
    let refused = probe(&dir, five);
    assert_refused(&refused, "layer 5 of the tables");
    assert!(
        stderr(&refused).contains("not built") && stderr(&refused).contains("--layer 5"),
        "{}",
        stderr(&refused)
    );
    // Built on request, with layer 1 below it (a capture takes 4).
    let added = reachable(&["--layer", "5"]);
    assert_ok(&added);
    assert!(
        stderr(&added).contains("layers 1, 5 in"),
        "{}",
        stderr(&added)
    );
    let line = json(&probe(&dir, five));
    assert!(line["value"].is_i64());
    let verified = sow(&["tables", "verify", "--dir", dir.arg()]);
    assert_ok(&verified);
    assert!(
        stdout(&verified).contains("layers 1, 4, 5, 8 proved"),
        "{}",
        stdout(&verified)
    );
    // Nothing to build: below the first reachable layer.
    assert_refused(&reachable(&["--max-seeds", "3"]), "no layer to build");
    // Layer 32 of 2×6 has more positions than 32-bit indices reach: refused before any work.
    assert_refused(&reachable(&["--max-seeds", "32"]), "layer 32");
    // A memory cap must be a positive number of GiB; under a tiny one a layer goes on disk.
    for cap in ["0", "-1", "NaN", "inf"] {
        let memory = format!("--memory={cap}");
        assert_refused(&reachable(&["--max-seeds", "12", &memory]), "--memory");
    }
    let capped = reachable(&["--max-seeds", "12", "--memory", "0.000001"]);
    assert_ok(&capped);
    assert!(
        stderr(&capped).contains("solved on disk: layers 12"),
        "{}",
        stderr(&capped)
    );
}

fn probe(dir: &TempDir, position: &str) -> Output {
    sow(&["tables", "probe", "--dir", dir.arg(), position])
}

fn json(output: &Output) -> serde_json::Value {
    assert_ok(output);
    let text = stdout(output);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn probe_prints_the_value_and_every_move() {
    let dir = TempDir::new("probe");
    assert_ok(&build(&dir, "hoyito-ii", "6"));
    // A (1 seed) drops into B making four: a casa of the last four seeds, +4 at once.
    let line = json(&probe(&dir, "hoyito-ii 1,3,0,0,0,0/0,0,0,0,0,0 20-24 S -"));
    assert_eq!(line["value"], 4);
    let moves = line["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["move"], "A");
    assert_eq!(moves[0]["value"], 4);
    assert_eq!(moves[1]["move"], "B");
    // The field order of the documented line.
    assert!(
        stdout(&probe(&dir, "hoyito-ii 1,3,0,0,0,0/0,0,0,0,0,0 20-24 S -"))
            .starts_with("{\"value\":4,\"moves\":[")
    );
    // The same position seen from North: the board turned, North to move.
    let north = json(&probe(&dir, "hoyito-ii 0,0,0,0,0,0/1,3,0,0,0,0 24-20 N -"));
    assert_eq!(north["value"], 4);
    assert_eq!(north["moves"][0]["move"], "a");
    // A position whose game is over has value 0 and no moves.
    let over = json(&probe(&dir, "hoyito-ii 0,0,0,0,0,0/0,0,0,0,0,0 24-24 S -"));
    assert_eq!(over["value"], 0);
    assert_eq!(over["moves"].as_array().unwrap().len(), 0);
    // Every value is the best of the moves.
    for position in [
        "hoyito-ii 0,2,0,1,0,0/0,0,3,0,0,0 20-22 S -",
        "hoyito-ii 1,0,0,0,1,0/0,2,0,0,1,1 20-22 N -",
    ] {
        let line = json(&probe(&dir, position));
        let best = line["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["value"].as_i64().unwrap())
            .max();
        assert_eq!(Some(line["value"].as_i64().unwrap()), best, "{position}");
    }
}

#[test]
fn probe_refuses_what_the_tables_cannot_answer() {
    let dir = TempDir::new("refuse");
    assert_ok(&build(&dir, "hoyito-ii", "4"));
    assert_refused(
        &probe(&dir, "hoyito-ii 1,1,1,1,1,0/0,0,0,0,0,0 20-23 S -"),
        "5 seeds on the board, beyond the tables",
    );
    assert_refused(
        &probe(&dir, "chess 1,3,0,0,0,0/0,0,0,0,0,0 20-24 S -"),
        "unknown game",
    );
    assert_refused(
        &probe(&dir, "hoyito-ii 1,3,0/0,0"),
        "cannot read the position",
    );
    // No tables at all for another game.
    assert_refused(
        &probe(&dir, "ayoayo 1,0,0,0,0,0/0,0,0,0,0,1 20-26 S N"),
        "beyond the tables",
    );
    // More seeds than a layer may hold.
    assert_refused(
        &sow(&[
            "tables",
            "build",
            "--game",
            "hoyito-ii",
            "--max-seeds",
            "200",
            "--dir",
            dir.arg(),
        ]),
        "at most 127 seeds",
    );
}

fn flip_last_byte(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_corrupt_or_truncated_file_is_an_error_never_a_value() {
    let dir = TempDir::new("corrupt");
    assert_ok(&build(&dir, "hoyito-ii", "5"));
    let position = "hoyito-ii 1,3,0,0,0,0/0,0,0,0,0,0 20-24 S -";
    assert_ok(&probe(&dir, position));

    flip_last_byte(&dir.layer(H2, 3));
    assert_refused(&probe(&dir, position), "checksum does not match");
    assert_refused(
        &sow(&["tables", "verify", "--dir", dir.arg()]),
        "checksum does not match",
    );

    // Building again replaces the damaged layer and keeps the others.
    let rebuilt = build(&dir, "hoyito-ii", "5");
    assert_ok(&rebuilt);
    assert!(stderr(&rebuilt).contains("layer 3 was refused and built again"));
    assert!(
        stderr(&rebuilt).contains("(1 built, 4 kept)"),
        "{}",
        stderr(&rebuilt)
    );
    assert_eq!(json(&probe(&dir, position))["value"], 4);

    let path = dir.layer(H2, 4);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    assert_refused(&probe(&dir, position), "truncated");
    std::fs::write(&path, &bytes[..20]).unwrap();
    assert_refused(&probe(&dir, position), "truncated");
    std::fs::write(&path, b"").unwrap();
    assert_refused(&probe(&dir, position), "truncated");

    // A file of another layer put in its place.
    std::fs::copy(dir.layer(H2, 2), &path).unwrap();
    assert_refused(&probe(&dir, position), "another table");
}

#[test]
fn verify_and_stats_over_every_table_in_the_directory() {
    let dir = TempDir::new("verify");
    assert_ok(&build(&dir, "hoyito-iii", "6"));
    assert_ok(&build(&dir, "ayoayo", "5"));
    let verified = sow(&["tables", "verify", "--dir", dir.arg()]);
    assert_ok(&verified);
    let text = stdout(&verified);
    assert!(
        text.contains("hoyito-iii-2x6-casa-rows=any-final-four=capturer: layers 1-6 proved"),
        "{text}"
    );
    assert!(text.contains("ayoayo-2x6-leftover=last-mover: layers 1-5 proved"));

    let stats = sow(&["tables", "stats", "--dir", dir.arg(), "--game", "ayoayo"]);
    assert_ok(&stats);
    let text = stdout(&stats);
    // Five layers, each with its number of positions: boards × 3 last-sower states.
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert!(rows[0].split_whitespace().nth(1) == Some("36"), "{text}");
    assert!(rows[4].split_whitespace().nth(1) == Some("13104"), "{text}");

    assert_refused(
        &sow(&[
            "tables",
            "verify",
            "--dir",
            dir.arg(),
            "--game",
            "hoyito-ii",
        ]),
        "no layers of hoyito-ii",
    );
}

#[test]
fn analyze_gives_each_move_inside_the_tables_its_exact_loss() {
    use sowing::{Game, Record, Rules, Side, Variant};
    let dir = TempDir::new("analyze");
    assert_ok(&build(&dir, "hoyito-ii", "8"));
    let rules = Rules::new(Variant::HoyitoII);
    let tables = sowing_tables::Tables::open(&dir.0, rules).unwrap();
    let family = tables.family();
    // A position where one move loses value and the game goes on after it.
    let (start, losing, loss) = (0..family.layer_len(8))
        .step_by(101)
        .find_map(|index| {
            let pos = family.position(8, index);
            let probe = tables.probe(&pos).ok()?;
            let (mv, v) = *probe.moves.iter().find(|m| m.1 < probe.value)?;
            let mut game = Game::from_position(pos);
            game.play(mv).unwrap();
            (!game.is_over()).then_some((pos, mv, probe.value - v))
        })
        .expect("a position with a losing move");
    let mut game = Game::from_position(start);
    game.play(losing).unwrap();
    // Then the best move.
    let reply = tables.probe(game.position()).unwrap();
    let best = reply.moves.iter().find(|m| m.1 == reply.value).unwrap().0;
    let second = game.position().to_move();
    game.play(best).unwrap();
    let record = dir.0.join("game.txt");
    std::fs::write(&record, Record::new(game).to_string()).unwrap();
    let output = sow(&[
        "analyze",
        record.to_str().unwrap(),
        "--tables",
        dir.arg(),
        "--depth",
        "2",
    ]);
    assert_ok(&output);
    let text = stdout(&output);
    let mut expected = [(0, 0, 0), (0, 0, 0)];
    let side = |s: Side| usize::from(s == Side::North);
    expected[side(start.to_move())].0 += 1;
    expected[side(start.to_move())].1 += 1;
    expected[side(start.to_move())].2 += loss;
    expected[side(second)].0 += 1;
    for (i, name) in ["south", "north"].iter().enumerate() {
        let (inside, lost, seeds) = expected[i];
        let line = format!(
            "tables, {name}: {inside} moves inside the tables, {lost} lost value, {seeds} seeds lost"
        );
        assert!(text.contains(&line), "{line} not in\n{text}");
    }
    let first = text.lines().nth(1).unwrap();
    assert!(first.contains(&format!(" {}  ", -loss)), "{first}");
    // A directory that is not one is refused.
    assert_refused(
        &sow(&[
            "analyze",
            record.to_str().unwrap(),
            "--tables",
            "/nonexistent/t",
        ]),
        "--tables",
    );
}

#[test]
fn analyze_json_marks_a_blunder_inside_the_tables_proven_with_its_exact_loss() {
    let dir = TempDir::new("analyze-json");
    assert_ok(&build(&dir, "hoyito-ii", "8"));
    // South's E gives up 16 seeds (B and F win by 8, E loses by 8); then North's b.
    let record = dir.0.join("game.txt");
    std::fs::write(
        &record,
        "[Game \"hoyito-ii\"]\n[Start \"hoyito-ii 0,2,0,0,1,1/3,0,0,0,0,1 20-20 S -\"]\n\nE b *\n",
    )
    .unwrap();
    let args = [
        "analyze",
        record.to_str().unwrap(),
        "--tables",
        dir.arg(),
        "--nodes",
        "3000",
    ];
    let output = sow(&[&args[..], &["--json"]].concat());
    assert_ok(&output);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let first = &json["turns"][0]["moves"][0];
    assert_eq!(first["move"], "E");
    assert_eq!(first["class"], "blunder");
    assert_eq!(first["loss"], 16.0);
    assert_eq!(first["proven"], true);
    assert!(first["depth"].is_null());
    assert!(
        ["B", "F"].contains(&first["best"].as_str().unwrap()),
        "{first}"
    );
    assert_eq!(json["turns"][0]["before"]["south"], 8.0);
    assert_eq!(json["players"]["south"]["accuracy"], 6.3);
    assert_eq!(json["players"]["south"]["blunders"], 1);
    assert_eq!(json["engine"], "level:6");
    assert_eq!(json["limits"], "nodes 3000");
    assert_eq!(json["tables"], 8);
    assert_eq!(json["plies"], 2);
    // The text output is as before: the table, then the sums.
    let text = stdout(&sow(&args));
    assert!(text.starts_with(" ply  side"), "{text}");
    assert!(
        text.contains("tables, south: 1 moves inside the tables, 1 lost value, 16 seeds lost"),
        "{text}"
    );
}

#[test]
fn errors_measures_a_player_against_perfect_play() {
    let dir = TempDir::new("errors");
    assert_ok(&build(&dir, "hoyito-ii", "8"));
    let errors = |player: &str| {
        let output = sow(&[
            "tables",
            "errors",
            "--game",
            "hoyito-ii",
            "--dir",
            dir.arg(),
            "--player",
            player,
            "--depth",
            "1",
            "--positions",
            "60",
        ]);
        assert_ok(&output);
        let text = stdout(&output);
        let all: Vec<i64> = text
            .lines()
            .find(|l| l.trim_start().starts_with("all "))
            .unwrap_or_else(|| panic!("no total in\n{text}"))
            .split_whitespace()
            .skip(1)
            .filter_map(|w| w.parse().ok())
            .collect();
        // positions, lost value, seeds lost
        (all[0], all[1], all[2], text)
    };
    let (positions, lost, seeds, text) = errors("perfect");
    assert_eq!((positions, lost, seeds), (60, 0, 0), "{text}");
    let (positions, lost, seeds, text) = errors("random");
    assert_eq!(positions, 60, "{text}");
    assert!(lost > 5 && seeds >= lost, "{text}");
}

/// A build killed in the middle of a layer solved on disk — while it expands, while it
/// reverses the moves, while it solves — and resumed each time gives the same files, byte
/// for byte, as a build never killed.
#[test]
fn a_build_killed_in_the_middle_of_a_layer_on_disk_resumes_to_identical_files() {
    let (whole, killed) = (TempDir::new("whole"), TempDir::new("killed"));
    let args = |dir: &TempDir| {
        [
            "tables",
            "build",
            "--game",
            "hoyito-iii",
            "--max-seeds",
            "12",
            "--threads",
            "1",
            "--quiet",
            "--dir",
            dir.arg(),
        ]
        .map(String::from)
        .to_vec()
    };
    let whole_args = args(&whole);
    assert_ok(&sow(&whole_args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()));
    let family = std::fs::read_dir(&whole.0)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let family = family.to_str().unwrap();
    // Layer 12: 1,352,078 positions in 28 ranges, about 3.8 million moves in 10 buckets.
    let mut on_disk = args(&killed);
    on_disk.extend(
        [
            "--on-disk",
            "--checkpoint-secs",
            "0",
            "--range-positions",
            "50000",
            "--bucket-moves",
            "400000",
        ]
        .map(String::from),
    );
    let work = killed.0.join(family).join("layer-012.work");
    let has = |prefix: &str| {
        std::fs::read_dir(&work).is_ok_and(|entries| {
            entries.flatten().any(|e| {
                let name = e.file_name();
                let name = name.to_str().unwrap_or_default();
                name.starts_with(prefix) && !name.ends_with(".partial")
            })
        })
    };
    for (step, first_file) in [
        ("expanding", "range-"),
        ("reversing", "rows-"),
        ("solving", "checkpoint"),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sow"))
            .args(&on_disk)
            .env_remove("SOWING_TABLES")
            .spawn()
            .expect("sow runs");
        while !has(first_file) {
            if let Some(status) = child.try_wait().unwrap() {
                panic!("the build ended ({status}) before it was {step}");
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            !killed.layer(family, 12).exists(),
            "killed while {step}, before layer 12 was written"
        );
    }
    assert_ok(&sow(&on_disk
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()));
    assert!(!work.exists(), "the work files are removed");
    for seeds in [4, 8, 12] {
        assert!(
            std::fs::read(whole.layer(family, seeds)).unwrap()
                == std::fs::read(killed.layer(family, seeds)).unwrap(),
            "layer {seeds} differs"
        );
    }
}
