//! Accounts as the server keeps them: what a user name and a display name
//! may be, passwords made and hashed (argon2id) and checked; the tables
//! (accounts, logins, API tokens) are the store's (`store/accounts.rs`),
//! whose names handlers reach through here. `users_import.rs` reads the
//! teacher's CSV.

use super::ServeError;
use crate::store::engine::Db;
use argon2::password_hash::{PasswordHash, SaltString};
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
    PasswordMemory::default().hash(password)
}

/// The working memory of argon2id (19 MiB at the default parameters),
/// kept by a thread that checks passwords one after another. A fresh
/// allocation for each check let the allocator keep every one it had
/// made: a flood of logins grew the server by hundreds of MiB although
/// only two threads hashed at a time.
#[derive(Default)]
pub(crate) struct PasswordMemory {
    blocks: Vec<argon2::Block>,
}

impl PasswordMemory {
    /// `password` hashed with a fresh salt, as a PHC string.
    pub(crate) fn hash(&mut self, password: &str) -> Result<String, ServeError> {
        let failed = |e: &dyn std::fmt::Display| ServeError::Password(e.to_string());
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let argon = argon2::Argon2::default();
        let mut salt_bytes = [0u8; 64];
        let salt_bytes = salt.decode_b64(&mut salt_bytes).map_err(|e| failed(&e))?;
        let output = self
            .derive(&argon, password, salt_bytes)
            .map_err(|e| failed(&e))?;
        let params = argon2::password_hash::ParamsString::try_from(argon.params())
            .map_err(|e| failed(&e))?;
        Ok(PasswordHash {
            algorithm: argon2::Algorithm::default().ident(),
            version: Some(argon2::Version::default().into()),
            params,
            salt: Some(salt.as_salt()),
            hash: Some(output),
        }
        .to_string())
    }

    /// Whether `password` is the one `hash` (a PHC string) was made of.
    pub(crate) fn verify(&mut self, password: &str, hash: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(hash) else {
            return false;
        };
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return false;
        };
        let Ok(algorithm) = argon2::Algorithm::try_from(parsed.algorithm) else {
            return false;
        };
        let version = match parsed.version.map(argon2::Version::try_from) {
            None => argon2::Version::default(),
            Some(Ok(version)) => version,
            Some(Err(_)) => return false,
        };
        let Ok(params) = argon2::Params::try_from(&parsed) else {
            return false;
        };
        let argon = argon2::Argon2::new(algorithm, version, params);
        let mut salt_bytes = [0u8; 64];
        let Ok(salt_bytes) = salt.decode_b64(&mut salt_bytes) else {
            return false;
        };
        // `Output`'s equality takes the same time wherever they differ.
        self.derive(&argon, password, salt_bytes)
            .is_ok_and(|output| output == expected)
    }

    /// The hash of `password` and `salt` under `argon`'s parameters,
    /// computed in this memory (grown once to the parameters' size).
    fn derive(
        &mut self,
        argon: &argon2::Argon2<'_>,
        password: &str,
        salt: &[u8],
    ) -> argon2::password_hash::Result<argon2::password_hash::Output> {
        let params = argon.params();
        let needed = params.block_count();
        if self.blocks.len() != needed {
            self.blocks = vec![argon2::Block::default(); needed];
        }
        let length = params
            .output_len()
            .unwrap_or(argon2::Params::DEFAULT_OUTPUT_LEN);
        argon2::password_hash::Output::init_with(length, |out| {
            Ok(argon.hash_password_into_with_memory(
                password.as_bytes(),
                salt,
                out,
                &mut self.blocks,
            )?)
        })
    }
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
        let mut memory = PasswordMemory::default();
        assert!(memory.verify(&password, &hash));
        assert!(!memory.verify("guess", &hash));
        assert!(!memory.verify(&password, "!"));
    }

    #[test]
    fn one_memory_checks_hashes_of_the_argon2_crate_and_is_checked_by_it() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let mut memory = PasswordMemory::default();
        // Stored before the memory was kept, and with other parameters.
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let small = argon2::Params::new(4096, 2, 1, None).unwrap();
        for argon in [argon2::Argon2::default(), argon2::Argon2::from(small)] {
            let theirs = argon.hash_password(b"old secret", &salt).unwrap();
            assert!(memory.verify("old secret", &theirs.to_string()));
            assert!(!memory.verify("old secreT", &theirs.to_string()));
        }
        let ours = memory.hash("new secret").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(
            argon2::Argon2::default()
                .verify_password(b"new secret", &parsed)
                .is_ok()
        );
        assert!(memory.verify("new secret", &ours));
        assert!(!memory.verify("new secret", &ours.replace("$argon2id$", "$argon2i$")));
    }
}
