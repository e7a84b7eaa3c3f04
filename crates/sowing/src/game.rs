//! A game: the positions played through, undo and redo, and the repetition rule (C.3).

use crate::repetition::Seen;
use crate::{
    End, Event, Illegal, Move, MoveList, Outcome, ParseMoveError, PlayError, Position, Report,
    Rules,
};

/// A game in progress or finished: its start, its moves and every position on the way.
///
/// Besides the rules of [`Position`], it ends the game when a position recurs (C.3).
#[derive(Clone, Debug)]
pub struct Game {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i − 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// How the game ended, if it did; for the start as given by [`Game::from_ended`].
    end: Option<End>,
    start_end: Option<End>,
    /// Moves taken back, the most recent last.
    redo: Vec<Move>,
    /// The positions since the last capture, for the repetition rule.
    seen: Seen,
}

impl Game {
    /// A new game from the start position.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game from a given position, with no history before it.
    pub fn from_position(start: Position) -> Game {
        let end = start.is_over().then_some(End::BoardCleared);
        Game::from_ended(start, end)
    }

    /// A game from a given position that is already over for a reason the position does not
    /// show (repetition): for reading saved states.
    pub fn from_ended(start: Position, end: Option<End>) -> Game {
        let mut game = Game {
            positions: vec![start],
            moves: Vec::new(),
            end,
            start_end: end,
            redo: Vec::new(),
            seen: Seen::default(),
        };
        game.seen.insert(&game.positions, 0);
        game
    }

    /// Starts again from `start`, keeping the allocated history: for playing many games.
    pub fn reset(&mut self, start: Position) {
        self.positions.clear();
        self.positions.push(start);
        self.moves.clear();
        self.redo.clear();
        self.end = start.is_over().then_some(End::BoardCleared);
        self.start_end = self.end;
        self.seen.clear();
        self.seen.insert(&self.positions, 0);
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.start().rules()
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start")
    }

    /// The position after the first `ply` moves (0 = the start), if there were that many.
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// The positions since the last capture, oldest first, the current one excluded: the
    /// only ones it can repeat (C.3). For searches that carry the rule on.
    pub fn positions_since_capture(&self) -> &[Position] {
        let (current, earlier) = self.positions.split_last().expect("a game has a start");
        let first = earlier
            .iter()
            .rposition(|p| p.captured() != current.captured())
            .map_or(0, |i| i + 1);
        &earlier[first..]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// How the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The result once the game is over (C.4).
    pub fn outcome(&self) -> Option<Outcome> {
        self.end.map(|_| self.position().score_outcome())
    }

    /// The legal moves now: none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// The names of the legal moves now, in ring order (`["A", "C"]`, `["pass"]`, or none).
    pub fn legal_names(&self) -> Vec<String> {
        let n = self.rules().pits_per_row();
        self.legal_moves()
            .iter()
            .map(|m| m.name(n).to_string())
            .collect()
    }

    /// Reads a move token for this game's board.
    ///
    /// # Errors
    /// When the token is not a move name on this board.
    pub fn parse_move(&self, token: &str) -> Result<Move, ParseMoveError> {
        Move::parse(token, self.rules().pits_per_row())
    }

    /// Plays a move.
    ///
    /// # Errors
    /// When it is not legal; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Report, PlayError> {
        self.play_inner(mv, None)
    }

    /// Plays a move and appends its steps to `trace` (see [`Position::play_traced`]).
    ///
    /// # Errors
    /// When it is not legal; the game and the trace are then unchanged.
    pub fn play_traced(&mut self, mv: Move, trace: &mut Vec<Event>) -> Result<Report, PlayError> {
        self.play_inner(mv, Some(trace))
    }

    fn play_inner(
        &mut self,
        mv: Move,
        trace: Option<&mut Vec<Event>>,
    ) -> Result<Report, PlayError> {
        if self.is_over() {
            // The position may not show it (repetition): refuse as the position would.
            return Err(PlayError::new(mv, Illegal::GameOver, self.rules()));
        }
        // Play on the copy that becomes the new last position: no second copy.
        let current = *self.position();
        self.positions.push(current);
        let (next, earlier) = self
            .positions
            .split_last_mut()
            .expect("just pushed a position");
        let mut report = match next.play_on_copy(mv, trace) {
            Ok(report) => report,
            Err(error) => {
                self.positions.pop();
                return Err(error);
            }
        };
        if next.captured() != current.captured() {
            self.seen.clear();
        }
        if self.seen.add(earlier, next) && report.end.is_none() {
            report.end = Some(End::Repetition);
        }
        self.end = report.end;
        self.moves.push(mv);
        if self.redo.last() == Some(&mv) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(report)
    }

    /// Takes back the last move; it can be redone until another move is played.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.seen.pop();
        if self.seen.len() == 0 {
            // The move taken back was a capture: gather the positions since the one before.
            let first = self.positions.len() - 1 - self.positions_since_capture().len();
            for index in first..self.positions.len() {
                self.seen.insert(&self.positions, index);
            }
        }
        self.end = if self.moves.is_empty() {
            self.start_end
        } else {
            None
        };
        self.redo.push(mv);
        Some(mv)
    }

    /// Plays again the last move taken back, if any.
    pub fn redo(&mut self) -> Option<Report> {
        let mv = *self.redo.last()?;
        self.play(mv).ok()
    }

    /// The moves that [`Game::redo`] would play, next first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.redo.iter().rev().copied()
    }
}

/// Games are equal when they have the same positions, moves, ending and moves to redo.
impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.positions == other.positions
            && self.moves == other.moves
            && self.end == other.end
            && self.start_end == other.start_end
            && self.redo == other.redo
    }
}

impl Eq for Game {}
