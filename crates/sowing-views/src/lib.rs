//! A game's parts as JSON, field for field as `docs/api.md` shows them: positions, rules,
//! the history, the end and a move's trace. The server's API and the page's engine in
//! WebAssembly (`sowing-wasm`) both answer with these, so a game played offline looks to
//! the page exactly like one the server keeps.

use serde::Serialize;
use sowing::{End, Event, Game, Position, RuleOption, Rules, Side, TakeReason};

/// A position in short: `{"pits": [...], "captured": [s, n], "to_move": "south"}`.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// Seeds in each pit, in ring order.
    pub pits: Vec<u8>,
    /// Seeds captured: [South, North].
    pub captured: [u8; 2],
    /// `south` or `north`.
    pub to_move: &'static str,
}

impl Snapshot {
    /// The snapshot of `position`.
    pub fn of(position: &Position) -> Snapshot {
        let captured = position.captured();
        Snapshot {
            pits: position.pits().to_vec(),
            captured: [captured.south, captured.north],
            to_move: position.to_move().name(),
        }
    }
}

/// The rules a game is played under: the game, its board, and every rule option of the
/// rules crate's table by its JSON field (`casa_rows` …), the options a game does not have
/// at their defaults.
#[derive(Clone, Debug)]
pub struct RulesView {
    /// `hoyito-ii`, `hoyito-iii` or `ayoayo`.
    pub game: &'static str,
    /// Pits per row.
    pub pits: usize,
    /// Each option's field and value, in the table's order.
    pub options: Vec<(&'static str, &'static str)>,
}

impl RulesView {
    /// The view of `rules`.
    pub fn of(rules: Rules) -> RulesView {
        RulesView {
            game: rules.variant().name(),
            pits: rules.pits_per_row(),
            options: RuleOption::all()
                .iter()
                .map(|o| (o.field, rules.option(o.name).unwrap_or(o.default_value())))
                .collect(),
        }
    }
}

impl Serialize for RulesView {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(2 + self.options.len()))?;
        map.serialize_entry("game", self.game)?;
        map.serialize_entry("pits", &self.pits)?;
        for (field, value) in &self.options {
            map.serialize_entry(field, value)?;
        }
        map.end()
    }
}

/// One move of the history, with the position after it.
#[derive(Clone, Debug, Serialize)]
pub struct HistoryEntry {
    /// The move's number, from 1.
    pub ply: usize,
    /// Its name.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it.
    pub side: &'static str,
    /// The position after it.
    pub after: Snapshot,
}

/// How a game ended: `{"reason": code, "to": side or null, "text": words}`.
#[derive(Clone, Debug, Serialize)]
pub struct EndView {
    /// `board-cleared`, `last-four`, `cannot-feed` or `repetition`.
    pub reason: &'static str,
    /// Who took the last four, for `last-four`.
    pub to: Option<&'static str>,
    /// In words, for people.
    pub text: String,
}

impl EndView {
    /// The view of `end`.
    pub fn of(end: End) -> EndView {
        EndView {
            reason: end.code(),
            to: end.side().map(Side::name),
            text: end.describe(),
        }
    }
}

/// Why seeds were taken, in a trace.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TakeWhy {
    /// A capture.
    Capture,
    /// The last four of a Hoyito game.
    LastFour,
    /// The seeds left at the end of an Ayoayo game.
    Leftover,
}

/// One step of a move's trace, for the page's animation: `pit` is the ring index, `name`
/// its letter.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TraceEvent {
    /// Seeds lifted from a pit (`relay`: by a relay, not the move itself).
    Lift {
        /// The pit.
        pit: usize,
        /// Its letter.
        name: String,
        /// Seeds lifted.
        seeds: u8,
        /// Whether a relay lifted them.
        relay: bool,
    },
    /// One seed dropped.
    Drop {
        /// The pit.
        pit: usize,
        /// Its letter.
        name: String,
    },
    /// A pit skipped (Ayoayo skips the pit a lap came from).
    Skip {
        /// The pit.
        pit: usize,
        /// Its letter.
        name: String,
    },
    /// Seeds taken from a pit.
    Take {
        /// The pit.
        pit: usize,
        /// Its letter.
        name: String,
        /// Seeds taken.
        seeds: u8,
        /// Who took them.
        by: &'static str,
        /// Why.
        why: TakeWhy,
    },
    /// The mover plays again.
    ExtraTurn,
    /// The move was a pass.
    Pass,
}

impl TraceEvent {
    /// The trace step of `event` on a board of `n` pits a row.
    pub fn of(event: Event, n: usize) -> TraceEvent {
        let name = |p: sowing::Pit| p.letter(n).to_string();
        match event {
            Event::Lift { pit, seeds, relay } => TraceEvent::Lift {
                pit: pit.index(),
                name: name(pit),
                seeds,
                relay,
            },
            Event::Drop { pit } => TraceEvent::Drop {
                pit: pit.index(),
                name: name(pit),
            },
            Event::Skip { pit } => TraceEvent::Skip {
                pit: pit.index(),
                name: name(pit),
            },
            Event::Take {
                pit,
                seeds,
                by,
                why,
            } => TraceEvent::Take {
                pit: pit.index(),
                name: name(pit),
                seeds,
                by: by.name(),
                why: match why {
                    TakeReason::Capture => TakeWhy::Capture,
                    TakeReason::LastFour => TakeWhy::LastFour,
                    TakeReason::Leftover => TakeWhy::Leftover,
                },
            },
            Event::ExtraTurn => TraceEvent::ExtraTurn,
            Event::Pass => TraceEvent::Pass,
        }
    }

    /// The trace of a whole move.
    pub fn all(events: &[Event], n: usize) -> Vec<TraceEvent> {
        events.iter().map(|e| TraceEvent::of(*e, n)).collect()
    }
}

/// Every move of `game` with the position after it.
pub fn history(game: &Game) -> Vec<HistoryEntry> {
    let n = game.rules().pits_per_row();
    game.moves()
        .iter()
        .enumerate()
        .filter_map(|(ply, mv)| {
            let before = game.position_at(ply)?;
            let after = game.position_at(ply + 1)?;
            Some(HistoryEntry {
                ply: ply + 1,
                mv: mv.name(n).to_string(),
                side: before.to_move().name(),
                after: Snapshot::of(after),
            })
        })
        .collect()
}

/// One move of a game again, with its trace, for replaying it with the animation.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReplay {
    /// The move's number, from 1.
    pub ply: usize,
    /// Its name.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who played it.
    pub side: &'static str,
    /// The position before it.
    pub before: Snapshot,
    /// The position after it.
    pub after: Snapshot,
    /// The sowing, step by step.
    pub trace: Vec<TraceEvent>,
}

impl MoveReplay {
    /// Move `ply` (from 1) of `game` played again from the position before it, with its
    /// trace; `None` when the game has no such move.
    ///
    /// # Errors
    /// When a move of `game` does not replay from the position before it (a corrupt game).
    pub fn of(game: &Game, ply: usize) -> Result<Option<MoveReplay>, sowing::PlayError> {
        let (Some(&mv), Some(&before), Some(after)) = (
            game.moves().get(ply.wrapping_sub(1)),
            game.position_at(ply.wrapping_sub(1)),
            game.position_at(ply),
        ) else {
            return Ok(None);
        };
        let mut position = before;
        let mut trace = Vec::new();
        position.play_traced(mv, &mut trace)?;
        let n = game.rules().pits_per_row();
        Ok(Some(MoveReplay {
            ply,
            mv: mv.name(n).to_string(),
            side: before.to_move().name(),
            before: Snapshot::of(&before),
            after: Snapshot::of(after),
            trace: TraceEvent::all(&trace, n),
        }))
    }
}
