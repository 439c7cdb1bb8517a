//! HTTP basic auth with an account's password, which the CCS API says a
//! server must take (tools such as the resolver and DOMjudge's shadowing
//! send it with every request). It goes the way of the login form: the
//! same per-user-and-address limits (`limits.rs`) and the same bounded
//! password threads (`passwords.rs`, a missing or disabled account against
//! the dummy hash). Since checking an argon2 hash costs tens of
//! milliseconds on purpose, a success is remembered for a short while,
//! keyed by the user, the stored hash (a new password or a disabled
//! account forgets it) and a keyed hash of the password given, so that a
//! tool polling every second costs one check, not one a request.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::Engine;

use crate::serve::accounts::{self, Account};
use crate::serve::app::App;

/// How long a checked password stands without a new check.
const REMEMBERED: Duration = Duration::from_secs(5 * 60);
/// Remembered successes at most (the stale ones are dropped past it).
const MAX_REMEMBERED: usize = 10_000;

/// Why a request's basic credentials were refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Wrong, unknown, disabled or not readable: the answer is 401.
    Wrong,
    /// Too many failures lately, or the password threads are full: 429,
    /// unchecked.
    TooMany,
}

/// A request's basic credentials once checked (kept in the request's
/// extensions, so that each request costs one check).
#[derive(Debug, Clone)]
pub(crate) struct BasicChecked(pub(crate) Result<Account, Refusal>);

/// A checked success: the user, the stored hash, the given password's
/// keyed hash.
type Remembered = (String, String, [u8; 32]);

/// The remembered successes.
pub(crate) struct BasicAuth {
    /// Keys the password's hash in memory: a dump of it gives nothing.
    key: [u8; 32],
    remembered: Mutex<HashMap<Remembered, Instant>>,
}

impl Default for BasicAuth {
    fn default() -> BasicAuth {
        BasicAuth {
            key: rand::random(),
            remembered: Mutex::new(HashMap::new()),
        }
    }
}

/// The user and password of an `Authorization: Basic ...` value.
pub(crate) fn credentials(value: &str) -> Option<(String, String)> {
    let encoded = value.strip_prefix("Basic ")?.trim();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_string(), password.to_string()))
}

impl BasicAuth {
    /// Checks an `Authorization: Basic ...` value from `client`.
    pub(crate) async fn check(
        &self,
        app: &App,
        value: &str,
        client: IpAddr,
    ) -> Result<Account, Refusal> {
        let (user, password) = credentials(value).ok_or(Refusal::Wrong)?;
        if accounts::check_username(&user).is_err() || password.len() > 1024 {
            return Err(Refusal::Wrong);
        }
        let found =
            accounts::password_hash_of(app.store().db(), &user).map_err(|_| Refusal::Wrong)?;
        let given = *blake3::keyed_hash(&self.key, password.as_bytes()).as_bytes();
        let (id, hash) = match found {
            Some((id, hash, false)) => (Some(id), Some(hash)),
            _ => (None, None),
        };
        let remembered = hash.clone().map(|h| (user.clone(), h, given));
        if !remembered.as_ref().is_some_and(|r| self.remembers(r)) {
            app.limits
                .may_try_login(&user, client)
                .map_err(|_| Refusal::TooMany)?;
            let right = app
                .passwords
                .verify(&password, hash)
                .await
                .map_err(|_| Refusal::TooMany)?;
            if !right {
                app.limits.login_failed(&user, client);
                return Err(Refusal::Wrong);
            }
            app.limits.login_succeeded(&user, client);
            if let Some(remembered) = remembered {
                self.remember(remembered);
            }
        }
        let account = id.and_then(|id| {
            crate::store::accounts::account(app.store().db(), id)
                .ok()
                .flatten()
        });
        account.ok_or(Refusal::Wrong)
    }

    fn remembers(&self, key: &Remembered) -> bool {
        let remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        remembered
            .get(key)
            .is_some_and(|since| since.elapsed() < REMEMBERED)
    }

    fn remember(&self, key: Remembered) {
        let mut remembered = self.remembered.lock().unwrap_or_else(|e| e.into_inner());
        if remembered.len() >= MAX_REMEMBERED {
            remembered.retain(|_, since| since.elapsed() < REMEMBERED);
        }
        if remembered.len() < MAX_REMEMBERED {
            remembered.insert(key, Instant::now());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_read_from_the_header() {
        let value = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("alice:pa:ss")
        );
        assert_eq!(
            credentials(&value),
            Some(("alice".to_string(), "pa:ss".to_string()))
        );
        assert_eq!(credentials("Basic !!!"), None);
        assert_eq!(credentials("Bearer abc"), None);
    }

    #[test]
    fn a_success_is_remembered_for_its_user_hash_and_password_only() {
        let auth = BasicAuth::default();
        let key = |user: &str, hash: &str, password: &str| {
            let given = *blake3::keyed_hash(&auth.key, password.as_bytes()).as_bytes();
            (user.to_string(), hash.to_string(), given)
        };
        auth.remember(key("alice", "$argon2id$a", "right"));
        assert!(auth.remembers(&key("alice", "$argon2id$a", "right")));
        assert!(!auth.remembers(&key("alice", "$argon2id$a", "wrong")));
        assert!(!auth.remembers(&key("alice", "$argon2id$new", "right")));
        assert!(!auth.remembers(&key("bob", "$argon2id$a", "right")));
    }
}
