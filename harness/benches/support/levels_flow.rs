//! Levels 4 to 6 of `levels.rs`: modules, statements, decision logic.

use std::collections::HashSet;

use harness::similarity::tokens::Language;
use tree_sitter::Node;

use super::levels::{Rng, all, edit, indent_of, parse, src, walk};

fn is_function(kind: &str) -> bool {
    matches!(kind, "function_definition" | "method_declaration")
}

fn function_name<'a>(text: &'a str, node: Node<'_>) -> &'a str {
    let mut n = node;
    if let Some(name) = n.child_by_field_name("name") {
        return src(text, name);
    }
    while let Some(d) = n.child_by_field_name("declarator") {
        n = d;
    }
    src(text, n)
}

/// Level 4: `main`'s body in a function of its own; a helper moved.
pub fn modules(text: &str, language: Language, rng: &mut Rng) -> String {
    let text = if language == Language::Python {
        wrap_python(text)
    } else {
        wrap_main(text, language)
    };
    if language == Language::Python || !rng.chance(70) {
        return text;
    }
    move_helper(&text, language)
}

fn wrap_main(text: &str, language: Language) -> String {
    let tree = parse(text, language);
    let Some(main) = all(&tree)
        .into_iter()
        .find(|n| is_function(n.kind()) && function_name(text, *n) == "main")
    else {
        return text.to_string();
    };
    let Some(body) = main.child_by_field_name("body") else {
        return text.to_string();
    };
    let inner = &text[body.start_byte() + 1..body.end_byte() - 1];
    let (work, tail) = match inner.rfind("return 0;") {
        Some(at) if inner[at..].trim_end() == "return 0;" => (&inner[..at], "return 0;"),
        _ => (inner, ""),
    };
    if work.contains("return") {
        return text.to_string();
    }
    let pad = indent_of(text, main.start_byte());
    let header = match language {
        Language::Java => {
            let throws = if src(text, main).contains("throws IOException") {
                " throws IOException"
            } else {
                ""
            };
            format!("{pad}static void solve(){throws} {{")
        }
        Language::C => format!("{pad}static void solve(void) {{"),
        _ => format!("{pad}static void solve() {{"),
    };
    let head = &text[main.start_byte()..body.start_byte()];
    let replacement =
        format!("{header}{work}}}\n\n{pad}{head}{{\n{pad}    solve();\n{pad}    {tail}\n{pad}}}");
    edit(text, vec![(main.byte_range(), replacement)])
}

/// Python: the statements after the last function or class, in `run()`.
fn wrap_python(text: &str) -> String {
    let tree = parse(text, Language::Python);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let top: Vec<Node<'_>> = root.named_children(&mut cursor).collect();
    let last_def = top.iter().rposition(|n| {
        matches!(
            n.kind(),
            "function_definition" | "class_definition" | "decorated_definition"
        )
    });
    let start = last_def.map_or(0, |i| i + 1);
    let rest: Vec<&Node<'_>> = top[start..]
        .iter()
        .filter(|n| {
            !matches!(
                n.kind(),
                "import_statement" | "import_from_statement" | "comment"
            )
        })
        .collect();
    let Some(first) = rest.first() else {
        return text.to_string();
    };
    if src(text, **first).contains("__main__") || rest.len() < 2 {
        return text.to_string();
    }
    let from = first.start_byte();
    let body: String = text[from..]
        .lines()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    format!("{}def run():\n{body}\n\n\nrun()\n", &text[..from])
}

/// C, C++, Java: the first function before `main` moved after it (C and C++
/// declare it first).
fn move_helper(text: &str, language: Language) -> String {
    let tree = parse(text, language);
    let functions: Vec<Node<'_>> = all(&tree)
        .into_iter()
        .filter(|n| is_function(n.kind()))
        .filter(|n| {
            n.parent()
                .is_some_and(|p| matches!(p.kind(), "translation_unit" | "class_body"))
        })
        .collect();
    let Some(main) = functions
        .iter()
        .find(|f| function_name(text, **f) == "main")
    else {
        return text.to_string();
    };
    let Some(helper) = functions
        .iter()
        .find(|f| f.end_byte() < main.start_byte() && function_name(text, **f) != "solve")
    else {
        return text.to_string();
    };
    let helper_text = src(text, *helper).to_string();
    let prototype = match (language, helper.child_by_field_name("declarator")) {
        (Language::Java, _) | (_, None) => String::new(),
        (_, Some(declarator)) => {
            format!("{};\n", &text[helper.start_byte()..declarator.end_byte()])
        }
    };
    edit(
        text,
        vec![
            (
                main.end_byte()..main.end_byte(),
                format!("\n\n{helper_text}"),
            ),
            (helper.byte_range(), prototype),
        ],
    )
}

/// Level 5: `for` as `while`, independent statements swapped.
pub fn statements(text: &str, language: Language, rng: &mut Rng) -> String {
    let text = for_as_while(text, language, rng);
    swap_independent(&text, language, rng)
}

fn for_as_while(text: &str, language: Language, rng: &mut Rng) -> String {
    let tree = parse(text, language);
    let mut edits = Vec::new();
    let loops: Vec<Node<'_>> = all(&tree)
        .into_iter()
        .filter(|n| n.kind() == "for_statement")
        .collect();
    for (i, node) in loops.iter().enumerate() {
        let whole = src(text, *node);
        if whole.contains("continue") || !rng.chance(80) {
            continue;
        }
        let pad = indent_of(text, node.start_byte());
        let Some(body) = node.child_by_field_name("body") else {
            continue;
        };
        let body_text = src(text, body);
        let in_block = node
            .parent()
            .is_some_and(|p| matches!(p.kind(), "compound_statement" | "block" | "module"));
        if !in_block {
            continue; // `if (c) for ...`: a declaration cannot stand there
        }
        let inner = if language == Language::Python {
            body_text.to_string()
        } else if body.kind() == "compound_statement" || body.kind() == "block" {
            body_text[1..body_text.len() - 1]
                .trim_matches('\n')
                .to_string()
        } else {
            format!("{pad}    {body_text}")
        };
        if language == Language::Python {
            let (Some(var), Some(right)) = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            ) else {
                continue;
            };
            let call = src(text, right);
            let Some(args) = call
                .strip_prefix("range(")
                .and_then(|a| a.strip_suffix(')'))
            else {
                continue;
            };
            let parts: Vec<&str> = args.split(',').map(str::trim).collect();
            let (start, stop) = match parts.as_slice() {
                [stop] => ("0", *stop),
                [start, stop] => (*start, *stop),
                _ => continue,
            };
            if stop.contains('(') {
                continue; // a `while` would call it on every turn
            }
            let v = src(text, var);
            let body_pad = indent_of(text, body.start_byte());
            edits.push((
                node.byte_range(),
                format!(
                    "{v} = {start}\n{pad}while {v} < {stop}:\n{body_pad}{inner}\n{body_pad}{v} += 1"
                ),
            ));
            continue;
        }
        // Its `init` now stands in the enclosing block: only a loop whose
        // `init` no later loop repeats (Java forbids the name declared
        // again, C the same declaration twice in one block).
        let init = node
            .child_by_field_name("initializer")
            .or_else(|| node.child_by_field_name("init"));
        let (Some(init), Some(cond)) = (init, node.child_by_field_name("condition")) else {
            continue;
        };
        let init_text = src(text, init).trim_end_matches(';').to_string();
        let declared = |t: &str| t.split('=').next().unwrap_or("").trim().to_string();
        let declares_again = loops[i + 1..].iter().any(|l| {
            let later = l
                .child_by_field_name("initializer")
                .or_else(|| l.child_by_field_name("init"));
            later.is_some_and(|li| declared(src(text, li)) == declared(&init_text))
        });
        if declares_again {
            continue;
        }
        let update = node
            .child_by_field_name("update")
            .map(|u| src(text, u).to_string());
        let step = update.map_or(String::new(), |u| format!("\n{pad}    {u};"));
        edits.push((
            node.byte_range(),
            format!(
                "{init_text};\n{pad}while ({}) {{\n{inner}{step}\n{pad}}}",
                src(text, cond)
            ),
        ));
    }
    edit(text, edits)
}

/// The identifiers under `node`.
fn names_in(text: &str, node: Node<'_>) -> Vec<String> {
    let mut inner = Vec::new();
    walk(node, &mut inner);
    inner
        .iter()
        .filter(|i| i.kind() == "identifier")
        .map(|i| src(text, *i).to_string())
        .collect()
}

/// The names a statement writes and the names it mentions.
fn effects(text: &str, node: Node<'_>) -> Option<(HashSet<String>, HashSet<String>)> {
    let mut nodes = Vec::new();
    walk(node, &mut nodes);
    let mut writes = HashSet::new();
    let mut mentions = HashSet::new();
    for n in &nodes {
        if n.kind().contains("call")
            || n.kind() == "method_invocation"
            || src(text, *n) == "<<"
            || src(text, *n) == ">>"
        {
            return None; // input and output keep their order
        }
        if n.kind() == "identifier" {
            mentions.insert(src(text, *n).to_string());
        }
        let target = n
            .child_by_field_name("left")
            .filter(|_| n.kind().contains("assignment"))
            .or_else(|| {
                n.child_by_field_name("declarator")
                    .filter(|_| n.kind().contains("declarator"))
            })
            .or_else(|| {
                n.child_by_field_name("name")
                    .filter(|_| n.kind() == "variable_declarator")
            })
            .or_else(|| {
                n.child_by_field_name("argument")
                    .filter(|_| n.kind() == "update_expression")
            });
        if let Some(t) = target {
            writes.extend(names_in(text, t));
        }
        if matches!(n.kind(), "declaration" | "local_variable_declaration") {
            // Whatever a declaration names, it may declare.
            writes.extend(names_in(text, *n));
        }
        if n.kind() == "update_expression" || n.kind() == "augmented_assignment" {
            writes.extend(names_in(text, *n));
        }
    }
    Some((writes, mentions))
}

fn swap_independent(text: &str, language: Language, rng: &mut Rng) -> String {
    let tree = parse(text, language);
    let simple = |n: &Node<'_>| {
        matches!(
            n.kind(),
            "expression_statement" | "declaration" | "local_variable_declaration"
        )
    };
    let mut edits = Vec::new();
    let mut used_until = 0;
    for block in all(&tree)
        .into_iter()
        .filter(|n| matches!(n.kind(), "block" | "compound_statement" | "module"))
    {
        let mut cursor = block.walk();
        let children: Vec<Node<'_>> = block.named_children(&mut cursor).collect();
        for w in children.windows(2) {
            let (a, b) = (w[0], w[1]);
            if !simple(&a) || !simple(&b) || a.start_byte() < used_until || !rng.chance(70) {
                continue;
            }
            let (Some((wa, ma)), Some((wb, mb))) = (effects(text, a), effects(text, b)) else {
                continue;
            };
            if wa.iter().any(|x| mb.contains(x)) || wb.iter().any(|x| ma.contains(x)) {
                continue;
            }
            edits.push((a.byte_range(), src(text, b).to_string()));
            edits.push((b.byte_range(), src(text, a).to_string()));
            used_until = b.end_byte();
        }
    }
    edit(text, edits)
}

/// Level 6: comparisons and conditions written another way.
pub fn logic(text: &str, language: Language, rng: &mut Rng) -> String {
    let text = swap_branches(text, language, rng);
    let tree = parse(&text, language);
    let mut edits = Vec::new();
    let not = |e: &str| {
        if language == Language::Python {
            format!("not ({e})")
        } else {
            format!("!({e})")
        }
    };
    for node in all(&tree) {
        let kind = node.kind();
        if kind == "binary_expression" || kind == "comparison_operator" {
            let (Some(l), Some(r)) = (node.named_child(0), node.named_child(1)) else {
                continue;
            };
            let op = &text[l.end_byte()..r.start_byte()].trim().to_string();
            let flipped = match op.as_str() {
                "<" => (">", ">="),
                ">" => ("<", "<="),
                "<=" => (">=", ">"),
                ">=" => ("<=", "<"),
                _ => continue,
            };
            if node.named_child_count() != 2 || !rng.chance(70) {
                continue;
            }
            let (a, b) = (src(&text, l), src(&text, r));
            let new = if rng.chance(50) {
                format!("{b} {} {a}", flipped.0)
            } else {
                not(&format!("{a} {} {b}", flipped.1))
            };
            edits.push((node.byte_range(), new));
        } else if kind == "update_expression"
            && node
                .parent()
                .is_some_and(|p| p.kind() == "expression_statement")
        {
            let t = src(&text, node);
            let name = t.trim_matches(|c| c == '+' || c == '-');
            let op = if t.contains("++") { "+" } else { "-" };
            if rng.chance(60) {
                edits.push((node.byte_range(), format!("{name} {op}= 1")));
            }
        }
    }
    edit(&text, edits)
}

/// `if (c) A else B` as `if (!(c)) B else A` (not an `else if` chain).
fn swap_branches(text: &str, language: Language, rng: &mut Rng) -> String {
    let tree = parse(text, language);
    let mut edits = Vec::new();
    for node in all(&tree)
        .into_iter()
        .filter(|n| n.kind() == "if_statement")
    {
        let (Some(cond), Some(then)) = (
            node.child_by_field_name("condition"),
            node.child_by_field_name("consequence"),
        ) else {
            continue;
        };
        let mut cursor = node.walk();
        let alternatives: Vec<Node<'_>> = node
            .children_by_field_name("alternative", &mut cursor)
            .collect();
        if alternatives.len() != 1
            || node
                .parent()
                .is_some_and(|p| p.kind() == "else_clause" || p.kind() == "if_statement")
        {
            continue;
        }
        let alt = alternatives[0];
        if language == Language::Python && alt.kind() != "else_clause" {
            continue;
        }
        let other = match alt.kind() {
            "else_clause" => alt
                .child_by_field_name("body")
                .or_else(|| alt.named_child(0)),
            _ => Some(alt),
        };
        let Some(other) = other else { continue };
        if other.kind() == "if_statement" || !rng.chance(70) {
            continue;
        }
        let c = src(text, cond);
        if language == Language::Python {
            edits.push((cond.byte_range(), format!("not ({c})")));
        } else {
            let inner = c
                .strip_prefix('(')
                .and_then(|c| c.strip_suffix(')'))
                .unwrap_or(c);
            edits.push((cond.byte_range(), format!("(!({inner}))")));
        }
        edits.push((then.byte_range(), src(text, other).to_string()));
        edits.push((other.byte_range(), src(text, then).to_string()));
    }
    edit(text, edits)
}
