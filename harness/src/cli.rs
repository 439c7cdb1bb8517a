//! The command line (clap derive). Nothing past `commands::run` and its
//! `Context` sees clap types.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    about = "Game Judge: build, run and judge solutions of the problem set"
)]
pub struct Cli {
    /// The folder holding `problems/` (default: the nearest one from here up).
    #[arg(long, global = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Tests run at once (default: the number of cores).
    #[arg(long, short = 'j', global = true, value_name = "N")]
    pub jobs: Option<usize>,
    /// Colour in the output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// How much to contain submissions: everything this machine allows, or
    /// resource limits only.
    #[arg(long, global = true, value_enum, default_value_t = IsolationChoice::Full)]
    pub isolation: IsolationChoice,
    /// An extra language table (default: `languages.toml` beside `problems/`).
    #[arg(long, global = true, value_name = "FILE")]
    pub languages: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum IsolationChoice {
    Full,
    Limits,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the problems with their limits and test counts.
    List,
    /// Check every problem: validators accept all inputs, generators reproduce
    /// them, and every declared solution gets its expected verdict.
    Verify {
        /// Problem ids (default: all).
        ids: Vec<String>,
        /// Run every test even after a solution failed one.
        #[arg(long)]
        all_tests: bool,
        #[command(flatten)]
        reports: ReportArgs,
    },
    /// Run one submission on a problem: samples first, then secret tests.
    Test {
        /// Problem id.
        id: String,
        /// The submission: a source file (.rs, .c, .cpp, .py, ...).
        file: PathBuf,
        /// Stop at the first test that is not accepted.
        #[arg(long)]
        fail_fast: bool,
        #[command(flatten)]
        reports: ReportArgs,
    },
    /// Grade many submissions on a problem and write reports.
    Grade {
        /// Problem id.
        id: String,
        /// Submissions: source files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Stop each submission at its first test that is not accepted.
        #[arg(long)]
        fail_fast: bool,
        #[command(flatten)]
        reports: ReportArgs,
    },
    /// Problem setters: write generated inputs and the reference's answers.
    Generate {
        /// Problem ids.
        #[arg(required = true)]
        ids: Vec<String>,
    },
    /// Play an interactive problem yourself, against its referee.
    Play {
        /// Problem id (an interactive problem).
        id: String,
        /// The test to play (default: the first, a sample).
        #[arg(long)]
        test: Option<String>,
    },
    /// Say which tools and which isolation this machine offers.
    Doctor,
}

#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// Write a JSON report here.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write a JUnit XML report here.
    #[arg(long, value_name = "PATH")]
    pub junit: Option<PathBuf>,
}
