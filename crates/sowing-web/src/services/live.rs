//! Games between two seats ("play a friend"): creating one with an invitation or as an
//! open challenge in the lobby, taking a seat, moves and acts by a seat's token, the clock
//! and its flag fall, takebacks, draws, resignations, rematches, and closing abandoned
//! games. Every change is written to the store first, then published to the hub; a socket
//! reads what it missed from here ([`Games::catch_up`]).

use std::sync::Arc;

use sowing::{Game, Position, Rules, Side};

use crate::clock::LiveClock;
use crate::matches;
use crate::ratings::{Rating, Speed};
use crate::seats;
use crate::services::games::{
    blocking, check_ply, created_row, illegal, shorten, GameError, Games, Guard, Loaded,
};
use crate::store::{LiveResult, LiveRow, NewGame, Offers, Store, StoreError};
use crate::views::accounts::RatingNumbers;
use crate::views::games::{MoveReplay, TraceEvent};
use crate::views::live::{
    result_text, Challenge, ClockSpecView, ClockView, LiveMoved, LiveStatus, LiveView, OffersView,
    ResultView, SaidByView, SaidView, SeatView, Seated, SeatsView, Turn,
};

type GameResult<T> = Result<T, GameError>;

/// Tries `act` again, up to twice, when another server wrote the game between this one
/// reading and writing it (its notice had not arrived: `NOTIFY` follows the commit). The
/// failed write emptied the game's slot, so the next try reads the stored game and judges
/// the act on it: a move that already landed (its answer lost) is then a stale ply.
async fn again_if_overtaken<T, F>(mut act: impl FnMut() -> F) -> GameResult<T>
where
    F: std::future::Future<Output = GameResult<T>>,
{
    for _ in 0..2 {
        match act().await {
            Err(GameError::Store(StoreError::Conflict(_))) => crate::ops::overtaken(),
            done => return done,
        }
    }
    act().await
}

/// What a new live game asks for.
#[derive(Clone, Debug)]
pub struct NewLive {
    /// The creator's seat.
    pub seat: Side,
    /// The clock, or `None` for unlimited time.
    pub clock: Option<LiveClock>,
    /// List it in the lobby as an open challenge (else: an invitation link).
    pub lobby: bool,
    /// The creator's name, if given.
    pub name: Option<String>,
    /// The creator's address (for the lobby's cap per address).
    pub address: String,
    /// A Hoyito III match of this many rounds (H3.3), else a single game.
    pub rounds: Option<u32>,
    /// SHA-256 of the creator's player key (or their account's owner hash), which lists
    /// the game among theirs.
    pub owner: Option<[u8; 32]>,
    /// The creator's account (id and name) when signed in: it holds the creator's seat.
    pub account: Option<(i64, String)>,
    /// A rated game (both seats must be held by accounts before the first move).
    pub rated: bool,
}

/// Who acts for a seat: the holder of its token (`X-Seat-Token`), or a signed-in session
/// whose account holds the seat, on any device (a seat taken by a signed-in player belongs
/// to the account).
#[derive(Clone, Debug, Default)]
pub struct SeatHolder {
    /// The seat token sent, if any.
    pub token: Option<String>,
    /// The session token of the request's cookie, if any (looked up only when the seat
    /// token does not settle it).
    pub session: Option<String>,
}

/// An act that needs the opponent's consent: asking twice from both sides agrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// A draw.
    Draw,
    /// Taking back the last move.
    Takeback,
    /// A new game with the colours swapped, once this one is over.
    Rematch,
}

/// What a socket is sent after a notice: the moves it is missing, or the whole game when
/// history was rewritten (a takeback) or it is behind in another way.
#[derive(Clone, Debug)]
pub enum Update {
    /// The whole game.
    Full(Box<LiveView>),
    /// The moves after the socket's ply, in order, and the status now.
    Moves(Vec<MoveReplay>, Box<LiveStatus>),
}

/// The quick phrases a seat may say (issue: no free text, nothing to moderate); the page
/// words each in its reader's language.
pub const PHRASES: [&str; 6] = [
    "hello",
    "good-luck",
    "good-game",
    "thanks",
    "well-played",
    "sorry",
];

fn said(said: &Option<(u32, String)>) -> Option<SaidView> {
    said.as_ref().map(|(n, phrase)| SaidView {
        phrase: phrase.clone(),
        n: *n,
    })
}

/// How long each side has for its first move in a game with a clock (lichess: about 30 s):
/// a game nobody starts is aborted, unrated, rather than lost on time minutes later.
pub const FIRST_MOVE_WITHIN_MS: i64 = 30_000;

/// The most games of an account the *Your turn* list looks at.
const TURNS_LISTED: usize = 100;

/// The most games one sweep settles (the next sweep takes the rest).
const DUE_AT_ONCE: usize = 500;

/// When the side to move must make its first move (Unix ms): in a game with a clock whose
/// players were both there when it began ([`LiveRow::first_move_due`]: quick pairing, a
/// lobby challenge accepted), not over, before each side has moved once. South's time
/// counts from the last act before the first move (the seat taken), North's from South's
/// first move.
fn first_move_by(loaded: &Loaded, live: &LiveRow) -> Option<i64> {
    // Not for correspondence: a day's time for a move is not lost for a slow first one.
    let clock = live.clock.filter(|c| live.first_move_due && !c.per_move)?;
    let plies = loaded.game.moves().len();
    if plies >= 2 || live.seats.iter().any(Option::is_none) || is_over(loaded) {
        return None;
    }
    let since = match (plies, clock.running_since) {
        (1, Some(since)) => since,
        _ => live.touched_ms,
    };
    Some(since + FIRST_MOVE_WITHIN_MS)
}

/// The result when the side to move has run out of time: it loses, unless its opponent
/// could no longer win on captures (its captures and every seed on the board together not
/// more than the flagged side's captures): then it is a draw.
pub fn flag_result(position: &Position, flagged: Side) -> LiveResult {
    let captured = position.captured();
    let opponent = !flagged;
    let best = usize::from(captured[opponent]) + position.seeds_on_board();
    let outcome = if best > usize::from(captured[flagged]) {
        opponent.name()
    } else {
        "draw"
    };
    LiveResult {
        outcome: outcome.to_owned(),
        reason: "flag".to_owned(),
    }
}

fn live_of(loaded: &Loaded) -> GameResult<&LiveRow> {
    loaded
        .live
        .as_ref()
        .ok_or(GameError::NotLive(loaded.row.id))
}

/// The side whose seat `token` holds.
fn seat_of(live: &LiveRow, token: Option<&str>) -> GameResult<Side> {
    let Some(token) = token else {
        return Err(GameError::Forbidden(format!(
            "game {}: this needs a seat's token (header X-Seat-Token); spectators may only watch",
            live.game_id
        )));
    };
    Side::ALL
        .into_iter()
        .find(|side| {
            live.seats[side.index()]
                .as_ref()
                .is_some_and(|stored| seats::holds(stored, token))
        })
        .ok_or_else(|| {
            GameError::Forbidden(format!(
                "game {}: the token given holds no seat of this game",
                live.game_id
            ))
        })
}

/// Whether the game is over, by the rules or otherwise.
fn is_over(loaded: &Loaded) -> bool {
    loaded.game.is_over() || loaded.live.as_ref().is_some_and(|l| l.result.is_some())
}

/// How a change is written.
enum Commit {
    /// The live row alone.
    Row,
    /// The game's new last move, with the live row.
    Move,
    /// A takeback (the game in memory has undone it), with the live row.
    Takeback,
    /// A tournament seat berserks: the live row, with the board's mark.
    Berserk(Side),
}

/// Move `ply` (from 1) of a loaded game again, with its trace.
fn replay(game: &Game, ply: usize) -> GameResult<MoveReplay> {
    crate::services::games::move_replay(game, ply, || {
        GameError::Internal(format!("move {ply} is missing in memory"))
    })
}

impl Games {
    /// The status of a loaded live game at `now`, with its next round's id if it has one.
    fn status(
        &self,
        loaded: &Loaded,
        live: &LiveRow,
        now: i64,
        next_round: Option<i64>,
        ratings: [Option<(Rating, u32)>; 2],
    ) -> LiveStatus {
        let to_move = loaded.game.position().to_move();
        let seat = |side: Side| SeatView {
            name: live.names[side.index()].clone(),
            taken: live.seats[side.index()].is_some(),
            account: live.accounts[side.index()].is_some(),
            rating: ratings[side.index()].map(|(r, games)| RatingNumbers::of(r, games)),
        };
        let result = match (&live.result, loaded.game.end(), loaded.game.outcome()) {
            (Some(result), _, _) => Some(ResultView {
                outcome: result.outcome.clone(),
                reason: result.reason.clone(),
                text: result_text(result, loaded.row.match_id.is_some()),
            }),
            (None, Some(end), Some(outcome)) => Some(ResultView {
                outcome: outcome.name().to_owned(),
                reason: "rules".to_owned(),
                text: end.describe(),
            }),
            _ => None,
        };
        LiveStatus {
            id: loaded.row.id,
            ply: loaded.game.moves().len(),
            takebacks: live.takebacks,
            version: live.version,
            seats: SeatsView {
                south: seat(Side::South),
                north: seat(Side::North),
            },
            clock: live.clock.map(|c| {
                let left = c.left(to_move, now);
                ClockView {
                    base_ms: c.base_ms,
                    increment_ms: c.increment_ms,
                    south_ms: left[0],
                    north_ms: left[1],
                    running: c.running_since.map(|_| to_move.name()),
                    now_ms: now,
                    credited_ms: live.credited_ms,
                    days_per_move: c.per_move.then_some(c.base_ms / 86_400_000),
                }
            }),
            offers: OffersView {
                draw: live.offers.draw.map(Side::name),
                takeback: live.offers.takeback.map(Side::name),
                rematch: live.offers.rematch.map(Side::name),
            },
            result,
            rematch: live.rematch,
            next_round,
            lobby: live.lobby,
            spectators: self.hub.spectators(loaded.row.id),
            rated: live.rated,
            speed: speed_of(live).name(),
            first_move_by_ms: first_move_by(loaded, live),
            said: SaidByView {
                south: said(&live.said[0]),
                north: said(&live.said[1]),
            },
        }
    }

    /// The ratings of a live game's accounts in its game at its speed (a new player's for
    /// an account with none yet), by seat.
    async fn seat_ratings(
        &self,
        loaded: &Loaded,
        live: &LiveRow,
    ) -> GameResult<[Option<(Rating, u32)>; 2]> {
        let held: Vec<i64> = live.accounts.iter().flatten().copied().collect();
        if held.is_empty() {
            return Ok([None, None]);
        }
        let store = self.store.clone();
        let variant = loaded.row.variant.clone();
        let speed = speed_of(live).name();
        let found = blocking(move || store.ratings_in(&held, &variant, speed)).await?;
        let mut found = found.into_iter();
        Ok(live.accounts.map(|a| a.and_then(|_| found.next())))
    }

    async fn live_view_of(&self, loaded: &Loaded, now: i64) -> GameResult<LiveView> {
        Ok(LiveView {
            live: self.status_of(loaded, now).await?,
            game: self.view_of(loaded).await?,
        })
    }

    /// The status of a loaded live game at `now`, its next round started if it is due.
    async fn status_of(&self, loaded: &Loaded, now: i64) -> GameResult<LiveStatus> {
        let live = live_of(loaded)?;
        let next_round = self.next_round_of(loaded, now).await?;
        let ratings = self.seat_ratings(loaded, live).await?;
        Ok(self.status(loaded, live, now, next_round, ratings))
    }

    /// The next round of a match between two seats whose round `loaded` ended by the rules
    /// and is not the last: its id, starting it now if no request did yet (so a failure
    /// between the last move and the new round is mended by the next read). `None` for a
    /// single game, a round that goes on or ended otherwise (that ends the match), and the
    /// last round.
    async fn next_round_of(&self, loaded: &Loaded, now: i64) -> GameResult<Option<i64>> {
        let (Some(match_id), Some(round)) = (loaded.row.match_id, loaded.row.round) else {
            return Ok(None);
        };
        let live = live_of(loaded)?;
        if live.result.is_some() || !loaded.game.is_over() {
            return Ok(None);
        }
        let next = round + 1;
        let find = |store: Arc<Store>| {
            blocking(move || {
                let m = store
                    .get_match(match_id)?
                    .ok_or_else(|| StoreError::Database(format!("match {match_id} is missing")))?;
                let id = store
                    .match_games(match_id)?
                    .into_iter()
                    .find(|r| r.round == Some(next))
                    .map(|r| r.id);
                Ok((m.rounds, id))
            })
        };
        let (rounds, found) = find(self.store.clone()).await?;
        if found.is_some() || next > rounds {
            return Ok(found);
        }
        let start = matches::round_start(loaded.game.rules(), next, loaded.game.outcome());
        let row = follow_on(live, false, now);
        match self
            .insert_live(
                Game::from_position(start),
                row,
                Some((match_id, next)),
                loaded.row.owner,
            )
            .await
        {
            Ok(fresh) => {
                let id = fresh.row.id;
                self.cache_new(fresh)?;
                // Its sockets (none yet, or on another server) hear of it like any change.
                Ok(Some(id))
            }
            // Another server started it first.
            Err(GameError::Store(StoreError::Conflict(_))) => Ok(find(self.store.clone()).await?.1),
            Err(e) => Err(e),
        }
    }

    /// Writes `next` (and the game's change, for a move or takeback), then publishes. On
    /// failure the slot is left empty, so the next request reads the store again.
    async fn commit(&self, guard: Guard, next: LiveRow, how: Commit) -> GameResult<Guard> {
        let (mut loaded, slot) = guard.take();
        let store = self.store.clone();
        let loaded = blocking(move || {
            let stamp = match how {
                Commit::Row => store.update_live(&next)?,
                Commit::Move => store.append_live_move(&loaded.game, &next)?,
                Commit::Takeback => store.truncate_live(&loaded.game, &next)?,
                Commit::Berserk(side) => store.berserk(&next, side)?,
            };
            let mut next = next;
            next.version += 1;
            loaded.live = Some(next);
            Ok(loaded.after_write(stamp))
        })
        .await?;
        let (id, version) = (loaded.row.id, loaded.row.version);
        self.hub.publish(id, version);
        Ok(Guard::put(slot, loaded))
    }

    /// Ends the game if the side to move's time has run out (the flag falls at any read
    /// or act after that moment; sockets ask at that moment), or aborts it when a first move
    /// did not come in time. Whether it ended now.
    async fn settle(&self, guard: Guard, now: i64) -> GameResult<(Guard, bool)> {
        let loaded = &*guard;
        let Some(live) = &loaded.live else {
            return Ok((guard, false));
        };
        let to_move = loaded.game.position().to_move();
        if first_move_by(loaded, live).is_some_and(|by| now >= by) {
            let mut next = live.clone();
            if let Some(clock) = &mut next.clock {
                clock.stop(to_move, now);
            }
            next.result = Some(LiveResult {
                outcome: "none".to_owned(),
                reason: "aborted".to_owned(),
            });
            next.offers = Offers::default();
            return Ok((self.commit(guard, next, Commit::Row).await?, true));
        }
        let Some(mut clock) = live.clock.filter(|c| c.flagged(to_move, now)) else {
            return Ok((guard, false));
        };
        if is_over(loaded) {
            return Ok((guard, false));
        }
        let mut next = live.clone();
        clock.stop(to_move, now);
        next.clock = Some(clock);
        next.result = Some(flag_result(loaded.game.position(), to_move));
        next.offers = Offers::default();
        Ok((self.commit(guard, next, Commit::Row).await?, true))
    }

    /// Locks a live game and settles its clock.
    async fn lock_live(&self, id: &str, now: i64) -> GameResult<Guard> {
        again_if_overtaken(|| async {
            let guard = self.lock(id).await?;
            live_of(&guard)?;
            Ok(self.settle(guard, now).await?.0)
        })
        .await
    }

    /// The seat `holder` acts for: its token's, else the seat its session's account holds.
    ///
    /// # Errors
    /// 403 when neither holds a seat of this game.
    async fn seat_for(&self, live: &LiveRow, holder: &SeatHolder) -> GameResult<Side> {
        let refusal = match seat_of(live, holder.token.as_deref()) {
            Ok(side) => return Ok(side),
            Err(refusal) => refusal,
        };
        let account = match &holder.session {
            Some(session) if live.accounts != [None, None] => self.session(session).await?,
            _ => None,
        };
        account
            .and_then(|a| {
                Side::ALL
                    .into_iter()
                    .find(|side| live.accounts[side.index()] == Some(a.id))
            })
            .ok_or(refusal)
    }

    /// Locks a live game for an act of the seat `holder` acts for, in a game that goes on.
    async fn lock_seat_in_play(
        &self,
        id: &str,
        holder: &SeatHolder,
        now: i64,
    ) -> GameResult<(Guard, Side)> {
        let guard = self.lock_live(id, now).await?;
        let loaded = &*guard;
        let side = self.seat_for(live_of(loaded)?, holder).await?;
        if is_over(loaded) {
            return Err(GameError::GameOver);
        }
        Ok((guard, side))
    }

    /// Saves a new live game and caches it.
    async fn insert_live(
        &self,
        game: Game,
        live: LiveRow,
        match_round: Option<(i64, u32)>,
        owner: Option<[u8; 32]>,
    ) -> GameResult<Loaded> {
        let store = self.store.clone();
        let loaded = blocking(move || {
            let new = NewGame::live(&game, &live)
                .in_match(match_round)
                .owned_by(owner);
            let row = created_row(&store, &new)?;
            Ok(Loaded {
                live: Some(LiveRow {
                    game_id: row.id,
                    ..live
                }),
                row,
                game,
            })
        })
        .await?;
        crate::ops::game_created("live");
        Ok(loaded)
    }

    fn cache_new(&self, loaded: Loaded) -> GameResult<()> {
        let slot = self.slot_of(loaded.row.id);
        // A new id: nobody else can hold its slot yet.
        let mut guard = slot
            .try_lock()
            .map_err(|_| GameError::Internal("a new game's slot is held".to_owned()))?;
        *guard = Some(loaded);
        Ok(())
    }

    /// A new game between two seats: the creator's seat and token, and for an invitation
    /// the other seat's token.
    ///
    /// # Errors
    /// When the lobby is full (for this address or in all), or the store fails.
    pub async fn create_live(&self, rules: Rules, new: NewLive) -> GameResult<Seated> {
        let now = self.time.now_ms();
        if new.lobby {
            let store = self.store.clone();
            let address = new.address.clone();
            let (total, mine) = blocking(move || store.open_challenges(&address)).await?;
            let limits = self.limiter.limits();
            if limits.enabled && mine >= limits.lobby_per_address {
                return Err(GameError::Limited(format!(
                    "you have {mine} open challenges in the lobby already (at most {}): \
                     wait for one to be taken or to expire",
                    limits.lobby_per_address
                )));
            }
            if limits.enabled && total >= limits.lobby_total {
                return Err(GameError::Limited(format!(
                    "the lobby is full ({total} open challenges): try again later"
                )));
            }
        }
        let (token, hash) = seats::new_token();
        let mut seats = [None, None];
        seats[new.seat.index()] = Some(hash);
        let invite = (!new.lobby).then(|| {
            let (invite, hash) = seats::new_token();
            seats[(!new.seat).index()] = Some(hash);
            invite
        });
        let mut names = [None, None];
        names[new.seat.index()] = new.name;
        let mut accounts = [None, None];
        if let Some((id, name)) = new.account {
            accounts[new.seat.index()] = Some(id);
            names[new.seat.index()] = Some(name);
        }
        let live = LiveRow {
            lobby: new.lobby,
            address: new.lobby.then_some(new.address),
            accounts,
            rated: new.rated,
            ..LiveRow::new(seats, names, new.clock, now)
        };
        let (game, match_round) = match new.rounds {
            Some(rounds) => {
                let store = self.store.clone();
                let match_id = blocking(move || store.create_match(rounds)).await?;
                let start = matches::round_start(rules, 1, None);
                (Game::from_position(start), Some((match_id, 1)))
            }
            None => (Game::new(rules), None),
        };
        let loaded = self.insert_live(game, live, match_round, new.owner).await?;
        let view = self.live_view_of(&loaded, now).await?;
        self.cache_new(loaded)?;
        Ok(Seated {
            seat: new.seat.name(),
            token,
            invite,
            view,
        })
    }

    /// Game `id` as the holder of `token`, its `seat`, is handed it.
    ///
    /// # Errors
    /// When there is no such live game, or the store fails.
    pub(crate) async fn seated(&self, id: i64, seat: Side, token: String) -> GameResult<Seated> {
        let now = self.time.now_ms();
        let guard = self.lock_live(&id.to_string(), now).await?;
        let view = self.live_view_of(&guard, now).await?;
        Ok(Seated {
            seat: seat.name(),
            token,
            invite: None,
            view,
        })
    }

    /// The live games waiting for `account`'s move, newest first: its seat is to move, both
    /// seats taken, no result (at most [`TURNS_LISTED`] games looked at).
    ///
    /// # Errors
    /// When the store fails.
    pub async fn turns(&self, account: i64) -> GameResult<Vec<Turn>> {
        let now = self.time.now_ms();
        let store = self.store.clone();
        let ids = blocking(move || store.account_live_games(account, TURNS_LISTED)).await?;
        let mut turns = Vec::new();
        for id in ids {
            let guard = match self.lock_live(&id.to_string(), now).await {
                Ok(guard) => guard,
                Err(GameError::UnknownGame(_)) => continue,
                Err(e) => return Err(e),
            };
            let live = live_of(&guard)?;
            let seat = guard.game.position().to_move();
            if is_over(&guard)
                || live.accounts[seat.index()] != Some(account)
                || live.seats.iter().any(Option::is_none)
            {
                continue;
            }
            turns.push(Turn {
                id,
                game: guard.row.variant.clone(),
                seat: seat.name(),
                opponent: live.names[(!seat).index()].clone(),
                left_ms: live.clock.map(|c| c.left(seat, now)[seat.index()]),
                days_per_move: live
                    .clock
                    .filter(|c| c.per_move)
                    .map(|c| c.base_ms / 86_400_000),
            });
        }
        Ok(turns)
    }

    /// The seat `token` holds says one of the [`PHRASES`]; its opponent's and the
    /// spectators' sockets show it. Works in a finished game too ("good game").
    ///
    /// # Errors
    /// 403 without a seat's token; 422 for another phrase; a store failure.
    pub async fn say(&self, id: &str, holder: &SeatHolder, phrase: &str) -> GameResult<LiveView> {
        again_if_overtaken(|| self.say_once(id, holder, phrase)).await
    }

    async fn say_once(&self, id: &str, holder: &SeatHolder, phrase: &str) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let guard = self.lock_live(id, now).await?;
        let live = live_of(&guard)?;
        let side = self.seat_for(live, holder).await?;
        if !PHRASES.contains(&phrase) {
            return Err(GameError::Refused(format!(
                "phrase: {} (expected one of {})",
                shorten(phrase),
                PHRASES.join(", ")
            )));
        }
        let mut next = live.clone();
        let count = live.said[side.index()].as_ref().map_or(0, |s| s.0);
        next.said[side.index()] = Some((count + 1, phrase.to_owned()));
        let guard = self.commit(guard, next, Commit::Row).await?;
        self.live_view_of(&guard, now).await
    }

    /// Takes the open seat of a lobby challenge.
    ///
    /// # Errors
    /// When there is no such live game, it is over, both seats are taken, or the store
    /// fails.
    pub async fn accept(
        &self,
        id: &str,
        name: Option<String>,
        account: Option<(i64, String)>,
    ) -> GameResult<Seated> {
        again_if_overtaken(|| self.accept_once(id, name.clone(), account.clone())).await
    }

    async fn accept_once(
        &self,
        id: &str,
        name: Option<String>,
        account: Option<(i64, String)>,
    ) -> GameResult<Seated> {
        let now = self.time.now_ms();
        let guard = self.lock_live(id, now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?;
        if is_over(loaded) {
            return Err(GameError::GameOver);
        }
        if live.rated && account.is_none() {
            return Err(GameError::SignedOut(format!(
                "game {}: a rated challenge is taken by a signed-in player: sign in first",
                live.game_id
            )));
        }
        if account.is_some() && live.accounts.contains(&account.as_ref().map(|a| a.0)) {
            return Err(GameError::Conflict(format!(
                "game {}: this is your own challenge",
                live.game_id
            )));
        }
        let Some(open) = Side::ALL
            .into_iter()
            .find(|s| live.seats[s.index()].is_none())
        else {
            return Err(GameError::Conflict(format!(
                "game {}: both seats are taken",
                live.game_id
            )));
        };
        let (token, hash) = seats::new_token();
        let mut next = live.clone();
        next.seats[open.index()] = Some(hash);
        next.names[open.index()] = name;
        if let Some((id, name)) = account {
            next.accounts[open.index()] = Some(id);
            next.names[open.index()] = Some(name);
        }
        next.address = None;
        next.touched_ms = now;
        next.first_move_due = true;
        let guard = self.commit(guard, next, Commit::Row).await?;
        let view = self.live_view_of(&guard, now).await?;
        Ok(Seated {
            seat: open.name(),
            token,
            invite: None,
            view,
        })
    }

    /// The account `account` (id and name) takes the seat `token` holds, before the first
    /// move: its name and rating are shown there, and a rated game can start once both
    /// seats have an account. Claiming a seat one already holds changes nothing.
    ///
    /// # Errors
    /// 403 without the seat's token; 409 when the seat is another account's, the account
    /// holds the other seat, or the game has begun or is over; a store failure.
    pub async fn claim(
        &self,
        id: &str,
        token: Option<&str>,
        account: (i64, String),
    ) -> GameResult<LiveView> {
        again_if_overtaken(|| self.claim_once(id, token, account.clone())).await
    }

    async fn claim_once(
        &self,
        id: &str,
        token: Option<&str>,
        account: (i64, String),
    ) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let guard = self.lock_live(id, now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?;
        let side = seat_of(live, token)?;
        let (account_id, name) = account;
        if live.accounts[side.index()] == Some(account_id) {
            return self.live_view_of(&guard, now).await;
        }
        if is_over(loaded) {
            return Err(GameError::GameOver);
        }
        let refuse = |why: &str| Err(GameError::Conflict(format!("game {}: {why}", live.game_id)));
        if live.accounts[side.index()].is_some() {
            return refuse("this seat is held by another account");
        }
        if live.accounts[(!side).index()] == Some(account_id) {
            return refuse("you hold the other seat: a game needs two players");
        }
        if !loaded.game.moves().is_empty() {
            return refuse("a seat can be claimed only before the first move");
        }
        let mut next = live.clone();
        next.accounts[side.index()] = Some(account_id);
        next.names[side.index()] = Some(name);
        next.touched_ms = now;
        let guard = self.commit(guard, next, Commit::Row).await?;
        self.live_view_of(&guard, now).await
    }

    /// The live game whole (its flag falls here if its time is up).
    ///
    /// # Errors
    /// When there is no such live game, or the store fails.
    pub async fn live_view(&self, id: &str) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let guard = self.lock_live(id, now).await?;
        self.live_view_of(&guard, now).await
    }

    /// The seat `holder` acts for in a live game: `None` for a spectator (no token, and no
    /// seat of the session's account).
    ///
    /// # Errors
    /// When there is no such live game, or the token given holds no seat of it.
    pub async fn seat(&self, id: &str, holder: &SeatHolder) -> GameResult<Option<Side>> {
        let guard = self.lock(id).await?;
        let live = live_of(&guard)?;
        match self.seat_for(live, holder).await {
            Ok(side) => Ok(Some(side)),
            Err(_) if holder.token.is_none() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Plays `token_move` for the seat `token` holds, if it is that seat's turn and the
    /// client saw `ply` moves.
    ///
    /// # Errors
    /// 403 for no token or a foreign token; a finished game; a stale ply (409, whoever's
    /// turn it is); 403 for the other seat's turn at the current ply; an open seat; an
    /// illegal move; a store failure.
    pub async fn live_move(
        &self,
        id: &str,
        holder: &SeatHolder,
        name: &str,
        ply: usize,
    ) -> GameResult<LiveMoved> {
        again_if_overtaken(|| self.live_move_once(id, holder, name, ply)).await
    }

    async fn live_move_once(
        &self,
        id: &str,
        holder: &SeatHolder,
        name: &str,
        ply: usize,
    ) -> GameResult<LiveMoved> {
        let received = std::time::Instant::now();
        let now = self.time.now_ms();
        let (mut guard, side) = self.lock_seat_in_play(id, holder, now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?;
        // A client that lagged behind is told to reload (409) before anything else is
        // judged: only a seat that saw the game as it is and still moves out of turn is 403.
        check_ply(&loaded.game, Some(ply))?;
        let to_move = loaded.game.position().to_move();
        if to_move != side {
            return Err(GameError::Forbidden(format!(
                "game {}: it is {to_move}'s turn; the {side} seat cannot move now",
                live.game_id
            )));
        }
        if live.seats[(!side).index()].is_none() {
            return Err(GameError::Conflict(format!(
                "game {}: the other seat is still open; wait for an opponent",
                live.game_id
            )));
        }
        if live.rated && live.accounts.contains(&None) {
            return Err(GameError::Conflict(format!(
                "game {}: a rated game starts once both players have signed in and claimed \
                 their seats",
                live.game_id
            )));
        }
        if name.chars().count() > 24 {
            return Err(illegal(
                &loaded.game,
                format!("{} is not a move", shorten(name)),
            ));
        }
        let mv = loaded
            .game
            .parse_move(name)
            .map_err(|e| illegal(&loaded.game, e.to_string()))?;
        let mut next = live.clone();
        let loaded = &mut *guard;
        let mut events = Vec::new();
        if let Err(e) = loaded.game.play_traced(mv, &mut events) {
            return Err(illegal(&loaded.game, e.to_string()));
        }
        let goes_on = !loaded.game.is_over();
        if let Some(clock) = &mut next.clock {
            clock.after_move(side, now, goes_on);
        }
        next.offers.draw = None;
        next.offers.takeback = None;
        next.touched_ms = now;
        let trace = TraceEvent::all(&events, loaded.game.rules().pits_per_row());
        let guard = self.commit(guard, next, Commit::Move).await?;
        crate::ops::move_stored("live", received);
        let view = self.live_view_of(&guard, now).await?;
        Ok(LiveMoved { trace, view })
    }

    /// The seat `token` holds resigns.
    ///
    /// # Errors
    /// 403 without the seat's token; a finished game; a store failure.
    pub async fn resign(&self, id: &str, holder: &SeatHolder) -> GameResult<LiveView> {
        again_if_overtaken(|| self.resign_once(id, holder)).await
    }

    async fn resign_once(&self, id: &str, holder: &SeatHolder) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let (guard, side) = self.lock_seat_in_play(id, holder, now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?;
        let to_move = loaded.game.position().to_move();
        let mut next = live.clone();
        if let Some(clock) = &mut next.clock {
            clock.stop(to_move, now);
        }
        next.result = Some(LiveResult {
            outcome: (!side).name().to_owned(),
            reason: "resignation".to_owned(),
        });
        next.offers = Offers::default();
        next.touched_ms = now;
        let guard = self.commit(guard, next, Commit::Row).await?;
        self.live_view_of(&guard, now).await
    }

    /// The seat `holder` acts for berserks in an arena game: before its first move, it
    /// gives up half its starting time (for a point more on a win, docs/arena.md).
    ///
    /// # Errors
    /// 403 without the seat; a game that is not an arena's, or over; a seat that has moved
    /// or berserked already; a store failure.
    pub async fn berserk(&self, id: &str, holder: &SeatHolder) -> GameResult<LiveView> {
        again_if_overtaken(|| self.berserk_once(id, holder)).await
    }

    async fn berserk_once(&self, id: &str, holder: &SeatHolder) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let (guard, side) = self.lock_seat_in_play(id, holder, now).await?;
        let loaded = &*guard;
        let game_id = loaded.row.id;
        let store = self.store.clone();
        let board = blocking(move || store.board_of_game(game_id)).await?;
        let Some((tournament, board)) = board else {
            return Err(GameError::Refused(format!(
                "game {game_id}: only an arena's games may be berserked"
            )));
        };
        let store = self.store.clone();
        let kind = blocking(move || store.tournament(tournament))
            .await?
            .map(|t| t.kind);
        if kind.as_deref() != Some("arena") {
            return Err(GameError::Refused(format!(
                "game {game_id}: only an arena's games may be berserked"
            )));
        }
        let game = &loaded.game;
        let moved = (0..game.moves().len())
            .any(|ply| game.position_at(ply).is_some_and(|p| p.to_move() == side));
        if moved || board.berserk[side.index()] {
            return Err(GameError::Refused(format!(
                "game {game_id}: a seat berserks before its first move, once"
            )));
        }
        let mut next = live_of(loaded)?.clone();
        let Some(clock) = next.clock.as_mut().filter(|c| !c.per_move) else {
            return Err(GameError::Refused(format!(
                "game {game_id}: berserk needs a clock"
            )));
        };
        // Not a move: the first move stays due from the pairing (`touched_ms` unchanged).
        clock.remaining_ms[side.index()] -= clock.base_ms / 2;
        let guard = self.commit(guard, next, Commit::Berserk(side)).await?;
        self.tournament_changed(tournament);
        self.live_view_of(&guard, now).await
    }

    /// Offers (or, when the opponent offered it, agrees to) a draw, a takeback or a
    /// rematch, for the seat `token` holds.
    ///
    /// # Errors
    /// 403 without the seat's token; a draw or takeback in a finished game, a takeback
    /// with no move, a rematch before the end; a store failure.
    pub async fn offer(&self, id: &str, holder: &SeatHolder, what: Offer) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let mut guard = self.lock_live(id, now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?.clone();
        let live = &live;
        let side = self.seat_for(live, holder).await?;
        let opponent = !side;
        let over = is_over(loaded);
        let to_move = loaded.game.position().to_move();
        let no_moves = loaded.game.moves().is_empty();
        let start = *loaded.game.start();
        let loaded_match = loaded.row.match_id.zip(loaded.row.round);
        let mut next = live.clone();
        next.touched_ms = now;
        let mut how = Commit::Row;
        match what {
            Offer::Draw | Offer::Takeback if over => return Err(GameError::GameOver),
            Offer::Draw if live.offers.draw == Some(opponent) => {
                if let Some(clock) = &mut next.clock {
                    clock.stop(to_move, now);
                }
                next.result = Some(LiveResult {
                    outcome: "draw".to_owned(),
                    reason: "agreement".to_owned(),
                });
                next.offers = Offers::default();
            }
            Offer::Draw => next.offers.draw = Some(side),
            Offer::Takeback if no_moves => return Err(GameError::NothingToUndo),
            Offer::Takeback if live.offers.takeback == Some(opponent) => {
                let loaded = &mut *guard;
                loaded.game.undo();
                let runs = !loaded.game.moves().is_empty();
                if let Some(clock) = &mut next.clock {
                    clock.stop(to_move, now);
                    clock.restart(now, runs);
                }
                next.takebacks += 1;
                next.offers = Offers::default();
                how = Commit::Takeback;
            }
            Offer::Takeback => next.offers.takeback = Some(side),
            Offer::Rematch if !over => {
                return Err(GameError::Conflict(format!(
                    "game {}: a rematch can be asked for once the game is over",
                    live.game_id
                )))
            }
            Offer::Rematch if live.rematch.is_some() => {}
            Offer::Rematch if self.next_round_of(loaded, now).await?.is_some() => {
                return Err(GameError::Conflict(format!(
                    "game {}: the match goes on in its next round; a rematch can be asked for \
                     once the match is over",
                    live.game_id
                )))
            }
            Offer::Rematch if live.offers.rematch == Some(opponent) => {
                let rematch = follow_on(live, true, now);
                // A match's rematch is a new match of as many rounds, from its round 1.
                let (game, match_round) = match loaded_match {
                    Some((match_id, _)) => {
                        let store = self.store.clone();
                        let rounds = blocking(move || {
                            let m = store.get_match(match_id)?.ok_or_else(|| {
                                StoreError::Database(format!("match {match_id} is missing"))
                            })?;
                            store.create_match(m.rounds)
                        })
                        .await?;
                        let start = matches::round_start(start.rules(), 1, None);
                        (Game::from_position(start), Some((rounds, 1)))
                    }
                    None => (Game::from_position(start), None),
                };
                let fresh = self
                    .insert_live(game, rematch, match_round, loaded.row.owner)
                    .await?;
                next.rematch = Some(fresh.row.id);
                next.offers.rematch = None;
                self.cache_new(fresh)?;
            }
            Offer::Rematch => next.offers.rematch = Some(side),
        }
        let guard = if next != *live || matches!(how, Commit::Takeback) {
            self.commit(guard, next, how).await?
        } else {
            guard
        };
        self.live_view_of(&guard, now).await
    }

    /// Declines every standing offer of the opponent of the seat `token` holds.
    ///
    /// # Errors
    /// 403 without the seat's token; a store failure.
    pub async fn decline(&self, id: &str, holder: &SeatHolder) -> GameResult<LiveView> {
        again_if_overtaken(|| self.decline_once(id, holder)).await
    }

    async fn decline_once(&self, id: &str, holder: &SeatHolder) -> GameResult<LiveView> {
        let now = self.time.now_ms();
        let guard = self.lock_live(id, now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?;
        let opponent = Some(!self.seat_for(live, holder).await?);
        let mut next = live.clone();
        for offer in [
            &mut next.offers.draw,
            &mut next.offers.takeback,
            &mut next.offers.rematch,
        ] {
            if *offer == opponent {
                *offer = None;
            }
        }
        let guard = if next != *live {
            next.touched_ms = now;
            self.commit(guard, next, Commit::Row).await?
        } else {
            guard
        };
        self.live_view_of(&guard, now).await
    }

    /// What a socket that has seen `ply` moves and `takebacks` takebacks is missing.
    ///
    /// # Errors
    /// When there is no such live game, or the store fails.
    pub async fn catch_up(&self, id: i64, ply: usize, takebacks: u32) -> GameResult<Update> {
        let now = self.time.now_ms();
        let guard = self.lock_live(&id.to_string(), now).await?;
        let loaded = &*guard;
        let live = live_of(loaded)?;
        let played = loaded.game.moves().len();
        if live.takebacks != takebacks || played < ply {
            return Ok(Update::Full(Box::new(
                self.live_view_of(loaded, now).await?,
            )));
        }
        let moves = (ply + 1..=played)
            .map(|p| replay(&loaded.game, p))
            .collect::<GameResult<Vec<_>>>()?;
        Ok(Update::Moves(
            moves,
            Box::new(self.status_of(loaded, now).await?),
        ))
    }

    /// The lobby's open challenges, oldest first.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn lobby(&self, range: Option<(f64, f64)>) -> GameResult<Vec<Challenge>> {
        let store = self.store.clone();
        let open = blocking(move || {
            let mut open = Vec::new();
            for (row, live) in store.lobby(100)? {
                let rating = match live.accounts.iter().flatten().next() {
                    Some(&account) => store
                        .ratings_in(&[account], &row.variant, speed_of(&live).name())?
                        .pop(),
                    None => None,
                };
                open.push((row, live, rating));
            }
            Ok(open)
        })
        .await?;
        Ok(open
            .into_iter()
            .filter(|(_, _, rating)| match (range, rating) {
                (None, _) => true,
                (Some((low, high)), Some((r, _))) => (low..=high).contains(&r.rating),
                (Some(_), None) => false,
            })
            .filter_map(|(row, live, rating)| {
                let taken = Side::ALL
                    .into_iter()
                    .find(|s| live.seats[s.index()].is_some())?;
                Some(Challenge {
                    rated: live.rated,
                    speed: speed_of(&live).name(),
                    rating: rating.map(|(r, games)| RatingNumbers::of(r, games)),
                    id: row.id,
                    game: row.variant,
                    pits: row.pits,
                    start: row.start,
                    name: live.names[taken.index()].clone(),
                    open: (!taken).name(),
                    clock: live.clock.map(|c| ClockSpecView {
                        base_ms: c.base_ms,
                        increment_ms: c.increment_ms,
                        days_per_move: c.per_move.then_some(c.base_ms / 86_400_000),
                    }),
                    created_ms: live.created_ms,
                })
            })
            .collect())
    }

    /// Ends the live games whose time ran out, or whose first move did not come in time, by
    /// `now` (Unix ms) with no socket there to see it (a correspondence game's player away
    /// for days): the flag falls, or the game is aborted, as at any read. Run by every
    /// server's sweeper; a game another server settled first is left as it is. How many.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn settle_due(&self, now: i64) -> GameResult<usize> {
        let store = self.store.clone();
        let ids =
            blocking(move || store.due_live_games(now, FIRST_MOVE_WITHIN_MS, DUE_AT_ONCE)).await?;
        let mut settled = 0;
        for id in ids {
            let guard = match self.lock(&id.to_string()).await {
                Ok(guard) => guard,
                Err(GameError::UnknownGame(_)) => continue,
                Err(e) => return Err(e),
            };
            match self.settle(guard, now).await {
                Ok((_, true)) => settled += 1,
                Ok((_, false)) => {}
                // Another server settled it first.
                Err(GameError::Store(StoreError::Conflict(_))) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(settled)
    }

    /// Closes the live games nobody acted in since the limits' times before `now` (Unix
    /// ms): no result (`none`), `abandoned`, or `expired` for a challenge nobody took.
    /// How many it closed.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn close_stale(&self, now: i64) -> GameResult<usize> {
        let limits = *self.limiter.limits();
        let idle = now - limits.abandoned_after.as_millis() as i64;
        let open = now - limits.open_for.as_millis() as i64;
        let store = self.store.clone();
        let ids = blocking(move || store.stale_live_games(idle, open)).await?;
        let mut closed = 0;
        for id in ids {
            let guard = self.lock_live(&id.to_string(), now).await?;
            let loaded = &*guard;
            let live = live_of(loaded)?;
            let seat_open = live.seats.iter().any(Option::is_none);
            let stale = live.touched_ms < idle || (seat_open && live.touched_ms < open);
            if is_over(loaded) || !stale {
                continue;
            }
            let mut next = live.clone();
            if let Some(clock) = &mut next.clock {
                clock.stop(loaded.game.position().to_move(), now);
            }
            next.result = Some(LiveResult {
                outcome: "none".to_owned(),
                reason: if seat_open { "expired" } else { "abandoned" }.to_owned(),
            });
            next.offers = Offers::default();
            match self.commit(guard, next, Commit::Row).await {
                Ok(_) => closed += 1,
                // Another server acted on it first (it swept it, or a seat moved): the
                // next sweep sees it as it is now.
                Err(GameError::Store(StoreError::Conflict(_))) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(closed)
    }
}

/// The live row of a game that follows `live` between the same seats (a match's next round,
/// or a rematch with the colours `swapped`): the same time control on a fresh clock, no
/// offers, no result.
fn follow_on(live: &LiveRow, swapped: bool, now: i64) -> LiveRow {
    let (mut seats, mut names, mut accounts) = (live.seats, live.names.clone(), live.accounts);
    if swapped {
        seats.swap(0, 1);
        names.swap(0, 1);
        accounts.swap(0, 1);
    }
    let clock = live.clock.map(|c| c.fresh());
    LiveRow {
        accounts,
        rated: live.rated,
        ..LiveRow::new(seats, names, clock, now)
    }
}

/// A live game's speed, from its clock.
fn speed_of(live: &LiveRow) -> Speed {
    Speed::of_clock(live.clock.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::Variant;

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn the_flagged_side_loses_while_its_opponent_can_still_win() {
        let start = *Game::new(Rules::new(Variant::HoyitoII)).position();
        let result = flag_result(&start, Side::South);
        assert_eq!(
            (result.outcome.as_str(), result.reason.as_str()),
            ("north", "flag")
        );
    }

    #[test]
    fn a_flag_fall_is_a_draw_when_the_opponent_could_no_longer_win() {
        // North has 20, South 24 and 4 seeds are left: North's best is 24, not more.
        let p = position("hoyito-ii 0,0,0,0,0,0/4,0,0,0,0,0 24-20 S -");
        assert_eq!(flag_result(&p, Side::South).outcome, "draw");
        // With 5 on the board North could still get 25: South's flag loses.
        let p = position("hoyito-ii 0,0,0,0,0,0/4,1,0,0,0,0 23-20 S -");
        assert_eq!(flag_result(&p, Side::South).outcome, "north");
    }
}
