//! The six levels of disguise of Faidhi & Robinson ("An empirical
//! approach for detecting program similarity and plagiarism within a
//! university programming environment", 1987), applied by script to a C,
//! C++, Python or Java file; each level adds its changes to the level
//! before:
//!
//! 1. comments and layout: comments dropped, others added, another
//!    indentation, blank lines, braces on their own lines;
//! 2. identifiers: every name the file declares renamed;
//! 3. declarations: a declaration with a value split from it, a constant
//!    that is never used added;
//! 4. modules: the body of `main` (Python: the code after the last
//!    function) moved into a function of its own, a helper function moved
//!    after `main` (C and C++: with a prototype);
//! 5. statements: a `for` written as a `while`, independent statements
//!    swapped;
//! 6. decision logic: comparisons written another way (`a < b` as
//!    `!(a >= b)` or `b > a`), an `if`'s condition negated and its
//!    branches swapped, `i++` as `i += 1`.
//!
//! Levels 1 to 3 are here, 4 to 6 in `levels_flow.rs`. Each change is a text edit at a node of the file's tree-sitter parse;
//! the seed chooses which. The copies compile and print what the original
//! prints (checked by hand on the fixtures, harness/tests/fixtures/similarity/).

use std::collections::HashSet;
use std::fmt::Write as _;

use harness::similarity::tokens::Language;
use tree_sitter::Node;

use super::levels_flow::{logic, modules, statements};

pub use super::planted::Rng;

pub fn language(ext: &str) -> Language {
    match ext {
        "c" => Language::C,
        "cpp" => Language::Cpp,
        "py" => Language::Python,
        _ => Language::Java,
    }
}

/// `source` disguised at `level` (1 to 6) by copier `seed`.
pub fn disguise(source: &str, ext: &str, level: u8, seed: u64) -> String {
    let language = language(ext);
    let mut rng = Rng::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5151);
    let mut text = source.to_string();
    let steps: [fn(&str, Language, &mut Rng) -> String; 6] =
        [layout, rename, declarations, modules, statements, logic];
    for step in &steps[..usize::from(level.min(6))] {
        text = step(&text, language, &mut rng);
    }
    text
}

/// Replaces byte ranges (which must not overlap) of `text`.
pub fn edit(text: &str, mut edits: Vec<(std::ops::Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = text.to_string();
    let mut last = usize::MAX;
    for (range, with) in edits {
        if range.end > last {
            continue; // overlaps an edit already made
        }
        out.replace_range(range.clone(), &with);
        last = range.start;
    }
    out
}

pub fn walk<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    out.push(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        walk(child, out);
    }
}

pub fn parse(text: &str, language: Language) -> tree_sitter::Tree {
    let grammar: tree_sitter::Language = match language {
        Language::C => tree_sitter_c::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        _ => tree_sitter_java::LANGUAGE.into(),
    };
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar).expect("a grammar");
    parser.parse(text, None).expect("a parse")
}

pub fn all<'t>(tree: &'t tree_sitter::Tree) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    walk(tree.root_node(), &mut out);
    out
}

pub fn src<'a>(text: &'a str, node: Node<'_>) -> &'a str {
    &text[node.byte_range()]
}

pub fn indent_of(text: &str, at: usize) -> String {
    let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

fn comment_mark(language: Language) -> &'static str {
    if language == Language::Python {
        "#"
    } else {
        "//"
    }
}

/// Level 1: comments and layout.
fn layout(text: &str, language: Language, rng: &mut Rng) -> String {
    let tree = parse(text, language);
    let edits = all(&tree)
        .into_iter()
        .filter(|n| n.kind().contains("comment"))
        .map(|n| (n.byte_range(), String::new()))
        .collect();
    let text = edit(text, edits);
    let notes = [
        "read the input",
        "main work",
        "check this",
        "loop over all",
        "print it",
        "helper",
    ];
    let width = if language == Language::Python {
        2
    } else {
        [2, 3, 8][rng.below(3)]
    };
    let allman = language != Language::Python && rng.chance(50);
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            if rng.chance(50) {
                out.push('\n');
            }
            continue;
        }
        let depth = (line.len() - trimmed.len()) / 4;
        let pad = " ".repeat(depth * width);
        if rng.chance(12) && !trimmed.starts_with(['}', ')', '.', '+', '&', '|', 'e']) {
            let _ = writeln!(
                out,
                "{pad}{} {}",
                comment_mark(language),
                notes[rng.below(notes.len())]
            );
        }
        let body = trimmed.trim_end();
        if allman && body.ends_with(" {") && body.len() > 2 && !body.starts_with('}') {
            let _ = writeln!(out, "{pad}{}\n{pad}{{", &body[..body.len() - 2]);
        } else {
            let _ = writeln!(out, "{pad}{body}");
        }
    }
    out
}

/// Names left as they are: entry points, and names a library uses too
/// (a method `print` of the student's own would rename `out.print`).
const KEEP: &[&str] = &[
    "main", "self", "this", "args", "argv", "argc", "print", "println", "printf", "add", "size",
    "get", "put", "append", "length", "push", "pop", "next", "read", "write", "format", "index",
    "count", "sort", "min", "max", "sum", "len", "join", "split", "find", "value", "keys", "ok",
    "in", "out", "err",
];
const NAMES: &[&str] = &[
    "value", "acc", "tmp", "res", "item", "cnt", "idx", "data", "cur", "num", "lim", "flag", "buf",
    "work", "aux", "part", "step", "node", "key", "val", "q", "w", "z", "t2", "r", "m2",
];

/// The names a file declares: variables, parameters, functions, fields.
fn declared(text: &str, tree: &tree_sitter::Tree, language: Language) -> HashSet<String> {
    let mut names = HashSet::new();
    for node in all(tree) {
        let parent = node.parent();
        let field = parent.and_then(|p| {
            let mut cursor = p.walk();
            let index = p.children(&mut cursor).position(|c| c.id() == node.id())?;
            p.field_name_for_child(index as u32)
        });
        let kind = node.kind();
        let name_like = kind == "identifier" || kind == "field_identifier";
        if !name_like {
            continue;
        }
        let parent_kind = parent.map(|p| p.kind()).unwrap_or("");
        let declares = match language {
            Language::Python => {
                matches!(
                    parent_kind,
                    "function_definition" | "parameters" | "default_parameter"
                ) && field != Some("value")
                    || (field == Some("left")
                        && matches!(parent_kind, "assignment" | "for_statement"))
                    || parent_kind == "pattern_list"
                    || (parent_kind == "attribute"
                        && field == Some("attribute")
                        && parent.and_then(|p| p.parent()).is_some_and(|g| {
                            g.kind() == "assignment"
                                && g.child_by_field_name("left")
                                    .is_some_and(|l| l.id() == parent.unwrap().id())
                        }))
            }
            _ => {
                (field == Some("declarator") || field == Some("name"))
                    && matches!(
                        parent_kind,
                        "function_declarator"
                            | "init_declarator"
                            | "parameter_declaration"
                            | "pointer_declarator"
                            | "array_declarator"
                            | "reference_declarator"
                            | "declaration"
                            | "field_declaration"
                            | "for_range_loop"
                            | "variable_declarator"
                            | "formal_parameter"
                            | "method_declaration"
                            | "enhanced_for_statement"
                    )
            }
        };
        if declares {
            names.insert(src(text, node).to_string());
        }
    }
    names.retain(|n| !KEEP.contains(&n.as_str()) && !n.starts_with("__"));
    names
}

/// Level 2: every name the file declares renamed.
fn rename(text: &str, language: Language, rng: &mut Rng) -> String {
    let tree = parse(text, language);
    let names = declared(text, &tree, language);
    let taken: HashSet<String> = all(&tree)
        .into_iter()
        .filter(|n| n.kind().contains("identifier"))
        .map(|n| src(text, n).to_string())
        .collect();
    let mut sorted: Vec<&String> = names.iter().collect();
    sorted.sort();
    let mut map = std::collections::HashMap::new();
    let mut used: HashSet<String> = taken.clone();
    for name in sorted {
        let mut fresh = NAMES[rng.below(NAMES.len())].to_string();
        let mut n = 1;
        while used.contains(&fresh) {
            fresh = format!("{}{n}", NAMES[rng.below(NAMES.len())]);
            n += 1;
        }
        used.insert(fresh.clone());
        map.insert(name.clone(), fresh);
    }
    // `type_identifier` too: C++ reads `vector<int> v(n)` as a function
    // of a parameter of type `n`.
    let edits = all(&tree)
        .into_iter()
        .filter(|n| {
            matches!(
                n.kind(),
                "identifier" | "field_identifier" | "type_identifier"
            )
        })
        .filter_map(|n| {
            map.get(src(text, n))
                .map(|new| (n.byte_range(), new.clone()))
        })
        .collect();
    edit(text, edits)
}

/// Level 3: declarations split from their values; an unused constant.
fn declarations(text: &str, language: Language, rng: &mut Rng) -> String {
    let tree = parse(text, language);
    let mut edits = Vec::new();
    if language != Language::Python {
        for node in all(&tree) {
            let local = matches!(node.kind(), "declaration" | "local_variable_declaration")
                && node
                    .parent()
                    .is_some_and(|p| matches!(p.kind(), "compound_statement" | "block"));
            if !local || !rng.chance(60) {
                continue;
            }
            let mut cursor = node.walk();
            let declarators: Vec<Node<'_>> = node
                .children_by_field_name("declarator", &mut cursor)
                .collect();
            let Some(ty) = node.child_by_field_name("type") else {
                continue;
            };
            let whole = src(text, node);
            let fixed = ["const", "final", "static"]
                .iter()
                .any(|w| whole.contains(w));
            if declarators.len() != 1
                || fixed
                || whole.contains('{')
                || whole.contains('&')
                || src(text, ty) == "auto"
            {
                continue;
            }
            let d = declarators[0];
            let (Some(name), Some(value)) = (
                d.child_by_field_name("declarator")
                    .or_else(|| d.child_by_field_name("name")),
                d.child_by_field_name("value"),
            ) else {
                continue;
            };
            if name.kind() != "identifier"
                || value.kind() == "argument_list"
                || value.kind() == "initializer_list"
            {
                continue;
            }
            let pad = indent_of(text, node.start_byte());
            let prefix = &text[node.start_byte()..ty.end_byte()];
            edits.push((
                node.byte_range(),
                format!(
                    "{prefix} {};\n{pad}{} = {};",
                    src(text, name),
                    src(text, name),
                    src(text, value)
                ),
            ));
        }
    }
    let text = edit(text, edits);
    let constant = match language {
        Language::Python => "LIMIT_MAX = 100000\n".to_string(),
        Language::Java => String::new(),
        _ => "#define LIMIT_MAX 100000\n".to_string(),
    };
    if language == Language::Java {
        // A constant in the first class body.
        if let Some(at) = text.find('{') {
            return format!(
                "{}\n    static final int LIMIT_MAX = 100000;{}",
                &text[..=at],
                &text[at + 1..]
            );
        }
    }
    let at = first_code_line(&text, language);
    format!("{}{constant}{}", &text[..at], &text[at..])
}

/// The byte offset after the file's includes and imports.
fn first_code_line(text: &str, language: Language) -> usize {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let header = t.starts_with("#include")
            || t.starts_with("import ")
            || t.starts_with("from ")
            || t.starts_with("using ")
            || (language == Language::Python && t.starts_with('#'))
            || t.is_empty();
        if !header {
            break;
        }
        at += line.len();
    }
    at
}
