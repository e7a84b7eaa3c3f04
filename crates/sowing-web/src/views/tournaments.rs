//! The shapes of tournaments (docs/api.md, "Tournaments"): the list, and one tournament
//! whole — its players, every board with its result, and the standings with the points
//! and tie-breaks, so that anyone can recompute them.

use std::collections::HashMap;

use serde::Serialize;
use sowing::Position;

use crate::store::{BoardRow, EntrantRow, TournamentRow};
use crate::tournament;

/// A tournament's settings, as every view gives them.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentSummary {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// The game (`hoyito-ii` …).
    pub game: &'static str,
    /// Every game's start position, as text (the rules and their options within).
    pub start: String,
    /// Each side's time, ms.
    pub base_ms: i64,
    /// Added after each move, ms.
    pub increment_ms: i64,
    /// Rated games.
    pub rated: bool,
    /// When it starts, Unix ms.
    pub starts_ms: i64,
    /// An arena's end, Unix ms.
    pub ends_ms: Option<i64>,
    /// An arena's length, minutes.
    pub minutes: Option<i64>,
    /// A Swiss's rounds.
    pub rounds: Option<i64>,
    /// A Swiss's rounds paired so far.
    pub round: i64,
    /// The least rating to join.
    pub min_rating: Option<i64>,
    /// Who made it (`null`: the site).
    pub creator: Option<String>,
    /// `upcoming`, `running` or `finished`.
    pub state: String,
    /// When it finished, Unix ms.
    pub finished_ms: Option<i64>,
    /// How many players joined.
    pub players: usize,
}

impl TournamentSummary {
    /// The summary of `row` with `players` joined.
    pub fn of(row: &TournamentRow, players: usize) -> TournamentSummary {
        TournamentSummary {
            id: row.id,
            name: row.name.clone(),
            kind: row.kind.clone(),
            game: row
                .start
                .parse::<Position>()
                .map_or("unknown", |p| p.rules().variant().name()),
            start: row.start.clone(),
            base_ms: row.base_ms,
            increment_ms: row.increment_ms,
            rated: row.rated,
            starts_ms: row.starts_ms,
            ends_ms: row.ends_ms(),
            minutes: row.minutes,
            rounds: row.rounds,
            round: row.round,
            min_rating: row.min_rating,
            creator: row.creator_name.clone(),
            state: row.state.clone(),
            finished_ms: row.finished_ms,
            players,
        }
    }
}

/// The tournaments page's list.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentList {
    /// Upcoming, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Running.
    pub running: Vec<TournamentSummary>,
    /// Finished lately, newest first.
    pub finished: Vec<TournamentSummary>,
    /// The server's time, Unix ms (for the countdowns).
    pub now_ms: i64,
}

/// A player of a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct EntrantView {
    /// The account's name.
    pub name: String,
    /// The rating at joining.
    pub rating: i64,
    /// `active`, `paused` or `withdrawn`.
    pub status: String,
    /// A Swiss's rounds paired before the player joined (a late joiner starts with zero).
    pub joined_round: i64,
}

/// A board: who sat where, the game, the result.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// A Swiss's round, from 1; 0 in an arena.
    pub round: i64,
    /// The board, from 1 in a Swiss round; in an arena, from 0 in the order of pairing.
    pub board: i64,
    /// The live game (`null` for a bye).
    pub game_id: Option<i64>,
    /// Who sat South (moved first), or had the bye.
    pub south: String,
    /// Who sat North (`null` for a bye).
    pub north: Option<String>,
    /// `south`, `north`, `draw` or `bye`; `null` while the game goes on.
    pub result: Option<String>,
    /// South berserked.
    pub berserk_south: bool,
    /// North berserked.
    pub berserk_north: bool,
    /// Moves each seat made, once over (South, North).
    pub moves: [u32; 2],
    /// When it was paired, Unix ms.
    pub started_ms: i64,
    /// When it ended, Unix ms.
    pub ended_ms: Option<i64>,
}

/// A line of the standings.
#[derive(Clone, Debug, Serialize)]
pub struct StandingView {
    /// The place, from 1 (players level on everything share it).
    pub rank: usize,
    /// Who.
    pub name: String,
    /// The points: an arena's whole points, a Swiss's as a decimal (`2.5`).
    pub points: f64,
    /// A Swiss's Buchholz.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<f64>,
    /// A Swiss's Sonneborn–Berger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sonneborn_berger: Option<f64>,
    /// An arena's performance (its tie-break).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performance: Option<i32>,
    /// An arena's points of each game, in the order they ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheet: Option<Vec<u32>>,
    /// An arena player whose next win counts double.
    pub on_fire: bool,
    /// Games played.
    pub games: u32,
}

/// The reader's own place in it.
#[derive(Clone, Debug, Serialize)]
pub struct MeView {
    /// `active`, `paused` or `withdrawn`; `null` when not joined.
    pub status: Option<String>,
    /// The reader's game going on in it, if any.
    pub game_id: Option<i64>,
    /// The reader's seat there.
    pub seat: Option<&'static str>,
}

/// One tournament whole.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentView {
    /// Its settings and state.
    #[serde(flatten)]
    pub summary: TournamentSummary,
    /// Bumped by every change.
    pub version: i64,
    /// The players, in the order they joined.
    pub entrants: Vec<EntrantView>,
    /// Every board, by round and board.
    pub boards: Vec<BoardView>,
    /// The standings, best first.
    pub standings: Vec<StandingView>,
    /// The reader's place, when signed in.
    pub me: Option<MeView>,
    /// The server's time, Unix ms.
    pub now_ms: i64,
}

impl TournamentView {
    /// The view of a tournament's rows, for `reader` (an account) at `now_ms`.
    ///
    /// # Errors
    /// When the rows do not make a tournament the rules can rank (a corrupted tournament).
    pub fn of(
        row: &TournamentRow,
        entrants: &[EntrantRow],
        boards: &[BoardRow],
        reader: Option<i64>,
        now_ms: i64,
    ) -> Result<TournamentView, String> {
        let names: HashMap<i64, &str> = entrants
            .iter()
            .map(|e| (e.account, e.name.as_str()))
            .collect();
        let name = |id: i64| names.get(&id).map_or("?", |n| n).to_owned();
        let standings = if row.kind == "swiss" {
            swiss_standings(entrants, boards, &name)?
        } else {
            arena_standings(row, entrants, boards, &name)?
        };
        let me = reader.map(|account| {
            let status = entrants
                .iter()
                .find(|e| e.account == account)
                .map(|e| e.status.clone());
            let board = boards.iter().rev().find(|b| {
                b.result.is_none()
                    && b.game_id.is_some()
                    && (b.south == account || b.north == Some(account))
            });
            MeView {
                status,
                game_id: board.and_then(|b| b.game_id),
                seat: board.map(|b| if b.south == account { "south" } else { "north" }),
            }
        });
        Ok(TournamentView {
            summary: TournamentSummary::of(row, entrants.len()),
            version: row.version,
            entrants: entrants
                .iter()
                .map(|e| EntrantView {
                    name: e.name.clone(),
                    rating: e.rating,
                    status: e.status.clone(),
                    joined_round: e.joined_round,
                })
                .collect(),
            boards: boards
                .iter()
                .map(|b| BoardView {
                    round: b.round,
                    board: b.board,
                    game_id: b.game_id,
                    south: name(b.south),
                    north: b.north.map(name),
                    result: b.result.clone(),
                    berserk_south: b.berserk[0],
                    berserk_north: b.berserk[1],
                    moves: b.moves,
                    started_ms: b.started_ms,
                    ended_ms: b.ended_ms,
                })
                .collect(),
            standings,
            me,
            now_ms,
        })
    }
}

fn swiss_standings(
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    name: &dyn Fn(i64) -> String,
) -> Result<Vec<StandingView>, String> {
    let players = tournament::swiss_players(entrants);
    let rounds = tournament::swiss_rounds(boards);
    let table = sowing_swiss::standings(&players, &rounds).map_err(|e| e.to_string())?;
    Ok(table
        .iter()
        .map(|s| StandingView {
            rank: s.rank,
            name: name(tournament::swiss_account(s.player)),
            points: s.points.points(),
            buchholz: Some(s.buchholz.points()),
            sonneborn_berger: Some(s.sonneborn_berger.points()),
            performance: None,
            sheet: None,
            on_fire: false,
            games: s.games,
        })
        .collect())
}

fn arena_standings(
    row: &TournamentRow,
    entrants: &[EntrantRow],
    boards: &[BoardRow],
    name: &dyn Fn(i64) -> String,
) -> Result<Vec<StandingView>, String> {
    let arena = tournament::arena_of(row, entrants, boards)?;
    Ok(arena
        .standings()
        .into_iter()
        .map(|s| StandingView {
            rank: s.rank,
            name: name(tournament::arena_account(s.player)),
            points: f64::from(s.points),
            buchholz: None,
            sonneborn_berger: None,
            performance: s.performance,
            sheet: Some(s.sheet),
            on_fire: s.on_fire,
            games: s.games,
        })
        .collect())
}
