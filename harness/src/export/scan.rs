//! Walking a token stream for the names it mentions, with enough context
//! (`a::b`, `$crate`, `name!`) to rewrite paths and to tell a qualified
//! name from a bare one.

use std::ops::Range;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// One identifier in the code, or a name inside a format string
/// (`"{MAX_N}"`, which mentions `MAX_N` without a token for it).
#[derive(Debug, Clone)]
pub(crate) struct Mention {
    pub(crate) name: String,
    /// `b` in `b::name` (the segment right before it), if any.
    pub(crate) qualifier: Option<String>,
    /// `name::` follows: the start or middle of a path.
    pub(crate) before_path: bool,
    /// `::name`: not the first segment of a path.
    pub(crate) after_path: bool,
    /// `name!`: a macro call.
    pub(crate) before_bang: bool,
    /// Found inside a string literal: no token to rewrite.
    pub(crate) in_literal: bool,
    /// Where the identifier (or the literal) is in its file.
    pub(crate) at: Range<usize>,
}

/// Calls `visit` for every identifier in `stream`, in order, groups
/// included. `$crate` is reported as `crate` (its `$` is a token of its own).
pub(crate) fn mentions(stream: TokenStream, visit: &mut impl FnMut(Mention)) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Group(group) => {
                let is_doc = group.delimiter() == Delimiter::Bracket
                    && group
                        .stream()
                        .into_iter()
                        .next()
                        .is_some_and(|t| matches!(&t, TokenTree::Ident(id) if id == "doc"));
                if !is_doc {
                    mentions(group.stream(), visit);
                }
            }
            TokenTree::Ident(ident) => {
                let name = ident.to_string();
                let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
                let after_path = i >= 2 && is_path_separator(&trees[i - 2], &trees[i - 1]);
                let qualifier = match (after_path, i.checked_sub(3).map(|j| &trees[j])) {
                    (true, Some(TokenTree::Ident(q))) => Some(q.to_string()),
                    _ => None,
                };
                visit(Mention {
                    name,
                    qualifier,
                    before_path: i + 2 < trees.len()
                        && is_path_separator(&trees[i + 1], &trees[i + 2]),
                    after_path,
                    before_bang: matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!'),
                    in_literal: false,
                    at: ident.span().byte_range(),
                });
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                if text.ends_with('"') {
                    for name in format_arguments(&text) {
                        visit(Mention {
                            name,
                            qualifier: None,
                            before_path: false,
                            after_path: false,
                            before_bang: false,
                            in_literal: true,
                            at: literal.span().byte_range(),
                        });
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

fn is_path_separator(first: &TokenTree, second: &TokenTree) -> bool {
    matches!(
        (first, second),
        (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// The names a format string may capture: `{name}`, `{name:>5}`, `{name.0}`
/// (an over-approximation: any string literal counts).
fn format_arguments(literal: &str) -> Vec<String> {
    let bytes = literal.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if bytes.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            if end > start && !bytes[start].is_ascii_digit() {
                names.push(literal[start..end].to_string());
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn all(code: &str) -> Vec<Mention> {
        let mut found = Vec::new();
        mentions(TokenStream::from_str(code).unwrap(), &mut |m| found.push(m));
        found
    }

    #[test]
    fn paths_have_qualifiers_and_positions() {
        let code = "let x = judge_kit::validator::check(f);";
        let found = all(code);
        let check = found.iter().find(|m| m.name == "check").unwrap();
        assert_eq!(check.qualifier.as_deref(), Some("validator"));
        assert!(check.after_path && !check.before_path);
        let root = found.iter().find(|m| m.name == "judge_kit").unwrap();
        assert!(root.before_path && !root.after_path);
        assert_eq!(&code[root.at.clone()], "judge_kit");
    }

    #[test]
    fn format_strings_mention_their_captures() {
        let found = all(r#"format!("n <= {MAX_N}, {{not}} {0} {x:>3}")"#);
        let names: Vec<&str> = found
            .iter()
            .filter(|m| m.in_literal)
            .map(|m| m.name.as_str())
            .collect();
        assert_eq!(names, ["MAX_N", "x"]);
    }

    #[test]
    fn doc_comments_mention_nothing() {
        let found = all("/// uses {hidden} and `crate::x`\nfn f() {}");
        assert!(found.iter().all(|m| m.name != "hidden" && m.name != "x"));
    }
}
