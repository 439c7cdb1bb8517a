//! Running submissions on tests: one test judged (`judge.rs`), many tests
//! scheduled on a bounded worker pool (`imp.rs`), results sent as events
//! (`events.rs`). Design notes and the "adding a verdict" checklist are in
//! `DESIGN.md` beside this file.

mod events;
mod imp;
mod judge;

pub use events::{Event, RunTiming, TaskReport, TestReport, Timing};
pub use imp::{RunPlan, Task, execute};
pub use judge::judge_test;
