//! The judging queue: fair across participants. Each participant has a
//! line of their own; the judge threads take the first submission of each
//! line in turn (round-robin), so one participant's twenty submissions do
//! not hold back everybody else's first one. The queue is only an order:
//! what is queued is in the store (`entries.status`), and a restart
//! rebuilds the queue from it.

use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex};

#[derive(Default)]
pub(crate) struct Queue {
    inner: Mutex<Lines>,
    ready: Condvar,
    /// Entries queued to be judged again under review (a dry run):
    /// entry → (review, the run its reports go under).
    reviews: Mutex<std::collections::HashMap<i64, (i64, i64)>>,
}

#[derive(Default)]
struct Lines {
    /// Participant → their queued entries, oldest first.
    by_owner: HashMap<i64, VecDeque<i64>>,
    /// Whose turn is next: every participant with a non-empty line, once.
    turns: VecDeque<i64>,
    closed: bool,
}

impl Queue {
    /// Adds `entry` of participant `owner` at the end of their line.
    pub(crate) fn push(&self, entry: i64, owner: i64) {
        let mut lines = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let line = lines.by_owner.entry(owner).or_default();
        if line.contains(&entry) {
            return;
        }
        line.push_back(entry);
        if line.len() == 1 {
            lines.turns.push_back(owner);
        }
        drop(lines);
        self.ready.notify_one();
    }

    /// The next entry, waiting for one; `None` once the queue is closed.
    pub(crate) fn pop(&self) -> Option<i64> {
        let mut lines = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if lines.closed {
                return None;
            }
            if let Some(entry) = lines.take() {
                return Some(entry);
            }
            lines = self.ready.wait(lines).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Queues `entry` of `owner` to be judged again for `review`, its
    /// report under `run`: the judging in force stays in force.
    pub(crate) fn push_review(&self, entry: i64, owner: i64, review: i64, run: i64) {
        self.reviews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(entry, (review, run));
        self.push(entry, owner);
    }

    /// Whether `entry`, just taken, is to be judged for a review: (review,
    /// run).
    pub(crate) fn take_review(&self, entry: i64) -> Option<(i64, i64)> {
        self.reviews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&entry)
    }

    /// Wakes every waiting judge thread to stop.
    pub(crate) fn close(&self) {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        self.ready.notify_all();
    }

    /// How many entries wait.
    pub(crate) fn len(&self) -> usize {
        let lines = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        lines.by_owner.values().map(VecDeque::len).sum()
    }
}

impl Lines {
    fn take(&mut self) -> Option<i64> {
        let owner = self.turns.pop_front()?;
        let line = self.by_owner.get_mut(&owner)?;
        let entry = line.pop_front()?;
        if line.is_empty() {
            self.by_owner.remove(&owner);
        } else {
            self.turns.push_back(owner);
        }
        Some(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn participants_take_turns_whatever_order_they_queued_in() {
        let queue = Queue::default();
        for entry in 1..=20 {
            queue.push(entry, 7);
        }
        queue.push(21, 8);
        queue.push(22, 9);
        queue.push(23, 8);
        let order: Vec<i64> = (0..6).map(|_| queue.pop().unwrap()).collect();
        assert_eq!(order, [1, 21, 22, 2, 23, 3]);
        assert_eq!(queue.len(), 17);
        queue.close();
        assert_eq!(queue.pop(), None);
    }

    #[test]
    fn an_entry_queued_twice_is_judged_once() {
        let queue = Queue::default();
        queue.push(1, 7);
        queue.push(1, 7);
        assert_eq!(queue.len(), 1);
    }
}
