//! What a run may use: the limits the box holds one program to, and those
//! of the judge's own runs (a build, a package's tool). A problem's limits
//! are one of these, read from its package.

use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time: decides TLE.
    pub time: Duration,
    /// Wall-clock backstop for programs that sleep or block.
    pub wall: Duration,
    /// Peak memory in bytes: decides MLE.
    pub memory: u64,
    /// stdout + stderr in bytes: decides OLE.
    pub output: u64,
}

impl Limits {
    /// The wall backstop when none is given: max(2×time, time+1s).
    pub fn default_wall(time: Duration) -> Duration {
        (time * 2).max(time + Duration::from_secs(1))
    }
}

#[cfg(test)]
impl Limits {
    /// The unit tests' limits: 1 s of CPU, a 2 s backstop, 1 MiB of
    /// output, and `memory` bytes.
    pub(crate) fn for_tests(memory: u64) -> Limits {
        Limits {
            time: Duration::from_secs(1),
            wall: Duration::from_secs(2),
            memory,
            output: 1 << 20,
        }
    }
}

/// Limits for one compilation: generous, but a template explosion or
/// `#include "/dev/random"` ends as CE instead of a hung judge.
pub const COMPILE_LIMITS: Limits = Limits {
    time: Duration::from_secs(30),
    wall: Duration::from_secs(60),
    memory: 2 << 30,
    output: 256 << 20,
};

/// Limits for the package's own programs (checkers, validators, generators, references).
pub(crate) const TOOL_LIMITS: Limits = Limits {
    time: Duration::from_secs(30),
    wall: Duration::from_secs(60),
    memory: 2 << 30,
    output: 256 << 20,
};
