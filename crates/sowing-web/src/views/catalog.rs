//! The games the server plays and their rule options, made from the rules crate's table
//! ([`sowing::RuleOption`]): served at `GET /api/rules` for the page's new-game form, and
//! read by the create handler, which sets each option through [`Rules::set_option`].

use axum::Json;
use serde::Serialize;
use sowing::{Match, RuleOption, Rules, Variant};

use crate::matches::MAX_ROUNDS;

/// `GET /api/rules`: every game and every rule option.
#[derive(Clone, Debug, Serialize)]
pub struct Catalog {
    /// The games, in the order the docs list them.
    pub games: Vec<GameInfo>,
    /// The rule options of all games, in the order records write them.
    pub options: Vec<OptionInfo>,
}

/// One game.
#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: &'static str,
    /// The name for people.
    pub title: &'static str,
    /// The board sizes (pits per row), the usual one first.
    pub pits: &'static [u8],
    /// The JSON fields of its rule options.
    pub options: Vec<&'static str>,
    /// Whether it is also played as a match of rounds (Hoyito III, H3.3), and how.
    #[serde(rename = "match")]
    pub matches: Option<MatchInfo>,
}

/// How a game is played as a match.
#[derive(Clone, Debug, Serialize)]
pub struct MatchInfo {
    /// The fewest and most rounds.
    pub rounds: [u32; 2],
    /// The JSON fields of the options the match decides itself, so not given for a match.
    pub decides: Vec<&'static str>,
}

/// One rule option, as [`RuleOption`] describes it.
#[derive(Clone, Debug, Serialize)]
pub struct OptionInfo {
    /// The field in JSON bodies and views: `casa_rows`.
    pub field: &'static str,
    /// The name on the command line, in position texts and the engine protocol.
    pub name: &'static str,
    /// The record tag.
    pub tag: &'static str,
    /// The rule of RULES.md it sets.
    pub rule: &'static str,
    /// A short title for people.
    pub label: &'static str,
    /// What it decides, for people.
    pub description: &'static str,
    /// The default value.
    pub default: &'static str,
    /// The values, the default first.
    pub values: Vec<ValueInfo>,
    /// The games that have it.
    pub games: Vec<&'static str>,
}

/// One value of an option.
#[derive(Clone, Debug, Serialize)]
pub struct ValueInfo {
    /// Its name in JSON.
    pub name: &'static str,
    /// What it means, for people.
    pub label: &'static str,
}

/// Whether `variant` is also played as a match of rounds (H3.3).
pub fn plays_matches(variant: Variant) -> bool {
    variant == Variant::HoyitoIII
}

/// The games and options, from the rules crate.
pub fn catalog() -> Catalog {
    let games = Variant::ALL
        .into_iter()
        .map(|variant| GameInfo {
            game: variant.name(),
            title: variant.title(),
            pits: variant.board_sizes(),
            options: variant.options().map(|o| o.field).collect(),
            matches: plays_matches(variant).then(|| MatchInfo {
                rounds: [1, MAX_ROUNDS],
                decides: variant
                    .options()
                    .filter(|o| o.name == Match::DECIDES)
                    .map(|o| o.field)
                    .collect(),
            }),
        })
        .collect();
    let options = RuleOption::all()
        .iter()
        .map(|o| OptionInfo {
            field: o.field,
            name: o.name,
            tag: o.tag,
            rule: o.rule,
            label: o.label,
            description: o.description,
            default: o.default_value(),
            values: o
                .values
                .iter()
                .map(|v| ValueInfo {
                    name: v.name,
                    label: v.label,
                })
                .collect(),
            games: o.games.iter().map(|v| v.name()).collect(),
        })
        .collect();
    Catalog { games, options }
}

/// `GET /api/rules`.
pub(crate) async fn serve() -> Json<Catalog> {
    Json(catalog())
}

/// The rule option whose JSON field is `field`.
pub fn option_by_field(field: &str) -> Option<&'static RuleOption> {
    RuleOption::all().iter().find(|o| o.field == field)
}

/// Sets on `rules` the options a new game's body gives by JSON field, each through
/// [`Rules::set_option`]; `in_match` refuses those a match decides itself.
///
/// # Errors
/// A field that is no option, a value that is not a string, an option the game does not
/// have, or an unknown value; the message starts with the field.
pub fn set_options<'a>(
    rules: &mut Rules,
    given: impl IntoIterator<Item = (&'a str, &'a serde_json::Value)>,
    in_match: bool,
) -> Result<(), String> {
    for (field, value) in given {
        let Some(option) = option_by_field(field) else {
            let fields: Vec<&str> = RuleOption::all().iter().map(|o| o.field).collect();
            return Err(format!(
                "unknown field `{field}`: neither a field of a new game nor a rule option ({})",
                fields.join(", ")
            ));
        };
        let Some(value) = value.as_str() else {
            return Err(format!("{field}: expected a string, found {value}"));
        };
        if in_match && option.name == Match::DECIDES {
            return Err(format!(
                "{field}: a match decides it round by round (H3.3); leave it out"
            ));
        }
        rules
            .set_option(option.name, value)
            .map_err(|e| format!("{field}: {e}"))?;
    }
    Ok(())
}
