//! Tournaments (docs/api.md, "Tournaments"): making one (a signed-in player, or the
//! operator from the command line), the list, one tournament whole, joining, pausing or
//! withdrawing. The pairings and results are the director's (`director.rs`).

use sowing::{Game, Rules};

use crate::clock::LiveClock;
use crate::ratings::Speed;
use crate::services::games::{blocking, GameError, Games};
use crate::store::{AccountRow, NewTournament};
use crate::views::tournaments::{TournamentList, TournamentSummary, TournamentView};

type GameResult<T> = Result<T, GameError>;

/// The most tournaments one player may have made that are not finished.
pub const TOURNAMENTS_PER_PLAYER: usize = 3;

/// The finished tournaments the list shows.
const FINISHED_LISTED: usize = 20;

/// The longest a name may be, in characters.
const NAME_CHARS: usize = 60;

/// A tournament as the route or the command line asked for it.
#[derive(Clone, Debug)]
pub struct TournamentAsked {
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// The rules of every game.
    pub rules: Rules,
    /// Each side's time, ms.
    pub base_ms: i64,
    /// Added after each move, ms.
    pub increment_ms: i64,
    /// Rated games.
    pub rated: bool,
    /// When it starts, Unix ms (`None`: in five minutes).
    pub starts_ms: Option<i64>,
    /// An arena's length, minutes.
    pub minutes: Option<i64>,
    /// A Swiss's rounds.
    pub rounds: Option<i64>,
    /// The least rating to join.
    pub min_rating: Option<i64>,
}

/// How far ahead a tournament may be scheduled.
const SCHEDULED_WITHIN_MS: i64 = 60 * 86_400_000;

/// `asked` checked, as the store keeps it, made by `creator` at `now_ms`.
///
/// # Errors
/// A field out of its range, named with the range.
pub fn checked(
    asked: TournamentAsked,
    creator: Option<(i64, String)>,
    now_ms: i64,
) -> GameResult<NewTournament> {
    let bad = |text: String| Err(GameError::Refused(text));
    let name = asked.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > NAME_CHARS || name.chars().any(char::is_control) {
        return bad(format!(
            "name: 1 to {NAME_CHARS} characters, none of them control characters"
        ));
    }
    match (asked.kind.as_str(), asked.minutes, asked.rounds) {
        ("arena", Some(1..=720), None) | ("swiss", None, Some(1..=30)) => {}
        ("arena", _, _) => return bad("an arena needs minutes (1 to 720) and no rounds".into()),
        ("swiss", _, _) => return bad("a Swiss needs rounds (1 to 30) and no minutes".into()),
        (other, _, _) => {
            return bad(format!(
                "kind: {} (expected arena or swiss)",
                crate::services::games::shorten(other)
            ))
        }
    }
    if !(15_000..=3 * 3_600_000).contains(&asked.base_ms)
        || !(0..=60_000).contains(&asked.increment_ms)
    {
        return bad("clock: base_ms from 15000 to 10800000, increment_ms from 0 to 60000".into());
    }
    let starts_ms = asked.starts_ms.unwrap_or(now_ms + 5 * 60_000);
    if starts_ms < now_ms - 60_000 || starts_ms > now_ms + SCHEDULED_WITHIN_MS {
        return bad("starts_ms: from now to 60 days ahead".into());
    }
    if asked.min_rating.is_some_and(|r| !(0..=4000).contains(&r)) {
        return bad("min_rating: from 0 to 4000".into());
    }
    Ok(NewTournament {
        name,
        kind: asked.kind,
        start: Game::new(asked.rules).start().to_string(),
        base_ms: asked.base_ms,
        increment_ms: asked.increment_ms,
        rated: asked.rated,
        starts_ms: starts_ms.max(now_ms),
        minutes: asked.minutes,
        rounds: asked.rounds,
        min_rating: asked.min_rating,
        creator,
        now_ms,
    })
}

fn parse_id(id: &str) -> GameResult<i64> {
    id.parse()
        .map_err(|_| GameError::UnknownTournament(id.to_owned()))
}

impl Games {
    /// Wakes the sockets here watching tournament `id` (the others read its version
    /// again within a second).
    pub(crate) fn tournament_changed(&self, id: i64) {
        self.tournament_watch.wake(id);
    }

    /// A tournament made by `creator` (a player; `None`: the operator).
    ///
    /// # Errors
    /// A field out of range; too many made by this player; a store failure.
    pub async fn create_tournament(
        &self,
        creator: Option<AccountRow>,
        asked: TournamentAsked,
    ) -> GameResult<TournamentView> {
        let now = self.time.now_ms();
        if let Some(account) = &creator {
            let (store, id) = (self.store.clone(), account.id);
            let made = blocking(move || store.tournaments_made_by(id)).await?;
            if made >= TOURNAMENTS_PER_PLAYER {
                return Err(GameError::Limited(format!(
                    "you have made {made} tournaments not finished yet (at most \
                     {TOURNAMENTS_PER_PLAYER}): wait for one to end"
                )));
            }
        }
        let new = checked(asked, creator.map(|a| (a.id, a.name)), now)?;
        let store = self.store.clone();
        let id = blocking(move || store.make_tournament(new)).await?;
        self.tournament_view(&id.to_string(), None).await
    }

    /// The tournaments upcoming, running, and lately finished.
    ///
    /// # Errors
    /// A store failure.
    pub async fn tournaments(&self) -> GameResult<TournamentList> {
        let store = self.store.clone();
        let rows = blocking(move || store.tournaments_listed(FINISHED_LISTED)).await?;
        let mut list = TournamentList {
            upcoming: Vec::new(),
            running: Vec::new(),
            finished: Vec::new(),
            now_ms: self.time.now_ms(),
        };
        for (row, players) in &rows {
            let summary = TournamentSummary::of(row, *players);
            match row.state.as_str() {
                "upcoming" => list.upcoming.push(summary),
                "running" => list.running.push(summary),
                _ => list.finished.push(summary),
            }
        }
        Ok(list)
    }

    /// Tournament `id` whole, for `reader` (an account) if signed in.
    ///
    /// # Errors
    /// An unknown tournament; a store failure.
    pub async fn tournament_view(
        &self,
        id: &str,
        reader: Option<i64>,
    ) -> GameResult<TournamentView> {
        let number = parse_id(id)?;
        let store = self.store.clone();
        let (row, entrants, boards) = blocking(move || store.tournament_whole(number))
            .await?
            .ok_or_else(|| GameError::UnknownTournament(id.to_owned()))?;
        TournamentView::of(&row, &entrants, &boards, reader, self.time.now_ms())
            .map_err(|e| GameError::Internal(format!("tournament {number}: {e}")))
    }

    /// Tournament `id`'s version (bumped by every change), for the sockets watching it.
    ///
    /// # Errors
    /// An unknown tournament; a store failure.
    pub async fn tournament_version(&self, id: i64) -> GameResult<i64> {
        let store = self.store.clone();
        blocking(move || store.tournament_version(id))
            .await?
            .ok_or_else(|| GameError::UnknownTournament(id.to_string()))
    }

    /// `account` joins tournament `id`, or comes back after a pause.
    ///
    /// # Errors
    /// An unknown or finished tournament; a Swiss whose last round is paired; a rating
    /// under its minimum; a store failure.
    pub async fn join_tournament(
        &self,
        id: &str,
        account: AccountRow,
    ) -> GameResult<TournamentView> {
        let number = parse_id(id)?;
        let now = self.time.now_ms();
        let store = self.store.clone();
        let row = blocking(move || store.tournament(number))
            .await?
            .ok_or_else(|| GameError::UnknownTournament(id.to_owned()))?;
        if row.state == "finished" || row.ends_ms().is_some_and(|end| now >= end) {
            return Err(GameError::Conflict(format!("tournament {number} is over")));
        }
        if row.rounds.is_some_and(|rounds| row.round >= rounds) {
            return Err(GameError::Conflict(format!(
                "tournament {number}: its last round is paired already"
            )));
        }
        let position = crate::store::start_of(&row).map_err(GameError::Store)?;
        let clock = LiveClock::new(row.base_ms, row.increment_ms);
        let speed = Speed::of_clock(Some(&clock)).name();
        let variant = position.rules().variant().name();
        let (store, who) = (self.store.clone(), account.id);
        let rating = blocking(move || store.ratings_in(&[who], variant, speed))
            .await?
            .first()
            .map_or(1500, |(r, _)| r.rating.round() as i64);
        if let Some(least) = row.min_rating.filter(|&least| rating < least) {
            return Err(GameError::Forbidden(format!(
                "tournament {number} takes players rated {least} or more at {variant} {speed} \
                 (you are {rating})"
            )));
        }
        let (store, entrant) = (self.store.clone(), (account.id, account.name.clone()));
        if !blocking(move || store.enter_tournament(number, entrant, rating, now)).await? {
            return Err(GameError::Conflict(format!("tournament {number} is over")));
        }
        self.tournament_changed(number);
        self.tournament_view(id, Some(account.id)).await
    }

    /// `account` pauses in an arena (paired no more until coming back) or withdraws from a
    /// Swiss (a game going on is played out and counts).
    ///
    /// # Errors
    /// An unknown tournament, or one the player is not in; a store failure.
    pub async fn leave_tournament(
        &self,
        id: &str,
        account: AccountRow,
    ) -> GameResult<TournamentView> {
        let number = parse_id(id)?;
        let (store, who) = (self.store.clone(), account.id);
        if !blocking(move || store.leave_tournament(number, who)).await? {
            let view = self.tournament_view(id, None).await?;
            return Err(GameError::Conflict(format!(
                "tournament {number}: you are not in it, or it is {}",
                view.summary.state
            )));
        }
        self.tournament_changed(number);
        self.tournament_view(id, Some(account.id)).await
    }
}
