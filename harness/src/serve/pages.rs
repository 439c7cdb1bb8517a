//! The participant's pages: server-rendered HTML (askama templates under
//! `harness/templates/serve/`, auto-escaped) that works without
//! JavaScript: problems with their status, statements with samples,
//! my submissions, one submission, the scoreboard (submitting is
//! `submit.rs`, logging in `login.rs`).

use std::sync::Arc;
use std::time::SystemTime;

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::access::{Access, BoardView};
use super::accounts;
use super::app::{AppState, LanguageChoice};
use super::error::{AppError, page};
use super::feedback::{self, FeedbackView};
use super::http::Viewer;
use super::problem_page::ProblemPage;
use super::scoreboard::{self, Scoreboard};
use super::session::Schedule;
use crate::escape::visible;
use crate::store::entries::{self, Entry, Filter, Status};

/// What the header of every page shows.
pub(crate) struct Nav {
    pub(crate) title: String,
    pub(crate) logged_in: bool,
    pub(crate) jury: bool,
    pub(crate) name: String,
    pub(crate) csrf: String,
    pub(crate) clock: String,
    /// A timed session's start and end (RFC 3339), for the ticking clock
    /// and contest times; empty in open practice.
    pub(crate) start: String,
    pub(crate) end: String,
}

pub(crate) fn nav(app: &AppState, viewer: &Viewer) -> Nav {
    let now = SystemTime::now();
    let clock = match app.session.schedule() {
        Schedule::OpenEnded => "practice".into(),
        Schedule::Timed { start, end, .. } => {
            let minutes = |d: std::time::Duration| {
                let m = d.as_secs() / 60;
                format!("{}:{:02}", m / 60, m % 60)
            };
            if now < start {
                format!(
                    "starts in {}",
                    minutes(start.duration_since(now).unwrap_or_default())
                )
            } else if now < end {
                format!(
                    "{} left",
                    minutes(end.duration_since(now).unwrap_or_default())
                )
            } else {
                "ended".into()
            }
        }
    };
    Nav {
        title: app.session.title.clone(),
        logged_in: viewer.login.is_some(),
        jury: viewer.is_jury(),
        name: viewer
            .account()
            .map(|a| crate::escape::name(&a.display_name))
            .unwrap_or_default(),
        csrf: viewer
            .login
            .as_ref()
            .map(|l| l.csrf.clone())
            .unwrap_or_default(),
        clock,
        start: app.session.start().map_or_else(String::new, |t| {
            humantime::format_rfc3339_seconds(t).to_string()
        }),
        end: app.session.end().map_or_else(String::new, |t| {
            humantime::format_rfc3339_seconds(t).to_string()
        }),
    }
}

/// A submission as a list row shows it.
pub(crate) struct EntryView {
    pub(crate) id: i64,
    pub(crate) time: String,
    pub(crate) user: String,
    pub(crate) problem: String,
    pub(crate) language: String,
    pub(crate) file_name: String,
    pub(crate) status: String,
    pub(crate) status_class: String,
}

/// `entry` as a list row shows it to `viewer` (its live progress as the
/// access rule allows).
pub(crate) fn entry_view(app: &AppState, viewer: &Viewer, entry: &Entry) -> EntryView {
    let standing = Access::new(&app.session, viewer).standing(entry, app.live.progress(entry.id));
    let status_class = match &standing {
        super::access::Standing::Judged(v) => format!("v-{}", v.short()),
        _ => String::new(),
    };
    let status = standing.text();
    EntryView {
        id: entry.id,
        time: humantime::format_rfc3339_seconds(entry.submitted_at).to_string(),
        user: crate::escape::name(&format!("{} ({})", entry.display_name, entry.username)),
        problem: entry.problem.clone(),
        language: entry.language.clone(),
        file_name: crate::escape::name(&entry.file_name),
        status_class,
        status,
    }
}

struct ProblemRow<'a> {
    id: &'a str,
    title: &'a str,
    limits: &'a str,
    status: &'static str,
    status_class: &'static str,
}

#[derive(Template)]
#[template(path = "serve/problems.html")]
struct ProblemsTemplate<'a> {
    nav: Nav,
    problems: Vec<ProblemRow<'a>>,
    /// Before the start: when it starts (and no problem is listed).
    starts: String,
}

pub(crate) async fn home(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Response, AppError> {
    if !Access::new(&app.session, &viewer).sees_problems() {
        let starts = app.session.start().map_or_else(String::new, |start| {
            humantime::format_rfc3339_seconds(start).to_string()
        });
        return page(&ProblemsTemplate {
            nav: nav(&app, &viewer),
            problems: Vec::new(),
            starts,
        });
    }
    let mine = match viewer.account() {
        Some(account) => entries::entries(
            app.store().db(),
            app.ids.session,
            &Filter {
                account: Some(account.id),
                ..Filter::default()
            },
            10_000,
        )?,
        None => Vec::new(),
    };
    let problems = app
        .problems
        .iter()
        .map(|p| {
            let tried: Vec<&Entry> = mine.iter().filter(|e| e.problem == p.id).collect();
            let solved = tried
                .iter()
                .any(|e| e.verdict == Some(crate::verdict::Verdict::Accepted));
            let (status, status_class) = match (solved, tried.is_empty()) {
                (true, _) => ("solved", "v-AC"),
                (false, false) => ("tried", "v-WA"),
                (false, true) => ("", ""),
            };
            ProblemRow {
                id: &p.id,
                title: &p.title,
                limits: &p.limits,
                status,
                status_class,
            }
        })
        .collect();
    page(&ProblemsTemplate {
        nav: nav(&app, &viewer),
        problems,
        starts: String::new(),
    })
}

#[derive(Template)]
#[template(path = "serve/problem.html")]
struct ProblemTemplate<'a> {
    nav: Nav,
    problem: &'a ProblemPage,
    languages: &'a [LanguageChoice],
    open: bool,
    playable: bool,
    /// A refused submission's pasted source, language and why: the form
    /// comes back as it was sent, with the message.
    pasted: &'a str,
    chosen: &'a str,
    error: &'a str,
}

pub(crate) async fn problem(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    let problem = Access::new(&app.session, &viewer).problem(app.problem(&id))?;
    problem_page(&app, &viewer, problem, &Refused::default())
}

#[derive(Template)]
#[template(path = "serve/problemset.html")]
struct ProblemSetTemplate<'a> {
    nav: Nav,
    problems: Vec<(String, &'a ProblemPage)>,
}

/// `GET /problems/all`: every statement of the session on one page, with
/// its samples, to read or to print (its own print stylesheet: one
/// problem a sheet, no menu).
pub(crate) async fn problem_set(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Response, AppError> {
    if !Access::new(&app.session, &viewer).sees_problems() {
        return Err(AppError::NotFound);
    }
    let columns = columns(&app);
    page(&ProblemSetTemplate {
        nav: nav(&app, &viewer),
        problems: columns
            .into_iter()
            .zip(&app.problems)
            .map(|(c, p)| (c.letter, p))
            .collect(),
    })
}

/// A submission the form sent back: its pasted source, its language and
/// why it was refused.
#[derive(Default)]
pub(crate) struct Refused {
    pub(crate) pasted: String,
    pub(crate) chosen: String,
    pub(crate) error: String,
}

/// A problem's page, with the submit form as `refused` left it.
pub(crate) fn problem_page(
    app: &AppState,
    viewer: &Viewer,
    problem: &ProblemPage,
    refused: &Refused,
) -> Result<Response, AppError> {
    let access = Access::new(&app.session, viewer);
    page(&ProblemTemplate {
        nav: nav(app, viewer),
        problem,
        languages: &app.languages,
        open: access.may_submit(),
        playable: access.may_play(problem),
        pasted: &refused.pasted,
        chosen: &refused.chosen,
        error: &refused.error,
    })
}

/// `GET /problems/ID/samples/N.in|N.ans`: a sample by its number; no
/// part of the URL is ever a path.
pub(crate) async fn sample(
    State(app): State<AppState>,
    viewer: Viewer,
    Path((id, file)): Path<(String, String)>,
) -> Result<Response, AppError> {
    let problem = Access::new(&app.session, &viewer).problem(app.problem(&id))?;
    let (number, kind) = file.split_once('.').ok_or(AppError::NotFound)?;
    let index = number
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .ok_or(AppError::NotFound)?;
    let sample = problem.samples.get(index).ok_or(AppError::NotFound)?;
    let body = match kind {
        "in" => sample.input_bytes.clone(),
        "ans" => sample.answer_bytes.clone(),
        "interaction" if sample.interaction => sample.log_bytes.clone(),
        _ => return Err(AppError::NotFound),
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"{}-{}.{kind}\"",
                    problem.id,
                    index + 1
                ),
            ),
        ],
        body,
    )
        .into_response())
}

#[derive(Deserialize, Default)]
pub(crate) struct ListQuery {
    problem: Option<String>,
    user: Option<String>,
    verdict: Option<String>,
}

#[derive(Template)]
#[template(path = "serve/submissions.html")]
struct SubmissionsTemplate {
    nav: Nav,
    entries: Vec<EntryView>,
    filter_problem: String,
    filter_user: String,
    filter_verdict: String,
}

pub(crate) async fn submissions(
    State(app): State<AppState>,
    viewer: Viewer,
    Query(query): Query<ListQuery>,
) -> Result<Response, AppError> {
    let login = viewer.require()?;
    let jury = login.account.is_jury();
    let nonempty = |s: &Option<String>| s.clone().filter(|s| !s.is_empty());
    let entries = {
        let mut store = app.store();
        let account = if jury {
            match nonempty(&query.user) {
                Some(user) => {
                    Some(accounts::account_named(store.db(), &user)?.map_or(-1, |a| a.id))
                }
                None => None,
            }
        } else {
            Some(login.account.id)
        };
        let filter = Filter {
            account,
            problem: nonempty(&query.problem),
            verdict: nonempty(&query.verdict).map(|v| v.to_ascii_uppercase()),
            ..Filter::default()
        };
        entries::entries(store.db(), app.ids.session, &filter, 500)?
    };
    page(&SubmissionsTemplate {
        nav: nav(&app, &viewer),
        entries: entries
            .iter()
            .map(|e| entry_view(&app, &viewer, e))
            .collect(),
        filter_problem: query.problem.unwrap_or_default(),
        filter_user: query.user.unwrap_or_default(),
        filter_verdict: query.verdict.unwrap_or_default(),
    })
}

#[derive(Template)]
#[template(path = "serve/submission.html")]
struct SubmissionTemplate {
    nav: Nav,
    entry: EntryView,
    feedback: Option<FeedbackView>,
    source: String,
    /// The jury's: the judgings, the change since the previous
    /// submission, the tests' files.
    jury: Option<super::jury_view::JuryView>,
}

/// An entry the viewer may see (the access rule: their own, or any for
/// the jury); anything else does not exist for them (404, never 403).
pub(crate) fn visible_entry(app: &AppState, viewer: &Viewer, id: i64) -> Result<Entry, AppError> {
    viewer.require()?;
    let entry = entries::entry(app.store().db(), app.ids.session, id)?;
    Access::new(&app.session, viewer).entry(entry)
}

/// A judged entry's report as `viewer` may see it.
pub(crate) fn feedback_for(
    app: &AppState,
    viewer: &Viewer,
    entry: &Entry,
) -> Result<Option<FeedbackView>, AppError> {
    let Some(submission) = entry.submission.filter(|_| entry.status == Status::Judged) else {
        return Ok(None);
    };
    let report = entries::report(app.store().db(), submission, entry.id)?;
    let level = Access::new(&app.session, viewer).feedback();
    Ok(Some(feedback::view(&report, level)))
}

pub(crate) async fn submission(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let entry = visible_entry(&app, &viewer, id)?;
    let feedback = feedback_for(&app, &viewer, &entry)?;
    let source = entries::source(app.store().db(), entry.id)?;
    let jury = match viewer.is_jury() {
        true => Some(super::jury_view::jury_view(&app, &entry, &source)?),
        false => None,
    };
    page(&SubmissionTemplate {
        nav: nav(&app, &viewer),
        entry: entry_view(&app, &viewer, &entry),
        feedback,
        source: visible(&String::from_utf8_lossy(&source)),
        jury,
    })
}

/// A problem's column of the scoreboard: its letter, linking to it, and
/// its title.
pub(crate) struct Column {
    pub(crate) id: String,
    pub(crate) letter: String,
    pub(crate) title: String,
}

/// The letter of the `n`th problem (0-based): A to Z, then AA, AB, ...
fn letter(n: usize) -> String {
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if n < 26 {
        (letters[n] as char).to_string()
    } else {
        format!("{}{}", letter(n / 26 - 1), letters[n % 26] as char)
    }
}

/// The scoreboard's columns: the session's problems in order.
pub(crate) fn columns(app: &AppState) -> Vec<Column> {
    app.problems
        .iter()
        .enumerate()
        .map(|(n, p)| Column {
            id: p.id.clone(),
            letter: letter(n),
            title: p.title.clone(),
        })
        .collect()
}

#[derive(Template)]
#[template(path = "serve/scoreboard.html")]
struct ScoreboardTemplate {
    nav: Nav,
    columns: Vec<Column>,
    penalty_minutes: u64,
    board: Arc<Scoreboard>,
    frozen: String,
}

/// The scoreboard as `view` shows it: computed once per change, off the
/// server's async threads (a board of many entries takes a while).
pub(crate) async fn board(app: &AppState, view: BoardView) -> Result<Arc<Scoreboard>, AppError> {
    let app = app.clone();
    tokio::task::spawn_blocking(move || {
        let changes = app.live.board_changes();
        app.boards.get(view, changes, || {
            let (people, entries) = {
                let mut store = app.store();
                (
                    accounts::accounts(store.db())?,
                    entries::all_entries(store.db(), app.ids.session)?,
                )
            };
            let problems: Vec<String> = app.problems.iter().map(|p| p.id.clone()).collect();
            Ok(scoreboard::compute(
                &app.session,
                &problems,
                &people,
                &entries,
                view,
            ))
        })
    })
    .await
    .map_err(|e| AppError::Internal(e.to_string()))?
}

/// The scoreboard as `viewer` sees it now.
pub(crate) async fn current_scoreboard(
    app: &AppState,
    viewer: &Viewer,
) -> Result<Arc<Scoreboard>, AppError> {
    board(app, Access::new(&app.session, viewer).board()).await
}

pub(crate) async fn scoreboard(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Response, AppError> {
    let board = current_scoreboard(&app, &viewer).await?;
    let frozen = board.frozen.map_or_else(String::new, |at| {
        format!(
            "Frozen since {}: later submissions show as pending.",
            humantime::format_rfc3339_seconds(at)
        )
    });
    page(&ScoreboardTemplate {
        nav: nav(&app, &viewer),
        columns: columns(&app),
        penalty_minutes: match app.session.scoring {
            super::session::Scoring::Icpc { penalty } => penalty.as_secs() / 60,
            super::session::Scoring::Points => 0,
        },
        board,
        frozen,
    })
}

/// The stylesheet and the live-update script, compiled in.
pub(crate) async fn static_file(Path(file): Path<String>) -> Result<Response, AppError> {
    let (body, kind) = match file.as_str() {
        "style.css" => (
            include_str!("../../static/style.css"),
            "text/css; charset=utf-8",
        ),
        "live.js" => (
            include_str!("../../static/live.js"),
            "text/javascript; charset=utf-8",
        ),
        _ => return Err(AppError::NotFound),
    };
    Ok((
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        body,
    )
        .into_response())
}
