//! How often a client may try things: logging in, signing up, submitting.
//!
//! Wrong passwords are counted per user name *and* client address: after
//! `FREE_FAILURES` of them that pair waits, twice as long after each
//! further one (up to `MAX_BACKOFF`); a right password clears it. So a
//! student hammering `jury` from a lab PC locks out only that PC's tries
//! at `jury`, never the jury's own login from elsewhere. Every address
//! also has a rate of attempts in all (any user names), and of sign-ups
//! and submissions; a participant has a rate of submissions of their own.
//! Addresses are clients' (`ClientAddr`: behind a trusted proxy, the
//! forwarded one). Nothing here grows without bound: the failure table is
//! pruned of pairs whose back-off has long passed, and the rate limiters
//! of keys that are full again.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::session::Session;

/// Wrong passwords for one user from one address before any wait.
const FREE_FAILURES: u32 = 5;
/// The first wait after them; it doubles with each further failure.
const FIRST_BACKOFF: Duration = Duration::from_secs(2);
const MAX_BACKOFF: Duration = Duration::from_secs(15 * 60);
/// Login attempts per address per minute, any user names (a class behind
/// one NAT address without a proxy logs in at once: generous).
const LOGINS_PER_MINUTE_BY_ADDRESS: u32 = 300;
/// Questions to the jury per participant per minute.
const QUESTIONS_PER_MINUTE: u32 = 4;
/// How many (user, address) pairs are remembered before old ones go.
const FAILURE_TABLE_PRUNE_AT: usize = 10_000;

/// What a user name and address have failed.
#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
}

impl Failures {
    /// How long after the last failure the next try must wait.
    fn backoff(&self) -> Duration {
        if self.count < FREE_FAILURES {
            return Duration::ZERO;
        }
        let doublings = (self.count - FREE_FAILURES).min(16);
        (FIRST_BACKOFF * 2u32.pow(doublings)).min(MAX_BACKOFF)
    }
}

/// Every rate and back-off of the server.
pub(crate) struct Limits {
    failures: Mutex<HashMap<(String, IpAddr), Failures>>,
    logins_by_address: DefaultKeyedRateLimiter<IpAddr>,
    signups_by_address: DefaultKeyedRateLimiter<IpAddr>,
    submissions_by_account: DefaultKeyedRateLimiter<i64>,
    submissions_by_address: DefaultKeyedRateLimiter<IpAddr>,
    questions_by_account: DefaultKeyedRateLimiter<i64>,
}

/// Why a try must wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// This user name from this address failed too often: the seconds left.
    Backoff(u64),
    /// This address tries too often.
    Rate,
}

fn per_minute(n: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN))
}

fn per_hour(n: u32) -> Quota {
    Quota::per_hour(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN))
}

impl Limits {
    pub(crate) fn new(session: &Session) -> Limits {
        Limits {
            failures: Mutex::new(HashMap::new()),
            logins_by_address: RateLimiter::keyed(per_minute(LOGINS_PER_MINUTE_BY_ADDRESS)),
            signups_by_address: RateLimiter::keyed(per_hour(session.signups_per_hour)),
            submissions_by_account: RateLimiter::keyed(per_minute(session.submissions_per_minute)),
            submissions_by_address: RateLimiter::keyed(per_minute(
                session.submissions_per_minute_per_address,
            )),
            questions_by_account: RateLimiter::keyed(per_minute(QUESTIONS_PER_MINUTE)),
        }
    }

    fn failures(&self) -> std::sync::MutexGuard<'_, HashMap<(String, IpAddr), Failures>> {
        self.failures.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `username` may be tried from `address` now (a valid user
    /// name: `check_username` comes first, so that no limiter keeps
    /// whatever it is sent).
    pub(crate) fn may_try_login(&self, username: &str, address: IpAddr) -> Result<(), Wait> {
        if let Some(failed) = self.failures().get(&(username.to_string(), address)) {
            let wait = failed.backoff();
            let waited = failed.last.elapsed();
            if waited < wait {
                return Err(Wait::Backoff((wait - waited).as_secs().max(1)));
            }
        }
        self.logins_by_address
            .check_key(&address)
            .map_err(|_| Wait::Rate)
    }

    /// A wrong password for `username` from `address`.
    pub(crate) fn login_failed(&self, username: &str, address: IpAddr) {
        let mut failures = self.failures();
        if failures.len() >= FAILURE_TABLE_PRUNE_AT {
            prune(&mut failures);
        }
        let entry = failures
            .entry((username.to_string(), address))
            .or_insert(Failures {
                count: 0,
                last: Instant::now(),
            });
        entry.count += 1;
        entry.last = Instant::now();
    }

    /// The right password: the pair's failures are forgotten.
    pub(crate) fn login_succeeded(&self, username: &str, address: IpAddr) {
        self.failures().remove(&(username.to_string(), address));
    }

    pub(crate) fn may_sign_up(&self, address: IpAddr) -> bool {
        self.signups_by_address.check_key(&address).is_ok()
    }

    pub(crate) fn may_submit(&self, account: i64, address: IpAddr) -> bool {
        self.submissions_by_address.check_key(&address).is_ok()
            && self.submissions_by_account.check_key(&account).is_ok()
    }

    /// Whether `account` may ask the jury now (from `address`, which
    /// shares the submissions' rate).
    pub(crate) fn may_ask(&self, account: i64, address: IpAddr) -> bool {
        self.submissions_by_address.check_key(&address).is_ok()
            && self.questions_by_account.check_key(&account).is_ok()
    }

    /// Forgets what no longer limits anybody (called every minute).
    pub(crate) fn prune(&self) {
        prune(&mut self.failures());
        self.logins_by_address.retain_recent();
        self.signups_by_address.retain_recent();
        self.submissions_by_account.retain_recent();
        self.submissions_by_address.retain_recent();
        self.questions_by_account.retain_recent();
        self.logins_by_address.shrink_to_fit();
        self.signups_by_address.shrink_to_fit();
        self.submissions_by_account.shrink_to_fit();
        self.submissions_by_address.shrink_to_fit();
    }

    /// How many (user, address) pairs are remembered.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.failures().len()
    }
}

/// Drops the pairs whose back-off has passed by an hour (their count would
/// start a new wait at once if kept; an hour later it is forgotten).
fn prune(failures: &mut HashMap<(String, IpAddr), Failures>) {
    failures.retain(|_, f| f.last.elapsed() < f.backoff() + Duration::from_secs(3600));
    if failures.len() >= FAILURE_TABLE_PRUNE_AT {
        // Still full (a flood of new pairs): the oldest half goes.
        let mut times: Vec<Instant> = failures.values().map(|f| f.last).collect();
        times.sort();
        let cut = times[times.len() / 2];
        failures.retain(|_, f| f.last > cut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(n: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, n])
    }

    #[test]
    fn another_address_never_locks_a_user_out() {
        let limits = Limits::new(&Session::practice());
        for _ in 0..FREE_FAILURES {
            assert_eq!(limits.may_try_login("jury", address(1)), Ok(()));
            limits.login_failed("jury", address(1));
        }
        assert!(matches!(
            limits.may_try_login("jury", address(1)),
            Err(Wait::Backoff(_))
        ));
        assert_eq!(limits.may_try_login("jury", address(2)), Ok(()));
        assert_eq!(limits.may_try_login("alice", address(1)), Ok(()));
    }

    #[test]
    fn the_backoff_doubles_up_to_its_cap_and_a_success_clears_it() {
        let mut failed = Failures {
            count: FREE_FAILURES,
            last: Instant::now(),
        };
        assert_eq!(failed.backoff(), FIRST_BACKOFF);
        failed.count += 1;
        assert_eq!(failed.backoff(), FIRST_BACKOFF * 2);
        failed.count += 100;
        assert_eq!(failed.backoff(), MAX_BACKOFF);
        let limits = Limits::new(&Session::practice());
        for _ in 0..FREE_FAILURES + 1 {
            limits.login_failed("bob", address(3));
        }
        limits.login_succeeded("bob", address(3));
        assert_eq!(limits.may_try_login("bob", address(3)), Ok(()));
    }

    #[test]
    fn the_failure_table_stays_bounded() {
        let limits = Limits::new(&Session::practice());
        for n in 0..FAILURE_TABLE_PRUNE_AT + 50 {
            limits.login_failed(&format!("user{n}"), address(4));
        }
        assert!(limits.remembered() <= FAILURE_TABLE_PRUNE_AT);
    }
}
