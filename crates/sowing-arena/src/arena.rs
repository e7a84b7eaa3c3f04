//! An arena's whole state, changed by events that carry their time.

use std::collections::HashSet;

use crate::error::ArenaError;
use crate::model::{
    Board, Finished, GameId, GameResult, Millis, Ongoing, Player, PlayerId, Schedule, Seats, Status,
};
use crate::pairing::{self, Waiting};
use crate::standings::{self, Standing};

/// An arena: its schedule, its players, the games finished (in the order they ended) and the
/// games in progress. Every change is an event with its time; the arena never reads the
/// clock. The caller (the web server) calls [`Arena::pair`] whenever a player becomes free
/// (joins, comes back, or ends a game) and [`Arena::finish`] when a game ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    schedule: Schedule,
    players: Vec<Player>,
    finished: Vec<Finished>,
    ongoing: Vec<Ongoing>,
    next_game: u64,
}

impl Arena {
    /// An arena with no players yet.
    pub fn new(schedule: Schedule) -> Arena {
        Arena {
            schedule,
            players: Vec::new(),
            finished: Vec::new(),
            ongoing: Vec::new(),
            next_game: 0,
        }
    }

    /// An arena from its parts, as kept by the caller (rows of a database): the games
    /// finished in the order they ended.
    ///
    /// # Errors
    ///
    /// A repeated player id, a game naming a player not in `players` or one on both seats,
    /// a game id used twice, or a player in two games in progress.
    pub fn restore(
        schedule: Schedule,
        players: Vec<Player>,
        finished: Vec<Finished>,
        ongoing: Vec<Ongoing>,
    ) -> Result<Arena, ArenaError> {
        standings::read(&players, &finished, schedule)?;
        let index = standings::index(&players)?;
        let mut ids = HashSet::new();
        let mut busy = HashSet::new();
        for id in finished
            .iter()
            .map(|g| g.id)
            .chain(ongoing.iter().map(|g| g.id))
        {
            if !ids.insert(id) {
                return Err(ArenaError::DuplicateGame(id));
            }
        }
        for game in &ongoing {
            for player in [game.board.south, game.board.north] {
                if !index.contains_key(&player) {
                    return Err(ArenaError::UnknownPlayer(player));
                }
                if !busy.insert(player) {
                    return Err(ArenaError::InTwoGames(player));
                }
            }
        }
        let next_game = ids.iter().map(|id| id.0 + 1).max().unwrap_or(0);
        Ok(Arena {
            schedule,
            players,
            finished,
            ongoing,
            next_game,
        })
    }

    /// When the arena runs.
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// The players, in the order they joined.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The games finished, in the order they ended.
    pub fn finished(&self) -> &[Finished] {
        &self.finished
    }

    /// The games in progress, in the order they were paired.
    pub fn ongoing(&self) -> &[Ongoing] {
        &self.ongoing
    }

    fn find(&mut self, id: PlayerId) -> Result<&mut Player, ArenaError> {
        self.players
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or(ArenaError::UnknownPlayer(id))
    }

    /// A player joins at `now` with their rating, active and free. Joining before the start
    /// is allowed (the wait counts from joining).
    ///
    /// # Errors
    ///
    /// [`ArenaError::DuplicatePlayer`] for a player already in (who comes back with
    /// [`Arena::resume`]); [`ArenaError::Over`] at or after the end.
    pub fn join(&mut self, id: PlayerId, rating: i32, now: Millis) -> Result<(), ArenaError> {
        if now >= self.schedule.end {
            return Err(ArenaError::Over);
        }
        if self.players.iter().any(|p| p.id == id) {
            return Err(ArenaError::DuplicatePlayer(id));
        }
        self.players.push(Player::new(id, rating, now));
        Ok(())
    }

    /// A player pauses (or leaves): they are not paired again until they come back. A game
    /// they are playing goes on and counts. Pausing twice changes nothing.
    ///
    /// # Errors
    ///
    /// [`ArenaError::UnknownPlayer`].
    pub fn pause(&mut self, id: PlayerId) -> Result<(), ArenaError> {
        self.find(id)?.status = Status::Paused;
        Ok(())
    }

    /// A paused player comes back at `now`, keeping their points and their streak; their wait
    /// counts from now. Coming back while active changes nothing.
    ///
    /// # Errors
    ///
    /// [`ArenaError::UnknownPlayer`].
    pub fn resume(&mut self, id: PlayerId, now: Millis) -> Result<(), ArenaError> {
        let player = self.find(id)?;
        if player.status == Status::Paused {
            player.status = Status::Active;
            player.free_since = player.free_since.max(now);
        }
        Ok(())
    }

    /// The players waiting at `now`: active and not in a game, with their points, last
    /// opponent and balance — the input of [`pairing::pair`].
    pub fn waiting(&self) -> Vec<Waiting> {
        let records = standings::read(&self.players, &self.finished, self.schedule)
            .expect("the arena's own games name its own players");
        let busy: HashSet<PlayerId> = self
            .ongoing
            .iter()
            .flat_map(|g| [g.board.south, g.board.north])
            .collect();
        self.players
            .iter()
            .zip(records)
            .filter(|(p, _)| p.status == Status::Active && !busy.contains(&p.id))
            .map(|(p, record)| Waiting {
                id: p.id,
                points: record.points(),
                rating: p.rating,
                free_since: p.free_since,
                last_opponent: record.last_opponent,
                balance: record.balance,
            })
            .collect()
    }

    /// Pairs the players waiting at `now` ([`pairing::pair`] gives the rules) and starts
    /// their games, returned in board order. Nothing is paired before the start or near the
    /// end.
    pub fn pair(&mut self, now: Millis) -> Vec<Ongoing> {
        let boards: Vec<Board> = pairing::pair(&self.waiting(), self.schedule, now);
        let started: Vec<Ongoing> = boards
            .into_iter()
            .map(|board| {
                let id = GameId(self.next_game);
                self.next_game += 1;
                Ongoing {
                    id,
                    board,
                    started: now,
                }
            })
            .collect();
        self.ongoing.extend(&started);
        started
    }

    /// A game in progress ends at `now`: it moves to the finished games, and its two players
    /// are free from `now`. It counts in the standings if `now` is not after the end. (A `now`
    /// before the game's pairing is read as the moment of pairing.)
    ///
    /// # Errors
    ///
    /// [`ArenaError::UnknownGame`] when no game in progress has this id.
    pub fn finish(
        &mut self,
        game: GameId,
        result: GameResult,
        berserk: Seats<bool>,
        moves: Seats<u32>,
        now: Millis,
    ) -> Result<Finished, ArenaError> {
        let at = self
            .ongoing
            .iter()
            .position(|g| g.id == game)
            .ok_or(ArenaError::UnknownGame(game))?;
        let ongoing = self.ongoing.remove(at);
        let finished = Finished {
            id: ongoing.id,
            board: ongoing.board,
            result,
            berserk,
            moves,
            started: ongoing.started,
            ended: now.max(ongoing.started),
        };
        for player in self.players.iter_mut() {
            if player.id == finished.board.south || player.id == finished.board.north {
                player.free_since = player.free_since.max(finished.ended);
            }
        }
        self.finished.push(finished);
        Ok(finished)
    }

    /// The standings now ([`standings::standings`] gives the order).
    pub fn standings(&self) -> Vec<Standing> {
        standings::standings(&self.players, &self.finished, self.schedule)
            .expect("the arena's own games name its own players")
    }
}
