//! The workspace's Rust sources, read into memory by their paths from the workspace root:
//! the check itself works on a map of text, so that its tests can hand it small examples.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// Source texts by path (relative to the workspace root, as `crates/sowing/src/lib.rs`).
pub type Sources = BTreeMap<PathBuf, String>;

/// Every `crates/*/src/**/*.rs` file under `root`.
///
/// # Errors
/// A directory or file that cannot be read.
pub fn read_workspace(root: &Path) -> io::Result<Sources> {
    let mut sources = Sources::new();
    for entry in std::fs::read_dir(root.join("crates"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            read_tree(root, &src, &mut sources)?;
        }
    }
    Ok(sources)
}

/// The `.rs` files under `dir`, by their path from `root`.
fn read_tree(root: &Path, dir: &Path, sources: &mut Sources) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            read_tree(root, &path, sources)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            sources.insert(relative, std::fs::read_to_string(&path)?);
        }
    }
    Ok(())
}
