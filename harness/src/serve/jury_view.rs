//! What the jury sees beside a submission's tests (DOMjudge's jury view
//! is the model): every judging of it, old verdicts kept; what changed
//! since the participant's previous submission of the problem; each
//! test's input and answer (the start of each shown, the whole to
//! download).

use std::io::Read;

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::app::AppState;
use super::error::AppError;
use super::http::Jury;
use crate::store::entries::{self, Entry, Filter};

/// How much of a test's file the page shows.
const SHOWN_BYTES: usize = 2048;

/// A judging as the jury's list shows it.
pub(crate) struct JudgingRow {
    pub(crate) id: i64,
    pub(crate) started: String,
    pub(crate) finished: String,
    pub(crate) verdict: String,
    /// Superseded by a later judging (a rejudge).
    pub(crate) replaced: bool,
}

/// A test's files as the jury's page shows them.
pub(crate) struct TestData {
    pub(crate) name: String,
    pub(crate) input_url: String,
    pub(crate) answer_url: String,
    pub(crate) input: String,
    pub(crate) answer: String,
}

/// What the jury sees beside a submission.
pub(crate) struct JuryView {
    pub(crate) judgings: Vec<JudgingRow>,
    /// The participant's previous submission of the problem and the
    /// unified diff from its source to this one.
    pub(crate) previous: Option<(i64, String)>,
    pub(crate) tests: Vec<TestData>,
}

/// The start of the file at `path`, as text shown safely.
fn head(path: &std::path::Path) -> String {
    let mut bytes = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| f.take(SHOWN_BYTES as u64 + 1).read_to_end(&mut bytes));
    if read.is_err() {
        return "(not readable)".into();
    }
    let cut = bytes.len() > SHOWN_BYTES;
    bytes.truncate(SHOWN_BYTES);
    let mut shown = crate::escape::visible_bytes(&bytes);
    if cut {
        shown.push_str("\n…");
    }
    shown
}

/// The jury's view of `entry`, whose source is `source`.
pub(crate) fn jury_view(
    app: &AppState,
    entry: &Entry,
    source: &[u8],
) -> Result<JuryView, AppError> {
    let (judgings, earlier) = {
        let mut store = app.store();
        let judgings = crate::store::judgings::judgings_of(store.db(), entry.id)?;
        let filter = Filter {
            account: Some(entry.account),
            problem: Some(entry.problem.clone()),
            ..Filter::default()
        };
        let earlier = entries::entries(store.db(), app.ids.session, &filter, 1000)?
            .into_iter()
            .find(|e| e.id < entry.id);
        let earlier = match earlier {
            Some(e) => Some((e.id, entries::source(store.db(), e.id)?)),
            None => None,
        };
        (judgings, earlier)
    };
    let latest = judgings.iter().filter(|j| j.valid).map(|j| j.id).max();
    let judgings = judgings
        .iter()
        .map(|j| JudgingRow {
            id: j.id,
            started: j.started_at.clone(),
            finished: j.finished_at.clone().unwrap_or_else(|| "running".into()),
            verdict: j.verdict.clone().unwrap_or_default(),
            replaced: Some(j.id) != latest,
        })
        .collect();
    let previous = earlier.map(|(id, old)| {
        let (old, new) = (
            String::from_utf8_lossy(&old),
            String::from_utf8_lossy(source),
        );
        let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref())
            .unified_diff()
            .context_radius(3)
            .header(&format!("#{id}"), &format!("#{}", entry.id))
            .to_string();
        (id, crate::escape::visible(&diff))
    });
    let tests = app
        .problem(&entry.problem)
        .map(|p| {
            p.test_files
                .iter()
                .enumerate()
                .map(|(i, t)| TestData {
                    name: crate::escape::name(&t.name),
                    input_url: format!("/jury/problems/{}/tests/{}/input", p.id, i + 1),
                    answer_url: format!("/jury/problems/{}/tests/{}/answer", p.id, i + 1),
                    input: head(&t.input),
                    answer: head(&t.answer),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(JuryView {
        judgings,
        previous,
        tests,
    })
}

/// `GET /jury/problems/ID/tests/N/input|answer`: a test's file, by its
/// number; no part of the URL is ever a path.
pub(crate) async fn test_file(
    State(app): State<AppState>,
    _jury: Jury,
    Path((id, number, kind)): Path<(String, usize, String)>,
) -> Result<Response, AppError> {
    let problem = app.problem(&id).ok_or(AppError::NotFound)?;
    let test = number
        .checked_sub(1)
        .and_then(|i| problem.test_files.get(i))
        .ok_or(AppError::NotFound)?;
    let (path, extension) = match kind.as_str() {
        "input" => (&test.input, "in"),
        "answer" => (&test.answer, "ans"),
        _ => return Err(AppError::NotFound),
    };
    let bytes = std::fs::read(path).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{id}-{number}.{extension}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}
