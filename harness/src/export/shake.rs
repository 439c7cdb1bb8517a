//! Which items of the workspace's library crates a program needs.
//!
//! A package's library mixes what its validator or interactor needs with
//! the generator's code, which uses `rand`; a single-file program must not
//! carry the latter. Starting from the names the program mentions, an item
//! is kept when something kept mentions it, until nothing changes. Names
//! are resolved loosely, by what Rust code shows without type checking:
//!
//! - `a::name` mentions `name` in every module called `a` (or in any
//!   module, for `crate::`, `self::`, `super::`, `Self::`);
//! - a bare `name` mentions it in the module where it is written;
//! - methods and associated items (`x.name()`, `Type::name`) are matched
//!   by name in every `impl` whose type is kept, and a trait is kept when
//!   one of its methods is mentioned;
//! - `use` lines keep the imports something mentions, and every import
//!   from `std`; a kept import from a crate outside the workspace is an
//!   error that names it.
//!
//! This keeps more than needed when two items share a name, never less for
//! the code we write; the export compiles the result to make sure.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use quote::ToTokens;

use super::error::{BundleError, Travel, Untravelled};
use super::imports::{Leaf, UseReferences, flatten, render_leaf};
use super::scan;
use super::sources::{CrateTree, byte_range, is_cfg_test, item_attributes, line_at};

/// A library crate being shaken.
pub(crate) struct Lib {
    /// The name code uses for it (`judge_kit`).
    pub(crate) name: String,
    pub(crate) tree: CrateTree,
}

/// The scope of a bare name: a module of a library, or the program itself.
pub(crate) type Scope = usize;
pub(crate) const PROGRAM: Scope = usize::MAX;

/// A name some kept code mentions.
#[derive(Debug, Clone)]
pub(crate) struct Reference {
    pub(crate) qualifier: Option<String>,
    pub(crate) name: String,
    pub(crate) scope: Scope,
}

/// How much of the libraries survived.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Kept {
    pub(crate) items: usize,
    pub(crate) of: usize,
}

struct Module {
    name: String,
    /// The enclosing module, and where this one's item is (lib, file,
    /// range); `None` for a library's root.
    parent: Option<(Scope, usize, usize, Range<usize>)>,
}

enum Kind {
    /// A named item; a trait also answers to its methods' names.
    Item { name: String, methods: Vec<String> },
    /// Kept whatever happens (item-level macro calls, `const _`).
    Always,
    Impl {
        self_name: Option<String>,
        trait_name: Option<String>,
        trait_foreign: bool,
        /// Members are shaken on their own in inherent impls only.
        inherent: bool,
        header: Vec<Reference>,
    },
    Member {
        name: String,
        owner: usize,
        self_name: Option<String>,
    },
    Use {
        leaves: Vec<Leaf>,
        visibility: String,
    },
}

struct Node {
    lib: usize,
    file: usize,
    range: Range<usize>,
    scope: Scope,
    kind: Kind,
    kept: bool,
    /// Everything its tokens mention (for an impl, its members included).
    references: Vec<Reference>,
}

/// Names that stand for "some module": a qualified mention with them
/// matches items anywhere.
fn is_wildcard(qualifier: &str) -> bool {
    matches!(qualifier, "crate" | "self" | "super" | "Self")
}

fn is_std(root: &str) -> bool {
    matches!(root, "std" | "core" | "alloc")
}

/// Shakes `libs` for a program that mentions `program`; records the edits
/// that remove what is not needed. `foreign`: crates outside the workspace.
pub(crate) fn shake(
    program: Vec<Reference>,
    libs: &mut [Lib],
    foreign: &BTreeSet<String>,
) -> Result<Kept, BundleError> {
    let lib_names: Vec<String> = libs.iter().map(|l| l.name.clone()).collect();
    let mut graph = Graph {
        nodes: Vec::new(),
        modules: Vec::new(),
        references: HashMap::new(),
        kept_names: BTreeSet::new(),
        foreign: foreign.clone(),
        globs: Vec::new(),
    };
    for (index, lib) in libs.iter().enumerate() {
        let scope = graph.module(lib.name.clone(), None);
        let items = &lib.tree.files[0].ast.items;
        graph.collect(libs, index, 0, items, scope, foreign);
    }
    for reference in program {
        graph.add(reference);
    }
    let always: Vec<usize> = (0..graph.nodes.len())
        .filter(|&i| matches!(graph.nodes[i].kind, Kind::Always))
        .collect();
    for i in always {
        graph.keep(i);
    }
    graph.settle();

    let mut errors = Vec::new();
    let mut kept = Kept::default();
    for node in &graph.nodes {
        let lib = &mut libs[node.lib];
        match &node.kind {
            Kind::Use { leaves, visibility } => {
                let mut text = String::new();
                for leaf in leaves.iter().filter(|l| l.kept) {
                    let root = leaf.path.first().unwrap_or(&leaf.name);
                    if foreign.contains(root) {
                        let file = &lib.tree.files[node.file];
                        errors.push(Untravelled {
                            path: file.path.clone(),
                            line: line_at(&file.text, node.range.start),
                            what: Travel::ForeignUse {
                                path: leaf.path.join("::") + "::" + &leaf.name,
                                krate: root.clone(),
                            },
                        });
                    }
                    text += &render_leaf(leaf, visibility, &lib.name, &lib_names);
                }
                if text.is_empty() {
                    lib.tree.remove(node.file, node.range.clone());
                } else {
                    text.pop(); // the item's own newline follows it
                    lib.tree.edit(node.file, node.range.clone(), text);
                }
            }
            Kind::Always => {}
            _ => {
                kept.of += 1;
                if node.kept {
                    kept.items += 1;
                } else {
                    lib.tree.remove(node.file, node.range.clone());
                }
            }
        }
    }
    // A module none of whose items is kept goes too.
    let mut used = vec![false; graph.modules.len()];
    for node in graph
        .nodes
        .iter()
        .filter(|n| n.kept && !matches!(n.kind, Kind::Use { .. }))
    {
        let mut scope = Some(node.scope);
        while let Some(s) = scope.filter(|&s| !used[s]) {
            used[s] = true;
            scope = graph.modules[s].parent.as_ref().map(|p| p.0);
        }
    }
    for (module, used) in graph.modules.iter().zip(used) {
        if let (Some((_, lib, file, range)), false) = (&module.parent, used) {
            libs[*lib].tree.remove(*file, range.clone());
        }
    }
    if errors.is_empty() {
        Ok(kept)
    } else {
        Err(BundleError::CannotTravel { places: errors })
    }
}

struct Graph {
    nodes: Vec<Node>,
    modules: Vec<Module>,
    /// By name: every mention of it.
    references: HashMap<String, Vec<Reference>>,
    /// Names of the kept items.
    kept_names: BTreeSet<String>,
    /// Crates outside the workspace.
    foreign: BTreeSet<String>,
    /// `use a::*` in module `scope`: (scope, `a`). Names of `a` are then
    /// also names of `scope`, bare or qualified by its name.
    globs: Vec<(Scope, String)>,
}

impl Graph {
    fn module(
        &mut self,
        name: String,
        parent: Option<(Scope, usize, usize, Range<usize>)>,
    ) -> Scope {
        self.modules.push(Module { name, parent });
        self.modules.len() - 1
    }

    fn add(&mut self, reference: Reference) {
        self.references
            .entry(reference.name.clone())
            .or_default()
            .push(reference);
    }

    fn keep(&mut self, node: usize) {
        if self.nodes[node].kept {
            return;
        }
        self.nodes[node].kept = true;
        if let Kind::Item { name, .. } = &self.nodes[node].kind {
            self.kept_names.insert(name.clone());
        }
        let references = match &self.nodes[node].kind {
            Kind::Impl {
                inherent: true,
                header,
                ..
            } => header.clone(),
            _ => self.nodes[node].references.clone(),
        };
        for reference in references {
            self.add(reference);
        }
    }

    /// Whether something mentions `name` as an item of module `scope`.
    fn mentions_item(&self, name: &str, scope: Scope) -> bool {
        let module = &self.modules[scope].name;
        // `use module::*` in `from`: its bare names may be ours.
        let imports_us = |from: Scope| {
            self.globs
                .iter()
                .any(|(s, target)| *s == from && (target == module || is_wildcard(target)))
        };
        self.references.get(name).is_some_and(|all| {
            all.iter().any(|r| match &r.qualifier {
                None => r.scope == scope || imports_us(r.scope),
                Some(q) => {
                    q == module
                        || is_wildcard(q)
                        || self.globs.iter().any(|(s, _)| {
                            self.modules.get(*s).is_some_and(|m| &m.name == q) && imports_us(*s)
                        })
                }
            })
        })
    }

    /// Whether something mentions `name` as a method or associated item of
    /// `owner` (or of any type: a method call does not say whose).
    fn mentions_member(&self, name: &str, owner: Option<&str>) -> bool {
        self.references.get(name).is_some_and(|all| {
            all.iter().any(|r| match &r.qualifier {
                None => true,
                Some(q) => is_wildcard(q) || Some(q.as_str()) == owner,
            })
        })
    }

    /// Keeps nodes until nothing more is mentioned.
    fn settle(&mut self) {
        let defined: BTreeSet<String> = self
            .nodes
            .iter()
            .filter_map(|n| match &n.kind {
                Kind::Item { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        loop {
            let mut changed = false;
            for i in 0..self.nodes.len() {
                let node = &self.nodes[i];
                let keep = match &node.kind {
                    _ if node.kept => false,
                    Kind::Item { name, methods } => {
                        self.mentions_item(name, node.scope)
                            || methods.iter().any(|m| self.mentions_member(m, Some(name)))
                    }
                    Kind::Always => true,
                    Kind::Impl {
                        self_name,
                        trait_name,
                        trait_foreign,
                        ..
                    } => {
                        let ours =
                            |n: &Option<String>| n.as_ref().is_some_and(|n| defined.contains(n));
                        let kept = |n: &Option<String>| {
                            !ours(n) || n.as_ref().is_some_and(|n| self.kept_names.contains(n))
                        };
                        (ours(self_name) || ours(trait_name))
                            && !trait_foreign
                            && kept(self_name)
                            && kept(trait_name)
                    }
                    Kind::Member {
                        name,
                        owner,
                        self_name,
                    } => {
                        self.nodes[*owner].kept && self.mentions_member(name, self_name.as_deref())
                    }
                    Kind::Use { .. } => false,
                };
                if keep {
                    self.keep(i);
                    changed = true;
                }
                changed |= self.settle_imports(i);
            }
            if !changed {
                break;
            }
        }
    }

    /// Keeps the imports of use node `i` that something mentions.
    fn settle_imports(&mut self, i: usize) -> bool {
        let scope = self.nodes[i].scope;
        let Kind::Use { leaves, .. } = &self.nodes[i].kind else {
            return false;
        };
        let mut newly = Vec::new();
        for (j, leaf) in leaves.iter().enumerate() {
            let root = leaf.path.first().map_or(leaf.name.as_str(), String::as_str);
            // A glob is kept unless it reaches outside the workspace (then
            // what it brings cannot be told, and it must not be needed).
            let wanted = is_std(root)
                || (leaf.name == "*" && !self.foreign.contains(root))
                || self.mentions_item(leaf.bound(), scope);
            if !leaf.kept && wanted {
                newly.push(j);
            }
        }
        let mut added = Vec::new();
        if let Kind::Use { leaves, .. } = &mut self.nodes[i].kind {
            for &j in &newly {
                let leaf = &mut leaves[j];
                leaf.kept = true;
                if leaf.name != "self" && leaf.name != "*" {
                    added.push(Reference {
                        qualifier: Some(
                            leaf.path.last().cloned().unwrap_or_else(|| "crate".into()),
                        ),
                        name: leaf.name.clone(),
                        scope,
                    });
                }
            }
        }
        for reference in added {
            self.add(reference);
        }
        self.nodes[i].kept = true;
        !newly.is_empty()
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Adds the nodes of `items` (in file `file` of library `lib`, module
    /// `scope`), recursing into modules.
    fn collect(
        &mut self,
        libs: &[Lib],
        lib: usize,
        file: usize,
        items: &[syn::Item],
        scope: Scope,
        foreign: &BTreeSet<String>,
    ) {
        use syn::Item;
        let tree = &libs[lib].tree;
        for item in items {
            if is_cfg_test(item_attributes(item)) {
                continue;
            }
            let range = byte_range(item);
            let node = |kind: Kind, references: Vec<Reference>| Node {
                lib,
                file,
                range: range.clone(),
                scope,
                kind,
                kept: false,
                references,
            };
            let named = |name: &syn::Ident| Kind::Item {
                name: name.to_string(),
                methods: Vec::new(),
            };
            let kind = match item {
                Item::Mod(module) => {
                    let inner = self.module(
                        module.ident.to_string(),
                        Some((scope, lib, file, range.clone())),
                    );
                    if let Some((_, content)) = &module.content {
                        self.collect(libs, lib, file, content, inner, foreign);
                    } else if let Some(&child) = tree.children.get(&(file, range.start)) {
                        let content = &tree.files[child].ast.items;
                        self.collect(libs, lib, child, content, inner, foreign);
                    }
                    continue;
                }
                Item::Use(usage) => {
                    let mut leaves = Vec::new();
                    flatten(&usage.tree, &mut Vec::new(), &mut leaves);
                    for leaf in leaves.iter().filter(|l| l.name == "*") {
                        let target = leaf.path.last().cloned().unwrap_or_default();
                        if !leaf.path.first().is_some_and(|root| foreign.contains(root)) {
                            self.globs.push((scope, target));
                        }
                    }
                    let visibility = usage.vis.to_token_stream().to_string();
                    let kind = Kind::Use { leaves, visibility };
                    self.push(node(kind, Vec::new()));
                    continue;
                }
                Item::Impl(block) => {
                    self.collect_impl(block, node, scope, foreign);
                    continue;
                }
                Item::Const(c) if c.ident == "_" => Kind::Always,
                Item::Const(c) => named(&c.ident),
                Item::Static(s) => named(&s.ident),
                Item::Fn(f) => named(&f.sig.ident),
                Item::Struct(s) => named(&s.ident),
                Item::Enum(e) => named(&e.ident),
                Item::Union(u) => named(&u.ident),
                Item::Type(t) => named(&t.ident),
                Item::TraitAlias(t) => named(&t.ident),
                Item::Trait(t) => Kind::Item {
                    name: t.ident.to_string(),
                    methods: t
                        .items
                        .iter()
                        .filter_map(|member| match member {
                            syn::TraitItem::Fn(f) => Some(f.sig.ident.to_string()),
                            syn::TraitItem::Const(c) => Some(c.ident.to_string()),
                            _ => None,
                        })
                        .collect(),
                },
                Item::Macro(m) => match &m.ident {
                    Some(name) => named(name),
                    None => Kind::Always,
                },
                _ => Kind::Always,
            };
            let references = references_of(item, scope);
            self.push(node(kind, references));
        }
    }

    fn collect_impl(
        &mut self,
        block: &syn::ItemImpl,
        node: impl Fn(Kind, Vec<Reference>) -> Node,
        scope: Scope,
        foreign: &BTreeSet<String>,
    ) {
        let self_name = type_name(&block.self_ty);
        let (trait_name, trait_foreign) = match &block.trait_ {
            Some((_, path, _)) => (
                path.segments.last().map(|s| s.ident.to_string()),
                path.segments
                    .first()
                    .is_some_and(|s| foreign.contains(&s.ident.to_string())),
            ),
            None => (None, false),
        };
        let inherent = block.trait_.is_none();
        let mut header = block.clone();
        header.items.clear();
        let kind = Kind::Impl {
            self_name: self_name.clone(),
            trait_name,
            trait_foreign,
            inherent,
            header: references_of(&header, scope),
        };
        let owner = self.push(node(kind, references_of(block, scope)));
        if !inherent {
            return;
        }
        for member in &block.items {
            let name = match member {
                syn::ImplItem::Fn(f) => Some(f.sig.ident.to_string()),
                syn::ImplItem::Const(c) => Some(c.ident.to_string()),
                syn::ImplItem::Type(t) => Some(t.ident.to_string()),
                _ => None,
            };
            let kind = match name {
                Some(name) => Kind::Member {
                    name,
                    owner,
                    self_name: self_name.clone(),
                },
                // Macro calls among the members: kept with the impl.
                None => continue,
            };
            let mut member_node = node(kind, references_of(member, scope));
            member_node.range = byte_range(member);
            self.push(member_node);
        }
    }
}

/// The name a type is known by for `impl` matching: `Board` for `Board`,
/// `game::Board<T>` and `&Board`.
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Reference(reference) => type_name(&reference.elem),
        syn::Type::Paren(inner) => type_name(&inner.elem),
        _ => None,
    }
}

fn references_of(node: &impl ToTokens, scope: Scope) -> Vec<Reference> {
    let mut references = Vec::new();
    scan::mentions(node.to_token_stream(), &mut |m| {
        references.push(Reference {
            qualifier: m.qualifier,
            name: m.name,
            scope,
        });
    });
    // `use a::{b, c}` inside a function: `c` follows `{`, not `a::`.
    if let Ok(item) = syn::parse2::<syn::Item>(node.to_token_stream()) {
        let mut found = UseReferences {
            scope,
            references: &mut references,
        };
        syn::visit::Visit::visit_item(&mut found, &item);
    }
    references
}
