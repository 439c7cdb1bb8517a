//! `judge serve`'s accounts in the result store (migrations 4 and 7,
//! `docs/store.md`): participants and jury members with their argon2
//! password hashes (made and checked by the server, never here), browser
//! logins (a random token in an HttpOnly cookie, stored hashed, with the
//! login's CSRF token) and API tokens (stored hashed, expiring, named by
//! the start of their hash, revocable); a disabled account's logins and
//! tokens are ended, and none of its can be used.

use std::time::{Duration, SystemTime};

use rand::Rng;

use super::DbError;
use super::engine::{Db, Sql};
use super::value::{Row, params};

/// How long a browser login lasts.
pub(crate) const LOGIN_LIFETIME: Duration = Duration::from_secs(12 * 3600);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Participant,
    Jury,
}

impl Role {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Role::Participant => "participant",
            Role::Jury => "jury",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Role> {
        match text.trim().to_ascii_lowercase().as_str() {
            "participant" | "student" | "team" | "" => Some(Role::Participant),
            "jury" | "judge" | "teacher" => Some(Role::Jury),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Account {
    pub(crate) id: i64,
    pub(crate) username: String,
    pub(crate) display_name: String,
    pub(crate) team: Option<String>,
    pub(crate) role: Role,
    /// No login: it cannot log in, and its logins and tokens were ended.
    pub(crate) disabled: bool,
}

impl Account {
    pub(crate) fn is_jury(&self) -> bool {
        self.role == Role::Jury
    }
}

/// A browser login: who, and the token every form of theirs must carry.
#[derive(Debug, Clone)]
pub(crate) struct Login {
    pub(crate) account: Account,
    pub(crate) csrf: String,
}

/// 32 random bytes as hex: a login cookie, an API token, a CSRF token.
pub(crate) fn random_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// How a token is stored: a database leak gives no usable login.
pub(crate) fn token_hash(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

pub(crate) fn now_text() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

const ACCOUNT_SELECT: &str =
    "SELECT id, username, display_name, team, role, disabled FROM accounts";

fn account_from_row(row: &Row) -> Result<Account, DbError> {
    let role: String = row.get(4)?;
    Ok(Account {
        id: row.get(0)?,
        username: row.get(1)?,
        display_name: row.get(2)?,
        team: row.get(3)?,
        role: if role == "jury" {
            Role::Jury
        } else {
            Role::Participant
        },
        disabled: row.get::<i64>(5)? != 0,
    })
}

pub(crate) fn account(db: &mut impl Sql, id: i64) -> Result<Option<Account>, DbError> {
    db.query_opt(&format!("{ACCOUNT_SELECT} WHERE id = ?1"), params![id])?
        .map(|row| account_from_row(&row))
        .transpose()
}

pub(crate) fn account_named(db: &mut impl Sql, username: &str) -> Result<Option<Account>, DbError> {
    db.query_opt(
        &format!("{ACCOUNT_SELECT} WHERE username = ?1"),
        params![username],
    )?
    .map(|row| account_from_row(&row))
    .transpose()
}

/// Every account, participants first, by username.
pub(crate) fn accounts(db: &mut impl Sql) -> Result<Vec<Account>, DbError> {
    db.query(
        &format!("{ACCOUNT_SELECT} ORDER BY CASE WHEN role = 'jury' THEN 1 ELSE 0 END, username"),
        &[],
    )?
    .iter()
    .map(account_from_row)
    .collect()
}

/// Creates an account, or updates its name, team and role (its password
/// too when `password` is given). Returns whether it was created.
pub(crate) fn upsert(
    db: &mut impl Sql,
    username: &str,
    display_name: &str,
    team: Option<&str>,
    role: Role,
    password_hash: Option<&str>,
) -> Result<bool, DbError> {
    let exists = account_named(db, username)?.is_some();
    if exists {
        db.execute(
            "UPDATE accounts SET display_name = ?2, team = ?3, role = ?4, \
             password_hash = COALESCE(?5, password_hash) WHERE username = ?1",
            params![username, display_name, team, role.as_str(), password_hash],
        )?;
    } else {
        db.execute(
            "INSERT INTO accounts (username, display_name, team, role, password_hash, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                username,
                display_name,
                team,
                role.as_str(),
                password_hash.unwrap_or("!"),
                now_text()
            ],
        )?;
    }
    Ok(!exists)
}

/// A new participant (open registration); `None` if the name is taken.
pub(crate) fn create_participant(
    db: &mut impl Sql,
    username: &str,
    display_name: &str,
    password_hash: &str,
) -> Result<Option<i64>, DbError> {
    db.query_opt(
        "INSERT INTO accounts (username, display_name, team, role, password_hash, \
         created_at) VALUES (?1, ?2, NULL, 'participant', ?3, ?4) \
         ON CONFLICT (username) DO NOTHING RETURNING id",
        params![username, display_name, password_hash, now_text()],
    )?
    .map(|row| row.get(0))
    .transpose()
}

/// The account named `username`, its password hash and whether it is
/// disabled, to verify outside the store's lock (argon2 takes a while on
/// purpose).
pub(crate) fn password_hash_of(
    db: &mut impl Sql,
    username: &str,
) -> Result<Option<(i64, String, bool)>, DbError> {
    db.query_opt(
        "SELECT id, password_hash, disabled FROM accounts WHERE username = ?1",
        params![username],
    )?
    .map(|row| Ok((row.get(0)?, row.get(1)?, row.get::<i64>(2)? != 0)))
    .transpose()
}

/// A new browser login for `account`: the cookie's token (only its hash
/// is stored).
pub(crate) fn start_login(db: &mut impl Sql, account: i64) -> Result<String, DbError> {
    let token = random_token();
    let expires = SystemTime::now() + LOGIN_LIFETIME;
    db.execute(
        "INSERT INTO logins (token_hash, account_id, csrf, created_at, expires_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            token_hash(&token),
            account,
            random_token(),
            now_text(),
            humantime::format_rfc3339_millis(expires).to_string()
        ],
    )?;
    Ok(token)
}

/// The login a cookie's token stands for, if it has not expired and its
/// account is not disabled.
pub(crate) fn login(db: &mut impl Sql, token: &str) -> Result<Option<Login>, DbError> {
    let Some(row) = db.query_opt(
        "SELECT account_id, csrf, expires_at FROM logins WHERE token_hash = ?1",
        params![token_hash(token)],
    )?
    else {
        return Ok(None);
    };
    let (id, csrf, expires): (i64, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
    if !alive(Some(&expires)) {
        return Ok(None);
    }
    let account = account(db, id)?.filter(|a| !a.disabled);
    Ok(account.map(|account| Login { account, csrf }))
}

/// Whether a login or token expiring at `expires` (RFC 3339) is still
/// valid; one without an expiry is not.
fn alive(expires: Option<&str>) -> bool {
    expires.is_some_and(|e| humantime::parse_rfc3339(e).is_ok_and(|e| e > SystemTime::now()))
}

pub(crate) fn end_login(db: &mut impl Sql, token: &str) -> Result<(), DbError> {
    db.execute(
        "DELETE FROM logins WHERE token_hash = ?1",
        params![token_hash(token)],
    )?;
    Ok(())
}

/// Ends every browser login and API token of `account`; how many.
pub(crate) fn end_everything(db: &mut impl Sql, account: i64) -> Result<usize, DbError> {
    let logins = db.execute("DELETE FROM logins WHERE account_id = ?1", params![account])?;
    let tokens = db.execute(
        "DELETE FROM api_tokens WHERE account_id = ?1",
        params![account],
    )?;
    Ok(logins + tokens)
}

/// Disables (or enables) `account`; disabling ends its logins and tokens.
pub(crate) fn set_disabled(db: &mut Db, account: i64, disabled: bool) -> Result<(), DbError> {
    let mut tx = db.transaction()?;
    tx.execute(
        "UPDATE accounts SET disabled = ?2 WHERE id = ?1",
        params![account, i64::from(disabled)],
    )?;
    if disabled {
        end_everything(&mut tx, account)?;
    }
    tx.commit()
}

/// A new API token for `account`, valid for `lifetime` (only its hash is
/// stored); `label` says what asked for it.
pub(crate) fn new_api_token(
    db: &mut impl Sql,
    account: i64,
    label: &str,
    lifetime: Duration,
) -> Result<String, DbError> {
    let token = random_token();
    let expires = SystemTime::now() + lifetime;
    db.execute(
        "INSERT INTO api_tokens (token_hash, account_id, created_at, expires_at, label) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            token_hash(&token),
            account,
            now_text(),
            humantime::format_rfc3339_millis(expires).to_string(),
            label
        ],
    )?;
    Ok(token)
}

/// How often a token's `last_used_at` is written at most.
const LAST_USED_STEP: Duration = Duration::from_secs(60);

/// The account an API token stands for, if it has not expired and the
/// account is not disabled; notes the token's use.
pub(crate) fn api_account(db: &mut impl Sql, token: &str) -> Result<Option<Account>, DbError> {
    let hash = token_hash(token);
    let Some(row) = db.query_opt(
        "SELECT account_id, expires_at, last_used_at FROM api_tokens WHERE token_hash = ?1",
        params![hash],
    )?
    else {
        return Ok(None);
    };
    let (id, expires, used): (i64, Option<String>, Option<String>) =
        (row.get(0)?, row.get(1)?, row.get(2)?);
    if !alive(expires.as_deref()) {
        return Ok(None);
    }
    let stale = used
        .and_then(|u| humantime::parse_rfc3339(&u).ok())
        .is_none_or(|u| u + LAST_USED_STEP < SystemTime::now());
    if stale {
        db.execute(
            "UPDATE api_tokens SET last_used_at = ?2 WHERE token_hash = ?1",
            params![hash, now_text()],
        )?;
    }
    Ok(account(db, id)?.filter(|a| !a.disabled))
}

/// An API token as its owner and the jury see it (never the token).
#[derive(Debug, Clone)]
pub(crate) struct TokenInfo {
    /// The first 12 hex digits of the token's hash: its name on the pages.
    pub(crate) id: String,
    pub(crate) label: String,
    pub(crate) created_at: String,
    pub(crate) expires_at: String,
    pub(crate) last_used_at: String,
    pub(crate) expired: bool,
}

/// How many hex digits of a token's hash name it.
const TOKEN_ID_LEN: usize = 12;

/// Every API token of `account`, newest first.
pub(crate) fn tokens(db: &mut impl Sql, account: i64) -> Result<Vec<TokenInfo>, DbError> {
    let rows = db.query(
        "SELECT token_hash, label, created_at, expires_at, last_used_at FROM api_tokens \
         WHERE account_id = ?1 ORDER BY created_at DESC",
        params![account],
    )?;
    rows.iter()
        .map(|row| {
            let hash: String = row.get(0)?;
            let expires: Option<String> = row.get(3)?;
            Ok(TokenInfo {
                id: hash.chars().take(TOKEN_ID_LEN).collect(),
                label: crate::escape::name(&row.get::<Option<String>>(1)?.unwrap_or_default()),
                created_at: row.get(2)?,
                expired: !alive(expires.as_deref()),
                expires_at: expires.unwrap_or_default(),
                last_used_at: row.get::<Option<String>>(4)?.unwrap_or_default(),
            })
        })
        .collect()
}

/// Revokes `account`'s token named `id` (`TokenInfo::id`); whether one was.
pub(crate) fn revoke_token(db: &mut impl Sql, account: i64, id: &str) -> Result<bool, DbError> {
    if id.len() != TOKEN_ID_LEN || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    let removed = db.execute(
        "DELETE FROM api_tokens WHERE account_id = ?1 AND substr(token_hash, 1, 12) = ?2",
        params![account, id.to_ascii_lowercase()],
    )?;
    Ok(removed > 0)
}

/// How many browser logins of `account` are open.
pub(crate) fn open_logins(db: &mut impl Sql, account: i64) -> Result<usize, DbError> {
    let rows = db.query(
        "SELECT expires_at FROM logins WHERE account_id = ?1",
        params![account],
    )?;
    let mut open = 0;
    for row in &rows {
        let expires: String = row.get(0)?;
        open += usize::from(alive(Some(&expires)));
    }
    Ok(open)
}

/// Gives `account` the password whose argon2 hash is `hash`; every
/// login and token of the old one ends.
pub(crate) fn set_password_hash(db: &mut Db, account: i64, hash: &str) -> Result<(), DbError> {
    let mut tx = db.transaction()?;
    tx.execute(
        "UPDATE accounts SET password_hash = ?2 WHERE id = ?1",
        params![account, hash],
    )?;
    end_everything(&mut tx, account)?;
    tx.commit()
}
