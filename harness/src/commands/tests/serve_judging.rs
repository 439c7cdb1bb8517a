//! A `judge serve` judging thread's work on the fake box (`judge_entry`):
//! a queued submission is claimed, built, judged test by test with its
//! status published live, and its verdict recorded; a submission taken
//! already is not judged again. Set up on the verbs' test bench, so
//! here, above the server (`serve::for_tests` lends what it needs).

use std::sync::Arc;
use std::time::SystemTime;

use super::{Bench as VerbBench, double, double_script};
use crate::commands::problem_info;
use crate::compile::fake::FakeBuilder;
use crate::serve::for_tests::{Live, Queue, Session, create_participant};
use crate::serve::judges::{Bench, judge_entry};
use crate::store::RunMeta;
use crate::store::entries;
use crate::verdict::Verdict;

#[test]
fn a_queued_submission_is_judged_live_and_recorded_once() {
    let mut verb = VerbBench::new(double, double_script);
    let path = verb.root.path().join("serve.db");
    let (specs, _) = verb.ctx.load_problems(&[]).unwrap();
    let infos: Vec<_> = specs.iter().map(problem_info).collect();
    let problems =
        crate::judging::prepare(&mut verb.ctx.means(), specs, &path, &mut |_| {}).unwrap();
    let mut store = entries::open(&path).unwrap();
    let meta = RunMeta {
        started_at: SystemTime::now(),
        command: "serve".into(),
        judge_version: "test".into(),
        isolation: "a fake box".into(),
        machine: "test".into(),
        partition: None,
        source: Some("practice".into()),
        interrupted: false,
        deadline: None,
        late_rule: None,
        policy: None,
    };
    let practice = Session::practice();
    let name = crate::store::sessions::SessionName {
        name: &practice.name,
        title: &practice.title,
    };
    let ids = crate::store::sessions::ensure_session(&mut store, &name, &meta, &infos).unwrap();
    let ada = create_participant(store.db(), "ada", "Ada", "-")
        .unwrap()
        .unwrap();
    let mut submit = |file: &str| {
        let source = b"print(2 * int(input()))\n";
        entries::insert_entry(
            store.db(),
            ids.session,
            ada,
            "double",
            "python",
            file,
            source,
        )
        .unwrap()
    };
    let (right, wrong) = (submit("mine.py"), submit("same.py"));
    let live = Arc::new(Live::default());
    let mut events = live.subscribe();
    let bench = Bench {
        problems: Arc::new(problems),
        root: verb.root.path().to_path_buf(),
        languages: verb.ctx.builder.languages().clone(),
        store: path,
        ids,
        queue: Arc::new(Queue::default()),
        live,
        scratch: verb.ctx.scratch.path().to_path_buf(),
    };
    let mut builder = FakeBuilder::new(verb.boxes.clone());
    let folder = verb.ctx.scratch.path().join("judge-0");
    let mut statuses = |entry: i64| {
        judge_entry(&bench, &mut store, &mut builder, &folder, entry).unwrap();
        let events = std::iter::from_fn(|| events.try_recv().ok());
        events
            .map(|event| {
                assert_eq!(event.entry, entry);
                event.status
            })
            .collect::<Vec<_>>()
    };

    let shown = [
        "compiling",
        "test 1 of 3",
        "test 2 of 3",
        "test 3 of 3",
        "AC",
    ];
    assert_eq!(statuses(right), shown);
    // A wrong answer stops at its first failing test (not a scored
    // problem), and no test after it is announced.
    let stopped = ["compiling", "test 1 of 3", "WA"];
    assert_eq!(statuses(wrong), stopped);
    assert_eq!(verb.boxes.runs_of("mine.py"), 3);
    assert_eq!(verb.boxes.runs_of("same.py"), 1);
    // Taken already: a second judge thread finds nothing to do.
    assert!(statuses(right).is_empty());
    assert_eq!(verb.boxes.runs(), 4);

    let mut verdict = |id| {
        entries::entry(store.db(), ids.session, id)
            .unwrap()
            .unwrap()
            .verdict
    };
    assert_eq!(verdict(right), Some(Verdict::Accepted));
    assert_eq!(verdict(wrong), Some(Verdict::WrongAnswer));
}
