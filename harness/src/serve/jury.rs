//! The jury's pages: every participant, a page per participant, rejudging
//! one submission or every submission of a problem, and the session's
//! gradebook as CSV and as the self-contained web page `judge report
//! --html` writes, and its clarifications as CSV (all read from the
//! store, as `judge report` does).
//! Every submission with filters and its full results are the shared
//! pages (`/submissions`), which show the jury everything.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::access::BoardView;
use super::account::AccountForm;
use super::accounts::{self, TokenInfo};
use super::app::AppState;
use super::error::{AppError, page};
use super::http::{Jury, JuryPosted, csrf_form};
use super::live::LiveEvent;
use super::pages::{EntryView, Nav, board, entry_view, nav};
use super::session::Schedule;
use crate::store::engine::Sql;
use crate::store::entries::{self, Filter};
use crate::verdict::Verdict;

struct ParticipantRow {
    username: String,
    name: String,
    team: String,
    submissions: usize,
    solved: usize,
}

#[derive(Template)]
#[template(path = "serve/jury.html")]
struct JuryTemplate {
    nav: Nav,
    queued: usize,
    run: i64,
    participants: Vec<ParticipantRow>,
    problems: Vec<String>,
    /// A timed session's times as they hold now (RFC 3339; empty in open
    /// practice), and whether the scoreboard is frozen now.
    start: String,
    end: String,
    freeze: String,
    frozen: bool,
    released: String,
    review_form: super::review::ScopeForm,
    reviews: Vec<super::review::ReviewLine>,
}

pub(crate) async fn overview(
    State(app): State<AppState>,
    jury: Jury,
) -> Result<Response, AppError> {
    // The jury's scoreboard (cached) has every participant's solved
    // count; the submissions are counted by the store.
    let solved = board(&app, BoardView::Jury).await?;
    let (people, counts) = {
        let mut store = app.store();
        (
            accounts::accounts(store.db())?,
            entries::entry_counts(store.db(), app.ids.session)?,
        )
    };
    let participants = people
        .iter()
        .filter(|a| !a.is_jury())
        .map(|a| ParticipantRow {
            username: a.username.clone(),
            name: crate::escape::name(&a.display_name),
            team: crate::escape::name(a.team.as_deref().unwrap_or_default()),
            submissions: counts.get(&a.id).copied().unwrap_or(0),
            solved: solved
                .rows
                .iter()
                .find(|r| r.account == a.id)
                .map_or(0, |r| r.solved),
        })
        .collect();
    let text = |t: Option<std::time::SystemTime>| {
        t.map_or_else(String::new, |t| {
            humantime::format_rfc3339_seconds(t).to_string()
        })
    };
    let (start, end, freeze) = match app.session.schedule() {
        Schedule::Timed { start, end, freeze } => {
            (text(Some(start)), text(Some(end)), text(freeze))
        }
        Schedule::OpenEnded => (String::new(), String::new(), String::new()),
    };
    page(&JuryTemplate {
        nav: nav(&app, jury.viewer()),
        queued: app.queue.len(),
        run: app.ids.run,
        participants,
        problems: app.problems.iter().map(|p| p.id.clone()).collect(),
        start,
        end,
        freeze,
        frozen: app
            .session
            .frozen_since(std::time::SystemTime::now())
            .is_some(),
        released: text(app.session.jury_changes().released),
        review_form: super::review::ScopeForm::new(&app, &super::review::StartForm::default())?,
        reviews: super::review::review_lines(&app)?,
    })
}

/// How many problems `entries` solved: those with an accepted entry.
fn solved<'e>(entries: impl IntoIterator<Item = &'e entries::Entry>) -> usize {
    let accepted = entries
        .into_iter()
        .filter(|e| e.verdict == Some(Verdict::Accepted))
        .map(|e| e.problem.as_str());
    accepted.collect::<std::collections::BTreeSet<_>>().len()
}

#[derive(Template)]
#[template(path = "serve/participant.html")]
struct ParticipantTemplate {
    nav: Nav,
    username: String,
    name: String,
    team: String,
    solved: usize,
    entries: Vec<EntryView>,
    disabled: bool,
    logins: usize,
    tokens: Vec<TokenInfo>,
    revoke_action: String,
    /// A password just made, shown once.
    new_password: String,
}

pub(crate) async fn participant(
    State(app): State<AppState>,
    jury: Jury,
    Path(username): Path<String>,
) -> Result<Response, AppError> {
    participant_page(&app, &jury, &username, String::new())
}

fn participant_page(
    app: &AppState,
    jury: &Jury,
    username: &str,
    new_password: String,
) -> Result<Response, AppError> {
    let (account, entries, logins, tokens) = {
        let mut store = app.store();
        let account = accounts::account_named(store.db(), username)?.ok_or(AppError::NotFound)?;
        let filter = Filter {
            account: Some(account.id),
            ..Filter::default()
        };
        let entries = entries::entries(store.db(), app.ids.session, &filter, 10_000)?;
        let logins = accounts::open_logins(store.db(), account.id)?;
        let tokens = accounts::tokens(store.db(), account.id)?;
        (account, entries, logins, tokens)
    };
    page(&ParticipantTemplate {
        nav: nav(app, jury.viewer()),
        solved: solved(&entries),
        entries: entries
            .iter()
            .map(|e| entry_view(app, jury.viewer(), e))
            .collect(),
        revoke_action: format!("/jury/participants/{}/account", account.username),
        username: account.username,
        name: crate::escape::name(&account.display_name),
        team: crate::escape::name(account.team.as_deref().unwrap_or_default()),
        disabled: account.disabled,
        logins,
        tokens,
        new_password,
    })
}

/// `POST /jury/participants/USER/account`: end every login and token of
/// an account, give it a new password (shown once), disable or enable it,
/// or revoke one of its tokens.
pub(crate) async fn account_action(
    State(app): State<AppState>,
    jury: Jury,
    Path(username): Path<String>,
    JuryPosted(posted): JuryPosted<AccountForm>,
) -> Result<Response, AppError> {
    let form = posted.form;
    let mut new_password = String::new();
    {
        let mut store = app.store();
        let account = accounts::account_named(store.db(), &username)?.ok_or(AppError::NotFound)?;
        match form.action.as_str() {
            "revoke" => {
                accounts::end_everything(store.db(), account.id)?;
            }
            "reset" => {
                new_password = accounts::reset_password(store.db(), account.id)
                    .map_err(|e| AppError::Internal(e.to_string()))?;
            }
            "disable" | "enable" => {
                accounts::set_disabled(store.db(), account.id, form.action == "disable")?;
            }
            "revoke-token" => {
                accounts::revoke_token(store.db(), account.id, &form.token)?;
            }
            _ => {
                return Err(AppError::BadRequest(
                    "an action: revoke, reset, disable, enable".into(),
                ));
            }
        }
    }
    if new_password.is_empty() {
        return Ok(Redirect::to(&format!("/jury/participants/{username}")).into_response());
    }
    participant_page(&app, &jury, &username, new_password)
}

#[derive(Deserialize)]
pub(crate) struct SessionForm {
    csrf: String,
    action: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    end: String,
    #[serde(default)]
    freeze: String,
}

csrf_form!(SessionForm);

/// `POST /jury/session`: the jury moves a timed session's start, end or
/// freeze (RFC 3339 times; an empty freeze: none), or releases the frozen
/// scoreboard to everybody now. Kept in the store: a restart keeps it.
pub(crate) async fn session(
    State(app): State<AppState>,
    JuryPosted(posted): JuryPosted<SessionForm>,
) -> Result<Response, AppError> {
    let form = posted.form;
    let mut changes = app.session.jury_changes();
    match form.action.as_str() {
        "release" => changes.released = Some(std::time::SystemTime::now()),
        "times" => changes.schedule = Some(times(&form)?),
        _ => return Err(AppError::BadRequest("an action: times or release".into())),
    }
    crate::store::sessions::keep_times(app.store().db(), app.ids.session, &changes.to_set())?;
    app.session.change(changes);
    Ok(Redirect::to("/jury").into_response())
}

/// A timed schedule from the jury's form, checked: the start before the
/// end, a freeze between them.
fn times(form: &SessionForm) -> Result<Schedule, AppError> {
    let parse = |name: &str, text: &str| jury_time(name, text).map_err(AppError::BadRequest);
    let start = parse("start", &form.start)?;
    let end = parse("end", &form.end)?;
    let freeze = match form.freeze.trim() {
        "" => None,
        text => Some(parse("freeze", text)?),
    };
    if start >= end {
        return Err(AppError::BadRequest(
            "the start must come before the end".into(),
        ));
    }
    if freeze.is_some_and(|f| f < start || f > end) {
        return Err(AppError::BadRequest(
            "the freeze must fall between the start and the end".into(),
        ));
    }
    Ok(Schedule::Timed { start, end, freeze })
}

/// A time from one of the jury's forms, field `name`: RFC 3339 in UTC
/// (the `Z` may be left out), or as a browser's date-time input sends it
/// (no seconds).
pub(crate) fn jury_time(name: &str, text: &str) -> Result<std::time::SystemTime, String> {
    let text = text.trim();
    let minutes_only = text.len() == "2026-05-01T09:00".len();
    let full = if minutes_only {
        format!("{text}:00")
    } else {
        text.to_string()
    };
    humantime::parse_rfc3339_weak(&full)
        .map_err(|_| format!("{name}: a time like 2026-05-01T09:00:00Z (UTC)"))
}

#[derive(Deserialize)]
pub(crate) struct RejudgeForm {
    csrf: String,
    entry: Option<i64>,
    problem: Option<String>,
}

csrf_form!(RejudgeForm);

/// Queues judged submissions again: one, or every one of a problem.
/// Their earlier result stands until the new one is recorded.
pub(crate) async fn rejudge(
    State(app): State<AppState>,
    JuryPosted(posted): JuryPosted<RejudgeForm>,
) -> Result<Response, AppError> {
    let form = posted.form;
    let (ids, back) = match (form.entry, &form.problem) {
        (Some(entry), _) => (vec![entry], format!("/submissions/{entry}")),
        (None, Some(problem)) if app.problem(problem).is_some() => {
            let filter = Filter {
                problem: Some(problem.clone()),
                ..Filter::default()
            };
            let entries =
                entries::entries(app.store().db(), app.ids.session, &filter, usize::MAX >> 1)?;
            (
                entries.iter().rev().map(|e| e.id).collect(),
                format!("/submissions?problem={problem}"),
            )
        }
        _ => {
            return Err(AppError::BadRequest(
                "rejudge what: an entry or a problem".into(),
            ));
        }
    };
    let queued = entries::requeue(app.store().db(), app.ids.session, &ids)?;
    for (entry, account) in queued {
        app.queue.push(entry, account);
        let problem = app
            .store()
            .db()
            .query_one(
                "SELECT problem FROM entries WHERE id = ?1",
                crate::store::value::params![entry],
            )
            .and_then(|row| row.get(0))
            .unwrap_or_default();
        app.live.publish(LiveEvent {
            entry,
            account,
            submitted_at: std::time::SystemTime::now(),
            problem,
            status: super::live::QUEUED.into(),
            verdict: None,
        });
    }
    Ok(Redirect::to(&back).into_response())
}

/// The session's gradebook from the store, as `judge report` reads it.
fn gradebook(app: &AppState) -> Result<crate::report::gradebook::Gradebook, AppError> {
    app.store()
        .gradebook(app.ids.run)
        .map_err(|e| AppError::Internal(e.to_string()))
}

/// Which file the gradebook is exported as.
#[derive(Clone, Copy)]
pub(crate) enum Export {
    Csv,
    Html,
}

/// `GET /jury/gradebook.csv` and `.html`: a download. The web page is
/// self-contained with its own inline script and style, so it is a file to
/// open, never shown under this site's origin and its policy.
pub(crate) async fn gradebook_file(
    State(app): State<AppState>,
    _jury: Jury,
    export: Export,
) -> Result<Response, AppError> {
    let book = gradebook(&app)?;
    let mut out = Vec::new();
    let (written, kind, extension) = match export {
        Export::Csv => (
            crate::report::csv::write(&mut out, &book, None),
            "text/csv; charset=utf-8",
            "csv",
        ),
        Export::Html => (
            crate::report::html::write(&mut out, &book, None),
            "text/html; charset=utf-8",
            "html",
        ),
    };
    written.map_err(|e| AppError::Internal(e.to_string()))?;
    let name = format!(
        "attachment; filename=\"{}-gradebook.{extension}\"",
        app.session.name
    );
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, name),
        ],
        out,
    )
        .into_response())
}

/// `GET /jury/clarifications.csv`: every question, answer and
/// announcement of the session, as `judge report` writes them beside the
/// gradebook.
pub(crate) async fn clarifications_file(
    State(app): State<AppState>,
    _jury: Jury,
) -> Result<Response, AppError> {
    let lines = crate::store::clarifications::archive(app.store().db(), app.ids.run)?;
    let mut out = Vec::new();
    crate::report::clarifications::write_csv(&mut out, &lines)
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let name = format!(
        "attachment; filename=\"{}-clarifications.csv\"",
        app.session.name
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, name),
        ],
        out,
    )
        .into_response())
}

/// `GET /jury/sources.zip`: every source of the session, one archive, a
/// folder per participant (`alice/12-sum-sum.py`: the submission's number,
/// its problem and its file's name, made safe).
pub(crate) async fn sources(
    State(app): State<AppState>,
    _jury: Jury,
) -> Result<Response, AppError> {
    let files = {
        let mut store = app.store();
        let all = entries::all_entries(store.db(), app.ids.session)?;
        let mut files = Vec::with_capacity(all.len());
        for entry in all {
            let source = entries::source(store.db(), entry.id)?;
            let safe = |text: &str| -> String {
                text.chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || "._-".contains(c) {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect()
            };
            let name = format!(
                "{}/{}-{}-{}",
                safe(&entry.username),
                entry.id,
                safe(&entry.problem),
                safe(&entry.file_name).trim_start_matches('.')
            );
            files.push((name, source));
        }
        files
    };
    let named: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let zip = super::ccs::zip_of(&named).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}-sources.zip\"", app.session.name),
            ),
        ],
        zip,
    )
        .into_response())
}

struct WorkerView {
    name: String,
    machine: String,
    state: String,
    threads: usize,
    running: i64,
    judged: i64,
    refused: i64,
    heard: String,
    isolation: String,
    judge_version: String,
}

#[derive(Template)]
#[template(path = "serve/workers.html")]
struct WorkersTemplate {
    nav: Nav,
    workers: Vec<WorkerView>,
}

/// `GET /jury/workers`: the store's `judge worker`s, as `judge workers`
/// lists them.
pub(crate) async fn workers(State(app): State<AppState>, jury: Jury) -> Result<Response, AppError> {
    let rows = crate::store::queue::workers(app.store().db())?;
    let workers = rows
        .into_iter()
        .map(|row| WorkerView {
            name: crate::escape::name(&row.info.name),
            machine: crate::escape::name(&row.info.machine),
            state: row.state,
            threads: row.info.threads,
            running: row.running,
            judged: row.judged,
            refused: row.refused,
            heard: format!("{:.1} s ago", row.silent_ms.max(0) as f64 / 1000.0),
            isolation: crate::escape::name(&row.info.isolation),
            judge_version: crate::escape::name(&row.info.judge_version),
        })
        .collect();
    page(&WorkersTemplate {
        nav: nav(&app, jury.viewer()),
        workers,
    })
}

#[cfg(test)]
mod tests {
    use super::jury_time;

    #[test]
    fn a_jury_time_is_utc_with_or_without_its_zone_and_seconds() {
        let noon = humantime::parse_rfc3339("2026-05-01T12:00:00Z").unwrap();
        for text in [
            "2026-05-01T12:00:00Z",
            "2026-05-01T12:00:00",
            "2026-05-01T12:00",
            " 2026-05-01 12:00:00 ",
        ] {
            assert_eq!(jury_time("since", text), Ok(noon), "{text}");
        }
        assert_eq!(
            jury_time("since", "noon").unwrap_err(),
            "since: a time like 2026-05-01T09:00:00Z (UTC)"
        );
    }
}
