//! A source file as the tokens its language's tree-sitter grammar reads,
//! normalised so that what a copier changes cheaply does not hide a copy:
//! comments, whitespace, imports and modifiers are dropped; every
//! identifier becomes one token (`ID`) and every literal another (`LIT`);
//! a qualified name (`java.util.Scanner`, `std::cout`, `math.sqrt`,
//! `this.total`) is one `ID` like the bare name; braces that a block may
//! go without and parentheses around an expression are dropped; a
//! declaration reads as one assignment per declarator with a value, so
//! `int a = 1, b;` reads as `a = 1;` and `int a; a = 1;` reads the same.
//! Keywords, operators and the rest of the punctuation stay as they are.
//! Each token keeps where it stands in the file, so matches can be shown.

use std::ops::Range;

pub use super::syntax::Language;
use super::syntax::{self, Role};

/// One normalised token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// A stable hash of the normalised text (`ID`, `LIT`, `while`, `+=`).
    pub kind: u64,
    /// Where it stands in the file.
    pub bytes: Range<usize>,
}

/// FNV-1a: stable across runs and machines, so fingerprints are too.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The normalised tokens of `source`. A file the grammar cannot read in
/// full still gives the tokens of what it could.
pub fn tokenize(language: Language, source: &[u8]) -> Vec<Token> {
    match syntax::parse(language, source) {
        Some(tree) => from_tree(language, &tree, source),
        None => Vec::new(),
    }
}

/// What is left to read: a node, or a token a declaration stands for.
enum Step<'t> {
    Read(tree_sitter::Node<'t>),
    Put(u64, Range<usize>),
}

/// The normalised tokens of a parsed file.
pub fn from_tree(language: Language, tree: &tree_sitter::Tree, source: &[u8]) -> Vec<Token> {
    let (id, lit, end) = (stable_hash(b"ID"), stable_hash(b"LIT"), stable_hash(b";"));
    let mut tokens = Vec::new();
    // An explicit stack, last step first: a deeply nested file cannot
    // exhaust the thread's stack.
    let mut steps = vec![Step::Read(tree.root_node())];
    while let Some(step) = steps.pop() {
        let node = match step {
            Step::Put(kind, bytes) => {
                tokens.push(Token { kind, bytes });
                continue;
            }
            Step::Read(node) => node,
        };
        match syntax::role(language, node) {
            Role::Unread | Role::Optional => {}
            Role::Identifier => tokens.push(Token {
                kind: id,
                bytes: node.byte_range(),
            }),
            Role::Literal => tokens.push(Token {
                kind: lit,
                bytes: node.byte_range(),
            }),
            Role::Declaration => {
                for (name, rest) in syntax::initialised(node).into_iter().rev() {
                    steps.push(Step::Put(end, name.end_byte()..name.end_byte()));
                    steps.extend(rest.into_iter().rev().map(Step::Read));
                    steps.push(Step::Put(id, name.byte_range()));
                }
            }
            Role::Other if node.child_count() == 0 => {
                let text = if node.is_named() {
                    // A named leaf (a primitive type, `true`): its text.
                    source.get(node.byte_range()).unwrap_or_default()
                } else {
                    node.kind().as_bytes()
                };
                if !text.iter().all(u8::is_ascii_whitespace) {
                    tokens.push(Token {
                        kind: stable_hash(text),
                        bytes: node.byte_range(),
                    });
                }
            }
            Role::Other => {
                let mut cursor = node.walk();
                let children: Vec<_> = node.children(&mut cursor).collect();
                steps.extend(children.into_iter().rev().map(Step::Read));
            }
        }
    }
    qualified_names_as_one(tokens, id)
}

/// `a.b.c` and `a::b` as the one name they stand for: a run of names
/// joined by `.` or `::` becomes one `ID` token spanning the run.
fn qualified_names_as_one(tokens: Vec<Token>, id: u64) -> Vec<Token> {
    let joins = [stable_hash(b"."), stable_hash(b"::")];
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    for token in tokens {
        let n = out.len();
        if token.kind == id && n >= 2 && joins.contains(&out[n - 1].kind) && out[n - 2].kind == id {
            out.pop();
            out[n - 2].bytes.end = token.bytes.end;
        } else {
            out.push(token);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn kinds(language: Language, source: &str) -> Vec<u64> {
        tokenize(language, source.as_bytes())
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn renaming_comments_and_layout_do_not_change_the_tokens() {
        let a = "int main() { int total = 0; // sum\n for (int i = 0; i < 10; i++) total += i; return total; }";
        let b = "/* mine */ int main(){int s=5;\n\n for(int k=1;k<99;k++)\n  s+=k;\n return s;}";
        assert_eq!(kinds(Language::C, a), kinds(Language::C, b));
        let c = "int main() { int total = 0; while (total < 10) total++; return total; }";
        assert_ne!(kinds(Language::C, a), kinds(Language::C, c));
    }

    #[test]
    fn every_language_reads() {
        let samples = [
            (Language::C, "int f(int x) { return x * 2; }"),
            (
                Language::Cpp,
                "#include <vector>\nint f(std::vector<int>& v) { return v.size(); }",
            ),
            (
                Language::Python,
                "def f(x):\n    # twice\n    return x * 2\n",
            ),
            (Language::Rust, "fn f(x: i64) -> i64 { x * 2 } // twice"),
            (Language::Java, "class A { int f(int x) { return x * 2; } }"),
        ];
        for (language, source) in samples {
            let tokens = tokenize(language, source.as_bytes());
            assert!(tokens.len() >= 6, "{language:?}: {tokens:?}");
            assert!(
                tokens.iter().all(|t| t.bytes.end <= source.len()),
                "{language:?}"
            );
        }
        // Python: a renamed copy with other strings reads the same.
        assert_eq!(
            kinds(Language::Python, "n = int(input())\nprint(n * 'a')\n"),
            kinds(
                Language::Python,
                "count = int(input())  # read\nprint(count * \"b\")\n"
            )
        );
    }

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::of(Path::new("a/sum.CPP")), Some(Language::Cpp));
        assert_eq!(Language::of(Path::new("sum.py")), Some(Language::Python));
        assert_eq!(Language::of(Path::new("notes.txt")), None);
    }
}
