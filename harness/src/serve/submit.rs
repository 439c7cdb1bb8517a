//! Submitting: the problem page's form (a file or pasted source, the
//! language guessed from the file name unless chosen) and the API both
//! come through `accept`, which checks the session's rules (problem,
//! hours, size, language, rate), stores the submission (committed) and
//! queues it, before the client hears "received".

use std::time::SystemTime;

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};

use super::access::Access;
use super::app::{AppState, LanguageChoice};
use super::error::AppError;
use super::http::{ClientAddr, Viewer, check_csrf};
use super::live::LiveEvent;
use crate::escape::visible;
use crate::store::entries;

/// What a submit form carried.
#[derive(Default)]
struct Upload {
    csrf: String,
    problem: String,
    language: String,
    file_name: String,
    file: Vec<u8>,
    pasted: String,
}

async fn read_upload(mut multipart: Multipart) -> Result<Upload, AppError> {
    let mut upload = Upload::default();
    let bad = |e: axum::extract::multipart::MultipartError| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => AppError::TooLarge("The submission is too large.".into()),
        _ => AppError::BadRequest(format!("the form could not be read: {e}")),
    };
    while let Some(field) = multipart.next_field().await.map_err(bad)? {
        let name = field.name().unwrap_or_default().to_string();
        match name.as_str() {
            "file" => {
                upload.file_name = field.file_name().unwrap_or_default().to_string();
                upload.file = field.bytes().await.map_err(bad)?.to_vec();
            }
            "csrf" | "problem" | "language" | "source" => {
                let text = field.text().await.map_err(bad)?;
                match name.as_str() {
                    "csrf" => upload.csrf = text,
                    "problem" => upload.problem = text,
                    "language" => upload.language = text,
                    _ => upload.pasted = text,
                }
            }
            _ => {}
        }
    }
    Ok(upload)
}

/// The name an uploaded file is kept under: its last part only, at most
/// 100 characters (never a path, and never shown raw).
pub(crate) fn upload_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    last.chars().take(100).collect()
}

/// A submission to store: checked, its language decided.
pub(crate) struct NewEntry {
    pub(crate) problem: String,
    pub(crate) language: String,
    pub(crate) file_name: String,
    pub(crate) source: Vec<u8>,
}

/// Checks a submission against the session's rules and stores it
/// (committed) and queues it; returns its id. The one path of the form
/// and the API.
pub(crate) fn accept(
    app: &AppState,
    viewer: &Viewer,
    client: std::net::IpAddr,
    language: &str,
    mut entry: NewEntry,
) -> Result<i64, AppError> {
    let account = &viewer.require()?.account;
    let access = Access::new(&app.session, viewer);
    if access.problem(app.problem(&entry.problem)).is_err() {
        return Err(AppError::BadRequest(format!(
            "no problem `{}` in this session",
            visible(&entry.problem)
        )));
    }
    if !access.may_submit() {
        return Err(AppError::Forbidden);
    }
    if entry.source.is_empty() {
        return Err(AppError::BadRequest("the submission is empty".into()));
    }
    if entry.source.len() as u64 > app.session.max_source {
        return Err(AppError::TooLarge(format!(
            "The source is {} bytes; this session takes at most {}.",
            entry.source.len(),
            app.session.max_source
        )));
    }
    let by_extension = || {
        let extension = entry.file_name.rsplit_once('.')?.1.to_ascii_lowercase();
        app.languages.iter().find(|l| {
            l.extensions
                .iter()
                .any(|e| e.eq_ignore_ascii_case(&extension))
        })
    };
    let chosen = match language {
        "" | "auto" => by_extension().or_else(|| guess_language(&entry.source, &app.languages)),
        key => app.languages.iter().find(|l| l.key == key),
    };
    let Some(chosen) = chosen else {
        return Err(AppError::BadRequest(
            "Which language is it? Choose one below (the file name did not say, nor the source)."
                .into(),
        ));
    };
    if !chosen.available {
        return Err(AppError::BadRequest(format!(
            "{} cannot be built on this server: choose another language.",
            chosen.name
        )));
    }
    entry.language = chosen.key.clone();
    if entry.file_name.is_empty() {
        entry.file_name = format!("pasted.{}", chosen.extensions[0]);
    }
    if !app.limits.may_submit(account.id, client) {
        return Err(AppError::TooMany(format!(
            "At most {} submissions a minute (and {} from one address): wait a little.",
            app.session.submissions_per_minute, app.session.submissions_per_minute_per_address
        )));
    }
    let id = entries::insert_entry(
        app.store().db(),
        app.ids.session,
        account.id,
        &entry.problem,
        &entry.language,
        &entry.file_name,
        &entry.source,
    )?;
    app.queue.push(id, account.id);
    app.live.publish(LiveEvent {
        entry: id,
        account: account.id,
        submitted_at: SystemTime::now(),
        problem: entry.problem,
        status: super::live::QUEUED.into(),
        verdict: None,
    });
    Ok(id)
}

/// `POST /submit`: the problem page's form (multipart, so its CSRF token
/// is checked here, once the form is read, before anything is stored).
/// The language a pasted source is written in, from what only that
/// language's programs say (among the session's languages); `None` when it
/// is not clear.
pub(crate) fn guess_language<'l>(
    source: &[u8],
    languages: &'l [LanguageChoice],
) -> Option<&'l LanguageChoice> {
    let text = String::from_utf8_lossy(source);
    let has = |needle: &str| text.contains(needle);
    let key = if has("fn main") && (has("println!") || has("let ") || has("use std")) {
        "rust"
    } else if has("public static void main") {
        "java"
    } else if has("fun main") {
        "kotlin"
    } else if has("package main") && has("func main") {
        "go"
    } else if has("#include") {
        let cpp = [
            "iostream",
            "bits/stdc++",
            "std::",
            "using namespace",
            "vector<",
        ];
        if cpp.iter().any(|c| has(c)) {
            "cpp"
        } else {
            "c"
        }
    } else if has("console.log") || has("require(") || has("process.stdin") {
        "javascript"
    } else if has("def ") || has("print(") || has("input()") || has("import sys") {
        "python"
    } else {
        return None;
    };
    languages.iter().find(|l| l.key == key)
}

pub(crate) async fn submit(
    State(app): State<AppState>,
    viewer: Viewer,
    ClientAddr(client): ClientAddr,
    multipart: Multipart,
) -> Result<Response, AppError> {
    let login = viewer.require()?;
    if viewer.by_token {
        return Err(AppError::Csrf);
    }
    let upload = read_upload(multipart).await?;
    check_csrf(login, &upload.csrf)?;
    let (file_name, source) = if upload.file.is_empty() {
        (String::new(), upload.pasted.clone().into_bytes())
    } else {
        (upload_name(&upload.file_name), upload.file)
    };
    let accepted = accept(
        &app,
        &viewer,
        client,
        &upload.language,
        NewEntry {
            problem: upload.problem.clone(),
            language: String::new(),
            file_name,
            source,
        },
    );
    let error = match accepted {
        Ok(id) => return Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(error @ (AppError::BadRequest(_) | AppError::TooLarge(_) | AppError::TooMany(_))) => {
            error
        }
        Err(other) => return Err(other),
    };
    // Refused for something the participant can mend: the form comes
    // back with their pasted source, their language and why.
    let Ok(problem) = Access::new(&app.session, &viewer).problem(app.problem(&upload.problem))
    else {
        return Err(error);
    };
    let (status, _, message) = error.status();
    let refused = super::pages::Refused {
        pasted: upload.pasted,
        chosen: upload.language,
        error: message.to_string(),
    };
    let mut page = super::pages::problem_page(&app, &viewer, problem, &refused)?;
    *page.status_mut() = status;
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(keys: &[&str]) -> Vec<LanguageChoice> {
        keys.iter()
            .map(|k| LanguageChoice {
                key: (*k).to_string(),
                name: (*k).to_string(),
                extensions: vec![(*k).to_string()],
                available: true,
            })
            .collect()
    }

    #[test]
    fn a_pasted_source_names_its_language_when_only_one_would_say_so() {
        let all = choices(&[
            "c",
            "cpp",
            "python",
            "rust",
            "java",
            "go",
            "javascript",
            "kotlin",
        ]);
        let guess = |source: &str| guess_language(source.as_bytes(), &all).map(|l| l.key.as_str());
        assert_eq!(
            guess("a, b = map(int, input().split())\nprint(a + b)\n"),
            Some("python")
        );
        assert_eq!(guess("#include <bits/stdc++.h>\nint main(){}"), Some("cpp"));
        assert_eq!(
            guess("#include <stdio.h>\nint main(void){return 0;}"),
            Some("c")
        );
        assert_eq!(
            guess("use std::io;\nfn main() { let x = 1; }"),
            Some("rust")
        );
        assert_eq!(
            guess("class A { public static void main(String[] a) {} }"),
            Some("java")
        );
        assert_eq!(guess("package main\nfunc main() {}"), Some("go"));
        assert_eq!(guess("hello"), None);
        // Only the session's languages are guessed.
        let only_c = choices(&["c"]);
        assert!(guess_language(b"print(1)", &only_c).is_none());
    }
}
