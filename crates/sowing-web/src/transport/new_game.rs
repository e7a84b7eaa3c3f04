//! The body that creates a game (`POST /api/games`, `POST /api/live`): the game, its board
//! and rule options, and the rules it makes.

use serde::Deserialize;
use sowing::{Rules, Variant};

use crate::matches;
use crate::transport::error::{ApiError, ApiResult};
use crate::views::catalog;

/// `POST /api/games`: a new game or match.
#[derive(Deserialize)]
pub struct NewGame {
    pub(crate) game: String,
    pub(crate) pits: Option<usize>,
    /// The rule options by JSON field (`casa_rows` …); any other field is refused by
    /// [`catalog::set_options`].
    #[serde(flatten)]
    pub(crate) options: serde_json::Map<String, serde_json::Value>,
    pub(crate) south: Option<String>,
    pub(crate) north: Option<String>,
    /// Hoyito III only: play a match of this many rounds (H3.3).
    pub(crate) rounds: Option<u32>,
}

/// The rules a new game asks for, and its rounds if it is a match: each option set through
/// [`Rules::set_option`], which refuses one the game does not have.
pub(crate) fn new_game_rules(new: &NewGame) -> ApiResult<(Rules, Option<u32>)> {
    let variant: Variant = new
        .game
        .parse()
        .map_err(|e| ApiError::bad(format!("{e}")))?;
    let mut rules = Rules::new(variant);
    if let Some(pits) = new.pits {
        rules = rules
            .with_pits(pits)
            .map_err(|e| ApiError::bad(e.to_string()))?;
    }
    let given = new
        .options
        .iter()
        .map(|(field, value)| (field.as_str(), value));
    catalog::set_options(&mut rules, given, new.rounds.is_some()).map_err(ApiError::bad)?;
    if let Some(rounds) = new.rounds {
        if !catalog::plays_matches(variant) {
            return Err(ApiError::bad(format!("rounds does not apply to {variant}")));
        }
        if !(1..=matches::MAX_ROUNDS).contains(&rounds) {
            return Err(ApiError::bad(format!(
                "rounds: {rounds} (expected 1 to {})",
                matches::MAX_ROUNDS
            )));
        }
    }
    Ok((rules, new.rounds))
}
