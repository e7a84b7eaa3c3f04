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
/// then changes the hash by a constant from [`RUN_KEYS`], whatever the counts were.
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

/// `RUN_MASKS[slot][start][len]`: one seed in each of `len` pits from `start` round the ring.
pub(crate) static RUN_MASKS: [[[[u8; MAX_PITS]; MAX_PITS]; MAX_PITS]; 2] = {
    let mut masks = [[[[0u8; MAX_PITS]; MAX_PITS]; MAX_PITS]; 2];
    let mut slot = 0;
    while slot < 2 {
        let ring = RINGS[slot];
        let mut start = 0;
        while start < ring {
            let mut len = 0;
            while len < ring {
                let mut k = 0;
                while k < len {
                    masks[slot][start][len][(start + k) % ring] = 1;
                    k += 1;
                }
                len += 1;
            }
            start += 1;
        }
        slot += 1;
    }
    masks
};

/// `RUN_KEYS[slot][start][len]`: the hash change of the run `RUN_MASKS[slot][start][len]`.
pub(crate) static RUN_KEYS: [[[u64; MAX_PITS]; MAX_PITS]; 2] = {
    let mut keys = [[[0u64; MAX_PITS]; MAX_PITS]; 2];
    let mut slot = 0;
    while slot < 2 {
        let ring = RINGS[slot];
        let mut start = 0;
        while start < ring {
            let mut len = 1;
            while len < ring {
                let pit = (start + len - 1) % ring;
                keys[slot][start][len] = keys[slot][start][len - 1].wrapping_add(PIT_KEYS[pit]);
                len += 1;
            }
            start += 1;
        }
        slot += 1;
    }
    keys
};

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

/// `KEEP_MASKS[pit]`: all bits set but in `pit`, to empty a pit with the same vector
/// operation that sows into the others (a byte store then a vector load would stall).
pub(crate) static KEEP_MASKS: [[u8; MAX_PITS]; MAX_PITS] = {
    let mut masks = [[0xFFu8; MAX_PITS]; MAX_PITS];
    let mut pit = 0;
    while pit < MAX_PITS {
        masks[pit][pit] = 0;
        pit += 1;
    }
    masks
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
