//! `judge submit`'s arguments: a client of a server, which judges nothing
//! here, so the judging machine's global options are not its own.

use std::path::PathBuf;

use clap::Args;

#[derive(Debug, Clone, Args)]
pub struct SubmitArgs {
    /// Problem id.
    pub id: String,
    /// The source file.
    pub file: PathBuf,
    /// The server, e.g. http://127.0.0.1:8080 (default: the one logged in to last).
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// The language key (default: guessed by the server from the file name,
    /// else from the source).
    #[arg(long, value_name = "KEY")]
    pub language: Option<String>,
    /// Log in as this user first (the password is read from stdin) and keep
    /// the token in the config file.
    #[arg(long, value_name = "USER")]
    pub user: Option<String>,
    /// The file holding the server and token (default:
    /// $XDG_CONFIG_HOME/judge/submit.toml or ~/.config/judge/submit.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// The global options of the machine that judges (its problems, its
/// threads, its sandbox and languages): `judge submit`, which sends a file
/// to a server to judge, takes none of them and its help lists none.
const JUDGING_OPTIONS: &[&str] = &["root", "jobs", "isolation", "languages", "uid_range"];

/// Hides the judging options from `judge submit`'s help. Clap copies the
/// global options into every subcommand when `command` is built, so it
/// must be built first.
pub(super) fn hide_judging_options(command: &mut clap::Command) {
    if let Some(submit) = command.find_subcommand_mut("submit") {
        // In place: the built command's index of its options stays right.
        *submit = std::mem::take(submit).mut_args(|arg| {
            let judging = JUDGING_OPTIONS.contains(&arg.get_id().as_str());
            arg.hide(judging)
        });
    }
}
