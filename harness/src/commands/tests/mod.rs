//! Each verb's logic through a `Context` of fakes (`fake.rs`,
//! `compile/fake.rs`): no process starts, what the verb prints is read
//! back from a buffer. The problems are written into a temporary folder.

mod class;
mod doctor;
mod findings;
mod packages;
mod play;
mod practice;
mod queue;
mod serve;
mod serve_judging;
mod similar;
mod strength;
mod stress;
mod verify;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::Context;
use super::fake::{Answer, FakeBox, Printed};
use crate::cli::ReportArgs;
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
pub(crate) fn double(root: &Path) {
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

/// `double` with `toml` added to its `problem.toml`, and the (empty)
/// `programs` it names written into its folder.
fn double_with(root: &Path, toml: &str, programs: &[&str]) {
    double(root);
    let path = root.join("problems/double/problem.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(toml);
    std::fs::write(&path, text).unwrap();
    for program in programs {
        write(root, &format!("problems/double/{program}"), "");
    }
}

/// What each program of `double` does, by its file name: `twice.py`
/// doubles, `same.py` echoes, `slow.py` runs out of time; any other
/// program doubles.
pub(crate) fn double_script(program: &str, input: &str) -> Answer {
    let n: u64 = input.parse().unwrap_or(0);
    match program {
        "same.py" => Answer::prints(format!("{n}\n")),
        "slow.py" => Answer::times_out(Duration::from_secs(1)),
        _ => Answer::prints(format!("{}\n", 2 * n)),
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

/// What a verb's test works on: a folder of problems, the fake box its
/// programs run in, a context on both, and what the verb printed.
pub(crate) struct Bench {
    pub(crate) root: tempfile::TempDir,
    pub(crate) boxes: Arc<FakeBox>,
    pub(crate) ctx: Context,
    printed: Printed,
}

impl Bench {
    /// A fresh folder that `problems` fills, its programs answered by
    /// `script` (in the context's boxes and its builder's alike).
    pub(crate) fn new(
        problems: fn(&Path),
        script: impl Fn(&str, &str) -> Answer + Send + Sync + 'static,
    ) -> Bench {
        let root = tempfile::tempdir().unwrap();
        problems(root.path());
        let boxes = FakeBox::new(script);
        let builder = FakeBuilder::new(boxes.clone());
        let (ctx, printed) = Context::fake(root.path(), Box::new(builder), Box::new(boxes.clone()));
        Bench {
            root,
            boxes,
            ctx,
            printed,
        }
    }

    /// Its builder gives a compile error for the programs named `names`.
    fn compile_errors(mut self, names: &[&str]) -> Bench {
        let mut builder = FakeBuilder::new(self.boxes.clone());
        builder.compile_errors = names.iter().map(|name| name.to_string()).collect();
        self.ctx.builder = Box::new(builder);
        self
    }

    /// A file of the folder's own (a learner's, a class's), written empty.
    fn file(&self, path: &str) -> PathBuf {
        write(self.root.path(), path, "");
        self.root.path().join(path)
    }

    /// Report arguments for a JSON report in the folder (see `report`).
    fn json(&self) -> ReportArgs {
        ReportArgs {
            json: Some(self.root.path().join("report.json")),
            junit: None,
        }
    }

    /// The JSON report written where `json` said.
    fn report(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.root.path().join("report.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// All the verb printed so far.
    fn text(&self) -> String {
        self.printed.text()
    }
}

/// Asserts that `text` shows `wanted`, showing all of `text` if not.
fn assert_shows(text: &str, wanted: &str) {
    assert!(text.contains(wanted), "no {wanted:?} in:\n{text}");
}

/// The words of the line of `text` that starts with `first` (a table's row).
fn row<'t>(text: &'t str, first: &str) -> Vec<&'t str> {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .find(|words| words.first() == Some(&first))
        .unwrap_or_else(|| panic!("no row {first} in:\n{text}"))
}
