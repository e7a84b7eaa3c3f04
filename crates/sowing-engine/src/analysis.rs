//! Analysis after the game: each move's value against the best, its class, the better
//! move, the value of the game turn by turn, and an accuracy per player. The one analysis
//! that `sow analyze` and the web server (`POST /api/games/{id}/analysis`) both run.
//!
//! Every position of the game is searched once by the engine (the caller's limits; a limit
//! of nodes or depth gives the same figures on any machine). A move's **loss** is what it
//! gave up for its mover, in seeds: the value of the best move minus the value of the move
//! played (the value of the position it led to, from the mover's side), never below 0, and
//! 0 when the engine's best move was played. Where the endgame tables reach (the position
//! before the move is inside them), the loss is **exact**: the tables' value of the best
//! move minus that of the move played, with perfect play after (the game's history counts:
//! a move that repeats a position ends the game there), and the move is marked proven.
//! Above the tables the loss is the engine's **estimate**, marked with the depth it
//! searched; a loss between two proven search results is proven too.
//!
//! **Classes** by the seeds given up (docs/web.md, "Analysis"): best below
//! [`INACCURACY`] (half a seed), inaccuracy from it, mistake from [`MISTAKE`] (2 seeds),
//! blunder from [`BLUNDER`] (5 seeds). A move that was the only legal one is *forced*:
//! classed best, and left out of the accuracy.
//!
//! **Accuracy** of a player: the mean over their moves that were not forced of
//! `100 × 2^(−loss / 4)` — 100 for a best move, 50 for a move that gave up 4 seeds (one
//! casa), 25 for 8 — rounded to a tenth; `null` with no such move.
//!
//! ```
//! use sowing::{Game, Rules, Variant};
//! use sowing_engine::analysis::analyse;
//! use sowing_engine::{levels, Engine, Limits};
//!
//! let mut game = Game::new(Rules::new(Variant::Ayoayo));
//! for name in ["C", "c"] {
//!     game.play(game.parse_move(name)?)?;
//! }
//! let mut engine = Engine::new(levels::settings(4), 0);
//! let limits = Limits { depth: Some(2), ..Limits::default() };
//! let analysis = analyse(&game, &mut engine, "level:4", &limits, None, &mut |_| {})
//!     .expect("not stopped");
//! assert_eq!(analysis.plies, 2);
//! assert_eq!(analysis.turns.len(), 2);
//! let moves: Vec<&str> = analysis.turns.iter().flat_map(|t| &t.moves).map(|m| m.mv.as_str()).collect();
//! assert_eq!(moves, ["C", "c"]);
//! assert_eq!(analysis.players.south.moves, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sowing::{Game, Move, Side};
use sowing_tables::Tables;

use crate::tables::move_values;
use crate::{levels, Engine, Limits, Score, TableSet};

/// The loss, in hundredths of a seed, from which a move is an inaccuracy.
pub const INACCURACY: i32 = 50;
/// The loss from which a move is a mistake (2 seeds).
pub const MISTAKE: i32 = 200;
/// The loss from which a move is a blunder (5 seeds).
pub const BLUNDER: i32 = 500;
/// The loss, in seeds, that halves a move's accuracy.
pub const HALVING_SEEDS: f64 = 4.0;

/// What a move gave up, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Within half a seed of the best (or the best itself).
    Best,
    /// Half a seed to 2 seeds given up.
    Inaccuracy,
    /// 2 to 5 seeds.
    Mistake,
    /// 5 seeds or more.
    Blunder,
}

impl Class {
    /// The class of a loss in hundredths of a seed.
    pub fn of(loss_centiseeds: i32) -> Class {
        if loss_centiseeds >= BLUNDER {
            Class::Blunder
        } else if loss_centiseeds >= MISTAKE {
            Class::Mistake
        } else if loss_centiseeds >= INACCURACY {
            Class::Inaccuracy
        } else {
            Class::Best
        }
    }

    /// The class's name: `best`, `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The mark after a move: none, `?!`, `?`, `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Class::Best => "",
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }
}

/// A value of a position, from South's side: South's final margin in seeds with best play
/// (captures so far included), exact or estimated.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// South's captures minus North's at the end, in seeds (an estimate in fractions).
    pub south: f64,
    /// Whether it is exact (the tables, a proven search, or the game's end).
    pub proven: bool,
    /// The depth the engine searched, for a value it estimated (or proved by search).
    pub depth: Option<u32>,
}

/// One move of a turn, with what it gave up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveAnalysis {
    /// Its number in the game, from 1.
    pub ply: usize,
    /// Its name (`A`…, `a`…, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Best, inaccuracy, mistake or blunder.
    pub class: Class,
    /// Seeds it gave up against the best move (0 or more).
    pub loss: f64,
    /// Whether the loss is exact (`false`: the engine's estimate, at `depth`).
    pub proven: bool,
    /// The depth of the engine's search of the position before it (`null` when the tables
    /// decided the loss).
    pub depth: Option<u32>,
    /// The better move (the engine's, or among the tables' best the engine's if it is one
    /// of them, else the first in ring order); `null` when the move played gave up nothing.
    pub best: Option<String>,
    /// The value of the best move for the mover, in seeds (their final margin).
    pub best_value: f64,
    /// The value of the move played for the mover.
    pub played_value: f64,
    /// The only legal move: classed best, left out of the accuracy.
    pub forced: bool,
}

/// A turn: the moves one player made in a row (a capture gives another move), one point of
/// the graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Its number, from 1.
    pub turn: usize,
    /// Who moved: `south` or `north`.
    pub side: String,
    /// The value before its first move.
    pub before: Value,
    /// The value after its last move.
    pub after: Value,
    /// Its moves, in order.
    pub moves: Vec<MoveAnalysis>,
}

/// A player's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerFigures {
    /// Moves made.
    pub moves: usize,
    /// Of them, forced (the only legal move).
    pub forced: usize,
    /// Moves of each class (forced ones count as best).
    pub best: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Seeds given up in all, over the moves not forced.
    pub seeds_lost: f64,
    /// Seeds given up per move not forced (`null` with none).
    pub average_loss: Option<f64>,
    /// The accuracy (module docs), 0–100 (`null` with no move that was not forced).
    pub accuracy: Option<f64>,
    /// Of the moves, those whose loss is exact.
    pub proven: usize,
}

/// Both players' figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Players {
    /// South's.
    pub south: PlayerFigures,
    /// North's.
    pub north: PlayerFigures,
}

/// A whole game's analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The game's name (`hoyito-ii`, …).
    pub game: String,
    /// Moves analysed (the game's moves when it was analysed).
    pub plies: usize,
    /// The engine's settings, as a player spec (`level:6`, `search:…`).
    pub engine: String,
    /// The limits each position was searched with (`nodes 200000`, `depth 8`, `200 ms`).
    pub limits: String,
    /// The most seeds on the board the tables used reach (`null`: no tables).
    pub tables: Option<usize>,
    /// The turns, in order.
    pub turns: Vec<Turn>,
    /// Each player's figures.
    pub players: Players,
}

/// What the analysis found in one position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// Its value for the side to move (the engine's, or the final margin once over).
    pub score: Score,
    /// The engine's best move and the depth it searched (`None` once the game is over).
    pub search: Option<(Move, u32)>,
    /// Each legal move with its exact value for the mover (future captures, the game's
    /// history counted), if the position is inside the tables.
    pub exact: Option<Vec<(Move, i32)>>,
    /// The side to move.
    pub to_move: Side,
    /// Captures so far, the side to move's minus the other's.
    pub margin: i32,
    /// Legal moves.
    pub legal: usize,
}

impl Look {
    /// Its value from South's side, exact where the tables or the end say so.
    pub fn value(&self) -> Value {
        let (mine, proven, depth) = match (&self.exact, self.search) {
            (Some(moves), _) => {
                let best = moves.iter().map(|m| m.1).max().unwrap_or(0);
                (f64::from(self.margin + best), true, None)
            }
            (None, Some((_, depth))) => (self.score.seeds(), self.score.is_proven(), Some(depth)),
            (None, None) => (self.score.seeds(), true, None),
        };
        Value {
            // (+ 0.0: a value of 0 from North's side is 0, not −0.)
            south: if self.to_move == Side::South {
                mine
            } else {
                -mine
            } + 0.0,
            proven,
            depth,
        }
    }

    /// The value for `mover` of having reached this position (the value of the move that
    /// led here): its score, turned round when the other side is to move.
    pub fn for_mover(&self, mover: Side) -> Score {
        if self.to_move == mover {
            self.score
        } else {
            -self.score
        }
    }
}

/// The limits in words, for the record of an analysis.
pub fn describe_limits(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(nodes) = limits.nodes {
        parts.push(format!("nodes {nodes}"));
    }
    if let Some(depth) = limits.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(time) = limits.time {
        parts.push(format!("{} ms", time.as_millis()));
    }
    parts.join(", ")
}

/// Looks at every position of `full` (from its start to its end): one search by `engine`
/// within `limits`, and the exact value of each move where `tables` reach. `progress` hears
/// the positions done and the positions in all after each one. `None` when `limits.stop`
/// is set before the end. One more look than moves (the last is the position now); fewer
/// if a move does not replay (a record's moves are legal, a stored game replays).
pub fn look(
    full: &Game,
    engine: &mut Engine,
    limits: &Limits,
    tables: Option<&Tables>,
    progress: &mut dyn FnMut((usize, usize)),
) -> Option<Vec<Look>> {
    let total = full.moves().len() + 1;
    let mut game = Game::from_position(*full.start());
    let mut looks: Vec<Look> = Vec::with_capacity(total);
    for ply in 0..total {
        if limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return None;
        }
        let pos = *game.position();
        let me = pos.to_move();
        let c = pos.captured();
        let margin = i32::from(c[me]) - i32::from(c[!me]);
        looks.push(if game.is_over() {
            Look {
                score: Score::Proven(margin),
                search: None,
                exact: None,
                to_move: me,
                margin,
                legal: 0,
            }
        } else {
            let result = engine.go(&game, limits, &mut |_| {});
            Look {
                score: result.score,
                search: Some((result.best, result.depth)),
                exact: tables.and_then(|t| move_values(t, &game)),
                to_move: me,
                margin,
                legal: game.legal_moves().len(),
            }
        });
        progress((ply + 1, total));
        if let Some(&mv) = full.moves().get(ply) {
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    Some(looks)
}

/// The engine of the analysis after the game that the server and the page's engine run.
pub const ENGINE: &str = "level:6";
/// The nodes it searches in each position by default (a few seconds a game on one core).
pub const DEFAULT_NODES: u64 = 100_000;

/// The analysis after the game that the server and the page's engine both give: [`ENGINE`]
/// searching `nodes` in each position of `game`, exact where `tables` reach, `progress`
/// told (positions looked at, of all).
pub fn analyse_game(
    game: &Game,
    nodes: u64,
    tables: Option<Arc<TableSet>>,
    progress: &mut dyn FnMut((usize, usize)),
) -> Analysis {
    let mut engine = Engine::new(levels::settings(6), 0);
    engine.set_tables(tables);
    let exact = engine.tables_for(game.rules());
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    analyse(
        game,
        &mut engine,
        ENGINE,
        &limits,
        exact.as_deref(),
        progress,
    )
    .expect("no stop flag was given")
}

/// Analyses every move of `full` (from its start) with `engine`, named `engine_name`,
/// within `limits` for each position, and `tables` for exact losses where they reach (pass
/// the tables the engine uses, or others): [`look`], then [`summarise`]. `progress` hears
/// the positions done and in all. `None` when `limits.stop` is set before the end.
pub fn analyse(
    full: &Game,
    engine: &mut Engine,
    engine_name: &str,
    limits: &Limits,
    tables: Option<&Tables>,
    progress: &mut dyn FnMut((usize, usize)),
) -> Option<Analysis> {
    let looks = look(full, engine, limits, tables, progress)?;
    let mut analysis = summarise(full, &looks);
    analysis.engine = engine_name.to_owned();
    analysis.limits = describe_limits(limits);
    analysis.tables = tables.map(|t| t.max_seeds());
    Some(analysis)
}

/// The analysis the looks at each position of `full` make ([`look`]): each move's loss and
/// class, the turns, the players' figures. The engine, limits and tables are left blank
/// for the caller to name.
pub fn summarise(full: &Game, looks: &[Look]) -> Analysis {
    let n = full.rules().pits_per_row();
    let plies = looks.len().saturating_sub(1).min(full.moves().len());
    let mut turns: Vec<Turn> = Vec::new();
    let mut players = Players::default();
    let mut accuracy_sum = [0.0f64; 2];
    for (ply, &mv) in full.moves().iter().enumerate().take(plies) {
        let analysed = move_analysis(&looks[ply], &looks[ply + 1], ply, mv, n);
        let side = looks[ply].to_move;
        let figures = match side {
            Side::South => &mut players.south,
            Side::North => &mut players.north,
        };
        figures.moves += 1;
        figures.proven += usize::from(analysed.proven);
        match analysed.class {
            Class::Best => figures.best += 1,
            Class::Inaccuracy => figures.inaccuracies += 1,
            Class::Mistake => figures.mistakes += 1,
            Class::Blunder => figures.blunders += 1,
        }
        if analysed.forced {
            figures.forced += 1;
        } else {
            figures.seeds_lost += analysed.loss;
            accuracy_sum[usize::from(side == Side::North)] +=
                100.0 * (-analysed.loss / HALVING_SEEDS).exp2();
        }
        // The same side moved just before: a capture gave it another move, same turn.
        match turns.last_mut() {
            Some(turn) if ply > 0 && looks[ply - 1].to_move == side => {
                turn.after = looks[ply + 1].value();
                turn.moves.push(analysed);
            }
            _ => turns.push(Turn {
                turn: turns.len() + 1,
                side: side.name().to_owned(),
                before: looks[ply].value(),
                after: looks[ply + 1].value(),
                moves: vec![analysed],
            }),
        }
    }
    for (i, figures) in [&mut players.south, &mut players.north]
        .into_iter()
        .enumerate()
    {
        let chosen = figures.moves - figures.forced;
        figures.seeds_lost = round(figures.seeds_lost, 100.0);
        if chosen > 0 {
            figures.average_loss = Some(round(figures.seeds_lost / chosen as f64, 100.0));
            figures.accuracy = Some(round(accuracy_sum[i] / chosen as f64, 10.0));
        }
    }
    Analysis {
        game: full.rules().variant().name().to_owned(),
        plies,
        engine: String::new(),
        limits: String::new(),
        tables: None,
        turns,
        players,
    }
}

fn round(x: f64, scale: f64) -> f64 {
    (x * scale).round() / scale
}

/// The move `mv` from the position `before` to `after` (move number `ply` + 1).
fn move_analysis(before: &Look, after: &Look, ply: usize, mv: Move, n: usize) -> MoveAnalysis {
    let mover = before.to_move;
    let (engine_best, depth) = before.search.expect("a move was made, so the game went on");
    // The move played, valued by the search of the position it led to.
    let played = after.for_mover(mover);
    let (loss, proven, best, best_value, played_value, depth) = match &before.exact {
        Some(values) => {
            let top = values.iter().map(|m| m.1).max().unwrap_or(0);
            let mine = values.iter().find(|m| m.0 == mv).map_or(top, |m| m.1);
            let best = if values.contains(&(engine_best, top)) {
                engine_best
            } else {
                values.iter().find(|m| m.1 == top).map_or(mv, |m| m.0)
            };
            (
                100 * (top - mine),
                true,
                best,
                f64::from(before.margin + top),
                f64::from(before.margin + mine),
                None,
            )
        }
        None => {
            let loss = if mv == engine_best {
                0
            } else {
                (before.score.centiseeds() - played.centiseeds()).max(0)
            };
            (
                loss,
                before.score.is_proven() && played.is_proven(),
                engine_best,
                before.score.seeds(),
                played.seeds(),
                Some(depth),
            )
        }
    };
    let forced = before.legal == 1;
    let class = if forced { Class::Best } else { Class::of(loss) };
    MoveAnalysis {
        ply: ply + 1,
        mv: mv.name(n).to_string(),
        class,
        loss: f64::from(loss) / 100.0,
        proven,
        depth,
        best: (best != mv && loss > 0).then(|| best.name(n).to_string()),
        best_value,
        played_value,
        forced,
    }
}
