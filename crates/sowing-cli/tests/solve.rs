//! `sow solve` and `sow solve verify` end to end on a small position: the JSON last line,
//! the certificate confirmed, a damaged or tampered one refused, a stopped run resumed.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{assert_ok, assert_refused, sow, stderr, stdout, TempDir};

/// 10 seeds on the board, solved with tables to 6 and checked against tables to 10.
const POSITION: &str = "hoyito-ii 0,2,1,0,0,1/0,3,0,1,0,2 20-18 S -";

fn json_line(output: &Output) -> serde_json::Value {
    let out = stdout(output);
    let last = out.lines().last().expect("some output");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{last}: {e}"))
}

#[test]
fn solve_prints_json_last_and_its_certificate_verifies() {
    let dir = TempDir::new("solve-end-to-end");
    let tables = dir.path("tables");
    for seeds in ["6", "10"] {
        let small = if seeds == "6" {
            dir.path("small")
        } else {
            tables.clone()
        };
        assert_ok(&sow(&[
            "tables",
            "build",
            "--game",
            "hoyito-ii",
            "--max-seeds",
            seeds,
            // Every layer: the position solved is a set-up one with 10 seeds.
            "--layers",
            "all",
            "--dir",
            &small,
            "--quiet",
        ]));
    }
    let truth = sow(&["tables", "probe", POSITION, "--dir", &tables]);
    assert_ok(&truth);
    let truth: serde_json::Value = serde_json::from_str(stdout(&truth).trim()).unwrap();

    let cert = dir.path("p.cert");
    let small = dir.path("small");
    let output = sow(&[
        "solve",
        POSITION,
        "--tables",
        &small,
        "--memory",
        "0.05",
        "--certificate",
        &cert,
    ]);
    assert_ok(&output);
    let line = json_line(&output);
    assert_eq!(line["exact"], truth["value"], "{}", stdout(&output));
    assert_eq!(line["lower"], line["upper"]);
    assert_eq!(line["certificate"], cert.as_str());
    assert!(line["nodes"].as_u64().unwrap() > 0);
    assert!(line["seconds"].is_number());
    let moves = line["moves"].as_array().unwrap();
    assert_eq!(moves.len(), truth["moves"].as_array().unwrap().len());
    for m in moves {
        let t = truth["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["move"] == m["move"])
            .unwrap();
        assert_eq!(m["lower"], t["value"]);
        assert_eq!(m["upper"], t["value"]);
    }

    // The checker confirms it with either tables, and names what it proves.
    for t in [&small, &tables] {
        let verify = sow(&["solve", "verify", &cert, "--tables", t]);
        assert_ok(&verify);
        let out = stdout(&verify);
        assert!(
            out.contains(&format!("position: V ≥ {}", line["exact"])),
            "{out}"
        );
        assert!(out.contains("confirmed"), "{out}");
    }

    // A damaged file is refused; so is a certificate checked without the tables it needs.
    let mut bytes = std::fs::read(&cert).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x10;
    let damaged = dir.path("damaged.cert");
    std::fs::write(&damaged, &bytes).unwrap();
    assert_refused(
        &sow(&["solve", "verify", &damaged, "--tables", &small]),
        "checksum",
    );
    let none = dir.path("none");
    std::fs::create_dir_all(&none).unwrap();
    assert_refused(
        &sow(&["solve", "verify", &cert, "--tables", &none]),
        "holds only 0",
    );

    // A run stopped by its node limit reports bounds, then resumes from its checkpoint.
    let cert2 = dir.path("q.cert");
    let stopped = sow(&[
        "solve",
        POSITION,
        "--tables",
        &small,
        "--memory",
        "0.05",
        "--certificate",
        &cert2,
        "--max-nodes",
        "50",
    ]);
    assert_ok(&stopped);
    assert!(
        stdout(&stopped).contains("stopped: the node limit"),
        "{}",
        stdout(&stopped)
    );
    assert!(PathBuf::from(format!("{cert2}.checkpoint")).exists());
    let resumed = sow(&[
        "solve",
        POSITION,
        "--tables",
        &small,
        "--memory",
        "0.05",
        "--certificate",
        &cert2,
    ]);
    assert_ok(&resumed);
    assert!(
        stderr(&resumed).contains("resuming from"),
        "{}",
        stderr(&resumed)
    );
    assert_eq!(json_line(&resumed)["exact"], line["exact"]);
}

#[test]
fn solve_refuses_bad_input() {
    let dir = TempDir::new("solve-refusals");
    let tables = dir.path("tables");
    assert_refused(
        &sow(&["solve", "nonsense", "--tables", &tables]),
        "cannot read the position",
    );
    assert_refused(
        &sow(&[
            "solve",
            "verify",
            &dir.path("missing.cert"),
            "--tables",
            &tables,
        ]),
        "missing.cert",
    );
    std::fs::write(dir.path("junk.cert"), b"not a certificate").unwrap();
    assert_refused(
        &sow(&[
            "solve",
            "verify",
            &dir.path("junk.cert"),
            "--tables",
            &tables,
        ]),
        "SOWCERT1",
    );
    std::fs::create_dir_all(&tables).unwrap();
    assert_refused(
        &sow(&["solve", "--game", "hoyito-iii", "--tables", &tables]),
        "no tables",
    );
    assert_refused(
        &sow(&["solve", "--tables", &tables, "--memory", "0"]),
        "--memory",
    );
    // The layers play reaches (4 and 8): a set-up position of 10 seeds reaches 6 and 2.
    assert_ok(&sow(&[
        "tables",
        "build",
        "--game",
        "hoyito-ii",
        "--max-seeds",
        "8",
        "--dir",
        &tables,
        "--quiet",
    ]));
    assert_refused(
        &sow(&["solve", POSITION, "--tables", &tables]),
        "reaches layer 6 of the tables, which is not built",
    );
}
