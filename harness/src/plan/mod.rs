//! The plan stage, below the verbs: problems, the programs to judge on
//! them and what each is expected to get → a `RunPlan` whose every task
//! carries its typed [`Owner`] (a problem's solution, a student's file, a
//! file named on the command line, a server's submission). The owner rides
//! through the runner's events and reports into the store, so no verb keeps
//! a list matched to the plan by position or finds a result by its name.
//!
//! - `Planner` (here): each program built with its problem's judging
//!   programs (`judges.rs`) into a task, and the tasks into a plan.
//! - `grader.rs`: a file handed in, built with what its package adds to
//!   every solution (an IOI-style task's grader, Kattis `include/` files).
//! - `settle.rs`: a Kattis package's time limit, settled from its own
//!   submissions before its plan is made, and kept in the result store.
//! - `expect.rs`: what a problem's own solutions are expected to get, and
//!   which of them bound its time limit.

mod expect;
mod grader;
mod judges;
mod languages;
mod settle;
mod static_validation;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::compile::Builds;
use crate::owner::Owner;
use crate::runner::{OutputVisualization, RunPlan, Task};
use crate::sandbox::Boxes;
use crate::spec::{ProblemSpec, ProgramRef};

pub(crate) use expect::{expectation_holds, expectation_of, is_upper_bound, needs_every_test};
pub(crate) use judges::Judges;
pub(crate) use settle::{
    TimeSettlement, check_margin, remember, settle_for_judging, settle_key, settle_time_limit,
    with_time,
};

/// What planning takes from a verb's context: the builder, and for a
/// settling step that runs programs, the boxes to run them in (and the
/// isolation they apply, which their timings depend on), a scratch folder
/// and how many tests may run at once.
pub(crate) struct Means<'c> {
    pub(crate) builder: &'c mut dyn Builds,
    pub(crate) sandbox: &'c dyn Boxes,
    pub(crate) isolation: String,
    pub(crate) scratch: &'c Path,
    pub(crate) jobs: usize,
    /// Where output visualizers' images go, for the runs the plan stage
    /// makes itself (settling a time limit); `None`: not drawn.
    pub(crate) visualizations: Option<PathBuf>,
}

/// Builds the tasks of a plan, each with its owner. A problem's judging
/// programs are built once, whatever the number of its tasks.
pub(crate) struct Planner<'b, 'p> {
    builder: &'b mut dyn Builds,
    /// By problem folder (a copy of a problem under other limits judges
    /// with the same programs).
    judges: HashMap<PathBuf, Judges>,
    tasks: Vec<Task<'p>>,
    /// How many tests may run at once.
    jobs: usize,
    /// Where output visualizers' images go (`<here>/<problem>/<submission>/`);
    /// `None`: packages' output visualizers are not run.
    visualizations: Option<PathBuf>,
}

impl<'b, 'p> Planner<'b, 'p> {
    /// A planner building with `builder`, its plan running `jobs` tests at once.
    pub(crate) fn new(builder: &'b mut dyn Builds, jobs: usize) -> Planner<'b, 'p> {
        Planner {
            builder,
            judges: HashMap::new(),
            tasks: Vec::new(),
            jobs,
            visualizations: None,
        }
    }

    /// Runs packages' output visualizers, keeping their images under
    /// `folder` (beside the result store).
    pub(crate) fn with_visualizations(mut self, folder: PathBuf) -> Self {
        self.visualizations = Some(folder);
        self
    }

    /// The builder, to ask what a program needs (a missing compiler).
    pub(crate) fn builder(&mut self) -> &mut dyn Builds {
        self.builder
    }

    /// A file named on the command line, shown as `shown`.
    pub(crate) fn file(
        &mut self,
        problem: &'p ProblemSpec,
        path: &Path,
        shown: String,
    ) -> &mut Task<'p> {
        let path = absolute(path);
        let program = problem.submitted(path.clone());
        self.add(problem, &program, Owner::File { path }, shown)
    }

    /// A student's file for `problem`, shown as `shown`.
    pub(crate) fn student(
        &mut self,
        problem: &'p ProblemSpec,
        student: &str,
        file: &Path,
        shown: String,
    ) -> &mut Task<'p> {
        let file = absolute(file);
        let program = problem.submitted(file.clone());
        let owner = Owner::Student {
            student: student.to_string(),
            problem: problem.id.clone(),
            file,
        };
        self.add(problem, &program, owner, shown)
    }

    /// The problem's own solution `index`, judged under `problem`'s limits
    /// (a copy of the loaded problem with other limits judges it so).
    pub(crate) fn solution(&mut self, problem: &'p ProblemSpec, index: usize) -> &mut Task<'p> {
        let program = &problem.solutions[index].program;
        let owner = Owner::Solution {
            problem: problem.id.clone(),
            index,
        };
        self.add(problem, program, owner, program.display_name())
    }

    fn add(
        &mut self,
        problem: &'p ProblemSpec,
        program: &ProgramRef,
        owner: Owner,
        shown: String,
    ) -> &mut Task<'p> {
        let builder = &mut *self.builder;
        let judges = self
            .judges
            .entry(problem.dir.clone())
            .or_insert_with(|| Judges::build(builder, problem));
        let mut task = judges.task(problem, program, |p| builder.build(p), owner, shown.clone());
        if let (Some(folder), Some(visualizer)) = (&self.visualizations, judges.output_visualizer())
        {
            task.output_visualization = Some(std::sync::Arc::new(OutputVisualization {
                visualizer: visualizer.clone(),
                into: folder.join(&problem.id).join(folder_name(&shown)),
            }));
        }
        self.tasks.push(task);
        self.tasks.last_mut().expect("just pushed")
    }

    /// The plan of every task added, in the order added.
    pub(crate) fn plan(self, stop_at_first_failure: bool) -> RunPlan<'p> {
        RunPlan {
            tasks: self.tasks,
            stop_at_first_failure,
            jobs: self.jobs,
        }
    }
}

/// A path as given on the command line, made absolute (reports show it as given).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A submission's name as one folder name: only letters, digits, `.`,
/// `-` and `_` (a name is the submitter's), never hidden nor empty.
fn folder_name(shown: &str) -> String {
    let name: String = shown
        .chars()
        .map(|c| match c {
            '/' | '\\' => '-',
            c if c.is_ascii_alphanumeric() || "._-".contains(c) => c,
            _ => '_',
        })
        .collect();
    match name.trim_start_matches('.') {
        "" => "submission".to_string(),
        trimmed => trimmed.to_string(),
    }
}
