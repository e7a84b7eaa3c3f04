//! The workspace's import check, run by `cargo test` (`tests/workspace.rs`) over every
//! `crates/*/src/**/*.rs` file: no files of a crate import each other round a circle, and
//! the web crate's layers hold ([`WEB_LAYERS`]). Files in a circle can be neither read,
//! tested nor moved apart, and a layer that imports the one above it undoes the layering;
//! both creep in unseen one `use` at a time, so a test catches the first.
//!
//! An edge runs from file A to file B when A names an item of B, or B's module: a `use`
//! path (`pub use` too) or a qualified path (`crate::…`, `super::…`, `self::…`, a child
//! module's name), resolved to files as the compiler resolves modules (`x.rs`, `x/mod.rs`,
//! inline modules, `#[path]`). A file reaching up to its own ancestor module is the module
//! tree, not an import; `mod x;` declares and imports nothing. Every problem is reported
//! at once.
//!
//! ```
//! use sowing_imports::{check, Sources};
//!
//! let mut sources = Sources::new();
//! for (path, text) in [
//!     ("crates/a/src/lib.rs", "mod x; mod y;"),
//!     ("crates/a/src/x.rs", "use crate::y::Y; pub struct X;"),
//!     ("crates/a/src/y.rs", "use crate::x::X; pub struct Y;"),
//! ] {
//!     sources.insert(path.into(), text.into());
//! }
//! let found = check(&sources, &[]);
//! assert_eq!(found.problems.len(), 1);
//! assert!(found.problems[0].to_string().starts_with("import cycle among 2 files"));
//! ```
#![warn(missing_docs)]

mod cycles;
mod graph;
mod layers;
mod references;
mod sources;
mod tree;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

pub use graph::Edge;
pub use layers::{Layers, Violation, WEB_LAYERS};
pub use sources::{read_workspace, Sources};

/// What [`check`] found: the import graph and what is wrong with it.
#[derive(Debug)]
pub struct Found {
    /// Every edge of the file graph.
    pub edges: Vec<Edge>,
    /// Every problem, files that did not parse first.
    pub problems: Vec<Problem>,
}

/// One thing the check refuses.
#[derive(Debug)]
pub enum Problem {
    /// A file the check could not read as Rust (its imports are unknown).
    Unparsed {
        /// The file.
        file: PathBuf,
        /// The parser's message.
        error: String,
    },
    /// Files that import each other round a circle: the edges among them.
    Cycle(Vec<Edge>),
    /// A layer importing one it may not.
    Layer(Violation),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unparsed { file, error } => {
                write!(f, "{} does not parse: {error}", file.display())
            }
            Problem::Cycle(edges) => {
                let mut files: Vec<String> =
                    edges.iter().map(|e| e.from.display().to_string()).collect();
                files.dedup();
                write!(
                    f,
                    "import cycle among {} files: {}",
                    files.len(),
                    files.join(", ")
                )?;
                for edge in edges {
                    write!(
                        f,
                        "\n    {} -> {} ({})",
                        edge.from.display(),
                        edge.to.display(),
                        edge.via
                    )?;
                }
                Ok(())
            }
            Problem::Layer(violation) => write!(
                f,
                "layer {} may not import {}: {} -> {} ({})",
                violation.layer,
                violation.forbidden,
                violation.edge.from.display(),
                violation.edge.to.display(),
                violation.edge.via
            ),
        }
    }
}

/// The import graph of `sources`, its cycles and the violations of `layers`.
pub fn check(sources: &Sources, layers: &[Layers]) -> Found {
    let mut problems = Vec::new();
    let mut files = BTreeMap::new();
    for (path, text) in sources {
        match syn::parse_file(text) {
            Ok(file) => {
                files.insert(path.clone(), file);
            }
            Err(error) => problems.push(Problem::Unparsed {
                file: path.clone(),
                error: error.to_string(),
            }),
        }
    }
    let edges = graph::edges(&files);
    problems.extend(cycles::cycles(&edges).into_iter().map(Problem::Cycle));
    for layers in layers {
        let violations = layers::violations(&edges, layers);
        problems.extend(violations.into_iter().map(Problem::Layer));
    }
    Found { edges, problems }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(files: &[(&str, &str)]) -> Sources {
        files
            .iter()
            .map(|(path, text)| (PathBuf::from(path), text.to_string()))
            .collect()
    }

    fn problems(files: &[(&str, &str)], layers: &[Layers]) -> Vec<String> {
        let found = check(&sources(files), layers);
        found.problems.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_cycle_is_found_with_its_files_and_paths() {
        let found = problems(
            &[
                ("crates/a/src/lib.rs", "mod eval; mod weights;"),
                ("crates/a/src/eval.rs", "fn f() { crate::weights::W; }"),
                ("crates/a/src/weights.rs", "use crate::eval::Weights;"),
            ],
            &[],
        );
        assert_eq!(
            found,
            [
                "import cycle among 2 files: crates/a/src/eval.rs, crates/a/src/weights.rs\n    \
              crates/a/src/eval.rs -> crates/a/src/weights.rs (crate::weights::W)\n    \
              crates/a/src/weights.rs -> crates/a/src/eval.rs (crate::eval::Weights)"
            ]
        );
    }

    #[test]
    fn a_longer_cycle_through_nested_modules_and_relative_paths_is_found() {
        let found = check(
            &sources(&[
                ("crates/a/src/main.rs", "mod a; mod b;"),
                ("crates/a/src/a.rs", "mod inner; pub use inner::X;"),
                (
                    "crates/a/src/a/inner.rs",
                    "use super::super::b::Y; pub struct X;",
                ),
                (
                    "crates/a/src/b/mod.rs",
                    "#[path = \"../c.rs\"] mod c; use self::c::Z;",
                ),
                ("crates/a/src/c.rs", "pub struct Z; type T = crate::a::X;"),
            ]),
            &[],
        );
        let [Problem::Cycle(edges)] = &found.problems[..] else {
            panic!("one cycle: {:?}", found.problems);
        };
        let files: Vec<_> = edges.iter().map(|e| e.from.to_str().unwrap()).collect();
        assert_eq!(
            files,
            [
                "crates/a/src/a/inner.rs", // paths sort by component: `a` before `a.rs`
                "crates/a/src/a.rs",
                "crates/a/src/b/mod.rs",
                "crates/a/src/c.rs"
            ]
        );
    }

    #[test]
    fn a_child_reaching_up_to_its_parent_is_no_import() {
        let found = check(
            &sources(&[
                (
                    "crates/a/src/lib.rs",
                    "mod store; pub use store::Store; pub struct Error;",
                ),
                (
                    "crates/a/src/store.rs",
                    "mod sql; pub use sql::Store; use crate::Error;",
                ),
                (
                    "crates/a/src/store/sql.rs",
                    "use super::super::Error; use crate::store; pub struct Store;",
                ),
            ]),
            &[],
        );
        assert!(found.problems.is_empty(), "{:?}", found.problems);
        let edges: Vec<_> = found
            .edges
            .iter()
            .map(|e| (e.from.to_str().unwrap(), e.to.to_str().unwrap()))
            .collect();
        assert_eq!(
            edges,
            [
                ("crates/a/src/lib.rs", "crates/a/src/store.rs"),
                ("crates/a/src/store.rs", "crates/a/src/store/sql.rs"),
            ]
        );
    }

    #[test]
    fn a_module_declaration_is_no_import() {
        let found = check(
            &sources(&[
                ("crates/a/src/lib.rs", "mod a;"),
                ("crates/a/src/a.rs", "mod b;"),
                ("crates/a/src/a/b.rs", ""),
            ]),
            &[],
        );
        assert!(found.edges.is_empty(), "{:?}", found.edges);
    }

    #[test]
    fn every_layer_violation_is_found() {
        let layers = Layers {
            src: "crates/w/src",
            rules: &[
                ("services", &["transport"]),
                ("store", &["services", "ops"]),
            ],
        };
        let found = problems(
            &[
                (
                    "crates/w/src/lib.rs",
                    "mod ops; mod services; mod store; mod transport;",
                ),
                ("crates/w/src/ops.rs", "pub struct Op;"),
                (
                    "crates/w/src/services/mod.rs",
                    "mod games; use crate::store::Store;",
                ),
                (
                    "crates/w/src/services/games.rs",
                    "use crate::transport::Route;",
                ),
                (
                    "crates/w/src/store.rs",
                    "use crate::ops::Op; pub struct Store;",
                ),
                (
                    "crates/w/src/transport/mod.rs",
                    "use crate::services::Service; pub struct Route;",
                ),
            ],
            &[layers],
        );
        assert_eq!(
            found,
            [
                "layer services may not import transport: crates/w/src/services/games.rs -> \
                 crates/w/src/transport/mod.rs (crate::transport::Route)",
                "layer store may not import ops: crates/w/src/store.rs -> crates/w/src/ops.rs \
                 (crate::ops::Op)",
            ]
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_a_problem() {
        let found = problems(&[("crates/a/src/lib.rs", "fn (")], &[]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("crates/a/src/lib.rs does not parse"),
            "{found:?}"
        );
    }
}
