//! What a write is to a backend: a change applied inside the transaction the backend opens
//! ([`Write`]), and what it did ([`Applied`]). Each aggregate's writes implement it in their
//! own file; the backends know none of them.

use super::changes::{Change, Step};
use super::error::StoreResult;
use super::live::LiveRow;
use super::sql::{Sql, Value};

/// A change to the database. It holds only what is written: a move is its name and the new
/// summary, never a copy of the game.
pub(super) trait Write: Send + Sync {
    /// Applies the change inside the caller's transaction, stamping rows with `now`
    /// ([`super::sql::now_text`]).
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied>;
}

/// What a write did: its answer (a new row's id, or the game's new version), the change to
/// announce to other servers, if any, the accounts whose notices changed (their challenges),
/// and the time it wrote.
pub(super) struct Applied {
    pub(super) answer: i64,
    pub(super) change: Option<Change>,
    pub(super) accounts: Vec<i64>,
    pub(super) at: String,
}

impl Applied {
    /// A write that changed no game: nothing to announce.
    pub(super) fn answer(answer: i64, now: &str) -> Applied {
        Applied {
            answer,
            change: None,
            accounts: Vec::new(),
            at: now.to_owned(),
        }
    }

    /// A change of game `game`, now at `plies` moves and `version`, which is the answer.
    pub(super) fn changed(game: i64, plies: usize, version: i64, now: &str) -> Applied {
        Applied {
            answer: version,
            change: Some(Change {
                game,
                plies,
                version,
                step: None,
            }),
            accounts: Vec::new(),
            at: now.to_owned(),
        }
    }

    /// The same write, telling `accounts` that their notices changed.
    pub(super) fn telling(self, accounts: &[i64]) -> Applied {
        Applied {
            accounts: accounts.to_vec(),
            ..self
        }
    }

    /// A live game's change as its notice carries it: the move `mv` (if any) and the live
    /// row written, at its new version.
    pub(super) fn stepped(self, mv: Option<&String>, live: &LiveRow) -> Applied {
        let updated = self.at.clone();
        Applied {
            change: self.change.map(|change| Change {
                step: Some(Box::new(Step {
                    mv: mv.cloned(),
                    live: LiveRow {
                        version: live.version + 1,
                        ..live.clone()
                    },
                    updated,
                })),
                ..change
            }),
            ..self
        }
    }

    pub(super) fn stamp(self) -> Stamp {
        Stamp {
            version: self.answer,
            updated: self.at,
        }
    }
}

/// What a change left in its game's row: the new version and the time it wrote
/// ([`super::GameRow::stamped`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    /// The game's new [`super::GameRow::version`].
    pub version: i64,
    /// Its new [`super::GameRow::updated`].
    pub updated: String,
}

/// One statement that changes no game; the answer is the rows it changed.
pub(super) struct Statement {
    pub(super) sql: &'static str,
    pub(super) values: Vec<Value>,
}

impl Write for Statement {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let changed = sql.execute(self.sql, &self.values)?;
        Ok(Applied::answer(
            i64::try_from(changed).unwrap_or(i64::MAX),
            now,
        ))
    }
}
