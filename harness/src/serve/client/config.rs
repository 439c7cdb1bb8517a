//! Where `judge submit` keeps the server and its token between runs: a
//! TOML file only its owner may read or write (0600), at `--config FILE`
//! or where the XDG Base Directory specification puts a user's
//! configuration: `$XDG_CONFIG_HOME/judge/submit.toml`, else
//! `~/.config/judge/submit.toml`.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::errors::{Error, Result};
use crate::spec::line_of;

/// What `--user` keeps between runs.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Saved {
    /// The server logged in to last, as given (`http://host:8080`).
    pub(super) server: Option<String>,
    pub(super) token: Option<String>,
}

/// The config file: `explicit`, else under `xdg_config_home`, else under
/// `home`'s `.config`; none without either. As the XDG specification
/// says, a variable that is empty or not an absolute path counts as
/// unset (an empty `XDG_CONFIG_HOME` once put the token into the current
/// folder).
pub(super) fn path(
    explicit: Option<&Path>,
    xdg_config_home: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    if let Some(explicit) = explicit {
        return Some(explicit.to_path_buf());
    }
    let absolute = |value: Option<OsString>| value.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = absolute(xdg_config_home).or_else(|| absolute(home).map(|h| h.join(".config")))?;
    Some(base.join("judge").join("submit.toml"))
}

/// The file at `path` (nothing saved yet when there is none). A file
/// that cannot be read is named with the line of what is wrong in it.
pub(super) fn read(path: &Path) -> Result<Saved> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Saved::default()),
        Err(e) => {
            return Err(Error::Usage(format!("cannot read {}: {e}", path.display())));
        }
    };
    toml::from_str(&text).map_err(|e| {
        let line = e.span().map_or(1, |span| line_of(&text, span.start));
        Error::Usage(format!("{}:{line}: {}", path.display(), e.message()))
    })
}

/// Writes `saved` to `path`, readable and writable by its owner only,
/// whatever mode a file already there had; its folder is made private
/// when it is made.
pub(super) fn write(path: &Path, saved: &Saved) -> Result<()> {
    let failed = |source| Error::Report {
        what: path.display().to_string(),
        source,
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .map_err(failed)?;
    }
    let text = toml::to_string(saved).map_err(|e| failed(std::io::Error::other(e)))?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(failed)?;
    // The mode above applies to a new file only: an old one is narrowed
    // while still empty, before the token is in it.
    file.set_permissions(std::fs::Permissions::from_mode(0o600))
        .map_err(failed)?;
    file.write_all(text.as_bytes()).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(text: &str) -> Option<OsString> {
        Some(OsString::from(text))
    }

    #[test]
    fn an_empty_or_relative_xdg_config_home_counts_as_unset() {
        let home = os("/home/ada");
        let under_home = Some(PathBuf::from("/home/ada/.config/judge/submit.toml"));
        assert_eq!(path(None, os(""), home.clone()), under_home);
        assert_eq!(path(None, os("conf"), home.clone()), under_home);
        assert_eq!(path(None, None, home.clone()), under_home);
        assert_eq!(
            path(None, os("/etc/xdg-ada"), home.clone()),
            Some(PathBuf::from("/etc/xdg-ada/judge/submit.toml"))
        );
        assert_eq!(
            path(Some(Path::new("mine.toml")), os(""), home),
            Some(PathBuf::from("mine.toml"))
        );
        // No place at all: nothing is written into the current folder.
        assert_eq!(path(None, os(""), os("")), None);
        assert_eq!(path(None, None, None), None);
    }

    #[test]
    fn the_file_is_its_owners_only_even_when_it_was_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("judge").join("submit.toml");
        let saved = Saved {
            server: Some("http://127.0.0.1:8080".into()),
            token: Some("t0ken".into()),
        };
        write(&file, &saved).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(file.parent().unwrap()), 0o700);
        assert_eq!(read(&file).unwrap(), saved);

        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        write(&file, &saved).unwrap();
        assert_eq!(mode(&file), 0o600);
    }

    #[test]
    fn a_bad_file_is_named_with_its_line_and_a_missing_one_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("submit.toml");
        assert_eq!(read(&file).unwrap(), Saved::default());
        std::fs::write(&file, "server = \"http://x\"\ntokn = \"t\"\n").unwrap();
        let error = read(&file).unwrap_err().to_string();
        assert!(
            error.starts_with(&format!("{}:2: unknown field `tokn`", file.display())),
            "{error}"
        );
    }
}
