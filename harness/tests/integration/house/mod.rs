//! The house's rules, read from the library's own source: the layer table
//! of docs/architecture.md (a module uses only the rows above its own, so
//! no two modules use each other) and the sizes of files and functions.
//!
//! Each rule has a list of the places known to break it, each to be
//! mended. The list can only shrink: a test fails on a new place as on a
//! listed one that no longer breaks the rule.

mod layers;
mod sizes;
mod source;

use std::path::Path;

/// Uses against the layer table still to mend: (file under harness/src,
/// the module it uses).
const KNOWN_LAYER_VIOLATIONS: &[layers::Known<'_>] = &[];

/// Files over `sizes::MAX_FILE` lines still to split (under harness/src).
const KNOWN_LONG_FILES: &[&str] = &[];

/// Functions over `sizes::MAX_FUNCTION` lines still to split: (file, name).
const KNOWN_LONG_FUNCTIONS: &[(&str, &str)] = &[];

fn architecture() -> String {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    std::fs::read_to_string(&doc).unwrap()
}

#[test]
fn every_module_uses_only_the_layers_below_its_own() {
    let library = source::library();
    let rows = layers::layer_table(&architecture());
    assert!(
        rows.len() > 5,
        "no layer table in docs/architecture.md: {rows:?}"
    );
    let problems = layers::problems(&library, &rows, KNOWN_LAYER_VIOLATIONS);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn files_and_functions_stay_short() {
    let library = source::library();
    let problems = sizes::problems(&library.files, KNOWN_LONG_FILES, KNOWN_LONG_FUNCTIONS);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A crate of its own, written into a temporary folder: (path, text).
fn crate_of(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

const TABLE: &str = "\
## Layers

| layer | modules |
|---|---|
| 1 | `low.rs` |
| 2 | `mid/`, `side.rs` |
| 3 | `high.rs` |
";

#[test]
fn an_upward_use_a_use_within_a_row_and_a_circle_are_named_with_file_and_line() {
    let dir = crate_of(&[
        (
            "lib.rs",
            "mod low;\nmod mid;\nmod side;\nmod high;\npub use high::Top;\n",
        ),
        // Comments and strings name nothing: crate::high
        (
            "low.rs",
            "// crate::high\nconst S: &str = \"crate::high\";\n\nuse crate::Top;\n",
        ),
        ("mid/mod.rs", "mod deep;\n"),
        (
            "mid/deep.rs",
            "fn f() {\n    super::super::low::g();\n}\nmod inner {\n    use super::super::super::{side, high::X};\n}\n",
        ),
        ("side.rs", "use crate::low;\n"),
        ("high.rs", "pub struct Top;\nuse crate::{low, mid::x};\n"),
    ]);
    let library = source::library_at(dir.path());
    let problems = layers::problems(&library, &layers::layer_table(TABLE), &[]);
    assert_eq!(
        problems,
        [
            "harness/src/low.rs:4: `low` (layer 1) uses `high` (layer 3), which is not below it",
            "harness/src/mid/deep.rs:5: `mid` (layer 2) uses `high` (layer 3), which is not below it",
            "harness/src/mid/deep.rs:5: `mid` (layer 2) uses `side` (layer 2), which is not below it",
            "circle low → high → low (at low.rs:4, high.rs:2)",
            "circle mid → high → mid (at mid/deep.rs:5, high.rs:2)",
            "circle mid → side → low → high → mid (at mid/deep.rs:5, side.rs:1, low.rs:4, high.rs:2)",
        ]
    );
}

#[test]
fn a_known_violation_passes_and_one_mended_must_leave_the_list() {
    let dir = crate_of(&[
        ("lib.rs", "mod low;\nmod mid;\nmod side;\nmod high;\n"),
        ("low.rs", "use crate::mid;\n"),
        ("mid.rs", ""),
        ("side.rs", ""),
        ("high.rs", ""),
    ]);
    let library = source::library_at(dir.path());
    let table = layers::layer_table(TABLE);
    let known = [("low.rs", "mid"), ("side.rs", "high")];
    assert_eq!(
        layers::problems(&library, &table, &known),
        [
            "harness/src/side.rs no longer uses `high` against the table: \
          take it off the list of known violations"
        ]
    );
}

#[test]
fn a_module_missing_from_the_table_is_named() {
    let dir = crate_of(&[
        ("lib.rs", "mod low;\nmod other;\n"),
        ("low.rs", ""),
        ("other.rs", ""),
    ]);
    let library = source::library_at(dir.path());
    let problems = layers::problems(&library, &layers::layer_table(TABLE), &[]);
    assert!(
        problems.contains(&"module `other` has no row in the layer table".to_owned()),
        "{problems:?}"
    );
    assert!(
        problems.contains(&"`high` in the layer table is no module of lib.rs".to_owned()),
        "{problems:?}"
    );
}

#[test]
fn a_long_function_and_a_long_file_are_named_and_a_shortened_one_must_leave_the_list() {
    let body = "    let _ = 1;\n".repeat(99);
    let long = format!("fn short() {{}}\n\nfn long() {{\n{body}}}\n");
    let dir = crate_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", &long),
        ("b.rs", &"\n".repeat(sizes::MAX_FILE + 1)),
    ]);
    let library = source::library_at(dir.path());
    assert_eq!(
        sizes::problems(&library.files, &[], &[("a.rs", "short")]),
        [
            "harness/src/a.rs:3: fn long has 101 lines, more than 100",
            "harness/src/b.rs: 601 lines, more than 600",
            "harness/src/a.rs: fn short is no longer over 100 lines (or is gone): take it off the list",
        ]
    );
}
