//! The layer rule: docs/architecture.md's layer table puts every top-level
//! module of the library in a row, lowest first, and a module uses only
//! modules of the rows above its own. Then no two modules can use each
//! other, even through others: there is no circle between them.

use std::collections::{BTreeMap, BTreeSet};

use super::source::{Library, Reference};

/// The rows of the table under `## Layers` in `doc`, lowest first, each
/// as the modules it names (`escape.rs` → `escape`, `sandbox/` →
/// `sandbox`).
pub fn layer_table(doc: &str) -> Vec<Vec<String>> {
    let table = doc
        .lines()
        .skip_while(|line| line.trim() != "## Layers")
        .skip(1)
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        // the header and the line under it
        .skip(2);
    table
        .map(|row| {
            let modules = row.split('|').nth(2).unwrap_or_default();
            modules
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|name| {
                    let unit = name.strip_suffix(".rs").or_else(|| name.strip_suffix('/'));
                    unit.unwrap_or_else(|| panic!("`{name}`: a module is `name.rs` or `name/`"))
                        .to_owned()
                })
                .collect()
        })
        .collect()
}

/// A use that breaks the rule and is known, with the module it uses:
/// (file under harness/src, module).
pub type Known<'a> = (&'a str, &'a str);

/// Every way `library` breaks the layer rule of `rows`, apart from the
/// `known` ones, and every `known` one that no longer happens; each names
/// its file and line.
pub fn problems(library: &Library, rows: &[Vec<String>], known: &[Known<'_>]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut layer: BTreeMap<&str, usize> = BTreeMap::new();
    for (row, units) in rows.iter().enumerate() {
        for unit in units {
            if layer.insert(unit, row + 1).is_some() {
                problems.push(format!("`{unit}` has two rows in the layer table"));
            }
            if !library.units.contains(unit) {
                problems.push(format!(
                    "`{unit}` in the layer table is no module of lib.rs"
                ));
            }
        }
    }
    for unit in &library.units {
        if !layer.contains_key(unit.as_str()) {
            problems.push(format!("module `{unit}` has no row in the layer table"));
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    let upward: BTreeSet<&Reference> = library
        .references
        .iter()
        .filter(|r| layer[r.unit.as_str()] >= layer[r.from.as_str()])
        .collect();
    let is_known = |r: &Reference| known.contains(&(r.file.as_str(), r.unit.as_str()));
    for r in upward.iter().filter(|r| !is_known(r)) {
        problems.push(format!(
            "harness/src/{}:{}: `{}` (layer {}) uses `{}` (layer {}), which is not below it",
            r.file,
            r.line,
            r.from,
            layer[r.from.as_str()],
            r.unit,
            layer[r.unit.as_str()]
        ));
    }
    for (file, unit) in known {
        if !upward
            .iter()
            .any(|r| (r.file.as_str(), r.unit.as_str()) == (*file, *unit))
        {
            problems.push(format!(
                "harness/src/{file} no longer uses `{unit}` against the table: \
                 take it off the list of known violations"
            ));
        }
    }
    let unknown: Vec<&Reference> = upward.into_iter().filter(|r| !is_known(r)).collect();
    problems.extend(circles(&library.references, &unknown));
    problems
}

/// The circles between modules that `upward` (uses against the table)
/// close, each as the modules around it and where each step is.
fn circles(references: &[Reference], upward: &[&Reference]) -> Vec<String> {
    let mut edges: BTreeMap<&str, BTreeMap<&str, &Reference>> = BTreeMap::new();
    for r in references {
        edges
            .entry(&r.from)
            .or_default()
            .entry(&r.unit)
            .or_insert(r);
    }
    let mut found = Vec::new();
    let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
    for r in upward {
        if !seen.insert((&r.from, &r.unit)) {
            continue;
        }
        // The shortest way back from where the upward use leads.
        if let Some(back) = shortest_path(&edges, &r.unit, &r.from) {
            let mut steps = vec![format!("{}:{}", r.file, r.line)];
            steps.extend(back.iter().map(|s| format!("{}:{}", s.file, s.line)));
            let mut units = vec![r.from.as_str()];
            units.extend(back.iter().map(|s| s.from.as_str()));
            units.push(&r.from);
            found.push(format!(
                "circle {} (at {})",
                units.join(" → "),
                steps.join(", ")
            ));
        }
    }
    found
}

/// The uses that lead from module `from` to module `to`, fewest first.
fn shortest_path<'r>(
    edges: &BTreeMap<&str, BTreeMap<&str, &'r Reference>>,
    from: &str,
    to: &str,
) -> Option<Vec<&'r Reference>> {
    let mut came_by: BTreeMap<&str, &Reference> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(unit) = queue.pop_front() {
        if unit == to {
            let mut path = Vec::new();
            let mut at = to;
            while at != from {
                let step = came_by[at];
                path.push(step);
                at = &step.from;
            }
            path.reverse();
            return Some(path);
        }
        for (next, step) in edges.get(unit).into_iter().flatten() {
            if *next != from && !came_by.contains_key(next) {
                came_by.insert(next, step);
                queue.push_back(next);
            }
        }
    }
    None
}
