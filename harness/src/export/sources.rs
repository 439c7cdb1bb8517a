//! A crate's source files as one module tree, and the text edits that turn
//! it into a single file: every out-of-line `mod x;` becomes `mod x { ... }`
//! with the file's text inside, and `#[cfg(test)]` items go (they may use
//! dev-dependencies, and no judge runs them).

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use quote::ToTokens;

use super::error::BundleError;

/// One parsed source file.
pub(crate) struct SourceFile {
    pub(crate) path: PathBuf,
    pub(crate) text: String,
    pub(crate) ast: syn::File,
}

/// What replaces a byte range of a file.
pub(crate) enum Edit {
    Text(String),
    /// The body of an out-of-line module: this file, rendered, in braces.
    Inline(usize),
}

/// A crate's files: `files[0]` is its root (`lib.rs`, `main.rs` or a bin).
pub(crate) struct CrateTree {
    pub(crate) files: Vec<SourceFile>,
    /// Out-of-line module items: (file, start of the `mod` item) → the file
    /// holding its body.
    pub(crate) children: HashMap<(usize, usize), usize>,
    edits: Vec<Vec<(Range<usize>, Edit)>>,
}

impl CrateTree {
    /// Reads the crate rooted at `root` and every module file it declares.
    pub(crate) fn load(root: &Path) -> Result<CrateTree, BundleError> {
        let mut tree = CrateTree {
            files: Vec::new(),
            children: HashMap::new(),
            edits: Vec::new(),
        };
        let dir = root.parent().unwrap_or(Path::new(".")).to_path_buf();
        tree.load_file(root, &dir)?;
        Ok(tree)
    }

    /// Loads `path`, whose own `mod x;` declarations live in `child_dir`.
    fn load_file(&mut self, path: &Path, child_dir: &Path) -> Result<usize, BundleError> {
        let text = std::fs::read_to_string(path).map_err(|source| BundleError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let ast = syn::parse_file(&text).map_err(|e| BundleError::Parse {
            path: path.to_path_buf(),
            line: e.span().start().line,
            message: e.to_string(),
        })?;
        let index = self.files.len();
        let mut declarations = Vec::new();
        let mut removals = Vec::new();
        collect_modules(
            &ast.items,
            path.parent().unwrap_or(Path::new(".")),
            child_dir,
            true,
            &mut declarations,
            &mut removals,
        );
        self.files.push(SourceFile {
            path: path.to_path_buf(),
            text,
            ast,
        });
        self.edits.push(Vec::new());
        for range in removals {
            self.remove(index, range);
        }
        for declaration in declarations {
            let (file, dir) = declaration.resolve()?;
            let child = self.load_file(&file, &dir)?;
            self.children.insert((index, declaration.item.start), child);
            for attribute in declaration.path_attributes {
                self.edits[index].push((attribute, Edit::Text(String::new())));
            }
            self.edits[index].push((declaration.semicolon, Edit::Inline(child)));
        }
        Ok(index)
    }

    pub(crate) fn edit(&mut self, file: usize, range: Range<usize>, replacement: String) {
        self.edits[file].push((range, Edit::Text(replacement)));
    }

    /// Removes an item with the `//` comment lines right above it and the
    /// blank lines after it, so the output has no holes.
    pub(crate) fn remove(&mut self, file: usize, range: Range<usize>) {
        let text = &self.files[file].text;
        let mut start = range.start;
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        if text[line_start..start].trim().is_empty() {
            start = line_start;
            while start > 0 {
                let above = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
                let line = text[above..start - 1].trim_start();
                if !line.starts_with("//") || line.starts_with("//!") {
                    break;
                }
                start = above;
            }
        }
        let rest = &text[range.end..];
        let end = range.end + (rest.len() - rest.trim_start().len());
        // Keep the indentation of whatever follows.
        let end = text[..end]
            .rfind('\n')
            .map_or(end, |i| (i + 1).max(range.end));
        self.edit(file, start..end, String::new());
    }

    /// Whether `at` lies inside a range of `file` that an edit replaces
    /// (a removed item, a rewritten `use`): code there is not in the output.
    pub(crate) fn is_replaced(&self, file: usize, at: usize) -> bool {
        self.edits[file]
            .iter()
            .any(|(range, _)| range.start <= at && at < range.end)
    }

    /// The file's text with its edits applied, modules inlined. An edit
    /// inside a range another edit replaces is dropped with it.
    pub(crate) fn render(&self, file: usize) -> String {
        let text = &self.files[file].text;
        let mut edits: Vec<&(Range<usize>, Edit)> = self.edits[file].iter().collect();
        edits.sort_by_key(|(range, _)| (range.start, std::cmp::Reverse(range.end)));
        let mut out = String::with_capacity(text.len());
        let mut cursor = 0;
        for (range, edit) in edits {
            if range.start < cursor {
                continue;
            }
            out.push_str(&text[cursor..range.start]);
            match edit {
                Edit::Text(replacement) => out.push_str(replacement),
                Edit::Inline(child) => {
                    out.push_str(" {\n");
                    out.push_str(&self.render(*child));
                    out.push_str("}\n");
                }
            }
            cursor = range.end;
        }
        out.push_str(&text[cursor..]);
        out
    }
}

/// A `mod x;` to load.
struct ModuleDeclaration {
    item: Range<usize>,
    semicolon: Range<usize>,
    path_attributes: Vec<Range<usize>>,
    /// Where the body is, as the `#[path]` attribute or Rust's rules say.
    candidates: Vec<(PathBuf, PathBuf)>,
}

impl ModuleDeclaration {
    /// The body's file and the folder of its own submodules.
    fn resolve(&self) -> Result<(PathBuf, PathBuf), BundleError> {
        self.candidates
            .iter()
            .find(|(file, _)| file.is_file())
            .cloned()
            .ok_or_else(|| BundleError::ModuleNotFound {
                tried: self
                    .candidates
                    .iter()
                    .map(|(file, _)| file.clone())
                    .collect(),
            })
    }
}

/// Finds the out-of-line modules among `items` (recursing into inline ones)
/// and the `#[cfg(test)]` items to remove. `file_dir` is the folder of the
/// file, `child_dir` the folder of this module's submodules, `top` whether
/// the items are at file level (where `#[path]` is relative to `file_dir`).
fn collect_modules(
    items: &[syn::Item],
    file_dir: &Path,
    child_dir: &Path,
    top: bool,
    declarations: &mut Vec<ModuleDeclaration>,
    removals: &mut Vec<Range<usize>>,
) {
    for item in items {
        if is_cfg_test(item_attributes(item)) {
            removals.push(byte_range(item));
            continue;
        }
        let syn::Item::Mod(module) = item else {
            continue;
        };
        let name = module.ident.to_string();
        let path_attributes: Vec<&syn::Attribute> = module
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("path"))
            .collect();
        let path_value = path_attributes.iter().find_map(|a| match &a.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                ..
            }) => Some(s.value()),
            _ => None,
        });
        match (&module.content, &module.semi) {
            (Some((_, inner)), _) => {
                let inner_dir = match &path_value {
                    Some(p) => child_dir.join(p),
                    None => child_dir.join(&name),
                };
                collect_modules(inner, file_dir, &inner_dir, false, declarations, removals);
            }
            (None, Some(semi)) => {
                let candidates = match &path_value {
                    // A file named by `#[path]` owns its folder, like a mod.rs.
                    Some(p) => {
                        let file = if top {
                            file_dir.join(p)
                        } else {
                            child_dir.join(p)
                        };
                        let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
                        vec![(file, dir)]
                    }
                    None => vec![
                        (child_dir.join(format!("{name}.rs")), child_dir.join(&name)),
                        (child_dir.join(&name).join("mod.rs"), child_dir.join(&name)),
                    ],
                };
                declarations.push(ModuleDeclaration {
                    item: byte_range(item),
                    semicolon: byte_range(semi),
                    path_attributes: path_attributes.iter().map(|a| byte_range(*a)).collect(),
                    candidates,
                });
            }
            (None, None) => {}
        }
    }
}

/// The byte range of a syntax node in its file, attributes and doc
/// comments included.
pub(crate) fn byte_range(node: &impl ToTokens) -> Range<usize> {
    let mut tokens = node.to_token_stream().into_iter();
    let Some(first) = tokens.next() else {
        return 0..0;
    };
    let start = first.span().byte_range().start;
    let end = tokens
        .last()
        .map_or(first.span().byte_range().end, |t| t.span().byte_range().end);
    start..end
}

/// 1-based line of a byte offset.
pub(crate) fn line_at(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

pub(crate) fn item_attributes(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`: compiled only into the crate's own tests.
pub(crate) fn is_cfg_test(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(list) if list.tokens.to_string() == "test")
    })
}
