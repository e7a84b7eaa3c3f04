//! The prover and the checker where the truth is known: positions solved with small tables
//! agree with larger tables that hold them; every certificate checks; tampered ones are
//! refused naming the position that fails; a stopped and resumed run ends the same.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sowing::{FinalFour, Position, Rules, Side, Variant};
use sowing_solve::certificate::{Certificate, Entry};
use sowing_solve::prove::Prover;
use sowing_solve::{check, key_of, move_code, solve, Kind, SolveError};
use sowing_tables::{build, Family, Tables};

/// The tables the tests share, to 9 seeds (each family built once a process, when first
/// asked for).
const BIG: usize = 9;
/// The tables the prover gets: the positions it solves have 7 to 9 seeds.
const SMALL: usize = 4;

fn tables_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("sowing-solve-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    })
}

/// The tables of `rules` to `seeds` (≤ BIG), built on first use.
fn tables(rules: Rules, seeds: usize) -> Tables {
    static BUILDING: Mutex<()> = Mutex::new(());
    let _guard = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tables_dir();
    // Kept layers are checked, not rebuilt: a second call is quick.
    // Every layer: the tests open the tables to any number of seeds (by default a build
    // makes only the layers play reaches, in Hoyito every fourth).
    build::build(dir, rules, BIG, &build::Options::all_layers()).unwrap();
    Tables::open_up_to(dir, rules, seeds).unwrap()
}

fn all_rules() -> Vec<Rules> {
    let mut h3 = Rules::new(Variant::HoyitoIII);
    h3.final_four = FinalFour::To(Side::North);
    vec![
        Rules::new(Variant::HoyitoII),
        Rules::new(Variant::HoyitoIII),
        h3,
        Rules::new(Variant::Ayoayo),
    ]
}

/// Positions with `min..=max` seeds on the board reached by seeded random play.
fn positions(rules: Rules, min: usize, max: usize, count: usize, mut seed: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    while out.len() < count {
        let mut position = Position::start(rules);
        for _ in 0..5_000 {
            if position.is_over() || position.seeds_on_board() <= max {
                break;
            }
            let successors = position.successors();
            position = successors[next() % successors.len()].1;
        }
        if !position.is_over()
            && (min..=max).contains(&position.seeds_on_board())
            && !out.contains(&position)
        {
            out.push(position);
        }
    }
    out
}

fn solve_with(tables: &Tables, position: &Position) -> (solve::Solution, Certificate) {
    let mut prover = Prover::new(tables, 64 << 20);
    let solution = solve::solve(&mut prover, position, &solve::Options::default()).unwrap();
    let roots = solve::roots(&prover, position, &solution);
    let certificate = solve::certificate(&prover, position.rules(), roots).unwrap();
    (solution, certificate)
}

#[test]
fn small_tables_agree_with_the_tables_that_hold_the_position() {
    for rules in all_rules() {
        let big = tables(rules, BIG);
        let small = tables(rules, SMALL);
        for position in positions(rules, BIG - 2, BIG, 3, 7) {
            let (solution, certificate) = solve_with(&small, &position);
            let probe = big.probe(&position).unwrap();
            assert_eq!(solution.exact(), Some(probe.value), "{position}");
            let mut moves: Vec<(sowing::Move, i32)> =
                solution.moves.iter().map(|m| (m.mv, m.lower)).collect();
            assert!(
                solution.moves.iter().all(|m| m.lower == m.upper),
                "{position}"
            );
            moves.sort_by_key(|m| format!("{:?}", m.0));
            let mut truth = probe.moves.clone();
            truth.sort_by_key(|m| format!("{:?}", m.0));
            assert_eq!(moves, truth, "{position}");
            // The certificate checks, with the small tables and with the big ones.
            let report = check::verify(&certificate, &small).unwrap();
            assert!(report.roots.iter().any(|r| r.label == "position"));
            check::verify(&certificate, &big).unwrap();
            // And it survives its file format.
            let back = Certificate::decode(&certificate.encode(), Path::new("mem")).unwrap();
            check::verify(&back, &small).unwrap();
        }
    }
}

/// A certificate with claims to tamper with: a Hoyito II position solved with small tables.
fn sample() -> (Tables, Position, i32, Certificate) {
    let rules = Rules::new(Variant::HoyitoII);
    let small = tables(rules, SMALL);
    let position = positions(rules, BIG - 1, BIG, 1, 11)[0];
    let (solution, certificate) = solve_with(&small, &position);
    let value = solution.exact().unwrap();
    assert!(certificate.claims.len() > 10);
    (small, position, value, certificate)
}

fn refused(result: Result<check::Report, SolveError>) -> (Position, String) {
    match result {
        Err(SolveError::Refused { position, why }) => (
            position
                .parse()
                .unwrap_or_else(|e| panic!("{position:?} is not a position: {e}")),
            why,
        ),
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("a tampered certificate was confirmed"),
    }
}

fn family_key(position: &Position) -> u64 {
    key_of(&Family::of(position.rules()), position)
}

#[test]
fn a_wrong_move_is_refused_at_its_position() {
    let (tables, _, _, certificate) = sample();
    let family = certificate.family();
    let mut tried = 0;
    for (i, entry) in certificate.claims.iter().enumerate() {
        let Some((bound, code)) = entry.lower else {
            continue;
        };
        let position = sowing_solve::position_of(&family, entry.key).unwrap();
        let n = position.rules().pits_per_row();
        // Every other legal move, and a column that is not a legal move.
        let mut codes: Vec<u8> = position
            .legal_moves()
            .iter()
            .map(|&m| move_code(m, n))
            .filter(|&c| c != code)
            .collect();
        codes.extend((0..n as u8).filter(|c| {
            !position
                .legal_moves()
                .iter()
                .any(|&m| move_code(m, n) == *c)
        }));
        for other in codes {
            let mut tampered = certificate.clone();
            tampered.claims[i].lower = Some((bound, other));
            if let Err(error) = check::verify(&tampered, &tables) {
                let (at, why) = refused(Err(error));
                assert_eq!(family_key(&at), entry.key, "{why}");
                assert!(why.contains("V ≥"), "{why}");
                tried += 1;
            }
        }
        if tried >= 5 {
            break;
        }
    }
    assert!(tried >= 5, "too few wrong moves refused: {tried}");
}

#[test]
fn a_missing_reply_is_refused_at_the_position_that_needs_it() {
    let (tables, _, _, certificate) = sample();
    let mut tried = 0;
    for i in 0..certificate.claims.len() {
        if certificate.claims[i].upper.is_none() {
            continue;
        }
        let removed = certificate.claims[i].key;
        let mut tampered = certificate.clone();
        tampered.claims[i].upper = None;
        if tampered.claims[i].lower.is_none() {
            tampered.claims.remove(i);
        }
        let (at, why) = refused(check::verify(&tampered, &tables));
        // The position named needs the claim removed: one of its moves leads there.
        assert!(
            at.successors()
                .iter()
                .any(|(_, c)| family_key(c) == removed)
                || family_key(&at) == removed,
            "{at}: {why}"
        );
        assert!(
            why.contains("no such claim") || why.contains("not proven"),
            "{why}"
        );
        tried += 1;
        if tried >= 5 {
            break;
        }
    }
    assert!(tried >= 1);
}

#[test]
fn a_bound_off_by_one_is_refused() {
    let (tables, position, value, certificate) = sample();
    // The root claims the exact value; one more (or one less) is not proven.
    for (kind, bound) in [(Kind::Lower, value + 1), (Kind::Upper, value - 1)] {
        let mut tampered = certificate.clone();
        tampered.roots = vec![sowing_solve::certificate::Root {
            label: "position".into(),
            position,
            kind,
            bound,
        }];
        let (at, why) = refused(check::verify(&tampered, &tables));
        assert_eq!(family_key(&at), family_key(&position), "{why}");
        assert!(why.contains("not proven"), "{why}");
    }
    // A claim inside raised by one: refused at that claim when the raise is false.
    let mut refusals = 0;
    for (i, entry) in certificate.claims.iter().enumerate() {
        let mut tampered = certificate.clone();
        if let Some((bound, mv)) = entry.lower {
            tampered.claims[i].lower = Some((bound + 1, mv));
        } else if let Some(bound) = entry.upper {
            tampered.claims[i].upper = Some(bound - 1);
        }
        if let Err(error) = check::verify(&tampered, &tables) {
            let (at, why) = refused(Err(error));
            assert_eq!(family_key(&at), entry.key, "{why}");
            refusals += 1;
        }
    }
    assert!(refusals > 0);
}

/// Positions of Hoyito II with `seeds` seeds from which the mover has a move that captures
/// nothing after which every reply captures nothing and leads back into the set: a set
/// closed under shuffling without captures (the greatest such set).
fn shuffling_set(seeds: usize) -> Vec<(u64, u8, Vec<u64>)> {
    let rules = Rules::new(Variant::HoyitoII);
    let family = Family::of(rules);
    let mut alive: std::collections::HashSet<u64> = (0..family.layer_len(seeds))
        .map(|i| family.position(seeds, i))
        .filter(|p| !p.is_over())
        .map(|p| key_of(&family, &p))
        .collect();
    loop {
        let mut next = Vec::new();
        for &key in &alive {
            let p = sowing_solve::position_of(&family, key).unwrap();
            let n = rules.pits_per_row();
            for (mv, c) in p.successors() {
                let quiet = |a: &Position, b: &Position| {
                    !b.is_over()
                        && b.seeds_on_board() == a.seeds_on_board()
                        && b.to_move() != a.to_move()
                };
                if !quiet(&p, &c) {
                    continue;
                }
                let replies = c.successors();
                if replies
                    .iter()
                    .all(|(_, r)| quiet(&c, r) && alive.contains(&key_of(&family, r)))
                {
                    next.push((key, move_code(mv, n), key_of(&family, &c)));
                    break;
                }
            }
        }
        if next.len() == alive.len() {
            let mut by_key: std::collections::HashMap<u64, (u8, Vec<u64>)> = Default::default();
            for (key, code, child) in next {
                by_key.insert(key, (code, vec![child]));
            }
            return by_key.into_iter().map(|(k, (c, ch))| (k, c, ch)).collect();
        }
        alive = next.iter().map(|e| e.0).collect();
    }
}

#[test]
fn a_cycle_inside_a_reachability_proof_is_refused_and_a_safety_cycle_is_not() {
    let rules = Rules::new(Variant::HoyitoII);
    let tables = tables(rules, 1);
    let (seeds, set) = (2..=BIG)
        .map(|s| (s, shuffling_set(s)))
        .find(|(_, set)| !set.is_empty())
        .expect("some layer has positions that can shuffle for ever");
    assert!(seeds > 1);
    // "V ≥ b" for the set's positions by the shuffling move, "V ≤ −b" after it.
    let claims = |b: i32| -> Certificate {
        let mut entries: std::collections::BTreeMap<u64, Entry> = Default::default();
        for (key, code, children) in &set {
            entries
                .entry(*key)
                .or_insert(Entry {
                    key: *key,
                    lower: None,
                    upper: None,
                })
                .lower = Some((b, *code));
            for &child in children {
                entries
                    .entry(child)
                    .or_insert(Entry {
                        key: child,
                        lower: None,
                        upper: None,
                    })
                    .upper = Some(-b);
            }
        }
        Certificate {
            rules,
            leaf_seeds: 1,
            roots: Vec::new(),
            claims: entries.into_values().collect(),
        }
    };
    // Shuffling for ever is worth 0: "V ≥ 0" holds by safety, through the cycle.
    check::verify(&claims(0), &tables).unwrap();
    // "V ≥ 1" would need a gain reached in finitely many moves: the cycle is refused.
    let (at, why) = refused(check::verify(&claims(1), &tables));
    assert!(why.contains("cycle"), "{why}");
    let key = family_key(&at);
    assert!(set.iter().any(|e| e.0 == key || e.2.contains(&key)), "{at}");
}

#[test]
fn a_stopped_run_resumes_to_the_same_result() {
    let rules = Rules::new(Variant::HoyitoIII);
    let small = tables(rules, SMALL + 1);
    let position = positions(rules, BIG - 1, BIG, 1, 5)[0];
    let (whole, _) = solve_with(&small, &position);
    let checkpoint = tables_dir().join("resume.checkpoint");
    // Stopped after a third of the nodes the whole run took, then resumed from the
    // checkpoint of the last part, until it finishes.
    let mut nodes = 0;
    for round in 0..20 {
        let mut prover = Prover::new(&small, 64 << 20);
        if round > 0 {
            solve::read_checkpoint(&mut prover, &checkpoint).unwrap();
        }
        let options = solve::Options {
            max_nodes: Some(whole.nodes / 3 + 1),
            ..solve::Options::default()
        };
        let part = solve::solve(&mut prover, &position, &options).unwrap();
        nodes += part.nodes;
        solve::write_checkpoint(&prover, rules, &checkpoint).unwrap();
        if part.stopped.is_none() {
            assert!(round > 0, "the run was not stopped");
            assert_eq!(part.exact(), whole.exact());
            assert_eq!(part.moves, whole.moves);
            let roots = solve::roots(&prover, &position, &part);
            let certificate = solve::certificate(&prover, rules, roots).unwrap();
            check::verify(&certificate, &small).unwrap();
            assert!(nodes > 0);
            return;
        }
    }
    panic!("the run did not finish in 20 rounds");
}

#[test]
fn a_certificate_of_other_tables_is_refused() {
    let (_, _, _, certificate) = sample();
    let other = tables(Rules::new(Variant::Ayoayo), SMALL);
    assert!(matches!(
        check::verify(&certificate, &other),
        Err(SolveError::Unsupported(_))
    ));
    let fewer = tables(Rules::new(Variant::HoyitoII), SMALL - 1);
    assert!(matches!(
        check::verify(&certificate, &fewer),
        Err(SolveError::Unsupported(_))
    ));
}

#[test]
fn tests_from_the_ends_start_at_both_ends_and_reach_the_same_values() {
    for rules in all_rules() {
        let small = tables(rules, SMALL);
        let big = tables(rules, BIG);
        for position in positions(rules, BIG - 2, BIG, 2, 13) {
            let seeds = position.seeds_on_board() as i32;
            let mut prover = Prover::new(&small, 64 << 20);
            let options = solve::Options {
                order: solve::Order::FromEnds,
                ..solve::Options::default()
            };
            let solution = solve::solve(&mut prover, &position, &options).unwrap();
            let value = big.probe(&position).unwrap().value;
            assert_eq!(solution.exact(), Some(value), "{position}");
            // The first test is the lower end, "V ≥ −seeds + 1?"; the next, if the interval
            // is still open, the upper end as proven then (at or above the value); every
            // answer agrees with the tables.
            let tests = &solution.tests;
            assert_eq!(
                tests[0],
                (1 - seeds, value > -seeds),
                "{position}: {tests:?}"
            );
            if let Some(&(t, _)) = tests.get(1) {
                assert!(t >= value && t > 1 - seeds, "{position}: {tests:?}");
            }
            for &(t, yes) in tests {
                assert_eq!(yes, value >= t, "{position}: {tests:?}");
            }
            // Bisecting starts in the middle instead.
            let (bisected, certificate) = solve_with(&small, &position);
            assert_eq!(bisected.tests[0].0, 0, "{position}");
            assert_eq!(bisected.moves, solution.moves, "{position}");
            check::verify(&certificate, &small).unwrap();
            // And the run from the ends has a certificate that checks.
            let roots = solve::roots(&prover, &position, &solution);
            let certificate = solve::certificate(&prover, rules, roots).unwrap();
            check::verify(&certificate, &small).unwrap();
        }
    }
}

#[test]
fn a_run_from_the_ends_stopped_early_keeps_the_bounds_it_proved() {
    let rules = Rules::new(Variant::HoyitoII);
    let small = tables(rules, SMALL);
    let position = positions(rules, BIG - 1, BIG, 1, 17)[0];
    let seeds = position.seeds_on_board() as i32;
    let (whole, _) = solve_with(&small, &position);
    let value = whole.exact().unwrap();
    for max_nodes in [1, 10, 100, 1_000] {
        let mut prover = Prover::new(&small, 64 << 20);
        let options = solve::Options {
            order: solve::Order::FromEnds,
            max_nodes: Some(max_nodes),
            ..solve::Options::default()
        };
        let part = solve::solve(&mut prover, &position, &options).unwrap();
        assert!(part.lower <= value && value <= part.upper, "{part:?}");
        assert!(part.lower >= -seeds && part.upper <= seeds);
        // Every answered test agrees with the value.
        for &(t, yes) in &part.tests {
            assert_eq!(yes, value >= t, "V ≥ {t}? {part:?}");
        }
        let roots = solve::roots(&prover, &position, &part);
        let certificate = solve::certificate(&prover, rules, roots).unwrap();
        check::verify(&certificate, &small).unwrap();
    }
}
