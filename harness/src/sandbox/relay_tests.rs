//! The relay's own tests: the transcript, and bytes and ends crossing.
use rustix::event::{Timespec, poll};

use super::*;

/// A relay between two sides on their standard streams, and each
/// side's (stdin, stdout).
fn streams() -> (Relay, (OwnedFd, OwnedFd), (OwnedFd, OwnedFd)) {
    let standard = Conversation::StandardStreams;
    let (relay, submission, interactor) = Relay::new(standard, standard).unwrap();
    let ends = |side: SideFds| match side.ends {
        SideEnds::Streams { stdin, stdout } => (stdin, stdout),
        SideEnds::Paths(_) => unreachable!("both sides talk on their streams"),
    };
    (relay, ends(submission), ends(interactor))
}

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
    let (mut relay, submission, interactor) = streams();
    let mut interactor_out = File::from(interactor.1);
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
    let (mut relay, submission, interactor) = streams();
    let mut interactor_out = File::from(interactor.1);
    let mut submission_in = File::from(submission.0);
    let mut submission_out = File::from(submission.1);
    let mut interactor_in = File::from(interactor.0);
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
