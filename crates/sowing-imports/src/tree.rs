//! The module tree of each crate target (library, binary), found the way the compiler finds
//! it: from the crate root through its `mod` declarations (`x.rs` or `x/mod.rs`, `#[path]`,
//! inline `mod x { … }`), so that a path like `crate::a::b` names a file.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// A module's path from its crate root (`[]` for the root, `["store", "sql"]`).
pub type ModulePath = Vec<String>;

/// One crate target's modules.
#[derive(Debug, Default)]
pub struct CrateTree {
    /// Each module's file (an inline module's is the file that holds it).
    pub modules: BTreeMap<ModulePath, PathBuf>,
    /// Each file's own module (not its inline ones).
    pub files: BTreeMap<PathBuf, ModulePath>,
}

/// The trees of every crate root among `files` (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`,
/// `src/bin/x/main.rs`). A declared module whose file is not among them is left out.
pub fn crate_trees(files: &BTreeMap<PathBuf, syn::File>) -> Vec<CrateTree> {
    files
        .iter()
        .filter(|(path, _)| is_crate_root(path))
        .map(|(path, file)| {
            let mut tree = CrateTree::default();
            let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
            tree.add_file(files, path, file, Vec::new(), dir);
            tree
        })
        .collect()
}

/// Whether `path` is where the compiler starts a crate target.
fn is_crate_root(path: &Path) -> bool {
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned()
    };
    let file = name(Some(path));
    let parent = name(path.parent());
    let grandparent = name(path.parent().and_then(Path::parent));
    (parent == "src" && (file == "lib.rs" || file == "main.rs"))
        || (parent == "bin" && grandparent == "src" && file.ends_with(".rs"))
        || (grandparent == "bin" && file == "main.rs")
}

impl CrateTree {
    /// Adds `file` as module `module`, whose child modules' files are in `dir`, then its
    /// children.
    fn add_file(
        &mut self,
        files: &BTreeMap<PathBuf, syn::File>,
        path: &Path,
        file: &syn::File,
        module: ModulePath,
        dir: PathBuf,
    ) {
        if self.files.contains_key(path) {
            return; // a file declared twice: its first place stands
        }
        self.files.insert(path.to_path_buf(), module.clone());
        let here = path.parent().unwrap_or(Path::new("")).to_path_buf();
        self.add_items(files, path, &file.items, module, dir, Some(here));
    }

    /// Registers `module` (held by `path`) and the modules its `items` declare. `here` is
    /// the directory a `#[path]` is relative to, when outside any inline module.
    fn add_items(
        &mut self,
        files: &BTreeMap<PathBuf, syn::File>,
        path: &Path,
        items: &[syn::Item],
        module: ModulePath,
        dir: PathBuf,
        here: Option<PathBuf>,
    ) {
        self.modules.insert(module.clone(), path.to_path_buf());
        for item in items {
            let syn::Item::Mod(declared) = item else {
                continue;
            };
            let name = declared.ident.to_string();
            let mut child = module.clone();
            child.push(name.clone());
            let attribute = path_attribute(&declared.attrs);
            match &declared.content {
                Some((_, inner)) => {
                    let inner_dir = match &attribute {
                        Some(p) => normalize(&dir.join(p)),
                        None => dir.join(&name),
                    };
                    self.add_items(files, path, inner, child, inner_dir, None);
                }
                None => {
                    let candidates = match &attribute {
                        Some(p) => vec![normalize(&here.as_ref().unwrap_or(&dir).join(p))],
                        None => vec![
                            dir.join(format!("{name}.rs")),
                            dir.join(&name).join("mod.rs"),
                        ],
                    };
                    let Some((child_path, child_file)) = candidates
                        .iter()
                        .find_map(|c| files.get_key_value(c.as_path()))
                    else {
                        continue;
                    };
                    // `x.rs` keeps its children in `x/`; `x/mod.rs` and a `#[path]` file
                    // in their own directory.
                    let child_dir = if attribute.is_none() && !child_path.ends_with("mod.rs") {
                        dir.join(&name)
                    } else {
                        child_path.parent().unwrap_or(Path::new("")).to_path_buf()
                    };
                    self.add_file(files, child_path, child_file, child, child_dir);
                }
            }
        }
    }
}

/// The value of a `#[path = "…"]` attribute.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(pair) if pair.path.is_ident("path") => match &pair.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => Some(text.value()),
            _ => None,
        },
        _ => None,
    })
}

/// `path` with its `.` and `..` steps taken.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
