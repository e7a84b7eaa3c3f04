//! Accounts: signing up and in with a name and a password (argon2id), sessions (a token the
//! browser keeps in an HttpOnly cookie; only its SHA-256 is stored), signing out of one
//! session or all, a new password (which ends the other sessions), recovery codes (a
//! forgotten password without e-mail), profiles, leaderboards. An anonymous player's games
//! (those of the player key presented) move into the account when they sign up, or sign in
//! with that key.

use std::sync::{Condvar, LazyLock, Mutex};
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::ratings::Speed;
use crate::seats;
use crate::services::games::{blocking, GameError, Games};
use crate::store::{AccountRow, RecoveryCode, SessionEnd, StoreError};
use crate::views::accounts::{LeaderboardView, ProfileView};

type GameResult<T> = Result<T, GameError>;

/// How long a session lasts from signing in.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);

/// A name: 2 to 24 letters, digits, `_` or `-` (ASCII), starting with a letter or digit.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 2..=24;

/// A password: 8 to 128 characters.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// The longest text of a profile.
pub const ABOUT_CHARS: usize = 400;

/// How many rated games a profile lists.
const PROFILE_GAMES: usize = 200;

/// How many players a leaderboard lists.
const LEADERS: usize = 100;

/// How many recovery codes an account is given at a time.
pub const RECOVERY_CODES: usize = 8;

/// The characters of a recovery code: Crockford's base 32 in lower case (no i, l, o or u,
/// which are read for 1, 1, 0 and v), five bits each.
const CODE_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A code's length: 12 characters, 60 random bits.
const CODE_CHARS: usize = 12;

/// How many of a code's first characters are its tag, kept in clear to find its hash: the
/// other 50 bits stay secret.
const TAG_CHARS: usize = 2;

/// A session begun: the account and the token for the cookie (shown once, never stored).
pub struct SignedIn {
    /// The account.
    pub account: AccountRow,
    /// The session's token.
    pub token: String,
    /// Games that moved into the account from the player key presented.
    pub moved: usize,
    /// A new account's recovery codes, shown this once (empty when signing in).
    pub recovery_codes: Vec<String>,
    /// Sessions of the account that a recovery ended.
    pub ended: Option<usize>,
}

/// Fresh recovery codes as shown (`abcd-efgh-jkmn`) and as kept (tag and argon2id hash),
/// their tags all different so that a code tried is checked against one hash.
fn new_recovery_codes() -> Result<(Vec<String>, Vec<RecoveryCode>), StoreError> {
    use rand::Rng;
    let mut rng = rand::rngs::OsRng;
    let mut plain: Vec<String> = Vec::with_capacity(RECOVERY_CODES);
    while plain.len() < RECOVERY_CODES {
        let code: String = (0..CODE_CHARS)
            .map(|_| char::from(CODE_ALPHABET[rng.gen_range(0..CODE_ALPHABET.len())]))
            .collect();
        if plain.iter().all(|p| p[..TAG_CHARS] != code[..TAG_CHARS]) {
            plain.push(code);
        }
    }
    let kept = plain
        .iter()
        .map(|code| {
            Ok(RecoveryCode {
                tag: code[..TAG_CHARS].to_owned(),
                hash: hash_password(code)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    let shown = plain
        .iter()
        .map(|code| format!("{}-{}-{}", &code[..4], &code[4..8], &code[8..]))
        .collect();
    Ok((shown, kept))
}

/// A recovery code as typed, in the form it was hashed: lower case, without the dashes and
/// spaces, with the letters Crockford's base 32 reads as digits (o, i, l) read so; `None`
/// when it cannot be a code.
fn typed_code(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| match c.to_ascii_lowercase() {
            'o' => '0',
            'i' | 'l' => '1',
            c => c,
        })
        .collect();
    (code.len() == CODE_CHARS && code.bytes().all(|b| CODE_ALPHABET.contains(&b))).then_some(code)
}

/// Why a name cannot be an account's, or `None` when it can.
fn name_problem(name: &str) -> Option<String> {
    let count = name.chars().count();
    if !NAME_CHARS.contains(&count) {
        return Some(format!(
            "name: {count} characters (expected {} to {})",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        || !name.starts_with(|c: char| c.is_ascii_alphanumeric())
    {
        return Some(
            "name: only letters a–z and A–Z, digits, _ and - (starting with a letter or digit)"
                .to_owned(),
        );
    }
    None
}

fn password_problem(password: &str) -> Option<String> {
    let count = password.chars().count();
    (!PASSWORD_CHARS.contains(&count)).then(|| {
        format!(
            "password: {count} characters (expected {} to {})",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        )
    })
}

/// How many argon2 computations run at once. Each takes 19 MiB and a core for a few tens
/// of milliseconds: more at once than there are cores is no faster, and 500 sign-ups at
/// once (nine hashes each, with the recovery codes) on 64 blocking threads took a server
/// past 13 GB resident and the kernel killed it (docs/web.md, "Tournaments").
const HASHING_AT_ONCE: usize = 2;

/// The permits of [`HASHING_AT_ONCE`]: how many are taken, and the wait for one.
static HASHING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// A permit of [`HASHING`], given back when dropped (even by a panic).
struct Permit;

impl Permit {
    /// Waits (blocking the thread) for a free permit.
    fn take() -> Permit {
        let (taken, freed) = &HASHING;
        let mut now = taken.lock().unwrap_or_else(|e| e.into_inner());
        while *now >= HASHING_AT_ONCE {
            now = freed.wait(now).unwrap_or_else(|e| e.into_inner());
        }
        *now += 1;
        Permit
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let (taken, freed) = &HASHING;
        *taken.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        freed.notify_one();
    }
}

/// Runs `work` (an argon2 computation) once a permit is free.
fn hashing<T>(work: impl FnOnce() -> T) -> T {
    let _permit = Permit::take();
    work()
}

/// The argon2id hash of `password` with a fresh salt, as a PHC string (OWASP's parameters,
/// the crate's defaults: 19 MiB, 2 passes, 1 lane).
fn hash_password(password: &str) -> Result<String, StoreError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    hashing(|| Argon2::default().hash_password(password.as_bytes(), &salt))
        .map(|hash| hash.to_string())
        .map_err(|e| StoreError::Database(format!("cannot hash the password: {e}")))
}

/// Whether `password` is the one `phc` is the hash of.
fn password_matches(phc: &str, password: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|hash| {
        hashing(|| Argon2::default().verify_password(password.as_bytes(), &hash)).is_ok()
    })
}

/// Characters that are invisible or reorder the text around them (bidirectional controls,
/// zero-width spaces and joiners, the byte-order mark): names and a profile's text refuse
/// them, since U+202E turns the text after it around and the others can make one name pass
/// for another.
pub(crate) fn hidden_or_reordering(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// A hash no password is checked against but to spend the same time when the name is
/// unknown, so that how long a refusal takes does not tell which names exist.
static DECOY: LazyLock<String> =
    LazyLock::new(|| hash_password("not anyone's password").unwrap_or_default());

fn wrong_password() -> GameError {
    GameError::SignedOut("wrong name or password".to_owned())
}

impl Games {
    fn may_sign_in(&self, address: std::net::IpAddr) -> GameResult<()> {
        if self.limiter.may_sign_in(address) {
            Ok(())
        } else {
            Err(GameError::Limited(
                "too many attempts to sign in from your address: wait a minute and try again"
                    .to_owned(),
            ))
        }
    }

    /// The oldest start of a session still valid now.
    fn sessions_since(&self) -> i64 {
        self.time.now_ms() - SESSION_LIFETIME.as_millis() as i64
    }

    /// Forgets the copies in memory of the games of the player key whose hash is `key`
    /// (read before they moved into an account), so that they are read again with their new
    /// owner.
    async fn forget_moved(&self, ids: Vec<i64>) {
        for id in ids {
            self.forget_copy(id).await;
        }
    }

    async fn ids_of_key(&self, key: Option<[u8; 32]>) -> GameResult<Vec<i64>> {
        let Some(key) = key else {
            return Ok(Vec::new());
        };
        let store = self.store.clone();
        let rows = blocking(move || store.list(key, usize::MAX)).await?;
        Ok(rows.into_iter().map(|r| r.id).collect())
    }

    /// A new account named `name` with `password`, signed in; the games of the player key
    /// whose hash is `key` move into it.
    ///
    /// # Errors
    /// 422 for a name or password of the wrong form; 409 for a name taken (in any case);
    /// 429 past the rate of attempts from `address`; a store failure.
    pub async fn sign_up(
        &self,
        address: std::net::IpAddr,
        name: &str,
        password: &str,
        key: Option<[u8; 32]>,
    ) -> GameResult<SignedIn> {
        if let Some(problem) = name_problem(name).or_else(|| password_problem(password)) {
            return Err(GameError::Refused(problem));
        }
        self.may_sign_in(address)?;
        let ids = self.ids_of_key(key).await?;
        let (token, session) = seats::new_token();
        let store = self.store.clone();
        let (name, password) = (name.to_owned(), password.to_owned());
        let now = self.time.now_ms();
        let signed = blocking(move || {
            if store.account_named(&name)?.is_some() {
                return Ok(None);
            }
            let phc = hash_password(&password)?;
            let (shown, kept) = new_recovery_codes()?;
            match store.sign_up(&name, &phc, session, key, now, &kept) {
                Ok(account) => Ok(Some((account, shown))),
                // Another request took the name meanwhile.
                Err(StoreError::Conflict(_)) => Ok(None),
                Err(e) => Err(e),
            }
        })
        .await?;
        let Some((account, recovery_codes)) = signed else {
            return Err(GameError::NameTaken);
        };
        let moved = ids.len();
        self.forget_moved(ids).await;
        Ok(SignedIn {
            account,
            token,
            moved,
            recovery_codes,
            ended: None,
        })
    }

    /// A new session of the account named `name` if `password` is its password; the games
    /// of the player key whose hash is `key` move into it.
    ///
    /// # Errors
    /// 401 for an unknown name or a wrong password (the same answer, in the same time);
    /// 429 past the rate of attempts from `address`; a store failure.
    pub async fn sign_in(
        &self,
        address: std::net::IpAddr,
        name: &str,
        password: &str,
        key: Option<[u8; 32]>,
    ) -> GameResult<SignedIn> {
        self.may_sign_in(address)?;
        if name.chars().count() > *NAME_CHARS.end() || password_problem(password).is_some() {
            return Err(wrong_password());
        }
        let ids = self.ids_of_key(key).await?;
        let store = self.store.clone();
        let (name, password) = (name.to_owned(), password.to_owned());
        let found = blocking(move || {
            let account = store.account_named(&name)?;
            let phc = account
                .as_ref()
                .map_or(DECOY.as_str(), |a| a.password.as_str());
            let matches = password_matches(phc, &password);
            Ok(account.filter(|_| matches))
        })
        .await?;
        let Some(account) = found else {
            return Err(wrong_password());
        };
        let (token, session) = seats::new_token();
        let store = self.store.clone();
        let id = account.id;
        let now = self.time.now_ms();
        blocking(move || store.sign_in(id, session, key, now)).await?;
        let moved = ids.len();
        self.forget_moved(ids).await;
        Ok(SignedIn {
            account,
            token,
            moved,
            recovery_codes: Vec::new(),
            ended: None,
        })
    }

    /// The account of the session whose token is `token`, if it is valid.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn session(&self, token: &str) -> GameResult<Option<AccountRow>> {
        let store = self.store.clone();
        let hash = seats::hash(token);
        let since = self.sessions_since();
        blocking(move || store.session_account(hash, since)).await
    }

    /// The account signed in, or a 401.
    ///
    /// # Errors
    /// 401 without a valid session.
    pub fn signed_in_as(&self, account: Option<AccountRow>) -> GameResult<AccountRow> {
        account.ok_or_else(|| {
            GameError::SignedOut(
                "this needs you signed in (the session cookie is missing or has expired)"
                    .to_owned(),
            )
        })
    }

    /// Ends the session of `token` (this device).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn sign_out(&self, token: &str) -> GameResult<()> {
        let store = self.store.clone();
        let hash = seats::hash(token);
        blocking(move || store.sign_out(SessionEnd::This(hash))).await?;
        Ok(())
    }

    /// Ends every session of `account` (every device); how many.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn sign_out_everywhere(&self, account: &AccountRow) -> GameResult<usize> {
        let store = self.store.clone();
        let id = account.id;
        blocking(move || store.sign_out(SessionEnd::Everywhere(id))).await
    }

    /// Sets a new password for `account` if `old` is its password now, and ends every other
    /// session of it (this one, `token`'s, stays); how many ended.
    ///
    /// # Errors
    /// 401 for a wrong password now; 422 for a new password of the wrong form; 429 past the
    /// rate of attempts; a store failure.
    pub async fn change_password(
        &self,
        address: std::net::IpAddr,
        account: &AccountRow,
        token: &str,
        old: &str,
        new: &str,
    ) -> GameResult<usize> {
        if let Some(problem) = password_problem(new) {
            return Err(GameError::Refused(format!("new_{problem}")));
        }
        self.may_sign_in(address)?;
        let store = self.store.clone();
        let (id, phc) = (account.id, account.password.clone());
        let (old, new) = (old.to_owned(), new.to_owned());
        let keep = seats::hash(token);
        let ended = blocking(move || {
            if !password_matches(&phc, &old) {
                return Ok(None);
            }
            let fresh = hash_password(&new)?;
            store.set_password(id, &fresh, keep).map(Some)
        })
        .await?;
        ended.ok_or_else(|| GameError::SignedOut("wrong password".to_owned()))
    }

    /// Signs in to the account named `name` with one of its recovery codes, which is spent,
    /// and sets `new_password`; every other session of the account ends (whoever forgot the
    /// password may not be the only one who had it). The games of the player key whose hash
    /// is `key` move into the account.
    ///
    /// # Errors
    /// 422 for a new password of the wrong form; 401 for an unknown name, a wrong code or
    /// one already used (the same answer, in the same time: one argon2 check each);
    /// 429 past the rate of attempts from `address` (shared with signing in); a store
    /// failure.
    pub async fn recover(
        &self,
        address: std::net::IpAddr,
        name: &str,
        code: &str,
        new_password: &str,
        key: Option<[u8; 32]>,
    ) -> GameResult<SignedIn> {
        if let Some(problem) = password_problem(new_password) {
            return Err(GameError::Refused(format!("new_{problem}")));
        }
        self.may_sign_in(address)?;
        if name.chars().count() > *NAME_CHARS.end() {
            return Err(GameError::WrongRecoveryCode);
        }
        let ids = self.ids_of_key(key).await?;
        let (token, session) = seats::new_token();
        let store = self.store.clone();
        let (name, password) = (name.to_owned(), new_password.to_owned());
        let typed = typed_code(code);
        let now = self.time.now_ms();
        let recovered = blocking(move || {
            let account = store.account_named(&name)?;
            let kept = match (&account, &typed) {
                (Some(account), Some(typed)) => store
                    .recovery_codes(account.id)?
                    .into_iter()
                    .find(|c| c.tag == typed[..TAG_CHARS]),
                _ => None,
            };
            let phc = kept.as_ref().map_or(DECOY.as_str(), |c| c.hash.as_str());
            let matches = password_matches(phc, typed.as_deref().unwrap_or_default());
            let (Some(account), Some(kept), true) = (account, kept, matches) else {
                return Ok(None);
            };
            let fresh = hash_password(&password)?;
            let ended = store.recover(account.id, &kept, &fresh, session, key, now)?;
            Ok(ended.map(|ended| (account, ended)))
        })
        .await?;
        let Some((account, ended)) = recovered else {
            return Err(GameError::WrongRecoveryCode);
        };
        let moved = ids.len();
        self.forget_moved(ids).await;
        Ok(SignedIn {
            account,
            token,
            moved,
            recovery_codes: Vec::new(),
            ended: Some(ended),
        })
    }

    /// New recovery codes for `account` if `password` is its password: the old codes work
    /// no more. The codes, shown this once.
    ///
    /// # Errors
    /// 401 for a wrong password; 429 past the rate of attempts (shared with signing in); a
    /// store failure.
    pub async fn renew_recovery_codes(
        &self,
        address: std::net::IpAddr,
        account: &AccountRow,
        password: &str,
    ) -> GameResult<Vec<String>> {
        self.may_sign_in(address)?;
        let store = self.store.clone();
        let (id, phc) = (account.id, account.password.clone());
        let password = password.to_owned();
        let shown = blocking(move || {
            if !password_matches(&phc, &password) {
                return Ok(None);
            }
            let (shown, kept) = new_recovery_codes()?;
            store.set_recovery_codes(id, &kept)?;
            Ok(Some(shown))
        })
        .await?;
        shown.ok_or_else(|| GameError::SignedOut("wrong password".to_owned()))
    }

    /// The profile of the account named `name`: its ratings, results and rated games.
    ///
    /// # Errors
    /// 404 for no such account; a store failure.
    pub async fn profile(&self, name: &str) -> GameResult<ProfileView> {
        let store = self.store.clone();
        let wanted = name.to_owned();
        let found = blocking(move || {
            let Some(account) = store.account_named(&wanted)? else {
                return Ok(None);
            };
            let ratings = store.ratings(account.id)?;
            let games = store.rated_games(account.id, PROFILE_GAMES)?;
            Ok(Some(ProfileView::new(&account, &ratings, &games)))
        })
        .await?;
        found.ok_or_else(|| GameError::UnknownAccount(name.to_owned()))
    }

    /// Sets the text of the profile named `name`, which must be `account`'s own.
    ///
    /// # Errors
    /// 403 for someone else's profile; 422 for a text too long, with control characters, or
    /// with invisible or direction-changing ones; a store failure.
    pub async fn edit_profile(
        &self,
        account: &AccountRow,
        name: &str,
        about: &str,
    ) -> GameResult<ProfileView> {
        if !account.name.eq_ignore_ascii_case(name) {
            return Err(GameError::Forbidden(format!(
                "the profile of {} is not yours: you are signed in as {}",
                crate::services::games::shorten(name),
                account.name
            )));
        }
        let about = about.trim();
        if about.chars().count() > ABOUT_CHARS {
            return Err(GameError::Refused(format!(
                "about: {} characters (at most {ABOUT_CHARS})",
                about.chars().count()
            )));
        }
        if about.chars().any(|c| c.is_control() && c != '\n') {
            return Err(GameError::Refused(
                "about: control characters are not allowed".to_owned(),
            ));
        }
        if let Some(c) = about.chars().find(|&c| hidden_or_reordering(c)) {
            return Err(GameError::Refused(format!(
                "about: invisible or direction-changing characters are not allowed (U+{:04X})",
                u32::from(c)
            )));
        }
        let store = self.store.clone();
        let (id, text) = (account.id, about.to_owned());
        blocking(move || store.set_about(id, &text)).await?;
        self.profile(&account.name).await
    }

    /// The best ratings in `game` at `speed`.
    ///
    /// # Errors
    /// 422 for an unknown game or speed; a store failure.
    pub async fn leaderboard(&self, game: &str, speed: &str) -> GameResult<LeaderboardView> {
        let variant: sowing::Variant = game.parse().map_err(|_| {
            GameError::Refused(format!(
                "game: unknown game {}",
                crate::services::games::shorten(game)
            ))
        })?;
        let speed = Speed::from_name(speed).ok_or_else(|| {
            GameError::Refused(format!(
                "speed: {} (expected bullet, blitz, rapid, classical or unlimited)",
                crate::services::games::shorten(speed)
            ))
        })?;
        let store = self.store.clone();
        let name = variant.name();
        let rows = blocking(move || store.leaderboard(name, speed.name(), LEADERS)).await?;
        Ok(LeaderboardView::new(name, speed.name(), &rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_hash_is_argon2id_salted_and_checks_only_its_password() {
        let a = hash_password("correct horse").unwrap();
        let b = hash_password("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(password_matches(&a, "correct horse"));
        assert!(!password_matches(&a, "correct horsE"));
        assert!(!password_matches("not a hash", "correct horse"));
    }

    #[test]
    fn recovery_codes_are_shown_grouped_kept_hashed_and_read_back_as_typed() {
        let (shown, kept) = new_recovery_codes().unwrap();
        assert_eq!((shown.len(), kept.len()), (RECOVERY_CODES, RECOVERY_CODES));
        let mut tags: Vec<&str> = kept.iter().map(|c| c.tag.as_str()).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), RECOVERY_CODES, "one tag per code");
        for (code, kept) in shown.iter().zip(&kept) {
            assert_eq!(code.len(), 14, "{code}");
            assert_eq!(code.matches('-').count(), 2, "{code}");
            let typed = typed_code(code).unwrap();
            assert!(typed.starts_with(&kept.tag));
            assert!(kept.hash.starts_with("$argon2id$"), "{}", kept.hash);
            assert!(!kept.hash.contains(&typed[TAG_CHARS..]));
            assert!(password_matches(&kept.hash, &typed));
            // As a person might type it: capitals, spaces, an O for a zero.
            let retyped = code.to_uppercase().replace('-', " ").replace('0', "O");
            assert_eq!(typed_code(&retyped).as_deref(), Some(typed.as_str()));
        }
        assert!(!password_matches(
            &kept[0].hash,
            &typed_code(&shown[1]).unwrap()
        ));
        for bad in [
            "",
            "abcd-efgh-jkm",
            "abcd-efgh-jkmnp",
            "abcd-efgh-jkmü",
            "abcd-efgh-jkm!",
        ] {
            assert_eq!(typed_code(bad), None, "{bad}");
        }
    }

    #[test]
    fn names_are_short_plain_and_start_with_a_letter_or_digit() {
        for good in ["ana", "Ana_2", "x-y", "99"] {
            assert_eq!(name_problem(good), None, "{good}");
        }
        for bad in [
            "a",
            "-ana",
            "ana maría",
            "ana<b>",
            &"a".repeat(25),
            "ana\u{200b}",
        ] {
            assert!(name_problem(bad).is_some(), "{bad}");
        }
    }
}
