//! What the tables' integration tests share: scratch directories and layer files' bytes.

use std::path::{Path, PathBuf};

use sowing_tables::{file, Family};

/// A scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `sowing-tables-<name>-<process>` in the system's temporary directory, empty.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("sowing-tables-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The whole file of layer `seeds` of `family` under `dir`.
pub fn bytes(dir: &Path, family: &Family, seeds: usize) -> Vec<u8> {
    std::fs::read(file::layer_path(dir, family, seeds)).unwrap()
}
