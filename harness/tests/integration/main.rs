//! The integration suite: the real `judge` binary over fixture problems.

mod class;
mod cli;
mod ecosystem;
mod export;
mod games;
mod hostile;
mod interactive;
mod learner;
mod serve;
mod serve_api;
mod serve_browser;
mod serve_play;
mod serve_server;
mod setter;
mod snapshots;
mod strength;
mod stress;
mod support;
mod teacher;
mod trust;
mod trust_paths;
mod trust_runs;
mod verdicts;
