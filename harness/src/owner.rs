//! Whom a task judges. Every task of a plan carries its owner, and so does
//! every report of it, through the runner's events and into the store: a
//! verb finds a result's solution, student or file by what it is, never by
//! its place in a list kept beside the plan or by a name shown on screen.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// One of a problem's own solutions (`problem.toml`'s `[[solutions]]`
    /// or a package's submission): its index in `ProblemSpec::solutions`.
    Solution { problem: String, index: usize },
    /// A student's file for a problem of a class.
    Student {
        student: String,
        problem: String,
        file: PathBuf,
    },
    /// A file named on the command line (`judge test`, `judge grade ID FILE...`).
    File { path: PathBuf },
    /// A submission to the server, by its entry's id.
    Submission { id: i64 },
}

impl Owner {
    /// The index of a problem's own solution in `problem`'s solutions.
    pub fn solution_of(&self, problem: &str) -> Option<usize> {
        match self {
            Owner::Solution { problem: of, index } if of == problem => Some(*index),
            _ => None,
        }
    }

    /// The student a class's file belongs to.
    pub fn student(&self) -> Option<&str> {
        match self {
            Owner::Student { student, .. } => Some(student),
            _ => None,
        }
    }

    /// The file judged, when the owner is one (a student's or a named one).
    pub fn file(&self) -> Option<&Path> {
        match self {
            Owner::Student { file, .. } => Some(file),
            Owner::File { path } => Some(path),
            Owner::Solution { .. } | Owner::Submission { .. } => None,
        }
    }
}
