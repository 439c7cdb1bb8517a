//! `judge generate`: a problem setter writes the generated inputs and the
//! answers (by the package's answers program, else its reference).

use std::io::Write;
use std::path::Path;

use super::super::Context;
use crate::checks::{built_or_message, run_tool};
use crate::errors::{Error, Result};
use crate::spec;
use crate::verdict::Verdict;

fn io(source: std::io::Error) -> Error {
    Error::Report {
        what: "the output".into(),
        source,
    }
}

fn package_error<E: std::fmt::Display>(id: &str) -> impl Fn(E) -> Error + '_ {
    move |message| crate::spec::SpecError::Package(format!("{id}: {message}")).into()
}

pub(in crate::commands) fn generate(ctx: &mut Context, ids: &[String]) -> Result<u8> {
    let mut ok = true;
    for id in ids {
        // Answers may be missing still: writing them is what this is for.
        let dir = ctx.problems_dir().join(id);
        // A package whose tests BAPCtools' generators.yaml describes.
        if dir.join("generators/generators.yaml").is_file() {
            let (mut means, out, styles) = ctx.means_and_out();
            ok &= crate::checks::generate(&mut means, out, styles, &dir, id)?;
            continue;
        }
        if !dir.join("problem.toml").is_file() {
            return Err(crate::spec::SpecError::UnknownProblem {
                id: id.clone(),
                dir: ctx.problems_dir(),
            }
            .into());
        }
        let problem = spec::load_problem_for_answers(&dir)?;
        ctx.builder.build_workspace(&problem.programs())?;
        let mut written = 0;
        if let Some((generator, tests)) = &problem.generator {
            let exe = built_or_message(ctx.builder.build(generator), "generator")
                .map_err(package_error(id))?;
            for test in tests {
                let bytes = run_tool(
                    &*ctx.boxes,
                    ctx.scratch.path(),
                    &exe.with_args(&test.args),
                    None,
                )
                .map_err(package_error(id))?;
                let path = problem.dir.join("data").join(format!("{}.in", test.name));
                write_file(&path, &bytes)?;
                written += 1;
            }
        }
        // The answers come from the package's answers program, else from the
        // reference: the first solution that must be AC.
        let problem = spec::load_problem_for_answers(&problem.dir)?;
        let (author, exe) = match &problem.answers {
            Some(answers) => (
                answers.program.display_name(),
                built_or_message(ctx.builder.build(&answers.program), "answers program")
                    .map_err(package_error(id))?
                    .with_args(&answers.args),
            ),
            None => {
                let Some(reference) = problem
                    .solutions
                    .iter()
                    .find(|s| s.expect == [Verdict::Accepted])
                else {
                    return Err(package_error(id)(
                        "no [[solution]] with expect = \"AC\" and no [answers] to write answers with",
                    ));
                };
                (
                    reference.program.display_name(),
                    built_or_message(ctx.builder.build(&reference.program), "reference")
                        .map_err(package_error(id))?,
                )
            }
        };
        let mut answers = 0;
        for test in problem.tests.iter().filter(|t| !t.is_sample()) {
            match run_tool(&*ctx.boxes, ctx.scratch.path(), &exe, Some(&test.input)) {
                Ok(bytes) => {
                    write_file(&test.answer, &bytes)?;
                    answers += 1;
                }
                Err(message) => {
                    ok = false;
                    writeln!(
                        ctx.out,
                        "{} {}: {message}",
                        ctx.styles.bad(&format!("{author} failed on")),
                        test.name
                    )
                    .map_err(io)?;
                }
            }
        }
        writeln!(
            ctx.out,
            "{id}: {written} inputs generated, {answers} answers written by {author}"
        )
        .map_err(io)?;
    }
    Ok(ctx.exit_code(ok))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| Error::Report {
            what: parent.display().to_string(),
            source,
        })?;
    }
    std::fs::write(path, bytes).map_err(|source| Error::Report {
        what: path.display().to_string(),
        source,
    })
}
