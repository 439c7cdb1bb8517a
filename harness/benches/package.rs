//! `judge grade` of one file on a Kattis package against the same tests in
//! our own format: the Kattis package states no time limit, so its first
//! grading runs the package's accepted submission on every test to settle
//! it; later gradings take the settled limit from the result store. Both
//! packages hold the same tests, limits and submission.
//!
//! Run: `cargo bench -p harness --bench package` (add `-- --tests N`,
//! `-- --rounds N`). Prints a table of medians over interleaved rounds and
//! the ratio to our own format; asserts nothing (timings belong in
//! benchmarks).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// A pair sum in C when there is a compiler, else in Python.
fn submission(dir: &Path) -> std::path::PathBuf {
    let has_gcc = Command::new("gcc").arg("--version").output().is_ok();
    let (name, text) = match has_gcc {
        true => (
            "sum.c",
            "#include <stdio.h>\nint main(void) { long long a, b; \
             if (scanf(\"%lld %lld\", &a, &b) != 2) return 1; \
             printf(\"%lld\\n\", a + b); return 0; }\n",
        ),
        false => ("sum.py", "a, b = map(int, input().split())\nprint(a + b)\n"),
    };
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The tests, written into `data/` of both packages.
fn write_tests(data: &Path, tests: usize) {
    for (folder, count) in [("sample", 1), ("secret", tests - 1)] {
        std::fs::create_dir_all(data.join(folder)).unwrap();
        for i in 0..count {
            let (a, b) = (i as i64 * 7919 - 5000, i as i64 * 104_729 % 1_000_003);
            let name = data.join(folder).join(format!("{i:03}"));
            std::fs::write(name.with_extension("in"), format!("{a} {b}\n")).unwrap();
            std::fs::write(name.with_extension("ans"), format!("{}\n", a + b)).unwrap();
        }
    }
}

/// `problems/kattis` (legacy Kattis) and `problems/own` (problem.toml).
fn packages(root: &Path, tests: usize, file: &Path) {
    let kattis = root.join("problems/kattis");
    write_tests(&kattis.join("data"), tests);
    std::fs::write(
        kattis.join("problem.yaml"),
        "name: Pair Sum\nlimits:\n  memory: 256\n",
    )
    .unwrap();
    let accepted = kattis.join("submissions/accepted");
    std::fs::create_dir_all(&accepted).unwrap();
    std::fs::copy(file, accepted.join(file.file_name().unwrap())).unwrap();

    let own = root.join("problems/own");
    write_tests(&own.join("data"), tests);
    std::fs::write(
        own.join("problem.toml"),
        format!(
            "id = \"own\"\ntitle = \"Pair Sum\"\n\n[limits]\ntime = \"1s\"\nmemory = \"256MiB\"\n\n\
             [[solution]]\nfile = \"{}\"\nexpect = \"AC\"\n",
            file.display()
        ),
    )
    .unwrap();
}

/// `judge grade ID FILE` in `root`, in seconds.
fn grade(root: &Path, id: &str, file: &Path) -> f64 {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_judge"))
        .args(["--color", "never", "--root"])
        .arg(root)
        .args(["grade", id])
        .arg(file)
        .output()
        .unwrap();
    let seconds = start.elapsed().as_secs_f64();
    if !output.status.success() {
        eprintln!(
            "{id}: judge exited with {}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    seconds
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let (tests, rounds) = (arg("--tests", 100).max(2), arg("--rounds", 5).max(1));
    let dir = tempfile::tempdir().unwrap();
    let file = submission(dir.path());
    packages(dir.path(), tests, &file);
    let db = dir.path().join("judge.db");
    // Builds are cached after this; the limit is settled and stored.
    grade(dir.path(), "own", &file);
    grade(dir.path(), "kattis", &file);

    let (mut own, mut stored, mut settling) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        own.push(grade(dir.path(), "own", &file));
        stored.push(grade(dir.path(), "kattis", &file));
        std::fs::remove_file(&db).unwrap();
        settling.push(grade(dir.path(), "kattis", &file));
    }
    let own = median(own);
    println!(
        "judge grade of {} on {tests} tests, median of {rounds} interleaved rounds\n",
        file.file_name().unwrap().to_string_lossy()
    );
    println!("| {:<44} | {:>9} | {:>7} |", "package", "seconds", "ratio");
    println!("|{:-<46}|{:->11}|{:->9}|", "", "", "");
    for (name, seconds) in [
        ("our own format (problem.toml)", own),
        ("Kattis, limit from the result store", median(stored)),
        (
            "Kattis, limit settled by running (no store)",
            median(settling),
        ),
    ] {
        println!("| {name:<44} | {seconds:>9.3} | {:>6.2}× |", seconds / own);
    }
}
