//! Accounts and their sessions, in both databases (the same SQL, as the rest of the store's
//! contract): an account keeps its name, the argon2id hash of its password (a PHC string) and
//! an owner hash of its own, which its games carry; a session keeps only the SHA-256 of its
//! token; a recovery code only its argon2id hash, beside its tag.

use super::error::{StoreError, StoreResult};
use super::sql::{values, Record, Sql};
use super::write::{Applied, Write};
use super::Store;

/// An account.
#[derive(Clone, Debug, PartialEq)]
pub struct AccountRow {
    /// Its id.
    pub id: i64,
    /// Its name as chosen (unique without regard to case).
    pub name: String,
    /// The argon2id hash of its password, as a PHC string (salt and parameters within).
    pub password: String,
    /// The owner hash its games carry ([`super::GameRow::owner`]): random, no key's hash.
    pub owner: [u8; 32],
    /// What the player says about themselves on the profile.
    pub about: String,
    /// When it was made (UTC, `2026-12-04 15:00:00`).
    pub created: String,
}

/// A recovery code as kept: its tag (its first characters, in clear, so that a code tried
/// is checked against one hash, not against every code of the account) and the argon2id
/// hash of the whole code, as a PHC string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveryCode {
    /// The code's first characters, unique among the account's codes.
    pub tag: String,
    /// The argon2id hash of the code (salt and parameters within).
    pub hash: String,
}

/// Which sessions a sign-out ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// The one whose token hashes to this.
    This([u8; 32]),
    /// Every session of the account.
    Everywhere(i64),
}

/// A change to accounts or sessions.
enum AccountWrite {
    /// A new account with its first session; the games of `key` move into it.
    SignUp {
        name: String,
        password: String,
        owner: [u8; 32],
        session: [u8; 32],
        now_ms: i64,
        key: Option<[u8; 32]>,
        codes: Vec<RecoveryCode>,
    },
    /// A new session of an account; the games of `key` move into it.
    SignIn {
        account: i64,
        session: [u8; 32],
        now_ms: i64,
        key: Option<[u8; 32]>,
    },
    /// Sessions ended.
    SignOut(SessionEnd),
    /// A new password; every session but `keep` ends.
    Password {
        account: i64,
        password: String,
        keep: [u8; 32],
    },
    /// The profile's text.
    About { account: i64, about: String },
    /// New recovery codes, which end the old ones.
    RecoveryCodes {
        account: i64,
        codes: Vec<RecoveryCode>,
    },
    /// A recovery: the code (tag and hash) is spent, the password replaced, every session
    /// ended and a new one begun; the games of `key` move into the account. Nothing is
    /// written when the code was spent meanwhile.
    Recover {
        account: i64,
        code: RecoveryCode,
        password: String,
        session: [u8; 32],
        now_ms: i64,
        key: Option<[u8; 32]>,
    },
}

/// The answer of a [`AccountWrite::Recover`] whose code another request spent first.
const CODE_SPENT: i64 = -1;

const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.password, a.owner, a.about, a.created";

fn account_row(r: &Record) -> StoreResult<AccountRow> {
    Ok(AccountRow {
        id: r.int(0)?,
        name: r.text(1)?,
        password: r.text(2)?,
        owner: r
            .opt_hash(3)?
            .ok_or_else(|| r.bad(3, "an account's owner hash"))?,
        about: r.text(4)?,
        created: r.text(5)?,
    })
}

/// A name as it is compared: without regard to case.
fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Writes `codes` as `account`'s recovery codes, ending any it had.
fn replace_codes(sql: &mut dyn Sql, account: i64, codes: &[RecoveryCode]) -> StoreResult<()> {
    sql.execute(
        "DELETE FROM recovery_codes WHERE account_id = ?1",
        &values![account],
    )?;
    for code in codes {
        sql.execute(
            "INSERT INTO recovery_codes (account_id, tag, hash) VALUES (?1, ?2, ?3)",
            &values![account, code.tag.as_str(), code.hash.as_str()],
        )?;
    }
    Ok(())
}

/// Moves the games of the player key whose hash is `key` into `account`: they carry its
/// owner hash from now on (and a new version, so other servers read them again). A moved
/// game uploaded under a `client_id` the account has a game of already loses that name
/// (the account's game keeps answering its uploads), rather than stop the move.
fn move_games(sql: &mut dyn Sql, account: i64, key: Option<[u8; 32]>) -> StoreResult<usize> {
    let Some(key) = key else { return Ok(0) };
    sql.execute(
        "UPDATE games SET client_id = NULL
         WHERE owner = ?2 AND client_id IN (
             SELECT client_id FROM games
             WHERE owner = (SELECT owner FROM accounts WHERE id = ?1) AND client_id IS NOT NULL)",
        &values![account, key],
    )?;
    sql.execute(
        "UPDATE games SET owner = (SELECT owner FROM accounts WHERE id = ?1),
                          version = version + 1
         WHERE owner = ?2",
        &values![account, key],
    )
}

impl Write for AccountWrite {
    fn apply(&self, sql: &mut dyn Sql, now: &str) -> StoreResult<Applied> {
        let applied = |answer: i64| Applied::answer(answer, now);
        match self {
            AccountWrite::SignUp {
                name,
                password,
                owner,
                session,
                now_ms,
                key,
                codes,
            } => {
                let id = sql
                    .query_one(
                        "INSERT INTO accounts (name, name_key, password, owner, about, created)
                         VALUES (?1, ?2, ?3, ?4, '', ?5) RETURNING id",
                        &values![name, name_key(name), password, *owner, now],
                    )?
                    .int(0)?;
                sql.execute(
                    "INSERT INTO sessions (token_hash, account_id, created_ms) VALUES (?1, ?2, ?3)",
                    &values![*session, id, *now_ms],
                )?;
                replace_codes(sql, id, codes)?;
                move_games(sql, id, *key)?;
                Ok(applied(id))
            }
            AccountWrite::SignIn {
                account,
                session,
                now_ms,
                key,
            } => {
                sql.execute(
                    "INSERT INTO sessions (token_hash, account_id, created_ms) VALUES (?1, ?2, ?3)",
                    &values![*session, *account, *now_ms],
                )?;
                let moved = move_games(sql, *account, *key)?;
                Ok(applied(i64::try_from(moved).unwrap_or(i64::MAX)))
            }
            AccountWrite::SignOut(end) => {
                let ended = match end {
                    SessionEnd::This(hash) => sql.execute(
                        "DELETE FROM sessions WHERE token_hash = ?1",
                        &values![*hash],
                    )?,
                    SessionEnd::Everywhere(account) => sql.execute(
                        "DELETE FROM sessions WHERE account_id = ?1",
                        &values![*account],
                    )?,
                };
                Ok(applied(i64::try_from(ended).unwrap_or(i64::MAX)))
            }
            AccountWrite::Password {
                account,
                password,
                keep,
            } => {
                sql.execute(
                    "UPDATE accounts SET password = ?2 WHERE id = ?1",
                    &values![*account, password],
                )?;
                let ended = sql.execute(
                    "DELETE FROM sessions WHERE account_id = ?1 AND token_hash <> ?2",
                    &values![*account, *keep],
                )?;
                Ok(applied(i64::try_from(ended).unwrap_or(i64::MAX)))
            }
            AccountWrite::About { account, about } => {
                sql.execute(
                    "UPDATE accounts SET about = ?2 WHERE id = ?1",
                    &values![*account, about],
                )?;
                Ok(applied(0))
            }
            AccountWrite::RecoveryCodes { account, codes } => {
                replace_codes(sql, *account, codes)?;
                Ok(applied(0))
            }
            AccountWrite::Recover {
                account,
                code,
                password,
                session,
                now_ms,
                key,
            } => {
                // The code is spent by this very statement: of two requests with one code,
                // only the first deletes its row.
                let spent = sql.execute(
                    "DELETE FROM recovery_codes WHERE account_id = ?1 AND tag = ?2 AND hash = ?3",
                    &values![*account, code.tag.as_str(), code.hash.as_str()],
                )?;
                if spent == 0 {
                    return Ok(applied(CODE_SPENT));
                }
                sql.execute(
                    "UPDATE accounts SET password = ?2 WHERE id = ?1",
                    &values![*account, password],
                )?;
                let ended = sql.execute(
                    "DELETE FROM sessions WHERE account_id = ?1",
                    &values![*account],
                )?;
                sql.execute(
                    "INSERT INTO sessions (token_hash, account_id, created_ms) VALUES (?1, ?2, ?3)",
                    &values![*session, *account, *now_ms],
                )?;
                move_games(sql, *account, *key)?;
                Ok(applied(i64::try_from(ended).unwrap_or(i64::MAX)))
            }
        }
    }
}

impl Store {
    /// Makes an account named `name` (unique without regard to case) with the password
    /// hash `password`, its recovery `codes` and its first session (the SHA-256 of its
    /// token); the games of the player key whose SHA-256 is `key` move into it. The new
    /// account.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the name is taken; a database failure. Nothing is then
    /// written.
    pub fn sign_up(
        &self,
        name: &str,
        password: &str,
        session: [u8; 32],
        key: Option<[u8; 32]>,
        now_ms: i64,
        codes: &[RecoveryCode],
    ) -> StoreResult<AccountRow> {
        let (_, owner) = crate::seats::new_token();
        let id = self
            .backend
            .write(Box::new(AccountWrite::SignUp {
                name: name.to_owned(),
                password: password.to_owned(),
                owner,
                session,
                now_ms,
                key,
                codes: codes.to_vec(),
            }))?
            .answer;
        self.account(id)?
            .ok_or_else(|| StoreError::Database(format!("account {id} is missing")))
    }

    /// A new session of `account` (the SHA-256 of its token); the games of the player key
    /// whose SHA-256 is `key` move into it. How many games moved.
    ///
    /// # Errors
    /// On a database failure.
    pub fn sign_in(
        &self,
        account: i64,
        session: [u8; 32],
        key: Option<[u8; 32]>,
        now_ms: i64,
    ) -> StoreResult<usize> {
        let moved = self
            .backend
            .write(Box::new(AccountWrite::SignIn {
                account,
                session,
                now_ms,
                key,
            }))?
            .answer;
        Ok(usize::try_from(moved).unwrap_or(0))
    }

    /// Ends a session, or all of an account's; how many ended.
    ///
    /// # Errors
    /// On a database failure.
    pub fn sign_out(&self, end: SessionEnd) -> StoreResult<usize> {
        let ended = self
            .backend
            .write(Box::new(AccountWrite::SignOut(end)))?
            .answer;
        Ok(usize::try_from(ended).unwrap_or(0))
    }

    /// Sets `account`'s password hash and ends every session of it but `keep`; how many
    /// ended.
    ///
    /// # Errors
    /// On a database failure.
    pub fn set_password(&self, account: i64, password: &str, keep: [u8; 32]) -> StoreResult<usize> {
        let ended = self
            .backend
            .write(Box::new(AccountWrite::Password {
                account,
                password: password.to_owned(),
                keep,
            }))?
            .answer;
        Ok(usize::try_from(ended).unwrap_or(0))
    }

    /// Sets the text of `account`'s profile.
    ///
    /// # Errors
    /// On a database failure.
    pub fn set_about(&self, account: i64, about: &str) -> StoreResult<()> {
        self.backend
            .write(Box::new(AccountWrite::About {
                account,
                about: about.to_owned(),
            }))
            .map(drop)
    }

    /// Replaces `account`'s recovery codes with `codes`: the old ones work no more.
    ///
    /// # Errors
    /// On a database failure.
    pub fn set_recovery_codes(&self, account: i64, codes: &[RecoveryCode]) -> StoreResult<()> {
        self.backend
            .write(Box::new(AccountWrite::RecoveryCodes {
                account,
                codes: codes.to_vec(),
            }))
            .map(drop)
    }

    /// Recovers `account` with `code`: spends the code, sets the password hash `password`,
    /// ends every session and begins one (the SHA-256 of its token); the games of the player
    /// key whose SHA-256 is `key` move into it. How many sessions ended, or `None` (and
    /// nothing written) when the code is no longer the account's: another request spent it
    /// first, or new codes ended it.
    ///
    /// # Errors
    /// On a database failure.
    pub fn recover(
        &self,
        account: i64,
        code: &RecoveryCode,
        password: &str,
        session: [u8; 32],
        key: Option<[u8; 32]>,
        now_ms: i64,
    ) -> StoreResult<Option<usize>> {
        let ended = self
            .backend
            .write(Box::new(AccountWrite::Recover {
                account,
                code: code.clone(),
                password: password.to_owned(),
                session,
                now_ms,
                key,
            }))?
            .answer;
        Ok((ended != CODE_SPENT).then(|| usize::try_from(ended).unwrap_or(0)))
    }

    /// The recovery codes `account` has left, by tag.
    ///
    /// # Errors
    /// On a database failure.
    pub fn recovery_codes(&self, account: i64) -> StoreResult<Vec<RecoveryCode>> {
        let rows = self.backend.read_statement(
            "SELECT tag, hash FROM recovery_codes WHERE account_id = ?1 ORDER BY tag",
            &values![account],
        )?;
        rows.iter()
            .map(|r| {
                Ok(RecoveryCode {
                    tag: r.text(0)?,
                    hash: r.text(1)?,
                })
            })
            .collect()
    }

    /// An account by id.
    ///
    /// # Errors
    /// On a database failure.
    pub fn account(&self, id: i64) -> StoreResult<Option<AccountRow>> {
        self.read(|sql| {
            sql.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1"),
                &values![id],
            )?
            .as_ref()
            .map(account_row)
            .transpose()
        })
    }

    /// An account by name (without regard to case).
    ///
    /// # Errors
    /// On a database failure.
    pub fn account_named(&self, name: &str) -> StoreResult<Option<AccountRow>> {
        let key = name_key(name);
        self.read(|sql| {
            sql.query_opt(
                &format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name_key = ?1"),
                &values![key],
            )?
            .as_ref()
            .map(account_row)
            .transpose()
        })
    }

    /// The account of the session whose token hashes to `session`, if it began at or after
    /// `since_ms` (older sessions have expired).
    ///
    /// # Errors
    /// On a database failure.
    pub fn session_account(
        &self,
        session: [u8; 32],
        since_ms: i64,
    ) -> StoreResult<Option<AccountRow>> {
        let rows = self.backend.read_statement(
            &format!(
                "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account_id
                 WHERE s.token_hash = ?1 AND s.created_ms >= ?2"
            ),
            &values![session, since_ms],
        )?;
        rows.first().map(account_row).transpose()
    }

    /// How many sessions `account` has.
    ///
    /// # Errors
    /// On a database failure.
    pub fn sessions(&self, account: i64) -> StoreResult<usize> {
        self.read(|sql| {
            sql.query_one(
                "SELECT count(*) FROM sessions WHERE account_id = ?1",
                &values![account],
            )?
            .size(0)
        })
    }
}
