//! Random play, the same everywhere: one seeded generator and the random moves, games and
//! openings that the benchmarks, `sow match`, tuning, the random players and the load
//! generator all use.
//!
//! The generator is xoshiro256++ (written here, as `rand_xoshiro` has it), seeded from a `u64` through
//! SplitMix64, as its authors recommend: both are fixed, published algorithms, so a seed
//! gives the same numbers on every platform and with every version (rand's `SmallRng`
//! does not promise that: it is a different algorithm on 32-bit targets and may change
//! between versions). A draw below `n` is done here, not by rand's `gen_range`, whose
//! method may change too: see [`Rng::below`]. A test pins the first numbers of a seed.
//!
//! ```
//! use sowing::{Rules, Variant};
//! use sowing_engine::random::{self, Rng};
//!
//! let mut rng = Rng::new(7);
//! let opening = random::opening(Rules::new(Variant::Ayoayo), 4, &mut rng);
//! assert_eq!(opening.moves().len(), 4);
//! assert_eq!(opening.moves(), random::opening(Rules::new(Variant::Ayoayo), 4, &mut Rng::new(7)).moves());
//! ```

use sowing::{Game, Move, Pit, Position, Rules};

/// A seeded, portable random generator: xoshiro256++ seeded through SplitMix64.
///
/// Both algorithms are written here (a few lines each, from their authors' published
/// reference code), so that the generator's state can be read and restored
/// ([`Rng::state`], [`Rng::from_state`]: a pickled Python environment continues the same
/// stream); a test pins them to `rand_xoshiro`'s `Xoshiro256PlusPlus`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng([u64; 4]);

impl Rng {
    /// The generator for `seed`: the same sequence on every platform.
    pub fn new(seed: u64) -> Rng {
        let mut splitmix = seed;
        Rng(std::array::from_fn(|_| {
            splitmix = splitmix.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = splitmix;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }))
    }

    /// A generator seeded from the operating system's randomness (through the standard
    /// library's hasher keys), for callers that give no seed.
    pub fn from_entropy() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        Rng::new(hasher.finish())
    }

    /// The generator's state: [`Rng::from_state`] of it continues the same stream.
    pub fn state(&self) -> [u64; 4] {
        self.0
    }

    /// The generator in `state` (from [`Rng::state`]); `None` for the all-zero state,
    /// which xoshiro never reaches (it would draw only zeros).
    pub fn from_state(state: [u64; 4]) -> Option<Rng> {
        (state != [0; 4]).then_some(Rng(state))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// The next 32 random bits: the high half of [`Rng::next_u64`] (the better half of
    /// xoshiro's output).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A uniform draw from `[0, 1)`: 53 random bits (the high ones) as a fraction.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Moves the generator 2¹²⁸ draws ahead: the streams of [`Rng::jump`]s in a row do not
    /// overlap, one for each of many games drawn from one seed.
    pub fn jump(&mut self) {
        const JUMP: [u64; 4] = [
            0x180e_c6d3_3cfd_0aba,
            0xd5a6_1266_f0c9_392c,
            0xa958_2618_e03f_c9aa,
            0x39ab_dc45_29b1_661c,
        ];
        let mut state = [0u64; 4];
        for word in JUMP {
            for bit in 0..64 {
                if (word >> bit) & 1 == 1 {
                    for (s, t) in state.iter_mut().zip(self.0) {
                        *s ^= t;
                    }
                }
                self.next_u64();
            }
        }
        self.0 = state;
    }

    /// A uniform draw from `0..n`, by Lemire's multiply-and-reject: the high 32 bits of a
    /// 32-bit draw times `n`, drawn again only when the low 32 bits fall below
    /// `2³² mod n` (the few products that would make some results more likely than
    /// others). A second draw is needed with probability less than n/2³², so there is
    /// almost never a branch to mispredict; the method is ours, so the results do not
    /// depend on rand's `gen_range`, whose algorithm may change between versions.
    ///
    /// # Panics
    /// If `n` is 0.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let draw = self.next_u32();
        self.below_from(draw, n)
    }

    /// [`Rng::below`] whose first 32 random bits are `draw`, already drawn (say half of a
    /// [`Rng::next_u64`] shared by two draws); more come from this generator on the rare
    /// draw that would bias the result.
    ///
    /// # Panics
    /// If `n` is 0.
    #[inline]
    pub fn below_from(&mut self, draw: u32, n: u32) -> u32 {
        assert!(n > 0, "a draw from an empty range");
        let mut product = u64::from(draw) * u64::from(n);
        if (product as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u32) < threshold {
                product = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (product >> 32) as u32
    }

    /// A uniformly chosen item of `items` ([`Rng::below`] its length), or `None` if it is
    /// empty (then no number is drawn).
    #[inline]
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            return None;
        }
        let n = u32::try_from(items.len()).expect("fewer than 2³² items");
        items.get(self.below(n) as usize)
    }
}

/// A uniformly random legal move of `game`, or `None` if the game is over.
pub fn legal_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    if game.is_over() {
        return None;
    }
    rng.pick(&game.legal_moves()).copied()
}

/// Plays one game of uniformly random legal moves from `start` in `game` (which it resets);
/// returns its length in plies. Fast enough for `sow bench`.
///
/// Rather than generate every legal move (which sows each pit), it draws an occupied pit at
/// random and tries it, drawing again among the rest when the rules refuse it (an endless
/// sowing, or one that does not feed): the move played is still uniform over the legal ones.
pub fn play_game(game: &mut Game, start: Position, rng: &mut Rng) -> u64 {
    game.reset(start);
    let n = start.rules().pits_per_row();
    let mut moves = 0;
    while !game.is_over() {
        let position = game.position();
        let side = position.to_move();
        let mut candidates = [0u8; Rules::MAX_PITS_PER_ROW];
        let mut count = 0;
        for column in 0..n {
            // Branch-free: whether a pit is occupied is as good as random.
            candidates[count] = column as u8;
            count += usize::from(position.seeds(Pit::of(side, column, n)) > 0);
        }
        loop {
            if count == 0 {
                game.play(Move::Pass)
                    .expect("no sowing move, so pass is legal");
                break;
            }
            let pick = rng.below(count as u32) as usize;
            let pit = Pit::of(side, candidates[pick].into(), n);
            if game.play(Move::Sow(pit)).is_ok() {
                break;
            }
            count -= 1;
            candidates.swap(pick, count);
        }
        moves += 1;
    }
    moves
}

/// `plies` uniformly random legal moves from the start of `rules` that do not end the game:
/// it stops early, before a move that would end it.
pub fn opening(rules: Rules, plies: u32, rng: &mut Rng) -> Game {
    let mut game = Game::new(rules);
    for _ in 0..plies {
        let Some(mv) = legal_move(&game, rng) else {
            break;
        };
        game.play(mv).expect("a legal move");
        if game.is_over() {
            game.undo();
            break;
        }
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::Variant;

    /// xoshiro256++ seeded through SplitMix64 is a published algorithm: these are its first
    /// outputs for seed 1 (checked against the reference C code's algorithm), so a change
    /// of crate, version or platform that changed them would fail here.
    #[test]
    fn a_seed_gives_the_published_sequence() {
        let mut rng = Rng::new(1);
        let first: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
        assert_eq!(first, PINNED_U64);
        let mut rng = Rng::new(1);
        assert_eq!(rng.next_u32(), (PINNED_U64[0] >> 32) as u32);
        let mut rng = Rng::new(2026);
        let draws: Vec<u32> = (0..12).map(|_| rng.below(6)).collect();
        assert_eq!(draws, PINNED_BELOW_6);
    }

    const PINNED_U64: [u64; 4] = [
        0xcfc5_d07f_6f03_c29b,
        0xbf42_4132_963f_e08d,
        0x19a3_7d57_57aa_f520,
        0xbf08_119f_05cd_56d6,
    ];
    const PINNED_BELOW_6: [u32; 12] = [2, 3, 4, 5, 0, 5, 4, 5, 4, 2, 5, 3];

    /// The generator written here is `rand_xoshiro`'s `Xoshiro256PlusPlus` (seeded by
    /// `seed_from_u64`), draw for draw, jumps included; its state round-trips.
    #[test]
    fn the_generator_is_rand_xoshiro_s_xoshiro256plusplus() {
        use rand::{RngCore, SeedableRng};
        use rand_xoshiro::Xoshiro256PlusPlus;
        for seed in [0, 1, 2026, u64::MAX] {
            let mut ours = Rng::new(seed);
            let mut theirs = Xoshiro256PlusPlus::seed_from_u64(seed);
            for round in 0..3 {
                for _ in 0..100 {
                    assert_eq!(
                        ours.next_u64(),
                        theirs.next_u64(),
                        "seed {seed} round {round}"
                    );
                }
                ours.jump();
                theirs.jump();
            }
            let mut copy = Rng::from_state(ours.state()).unwrap();
            assert_eq!(copy.next_u64(), ours.next_u64());
        }
        assert_eq!(Rng::from_state([0; 4]), None);
        let mut rng = Rng::new(3);
        assert!((0..1000)
            .map(|_| rng.next_f64())
            .all(|x| (0.0..1.0).contains(&x)));
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = Rng::new(9);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        // Each count is 10,000 ± 300 (three standard deviations is about 285).
        assert!(
            counts.iter().all(|&c| (9_700..=10_300).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.pick::<u8>(&[]), None);
    }

    #[test]
    fn below_draws_again_past_the_biased_products() {
        // With n = 3·2³⁰ a plain multiply maps four draws onto three results, one of them
        // twice: results divisible by 3 would come half the time. Redrawing the products
        // whose low half is below 2³² mod n = 2³⁰ makes each residue a third.
        let mut rng = Rng::new(4);
        let mut residues = [0u32; 3];
        for _ in 0..30_000 {
            residues[(rng.below(3 << 30) % 3) as usize] += 1;
        }
        assert!(
            residues.iter().all(|&c| (9_600..=10_400).contains(&c)),
            "{residues:?}"
        );
    }

    /// A random game from a fixed seed, pinned: the moves, in notation.
    #[test]
    fn a_seed_gives_the_same_random_game() {
        let rules = Rules::new(Variant::HoyitoII);
        let mut game = Game::new(rules);
        let plies = play_game(&mut game, Position::start(rules), &mut Rng::new(2026));
        let names: Vec<String> = game.moves().iter().map(|m| m.name(6).to_string()).collect();
        assert_eq!(plies as usize, names.len());
        assert_eq!(names.join(" "), PINNED_GAME);
        let opening = opening(rules, 6, &mut Rng::new(1));
        let names: Vec<String> = opening
            .moves()
            .iter()
            .map(|m| m.name(6).to_string())
            .collect();
        assert_eq!(names.join(" "), PINNED_OPENING);
    }

    const PINNED_GAME: &str = "C d d F a F f F e b f E F f D b D d A a b a F a E c E B e E e D c C a E b C e F d E d b D a F f E e C d F D d E b A d B f B e D";
    const PINNED_OPENING: &str = "E e A e A d";

    #[test]
    fn openings_stop_before_a_move_that_ends_the_game() {
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let game = opening(Rules::new(Variant::Ayoayo), 200, &mut rng);
            assert!(!game.is_over());
        }
    }
}
