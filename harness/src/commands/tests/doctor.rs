//! `judge doctor` (the isolation and each language's tool) and `judge
//! cache` (the build cache's size, pruned least recently used first).

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::{Bench, assert_shows, double, double_script, write};
use crate::cli::CacheAction;
use crate::commands::doctor::{cache, doctor};
use crate::compile::fake::FakeBuilder;
use crate::exit_codes;
use crate::lang::Languages;

#[test]
fn doctor_names_the_isolation_and_each_languages_tool() {
    let mut bench = Bench::new(double, double_script);
    // A table of its own: a tool every machine has, and one none has.
    let table = bench.root.path().join("languages.toml");
    std::fs::write(
        &table,
        "[shell]\nname = \"Shell\"\nextensions = [\"sh\"]\nrun = [\"sh\", \"{source}\"]\n\n\
         [nowhere]\nname = \"Nowhere\"\nextensions = [\"nw\"]\n\
         run = [\"no-such-tool-for-a-test\", \"{source}\"]\n",
    )
    .unwrap();
    let mut builder = FakeBuilder::new(bench.boxes.clone());
    builder.languages = Languages::load(Some(&table)).unwrap();
    bench.ctx.builder = Box::new(builder);

    assert_eq!(doctor(&mut bench.ctx).unwrap(), exit_codes::OK);
    let text = bench.text();
    let head = format!(
        "root: {}\nnone: a test's fake box, no process\n",
        bench.root.path().display()
    );
    assert!(text.starts_with(&head), "{text}");
    assert_shows(
        &text,
        "language nowhere (Nowhere): no-such-tool-for-a-test not found: submissions in this language get JE\n",
    );
    assert_shows(&text, "language shell (Shell): sh at /");
    // The built-in languages are listed too, found or not.
    assert_shows(&text, "language python (Python 3): python3 ");
    assert_eq!(bench.boxes.runs(), 0);
}

/// A cached build of `bytes` bytes named `name`, last used `age` ago.
fn cached(root: &Path, name: &str, bytes: u64, age: Duration) {
    let path = format!("target/judge-cache/{name}/outcome");
    write(
        root,
        &path,
        &format!("outcome = \"built\"\nbytes = {bytes}\n"),
    );
    let file = std::fs::File::options()
        .write(true)
        .open(root.join(path))
        .unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
}

#[test]
fn cache_prune_removes_the_least_recently_used_builds_first() {
    let mut bench = Bench::new(double, double_script);
    let root = bench.root.path().to_path_buf();
    cached(&root, "old", 3072, Duration::from_secs(3600));
    cached(&root, "new", 2048, Duration::from_secs(60));
    let dir = root.join("target/judge-cache");

    assert_eq!(
        cache(&mut bench.ctx, &CacheAction::Info).unwrap(),
        exit_codes::OK
    );
    let info = bench.text();
    assert!(
        info.starts_with(&format!("{}: 2 builds, 5.0 KiB (budget ", dir.display())),
        "{info}"
    );
    assert!(dir.join("old").is_dir(), "info removes nothing");

    let prune = CacheAction::Prune {
        max: Some(bytesize::ByteSize(4096)),
    };
    assert_eq!(cache(&mut bench.ctx, &prune).unwrap(), exit_codes::OK);
    let pruned = bench.text()[info.len()..].to_string();
    assert!(
        pruned.starts_with(&format!(
            "removed 1 builds (3.0 KiB) from {}\n{}: 1 builds, 2.0 KiB",
            dir.display(),
            dir.display()
        )),
        "{pruned}"
    );
    assert!(!dir.join("old").exists());
    assert!(dir.join("new").is_dir());
}
