//! A package's hash: what a job names its problem by, so that a worker
//! judges only with exactly the package the job was queued with (the same
//! statement, tests, checker and limits file), never a verdict from
//! another test set.

use std::io;
use std::path::Path;

/// Changes when what is hashed (or how) changes.
const HASH_VERSION: &[u8] = b"judge-package-1\0";

/// The hash of every file under `dir` (its relative path, kind and
/// bytes, in name order); hidden files and folders (`.git`, editors'
/// files) are left out.
pub(crate) fn package_hash(dir: &Path) -> io::Result<String> {
    let mut hasher = blake3::Hasher::new();
    hasher.update(HASH_VERSION);
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walk {
        let entry = entry.map_err(io::Error::other)?;
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let name: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = name.join("/");
        let kind = entry.file_type();
        if kind.is_dir() {
            hasher.update(b"d\0");
            hasher.update(name.as_bytes());
            hasher.update(b"\0");
        } else if kind.is_symlink() {
            let target = std::fs::read_link(entry.path())?;
            hasher.update(b"l\0");
            hasher.update(name.as_bytes());
            hasher.update(b"\0");
            hasher.update(target.to_string_lossy().as_bytes());
            hasher.update(b"\0");
        } else {
            let bytes = std::fs::read(entry.path())?;
            hasher.update(b"f\0");
            hasher.update(name.as_bytes());
            hasher.update(b"\0");
            hasher.update(&(bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
    Ok(hasher.finalize().to_hex().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_hash_changes_with_any_file_but_not_with_hidden_ones() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("tests")).unwrap();
        std::fs::write(dir.path().join("tests/1.in"), "1 2\n").unwrap();
        std::fs::write(dir.path().join("problem.toml"), "title = 'x'\n").unwrap();
        let first = package_hash(dir.path()).unwrap();
        std::fs::write(dir.path().join(".swp"), "editor").unwrap();
        assert_eq!(package_hash(dir.path()).unwrap(), first);
        std::fs::write(dir.path().join("tests/1.in"), "1 3\n").unwrap();
        let changed = package_hash(dir.path()).unwrap();
        assert_ne!(changed, first);
        std::fs::rename(dir.path().join("tests/1.in"), dir.path().join("tests/2.in")).unwrap();
        assert_ne!(package_hash(dir.path()).unwrap(), changed);
    }
}
