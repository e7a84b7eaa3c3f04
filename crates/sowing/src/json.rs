//! The machine state of RULES.md as JSON: written by every program of the project, and read
//! back with the rule options supplied by the caller.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{BySide, End, Game, Position, Rules, Side, Variant};

/// The JSON machine state, field for field as RULES.md gives it.
///
/// ```
/// use sowing::{Game, Rules, State, Variant};
///
/// let game = Game::new(Rules::new(Variant::HoyitoII));
/// let json = State::of(&game).to_json();
/// assert!(json.starts_with(r#"{"game":"hoyito-ii","pits_per_row":6,"#));
/// let back = State::from_json(&json)?.to_game(Rules::new(Variant::HoyitoII))?;
/// assert_eq!(back.position(), game.position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// N: 6, or 12 for Hoyito II on the long board.
    pub pits_per_row: usize,
    /// Pit counts in ring order.
    pub pits: Vec<u8>,
    /// Seeds captured: [South, North] (Ayoayo: the stores).
    pub captured: Vec<u8>,
    /// `south` or `north`.
    pub to_move: String,
    /// Whether the game is over.
    pub over: bool,
    /// `south`, `north`, `draw`, or null while the game goes on.
    pub winner: Option<String>,
    /// Who made the last sowing move: `south`, `north` or null.
    pub last_sower: Option<String>,
    /// The legal moves in ring order; empty when the game is over.
    #[serde(default)]
    pub legal: Vec<String>,
}

/// A JSON state that could not be read: malformed JSON (with line and column) or values
/// that make no position.
#[derive(Debug)]
pub struct JsonError(String);

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JSON state: {}", self.0)
    }
}

impl std::error::Error for JsonError {}

impl State {
    /// The state of a game.
    pub fn of(game: &Game) -> State {
        let position = game.position();
        let n = position.rules().pits_per_row();
        State {
            game: position.rules().variant().name().to_owned(),
            pits_per_row: n,
            pits: position.pits().to_vec(),
            captured: vec![position.captured().south, position.captured().north],
            to_move: position.to_move().name().to_owned(),
            over: game.is_over(),
            winner: game.outcome().map(|o| o.name().to_owned()),
            last_sower: position.last_sower().map(|s| s.name().to_owned()),
            legal: game.legal_names(),
        }
    }

    /// One line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a state always serializes")
    }

    /// Reads a JSON state. Fields other than those of RULES.md are ignored.
    ///
    /// # Errors
    /// When the text is not JSON or lacks a field; the message gives line and column.
    pub fn from_json(text: &str) -> Result<State, JsonError> {
        serde_json::from_str(text).map_err(|e| JsonError(e.to_string()))
    }

    /// The game this state describes, under the options of `options` (its game and board
    /// size are taken from the state). `winner` and `legal` are derived, so not read; an
    /// `over` state whose position is not over by itself ended by repetition.
    ///
    /// # Errors
    /// When a field holds a value no position has (unknown game, wrong number of pits …).
    pub fn to_game(&self, options: Rules) -> Result<Game, JsonError> {
        let bad = |field: &str, message: String| JsonError(format!("field {field:?}: {message}"));
        let variant: Variant = self.game.parse().map_err(|e| bad("game", format!("{e}")))?;
        let mut rules = Rules::new(variant)
            .with_pits(self.pits_per_row)
            .map_err(|e| bad("pits_per_row", e.to_string()))?;
        rules.casa_rows = options.casa_rows;
        rules.leftover = options.leftover;
        rules.final_four = options.final_four;
        if self.pits.len() != rules.pit_count() {
            return Err(bad(
                "pits",
                format!(
                    "{} counts given, a 2×{} board has {}",
                    self.pits.len(),
                    self.pits_per_row,
                    rules.pit_count()
                ),
            ));
        }
        let &[south, north] = self.captured.as_slice() else {
            return Err(bad(
                "captured",
                format!(
                    "expected [South, North], found {} values",
                    self.captured.len()
                ),
            ));
        };
        let side = |field: &str, text: &str| -> Result<Side, JsonError> {
            text.parse().map_err(|e| bad(field, format!("{e}")))
        };
        let to_move = side("to_move", &self.to_move)?;
        let last_sower = match &self.last_sower {
            Some(text) => Some(side("last_sower", text)?),
            None => None,
        };
        let position = Position::from_parts(
            rules,
            &self.pits,
            BySide::new(south, north),
            to_move,
            last_sower,
        )
        .map_err(|e| bad("pits", e.to_string()))?;
        Ok(if self.over && !position.is_over() {
            Game::from_ended(position, Some(End::Repetition))
        } else {
            Game::from_position(position)
        })
    }
}
