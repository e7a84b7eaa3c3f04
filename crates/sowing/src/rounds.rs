//! Hoyito III matches of several rounds (H3.3).

use crate::{BySide, FinalFour, Game, Outcome, Position, Rules, Side};

/// A match of R rounds under H3.3: each round from the start position, the starter
/// alternating (South first); in rounds 1 and 2 the last four go to the capturer, from
/// round 3 on to the winner of the previous round (the capturer if it was drawn).
///
/// ```
/// use sowing::{FinalFour, Match, Rules, Side, Variant};
///
/// let m = Match::new(Rules::new(Variant::HoyitoIII), 5);
/// let start = m.next_start().unwrap();
/// assert_eq!(start.to_move(), Side::South);
/// assert_eq!(start.rules().final_four, FinalFour::Capturer);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    rules: Rules,
    rounds: usize,
    /// Each finished round: the seeds each side captured and the result.
    results: Vec<(BySide<u8>, Outcome)>,
}

impl Match {
    /// The usual number of rounds.
    pub const DEFAULT_ROUNDS: usize = 5;

    /// The rule option a match sets itself, round by round ([`Match::round_start`]), so
    /// that it is not given for a match.
    pub const DECIDES: &'static str = "final-four";

    /// A match of `rounds` rounds of `rules` (its `final_four` setting is decided per round).
    pub fn new(rules: Rules, rounds: usize) -> Match {
        Match {
            rules,
            rounds,
            results: Vec::new(),
        }
    }

    /// The number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The finished rounds: seeds captured by each side, and the result.
    pub fn results(&self) -> &[(BySide<u8>, Outcome)] {
        &self.results
    }

    /// The round to be played next, from 1; `rounds + 1` once the match is over.
    pub fn round(&self) -> usize {
        self.results.len() + 1
    }

    /// The start of the next round, with its starter and last-four rule; `None` once over.
    pub fn next_start(&self) -> Option<Position> {
        (!self.is_over())
            .then(|| Match::round_start(self.rules, self.round(), self.results.last().map(|r| r.1)))
    }

    /// The start of round `round` (from 1) of a match of `rules`, after a previous round
    /// that ended with `previous`: the starter alternates from South, and the last four go
    /// to the capturer in rounds 1 and 2, then to the previous round's winner (the capturer
    /// after a draw).
    pub fn round_start(rules: Rules, round: usize, previous: Option<Outcome>) -> Position {
        let mut rules = rules;
        rules.final_four = match previous {
            Some(Outcome::Win(winner)) if round >= 3 => FinalFour::To(winner),
            _ => FinalFour::Capturer,
        };
        let starter = if round % 2 == 1 {
            Side::South
        } else {
            Side::North
        };
        let start = Position::start(rules);
        Position::from_parts(rules, start.pits(), BySide::default(), starter, None)
            .expect("the start pits are valid")
    }

    /// Records a finished round, played from [`Match::next_start`].
    ///
    /// # Errors
    /// When the game is not over, or the match is.
    pub fn record(&mut self, game: &Game) -> Result<(), &'static str> {
        let outcome = game.outcome().ok_or("the round is not over")?;
        self.record_result(game.position().captured(), outcome)
    }

    /// Records a finished round by its captures and result, for callers that keep the games
    /// elsewhere (a database).
    ///
    /// # Errors
    /// When the match is over.
    pub fn record_result(
        &mut self,
        captured: BySide<u8>,
        outcome: Outcome,
    ) -> Result<(), &'static str> {
        if self.is_over() {
            return Err("the match is over");
        }
        self.results.push((captured, outcome));
        Ok(())
    }

    /// Whether every round has been played.
    pub fn is_over(&self) -> bool {
        self.results.len() >= self.rounds
    }

    /// Rounds won by each side.
    pub fn wins(&self) -> BySide<usize> {
        let mut wins = BySide::default();
        for (_, outcome) in &self.results {
            if let Outcome::Win(side) = outcome {
                wins[*side] += 1;
            }
        }
        wins
    }

    /// Seeds captured by each side over all rounds.
    pub fn seeds(&self) -> BySide<usize> {
        let mut seeds = BySide::default();
        for (captured, _) in &self.results {
            seeds.south += usize::from(captured.south);
            seeds.north += usize::from(captured.north);
        }
        seeds
    }

    /// The match result once over: more rounds won, else more seeds over all rounds, else
    /// a draw.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let (wins, seeds) = (self.wins(), self.seeds());
        Some(if wins.south != wins.north {
            Outcome::Win(if wins.south > wins.north {
                Side::South
            } else {
                Side::North
            })
        } else if seeds.south != seeds.north {
            Outcome::Win(if seeds.south > seeds.north {
                Side::South
            } else {
                Side::North
            })
        } else {
            Outcome::Draw
        })
    }
}
