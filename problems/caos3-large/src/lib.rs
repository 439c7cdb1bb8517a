//! CAOS3 on boards up to 40x40: the board makers, format and validator rules
//! of `caos3-tools` with the larger limits.

pub use caos3_tools::*;

/// T <= 10, R, C <= 40.
pub const LIMITS: Limits = LARGE;
