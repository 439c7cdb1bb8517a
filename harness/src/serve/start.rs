//! The verbs: `judge serve` (load, build, recover, listen, judge) and
//! `judge users import`.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::ServeError;
use super::accounts::{self, Role};
use super::app::{App, LanguageChoice};
use super::judges::{self, Bench};
use super::live::Live;
use super::problem_page::ProblemPage;
use super::queue::Queue;
use super::session::{self, Session};
use crate::cli::{ServeArgs, UsersCommand};
use crate::commands::Context;
use crate::errors::{Error, Result};
use crate::sandbox::Sandbox;
use crate::store::RunMeta;
use crate::store::entries;

/// The jury account `judge serve` makes when the store has none.
const FIRST_JURY: &str = "jury";

fn store_path(ctx: &Context, db: Option<&Path>) -> PathBuf {
    db.map_or_else(
        || ctx.root.join(crate::store::DEFAULT_FILE),
        Path::to_path_buf,
    )
}

/// `judge serve`.
pub(crate) fn serve(ctx: &mut Context, args: &ServeArgs) -> Result<u8> {
    let started = std::time::Instant::now();
    let session = session_of(ctx, args.session.as_deref())?;
    let languages = languages(ctx, &session, args.session.as_deref())?;
    let (specs, broken) = read(ctx, &session.problems)?;
    for error in &broken {
        eprintln!("judge serve: left out, broken: {error}");
    }
    let pages: Vec<ProblemPage> = specs.iter().map(ProblemPage::new).collect();

    let path = store_path(ctx, args.db.as_deref());
    let threads = args.workers.unwrap_or(ctx.jobs);
    if threads == 0 && !crate::store::Location::of(&path).is_postgres() {
        return Err(Error::Usage(
            "--workers 0 leaves the judging to `judge worker`s, which share the server's \
             store: give a PostgreSQL store (--db postgres://...)"
                .into(),
        ));
    }
    let mut store = entries::open(&path)?;
    let infos: Vec<_> = specs.iter().map(crate::commands::problem_info).collect();
    let name = crate::store::sessions::SessionName {
        name: &session.name,
        title: &session.title,
    };
    let ids = crate::store::sessions::ensure_session(
        &mut store,
        &name,
        &run_meta(ctx, &session),
        &infos,
    )?;
    let jury = first_jury(store.db())?;
    let queue = Arc::new(Queue::default());
    for (entry, account) in entries::recover(store.db(), ids.session).map_err(ServeError::from)? {
        queue.push(entry, account);
    }
    let live = Arc::new(Live::default());
    let games = super::games::Games::new(ctx.sandbox().clone(), ctx.scratch.path().to_path_buf());
    let network = network(args, threads)?;
    let app = Arc::new(App::new(
        session,
        ids,
        pages,
        languages,
        store,
        super::app::Engines {
            live: live.clone(),
            queue: queue.clone(),
            games,
        },
        network,
    ));

    // Bound before anything is printed: a taken port is an error here.
    let (listener, address) = listen(args.bind)?;
    let failed = |what: String| move |source| Error::Report { what, source };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(failed("start the server's runtime".into()))?;
    let server = spawn_server(&runtime, listener, app.clone(), ctx.sandbox().clone());
    let mut out = std::io::stdout();
    let _ = writeln!(
        out,
        "judge serve: {} at http://{address}/ (store {}, up in {} ms)",
        app.session.title,
        crate::store::Location::of(&path),
        started.elapsed().as_millis()
    );
    announce_run_and_jury(&mut out, ids.run, jury.as_deref());

    // Pages are served meanwhile; submissions wait in the queue. Ctrl-C
    // or SIGTERM stops the builds at once (their processes killed):
    // nothing is lost, every submission is in the store.
    let built = crate::judging::prepare(&mut ctx.means(), specs, &path);
    if ctx.sandbox().is_cancelled() {
        let _ = runtime.block_on(server);
        runtime.shutdown_timeout(super::net::SHUTDOWN_GRACE);
        let _ = writeln!(out, "judge serve: stopped while building the problems");
        return Ok(crate::exit_codes::INTERRUPTED);
    }
    let problems = match built {
        Ok((problems, notes)) => {
            for note in notes {
                let _ = writeln!(out, "{note}");
            }
            Arc::new(problems)
        }
        Err(error) => {
            ctx.sandbox()
                .cancel_flag()
                .store(true, std::sync::atomic::Ordering::SeqCst);
            let _ = runtime.block_on(server);
            return Err(error);
        }
    };
    app.games.ready(problems.clone());
    let bench = Arc::new(Bench {
        problems,
        root: ctx.root.clone(),
        languages: ctx.builder.languages().clone(),
        store: path.clone(),
        ids,
        queue: queue.clone(),
        live,
        scratch: ctx.scratch.path().to_path_buf(),
    });
    let follower = super::notify::follow(
        &crate::store::Location::of(&path),
        bench.ids.session,
        bench.live.clone(),
        ctx.sandbox().clone(),
    );
    let judges = start_judging(ctx, bench, threads)?;
    let how = match threads {
        0 => "the `judge worker`s of the store's queue".to_string(),
        _ => format!("{} threads", judges.len()),
    };
    let _ = writeln!(
        out,
        "judging with {how} from {} ms on ({} waiting)",
        started.elapsed().as_millis(),
        queue.len()
    );
    let _ = out.flush();
    let served = runtime
        .block_on(server)
        .unwrap_or_else(|e| Err(std::io::Error::other(e)));
    // Handlers still running on blocking threads (a game's move) are not
    // waited for.
    runtime.shutdown_timeout(super::net::SHUTDOWN_GRACE);
    queue.close();
    for judge in judges.into_iter().chain(follower) {
        let _ = judge.join();
    }
    served.map_err(failed(format!("serve on {address}")))?;
    Ok(crate::exit_codes::OK)
}

/// The session's problems (all when `ids` is empty), read but not built:
/// enough for the pages. A broken package named by the session is an
/// error; when every problem is served, broken ones are left out and
/// their errors returned.
fn read(
    ctx: &Context,
    ids: &[String],
) -> Result<(Vec<crate::spec::ProblemSpec>, Vec<crate::errors::SpecError>), ServeError> {
    let (problems, broken) = ctx.load_problems(ids)?;
    if !ids.is_empty() {
        if let Some(error) = broken.into_iter().next() {
            return Err(error.into());
        }
        return Ok((problems, Vec::new()));
    }
    Ok((problems, broken))
}

/// What the store keeps of the server's run (it records the results as
/// one run, named after the session).
fn run_meta(ctx: &Context, session: &Session) -> RunMeta {
    RunMeta {
        started_at: SystemTime::now(),
        command: "serve".into(),
        judge_version: crate::store::judge_version().to_string(),
        isolation: ctx.boxes.describe(),
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
    ctx: &Context,
    bench: Arc<Bench>,
    threads: usize,
) -> Result<Vec<std::thread::JoinHandle<()>>> {
    if threads > 0 {
        return Ok(judges::start(bench, ctx.sandbox(), threads));
    }
    let dispatcher = super::remote::dispatch(bench).map_err(|source| Error::Report {
        what: "hash the served packages".into(),
        source,
    })?;
    Ok(vec![dispatcher])
}

/// The session a server runs: its file's, every problem of which must be
/// a package under problems/, or a practice session of every problem.
fn session_of(ctx: &Context, file: Option<&Path>) -> Result<Session> {
    let Some(path) = file else {
        return Ok(Session::practice());
    };
    let session = Session::load(path)?;
    for id in &session.problems {
        if !crate::spec::is_package(&ctx.problems_dir().join(id)) {
            let message = format!("no problem `{id}` under problems/");
            return Err(session::unknown_item(path, "problems", id, message).into());
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
            "jury login: the jury accounts of the store (`judge users import` adds or resets them)"
        ),
    };
    let _ = out.flush();
}

/// The languages a participant may choose: the session's, all by default.
fn languages(ctx: &Context, session: &Session, file: Option<&Path>) -> Result<Vec<LanguageChoice>> {
    let table = ctx.builder.languages();
    let choice = |key: &str, language: &crate::lang::Language| LanguageChoice {
        key: key.to_string(),
        name: language.name.clone(),
        extensions: language.extensions.clone(),
    };
    if session.languages.is_empty() {
        return Ok(table
            .iter()
            .filter(|(_, l)| !l.extensions.is_empty())
            .map(|(k, l)| choice(k, l))
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
                    Some(path) => session::unknown_item(path, "languages", key, message),
                    None => crate::errors::SpecError::Package(message),
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

/// `judge users ...`.
pub(crate) fn users(ctx: &mut Context, command: &UsersCommand) -> Result<u8> {
    let (user, db) = match command {
        UsersCommand::Import {
            file,
            passwords,
            reset_passwords,
            db,
        } => {
            return import(
                ctx,
                file,
                passwords.as_deref(),
                *reset_passwords,
                db.as_deref(),
            );
        }
        UsersCommand::Reset { user, db }
        | UsersCommand::Disable { user, db }
        | UsersCommand::Enable { user, db }
        | UsersCommand::Revoke { user, db } => (user, db),
    };
    let mut store = entries::open(&store_path(ctx, db.as_deref()))?;
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
    let _ = writeln!(ctx.out, "{said}");
    Ok(crate::exit_codes::OK)
}

/// `judge users import`.
fn import(
    ctx: &mut Context,
    file: &Path,
    passwords: Option<&Path>,
    reset: bool,
    db: Option<&Path>,
) -> Result<u8> {
    let out = passwords.map_or_else(
        || {
            let stem = file
                .file_stem()
                .map_or_else(|| "users".into(), |s| s.to_string_lossy().into_owned());
            file.with_file_name(format!("{stem}-passwords.csv"))
        },
        Path::to_path_buf,
    );
    let mut store = entries::open(&store_path(ctx, db))?;
    let imported = super::users_import::import(store.db(), file, &out, reset)?;
    let _ = writeln!(
        ctx.out,
        "{} accounts created, {} updated",
        imported.created, imported.updated
    );
    if let Some(path) = imported.passwords {
        let _ = writeln!(
            ctx.out,
            "new passwords written to {} (hand them out, then delete the file)",
            path.display()
        );
    }
    Ok(crate::exit_codes::OK)
}
