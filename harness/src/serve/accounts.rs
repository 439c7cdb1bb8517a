//! Accounts as the server keeps them: what a user name and a display name
//! may be, passwords made and hashed (argon2id) and checked; the tables
//! (accounts, logins, API tokens) are the store's (`store/accounts.rs`),
//! whose names handlers reach through here. `users_import.rs` reads the
//! teacher's CSV.

use super::ServeError;
use crate::store::engine::Db;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::Rng;

pub(crate) use crate::store::accounts::{
    Account, Login, Role, TokenInfo, account_named, accounts, api_account, create_participant,
    end_everything, end_login, login, new_api_token, open_logins, password_hash_of, random_token,
    revoke_token, set_disabled, start_login, tokens, upsert,
};

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

/// A user name as accounts take it: 1 to 64 ASCII letters, digits, `-`,
/// `_` or `.`, and not `.` or `..` (a name is part of URLs and of the
/// gradebook's file names); else why not.
pub(crate) fn check_username(username: &str) -> Result<(), BadUsername> {
    let ok = !username.is_empty()
        && username.len() <= 64
        && username != "."
        && username != ".."
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
#[error("`{shown}`: 1 to 64 letters, digits, `-`, `_` or `.` (not `.` or `..`)")]
pub(crate) struct BadUsername {
    shown: String,
}

/// A name a person chose (a display name, a team) as accounts take it:
/// 1 to 64 characters after trimming, none of them a control character or
/// one that reorders text (`escape::is_control`: ESC, BEL, U+202E, ...),
/// which would forge or garble what the scoreboard and the jury read.
pub(crate) fn check_name(name: &str) -> Result<(), BadName> {
    let shown = || crate::escape::name(name);
    let trimmed = name.trim();
    if trimmed.is_empty() || trimmed.chars().count() > 64 {
        return Err(BadName::Length { shown: shown() });
    }
    if trimmed.chars().any(crate::escape::is_control) {
        return Err(BadName::Control { shown: shown() });
    }
    Ok(())
}

/// A display name or team accounts do not take; `shown` is it escaped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BadName {
    #[error("`{shown}`: a name of 1 to 64 characters")]
    Length { shown: String },
    #[error("`{shown}`: no control characters or text-direction overrides")]
    Control { shown: String },
}

/// A new password for `account`, whose logins and tokens all end; the
/// password, to show once.
pub(crate) fn reset_password(db: &mut Db, account: i64) -> Result<String, ServeError> {
    let password = generate_password();
    let hash = hash_password(&password)?;
    crate::store::accounts::set_password_hash(db, account, &hash)?;
    Ok(password)
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
}
