//! `judge export`: our packages as other judges' packages. Kattis (legacy
//! format) is the one target; its programs must be single files that a bare
//! `rustc` builds, which `bundle` makes from the workspace's sources.

mod bundle;
mod error;
mod imports;
mod kattis;
mod kattis_programs;
mod scan;
mod shake;
mod sources;
mod workspace;

pub(crate) use kattis::{plan, write};

#[cfg(test)]
mod bundle_tests;
