//! The one thread policy of every parallel part of the project (table builds, matches,
//! strength runs, the server's engines): a number asked for is used as it is; none asked
//! for means one thread per core this process may run on.

/// The worker threads for `requested` (at least one).
pub fn worker_threads(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// A rayon pool of [`worker_threads`]`(requested)` threads.
///
/// # Errors
/// When the threads cannot be started.
pub fn thread_pool(
    requested: Option<usize>,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(requested))
        .build()
}
