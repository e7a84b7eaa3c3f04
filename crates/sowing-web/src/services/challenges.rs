//! Challenges by name (docs/api.md, "Challenges"): a signed-in player asks another for a
//! game; the challenged player accepts (the store creates the live game as it closes the
//! challenge: one game at most), declines, or lets it expire; the challenger may cancel.
//! Each change wakes both accounts' notices sockets here, and the store's notice wakes
//! them on the other servers.

use sowing::{Game, Rules, Side};

use crate::clock::LiveClock;
use crate::seats;
use crate::services::games::{blocking, GameError, Games};
use crate::store::{AccountRow, ChallengeRow, Closing, NewChallenge, EVERYONE};
use crate::views::challenges::{
    ChallengeList, ChallengeMade, ChallengeView, RefusalsView, TournamentGameView,
};
use crate::views::live::Seated;

type GameResult<T> = Result<T, GameError>;

/// How long a challenge waits for its answer.
pub const CHALLENGE_LIVES_MS: i64 = 5 * 60_000;

/// How long the challenger's list keeps a challenge after it was answered or expired.
const ANSWERED_KEPT_MS: i64 = 10 * 60_000;

/// How long the store keeps a challenge after it was answered or expired (for an operator's
/// questions); the sweep deletes it then.
pub const CHALLENGES_KEPT_MS: i64 = 24 * 60 * 60_000;

/// The most challenges one account has open at once.
pub const OPEN_CHALLENGES: usize = 5;

/// The most names an account refuses by name.
pub const REFUSED_NAMES: usize = 100;

/// A challenge as the route read it.
#[derive(Clone, Debug)]
pub struct ChallengeAsked {
    /// The challenged account's name.
    pub to: String,
    /// The rules.
    pub rules: Rules,
    /// The clock (`None`: unlimited).
    pub clock: Option<LiveClock>,
    /// A rated game.
    pub rated: bool,
    /// The challenger's seat, or `None` to draw it.
    pub seat: Option<Side>,
}

impl Games {
    async fn account_named(&self, name: &str) -> GameResult<AccountRow> {
        let (store, name_owned) = (self.store.clone(), name.to_owned());
        blocking(move || store.account_named(&name_owned))
            .await?
            .ok_or_else(|| GameError::UnknownAccount(name.to_owned()))
    }

    async fn challenge_row(&self, id: &str) -> GameResult<ChallengeRow> {
        let unknown = || GameError::UnknownChallenge(id.to_owned());
        let number: i64 = id.parse().map_err(|_| unknown())?;
        let store = self.store.clone();
        blocking(move || store.challenge(number))
            .await?
            .ok_or_else(unknown)
    }

    fn wake_both(&self, row: &ChallengeRow) {
        self.notices.wake(row.from.0);
        self.notices.wake(row.to.0);
    }

    /// `from` challenges the account named in `asked`.
    ///
    /// # Errors
    /// An unknown name; oneself; a refusal; too many open, or one open to them already; a
    /// store failure.
    pub async fn challenge(
        &self,
        from: AccountRow,
        asked: ChallengeAsked,
    ) -> GameResult<ChallengeMade> {
        let now = self.time.now_ms();
        let to = self.account_named(&asked.to).await?;
        if to.id == from.id {
            return Err(GameError::Refused(
                "to: a challenge is to another player".to_owned(),
            ));
        }
        let store = self.store.clone();
        let (refused, (open, to_them)) = blocking(move || {
            Ok((
                store.refuses(to.id, from.id)?,
                store.open_challenges_from(from.id, to.id, now)?,
            ))
        })
        .await?;
        if refused {
            return Err(GameError::ChallengeRefused(to.name));
        }
        if to_them {
            return Err(GameError::Conflict(format!(
                "you have a challenge open to {} already: wait for the answer or cancel it",
                to.name
            )));
        }
        if open >= OPEN_CHALLENGES {
            return Err(GameError::Limited(format!(
                "you have {open} challenges open (at most {OPEN_CHALLENGES}): cancel one first"
            )));
        }
        let (token, token_hash) = seats::new_token();
        let seat = asked.seat.unwrap_or_else(|| {
            if rand::random() {
                Side::South
            } else {
                Side::North
            }
        });
        let new = NewChallenge {
            from: (from.id, from.name),
            to: (to.id, to.name),
            start: Game::new(asked.rules).start().to_string(),
            seat,
            clock: asked.clock,
            rated: asked.rated,
            token_hash,
            now_ms: now,
            expires_ms: now + CHALLENGE_LIVES_MS,
        };
        let store = self.store.clone();
        let row = blocking(move || {
            let id = store.issue_challenge(new)?;
            store.challenge(id)
        })
        .await?
        .ok_or_else(|| GameError::Internal("a challenge just made is missing".to_owned()))?;
        self.wake_both(&row);
        Ok(ChallengeMade {
            challenge: ChallengeView::of(&row, now),
            token,
        })
    }

    /// The challenges open to or from `account`, and those it made closed lately.
    ///
    /// # Errors
    /// A store failure.
    pub async fn challenges(&self, account: i64) -> GameResult<ChallengeList> {
        let now = self.time.now_ms();
        let store = self.store.clone();
        let (rows, playing) = blocking(move || {
            Ok((
                store.challenges_of(account, now, now - ANSWERED_KEPT_MS)?,
                store.tournament_games_of(account)?,
            ))
        })
        .await?;
        Ok(ChallengeList {
            challenges: rows.iter().map(|r| ChallengeView::of(r, now)).collect(),
            tournament_games: playing
                .into_iter()
                .map(|(tournament_id, game_id, seat)| TournamentGameView {
                    tournament_id,
                    game_id,
                    seat: seat.name(),
                })
                .collect(),
            now_ms: now,
        })
    }

    /// Closes challenge `id` for `account`, who must be its challenged player (accept,
    /// decline) or its challenger (cancel); the store's answer (the game for an accept).
    async fn close_challenge(
        &self,
        id: &str,
        account: i64,
        closing: Closing,
    ) -> GameResult<(ChallengeRow, i64)> {
        let now = self.time.now_ms();
        let row = self.challenge_row(id).await?;
        let allowed = match closing {
            Closing::Cancel => row.from.0 == account,
            Closing::Accept(_) | Closing::Decline => row.to.0 == account,
        };
        if !allowed {
            let who = if closing == Closing::Cancel {
                "its challenger"
            } else {
                "the challenged player"
            };
            return Err(GameError::Forbidden(format!(
                "challenge {}: only {who} may do this",
                row.id
            )));
        }
        let store = self.store.clone();
        let number = row.id;
        let closed = blocking(move || store.close_challenge(number, closing, now)).await?;
        let Some(answer) = closed else {
            let state = ChallengeView::of(&self.challenge_row(id).await?, now).state;
            return Err(GameError::ChallengeGone(row.id, state));
        };
        self.wake_both(&row);
        let row = self.challenge_row(id).await?;
        Ok((row, answer))
    }

    /// The challenged `account` accepts challenge `id`: the live game, seated.
    ///
    /// # Errors
    /// Another account's challenge; unknown; no longer open; a store failure.
    pub async fn accept_challenge(&self, id: &str, account: i64) -> GameResult<Seated> {
        let (token, hash) = seats::new_token();
        let (row, game) = self
            .close_challenge(id, account, Closing::Accept(hash))
            .await?;
        self.seated(game, !row.seat, token).await
    }

    /// The challenged `account` declines challenge `id`.
    ///
    /// # Errors
    /// Another account's challenge; unknown; no longer open; a store failure.
    pub async fn decline_challenge(&self, id: &str, account: i64) -> GameResult<ChallengeView> {
        let (row, _) = self.close_challenge(id, account, Closing::Decline).await?;
        Ok(ChallengeView::of(&row, self.time.now_ms()))
    }

    /// The challenger `account` cancels challenge `id`.
    ///
    /// # Errors
    /// Another account's challenge; unknown; no longer open; a store failure.
    pub async fn cancel_challenge(&self, id: &str, account: i64) -> GameResult<ChallengeView> {
        let (row, _) = self.close_challenge(id, account, Closing::Cancel).await?;
        Ok(ChallengeView::of(&row, self.time.now_ms()))
    }

    /// Deletes the challenges answered or expired over [`CHALLENGES_KEPT_MS`] ago; how many.
    ///
    /// # Errors
    /// A store failure.
    pub async fn sweep_challenges(&self) -> GameResult<usize> {
        let before = self.time.now_ms() - CHALLENGES_KEPT_MS;
        let store = self.store.clone();
        blocking(move || store.sweep_challenges(before)).await
    }

    /// Whose challenges `account` refuses.
    ///
    /// # Errors
    /// A store failure.
    pub async fn refusals(&self, account: i64) -> GameResult<RefusalsView> {
        let store = self.store.clone();
        blocking(move || {
            let refused = store.refusals(account)?;
            let mut names = Vec::new();
            for id in refused.iter().filter(|&&id| id != EVERYONE) {
                if let Some(row) = store.account(*id)? {
                    names.push(row.name);
                }
            }
            names.sort_by_key(|n| n.to_lowercase());
            Ok(RefusalsView {
                everyone: refused.contains(&EVERYONE),
                names,
            })
        })
        .await
    }

    /// Replaces whose challenges `account` refuses.
    ///
    /// # Errors
    /// Too many names; an unknown name; a store failure.
    pub async fn set_refusals(
        &self,
        account: i64,
        everyone: bool,
        names: Vec<String>,
    ) -> GameResult<RefusalsView> {
        if names.len() > REFUSED_NAMES {
            return Err(GameError::Refused(format!(
                "names: {} (at most {REFUSED_NAMES})",
                names.len()
            )));
        }
        let mut refused = Vec::with_capacity(names.len() + 1);
        if everyone {
            refused.push(EVERYONE);
        }
        for name in &names {
            refused.push(self.account_named(name).await?.id);
        }
        let store = self.store.clone();
        blocking(move || store.set_refusals(account, refused)).await?;
        self.refusals(account).await
    }
}
