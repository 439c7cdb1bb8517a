//! `judge users import users.csv`: accounts from the teacher's CSV, the
//! generated passwords written once to a file only the teacher reads (the
//! store keeps only their argon2 hashes).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::ServeError;
use super::accounts::{
    Role, account_named, check_name, check_username, end_everything, generate_password,
    hash_password, upsert,
};
use crate::spec::{FieldError, SpecError};
use crate::store::engine::Db;

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
        let display_name = field(name).unwrap_or_else(|| username.clone());
        if let Err(why) = check_name(&display_name) {
            return Err(invalid(line, "display name", why.to_string()));
        }
        let team = field(team);
        if let Some(Err(why)) = team.as_deref().map(check_name) {
            return Err(invalid(line, "team", why.to_string()));
        }
        rows.push(UserRow {
            display_name,
            team,
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
            if password.is_some() {
                // A new password ends every login and token of the old one.
                let id = account_named(&mut tx, &row.username)?.map(|a| a.id);
                if let Some(id) = id {
                    end_everything(&mut tx, id)?;
                }
            }
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
