//! The judge's seat between a submission and an interactor: it forwards
//! each side's output to the other as soon as it is readable (no polling
//! sleeps: a round trip costs two pipe hops and a `poll` wake-up), records a
//! bounded transcript of both directions, and notes which side stopped
//! talking first, which decides the verdict.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags};

use super::Conversation;
use super::unix::{self, Schedstat, pipe};
use super::waiting;

/// Bytes of transcript kept: the end of the conversation, where a game goes
/// wrong, is what a report shows.
const TRANSCRIPT_KEEP: usize = 16 << 10;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the interactor to the submission.
    ToSubmission,
    /// From the submission to the interactor.
    FromSubmission,
}

/// The end of a conversation: the last `TRANSCRIPT_KEEP` bytes, in the order
/// they were sent, with how much was dropped before them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Transcript {
    pub chunks: VecDeque<(Direction, Vec<u8>)>,
    pub dropped_bytes: u64,
    kept: usize,
}

impl Transcript {
    fn record(&mut self, direction: Direction, bytes: &[u8]) {
        match self.chunks.back_mut() {
            Some((last, chunk)) if *last == direction => chunk.extend_from_slice(bytes),
            _ => self.chunks.push_back((direction, bytes.to_vec())),
        }
        self.kept += bytes.len();
        while self.kept > TRANSCRIPT_KEEP {
            let Some((_, front)) = self.chunks.front_mut() else {
                break;
            };
            let cut = (self.kept - TRANSCRIPT_KEEP).min(front.len());
            front.drain(..cut);
            self.kept -= cut;
            self.dropped_bytes += cut as u64;
            if front.is_empty() {
                self.chunks.pop_front();
            }
        }
    }

    /// The last `count` lines of the transcript, each with its direction.
    /// A line one side wrote in pieces, with the other side talking in
    /// between, shows as several lines.
    pub fn last_lines(&self, count: usize) -> Vec<(Direction, String)> {
        let mut lines: Vec<(Direction, String)> = Vec::new();
        for (direction, chunk) in &self.chunks {
            for line in String::from_utf8_lossy(chunk).split_inclusive('\n') {
                lines.push((*direction, line.trim_end_matches('\n').to_string()));
            }
        }
        let start = lines.len().saturating_sub(count);
        lines.split_off(start)
    }
}

/// One direction: bytes read from `from`, held until `to` takes them.
#[derive(Debug)]
struct Channel {
    direction: Direction,
    from: Option<File>,
    to: Option<File>,
    pending: Vec<u8>,
    written: usize,
    /// When `from` reached its end: that side stopped talking.
    closed_at: Option<Instant>,
}

impl Channel {
    fn new(direction: Direction, from: OwnedFd, to: OwnedFd) -> io::Result<Channel> {
        for fd in [from.as_fd(), to.as_fd()] {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(Channel {
            direction,
            from: Some(File::from(from)),
            to: Some(File::from(to)),
            pending: Vec::new(),
            written: 0,
            closed_at: None,
        })
    }

    fn has_pending(&self) -> bool {
        self.written < self.pending.len()
    }

    /// What to wait for: input when nothing is held (so a side that does not
    /// read holds up its writer, as a direct pipe would), else room to write.
    /// Once the reader is gone, what is held is dropped and the writer is
    /// drained, so it waits for input again: a writer blocked on a full
    /// pipe must be read, or it never sees its reader leave.
    fn interest(&self) -> Option<(BorrowedFd<'_>, PollFlags)> {
        match &self.to {
            Some(to) if self.has_pending() => Some((to.as_fd(), PollFlags::OUT)),
            _ => self.from.as_ref().map(|from| (from.as_fd(), PollFlags::IN)),
        }
    }

    /// Whether what was sent through it is all taken: nothing held, and
    /// nothing unread in the reader's pipe.
    fn delivered(&self) -> bool {
        !self.has_pending()
            && self.to.as_ref().is_some_and(|to| {
                rustix::io::ioctl_fionread(to.as_fd()).is_ok_and(|unread| unread == 0)
            })
    }

    /// Moves what it can without blocking. Returns bytes read from `from`.
    fn pump(&mut self, buffer: &mut [u8], transcript: &mut Transcript) -> io::Result<u64> {
        let mut read_total = 0;
        loop {
            if self.has_pending() {
                let Some(to) = self.to.as_mut() else {
                    self.pending.clear();
                    self.written = 0;
                    continue;
                };
                match to.write(&self.pending[self.written..]) {
                    Ok(n) => self.written += n,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(read_total),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    // The reader left: what it was sent no longer matters,
                    // but the writer is still drained so it never blocks.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                        self.to = None;
                    }
                    Err(e) => return Err(e),
                }
                continue;
            }
            self.pending.clear();
            self.written = 0;
            let Some(from) = self.from.as_mut() else {
                // The writer is done and everything is delivered: the
                // reader sees the end of its input.
                self.to = None;
                return Ok(read_total);
            };
            match from.read(buffer) {
                Ok(0) => {
                    self.from = None;
                    self.closed_at.get_or_insert_with(Instant::now);
                }
                Ok(n) => {
                    read_total += n as u64;
                    transcript.record(self.direction, &buffer[..n]);
                    if self.to.is_some() {
                        self.pending.extend_from_slice(&buffer[..n]);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(read_total),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn finished(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
}

/// Both directions between a submission and an interactor.
#[derive(Debug)]
pub(crate) struct Relay {
    to_submission: Channel,
    from_submission: Channel,
    transcript: Transcript,
    /// Bytes the submission wrote on stdout (they count towards its output limit).
    pub(crate) submission_output: u64,
    buffer: Vec<u8>,
    /// The interactor's pid once its run started (0 before).
    interactor_pid: Arc<AtomicI32>,
    /// The relaying thread, and its accounting when the relay began.
    relay_tid: i32,
    relay_at_start: Schedstat,
    /// The last readings of `others_busy`'s two parts.
    relay_busy: Duration,
    interactor_busy: Duration,
}

/// The descriptors each side is given: (stdin, stdout).
pub(crate) struct SideFds {
    pub(crate) stdin: OwnedFd,
    pub(crate) stdout: OwnedFd,
    /// Where stderr goes, when the caller reads it as it comes (else the
    /// run keeps it, as any run's).
    pub(crate) stderr: Option<OwnedFd>,
    /// Where the side's run says its process's pid once started (the
    /// interactor's, read by the submission's run loop; 0 until then).
    pub(crate) started: Option<Arc<AtomicI32>>,
    /// Whether `stdin` and `stdout` are its standard streams or reached
    /// by the paths its arguments name (its request's, set by the run).
    pub(crate) conversation: Conversation,
}

impl Relay {
    /// Time the submission spent waiting on the other parties of the
    /// interaction since it began: the interactor's and the relaying
    /// thread's time on a CPU and on a run queue. A trusted program's
    /// thinking, and a busy machine's delays, are not the submission's
    /// doing, so its wall backstop gives that time back as it gives back
    /// its own run-queue delay. Never decreases: once the interactor is
    /// gone its last reading stands.
    pub(crate) fn others_busy(&mut self) -> Duration {
        let busy = |stat: Schedstat| stat.on_cpu + stat.waited;
        if let Some(now) = unix::schedstat(self.relay_tid) {
            self.relay_busy = busy(now).saturating_sub(busy(self.relay_at_start));
        }
        match self.interactor_pid.load(Ordering::SeqCst) {
            0 => {}
            pid => {
                if let Some(now) = unix::schedstat(pid) {
                    self.interactor_busy = self.interactor_busy.max(busy(now));
                }
            }
        }
        self.relay_busy + self.interactor_busy
    }

    /// Four pipes: the relay holds one end of each, and each side gets its
    /// stdin and stdout.
    pub(crate) fn new() -> io::Result<(Relay, SideFds, SideFds)> {
        let (submission_in, to_submission) = pipe()?;
        let (from_submission, submission_out) = pipe()?;
        let (interactor_in, to_interactor) = pipe()?;
        let (from_interactor, interactor_out) = pipe()?;
        let interactor_pid = Arc::new(AtomicI32::new(0));
        let relay_tid = rustix::thread::gettid().as_raw_nonzero().get();
        let relay = Relay {
            to_submission: Channel::new(Direction::ToSubmission, from_interactor, to_submission)?,
            from_submission: Channel::new(
                Direction::FromSubmission,
                from_submission,
                to_interactor,
            )?,
            transcript: Transcript::default(),
            submission_output: 0,
            buffer: vec![0; 64 << 10],
            interactor_pid: Arc::clone(&interactor_pid),
            relay_tid,
            relay_at_start: unix::schedstat(relay_tid).unwrap_or_default(),
            relay_busy: Duration::ZERO,
            interactor_busy: Duration::ZERO,
        };
        Ok((
            relay,
            SideFds {
                stderr: None,
                stdin: submission_in,
                stdout: submission_out,
                started: None,
                conversation: Conversation::StandardStreams,
            },
            SideFds {
                stderr: None,
                stdin: interactor_in,
                stdout: interactor_out,
                started: Some(Arc::clone(&interactor_pid)),
                conversation: Conversation::StandardStreams,
            },
        ))
    }

    /// What the relay waits for, for one `poll` together with the caller's
    /// own descriptors.
    pub(crate) fn poll_fds(&self) -> Vec<PollFd<'_>> {
        [&self.to_submission, &self.from_submission]
            .into_iter()
            .filter_map(Channel::interest)
            .map(|(fd, flags)| PollFd::from_borrowed_fd(fd, flags))
            .collect()
    }

    /// Moves everything that can move now.
    pub(crate) fn pump(&mut self) -> io::Result<()> {
        self.to_submission
            .pump(&mut self.buffer, &mut self.transcript)?;
        self.submission_output += self
            .from_submission
            .pump(&mut self.buffer, &mut self.transcript)?;
        Ok(())
    }

    /// Whether the interactor holds the conversation up: still talking,
    /// its answers all taken, and neither reading what the submission sent
    /// nor blocked reading for more. `Some(false)` when it waits on the
    /// submission (blocked reading, or its answer held because the
    /// submission does not read it) or has stopped talking; `None` when
    /// its processes cannot be inspected.
    pub(crate) fn interactor_stalled(&self) -> Option<bool> {
        let done_talking = self.to_submission.from.is_none();
        let answer_held = self.to_submission.has_pending() && self.to_submission.to.is_some();
        if done_talking || answer_held {
            return Some(false);
        }
        if !self.from_submission.delivered() {
            // Input left unread, or its input closed while it runs on.
            return Some(true);
        }
        let pid = self.interactor_pid.load(Ordering::SeqCst);
        let to_interactor = self.from_submission.to.as_ref()?;
        let inode = rustix::fs::fstat(to_interactor.as_fd()).ok()?.st_ino;
        let reading = (pid != 0).then(|| waiting::session_reads_pipe(pid, inode))??;
        Some(!reading)
    }

    /// Kills an interactor found stalled: the test is a judge error already,
    /// and it would otherwise hold the test until its own backstop. Its run
    /// has not been reaped (it was seen alive just before), so the pid is
    /// still its own; its watcher then tears down the rest of its group.
    pub(crate) fn stop_interactor(&self) {
        let pid = self.interactor_pid.load(Ordering::SeqCst);
        if let Ok(process) = unix::RunProcess::open(pid) {
            process.kill();
        }
    }

    /// The submission is gone: nothing more is delivered to it.
    pub(crate) fn submission_gone(&mut self) {
        self.to_submission.to = None;
    }

    /// Whether both sides have stopped and everything was delivered.
    pub(crate) fn finished(&self) -> bool {
        self.to_submission.finished() && self.from_submission.finished()
    }

    /// When the interactor, and the submission, stopped talking (closed
    /// their stdout, usually by exiting).
    pub(crate) fn closed_at(&self) -> (Option<Instant>, Option<Instant>) {
        (self.to_submission.closed_at, self.from_submission.closed_at)
    }

    pub(crate) fn into_transcript(self) -> Transcript {
        self.transcript
    }
}

#[cfg(test)]
mod tests {
    use rustix::event::{Timespec, poll};

    use super::*;

    #[test]
    fn the_transcript_keeps_the_end() {
        let mut transcript = Transcript::default();
        for i in 0..10_000 {
            transcript.record(Direction::ToSubmission, format!("{i}\n").as_bytes());
            transcript.record(Direction::FromSubmission, b"L\n");
        }
        assert!(transcript.kept <= TRANSCRIPT_KEEP);
        assert!(transcript.dropped_bytes > 0);
        let last = transcript.last_lines(2);
        assert_eq!(
            last,
            vec![
                (Direction::ToSubmission, "9999".to_string()),
                (Direction::FromSubmission, "L".to_string())
            ]
        );
    }

    #[test]
    fn a_line_split_over_reads_is_one_line() {
        let mut transcript = Transcript::default();
        transcript.record(Direction::FromSubmission, b"1");
        transcript.record(Direction::ToSubmission, b"x\n");
        transcript.record(Direction::FromSubmission, b"2 3\n");
        // Same-side chunks are merged only when adjacent.
        let lines = transcript.last_lines(10);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[2], (Direction::FromSubmission, "2 3".to_string()));
    }

    /// The interactor answered more than a submission that does not read
    /// can take, and is blocked writing: once the submission is gone the
    /// relay must read the interactor again, or it never sees its reader
    /// leave (it was left blocked until its own backstop).
    #[test]
    fn once_the_submission_is_gone_the_interactor_is_read_again() {
        let (mut relay, submission, interactor) = Relay::new().unwrap();
        let mut interactor_out = File::from(interactor.stdout);
        rustix::io::ioctl_fionbio(interactor_out.as_fd(), true).unwrap();
        let answers = vec![b'y'; 64 << 10];
        let mut wrote_since_pump = true;
        while wrote_since_pump {
            wrote_since_pump = false;
            while interactor_out.write(&answers).is_ok() {
                wrote_since_pump = true;
            }
            relay.pump().unwrap();
        }
        assert!(relay.to_submission.has_pending(), "its answers are held");
        let ready = |relay: &Relay| {
            let mut fds = relay.poll_fds();
            poll(&mut fds, Some(&Timespec::default())).unwrap()
        };
        assert_eq!(ready(&relay), 0, "nothing moves while the submission waits");
        // Its pipes stay open: the relay may be waiting to write its
        // output on, and so not see it end (as with boolfind's loop).
        relay.submission_gone();
        assert_eq!(ready(&relay), 1, "the interactor's output is read again");
        relay.pump().unwrap();
        assert!(!relay.to_submission.has_pending());
        drop(submission);
    }

    #[test]
    fn bytes_cross_both_ways_and_ends_propagate() {
        let (mut relay, submission, interactor) = Relay::new().unwrap();
        let mut interactor_out = File::from(interactor.stdout);
        let mut submission_in = File::from(submission.stdin);
        let mut submission_out = File::from(submission.stdout);
        let mut interactor_in = File::from(interactor.stdin);
        interactor_out.write_all(b"4\n").unwrap();
        submission_out.write_all(b"L\n").unwrap();
        relay.pump().unwrap();
        let mut got = [0u8; 2];
        submission_in.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"4\n");
        interactor_in.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"L\n");
        assert_eq!(relay.submission_output, 2);
        drop(interactor_out);
        drop(submission_out);
        relay.pump().unwrap();
        relay.pump().unwrap();
        assert!(relay.finished());
        let (interactor_closed, submission_closed) = relay.closed_at();
        assert!(interactor_closed.is_some() && submission_closed.is_some());
        let mut rest = Vec::new();
        submission_in.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty(), "the submission sees the end of its input");
    }
}
