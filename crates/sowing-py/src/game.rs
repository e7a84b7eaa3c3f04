//! `sowing.Game`: a game with history, undo and the repetition rule, as `sowing::Game`.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use sowing::{End, Move, Position, Record, Side, State};

use crate::{observe, rules_from, IllegalMoveError, ParseError, SowingError};

/// A move as Python gives it: a name (`"C"`, `"b"`, `"pass"`) or an action number (the
/// column of the mover's pit, `0 … N−1`, or `N` for a pass).
pub(crate) enum MoveArg {
    Name(String),
    Action(i64),
}

impl MoveArg {
    /// The move Python gave: a string, or an integer (NumPy's too; not a bool, nor a float
    /// such as 2.0, which would hide a rounding), refused with a message that says what a
    /// move is.
    fn from_py(value: &Bound<'_, PyAny>) -> PyResult<MoveArg> {
        if let Ok(name) = value.extract::<String>() {
            return Ok(MoveArg::Name(name));
        }
        let is_bool = value.is_instance_of::<pyo3::types::PyBool>();
        if !is_bool && value.hasattr("__index__")? {
            let index = value.call_method0("__index__")?;
            return Ok(MoveArg::Action(index.extract::<i64>().unwrap_or(i64::MAX)));
        }
        let kind = value.get_type().name()?;
        Err(PyTypeError::new_err(format!(
            "a move is a name (such as \"C\" or \"pass\") or an action number (an integer), not {} ({kind})",
            value.repr()?
        )))
    }
}

/// The side named `south` or `north`.
pub(crate) fn side_arg(name: &str) -> PyResult<Side> {
    name.parse::<Side>()
        .map_err(|e| SowingError::new_err(e.to_string()))
}

/// What a move did.
#[pyclass(
    module = "sowing",
    name = "Report",
    frozen,
    get_all,
    skip_from_py_object
)]
pub struct Report {
    /// The move played, by name.
    #[pyo3(name = "move")]
    mv: String,
    /// Laps sown (0 for a pass).
    laps: u32,
    /// Seeds captured by the move itself (the last four and swept seeds not included).
    captured: u8,
    /// Whether the mover moves again (a Hoyito capture, H2.6).
    extra_turn: bool,
    /// How the game ended with this move, if it did: `board-cleared`, `last-four`,
    /// `cannot-feed` or `repetition`.
    end: Option<&'static str>,
}

#[pymethods]
impl Report {
    fn __repr__(&self) -> String {
        format!(
            "Report(move={:?}, laps={}, captured={}, extra_turn={}, end={})",
            self.mv,
            self.laps,
            self.captured,
            if self.extra_turn { "True" } else { "False" },
            self.end.map_or("None".to_owned(), |e| format!("{e:?}"))
        )
    }
}

/// A game of Hoyito II, Hoyito III or Ayoayo: its position, the moves played, undo and the
/// repetition rule (C.3).
///
/// Moves are named as in the notation (`"A"` … for South's pits, `"a"` … for North's,
/// `"pass"`) or numbered as actions: the column of the mover's pit, `0 … N−1`, and `N` for
/// a pass.
#[pyclass(module = "sowing", name = "Game", skip_from_py_object)]
#[derive(Clone)]
pub struct Game {
    pub(crate) inner: sowing::Game,
    /// Tags of a record read by `from_record` (players, date …), written back by `record`.
    tags: Vec<(String, String)>,
}

impl Game {
    pub(crate) fn wrap(inner: sowing::Game) -> Game {
        Game {
            inner,
            tags: Vec::new(),
        }
    }

    fn to_move_arg(&self, mv: MoveArg) -> PyResult<Move> {
        let n = self.inner.rules().pits_per_row();
        match mv {
            MoveArg::Name(name) => self
                .inner
                .parse_move(&name)
                .map_err(|e| IllegalMoveError::new_err(e.to_string())),
            MoveArg::Action(a) if (0..n as i64).contains(&a) => {
                Ok(observe::sow(self.inner.position(), a as usize))
            }
            MoveArg::Action(a) if a == n as i64 => Ok(Move::Pass),
            MoveArg::Action(a) => Err(IllegalMoveError::new_err(format!(
                "{a} is not an action: expected 0 to {n} (the mover's pits, then {n} for pass)"
            ))),
        }
    }

    fn name(&self, mv: Move) -> String {
        mv.name(self.inner.rules().pits_per_row()).to_string()
    }
}

#[pymethods]
impl Game {
    /// A new game from the start position: `game` is one of `sowing.GAMES`, `pits` the
    /// pits a row, and the rule options are keyword arguments; `sowing.OPTIONS[game]`
    /// lists the game's, with their values (the rules crate's table).
    #[new]
    #[pyo3(signature = (game = "hoyito-ii", pits = 6, **options))]
    fn new(game: &str, pits: i64, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        let rules = rules_from(game, pits, options)?;
        Ok(Game::wrap(sowing::Game::new(rules)))
    }

    /// The game's name: `"hoyito-ii"`, `"hoyito-iii"` or `"ayoayo"`.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.rules().variant().name()
    }

    /// Pits in each row (N).
    #[getter]
    fn pits_per_row(&self) -> usize {
        self.inner.rules().pits_per_row()
    }

    /// The options as keyword arguments of `Game` (those the game has).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (option, value) in self.inner.rules().options() {
            dict.set_item(option.field, value)?;
        }
        Ok(dict)
    }

    /// The legal moves by name, in ring order: `["A", "C"]`, `["pass"]`, or none once over.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_names()
    }

    /// The legal moves as action numbers (the mover's columns, `N` for a pass).
    fn legal_actions(&self) -> Vec<usize> {
        let n = self.inner.rules().pits_per_row();
        self.inner
            .legal_moves()
            .iter()
            .map(|mv| match mv {
                Move::Sow(pit) => pit.column(n),
                Move::Pass => n,
            })
            .collect()
    }

    /// The legal actions as a mask of `N + 1` int8 values (the last one: pass).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let n = self.inner.rules().pits_per_row();
        let mut mask = vec![0i8; n + 1];
        for action in self.legal_actions() {
            mask[action] = 1;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Plays a move, by name or action number, and says what it did (`mv`, the argument's
    /// old name, is still taken by keyword).
    ///
    /// Raises `IllegalMoveError` (with the rules' reason) when it is not legal; the game is
    /// then unchanged.
    #[pyo3(signature = (r#move = None, *, mv = None))]
    fn play(
        &mut self,
        r#move: Option<&Bound<'_, PyAny>>,
        mv: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Report> {
        let mv = match (r#move, mv) {
            (Some(mv), None) | (None, Some(mv)) => MoveArg::from_py(mv)?,
            (None, None) => {
                return Err(PyTypeError::new_err(
                    "Game.play() missing its argument: the move (a name or an action)",
                ))
            }
            (Some(_), Some(_)) => {
                return Err(PyTypeError::new_err(
                    "Game.play() takes one move: move, or mv (its old name), not both",
                ))
            }
        };
        let mv = self.to_move_arg(mv)?;
        let report = self
            .inner
            .play(mv)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        Ok(Report {
            mv: self.name(mv),
            laps: report.laps,
            captured: report.captured,
            extra_turn: report.extra_turn,
            end: report.end.map(End::code),
        })
    }

    /// Takes back the last move and returns its name, or `None` at the start.
    fn undo(&mut self) -> Option<String> {
        self.inner.undo().map(|mv| self.name(mv))
    }

    /// Plays again the last move taken back; returns its name, or `None` if there is none.
    fn redo(&mut self) -> Option<String> {
        let mv = self.inner.redo_moves().next()?;
        self.inner.redo().map(|_| self.name(mv))
    }

    /// An independent copy.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The result once over: `"south"`, `"north"` (the winner) or `"draw"`; `None` before.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.inner.outcome().map(|o| o.name())
    }

    /// How the game ended: `"board-cleared"`, `"last-four"`, `"cannot-feed"`,
    /// `"repetition"`, or `None`.
    #[getter]
    fn end(&self) -> Option<&'static str> {
        self.inner.end().map(End::code)
    }

    /// The side to move: `"south"` or `"north"`.
    #[getter]
    fn to_move(&self) -> &'static str {
        self.inner.position().to_move().name()
    }

    /// Seeds in each pit, in ring order (South's `A …`, then North's `a …`).
    #[getter]
    fn pits(&self) -> Vec<u16> {
        // Not `Vec<u8>`, which would be `bytes` in Python.
        self.inner
            .position()
            .pits()
            .iter()
            .map(|&s| s.into())
            .collect()
    }

    /// Seeds captured, `(south, north)` (Ayoayo: the stores).
    #[getter]
    fn captured(&self) -> (u8, u8) {
        let c = self.inner.position().captured();
        (c.south, c.north)
    }

    /// Moves played so far.
    #[getter]
    fn ply(&self) -> usize {
        self.inner.moves().len()
    }

    /// The moves played, by name.
    #[getter]
    fn moves(&self) -> Vec<String> {
        let n = self.inner.rules().pits_per_row();
        self.inner
            .moves()
            .iter()
            .map(|m| m.name(n).to_string())
            .collect()
    }

    /// The one-line position text of docs/notation.md.
    #[getter]
    fn position_text(&self) -> String {
        self.inner.position().to_string()
    }

    /// The JSON machine state of RULES.md, as a dict (the line `sow replay` prints).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let state = State::of(&self.inner);
        let dict = PyDict::new(py);
        dict.set_item("game", state.game)?;
        dict.set_item("pits_per_row", state.pits_per_row)?;
        // Lists of numbers, as in the JSON (a `Vec<u8>` would be `bytes`).
        let numbers = |v: Vec<u8>| v.into_iter().map(u16::from).collect::<Vec<_>>();
        dict.set_item("pits", numbers(state.pits))?;
        dict.set_item("captured", numbers(state.captured))?;
        dict.set_item("to_move", state.to_move)?;
        dict.set_item("over", state.over)?;
        dict.set_item("winner", state.winner)?;
        dict.set_item("last_sower", state.last_sower)?;
        dict.set_item("legal", state.legal)?;
        Ok(dict)
    }

    /// A game from a JSON machine state (a dict, or its JSON text), with no history before
    /// it. The game and board size come from the state, the options from the keywords.
    ///
    /// Raises `ParseError` on a malformed state, with the rules crate's message.
    #[staticmethod]
    #[pyo3(signature = (state, **options))]
    fn from_state(state: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        let text: String = if state.is_instance_of::<PyString>() {
            state.extract()?
        } else {
            let json = state.py().import("json")?;
            json.call_method1("dumps", (state,))?.extract()?
        };
        let parse = |e: sowing::JsonError| ParseError::new_err(e.to_string());
        let state = State::from_json(&text).map_err(parse)?;
        let plain = state.to_game(sowing::Rules::default()).map_err(parse)?;
        let rules = plain.rules();
        let rules = rules_from(rules.variant().name(), rules.pits_per_row() as i64, options)?;
        Ok(Game::wrap(state.to_game(rules).map_err(parse)?))
    }

    /// A game from a one-line position text (which carries the game and its options), with
    /// no history before it.
    ///
    /// Raises `ParseError` on a malformed text, saying which column.
    #[staticmethod]
    fn from_text(text: &str) -> PyResult<Game> {
        let position: Position = text
            .parse()
            .map_err(|e: sowing::ParsePositionError| ParseError::new_err(e.to_string()))?;
        Ok(Game::wrap(sowing::Game::from_position(position)))
    }

    /// The game record (tags, moves, result) of docs/notation.md.
    fn record(&self) -> String {
        let mut record = Record::new(self.inner.clone());
        record.tags = self.tags.clone();
        record.to_string()
    }

    /// A game from a record, replayed move by move (its tags are kept for `record`).
    ///
    /// Raises `ParseError` on a malformed record or an illegal move, saying where.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<Game> {
        let record = Record::parse(text).map_err(|e| ParseError::new_err(e.to_string()))?;
        Ok(Game {
            inner: record.game,
            tags: record.tags,
        })
    }

    /// The observation vector (float32, `2N + 8` numbers) from `side`'s point of view
    /// (`"south"`/`"north"`; by default the side to move): own pits, the opponent's pits,
    /// both captures, whether `side` is to move, the last sower and who takes the last four.
    #[pyo3(signature = (side = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        side: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let position = self.inner.position();
        let side = match side {
            Some(name) => side_arg(name)?,
            None => position.to_move(),
        };
        let n = position.rules().pits_per_row();
        let array = PyArray1::<f32>::zeros(py, observe::size(n), false);
        // A new array nobody else holds yet.
        let slice = unsafe { array.as_slice_mut() }.expect("a new array is contiguous");
        observe::write(position, side, slice);
        Ok(array)
    }

    /// The action number of a move name here (the mover's column, `N` for a pass).
    fn action_of(&self, name: &str) -> PyResult<usize> {
        let n = self.inner.rules().pits_per_row();
        match self.to_move_arg(MoveArg::Name(name.to_owned()))? {
            Move::Pass => Ok(n),
            Move::Sow(pit) if pit.owner(n) == self.inner.position().to_move() => Ok(pit.column(n)),
            Move::Sow(_) => Err(IllegalMoveError::new_err(format!(
                "{name} is not an action here: that pit is the opponent's"
            ))),
        }
    }

    /// The name of an action number here.
    fn move_name(&self, action: i64) -> PyResult<String> {
        let mv = self.to_move_arg(MoveArg::Action(action))?;
        Ok(self.name(mv))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|other| other.borrow().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        format!("Game.from_text({:?})", self.inner.position().to_string())
    }

    fn __str__(&self) -> String {
        self.inner.position().to_string()
    }

    /// Pickles as the game record (the moves that `redo` would play are not kept).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let from_record = py.get_type::<Game>().getattr("from_record")?;
        let record = slf.borrow().record();
        PyTuple::new(py, [from_record, PyTuple::new(py, [record])?.into_any()])
    }
}
