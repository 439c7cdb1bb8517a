//! Which format a package folder is in, and reading it.

use std::path::Path;

use super::error::FormatResult;
use super::package::Package;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PackageKind {
    /// Our own `problem.toml`.
    Native,
    /// `problem.yaml`.
    Kattis,
    /// `problem.xml`.
    Polygon,
    /// `task.yaml`: CMS's Italian layout.
    Cms,
    /// `problem.json`: TPS.
    Tps,
}

/// The format of the package in `dir`, or `None` if it is no package.
/// `problem.toml` wins when several manifests are present, so that a
/// package of ours may carry an exported `problem.yaml` beside it.
pub(crate) fn package_kind(dir: &Path) -> Option<PackageKind> {
    if dir.join("problem.toml").is_file() {
        Some(PackageKind::Native)
    } else if dir.join("problem.yaml").is_file() {
        Some(PackageKind::Kattis)
    } else if dir.join("problem.xml").is_file() {
        Some(PackageKind::Polygon)
    } else if dir.join("task.yaml").is_file() {
        Some(PackageKind::Cms)
    } else if dir.join("problem.json").is_file() {
        Some(PackageKind::Tps)
    } else {
        None
    }
}

/// Reads a Kattis, Polygon, CMS or TPS package; `None` for our own format or no
/// package at all.
pub(crate) fn read_package(dir: &Path) -> Option<FormatResult<Package>> {
    match package_kind(dir)? {
        PackageKind::Native => None,
        PackageKind::Kattis => Some(super::kattis::read_kattis(dir)),
        PackageKind::Polygon => Some(super::polygon::read_polygon(dir)),
        PackageKind::Cms => Some(super::cms::read_cms(dir)),
        PackageKind::Tps => Some(super::tps::read_tps(dir)),
    }
}
