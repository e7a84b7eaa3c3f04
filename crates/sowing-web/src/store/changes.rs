//! Changes as the servers sharing a database tell one another of them ([`Notice`]): each
//! commit's game, move count and version, and for a live game's move the step itself, so
//! that another server can follow it without reading the game.

use super::live::{live_record, live_row, LiveRow};
use super::sql::{Record, Value};

/// A change someone (maybe another server) committed: the game and its new move count and
/// version, as PostgreSQL's `NOTIFY` carries it. Version -1: the game was deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game.
    pub game: i64,
    /// Its moves now.
    pub plies: usize,
    /// Its version now ([`super::GameRow::version`]).
    pub version: i64,
    /// For a move or a change of a live game's row: the change itself, so that a server
    /// whose copy is at the version before can follow it without reading the game
    /// ([`Change::follow`], in `moves.rs`). `None` for other writes.
    pub step: Option<Box<Step>>,
}

/// A write to a live game as its notice carries it: a move (or none) and what it left in
/// the rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The move played, by its name (`A`, `pass` …); `None` when only the live row changed.
    pub mv: Option<String>,
    /// The live row now, at its new version.
    pub live: LiveRow,
    /// The game row's new [`super::GameRow::updated`].
    pub updated: String,
}

impl Step {
    /// The step as the text of a notice: JSON, the live row by the codec of its table
    /// (`live` holds its columns in the order of `LIVE_COLUMNS`; a hash is an array of
    /// bytes).
    pub(super) fn to_text(&self) -> String {
        use serde_json::Value as Json;
        let live: Vec<Json> = live_record(&self.live)
            .0
            .into_iter()
            .map(|value| match value {
                Value::Null => Json::Null,
                Value::Int(n) => n.into(),
                Value::Real(x) => x.into(),
                Value::Text(text) => text.into(),
                Value::Blob(bytes) => bytes.into(),
                Value::Bool(b) => b.into(),
            })
            .collect();
        serde_json::json!({"mv": self.mv, "updated": self.updated, "live": live}).to_string()
    }

    /// The step a notice's text holds ([`Step::to_text`]), `None` if it holds none.
    pub(super) fn from_text(text: &str) -> Option<Step> {
        use serde_json::Value as Json;
        let json: Json = serde_json::from_str(text).ok()?;
        let values = json
            .get("live")?
            .as_array()?
            .iter()
            .map(|value| match value {
                Json::Null => Some(Value::Null),
                Json::Bool(b) => Some(Value::Bool(*b)),
                Json::Number(n) => n.as_i64().map(Value::Int).or(n.as_f64().map(Value::Real)),
                Json::String(text) => Some(Value::Text(text.clone())),
                Json::Array(bytes) => bytes
                    .iter()
                    .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
                    .collect::<Option<Vec<u8>>>()
                    .map(Value::Blob),
                Json::Object(_) => None,
            })
            .collect::<Option<Vec<Value>>>()?;
        Some(Step {
            mv: match json.get("mv")? {
                Json::Null => None,
                mv => Some(mv.as_str()?.to_owned()),
            },
            live: live_row(&Record(values)).ok()?,
            updated: json.get("updated")?.as_str()?.to_owned(),
        })
    }
}

/// What a store's listener hears ([`super::Store::listen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// From now on every change committed reaches the listener (it connected, or connected
    /// again after a loss: changes in between were missed).
    Hearing,
    /// A change committed by anyone, this process included.
    Change(Change),
    /// The notices of an account (its challenges) changed, by anyone's commit.
    Account(i64),
    /// The listener lost its connection: changes are being missed until [`Notice::Hearing`].
    Lost,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::LiveClock;
    use crate::store::{LiveResult, Offers};
    use sowing::Side;

    #[test]
    fn a_step_reads_back_from_its_text() {
        let live = LiveRow {
            game_id: 12,
            seats: [Some([7; 32]), Some([255; 32])],
            names: [Some("Ana 'o\\ \"Ñ\"".into()), None],
            lobby: true,
            address: Some("192.0.2.1".into()),
            clock: Some(LiveClock {
                base_ms: 60_000,
                increment_ms: 2_000,
                remaining_ms: [59_000, -3],
                running_since: Some(1_796_150_820_000),
                per_move: true,
            }),
            offers: Offers {
                draw: Some(Side::North),
                takeback: None,
                rematch: Some(Side::South),
            },
            result: Some(LiveResult {
                outcome: "south".into(),
                reason: "resigned".into(),
            }),
            rematch: Some(13),
            takebacks: 2,
            version: 9,
            created_ms: 1_000,
            touched_ms: 2_000,
            accounts: [Some(4), None],
            rated: true,
            first_move_due: true,
            credited_ms: 5_200,
            said: [Some((3, "good-luck".into())), None],
        };
        assert_eq!(live_row(&live_record(&live)), Ok(live.clone()));
        for mv in [Some("pass".to_owned()), None] {
            let step = Step {
                mv,
                live: live.clone(),
                updated: "2026-12-04 18:47:00".into(),
            };
            assert_eq!(Step::from_text(&step.to_text()), Some(step));
        }
        for bad in [
            "",
            "{}",
            "12 7 3",
            r#"{"mv": 1, "updated": "x", "live": []}"#,
        ] {
            assert_eq!(Step::from_text(bad), None, "{bad:?}");
        }
    }
}
