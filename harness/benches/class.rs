//! Grading a class, cold and from the result store: a synthetic class of
//! 200 students × 5 problems (the fixture problems `sum`, `sum-b` (a copy),
//! `sum-strict`, `divisor` with a checker and scores, and the interactive
//! `guess`), each student's file drawn from the fixture submissions in C,
//! Python and Rust (AC, WA, PE, RE, CE; a few students miss a problem).
//! Then `judge verify` on the real problem set, cold (`--fresh`) and warm.
//! Prints a table; asserts nothing (timings belong in benchmarks).
//!
//! Run: `cargo bench -p harness --bench class` (add `-- --students N`,
//! `-- --skip-verify`).
//!
//! Python files get a comment naming their student, so each is a file of
//! its own; C and Rust files are shared (a class of 200 compiles would
//! measure the compilers, which the build cache already skips on reruns).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use harness::store::Store;

const PROBLEMS: [&str; 5] = ["sum", "sum-b", "sum-strict", "divisor", "guess"];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The files a student may hand in for `problem`, under `submissions/`.
fn pool(problem: &str) -> &'static [&'static str] {
    match problem {
        "sum" | "sum-b" => &[
            "sum/AC/sum.c",
            "sum/AC/sum.py",
            "sum/AC/sum.rs",
            "sum/AC/sum.py",
            "sum/WA/int_overflow.c",
            "sum/WA/missing_line.py",
            "sum/RE/exception.py",
            "sum/CE/syntax.c",
        ],
        "sum-strict" => &[
            "sum-strict/AC/sum.py",
            "sum-strict/PE/sum_spaces.py",
            "sum/AC/sum.c",
        ],
        "divisor" => &["divisor/AC/divisor.py", "divisor/WA/always_two.c"],
        _ => &[
            "guess/AC/binary_search.rs",
            "guess/WA/guess_once.rs",
            "guess/RE/crash_mid_game.rs",
            "../class/alice/guess.py",
        ],
    }
}

/// A root with the five problems and a class folder of `students`.
fn synthetic_class(dir: &Path, students: usize) -> PathBuf {
    let problems = dir.join("problems");
    for (id, from) in [
        ("sum", "sum"),
        ("sum-b", "sum"),
        ("sum-strict", "sum-strict"),
        ("divisor", "divisor"),
        ("guess", "guess"),
    ] {
        copy_dir(&fixtures().join("problems").join(from), &problems.join(id));
        // The packages' own solutions stay where they are, found from the new place.
        let toml = problems.join(id).join("problem.toml");
        let text = std::fs::read_to_string(&toml)
            .unwrap()
            .replace(&format!("id = \"{from}\""), &format!("id = \"{id}\""))
            .replace(
                "../../submissions/",
                &format!("{}/", fixtures().join("submissions").display()),
            );
        std::fs::write(&toml, text).unwrap();
    }

    let class = dir.join("class");
    for s in 0..students {
        let student = class.join(format!("student-{s:03}"));
        std::fs::create_dir_all(&student).unwrap();
        for (p, problem) in PROBLEMS.iter().enumerate() {
            let pick = blake3::hash(format!("{s}/{problem}").as_bytes()).as_bytes()[0] as usize;
            if pick % 20 == 0 {
                continue; // one in twenty: no submission
            }
            let choices = pool(problem);
            let source = fixtures()
                .join("submissions")
                .join(choices[(pick + p) % choices.len()]);
            let extension = source.extension().unwrap().to_string_lossy().into_owned();
            let mut text = std::fs::read_to_string(&source).unwrap();
            if extension == "py" {
                text.push_str(&format!("\n# student-{s:03}\n"));
            }
            std::fs::write(student.join(format!("{problem}.{extension}")), text).unwrap();
        }
    }
    class
}

struct Row {
    phase: String,
    seconds: f64,
    ran: usize,
    reused: usize,
}

/// Runs the judge, timing it; the store's counts for the run it made.
fn timed(phase: &str, root: &Path, db: &Path, args: &[&str]) -> Row {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["--color", "never", "--root"])
        .arg(root)
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    if !output.status.success() {
        eprintln!(
            "{phase}: judge exited with {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let store = Store::open(db).unwrap();
    let run = store.runs().unwrap().last().unwrap().id;
    let (ran, reused) = store.counts(run).unwrap();
    Row {
        phase: phase.to_string(),
        seconds,
        ran,
        reused,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let students = args
        .iter()
        .position(|a| a == "--students")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(200);
    let skip_verify = args.iter().any(|a| a == "--skip-verify");

    let dir = tempfile::tempdir().unwrap();
    let class = synthetic_class(dir.path(), students);
    let class_arg = class.to_string_lossy().into_owned();
    let db = dir.path().join("judge.db");
    println!(
        "class: {students} students × {} problems ({})",
        PROBLEMS.len(),
        PROBLEMS.join(", ")
    );
    let grade = ["grade", "--class", &class_arg];
    let mut rows = vec![
        timed("grade --class, first", dir.path(), &db, &grade),
        timed("grade --class, again (cached)", dir.path(), &db, &grade),
    ];
    if !skip_verify {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let verify_db = dir.path().join("verify.db");
        rows.push(timed(
            "verify, cold (--fresh)",
            root,
            &verify_db,
            &["verify", "--fresh"],
        ));
        rows.push(timed("verify, warm", root, &verify_db, &["verify"]));
    }

    println!();
    println!(
        "| {:<30} | {:>9} | {:>9} | {:>9} | {:>10} |",
        "phase", "seconds", "tests run", "reused", "tests/s"
    );
    println!(
        "|{:-<32}|{:->11}|{:->11}|{:->11}|{:->12}|",
        "", "", "", "", ""
    );
    for row in &rows {
        println!(
            "| {:<30} | {:>9.2} | {:>9} | {:>9} | {:>10.0} |",
            row.phase,
            row.seconds,
            row.ran,
            row.reused,
            (row.ran + row.reused) as f64 / row.seconds.max(1e-9)
        );
    }
}
