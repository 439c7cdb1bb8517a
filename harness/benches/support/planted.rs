//! A planted class for measuring similarity: independent C solutions of
//! one problem (each student's own structure, drawn from a seed), and
//! copies of some of them disguised as a copier would: every identifier
//! renamed and the literals, comments and layout changed; the functions
//! reordered; or padded with code of the copier's own. Shared by the
//! similarity test and the similarity bench (and its generator by the
//! labelled set's `levels.rs`).

use std::fmt::Write as _;

/// A small deterministic generator (SplitMix64).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A C program as functions, so a copy can reorder them.
#[derive(Clone)]
pub struct Program {
    /// Each function's text, in terms of `@n` names (renamed by a copy).
    pub functions: Vec<String>,
    pub main: String,
}

const OPS: [&str; 6] = ["+", "-", "*", "^", "|", "&"];
const CMP: [&str; 4] = ["<", ">", "<=", "!="];

fn expression(rng: &mut Rng, vars: &[usize]) -> String {
    let v = |rng: &mut Rng| format!("@{}", vars[rng.below(vars.len())]);
    match rng.below(4) {
        0 => format!("{} {} {}", v(rng), rng.pick(&OPS), rng.below(97)),
        1 => format!(
            "({} {} {}) % {}",
            v(rng),
            rng.pick(&OPS),
            v(rng),
            rng.below(50) + 7
        ),
        2 => format!(
            "{} {} {} {} {}",
            v(rng),
            rng.pick(&OPS),
            v(rng),
            rng.pick(&OPS),
            v(rng)
        ),
        _ => format!("a[{} % n]", v(rng)),
    }
}

fn statement(rng: &mut Rng, vars: &[usize], depth: usize, out: &mut String, indent: usize) {
    let pad = "    ".repeat(indent);
    let v = |rng: &mut Rng| format!("@{}", vars[rng.below(vars.len())]);
    match if depth > 1 {
        rng.below(2)
    } else {
        rng.below(5)
    } {
        0 | 1 => {
            let target = v(rng);
            let _ = writeln!(out, "{pad}{target} = {};", expression(rng, vars));
        }
        2 => {
            let _ = writeln!(out, "{pad}for (int @{0} = 0; @{0} < n; @{0}++) {{", vars[0]);
            for _ in 0..1 + rng.below(3) {
                statement(rng, &vars[1..], depth + 1, out, indent + 1);
            }
            let _ = writeln!(out, "{pad}}}");
        }
        3 => {
            let _ = writeln!(
                out,
                "{pad}if ({} {} {}) {{",
                v(rng),
                rng.pick(&CMP),
                expression(rng, vars)
            );
            statement(rng, vars, depth + 1, out, indent + 1);
            let _ = writeln!(out, "{pad}}} else {{");
            statement(rng, vars, depth + 1, out, indent + 1);
            let _ = writeln!(out, "{pad}}}");
        }
        _ => {
            let _ = writeln!(out, "{pad}while ({} {} n) {{", v(rng), rng.pick(&CMP));
            statement(rng, vars, depth + 1, out, indent + 1);
            let _ = writeln!(out, "{pad}{} += 1;", v(rng));
            let _ = writeln!(out, "{pad}}}");
        }
    }
}

/// An independent solution of the problem: read `n` numbers, run them
/// through the student's own helper functions, print a result.
pub fn solution(seed: u64) -> Program {
    let mut rng = Rng::new(seed);
    let mut names = 0;
    let mut fresh = || {
        names += 1;
        names - 1
    };
    let mut functions = Vec::new();
    let count = 3 + rng.below(3);
    let mut calls = Vec::new();
    for _ in 0..count {
        let name = fresh();
        let vars: Vec<usize> = (0..4).map(|_| fresh()).collect();
        let mut body = format!(
            "long @{name}(long *a, int n) {{\n    long @{} = 0, @{} = 1, @{} = n;\n",
            vars[1], vars[2], vars[3]
        );
        body.push_str(&format!("    int @{} = 0;\n", vars[0]));
        for _ in 0..3 + rng.below(4) {
            statement(&mut rng, &vars, 0, &mut body, 1);
        }
        let _ = writeln!(body, "    return @{} + @{};\n}}", vars[1], vars[2]);
        functions.push(body);
        calls.push(name);
    }
    let total = fresh();
    let mut main = format!(
        "int main(void) {{\n    int n;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    \
         long a[100000];\n    for (int i = 0; i < n; i++) scanf(\"%ld\", &a[i]);\n    \
         long @{total} = 0;\n"
    );
    for call in calls {
        let _ = writeln!(main, "    @{total} += @{call}(a, n);");
    }
    let _ = writeln!(main, "    printf(\"%ld\\n\", @{total});\n    return 0;\n}}");
    Program { functions, main }
}

/// How a copy hides itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disguise {
    /// Identifiers renamed, literals, comments and layout changed.
    Renamed,
    /// Renamed, and the functions in another order.
    Reordered,
    /// Renamed, and padded with as much code again of the copier's own.
    Padded,
}

impl Program {
    /// The program's text with `@n` as names from `style`; literals
    /// shifted by `shift`; comments and blank lines by `style` too.
    pub fn render(&self, style: u64, order: &[usize], extra: &[String]) -> String {
        let mut rng = Rng::new(style);
        let prefixes = ["v", "tmp", "x", "val", "acc", "cnt", "res", "k"];
        let prefix = prefixes[rng.below(prefixes.len())];
        let mut out = String::from("#include <stdio.h>\n");
        if style % 2 == 1 {
            out.push_str("/* my solution */\n");
        }
        for &i in order {
            out.push_str(&self.functions[i]);
            out.push('\n');
            if style % 3 == 0 {
                out.push_str("// helper done\n\n");
            }
        }
        for function in extra {
            out.push_str(function);
            out.push('\n');
        }
        out.push_str(&self.main);
        let mut named = String::new();
        let mut rest = out.as_str();
        while let Some(at) = rest.find('@') {
            named.push_str(&rest[..at]);
            let digits: String = rest[at + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let n: u64 = digits.parse().unwrap();
            let _ = write!(named, "{prefix}{}_{}", n, (style.wrapping_mul(31) + n) % 7);
            rest = &rest[at + 1 + digits.len()..];
        }
        named.push_str(rest);
        named
    }

    /// As its author wrote it.
    pub fn original(&self) -> String {
        let order: Vec<usize> = (0..self.functions.len()).collect();
        self.render(0, &order, &[])
    }

    /// A copy of it disguised as `disguise`, by copier `seed`.
    pub fn disguised(&self, disguise: Disguise, seed: u64) -> String {
        let mut order: Vec<usize> = (0..self.functions.len()).collect();
        let mut extra = Vec::new();
        match disguise {
            Disguise::Renamed => {}
            Disguise::Reordered => order.reverse(),
            Disguise::Padded => {
                let padding = solution(seed ^ 0x5eed);
                extra = padding
                    .functions
                    .iter()
                    .map(|f| f.replace('@', "@9"))
                    .collect();
            }
        }
        self.render(seed | 1, &order, &extra)
    }
}

/// (student, source) of each file of a planted class.
pub type Files = Vec<(String, String)>;
/// The planted (original, copy) pairs by student name.
pub type Planted = Vec<(String, String)>;

/// One problem's planted class: `students` files, of which the first
/// `3 * copies` are pairs (original, copy) with the three disguises in
/// turn. Returns (student, source) and the planted pairs by name.
pub fn planted_class(problem_seed: u64, students: usize, copies: usize) -> (Files, Planted) {
    let mut files = Vec::new();
    let mut planted = Vec::new();
    let disguises = [Disguise::Renamed, Disguise::Reordered, Disguise::Padded];
    for s in 0..students {
        let name = format!("s{s:03}");
        if s < 2 * copies && s % 2 == 1 {
            let original = solution(problem_seed * 1000 + s as u64 - 1);
            let disguise = disguises[(s / 2) % 3];
            files.push((
                name.clone(),
                original.disguised(disguise, problem_seed + s as u64),
            ));
            planted.push((format!("s{:03}", s - 1), name));
        } else {
            files.push((name, solution(problem_seed * 1000 + s as u64).original()));
        }
    }
    (files, planted)
}
