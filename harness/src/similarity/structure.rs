//! The second signal: a file as the multiset of its statements, each
//! hashed in a canonical form that survives what the token runs do not.
//!
//! A statement's hash is computed from its parse tree bottom up, with
//! names and literals abstracted (as the tokens are) and these rewrites:
//! a block is the multiset of its statements, so independent statements
//! in another order hash alike; a `for (init; cond; step)` loop is its
//! `init` followed by a loop on `cond` whose body holds `step`, so it
//! hashes as the `while` it can be written as (and a Python `for` over a
//! `range` as that loop too); `!`, the direction of a comparison and the
//! order of the operands of `==`, `+`, `&&` and their kin do not count, and
//! an `if`'s (and its `else if` chain's) conditions and branches are
//! multisets, so a condition negated with its branches swapped, or a chain
//! in another order, hashes alike; `x++`, `x += 1` and `x = x + 1` are one
//! update; a declaration with a value is its assignment. Every statement,
//! at every depth, and every function body is an item, weighing the
//! number of nodes its canonical form has; items are compared as
//! multisets, wherever they stand, so a loop moved into a helper function
//! still matches. Deeply nested code is read to a fixed depth only.

use super::syntax::{self, Language, Role};
use super::tokens::stable_hash;

/// A canonical subtree: its hash and how many nodes it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Canon {
    pub hash: u64,
    pub size: u32,
}

/// How deep a file is read; below, a subtree hashes as one node.
const DEPTH: usize = 200;

/// Every statement and function body of a parsed file, canonical.
pub fn items(language: Language, tree: &tree_sitter::Tree, source: &[u8]) -> Vec<Canon> {
    let mut reader = Reader {
        language,
        source,
        items: Vec::new(),
    };
    reader.top(tree.root_node(), 0);
    reader.items
}

type Node<'t> = tree_sitter::Node<'t>;

fn tag(name: &str) -> Canon {
    Canon {
        hash: stable_hash(name.as_bytes()),
        size: 1,
    }
}

/// `head` over `parts` in order.
fn mix(head: Canon, parts: &[Canon]) -> Canon {
    let mut hash = head.hash;
    let mut size = head.size;
    for part in parts {
        hash = (hash ^ part.hash)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(23);
        size = size.saturating_add(part.size);
    }
    Canon { hash, size }
}

/// `head` over `parts` in any order.
fn mix_unordered(head: Canon, mut parts: Vec<Canon>) -> Canon {
    parts.sort_by_key(|c| c.hash);
    mix(head, &parts)
}

/// A body: the multiset of its statements, weighing one node (its
/// statements are items of their own and weigh themselves, so a body
/// that changed in one statement loses only that statement's weight).
fn block(head: Canon, statements: Vec<Canon>) -> Canon {
    let hash = mix_unordered(head, statements).hash;
    Canon { hash, size: 1 }
}

struct Reader<'s> {
    language: Language,
    source: &'s [u8],
    items: Vec<Canon>,
}

fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

impl Reader<'_> {
    fn text(&self, node: Node<'_>) -> &[u8] {
        self.source.get(node.byte_range()).unwrap_or_default()
    }

    /// A file or a class: functions become items, statements too.
    fn top(&mut self, node: Node<'_>, depth: usize) {
        let mut loose = Vec::new();
        for child in named_children(node) {
            self.member(child, depth + 1, &mut loose);
        }
    }

    /// One member of a file or class: a function, a class, a statement.
    fn member(&mut self, node: Node<'_>, depth: usize, loose: &mut Vec<Canon>) {
        let leaf = matches!(
            syntax::role(self.language, node),
            Role::Identifier | Role::Literal | Role::Unread
        );
        if depth > DEPTH || leaf {
            return;
        }
        let kind = node.kind();
        if is_function(kind) {
            if let Some(body) = node.child_by_field_name("body") {
                let statements = self.statements(body, depth + 1);
                let function = block(tag("FUNC"), statements);
                self.items.push(function);
            }
        } else if kind.contains("class") || kind.ends_with("_body") || kind == "declaration_list" {
            self.top(node, depth + 1);
        } else {
            self.statement(node, depth + 1, loose);
        }
    }

    /// The statements of a block (or of a single statement where a block
    /// may stand), flattened: nested blocks add their statements.
    fn statements(&mut self, node: Node<'_>, depth: usize) -> Vec<Canon> {
        let mut out = Vec::new();
        self.statement(node, depth, &mut out);
        out
    }

    /// A body as one canonical node: the multiset of its statements.
    fn body(&mut self, node: Option<Node<'_>>, depth: usize) -> Canon {
        let statements = match node {
            Some(node) => self.statements(node, depth),
            None => Vec::new(),
        };
        block(tag("BODY"), statements)
    }

    /// Appends the canonical statements `node` stands for (none, one, or
    /// several: a declaration of two variables, a `for` and its `init`).
    fn statement(&mut self, node: Node<'_>, depth: usize, out: &mut Vec<Canon>) {
        if depth > DEPTH {
            out.push(tag("DEEP"));
            return;
        }
        let kind = node.kind();
        match syntax::role(self.language, node) {
            Role::Unread | Role::Optional => return,
            Role::Declaration => {
                for (_, rest) in syntax::initialised(node) {
                    let value = rest
                        .iter()
                        .rev()
                        .find(|n| n.is_named())
                        .map_or(tag("V"), |v| self.expr(*v, depth + 1));
                    self.push(mix(tag("="), &[tag("V"), value]), out);
                }
                return;
            }
            _ => {}
        }
        if is_function(kind) || kind.contains("class_") {
            let mut loose = Vec::new();
            self.member(node, depth, &mut loose);
            out.extend(loose);
            return;
        }
        let canon = match kind {
            "block" | "compound_statement" | "module" | "translation_unit" => {
                for child in named_children(node) {
                    self.statement(child, depth + 1, out);
                }
                return;
            }
            "expression_statement" => match node.named_child(0) {
                Some(child) if child.kind().ends_with("statement") => {
                    return self.statement(child, depth + 1, out);
                }
                Some(child) => self.expr(child, depth + 1),
                None => return,
            },
            "if_statement" => self.branches(node, depth + 1),
            "while_statement" | "do_statement" => {
                let condition = self.condition(node, depth + 1);
                let body = self.body(node.child_by_field_name("body"), depth + 1);
                mix(tag("LOOP"), &[condition, body])
            }
            "for_statement" if self.language == Language::Python => {
                return self.python_for(node, depth + 1, out);
            }
            "for_statement" => return self.c_for(node, depth + 1, out),
            "enhanced_for_statement" | "for_range_loop" => {
                let over = node
                    .child_by_field_name("value")
                    .or_else(|| node.child_by_field_name("right"))
                    .map_or(tag("V"), |n| self.expr(n, depth + 1));
                let body = self.body(node.child_by_field_name("body"), depth + 1);
                mix(tag("EACH"), &[over, body])
            }
            "return_statement" => {
                let value: Vec<Canon> = named_children(node)
                    .into_iter()
                    .map(|n| self.expr(n, depth + 1))
                    .collect();
                mix(tag("RET"), &value)
            }
            _ if node.child_count() == 0 => tag(kind),
            _ => self.expr(node, depth + 1),
        };
        self.push(canon, out);
    }

    fn push(&mut self, canon: Canon, out: &mut Vec<Canon>) {
        self.items.push(canon);
        out.push(canon);
    }

    /// A loop's or an `if`'s condition, without its parentheses.
    fn condition(&mut self, node: Node<'_>, depth: usize) -> Canon {
        match node.child_by_field_name("condition") {
            Some(c) => self.expr(c, depth),
            None => tag("TRUE"),
        }
    }

    /// An `if` and its `else if` chain: the multiset of its conditions
    /// and the multiset of its branches (the last `else` among them).
    fn branches(&mut self, node: Node<'_>, depth: usize) -> Canon {
        let mut conditions = Vec::new();
        let mut bodies = Vec::new();
        // The `if` and each `else if` (Python: each `elif`) in turn; the
        // order does not matter, both are multisets.
        let mut branches = vec![node];
        while let Some(branch) = branches.pop() {
            if conditions.len() > DEPTH {
                break;
            }
            conditions.push(self.condition(branch, depth));
            bodies.push(self.body(branch.child_by_field_name("consequence"), depth + 1));
            let mut cursor = branch.walk();
            let alternatives: Vec<Node<'_>> = branch
                .children_by_field_name("alternative", &mut cursor)
                .collect();
            for alternative in alternatives {
                // C's `else_clause` holds the statement, Python's a body;
                // Java's alternative is the statement itself.
                let inner = match alternative.kind() {
                    "else_clause" => alternative
                        .child_by_field_name("body")
                        .or_else(|| alternative.named_child(0)),
                    _ => Some(alternative),
                };
                match inner {
                    Some(n) if matches!(n.kind(), "if_statement" | "elif_clause") => {
                        branches.push(n);
                    }
                    Some(n) => bodies.push(self.body(Some(n), depth + 1)),
                    None => {}
                }
            }
        }
        let conditions = mix_unordered(tag("CONDS"), conditions);
        let bodies = mix_unordered(tag("BRANCHES"), bodies);
        mix(tag("IF"), &[conditions, bodies])
    }

    /// `for (init; cond; step) body` as `init; while (cond) { body step }`.
    fn c_for(&mut self, node: Node<'_>, depth: usize, out: &mut Vec<Canon>) {
        let mut cursor = node.walk();
        let inits: Vec<Node<'_>> = node
            .children_by_field_name("initializer", &mut cursor)
            .chain(node.children_by_field_name("init", &mut node.walk()))
            .collect();
        for init in inits {
            if syntax::role(self.language, init) == Role::Declaration {
                self.statement(init, depth, out);
            } else {
                let canon = self.expr(init, depth);
                self.push(canon, out);
            }
        }
        let condition = self.condition(node, depth);
        let mut body = self.statements_of(node.child_by_field_name("body"), depth);
        let mut cursor = node.walk();
        let updates: Vec<Node<'_>> = node.children_by_field_name("update", &mut cursor).collect();
        for update in updates {
            let step = self.expr(update, depth);
            self.items.push(step);
            body.push(step);
        }
        let canon = mix(tag("LOOP"), &[condition, block(tag("BODY"), body)]);
        self.push(canon, out);
    }

    fn statements_of(&mut self, node: Option<Node<'_>>, depth: usize) -> Vec<Canon> {
        node.map(|n| self.statements(n, depth)).unwrap_or_default()
    }

    /// Python's `for v in range(a, b, s)` as `v = a; while v < b: ...; v += s`;
    /// any other `for` as a loop over what it walks.
    fn python_for(&mut self, node: Node<'_>, depth: usize, out: &mut Vec<Canon>) {
        let right = node.child_by_field_name("right");
        let range_args = right
            .filter(|r| r.kind() == "call")
            .filter(|r| {
                r.child_by_field_name("function")
                    .is_some_and(|f| self.text(f) == b"range")
            })
            .and_then(|r| r.child_by_field_name("arguments"))
            .map(named_children);
        let mut body = self.statements_of(node.child_by_field_name("body"), depth);
        let canon = match range_args {
            Some(args) if (1..=3).contains(&args.len()) => {
                let (start, stop) = match args.len() {
                    1 => (tag("V"), self.expr(args[0], depth)),
                    _ => (self.expr(args[0], depth), self.expr(args[1], depth)),
                };
                let step = args.get(2).map_or(tag("V"), |s| self.expr(*s, depth));
                self.push(mix(tag("="), &[tag("V"), start]), out);
                let step = mix(tag("UPD+"), &[tag("V"), step]);
                self.items.push(step);
                body.push(step);
                let condition = mix_unordered(tag("ORD"), vec![tag("V"), stop]);
                mix(tag("LOOP"), &[condition, block(tag("BODY"), body)])
            }
            _ => {
                let over = right.map_or(tag("V"), |r| self.expr(r, depth));
                mix(tag("EACH"), &[over, block(tag("BODY"), body)])
            }
        };
        self.push(canon, out);
    }

    /// An expression, canonical.
    fn expr(&mut self, node: Node<'_>, depth: usize) -> Canon {
        if depth > DEPTH {
            return tag("DEEP");
        }
        if self.is_name(node, depth) {
            return tag("V");
        }
        match syntax::role(self.language, node) {
            Role::Identifier | Role::Literal => return tag("V"),
            Role::Unread => return tag("_"),
            _ => {}
        }
        let kind = node.kind();
        let children = named_children(node);
        match kind {
            "parenthesized_expression" | "condition_clause" if children.len() == 1 => {
                self.expr(children[0], depth + 1)
            }
            "condition_clause" => match node.child_by_field_name("value") {
                Some(value) => self.expr(value, depth + 1),
                None => self.generic(node, depth),
            },
            "binary_expression" | "binary_operator" | "boolean_operator" => {
                self.binary(node, depth)
            }
            "comparison_operator" if children.len() == 2 => {
                let op = node
                    .child_by_field_name("operators")
                    .map(|o| o.kind())
                    .unwrap_or("==");
                let parts = vec![
                    self.expr(children[0], depth + 1),
                    self.expr(children[1], depth + 1),
                ];
                mix_unordered(tag(operator_class(op)), parts)
            }
            "unary_expression" | "not_operator" | "unary_operator" => {
                let op = node.child(0).map(|o| o.kind()).unwrap_or("");
                let operand = children
                    .last()
                    .map_or(tag("V"), |c| self.expr(*c, depth + 1));
                if op == "!" || op == "not" {
                    operand // negation does not count (see the module's doc)
                } else {
                    mix(tag(op), &[operand])
                }
            }
            "update_expression" => {
                let mut cursor = node.walk();
                let decrement = node.children(&mut cursor).any(|c| c.kind() == "--");
                let op = if decrement { "UPD-" } else { "UPD+" };
                let target = children
                    .first()
                    .map_or(tag("V"), |c| self.expr(*c, depth + 1));
                mix(tag(op), &[target, tag("V")])
            }
            "assignment_expression"
            | "assignment"
            | "augmented_assignment"
            | "compound_assignment_expr" => self.assignment(node, depth),
            _ => self.generic(node, depth),
        }
    }

    /// A name: an identifier, or names joined by `.` or `::`.
    fn is_name(&self, node: Node<'_>, depth: usize) -> bool {
        if depth > DEPTH {
            return false;
        }
        if syntax::role(self.language, node) == Role::Identifier {
            return true;
        }
        let joined = matches!(
            node.kind(),
            "field_access"
                | "attribute"
                | "qualified_identifier"
                | "scoped_identifier"
                | "scoped_type_identifier"
                | "field_expression"
        );
        joined
            && !self.text(node).contains(&b'>')
            && named_children(node)
                .iter()
                .all(|c| self.is_name(*c, depth + 1))
    }

    fn binary(&mut self, node: Node<'_>, depth: usize) -> Canon {
        let Some((left, op, right)) = operands(node, "?") else {
            return self.generic(node, depth);
        };
        let parts = vec![self.expr(left, depth + 1), self.expr(right, depth + 1)];
        let class = operator_class(op);
        if matches!(class, "ORD" | "EQ" | "LOGIC" | "+" | "*" | "&" | "|" | "^") {
            mix_unordered(tag(class), parts)
        } else {
            mix(tag(class), &parts)
        }
    }

    /// `x = e`, `x op= e`; `x = x op e` as `x op= e`.
    fn assignment(&mut self, node: Node<'_>, depth: usize) -> Canon {
        let Some((left, op, right)) = operands(node, "=") else {
            return self.generic(node, depth);
        };
        let target = self.expr(left, depth + 1);
        if op != "=" {
            let value = self.expr(right, depth + 1);
            return mix(
                tag(&format!("UPD{}", op.trim_end_matches('='))),
                &[target, value],
            );
        }
        if right.kind() == "binary_expression" || right.kind() == "binary_operator" {
            if let (Some(l), Some(r), Some(o)) = (
                right.child_by_field_name("left"),
                right.child_by_field_name("right"),
                right.child_by_field_name("operator"),
            ) {
                let op = o.kind();
                let same = |n: Node<'_>| self.text(n) == self.text(left);
                let other = if same(l) && matches!(op, "+" | "-" | "*" | "/") {
                    Some(r)
                } else if same(r) && matches!(op, "+" | "*") {
                    Some(l)
                } else {
                    None
                };
                if let Some(other) = other {
                    let value = self.expr(other, depth + 1);
                    return mix(tag(&format!("UPD{op}")), &[target, value]);
                }
            }
        }
        let value = self.expr(right, depth + 1);
        mix(tag("="), &[target, value])
    }

    /// Any other node: its kind over its parts in order, operators and
    /// keywords by their text.
    fn generic(&mut self, node: Node<'_>, depth: usize) -> Canon {
        let mut parts = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        for child in children {
            match syntax::role(self.language, child) {
                Role::Unread | Role::Optional => {}
                _ if child.is_named() => parts.push(self.expr(child, depth + 1)),
                _ if is_punctuation(child.kind()) => {}
                _ => parts.push(tag(child.kind())),
            }
        }
        if parts.len() == 1 && node.child_count() <= 1 {
            return parts[0];
        }
        mix(tag(node.kind()), &parts)
    }
}

fn is_function(kind: &str) -> bool {
    matches!(
        kind,
        "function_definition" | "method_declaration" | "constructor_declaration" | "function_item"
    )
}

fn is_punctuation(kind: &str) -> bool {
    matches!(kind, "(" | ")" | "," | ";" | "{" | "}" | ":" | "[" | "]")
}

/// The class of a binary operator: comparisons of order as one (`a < b`
/// is `b > a`, and `!(a < b)` is `a >= b`), equality as one, logic as
/// one; the rest as they are.
fn operator_class(op: &str) -> &str {
    match op {
        "<" | "<=" | ">" | ">=" => "ORD",
        "==" | "!=" | "is" | "is not" => "EQ",
        "&&" | "||" | "and" | "or" => "LOGIC",
        other => other,
    }
}

/// A binary node's left side, operator (`default` when the grammar names
/// none) and right side; `None` when a side is missing.
fn operands<'t>(
    node: Node<'t>,
    default: &'static str,
) -> Option<(Node<'t>, &'static str, Node<'t>)> {
    let left = node.child_by_field_name("left")?;
    let right = node.child_by_field_name("right")?;
    let op = node
        .child_by_field_name("operator")
        .map_or(default, |o| o.kind());
    Some((left, op, right))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn bag(language: Language, source: &str) -> HashMap<u64, u32> {
        let tree = syntax::parse(language, source.as_bytes()).unwrap();
        let mut bag = HashMap::new();
        for item in items(language, &tree, source.as_bytes()) {
            *bag.entry(item.hash).or_default() += 1;
        }
        bag
    }

    #[test]
    fn reordered_statements_and_a_for_as_a_while_read_alike() {
        let a = "int f(int n) { int s = 0; int p = 1; for (int i = 0; i < n; i++) { s += i; p *= 2; } return s + p; }";
        let b = "int g(int m) { int q; q = 1; int t = 0; int j = 0;\n while (m > j) { q = q * 2; t = t + j; ++j; } return q + t; }";
        assert_eq!(bag(Language::C, a), bag(Language::C, b));
        let c = "int f(int n) { int s = 0; int p = 1; for (int i = 0; i < n; i++) { s -= i; p *= 2; } return s + p; }";
        assert_ne!(bag(Language::C, a), bag(Language::C, c));
    }

    #[test]
    fn a_negated_condition_with_its_branches_swapped_reads_alike() {
        let a = "class A { void f(int x) { if (x < 10) { g(x); } else if (x < 20) h(); else { k(x, 1); } } }";
        let b = "class A { void f(int y) { if (!(y >= 20)) { if (y >= 10) h(); else g(y); } else k(y, 2); } }";
        // A nested `if` is not a chain: only the branches' statements match.
        let (ba, bb) = (bag(Language::Java, a), bag(Language::Java, b));
        assert!(ba.keys().filter(|k| bb.contains_key(k)).count() >= 3);
        let c = "class A { void f(int y) { if (y >= 20) k(y, 2); else if (10 > y) { g(y); } else h(); } }";
        assert_eq!(ba, bag(Language::Java, c));
    }

    #[test]
    fn a_python_range_loop_reads_as_its_while() {
        let a = "def f(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n";
        let b = "def g(m):\n    total = 0\n    k = 0\n    while k < m:\n        total = total + k\n        k += 1\n    return total\n";
        assert_eq!(bag(Language::Python, a), bag(Language::Python, b));
    }

    #[test]
    fn a_statement_moved_into_a_helper_still_matches() {
        let a = "int main() { int n = read(); long s = 0; for (int i = 0; i < n; i++) s += i * i; print(s); }";
        let b = "long sum(int n) { long s = 0; for (int i = 0; i < n; i++) s += i * i; return s; }\nint main() { int n = read(); print(sum(n)); }";
        let (ba, bb) = (bag(Language::C, a), bag(Language::C, b));
        let shared = ba.keys().filter(|k| bb.contains_key(k)).count();
        assert!(shared >= 3, "{shared} of {}", ba.len());
    }
}
