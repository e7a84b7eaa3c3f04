//! The engine's clock: `std::time::Instant`, except in the browser build
//! (`wasm32-unknown-unknown`), where the standard library has no clock and the page supplies
//! one (`performance.now()`, imported as `sowing.now_ms`; see `crates/sowing-wasm`).

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use browser::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod browser {
    use std::ops::Add;
    use std::time::Duration;

    #[link(wasm_import_module = "sowing")]
    extern "C" {
        /// Milliseconds from an arbitrary start, never going back (`performance.now()`).
        fn now_ms() -> f64;
    }

    /// A moment, in milliseconds from the page's start.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: a plain import taking and returning numbers.
            Instant(unsafe { now_ms() })
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((Instant::now().0 - self.0).max(0.0) / 1000.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}
