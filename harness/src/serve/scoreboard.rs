//! The scoreboard, from the session's submissions: ICPC (problems solved,
//! then penalty minutes: the minutes to each first AC plus the penalty per
//! rejected try before it) or points (each problem's best score, or 1 for
//! AC on a problem without scores). During a freeze, a viewer who is not
//! jury sees submissions made after it as pending, not their results.
//! Compile errors and judge errors are not tries.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::access::BoardView;
use super::accounts::Account;
use super::error::AppError;
use super::session::{Scoring, Session};
use crate::store::entries::Entry;
use crate::verdict::Verdict;

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Cell {
    pub(crate) solved: bool,
    /// Rejected tries (before the first AC, when solved).
    pub(crate) rejected: usize,
    /// Submissions whose result is not known (queued, running, frozen).
    pub(crate) pending: usize,
    /// Minutes from the start to the first AC (points scoring: to the
    /// best score, when above 0).
    pub(crate) minutes: Option<u64>,
    /// The best score (points scoring).
    pub(crate) points: f64,
    /// When the first AC was submitted.
    pub(crate) solved_at: Option<SystemTime>,
    /// The first of everybody to solve the problem.
    pub(crate) first: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) rank: usize,
    pub(crate) account: i64,
    pub(crate) username: String,
    pub(crate) name: String,
    pub(crate) team: String,
    pub(crate) solved: usize,
    pub(crate) penalty: u64,
    /// Rejected tries before the AC of the problems solved.
    pub(crate) tries: usize,
    pub(crate) points: f64,
    pub(crate) cells: Vec<Cell>,
}

#[derive(Debug, Clone)]
pub(crate) struct Scoreboard {
    pub(crate) problems: Vec<String>,
    pub(crate) rows: Vec<Row>,
    /// Frozen for this viewer since this moment.
    pub(crate) frozen: Option<SystemTime>,
    pub(crate) points: bool,
    /// Open-ended practice: no clock, so no penalty minutes; tries count.
    pub(crate) practice: bool,
    /// Per problem, how many solved it and how many tried it.
    pub(crate) summary: Vec<Summary>,
}

/// A problem's column summed up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) solved: usize,
    pub(crate) tried: usize,
}

/// Marks each problem's first solver and sums each problem's column.
fn summarize(rows: &mut [Row], problems: usize) -> Vec<Summary> {
    let mut summary = vec![Summary::default(); problems];
    for (column, total) in summary.iter_mut().enumerate() {
        let mut first: Option<(SystemTime, usize)> = None;
        for (i, row) in rows.iter().enumerate() {
            let cell = &row.cells[column];
            total.solved += usize::from(cell.solved);
            total.tried += usize::from(cell.solved || cell.rejected > 0);
            if let Some(at) = cell.solved_at.filter(|_| cell.solved) {
                if first.is_none_or(|(t, _)| at < t) {
                    first = Some((at, i));
                }
            }
        }
        if let Some((_, i)) = first {
            rows[i].cells[column].first = true;
        }
    }
    summary
}

/// What a judged submission scores under points scoring: its score, or
/// 1 for AC on a problem without scores (the CCS API's judgement scores
/// too).
pub(crate) fn points(verdict: Verdict, score: Option<f64>) -> f64 {
    score.unwrap_or(if verdict == Verdict::Accepted {
        1.0
    } else {
        0.0
    })
}

/// Whether a verdict counts as a try.
fn counts(verdict: Verdict) -> bool {
    !matches!(verdict, Verdict::CompileError | Verdict::JudgeError)
}

/// The scoreboard over `participants` as `view` shows it; `entries`
/// oldest first.
pub(crate) fn compute(
    session: &Session,
    problems: &[String],
    participants: &[Account],
    entries: &[Entry],
    view: BoardView,
) -> Scoreboard {
    let frozen = match view {
        BoardView::Jury => None,
        BoardView::Public { frozen_since } => frozen_since,
    };
    let mut rows = empty_rows(participants, problems.len());
    let row_of: HashMap<i64, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.account, i))
        .collect();
    for entry in entries {
        let Some(row) = row_of.get(&entry.account).map(|&i| &mut rows[i]) else {
            continue;
        };
        let Some(column) = problems.iter().position(|p| *p == entry.problem) else {
            continue;
        };
        // Outside a timed session's hours a submission does not count.
        if let (Some(start), Some(end)) = (session.start(), session.end()) {
            if entry.submitted_at < start || entry.submitted_at >= end {
                continue;
            }
        }
        let hidden = frozen.is_some_and(|f| entry.submitted_at >= f);
        count(session, &mut row.cells[column], entry, hidden);
    }
    let penalty = match session.scoring {
        Scoring::Icpc { penalty } => penalty,
        Scoring::Points => Duration::ZERO,
    };
    for row in &mut rows {
        total(row, penalty);
    }
    let points = session.scoring == Scoring::Points;
    rank(&mut rows, points);
    let summary = summarize(&mut rows, problems.len());
    Scoreboard {
        problems: problems.to_vec(),
        rows,
        frozen,
        points,
        practice: session.start().is_none(),
        summary,
    }
}

/// A row for each participant (no jury, no disabled account), nothing
/// counted yet.
fn empty_rows(participants: &[Account], problems: usize) -> Vec<Row> {
    participants
        .iter()
        .filter(|a| !a.is_jury() && !a.disabled)
        .map(|a| Row {
            rank: 0,
            account: a.id,
            username: a.username.clone(),
            // Names reach pages and the API: control characters escaped
            // (accounts refuse them, but an older store may hold some).
            name: crate::escape::name(&a.display_name),
            team: crate::escape::name(a.team.as_deref().unwrap_or_default()),
            solved: 0,
            penalty: 0,
            tries: 0,
            points: 0.0,
            cells: vec![Cell::default(); problems],
        })
        .collect()
}

/// `entry` counted in its problem's `cell` (`hidden`: by the freeze).
fn count(session: &Session, cell: &mut Cell, entry: &Entry, hidden: bool) {
    match entry.verdict {
        _ if cell.solved && !matches!(session.scoring, Scoring::Points) => {}
        None => cell.pending += 1,
        Some(_) if hidden => cell.pending += 1,
        Some(verdict) => {
            let points = points(verdict, entry.score);
            let since = session.start().unwrap_or(entry.submitted_at);
            let minutes = entry
                .submitted_at
                .duration_since(since)
                .unwrap_or_default()
                .as_secs()
                / 60;
            if points > cell.points {
                cell.points = points;
                if session.scoring == Scoring::Points {
                    cell.minutes = Some(minutes);
                }
            }
            if verdict == Verdict::Accepted && !cell.solved {
                cell.solved = true;
                cell.solved_at = Some(entry.submitted_at);
                if session.scoring != Scoring::Points {
                    cell.minutes = Some(minutes);
                }
            } else if counts(verdict) && !cell.solved {
                cell.rejected += 1;
            }
        }
    }
}

/// A row's totals from its cells: solved, tries, points, penalty minutes.
fn total(row: &mut Row, penalty: Duration) {
    row.solved = row.cells.iter().filter(|c| c.solved).count();
    row.tries = row
        .cells
        .iter()
        .filter(|c| c.solved)
        .map(|c| c.rejected)
        .sum();
    row.points = row.cells.iter().map(|c| c.points).sum();
    row.penalty = row
        .cells
        .iter()
        .filter(|c| c.solved)
        .map(|c| c.minutes.unwrap_or(0) + c.rejected as u64 * penalty.as_secs() / 60)
        .sum();
}

/// Sorts the rows (points, or solved then penalty; then user name) and
/// ranks them, a tie sharing its rank.
fn rank(rows: &mut [Row], points: bool) {
    let key = |r: &Row| -> (i64, i64) {
        if points {
            (-(r.points * 1000.0).round() as i64, 0)
        } else {
            (-(r.solved as i64), r.penalty as i64)
        }
    };
    rows.sort_by(|a, b| {
        key(a)
            .cmp(&key(b))
            .then_with(|| a.username.cmp(&b.username))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
}

/// How long a computed board is shown without looking again, when no
/// change was announced (accounts imported by `judge users import` while
/// the server runs are not announced).
const FRESH_FOR: Duration = Duration::from_secs(10);

/// The scoreboards, each computed once per change rather than per request
/// (a board of 20,000 entries takes a while; a page costs a lookup).
#[derive(Default)]
pub(crate) struct Boards {
    cached: Mutex<HashMap<BoardView, Cached>>,
    /// One board is computed at a time: a crowd asking for a stale board
    /// waits for one computation, not for as many as it is.
    computing: Mutex<()>,
}

struct Cached {
    changes: u64,
    at: Instant,
    board: Arc<Scoreboard>,
}

impl Boards {
    fn fresh(&self, view: BoardView, changes: u64) -> Option<Arc<Scoreboard>> {
        let cached = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        cached
            .get(&view)
            .filter(|c| c.changes == changes && c.at.elapsed() < FRESH_FOR)
            .map(|c| c.board.clone())
    }

    /// The board of `view` as of `changes` (`Live::board_changes`):
    /// cached, or made by `compute` (on the caller's thread: a blocking
    /// one).
    pub(crate) fn get(
        &self,
        view: BoardView,
        changes: u64,
        compute: impl FnOnce() -> Result<Scoreboard, AppError>,
    ) -> Result<Arc<Scoreboard>, AppError> {
        if let Some(board) = self.fresh(view, changes) {
            return Ok(board);
        }
        let _one = self.computing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(board) = self.fresh(view, changes) {
            return Ok(board);
        }
        let board = Arc::new(compute()?);
        let mut cached = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        // At most three views: the jury's, the public's, the frozen one.
        cached.insert(
            view,
            Cached {
                changes,
                at: Instant::now(),
                board: board.clone(),
            },
        );
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::accounts::Role;
    use crate::store::entries::Status;

    fn account(id: i64, name: &str) -> Account {
        Account {
            id,
            username: name.into(),
            display_name: name.into(),
            team: None,
            role: Role::Participant,
            disabled: false,
        }
    }

    fn entry(account: i64, problem: &str, minute: u64, verdict: Option<Verdict>) -> Entry {
        Entry {
            id: 0,
            account,
            username: String::new(),
            display_name: String::new(),
            problem: problem.into(),
            language: "python".into(),
            file_name: "a.py".into(),
            submitted_at: start() + Duration::from_secs(minute * 60 + 30),
            status: if verdict.is_some() {
                Status::Judged
            } else {
                Status::Queued
            },
            verdict,
            score: None,
            submission: None,
        }
    }

    fn start() -> SystemTime {
        humantime::parse_rfc3339("2026-05-01T09:00:00Z").unwrap()
    }

    fn contest() -> Session {
        Session::parse(
            "start = \"2026-05-01T09:00:00Z\"\nduration = \"5h\"\nfreeze = \"1h\"\n",
            std::path::Path::new("c.toml"),
        )
        .unwrap()
    }

    #[test]
    fn icpc_ranks_by_solved_then_penalty_and_hides_the_frozen_hour() {
        let session = contest();
        let problems = vec!["a".to_string(), "b".to_string()];
        let people = [account(1, "ann"), account(2, "bob"), account(3, "cid")];
        let entries = [
            entry(1, "a", 10, Some(Verdict::WrongAnswer)),
            entry(1, "a", 15, Some(Verdict::CompileError)),
            entry(1, "a", 20, Some(Verdict::Accepted)),
            entry(2, "a", 30, Some(Verdict::Accepted)),
            entry(2, "b", 250, Some(Verdict::Accepted)),
            entry(3, "b", 5, None),
        ];
        let during_freeze = start() + Duration::from_secs(4 * 3600 + 600);
        let public_view = BoardView::Public {
            frozen_since: session.frozen_since(during_freeze),
        };
        let public = compute(&session, &problems, &people, &entries, public_view);
        // ann: 20 + 20 (one WA; the CE is no try) = 40; bob: 30, his AC
        // after the freeze is pending.
        let summary: Vec<(&str, usize, usize, u64)> = public
            .rows
            .iter()
            .map(|r| (r.username.as_str(), r.rank, r.solved, r.penalty))
            .collect();
        assert_eq!(
            summary,
            [("bob", 1, 1, 30), ("ann", 2, 1, 40), ("cid", 3, 0, 0)]
        );
        assert_eq!(public.rows[0].cells[1].pending, 1);
        assert!(public.frozen.is_some());
        let jury = compute(&session, &problems, &people, &entries, BoardView::Jury);
        assert_eq!(jury.rows[0].username, "bob");
        assert_eq!(jury.rows[0].solved, 2);
    }

    #[test]
    fn points_count_each_problems_best_score() {
        let session =
            Session::parse("scoring = \"points\"\n", std::path::Path::new("p.toml")).unwrap();
        let problems = vec!["spies".to_string(), "a".to_string()];
        let people = [account(1, "ann"), account(2, "bob")];
        let scored = |account, score: f64, verdict| Entry {
            score: Some(score),
            ..entry(account, "spies", 1, Some(verdict))
        };
        let entries = [
            scored(1, 40.0, Verdict::WrongAnswer),
            scored(1, 70.0, Verdict::WrongAnswer),
            scored(1, 55.0, Verdict::WrongAnswer),
            entry(1, "a", 2, Some(Verdict::Accepted)),
            scored(2, 100.0, Verdict::Accepted),
        ];
        let view = BoardView::Public { frozen_since: None };
        let board = compute(&session, &problems, &people, &entries, view);
        let totals: Vec<(&str, f64, usize)> = board
            .rows
            .iter()
            .map(|r| (r.username.as_str(), r.points, r.rank))
            .collect();
        assert_eq!(totals, [("bob", 100.0, 1), ("ann", 71.0, 2)]);
    }
}
