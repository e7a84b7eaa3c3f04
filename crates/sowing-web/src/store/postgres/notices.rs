//! The announcements between servers: each commit's change as the text of a `NOTIFY` on one
//! channel, and read back from it ([`parse_change`]).

use postgres::Client;

use super::db;
use crate::store::changes::{Change, Step};
use crate::store::error::StoreResult;

/// The channel of `NOTIFY`: payload `game plies version` (version -1: the game was deleted),
/// then for a live game's move or row the change itself ([`Step`]), so that the other
/// servers need not read the game.
pub(super) const CHANNEL: &str = "sowing_games";

/// The channel of `NOTIFY` for accounts whose notices (challenges) changed: payload the
/// account's id.
pub(super) const ACCOUNTS_CHANNEL: &str = "sowing_accounts";

/// Announces a committed change to every listening server, in one round trip. The
/// statements go as one text (the simple protocol, which runs the four at once, takes no
/// parameters), the payload as an escaped literal.
pub(super) fn announce(client: &mut Client, change: &Change) -> StoreResult<()> {
    let payload = literal(&payload(change));
    client
        .batch_execute(&format!(
            "BEGIN; SET LOCAL synchronous_commit = off;
             SELECT pg_notify('{CHANNEL}', {payload}); COMMIT"
        ))
        .map_err(db)
}

/// Announces that the notices of `accounts` changed, in one round trip.
pub(super) fn announce_accounts(client: &mut Client, accounts: &[i64]) -> StoreResult<()> {
    let notices: String = accounts
        .iter()
        .map(|id| format!("SELECT pg_notify('{ACCOUNTS_CHANNEL}', '{id}');"))
        .collect();
    client
        .batch_execute(&format!(
            "BEGIN; SET LOCAL synchronous_commit = off; {notices} COMMIT"
        ))
        .map_err(db)
}

/// PostgreSQL refuses a payload of 8,000 bytes or more: a step that would not fit is left
/// out (the servers then read the game).
const PAYLOAD_MAX: usize = 7_999;

/// A notice's payload: `game plies version`, then the step if any ([`Step::to_text`]).
fn payload(change: &Change) -> String {
    let Change {
        game,
        plies,
        version,
        step,
    } = change;
    let numbers = format!("{game} {plies} {version}");
    match step {
        Some(step) => {
            let full = format!("{numbers} {}", step.to_text());
            if full.len() <= PAYLOAD_MAX {
                full
            } else {
                numbers
            }
        }
        None => numbers,
    }
}

/// `text` as an SQL string literal, `E'…'` (its meaning does not depend on the setting
/// `standard_conforming_strings`). A Rust string holds no NUL, which PostgreSQL's text
/// cannot.
fn literal(text: &str) -> String {
    format!("E'{}'", text.replace('\\', "\\\\").replace('\'', "''"))
}

pub(super) fn parse_change(payload: &str) -> Option<Change> {
    let mut parts = payload.splitn(4, ' ');
    let game = parts.next()?.parse().ok()?;
    let plies = parts.next()?.parse().ok()?;
    let version = parts.next()?.parse().ok()?;
    let step = match parts.next() {
        Some(text) => Some(Box::new(Step::from_text(text)?)),
        None => None,
    };
    Some(Change {
        game,
        plies,
        version,
        step,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_reads_from_its_payload_and_nothing_else_does() {
        let change = Change {
            game: 12,
            plies: 7,
            version: 3,
            step: None,
        };
        assert_eq!(parse_change("12 7 3"), Some(change.clone()));
        assert_eq!(parse_change(&payload(&change)), Some(change));
        assert_eq!(parse_change("12 0 -1").map(|c| c.version), Some(-1));
        for bad in [
            "",
            "12",
            "12 7",
            "12 7 3 4",
            "a 7 3",
            "12 -7 3",
            "12 7 3 {}",
        ] {
            assert_eq!(parse_change(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_literal_is_escaped_whatever_it_holds() {
        assert_eq!(literal(r#"a'b\c"d"#), r#"E'a''b\\c"d'"#);
    }
}
