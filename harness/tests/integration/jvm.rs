//! JVM programs run from the class with a main method, whatever their file
//! is called, as DOMjudge runs them (fixture `addtwo`).

use crate::ecosystem::root_with;
use crate::support::*;

#[test]
fn a_java_file_whose_name_is_no_class_runs_the_class_with_main() {
    if !have(&["javac", "python3"]) {
        return;
    }
    let root = root_with("addtwo");
    let (code, stdout) = judge_output(root.path(), ["verify", "addtwo"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("3 solutions: 3 as expected, 0 unexpected"),
        "{stdout}"
    );
    // And the learner is told which class ran.
    let file = root
        .path()
        .join("problems/addtwo/submissions/accepted/add-two-correct.java");
    let output = judge_at(root.path())
        .args(["test", "addtwo"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("ran class Main: the class with public static void main"),
        "{stdout}"
    );
}

#[test]
fn a_java_file_without_a_main_method_is_a_compile_error() {
    if !have(&["javac"]) {
        return;
    }
    let root = root_with("addtwo");
    let file = root.path().join("no-main.java");
    std::fs::write(&file, "class Helper { static int one() { return 1; } }\n").unwrap();
    let (code, stdout) = judge_output(
        root.path(),
        ["test".as_ref(), "addtwo".as_ref(), file.as_os_str()],
    );
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("CE") && stdout.contains("no class has a method public static void main"),
        "{stdout}"
    );
}

/// kotlinc names a file's class after the file (`my-add.kt`: `My_addKt`)
/// and writes it into the jar's manifest, which the jar runs from.
#[test]
fn a_kotlin_file_runs_its_files_class() {
    if !have(&["kotlinc"]) {
        return;
    }
    let root = root_with("addtwo");
    let file = root.path().join("my-add.kt");
    std::fs::write(
        &file,
        "fun main() {\n    val (a, b) = readLine()!!.trim().split(\" \").map { it.toLong() }\n    println(a + b)\n}\n",
    )
    .unwrap();
    let (code, stdout) = judge_output(
        root.path(),
        ["test".as_ref(), "addtwo".as_ref(), file.as_os_str()],
    );
    assert_eq!(code, Some(0), "{stdout}");
}
