//! Puzzles on the server (docs/puzzles.md, "On the server"): a first set mined in the
//! background once tables are there, puzzles from every finished game, a puzzle near a
//! rating, the daily puzzle, and results rated by Glicko-2.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sowing_engine::random::Rng;
use sowing_engine::TableSet;
use sowing_puzzles::{sources, Miner, Puzzle};
use sowing_tables::Tables;

use crate::ratings::Rating;
use crate::services::first_tables::first_games;
use crate::services::games::{blocking, GameError, Games};
use crate::store::{NewPuzzle, PuzzleOutcome, PuzzleRow, Store, StoreError, StoreResult};

/// Puzzles of each game (default options) the server mines from self-play when it has
/// fewer.
pub const FIRST_SET: usize = 2000;

/// How often the server looks for tables to mine and finished games not mined yet.
pub const MINE_EVERY: Duration = Duration::from_secs(10);

/// Finished games mined in one round.
const GAMES_A_ROUND: usize = 20;

/// The tables whose first set was mined in this process (directory, family, largest
/// layer): tables too small to give [`FIRST_SET`] puzzles are not mined again every round.
static FIRST_SETS_MINED: Mutex<Vec<(PathBuf, String, usize)>> = Mutex::new(Vec::new());

/// The self-play seed of the first set: every server mines the same first puzzles.
const FIRST_SEED: u64 = 1;

/// Milliseconds in a day: the daily puzzle changes at midnight UTC.
const DAY_MS: i64 = 86_400_000;

/// A mined puzzle as the store keeps it.
fn new_puzzle(puzzle: Puzzle, game_id: Option<i64>) -> NewPuzzle {
    NewPuzzle {
        variant: puzzle.game,
        position: puzzle.position,
        moves: puzzle.moves.join(" "),
        value: puzzle.value,
        themes: puzzle.themes.join(" "),
        rating: f64::from(puzzle.rating),
        source: puzzle.source,
        game_id,
    }
}

/// The tables of `rules`, or `None` (not built, or unreadable: logged).
fn tables_of(set: &TableSet, rules: sowing::Rules) -> Option<Arc<Tables>> {
    match set.tables(rules) {
        Ok(tables) => tables,
        Err(e) => {
            tracing::warn!(error = %e, "puzzles: cannot open the tables");
            None
        }
    }
}

/// The first sets to mine now: the games whose tables are there, not mined from in this
/// process, with fewer than [`FIRST_SET`] puzzles. Each is marked as mined.
fn first_sets_due(store: &Store, set: &TableSet) -> StoreResult<Vec<(sowing::Rules, Arc<Tables>)>> {
    let mut due = Vec::new();
    for rules in first_games() {
        let Some(tables) = tables_of(set, rules) else {
            continue;
        };
        let key = (
            set.dir().to_path_buf(),
            tables.family().name(),
            tables.max_seeds(),
        );
        let mut mined = FIRST_SETS_MINED.lock().unwrap_or_else(|e| e.into_inner());
        if mined.contains(&key) || store.puzzle_count(rules.variant().name())? >= FIRST_SET as i64 {
            continue;
        }
        mined.push(key);
        due.push((rules, tables));
    }
    Ok(due)
}

/// The first set of `rules` from self-play, kept; how many were new.
fn mine_first_set(store: &Store, rules: sowing::Rules, tables: &Tables) -> StoreResult<usize> {
    let mut miner = Miner::new(tables, FIRST_SET);
    let mut next = 0;
    // Self-play in batches until the set is full (tables too small end it sooner).
    while !miner.full() && next < 64 * 256 {
        let positions = sources::self_play(tables, rules, FIRST_SEED, next..next + 256);
        if let Err(e) = miner.add(&positions, "self-play") {
            tracing::warn!(error = %e, "puzzles: mining self-play");
            break;
        }
        next += 256;
    }
    let puzzles = miner.into_puzzles();
    let count = puzzles.len();
    let new = store.add_puzzles(
        puzzles.into_iter().map(|p| new_puzzle(p, None)).collect(),
        None,
    )?;
    let game = rules.variant().name();
    tracing::info!(game, mined = count, new, "puzzles: first set mined");
    Ok(new)
}

/// The puzzles of finished game `id`, kept, the game marked as mined (also when it gives
/// none: no tables of its rules, or it no longer replays); how many were new.
fn mine_game(store: &Store, set: &TableSet, id: i64) -> StoreResult<usize> {
    let game = match store.load(id) {
        Ok(game) => game.map(|(_, game)| game),
        Err(StoreError::BadStart { .. } | StoreError::Unreplayable { .. }) => None,
        Err(e) => return Err(e),
    };
    let mut puzzles = Vec::new();
    if let Some(game) = game {
        if let Some(tables) = tables_of(set, game.rules()) {
            let mut miner = Miner::new(&tables, usize::MAX);
            match miner.add(&sources::of_game(&game), "game") {
                Ok(()) => puzzles = miner.into_puzzles(),
                Err(e) => tracing::warn!(game = id, error = %e, "puzzles: mining a game"),
            }
        }
    }
    store.add_puzzles(
        puzzles
            .into_iter()
            .map(|p| new_puzzle(p, Some(id)))
            .collect(),
        Some(id),
    )
}

/// One round of mining, on one core of its own (the server keeps the others): the first
/// sets due, then a batch of finished games. How many puzzles were added.
fn mine_round(store: &Store, set: &TableSet) -> StoreResult<usize> {
    let firsts = first_sets_due(store, set)?;
    let games = store.unmined_games(GAMES_A_ROUND)?;
    if firsts.is_empty() && games.is_empty() {
        return Ok(0);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| StoreError::Database(format!("a mining thread: {e}")))?;
    pool.install(|| {
        let mut added = 0;
        for (rules, tables) in firsts {
            added += mine_first_set(store, rules, &tables)?;
        }
        for id in games {
            added += mine_game(store, set, id)?;
        }
        Ok(added)
    })
}

/// A puzzle asked for, with the player's puzzle rating when signed in.
pub(crate) struct Asked {
    /// The puzzle.
    pub puzzle: PuzzleRow,
    /// The signed-in player's puzzle rating in its game.
    pub player: Option<Rating>,
    /// The day it is the daily puzzle of (days since 1970-01-01, UTC).
    pub day: Option<i64>,
}

impl Games {
    /// One round of the background mining (what `sow serve` runs every [`MINE_EVERY`]): the
    /// first set of each game that lacks it, then finished games not mined yet; how many
    /// puzzles were added. Nothing without tables.
    pub async fn mine_puzzles(&self) -> Result<usize, GameError> {
        let Some(set) = self.table_set() else {
            return Ok(0);
        };
        let store = self.store.clone();
        blocking(move || mine_round(&store, &set)).await
    }

    /// A puzzle of `variant` near `rating` (by default the account's puzzle rating, else a
    /// new player's), with one of `themes` if given, none of `exclude`, none the account
    /// has tried. `None` when no puzzle fits.
    pub(crate) async fn next_puzzle(
        &self,
        variant: String,
        rating: Option<f64>,
        themes: Vec<String>,
        exclude: Vec<i64>,
        account: Option<i64>,
    ) -> Result<Option<Asked>, GameError> {
        let store = self.store.clone();
        let pick = Rng::from_entropy().next_u64();
        blocking(move || {
            let player = account
                .map(|a| store.puzzle_rating(a, &variant))
                .transpose()?;
            let target = rating
                .or(player.map(|p| p.rating))
                .unwrap_or(Rating::default().rating);
            let puzzle = store.puzzle_near(&variant, target, &themes, &exclude, account, pick)?;
            Ok(puzzle.map(|puzzle| Asked {
                puzzle,
                player,
                day: None,
            }))
        })
        .await
    }

    /// Today's puzzle of `variant`, the same for everyone.
    pub(crate) async fn daily_puzzle(
        &self,
        variant: String,
        account: Option<i64>,
    ) -> Result<Option<Asked>, GameError> {
        let store = self.store.clone();
        let day = self.now_ms().div_euclid(DAY_MS);
        blocking(move || {
            let player = account
                .map(|a| store.puzzle_rating(a, &variant))
                .transpose()?;
            Ok(store.daily_puzzle(&variant, day)?.map(|puzzle| Asked {
                puzzle,
                player,
                day: Some(day),
            }))
        })
        .await
    }

    /// Puzzle `id`.
    pub(crate) async fn puzzle(&self, id: i64) -> Result<Option<PuzzleRow>, GameError> {
        let store = self.store.clone();
        blocking(move || store.puzzle(id)).await
    }

    /// Rates a result on puzzle `id` (see [`Store::puzzle_result`]).
    pub(crate) async fn puzzle_result(
        &self,
        id: i64,
        account: Option<i64>,
        anonymous: Rating,
        solved: bool,
    ) -> Result<Option<PuzzleOutcome>, GameError> {
        let store = self.store.clone();
        let now = self.now_ms();
        blocking(move || store.puzzle_result(id, account, anonymous, solved, now)).await
    }
}
