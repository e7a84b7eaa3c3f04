//! `sow tables compress` and `sow tables build --compressed`: compressed tables answer every
//! probe, stat and proof as the raw ones did; a run resumes and `--check` compares; a
//! damaged compressed file is refused naming it.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{assert_ok, assert_refused, sow, stderr, stdout};

/// A fresh directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sow-compress-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn raw(&self, family: &str, seeds: usize) -> PathBuf {
        self.0.join(family).join(format!("layer-{seeds:03}.sowt"))
    }

    fn compressed(&self, family: &str, seeds: usize) -> PathBuf {
        self.0.join(family).join(format!("layer-{seeds:03}.sowz"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const H2: &str = "hoyito-ii-2x6-casa-rows=any";
const AYOAYO: &str = "ayoayo-2x6-leftover=last-mover";

fn build(dir: &TempDir, game: &str, seeds: &str, more: &[&str]) {
    let mut args = vec![
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
    ];
    args.extend_from_slice(more);
    assert_ok(&sow(&args));
}

fn compress(dir: &TempDir, more: &[&str]) -> Output {
    let mut args = vec!["tables", "compress", "--dir", dir.arg()];
    args.extend_from_slice(more);
    sow(&args)
}

const POSITIONS: [&str; 5] = [
    "hoyito-ii 1,3,0,0,0,0/0,0,0,0,0,0 20-24 S -",
    "hoyito-ii 0,0,0,0,0,0/1,3,0,0,0,0 24-20 N -",
    "hoyito-ii 0,2,0,1,0,0/0,0,3,0,0,0 20-22 S -",
    "hoyito-ii 1,0,0,0,1,0/0,2,0,0,1,1 20-22 N -",
    "ayoayo 1,0,0,0,0,0/0,0,0,0,0,1 20-26 S N",
];

/// What the tables answer: each position's probe line, then the stats of every family.
fn answers(dir: &TempDir) -> Vec<String> {
    let mut out: Vec<String> = POSITIONS
        .iter()
        .map(|p| {
            let probe = sow(&["tables", "probe", "--dir", dir.arg(), p]);
            assert_ok(&probe);
            stdout(&probe)
        })
        .collect();
    let stats = sow(&["tables", "stats", "--dir", dir.arg()]);
    assert_ok(&stats);
    out.push(stdout(&stats));
    out
}

#[test]
fn compressed_tables_answer_as_the_raw_ones_and_replace_them() {
    let dir = TempDir::new("replace");
    build(&dir, "hoyito-ii", "8", &[]);
    build(&dir, "ayoayo", "7", &[]);
    let before = answers(&dir);
    let run = compress(&dir, &["--block-positions", "64"]);
    assert_ok(&run);
    let said = stdout(&run);
    assert!(
        said.contains(&format!("{H2}: layers 1-8"))
            && said.contains("8 written, 8 checked value for value"),
        "{said}"
    );
    assert!(said.contains(&format!("{AYOAYO}: layers 1-7")), "{said}");
    for seeds in 1..=8 {
        assert!(!dir.raw(H2, seeds).exists() && dir.compressed(H2, seeds).exists());
    }
    assert_eq!(answers(&dir), before);
    assert_ok(&sow(&["tables", "verify", "--dir", dir.arg()]));
    // Nothing left to compress: the layers are counted, none written.
    let again = compress(&dir, &["--game", "hoyito-ii"]);
    assert_ok(&again);
    assert!(
        stdout(&again).contains("0 written, 0 checked"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn keep_raw_resumes_checks_and_replaces_a_damaged_compressed_file() {
    let dir = TempDir::new("keep");
    build(&dir, "hoyito-ii", "6", &[]);
    let before = answers_h2(&dir);
    let first = compress(&dir, &["--keep-raw", "--block-positions", "100"]);
    assert_ok(&first);
    assert!(stdout(&first).contains("6 written, 6 checked"));
    assert!(dir.raw(H2, 6).exists() && dir.compressed(H2, 6).exists());
    // Run again: each compressed file is found from the same values and checked, not written.
    let again = compress(&dir, &["--keep-raw"]);
    assert_ok(&again);
    assert!(
        stdout(&again).contains("0 written, 6 checked"),
        "{}",
        stdout(&again)
    );
    assert_ok(&compress(&dir, &["--check"]));

    // A damaged compressed file: --check refuses it by name, a run writes it again.
    let path = dir.compressed(H2, 5);
    let mut bytes = std::fs::read(&path).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let check = compress(&dir, &["--check"]);
    assert_refused(&check, &path.display().to_string());
    assert_refused(&check, "checksum does not match");
    let repaired = compress(&dir, &["--keep-raw"]);
    assert_ok(&repaired);
    assert!(
        stderr(&repaired).contains("compressing layer 5 again")
            && stdout(&repaired).contains("1 written, 6 checked"),
        "{}{}",
        stdout(&repaired),
        stderr(&repaired)
    );
    assert_ok(&compress(&dir, &[]));
    assert!(!dir.raw(H2, 6).exists());
    assert_eq!(answers_h2(&dir), before);
}

fn answers_h2(dir: &TempDir) -> Vec<String> {
    POSITIONS[..2]
        .iter()
        .map(|p| stdout(&sow(&["tables", "probe", "--dir", dir.arg(), p])))
        .collect()
}

#[test]
fn a_damaged_or_truncated_compressed_file_is_refused_naming_it() {
    let dir = TempDir::new("damaged");
    build(&dir, "hoyito-ii", "5", &[]);
    assert_ok(&compress(&dir, &[]));
    let position = POSITIONS[0];
    assert_ok(&sow(&["tables", "probe", "--dir", dir.arg(), position]));
    let path = dir.compressed(H2, 3);
    let name = path.display().to_string();
    let bytes = std::fs::read(&path).unwrap();
    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let probe = sow(&["tables", "probe", "--dir", dir.arg(), position]);
    assert_refused(&probe, &name);
    assert_refused(&probe, "checksum does not match");
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let probe = sow(&["tables", "probe", "--dir", dir.arg(), position]);
    assert_refused(&probe, &name);
    assert_refused(&probe, "truncated");
    assert_refused(&sow(&["tables", "verify", "--dir", dir.arg()]), "truncated");
}

#[test]
fn build_compressed_writes_the_files_compress_writes() {
    let (raw, direct) = (TempDir::new("raw"), TempDir::new("direct"));
    build(&raw, "hoyito-ii", "7", &[]);
    build(&direct, "hoyito-ii", "7", &["--compressed"]);
    assert_ok(&compress(&raw, &[]));
    for seeds in 1..=7 {
        assert!(!direct.raw(H2, seeds).exists());
        assert_eq!(
            std::fs::read(raw.compressed(H2, seeds)).unwrap(),
            std::fs::read(direct.compressed(H2, seeds)).unwrap(),
            "layer {seeds}"
        );
    }
    // A build resumed over compressed layers keeps them.
    let mut args = vec!["tables", "build", "--game", "hoyito-ii", "--max-seeds", "8"];
    args.extend_from_slice(&[
        "--layers",
        "all",
        "--compressed",
        "--quiet",
        "--dir",
        direct.arg(),
    ]);
    let resumed = sow(&args);
    assert_ok(&resumed);
    assert!(
        stderr(&resumed).contains("(1 built, 7 kept)"),
        "{}",
        stderr(&resumed)
    );
    assert!(direct.compressed(H2, 8).exists() && !direct.raw(H2, 8).exists());
}

#[test]
fn compress_refuses_an_empty_directory_and_a_block_of_nothing() {
    let dir = TempDir::new("empty");
    std::fs::create_dir_all(&dir.0).unwrap();
    assert_refused(&compress(&dir, &[]), "no tables");
    build(&dir, "hoyito-ii", "4", &[]);
    assert_refused(
        &compress(&dir, &["--block-positions", "0"]),
        "at least one position",
    );
    assert_refused(&compress(&dir, &["--level", "99"]), "99 is not in 1..=22");
}
