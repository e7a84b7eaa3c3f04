//! The engine with endgame tables: small Hoyito II tables are built here, in a temporary
//! directory, and every choice is checked against them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sowing::{Game, Move, Position, Rules, Variant};
use sowing_engine::tables::{perfect_move, value};
use sowing_engine::{Engine, Limits, PlayerSpec, Score, TableSet};
use sowing_tables::{build, Family, Format, Tables};

/// The seeds of the tables built here.
const SEEDS: usize = 9;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sowing-engine-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn built(name: &str, rules: Rules, seeds: usize) -> (TempDir, Tables) {
    built_as(name, rules, seeds, false)
}

/// [`built`], the layers written raw or compressed (`sow tables build --compressed`).
fn built_as(name: &str, rules: Rules, seeds: usize, compressed: bool) -> (TempDir, Tables) {
    let dir = TempDir::new(name);
    let options = build::Options {
        compressed: compressed.then(Default::default),
        ..build::Options::all_layers()
    };
    build::build(&dir.0, rules, seeds, &options).unwrap();
    let tables = Tables::open(&dir.0, rules).unwrap();
    assert_eq!(tables.max_seeds(), seeds);
    let form = tables.values(seeds).format();
    assert_eq!(
        form,
        Some(if compressed {
            Format::Compressed
        } else {
            Format::Raw
        })
    );
    (dir, tables)
}

/// Positions spread over layers `layers` of the family, South to move, and the positions
/// their first legal move leads to (most with North to move).
fn positions(family: Family, layers: std::ops::RangeInclusive<usize>, each: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for seeds in layers {
        let len = family.layer_len(seeds);
        let step = (len / each).max(1);
        for index in (0..len).step_by(step as usize).take(each as usize) {
            let pos = family.position(seeds, index);
            if pos.is_over() {
                continue;
            }
            if let Some((_, child)) = pos.successors().first() {
                if !child.is_over() {
                    out.push(*child);
                }
            }
            out.push(pos);
        }
    }
    out
}

/// Each legal move's value for the mover, from the tables.
fn move_values(tables: &Tables, pos: &Position) -> Vec<(Move, i32)> {
    tables.probe(pos).unwrap().moves
}

fn has_real_choice(values: &[(Move, i32)]) -> bool {
    values.iter().any(|m| m.1 != values[0].1)
}

fn margin(pos: &Position) -> i32 {
    let c = pos.captured();
    i32::from(c[pos.to_move()]) - i32::from(c[!pos.to_move()])
}

#[test]
fn a_root_inside_the_tables_plays_a_value_optimal_move_at_once() {
    root_plays_a_value_optimal_move_at_once(false);
}

#[test]
fn a_root_inside_compressed_tables_plays_a_value_optimal_move_at_once() {
    root_plays_a_value_optimal_move_at_once(true);
}

fn root_plays_a_value_optimal_move_at_once(compressed: bool) {
    let rules = Rules::new(Variant::HoyitoII);
    let name = if compressed { "root-z" } else { "root" };
    let (dir, tables) = built_as(name, rules, SEEDS, compressed);
    let set = Arc::new(TableSet::open(&dir.0).unwrap());
    let mut engine = PlayerSpec::Level(6)
        .build_engine_with_tables(0, Some(set))
        .unwrap();
    let mut choices = 0;
    for pos in positions(tables.family(), 2..=SEEDS, 120) {
        let values = move_values(&tables, &pos);
        let best = values.iter().map(|m| m.1).max().unwrap();
        let game = Game::from_position(pos);
        // A depth of 1 would not see past its horizon: the answer comes from the tables.
        let result = engine.go(
            &game,
            &Limits {
                depth: Some(1),
                ..Limits::default()
            },
            &mut |_| {},
        );
        let played = values.iter().find(|m| m.0 == result.best).unwrap().1;
        assert_eq!(played, best, "{pos}: {:?} of {values:?}", result.best);
        assert_eq!(result.score, Score::Proven(margin(&pos) + best), "{pos}");
        choices += usize::from(has_real_choice(&values));
    }
    assert!(choices > 300, "only {choices} positions with a real choice");
}

#[test]
fn the_search_takes_exact_values_from_the_tables_below_the_root() {
    // Tables to SEEDS for the truth; the engine gets only the layers up to SEEDS − 2, so its
    // roots (SEEDS − 1 seeds) are searched, each capture landing in the tables.
    let rules = Rules::new(Variant::HoyitoII);
    let (_full_dir, full) = built("search-full", rules, SEEDS);
    let lower = TempDir::new("search-lower");
    let family = full.family();
    std::fs::create_dir_all(lower.0.join(family.name())).unwrap();
    for seeds in 1..=SEEDS - 2 {
        let from = sowing_tables::file::layer_path(&_full_dir.0, &family, seeds);
        let to = sowing_tables::file::layer_path(&lower.0, &family, seeds);
        std::fs::copy(from, to).unwrap();
    }
    let set = Arc::new(TableSet::open(&lower.0).unwrap());
    assert_eq!(set.tables(rules).unwrap().unwrap().max_seeds(), SEEDS - 2);
    let mut engine = PlayerSpec::Perfect
        .build_engine_with_tables(0, Some(set))
        .unwrap();
    let (mut proven, mut searched) = (0, 0);
    for pos in positions(family, SEEDS - 1..=SEEDS - 1, 100) {
        let values = move_values(&full, &pos);
        let best = values.iter().map(|m| m.1).max().unwrap();
        engine.new_game();
        let result = engine.go(
            &Game::from_position(pos),
            &Limits {
                nodes: Some(200_000),
                ..Limits::default()
            },
            &mut |_| {},
        );
        searched += 1;
        if let Score::Proven(m) = result.score {
            proven += 1;
            assert_eq!(m, margin(&pos) + best, "{pos}: {result:?} {values:?}");
            let played = values.iter().find(|v| v.0 == result.best).unwrap().1;
            assert_eq!(played, best, "{pos}: {result:?} {values:?}");
        }
    }
    // Every capture lands in the tables: most roots are proven within the nodes.
    assert!(proven * 10 >= searched * 7, "{proven} of {searched} proven");
}

#[test]
fn perfect_players_realise_the_tables_value_and_never_lose_value() {
    perfect_players_realise_the_value(false);
}

#[test]
fn perfect_players_realise_the_value_of_compressed_tables() {
    perfect_players_realise_the_value(true);
}

fn perfect_players_realise_the_value(compressed: bool) {
    let rules = Rules::new(Variant::HoyitoII);
    let name = if compressed { "perfect-z" } else { "perfect" };
    let (dir, tables) = built_as(name, rules, SEEDS, compressed);
    let set = Arc::new(TableSet::open(&dir.0).unwrap());
    let spec: PlayerSpec = "perfect".parse().unwrap();
    assert_eq!(spec.to_string(), "perfect");
    let mut south = spec.build_with_tables(1, Some(set.clone()));
    let mut north = spec.build_with_tables(2, Some(set));
    let mut games = 0;
    let mut wins = 0;
    for start in positions(tables.family(), 4..=SEEDS, 12) {
        let v = tables.value(&start).unwrap();
        let mover = start.to_move();
        let mut game = Game::from_position(start);
        while !game.is_over() {
            let pos = *game.position();
            let values = move_values(&tables, &pos);
            let best = values.iter().map(|m| m.1).max().unwrap();
            let player = if pos.to_move() == start.to_move() {
                &mut south
            } else {
                &mut north
            };
            let mv = player.choose(&game, &Limits::default(), &mut |_| {});
            // Without history (the start) the tables' values are the game's; later a move
            // that repeats a position is valued by perfect_move as the end it is.
            let played = values.iter().find(|m| m.0 == mv).unwrap().1;
            if game.positions_since_capture().is_empty() {
                assert_eq!(played, best, "{pos}: {mv:?} of {values:?}");
            }
            game.play(mv).unwrap();
            assert!(game.moves().len() < 400, "{start}: no end in sight");
        }
        let end = game.position();
        let gained = |side| i32::from(end.captured()[side]) - i32::from(start.captured()[side]);
        assert_eq!(
            gained(mover) - gained(!mover),
            v,
            "{start}: {:?}",
            game.moves()
        );
        games += 1;
        wins += usize::from(v > 0);
    }
    assert!(games > 50 && wins > 10, "{games} games, {wins} wins");
}

#[test]
fn levels_1_to_4_and_plain_search_leave_the_tables_alone() {
    let rules = Rules::new(Variant::HoyitoII);
    let (dir, _tables) = built("weak", rules, 5);
    let set = Arc::new(TableSet::open(&dir.0).unwrap());
    for spec in ["level:1", "level:4", "search"] {
        let engine = spec
            .parse::<PlayerSpec>()
            .unwrap()
            .build_engine_with_tables(0, Some(set.clone()))
            .unwrap();
        assert!(engine.tables_for(rules).is_none(), "{spec}");
    }
    for spec in ["level:5", "level:6", "perfect", "search:tables=on"] {
        let engine = spec
            .parse::<PlayerSpec>()
            .unwrap()
            .build_engine_with_tables(0, Some(set.clone()))
            .unwrap();
        assert_eq!(engine.tables_for(rules).unwrap().max_seeds(), 5, "{spec}");
        // Another game has no tables here.
        assert!(engine.tables_for(Rules::new(Variant::Ayoayo)).is_none());
    }
    let plain = Engine::new(Default::default(), 0);
    assert!(plain.tables_for(rules).is_none());
}

#[test]
fn a_bad_directory_is_refused() {
    let missing = Path::new("/nonexistent/sowing-tables");
    assert!(TableSet::open(missing).is_err());
    assert!(TableSet::resolve(Some(missing)).is_err());
    let file = std::env::temp_dir().join(format!("sowing-engine-file-{}", std::process::id()));
    std::fs::write(&file, b"x").unwrap();
    assert!(TableSet::open(&file).is_err());
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn perfect_move_is_none_outside_the_tables() {
    let rules = Rules::new(Variant::HoyitoII);
    let (_dir, tables) = built("outside", rules, 4);
    let game = Game::new(rules);
    assert!(perfect_move(&tables, &game).is_none());
    assert!(value(&tables, game.position()).is_none());
}
