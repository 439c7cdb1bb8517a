//! The languages compared and what their tree-sitter grammars' nodes
//! mean to a comparison: which nodes say nothing about the program a
//! student wrote (comments, imports, modifiers), which braces are
//! optional, which nodes declare variables. `tokens.rs` and
//! `structure.rs` both read a file through these tables, so a language
//! is described once.

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

    /// Nodes left out with all they hold: what a copier adds, drops or
    /// rewrites without changing the program (imports and includes,
    /// `using`, `package`, modifiers such as `public static final`,
    /// `const`, attributes).
    fn unread(self) -> &'static [&'static str] {
        match self {
            Language::C => &[
                "preproc_include",
                "storage_class_specifier",
                "type_qualifier",
            ],
            Language::Cpp => &[
                "preproc_include",
                "using_declaration",
                "storage_class_specifier",
                "type_qualifier",
                "virtual",
            ],
            Language::Python => &[
                "import_statement",
                "import_from_statement",
                "future_import_statement",
            ],
            Language::Rust => &[
                "use_declaration",
                "extern_crate_declaration",
                "attribute_item",
                "inner_attribute_item",
                "visibility_modifier",
                "mutable_specifier",
            ],
            Language::Java => &["import_declaration", "package_declaration", "modifiers"],
        }
    }

    /// Nodes whose `{` and `}` a copier may add or drop where a single
    /// statement stands (and elsewhere say nothing the statements do not).
    fn braced(self) -> &'static [&'static str] {
        match self {
            Language::C | Language::Cpp => &[
                "compound_statement",
                "declaration_list",
                "field_declaration_list",
            ],
            Language::Python => &[],
            Language::Rust => &["block", "declaration_list", "field_declaration_list"],
            Language::Java => &["block", "class_body", "constructor_body", "interface_body"],
        }
    }

    /// Nodes that declare variables, each declarator perhaps with a value.
    fn declarations(self) -> &'static [&'static str] {
        match self {
            Language::C | Language::Cpp => &["declaration"],
            Language::Python => &[],
            Language::Rust => &["let_declaration"],
            Language::Java => &["local_variable_declaration", "field_declaration"],
        }
    }
}

/// What a node of a parsed file means to a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Read as nothing: comments, imports, modifiers, a prototype.
    Unread,
    /// A name: one token, whatever it is.
    Identifier,
    /// A number, a string, a character: one token, whatever it is.
    Literal,
    /// Declares variables: read as one assignment per declarator that
    /// has a value (`int a = 1, b;` as `a = 1;`), so a declaration split
    /// from its first value or joined to it reads the same.
    Declaration,
    /// A brace or parenthesis that a copier may add or drop freely: the
    /// braces of a block, the parentheses around an expression.
    Optional,
    /// Anything else: look inside, or (a leaf) read it as it is.
    Other,
}

/// The parse of a file.
pub fn parse(language: Language, source: &[u8]) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language.grammar()).ok()?;
    parser.parse(source, None)
}

pub fn role(language: Language, node: tree_sitter::Node<'_>) -> Role {
    let kind = node.kind();
    if kind.contains("comment") || language.unread().contains(&kind) {
        return Role::Unread;
    }
    if language.declarations().contains(&kind) {
        // A function's prototype declares nothing the program runs.
        let prototype = node
            .child_by_field_name("declarator")
            .is_some_and(|d| d.kind() == "function_declarator");
        return if prototype {
            Role::Unread
        } else {
            Role::Declaration
        };
    }
    if node.child_count() == 0 {
        let parent = node.parent().map(|p| p.kind()).unwrap_or_default();
        let optional = match kind {
            "{" | "}" => language.braced().contains(&parent),
            "(" | ")" => parent == "parenthesized_expression",
            _ => false,
        };
        if optional {
            return Role::Optional;
        }
    }
    if kind == "self" || kind == "this" || (kind.contains("identifier") && node.child_count() == 0)
    {
        Role::Identifier
    } else if is_literal(kind) {
        Role::Literal
    } else {
        Role::Other
    }
}

fn is_literal(kind: &str) -> bool {
    kind.contains("string")
        || kind.contains("char_literal")
        || kind.contains("character_literal")
        || kind.contains("number")
        || kind.contains("integer")
        || kind.contains("float")
        || kind.contains("decimal")
        || kind.ends_with("_literal") && !kind.starts_with("true") && !kind.starts_with("false")
        || kind == "concatenated_string"
}

/// The declarators of a declaration that give a value, each as (the
/// name's node, the nodes after it: `=` and the value, or a
/// constructor's arguments). A Rust `let` is its own one declarator.
pub fn initialised<'t>(
    declaration: tree_sitter::Node<'t>,
) -> Vec<(tree_sitter::Node<'t>, Vec<tree_sitter::Node<'t>>)> {
    let mut found = Vec::new();
    if declaration.kind() == "let_declaration" {
        if let (Some(pattern), Some(value)) = (
            declaration.child_by_field_name("pattern"),
            declaration.child_by_field_name("value"),
        ) {
            let mut cursor = declaration.walk();
            let rest = declaration
                .children(&mut cursor)
                .filter(|c| c.kind() == "=" || c.id() == value.id())
                .collect();
            found.push((pattern, rest));
        }
        return found;
    }
    let mut cursor = declaration.walk();
    for declarator in declaration.children_by_field_name("declarator", &mut cursor) {
        let name = declarator
            .child_by_field_name("declarator")
            .or_else(|| declarator.child_by_field_name("name"));
        let Some(name) = name else {
            continue; // `int a;`: no value
        };
        if declarator.child_by_field_name("value").is_none() {
            continue;
        }
        let mut inner = declarator.walk();
        let rest = declarator
            .children(&mut inner)
            .filter(|c| c.start_byte() >= name.end_byte())
            .collect();
        found.push((name, rest));
    }
    found
}
