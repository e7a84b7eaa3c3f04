//! The endgame tables in play: where they are, and the move to play at a root inside them.
//!
//! A [`TableSet`] is a directory of tables (`sow tables build`, docs/tables.md) shared by
//! the engines of a process; it opens each game's tables the first time that game is
//! searched and keeps them. The [`crate::Engine`] probes them in its search (any node with at
//! most [`Tables::max_seeds`] seeds takes its exact value, as a proven result) and at the
//! root ([`perfect_move`]): there it plays a value-optimal move at once, preferring among
//! equals the quickest win, or in a draw or a loss the move that leaves the opponent the
//! most ways to go wrong.
//!
//! **Repetition.** The tables value a position with no history: a cycle is worth 0 for the
//! seeds left (C.3 from that position on). The search keeps its own rule: a node that
//! repeats a position of the game (since the last capture) or of the search path ends the
//! game there, and that check comes first; a node that repeats nothing takes the table's
//! value, which ignores the path above it. Both are exact for what they describe; where the
//! history would let a player end the game by repetition deeper down, the table value is
//! the value without that history (in practice the losing side's chance to repeat is what
//! it gives up). At the root the history is known, so [`perfect_move`] values a move that
//! repeats a position of the game as the game ending there, and its quickest win is forced
//! without ever letting the opponent repeat.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sowing::{Game, Move, Position, Rules, Side};
use sowing_tables::{move_value, Family, Tables, TablesError};

/// The tables' default directory: `$SOWING_TABLES`, else `tables` in the user's data
/// directory (e.g. `~/.local/share/sowing/tables`); `None` when neither is known.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SOWING_TABLES") {
        return Some(dir.into());
    }
    dirs::data_dir().map(|data| data.join("sowing").join("tables"))
}

/// A directory of tables, each game's opened when first asked for and kept.
pub struct TableSet {
    dir: PathBuf,
    opened: Mutex<HashMap<Family, Option<Arc<Tables>>>>,
    /// Only the tables given ([`TableSet::in_memory`]): no file is ever read.
    in_memory: bool,
}

impl TableSet {
    /// The tables in `dir`, which must be a directory (it may hold no tables yet).
    ///
    /// # Errors
    /// When `dir` is not a readable directory.
    pub fn open(dir: &Path) -> Result<TableSet, TablesError> {
        let error = |e| TablesError::Io {
            path: dir.to_path_buf(),
            error: e,
        };
        let meta = std::fs::metadata(dir).map_err(error)?;
        if !meta.is_dir() {
            return Err(error(std::io::Error::other("not a directory")));
        }
        std::fs::read_dir(dir).map_err(error)?;
        Ok(TableSet {
            dir: dir.to_path_buf(),
            opened: Mutex::new(HashMap::new()),
            in_memory: false,
        })
    }

    /// A set of tables already in memory (the browser build's, read from bytes); the
    /// families not given have none.
    pub fn in_memory(tables: Vec<Arc<Tables>>) -> TableSet {
        let opened = tables
            .into_iter()
            .map(|t| (t.family(), (t.max_seeds() > 0).then_some(t)))
            .collect();
        TableSet {
            dir: PathBuf::new(),
            opened: Mutex::new(opened),
            in_memory: true,
        }
    }

    /// The tables a front end uses: those in `explicit` if given (an error if it is not a
    /// directory), else those in [`default_dir`] if it is one, else none.
    ///
    /// # Errors
    /// When `explicit` is given and is not a readable directory.
    pub fn resolve(explicit: Option<&Path>) -> Result<Option<Arc<TableSet>>, TablesError> {
        match explicit {
            Some(dir) => Ok(Some(Arc::new(TableSet::open(dir)?))),
            None => Ok(default_dir()
                .filter(|dir| dir.is_dir())
                .and_then(|dir| TableSet::open(&dir).ok())
                .map(Arc::new)),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The tables of the game `rules` describes, if the directory holds at least one layer
    /// of them. Opened once (every file's checksum checked), then shared.
    ///
    /// # Errors
    /// When a layer file cannot be read or is corrupt (not remembered: asked again, the
    /// files are read again).
    pub fn tables(&self, rules: Rules) -> Result<Option<Arc<Tables>>, TablesError> {
        let family = Family::of(rules);
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tables) = opened.get(&family) {
            return Ok(tables.clone());
        }
        if self.in_memory {
            return Ok(None);
        }
        let tables = Tables::open(&self.dir, rules)?;
        let tables = (tables.max_seeds() > 0).then(|| Arc::new(tables));
        opened.insert(family, tables.clone());
        Ok(tables)
    }
}

/// The value of a position in the tables for its player to move (0 once over); `None`
/// beyond them, or when its compressed block does not decompress (a file damaged after its
/// checksum was checked on opening: the search goes on without the tables there).
#[inline]
pub fn value(tables: &Tables, pos: &Position) -> Option<i32> {
    if pos.is_over() {
        return Some(0);
    }
    // A layer not built (between the reachable ones) is outside the tables like one beyond.
    if !tables.built(pos.seeds_on_board()) {
        return None;
    }
    let (layer, index) = tables.family().locate(pos);
    tables.stored(layer, index).ok()
}

/// The move a root inside the tables plays, with the exact values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfectMove {
    /// The move.
    pub mv: Move,
    /// Its value for the mover: the future captures minus the opponent's, with best play
    /// (the game's history counted: a move that repeats a position ends the game).
    pub value: i32,
    /// Each legal move with its value, in ring order.
    pub moves: Vec<(Move, i32)>,
    /// Plies to a capture that secures a win (`None` in a draw or a loss, or when none was
    /// found within the search's budget).
    pub win_in: Option<u32>,
    /// Positions looked at.
    pub nodes: u64,
}

/// The longest forced line [`perfect_move`] looks for, in plies.
const WIN_PLIES: u32 = 64;
/// The most positions [`perfect_move`] looks at to find the quickest win.
const WIN_NODES: u64 = 400_000;

/// Whether `child` repeats a position of `history` (C.3): the game would end there.
fn repeats(history: &[Position], child: &Position) -> bool {
    history
        .iter()
        .rev()
        .take_while(|p| p.captured() == child.captured())
        .any(|p| p.repeats(child))
}

/// Each legal move of the current position of `game` with its exact value for the mover,
/// in ring order, if the position is inside the tables (and the game is not over). The
/// game's history counts: a move that repeats a position ends the game there (worth what it
/// captures now). The position's value is the largest of them.
pub fn move_values(tables: &Tables, game: &Game) -> Option<Vec<(Move, i32)>> {
    valued_moves(tables, game).map(|(moves, _)| moves)
}

/// Each legal move with its value, and beside them the positions they lead to.
type ValuedMoves = (Vec<(Move, i32)>, Vec<Position>);

/// [`move_values`], with the position each move leads to.
fn valued_moves(tables: &Tables, game: &Game) -> Option<ValuedMoves> {
    let pos = *game.position();
    if game.is_over() || !tables.built(pos.seeds_on_board()) {
        return None;
    }
    if Family::of(pos.rules()) != tables.family() {
        return None;
    }
    let mut history = game.positions_since_capture().to_vec();
    history.push(pos);
    let mut moves = Vec::new();
    let mut children = Vec::new();
    for (mv, child) in pos.successors() {
        let rest = if repeats(&history, &child) {
            0
        } else {
            value(tables, &child)?
        };
        moves.push((mv, move_value(&pos, &child, rest)));
        children.push(child);
    }
    Some((moves, children))
}

/// The value-optimal move of the current position of `game`, if it is inside the tables
/// (and the game is not over): the quickest win among the best moves, or in a draw or a
/// loss the one that leaves the opponent the most replies that lose value.
pub fn perfect_move(tables: &Tables, game: &Game) -> Option<PerfectMove> {
    let pos = *game.position();
    let mut history = game.positions_since_capture().to_vec();
    history.push(pos);
    let (moves, children) = valued_moves(tables, game)?;
    let best = moves.iter().map(|m| m.1).max()?;
    let candidates: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].1 == best).collect();
    let mut finder = WinFinder {
        tables,
        path: history,
        nodes: 0,
        failed: HashMap::new(),
    };
    let mut chosen = candidates[0];
    let mut win_in = None;
    if best > 0 {
        'deepen: for plies in 1..=WIN_PLIES {
            finder.failed.clear();
            for &i in &candidates {
                if finder.move_secures(&pos, &children[i], pos.to_move(), best, plies) {
                    chosen = i;
                    win_in = Some(plies);
                    break 'deepen;
                }
            }
            if finder.nodes >= WIN_NODES {
                break;
            }
        }
        if win_in.is_none() {
            // No forced line found within the budget: a capture now, if a best move captures.
            if let Some(&i) = candidates
                .iter()
                .find(|&&i| children[i].captured() != pos.captured() || children[i].is_over())
            {
                chosen = i;
            }
        }
    } else {
        let mut most = -1;
        for &i in &candidates {
            let ways = ways_to_go_wrong(tables, &finder.path, &children[i], pos.to_move());
            if ways > most {
                most = ways;
                chosen = i;
            }
        }
    }
    Some(PerfectMove {
        mv: moves[chosen].0,
        value: best,
        moves,
        win_in,
        nodes: finder.nodes,
    })
}

/// The replies of the opponent in `child` that lose value for it (0 when the mover moves
/// again, or the game is over).
fn ways_to_go_wrong(tables: &Tables, history: &[Position], child: &Position, mover: Side) -> i32 {
    if child.is_over() || child.to_move() == mover || repeats(history, child) {
        return 0;
    }
    let Some(v) = value(tables, child) else {
        return 0;
    };
    child
        .successors()
        .iter()
        .filter(|(_, grand)| {
            let rest = value(tables, grand).unwrap_or(0);
            move_value(child, grand, rest) < v
        })
        .count() as i32
}

/// Looks for a forced line in which `winner` secures at least a margin `target` by a
/// capture (or the end), within a number of plies, never repeating a position (which would
/// end the game with nothing more captured).
struct WinFinder<'a> {
    tables: &'a Tables,
    /// The game since the last capture, then the line being tried.
    path: Vec<Position>,
    nodes: u64,
    /// Positions from which no line of this many plies was found, in this iteration.
    failed: HashMap<u64, u32>,
}

impl WinFinder<'_> {
    /// Whether the move from `pos` to `child` leads to a line within `plies` (this move
    /// included) in which `winner` secures `target`.
    fn move_secures(
        &mut self,
        pos: &Position,
        child: &Position,
        winner: Side,
        target: i32,
        plies: u32,
    ) -> bool {
        self.nodes += 1;
        if self.nodes > WIN_NODES {
            return false;
        }
        let Some(rest) = (if child.is_over() {
            Some(0)
        } else {
            value(self.tables, child)
        }) else {
            return false;
        };
        let for_mover = move_value(pos, child, rest);
        let for_winner = if pos.to_move() == winner {
            for_mover
        } else {
            -for_mover
        };
        if for_winner < target {
            return false;
        }
        if child.is_over() || child.captured() != pos.captured() {
            // A capture (or the end): the target is in hand, in a smaller layer.
            return true;
        }
        if plies <= 1 || repeats(&self.path, child) {
            return false;
        }
        self.secures(child, winner, target, plies - 1)
    }

    /// Whether `winner` secures `target` from `pos` within `plies`.
    fn secures(&mut self, pos: &Position, winner: Side, target: i32, plies: u32) -> bool {
        if self.failed.get(&pos.hash()).is_some_and(|&p| p >= plies) {
            return false;
        }
        self.path.push(*pos);
        let mine = pos.to_move() == winner;
        let mut all = true;
        let mut any = false;
        for (_, child) in pos.successors() {
            let ok = self.move_secures(pos, &child, winner, target, plies);
            if mine && ok {
                any = true;
                break;
            }
            if !mine && !ok {
                all = false;
                break;
            }
        }
        self.path.pop();
        let secured = if mine { any } else { all };
        if !secured {
            self.failed.insert(pos.hash(), plies);
        }
        secured
    }
}
