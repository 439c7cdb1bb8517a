//! The command line (clap derive). Nothing past `commands::run` and its
//! `Context` sees clap types.

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

mod submit;

pub use submit::SubmitArgs;

use crate::pipeline::RunOptions;

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
    /// The uids runs may use when the judge is root, one per worker, as
    /// FIRST-LAST (`judge doctor` shows it).
    #[arg(long, global = true, value_name = "FIRST-LAST", default_value_t = crate::sandbox::UidRange::default())]
    pub uid_range: crate::sandbox::UidRange,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// This process's command line, parsed (or clap's message and exit).
    /// Clap copies global options into every subcommand, so they are
    /// hidden from `judge submit` once copied.
    pub fn from_env() -> Cli {
        let mut command = Cli::command();
        command.build();
        submit::hide_judging_options(&mut command);
        let mut matches = command.get_matches_mut();
        Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.format(&mut command).exit())
    }
}

#[derive(Debug, Subcommand)]
pub enum CacheAction {
    /// How many builds the cache holds, their size and its budget.
    Info,
    /// Remove the least recently used builds until the rest fit in `--max`.
    Prune {
        /// What may stay (as `500MiB`, `2GiB`; `0` empties the cache;
        /// default: the cache's budget).
        #[arg(long, value_name = "SIZE")]
        max: Option<bytesize::ByteSize>,
    },
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
        #[command(flatten)]
        store: StoreArgs,
        #[command(flatten)]
        strength: StrengthArgs,
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
        #[command(flatten)]
        learner: LearnerArgs,
    },
    /// Grade many submissions on a problem and write reports; or, with
    /// `--class DIR [ID...]`, a whole class into the result store.
    Grade {
        /// Problem id (with --class or --manifest: the problem ids to grade; default all).
        #[arg(required_unless_present_any = ["class", "manifest"])]
        id: Option<String>,
        /// Submissions: source files.
        #[arg(required_unless_present_any = ["class", "manifest"])]
        files: Vec<PathBuf>,
        /// Stop each submission at its first test that is not accepted.
        #[arg(long)]
        fail_fast: bool,
        #[command(flatten)]
        reports: ReportArgs,
        #[command(flatten)]
        class: ClassArgs,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Render reports of a grading or a session from the result store,
    /// running nothing; the first line says which run it shows.
    Report {
        /// The run to report (default: the latest grading or session).
        #[arg(long, value_name = "ID")]
        run: Option<i64>,
        /// The `judge serve` session to report, by its name (the session
        /// file's `name`, else the file's name; `practice` without one).
        #[arg(long, value_name = "NAME", conflicts_with = "run")]
        session: Option<String>,
        /// List the verdicts that changed since the grading before it.
        #[arg(long)]
        changes: bool,
        #[command(flatten)]
        reports: ReportArgs,
        #[command(flatten)]
        gradebook: GradebookArgs,
        #[command(flatten)]
        teacher: TeacherArgs,
        /// The result store (default: judge.db beside problems/).
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
    /// Combine the stores of a class graded in shards into one.
    Merge {
        /// The shards' stores (the latest run of each is merged).
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The store to merge into (created if missing).
        #[arg(long, value_name = "PATH", required = true)]
        db: PathBuf,
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
    /// The build cache (`target/judge-cache/`): its size, or pruned.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Write a problem as another judge's package: a Kattis problem package
    /// (legacy format, as problemtools' verifyproblem checks it).
    Export {
        /// Problem id.
        id: String,
        /// The folder to write the Kattis package into (its name is the
        /// Kattis short name: lowercase letters and digits).
        #[arg(long, value_name = "DIR", required = true)]
        kattis: PathBuf,
        /// Write into a non-empty DIR, replacing what an export writes there
        /// (problem.yaml, data/, problem_statement/, the validators' and
        /// submissions' folders; anything else stays).
        #[arg(long)]
        force: bool,
    },
    /// Who copied: per problem, pairs of students' files ranked by
    /// similarity (renamed identifiers, reordered functions, comments and
    /// layout set aside), one pair a line, most similar first.
    Similarity(SimilarityArgs),
    /// Find a small input on which a program fails: random inputs from the
    /// package's generator, judged against the reference, the first
    /// failing one shrunk.
    Stress(StressArgs),
    /// Serve a practice session or a contest: an online judge in this
    /// process, on the result store (docs/serve.md).
    Serve(ServeArgs),
    /// The accounts of `judge serve`.
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Send a file to a `judge serve` server and follow it to its verdict.
    Submit(SubmitArgs),
    /// Judge jobs from the store's queue (`grade --class --queue`, `serve
    /// --workers 0`) until stopped (SIGTERM hands the running ones back);
    /// -j sets the threads.
    Worker {
        /// The problems it judges (default: every package of the root).
        ids: Vec<String>,
        /// The store holding the queue (a postgres:// URL, or a file).
        #[arg(long, value_name = "URL")]
        db: PathBuf,
        /// The worker's name in the store (default: machine-pid).
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// Seconds a claimed job stays this worker's without a heartbeat;
        /// after that another worker takes it again.
        #[arg(long, value_name = "SECS", default_value_t = 60.0)]
        lease: f64,
    },
    /// List the store's workers: their state, load and last heartbeat.
    Workers {
        /// The store holding the queue.
        #[arg(long, value_name = "URL")]
        db: PathBuf,
    },
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The session file (default: open-ended practice over every problem).
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// The address to listen on (port 0: any free port, printed).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub bind: std::net::SocketAddr,
    /// The result store (default: judge.db beside problems/).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Judging threads of this server (default: -j). 0: this server only
    /// receives; `judge worker`s judge its submissions through the
    /// store's queue (a PostgreSQL store).
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// A reverse proxy whose `X-Forwarded-For` gives the client's address
    /// (an address or ADDR/BITS; repeatable). Per-address limits are then
    /// per client, not one for everybody behind the proxy.
    #[arg(long, value_name = "ADDR")]
    pub trusted_proxy: Vec<String>,
    /// Open connections from one client address (a class behind one NAT
    /// address without a proxy shares it: raise it there).
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// Open connections in all (kept below the descriptors the process may
    /// open, less a reserve for judging).
    #[arg(long, value_name = "N", default_value_t = 16384)]
    pub max_connections: usize,
    /// Write the session's contest package (the CCS layout: the jury's
    /// view of the contest API, the submissions' files, the event feed)
    /// into DIR and exit, serving nothing (docs/serve.md).
    #[arg(long, value_name = "DIR")]
    pub export_contest: Option<PathBuf>,
}

#[derive(Debug, Clone, Subcommand)]
pub enum UsersCommand {
    /// Create or update accounts from a CSV file (user, display name, team,
    /// role); new accounts' generated passwords are written once to a file.
    Import {
        /// The CSV file, with a header row.
        file: PathBuf,
        /// Where the new passwords go (default: FILE's name with
        /// `-passwords.csv`; never overwritten).
        #[arg(long, value_name = "PATH")]
        passwords: Option<PathBuf>,
        /// New passwords for the accounts that exist already, too.
        #[arg(long)]
        reset_passwords: bool,
        /// The result store (default: judge.db beside problems/).
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
    /// A new password for an account, printed once; every login and API
    /// token of the account ends.
    Reset {
        user: String,
        /// The result store (default: judge.db beside problems/).
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
    /// Disable an account: it can no longer log in, and every login and
    /// API token of it ends (`enable` undoes it).
    Disable {
        user: String,
        /// The result store (default: judge.db beside problems/).
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
    /// Enable a disabled account again.
    Enable {
        user: String,
        /// The result store (default: judge.db beside problems/).
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
    /// End every login and API token of an account (it may log in again).
    Revoke {
        user: String,
        /// The result store (default: judge.db beside problems/).
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
}

impl Command {
    /// Whether the command reads the problem set (else it runs where no
    /// `problems/` folder is, from the store or the files it is given).
    pub fn needs_problems(&self) -> bool {
        !matches!(
            self,
            Command::Report { .. } | Command::Merge { .. } | Command::Similarity(_)
        )
    }
}

#[derive(Debug, Clone, Args)]
pub struct SimilarityArgs {
    /// A class folder: one folder per student, a file per problem named by its id.
    pub class: PathBuf,
    /// The problems to compare (default: every file stem).
    pub ids: Vec<String>,
    /// Starter code given to everybody (a file or a folder): what it holds
    /// raises no pair.
    #[arg(long, value_name = "DIR")]
    pub base: Option<PathBuf>,
    /// List the pairs at least this similar (percent).
    #[arg(long, value_name = "PERCENT", default_value_t = 40)]
    pub min: u32,
    /// List at most this many pairs.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub top: usize,
    /// Write an index and a page per listed pair (side by side) into DIR.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}

/// `judge verify` modes for setters: time limits and test strength
/// instead of the regression run.
#[derive(Debug, Clone, Args)]
pub struct StrengthArgs {
    /// The time limit the Kattis 2025-09 rule gives from the AC and TLE
    /// solutions' CPU times, next to problem.toml's, with timing-sensitive
    /// warnings.
    #[arg(long)]
    pub calibrate: bool,
    /// Which secret test first rejects each wrong or slow solution, and
    /// how many each test rejects.
    #[arg(long)]
    pub matrix: bool,
    /// For every bound a validator checks, whether some test reaches it
    /// (judge-kit and BAPCtools validators through --constraints_file,
    /// testlib validators through their test overview log).
    #[arg(long, conflicts_with_all = ["calibrate", "matrix"])]
    pub constraints: bool,
    /// Inputs made invalid from the samples (a token removed or doubled,
    /// a number made non-numeric, a line break moved, trailing garbage),
    /// each of which the input validator must reject.
    #[arg(long, conflicts_with_all = ["calibrate", "matrix", "constraints"])]
    pub invalid_inputs: bool,
    /// --calibrate: runs per solution; each figure is their median.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeat: usize,
    /// --matrix: also write the matrices as one self-contained HTML page.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
}

/// What `judge test` shows a learner beyond the verdicts.
#[derive(Debug, Clone, Args)]
pub struct LearnerArgs {
    /// Which failed tests show their difference in full: the first one
    /// (the others get one line each) or all of them.
    #[arg(long, value_enum, default_value_t = Diffs::First)]
    pub diffs: Diffs,
    /// After a wrong answer, do not look for a small failing input (only
    /// problems whose problem.toml allows it look for one).
    #[arg(long)]
    pub no_counterexample: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Diffs {
    First,
    All,
}

#[derive(Debug, Clone, Args)]
pub struct StressArgs {
    /// Problem id.
    pub id: String,
    /// The program under test: a source file, or the name of one of the
    /// package's solutions.
    pub file: PathBuf,
    /// The program whose answers count (default: the package's first AC
    /// solution): a solution's name or a source file.
    #[arg(long, value_name = "SOL")]
    pub against: Option<String>,
    /// Generator arguments with a `{seed}` (default: `[stress] args` in
    /// problem.toml).
    #[arg(long = "gen", value_name = "ARGS")]
    pub generator_args: Option<String>,
    /// The seed of the run: the same seed finds the same input (default:
    /// from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop looking after this long.
    #[arg(long, value_name = "T", default_value = "60s", value_parser = duration)]
    pub time: std::time::Duration,
    /// Stop looking after this many inputs.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub cases: u64,
    /// Stop shrinking after this long (the best input so far is shown).
    #[arg(long, value_name = "T", default_value = "60s", value_parser = duration)]
    pub shrink_time: std::time::Duration,
    /// Save the failing input and its answer as a test (`.in`, `.ans`):
    /// into DIR, or with no DIR into the package's `data/secret/` (in a
    /// group `stress/` when its secret tests are in groups).
    #[arg(long, value_name = "DIR")]
    pub out: Option<Option<PathBuf>>,
}

/// A `--shrink-time` clap cannot read.
#[derive(Debug, thiserror::Error)]
#[error("{source}; write e.g. 30s or 2m")]
pub struct DurationArgError {
    #[from]
    source: humantime::DurationError,
}

fn duration(text: &str) -> Result<std::time::Duration, DurationArgError> {
    Ok(humantime::parse_duration(text)?)
}

#[derive(Debug, Clone, Default, Args)]
pub struct ReportArgs {
    /// Write a JSON report here.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write a JUnit XML report here.
    #[arg(long, value_name = "PATH")]
    pub junit: Option<PathBuf>,
}

impl From<&ReportArgs> for RunOptions {
    fn from(args: &ReportArgs) -> RunOptions {
        RunOptions {
            json: args.json.clone(),
            junit: args.junit.clone(),
        }
    }
}

/// The result store and its cache (`verify`, `grade --class`).
#[derive(Debug, Clone, Args)]
pub struct StoreArgs {
    /// The result store (default: judge.db beside problems/).
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Run every test again instead of reusing stored results.
    #[arg(long)]
    pub fresh: bool,
}

/// Where a class comes from and which part of it to grade.
#[derive(Debug, Clone, Args)]
pub struct ClassArgs {
    /// A class folder: one folder per student, a file per problem named by its id.
    #[arg(long, value_name = "DIR", conflicts_with = "manifest")]
    pub class: Option<PathBuf>,
    /// A CSV manifest of student, problem, path rows, instead of a class folder.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// Grade the K-th of N shards of the class (K in 1..N).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<String>,
    /// N, with K from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) or a Slurm array.
    #[arg(long, value_name = "N")]
    pub partition_count: Option<usize>,
    /// Put the class on the store's judging queue for `judge worker`s
    /// (on any machines), wait for them, then print the gradebook.
    #[arg(long)]
    pub queue: bool,
    /// Grade what each student handed in by then: a Git repository at its
    /// last commit before it, another folder by its files' times
    /// (2026-12-01T23:59 in the judge's time zone, or with +01:00, Z or
    /// [Europe/Paris]).
    #[arg(long, value_name = "WHEN", conflicts_with = "manifest")]
    pub deadline: Option<String>,
    /// Accept late work (the latest commit) with a penalty per started day
    /// after the deadline, as 10%/day.
    #[arg(long, value_name = "RULE", requires = "deadline")]
    pub late: Option<String>,
    /// The most a late penalty takes (default 100%).
    #[arg(long, value_name = "PERCENT", requires = "late")]
    pub late_cap: Option<String>,
    /// Starter code given to everybody (a file or a folder), left out of
    /// the similarity section.
    #[arg(long, value_name = "DIR")]
    pub base: Option<PathBuf>,
    #[command(flatten)]
    pub gradebook: GradebookArgs,
}

/// What `judge report` writes for the students and for the school.
#[derive(Debug, Clone, Args)]
pub struct TeacherArgs {
    /// Write each student's feedback (STUDENT.html and STUDENT.md) into DIR.
    #[arg(long, value_name = "DIR")]
    pub feedback: Option<PathBuf>,
    /// What feedback shows of sample tests.
    #[arg(long, value_enum, value_name = "SHOW", default_value_t = crate::report::feedback::Visibility::Full)]
    pub samples: crate::report::feedback::Visibility,
    /// What feedback shows of secret tests.
    #[arg(long, value_enum, value_name = "SHOW", default_value_t = crate::report::feedback::Visibility::Verdict)]
    pub secret: crate::report::feedback::Visibility,
    /// The class roster (CSV: student, name, email, id, lms_id, login,
    /// section) that the LMS exports need.
    #[arg(long, value_name = "FILE")]
    pub roster: Option<PathBuf>,
    /// Write Moodle's grade import CSV here.
    #[arg(long, value_name = "FILE", requires = "roster")]
    pub moodle: Option<PathBuf>,
    /// Write Canvas's gradebook import CSV here.
    #[arg(long, value_name = "FILE", requires = "roster")]
    pub canvas: Option<PathBuf>,
    /// Write a Gradescope autograder results.json per student under DIR.
    #[arg(long, value_name = "DIR", requires = "roster")]
    pub gradescope: Option<PathBuf>,
    /// The grade item's (assignment's) name in the LMS.
    #[arg(long, value_name = "NAME", default_value = "Game Judge")]
    pub item: String,
}

/// The gradebook's own reports.
#[derive(Debug, Clone, Args)]
pub struct GradebookArgs {
    /// Write the gradebook as CSV here (a row per student).
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Write the gradebook as one self-contained HTML page here.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// A grading policy (TOML: weight per problem, solved or points, late
    /// penalty, rounding) that gives the total; `grade` keeps it with the
    /// run, so `report` uses it unless given another.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
}
