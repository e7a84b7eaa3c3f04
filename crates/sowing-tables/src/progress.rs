//! The build's progress bars: indicatif's, except in the browser build
//! (`wasm32-unknown-unknown`, `crates/sowing-wasm`), which only reads tables and never
//! builds them, and where indicatif would link its JavaScript bindings into the module. There
//! the bars are types with the same methods that show nothing.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use indicatif::{ProgressBar, ProgressStyle};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use silent::{ProgressBar, ProgressStyle};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod silent {
    use std::time::Duration;

    /// A progress bar that shows nothing.
    pub struct ProgressBar;

    /// A style that is never drawn.
    pub struct ProgressStyle;

    impl ProgressStyle {
        /// Any template.
        pub fn with_template(_: &str) -> Result<ProgressStyle, String> {
            Ok(ProgressStyle)
        }
    }

    impl ProgressBar {
        /// A bar of `len` steps.
        pub fn new(_: u64) -> ProgressBar {
            ProgressBar
        }
        /// A hidden bar.
        pub fn hidden() -> ProgressBar {
            ProgressBar
        }
        /// Sets the style.
        pub fn set_style(&self, _: ProgressStyle) {}
        /// Sets the message.
        pub fn set_message(&self, _: String) {}
        /// Advances.
        pub fn inc(&self, _: u64) {}
        /// Ends.
        pub fn finish_and_clear(&self) {}
        /// No time is kept.
        pub fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
    }
}
