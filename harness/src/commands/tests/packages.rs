//! `judge list` and `judge export --kattis`, which run no program at all
//! on a package of files: through the fake context all the same, as every
//! verb is, so a change that makes them start one shows here.

use super::{Bench, assert_shows, double, double_script, row, write};
use crate::commands::export::export;
use crate::exit_codes;

#[test]
fn list_names_each_package_and_a_broken_one_fails() {
    let mut bench = Bench::new(double, double_script);
    let code = super::super::list(&mut bench.ctx).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    assert_eq!(
        row(&text, "double").join(" "),
        "double 0 3 1.00 s 256.0 MiB 64.0 MiB tokens Double"
    );

    write(
        bench.root.path(),
        "problems/broken/problem.toml",
        "id = \"broken\"\nlimits = 3\n",
    );
    let code = super::super::list(&mut bench.ctx).unwrap();
    assert_eq!(code, exit_codes::SPEC_ERROR);
}

#[test]
fn export_writes_a_kattis_package_without_a_run() {
    let mut bench = Bench::new(double, double_script);
    let out = bench.root.path().join("out/double");
    let code = export(&mut bench.ctx, "double", &out, false).unwrap();
    let text = bench.text();
    assert_eq!(code, exit_codes::OK, "{text}");
    let head = format!(
        "double → {} (Kattis problem package, legacy format)\n",
        out.display()
    );
    assert!(text.starts_with(&head), "{text}");
    assert_shows(
        &text,
        "  submissions: accepted 1, wrong_answer 1, time_limit_exceeded 1\n",
    );
    let read = |path: &str| std::fs::read_to_string(out.join(path)).unwrap();
    assert!(read("problem.yaml").contains("validation: default\n"));
    assert_eq!(read("data/secret/3.ans"), "6\n");
    assert!(
        out.join("submissions/time_limit_exceeded/slow.py")
            .is_file()
    );
    assert_eq!(bench.boxes.runs(), 0);
}
