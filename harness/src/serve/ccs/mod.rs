//! The ICPC CCS Contest API, so that ICPC tools (the resolver, the CDS,
//! balloon and presentation clients, a shadowing CCS) read a session as
//! it happens: both released versions at once, 2023-06 under `/api/` and
//! 2026-01 under `/api/2026-01/`, each as its official JSON schemas have
//! it; the streaming event feed; HTTP basic auth; and the contest package.
//!
//! ```text
//! request ─► endpoints (version, audience) ─► view (store read once)
//!                                               ├─ results: submissions, judgements, runs, clarifications
//!                                               └─ board: scoreboard, awards
//! event-feed ─► feed (one log per version and audience, diffed views) ─► NDJSON stream
//! ```
//!
//! Files: `versions` (where 2023-06 and 2026-01 differ), `objects` (the
//! serde types), `access` (roles, kinds, what each sees), `view`,
//! `results` and `board` (objects from the store), `feed`, `auth` (basic
//! auth), `post` (clarifications sent through the API), `package` (the
//! contest package), `reply` (JSON answers and errors), `endpoints`.

mod access;
mod auth;
mod board;
mod endpoints;
mod feed;
mod objects;
mod package;
pub(crate) use package::zip_of;
mod post;
mod reply;
mod results;
mod versions;
mod view;

pub(crate) use auth::{BasicChecked, Refusal};
pub(crate) use endpoints::{Ccs, router};
pub(crate) use package::export;
