//! What a solution line shows, read from the rules' own trace of its moves
//! ([`Position::play_traced`]), never guessed from the board.

use sowing::{Event, Move, Position, TakeReason, Variant};

/// A theme of a puzzle. [`Theme::code`] is its stable name in files, the API and the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// A move of the mover sown in [`RELAY_LAPS`] laps or more: a long relay chain.
    RelayChain,
    /// A capture of two pits or more by one move: a chain of casas (Hoyito II, H2.5).
    CasaChain,
    /// The mover captures and, with the turn it gives, plays on in the line (H2.6).
    ExtraTurn,
    /// A move of the line is made while the other row is empty: it must feed (Ayoayo, A.5).
    Feeding,
    /// The last four are taken (H2.7, H3.2, H3.3).
    LastFour,
    /// A player of the line has no sowing move and passes (C.2, A.6).
    ForcedPass,
    /// The game ends as the player to move cannot feed, and the seeds left are swept up
    /// (Ayoayo, A.7).
    Sweep,
}

/// The laps (the first and its relays) from which a move counts as a relay chain.
pub const RELAY_LAPS: usize = 4;

impl Theme {
    /// Every theme, in the order the page lists them.
    pub const ALL: [Theme; 7] = [
        Theme::RelayChain,
        Theme::CasaChain,
        Theme::ExtraTurn,
        Theme::Feeding,
        Theme::LastFour,
        Theme::ForcedPass,
        Theme::Sweep,
    ];

    /// The stable name: `relay-chain`, `casa-chain`, `extra-turn`, `feeding`, `last-four`,
    /// `forced-pass` or `sweep`.
    pub const fn code(self) -> &'static str {
        match self {
            Theme::RelayChain => "relay-chain",
            Theme::CasaChain => "casa-chain",
            Theme::ExtraTurn => "extra-turn",
            Theme::Feeding => "feeding",
            Theme::LastFour => "last-four",
            Theme::ForcedPass => "forced-pass",
            Theme::Sweep => "sweep",
        }
    }

    /// The theme of a code, `None` for an unknown one.
    pub fn from_code(code: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.code() == code)
    }
}

/// The themes of the line `moves` from `start`, in [`Theme::ALL`]'s order.
///
/// # Panics
/// When a move of the line is not legal (the line comes from the tables' moves).
pub fn of_line(start: &Position, moves: &[Move]) -> Vec<Theme> {
    let mover = start.to_move();
    let variant = start.rules().variant();
    let mut found = [false; Theme::ALL.len()];
    let mut mark = |theme: Theme| found[theme as usize] = true;
    let mut position = *start;
    let mut trace = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        let side = position.to_move();
        if let Move::Sow(_) = mv {
            if variant == Variant::Ayoayo && position.seeds_in_row(!side) == 0 {
                mark(Theme::Feeding);
            }
        }
        trace.clear();
        let report = position
            .play_traced(mv, &mut trace)
            .expect("a line's moves are legal");
        let mut laps = 0;
        let mut pits_taken = 0;
        for event in &trace {
            match *event {
                Event::Lift { .. } => laps += 1,
                Event::Take {
                    why: TakeReason::Capture,
                    ..
                } => pits_taken += 1,
                Event::Take {
                    why: TakeReason::LastFour,
                    ..
                } => mark(Theme::LastFour),
                Event::Take {
                    why: TakeReason::Leftover,
                    ..
                } => mark(Theme::Sweep),
                Event::Pass => mark(Theme::ForcedPass),
                _ => {}
            }
        }
        if side == mover {
            if laps >= RELAY_LAPS {
                mark(Theme::RelayChain);
            }
            // An Ayoayo capture takes two pits (the opposite one and the capturing seed's).
            if variant == Variant::HoyitoII && pits_taken >= 2 {
                mark(Theme::CasaChain);
            }
            if report.extra_turn && i + 1 < moves.len() {
                mark(Theme::ExtraTurn);
            }
        }
    }
    Theme::ALL
        .into_iter()
        .filter(|&t| found[t as usize])
        .collect()
}
