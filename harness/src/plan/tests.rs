//! The plan stage without a process: a fake builder (`compile/fake.rs`:
//! every program "builds" at once) and the runner's scripted sandbox (runs
//! answered from the test's input).

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use super::{Means, Planner, settle_for_judging, settle_time_limit};
use crate::compile::fake::FakeBuilder;
use crate::owner::Owner;
use crate::pipeline::{Run, RunOptions};
use crate::runner::scripted::{self, Scripted, doubles_except};
use crate::runner::{Event, execute};
use crate::sandbox::{RunOutcome, RunRequest};
use crate::spec::{ProblemSpec, load_problem};

/// A legacy Kattis package "double the number" whose time limit follows
/// from its accepted submission, with a wrong submission, and a custom
/// output validator when `checked`.
fn kattis_double(dir: &Path, checked: bool) -> ProblemSpec {
    let package = dir.join("double");
    let write = |path: &str, text: &str| {
        let path = package.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let validation = if checked { "validation: custom\n" } else { "" };
    write(
        "problem.yaml",
        &format!(
            "name: Double\nsource: Game Judge\nlicense: cc0\nrights_owner: Game Judge\n{validation}"
        ),
    );
    if checked {
        write(
            "output_validators/check/check.py",
            "import sys\nsys.exit(42)\n",
        );
    }
    write("problem_statement/problem.en.tex", "Double it.\n");
    for n in 1..=2 {
        write(&format!("data/secret/{n}.in"), &format!("{n}\n"));
        write(&format!("data/secret/{n}.ans"), &format!("{}\n", 2 * n));
    }
    write("submissions/accepted/twice.py", "print(2 * int(input()))\n");
    write("submissions/wrong_answer/same.py", "print(int(input()))\n");
    load_problem(&package).unwrap()
}

fn means<'c>(
    builder: &'c mut FakeBuilder,
    sandbox: &'c Scripted<impl Fn(&RunRequest) -> RunOutcome + Sync>,
    scratch: &'c Path,
) -> Means<'c> {
    Means {
        builder,
        sandbox,
        isolation: "scripted".into(),
        scratch,
        jobs: 1,
        visualizations: None,
    }
}

#[test]
fn every_task_and_every_event_carries_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let problem = scripted::problem(dir.path(), 2);
    let mut builder = FakeBuilder::new(Scripted::new(doubles_except("none")));
    let mut planner = Planner::new(&mut builder, 1);
    planner.file(&problem, Path::new("a.py"), "a.py".into());
    planner.student(&problem, "ada", Path::new("ada/b.py"), "ada/b.py".into());
    let plan = planner.plan(false);
    let absolute = |path: &str| std::path::absolute(path).unwrap();
    let owners = [
        Owner::File {
            path: absolute("a.py"),
        },
        Owner::Student {
            student: "ada".into(),
            problem: "double".into(),
            file: absolute("ada/b.py"),
        },
    ];
    let planned: Vec<&Owner> = plan.tasks.iter().map(|t| &t.owner).collect();
    assert_eq!(planned, owners.iter().collect::<Vec<_>>());
    let sandbox = Scripted::new(doubles_except("2"));
    let scratch = tempfile::tempdir().unwrap();
    let mut seen: Vec<(usize, Owner)> = Vec::new();
    let reports = execute(&plan, &sandbox, scratch.path(), |event| {
        if let Event::TestFinished { task, owner, .. } = event {
            seen.push((task, owner.clone()));
        }
    });
    assert_eq!(seen.len(), 4, "{seen:?}");
    for (task, owner) in &seen {
        assert_eq!(owner, &owners[*task]);
    }
    let reported: Vec<&Owner> = reports.iter().map(|r| &r.owner).collect();
    assert_eq!(reported, owners.iter().collect::<Vec<_>>());
    assert_eq!(owners[1].student(), Some("ada"));
    assert_eq!(owners[0].file(), Some(absolute("a.py").as_path()));
}

#[test]
fn a_problems_solutions_are_owned_by_index_and_its_checker_built_once() {
    let dir = tempfile::tempdir().unwrap();
    let problem = kattis_double(dir.path(), true);
    let mut builder = FakeBuilder::new(Scripted::new(doubles_except("none")));
    let mut planner = Planner::new(&mut builder, 1);
    for index in 0..problem.solutions.len() {
        planner.solution(&problem, index);
    }
    // A copy under another limit judges with the same programs.
    let slower = super::with_time(&problem, std::time::Duration::from_secs(9));
    planner.solution(&slower, 0).every_test = true;
    let plan = planner.plan(true);
    for (t, task) in plan.tasks.iter().enumerate() {
        let index = t % problem.solutions.len();
        assert_eq!(task.owner.solution_of("double"), Some(index));
        assert_eq!(task.owner.solution_of("other"), None);
        assert_eq!(
            task.submission,
            problem.solutions[index].program.display_name()
        );
    }
    assert!(plan.tasks[2].every_test && !plan.tasks[0].every_test);
    let judging: Vec<String> = [problem.judging_program(), problem.output_checker()]
        .into_iter()
        .flatten()
        .map(|tool| tool.program.display_name())
        .collect();
    assert!(!judging.is_empty(), "the package has a checker");
    drop(plan);
    for name in &judging {
        let times = builder.built.iter().filter(|b| *b == name).count();
        assert_eq!(times, 1, "{name} built {times} times: {:?}", builder.built);
    }
}

#[test]
fn a_settled_time_limit_is_stored_and_not_settled_again() {
    let dir = tempfile::tempdir().unwrap();
    let problem = kattis_double(dir.path(), false);
    let store: PathBuf = dir.path().join("judge.db");
    let sandbox = Scripted::new(doubles_except("0"));
    let scratch = tempfile::tempdir().unwrap();
    let mut builder = FakeBuilder::new(Scripted::new(doubles_except("none")));
    let mut means = means(&mut builder, &sandbox, scratch.path());
    let mut run = Run::new("test", &RunOptions::default());

    let first = settle_for_judging(&mut means, &mut run, problem.clone(), &store, false).unwrap();
    let ran = sandbox.runs.load(Ordering::SeqCst);
    assert_eq!(ran, 2, "the accepted submission runs on both tests");
    let source = first.source.expect("a limit from the submissions");
    assert!(!source.from_store);
    assert!(
        source.line("double").starts_with("double: time limit "),
        "{}",
        source.line("double")
    );

    let second = settle_for_judging(&mut means, &mut run, problem.clone(), &store, false).unwrap();
    assert_eq!(
        sandbox.runs.load(Ordering::SeqCst),
        ran,
        "settled again instead of taken from the store"
    );
    let stored = second.source.expect("a limit from the store");
    assert!(stored.from_store);
    assert_eq!(stored.explanation, source.explanation);
    assert_eq!(second.problem.limits, first.problem.limits);

    // `--fresh` settles it anew; so does another isolation.
    settle_for_judging(&mut means, &mut run, problem.clone(), &store, true).unwrap();
    assert_eq!(sandbox.runs.load(Ordering::SeqCst), 2 * ran);
    means.isolation = "another".into();
    let other = settle_for_judging(&mut means, &mut run, problem, &store, false).unwrap();
    assert!(!other.source.unwrap().from_store);
}

#[test]
fn the_runs_that_settle_a_limit_belong_to_their_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let mut problem = kattis_double(dir.path(), false);
    let sandbox = Scripted::new(doubles_except("0"));
    let scratch = tempfile::tempdir().unwrap();
    let mut builder = FakeBuilder::new(Scripted::new(doubles_except("none")));
    let mut means = means(&mut builder, &sandbox, scratch.path());
    let mut run = Run::new("verify", &RunOptions::default());
    let settlement = settle_time_limit(&mut means, &mut run, &mut problem).unwrap();
    assert_eq!(settlement.error, None);
    let accepted = problem
        .solutions
        .iter()
        .position(|s| s.program.display_name().contains("twice"))
        .unwrap();
    let owners: Vec<Option<usize>> = settlement
        .runs
        .iter()
        .map(|r| r.owner.solution_of("double"))
        .collect();
    assert_eq!(owners, [Some(accepted)]);
    assert_eq!(settlement.runs[0].tests.len(), 2, "every test runs");
}
