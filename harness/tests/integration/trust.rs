//! The attacks that beat the first sandbox (issue "Trust"), one test per
//! hole, each with a hostile program of its own in
//! `submissions/hostile/<VERDICT>-<what>/`: code run at compile time,
//! compilers reading the host, the grader's terminal, a judge left hanging or
//! outlived, CPU time spent where it is not counted, state passed between
//! runs, raw bytes on the terminal, and verdicts that change when the machine
//! is busy. Each program succeeds against a judge with the hole (it gets AC,
//! leaves a marker or a process, or prints raw bytes) and fails against one
//! without it.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::hostile::*;
use crate::support::{Background, fixtures, judge_binary, judge_fixtures, read_json};

/// A second checkout of the hostile problem's answers, elsewhere on the
/// machine (as another grader's copy would be); removed when dropped.
struct SecondCheckout(PathBuf);

impl SecondCheckout {
    fn new() -> SecondCheckout {
        let dir = PathBuf::from("/var/tmp/gj-hostile-checkout");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            fixtures().join("problems/hostile/data/secret/1.ans"),
            dir.join("1.ans"),
        )
        .unwrap();
        SecondCheckout(dir)
    }
}

impl Drop for SecondCheckout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn compiling_runs_no_code_with_more_rights_than_running() {
    let marker = format!("{MARKER}-compile-time");
    remove_markers(&marker);
    let Some((judged, mut problems)) = grade_and_check(&["WA-compile-time-import"]) else {
        return;
    };
    for file in remove_markers(&marker) {
        problems.push(format!(
            "code ran at compile time and wrote {}",
            file.display()
        ));
    }
    assert_no_problems(&problems, &judged);
}

#[test]
fn compilers_see_neither_the_answers_nor_host_secrets() {
    let _checkout = SecondCheckout::new();
    let Some((judged, mut problems)) = grade_and_check(&["WA-include-answer", "CE-include-secret"])
    else {
        return;
    };
    // Whatever a compile error shows, it quotes neither a secret nor an answer.
    let answer = std::fs::read_to_string(fixtures().join("problems/hostile/data/secret/1.ans"))
        .unwrap()
        .trim()
        .to_string();
    // A leaked file shows up as its lines, quoted.
    let shadow = std::fs::read_to_string("/etc/shadow").unwrap_or_default();
    let secrets: Vec<&str> = shadow
        .lines()
        .filter(|l| l.len() > 3)
        .chain(std::iter::once(answer.as_str()))
        .collect();
    for submission in judged.json["submissions"].as_array().unwrap() {
        let message = submission["message"].as_str().unwrap_or_default();
        for secret in &secrets {
            if message.contains(secret) {
                problems.push(format!(
                    "{}: the compile error shows {secret:?}",
                    submission["submission"]
                ));
            }
        }
    }
    assert_no_problems(&problems, &judged);
}

/// The judge runs with a pseudo-terminal as its controlling terminal, as in
/// a grader's shell. Nothing a run does may appear on it or be queued as
/// its input.
#[test]
fn runs_cannot_reach_the_graders_terminal() {
    let files = submissions(&["WA-terminal"]);
    if files.is_empty() {
        return;
    }
    let (master, slave) = open_pty();
    let report = tempfile::NamedTempFile::new().unwrap();
    let slave_fd = slave.as_raw_fd();
    let mut command = Command::new(judge_binary());
    command
        .args(["--color", "never", "--root"])
        .arg(fixtures())
        .args(["grade", "hostile"])
        .arg(&files[0].0)
        .arg("--json")
        .arg(report.path())
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave.try_clone().unwrap()));
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(move || {
            if libc::setsid() < 0 || libc::ioctl(slave_fd, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut judge = Background::start(&mut command);
    // The command holds copies of the terminal's descriptors: the screen
    // reader sees the end only once every copy is closed.
    drop(command);
    // The terminal's screen: everything written to it, until the judge exits.
    let mut screen = Vec::new();
    let mut master = std::fs::File::from(master);
    let reader = std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            screen.extend_from_slice(&buffer[..n]);
        }
        screen
    });
    let status = judge.wait_within(JUDGE_DEADLINE);
    // What a shell would read next from the terminal.
    // SAFETY: a valid descriptor; O_NONBLOCK so that an empty queue is EAGAIN.
    unsafe { libc::fcntl(slave_fd, libc::F_SETFL, libc::O_NONBLOCK) };
    let mut queued = [0u8; 256];
    // SAFETY: reading into a stack buffer of the given size.
    let injected = unsafe { libc::read(slave_fd, queued.as_mut_ptr().cast(), queued.len()) };
    drop(slave);
    let screen = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "{status:?}\n{screen}"
    );
    assert!(
        !screen.contains("gj-hostile-forged-verdict"),
        "a run wrote on the grader's terminal:\n{screen}"
    );
    assert!(
        injected <= 0,
        "a run queued input on the grader's terminal: {:?}",
        String::from_utf8_lossy(&queued[..injected as usize])
    );
    let json = read_json(report.path());
    assert_eq!(json["submissions"][0]["verdict"], "WA", "{screen}");
}

fn open_pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors; the name and settings are optional.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: openpty succeeded; both descriptors are ours.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

#[test]
fn a_run_that_leaves_its_process_group_is_still_killed() {
    let Some((judged, problems)) = grade_and_check(&["TLE-group-escape"]) else {
        return;
    };
    assert_no_problems(&problems, &judged);
}

/// Starts the judge on `folder`'s program and waits until the program runs.
fn judge_running(folder: &str) -> Option<(Background, PathBuf)> {
    let (file, _) = submissions(&[folder]).into_iter().next()?;
    let judge = Background::start(
        Command::new(judge_binary())
            .args(["--color", "never", "--root"])
            .arg(fixtures())
            .args(["grade", "hostile"])
            .arg(&file)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    );
    let started = Instant::now();
    while fixture_processes(&stem(&file)).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the program never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Some((judge, file))
}

#[test]
fn sigterm_stops_the_judge_even_when_a_run_escaped_its_group() {
    let Some((mut judge, file)) = judge_running("TLE-group-escape") else {
        return;
    };
    judge.signal(libc::SIGTERM);
    // Within 10 s, or it is killed and the test fails.
    let status = judge.wait_within(Duration::from_secs(10));
    assert_eq!(status.code(), Some(130));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(leftovers_of(&[file]), Vec::<String>::new());
}

#[test]
fn killing_the_judge_kills_its_runs() {
    for folder in ["TLE-sleep-forever", "TLE-group-escape"] {
        let Some((mut judge, file)) = judge_running(folder) else {
            continue;
        };
        judge.kill();
        // The kernel delivers the parent-death signal as the judge exits.
        let started = Instant::now();
        while !leftover_processes(&stem(&file)).is_empty()
            && started.elapsed() < Duration::from_secs(2)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            leftovers_of(&[file]),
            Vec::<String>::new(),
            "{folder}: a run outlived the judge killed with SIGKILL"
        );
    }
}

/// Needs a CPU cgroup: CPU time of every task the run had, and a quota.
#[test]
fn cpu_time_spent_in_children_is_charged_and_spares_the_neighbour() {
    let Some((judged, problems)) = grade_and_check(&["TLE-cpu-in-children", "AC-honest-compute"])
    else {
        return;
    };
    assert_no_problems(&problems, &judged);
}

#[test]
fn key_rings_and_sockets_are_not_shared_between_runs() {
    let expected: Vec<(PathBuf, String)> = submissions(&["WA-keyring", "WA-abstract-socket"])
        .into_iter()
        .flat_map(|pair| std::iter::repeat_n(pair, 2))
        .collect();
    if expected.is_empty() {
        return;
    }
    let files: Vec<PathBuf> = expected.iter().map(|(f, _)| f.clone()).collect();
    // Twice: state must not cross runs of one judge, nor judges.
    for _ in 0..2 {
        let judged = grade(&files);
        let mut problems = leftovers_of(&files);
        problems.extend(wrong_verdicts(&judged, &expected));
        assert_no_problems(&problems, &judged);
    }
}

#[test]
fn a_runs_peak_memory_is_its_own() {
    let files: Vec<PathBuf> = submissions(&["WA-memory-carryover"])
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    let (Some(heavy), Some(tiny)) = (
        files.iter().find(|f| stem(f).contains("heavy")),
        files.iter().find(|f| stem(f).contains("tiny")),
    ) else {
        return;
    };
    // One worker: the tiny program runs in the slot the heavy one just left.
    let judged = grade_with_jobs(&[heavy.clone(), tiny.clone(), tiny.clone()], 1);
    for submission in &judged.json["submissions"].as_array().unwrap()[1..] {
        let kib = submission["tests"][0]["memory_kib"].as_u64().unwrap();
        assert!(
            kib < 8 << 10,
            "a tiny program after a heavy one was measured at {kib} KiB\n{}",
            judged.output
        );
    }
}

/// Bytes a submission printed reach the terminal with their control
/// characters visible, never raw.
#[test]
fn control_bytes_from_submissions_are_shown_escaped() {
    let files: Vec<PathBuf> = submissions(&["WA-escapes", "CE-escapes-in-error"])
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    for file in &files {
        for verb in ["test", "grade"] {
            let output = judge_fixtures()
                .args([verb, "hostile"])
                .arg(file)
                .output()
                .unwrap();
            let mut shown = output.stdout.clone();
            shown.extend_from_slice(&output.stderr);
            let text = String::from_utf8_lossy(&shown);
            for raw in ["\x1b", "\u{9b}", "\u{202e}"] {
                assert!(
                    !text.contains(raw),
                    "judge {verb} {}: a raw {raw:?} reached the terminal:\n{text}",
                    file.display()
                );
            }
            assert!(
                text.contains("\\x1b[2K"),
                "judge {verb} {}: the escape is shown as text:\n{text}",
                file.display()
            );
        }
    }
}

/// Busy loops on every core, twice over, while the judge grades programs
/// whose verdicts are known on a quiet machine: the same verdicts.
#[test]
fn a_busy_machine_does_not_change_verdicts() {
    let expected = submissions(&[
        "AC-honest-compute",
        "AC-read-past-eof",
        "TLE-busy-loop",
        "TLE-sleep-forever",
        "WA-close-stdout",
    ]);
    if expected.is_empty() {
        return;
    }
    let files: Vec<PathBuf> = expected.iter().map(|(f, _)| f.clone()).collect();
    // Build first, so that the compilers' time is not part of the question.
    grade(&files);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let stop = Arc::new(AtomicBool::new(false));
    let loops: Vec<_> = (0..2 * cores)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let judged = grade(&files);
    stop.store(true, Ordering::Relaxed);
    for handle in loops {
        handle.join().unwrap();
    }
    let mut problems = leftovers_of(&files);
    problems.extend(wrong_verdicts(&judged, &expected));
    assert_no_problems(&problems, &judged);
}

#[test]
fn file_names_with_control_bytes_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad\u{1b}[2Jname.rs");
    std::fs::copy(fixtures().join("submissions/sum/AC/sum.rs"), &file).unwrap();
    for verb in ["test", "grade"] {
        let output = judge_fixtures()
            .args([verb, "sum"])
            .arg(&file)
            .output()
            .unwrap();
        let shown = [output.stdout, output.stderr].concat();
        assert!(
            !shown.contains(&0x1b),
            "{verb}: {}",
            String::from_utf8_lossy(&shown)
        );
        assert!(String::from_utf8_lossy(&shown).contains("bad\\x1b[2Jname.rs"));
    }
}
