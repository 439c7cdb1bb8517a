//! The library's source as the compiler sees it: every file reached from
//! `harness/src/lib.rs` through `mod` declarations (a `#[path]` one too),
//! with its module path, and every path in it that leaves its own
//! top-level module (`use crate::...`, `crate::...` and `super::...` in
//! code, `$crate::...` in a macro).
//!
//! The paths are read from tokens, not from text, so comments and string
//! literals (the export tests write whole crates in strings) name nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// One file of the library.
pub struct SourceFile {
    /// Relative to `harness/src`, with `/` between folders.
    pub path: String,
    pub text: String,
    /// The top-level module the file belongs to (`sandbox` for
    /// `sandbox/imp.rs`, `verdict` for `verdict.rs`), or "" for `lib.rs`.
    pub unit: String,
}

/// A path in `file` (of the top-level module `from`), at `line`, into
/// the top-level module `unit`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reference {
    pub file: String,
    pub line: usize,
    pub from: String,
    pub unit: String,
}

/// The library: its files and the references between top-level modules.
pub struct Library {
    pub files: Vec<SourceFile>,
    /// The modules `lib.rs` declares, by name.
    pub units: Vec<String>,
    pub references: Vec<Reference>,
}

pub fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Reads the library from `harness/src/lib.rs` down.
pub fn library() -> Library {
    library_at(&src_dir())
}

/// Reads the crate whose root is `src/lib.rs`.
pub fn library_at(src: &Path) -> Library {
    let mut walk = Walk {
        src: src.to_path_buf(),
        files: Vec::new(),
        found: Vec::new(),
    };
    walk.file(&src.join("lib.rs"), &[], src);
    let root = walk.files.first().expect("lib.rs is read first");
    let units = declared_modules(&tokens_of(root));
    let reexports = root_reexports(&tokens_of(root));
    let references = walk
        .found
        .into_iter()
        .filter_map(|(file, line, name)| {
            let unit = if units.contains(&name) {
                name
            } else if let Some(unit) = reexports.get(&name) {
                unit.clone()
            } else {
                panic!(
                    "{file}:{line}: `crate::{name}` is neither a module nor a re-export of lib.rs"
                );
            };
            let from = walk.files.iter().find(|f| f.path == file)?.unit.clone();
            (unit != from && !from.is_empty()).then_some(Reference {
                file,
                line,
                from,
                unit,
            })
        })
        .collect();
    Library {
        files: walk.files,
        units,
        references,
    }
}

struct Walk {
    src: PathBuf,
    files: Vec<SourceFile>,
    /// (file, line, first name after the crate root)
    found: Vec<(String, usize, String)>,
}

impl Walk {
    /// Reads the file of module `module`, whose `mod x;` children live in
    /// `child_dir`.
    fn file(&mut self, path: &Path, module: &[String], child_dir: &Path) {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let relative = path
            .strip_prefix(&self.src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let tokens: TokenStream = text
            .parse()
            .unwrap_or_else(|e| panic!("{relative}: not Rust tokens: {e:?}"));
        self.files.push(SourceFile {
            path: relative.clone(),
            text,
            unit: module.first().cloned().unwrap_or_default(),
        });
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        self.tokens(&tokens, &relative, path, module, child_dir);
    }

    /// Scans `tokens` of `file` (at `file_path`), inside module `module`.
    fn tokens(
        &mut self,
        tokens: &[TokenTree],
        file: &str,
        file_path: &Path,
        module: &[String],
        child_dir: &Path,
    ) {
        let mut path_attribute: Option<String> = None;
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    if let Some(TokenTree::Group(g)) = tokens.get(i + 1)
                        && g.delimiter() == Delimiter::Bracket
                    {
                        if let Some(path) = path_attribute_of(g.stream()) {
                            path_attribute = Some(path);
                        }
                        i += 2;
                        continue;
                    }
                }
                TokenTree::Punct(p) if p.as_char() == ';' => path_attribute = None,
                TokenTree::Ident(id) if id == "mod" => {
                    if let Some(TokenTree::Ident(name)) = tokens.get(i + 1) {
                        let name = name.to_string();
                        let child: Vec<String> =
                            module.iter().cloned().chain([name.clone()]).collect();
                        match tokens.get(i + 2) {
                            Some(TokenTree::Punct(p)) if p.as_char() == ';' => {
                                let (path, dir) = match path_attribute.take() {
                                    Some(at) => {
                                        let path = file_path.parent().unwrap().join(at);
                                        let dir = path.with_extension("");
                                        (path, dir)
                                    }
                                    None => module_file(child_dir, &name),
                                };
                                self.file(&path, &child, &dir);
                                i += 3;
                                continue;
                            }
                            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                                self.tokens(
                                    &inner,
                                    file,
                                    file_path,
                                    &child,
                                    &child_dir.join(&name),
                                );
                                i += 3;
                                continue;
                            }
                            _ => {}
                        }
                    }
                }
                TokenTree::Ident(id) if id == "crate" && is_path_separator(tokens, i + 1) => {
                    let line = id.span().start().line;
                    for name in names_after(tokens, i + 3) {
                        self.found.push((file.to_owned(), line, name));
                    }
                }
                TokenTree::Ident(id)
                    if id == "super"
                        && is_path_separator(tokens, i + 1)
                        && !(i >= 1 && is_colon(&tokens[i - 1])) =>
                {
                    let line = id.span().start().line;
                    let mut up = 1;
                    let mut next = i + 3;
                    while matches!(tokens.get(next), Some(TokenTree::Ident(s)) if s == "super")
                        && is_path_separator(tokens, next + 1)
                    {
                        up += 1;
                        next += 3;
                    }
                    // Only a path that climbs to the crate root can leave
                    // its top-level module.
                    if up == module.len() {
                        for name in names_after(tokens, next) {
                            self.found.push((file.to_owned(), line, name));
                        }
                    }
                    assert!(
                        up <= module.len(),
                        "{file}:{line}: `super` above the crate root"
                    );
                }
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    self.tokens(&inner, file, file_path, module, child_dir);
                    if g.delimiter() == Delimiter::Brace {
                        path_attribute = None;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// `dir/name.rs` (its children in `dir/name/`) or `dir/name/mod.rs`.
fn module_file(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        (flat, dir.join(name))
    } else {
        (dir.join(name).join("mod.rs"), dir.join(name))
    }
}

fn is_colon(token: &TokenTree) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == ':')
}

/// Whether `tokens[at..]` starts with `::`.
fn is_path_separator(tokens: &[TokenTree], at: usize) -> bool {
    tokens.get(at).is_some_and(is_colon) && tokens.get(at + 1).is_some_and(is_colon)
}

/// The first names of the paths at `tokens[at]`: `x` in `x::y`, `x` and
/// `z` in `{x::y, z}`; none for `self`.
fn names_after(tokens: &[TokenTree], at: usize) -> Vec<String> {
    match tokens.get(at) {
        Some(TokenTree::Ident(name)) if name != "self" => vec![name.to_string()],
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            inner
                .split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                .filter_map(|part| match part.first() {
                    Some(TokenTree::Ident(name)) if name != "self" => Some(name.to_string()),
                    _ => None,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// `x` of `path = "x"`.
fn path_attribute_of(attribute: TokenStream) -> Option<String> {
    let tokens: Vec<TokenTree> = attribute.into_iter().collect();
    match tokens.as_slice() {
        [
            TokenTree::Ident(name),
            TokenTree::Punct(eq),
            TokenTree::Literal(value),
        ] if name == "path" && eq.as_char() == '=' => {
            Some(value.to_string().trim_matches('"').to_owned())
        }
        _ => None,
    }
}

fn tokens_of(file: &SourceFile) -> Vec<TokenTree> {
    file.text
        .parse::<TokenStream>()
        .unwrap()
        .into_iter()
        .collect()
}

/// The names of `mod x;` at the top of `tokens`.
fn declared_modules(tokens: &[TokenTree]) -> Vec<String> {
    tokens
        .windows(3)
        .filter_map(|w| match w {
            [
                TokenTree::Ident(m),
                TokenTree::Ident(name),
                TokenTree::Punct(semi),
            ] if m == "mod" && semi.as_char() == ';' => Some(name.to_string()),
            _ => None,
        })
        .collect()
}

/// What `lib.rs` re-exports at the root (`pub use errors::{Error, Result}`),
/// by the name it is known under, to the module it comes from.
fn root_reexports(tokens: &[TokenTree]) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for (i, token) in tokens.iter().enumerate() {
        let (TokenTree::Ident(u), Some(TokenTree::Ident(unit))) = (token, tokens.get(i + 1)) else {
            continue;
        };
        if u != "use" {
            continue;
        }
        let end = tokens[i..]
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
            .map_or(tokens.len(), |n| i + n);
        for name in leaf_names(&tokens[i + 2..end]) {
            found.insert(name, unit.to_string());
        }
    }
    found
}

/// The names a use tree brings in: the last name of each path, or its
/// `as` name.
fn leaf_names(tokens: &[TokenTree]) -> Vec<String> {
    match tokens.last() {
        Some(TokenTree::Group(g)) => {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            inner
                .split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                .flat_map(leaf_names)
                .collect()
        }
        Some(TokenTree::Ident(name)) => vec![name.to_string()],
        _ => Vec::new(),
    }
}
