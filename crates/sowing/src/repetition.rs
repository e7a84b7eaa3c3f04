//! The positions since the last capture, hashed, so that the repetition rule (C.3) costs
//! O(1) a move even in long 2×12 games.

use crate::Position;

/// An open-addressing set of indices into a game's list of positions, keyed by their hash.
/// Only positions since the last capture are in it: seeds leave the board only by capture,
/// so no earlier position can recur.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Seen {
    /// `index + 1` of a position, or 0 for an empty slot. Length a power of two, or 0.
    slots: Vec<u32>,
    /// The slots in use, in order of insertion, to clear them and to undo the last.
    used: Vec<u32>,
}

impl Seen {
    fn home(&self, hash: u64) -> usize {
        // The hash is linear in the pit counts: mix it so that nearby positions spread.
        let mixed = (hash ^ (hash >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (mixed >> 32) as usize & (self.slots.len() - 1)
    }

    /// Adds `next`, the position about to follow `positions`, and tells whether an equal
    /// one (C.3) was there already: one probe serves both.
    pub(crate) fn add(&mut self, positions: &[Position], next: &Position) -> bool {
        self.grow(positions);
        let mask = self.slots.len() - 1;
        let mut slot = self.home(next.hash());
        let mut repeated = false;
        while self.slots[slot] != 0 {
            repeated |= positions[self.slots[slot] as usize - 1].repeats(next);
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = positions.len() as u32 + 1;
        self.used.push(slot as u32);
        repeated
    }

    /// Keeps the table at most half full.
    #[inline]
    fn grow(&mut self, positions: &[Position]) {
        if 2 * (self.used.len() + 1) > self.slots.len() {
            self.resize(positions);
        }
    }

    #[cold]
    fn resize(&mut self, positions: &[Position]) {
        {
            let size = (4 * (self.used.len() + 1)).next_power_of_two().max(64);
            let entries: Vec<u32> = self.used.iter().map(|&s| self.slots[s as usize]).collect();
            self.slots.clear();
            self.slots.resize(size, 0);
            self.used.clear();
            for entry in entries {
                self.place(positions, entry);
            }
        }
    }

    /// Adds `positions[index]`.
    pub(crate) fn insert(&mut self, positions: &[Position], index: usize) {
        self.grow(positions);
        self.place(positions, index as u32 + 1);
    }

    fn place(&mut self, positions: &[Position], entry: u32) {
        let mask = self.slots.len() - 1;
        let mut slot = self.home(positions[entry as usize - 1].hash());
        while self.slots[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = entry;
        self.used.push(slot as u32);
    }

    /// Removes the position added last. Safe with linear probing: no later insertion can
    /// have probed past its slot.
    pub(crate) fn pop(&mut self) {
        if let Some(slot) = self.used.pop() {
            self.slots[slot as usize] = 0;
        }
    }

    /// Empties the set, in time proportional to its size.
    pub(crate) fn clear(&mut self) {
        for &slot in &self.used {
            self.slots[slot as usize] = 0;
        }
        self.used.clear();
    }

    /// The number of positions in the set.
    pub(crate) fn len(&self) -> usize {
        self.used.len()
    }
}
