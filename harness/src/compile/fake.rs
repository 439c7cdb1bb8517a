//! A builder for tests of what drives building (the plan stage, the
//! verbs): every program "builds" at once, no compiler starts. A built
//! file is the source itself (so the result store hashes its content as
//! a build's), anything else is named by its display name; a fake box
//! tells the programs apart by their file name (`twice.py`).

use std::path::PathBuf;

use super::BuildError;
use super::{Builds, Built, CompileError, Executable};
use crate::lang::Languages;
use crate::sandbox::Runs;
use crate::spec::ProgramRef;

pub(crate) struct FakeBuilder {
    pub(crate) languages: Languages,
    /// The box trusted programs run in (see `Builds::worker`).
    worker: Box<dyn Runs>,
    /// What it was asked to build, by display name, in order.
    pub(crate) built: Vec<String>,
    /// Programs (by display name) that get a compile error.
    pub(crate) compile_errors: Vec<String>,
}

impl FakeBuilder {
    /// A builder whose trusted programs run in `worker`.
    pub(crate) fn new(worker: impl Runs + 'static) -> FakeBuilder {
        FakeBuilder {
            languages: Languages::load(None).expect("the built-in language table"),
            worker: Box::new(worker),
            built: Vec::new(),
            compile_errors: Vec::new(),
        }
    }
}

impl Builds for FakeBuilder {
    fn build(&mut self, program: &ProgramRef) -> Built {
        let name = program.display_name();
        self.built.push(name.clone());
        if self.compile_errors.contains(&name) {
            return Built::CompileError(CompileError::Compiler {
                output: format!("{name}: the fake compiler says no"),
            });
        }
        let program = match program {
            ProgramRef::File(path) | ProgramRef::Submitted(path) => path.clone(),
            _ => PathBuf::from(name),
        };
        Built::Ready(Executable {
            program,
            args: Vec::new(),
            read_only: Vec::new(),
            note: None,
        })
    }

    fn build_workspace(&mut self, _programs: &[&ProgramRef]) -> Result<(), BuildError> {
        Ok(())
    }

    fn unavailable_tool(&mut self, _program: &ProgramRef) -> Option<String> {
        None
    }

    fn languages(&self) -> &Languages {
        &self.languages
    }

    fn worker(&self) -> &dyn Runs {
        &*self.worker
    }
}
