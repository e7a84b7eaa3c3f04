//! The body that creates a game (`POST /api/games`, `POST /api/live`): the game, its board
//! and rule options, and the rules it makes.

use sowing::{Rules, Variant};

use crate::matches;
use crate::transport::error::{ApiError, ApiResult};
use crate::views::catalog;
use crate::views::requests::NewGameRequest;

/// The rules of a single game (no match) a request names by `game`, `pits` and its options,
/// as seeks and challenges ask for one.
pub(crate) fn single_game_rules(
    game: String,
    pits: Option<usize>,
    options: serde_json::Map<String, serde_json::Value>,
) -> ApiResult<Rules> {
    let (rules, _) = new_game_rules(&NewGameRequest {
        game,
        pits,
        options,
        ..NewGameRequest::default()
    })?;
    Ok(rules)
}

/// The rules a new game asks for, and its rounds if it is a match: each option set through
/// [`Rules::set_option`], which refuses one the game does not have.
pub(crate) fn new_game_rules(new: &NewGameRequest) -> ApiResult<(Rules, Option<u32>)> {
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
