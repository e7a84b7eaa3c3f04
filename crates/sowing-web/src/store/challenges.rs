//! Challenges by name (docs/api.md, "Challenges"): one account asks another for a game.
//! A challenge is open until it is accepted, declined, cancelled or expires. Accepting
//! creates the live game in the same transaction that closes the challenge, so a challenge
//! makes one game at most, whichever servers accept it at once. Every write names the two
//! accounts, whose notices sockets are woken on every server ([`Applied::telling`]).
//!
//! An account refuses challenges from a named account, or from everyone (refused id
//! [`EVERYONE`]).

use sowing::{Game, Position, Side};

use super::error::{StoreError, StoreResult};
use super::games::Create;
use super::sql::{values, Record, Sql};
use super::write::{Applied, Statement, Write};
use super::{LiveRow, NewGame, Store};
use crate::clock::LiveClock;

/// The refused id that stands for every account.
pub const EVERYONE: i64 = 0;

/// A challenge to make.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The challenger's account and name.
    pub from: (i64, String),
    /// The challenged account and name.
    pub to: (i64, String),
    /// The game's start position, as text (the rules and their options within).
    pub start: String,
    /// The challenger's seat.
    pub seat: Side,
    /// The clock, or `None` for unlimited time.
    pub clock: Option<LiveClock>,
    /// A rated game.
    pub rated: bool,
    /// SHA-256 of the challenger's seat token.
    pub token_hash: [u8; 32],
    /// Now, Unix ms.
    pub now_ms: i64,
    /// When it expires unanswered, Unix ms.
    pub expires_ms: i64,
}

/// A challenge as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// Its id.
    pub id: i64,
    /// The challenger's account and name.
    pub from: (i64, String),
    /// The challenged account and name.
    pub to: (i64, String),
    /// The game's start position, as text.
    pub start: String,
    /// The challenger's seat.
    pub seat: Side,
    /// The clock, or `None` for unlimited time.
    pub clock: Option<LiveClock>,
    /// A rated game.
    pub rated: bool,
    /// `open`, `accepted`, `declined` or `cancelled` (an open one past `expires_ms` has
    /// expired).
    pub state: String,
    /// The live game, once accepted.
    pub game_id: Option<i64>,
    /// When it was made, Unix ms.
    pub created_ms: i64,
    /// When it expires unanswered, Unix ms.
    pub expires_ms: i64,
}

const COLUMNS: &str = "id, from_account, from_name, to_account, to_name, start, seat, base_ms, \
                       increment_ms, per_move, rated, state, game_id, created_ms, expires_ms";

fn challenge_row(r: &Record) -> StoreResult<ChallengeRow> {
    let clock = match r.opt_int(7)? {
        Some(base_ms) => Some(LiveClock {
            per_move: r.flag(9)?,
            ..LiveClock::new(base_ms, r.int(8)?)
        }),
        None => None,
    };
    Ok(ChallengeRow {
        id: r.int(0)?,
        from: (r.int(1)?, r.text(2)?),
        to: (r.int(3)?, r.text(4)?),
        start: r.text(5)?,
        seat: r.opt_side(6)?.ok_or_else(|| r.bad(6, "a seat"))?,
        clock,
        rated: r.flag(10)?,
        state: r.text(11)?,
        game_id: r.opt_int(12)?,
        created_ms: r.int(13)?,
        expires_ms: r.int(14)?,
    })
}

/// Makes a challenge, open; its id.
struct Issue(NewChallenge);

impl Write for Issue {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let new = &self.0;
        let id = sql
            .query_one(
                "INSERT INTO challenges (from_account, from_name, to_account, to_name, start, seat,
                                         base_ms, increment_ms, per_move, rated, token_hash,
                                         state, created_ms, expires_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'open', ?12, ?13)
                 RETURNING id",
                &values![
                    new.from.0,
                    new.from.1.as_str(),
                    new.to.0,
                    new.to.1.as_str(),
                    new.start.as_str(),
                    new.seat,
                    new.clock.map(|c| c.base_ms),
                    new.clock.map_or(0, |c| c.increment_ms),
                    new.clock.is_some_and(|c| c.per_move),
                    new.rated,
                    new.token_hash,
                    new.now_ms,
                    new.expires_ms,
                ],
            )?
            .int(0)?;
        Ok(Applied::answer(id, now).telling(&[new.from.0, new.to.0]))
    }
}

/// How an open challenge is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closing {
    /// The challenged account accepts: the game is created, the acceptor's seat held by
    /// the token whose SHA-256 is given.
    Accept([u8; 32]),
    /// The challenged account declines.
    Decline,
    /// The challenger takes it back.
    Cancel,
}

/// Closes an open, unexpired challenge; the answer is the live game's id for an accept, 0
/// otherwise, and -1 when the challenge was not open.
struct Close {
    id: i64,
    closing: Closing,
    now_ms: i64,
}

impl Write for Close {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let state = match self.closing {
            Closing::Accept(_) => "accepted",
            Closing::Decline => "declined",
            Closing::Cancel => "cancelled",
        };
        let Some(claimed) = sql.query_opt(
            &format!(
                "UPDATE challenges SET state = ?2, answered_ms = ?3
                 WHERE id = ?1 AND state = 'open' AND expires_ms > ?3
                 RETURNING {COLUMNS}, token_hash"
            ),
            &values![self.id, state, self.now_ms],
        )?
        else {
            return Ok(Applied::answer(-1, now));
        };
        let row = challenge_row(&claimed)?;
        let tell = [row.from.0, row.to.0];
        let Closing::Accept(acceptor_hash) = self.closing else {
            return Ok(Applied::answer(0, now).telling(&tell));
        };
        let challenger_hash = claimed
            .opt_hash(15)?
            .ok_or_else(|| claimed.bad(15, "a 32-byte hash"))?;
        let start: Position = row.start.parse().map_err(|e| {
            StoreError::Database(format!(
                "challenge {}: its start does not read: {e}",
                row.id
            ))
        })?;
        let (mut seats, mut names, mut accounts) = ([None; 2], [None, None], [None; 2]);
        let mine = row.seat.index();
        let theirs = (!row.seat).index();
        (seats[mine], names[mine], accounts[mine]) =
            (Some(challenger_hash), Some(row.from.1), Some(row.from.0));
        (seats[theirs], names[theirs], accounts[theirs]) =
            (Some(acceptor_hash), Some(row.to.1), Some(row.to.0));
        let live = LiveRow {
            accounts,
            rated: row.rated,
            // Both players are there now, unless a move may take days.
            first_move_due: !row.clock.is_some_and(|c| c.per_move),
            ..LiveRow::new(seats, names, row.clock, self.now_ms)
        };
        let game = Game::from_position(start);
        let created = Create::of(&NewGame::live(&game, &live)).apply(sql, now)?;
        sql.execute(
            "UPDATE challenges SET game_id = ?2 WHERE id = ?1",
            &values![row.id, created.answer],
        )?;
        Ok(created.telling(&tell))
    }
}

/// Replaces the refusals of an account.
struct Refuse {
    account: i64,
    refused: Vec<i64>,
}

impl Write for Refuse {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        sql.execute(
            "DELETE FROM challenge_refusals WHERE account_id = ?1",
            &values![self.account],
        )?;
        for refused in &self.refused {
            sql.execute(
                "INSERT INTO challenge_refusals (account_id, refused_id) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
                &values![self.account, *refused],
            )?;
        }
        Ok(Applied::answer(0, now))
    }
}

impl Store {
    /// Makes a challenge, open; its id.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn issue_challenge(&self, new: NewChallenge) -> StoreResult<i64> {
        Ok(self.backend.write(Box::new(Issue(new)))?.answer)
    }

    /// Closes challenge `id` if it is open and unexpired at `now_ms`: `Some(game)` for an
    /// accept (the live game created), `Some(0)` for a decline or cancel, `None` when it
    /// was not open.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn close_challenge(
        &self,
        id: i64,
        closing: Closing,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        let answer = self
            .backend
            .write(Box::new(Close {
                id,
                closing,
                now_ms,
            }))?
            .answer;
        Ok((answer >= 0).then_some(answer))
    }

    /// A challenge by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn challenge(&self, id: i64) -> StoreResult<Option<ChallengeRow>> {
        self.backend
            .read_statement(
                &format!("SELECT {COLUMNS} FROM challenges WHERE id = ?1"),
                &values![id],
            )?
            .first()
            .map(challenge_row)
            .transpose()
    }

    /// The challenges open to or from `account` at `now_ms`, and those it made that were
    /// closed or expired since `since_ms`, newest first (at most 100).
    ///
    /// # Errors
    /// On a database failure.
    pub fn challenges_of(
        &self,
        account: i64,
        now_ms: i64,
        since_ms: i64,
    ) -> StoreResult<Vec<ChallengeRow>> {
        self.backend
            .read_statement(
                &format!(
                    "SELECT {COLUMNS} FROM challenges
                     WHERE (to_account = ?1 AND state = 'open' AND expires_ms > ?2)
                        OR (from_account = ?1 AND (expires_ms > ?3 OR answered_ms > ?3))
                     ORDER BY id DESC LIMIT 100"
                ),
                &values![account, now_ms, since_ms],
            )?
            .iter()
            .map(challenge_row)
            .collect()
    }

    /// How many challenges `account` has open at `now_ms`, and whether one of them is to
    /// `to`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn open_challenges_from(
        &self,
        account: i64,
        to: i64,
        now_ms: i64,
    ) -> StoreResult<(usize, bool)> {
        let rows = self.backend.read_statement(
            "SELECT to_account FROM challenges
             WHERE from_account = ?1 AND state = 'open' AND expires_ms > ?2",
            &values![account, now_ms],
        )?;
        let to_them = rows
            .iter()
            .map(|r| r.int(0))
            .collect::<StoreResult<Vec<_>>>()?
            .contains(&to);
        Ok((rows.len(), to_them))
    }

    /// The accounts `account` refuses challenges from ([`EVERYONE`] for all).
    ///
    /// # Errors
    /// On a database failure.
    pub fn refusals(&self, account: i64) -> StoreResult<Vec<i64>> {
        self.backend
            .read_statement(
                "SELECT refused_id FROM challenge_refusals WHERE account_id = ?1
                 ORDER BY refused_id",
                &values![account],
            )?
            .iter()
            .map(|r| r.int(0))
            .collect()
    }

    /// Whether `account` refuses challenges from `from`.
    ///
    /// # Errors
    /// On a database failure.
    pub fn refuses(&self, account: i64, from: i64) -> StoreResult<bool> {
        let rows = self.backend.read_statement(
            "SELECT 1 FROM challenge_refusals
             WHERE account_id = ?1 AND refused_id IN (?2, ?3) LIMIT 1",
            &values![account, from, EVERYONE],
        )?;
        Ok(!rows.is_empty())
    }

    /// Deletes the challenges that expired, and were answered if they were, before
    /// `before_ms`; how many.
    ///
    /// # Errors
    /// On a database failure.
    pub fn sweep_challenges(&self, before_ms: i64) -> StoreResult<usize> {
        let deleted = self
            .backend
            .write(Box::new(Statement {
                sql: "DELETE FROM challenges
                      WHERE expires_ms < ?1 AND (answered_ms IS NULL OR answered_ms < ?1)",
                values: values![before_ms].into(),
            }))?
            .answer;
        Ok(usize::try_from(deleted).unwrap_or(0))
    }

    /// Replaces the accounts `account` refuses challenges from.
    ///
    /// # Errors
    /// On a database failure; nothing is then written.
    pub fn set_refusals(&self, account: i64, refused: Vec<i64>) -> StoreResult<()> {
        self.backend
            .write(Box::new(Refuse { account, refused }))
            .map(drop)
    }
}
