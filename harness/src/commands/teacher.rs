//! `judge report`'s files for the students and the school: feedback pages,
//! and the Moodle, Canvas and Gradescope exports.

use std::io::Write;
use std::path::Path;

use super::Context;
use crate::cli::TeacherArgs;
use crate::errors::{Error, Result};
use crate::report::feedback::{self, Rules};
use crate::report::gradebook::Gradebook;
use crate::report::lms::{self, Export};
use crate::report::policy::Policy;
use crate::report::roster::SchoolRoster;

fn failed(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Report {
        what: path.display().to_string(),
        source,
    }
}

/// Writes what `args` asks for from `book`, under `policy` (or, without
/// one, every problem worth 1 when solved).
pub(super) fn write(
    ctx: &mut Context,
    book: &Gradebook,
    policy: Option<&Policy>,
    args: &TeacherArgs,
) -> Result<()> {
    let wants_lms = args.moodle.is_some() || args.canvas.is_some() || args.gradescope.is_some();
    if args.feedback.is_none() && !wants_lms {
        return Ok(());
    }
    let roster = args.roster.as_deref().map(SchoolRoster::load).transpose()?;
    let default = Policy::default();
    if policy.is_none() && wants_lms {
        eprintln!("note: no grading policy (--policy): the grade is the number of problems solved");
    }
    let policy = policy.unwrap_or(&default);
    let totals = policy.apply(book);
    let rules = Rules {
        samples: args.samples,
        secret: args.secret,
    };
    let pages = feedback::build(book, Some(policy), Some(&totals), rules);
    if let Some(dir) = &args.feedback {
        let written = feedback::write_all(dir, &pages).map_err(failed(dir))?;
        writeln!(
            ctx.out,
            "feedback: {} students in {}",
            written.len(),
            dir.display()
        )
        .map_err(failed(Path::new("the output")))?;
    }
    let Some(roster) = &roster else {
        return Ok(());
    };
    let export = Export {
        book,
        policy,
        totals: &totals,
        roster,
        item: &args.item,
    };
    let mut left_out = Vec::new();
    for (path, canvas) in [(&args.moodle, false), (&args.canvas, true)] {
        let Some(path) = path else { continue };
        let mut file = std::fs::File::create(path)
            .map(std::io::BufWriter::new)
            .map_err(failed(path))?;
        left_out = if canvas {
            export.canvas(&mut file)
        } else {
            export.moodle(&mut file)
        }
        .map_err(failed(path))?;
        file.flush().map_err(failed(path))?;
    }
    if let Some(dir) = &args.gradescope {
        left_out = lms::gradescope(dir, &export, &pages).map_err(failed(dir))?;
    }
    for student in &left_out {
        eprintln!(
            "{} {}: not in the roster, left out of the LMS files",
            ctx.styles.bad("warning:"),
            crate::escape::name(student)
        );
    }
    for student in roster.people.keys() {
        if !book.rows.iter().any(|row| &row.student == student) {
            eprintln!(
                "{} {}: in the roster but not graded",
                ctx.styles.bad("warning:"),
                crate::escape::name(student)
            );
        }
    }
    Ok(())
}
