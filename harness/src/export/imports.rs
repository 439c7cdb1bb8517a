//! `use` lines as one leaf per imported name: what the shaker keeps or
//! drops one by one, and renders back with paths that work in one file.

use super::shake::{Reference, Scope};

#[derive(Debug, Clone)]
pub(crate) struct Leaf {
    pub(crate) path: Vec<String>,
    /// The imported name (`self` for `a::b::{self}`, `*` for a glob).
    pub(crate) name: String,
    pub(crate) rename: Option<String>,
    /// Whether something kept needs it.
    pub(crate) kept: bool,
}

impl Leaf {
    /// The name this import binds.
    pub(crate) fn bound(&self) -> &str {
        match (&self.rename, self.name.as_str()) {
            (Some(rename), _) => rename,
            (None, "self") => self.path.last().map_or("self", String::as_str),
            (None, name) => name,
        }
    }
}

/// One kept import as a line of its own, its path made to work inside the
/// single file: `crate::` of library `lib` is `crate::lib::`, and another
/// library `other::` is `crate::other::`.
pub(crate) fn render_leaf(leaf: &Leaf, visibility: &str, lib: &str, libs: &[String]) -> String {
    let mut segments: Vec<String> = leaf.path.clone();
    segments.push(leaf.name.clone());
    match segments[0].as_str() {
        "crate" => segments.insert(1, lib.to_string()),
        root if libs.iter().any(|l| l == root) => segments.insert(0, "crate".into()),
        _ => {}
    }
    let path = segments.join("::");
    let rename = leaf
        .rename
        .as_ref()
        .map_or(String::new(), |r| format!(" as {r}"));
    // `a::b::self` is not a path; `a::b::{self}` imports the module.
    let path = path
        .strip_suffix("::self")
        .map_or(path.clone(), |p| format!("{p}::{{self}}"));
    let space = if visibility.is_empty() { "" } else { " " };
    format!("{visibility}{space}use {path}{rename};\n")
}

/// Collects every `use` leaf under a syntax node as a name qualified by
/// the path segment before it.
pub(crate) struct UseReferences<'a> {
    pub(crate) scope: Scope,
    pub(crate) references: &'a mut Vec<Reference>,
}

impl<'ast> syn::visit::Visit<'ast> for UseReferences<'_> {
    fn visit_item_use(&mut self, usage: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        flatten(&usage.tree, &mut Vec::new(), &mut leaves);
        for leaf in leaves {
            if let Some(qualifier) = leaf.path.last() {
                self.references.push(Reference {
                    qualifier: Some(qualifier.clone()),
                    name: leaf.name.clone(),
                    scope: self.scope,
                });
            }
        }
    }
}

/// A `use` tree as one leaf per imported name.
pub(crate) fn flatten(tree: &syn::UseTree, path: &mut Vec<String>, leaves: &mut Vec<Leaf>) {
    match tree {
        syn::UseTree::Path(p) => {
            path.push(p.ident.to_string());
            flatten(&p.tree, path, leaves);
            path.pop();
        }
        syn::UseTree::Name(n) => leaves.push(Leaf {
            path: path.clone(),
            name: n.ident.to_string(),
            rename: None,
            kept: false,
        }),
        syn::UseTree::Rename(r) => leaves.push(Leaf {
            path: path.clone(),
            name: r.ident.to_string(),
            rename: Some(r.rename.to_string()),
            kept: false,
        }),
        syn::UseTree::Glob(_) => leaves.push(Leaf {
            path: path.clone(),
            name: "*".into(),
            rename: None,
            kept: false,
        }),
        syn::UseTree::Group(g) => {
            for item in &g.items {
                flatten(item, path, leaves);
            }
        }
    }
}
