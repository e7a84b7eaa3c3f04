//! The dense index: which table family a position belongs to, and its place in its layer.
//!
//! A layer holds every board with `n` seeds on it, the mover always South (a position with
//! North to move is rotated half a turn), times the few rule states the value depends on.
//! The board's rank is its place among the compositions of `n` into `2N` parts in the
//! combinatorial number system (stars and bars); `docs/tables.md` gives the formula.

use std::fmt;

use sowing::{BySide, CasaRows, FinalFour, Leftover, Position, Rules, Side, Variant};

/// The most seeds a layer may hold: a value is one signed byte, and `|V| ≤ n`.
pub const MAX_LAYER_SEEDS: usize = 127;

/// The largest ring (2×12).
const MAX_RING: usize = 2 * Rules::MAX_PITS_PER_ROW;

/// Binomial coefficients `C(n, k)` for `n < MAX_LAYER_SEEDS + MAX_RING`, `k < MAX_RING`.
struct Binomials([[u64; MAX_RING]; MAX_LAYER_SEEDS + MAX_RING]);

static BINOMIALS: Binomials = Binomials::new();

impl Binomials {
    const fn new() -> Binomials {
        let mut table = [[0u64; MAX_RING]; MAX_LAYER_SEEDS + MAX_RING];
        let mut n = 0;
        while n < MAX_LAYER_SEEDS + MAX_RING {
            table[n][0] = 1;
            let mut k = 1;
            while k < MAX_RING {
                table[n][k] = if n == 0 {
                    0
                } else {
                    // C(n, k) = C(n−1, k−1) + C(n−1, k), saturating: only small ones are used.
                    table[n - 1][k - 1].saturating_add(table[n - 1][k])
                };
                k += 1;
            }
            n += 1;
        }
        Binomials(table)
    }

    #[inline(always)]
    fn get(&self, n: usize, k: usize) -> u64 {
        self.0[n][k]
    }
}

/// `C(n, k)` for the sizes the index uses.
pub fn binomial(n: usize, k: usize) -> u64 {
    BINOMIALS.get(n, k)
}

/// The number of boards with `seeds` seeds in `pits` pits: `C(seeds + pits − 1, pits − 1)`.
pub fn boards(pits: usize, seeds: usize) -> u64 {
    binomial(seeds + pits - 1, pits - 1)
}

/// The rank of a board among those with the same number of seeds: with the bar positions
/// `b_j = c_0 + … + c_j + j` (j = 0 … P−2), `rank = Σ_j C(b_j, j + 1)`.
#[inline]
pub fn rank(pits: &[u8]) -> u64 {
    let mut rank = 0;
    let mut bar = 0usize;
    for (j, &count) in pits[..pits.len() - 1].iter().enumerate() {
        bar += usize::from(count);
        rank += BINOMIALS.get(bar + j, j + 1);
    }
    rank
}

/// The board of `seeds` seeds in `out.len()` pits with the given rank (inverse of [`rank`]).
pub fn unrank(mut rank: u64, seeds: usize, out: &mut [u8]) {
    let pits = out.len();
    // Bars from the last down: b_j is the largest b with C(b, j + 1) ≤ what is left.
    let mut upper = seeds + pits - 1; // every b_j < upper
    let mut next_bar = seeds + pits - 1; // the slot after the last bar
    for j in (0..pits - 1).rev() {
        let mut b = upper - 1;
        while BINOMIALS.get(b, j + 1) > rank {
            b -= 1;
        }
        rank -= BINOMIALS.get(b, j + 1);
        out[j + 1] = (next_bar - b - 1) as u8;
        next_bar = b;
        upper = b;
    }
    out[0] = next_bar as u8;
}

/// One set of tables: a game, a board size and the options that change values. Hoyito III
/// with `final-four=south` and `final-four=north` share one family (`final-four=fixed`):
/// seen from the mover, the last four go either to the mover or to the opponent, and that is
/// a rule state of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Family {
    variant: Variant,
    pits_per_row: usize,
    casa_rows: CasaRows,
    leftover: Leftover,
    fixed_final_four: bool,
}

/// The rule state of a position besides its board, as an index `0 … states − 1`.
///
/// - Hoyito III, `final-four=fixed`: 0 = the last four go to the mover, 1 = to the opponent;
/// - Ayoayo, `leftover=last-mover`: 0 = the opponent sowed last, 1 = the mover, 2 = nobody yet;
/// - otherwise there is one state, 0.
pub type RuleState = usize;

impl Family {
    /// The family of a set of rules.
    pub fn of(rules: Rules) -> Family {
        let rules = rules.normalized();
        Family {
            variant: rules.variant(),
            pits_per_row: rules.pits_per_row(),
            casa_rows: rules.casa_rows,
            leftover: rules.leftover,
            fixed_final_four: matches!(rules.effective_final_four(), FinalFour::To(_)),
        }
    }

    /// The game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Pits in each row.
    pub fn pits_per_row(&self) -> usize {
        self.pits_per_row
    }

    /// Pits on the board.
    pub fn pit_count(&self) -> usize {
        2 * self.pits_per_row
    }

    /// The rule states a board is stored with (1, 2 or 3).
    pub fn states(&self) -> usize {
        match self.variant {
            Variant::HoyitoIII if self.fixed_final_four => 2,
            Variant::Ayoayo if self.leftover == Leftover::LastMover => 3,
            _ => 1,
        }
    }

    /// Positions in the layer of `seeds` seeds: boards × states.
    pub fn layer_len(&self, seeds: usize) -> u64 {
        boards(self.pit_count(), seeds) * self.states() as u64
    }

    /// Every capture of this game takes a multiple of this many seeds off the board: 4 in
    /// Hoyito (a capture takes pits of exactly 4, H2.5 and H3.1, and the last four go
    /// whole, H2.7 and H3.2), 1 in Ayoayo (a capture takes whatever the opposite pit holds,
    /// A.4). So the exits of layer `n` land only in layers `n − step`, `n − 2·step`, ….
    pub fn capture_step(&self) -> usize {
        match self.variant {
            Variant::HoyitoII | Variant::HoyitoIII => 4,
            Variant::Ayoayo => 1,
        }
    }

    /// Whether a game from the start can reach a position with `seeds` seeds on the board:
    /// the start holds a multiple of [`Family::capture_step`] (48 or 96), and every capture
    /// takes such a multiple. The other layers hold only set-up positions.
    pub fn reachable(&self, seeds: usize) -> bool {
        seeds % self.capture_step() == 0
    }

    /// The layers the exits of layer `seeds` can land in, from the highest down:
    /// `seeds − step`, `seeds − 2·step`, … above 0 (an empty board is over and has no
    /// layer). A layer can be built once these are.
    pub fn layers_below(&self, seeds: usize) -> impl Iterator<Item = usize> {
        let step = self.capture_step();
        (1..=seeds / step)
            .map(move |k| seeds - k * step)
            .filter(|&n| n > 0)
    }

    /// The option codes written in a file header: casa rows (0 any, 1 opponent), leftover
    /// (0 last-mover, 1 holder), final four (0 capturer, 1 fixed).
    pub fn option_codes(&self) -> [u8; 3] {
        [
            (self.casa_rows == CasaRows::Opponent) as u8,
            (self.leftover == Leftover::Holder) as u8,
            self.fixed_final_four as u8,
        ]
    }

    /// The game code written in a file header: 1 Hoyito II, 2 Hoyito III, 3 Ayoayo.
    pub fn game_code(&self) -> u8 {
        match self.variant {
            Variant::HoyitoII => 1,
            Variant::HoyitoIII => 2,
            Variant::Ayoayo => 3,
        }
    }

    /// The family's name, used as its directory: the game, the board and the game's
    /// options from the rules' table, e.g. `hoyito-ii-2x6-casa-rows=any` (a fixed
    /// final four is `final-four=fixed`, whichever side it goes to).
    pub fn name(&self) -> String {
        let mut name = format!("{}-2x{}", self.variant, self.pits_per_row);
        for (option, value) in self.rules(0).options() {
            let value = if option == FinalFour::option() && self.fixed_final_four {
                "fixed"
            } else {
                value
            };
            name += &format!("-{}={value}", option.name);
        }
        name
    }

    /// Every family, once: the families of [`Rules::all`] (Hoyito III's `final-four`
    /// `south` and `north` make one).
    pub fn all() -> Vec<Family> {
        let mut out: Vec<Family> = Vec::new();
        for family in Rules::all().into_iter().map(Family::of) {
            if !out.contains(&family) {
                out.push(family);
            }
        }
        out
    }

    /// The rules of a stored position in `state`, South to move.
    pub fn rules(&self, state: RuleState) -> Rules {
        let mut rules = Rules::new(self.variant)
            .with_pits(self.pits_per_row)
            .expect("a family is made from valid rules");
        rules.casa_rows = self.casa_rows;
        rules.leftover = self.leftover;
        if self.fixed_final_four {
            rules.final_four = FinalFour::To(if state == 0 { Side::South } else { Side::North });
        }
        rules.normalized()
    }

    /// The position stored at `index` of layer `seeds`: South to move, nothing captured.
    pub fn position(&self, seeds: usize, index: u64) -> Position {
        let states = self.states() as u64;
        let (board, state) = (index / states, (index % states) as RuleState);
        let mut pits = [0u8; MAX_RING];
        let ring = self.pit_count();
        unrank(board, seeds, &mut pits[..ring]);
        let last_sower = match (self.variant, state) {
            (Variant::Ayoayo, 0) => Some(Side::North),
            (Variant::Ayoayo, 1) => Some(Side::South),
            _ => None,
        };
        Position::from_parts(
            self.rules(state),
            &pits[..ring],
            BySide::default(),
            Side::South,
            last_sower,
        )
        .expect("a layer's board fits the rules")
    }

    /// Where a position of this family is stored: its layer (seeds on the board) and index.
    /// A position with North to move is rotated so that the mover is South.
    ///
    /// # Panics
    /// When the position is of another family (check with [`Family::of`] first).
    #[inline]
    pub fn locate(&self, position: &Position) -> (usize, u64) {
        debug_assert_eq!(Family::of(position.rules()), *self);
        let mover = position.to_move();
        let ring = self.pit_count();
        let n = self.pits_per_row;
        let mut pits = [0u8; MAX_RING];
        let from = position.pits();
        let mut seeds = 0usize;
        for (i, pit) in pits[..ring].iter_mut().enumerate() {
            *pit = match mover {
                Side::South => from[i],
                Side::North => from[(i + n) % ring],
            };
            seeds += usize::from(*pit);
        }
        let state = match self.states() {
            1 => 0,
            2 => match position.rules().final_four {
                FinalFour::To(side) if side == mover => 0,
                _ => 1,
            },
            _ => match position.last_sower() {
                Some(side) if side == !mover => 0,
                Some(_) => 1,
                None => 2,
            },
        };
        let board = rank(&pits[..ring]);
        (seeds, board * self.states() as u64 + state as u64)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_onto_the_layer() {
        for (ring, seeds) in [(4, 5), (12, 4), (12, 0), (24, 2), (6, 9)] {
            let total = boards(ring, seeds);
            let mut seen = vec![false; total as usize];
            let mut pits = vec![0u8; ring];
            for r in 0..total {
                unrank(r, seeds, &mut pits);
                assert_eq!(pits.iter().map(|&s| s as usize).sum::<usize>(), seeds);
                assert_eq!(rank(&pits), r, "{pits:?}");
                assert!(!seen[r as usize]);
                seen[r as usize] = true;
            }
        }
    }

    #[test]
    fn layer_sizes() {
        // 2×6 with 24 seeds: C(35, 11).
        assert_eq!(boards(12, 24), 417_225_900);
        assert_eq!(boards(12, 1), 12);
        assert_eq!(boards(24, 12), 834_451_800);
    }

    /// The directory names are a file layout: pinned.
    #[test]
    fn every_family_and_its_directory_name() {
        let names: Vec<String> = Family::all().iter().map(Family::name).collect();
        assert_eq!(
            names,
            [
                "hoyito-ii-2x6-casa-rows=any",
                "hoyito-ii-2x6-casa-rows=opponent",
                "hoyito-ii-2x12-casa-rows=any",
                "hoyito-ii-2x12-casa-rows=opponent",
                "hoyito-iii-2x6-casa-rows=any-final-four=capturer",
                "hoyito-iii-2x6-casa-rows=any-final-four=fixed",
                "hoyito-iii-2x6-casa-rows=opponent-final-four=capturer",
                "hoyito-iii-2x6-casa-rows=opponent-final-four=fixed",
                "ayoayo-2x6-leftover=last-mover",
                "ayoayo-2x6-leftover=holder",
            ]
        );
    }

    #[test]
    fn locate_inverts_position_for_every_state() {
        for rules in [
            Rules::new(Variant::HoyitoII),
            {
                let mut r = Rules::new(Variant::HoyitoIII);
                r.final_four = FinalFour::To(Side::North);
                r
            },
            Rules::new(Variant::Ayoayo),
        ] {
            let family = Family::of(rules);
            for index in 0..family.layer_len(5) {
                let position = family.position(5, index);
                if !position.is_over() {
                    assert_eq!(family.locate(&position), (5, index));
                }
            }
        }
    }
}
