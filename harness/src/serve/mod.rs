//! `judge serve`: practice sessions and contests, an online judge in one
//! process on the result store. Async at the edge only (STYLE.md §7): axum
//! on tokio serves the pages, the API and the live events; the judge core
//! runs synchronously on a few long-lived std threads fed by a fair queue,
//! through one bridge (`judging.rs`).
//!
//! ```text
//! browser / API ─► routes (guard: headers, login wall) ─► pages | jury | api …
//!      submit ─► db::insert_entry (committed) ─► queue ─► judging (threads)
//!      judging ─► pipeline::Run ─► db::record ─► live ─► events (SSE) ─► browser
//! ```
//!
//! Files, lower ones first (none imports one above it but `start`, which
//! puts them together):
//! - state: `session` (the session file), `accounts` (users, passwords,
//!   logins, tokens, `judge users`), `db` (the server's tables), `queue`
//!   (fair order), `live` (status, published), `games` (the play page's
//!   referees), `problem_page` (a problem as shown), `limits` (tries,
//!   back-off), `passwords` (the bounded hashing threads), `net` (the
//!   connections: timeouts, caps, shutdown), `app` (what every handler
//!   shares);
//! - the web's own: `error` (failures as pages), `http` (who is asking,
//!   from where, the `Jury` extractor, forms checked for CSRF), `access`
//!   (the one access rule: who sees which problem, entry, result,
//!   feedback and scoreboard);
//! - handlers: `pages`, `login`, `account`, `submit`, `play`, `jury`,
//!   `api`, `ccs` (the CCS Contest API, a folder of its own; its basic
//!   auth and its state, which `http` and `app` hold, sit with the web's
//!   own), `events` (SSE), with `feedback` (what a viewer may see
//!   of a result), `scoreboard` and `statement` (Markdown and math);
//! - `routes` (every route, the guard), `judging` (the bridge to the judge
//!   core), `remote` and `notify` (judging by `judge worker`s), `start`
//!   (the verb itself), `client` (`judge submit`).

pub(crate) mod access;
mod account;
mod accounts;
mod api;
mod app;
mod ccs;
mod clarifications;
mod client;
mod error;
mod events;
mod feedback;
mod games;
mod http;
pub(crate) mod judges;
/// What the verbs' test of a judging thread
/// (`commands/tests/serve_judging.rs`) sets the thread up with.
#[cfg(test)]
pub(crate) mod for_tests {
    pub(crate) use super::accounts::create_participant;
    pub(crate) use super::live::Live;
    pub(crate) use super::queue::Queue;
    pub(crate) use super::session::Session;
}
mod jury;
mod jury_view;
mod limits;
mod live;
mod login;
mod net;
mod notify;
mod pages;
mod passwords;
mod play;
mod problem_page;
mod queue;
pub(crate) mod remote;
mod review;
mod routes;
mod scoreboard;
mod session;
mod session_file;
mod start;
mod statement;
mod submit;
mod users_import;

pub(crate) use client::submit;
#[cfg(test)]
pub(crate) use client::{Shown, submit_to};
pub(crate) use start::{Host, Server, export_contest, language_choices, session_of, users};

use crate::errors::Error;
use crate::spec::SpecError;

/// What can stop the server or its commands.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    #[error("the result store: {0}")]
    Db(#[from] crate::store::DbError),
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Judge(#[from] Error),
    #[error("failed to {what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("failed to hash a password: {0}")]
    Password(String),
    #[error("{0}")]
    Usage(String),
}

impl From<ServeError> for Error {
    fn from(error: ServeError) -> Error {
        match error {
            ServeError::Spec(e) => Error::Spec(e),
            ServeError::Judge(e) => e,
            ServeError::Usage(m) => Error::Usage(m),
            ServeError::Io { what, source } => Error::Report { what, source },
            other => Error::Report {
                what: "judge serve".into(),
                source: std::io::Error::other(other.to_string()),
            },
        }
    }
}
