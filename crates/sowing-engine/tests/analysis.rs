//! The analysis after the game ([`sowing_engine::analysis`]) on explicit positions: inside
//! small Hoyito II tables (built here, every layer to 8 seeds) each move's loss is exact and
//! marked proven; above them it is the engine's estimate with its depth; a turn of several
//! moves is one turn; the classes and the accuracy follow the documented thresholds.

use std::path::PathBuf;
use std::sync::Arc;

use sowing::{Game, Position, Rules, Variant};
use sowing_engine::analysis::{analyse, Analysis, Class, MoveAnalysis};
use sowing_engine::{levels, Engine, Limits, TableSet};
use sowing_tables::{build, Tables};

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Hoyito II tables, every layer to 8 seeds, in a directory of their own.
fn tables(name: &str) -> (TempDir, Arc<TableSet>, Arc<Tables>) {
    let dir = std::env::temp_dir().join(format!("sowing-analysis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rules = Rules::new(Variant::HoyitoII);
    build::build(&dir, rules, 8, &build::Options::all_layers()).unwrap();
    let set = Arc::new(TableSet::open(&dir).unwrap());
    let tables = set.tables(rules).unwrap().unwrap();
    (TempDir(dir), set, tables)
}

fn game(position: &str, moves: &[&str]) -> Game {
    let start: Position = position.parse().unwrap();
    let mut game = Game::from_position(start);
    for name in moves {
        game.play(game.parse_move(name).unwrap()).unwrap();
    }
    game
}

fn depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// The analysis by level 6 with the tables (for its search and the exact losses).
fn with_tables(game: &Game, set: &Arc<TableSet>, tables: &Tables) -> Analysis {
    let mut engine = Engine::new(levels::settings(6), 0);
    engine.set_tables(Some(set.clone()));
    analyse(
        game,
        &mut engine,
        "level:6",
        &depth(4),
        Some(tables),
        &mut |_| {},
    )
    .unwrap()
}

fn moves(analysis: &Analysis) -> Vec<&MoveAnalysis> {
    analysis.turns.iter().flat_map(|t| &t.moves).collect()
}

#[test]
fn classes_follow_the_documented_thresholds() {
    for (loss, class) in [
        (0, Class::Best),
        (49, Class::Best),
        (50, Class::Inaccuracy),
        (199, Class::Inaccuracy),
        (200, Class::Mistake),
        (499, Class::Mistake),
        (500, Class::Blunder),
        (1600, Class::Blunder),
    ] {
        assert_eq!(Class::of(loss), class, "{loss} centiseeds");
    }
}

#[test]
fn a_blunder_inside_the_tables_is_proven_with_its_exact_loss() {
    let (_dir, set, tables) = tables("blunder");
    // South to move with 8 seeds on the board: B and F win by 8 with perfect play, E loses
    // by 8 (it feeds North a relay): E gives up 16 seeds.
    let start = "hoyito-ii 0,2,0,0,1,1/3,0,0,0,0,1 20-20 S -";
    let probe = tables.probe(&start.parse().unwrap()).unwrap();
    let value_of = |name: &str| probe.moves.iter().find(|m| m.0.name(6).to_string() == name);
    assert_eq!((probe.value, value_of("E").unwrap().1), (8, -8));
    let mut played = game(start, &["E"]);
    // North answers with a best move of the tables.
    let reply = tables.probe(played.position()).unwrap();
    let best_reply = reply.moves.iter().find(|m| m.1 == reply.value).unwrap().0;
    played.play(best_reply).unwrap();

    let analysis = with_tables(&played, &set, &tables);
    let all = moves(&analysis);
    assert_eq!(all.len(), 2);
    let blunder = all[0];
    assert_eq!(
        (
            blunder.mv.as_str(),
            blunder.class,
            blunder.loss,
            blunder.proven
        ),
        ("E", Class::Blunder, 16.0, true)
    );
    assert_eq!(blunder.depth, None, "the tables decided it, not a search");
    let best = blunder.best.as_deref().unwrap();
    assert!(best == "B" || best == "F", "better move {best}");
    // Values for South, the mover: the captures so far (level) plus the tables' value.
    assert_eq!((blunder.best_value, blunder.played_value), (8.0, -8.0));
    assert!(!blunder.forced);
    let answer = all[1];
    assert_eq!(
        (
            answer.class,
            answer.loss,
            answer.proven,
            answer.best.as_deref()
        ),
        (Class::Best, 0.0, true, None)
    );
    // One turn each; the graph's values (South's side) are exact.
    assert_eq!(analysis.turns.len(), 2);
    let first = &analysis.turns[0];
    assert_eq!(first.side, "south");
    assert_eq!((first.before.south, first.before.proven), (8.0, true));
    assert_eq!((first.after.south, first.after.proven), (-8.0, true));
    // Accuracy: one move that gave up 16 seeds, 100 × 2^(−16/4).
    let south = &analysis.players.south;
    assert_eq!(
        (south.moves, south.blunders, south.proven, south.seeds_lost),
        (1, 1, 1, 16.0)
    );
    assert_eq!(south.accuracy, Some(6.3));
    assert_eq!(south.average_loss, Some(16.0));
    let north = &analysis.players.north;
    assert_eq!((north.best, north.accuracy), (1, Some(100.0)));
    assert_eq!(analysis.tables, Some(8));
    assert_eq!(analysis.engine, "level:6");
    assert_eq!(analysis.limits, "depth 4");
}

#[test]
fn a_capture_and_the_move_it_gives_make_one_turn() {
    let (_dir, set, tables) = tables("turn");
    // E makes a casa at F (4 seeds, South's own row counts): South moves again, and D is
    // then the only move. D at first would give up 8 seeds.
    let start = "hoyito-ii 0,0,0,1,1,3/0,1,1,0,0,0 20-21 S -";
    let played = game(start, &["E", "D"]);
    assert_eq!(played.position().to_move(), sowing::Side::North);
    let analysis = with_tables(&played, &set, &tables);
    assert_eq!(analysis.turns.len(), 1, "{analysis:?}");
    let turn = &analysis.turns[0];
    let names: Vec<&str> = turn.moves.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(names, ["E", "D"]);
    assert_eq!(
        (turn.moves[0].class, turn.moves[0].forced),
        (Class::Best, false)
    );
    assert_eq!(
        (turn.moves[1].class, turn.moves[1].forced),
        (Class::Best, true)
    );
    // The turn's value before: the captures (−1) and E's +4; after it: the same, exact.
    assert_eq!((turn.before.south, turn.after.south), (3.0, 3.0));
    // A forced move is left out of the accuracy.
    let south = &analysis.players.south;
    assert_eq!(
        (south.moves, south.forced, south.accuracy),
        (2, 1, Some(100.0))
    );

    let worse = with_tables(&game(start, &["D"]), &set, &tables);
    let m = &worse.turns[0].moves[0];
    assert_eq!(
        (m.class, m.loss, m.proven, m.best.as_deref()),
        (Class::Blunder, 8.0, true, Some("E"))
    );
}

#[test]
fn above_the_tables_a_loss_is_estimated_with_the_depth() {
    let rules = Rules::new(Variant::HoyitoII);
    let start = Game::new(rules);
    let mut engine = Engine::new(levels::settings(4), 0);
    let best = engine.go(&start, &depth(3), &mut |_| {}).best;
    let mut played = start.clone();
    played.play(best).unwrap();
    // Then North's first legal move, whatever it is worth.
    played.play(played.legal_moves()[0]).unwrap();
    let mut engine = Engine::new(levels::settings(4), 0);
    let analysis = analyse(
        &played,
        &mut engine,
        "level:4",
        &depth(3),
        None,
        &mut |_| {},
    )
    .unwrap();
    let all = moves(&analysis);
    assert_eq!(all.len(), 2);
    let first = all[0];
    assert_eq!(
        (
            first.class,
            first.loss,
            first.proven,
            first.depth,
            first.best.as_deref()
        ),
        (Class::Best, 0.0, false, Some(3), None),
        "the engine's own move gives up nothing"
    );
    let second = all[1];
    assert!(!second.proven && second.depth == Some(3));
    // Its loss is the value of the engine's move minus that of the move played.
    let expected = ((second.best_value - second.played_value) * 100.0).round() / 100.0;
    assert_eq!(second.loss, expected.max(0.0));
    assert_eq!(
        second.class,
        Class::of((second.loss * 100.0).round() as i32)
    );
    assert!(!analysis.turns[0].before.proven);
    assert_eq!(analysis.tables, None);
    // The same engine and limits give the same analysis again: the figures of the server
    // and of `sow analyze --json` agree.
    let mut again = Engine::new(levels::settings(4), 0);
    let repeat = analyse(&played, &mut again, "level:4", &depth(3), None, &mut |_| {}).unwrap();
    assert_eq!(repeat, analysis);
}

#[test]
fn progress_counts_every_position_and_a_stop_ends_the_analysis() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut played = Game::new(Rules::new(Variant::Ayoayo));
    for _ in 0..3 {
        played.play(played.legal_moves()[0]).unwrap();
    }
    let mut engine = Engine::new(levels::settings(3), 0);
    let mut heard = Vec::new();
    analyse(&played, &mut engine, "level:3", &depth(2), None, &mut |p| {
        heard.push(p)
    })
    .unwrap();
    assert_eq!(heard, [(1, 4), (2, 4), (3, 4), (4, 4)]);
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(stop.clone()),
        ..depth(2)
    };
    let mut engine = Engine::new(levels::settings(3), 0);
    let stopped = analyse(&played, &mut engine, "level:3", &limits, None, &mut |(
        done,
        _,
    )| {
        if done == 2 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(stopped, None);
}
