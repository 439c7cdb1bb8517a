//! Whether a trusted program (an interactor) is waiting for its input: some
//! thread of a process in its session is blocked reading the pipe the
//! judge writes its input to. Read from `/proc` (`<pid>/task/<tid>/syscall`
//! names the system call a blocked thread is in, with its arguments, and
//! `<pid>/fd/<n>` the file it reads), which the judge may read for
//! programs it started under its own user; where it may not, nobody can
//! tell, and the caller decides what that means.

use std::fs;
use std::path::Path;

/// Calls that wait for a descriptor's input and name it first (`read(fd,
/// ...)`).
const READS: &[libc::c_long] = &[
    libc::SYS_read,
    libc::SYS_readv,
    libc::SYS_pread64,
    libc::SYS_preadv,
];

/// Calls that wait on several descriptors at once: a program waiting in
/// one is counted as waiting for its input, its descriptors unread.
#[cfg(target_arch = "x86_64")]
const WAITS: &[libc::c_long] = &[
    libc::SYS_poll,
    libc::SYS_ppoll,
    libc::SYS_select,
    libc::SYS_pselect6,
    libc::SYS_epoll_wait,
    libc::SYS_epoll_pwait,
];
#[cfg(not(target_arch = "x86_64"))]
const WAITS: &[libc::c_long] = &[libc::SYS_ppoll, libc::SYS_pselect6, libc::SYS_epoll_pwait];

/// Whether a thread of a process in the session `session` (the program's
/// first process: it starts a session of its own) is blocked reading the
/// pipe `pipe_inode`, or waiting on several descriptors. `None` when no
/// thread of the session could be inspected.
pub(super) fn session_reads_pipe(session: i32, pipe_inodes: &[u64]) -> Option<bool> {
    let mut inspected = false;
    for pid in session_members(session) {
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let Some(call) = blocked_call(&task.path().join("syscall")) else {
                continue;
            };
            inspected = true;
            if call.waits_on(pid, pipe_inodes) {
                return Some(true);
            }
        }
    }
    inspected.then_some(false)
}

/// The processes whose session is `session` (field 6 of `/proc/<pid>/stat`).
fn session_members(session: i32) -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| session_of(&stat))
                == Some(session)
        })
        .collect()
}

/// The session of a `stat` line: the fields after the command name (which
/// may hold spaces and parentheses, so the last `)` ends it) are state,
/// parent, process group, session.
fn session_of(stat: &str) -> Option<i32> {
    let (_, after) = stat.rsplit_once(')')?;
    after.split_ascii_whitespace().nth(3)?.parse().ok()
}

/// The system call a thread is blocked in: its number and first argument.
struct BlockedCall {
    number: libc::c_long,
    first: u64,
}

impl BlockedCall {
    /// Whether it waits for one of the pipes or FIFOs `pipe_inodes` (its
    /// first argument a descriptor of process `pid` open on it), or on
    /// several descriptors.
    fn waits_on(&self, pid: i32, pipe_inodes: &[u64]) -> bool {
        use std::os::unix::fs::MetadataExt;
        if WAITS.contains(&self.number) {
            return true;
        }
        READS.contains(&self.number)
            && fs::metadata(format!("/proc/{pid}/fd/{}", self.first))
                .is_ok_and(|file| pipe_inodes.contains(&file.ino()))
    }
}

/// A thread's `syscall` file: `NUMBER ARG1 ... SP PC` while blocked,
/// `running` or `-1 ...` otherwise. `None` when unreadable or not blocked.
fn blocked_call(path: &Path) -> Option<BlockedCall> {
    parse_syscall(&fs::read_to_string(path).ok()?)
}

fn parse_syscall(text: &str) -> Option<BlockedCall> {
    let mut fields = text.split_ascii_whitespace();
    let number: libc::c_long = fields.next()?.parse().ok()?;
    if number < 0 {
        return None;
    }
    let first = fields.next()?.trim_start_matches("0x");
    Some(BlockedCall {
        number,
        first: u64::from_str_radix(first, 16).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn a_syscall_line_gives_the_call_and_its_first_argument() {
        let read = parse_syscall("0 0x3 0x7f2d58ac3000 0x20000 0x0 0x0 0x0 0x7fff 0x7f2d\n");
        let read = read.expect("a blocked read");
        assert_eq!((read.number, read.first), (0, 3));
        assert!(parse_syscall("running\n").is_none());
        assert!(parse_syscall("-1 0x7ffd 0x7f05\n").is_none());
        assert_eq!(session_of("42 (a (b) c) S 1 42 40 0"), Some(40));
    }

    /// A program started in a session of its own, as the sandbox starts
    /// one, with `stdin` as its input.
    fn started(script: &str, stdin: Stdio) -> std::process::Child {
        let mut command = Command::new("/bin/sh");
        command.args(["-c", script]).stdin(stdin);
        // SAFETY: `setsid` is async-signal-safe and touches no memory of
        // the parent's; nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(|| match libc::setsid() {
                -1 => Err(std::io::Error::last_os_error()),
                _ => Ok(()),
            });
        }
        command.spawn().unwrap()
    }

    /// What `session_reads_pipe` says of `child` once it settles (within a
    /// few seconds: a program needs a moment to reach its call).
    fn settles(child: &std::process::Child, inode: u64, want: bool) -> Option<bool> {
        let session = i32::try_from(child.id()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let said = session_reads_pipe(session, &[inode]);
            if said == Some(want) || Instant::now() > deadline {
                return said;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_program_reading_its_input_waits_and_a_sleeping_one_does_not() {
        let (reader, mut writer) = std::io::pipe().unwrap();
        let inode = rustix::fs::fstat(writer.as_fd()).unwrap().st_ino;
        let mut reading = started("read line; exit 0", Stdio::from(reader));
        assert_eq!(settles(&reading, inode, true), Some(true));
        writer.write_all(b"done\n").unwrap();
        reading.wait().unwrap();

        let (reader, writer) = std::io::pipe().unwrap();
        let inode = rustix::fs::fstat(writer.as_fd()).unwrap().st_ino;
        let mut sleeping = started("exec sleep 30", Stdio::from(reader));
        assert_eq!(settles(&sleeping, inode, false), Some(false));
        sleeping.kill().unwrap();
        sleeping.wait().unwrap();
    }
}
