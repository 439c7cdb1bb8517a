//! A source file as the tokens its language's tree-sitter grammar reads,
//! normalised so that what a copier changes cheaply does not hide a copy:
//! comments and whitespace are dropped, every identifier becomes one
//! token (`ID`) and every literal another (`LIT`); keywords, operators and
//! punctuation stay as they are. Each token keeps where it stands in the
//! file, so matches can be shown.

use std::ops::Range;
use std::path::Path;

/// The languages compared, each by its grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    C,
    Cpp,
    Python,
    Rust,
    Java,
}

impl Language {
    /// The language of a file, by its extension.
    pub fn of(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "c" | "h" => Language::C,
            "cpp" | "cc" | "cxx" | "c++" | "hpp" | "hh" => Language::Cpp,
            "py" => Language::Python,
            "rs" => Language::Rust,
            "java" => Language::Java,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Python => "Python",
            Language::Rust => "Rust",
            Language::Java => "Java",
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
        }
    }
}

/// One normalised token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// A stable hash of the normalised text (`ID`, `LIT`, `while`, `+=`).
    pub kind: u64,
    /// Where it stands in the file.
    pub bytes: Range<usize>,
}

/// How a grammar's node counts.
#[derive(Debug, PartialEq, Eq)]
enum Role {
    Skip,
    Identifier,
    Literal,
    /// Neither: look inside, or (a leaf) keep it as it is.
    Other,
}

fn role(kind: &str) -> Role {
    if kind.contains("comment") {
        Role::Skip
    } else if kind.contains("identifier") || kind == "self" || kind == "this" {
        Role::Identifier
    } else if kind.contains("string")
        || kind.contains("char_literal")
        || kind.contains("character_literal")
        || kind.contains("number")
        || kind.contains("integer")
        || kind.contains("float")
        || kind.contains("decimal")
        || kind.contains("raw_string")
        || kind.ends_with("_literal") && !kind.starts_with("true") && !kind.starts_with("false")
        || kind == "concatenated_string"
    {
        Role::Literal
    } else {
        Role::Other
    }
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
    let mut parser = tree_sitter::Parser::new();
    if parser.set_language(&language.grammar()).is_err() {
        return Vec::new();
    }
    let Some(tree) = parser.parse(source, None) else {
        return Vec::new();
    };
    let (id, lit) = (stable_hash(b"ID"), stable_hash(b"LIT"));
    let mut tokens = Vec::new();
    let mut cursor = tree.walk();
    // An iterative walk: a deeply nested file cannot exhaust the stack.
    'walk: loop {
        let node = cursor.node();
        let descend = match role(node.kind()) {
            Role::Skip => false,
            Role::Identifier => {
                tokens.push(Token {
                    kind: id,
                    bytes: node.byte_range(),
                });
                false
            }
            Role::Literal => {
                tokens.push(Token {
                    kind: lit,
                    bytes: node.byte_range(),
                });
                false
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
                false
            }
            Role::Other => true,
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
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
