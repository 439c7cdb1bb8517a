//! Accounts: participants and jury members, their argon2 password hashes,
//! browser logins (a random token in an HttpOnly cookie, stored hashed,
//! with the login's CSRF token) and API tokens (stored hashed). `judge
//! users import users.csv` creates accounts from the teacher's CSV and
//! writes the generated passwords once, to a file only the teacher reads.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::ServeError;
use crate::errors::{FieldError, SpecError};
use crate::store::DbError;
use crate::store::engine::{Db, Sql};
use crate::store::value::{Row, params};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::Rng;

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

    fn parse(text: &str) -> Option<Role> {
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

/// A fresh password: 16 letters and digits without look-alikes, in groups
/// of four (about 80 bits).
pub(crate) fn generate_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    let mut out = String::new();
    for i in 0..16 {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(ALPHABET[rng.random_range(0..ALPHABET.len())] as char);
    }
    out
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

pub(crate) fn hash_password(password: &str) -> Result<String, ServeError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| ServeError::Password(e.to_string()))
}

pub(crate) fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        argon2::Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

pub(crate) fn now_text() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

const ACCOUNT_SELECT: &str = "SELECT id, username, display_name, team, role FROM accounts";

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

/// A user name as accounts take it: 1 to 64 ASCII letters, digits, `-`,
/// `_` or `.`; else why not.
pub(crate) fn check_username(username: &str) -> Result<(), BadUsername> {
    let ok = !username.is_empty()
        && username.len() <= 64
        && username
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(BadUsername {
            shown: crate::escape::visible(username),
        })
    }
}

/// A user name accounts do not take; `shown` is it escaped.
#[derive(Debug, thiserror::Error)]
#[error("`{shown}`: 1 to 64 letters, digits, `-`, `_` or `.`")]
pub(crate) struct BadUsername {
    shown: String,
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

/// The account named `username` and its password hash, to verify
/// outside the store's lock (argon2 takes a while on purpose).
pub(crate) fn password_hash_of(
    db: &mut impl Sql,
    username: &str,
) -> Result<Option<(i64, String)>, DbError> {
    db.query_opt(
        "SELECT id, password_hash FROM accounts WHERE username = ?1",
        params![username],
    )?
    .map(|row| Ok((row.get(0)?, row.get(1)?)))
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

/// The login a cookie's token stands for, if it has not expired.
pub(crate) fn login(db: &mut impl Sql, token: &str) -> Result<Option<Login>, DbError> {
    let Some(row) = db.query_opt(
        "SELECT account_id, csrf, expires_at FROM logins WHERE token_hash = ?1",
        params![token_hash(token)],
    )?
    else {
        return Ok(None);
    };
    let (id, csrf, expires): (i64, String, String) = (row.get(0)?, row.get(1)?, row.get(2)?);
    let alive = humantime::parse_rfc3339(&expires).is_ok_and(|e| e > SystemTime::now());
    if !alive {
        return Ok(None);
    }
    Ok(account(db, id)?.map(|account| Login { account, csrf }))
}

pub(crate) fn end_login(db: &mut impl Sql, token: &str) -> Result<(), DbError> {
    db.execute(
        "DELETE FROM logins WHERE token_hash = ?1",
        params![token_hash(token)],
    )?;
    Ok(())
}

/// A new API token for `account` (only its hash is stored).
pub(crate) fn new_api_token(db: &mut impl Sql, account: i64) -> Result<String, DbError> {
    let token = random_token();
    db.execute(
        "INSERT INTO api_tokens (token_hash, account_id, created_at) VALUES (?1, ?2, ?3)",
        params![token_hash(&token), account, now_text()],
    )?;
    Ok(token)
}

pub(crate) fn api_account(db: &mut impl Sql, token: &str) -> Result<Option<Account>, DbError> {
    let id: Option<i64> = db
        .query_opt(
            "SELECT account_id FROM api_tokens WHERE token_hash = ?1",
            params![token_hash(token)],
        )?
        .map(|row| row.get(0))
        .transpose()?;
    match id {
        Some(id) => account(db, id),
        None => Ok(None),
    }
}

/// What an import did.
#[derive(Debug, Default)]
pub(crate) struct Imported {
    pub(crate) created: usize,
    pub(crate) updated: usize,
    /// The file the new passwords went to, if any was written.
    pub(crate) passwords: Option<PathBuf>,
}

/// One row of the teacher's CSV.
struct UserRow {
    username: String,
    display_name: String,
    team: Option<String>,
    role: Role,
}

/// Reads `user, display name, team, role` rows (a header row naming the
/// columns is required; `username`, `name` and `display_name` are read
/// too). Errors name the file, line and field.
fn read_users(path: &Path) -> Result<Vec<UserRow>, SpecError> {
    let invalid = |line: u64, key: &str, message: String| {
        SpecError::Invalid(FieldError::on_line(path, line as usize, key, message))
    };
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_path(path)
        .map_err(|e| SpecError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    let headers = reader.headers().map_err(|e| SpecError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let column = |names: &[&str]| {
        headers.iter().position(|h| {
            let h = h.to_ascii_lowercase().replace(['_', '-'], " ");
            names.contains(&h.as_str())
        })
    };
    let user = column(&["user", "username", "login"])
        .ok_or_else(|| invalid(1, "user", "the header row needs a `user` column".into()))?;
    let name = column(&["display name", "name"]);
    let team = column(&["team"]);
    let role = column(&["role"]);
    let mut rows: Vec<UserRow> = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| SpecError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let field = |i: Option<usize>| {
            i.and_then(|i| record.get(i))
                .map(str::to_string)
                .filter(|s| !s.is_empty())
        };
        let username = field(Some(user)).unwrap_or_default();
        if username.is_empty() && record.iter().all(str::is_empty) {
            continue;
        }
        if let Err(why) = check_username(&username) {
            return Err(invalid(line, "user", why.to_string()));
        }
        if rows.iter().any(|r| r.username == username) {
            return Err(invalid(line, "user", format!("`{username}` appears twice")));
        }
        let role_text = field(role).unwrap_or_default();
        let role = Role::parse(&role_text).ok_or_else(|| {
            invalid(
                line,
                "role",
                format!(
                    "`{}`: write `participant` or `jury`",
                    crate::escape::visible(&role_text)
                ),
            )
        })?;
        rows.push(UserRow {
            display_name: field(name).unwrap_or_else(|| username.clone()),
            team: field(team),
            username,
            role,
        });
    }
    Ok(rows)
}

/// `judge users import`: creates or updates every account of `csv_path`.
/// New accounts (and all of them with `reset`) get a generated password,
/// written once to `passwords_out` (`user,password` rows, readable by its
/// owner only); the store keeps only their argon2 hashes.
pub(crate) fn import(
    db: &mut Db,
    csv_path: &Path,
    passwords_out: &Path,
    reset: bool,
) -> Result<Imported, ServeError> {
    let rows = read_users(csv_path)?;
    let mut tx = db.transaction()?;
    let mut imported = Imported::default();
    let mut passwords: Vec<(String, String)> = Vec::new();
    for row in &rows {
        let exists = account_named(&mut tx, &row.username)?.is_some();
        let password = (!exists || reset).then(generate_password);
        let hash = password.as_deref().map(hash_password).transpose()?;
        upsert(
            &mut tx,
            &row.username,
            &row.display_name,
            row.team.as_deref(),
            row.role,
            hash.as_deref(),
        )?;
        if exists {
            imported.updated += 1;
        } else {
            imported.created += 1;
        }
        if let Some(password) = password {
            passwords.push((row.username.clone(), password));
        }
    }
    if !passwords.is_empty() {
        write_passwords(passwords_out, &passwords)?;
        imported.passwords = Some(passwords_out.to_path_buf());
    }
    // The passwords are on disk before the accounts exist: a failed write
    // leaves no account whose password nobody knows.
    tx.commit()?;
    Ok(imported)
}

fn write_passwords(path: &Path, passwords: &[(String, String)]) -> Result<(), ServeError> {
    use std::os::unix::fs::OpenOptionsExt;
    let failed = |source| ServeError::Io {
        what: format!("write {}", path.display()),
        source,
    };
    // Never over an earlier file: its passwords may not have been handed out.
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(failed)?;
    let mut text = String::from("user,password\n");
    for (user, password) in passwords {
        text.push_str(&format!("{user},{password}\n"));
    }
    file.write_all(text.as_bytes()).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let password = generate_password();
        assert_eq!(password.len(), 19);
        let hash = hash_password(&password).unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password(&password, &hash));
        assert!(!verify_password("guess", &hash));
        assert!(!verify_password(&password, "!"));
    }

    #[test]
    fn a_bad_row_names_its_line_and_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("users.csv");
        std::fs::write(
            &path,
            "user,display name,team,role\nalice,Alice,red,participant\nbob,Bob,,admin\n",
        )
        .unwrap();
        let error = read_users(&path).err().unwrap().to_string();
        assert!(
            error.ends_with("users.csv:3: key `role`: `admin`: write `participant` or `jury`"),
            "{error}"
        );
        std::fs::write(&path, "user,role\nal ice,jury\n").unwrap();
        let error = read_users(&path).err().unwrap().to_string();
        assert!(error.contains(":2: key `user`"), "{error}");
    }
}
