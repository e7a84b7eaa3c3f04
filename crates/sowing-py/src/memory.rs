//! Refusing a batch of games too large for the memory with Python's `MemoryError`, before
//! NumPy or Rust's allocator would abort the interpreter.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

/// Refuses a batch of `n` games of `bytes_a_game` that would not fit in memory (before
/// NumPy or the allocator aborts the interpreter): `MemoryError`. Beside a bound no
/// machine reaches, the memory Linux says is available and the room left under the
/// process's limits (`ulimit -v`, `ulimit -d`) count.
pub(crate) fn check_memory(n: usize, bytes_a_game: usize) -> PyResult<()> {
    // Far beyond any machine's memory, yet far below `isize::MAX`.
    const LIMIT: usize = 1 << 44;
    let total = n.checked_mul(bytes_a_game).filter(|&total| total <= LIMIT);
    let room = available();
    match (total, room) {
        (Some(total), Some(room)) if total as u64 > room => Err(PyMemoryError::new_err(format!(
            "{n} games would need about {} MiB, and {} MiB are available",
            total >> 20,
            room >> 20
        ))),
        (Some(_), _) => Ok(()),
        (None, _) => Err(PyMemoryError::new_err(format!(
            "{n} games would need about {} GiB",
            n.saturating_mul(bytes_a_game) >> 30
        ))),
    }
}

/// The bytes this process may still allocate as far as Linux tells (`None` elsewhere):
/// the memory available, less what is beyond the address-space and data limits.
fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let mut room = field_kib(&meminfo, "MemAvailable:")? << 10;
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for (limit, used) in [
        ("Max address space", "VmSize:"),
        ("Max data size", "VmData:"),
    ] {
        let soft = limits
            .lines()
            .find(|line| line.starts_with(limit))
            .and_then(|line| {
                line[limit.len()..]
                    .split_whitespace()
                    .next()?
                    .parse::<u64>()
                    .ok()
            });
        if let (Some(soft), Some(used)) = (soft, field_kib(&status, used)) {
            room = room.min(soft.saturating_sub(used << 10));
        }
    }
    Some(room)
}

/// The number of kibibytes on the line of `/proc`'s `text` that starts with `key`.
fn field_kib(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .find(|line| line.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// `n` values made by `make`, in a vector whose allocation is tried first: a batch too
/// large for the memory raises `MemoryError` (Rust's allocator would abort the
/// interpreter).
pub(crate) fn alloc_with<T>(n: usize, make: impl FnMut() -> T) -> PyResult<Vec<T>> {
    check_memory(n, std::mem::size_of::<T>())?;
    let mut values = Vec::new();
    values.try_reserve_exact(n).map_err(|_| {
        PyMemoryError::new_err(format!(
            "{n} games would need {} MiB",
            (n * std::mem::size_of::<T>()) >> 20
        ))
    })?;
    values.extend(std::iter::repeat_with(make).take(n));
    Ok(values)
}
