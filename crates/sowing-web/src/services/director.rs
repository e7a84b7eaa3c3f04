//! The director: every server runs it on a task of its own ([`DIRECT_EVERY`]); for each
//! tournament begun, the server holding its lease ([`LEASE_MS`], taken over when it lapses)
//! records the games that ended, pairs the players free (an arena) or the next round (a
//! Swiss), starts and finishes the tournament — all of one step in one write under the
//! lease's epoch, so that a server that lost the lease writes nothing.
//!
//! A server killed mid-round leaves its lease to lapse: another takes over within
//! [`LEASE_MS`] plus a step, reads the tournament from the store, and goes on. Nothing the
//! dead server did is lost or done again: a step is committed whole or not at all, and a
//! game that ended meanwhile is still an unrecorded ending in the store.

use std::time::Duration;

use sowing::{Game, Side};

use crate::clock::LiveClock;
use crate::seats;
use crate::services::games::{blocking, GameError, Games};
use crate::store::{
    start_of, BoardRow, Direction, Ending, EntrantRow, LiveRow, StoreError, TournamentRow,
};
use crate::tournament::{self, ROUND_GAP_MS};

type GameResult<T> = Result<T, GameError>;

/// How often each server looks at the tournaments begun.
pub const DIRECT_EVERY: Duration = Duration::from_millis(250);

/// How long a lease lasts unless renewed; each step renews it. A server that stops
/// renewing loses it after this: well inside the 5 s in which another must take over.
pub const LEASE_MS: i64 = 3_000;

fn board_of(round: i64, board: i64, south: i64, north: Option<i64>, now: i64) -> BoardRow {
    BoardRow {
        round,
        board,
        game_id: None,
        south,
        north,
        result: north.is_none().then(|| "bye".to_owned()),
        berserk: [false, false],
        moves: [0, 0],
        started_ms: now,
        ended_ms: north.is_none().then_some(now),
    }
}

/// A new game for a board: its rules and clock the tournament's; the two accounts hold
/// the seats (their sessions act; the tokens are never shown); the first moves are due.
fn game_for(
    row: &TournamentRow,
    entrants: &[EntrantRow],
    board: &BoardRow,
    now: i64,
) -> GameResult<(Game, LiveRow)> {
    let start = start_of(row).map_err(GameError::Store)?;
    let name = |id: i64| {
        entrants
            .iter()
            .find(|e| e.account == id)
            .map(|e| e.name.clone())
    };
    let north = board.north.unwrap_or_default();
    let seats = [Some(seats::new_token().1), Some(seats::new_token().1)];
    let live = LiveRow {
        accounts: [Some(board.south), Some(north)],
        rated: row.rated,
        first_move_due: true,
        ..LiveRow::new(
            seats,
            [name(board.south), name(north)],
            Some(LiveClock::new(row.base_ms, row.increment_ms)),
            now,
        )
    };
    Ok((Game::from_position(start), live))
}

impl Games {
    /// One step for every tournament begun: those whose lease this server holds or can
    /// take. How many it directed. A tournament that cannot be directed (its rows do not
    /// add up) is logged, and the others go on.
    ///
    /// # Errors
    /// A store failure.
    pub async fn direct_tournaments(&self) -> GameResult<usize> {
        let now = self.time.now_ms();
        let store = self.store.clone();
        let due = blocking(move || store.tournaments_due(now)).await?;
        let mut directed = 0;
        for id in due {
            match self.direct(id, now).await {
                Ok(true) => directed += 1,
                Ok(false) => {}
                // The lease went to another server meanwhile, or a board was paired by it.
                Err(GameError::Store(StoreError::Conflict(_))) => crate::ops::overtaken(),
                // The store is away: the next step tries again.
                Err(e @ GameError::Store(_)) => return Err(e),
                // This tournament's rows do not add up: the others go on.
                Err(e) => {
                    tracing::error!(tournament = id, error = %e, "cannot direct the tournament")
                }
            }
        }
        Ok(directed)
    }

    /// One step for tournament `id` at `now`, if this server holds (or takes) its lease;
    /// whether it did.
    async fn direct(&self, id: i64, now: i64) -> GameResult<bool> {
        let (store, server) = (self.store.clone(), self.seekers.server);
        let Some(epoch) =
            blocking(move || store.lease_tournament(id, server, now, now + LEASE_MS)).await?
        else {
            return Ok(false);
        };
        let before = self
            .directing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, epoch);
        if before != Some(epoch) {
            tracing::info!(tournament = id, epoch, server, "directing the tournament");
        }
        let store = self.store.clone();
        let (whole, endings) =
            blocking(move || Ok((store.tournament_whole(id)?, store.tournament_endings(id)?)))
                .await?;
        let Some((row, mut entrants, mut boards)) = whole else {
            return Ok(false);
        };
        let mut direction = Direction::default();
        self.record_endings(&mut boards, &endings, &mut direction)
            .await?;
        // Who missed their first move steps out before the pairing.
        let stepped_out = if row.kind == "swiss" {
            "withdrawn"
        } else {
            "paused"
        };
        for entrant in entrants
            .iter_mut()
            .filter(|e| direction.absent.contains(&e.account))
        {
            entrant.status = stepped_out.to_owned();
        }
        if row.kind == "swiss" {
            swiss_step(&row, &entrants, &boards, now, &mut direction)?;
        } else {
            arena_step(&row, &entrants, &boards, now, &mut direction)?;
        }
        if direction.results.is_empty() && direction.boards.is_empty() && direction.state.is_none()
        {
            return Ok(true);
        }
        // The players paired or paused: their notices here (the write tells the others).
        let mut told: Vec<i64> = direction.absent.clone();
        for (board, game) in direction.boards.iter_mut() {
            told.push(board.south);
            told.extend(board.north);
            if board.north.is_some() {
                *game = Some(game_for(&row, &entrants, board, now)?);
            }
        }
        let finishing = matches!(&direction.state, Some((state, _)) if state == "finished");
        let store = self.store.clone();
        blocking(move || store.direct_tournament(id, (server, epoch), now, direction)).await?;
        if finishing {
            self.directing
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
        }
        for account in told {
            self.notices.wake(account);
        }
        self.tournament_changed(id);
        Ok(true)
    }

    /// Reads the games of `endings` into results (in `boards` too): each seat's moves,
    /// and for a game aborted (a first move not made) a loss for the absent seat, who is
    /// paused or withdrawn.
    async fn record_endings(
        &self,
        boards: &mut [BoardRow],
        endings: &[Ending],
        direction: &mut Direction,
    ) -> GameResult<()> {
        let now = self.time.now_ms();
        for ending in endings {
            let Some(board) = boards
                .iter_mut()
                .find(|b| b.round == ending.round && b.board == ending.board)
            else {
                continue;
            };
            let guard = self.lock(&ending.game_id.to_string()).await?;
            let game = &guard.game;
            let mut moves = [0u32; 2];
            for ply in 0..game.moves().len() {
                if let Some(position) = game.position_at(ply) {
                    moves[position.to_move().index()] += 1;
                }
            }
            drop(guard);
            let result = match ending.outcome.as_str() {
                "south" | "north" | "draw" => ending.outcome.clone(),
                _ => {
                    // Aborted: the side whose first move did not come loses.
                    let absent = if ending.plies == 0 {
                        Side::South
                    } else {
                        Side::North
                    };
                    let account = match absent {
                        Side::South => board.south,
                        Side::North => board.north.unwrap_or(board.south),
                    };
                    direction.absent.push(account);
                    (!absent).name().to_owned()
                }
            };
            board.result = Some(result.clone());
            board.moves = moves;
            board.ended_ms = Some(now);
            direction
                .results
                .push((board.round, board.board, result, moves, now));
        }
        Ok(())
    }
}

/// An arena's step: start at the start, pair the players free, finish once the end has
/// come and every game is over.
fn arena_step(
    row: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    now: i64,
    direction: &mut Direction,
) -> GameResult<()> {
    let corrupt = |e: String| GameError::Internal(format!("tournament {}: {e}", row.id));
    let end = row.ends_ms().unwrap_or(row.starts_ms);
    let mut arena = tournament::arena_of(row, entrants, boards).map_err(corrupt)?;
    let started = arena.pair(u64::try_from(now).unwrap_or(0));
    for game in &started {
        direction.boards.push((
            board_of(
                0,
                i64::try_from(game.id.0).unwrap_or(i64::MAX),
                tournament::arena_account(game.board.south),
                Some(tournament::arena_account(game.board.north)),
                now,
            ),
            None,
        ));
    }
    if now >= end && arena.ongoing().is_empty() {
        direction.state = Some(("finished".to_owned(), row.round));
    } else if row.state == "upcoming" {
        direction.state = Some(("running".to_owned(), row.round));
    }
    Ok(())
}

/// A Swiss's step: once the round's games are all over (and the gap after them has
/// passed), pair the next round, or finish after the last.
fn swiss_step(
    row: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    now: i64,
    direction: &mut Direction,
) -> GameResult<()> {
    let rounds = row.rounds.unwrap_or(0);
    let round_boards = || boards.iter().filter(|b| b.round == row.round);
    if round_boards().any(|b| b.result.is_none()) {
        return Ok(());
    }
    let last_end = round_boards().filter_map(|b| b.ended_ms).max();
    if row.round > 0 && last_end.is_some_and(|end| now < end + ROUND_GAP_MS) {
        return Ok(());
    }
    let finish = |direction: &mut Direction| {
        direction.state = Some(("finished".to_owned(), row.round));
    };
    if row.round >= rounds {
        finish(direction);
        return Ok(());
    }
    let players = tournament::swiss_players(entrants);
    let played = tournament::swiss_rounds(boards);
    let next = sowing_swiss::pair_next(&players, &played)
        .map_err(|e| GameError::Internal(format!("tournament {}: {e}", row.id)))?;
    if next.boards.is_empty() {
        // Nobody left to pair (fewer than two players, or every pair has met).
        finish(direction);
        return Ok(());
    }
    let round = row.round + 1;
    for (n, board) in next.boards.iter().enumerate() {
        direction.boards.push((
            board_of(
                round,
                n as i64 + 1,
                tournament::swiss_account(board.south),
                Some(tournament::swiss_account(board.north)),
                now,
            ),
            None,
        ));
    }
    if let Some(bye) = next.bye {
        let n = next.boards.len() as i64 + 1;
        direction.boards.push((
            board_of(round, n, tournament::swiss_account(bye), None, now),
            None,
        ));
    }
    direction.state = Some(("running".to_owned(), round));
    Ok(())
}
