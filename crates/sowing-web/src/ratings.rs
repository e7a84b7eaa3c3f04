//! Ratings of accounts in live games: Glicko-2 (Glickman, "Example of the Glicko-2 system",
//! 2013), computed by the `skillratings` crate, one rating per game (`hoyito-ii`,
//! `hoyito-iii`, `ayoayo`) and per speed (the live clock's time control, [`Speed`]).
//!
//! Each rated game is a rating period of its own for both players (as on the big chess
//! sites): their ratings move at once, by [`after_game`]. The system constant τ is 0.5 and a
//! new player starts at 1500, deviation 350, volatility 0.06 (Glickman's suggestions). A
//! rating whose deviation is above [`PROVISIONAL_DEVIATION`] is shown as provisional.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A Glicko-2 rating: the rating, its deviation (RD) and its volatility (σ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// The rating deviation (350 at the start): how unsure the rating is.
    pub deviation: f64,
    /// The volatility (0.06 at the start): how erratic the player's results are.
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player's rating: 1500, RD 350, σ 0.06.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// A rating whose deviation is above this is provisional (shown with a `?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The system constant τ (Glickman suggests 0.3 to 1.2; his example uses 0.5).
const TAU: f64 = 0.5;

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// Both players' ratings after one game between them: `south_score` is 1 for a South win,
/// 0 for a North win, ½ for a draw (any other number reads as a draw).
pub fn after_game(south: Rating, north: Rating, south_score: f64) -> (Rating, Rating) {
    let outcome = if south_score >= 1.0 {
        Outcomes::WIN
    } else if south_score <= 0.0 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (s, n) = glicko2(&south.into(), &north.into(), &outcome, &config());
    (s.into(), n.into())
}

/// A rating period of several games (Glickman's example): the player's rating after
/// `results`, each an opponent's rating and the player's score (1, ½ or 0).
pub fn after_period(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|&(opponent, score)| {
            let outcome = if score >= 1.0 {
                Outcomes::WIN
            } else if score <= 0.0 {
                Outcomes::LOSS
            } else {
                Outcomes::DRAW
            };
            (opponent.into(), outcome)
        })
        .collect();
    skillratings::glicko2::glicko2_rating_period(&player.into(), &results, &config()).into()
}

/// How fast a live game is, from its clock: the estimated time a side spends,
/// `base + 40 × increment`, as the chess sites reckon it (docs/api.md, "Ratings").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Under 3 minutes (the page's 1 min).
    Bullet,
    /// 3 to under 8 minutes (3 + 2, 5 + 3).
    Blitz,
    /// 8 to under 25 minutes (10 + 5).
    Rapid,
    /// 25 minutes or more (30 min).
    Classical,
    /// No clock.
    Unlimited,
    /// Days per move (a correspondence clock).
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Unlimited,
    ];

    /// The speed of a live game's clock (`None`: unlimited): correspondence for days per
    /// move, else by [`Speed::of`].
    pub fn of_clock(clock: Option<&crate::clock::LiveClock>) -> Speed {
        match clock {
            Some(c) if c.per_move => Speed::Correspondence,
            clock => Speed::of(clock.map(|c| (c.base_ms, c.increment_ms))),
        }
    }

    /// The speed of a clock of `base_ms` a side plus `increment_ms` a move; `None` is no
    /// clock.
    pub fn of(clock: Option<(i64, i64)>) -> Speed {
        let Some((base_ms, increment_ms)) = clock else {
            return Speed::Unlimited;
        };
        let estimate_s = (base_ms + 40 * increment_ms) / 1000;
        match estimate_s {
            s if s < 180 => Speed::Bullet,
            s if s < 480 => Speed::Blitz,
            s if s < 1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// Its name in the API: `bullet`, `blitz`, `rapid`, `classical`, `unlimited`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Unlimited => "unlimited",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of a name, if it is one.
    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman's worked example ("Example of the Glicko-2 system", 2013): a player rated
    /// 1500 (RD 200, σ 0.06) beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700
    /// (RD 300) in one period: 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = after_period(
            player,
            &[
                (opponent(1400.0, 30.0), 1.0),
                (opponent(1550.0, 100.0), 0.0),
                (opponent(1700.0, 300.0), 0.0),
            ],
        );
        // The paper rounds its steps to four places on the Glicko-2 scale (μ' = −0.2069,
        // φ' = 0.8722: half a unit there is 0.0087 on the rating scale) and then to two
        // (0.005 more); exact arithmetic gives 1464.0507, 151.5165 and 0.0599960.
        assert!(close(after.rating, 1464.06, 0.0137), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.0137), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.000_01), "{after:?}");
        assert!(close((after.rating - 1500.0) / 173.7178, -0.2069, 0.000_05));
        assert!(close(after.deviation / 173.7178, 0.8722, 0.000_05));
    }

    #[test]
    fn one_game_moves_both_ratings_as_a_period_of_one_game_each() {
        let (south, north) = (Rating::default(), Rating::default());
        let (s, n) = after_game(south, north, 1.0);
        assert_eq!(s, after_period(south, &[(north, 1.0)]));
        assert_eq!(n, after_period(north, &[(south, 0.0)]));
        assert!(s.rating > 1500.0 && n.rating < 1500.0);
        assert!(close(s.rating - 1500.0, 1500.0 - n.rating, 1e-9));
        let (ds, dn) = after_game(south, north, 0.5);
        assert!(close(ds.rating, 1500.0, 1e-9) && close(dn.rating, 1500.0, 1e-9));
        assert!(ds.deviation < 350.0);
    }

    #[test]
    fn each_clock_of_the_page_has_its_speed() {
        let speed = |base_s: i64, inc_s: i64| Speed::of(Some((base_s * 1000, inc_s * 1000)));
        assert_eq!(speed(60, 0), Speed::Bullet);
        assert_eq!(speed(180, 2), Speed::Blitz);
        assert_eq!(speed(300, 3), Speed::Blitz);
        assert_eq!(speed(600, 5), Speed::Rapid);
        assert_eq!(speed(1800, 0), Speed::Classical);
        assert_eq!(Speed::of(None), Speed::Unlimited);
        // The edges: 3 minutes is blitz, 8 rapid, 25 classical.
        assert_eq!(speed(179, 0), Speed::Bullet);
        assert_eq!(speed(180, 0), Speed::Blitz);
        assert_eq!(speed(480, 0), Speed::Rapid);
        assert_eq!(speed(1500, 0), Speed::Classical);
        for s in Speed::ALL {
            assert_eq!(Speed::from_name(s.name()), Some(s));
        }
    }
}
