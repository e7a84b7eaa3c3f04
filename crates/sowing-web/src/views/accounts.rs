//! The JSON shapes of accounts, profiles, ratings and leaderboards (docs/api.md,
//! "Accounts" and "Ratings").

use serde::Serialize;

use crate::ratings::{Rating, PROVISIONAL_DEVIATION};
use crate::store::{AccountRow, RatedGameRow, RatingRow};

/// An account as anyone may see it.
#[derive(Clone, Debug, Serialize)]
pub struct AccountView {
    /// Its name.
    pub name: String,
    /// What the player says about themselves (shown as text).
    pub about: String,
    /// When it was made (UTC).
    pub created: String,
}

impl AccountView {
    /// The public part of an account's row (never its password hash or owner hash).
    pub fn of(row: &AccountRow) -> AccountView {
        AccountView {
            name: row.name.clone(),
            about: row.about.clone(),
            created: row.created.clone(),
        }
    }
}

/// `GET /api/account` and the answers of signing up and in: the session's account, or null.
#[derive(Clone, Debug, Serialize)]
pub struct SessionView {
    /// The signed-in account, or null.
    pub account: Option<AccountView>,
    /// Games that moved into the account from the player key presented (signing up or in).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<usize>,
    /// Sessions ended (signing out everywhere, a new password, a recovery).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<usize>,
    /// Recovery codes, shown once: a new account's, or new ones that ended the old.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_codes: Option<Vec<String>>,
}

/// A rating as shown: the numbers and whether it is provisional.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RatingNumbers {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD).
    pub deviation: f64,
    /// Its volatility (σ).
    pub volatility: f64,
    /// Rated games played at it.
    pub games: u32,
    /// Deviation above 110: not settled yet (shown with a `?`).
    pub provisional: bool,
}

impl RatingNumbers {
    /// The numbers of `rating` after `games` rated games.
    pub fn of(rating: Rating, games: u32) -> RatingNumbers {
        RatingNumbers {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
            games,
            provisional: rating.deviation > PROVISIONAL_DEVIATION,
        }
    }
}

/// One rating of a profile.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileRating {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// `bullet`, `blitz`, `rapid`, `classical` or `unlimited`.
    pub speed: String,
    /// The numbers.
    #[serde(flatten)]
    pub numbers: RatingNumbers,
}

/// Wins, losses and draws in one game, over the rated games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Results {
    /// The game.
    pub game: String,
    /// Won.
    pub wins: u32,
    /// Lost.
    pub losses: u32,
    /// Drawn.
    pub draws: u32,
}

/// A rated game as the profile lists it, from the profile's player's side.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileGame {
    /// The game's id (`GET /api/games/{id}`).
    pub id: i64,
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: String,
    /// Its speed.
    pub speed: String,
    /// The profile's player's side.
    pub side: &'static str,
    /// The opponent's name.
    pub opponent: String,
    /// `win`, `loss` or `draw`.
    pub result: &'static str,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// When it was rated, Unix ms.
    pub at_ms: i64,
}

/// `GET /api/accounts/{name}`.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileView {
    /// The account.
    #[serde(flatten)]
    pub account: AccountView,
    /// Its ratings, by game and speed.
    pub ratings: Vec<ProfileRating>,
    /// Wins, losses and draws by game.
    pub results: Vec<Results>,
    /// The last rated games, newest first.
    pub games: Vec<ProfileGame>,
}

impl ProfileView {
    /// The profile of `account` from its ratings and its rated games (newest first).
    pub fn new(account: &AccountRow, ratings: &[RatingRow], games: &[RatedGameRow]) -> ProfileView {
        let games: Vec<ProfileGame> = games
            .iter()
            .map(|g| {
                let seat = usize::from(g.accounts[0] != account.id);
                let side = ["south", "north"][seat];
                ProfileGame {
                    id: g.game_id,
                    game: g.variant.clone(),
                    speed: g.speed.clone(),
                    side,
                    opponent: g.names[1 - seat].clone(),
                    result: match g.outcome.as_str() {
                        "draw" => "draw",
                        o if o == side => "win",
                        _ => "loss",
                    },
                    before: g.before[seat],
                    after: g.after[seat],
                    at_ms: g.at_ms,
                }
            })
            .collect();
        let mut results: Vec<Results> = Vec::new();
        for g in &games {
            let index = match results.iter().position(|r| r.game == g.game) {
                Some(i) => i,
                None => {
                    results.push(Results {
                        game: g.game.clone(),
                        ..Results::default()
                    });
                    results.len() - 1
                }
            };
            let r = &mut results[index];
            match g.result {
                "win" => r.wins += 1,
                "loss" => r.losses += 1,
                _ => r.draws += 1,
            }
        }
        results.sort_by(|a, b| a.game.cmp(&b.game));
        ProfileView {
            account: AccountView::of(account),
            ratings: ratings
                .iter()
                .map(|r| ProfileRating {
                    game: r.variant.clone(),
                    speed: r.speed.clone(),
                    numbers: RatingNumbers::of(r.rating, r.games),
                })
                .collect(),
            results,
            games,
        }
    }
}

/// One row of a leaderboard.
#[derive(Clone, Debug, Serialize)]
pub struct Leader {
    /// 1 for the best.
    pub rank: usize,
    /// The account's name.
    pub name: String,
    /// The numbers.
    #[serde(flatten)]
    pub numbers: RatingNumbers,
}

/// `GET /api/leaderboard`.
#[derive(Clone, Debug, Serialize)]
pub struct LeaderboardView {
    /// The game.
    pub game: String,
    /// The speed.
    pub speed: String,
    /// Best first.
    pub players: Vec<Leader>,
}

impl LeaderboardView {
    /// The leaderboard of `game` at `speed` from its rows, best first.
    pub fn new(game: &str, speed: &str, rows: &[RatingRow]) -> LeaderboardView {
        LeaderboardView {
            game: game.to_owned(),
            speed: speed.to_owned(),
            players: rows
                .iter()
                .enumerate()
                .map(|(i, r)| Leader {
                    rank: i + 1,
                    name: r.name.clone(),
                    numbers: RatingNumbers::of(r.rating, r.games),
                })
                .collect(),
        }
    }
}
