//! Work that Ctrl-C can stop: it runs on a thread of its own while the calling thread, the
//! GIL released, wakes every few milliseconds to let Python see its signals. On Ctrl-C the
//! stop flag is set (a search then returns its best move so far) and, once the work has
//! ended, `KeyboardInterrupt` is raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a thread of its own; Ctrl-C meanwhile sets `stop` and raises
/// `KeyboardInterrupt` once `work` has returned (its result is then dropped).
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let waiter = std::thread::current();
        let worker = scope.spawn(move || {
            let value = work();
            waiter.unpark();
            value
        });
        let mut interrupted = None;
        while !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(POLL));
            if interrupted.is_none() {
                if let Err(signal) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(signal);
                }
            }
        }
        let joined = worker.join();
        stop.store(false, Ordering::Relaxed);
        let value = joined.map_err(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            pyo3::panic::PanicException::new_err(what)
        })?;
        match interrupted {
            Some(signal) => Err(signal),
            None => Ok(value),
        }
    })
}
