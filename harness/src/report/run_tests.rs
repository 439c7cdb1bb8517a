//! The reporters on a run the runner judged with a scripted sandbox: no
//! process is started.

use crate::runner::execute;
use crate::runner::scripted::{Scripted, doubles_except, plan, problem};

#[test]
fn reporters_render_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let problem = problem(dir.path(), 3);
    let sandbox = Scripted::new(doubles_except("2"));
    let scratch = tempfile::tempdir().unwrap();
    let reports = execute(&plan(&problem, false, 1), &sandbox, scratch.path(), |_| {});

    let mut json = Vec::new();
    let sections = super::sections::Sections::default();
    super::json::write(&mut json, "test", "none", &reports, &sections, false).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let tests = json["submissions"][0]["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3);
    assert_eq!(tests[1]["verdict"], "WA");
    assert_eq!(tests[1]["first_difference"]["expected"], "`4`");
    assert_eq!(tests[1]["first_difference"]["actual"], "`5`");

    let mut junit = Vec::new();
    super::junit::write(&mut junit, "judge test", &reports).unwrap();
    let junit = String::from_utf8(junit).unwrap();
    assert!(
        junit.contains(r#"tests="3""#) && junit.contains(r#"failures="1""#),
        "{junit}"
    );

    let mut human = Vec::new();
    let styles = super::Styles { colour: false };
    super::human::task_summary(&mut human, &styles, &reports[0]).unwrap();
    let human = String::from_utf8(human).unwrap();
    assert!(human.contains("WA on secret/2"), "{human}");
}
