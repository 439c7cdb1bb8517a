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
use super::fifos::{SideFifos, Undecided};
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
    /// Whether its ends are known: a pair of FIFOs waits for its first
    /// writer (see `fifos`).
    connected: bool,
    /// A FIFO's writer of the relay's own, held until `from` gives its
    /// first bytes (see `Fifo::into_source`).
    held_writer: Option<OwnedFd>,
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
            connected: true,
            held_writer: None,
        })
    }

    /// A channel from a FIFO, and the relay's own writer of it.
    fn from_fifo(
        direction: Direction,
        (from, held_writer): (OwnedFd, OwnedFd),
        to: OwnedFd,
    ) -> io::Result<Channel> {
        Ok(Channel {
            held_writer: Some(held_writer),
            ..Channel::new(direction, from, to)?
        })
    }

    /// A direction whose ends the first writer into a pair of FIFOs gives.
    fn unconnected(direction: Direction) -> Channel {
        Channel {
            direction,
            from: None,
            to: None,
            pending: Vec::new(),
            written: 0,
            closed_at: None,
            connected: false,
            held_writer: None,
        }
    }

    fn connect(&mut self, from: (OwnedFd, OwnedFd), to: OwnedFd) -> io::Result<()> {
        *self = Channel::from_fifo(self.direction, from, to)?;
        Ok(())
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
        !self.connected
            || !self.has_pending()
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
                    self.held_writer = None;
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
    /// Pairs of FIFOs no side has written into yet.
    undecided: Vec<Undecided>,
    /// The FIFOs' folders, removed when the conversation is over; the
    /// submission's, which its box must see.
    _folders: Vec<tempfile::TempDir>,
    submission_folder: Option<std::path::PathBuf>,
}

/// How a side reaches the relay.
pub(crate) enum SideEnds {
    /// Its stdin and stdout.
    Streams { stdin: OwnedFd, stdout: OwnedFd },
    /// Two named FIFOs, the paths its arguments name (see `fifos`).
    Paths([std::path::PathBuf; 2]),
}

/// What each side is given.
pub(crate) struct SideFds {
    pub(crate) ends: SideEnds,
    /// Where stderr goes, when the caller reads it as it comes (else the
    /// run keeps it, as any run's).
    pub(crate) stderr: Option<OwnedFd>,
    /// Where the side's run says its process's pid once started (the
    /// interactor's, read by the submission's run loop; 0 until then).
    pub(crate) started: Option<Arc<AtomicI32>>,
    /// Where its arguments name the paths of `SideEnds::Paths` (its
    /// request's, set by the run).
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

    /// Each side's ends: its stdin and stdout as pipes, or, for a side
    /// that `conversation` says reaches the other by path, two FIFOs. When
    /// both do, which way each pair carries is left to the first writer;
    /// otherwise a side's FIFOs carry as CMS's names say.
    pub(crate) fn new(
        submission: Conversation,
        interactor: Conversation,
    ) -> io::Result<(Relay, SideFds, SideFds)> {
        let by_path = |c: Conversation| c != Conversation::StandardStreams;
        let mut folders = Vec::new();
        let mut undecided = Vec::new();
        let mut to_submission = Channel::unconnected(Direction::ToSubmission);
        let mut from_submission = Channel::unconnected(Direction::FromSubmission);
        let (submission_ends, interactor_ends, submission_folder) =
            if by_path(submission) && by_path(interactor) {
                let (manager, solution) = (SideFifos::make()?, SideFifos::make()?);
                let ends = (
                    SideEnds::Paths(solution.paths(false)),
                    SideEnds::Paths(manager.paths(true)),
                );
                let (manager_folder, m_from, m_to) = manager.into_parts();
                let (solution_folder, s_from, s_to) = solution.into_parts();
                let shown = solution_folder.path().to_path_buf();
                folders = vec![manager_folder, solution_folder];
                undecided = vec![
                    Undecided {
                        manager: m_from,
                        solution: s_from,
                    },
                    Undecided {
                        manager: m_to,
                        solution: s_to,
                    },
                ];
                (ends.0, ends.1, Some(shown))
            } else {
                let (to_s, from_s, s_ends, s_folder) = fixed_side(by_path(submission), false)?;
                let (to_i, from_i, i_ends, i_folder) = fixed_side(by_path(interactor), true)?;
                to_submission = from_i.channel(Direction::ToSubmission, to_s)?;
                from_submission = from_s.channel(Direction::FromSubmission, to_i)?;
                let shown = s_folder.as_ref().map(|f| f.path().to_path_buf());
                folders.extend(s_folder.into_iter().chain(i_folder));
                (s_ends, i_ends, shown)
            };
        let interactor_pid = Arc::new(AtomicI32::new(0));
        let relay_tid = rustix::thread::gettid().as_raw_nonzero().get();
        let relay = Relay {
            to_submission,
            from_submission,
            transcript: Transcript::default(),
            submission_output: 0,
            buffer: vec![0; 64 << 10],
            interactor_pid: Arc::clone(&interactor_pid),
            relay_tid,
            relay_at_start: unix::schedstat(relay_tid).unwrap_or_default(),
            relay_busy: Duration::ZERO,
            interactor_busy: Duration::ZERO,
            undecided,
            _folders: folders,
            submission_folder,
        };
        Ok((
            relay,
            SideFds {
                stderr: None,
                ends: submission_ends,
                started: None,
                conversation: submission,
            },
            SideFds {
                stderr: None,
                ends: interactor_ends,
                started: Some(Arc::clone(&interactor_pid)),
                conversation: interactor,
            },
        ))
    }

    /// The folder of the submission's FIFOs, which its box must see.
    pub(crate) fn submission_folder(&self) -> Option<&std::path::Path> {
        self.submission_folder.as_deref()
    }

    /// Connects each direction whose pair of FIFOs was written into: the
    /// writer's FIFO is read, the other side's written.
    fn decide(&mut self) -> io::Result<()> {
        let mut index = 0;
        while index < self.undecided.len() {
            let pair = &self.undecided[index];
            let from_manager = !self.to_submission.connected && pair.manager.has_input();
            let from_solution = !self.from_submission.connected && pair.solution.has_input();
            if !from_manager && !from_solution {
                index += 1;
                continue;
            }
            let pair = self.undecided.remove(index);
            if from_manager {
                self.to_submission
                    .connect(pair.manager.into_source(), pair.solution.into_target())?;
            } else {
                self.from_submission
                    .connect(pair.solution.into_source(), pair.manager.into_target())?;
            }
        }
        Ok(())
    }

    /// What the relay waits for, for one `poll` together with the caller's
    /// own descriptors.
    pub(crate) fn poll_fds(&self) -> Vec<PollFd<'_>> {
        // A pair is watched for a first writer only while its direction
        // could still be connected (else its input would wake us for ever).
        let first_writers = self.undecided.iter().flat_map(|pair| {
            let manager = (!self.to_submission.connected).then_some(&pair.manager);
            let solution = (!self.from_submission.connected).then_some(&pair.solution);
            manager.into_iter().chain(solution)
        });
        [&self.to_submission, &self.from_submission]
            .into_iter()
            .filter_map(Channel::interest)
            .chain(first_writers.map(|fifo| (fifo.reader().as_fd(), PollFlags::IN)))
            .map(|(fd, flags)| PollFd::from_borrowed_fd(fd, flags))
            .collect()
    }

    /// Moves everything that can move now.
    pub(crate) fn pump(&mut self) -> io::Result<()> {
        self.decide()?;
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
        let done_talking = self.to_submission.connected && self.to_submission.from.is_none();
        let answer_held = self.to_submission.has_pending() && self.to_submission.to.is_some();
        if done_talking || answer_held {
            return Some(false);
        }
        if !self.from_submission.delivered() {
            // Input left unread, or its input closed while it runs on.
            return Some(true);
        }
        let pid = self.interactor_pid.load(Ordering::SeqCst);
        // What it may be waiting to read: the submission's pipe, or a FIFO
        // the submission has not written into yet.
        let to_interactor = self.from_submission.to.as_ref();
        let inodes: Vec<u64> = to_interactor
            .and_then(|to| rustix::fs::fstat(to.as_fd()).ok())
            .map(|stat| stat.st_ino)
            .into_iter()
            .chain(self.undecided.iter().map(|pair| pair.manager.inode()))
            .collect();
        if inodes.is_empty() {
            return None;
        }
        let reading = (pid != 0).then(|| waiting::session_reads_pipe(pid, &inodes))??;
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
    /// A pair of FIFOs it never wrote into is closed: an interactor
    /// reading one sees its end.
    pub(crate) fn submission_gone(&mut self) {
        self.to_submission.to = None;
        self.undecided.clear();
    }

    /// Whether both sides have stopped and everything was delivered.
    pub(crate) fn finished(&self) -> bool {
        self.undecided.is_empty()
            && self.to_submission.finished()
            && self.from_submission.finished()
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

/// One side's ends when their direction is fixed: what the relay writes
/// (the side's input), what it reads (its output), what the side is given,
/// and the folder of its FIFOs. By path, the manager reads `u_to_m` and
/// writes `m_to_u`, the solution the reverse, as CMS's names say (the
/// other side is on its standard streams: CMS's `std_io`).
fn fixed_side(
    by_path: bool,
    manager: bool,
) -> io::Result<(OwnedFd, Source, SideEnds, Option<tempfile::TempDir>)> {
    if !by_path {
        let (stdin, input) = pipe()?;
        let (output, stdout) = pipe()?;
        let ends = SideEnds::Streams { stdin, stdout };
        return Ok((input, Source::Pipe(output), ends, None));
    }
    let fifos = SideFifos::make()?;
    let paths = fifos.paths(manager);
    let (folder, from_solution, to_solution) = fifos.into_parts();
    let (input, output) = match manager {
        true => (from_solution, to_solution),
        false => (to_solution, from_solution),
    };
    Ok((
        input.into_target(),
        Source::Fifo(output.into_source()),
        SideEnds::Paths(paths),
        Some(folder),
    ))
}

/// What a channel reads: a pipe, or a FIFO with the relay's own writer.
enum Source {
    Pipe(OwnedFd),
    Fifo((OwnedFd, OwnedFd)),
}

impl Source {
    fn channel(self, direction: Direction, to: OwnedFd) -> io::Result<Channel> {
        match self {
            Source::Pipe(from) => Channel::new(direction, from, to),
            Source::Fifo(from) => Channel::from_fifo(direction, from, to),
        }
    }
}

#[cfg(test)]
#[path = "relay_tests.rs"]
mod tests;
