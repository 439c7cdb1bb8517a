//! `judge grade --class`: a class folder graded into the result store,
//! its gradebook, a second grading that reuses the stored results, and
//! `judge report` of the last one.

use super::{Bench, assert_shows, double, row, write};
use crate::cli::{ClassArgs, GradebookArgs, ReportArgs, StoreArgs, TeacherArgs};
use crate::commands::class::{grade_class, merge};
use crate::commands::fake::Answer;
use crate::commands::report::{Which, report};
use crate::exit_codes;
use crate::report::feedback::Visibility;

/// A class of four in `class/`: ada's `double.py` doubles, bob's
/// `double.c` echoes, cat's `double.cpp` does not compile, dan handed in
/// notes only.
pub(super) fn class(root: &std::path::Path) {
    double(root);
    // Contents differ: the store knows a submission by its content.
    write(root, "class/ada/double.py", "# ada\n");
    write(root, "class/bob/double.c", "/* bob */\n");
    write(root, "class/cat/double.cpp", "// cat\n");
    write(root, "class/dan/notes.txt", "todo\n");
}

pub(super) fn by_language(program: &str, input: &str) -> Answer {
    let n: u64 = input.parse().unwrap_or(0);
    match program {
        "double.c" => Answer::prints(format!("{n}\n")),
        _ => Answer::prints(format!("{}\n", 2 * n)),
    }
}

pub(super) fn args(bench: &Bench) -> ClassArgs {
    ClassArgs {
        class: Some(bench.root.path().join("class")),
        manifest: None,
        partition: None,
        partition_count: None,
        queue: false,
        deadline: None,
        late: None,
        late_cap: None,
        base: None,
        gradebook: GradebookArgs {
            csv: None,
            html: None,
            policy: None,
        },
    }
}

/// A teacher's report: samples in full, secret tests by verdict only.
fn teacher() -> TeacherArgs {
    TeacherArgs {
        feedback: None,
        samples: Visibility::Full,
        secret: Visibility::Verdict,
        roster: None,
        moodle: None,
        canvas: None,
        gradescope: None,
        item: "Game Judge".into(),
    }
}

const STORE: StoreArgs = StoreArgs {
    db: None,
    fresh: false,
};

/// The line of `text` that starts with `start`.
fn line<'t>(text: &'t str, start: &str) -> &'t str {
    text.lines()
        .find(|line| line.starts_with(start))
        .unwrap_or_else(|| panic!("no line {start:?} in:\n{text}"))
}

#[test]
fn a_class_is_graded_into_the_store_and_graded_again_from_it() {
    let mut bench = Bench::new(class, by_language).compile_errors(&["double.cpp"]);
    let args = args(&bench);
    let none = ReportArgs::default();
    let grade = |bench: &mut Bench| {
        let before = bench.text().len();
        let code = grade_class(&mut bench.ctx, &args, &[], false, &none, &STORE).unwrap();
        // A class always has failing submissions: success is every one judged.
        assert_eq!(code, exit_codes::OK, "{}", bench.text());
        bench.text()[before..].to_string()
    };

    let text = grade(&mut bench);
    assert_shows(&text, ": 4 students × 1 problems (double)\n");
    assert_eq!(row(&text, "ada"), ["ada", "AC", "1"]);
    assert_eq!(row(&text, "bob"), ["bob", "WA", "0"]);
    assert_eq!(row(&text, "cat"), ["cat", "CE", "0"]);
    assert_eq!(row(&text, "dan"), ["dan", "-", "0"]);
    assert_shows(&text, "  dan/notes.txt: no problem `notes`\n");
    let graded = line(&text, "graded ");
    assert!(
        graded.starts_with("graded 3 submissions: 6 tests run, 0 results reused; stored as run 1"),
        "{text}"
    );
    assert_eq!(
        bench.boxes.runs(),
        6,
        "ada's and bob's tests; cat's did not build"
    );

    // Unchanged files: every result comes from the store.
    let again = grade(&mut bench);
    assert_eq!(row(&again, "bob"), ["bob", "WA", "0"]);
    let graded = line(&again, "graded ");
    assert!(
        graded.starts_with("graded 3 submissions: 0 tests run, 6 results reused; stored as run 2"),
        "{again}"
    );
    assert_eq!(bench.boxes.runs(), 6);

    // Bob hands in another file: his tests run again, no one else's.
    write(
        bench.root.path(),
        "class/bob/double.c",
        "/* bob, again */\n",
    );
    let third = grade(&mut bench);
    let graded = line(&third, "graded ");
    assert!(
        graded.starts_with("graded 3 submissions: 3 tests run, 3 results reused; stored as run 3"),
        "{third}"
    );
    assert_eq!(bench.boxes.runs_of("double.c"), 6);
    assert_eq!(bench.boxes.runs_of("double.py"), 3);

    // `judge report` renders the last grading from the store, running nothing.
    let before = bench.text().len();
    let code = report(
        &mut bench.ctx,
        &Which::Latest,
        false,
        &none,
        &args.gradebook,
        &teacher(),
        None,
    );
    assert_eq!(code.unwrap(), exit_codes::OK);
    let shown = bench.text()[before..].to_string();
    assert!(shown.starts_with("run 3: judge grade of "), "{shown}");
    assert_eq!(row(&shown, "ada"), ["ada", "AC", "1"]);
    assert_eq!(row(&shown, "cat"), ["cat", "CE", "0"]);
    assert_eq!(bench.boxes.runs(), 9);
}

#[test]
fn shards_graded_apart_merge_into_one_gradebook() {
    let mut bench = Bench::new(class, by_language).compile_errors(&["double.cpp"]);
    let none = ReportArgs::default();
    let db = |name: &str| bench.root.path().join(name);
    let (first, second, merged) = (db("first.db"), db("second.db"), db("merged.db"));
    for (shard, store) in [("1/2", &first), ("2/2", &second)] {
        let args = ClassArgs {
            partition: Some(shard.into()),
            ..args(&bench)
        };
        let store = StoreArgs {
            db: Some(store.clone()),
            fresh: false,
        };
        let code = grade_class(&mut bench.ctx, &args, &[], false, &none, &store).unwrap();
        assert_eq!(code, exit_codes::OK, "{}", bench.text());
    }
    let runs = bench.boxes.runs();

    let before = bench.text().len();
    let inputs = [first.clone(), second];
    assert_eq!(
        merge(&mut bench.ctx, &inputs, &merged).unwrap(),
        exit_codes::OK
    );
    let text = bench.text()[before..].to_string();
    assert_shows(
        &text,
        &format!(
            "merged 2 stores into {} as run 1: 3 submissions\n",
            merged.display()
        ),
    );
    let before = bench.text().len();
    let gradebook = args(&bench).gradebook;
    let code = report(
        &mut bench.ctx,
        &Which::Latest,
        false,
        &none,
        &gradebook,
        &teacher(),
        Some(&merged),
    );
    assert_eq!(code.unwrap(), exit_codes::OK);
    let shown = bench.text()[before..].to_string();
    assert!(shown.starts_with("run 1: judge grade of "), "{shown}");
    assert!(
        shown.lines().next().unwrap().contains(", merged from "),
        "{shown}"
    );
    for (student, verdict) in [("ada", "AC"), ("bob", "WA"), ("cat", "CE"), ("dan", "-")] {
        assert_eq!(row(&shown, student)[..2], [student, verdict], "{shown}");
    }
    assert_eq!(
        bench.boxes.runs(),
        runs,
        "merging and reporting run nothing"
    );

    // One shard alone is an incomplete gradebook: merged, but a failure.
    let half = [first.clone()];
    let code = merge(&mut bench.ctx, &half, &db("half.db")).unwrap();
    assert_eq!(code, exit_codes::FAILED);
    // A store is never merged into itself.
    let error = merge(&mut bench.ctx, &half, &first).unwrap_err();
    assert_shows(&error.to_string(), "is both an input and the output");
    let error = merge(&mut bench.ctx, &[db("none.db")], &merged).unwrap_err();
    assert_shows(&error.to_string(), "no store at");
}
