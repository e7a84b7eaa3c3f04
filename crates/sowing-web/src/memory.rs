//! How `sow serve` asks the C allocator to hold its memory.
//!
//! glibc's malloc gives each thread that meets a locked arena a new one, up to eight per
//! core, and keeps what is freed in each arena for that arena alone. A thousand live games
//! starting at once (the soak, docs/web.md "When the parts fail") touch memory from the
//! runtime's workers and up to 64 blocking threads together, and each burst left new
//! fragments in arenas the next burst did not reuse: resident memory rose in steps at each
//! round's start. Two arenas (one per core here) and a trim after each sweep give that
//! memory back. Other platforms and allocators keep their defaults.

/// Arenas for the whole process; two serve two cores without contention worth measuring.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MALLOC_ARENAS: libc::c_int = 2;

/// Caps glibc's malloc arenas at [`MALLOC_ARENAS`]. Call before the runtime starts its
/// threads; an arena already made stays.
pub fn cap_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tunable of the allocator; it is safe to call at any time.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
    }
}

/// Returns the free pages of every arena to the kernel (glibc's `malloc_trim`), so a burst's
/// freed memory stops counting as resident.
pub fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes each arena's lock and releases only free pages.
    unsafe {
        libc::malloc_trim(0);
    }
}
