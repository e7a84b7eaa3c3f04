//! The transposition table: one 16-byte entry per slot, indexed by the position hash.
//!
//! The position hash leaves out the captures, so values are stored relative to the margin
//! of the position (the seeds still to be won) and are valid for any captures.

use sowing::{Move, Pit};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (a cut-off).
    Lower,
    /// At most the value (every move failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Slot {
    key: u64,
    value: i32,
    depth: u8,
    /// Bits 0–1: bound (1 exact, 2 lower, 3 upper; 0 empty); bit 2: proven.
    flags: u8,
    mv: u8,
    /// The [`Tt::clear`] generation that wrote it: other generations are empty slots.
    age: u8,
}

/// A probe's answer.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Value relative to the margin of the position, in centiseeds.
    pub value: i32,
    /// Depth searched.
    pub depth: u8,
    /// Kind of bound.
    pub bound: Bound,
    /// Whether no estimate went into the value (an exact solve of the subtree).
    pub proven: bool,
    /// The best move found, if any.
    pub mv: Option<Move>,
}

/// A fixed-size table; sized in MiB, a power of two of entries.
pub struct Tt {
    slots: Vec<Slot>,
    mask: usize,
    age: u8,
}

const NO_MOVE: u8 = 255;
const PASS: u8 = 254;

fn encode(mv: Move) -> u8 {
    match mv {
        Move::Pass => PASS,
        Move::Sow(pit) => pit.index() as u8,
    }
}

fn decode(byte: u8) -> Option<Move> {
    match byte {
        NO_MOVE => None,
        PASS => Some(Move::Pass),
        pit => Some(Move::Sow(Pit::new(usize::from(pit)))),
    }
}

impl Tt {
    /// A table of at most `mib` MiB (at least one entry).
    pub fn new(mib: usize) -> Tt {
        let bytes = mib.max(1) * 1024 * 1024;
        let count = (bytes / std::mem::size_of::<Slot>()).next_power_of_two() / 2;
        let count = count.max(1024);
        Tt {
            slots: vec![Slot::default(); count],
            mask: count - 1,
            age: 1,
        }
    }

    /// Size in MiB.
    pub fn mib(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Forgets everything: a new generation, so that a search does not first write the
    /// whole table (tens of MiB, a good part of a short move's time); every 255 generations
    /// the slots are really emptied.
    pub fn clear(&mut self) {
        self.age = self.age.wrapping_add(1);
        if self.age == 0 {
            self.slots.fill(Slot::default());
            self.age = 1;
        }
    }

    /// Asks the processor to fetch the slot of `key` ahead of a probe: the table is larger
    /// than the caches, and children are known before they are searched.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = &self.slots[key as usize & self.mask] as *const Slot as *const i8;
            // SAFETY: a prefetch is only a hint; the pointer is to an element of `slots`.
            unsafe { std::arch::x86_64::_mm_prefetch(slot, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[key as usize & self.mask];
        if slot.key != key || slot.age != self.age || slot.flags & 3 == 0 {
            return None;
        }
        let bound = match slot.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            value: slot.value,
            depth: slot.depth,
            bound,
            proven: slot.flags & 4 != 0,
            mv: decode(slot.mv),
        })
    }

    /// Stores a result, replacing a shallower or different entry; proven entries are kept
    /// over unproven ones of the same position.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        value: i32,
        depth: u32,
        bound: Bound,
        proven: bool,
        mv: Move,
    ) {
        let slot = &mut self.slots[key as usize & self.mask];
        let depth = depth.min(250) as u8;
        let same = slot.key == key && slot.age == self.age;
        if same && slot.flags & 4 != 0 && !proven {
            return;
        }
        if same && slot.depth > depth.saturating_add(2) && !proven {
            return;
        }
        let bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        } | if proven { 4 } else { 0 };
        *slot = Slot {
            key,
            value,
            depth,
            flags: bits,
            mv: encode(mv),
            age: self.age,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let mut tt = Tt::new(1);
        let mv = Move::Sow(Pit::new(7));
        tt.store(12345, -250, 6, Bound::Lower, false, mv);
        let e = tt.probe(12345).expect("stored");
        assert_eq!(
            (e.value, e.depth, e.bound, e.proven, e.mv),
            (-250, 6, Bound::Lower, false, Some(mv))
        );
        assert!(tt.probe(12346).is_none());
        tt.store(12345, 300, 3, Bound::Exact, true, Move::Pass);
        let e = tt.probe(12345).expect("replaced by a proven entry");
        assert_eq!((e.proven, e.mv), (true, Some(Move::Pass)));
        tt.store(12345, 0, 9, Bound::Exact, false, Move::Pass);
        assert!(tt.probe(12345).unwrap().proven, "a proven entry is kept");
    }

    #[test]
    fn clearing_forgets_every_entry_across_generation_wraps() {
        let mut tt = Tt::new(1);
        for generation in 0..600 {
            tt.store(77, generation, 3, Bound::Exact, true, Move::Pass);
            assert_eq!(tt.probe(77).map(|e| e.value), Some(generation));
            tt.clear();
            assert!(tt.probe(77).is_none(), "after clear {generation}");
        }
    }
}
