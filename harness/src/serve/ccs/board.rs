//! The scoreboard and the awards of a view. The ranking is the pages'
//! (`serve/scoreboard.rs`), frozen for everybody but the jury; the awards
//! follow it: the winner (leaders who scored), medals when the session
//! file gives `[medals]`, and first to solve each problem (decided only
//! when no earlier submission's result is unknown to this audience).

use std::collections::BTreeMap;
use std::time::SystemTime;

use serde_json::Value;

use super::objects;
use super::view::{View, json, problem_id};
use crate::serve::access::BoardView;
use crate::serve::scoreboard::{self, Scoreboard};
use crate::verdict::Verdict;

impl View<'_> {
    /// The pages' scoreboard for this audience.
    pub(crate) fn board(&self) -> Scoreboard {
        self.board_of(&self.data.accounts)
    }

    /// The pages' scoreboard over `accounts` only (a group's, ranked on
    /// its own).
    fn board_of(&self, accounts: &[crate::store::accounts::Account]) -> Scoreboard {
        let problems: Vec<String> = self.app.problems.iter().map(|p| p.id.clone()).collect();
        scoreboard::compute(
            &self.app.session,
            &problems,
            accounts,
            &self.data.entries,
            self.access().board(),
        )
    }

    /// The scoreboard; with `group` (`?group_id=`) the group's teams only,
    /// ranked among themselves. `None` when there is no such group.
    pub(crate) fn scoreboard(&self, group: Option<&str>) -> Option<objects::Scoreboard> {
        let board = match group {
            None => self.board(),
            Some(group) => {
                let members: Vec<_> = self
                    .data
                    .accounts
                    .iter()
                    .filter(|a| {
                        a.team.as_deref().map(super::view::group_id).as_deref() == Some(group)
                    })
                    .cloned()
                    .collect();
                if members.is_empty() {
                    return None;
                }
                self.board_of(&members)
            }
        };
        let minutes = |m: u64| self.version.minutes(m);
        // Before the start only the jury knows the problems.
        let problems_seen = self.access().sees_problems();
        let rows = board
            .rows
            .iter()
            .map(|row| {
                // The last solve, or (points) the last better score.
                let counted = |c: &&scoreboard::Cell| {
                    if board.points {
                        c.points > 0.0
                    } else {
                        c.solved
                    }
                };
                let last = row
                    .cells
                    .iter()
                    .filter(counted)
                    .filter_map(|c| c.minutes)
                    .max();
                let score = if board.points {
                    objects::RowScore::Score {
                        score: row.points,
                        time: self.version.last_solve(last),
                    }
                } else {
                    objects::RowScore::PassFail {
                        num_solved: row.solved,
                        total_time: minutes(row.penalty),
                        time: self.version.last_solve(last),
                    }
                };
                let problems = board
                    .problems
                    .iter()
                    .zip(&row.cells)
                    .filter(|_| problems_seen)
                    .map(|(problem, cell)| {
                        let counted = if board.points {
                            cell.points > 0.0
                        } else {
                            cell.solved
                        };
                        objects::Cell {
                            problem_id: problem_id(problem),
                            num_judged: cell.rejected + usize::from(cell.solved),
                            num_pending: cell.pending,
                            solved: (!board.points).then_some(cell.solved),
                            score: board.points.then_some(cell.points),
                            time: cell.minutes.filter(|_| counted).map(minutes),
                        }
                    })
                    .collect();
                objects::Row {
                    rank: row.rank,
                    team_id: row.account.to_string(),
                    score,
                    problems,
                }
            })
            .collect();
        Some(objects::Scoreboard {
            time: objects::abstime(self.now),
            contest_time: self.contest_time(self.now),
            state: self.state(),
            rows,
        })
    }

    pub(crate) fn awards(&self) -> Vec<(String, Value)> {
        let board = self.board();
        let scored = |row: &scoreboard::Row| {
            if board.points {
                row.points > 0.0
            } else {
                row.solved > 0
            }
        };
        let teams_where = |keep: &dyn Fn(&scoreboard::Row) -> bool| -> Vec<String> {
            board
                .rows
                .iter()
                .filter(|r| scored(r) && keep(r))
                .map(|r| r.account.to_string())
                .collect()
        };
        let mut awards = vec![objects::Award {
            id: "winner".into(),
            citation: "Winner".into(),
            team_ids: teams_where(&|r| r.rank == 1),
        }];
        if let Some(medals) = self.app.session.medals {
            let gold = medals.gold as usize;
            let silver = gold + medals.silver as usize;
            let bronze = silver + medals.bronze as usize;
            for (id, citation, from, to) in [
                ("gold-medal", "Gold medal winner", 0, gold),
                ("silver-medal", "Silver medal winner", gold, silver),
                ("bronze-medal", "Bronze medal winner", silver, bronze),
            ] {
                awards.push(objects::Award {
                    id: id.into(),
                    citation: citation.into(),
                    team_ids: teams_where(&|r| r.rank > from && r.rank <= to),
                });
            }
        }
        let first = self.first_to_solve();
        let problems_seen = self.access().sees_problems();
        for (ordinal, problem) in self.app.problems.iter().enumerate() {
            if !problems_seen {
                break;
            }
            let id = format!("first-to-solve-{}", problem_id(&problem.id));
            if !objects::is_id(&id) {
                continue;
            }
            awards.push(objects::Award {
                id,
                citation: format!("First to solve problem {}", problem.title),
                team_ids: first.get(&ordinal).cloned().into_iter().collect(),
            });
        }
        awards
            .into_iter()
            .map(|a| (a.id.clone(), json(&a)))
            .collect()
    }

    /// By problem's place: the team that first solved it, when every
    /// earlier submission to it has a result this audience may see.
    fn first_to_solve(&self) -> BTreeMap<usize, String> {
        let session = &self.app.session;
        let frozen = match self.access().board() {
            BoardView::Jury => None,
            BoardView::Public { frozen_since } => frozen_since,
        };
        let in_hours = |at: SystemTime| match (session.start(), session.end()) {
            (Some(start), Some(end)) => start <= at && at < end,
            _ => true,
        };
        let mut first = BTreeMap::new();
        for (ordinal, problem) in self.app.problems.iter().enumerate() {
            let tries = self.data.entries.iter().filter(|e| {
                e.problem == problem.id
                    && self.team_of(e.account).is_some()
                    && in_hours(e.submitted_at)
            });
            for entry in tries {
                let known = entry
                    .verdict
                    .filter(|_| frozen.is_none_or(|f| entry.submitted_at < f));
                match known {
                    None => break,
                    Some(Verdict::Accepted) => {
                        first.insert(ordinal, entry.account.to_string());
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
        first
    }
}
