//! A problem's judging programs, built once, and the task of one program
//! judged by them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::compile::BuildError;
use crate::compile::{Builds, Built, CompileError, Executable};
use crate::owner::Owner;
use crate::runner::Task;
use crate::spec::{ProblemSpec, ProgramRef};

/// A problem's judging programs, built: its checker or interactor, and a
/// testlib interactor's checker. Built once, they judge any number of
/// submissions (`judge serve` keeps them for the session).
#[derive(Debug, Clone)]
pub(crate) struct Judges {
    checker: Option<Executable>,
    output_checker: Option<Executable>,
    /// A Kattis package's static validator, for its static validation
    /// test cases.
    static_validator: Option<Executable>,
    /// A Kattis package's output visualizer (one that does not build only
    /// draws nothing: never a judge error).
    output_visualizer: Option<Executable>,
    /// A judging program that did not build: every task is a judge error.
    broken: Option<Arc<BuildError>>,
}

impl Judges {
    pub(crate) fn build(builder: &mut dyn Builds, problem: &ProblemSpec) -> Judges {
        let judging_role = if problem.kind.is_interactive() {
            "interactor"
        } else {
            "checker"
        };
        let judges: [(&str, Option<Built>); 3] = [
            (
                judging_role,
                problem
                    .judging_program()
                    .map(|tool| builder.build(&tool.program)),
            ),
            (
                "checker",
                problem
                    .output_checker()
                    .map(|tool| builder.build(&tool.program)),
            ),
            (
                "static validator",
                super::static_validation::validator(problem).map(|program| builder.build(&program)),
            ),
        ];
        // A judging program that did not build is the judge's failure,
        // whatever the submission's build says.
        let broken = judges.iter().find_map(|(role, built)| {
            let source = built.as_ref()?.failure()?;
            Some(Arc::new(BuildError::JudgingProgram { role, source }))
        });
        let [checker, output_checker, static_validator] = judges.map(|(_, built)| match built {
            Some(Built::Ready(exe)) => Some(exe),
            _ => None,
        });
        let output_visualizer = problem
            .package
            .as_deref()
            .and_then(|package| {
                let program = package.output_visualizer.as_ref()?;
                Some(crate::spec::package_program(package, program))
            })
            .and_then(|program| match builder.build(&program) {
                Built::Ready(exe) => Some(exe),
                _ => None,
            });
        Judges {
            checker,
            output_checker,
            static_validator,
            output_visualizer,
            broken,
        }
    }

    /// The interactor (or checker) as built; `None` if it did not build.
    pub(crate) fn judging_program(&self) -> Option<&Executable> {
        self.checker.as_ref().filter(|_| self.broken.is_none())
    }

    /// The package's output visualizer as built, if it has one that built.
    pub(crate) fn output_visualizer(&self) -> Option<&Executable> {
        self.output_visualizer.as_ref()
    }

    /// A testlib interactor's output checker as built.
    pub(crate) fn output_checker(&self) -> Option<&Executable> {
        self.output_checker.as_ref()
    }

    /// The task of one submission owned by `owner`, `program` built by `build` (not called
    /// when a judging program is broken or the source is over the
    /// package's code limit).
    pub(crate) fn task<'a>(
        &self,
        problem: &'a ProblemSpec,
        program: &ProgramRef,
        build: impl FnOnce(&ProgramRef) -> Built,
        owner: Owner,
        name: String,
    ) -> Task<'a> {
        let static_validation = self
            .static_validator
            .as_ref()
            .filter(|_| !problem.static_tests.is_empty())
            .and_then(|exe| super::static_validation::submission(exe, program))
            .map(Arc::new);
        let program = match &self.broken {
            Some(error) => Built::JudgeError(error.clone()),
            None => over_code_limit(problem, program)
                // The rule is for submissions from outside: the package's own
                // may be in any language (the specification's own maximal
                // example has accepted ones outside its list).
                .or_else(|| match owner {
                    Owner::Solution { .. } => None,
                    _ => super::languages::not_allowed(problem, program),
                })
                .unwrap_or_else(|| super::grader::build_with_grader(problem, program, build)),
        };
        Task {
            problem,
            owner,
            submission: name,
            program,
            checker: self.checker.clone(),
            output_checker: self.output_checker.clone(),
            // Static validation first: it needs no run of the submission.
            tests: problem.static_tests.iter().chain(&problem.tests).collect(),
            every_test: false,
            static_validation,
            output_visualization: None,
        }
    }
}

/// A compile error for a submission whose files are above the package's
/// `limits.code` (Kattis: checked before `include/` files are added).
fn over_code_limit(problem: &ProblemSpec, program: &ProgramRef) -> Option<Built> {
    let limit = problem.package.as_deref()?.limits.code?;
    let files: Vec<&Path> = match program {
        ProgramRef::Submitted(path) | ProgramRef::File(path) => {
            vec![path]
        }
        ProgramRef::Sources(set) => set.sources.iter().map(PathBuf::as_path).collect(),
        ProgramRef::Bin(_) | ProgramRef::Answers { .. } => return None,
    };
    // A submitted file is not followed through a link: its own size.
    let size: u64 = files
        .iter()
        .filter_map(|f| std::fs::symlink_metadata(f).ok())
        .map(|m| m.len())
        .sum();
    (size > limit).then_some(Built::CompileError(CompileError::OverCodeLimit {
        size,
        limit,
    }))
}
