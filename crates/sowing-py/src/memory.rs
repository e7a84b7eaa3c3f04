//! Refusing a batch of games too large for the memory with Python's `MemoryError`, before
//! NumPy or Rust's allocator would abort the interpreter.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

/// Refuses a batch of `n` games whose arrays would not fit in memory (before NumPy or the
/// allocator aborts the interpreter): `MemoryError`.
pub(crate) fn check_memory(n: usize, bytes_a_game: usize) -> PyResult<()> {
    // Far beyond any machine's memory, yet far below `isize::MAX`.
    const LIMIT: usize = 1 << 44;
    if n.checked_mul(bytes_a_game)
        .is_none_or(|total| total > LIMIT)
    {
        return Err(PyMemoryError::new_err(format!(
            "{n} games would need about {} GiB",
            n.saturating_mul(bytes_a_game) >> 30
        )));
    }
    Ok(())
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
