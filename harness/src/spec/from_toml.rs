//! A parsed `problem.toml` checked and turned into the spec the judge runs.
//! Every refusal names the manifest, the line and the key.

use std::ops::Range;
use std::path::{Path, PathBuf};

use super::kind::JudgingKind;
use super::problem::{
    CompareMode, CompareSpec, DEFAULT_MEMORY, DEFAULT_OUTPUT, DEFAULT_TIME, GeneratedTest,
    ProblemSpec, ProgramRef, Protocol, ScoreAggregate, SolutionSpec, TestCase, ToolSpec,
};
use super::raw::{
    RawAggregate, RawCompare, RawCompareMode, RawGenerator, RawKind, RawLimits, RawProblem,
    RawProtocol, RawSolution, RawTool,
};
use super::{FieldError, SpecError};
use crate::compare::TokenOptions;
use crate::sandbox::Limits;

impl ProblemSpec {
    /// Validates a parsed `problem.toml`. `text` is the file's contents, for
    /// turning spans into line numbers.
    pub(crate) fn from_raw(
        raw: RawProblem,
        dir: &Path,
        manifest: &Path,
        text: &str,
        tests: Vec<TestCase>,
    ) -> Result<ProblemSpec, SpecError> {
        let manifest = Manifest {
            dir,
            path: manifest,
            text,
        };
        manifest.check_id(&raw.id)?;
        let limits = manifest.limits(&raw.limits)?;
        let mode = manifest.compare_mode(&raw.compare, raw.checker)?;
        let validator = raw
            .validator
            .map(|v| manifest.tool(v, "validator"))
            .transpose()?;
        // A testlib interactor's output file is judged by [compare], as a
        // batch submission's stdout is; a Kattis interactor judges alone.
        let kattis_interactor = raw
            .interactor
            .as_ref()
            .is_some_and(|i| i.protocol == RawProtocol::Kattis);
        if let (true, Some(mode)) = (kattis_interactor, &raw.compare.mode) {
            return Err(manifest.at(
                mode.span(),
                "compare.mode",
                "a Kattis interactor judges alone; remove [compare] (with interactor.protocol = \"testlib\", [compare] judges the interactor's output file)".into(),
            ));
        }
        let interactor = raw
            .interactor
            .map(|t| manifest.tool(t, "interactor"))
            .transpose()?;
        let answers = raw
            .answers
            .map(|t| manifest.tool(t, "answers"))
            .transpose()?;
        let generator = raw.generator.map(|g| manifest.generator(g)).transpose()?;

        let output_only = raw
            .kind
            .as_ref()
            .is_some_and(|kind| *kind.get_ref() == RawKind::OutputOnly);
        if let (true, Some(kind)) = (output_only && interactor.is_some(), &raw.kind) {
            return Err(manifest.at(
                kind.span(),
                "kind",
                "an output-only problem runs no program: it cannot have an [interactor]".into(),
            ));
        }
        let solutions = raw
            .solutions
            .into_iter()
            .map(|solution| manifest.solution(solution, output_only))
            .collect::<Result<_, _>>()?;
        let stress = super::stress::StressSpec::from_raw(raw.stress, generator.is_some())
            .map_err(|(span, error)| manifest.at(span, "stress.args", error.to_string()))?;

        let kind = match (output_only, &interactor) {
            (true, _) => JudgingKind::OutputOnly,
            (false, Some(_)) => JudgingKind::Interactive,
            (false, None) => JudgingKind::Batch,
        };
        Ok(ProblemSpec {
            title: raw.title.unwrap_or_else(|| raw.id.get_ref().clone()),
            id: raw.id.into_inner(),
            source: raw.source,
            dir: dir.to_path_buf(),
            limits,
            compare: CompareSpec { mode },
            validator,
            interactor,
            answers,
            generator,
            aggregate: match raw.scoring.aggregate {
                Some(RawAggregate::Min) => ScoreAggregate::Min,
                Some(RawAggregate::Sum) | None => ScoreAggregate::Sum,
            },
            solutions,
            tests,
            static_tests: Vec::new(),
            stress,
            presentation_errors: true,
            kind,
            package: None,
        })
    }
}

/// The manifest being read: where its relative paths start, and its text
/// for line numbers.
struct Manifest<'a> {
    dir: &'a Path,
    path: &'a Path,
    text: &'a str,
}

impl Manifest<'_> {
    /// A refusal at the value whose span is `span`.
    fn at(&self, span: Range<usize>, key: &str, message: String) -> SpecError {
        FieldError::at(self.path, self.text, span, key, message).into()
    }

    /// A refusal at the first line that starts with `needle` (a key or a
    /// table header without a span of its own).
    fn at_line_of(&self, needle: &str, key: &str, message: String) -> SpecError {
        let line = self
            .text
            .lines()
            .position(|line| line.trim_start().starts_with(needle))
            .map_or(1, |i| i + 1);
        FieldError::on_line(self.path, line, key, message).into()
    }

    fn check_id(&self, id: &toml::Spanned<String>) -> Result<(), SpecError> {
        let folder = self.dir.file_name().map(|n| n.to_string_lossy());
        if folder.as_deref() == Some(id.get_ref().as_str()) {
            return Ok(());
        }
        Err(self.at(
            id.span(),
            "id",
            format!(
                "id `{}` must equal the folder name `{}`",
                id.get_ref(),
                folder.unwrap_or_default()
            ),
        ))
    }

    fn limits(&self, raw: &RawLimits) -> Result<Limits, SpecError> {
        let time = raw.time.unwrap_or(DEFAULT_TIME);
        let limits = Limits {
            time,
            wall: raw.wall.unwrap_or_else(|| Limits::default_wall(time)),
            memory: raw.memory.unwrap_or(DEFAULT_MEMORY),
            output: raw.output.unwrap_or(DEFAULT_OUTPUT),
        };
        if limits.wall < limits.time {
            return Err(self.at_line_of(
                "wall",
                "limits.wall",
                "the wall backstop must not be shorter than the CPU time limit".into(),
            ));
        }
        Ok(limits)
    }

    /// The program of a `[key]` table (checker, validator, interactor…).
    fn tool(&self, raw: RawTool, key: &str) -> Result<ToolSpec, SpecError> {
        let header = format!("[{key}]");
        let program = program_ref(raw.bin, raw.file, self.dir)
            .map_err(|error| self.at_line_of(&header, key, error.to_string()))?;
        if raw.protocol == RawProtocol::Testlib
            && !matches!(key, "checker" | "validator" | "interactor")
        {
            return Err(self.at_line_of(
                &header,
                &format!("{key}.protocol"),
                "the testlib protocol is read for checkers, validators and interactors only".into(),
            ));
        }
        Ok(ToolSpec {
            program,
            args: raw.args,
            protocol: match raw.protocol {
                RawProtocol::Kattis => Protocol::Kattis,
                RawProtocol::Testlib => Protocol::Testlib,
            },
        })
    }

    /// A tolerance, if given: finite and not negative.
    fn tolerance(
        &self,
        value: &Option<toml::Spanned<f64>>,
        key: &str,
    ) -> Result<Option<f64>, SpecError> {
        match value {
            Some(v) if !(v.get_ref().is_finite() && *v.get_ref() >= 0.0) => Err(self.at(
                v.span(),
                key,
                "a tolerance must be a finite number ≥ 0".into(),
            )),
            Some(v) => Ok(Some(*v.get_ref())),
            None => Ok(None),
        }
    }

    /// The token comparison's options: case, spacing and float tolerances
    /// (`float-tolerance` sets both, and only alone).
    fn token_options(&self, compare: &RawCompare) -> Result<TokenOptions, SpecError> {
        let mut abs = self.tolerance(
            &compare.float_absolute_tolerance,
            "compare.float-absolute-tolerance",
        )?;
        let mut rel = self.tolerance(
            &compare.float_relative_tolerance,
            "compare.float-relative-tolerance",
        )?;
        if let Some(both) = self.tolerance(&compare.float_tolerance, "compare.float-tolerance")? {
            if abs.is_some() || rel.is_some() {
                let span = compare
                    .float_tolerance
                    .as_ref()
                    .map(toml::Spanned::span)
                    .unwrap_or_default();
                return Err(self.at(
                    span,
                    "compare.float-tolerance",
                    "float-tolerance sets both tolerances; do not combine it with float-absolute-tolerance or float-relative-tolerance".into(),
                ));
            }
            abs = Some(both);
            rel = Some(both);
        }
        Ok(TokenOptions {
            case_sensitive: compare.case_sensitive,
            space_change_sensitive: compare.space_change_sensitive,
            float_absolute: abs,
            float_relative: rel,
        })
    }

    /// How output is compared: `[compare]` with its `[checker]`, each
    /// present only with the other.
    fn compare_mode(
        &self,
        compare: &RawCompare,
        checker: Option<RawTool>,
    ) -> Result<CompareMode, SpecError> {
        let has_checker = checker.is_some();
        // Checked whatever the mode, so a bad tolerance is never silently kept.
        let token_options = self.token_options(compare)?;
        let mode = match compare.mode.as_ref().map(|m| (*m.get_ref(), m.span())) {
            None | Some((RawCompareMode::Tokens, _)) => CompareMode::Tokens(token_options),
            Some((RawCompareMode::Exact, _)) => CompareMode::Exact,
            Some((RawCompareMode::Checker, span)) => match checker {
                Some(checker) => CompareMode::Checker(self.tool(checker, "checker")?),
                None => {
                    return Err(self.at(
                        span,
                        "compare.mode",
                        "mode = \"checker\" needs a [checker] table".into(),
                    ));
                }
            },
        };
        if !matches!(mode, CompareMode::Checker(_)) && has_checker {
            return Err(self.at_line_of(
                "[checker]",
                "checker",
                "a [checker] is only used with compare.mode = \"checker\"".into(),
            ));
        }
        Ok(mode)
    }

    /// The `[generator]` program and the tests it writes, each named by a
    /// path under `data/sample/` or `data/secret/`.
    fn generator(
        &self,
        generator: RawGenerator,
    ) -> Result<(ProgramRef, Vec<GeneratedTest>), SpecError> {
        let program = program_ref(generator.bin, generator.file, self.dir)
            .map_err(|error| self.at_line_of("[generator]", "generator", error.to_string()))?;
        let mut tests = Vec::new();
        for test in generator.tests {
            let span = test.span();
            let test = test.into_inner();
            if test.name.is_empty()
                || test.name.contains("..")
                || test.name.starts_with('/')
                || !(test.name.starts_with("sample/") || test.name.starts_with("secret/"))
            {
                return Err(self.at(
                    span,
                    "generator.tests.name",
                    format!(
                        "test name `{}` must be a path under data/ starting with sample/ or secret/",
                        test.name
                    ),
                ));
            }
            tests.push(GeneratedTest {
                name: test.name,
                args: test.args,
            });
        }
        Ok((program, tests))
    }

    /// A `[[solution]]`: a program, or on an output-only problem a folder
    /// of answer files.
    fn solution(
        &self,
        solution: toml::Spanned<RawSolution>,
        output_only: bool,
    ) -> Result<SolutionSpec, SpecError> {
        let span = solution.span();
        let solution = solution.into_inner();
        let program = match (output_only, solution.bin, solution.file) {
            (true, None, Some(file)) => ProgramRef::Answers {
                name: file.display().to_string(),
                path: self.dir.join(file),
                submitted: false,
            },
            (true, ..) => {
                return Err(self.at(
                    span,
                    "solution",
                    "an output-only problem's solution is a folder of answer files: give `file = \"<folder>\"`".into(),
                ));
            }
            (false, bin, file) => program_ref(bin, file, self.dir)
                .map_err(|error| self.at(span, "solution", error.to_string()))?,
        };
        Ok(SolutionSpec {
            program,
            expect: solution.expect,
            score: solution.score,
            package_submission: None,
        })
    }
}

/// Why a program table names no program.
#[derive(Debug, thiserror::Error)]
enum ProgramRefError {
    #[error("give either `bin` or `file`, not both")]
    Both,
    #[error("needs `bin = \"<workspace binary>\"` or `file = \"<source path>\"`")]
    Neither,
}

fn program_ref(
    bin: Option<String>,
    file: Option<PathBuf>,
    dir: &Path,
) -> Result<ProgramRef, ProgramRefError> {
    match (bin, file) {
        (Some(bin), None) if !bin.is_empty() => Ok(ProgramRef::Bin(bin)),
        (None, Some(file)) => Ok(ProgramRef::File(dir.join(file))),
        (Some(_), Some(_)) => Err(ProgramRefError::Both),
        _ => Err(ProgramRefError::Neither),
    }
}
