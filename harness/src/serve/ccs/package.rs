//! The contest package (the CCS `Contest_Package.md` layout): what the
//! jury sees through the 2023-06 API, on disk, so that a session can be
//! archived, shown by the ICPC resolver, or read by another CCS.
//! `judge serve --export-contest DIR` writes it: `api.json`,
//! `contest.json`, one `<endpoint>.json` per collection, `state.json`,
//! `scoreboard.json`, each submission's `submissions/<id>/files.zip`, and
//! `event-feed.ndjson` (every object once, in feed order).

use std::io::Write;
use std::path::Path;
use std::time::SystemTime;

use serde_json::Value;

use super::access::{Audience, Kind};
use super::feed::Feeds;
use super::objects::{ApiInfo, Provider};
use super::versions::Version;
use super::view::{Data, View, json};
use crate::serve::ServeError;
use crate::serve::app::App;

/// A zip archive (stored, not compressed) of `files` (name, bytes).
pub(crate) fn zip_of(files: &[(&str, &[u8])]) -> zip::result::ZipResult<Vec<u8>> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .unix_permissions(0o644);
    for (name, bytes) in files {
        writer.start_file(*name, options)?;
        writer.write_all(bytes)?;
    }
    Ok(writer.finish()?.into_inner())
}

/// Writes the contest package of `app`'s session into `dir` (created if
/// missing); returns how many submissions it holds.
pub(crate) fn export(app: &App, dir: &Path) -> Result<usize, ServeError> {
    let failed = |what: String| move |source| ServeError::Io { what, source };
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(failed(format!("create {}", parent.display())))?;
        }
        std::fs::write(&path, bytes).map_err(failed(format!("write {}", path.display())))
    };
    let pretty = |value: &Value| serde_json::to_vec_pretty(value).unwrap_or_default();
    let data = Data::read(app)?;
    let version = Version::V2023_06;
    let view = View::new(app, &data, Audience::Jury, version, SystemTime::now());
    write(
        "api.json",
        &pretty(&json(&ApiInfo {
            version: version.name(),
            version_url: version.documentation(),
            provider: Provider {
                name: "Game Judge",
                version: crate::store::judge_version().to_string(),
            },
        })),
    )?;
    for kind in Kind::ALL {
        let objects: Vec<Value> = view.objects(kind).into_iter().map(|(_, v)| v).collect();
        let file = format!("{}.json", kind.name());
        match kind {
            Kind::Contest | Kind::State => write(&file, &pretty(&objects[0]))?,
            _ => write(&file, &pretty(&Value::Array(objects)))?,
        }
    }
    if let Some(board) = view.scoreboard(None) {
        write("scoreboard.json", &pretty(&json(&board)))?;
    }
    let mut count = 0;
    for entry in view.visible_entries() {
        let source = crate::store::entries::source(app.store().db(), entry.id)?;
        let archive = zip_of(&[(entry.file_name.as_str(), source.as_slice())])
            .map_err(|e| failed("zip a submission".into())(std::io::Error::other(e)))?;
        write(&format!("submissions/{}/files.zip", entry.id), &archive)?;
        count += 1;
    }
    let mut feed = String::new();
    for line in Feeds::default().lines(app, &data, version, Audience::Jury) {
        feed.push_str(&line);
        feed.push('\n');
    }
    write("event-feed.ndjson", feed.as_bytes())?;
    Ok(count)
}
