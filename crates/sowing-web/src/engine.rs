//! Engine work off the async runtime: each request runs on a blocking thread with a time
//! limit and a stop flag, and at most a few run at once, so a slow search never holds up the
//! requests that only play moves.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use sowing::{Game, Move, Side};
use sowing_engine::{Info, Limits, PlayerSpec, Score};
use tokio::sync::Semaphore;

/// The engine used for hints and the evaluation bar when the request names none; the
/// fallback is used while the levels are not available.
pub const HINT_ENGINE: &str = "level:6";
const HINT_FALLBACK: &str = "greedy";

/// The longest an engine request may think.
pub const MAX_TIME: Duration = Duration::from_secs(30);

/// How long a search may overrun its time limit before the request gives up on it.
const GRACE: Duration = Duration::from_secs(2);

/// What the engine answered.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// The engine that answered, as a spec.
    pub engine: String,
    /// The move chosen.
    #[serde(rename = "move")]
    pub mv: String,
    /// The evaluation, if the engine reported one.
    pub score: Option<Evaluation>,
    /// Depth completed, if reported.
    pub depth: Option<u32>,
    /// Nodes searched, if reported.
    pub nodes: Option<u64>,
    /// The principal variation, if reported.
    pub pv: Vec<String>,
    /// Why another engine than the one asked for answered, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The chosen move itself, not serialised.
    #[serde(skip)]
    pub chosen: Option<Move>,
}

/// An evaluation from South's point of view (the bar is drawn that way whoever moves).
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    /// `estimate` (in seeds) or `proven` (the final margin with best play).
    pub kind: &'static str,
    /// Seeds South is ahead by (negative: North is ahead).
    pub south: f64,
    /// The score as the engine prints it, for the side to move.
    pub text: String,
}

fn evaluation(score: Score, to_move: Side) -> Evaluation {
    let sign = if to_move == Side::South { 1.0 } else { -1.0 };
    let (kind, seeds) = match score {
        Score::Estimate(centi) => ("estimate", f64::from(centi) / 100.0),
        Score::Proven(margin) => ("proven", f64::from(margin)),
    };
    Evaluation {
        kind,
        south: sign * seeds,
        text: score.to_string(),
    }
}

/// Why the engine could not answer.
#[derive(Debug)]
pub enum EngineError {
    /// The spec names no player this build knows.
    UnknownPlayer(String),
    /// Too many engine requests are running.
    Busy,
    /// The search did not come back in time even after being told to stop.
    NoAnswer,
}

/// Runs players with limits, a few at a time.
pub struct Engines {
    slots: Semaphore,
}

impl Engines {
    /// At most `parallel` searches at once (the machine's cores).
    pub fn new(parallel: usize) -> Engines {
        Engines {
            slots: Semaphore::new(parallel.max(1)),
        }
    }

    /// Parses a spec, falling back to greedy for the default hint engine while the levels
    /// are not built in.
    pub fn spec(text: Option<&str>) -> Result<(PlayerSpec, Option<String>), EngineError> {
        match text {
            Some(text) => text
                .parse::<PlayerSpec>()
                .map(|s| (s, None))
                .map_err(|e| EngineError::UnknownPlayer(e.to_string())),
            None => match HINT_ENGINE.parse::<PlayerSpec>() {
                Ok(spec) => Ok((spec, None)),
                Err(e) => Ok((
                    HINT_FALLBACK.parse().expect("greedy is always known"),
                    Some(format!("{e}; using {HINT_FALLBACK}")),
                )),
            },
        }
    }

    /// The move `spec` chooses in `game` (which must not be over) within `time`.
    pub async fn choose(
        &self,
        spec: PlayerSpec,
        seed: u64,
        game: Game,
        time: Duration,
    ) -> Result<Answer, EngineError> {
        let time = time.min(MAX_TIME);
        // Queue behind running searches only briefly: a request that waits longer than its
        // own time limit is answered "busy" instead.
        let permit = tokio::time::timeout(time + GRACE, self.slots.acquire())
            .await
            .map_err(|_| EngineError::Busy)?
            .map_err(|_| EngineError::Busy)?;
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            time: Some(time),
            stop: Some(stop.clone()),
            ..Limits::default()
        };
        let task = tokio::task::spawn_blocking(move || {
            let mut player = spec.build(seed);
            let mut last: Option<Info> = None;
            let mv = player.choose(&game, &limits, &mut |info| last = Some(info.clone()));
            (player.name(), mv, last, game)
        });
        let result = match tokio::time::timeout(time + GRACE, task).await {
            Ok(joined) => joined.ok(),
            Err(_) => {
                // Ask it to stop; the thread finishes on its own and its answer is dropped.
                stop.store(true, Ordering::Relaxed);
                None
            }
        };
        drop(permit);
        let (name, mv, info, game) = result.ok_or(EngineError::NoAnswer)?;
        let n = game.rules().pits_per_row();
        let to_move = game.position().to_move();
        Ok(Answer {
            engine: name,
            mv: mv.name(n).to_string(),
            score: info.as_ref().map(|i| evaluation(i.score, to_move)),
            depth: info.as_ref().map(|i| i.depth),
            nodes: info.as_ref().map(|i| i.nodes),
            pv: info
                .map(|i| i.pv.iter().map(|m| m.name(n).to_string()).collect())
                .unwrap_or_default(),
            note: None,
            chosen: Some(mv),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::{Rules, Variant};

    #[test]
    fn evaluation_is_from_south() {
        let e = evaluation(Score::Estimate(250), Side::North);
        assert_eq!(e.south, -2.5);
        assert_eq!(e.kind, "estimate");
        let e = evaluation(Score::Proven(4), Side::South);
        assert_eq!(e.south, 4.0);
    }

    #[test]
    fn unknown_spec_is_an_error_and_default_hint_always_answers() {
        assert!(matches!(
            Engines::spec(Some("nonsense")),
            Err(EngineError::UnknownPlayer(_))
        ));
        assert!(Engines::spec(None).is_ok());
    }

    #[tokio::test]
    async fn greedy_answers_a_legal_move() {
        let engines = Engines::new(1);
        let game = Game::new(Rules::new(Variant::HoyitoII));
        let answer = engines
            .choose(
                "greedy".parse().unwrap(),
                1,
                game.clone(),
                Duration::from_millis(100),
            )
            .await
            .unwrap_or_else(|_| panic!("no answer"));
        assert!(game.legal_moves().contains(&answer.chosen.unwrap()));
    }
}
