//! The raw process calls std does not offer: the child's resource limits
//! (applied by `spawn`'s child between clone and exec, so async-signal-safe:
//! no allocation, no locks), `clone` on a stack of its own, pipes no child
//! inherits, wait4 with rusage, a pidfd, and a live child's CPU time.

use std::io;
use std::time::Duration;

use std::os::fd::OwnedFd;

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{
    Pid, PidfdFlags, Resource, Rlimit, Signal, pidfd_open, pidfd_send_signal, setrlimit,
};

/// Resource limits applied to the child before exec. Plain numbers, so the
/// closure that applies them captures no heap data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChildLimits {
    /// RLIMIT_CPU soft limit in whole seconds: a backstop above the real
    /// limit, which the run loop enforces with finer resolution.
    pub(crate) cpu_seconds: u64,
    /// RLIMIT_AS in bytes; `None` when a memory cgroup does the job (an
    /// address-space limit turns over-allocation into a crash that looks like
    /// a runtime error).
    pub(crate) address_space: Option<u64>,
    /// RLIMIT_FSIZE: the largest file the program may write.
    pub(crate) file_size: u64,
    /// RLIMIT_STACK, when not the default.
    pub(crate) stack: Option<u64>,
    /// RLIMIT_NOFILE.
    pub(crate) open_files: u64,
    /// RLIMIT_NPROC; only meaningful when running as a dedicated uid.
    pub(crate) processes: Option<u64>,
}

impl ChildLimits {
    /// Runs in the forked child: no allocation, only syscalls.
    pub(crate) fn apply(&self) -> io::Result<()> {
        let set = |resource, value: u64| {
            setrlimit(
                resource,
                Rlimit {
                    current: Some(value),
                    maximum: Some(value),
                },
            )
        };
        setrlimit(
            Resource::Cpu,
            Rlimit {
                current: Some(self.cpu_seconds),
                // SIGXCPU at the soft limit, SIGKILL one second later.
                maximum: Some(self.cpu_seconds + 1),
            },
        )?;
        if let Some(bytes) = self.address_space {
            set(Resource::As, bytes)?;
        }
        set(Resource::Fsize, self.file_size)?;
        if let Some(bytes) = self.stack {
            set(Resource::Stack, bytes)?;
        }
        set(Resource::Core, 0)?;
        set(Resource::Nofile, self.open_files)?;
        if let Some(count) = self.processes {
            set(Resource::Nproc, count)?;
        }
        Ok(())
    }
}

/// Exit status and resource use of a reaped child.
pub(crate) struct Reaped {
    pub(crate) status: libc::c_int,
    pub(crate) cpu: Duration,
    pub(crate) max_rss_kib: u64,
}

/// Reaps `pid` (which must have exited or be about to), returning its own
/// rusage: not `RUSAGE_CHILDREN`, which mixes runs made in parallel.
pub(crate) fn wait4(pid: i32) -> io::Result<Reaped> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain old data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `usage` are valid, writable and live for the
        // call; `pid` is our own unreaped child.
        let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if rc == pid {
            break;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    let timeval = |tv: libc::timeval| {
        Duration::from_secs(tv.tv_sec as u64) + Duration::from_micros(tv.tv_usec as u64)
    };
    Ok(Reaped {
        status,
        cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        max_rss_kib: usage.ru_maxrss as u64,
    })
}

/// CPU time used so far by a live process (all its threads), from
/// `/proc/<pid>/stat`; `None` if it is gone.
pub(crate) fn cpu_time_so_far(pid: i32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    // rest starts at field 3 (state); utime and stime are fields 14 and 15.
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = rustix::param::clock_ticks_per_second();
    Some(Duration::from_millis((utime + stime) * 1000 / ticks.max(1)))
}

/// Kills the whole process group led by `pid`; a group already gone is fine.
pub(crate) fn kill_group(pid: i32) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

/// The thread ids of a live process.
pub(crate) fn threads_of(pid: i32) -> Vec<i32> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect()
}

/// How long a task has been runnable without running (waiting on a run
/// queue for a CPU), from `/proc/<tid>/schedstat`.
pub(crate) fn run_queue_delay(tid: i32) -> Option<Duration> {
    schedstat(tid).map(|stat| stat.waited)
}

/// A task's scheduler accounting: time on a CPU and time runnable on a run
/// queue, the first two fields of `/proc/<tid>/schedstat`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Schedstat {
    pub(crate) on_cpu: Duration,
    pub(crate) waited: Duration,
}

pub(crate) fn schedstat(tid: i32) -> Option<Schedstat> {
    // One read of a short line: no size query, no second read.
    let mut line = [0u8; 128];
    let n = std::fs::File::open(format!("/proc/{tid}/schedstat"))
        .and_then(|mut file| std::io::Read::read(&mut file, &mut line))
        .ok()?;
    let text = std::str::from_utf8(&line[..n]).ok()?;
    let mut fields = text
        .split_ascii_whitespace()
        .map(|field| field.parse().ok().map(Duration::from_nanos));
    Some(Schedstat {
        on_cpu: fields.next()??,
        waited: fields.next()??,
    })
}

/// A started run's first process, held by a pidfd: signals reach this
/// process and no other, even once its pid is reused.
pub(crate) struct RunProcess {
    pid: i32,
    pidfd: OwnedFd,
}

impl RunProcess {
    pub(crate) fn open(pid: i32) -> io::Result<RunProcess> {
        let raw = Pid::from_raw(pid).ok_or_else(|| io::Error::other("pid 0"))?;
        let pidfd = pidfd_open(raw, PidfdFlags::empty())?;
        Ok(RunProcess { pid, pidfd })
    }

    /// Readable once the process has exited.
    pub(crate) fn pidfd(&self) -> &OwnedFd {
        &self.pidfd
    }

    /// SIGKILL to the run's first process. In a PID namespace it is the
    /// namespace's init, and the kernel kills every other process of the
    /// run with it, whatever process group or session they moved to.
    pub(crate) fn kill(&self) {
        let _ = pidfd_send_signal(&self.pidfd, Signal::KILL);
    }

    /// Reaps the process once it has exited, waiting at most `deadline`. A
    /// process that will not die in time (stuck in the kernel) is left to a
    /// background thread to reap, and the run is an error: the judge never
    /// blocks on a run for good.
    pub(crate) fn reap(&self, deadline: Duration) -> io::Result<Reaped> {
        let end = std::time::Instant::now() + deadline;
        loop {
            let left = end.saturating_duration_since(std::time::Instant::now());
            let timeout = Timespec {
                tv_sec: left.as_secs() as _,
                tv_nsec: left.subsec_nanos() as _,
            };
            let mut fds = [PollFd::new(&self.pidfd, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) => {
                    let pid = self.pid;
                    std::thread::spawn(move || wait4(pid));
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("the run did not end within {deadline:?} of being killed"),
                    ));
                }
                Ok(_) => return wait4(self.pid),
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// A pipe whose ends no child inherits (children get theirs through dup2).
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?)
}

/// keyctl(2) operation: join (here: create) a new anonymous session key ring.
pub(crate) const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;

/// The child's stack: it only runs the setup below before exec.
const CHILD_STACK: usize = 64 << 10;

/// Clones a child that runs `entry(arg)` on a stack of its own, with every
/// signal blocked when it starts (none of our handlers may run on its
/// stack; it sets its own mask), and this thread's mask restored after.
///
/// # Safety
/// `entry` may make only async-signal-safe calls (the child of a
/// multi-threaded process), and `arg` must stay valid while the child
/// uses it: with `CLONE_VM | CLONE_VFORK`, until it execs or exits, which
/// is when this returns; without `CLONE_VM` the child has its own copy.
pub(crate) unsafe fn clone_child(
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    flags: libc::c_int,
    arg: *mut libc::c_void,
) -> io::Result<i32> {
    let mut stack: Vec<u8> = Vec::with_capacity(CHILD_STACK);
    // SAFETY: one past the end of the allocation: stacks grow down, and
    // x86-64 and aarch64 want 16-byte alignment, which the allocator gives.
    let stack_top = unsafe { stack.as_mut_ptr().add(CHILD_STACK) };
    // SAFETY: sigset_t is plain data; all-zero is a valid value.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: changing this thread's mask, restored below.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
    }
    // SAFETY: the stack is ours and unused; the rest is the caller's promise.
    let pid = unsafe { libc::clone(entry, stack_top.cast(), flags, arg) };
    let clone_error = io::Error::last_os_error();
    // SAFETY: restoring the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    drop(stack);
    if pid < 0 { Err(clone_error) } else { Ok(pid) }
}
