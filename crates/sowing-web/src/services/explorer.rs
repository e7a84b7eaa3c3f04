//! The opening explorer (docs/web.md, "The school"): from a start and along any line of
//! moves, every legal move with its value for the mover — *proven* by the game's end, the
//! endgame tables, a certificate of the solve or a solve run here ([`Proofs`]), *bounded*
//! when only bounds are proven, else *estimated* by the engine at a stated depth — and how
//! often it was played in the finished games kept here, with their results.
//!
//! A move's value is what it captures plus the value of the position it leads to, that
//! position taken without its history (as the tables and the solve value positions) unless
//! the move itself repeats one of the line (C.3), which ends the game there.

use std::sync::Arc;

use sowing::{Game, Move, Position};
use sowing_engine::tables::{move_values, perfect_move, value};
use sowing_engine::{Engine, Limits, Score, TableSet};
use sowing_tables::Tables;

use crate::services::games::{blocking, GameError, Games};
use crate::services::proofs::{Proofs, Source};
use crate::services::school::School;
use crate::services::solves::QueueError;
use crate::store::{PlayedMove, MAX_PLAYED_LINE};
use crate::views::games::Snapshot;
use crate::views::school::{Explored, ExploredMove, Played, SolveProgress};

type GameResult<T> = Result<T, GameError>;

/// The longest line the explorer follows, in moves.
pub const MAX_MOVES: usize = 600;
/// Nodes the engine searches after each move it estimates (a few milliseconds).
pub const ESTIMATE_NODES: u64 = 20_000;

/// The game of `start` (a position text) after `moves` (names separated by spaces).
///
/// # Errors
/// A start that does not read, too many moves, or a move that is not legal where it is.
pub fn line_game(start: &str, moves: &str) -> GameResult<Game> {
    let start: Position = start
        .parse()
        .map_err(|e| GameError::Refused(format!("start: {e}")))?;
    let mut game = Game::from_position(start);
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    if tokens.len() > MAX_MOVES {
        return Err(GameError::Refused(format!(
            "{} moves: the explorer follows at most {MAX_MOVES}",
            tokens.len()
        )));
    }
    for (ply, token) in tokens.into_iter().enumerate() {
        let illegal = |e: &dyn std::fmt::Display, game: &Game| GameError::Illegal {
            message: format!(
                "move {} {}: {e}",
                ply + 1,
                crate::services::games::shorten(token)
            ),
            legal: game.legal_names(),
        };
        let mv = game.parse_move(token).map_err(|e| illegal(&e, &game))?;
        game.play(mv).map_err(|e| illegal(&e, &game))?;
    }
    Ok(game)
}

/// One move's value for the mover, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Known {
    Exact(i32, &'static str),
    Bounded(Option<i32>, Option<i32>, &'static str),
    Unknown,
}

/// What a move from `game`'s position is worth for its mover, from the rules, the tables
/// and the proofs (not the engine).
fn known(game: &Game, mv: Move, tables: Option<&Tables>, proofs: &Proofs) -> Known {
    let parent = *game.position();
    let mut next = game.clone();
    if next.play(mv).is_err() {
        return Known::Unknown;
    }
    let child = *next.position();
    let gain = sowing_solve::gain(&parent, &child);
    if next.is_over() {
        // The rules' end, or a repetition (C.3): nothing follows.
        return Known::Exact(gain, "end");
    }
    let same = child.to_move() == parent.to_move();
    let of_child = |v: i32| if same { gain + v } else { gain - v };
    if let Some(v) = tables.and_then(|t| value(t, &child)) {
        return Known::Exact(of_child(v), "tables");
    }
    let (bounds, source) = proofs.bounds(&child);
    let source = match source {
        Source::Certificate => "certificate",
        Source::Solve => "solve",
    };
    let (lower, upper) = if same {
        (bounds.lower.map(of_child), bounds.upper.map(of_child))
    } else {
        (bounds.upper.map(of_child), bounds.lower.map(of_child))
    };
    match (lower, upper) {
        (Some(lo), Some(hi)) if lo == hi => Known::Exact(lo, source),
        (None, None) => Known::Unknown,
        _ => Known::Bounded(lower, upper, source),
    }
}

/// The engine's estimate of a move for its mover, in seeds (what it captures plus what
/// follows), and its depth.
fn estimate(engine: &mut Engine, game: &Game, mv: Move) -> Option<(f64, u32)> {
    let parent = *game.position();
    let mut next = game.clone();
    next.play(mv).ok()?;
    let child = *next.position();
    let gain = f64::from(sowing_solve::gain(&parent, &child));
    if next.is_over() {
        return Some((gain, 0));
    }
    let limits = Limits {
        nodes: Some(ESTIMATE_NODES),
        ..Limits::default()
    };
    engine.new_game();
    let result = engine.go(&next, &limits, &mut |_| {});
    // The engine's score is the final margin of the child's mover, captures so far included.
    let captured = child.captured();
    let me = child.to_move();
    let so_far = f64::from(i32::from(captured[me]) - i32::from(captured[!me]));
    let rest = match result.score {
        Score::Proven(m) => f64::from(m) - so_far,
        Score::Estimate(c) => f64::from(c) / 100.0 - so_far,
    };
    let rest = (rest * 100.0).round() / 100.0;
    Some(if child.to_move() == parent.to_move() {
        (gain + rest, result.depth)
    } else {
        (gain - rest, result.depth)
    })
}

/// The explorer's answer for `game`, `played` being the figures of the site's games.
fn explored(
    game: &Game,
    line: Vec<String>,
    set: Option<&Arc<TableSet>>,
    tables: Option<&Tables>,
    school: &School,
    played: &[PlayedMove],
) -> Explored {
    let position = *game.position();
    // The solve under way, read before the values: a solve ends by keeping its proofs, then
    // leaving the queue, so a page told no solve runs sees every proof it made.
    let solve = school.solves.job(&position).map(|job| SolveProgress {
        status: if job.running.load(std::sync::atomic::Ordering::Relaxed) {
            "running"
        } else {
            "waiting"
        },
        nodes: job.nodes.load(std::sync::atomic::Ordering::Relaxed),
        budget_s: job.budget.as_secs(),
    });
    let n = game.rules().pits_per_row();
    let inside = tables.and_then(|t| move_values(t, game));
    let mut engine = None;
    let mut moves = Vec::new();
    for mv in game.legal_moves() {
        let name = mv.name(n).to_string();
        let known = match inside
            .as_ref()
            .and_then(|values| values.iter().find(|(m, _)| *m == mv))
        {
            Some(&(_, v)) => Known::Exact(v, "tables"),
            None => known(game, mv, tables, &school.proofs),
        };
        let (status, source, value, lower, upper) = match known {
            Known::Exact(v, source) => ("proven", Some(source), Some(v), Some(v), Some(v)),
            Known::Bounded(lo, hi, source) => ("bounded", Some(source), None, lo, hi),
            Known::Unknown => ("estimated", None, None, None, None),
        };
        let (estimate_value, depth) = if value.is_none() {
            let engine = engine.get_or_insert_with(|| school.engine(set));
            match estimate(engine, game, mv) {
                Some((e, d)) => (Some(e), Some(d)),
                None => (None, None),
            }
        } else {
            (None, None)
        };
        let figures = played.iter().find(|p| p.mv == name);
        moves.push(ExploredMove {
            mv: name,
            status,
            source,
            value,
            lower,
            upper,
            estimate: estimate_value,
            depth,
            played: figures.map_or_else(Played::default, |p| Played {
                games: p.games(),
                south: p.south,
                north: p.north,
                draws: p.draws,
            }),
        });
    }
    if let Some(engine) = engine {
        school.give_back(engine);
    }
    let value = (!moves.is_empty() && moves.iter().all(|m| m.value.is_some()))
        .then(|| moves.iter().filter_map(|m| m.value).max())
        .flatten();
    let best = tables
        .and_then(|t| perfect_move(t, game))
        .map(|p| p.mv.name(n).to_string());
    let solvable = !game.is_over()
        && tables.is_some_and(|t| position.seeds_on_board() > t.max_seeds())
        && sowing_solve::check_family(
            &sowing_tables::Family::of(position.rules()),
            position.seeds_on_board(),
        )
        .is_ok();
    Explored {
        start: game.start().to_string(),
        line,
        position: position.to_string(),
        board: Snapshot::of(&position),
        over: game.is_over(),
        value,
        best,
        tables: tables.map(|t| t.max_seeds()),
        solvable,
        solve,
        moves,
    }
}

/// The tables of `game`'s rules in `set`, if any (reading them the first time reads every
/// file: called off the runtime).
fn tables_of(set: Option<&TableSet>, game: &Game) -> GameResult<Option<Arc<Tables>>> {
    match set {
        Some(set) => set
            .tables(game.rules())
            .map_err(|e| GameError::Internal(format!("endgame tables: {e}"))),
        None => Ok(None),
    }
}

impl Games {
    /// The explorer's answer for the line `moves` from `start` (a position text).
    ///
    /// # Errors
    /// A bad start or line ([`line_game`]), or a store failure.
    pub async fn explore(&self, start: &str, moves: &str) -> GameResult<Explored> {
        let game = line_game(start, moves)?;
        let n = game.rules().pits_per_row();
        let line: Vec<String> = game.moves().iter().map(|m| m.name(n).to_string()).collect();
        let store = self.store.clone();
        let (start_text, asked) = (game.start().to_string(), line.clone());
        let played = if line.len() <= MAX_PLAYED_LINE && !game.is_over() {
            blocking(move || store.played_after(&start_text, &asked)).await?
        } else {
            Vec::new()
        };
        let set = self.table_set();
        let school = self.school.clone();
        // One request's estimates at a time: each is a short search a move.
        let _permit = school
            .estimating
            .acquire()
            .await
            .map_err(|_| GameError::Internal("the explorer is closed".to_owned()))?;
        let work = school.clone();
        tokio::task::spawn_blocking(move || {
            let tables = tables_of(set.as_deref(), &game)?;
            Ok(explored(
                &game,
                line,
                set.as_ref(),
                tables.as_deref(),
                &work,
                &played,
            ))
        })
        .await
        .map_err(|e| GameError::Internal(format!("explorer task failed: {e}")))?
    }

    /// The start (position text) and the first `ply` moves (all by default) of game `id`.
    ///
    /// # Errors
    /// An unknown game (404), a ply past its moves (404).
    pub async fn game_line(&self, id: &str, ply: Option<usize>) -> GameResult<(String, String)> {
        let game = self.game_copy(id).await?;
        let ply = ply.unwrap_or(game.moves().len());
        if ply > game.moves().len() {
            return Err(GameError::NoSuchMove {
                game: id.parse().unwrap_or(0),
                ply: ply.to_string(),
            });
        }
        let n = game.rules().pits_per_row();
        let moves: Vec<String> = game.moves()[..ply]
            .iter()
            .map(|m| m.name(n).to_string())
            .collect();
        Ok((game.start().to_string(), moves.join(" ")))
    }

    /// Queues a budgeted solve of the position after `moves` from `start`.
    ///
    /// # Errors
    /// A bad start or line; a finished game, no tables of these rules, or a position inside
    /// them (409); too many solves under way (429).
    pub async fn queue_solve(&self, start: &str, moves: &str) -> GameResult<()> {
        let game = line_game(start, moves)?;
        if game.is_over() {
            return Err(GameError::Conflict("the game is over there".to_owned()));
        }
        let position = *game.position();
        let set = self.table_set();
        let tables = tokio::task::spawn_blocking(move || tables_of(set.as_deref(), &game))
            .await
            .map_err(|e| GameError::Internal(format!("tables task failed: {e}")))??
            .ok_or_else(|| {
                GameError::Conflict(
                    "the server has no endgame tables of these rules to solve with".to_owned(),
                )
            })?;
        if position.seeds_on_board() <= tables.max_seeds() {
            return Err(GameError::Conflict(
                "the position is inside the endgame tables: its values are exact already"
                    .to_owned(),
            ));
        }
        sowing_solve::check_family(
            &sowing_tables::Family::of(position.rules()),
            position.seeds_on_board(),
        )
        .map_err(|e| GameError::Refused(e.to_string()))?;
        self.school
            .solves
            .queue(position, tables, self.school.proofs.clone())
            .map(drop)
            .map_err(|QueueError::Full| {
                GameError::Limited("too many solves wait or run: try again later".to_owned())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::{Rules, Variant};

    /// The engine's estimate of each opening move is turned to the mover's side and the
    /// move's own capture as the proven values are: near the certificate's (the engine
    /// estimated the start within a few seeds, docs/solve.md), never of the other sign.
    #[test]
    fn estimates_are_on_the_proven_values_scale() {
        let game = Game::new(Rules::new(Variant::HoyitoII));
        let school = School::default();
        let mut engine = school.engine(None);
        for mv in game.legal_moves() {
            let Known::Exact(value, "certificate") = known(&game, mv, None, &school.proofs) else {
                panic!("{mv:?} is not proven by the certificate");
            };
            let (estimate, depth) = estimate(&mut engine, &game, mv).unwrap();
            assert!(depth >= 1);
            assert!(
                (estimate - f64::from(value)).abs() < 16.0,
                "{mv:?}: estimated {estimate}, proven {value}"
            );
        }
    }
}
