//! The paths a file names, from its syntax alone: every `use` path (a `pub use` too) and
//! every qualified path of two segments or more in items, types and expressions (and in
//! the bodies of macros that read as expressions). `mod x;` names nothing: it declares.

use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

/// A path named in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The inline modules (`mod x { … }`) the path is written in, outermost first.
    pub scope: Vec<String>,
    /// The path's segments (`crate`, `super`, `self` included; a group of a `use` tree
    /// flattened, `self` in a group dropped, a glob's path without the `*`).
    pub segments: Vec<String>,
}

/// The paths `file` names.
pub fn references(file: &syn::File) -> Vec<Reference> {
    let mut collector = Collector::default();
    collector.visit_file(file);
    collector.found
}

#[derive(Default)]
struct Collector {
    scope: Vec<String>,
    found: Vec<Reference>,
}

impl Collector {
    fn use_path(&mut self, segments: Vec<String>) {
        self.found.push(Reference {
            scope: self.scope.clone(),
            segments,
        });
    }

    /// Each path of a `use` tree, after `prefix`.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(&path.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(name) if name.ident == "self" => self.use_path(prefix.clone()),
            syn::UseTree::Name(name) => {
                self.use_path([prefix.clone(), vec![name.ident.to_string()]].concat())
            }
            syn::UseTree::Rename(rename) => {
                self.use_path([prefix.clone(), vec![rename.ident.to_string()]].concat())
            }
            syn::UseTree::Glob(_) => self.use_path(prefix.clone()),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        if let Some((_, items)) = &module.content {
            self.scope.push(module.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.scope.pop();
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // `use ::x` names another crate.
        if item.leading_colon.is_none() {
            self.use_tree(&item.tree, &mut Vec::new());
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            self.found.push(Reference {
                scope: self.scope.clone(),
                segments: path.segments.iter().map(|s| s.ident.to_string()).collect(),
            });
        }
        visit::visit_path(self, path);
    }

    // `pub(in crate::x)` grants, it does not use.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        let parser = Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(arguments) = mac.parse_body_with(parser) {
            for argument in &arguments {
                self.visit_expr(argument);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        let file = syn::parse_file(text).expect("Rust");
        references(&file)
            .into_iter()
            .map(|r| [r.scope, r.segments].concat().join("::"))
            .collect()
    }

    #[test]
    fn use_trees_are_flattened_and_groups_self_names_the_module() {
        assert_eq!(
            paths("use crate::{a::B, c::{self, d::*}}; use ::other::x;"),
            ["crate::a::B", "crate::c", "crate::c::d"]
        );
    }

    #[test]
    fn qualified_paths_in_code_and_macros_count_and_module_declarations_do_not() {
        assert_eq!(
            paths("mod x; mod inner { fn f() { assert!(super::a::f()); let _: crate::b::T; } }"),
            ["inner::super::a::f", "inner::crate::b::T"]
        );
    }
}
