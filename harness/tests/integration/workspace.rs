//! The workspace's own bookkeeping. Targets without tests are kept out of
//! `cargo test` (`test = false`, `doctest = false`): a test binary with
//! nothing in it still costs a compile and a link, and there were over a
//! hundred. This guard keeps that from hiding a test written later.

use std::path::{Path, PathBuf};

use crate::support::workspace_root;

fn has_tests(file: &Path) -> bool {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.contains("#[test]") || text.contains("#[cfg(test)]")
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect()
}

/// The crates of the workspace (the judge, its kit, the solutions and the
/// packages' programs): each one's folder and manifest.
fn crates() -> Vec<(PathBuf, toml::Table)> {
    let root = workspace_root();
    let mut found = vec![
        root.join("harness/Cargo.toml"),
        root.join("harness/kit/Cargo.toml"),
    ];
    for group in ["solutions", "problems"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap().flatten() {
            let manifest = entry.path().join("Cargo.toml");
            if manifest.is_file() {
                found.push(manifest);
            }
        }
    }
    found
        .into_iter()
        .map(|manifest| {
            let table = std::fs::read_to_string(&manifest).unwrap().parse().unwrap();
            (manifest.parent().unwrap().to_path_buf(), table)
        })
        .collect()
}

#[test]
fn no_test_is_written_where_cargo_test_does_not_look() {
    let mut hidden = Vec::new();
    for (crate_dir, table) in crates() {
        let untested =
            |section: &toml::Value| section.get("test") == Some(&toml::Value::Boolean(false));
        let bins = table
            .get("bin")
            .and_then(toml::Value::as_array)
            .cloned()
            .unwrap_or_default();
        let bin_files: Vec<PathBuf> = bins
            .iter()
            .filter_map(|bin| bin.get("path")?.as_str())
            .map(|path| crate_dir.join(path))
            .collect();
        for bin in bins.iter().filter(|bin| untested(bin)) {
            let file = crate_dir.join(bin["path"].as_str().expect("a [[bin]] path"));
            if has_tests(&file) {
                hidden.push(file);
            }
        }
        if table.get("lib").is_some_and(untested) {
            hidden.extend(
                rust_files(&crate_dir.join("src"))
                    .into_iter()
                    .filter(|file| !bin_files.contains(file) && has_tests(file)),
            );
        }
    }
    assert!(
        hidden.is_empty(),
        "tests in targets with `test = false` never run; remove that line: {hidden:#?}"
    );
}

#[test]
fn every_crate_says_whether_its_targets_have_tests() {
    // A new crate or binary gets a test target unless it says otherwise;
    // this lists the ones that would compile an empty test binary.
    let mut empty = Vec::new();
    for (crate_dir, table) in crates() {
        for bin in table
            .get("bin")
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            let file = crate_dir.join(bin["path"].as_str().expect("a [[bin]] path"));
            if bin.get("test").is_none() && !has_tests(&file) {
                empty.push(file);
            }
        }
        if crate_dir.join("src/lib.rs").is_file()
            && table
                .get("lib")
                .and_then(|lib| lib.get("doctest"))
                .is_none()
        {
            empty.push(crate_dir.join("src/lib.rs"));
        }
    }
    assert!(
        empty.is_empty(),
        "add `test = false` to these [[bin]] (and `doctest = false` to [lib]) or give them a test: {empty:#?}"
    );
}
