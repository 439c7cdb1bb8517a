//! The CLI's behaviour: listing, broken packages, verify, the learner's
//! loop with its first difference, reports and the build cache.

use predicates::prelude::*;

use crate::support::*;

#[test]
fn list_shows_good_packages_and_names_the_broken_one() {
    judge_fixtures()
        .arg("list")
        .assert()
        .code(3)
        .stdout(predicate::str::contains("sum").and(predicate::str::contains("divisor")))
        .stderr(
            predicate::str::contains("problems/broken/problem.toml")
                .and(predicate::str::contains("memroy"))
                .and(predicate::str::contains("line 5")),
        );
}

#[test]
fn bad_values_name_file_line_and_key() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("problems/p");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("problem.toml"),
        "id = \"p\"\n\n[limits]\ntime = \"1x\"\n",
    )
    .unwrap();
    judge_at(root.path()).arg("list").assert().code(3).stderr(
        predicate::str::contains("problems/p/problem.toml")
            .and(predicate::str::contains("line 4"))
            .and(predicate::str::contains("time"))
            .and(predicate::str::contains("invalid duration")),
    );
    std::fs::write(dir.join("problem.toml"), "id = \"q\"\n").unwrap();
    judge_at(root.path()).arg("list").assert().code(3).stderr(
        predicate::str::contains("problem.toml:1: key `id`")
            .and(predicate::str::contains("folder name `p`")),
    );
    std::fs::write(
        dir.join("problem.toml"),
        "id = \"p\"\n[compare]\nmode = \"checker\"\n",
    )
    .unwrap();
    judge_at(root.path()).arg("list").assert().code(3).stderr(
        predicate::str::contains("problem.toml:3: key `compare.mode`")
            .and(predicate::str::contains("[checker]")),
    );
}

#[test]
fn missing_answer_file_is_named() {
    let root = scratch_root_with("sum-strict");
    std::fs::remove_file(root.path().join("problems/sum-strict/data/secret/02.ans")).unwrap();
    judge_at(root.path())
        .arg("list")
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "02.in: test input has no matching .ans file",
        ));
}

#[test]
fn verify_passes_when_every_expectation_holds() {
    judge_fixtures()
        .args(["verify", "sum"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("3 solutions: 3 as expected, 0 unexpected")
                .and(predicate::str::contains("5 inputs valid"))
                .and(predicate::str::contains("1 generated input reproduced")),
        );
}

#[test]
fn verify_fails_when_an_expectation_does_not_hold() {
    let root = scratch_root_with_submissions("sum");
    let toml = root.path().join("problems/sum/problem.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("expect = \"WA\"", "expect = \"AC\"");
    std::fs::write(&toml, text).unwrap();
    judge_at(root.path())
        .args(["verify", "sum"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("UNEXPECTED").and(predicate::str::contains("1 unexpected")),
        );
}

#[test]
fn verify_reports_an_input_the_validator_rejects() {
    let root = scratch_root_with_submissions("sum");
    std::fs::write(
        root.path().join("problems/sum/data/secret/01.in"),
        "1\n5000000000 1\n",
    )
    .unwrap();
    judge_at(root.path())
        .args(["verify", "sum"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("validator rejects secret/01"));
}

#[test]
fn unknown_problem_is_a_clear_error() {
    judge_fixtures()
        .args(["test", "nope", "x.rs"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("no problem `nope`"));
}

#[test]
fn the_learner_sees_the_first_difference() {
    let file = fixtures().join("submissions/sum/WA/off_by_one.rs");
    judge_fixtures()
        .args(["test", "sum"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("WA  sample/1")
                .and(predicate::str::contains(
                    "line 1, token 1: expected `3`, got `4`",
                ))
                .and(predicate::str::contains("--- expected"))
                .and(predicate::str::contains("+4"))
                .and(predicate::str::contains("off_by_one.rs: WA on sample/1")),
        );
}

#[test]
fn accepted_test_exits_zero_and_shows_time_and_memory() {
    let file = fixtures().join("submissions/sum/AC/sum.rs");
    judge_fixtures()
        .args(["test", "sum"])
        .arg(&file)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("AC  secret/03")
                .and(predicate::str::contains("sum.rs: AC · 5 of 5 tests run"))
                .and(predicate::str::contains("MiB")),
        );
}

#[test]
fn compile_errors_show_the_compilers_message() {
    let file = fixtures().join("submissions/sum/CE/syntax.rs");
    judge_fixtures()
        .args(["test", "sum"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("CE")
                .and(predicate::str::contains("syntax.rs"))
                .and(predicate::str::contains("expected expression")),
        );
}

#[test]
fn unknown_extension_is_a_judge_error_naming_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.cobol");
    std::fs::write(&file, "DISPLAY 'HI'.").unwrap();
    judge_fixtures()
        .args(["test", "sum"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("JE")
                .and(predicate::str::contains("no language for"))
                .and(predicate::str::contains("py")),
        );
}

#[test]
fn json_and_junit_reports() {
    let dir = tempfile::tempdir().unwrap();
    let (json, junit) = (dir.path().join("r.json"), dir.path().join("r.xml"));
    let files = [
        fixtures().join("submissions/sum/AC/sum.rs"),
        fixtures().join("submissions/sum/WA/off_by_one.rs"),
    ];
    judge_fixtures()
        .args(["grade", "sum"])
        .args(&files)
        .arg("--json")
        .arg(&json)
        .arg("--junit")
        .arg(&junit)
        .assert()
        .code(1);
    let report = read_json(&json);
    assert_eq!(report["version"], 1);
    assert_eq!(report["command"], "grade");
    let subs = report["submissions"].as_array().unwrap();
    assert_eq!(
        (subs[0]["verdict"].as_str(), subs[1]["verdict"].as_str()),
        (Some("AC"), Some("WA"))
    );
    let test = &subs[0]["tests"][0];
    for key in [
        "test",
        "verdict",
        "cpu_ms",
        "wall_ms",
        "memory_kib",
        "output_bytes",
    ] {
        assert!(!test[key].is_null(), "test field {key}");
    }
    assert_eq!(subs[1]["tests"][0]["first_difference"]["expected"], "`3`");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<testsuite") && xml.contains("sum/") && xml.contains("<failure"),
        "{xml}"
    );
}

#[test]
fn a_second_run_rebuilds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(
        &fixtures().join("problems/sum-strict"),
        &root.join("problems/sum-strict"),
    );
    let file = fixtures().join("submissions/sum/AC/sum.rs");
    // The root's own cache, not the suite's shared one.
    judge_at(root)
        .env_remove(SHARED_CACHE_VAR)
        .args(["test", "sum-strict"])
        .arg(&file)
        .assert()
        .success();
    let cache = root.join("target/judge-cache");
    let entries = |c: &std::path::Path| {
        let mut v: Vec<_> = std::fs::read_dir(c)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    };
    let built = entries(&cache);
    assert_eq!(built.len(), 1, "one cached build");
    let binary = built[0].join("program/main");
    let stamp = std::fs::metadata(&binary).unwrap().modified().unwrap();
    judge_at(root)
        .env_remove(SHARED_CACHE_VAR)
        .args(["test", "sum-strict"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(entries(&cache), built, "no new build");
    assert_eq!(
        std::fs::metadata(&binary).unwrap().modified().unwrap(),
        stamp,
        "the binary was not rebuilt"
    );
}

#[test]
fn sigterm_kills_every_child_and_still_writes_the_report() {
    let Some(file) = runnable_files(&fixtures().join("submissions/sum/TLE-wall"))
        .into_iter()
        .find(|f| f.extension().is_some_and(|e| e == "py" || e == "rs"))
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("partial.json");
    // A name no other process on this machine has.
    let unique = dir.path().join(format!(
        "gj_sigterm_probe.{}",
        file.extension().unwrap().to_string_lossy()
    ));
    std::fs::copy(&file, &unique).unwrap();
    let file = unique;
    // A 60 s wall limit, so only the signal can end the run early.
    let root = dir.path().join("root");
    copy_dir(
        &fixtures().join("problems/sum-strict"),
        &root.join("problems/sum-strict"),
    );
    let toml = root.join("problems/sum-strict/problem.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("time = \"1s\"", "time = \"1s\"\nwall = \"60s\"");
    std::fs::write(&toml, text).unwrap();
    let mut judge = Background::start(
        std::process::Command::new(judge_binary())
            .arg("--root")
            .arg(&root)
            .args(["grade", "sum-strict"])
            .arg(&file)
            .arg("--json")
            .arg(&json)
            .stdout(std::process::Stdio::null()),
    );
    // Wait until the submission runs (its process appears), then interrupt.
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let started = std::time::Instant::now();
    while leftover_processes(&stem).is_empty()
        && started.elapsed() < std::time::Duration::from_secs(30)
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        !leftover_processes(&stem).is_empty(),
        "the submission never started"
    );
    judge.signal(libc::SIGTERM);
    let status = judge.wait_within(CLI_TIMEOUT);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the judge stopped promptly"
    );
    assert_eq!(status.code(), Some(130));
    let report = read_json(&json);
    assert_eq!(report["interrupted"], true);
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        leftover_processes(&stem),
        Vec::<String>::new(),
        "no process survives the judge"
    );
}

#[test]
fn a_missing_compiler_is_a_judge_error_naming_it() {
    let root = scratch_root_with("sum-strict");
    std::fs::write(
        root.path().join("languages.toml"),
        "[fortran]\nname = \"Fortran\"\nextensions = [\"f90\"]\ncompile = [\"no-such-fortran-compiler\", \"-o\", \"{binary}\", \"{source}\"]\nrun = [\"{binary}\"]\n",
    )
    .unwrap();
    let file = root.path().join("hello.f90");
    std::fs::write(&file, "print *, 'hi'\nend\n").unwrap();
    judge_at(root.path())
        .args(["test", "sum-strict"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("JE").and(predicate::str::contains(
            "compiler `no-such-fortran-compiler` for Fortran is not installed",
        )));
}

#[test]
fn doctor_says_which_isolation_is_active_and_which_is_not() {
    judge_fixtures()
        .arg("doctor")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "isolation: own session (no terminal), rlimits",
        ));
    judge_fixtures()
        .args(["--isolation", "limits", "doctor"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "not applied: namespaces, cgroups and privilege drop",
        ));
}

/// As root, drop to an unprivileged user and judge from there: the judge must
/// still work and say which isolation it could apply.
#[test]
fn works_unprivileged_and_says_what_it_could_apply() {
    // Root and setpriv become an unprivileged user.
    if !have(&["root", "setpriv"]) {
        return;
    }
    let Some(file) = runnable_files(&fixtures().join("submissions/sum/AC"))
        .into_iter()
        .find(|f| f.extension().is_some_and(|e| e == "c" || e == "py"))
    else {
        return;
    };
    use std::os::unix::fs::{PermissionsExt, chown};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    copy_dir(
        &fixtures().join("problems/sum-strict"),
        &root.join("problems/sum-strict"),
    );
    let judge_copy = dir.path().join("judge");
    std::fs::copy(judge_binary(), &judge_copy).unwrap();
    let submission = dir.path().join(file.file_name().unwrap());
    std::fs::copy(&file, &submission).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for entry in walkdir::WalkDir::new(dir.path()) {
        chown(entry.unwrap().path(), Some(65534), Some(65534)).unwrap();
    }
    let unprivileged = |args: &[&str]| {
        let mut command = std::process::Command::new("setpriv");
        command
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "env",
                "-i",
                "PATH=/usr/bin:/bin",
            ])
            .arg(format!("HOME={}", dir.path().display()))
            .arg(&judge_copy)
            .arg("--root")
            .arg(&root)
            .args(args);
        bounded(command).output().unwrap()
    };
    let doctor = unprivileged(&["doctor"]);
    let text = String::from_utf8_lossy(&doctor.stdout);
    assert!(doctor.status.success(), "{text}");
    assert!(
        text.contains("isolation: own session (no terminal), rlimits"),
        "{text}"
    );
    assert!(
        text.contains("not applied:") && text.contains("cgroups"),
        "an unprivileged judge has no cgroup and says so: {text}"
    );
    let graded = unprivileged(&["test", "sum-strict", submission.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&graded.stdout);
    assert!(
        graded.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&graded.stderr)
    );
    assert!(text.contains(": AC"), "{text}");
}
