//! Layers of a crate: a file of one layer may not import a file of the layers below it
//! that are named as forbidden. A layer is a top-level module of the crate's `src`: the file
//! `x.rs` or `x/mod.rs` and everything under `x/`.

use std::path::Path;

use crate::graph::Edge;

/// The layers of one crate's sources.
#[derive(Clone, Copy, Debug)]
pub struct Layers {
    /// The crate's source directory, from the workspace root.
    pub src: &'static str,
    /// Each layer and the layers it may not import; a layer not listed may import any.
    pub rules: &'static [(&'static str, &'static [&'static str])],
}

/// The web crate (docs/web.md, "Layers"): `transport/` may import `services/`, `views/`,
/// `store` and the files beside them; `services/` may not import `transport/`; `views/`
/// neither `services/` nor `transport/`; the store none of them nor `ops.rs`.
pub const WEB_LAYERS: Layers = Layers {
    src: "crates/sowing-web/src",
    rules: &[
        ("services", &["transport"]),
        ("views", &["services", "transport"]),
        ("store", &["transport", "services", "views", "ops"]),
    ],
};

/// A file importing a layer its own layer may not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The import.
    pub edge: Edge,
    /// The importing file's layer.
    pub layer: &'static str,
    /// The imported file's layer.
    pub forbidden: &'static str,
}

/// Every edge of `edges` that breaks a rule of `layers`.
pub fn violations(edges: &[Edge], layers: &Layers) -> Vec<Violation> {
    let mut found = Vec::new();
    for edge in edges {
        let (Some(from), Some(to)) = (layer(layers.src, &edge.from), layer(layers.src, &edge.to))
        else {
            continue;
        };
        for &(layer, forbidden) in layers.rules {
            if layer == from {
                if let Some(&forbidden) = forbidden.iter().find(|f| **f == to) {
                    found.push(Violation {
                        edge: edge.clone(),
                        layer,
                        forbidden,
                    });
                }
            }
        }
    }
    found
}

/// The top-level module of `src` that `file` belongs to (`store` for `store.rs` and
/// `store/sql.rs`).
fn layer<'f>(src: &str, file: &'f Path) -> Option<&'f str> {
    let first = file.strip_prefix(src).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    Some(name.strip_suffix(".rs").unwrap_or(name))
}
