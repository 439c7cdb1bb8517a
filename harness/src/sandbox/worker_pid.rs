//! A worker's PID namespace: made once, with a first process of the
//! judge's own, and entered by each of the worker's runs in turn.
//!
//! A PID namespace and its own `/proc` per run cost about 80 µs (measured
//! in docs/benchmarks.md), while a worker's runs never overlap. So the
//! namespace is the worker's, and its PID 1 is a small process forked from
//! the judge (no program is executed) that does three things when the judge
//! asks, after each run: it kills every other process in the namespace
//! (`kill(-1)` from PID 1 reaches exactly those), reaps them until it has
//! no child left, and sets the namespace's PID counter back, so the next
//! run's first process is PID 2 again and numbers nothing after what an
//! earlier run made. Only then does the next run start: no process, zombie
//! or PID number of one run is seen by the next.
//!
//! It lives in the worker's mount namespace (it is started by the thread
//! that holds it), where it mounted the `/proc` of this PID namespace once,
//! for the runs that enter that namespace. It dies with the thread that
//! started it (parent-death signal), so with the worker and with the judge,
//! and with it every process left in the namespace.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::fs::{Mode, OFlags};

use super::unix::{clone_child, pipe};

/// How long the first process may take to start, or to clear the namespace
/// after a run (a process stuck in the kernel): the namespace is then given
/// up, and the worker's runs get one each.
const ANSWER_DEADLINE: Duration = Duration::from_secs(10);

/// The worker's PID namespace and its first process.
pub(crate) struct WorkerPids {
    /// The first process's pidfd: `setns` on it before a run is started
    /// enters its PID namespace.
    namespace: OwnedFd,
    /// The first process, our child.
    pid: i32,
    /// One byte per request; closing it ends the first process.
    requests: Option<std::fs::File>,
    answers: std::fs::File,
}

/// What the first process reports, one byte: 0 for done.
mod answer {
    pub(super) const DONE: u8 = 0;
    pub(super) const MOUNT_PROC: u8 = 1;
    pub(super) const OPEN_LAST_PID: u8 = 2;
    pub(super) const RESET_LAST_PID: u8 = 3;
}

impl WorkerPids {
    /// Starts the first process of a new PID namespace. Call it on the
    /// thread that holds the worker's mount namespace, with its root the
    /// worker's root (the process mounts `/proc` there), and that lives as
    /// long as the namespace is used.
    pub(crate) fn start(pid1: Pid1) -> io::Result<WorkerPids> {
        let (requests_read, requests) = pipe()?;
        let (answers, answers_write) = pipe()?;
        let setup = InitSetup {
            requests: requests_read.as_raw_fd(),
            answers: answers_write.as_raw_fd(),
            arguments: pid1.command_line,
            cgroups: pid1.cgroups,
        };
        // SAFETY: without CLONE_VM the child has a copy of our memory, the
        // setup included; `init_entry` makes only async-signal-safe calls,
        // and keeps every signal blocked for good (SIGKILL cannot be).
        let pid = unsafe {
            clone_child(
                init_entry,
                libc::CLONE_NEWPID | libc::SIGCHLD,
                (&setup as *const InitSetup).cast_mut().cast(),
            )
        };
        drop((requests_read, answers_write));
        let pid = pid?;
        // A pidfd enters the namespaces of its process (this thread's
        // `/proc` is the worker root's, not the host's).
        let process = rustix::process::Pid::from_raw(pid).expect("a child's pid");
        let mut pids = WorkerPids {
            namespace: match rustix::process::pidfd_open(
                process,
                rustix::process::PidfdFlags::empty(),
            ) {
                Ok(namespace) => namespace,
                Err(e) => {
                    // SAFETY: our child, killed and reaped here.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                        libc::waitpid(pid, std::ptr::null_mut(), 0);
                    }
                    return Err(e.into());
                }
            },
            pid,
            requests: Some(requests.into()),
            answers: answers.into(),
        };
        // Dropped on failure: its first process goes.
        pids.answer("start")?;
        Ok(pids)
    }

    /// The namespace to enter before starting a run.
    pub(crate) fn namespace(&self) -> RawFd {
        self.namespace.as_raw_fd()
    }

    /// After a run (its first process reaped): every process left in the
    /// namespace killed and reaped, and the PID counter set back.
    pub(crate) fn clear(&mut self) -> io::Result<()> {
        self.requests
            .as_mut()
            .ok_or_else(|| io::Error::other("the worker's PID 1 is gone"))?
            .write_all(b"c")?;
        self.answer("clear the namespace after a run")
    }

    fn answer(&mut self, what: &str) -> io::Result<()> {
        let timeout = Timespec {
            tv_sec: ANSWER_DEADLINE.as_secs() as _,
            tv_nsec: 0,
        };
        let mut fds = [PollFd::new(&self.answers, PollFlags::IN)];
        loop {
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("the worker's PID 1 did not {what} within {ANSWER_DEADLINE:?}"),
                    ));
                }
                Ok(_) => break,
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let mut byte = [0u8];
        let read = self.answers.read(&mut byte)?;
        let failed = match (read, byte[0]) {
            (1, answer::DONE) => return Ok(()),
            (0, _) => "it ended",
            (_, answer::MOUNT_PROC) => "it could not mount /proc",
            (_, answer::OPEN_LAST_PID) => "it could not open ns_last_pid",
            (_, answer::RESET_LAST_PID) => "it could not set back the PID counter",
            _ => "it answered nonsense",
        };
        Err(io::Error::other(format!(
            "the worker's PID 1 did not {what}: {failed}"
        )))
    }
}

impl Drop for WorkerPids {
    fn drop(&mut self) {
        // Closing the requests ends the first process, and the kernel
        // kills whatever is left in its namespace. It is reaped here, so
        // that its CPU time is the judge's by the time the worker is gone,
        // or aside if it takes long (something stuck in the kernel).
        self.requests = None;
        let pid = self.pid;
        let timeout = Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        };
        let mut fds = [PollFd::new(&self.namespace, PollFlags::IN)];
        let ended = matches!(poll(&mut fds, Some(&timeout)), Ok(1));
        let reap = move || {
            // SAFETY: waiting for our own child.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::__WALL) };
        };
        if ended {
            reap();
        } else {
            let _ = std::thread::Builder::new()
                .name("reap-pid1".into())
                .spawn(reap);
        }
    }
}

/// What the first process is given, found on a thread that sees the
/// host's `/proc`.
pub(crate) struct Pid1 {
    /// Where this process's command line lies in its memory: the first
    /// process is a copy of the judge, and would show the judge's command
    /// line (which names every graded file) in `/proc/1/cmdline` to the
    /// runs. It blanks its copy.
    command_line: (usize, usize),
    /// Files it writes "0" to first: the judge's own cgroups, as it is no
    /// run's.
    cgroups: Vec<RawFd>,
}

impl Pid1 {
    pub(crate) fn new(cgroups: Vec<RawFd>) -> io::Result<Pid1> {
        Ok(Pid1 {
            command_line: command_line()?,
            cgroups,
        })
    }
}

/// The address and length of this process's command line.
fn command_line() -> io::Result<(usize, usize)> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // The fields after the command name (in parentheses, which may hold
    // spaces) start at field 3; arg_start and arg_end are fields 48 and 49.
    let after_name = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .ok_or_else(|| io::Error::other("an unreadable /proc/self/stat"))?;
    let fields: Vec<&str> = after_name.split_ascii_whitespace().collect();
    let field = |n: usize| -> io::Result<usize> {
        fields
            .get(n - 3)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| io::Error::other(format!("no field {n} in /proc/self/stat")))
    };
    let (start, end) = (field(48)?, field(49)?);
    if end < start {
        return Err(io::Error::other(
            "a command line that ends before it starts",
        ));
    }
    Ok((start, end - start))
}

/// Everything the first process needs, prepared before the clone.
struct InitSetup {
    requests: RawFd,
    answers: RawFd,
    /// The address and length of its copy of the judge's command line.
    arguments: (usize, usize),
    cgroups: Vec<RawFd>,
}

extern "C" fn init_entry(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` points at the child's copy of the `InitSetup`.
    unsafe { init(&*arg.cast::<InitSetup>()) }
}

/// The first process: async-signal-safe calls only, on prepared data.
unsafe fn init(setup: &InitSetup) -> ! {
    // SAFETY: plain system calls on descriptors and memory of this process.
    unsafe {
        // Dies with the thread that started it.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        for &fd in &setup.cgroups {
            libc::write(fd, b"0".as_ptr().cast(), 1);
        }
        // Requests on 0, answers on 1, nothing else of the judge's open.
        libc::dup2(setup.requests, 0);
        libc::dup2(setup.answers, 1);
        libc::syscall(libc::SYS_close_range, 2u32, u32::MAX, 0u32);
        let (address, length) = setup.arguments;
        std::ptr::write_bytes(address as *mut u8, 0, length);
        libc::prctl(libc::PR_SET_NAME, c"pid1".as_ptr());
        let say = |byte: u8| libc::write(1, [byte].as_ptr().cast(), 1);
        let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
        let proc = c"/proc".as_ptr();
        if libc::mount(proc, proc, c"proc".as_ptr(), flags, std::ptr::null()) != 0 {
            say(answer::MOUNT_PROC);
            libc::_exit(1);
        }
        let last_pid = libc::open(
            c"/proc/sys/kernel/ns_last_pid".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if last_pid < 0 {
            say(answer::OPEN_LAST_PID);
            libc::_exit(1);
        }
        say(answer::DONE);
        loop {
            let mut request = 0u8;
            match libc::read(0, (&mut request as *mut u8).cast(), 1) {
                1 => {}
                -1 if *libc::__errno_location() == libc::EINTR => continue,
                // The judge is done with the namespace.
                _ => libc::_exit(0),
            }
            // Every process here but this one; their children come to it
            // as their parents die, so when it has none left, none is left.
            libc::kill(-1, libc::SIGKILL);
            loop {
                if libc::waitpid(-1, std::ptr::null_mut(), libc::__WALL) > 0 {
                    continue;
                }
                if *libc::__errno_location() != libc::EINTR {
                    break;
                }
            }
            // The next process made here is PID 2.
            let reset = libc::pwrite(last_pid, b"1".as_ptr().cast(), 1, 0) == 1;
            say(if reset {
                answer::DONE
            } else {
                answer::RESET_LAST_PID
            });
        }
    }
}

/// Enters `namespace` for the children this thread starts next, and
/// returns to its own (`own`, see `own_pid_namespace`) for those after,
/// when dropped.
pub(crate) struct ChildrenIn {
    own: RawFd,
}

/// The calling thread's own PID namespace, to come back to after starting
/// a child in another.
pub(crate) fn own_pid_namespace() -> io::Result<OwnedFd> {
    Ok(rustix::fs::open(
        "/proc/thread-self/ns/pid",
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

impl ChildrenIn {
    pub(crate) fn enter(namespace: RawFd, own: RawFd) -> io::Result<ChildrenIn> {
        // SAFETY: setns on descriptors of PID namespaces: it changes only
        // the namespace of this thread's next children.
        if unsafe { libc::setns(namespace, libc::CLONE_NEWPID) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(ChildrenIn { own })
    }
}

impl Drop for ChildrenIn {
    fn drop(&mut self) {
        // SAFETY: as in `enter`; back to this thread's own namespace.
        unsafe { libc::setns(self.own, libc::CLONE_NEWPID) };
    }
}
