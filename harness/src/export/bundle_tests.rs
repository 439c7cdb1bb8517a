//! The bundler on a small made-up workspace: a binary with a `#[path]`
//! module, a library whose generator half needs `rand`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use super::bundle::{bundle, check_compiles};
use super::workspace::{LibCrate, ProgramSources};
use crate::test_support::bounded;

const LIB: &str = r#"//! A package library: rules for the validator, draws for the generator.
use rand::Rng;

pub mod rules;
pub use rules::Limit;

/// The largest value.
pub const LIMIT: Limit = Limit(10);

pub fn check(x: u32) -> Result<(), String> {
    rules::within(x, LIMIT)
}

// Only the generator draws.
pub fn draw(rng: &mut impl Rng) -> u32 {
    rng.random_range(0..LIMIT.0)
}

#[cfg(test)]
mod tests {
    use super::*;
}
"#;

const RULES: &str = r#"use crate::LIMIT;

#[derive(Clone, Copy)]
pub struct Limit(pub u32);

impl Limit {
    pub fn allows(self, x: u32) -> bool {
        x <= self.0
    }

    pub fn never_called(self) {}
}

pub fn within(x: u32, limit: Limit) -> Result<(), String> {
    if limit.allows(x) {
        Ok(())
    } else {
        Err(format!("{x} is over {}", LIMIT.0))
    }
}

pub fn unused() {}
"#;

const HELPER: &str = "pub fn twice(x: u32) -> u32 {\n    2 * x\n}\n";

fn workspace(dir: &Path, main: &str) -> ProgramSources {
    let write = |path: &str, text: &str| {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("mylib/src/lib.rs", LIB);
    write("mylib/src/rules.rs", RULES);
    write("tool/shared/helper.rs", HELPER);
    write("tool/src/main.rs", main);
    ProgramSources {
        bin: "tool".into(),
        main: dir.join("tool/src/main.rs"),
        libs: vec![LibCrate {
            name: "mylib".into(),
            package: "my-lib".into(),
            root: dir.join("mylib/src/lib.rs"),
        }],
        foreign: BTreeSet::from(["rand".to_string()]),
    }
}

#[test]
fn keeps_what_the_program_uses_and_runs() {
    let dir = tempfile::tempdir().unwrap();
    let sources = workspace(
        dir.path(),
        "#[path = \"../shared/helper.rs\"]\nmod helper;\n\n\
         fn main() {\n    println!(\"{:?} {:?} {}\", mylib::check(3), mylib::check(11), helper::twice(2));\n}\n",
    );
    let bundled = bundle(&sources, dir.path()).unwrap();
    let text = &bundled.text;
    assert!(
        text.contains("(tool/src/main.rs)"),
        "paths relative to the root:\n{text}"
    );
    assert!(text.contains("mod helper {\npub fn twice"), "{text}");
    assert!(text.contains("crate::mylib::check(3)"), "{text}");
    assert!(
        text.contains("mod mylib {") && text.contains("pub mod rules {"),
        "{text}"
    );
    assert!(text.contains("use crate::mylib::LIMIT;"), "{text}");
    for gone in [
        "rand",
        "fn draw",
        "fn unused",
        "never_called",
        "mod tests",
        "Only the generator",
    ] {
        assert!(!text.contains(gone), "`{gone}` should be gone:\n{text}");
    }
    assert!(bundled.kept.items < bundled.kept.of);

    let scratch = tempfile::tempdir().unwrap();
    if !check_compiles(text, "tool", scratch.path()).unwrap() {
        crate::test_support::skip("rustc", "the bundle is not compiled");
        return;
    }
    let source = scratch.path().join("tool.rs");
    let binary = scratch.path().join("tool");
    let mut rustc = Command::new("rustc");
    rustc
        .args(["--edition", "2021", "-o"])
        .arg(&binary)
        .arg(&source);
    let built = bounded(rustc).output().unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = bounded(Command::new(&binary)).output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "Ok(()) Err(\"11 is over 10\") 4\n"
    );
}

#[test]
fn a_needed_foreign_crate_is_an_error_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let sources = workspace(dir.path(), "fn main() {\n    let _ = mylib::draw;\n}\n");
    let error = bundle(&sources, dir.path())
        .err()
        .expect("rand is needed")
        .to_string();
    assert!(
        error.contains("mylib/src/lib.rs:2: `use rand::Rng` is needed")
            && error.contains("crate `rand` is not part of the workspace"),
        "{error}"
    );
}

#[test]
fn compile_errors_come_back_with_rustc_s_message() {
    let scratch = tempfile::tempdir().unwrap();
    match check_compiles(
        "fn main() { let x: u32 = \"no\"; }\n",
        "bad",
        scratch.path(),
    ) {
        Ok(false) => crate::test_support::skip("rustc", ""),
        Ok(true) => panic!("a type error compiled"),
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.contains("rustc --edition 2021") && message.contains("mismatched types"),
                "{message}"
            );
        }
    }
}
