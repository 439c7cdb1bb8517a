//! What `judge serve` and `judge users` do once their verb
//! (`commands/serving.rs`) has read the command line and the problems: a
//! `Server` started (store opened, submissions left running queued again,
//! pages served), then judging with the prepared problems until stopped;
//! accounts imported, reset, disabled, revoked.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use super::ServeError;
use super::accounts::{self, Role};
use super::app::{App, LanguageChoice};
use super::judges::{self, Bench};
use super::live::Live;
use super::problem_page::ProblemPage;
use super::queue::Queue;
use super::session::Session;
use super::session_file::unknown_item;
use crate::cli::{ServeArgs, UsersCommand};
use crate::errors::{Error, Result};
use crate::judging::ServedProblem;
use crate::sandbox::Sandbox;
use crate::store::entries;
use crate::store::sessions::SessionIds;
use crate::store::{RunMeta, Store};

/// The jury account `judge serve` makes when the store has none.
const FIRST_JURY: &str = "jury";

/// What a server runs on, from the verb: the root, the sandbox, the
/// language table, a scratch folder, the isolation in words, the cores.
pub(crate) struct Host {
    pub(crate) root: PathBuf,
    pub(crate) sandbox: Sandbox,
    pub(crate) languages: crate::lang::Languages,
    pub(crate) scratch: PathBuf,
    pub(crate) isolation: String,
    pub(crate) jobs: usize,
}

/// A server listening (its pages served, submissions taken), waiting for
/// its problems to be prepared to judge them.
pub(crate) struct Server {
    host: Host,
    started: Instant,
    path: PathBuf,
    threads: usize,
    address: SocketAddr,
    app: Arc<App>,
    runtime: tokio::runtime::Runtime,
    serving: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Opens the store at `path` (the session's row, submissions left
    /// running by a killed server queued again, the first jury account),
    /// listens and serves the pages, and says where; `started` is when
    /// the verb began.
    pub(crate) fn start(
        host: Host,
        session: Session,
        languages: Vec<LanguageChoice>,
        specs: &[crate::spec::ProblemSpec],
        path: PathBuf,
        args: &ServeArgs,
        started: Instant,
    ) -> Result<Server> {
        let threads = args.workers.unwrap_or(host.jobs);
        if threads == 0 && !crate::store::Location::of(&path).is_postgres() {
            return Err(Error::Usage(
                "--workers 0 leaves the judging to `judge worker`s, which share the server's \
                 store: give a PostgreSQL store (--db postgres://...)"
                    .into(),
            ));
        }
        let (mut store, pages, ids) = open_session(&host, &session, specs, &path)?;
        // Times the jury set on the web outlive a restart.
        let set = crate::store::sessions::set_times(store.db(), ids.session);
        let set = set.map_err(ServeError::from)?;
        session.change(super::session::JuryChanges::from_set(session.planned, &set));
        let jury = first_jury(store.db())?;
        let queue = Arc::new(Queue::default());
        for (entry, account) in
            entries::recover(store.db(), ids.session).map_err(ServeError::from)?
        {
            queue.push(entry, account);
        }
        let games = super::games::Games::new(host.sandbox.clone(), host.scratch.clone());
        let engines = super::app::Engines {
            live: Arc::new(Live::default()),
            queue,
            games,
        };
        let network = network(args, threads)?;
        let app = Arc::new(App::new(
            session, ids, pages, languages, store, engines, network,
        ));
        // Bound before anything is printed: a taken port is an error here.
        let (listener, address) = listen(args.bind)?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|source| Error::Report {
                what: "start the server's runtime".into(),
                source,
            })?;
        let serving = spawn_server(&runtime, listener, app.clone(), host.sandbox.clone());
        let mut out = std::io::stdout();
        let _ = writeln!(
            out,
            "judge serve: {} at http://{address}/ (store {}, up in {} ms)",
            app.session.title,
            crate::store::Location::of(&path),
            started.elapsed().as_millis()
        );
        announce_run_and_jury(&mut out, ids.run, jury.as_deref());
        Ok(Server {
            host,
            started,
            path,
            threads,
            address,
            app,
            runtime,
            serving,
        })
    }

    /// The store the server keeps its results in.
    pub(crate) fn store_path(&self) -> &Path {
        &self.path
    }

    /// Judges with the problems `prepared` (pages are served meanwhile;
    /// submissions wait in the queue) until Ctrl-C or SIGTERM stops the
    /// server. Stopped while they were prepared (their builds killed),
    /// or failing to prepare them, it stops at once: nothing is lost,
    /// every submission is in the store.
    pub(crate) fn judge(self, prepared: Result<Vec<ServedProblem>>) -> Result<u8> {
        let mut out = std::io::stdout();
        if self.host.sandbox.is_cancelled() {
            let _ = self.stop();
            let _ = writeln!(out, "judge serve: stopped while building the problems");
            return Ok(crate::exit_codes::INTERRUPTED);
        }
        let problems = match prepared {
            Ok(problems) => Arc::new(problems),
            Err(error) => {
                self.host
                    .sandbox
                    .cancel_flag()
                    .store(true, std::sync::atomic::Ordering::SeqCst);
                let _ = self.stop();
                return Err(error);
            }
        };
        let app = &self.app;
        app.games.ready(problems.clone());
        let bench = Arc::new(Bench {
            problems,
            root: self.host.root.clone(),
            languages: self.host.languages.clone(),
            store: self.path.clone(),
            ids: app.ids,
            queue: app.queue.clone(),
            live: app.live.clone(),
            scratch: self.host.scratch.clone(),
        });
        let follower = super::notify::follow(
            &crate::store::Location::of(&self.path),
            bench.ids.session,
            bench.live.clone(),
            self.host.sandbox.clone(),
        );
        let judges = start_judging(&self.host.sandbox, bench, self.threads)?;
        let how = match self.threads {
            0 => "the `judge worker`s of the store's queue".to_string(),
            _ => format!("{} threads", judges.len()),
        };
        let _ = writeln!(
            out,
            "judging with {how} from {} ms on ({} waiting)",
            self.started.elapsed().as_millis(),
            app.queue.len()
        );
        let _ = out.flush();
        let (queue, address) = (app.queue.clone(), self.address);
        let served = self.stop();
        queue.close();
        for judge in judges.into_iter().chain(follower) {
            let _ = judge.join();
        }
        served.map_err(|source| Error::Report {
            what: format!("serve on {address}"),
            source,
        })?;
        Ok(crate::exit_codes::OK)
    }

    /// Waits for the server to stop serving (Ctrl-C or SIGTERM), then
    /// ends its runtime: handlers still running on blocking threads (a
    /// game's move) are not waited for.
    fn stop(self) -> std::io::Result<()> {
        let served = self
            .runtime
            .block_on(self.serving)
            .unwrap_or_else(|e| Err(std::io::Error::other(e)));
        self.runtime.shutdown_timeout(super::net::SHUTDOWN_GRACE);
        served
    }
}

/// `judge serve --export-contest DIR`: the session's contest package
/// from the store as it is (nothing judged, recovered or served; a running
/// server's store is read as it stands). Returns what to tell.
pub(crate) fn export_contest(
    host: &Host,
    (session, languages): (Session, Vec<LanguageChoice>),
    specs: &[crate::spec::ProblemSpec],
    path: &Path,
    args: &ServeArgs,
    dir: &Path,
) -> Result<String> {
    let (store, pages, ids) = open_session(host, &session, specs, path)?;
    let engines = super::app::Engines {
        live: Arc::new(Live::default()),
        queue: Arc::new(Queue::default()),
        games: super::games::Games::new(host.sandbox.clone(), host.scratch.clone()),
    };
    let network = network(args, 0)?;
    let app = App::new(session, ids, pages, languages, store, engines, network);
    let submissions = super::ccs::export(&app, dir)?;
    Ok(format!(
        "contest package of {} written to {} ({submissions} submissions)",
        app.session.name,
        dir.display()
    ))
}

/// The store at `path` with the session's row (made at its first start)
/// and the problems' pages.
fn open_session(
    host: &Host,
    session: &Session,
    specs: &[crate::spec::ProblemSpec],
    path: &Path,
) -> Result<(Store, Vec<ProblemPage>, SessionIds)> {
    let pages: Vec<ProblemPage> = specs.iter().map(ProblemPage::new).collect();
    let mut store = entries::open(path)?;
    let infos: Vec<_> = specs
        .iter()
        .map(crate::report::gradebook::ProblemInfo::of)
        .collect();
    let name = crate::store::sessions::SessionName {
        name: &session.name,
        title: &session.title,
    };
    let meta = run_meta(&host.isolation, session);
    let ids = crate::store::sessions::ensure_session(&mut store, &name, &meta, &infos)?;
    Ok((store, pages, ids))
}

/// What the store keeps of the server's run (it records the results as
/// one run, named after the session).
fn run_meta(isolation: &str, session: &Session) -> RunMeta {
    RunMeta {
        started_at: SystemTime::now(),
        command: "serve".into(),
        judge_version: crate::store::judge_version().to_string(),
        isolation: isolation.to_string(),
        machine: crate::store::machine(),
        partition: None,
        source: Some(session.name.clone()),
        interrupted: false,
        deadline: None,
        late_rule: None,
        policy: None,
    }
}

/// How the server meets the network: the descriptor limit raised to its
/// hard limit, the connection caps below it (a reserve kept for the
/// `judges` judging threads), the trusted proxies.
fn network(args: &ServeArgs, judges: usize) -> Result<super::app::Network> {
    let descriptors = super::net::raise_descriptor_limit();
    let limits = super::net::NetLimits::new(
        args.max_connections_per_address,
        args.max_connections,
        descriptors,
        judges,
    );
    let proxies = super::net::TrustedProxies::parse(&args.trusted_proxy).map_err(Error::Usage)?;
    Ok(super::app::Network {
        limits,
        proxies,
        shutdown: super::net::Shutdown::default(),
    })
}

/// Serves `app` on `listener` in `runtime` until the sandbox's cancel flag
/// is set (Ctrl-C or SIGTERM set it, see `Context`), then ends: the event
/// streams are told to end and every connection has a moment to finish.
/// Meanwhile the limiters forget what no longer limits anybody.
fn spawn_server(
    runtime: &tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    app: Arc<App>,
    cancel: Sandbox,
) -> tokio::task::JoinHandle<std::io::Result<()>> {
    let router = super::routes::router(app.clone());
    runtime.spawn(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let shutdown = app.shutdown.clone();
        let stopper = shutdown.clone();
        let pruned = app.clone();
        tokio::spawn(async move {
            let mut ticks = 0u32;
            while !cancel.is_cancelled() && !stopper.is_stopped() {
                tokio::time::sleep(Duration::from_millis(100)).await;
                ticks += 1;
                if ticks % 600 == 0 {
                    pruned.limits.prune();
                }
            }
            stopper.stop();
        });
        super::net::serve(listener, router, app.net, app.proxies.clone(), shutdown).await
    })
}

/// Starts the judging of the queue: `threads` judging threads, or with 0
/// a dispatcher that puts each submission on the store's queue for the
/// `judge worker`s.
fn start_judging(
    sandbox: &Sandbox,
    bench: Arc<Bench>,
    threads: usize,
) -> Result<Vec<std::thread::JoinHandle<()>>> {
    if threads > 0 {
        return Ok(judges::start(bench, sandbox, threads));
    }
    let dispatcher = super::remote::dispatch(bench).map_err(|source| Error::Report {
        what: "hash the served packages".into(),
        source,
    })?;
    Ok(vec![dispatcher])
}

/// The session a server runs: its file's, every problem of which must be
/// a package under `problems` (the root's `problems/`), or a practice
/// session of every problem.
pub(crate) fn session_of(problems: &Path, file: Option<&Path>) -> Result<Session> {
    let Some(path) = file else {
        return Ok(Session::practice());
    };
    let session = Session::load(path)?;
    for id in &session.problems {
        if !crate::spec::is_package(&problems.join(id)) {
            let message = format!("no problem `{id}` under problems/");
            return Err(unknown_item(path, "problems", id, message).into());
        }
    }
    Ok(session)
}

/// A listening socket on `bind` (non-blocking, for tokio) and the address
/// it got (port 0 is a free one).
fn listen(bind: SocketAddr) -> Result<(std::net::TcpListener, SocketAddr)> {
    let failed = |what: String| move |source| Error::Report { what, source };
    let listener =
        std::net::TcpListener::bind(bind).map_err(failed(format!("listen on {bind}")))?;
    listener
        .set_nonblocking(true)
        .map_err(failed("the listening socket".into()))?;
    let address = listener
        .local_addr()
        .map_err(failed("the listening socket".into()))?;
    Ok((listener, address))
}

/// Tells the teacher where the results go and how the jury logs in: the
/// first jury account's new password, when the store had none.
fn announce_run_and_jury(out: &mut dyn Write, run: i64, first_jury: Option<&str>) {
    let _ = writeln!(
        out,
        "results are recorded as run {run} of the store (`judge report --run {run}`)"
    );
    let _ = match first_jury {
        Some(password) => writeln!(out, "jury login: {FIRST_JURY} / {password}"),
        None => writeln!(
            out,
            "jury login: the jury accounts of the store (a lost password: `judge users reset {FIRST_JURY}` prints a new one)"
        ),
    };
    let _ = out.flush();
}

/// The languages a participant may choose of `table`: the session's, or
/// by default every language this machine can build and run. A language
/// the session names but this machine lacks is shown as unavailable.
pub(crate) fn language_choices(
    table: &crate::lang::Languages,
    session: &Session,
    file: Option<&Path>,
) -> Result<Vec<LanguageChoice>> {
    let choice = |key: &str, language: &crate::lang::Language| LanguageChoice {
        key: key.to_string(),
        name: language.name.clone(),
        extensions: language.extensions.clone(),
        available: language.missing_tool().is_none(),
    };
    if session.languages.is_empty() {
        return Ok(table
            .iter()
            .filter(|(_, l)| !l.extensions.is_empty())
            .map(|(k, l)| choice(k, l))
            .filter(|c| c.available)
            .collect());
    }
    session
        .languages
        .iter()
        .map(|key| match table.get(key) {
            Some(language) if !language.extensions.is_empty() => Ok(choice(key, language)),
            _ => {
                let message = format!(
                    "no language `{key}` with a file extension (known: {})",
                    table.known_keys()
                );
                Err(match file {
                    Some(path) => unknown_item(path, "languages", key, message),
                    None => crate::spec::SpecError::Package(message),
                }
                .into())
            }
        })
        .collect()
}

/// Makes the first jury account when the store has none; its password,
/// shown once.
fn first_jury(conn: &mut crate::store::engine::Db) -> Result<Option<String>, ServeError> {
    let any_jury = accounts::accounts(conn)?.iter().any(|a| a.is_jury());
    if any_jury {
        return Ok(None);
    }
    let password = accounts::generate_password();
    let hash = accounts::hash_password(&password)?;
    accounts::upsert(conn, FIRST_JURY, "Jury", None, Role::Jury, Some(&hash))?;
    Ok(Some(password))
}

/// `judge users ...` on the store at `store` (the command's `--db`, or
/// the root's), saying what it did on `out`.
pub(crate) fn users(
    command: &UsersCommand,
    store: &dyn Fn(Option<&Path>) -> PathBuf,
    out: &mut dyn Write,
) -> Result<u8> {
    let (user, db) = match command {
        UsersCommand::Import {
            file,
            passwords,
            reset_passwords,
            db,
        } => {
            let path = store(db.as_deref());
            return import(&path, file, passwords.as_deref(), *reset_passwords, out);
        }
        UsersCommand::Reset { user, db }
        | UsersCommand::Disable { user, db }
        | UsersCommand::Enable { user, db }
        | UsersCommand::Revoke { user, db } => (user, db),
    };
    let mut store = entries::open(&store(db.as_deref()))?;
    let account = accounts::account_named(store.db(), user)
        .map_err(ServeError::from)?
        .ok_or_else(|| Error::Usage(format!("no account `{}`", crate::escape::name(user))))?;
    let said = match command {
        UsersCommand::Reset { .. } => {
            let password = accounts::reset_password(store.db(), account.id)?;
            format!("new password for {user}: {password} (every login and token of it ended)")
        }
        UsersCommand::Disable { .. } => {
            accounts::set_disabled(store.db(), account.id, true).map_err(ServeError::from)?;
            format!("{user} is disabled: no login, every login and token of it ended")
        }
        UsersCommand::Enable { .. } => {
            accounts::set_disabled(store.db(), account.id, false).map_err(ServeError::from)?;
            format!("{user} may log in again")
        }
        _ => {
            let ended =
                accounts::end_everything(store.db(), account.id).map_err(ServeError::from)?;
            format!("{user}: {ended} logins and tokens ended")
        }
    };
    let _ = writeln!(out, "{said}");
    Ok(crate::exit_codes::OK)
}

/// `judge users import`.
fn import(
    store: &Path,
    file: &Path,
    passwords: Option<&Path>,
    reset: bool,
    out: &mut dyn Write,
) -> Result<u8> {
    let passwords_file = passwords.map_or_else(
        || {
            let stem = file
                .file_stem()
                .map_or_else(|| "users".into(), |s| s.to_string_lossy().into_owned());
            file.with_file_name(format!("{stem}-passwords.csv"))
        },
        Path::to_path_buf,
    );
    let mut store = entries::open(store)?;
    let imported = super::users_import::import(store.db(), file, &passwords_file, reset)?;
    let _ = writeln!(
        out,
        "{} accounts created, {} updated",
        imported.created, imported.updated
    );
    if let Some(path) = imported.passwords {
        let _ = writeln!(
            out,
            "new passwords written to {} (hand them out, then delete the file)",
            path.display()
        );
    }
    Ok(crate::exit_codes::OK)
}
