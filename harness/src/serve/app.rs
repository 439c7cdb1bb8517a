//! What every handler shares: the session, its problems, the store, the
//! live status, the judging queue, the games, and the rate limits.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::db::SessionIds;
use super::games::Games;
use super::live::Live;
use super::problem_page::ProblemPage;
use super::queue::Queue;
use super::session::Session;
use crate::store::Store;

/// A language a participant may choose.
#[derive(Debug, Clone)]
pub(crate) struct LanguageChoice {
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) extensions: Vec<String>,
}

/// What runs beside the pages: live status, the judging queue, the games.
pub(crate) struct Engines {
    pub(crate) live: Arc<Live>,
    pub(crate) queue: Arc<Queue>,
    pub(crate) games: Games,
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
    /// Keys the login form's CSRF token to its cookie.
    form_key: [u8; 32],
    login_by_ip: DefaultKeyedRateLimiter<IpAddr>,
    login_by_user: DefaultKeyedRateLimiter<String>,
    submissions_by_account: DefaultKeyedRateLimiter<i64>,
}

pub(crate) type AppState = Arc<App>;

/// Failed or not, login attempts per client address and per username.
// Behind a reverse proxy every client has its address: the per-address
// limit must let a whole class log in at once.
const LOGINS_PER_MINUTE_BY_IP: u32 = 300;
const LOGINS_PER_MINUTE_BY_USER: u32 = 5;

impl App {
    pub(crate) fn new(
        session: Session,
        ids: SessionIds,
        problems: Vec<ProblemPage>,
        languages: Vec<LanguageChoice>,
        store: Store,
        engines: Engines,
    ) -> App {
        let Engines { live, queue, games } = engines;
        let per_minute =
            |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN));
        App {
            submissions_by_account: RateLimiter::keyed(per_minute(session.submissions_per_minute)),
            session,
            ids,
            problems,
            languages,
            store: Mutex::new(store),
            live,
            queue,
            games,
            form_key: rand::random(),
            login_by_ip: RateLimiter::keyed(per_minute(LOGINS_PER_MINUTE_BY_IP)),
            login_by_user: RateLimiter::keyed(per_minute(LOGINS_PER_MINUTE_BY_USER)),
        }
    }

    /// The store, for a few quick statements (never held across an await).
    pub(crate) fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn problem(&self, id: &str) -> Option<&ProblemPage> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// Whether a login attempt from `ip` for `username` may go ahead.
    pub(crate) fn may_try_login(&self, ip: IpAddr, username: &str) -> bool {
        self.login_by_ip.check_key(&ip).is_ok()
            && self.login_by_user.check_key(&username.to_string()).is_ok()
    }

    pub(crate) fn may_submit(&self, account: i64) -> bool {
        self.submissions_by_account.check_key(&account).is_ok()
    }

    /// The login form's CSRF token for its cookie's value.
    pub(crate) fn form_token(&self, cookie: &str) -> String {
        blake3::keyed_hash(&self.form_key, cookie.as_bytes())
            .to_hex()
            .to_string()
    }
}
