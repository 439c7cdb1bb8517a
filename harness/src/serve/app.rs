//! What every handler shares: the session, its problems, the store, the
//! live status, the judging queue, the games, the limits, the password
//! threads and the connection rules.

use std::sync::{Arc, Mutex, MutexGuard};

use super::games::Games;
use super::limits::Limits;
use super::live::Live;
use super::net::{NetLimits, Shutdown, Slots, TrustedProxies};
use super::passwords::Passwords;
use super::problem_page::ProblemPage;
use super::queue::Queue;
use super::scoreboard::Boards;
use super::session::Session;
use crate::store::Store;
use crate::store::sessions::SessionIds;

/// A language a participant may choose.
#[derive(Debug, Clone)]
pub(crate) struct LanguageChoice {
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) extensions: Vec<String>,
    /// Its compiler or interpreter is on this machine (else it is shown
    /// but not taken: every submission in it would be a judge error).
    pub(crate) available: bool,
}

/// What runs beside the pages: live status, the judging queue, the games.
pub(crate) struct Engines {
    pub(crate) live: Arc<Live>,
    pub(crate) queue: Arc<Queue>,
    pub(crate) games: Games,
}

/// How the server meets the network: its connection limits, the proxies
/// it trusts, its stop signal.
pub(crate) struct Network {
    pub(crate) limits: NetLimits,
    pub(crate) proxies: TrustedProxies,
    pub(crate) shutdown: Shutdown,
}

/// Who has an event stream open: an account, or an address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum StreamOwner {
    Account(i64),
    Address(std::net::IpAddr),
}

/// What every handler shares.
pub(crate) struct App {
    pub(crate) session: Session,
    pub(crate) ids: SessionIds,
    pub(crate) problems: Vec<ProblemPage>,
    pub(crate) languages: Vec<LanguageChoice>,
    store: Mutex<Store>,
    pub(crate) live: Arc<Live>,
    pub(crate) queue: Arc<Queue>,
    pub(crate) games: Games,
    /// The CCS API's own state: basic auth's memory, the event feeds.
    pub(crate) ccs: super::ccs::Ccs,
    /// Keys the login form's CSRF token to its cookie.
    form_key: [u8; 32],
    pub(crate) limits: Limits,
    pub(crate) passwords: Passwords,
    pub(crate) net: NetLimits,
    pub(crate) proxies: TrustedProxies,
    pub(crate) shutdown: Shutdown,
    /// Open event streams, by viewer.
    pub(crate) streams: Slots<StreamOwner>,
    /// The scoreboards, computed once per change.
    pub(crate) boards: Boards,
}

pub(crate) type AppState = Arc<App>;

/// Waiting password checks beyond the threads' (then 429).
const PASSWORD_QUEUE: usize = 32;

impl App {
    pub(crate) fn new(
        session: Session,
        ids: SessionIds,
        problems: Vec<ProblemPage>,
        languages: Vec<LanguageChoice>,
        store: Store,
        engines: Engines,
        network: Network,
    ) -> App {
        let Engines { live, queue, games } = engines;
        let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        App {
            limits: Limits::new(&session),
            passwords: Passwords::start(threads, PASSWORD_QUEUE),
            session,
            ids,
            problems,
            languages,
            store: Mutex::new(store),
            live,
            queue,
            games,
            ccs: super::ccs::Ccs::default(),
            form_key: rand::random(),
            net: network.limits,
            proxies: network.proxies,
            shutdown: network.shutdown,
            streams: Slots::default(),
            boards: Boards::default(),
        }
    }

    /// The store, for a few quick statements (never held across an await).
    pub(crate) fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn problem(&self, id: &str) -> Option<&ProblemPage> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// The login form's CSRF token for its cookie's value.
    pub(crate) fn form_token(&self, cookie: &str) -> String {
        blake3::keyed_hash(&self.form_key, cookie.as_bytes())
            .to_hex()
            .to_string()
    }
}
