//! The file-level import graph: an edge from file A to file B when A names an item (or the
//! module) of B. A file reaching up to its own ancestor module (`super::…`, or `crate::x`
//! from inside `x`) is the module tree, not an import, and makes no edge.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::references::{references, Reference};
use crate::tree::{crate_trees, CrateTree, ModulePath};

/// File `from` names something of file `to`, first through `via`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The importing file.
    pub from: PathBuf,
    /// The imported file.
    pub to: PathBuf,
    /// The first path that makes the edge, as written (`crate::eval::Weights`).
    pub via: String,
}

/// The edges among `files` (each crate target's tree resolved apart), one per pair of
/// files, sorted.
pub fn edges(files: &BTreeMap<PathBuf, syn::File>) -> Vec<Edge> {
    let mut found: BTreeMap<(PathBuf, PathBuf), String> = BTreeMap::new();
    for tree in crate_trees(files) {
        for (path, module) in &tree.files {
            for reference in references(&files[path]) {
                let Some(target) = resolve(&tree, module, &reference) else {
                    continue;
                };
                let target_module = &tree.files[target];
                // The file itself, or an ancestor: the module tree, not an import.
                if module.starts_with(target_module) {
                    continue;
                }
                found
                    .entry((path.clone(), target.clone()))
                    .or_insert_with(|| reference.segments.join("::"));
            }
        }
    }
    found
        .into_iter()
        .map(|((from, to), via)| Edge { from, to, via })
        .collect()
}

/// The file of the deepest module of `tree` that `reference`, written in module `module`,
/// names; `None` for another crate's path or a name that is no module here.
fn resolve<'t>(
    tree: &'t CrateTree,
    module: &[String],
    reference: &Reference,
) -> Option<&'t PathBuf> {
    let current: ModulePath = [module, &reference.scope[..]].concat();
    let mut segments = reference.segments.iter().peekable();
    let first = segments.next()?;
    let mut named: ModulePath = match first.as_str() {
        "crate" => Vec::new(),
        "self" => current,
        "super" => {
            let mut parent = current;
            parent.pop()?;
            parent
        }
        // A child module of the current one (a 2018 relative path).
        child => {
            let path = [current, vec![child.to_owned()]].concat();
            tree.modules.get(&path)?;
            path
        }
    };
    while segments.next_if(|s| s.as_str() == "super").is_some() {
        named.pop()?;
    }
    for segment in segments {
        named.push(segment.clone());
        if !tree.modules.contains_key(&named) {
            named.pop();
            break;
        }
    }
    tree.modules.get(&named)
}
