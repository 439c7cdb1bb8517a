//! Password hashing and checking for the pages and the API, bounded:
//! argon2id takes ~19 MiB and tens of milliseconds on purpose, so a flood
//! of logins on a thread each grew the server by a gigabyte. Here a few
//! long-lived threads (about one per core) take the work from a queue of
//! bounded length; when it is full the attempt is refused at once (429),
//! and the server's memory stays flat whatever the flood.
//!
//! A login for a user who does not exist (or is disabled) is checked
//! against a dummy hash made at start, so that it takes as long as a wrong
//! password of a real user: the time of an answer does not tell which
//! accounts exist.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use super::accounts;
use super::error::AppError;

/// What the hashing threads are asked.
enum Job {
    Verify {
        password: String,
        hash: String,
        reply: oneshot::Sender<bool>,
    },
    Hash {
        password: String,
        reply: oneshot::Sender<Option<String>>,
    },
}

/// The hashing threads and their queue.
pub(crate) struct Passwords {
    jobs: SyncSender<Job>,
    /// Checked in place of a missing account's hash.
    dummy: String,
}

/// Refused: every hashing thread is busy and the queue is full.
pub(crate) fn busy() -> AppError {
    AppError::TooMany("The server is busy checking passwords: try again in a moment.".into())
}

impl Passwords {
    /// `threads` hashing threads with room for `queue` waiting jobs. The
    /// threads end when the `Passwords` is dropped.
    pub(crate) fn start(threads: usize, queue: usize) -> Passwords {
        let (jobs, waiting) = std::sync::mpsc::sync_channel(queue);
        let waiting = Arc::new(Mutex::new(waiting));
        for n in 0..threads.max(1) {
            let waiting = waiting.clone();
            let _ = std::thread::Builder::new()
                .name(format!("passwords-{n}"))
                .spawn(move || work(&waiting));
        }
        let dummy =
            accounts::hash_password(&accounts::generate_password()).unwrap_or_else(|_| "!".into());
        Passwords { jobs, dummy }
    }

    /// Whether `password` is the one of `hash`; `None` (a missing or
    /// disabled account) is checked against the dummy hash and is false.
    pub(crate) async fn verify(
        &self,
        password: &str,
        hash: Option<String>,
    ) -> Result<bool, AppError> {
        let real = hash.is_some();
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Verify {
            password: password.to_string(),
            hash: hash.unwrap_or_else(|| self.dummy.clone()),
            reply,
        })?;
        let matched = answer
            .await
            .map_err(|_| AppError::Internal("a password check was dropped".into()))?;
        Ok(real && matched)
    }

    /// `password`'s argon2id hash.
    pub(crate) async fn hash(&self, password: &str) -> Result<String, AppError> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Hash {
            password: password.to_string(),
            reply,
        })?;
        answer
            .await
            .ok()
            .flatten()
            .ok_or_else(|| AppError::Internal("a password could not be hashed".into()))
    }

    fn submit(&self, job: Job) -> Result<(), AppError> {
        match self.jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(busy()),
            Err(TrySendError::Disconnected(_)) => Err(AppError::Internal(
                "the password threads have stopped".into(),
            )),
        }
    }
}

/// A hashing thread: takes jobs until the queue's sender is dropped.
fn work(waiting: &Mutex<Receiver<Job>>) {
    let mut memory = accounts::PasswordMemory::default();
    loop {
        let job = {
            let receiver = waiting.lock().unwrap_or_else(|e| e.into_inner());
            receiver.recv()
        };
        match job {
            Ok(Job::Verify {
                password,
                hash,
                reply,
            }) => {
                let _ = reply.send(memory.verify(&password, &hash));
            }
            Ok(Job::Hash { password, reply }) => {
                let _ = reply.send(memory.hash(&password).ok());
            }
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_missing_account_never_matches_and_a_full_queue_refuses() {
        let passwords = Passwords::start(1, 1);
        let hash = passwords.hash("correct horse").await.unwrap();
        assert!(
            passwords
                .verify("correct horse", Some(hash.clone()))
                .await
                .unwrap()
        );
        assert!(!passwords.verify("wrong", Some(hash)).await.unwrap());
        // The dummy hash's own password is unknown, and even it would not
        // make a missing account match.
        assert!(!passwords.verify("anything", None).await.unwrap());

        // One thread busy, one job waiting: the third is refused at once.
        let slow = std::iter::repeat_with(|| passwords.hash("x")).take(3);
        let results = futures_lite_join(slow.collect()).await;
        assert!(
            results
                .iter()
                .any(|r| matches!(r, Err(AppError::TooMany(_)))),
            "{results:?}"
        );
    }

    /// Starts every future before awaiting any (as concurrent requests do).
    async fn futures_lite_join<F: std::future::Future>(futures: Vec<F>) -> Vec<F::Output> {
        let mut pinned: Vec<_> = futures.into_iter().map(Box::pin).collect();
        let mut first: Vec<Option<F::Output>> = Vec::new();
        // Poll each once so that every job is submitted before any completes.
        for future in &mut pinned {
            let mut context = std::task::Context::from_waker(std::task::Waker::noop());
            first.push(match future.as_mut().poll(&mut context) {
                std::task::Poll::Ready(output) => Some(output),
                std::task::Poll::Pending => None,
            });
        }
        let mut outputs = Vec::new();
        for (future, done) in pinned.into_iter().zip(first) {
            outputs.push(match done {
                Some(output) => output,
                None => future.await,
            });
        }
        outputs
    }
}
