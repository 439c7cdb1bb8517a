//! `judge export ID --kattis DIR`: one of our packages as a Kattis problem
//! package in the legacy format (no `problem_format_version`), the one
//! problemtools' `verifyproblem` reads and Kattis accepts.
//!
//! ```text
//! ProblemSpec ─► plan (every file to write, in memory or as a copy; every
//!                program bundled and type-checked) ─► DIR
//! ```
//!
//! Nothing is written before the whole plan stands, so a package that
//! cannot be exported leaves DIR as it was.

use std::path::{Path, PathBuf};

use super::kattis_programs::{Exported, Programs};
use crate::compare::TokenOptions;
use crate::errors::{Error, Result};
use crate::spec::SpecError;
use crate::spec::{CompareMode, ProblemSpec, ProgramRef, Protocol, ToolSpec};
use crate::verdict::Verdict;

/// The top-level entries an export writes: `--force` replaces these and
/// leaves anything else in DIR alone.
pub(crate) const WRITTEN: [&str; 6] = [
    "problem.yaml",
    "problem_statement",
    "data",
    "input_validators",
    "output_validators",
    "submissions",
];

/// One file of the package.
pub(super) enum Content {
    Text(String),
    Bytes(Vec<u8>),
    Copy(PathBuf),
}

/// What the export will write and what it had to say about it.
#[derive(Default)]
pub(crate) struct Plan {
    files: Vec<(PathBuf, Content)>,
    /// One line per part written (for the summary).
    pub(crate) written: Vec<String>,
    /// What was left out or changed, and why.
    pub(crate) notes: Vec<String>,
}

/// Works out the whole package for `problem` (`root`: the workspace
/// folder; `scratch`: a folder for the compile checks), one part after
/// the other: what judges (and `problem.yaml`), the test data, the input
/// validator, the submissions, the statement.
pub(crate) fn plan(problem: &ProblemSpec, root: &Path, scratch: &Path) -> Result<Plan> {
    let manifest = problem.dir.join("problem.toml");
    let mut programs = Programs::new(root, scratch, &manifest);
    refuse_unexportable(problem, &programs)?;
    let mut plan = Plan::default();
    plan.judging(problem, &mut programs)?;
    plan.data(problem);
    plan.input_validator(problem, &mut programs)?;
    plan.submissions(problem, &mut programs)?;
    plan.statement(problem)?;
    Ok(plan)
}

/// A package of another format, or a scored one, is not exported.
fn refuse_unexportable(problem: &ProblemSpec, programs: &Programs<'_>) -> Result<()> {
    if let Some(package) = &problem.package {
        return Err(programs.refuse(format!(
            "it is already a {} package: export writes problem.toml packages",
            package.format.describe()
        )));
    }
    if let Some(solution) = problem.solutions.iter().find(|s| s.score.is_some()) {
        return Err(programs.refuse(format!(
            "a scored problem (solution `{}` expects a score): scoring is not exported",
            solution.program.display_name()
        )));
    }
    Ok(())
}

/// How a problem is judged on Kattis: `problem.yaml`'s `validation` and
/// `validator_flags`, and the program that judges, if it is not the
/// default validator.
struct Validation<'p> {
    kind: &'static str,
    flags: String,
    judge: Option<&'p ToolSpec>,
}

impl<'p> Validation<'p> {
    /// `notes`: what changes on the way.
    fn of(
        problem: &'p ProblemSpec,
        programs: &Programs<'_>,
        notes: &mut Vec<String>,
    ) -> Result<Validation<'p>> {
        let manifest = programs.manifest;
        let (kind, flags, judge) = match (&problem.interactor, &problem.compare.mode) {
            (Some(interactor), _) => (
                "custom interactive",
                kattis_flags(interactor, "interactor", manifest)?,
                Some(interactor),
            ),
            (None, CompareMode::Checker(checker)) => (
                "custom",
                kattis_flags(checker, "checker", manifest)?,
                Some(checker),
            ),
            (None, CompareMode::Tokens(options)) => ("default", default_flags(options), None),
            // Only a package read from another format judges by per-test
            // flags; export takes problem.toml packages (refused before).
            (None, CompareMode::KattisFlags) => {
                return Err(programs.refuse("it is not a problem.toml package".into()));
            }
            (None, CompareMode::Exact) => {
                notes.push(
                    "compare.mode = \"exact\" becomes the default validator with `case_sensitive space_change_sensitive`: the same bytes pass, and a whitespace difference is WA (Kattis has no PE)".into(),
                );
                (
                    "default",
                    "case_sensitive space_change_sensitive".to_string(),
                    None,
                )
            }
        };
        Ok(Validation { kind, flags, judge })
    }
}

/// The default validator's flags for our token comparison's options.
fn default_flags(options: &TokenOptions) -> String {
    let mut flags = Vec::new();
    if options.case_sensitive {
        flags.push("case_sensitive".to_string());
    }
    if options.space_change_sensitive {
        flags.push("space_change_sensitive".to_string());
    }
    if let Some(abs) = options.float_absolute {
        flags.push(format!("float_absolute_tolerance {abs:e}"));
    }
    if let Some(rel) = options.float_relative {
        flags.push(format!("float_relative_tolerance {rel:e}"));
    }
    flags.join(" ")
}

/// Why a solution is left out of the export (a note, not an error).
#[derive(Debug, thiserror::Error)]
enum LeftOut {
    #[error("left out {name}: it expects {code}, and Kattis has no submissions folder for it")]
    NoFolder { name: String, code: &'static str },
    #[error("left out {name}: it expects one of {codes}, and a Kattis folder means one verdict")]
    SeveralVerdicts { name: String, codes: String },
}

/// The Kattis submissions folder for a solution's expectation, or why it
/// has none.
fn submissions_folder(
    expect: &[Verdict],
    name: &str,
) -> std::result::Result<&'static str, LeftOut> {
    match expect {
        [Verdict::Accepted] => Ok("accepted"),
        [Verdict::WrongAnswer] => Ok("wrong_answer"),
        [Verdict::TimeLimitExceeded] => Ok("time_limit_exceeded"),
        [Verdict::RuntimeError] => Ok("run_time_error"),
        [single] => Err(LeftOut::NoFolder {
            name: name.to_string(),
            code: single.short(),
        }),
        several => {
            let codes: Vec<&str> = several.iter().map(|v| v.short()).collect();
            Err(LeftOut::SeveralVerdicts {
                name: name.to_string(),
                codes: codes.join(", "),
            })
        }
    }
}

/// `n` `what`s, in words.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

impl Plan {
    /// Adds a validator's files under `folder` and a summary line.
    fn add_program(&mut self, exported: Exported, folder: &str) {
        let entry = exported.entry.clone();
        self.written
            .push(format!("{folder}/{entry}: {}", exported.about));
        self.files.extend(exported.place(Path::new(folder), &entry));
    }

    /// What judges the answers (an output validator, or the default one's
    /// flags) and `problem.yaml`, whose summary line comes first.
    fn judging(&mut self, problem: &ProblemSpec, programs: &mut Programs<'_>) -> Result<()> {
        let Validation { kind, flags, judge } = Validation::of(problem, programs, &mut self.notes)?;
        if let Some(tool) = judge {
            self.add_program(programs.program(&tool.program)?, "output_validators");
            if matches!(tool.program, ProgramRef::Bin(_)) {
                self.notes.push(
                    "the output validator is Rust: problemtools builds and runs it, but warns that Kattis itself takes output validators in C, C++ or Python only".into(),
                );
            }
        }
        self.files.push((
            "problem.yaml".into(),
            Content::Text(problem_yaml(problem, kind, &flags)),
        ));
        self.written.insert(
            0,
            format!(
                "problem.yaml: validation {kind}{}, memory {} MiB, output {} MiB",
                if flags.is_empty() {
                    String::new()
                } else {
                    format!(" ({flags})")
                },
                mib(problem.limits.memory),
                mib(problem.limits.output)
            ),
        );
        Ok(())
    }

    /// The test data, groups kept as folders.
    fn data(&mut self, problem: &ProblemSpec) {
        let mut samples = 0;
        let mut groups = std::collections::BTreeSet::new();
        for test in &problem.tests {
            let name = Path::new("data").join(&test.name);
            self.files
                .push((name.with_extension("in"), Content::Copy(test.input.clone())));
            self.files.push((
                name.with_extension("ans"),
                Content::Copy(test.answer.clone()),
            ));
            if test.is_sample() {
                samples += 1;
            } else {
                groups.insert(test.group.clone());
            }
        }
        self.written.push(format!(
            "data: {}, {} in {}",
            count(samples, "sample"),
            count(problem.tests.len() - samples, "secret test"),
            groups.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }

    /// The input validator, with its flags in `data/testdata.yaml`.
    fn input_validator(
        &mut self,
        problem: &ProblemSpec,
        programs: &mut Programs<'_>,
    ) -> Result<()> {
        let Some(validator) = &problem.validator else {
            self.notes.push(
                "no [validator]: Kattis wants input_validators/; verifyproblem reports its absence"
                    .into(),
            );
            return Ok(());
        };
        if validator.protocol == Protocol::Testlib {
            return Err(programs.refuse(
                "the validator speaks the testlib protocol (exit 0 valid); Kattis input validators must exit 42".into(),
            ));
        }
        if !validator.args.is_empty() {
            self.files.push((
                "data/testdata.yaml".into(),
                Content::Text(format!(
                    "input_validator_flags: {}\n",
                    quoted(&flag_line(&validator.args, "validator", programs.manifest)?)
                )),
            ));
        }
        self.add_program(programs.program(&validator.program)?, "input_validators");
        Ok(())
    }

    /// The solutions, each in the folder of the verdict it expects, and
    /// what Kattis makes of the time limit.
    fn submissions(&mut self, problem: &ProblemSpec, programs: &mut Programs<'_>) -> Result<()> {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for solution in &problem.solutions {
            let name = solution.program.display_name();
            let folder = match submissions_folder(&solution.expect, &name) {
                Ok(folder) => folder,
                Err(left_out) => {
                    self.notes.push(left_out.to_string());
                    continue;
                }
            };
            let exported = programs.program(&solution.program)?;
            let folder_path = Path::new("submissions").join(folder);
            let entry = self.free_entry(&folder_path, &exported.entry);
            self.files.extend(exported.place(&folder_path, &entry));
            match counts.iter_mut().find(|(f, _)| *f == folder) {
                Some((_, n)) => *n += 1,
                None => counts.push((folder, 1)),
            }
        }
        if !counts.iter().any(|(f, _)| *f == "accepted") {
            self.notes.push(
                "no solution expects exactly AC: Kattis derives the time limit from submissions/accepted/, and verifyproblem requires one".into(),
            );
        }
        let counts: Vec<String> = counts.iter().map(|(f, n)| format!("{f} {n}")).collect();
        self.written
            .push(format!("submissions: {}", counts.join(", ")));
        self.notes.push(format!(
            "time limit: Kattis sets it from the slowest run in submissions/accepted/ × 5, rounded up to whole seconds (at least 1 s); problem.toml says {}",
            humantime::format_duration(problem.limits.time)
        ));
        Ok(())
    }

    /// `entry`, or if `folder` has it already (two solutions may share a
    /// file name, `reference.py`), the first of `entry_2`, `entry_3`, ...
    /// it has not.
    fn free_entry(&self, folder: &Path, entry: &str) -> String {
        let taken = |name: &str| {
            self.files
                .iter()
                .any(|(p, _)| p.starts_with(folder.join(name)))
        };
        let mut free = entry.to_string();
        let mut n = 2;
        while taken(&free) {
            free = match entry.rsplit_once('.') {
                Some((stem, extension)) => format!("{stem}_{n}.{extension}"),
                None => format!("{entry}_{n}"),
            };
            n += 1;
        }
        free
    }

    /// The statement: the title, and `statement.md` as it is.
    fn statement(&mut self, problem: &ProblemSpec) -> Result<()> {
        let statement = problem.dir.join("statement.md");
        if !statement.is_file() {
            self.notes.push(
                "no statement.md: verifyproblem wants problem_statement/problem.en.tex for the name"
                    .into(),
            );
            return Ok(());
        }
        let markdown = std::fs::read_to_string(&statement).map_err(|source| SpecError::Read {
            path: statement.clone(),
            source,
        })?;
        self.files.push((
            "problem_statement/problem.en.tex".into(),
            Content::Text(statement_tex(&problem.title, &markdown)),
        ));
        self.written.push(
            "problem_statement/problem.en.tex: the title, and statement.md as plain text (rewrite it in LaTeX before publishing)".into(),
        );
        Ok(())
    }
}

/// Writes the plan into `dir`. It must be empty (or missing) unless
/// `force`, which first removes what an export writes (`WRITTEN`).
pub(crate) fn write(plan: &Plan, dir: &Path, force: bool) -> Result<()> {
    let io = |what: &Path| {
        let what = what.display().to_string();
        move |source| Error::Report { what, source }
    };
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(io(dir))?;
        if entries.next().is_some() {
            if !force {
                return Err(Error::Usage(format!(
                    "{} is not empty: export into a new folder, or add --force to replace its {}",
                    dir.display(),
                    WRITTEN.join(", ")
                )));
            }
            for entry in WRITTEN {
                let path = dir.join(entry);
                if path.is_dir() {
                    std::fs::remove_dir_all(&path).map_err(io(&path))?;
                } else if path.exists() {
                    std::fs::remove_file(&path).map_err(io(&path))?;
                }
            }
        }
    }
    for (relative, content) in &plan.files {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        match content {
            Content::Text(text) => std::fs::write(&path, text).map_err(io(&path))?,
            Content::Bytes(bytes) => std::fs::write(&path, bytes).map_err(io(&path))?,
            Content::Copy(from) => {
                std::fs::copy(from, &path).map_err(io(&path))?;
            }
        }
    }
    Ok(())
}

/// The flags a Kattis program gets, from a tool's `args`; only the Kattis
/// protocol travels.
fn kattis_flags(tool: &ToolSpec, key: &str, manifest: &Path) -> Result<String> {
    if tool.protocol == Protocol::Testlib {
        return Err(SpecError::Export {
            path: manifest.to_path_buf(),
            message: format!(
                "the {key} speaks the testlib protocol; a Kattis output validator must exit 42 or 43"
            ),
        }
        .into());
    }
    flag_line(&tool.args, key, manifest)
}

/// `args` as one space-separated line, as problem.yaml holds flags.
fn flag_line(args: &[String], key: &str, manifest: &Path) -> Result<String> {
    if let Some(bad) = args
        .iter()
        .find(|a| a.is_empty() || a.contains(char::is_whitespace))
    {
        return Err(SpecError::Export {
            path: manifest.to_path_buf(),
            message: format!(
                "[{key}] args: `{bad}` is empty or holds a space, which Kattis flags (one space-separated line) cannot carry"
            ),
        }
        .into());
    }
    Ok(args.join(" "))
}

fn problem_yaml(problem: &ProblemSpec, validation: &str, flags: &str) -> String {
    let mut yaml = format!(
        "# Written by `judge export` from problems/{id}/problem.toml: edit that and export again.\n\
         # Legacy Kattis format. No time limit here: Kattis sets it from the slowest\n\
         # accepted submission × time_multiplier (5), rounded up to whole seconds.\n\
         name: {name}\n",
        id = problem.id,
        name = quoted(&problem.title),
    );
    if let Some(source) = &problem.source {
        yaml += &format!("source: {}\n", quoted(source));
    }
    yaml += &format!("uuid: {}\n", uuid(&problem.id));
    yaml += &format!("validation: {validation}\n");
    if !flags.is_empty() {
        yaml += &format!("validator_flags: {}\n", quoted(flags));
    }
    yaml += &format!(
        "limits:\n  memory: {}\n  output: {}\n",
        mib(problem.limits.memory),
        mib(problem.limits.output)
    );
    yaml
}

/// A legacy Kattis statement (LaTeX) holding the title and our Markdown
/// statement verbatim: the package then names the problem the way the
/// legacy format wants (from the statement), and the text travels along
/// without a conversion that could change its meaning.
fn statement_tex(title: &str, markdown: &str) -> String {
    let escaped: String = title
        .chars()
        .map(|c| match c {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => format!("\\{c}"),
            '~' | '^' | '\\' => " ".to_string(),
            c => c.to_string(),
        })
        .collect();
    // `\end{verbatim}` inside the text would end the block early.
    let mut body = markdown.replace("\\end{verbatim}", "\\end {verbatim}");
    if !body.ends_with('\n') {
        body.push('\n');
    }
    format!(
        "%% plainproblemname: {title}\n\\problemname{{{escaped}}}\n\n\
         % Written by `judge export` from statement.md (Markdown), kept as it is.\n\
         \\begin{{verbatim}}\n{body}\\end{{verbatim}}\n"
    )
}

/// A YAML double-quoted scalar (JSON's string syntax is valid YAML).
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// Bytes in whole MiB, rounded up (Kattis limits are whole MiB).
fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// A UUID that depends on the problem id alone, so every export of a
/// problem names the same Kattis problem: the id's BLAKE3 hash as an RFC
/// 9562 version 8 ("custom") UUID.
pub(crate) fn uuid(id: &str) -> String {
    let hash = blake3::hash(format!("game-judge problem {id}").as_bytes());
    let mut bytes: [u8; 16] = hash.as_bytes()[..16].try_into().expect("16 of 32 bytes");
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_is_stable_and_version_8() {
        let a = uuid("a-game");
        assert_eq!(a, uuid("a-game"));
        assert_ne!(a, uuid("a-game-large"));
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "8");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"));
    }

    #[test]
    fn limits_round_up_to_mib() {
        assert_eq!(mib(64 << 20), 64);
        assert_eq!(mib((64 << 20) + 1), 65);
    }
}
