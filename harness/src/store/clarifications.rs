//! judge serve's clarifications (migration 8, `docs/store.md`): a
//! participant's question to the jury, or the jury's message to one
//! participant or to everybody, perhaps in reply to another and perhaps
//! about one problem. Who may read which is the reader's business (the
//! CCS API's `serve/ccs/access.rs`, the pages); this file only keeps them.

use std::time::SystemTime;

use super::DbError;
use super::accounts::now_text;
use super::engine::Sql;
use super::value::{Row, params};
use crate::report::clarifications::ClarificationLine;

/// One clarification as stored.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Clarification {
    pub(crate) id: i64,
    /// The participant who asked; `None`: sent by the jury.
    pub(crate) from: Option<i64>,
    /// The participant it is for; `None`: everybody (from the jury), or
    /// the jury (a participant's question).
    pub(crate) to: Option<i64>,
    /// The jury member who wrote a jury message.
    pub(crate) jury: Option<i64>,
    pub(crate) reply_to: Option<i64>,
    /// The problem it is about, if any.
    pub(crate) problem: Option<String>,
    pub(crate) text: String,
    pub(crate) sent_at: SystemTime,
}

/// Who sends a new clarification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sender {
    /// A participant's question, to the jury.
    Participant(i64),
    /// A jury member's message, to one participant or (`None`) to everybody.
    Jury { author: i64, to: Option<i64> },
}

/// A new clarification, before it has an id and a time.
#[derive(Debug, Clone)]
pub(crate) struct NewClarification {
    pub(crate) sender: Sender,
    pub(crate) reply_to: Option<i64>,
    pub(crate) problem: Option<String>,
    pub(crate) text: String,
}

const SELECT: &str = "SELECT id, from_account, to_account, jury_account, reply_to, problem, \
     text, sent_at FROM clarifications";

fn from_row(row: &Row) -> Result<Clarification, DbError> {
    let sent: String = row.get(7)?;
    Ok(Clarification {
        id: row.get(0)?,
        from: row.get(1)?,
        to: row.get(2)?,
        jury: row.get(3)?,
        reply_to: row.get(4)?,
        problem: row.get(5)?,
        text: row.get(6)?,
        sent_at: humantime::parse_rfc3339(&sent).unwrap_or(SystemTime::UNIX_EPOCH),
    })
}

/// Stores a clarification of `session`, sent now; returns it as stored.
pub(crate) fn insert(
    db: &mut impl Sql,
    session: i64,
    new: &NewClarification,
) -> Result<Clarification, DbError> {
    let (from, to, jury) = match new.sender {
        Sender::Participant(account) => (Some(account), None, None),
        Sender::Jury { author, to } => (None, to, Some(author)),
    };
    let id = db.insert(
        "INSERT INTO clarifications (session_id, from_account, to_account, jury_account, \
         reply_to, problem, text, sent_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            session,
            from,
            to,
            jury,
            new.reply_to,
            new.problem,
            new.text,
            now_text()
        ],
    )?;
    db.query_one(&format!("{SELECT} WHERE id = ?1"), params![id])
        .and_then(|row| from_row(&row))
}

/// Every clarification of `session`, oldest first.
pub(crate) fn all(db: &mut impl Sql, session: i64) -> Result<Vec<Clarification>, DbError> {
    db.query(
        &format!("{SELECT} WHERE session_id = ?1 ORDER BY id"),
        params![session],
    )?
    .iter()
    .map(from_row)
    .collect()
}

/// The clarifications of the session recorded under `run`, as its
/// archive keeps them (`report/clarifications.rs`): each question with
/// its answers, then in their place each message the jury sent on its
/// own; nothing for a run that is no session's.
pub(crate) fn archive(db: &mut impl Sql, run: i64) -> Result<Vec<ClarificationLine>, DbError> {
    struct Message {
        id: i64,
        asker: Option<String>,
        to: Option<String>,
        author: Option<String>,
        reply_to: Option<i64>,
        problem: Option<String>,
        text: String,
        sent_at: String,
    }
    let messages = db
        .query(
            "SELECT c.id, f.username, t.username, j.username, c.reply_to, c.problem, c.text, \
             c.sent_at FROM clarifications c JOIN sessions s ON s.id = c.session_id \
             LEFT JOIN accounts f ON f.id = c.from_account \
             LEFT JOIN accounts t ON t.id = c.to_account \
             LEFT JOIN accounts j ON j.id = c.jury_account \
             WHERE s.run_id = ?1 ORDER BY c.id",
            params![run],
        )?
        .iter()
        .map(|row| {
            let sent: String = row.get(7)?;
            Ok(Message {
                id: row.get(0)?,
                asker: row.get(1)?,
                to: row.get(2)?,
                author: row.get(3)?,
                reply_to: row.get(4)?,
                problem: row.get(5)?,
                text: row.get(6)?,
                // Whole seconds, as the gradebook shows times.
                sent_at: humantime::parse_rfc3339(&sent)
                    .map_or(sent, |t| humantime::format_rfc3339_seconds(t).to_string()),
            })
        })
        .collect::<Result<Vec<Message>, DbError>>()?;
    let is_question = |id: i64| messages.iter().any(|m| m.id == id && m.asker.is_some());
    let jury_line = |m: &Message| ClarificationLine {
        sent_at: m.sent_at.clone(),
        from: "jury".into(),
        to: m.to.clone().unwrap_or_else(|| "everybody".into()),
        problem: m.problem.clone().unwrap_or_default(),
        question: String::new(),
        answer: m.text.clone(),
        answered_by: m.author.clone().unwrap_or_default(),
        answered_at: m.sent_at.clone(),
    };
    let mut lines = Vec::new();
    for message in &messages {
        let Some(asker) = &message.asker else {
            if !message.reply_to.is_some_and(is_question) {
                lines.push(jury_line(message));
            }
            continue;
        };
        let question = ClarificationLine {
            sent_at: message.sent_at.clone(),
            from: asker.clone(),
            to: "jury".into(),
            problem: message.problem.clone().unwrap_or_default(),
            question: message.text.clone(),
            answer: String::new(),
            answered_by: String::new(),
            answered_at: String::new(),
        };
        let answers: Vec<&Message> = messages
            .iter()
            .filter(|m| m.asker.is_none() && m.reply_to == Some(message.id))
            .collect();
        for answer in &answers {
            lines.push(ClarificationLine {
                to: answer.to.clone().unwrap_or_else(|| "everybody".into()),
                answer: answer.text.clone(),
                answered_by: answer.author.clone().unwrap_or_default(),
                answered_at: answer.sent_at.clone(),
                ..question.clone()
            });
        }
        if answers.is_empty() {
            lines.push(question);
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_and_its_answer_are_kept_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = crate::store::Store::open(&dir.path().join("s.db")).unwrap();
        let db = store.db();
        db.execute(
            "INSERT INTO runs (started_at, command, judge_version, isolation, machine) \
             VALUES ('t', 'serve', 'v', 'none', 'm')",
            &[],
        )
        .unwrap();
        db.execute(
            "INSERT INTO sessions (name, run_id, title, created_at) VALUES ('s', 1, 'S', 't')",
            &[],
        )
        .unwrap();
        for name in ["alice", "jury"] {
            super::super::accounts::upsert(
                db,
                name,
                name,
                None,
                super::super::accounts::Role::Participant,
                None,
            )
            .unwrap();
        }
        let question = insert(
            db,
            1,
            &NewClarification {
                sender: Sender::Participant(1),
                reply_to: None,
                problem: Some("sum".into()),
                text: "May the sum overflow?".into(),
            },
        )
        .unwrap();
        let answer = insert(
            db,
            1,
            &NewClarification {
                sender: Sender::Jury {
                    author: 2,
                    to: Some(1),
                },
                reply_to: Some(question.id),
                problem: Some("sum".into()),
                text: "No.".into(),
            },
        )
        .unwrap();
        assert_eq!(
            (question.from, question.to, question.jury),
            (Some(1), None, None)
        );
        assert_eq!(
            (answer.from, answer.to, answer.jury),
            (None, Some(1), Some(2))
        );
        assert_eq!(all(db, 1).unwrap(), [question, answer]);
        assert!(all(db, 2).unwrap().is_empty());
    }
}
