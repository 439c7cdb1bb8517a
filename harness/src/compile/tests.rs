use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::files::substitute;
use super::*;
use crate::sandbox::{COMPILE_LIMITS, Containment, Limits, RunRequest, Termination};
use crate::test_support::have;

fn builder(root: &Path) -> Builder {
    Builder::new(root, Languages::load(None).unwrap(), Sandbox::new())
}

/// A builder whose language table adds `table` to the built-in one.
fn builder_with(root: &Path, table: &str) -> Builder {
    let path = root.join("languages.toml");
    std::fs::write(&path, table).unwrap();
    Builder::new(root, Languages::load(Some(&path)).unwrap(), Sandbox::new())
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// The folder `root/name` holding `files` (name, text).
fn folder_with(root: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = root.join(name);
    for (file, text) in files {
        write(&dir.join(file), text);
    }
    dir
}

struct Set<'a> {
    language: &'a str,
    sources: Vec<PathBuf>,
    entry: PathBuf,
    beside: Vec<PathBuf>,
    constants: Vec<(String, String)>,
}

impl Set<'_> {
    fn program(self) -> ProgramRef {
        ProgramRef::Sources(Arc::new(SourceSet {
            name: "accepted/split".into(),
            language: self.language.into(),
            sources: self.sources,
            entry: self.entry,
            beside: self.beside,
            constants: self.constants,
            submitted: None,
        }))
    }
}

/// The program `dir`'s files make, sources being those ending in `.ext`.
fn folder(language: &'static str, dir: &Path, ext: &str, entry: &str) -> Set<'static> {
    let mut sources = Vec::new();
    let mut beside = Vec::new();
    for item in std::fs::read_dir(dir).unwrap() {
        let path = item.unwrap().path();
        match path.extension().is_some_and(|e| e == ext) {
            true => sources.push(path),
            false => beside.push(path),
        }
    }
    Set {
        language,
        sources,
        entry: dir.join(entry),
        beside,
        constants: Vec::new(),
    }
}

fn ready(built: Built) -> Executable {
    match built {
        Built::Ready(exe) => exe,
        other => panic!("not built: {other:?}"),
    }
}

/// What `exe` prints for `input`.
fn run(exe: &Executable, input: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let stdin = write(&dir.path().join("input"), input);
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let outcome = Sandbox::new()
        .worker()
        .run(&RunRequest {
            program: exe.program.clone(),
            args: exe.args.clone(),
            stdin: Some(stdin),
            workdir: work,
            // The JVM reserves address space by the machine's memory.
            limits: Limits {
                memory: 16 << 30,
                ..COMPILE_LIMITS
            },
            env: Vec::new(),
            stack: None,
            read_only: exe.read_only.clone(),
            containment: Containment::Tool,
            seed: Vec::new(),
            collect: None,
            conversation: Default::default(),
        })
        .unwrap();
    assert_eq!(
        outcome.termination,
        Termination::Exited(0),
        "{}{}",
        String::from_utf8_lossy(&outcome.stderr),
        String::from_utf8_lossy(&outcome.stdout)
    );
    String::from_utf8(outcome.stdout).unwrap()
}

#[test]
fn a_cpp_program_of_two_files_and_a_header_builds_runs_and_is_rebuilt_when_the_header_changes() {
    if !have(&["g++"]) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = folder_with(
        root.path(),
        "split",
        &[
            (
                "main.cpp",
                "#include <cstdio>\n#include \"add.h\"\nint main() { int x; std::scanf(\"%d\", &x); std::printf(\"%d\\n\", add(x)); }\n",
            ),
            (
                "add.cpp",
                "#include \"add.h\"\nint add(int x) { return x + BASE; }\n",
            ),
            ("add.h", "#define BASE 40\nint add(int x);\n"),
        ],
    );
    let mut builder = builder(root.path());
    let program = folder("cpp", &dir, "cpp", "main.cpp").program();
    let first = ready(builder.build(&program));
    assert_eq!(run(&first, "2\n"), "42\n");
    assert_eq!(ready(builder.build(&program)), first, "the cached build");

    write(&dir.join("add.h"), "#define BASE 50\nint add(int x);\n");
    let second = ready(builder.build(&program));
    assert_ne!(second.program, first.program);
    assert_eq!(run(&second, "2\n"), "52\n");
}

#[test]
fn a_python_program_runs_its_entry_which_imports_the_other_module_constants_filled_in() {
    if !have(&["python3"]) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = folder_with(
        root.path(),
        "pyentry",
        &[
            (
                "main.py",
                "from limits import MAX\nprint(\"{{greeting}}\", MAX, \"{{unknown}}\")\n",
            ),
            ("limits.py", "MAX = {{max_n}}\n"),
        ],
    );
    let mut set = folder("python", &dir, "py", "main.py");
    set.constants = vec![
        ("greeting".into(), "hello".into()),
        ("max_n".into(), "1000".into()),
    ];
    let exe = ready(builder(root.path()).build(&set.program()));
    assert_eq!(run(&exe, ""), "hello 1000 {{unknown}}\n");
}

#[test]
fn substitution_is_one_pass() {
    let constants = [
        ("n".to_string(), "{{m}}".to_string()),
        ("m".into(), "7".into()),
    ];
    assert_eq!(
        substitute("{{n}} {{m}} {{{m}}} {{x}} {{ m }} {{m", &constants),
        "{{m}} 7 {7} {{x}} {{ m }} {{m"
    );
}

#[test]
fn a_compile_error_names_the_users_file_not_the_build_folder() {
    if !have(&["g++"]) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = folder_with(
        root.path(),
        "broken",
        &[
            (
                "main.cpp",
                "int helper();\nint main() { return helper(); }\n",
            ),
            ("broken.cpp", "int helper() { return nope; }\n"),
        ],
    );
    let single = write(
        &root.path().join("sum.cpp"),
        "int main() { return nope; }\n",
    );
    let mut builder = builder(root.path());
    let outputs = [
        (
            folder("cpp", &dir, "cpp", "main.cpp").program(),
            "broken.cpp",
        ),
        (ProgramRef::File(single), "sum.cpp"),
    ];
    for (program, file) in outputs {
        let Built::CompileError(error) = builder.build(&program) else {
            panic!("{program:?} built");
        };
        let text = error.to_string();
        assert!(text.contains(&format!("{file}:1")), "{text}");
        assert!(!text.contains("solution.cpp"), "{text}");
        let root = root.path().to_string_lossy();
        assert!(
            !text.contains(".building-") && !text.contains(&*root),
            "{text}"
        );
    }
}

/// A language whose compiler logs the sources it is given, so that a test
/// sees when a build runs the compiler.
fn logging_language(log: &Path) -> String {
    format!(
        "[logged]\nname = \"Logged\"\nextensions = [\"lg\"]\ncompile = [\"sh\", \"-c\", \"{{ for f in \\\"$@\\\"; do printf '%s ' \\\"${{f##*/}}\\\"; done; echo; }} >> {}\", \"sh\", \"{{sources}}\"]\nrun = [\"sh\", \"{{source}}\"]\n",
        log.display()
    )
}

#[test]
fn a_second_build_is_a_cache_hit_and_a_changed_beside_file_rebuilds() {
    let root = tempfile::tempdir().unwrap();
    let log = root.path().join("compiles.log");
    let mut builder = builder_with(root.path(), &logging_language(&log));
    let dir = root.path().join("prog");
    let entry = write(&dir.join("b.lg"), "cat \"$(dirname \"$0\")/note.txt\"\n");
    let other = write(&dir.join("a.lg"), "echo never run\n");
    let note = write(&dir.join("note.txt"), "first\n");
    let program = || {
        Set {
            language: "logged",
            sources: vec![entry.clone(), other.clone()],
            entry: entry.clone(),
            beside: vec![note.clone()],
            constants: Vec::new(),
        }
        .program()
    };
    let compiles = || std::fs::read_to_string(&log).unwrap_or_default();

    let first = ready(builder.build(&program()));
    assert_eq!(compiles(), "a.lg b.lg \n", "every source, in order, once");
    assert_eq!(run(&first, ""), "first\n");
    assert_eq!(ready(builder.build(&program())), first);
    assert_eq!(compiles(), "a.lg b.lg \n", "no second compile");

    write(&note, "second\n");
    let second = ready(builder.build(&program()));
    assert_eq!(compiles().lines().count(), 2);
    assert_eq!(run(&second, ""), "second\n");
}

#[test]
fn a_beside_file_replaces_the_source_of_its_name() {
    let root = tempfile::tempdir().unwrap();
    let mut builder = builder_with(root.path(), &logging_language(&root.path().join("log")));
    let source = write(&root.path().join("prog/a.lg"), "echo from the folder\n");
    let include = write(&root.path().join("include/a.lg"), "echo from include\n");
    let program = Set {
        language: "logged",
        sources: vec![source.clone()],
        entry: source,
        beside: vec![include],
        constants: Vec::new(),
    }
    .program();
    assert_eq!(run(&ready(builder.build(&program)), ""), "from include\n");
}

#[test]
fn what_is_wrong_with_a_set_is_a_judge_error_naming_the_program() {
    let root = tempfile::tempdir().unwrap();
    let mut builder = builder(root.path());
    let a = write(&root.path().join("x/a.py"), "");
    let b = write(&root.path().join("y/a.py"), "");
    let main = write(&root.path().join("y/main"), "");
    let cases = [
        ("cobol", vec![a.clone()], Vec::new(), "no language `cobol`"),
        (
            "python",
            vec![a.clone(), b],
            Vec::new(),
            "two sources are named a.py",
        ),
        (
            "python",
            vec![a.clone()],
            vec![main],
            "may not be named main",
        ),
    ];
    for (language, sources, beside, expected) in cases {
        let program = Set {
            language,
            sources,
            entry: a.clone(),
            beside,
            constants: Vec::new(),
        }
        .program();
        let Built::JudgeError(error) = builder.build(&program) else {
            panic!("{program:?} built");
        };
        let text = error.to_string();
        assert!(
            text.starts_with("accepted/split: ") && text.contains(expected),
            "{text}"
        );
    }
}

#[test]
fn a_set_whose_compiler_is_missing_names_it() {
    let root = tempfile::tempdir().unwrap();
    let table = "[ghost]\nname = \"Ghost\"\nextensions = [\"gh\"]\ncompile = [\"no-such-compiler-here\", \"{sources}\"]\nrun = [\"{binary}\"]\n";
    let mut builder = builder_with(root.path(), table);
    let source = write(&root.path().join("a.gh"), "");
    let set = |language| {
        Set {
            language,
            sources: vec![source.clone()],
            entry: source.clone(),
            beside: Vec::new(),
            constants: Vec::new(),
        }
        .program()
    };
    assert_eq!(
        builder.unavailable_tool(&set("ghost")).as_deref(),
        Some("no-such-compiler-here")
    );
    // A language the table lacks cannot run here either: it is skipped
    // as a missing tool, not built into a judge error.
    assert_eq!(
        builder.unavailable_tool(&set("cobol")).as_deref(),
        Some("cobol")
    );
    let Built::JudgeError(error) = builder.build(&set("ghost")) else {
        panic!("built without its compiler");
    };
    let text = error.to_string();
    assert!(text.contains("no-such-compiler-here"), "{text}");
}

#[test]
fn a_java_program_of_two_classes_starts_the_entrys_class() {
    if !have(&["javac", "java"]) {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let dir = folder_with(
        root.path(),
        "java",
        &[
            (
                "Main.java",
                "public class Main { public static void main(String[] a) { System.out.println(Helper.answer()); } }\n",
            ),
            (
                "Helper.java",
                "class Helper { static int answer() { return 42; } }\n",
            ),
        ],
    );
    let exe =
        ready(builder(root.path()).build(&folder("java", &dir, "java", "Main.java").program()));
    assert_eq!(run(&exe, ""), "42\n");
}

/// The fixture Kattis package of scoring groups, as its reader will hand
/// its programs over.
fn subtraction() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ecosystem/problems/subtraction")
}

#[test]
fn the_fixture_submissions_of_several_files_solve_the_samples() {
    if !have(&["g++", "python3"]) {
        return;
    }
    let package = subtraction();
    let submissions = package.join("submissions/accepted");
    let mut split = folder("cpp", &submissions.join("split"), "cpp", "main.cpp");
    // `include/cpp/` goes beside every C++ submission, its constants filled in.
    split.beside.push(package.join("include/cpp/subtraction.h"));
    split.constants = [
        ("max_n", "1000000000000000000"),
        ("max_s", "10"),
        ("small_n", "1000"),
    ]
    .map(|(n, v)| (n.to_string(), v.to_string()))
    .into();
    let pyentry = folder("python", &submissions.join("pyentry"), "py", "solve.py");
    let root = tempfile::tempdir().unwrap();
    let mut builder = builder(root.path());
    for set in [split, pyentry] {
        let exe = ready(builder.build(&set.program()));
        for sample in ["1", "2"] {
            let data = package.join("data/sample");
            let input = std::fs::read_to_string(data.join(format!("{sample}.in"))).unwrap();
            let answer = std::fs::read_to_string(data.join(format!("{sample}.ans"))).unwrap();
            assert_eq!(run(&exe, &input), answer, "sample {sample}");
        }
    }
}

#[test]
fn the_fixture_validators_with_headers_build() {
    if !have(&["g++"]) {
        return;
    }
    let nimmove = subtraction().with_file_name("nimmove");
    let root = tempfile::tempdir().unwrap();
    let mut builder = builder(root.path());
    for (folder_name, entry) in [
        ("output_validators/nimmove_checker", "checker.cpp"),
        ("input_validators/nimmove_input", "validate.cpp"),
    ] {
        let set = folder("cpp", &nimmove.join(folder_name), "cpp", entry);
        ready(builder.build(&set.program()));
    }
}
