//! The interactor of an interactive problem (Kattis protocol):
//! `interactor input answer feedback_dir/ [args...]`, with its stdin fed by
//! the submission's stdout and its stdout feeding the submission's stdin.
//! It plays the game, then exits 42 (accept) or 43 (reject) with
//! `judgemessage.txt` in `feedback_dir`.
//!
//! What a submission can do wrong, and what the [`Session`] does about it:
//! - **it stops talking** (exits, crashes, closes its stdout): the next
//!   [`Session::recv`] finds end of input and rejects, naming the move and
//!   what was expected. A read never waits on a closed pipe.
//! - **it floods**: a token is at most [`MAX_TOKEN`] bytes (longer rejects),
//!   so garbage cannot make the interactor allocate; the judge's output and
//!   time limits stop the rest.
//! - **it stops reading** (closes its stdin, or exits right after its last
//!   move): [`Session::send`] cannot deliver. That alone is no rejection: a
//!   submission may well exit after its winning move without reading our
//!   "you won", and if it died, its own verdict (RTE) should win, which needs
//!   the interactor not to reject first. So the session stops sending and
//!   carries on; if the game then needs the submission's next move, the
//!   rejection says "found end of input (the submission stopped reading)".
//!   Rust programs ignore SIGPIPE (the runtime sets it to ignored before
//!   `main`), so a write to a closed pipe returns `BrokenPipe` instead of
//!   killing the interactor.
//! - **it hangs**: the interactor blocks in `recv` and the judge's time limit
//!   ends the submission, which gives the interactor its end of input.

use std::io::{BufRead, StdinLock, Write};
use std::os::fd::{AsFd, FromRawFd, OwnedFd};
use std::path::PathBuf;

use crate::checker::{judge_files, write_feedback};
use crate::parse::{lenient, shown};
use crate::tokens::is_space;
use crate::{exit, judge_error};

/// The longest token a submission may send, in bytes: far more than any
/// move, so only garbage hits it.
pub const MAX_TOKEN: usize = 64;

/// The environment variable `judge play` sets to `1` when a person plays.
pub const PLAY_ENV: &str = "JUDGE_PLAY";

/// Why a token could not be read.
enum Unread {
    /// End of input (or a read error, which means the same: nothing more
    /// will come).
    End,
    /// A token longer than [`MAX_TOKEN`]; holds its first bytes.
    TooLong(Vec<u8>),
}

/// One game against one submission.
pub struct Session {
    input: String,
    answer: String,
    feedback_dir: PathBuf,
    args: Vec<String>,
    from_submission: StdinLock<'static>,
    /// A send found the submission's stdin closed; later sends are skipped.
    submission_left: bool,
    /// The current move: the submission's answer to our last lines.
    move_number: usize,
    /// A line was sent since the last `recv`, so the next `recv` starts a move.
    new_move: bool,
    playing: bool,
}

impl Session {
    /// Reads the command line and the test's input and answer files. A usage
    /// or I/O problem is a judge error (exit 1).
    pub fn start() -> Session {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let (input, answer, feedback_dir) = judge_files(&args).unwrap_or_else(|e| judge_error(&e));
        // `finish` closes fd 1; make sure now that it is open (the judge
        // could have started us without it).
        if let Err(e) = std::io::stdout().as_fd().try_clone_to_owned() {
            judge_error(&format!("no stdout to talk to the submission: {e}"));
        }
        Session {
            input,
            answer,
            feedback_dir,
            args: args[3..].to_vec(),
            from_submission: std::io::stdin().lock(),
            submission_left: false,
            move_number: 0,
            new_move: true,
            playing: std::env::var(PLAY_ENV).is_ok_and(|v| v == "1"),
        }
    }

    /// The test's `.in`.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The test's `.ans`.
    pub fn answer(&self) -> &str {
        &self.answer
    }

    /// Extra arguments after `feedback_dir`.
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// The number of the current move (1 for the submission's first answer):
    /// a move is everything the submission sends between two of our lines.
    pub fn move_number(&self) -> usize {
        self.move_number
    }

    /// Sends one line (a newline is added) to the submission and flushes. A
    /// closed pipe is not an error (see the module documentation); any other
    /// write error is a judge error.
    pub fn send(&mut self, line: &str) {
        self.new_move = true;
        if self.submission_left {
            return;
        }
        let mut out = std::io::stdout().lock();
        let sent = out
            .write_all(line.as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        match sent {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.submission_left = true,
            Err(e) => judge_error(&format!("cannot write to the submission: {e}")),
        }
    }

    /// Reads the next whitespace-separated token, at most [`MAX_TOKEN`] bytes.
    fn read_token(&mut self) -> Result<Vec<u8>, Unread> {
        let mut token = Vec::new();
        loop {
            let buf = match self.from_submission.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                return if token.is_empty() {
                    Err(Unread::End)
                } else {
                    Ok(token)
                };
            }
            let mut used = 0;
            let mut complete = false;
            for &byte in buf {
                if is_space(byte) {
                    if !token.is_empty() {
                        complete = true;
                        break;
                    }
                } else if token.len() == MAX_TOKEN {
                    return Err(Unread::TooLong(token));
                } else {
                    token.push(byte);
                }
                used += 1;
            }
            self.from_submission.consume(used);
            if complete {
                return Ok(token);
            }
        }
    }

    /// The next token from the submission. End of input, an over-long token
    /// or one that is not UTF-8 rejects, naming the move and `what` was
    /// expected.
    pub fn recv(&mut self, what: &str) -> String {
        if self.new_move {
            self.move_number += 1;
            self.new_move = false;
        }
        let number = self.move_number;
        match self.read_token() {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(token) => token,
                Err(e) => self.reject(&format!(
                    "move {number}: expected {what}, found {} (not UTF-8)",
                    shown(&String::from_utf8_lossy(e.as_bytes()))
                )),
            },
            Err(Unread::End) if self.submission_left => self.reject(&format!(
                "move {number}: expected {what}, found end of input \
                 (the submission stopped reading)"
            )),
            Err(Unread::End) => self.reject(&format!(
                "move {number}: expected {what}, found end of input"
            )),
            Err(Unread::TooLong(start)) => self.reject(&format!(
                "move {number}: expected {what}, found a token over {MAX_TOKEN} bytes ({})",
                shown(&String::from_utf8_lossy(&start))
            )),
        }
    }

    /// The next token as an integer in `lo..=hi` (leading zeros allowed, no
    /// `+`); anything else rejects.
    pub fn recv_int_in(&mut self, lo: i64, hi: i64, what: &str) -> i64 {
        let token = self.recv(what);
        match lenient(&token) {
            Some(v) if (lo..=hi).contains(&v) => v,
            _ => self.reject(&format!(
                "move {}: expected {what} in {lo}..={hi}, found {}",
                self.move_number,
                shown(&token)
            )),
        }
    }

    /// Ends the game: `judgemessage.txt` holds `message`, exit `code`.
    fn end(&mut self, code: i32, verdict: &str, message: &str) -> ! {
        self.show(&format!("{verdict}: {message}"));
        write_feedback(
            &self.feedback_dir,
            "judgemessage.txt",
            &format!("{message}\n"),
        );
        // Lines already sent are flushed; a closed pipe no longer matters.
        let _ = std::io::stdout().flush();
        std::process::exit(code)
    }

    /// Rejects the submission (exit 43) with `message` in `judgemessage.txt`.
    pub fn reject(&mut self, message: &str) -> ! {
        self.end(exit::REJECT, "rejected", message)
    }

    /// Accepts the submission (exit 42) with `message` in `judgemessage.txt`,
    /// without looking at anything it may still send (see [`Session::finish`]).
    pub fn accept(&mut self, message: &str) -> ! {
        self.end(exit::ACCEPT, "accepted", message)
    }

    /// After the last line of the game: closes the submission's stdin (so one
    /// that reads until end of input can exit), checks that it sends nothing
    /// more before exiting, then accepts with `message`; any further token
    /// rejects. Waits for the submission to close its stdout, so one that
    /// hangs after the game is stopped by the judge's time limit.
    pub fn finish(&mut self, message: &str) -> ! {
        let _ = std::io::stdout().flush();
        // SAFETY: fd 1 was open at `start` and nothing closes it before this
        // point: std's `Stdout` never closes it and the session is its only
        // writer. Dropping an `OwnedFd` for it closes our end of the pipe to
        // the submission. Nothing writes to stdout afterwards: this function
        // only reads, writes judgemessage.txt by path, and exits.
        drop(unsafe { OwnedFd::from_raw_fd(1) });
        match self.read_token() {
            Err(Unread::End) => self.accept(message),
            Ok(token) | Err(Unread::TooLong(token)) => self.reject(&format!(
                "after the end of the game: unexpected {}",
                shown(&String::from_utf8_lossy(&token))
            )),
        }
    }

    /// True when a person plays (`judge play` sets `JUDGE_PLAY=1`): the
    /// interactor then draws the game with [`Session::show`].
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Writes `text` (and a newline) to stderr, only when [`Session::playing`].
    pub fn show(&mut self, text: &str) {
        if self.playing {
            eprintln!("{}", text.trim_end_matches('\n'));
        }
    }
}
