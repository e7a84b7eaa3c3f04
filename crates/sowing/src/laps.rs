//! Constant tables for the sowing routine: which pits a lap of fewer than one turn of seeds
//! drops into, and the hash keys of those pits, so that a lap costs one vector add.

/// The largest ring: 2×12 pits.
pub(crate) const MAX_PITS: usize = 24;

/// The ring sizes we play on; `ring_slot` maps a size to its row in the tables.
const RINGS: [usize; 2] = [12, 24];

#[inline]
pub(crate) const fn ring_slot(pit_count: usize) -> usize {
    (pit_count == 24) as usize
}

const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn key(n: u64) -> u64 {
    // Odd keys keep every multiple of a key distinct in the low bits as well.
    splitmix64(n.wrapping_mul(0x2545_F491_4F6C_DD1D)) | 1
}

/// The position hash is linear in the pit counts: the sum of `count × PIT_KEYS[pit]` plus
/// the keys of the side to move and rule state. A lap that adds one seed to a run of pits
/// then changes the hash by a constant from [`LAPS`], whatever the counts were.
pub(crate) const PIT_KEYS: [u64; MAX_PITS] = {
    let mut keys = [0; MAX_PITS];
    let mut i = 0;
    while i < MAX_PITS {
        keys[i] = key(i as u64 + 1);
        i += 1;
    }
    keys
};

/// Added when North is to move.
pub(crate) const NORTH_KEY: u64 = key(101);
/// Added for the last sower in games whose repetition rule depends on it (Ayoayo, A.8).
pub(crate) const LAST_SOWER_KEYS: [u64; 2] = [key(102), key(103)];

/// What a lap of fewer seeds than one turn of the ring does to the board: one word
/// addition and one hash addition, with no mask to empty the pit it starts from.
#[derive(Clone, Copy)]
pub(crate) struct Lap {
    /// Added (wrapping) to the board's 8-byte words: a seed in each pit sown, less the
    /// seeds lifted from `from`. A pit that held exactly them drops to 0 with no borrow,
    /// and no pit holds more than 255 seeds, so no byte carries into the next.
    pub(crate) words: [u64; 3],
    /// The hash change of the same: the sown seeds' keys less the lifted ones'.
    pub(crate) key: u64,
    /// The pit the lap ends in.
    pub(crate) end: u8,
}

/// `LAPS[kind][from][rest]`: the lap from pit `from` sowing `rest` seeds past whole turns,
/// lifting those `rest` from `from`, where `kind` is [`lap_kind`]. Ayoayo skips the
/// origin, so its turn is one pit shorter: that changes only where a lap of whole turns
/// ends.
pub(crate) static LAPS: [[[Lap; MAX_PITS]; MAX_PITS]; 4] = {
    const EMPTY: Lap = Lap {
        words: [0; 3],
        key: 0,
        end: 0,
    };
    let mut laps = [[[EMPTY; MAX_PITS]; MAX_PITS]; 4];
    let mut kind = 0;
    while kind < 4 {
        let ring = RINGS[kind / 2];
        let hoyito = kind % 2 == 1;
        let turn = if hoyito { ring } else { ring - 1 };
        let mut from = 0;
        while from < ring {
            let mut rest = 0;
            while rest < turn {
                let lap = &mut laps[kind][from][rest];
                let lifted = (rest as u64) << (8 * (from % 8));
                lap.words[from / 8] = lap.words[from / 8].wrapping_sub(lifted);
                lap.key = (rest as u64).wrapping_mul(PIT_KEYS[from]).wrapping_neg();
                let mut k = 1;
                while k <= rest {
                    let pit = (from + k) % ring;
                    lap.words[pit / 8] = lap.words[pit / 8].wrapping_add(1 << (8 * (pit % 8)));
                    lap.key = lap.key.wrapping_add(PIT_KEYS[pit]);
                    k += 1;
                }
                lap.end = ((from + if rest == 0 { turn } else { rest }) % ring) as u8;
                rest += 1;
            }
            from += 1;
        }
        kind += 1;
    }
    laps
};

/// The row of [`LAPS`] for a game kind and ring size.
#[inline]
pub(crate) const fn lap_kind(hoyito: bool, pit_count: usize) -> usize {
    2 * ring_slot(pit_count) + hoyito as usize
}

/// The sum of the keys of every pit of each ring: the hash change of one seed in every pit.
pub(crate) const RING_KEYS: [u64; 2] = {
    let mut sums = [0u64; 2];
    let mut slot = 0;
    while slot < 2 {
        let mut pit = 0;
        while pit < RINGS[slot] {
            sums[slot] = sums[slot].wrapping_add(PIT_KEYS[pit]);
            pit += 1;
        }
        slot += 1;
    }
    sums
};

/// `ROW_MASKS[slot][side]`: all bits set in the pits of one side's row.
pub(crate) static ROW_MASKS: [[[u8; MAX_PITS]; 2]; 2] = {
    let mut masks = [[[0u8; MAX_PITS]; 2]; 2];
    let mut slot = 0;
    while slot < 2 {
        let n = RINGS[slot] / 2;
        let mut pit = 0;
        while pit < RINGS[slot] {
            masks[slot][pit / n][pit] = 0xFF;
            pit += 1;
        }
        slot += 1;
    }
    masks
};

/// `ROW_BITS[slot][side]`: bit `p` set for each pit `p` of one side's row.
pub(crate) const ROW_BITS: [[u32; 2]; 2] = {
    let mut bits = [[0u32; 2]; 2];
    let mut slot = 0;
    while slot < 2 {
        let n = RINGS[slot] / 2;
        bits[slot][0] = (1 << n) - 1;
        bits[slot][1] = ((1 << n) - 1) << n;
        slot += 1;
    }
    bits
};
