//! The run folder, emptied after each run, and the judge's own folders
//! beside it.

use std::path::Path;

/// Removes everything inside `dir`, keeping `dir`.
pub(crate) fn empty_dir(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// A new folder of the judge's own beside the run folder `workdir` (never
/// inside a folder a run had), removed when dropped.
pub(crate) fn judges_folder(workdir: &Path, prefix: &str) -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(workdir.parent().unwrap_or(workdir))
}
