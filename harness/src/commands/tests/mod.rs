//! Each verb's logic through a `Context` of fakes (`fake.rs`,
//! `compile/fake.rs`): no process starts, what the verb prints is read
//! back from a buffer. The problems are written into a temporary folder.

mod practice;
mod verify;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::Context;
use super::fake::{Answer, FakeBox, Printed};
use crate::compile::fake::FakeBuilder;

/// Writes `text` to `root/path`, making its folders.
fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A problem "double the number" in `root/problems/double`: tests 1..=3
/// (the input is the test's number), a 1 s time limit, and three solutions
/// expected to get AC (`twice.py`), WA (`same.py`) and TLE (`slow.py`).
fn double(root: &Path) {
    let toml = r#"id = "double"
title = "Double"

[limits]
time = "1s"

[[solution]]
file = "solutions/twice.py"
expect = "AC"

[[solution]]
file = "solutions/same.py"
expect = "WA"

[[solution]]
file = "solutions/slow.py"
expect = "TLE"
"#;
    write(root, "problems/double/problem.toml", toml);
    for n in 1..=3 {
        write(
            root,
            &format!("problems/double/data/secret/{n}.in"),
            &format!("{n}\n"),
        );
        write(
            root,
            &format!("problems/double/data/secret/{n}.ans"),
            &format!("{}\n", 2 * n),
        );
    }
    for name in ["twice", "same", "slow"] {
        write(root, &format!("problems/double/solutions/{name}.py"), "");
    }
}

/// What each program of `double` does, by the end of its name (a
/// package's submission is named with its folder, `accepted/twice.py`):
/// `twice.py` doubles, `same.py` echoes, `slow.py` runs out of time; any
/// other program doubles.
fn double_script(program: &str, input: &str) -> Answer {
    let n: u64 = input.parse().unwrap_or(0);
    if program.ends_with("same.py") {
        Answer::prints(format!("{n}\n"))
    } else if program.ends_with("slow.py") {
        Answer::times_out(Duration::from_secs(1))
    } else {
        Answer::prints(format!("{}\n", 2 * n))
    }
}

/// A legacy Kattis package "double the number" in `root/problems/kdouble`
/// whose time limit follows from its accepted submission (`twice.py`),
/// with a wrong one (`same.py`); tests 1 and 2.
fn kattis_double(root: &Path) {
    let dir = "problems/kdouble";
    write(
        root,
        &format!("{dir}/problem.yaml"),
        "name: Double\nsource: Game Judge\nlicense: cc0\nrights_owner: Game Judge\n",
    );
    write(
        root,
        &format!("{dir}/problem_statement/problem.en.tex"),
        "Double it.\n",
    );
    for n in 1..=2 {
        write(
            root,
            &format!("{dir}/data/secret/{n}.in"),
            &format!("{n}\n"),
        );
        write(
            root,
            &format!("{dir}/data/secret/{n}.ans"),
            &format!("{}\n", 2 * n),
        );
    }
    write(root, &format!("{dir}/submissions/accepted/twice.py"), "");
    write(root, &format!("{dir}/submissions/wrong_answer/same.py"), "");
}

/// A context on `root` whose programs run in `boxes` (shared with its
/// builder's trusted programs).
fn context(root: &Path, boxes: &Arc<FakeBox>) -> (Context, Printed) {
    let builder = FakeBuilder::new(boxes.clone());
    Context::fake(root, Box::new(builder), Box::new(boxes.clone()))
}

/// The words of the line of `text` that starts with `first` (a table's row).
fn row<'t>(text: &'t str, first: &str) -> Vec<&'t str> {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|words| words.first() == Some(&first))
        .unwrap_or_else(|| panic!("no row {first} in:\n{text}"))
}
