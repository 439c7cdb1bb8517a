//! Memory and pids cgroups (v1, or v2 where the memory controller is
//! delegated), one per concurrent run, reused: creating one per run costs
//! more than the run (../shared measurements: +300 µs vs +130 µs reused).
//! They give a clean OOM signal and a true peak, unlike ru_maxrss, which
//! starts at the judge's own resident size.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where this machine lets us create cgroups.
#[derive(Debug, Clone)]
pub(crate) enum Hierarchy {
    /// v1: our own cgroup in the memory controller, and in pids if writable.
    V1 {
        memory: PathBuf,
        pids: Option<PathBuf>,
    },
    /// v2: our own cgroup with memory (and pids) delegated.
    V2 { base: PathBuf },
}

/// One reusable cgroup (or pair, on v1).
#[derive(Debug)]
pub(crate) struct Slot {
    memory: PathBuf,
    pids: Option<PathBuf>,
    v2: bool,
    /// Files a child writes "0" to, to join; opened once.
    join: Vec<File>,
}

#[derive(Debug)]
pub(crate) struct CgroupPool {
    hierarchy: Hierarchy,
    prefix: String,
    free: Mutex<Vec<Slot>>,
    created: Mutex<Vec<PathBuf>>,
}

fn own_path(controller: &str) -> Option<PathBuf> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        (controllers.split(',').any(|c| c == controller)
            || (controller.is_empty() && controllers.is_empty()))
        .then(|| PathBuf::from(path.trim_start_matches('/')))
    })
}

impl Hierarchy {
    /// The writable hierarchy, if any: tried by creating and removing a probe.
    pub(crate) fn detect() -> Option<Hierarchy> {
        let writable = |dir: &Path| {
            let probe = dir.join(format!("game-judge-probe-{}", std::process::id()));
            let ok = fs::create_dir(&probe).is_ok();
            let _ = fs::remove_dir(&probe);
            ok
        };
        let v1_memory = Path::new("/sys/fs/cgroup/memory");
        if v1_memory.join("memory.limit_in_bytes").exists()
            || v1_memory.join("cgroup.procs").exists()
        {
            let memory = v1_memory.join(own_path("memory")?);
            if writable(&memory) {
                let pids = own_path("pids")
                    .map(|p| Path::new("/sys/fs/cgroup/pids").join(p))
                    .filter(|p| writable(p));
                return Some(Hierarchy::V1 { memory, pids });
            }
        }
        let v2 = Path::new("/sys/fs/cgroup");
        if fs::read_to_string(v2.join("cgroup.controllers"))
            .is_ok_and(|c| c.split_whitespace().any(|x| x == "memory"))
        {
            let base = v2.join(own_path("")?);
            let delegated = fs::read_to_string(base.join("cgroup.subtree_control"))
                .is_ok_and(|c| c.contains("memory"));
            if delegated && writable(&base) {
                return Some(Hierarchy::V2 { base });
            }
        }
        None
    }

    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Hierarchy::V1 { pids: Some(_), .. } => "cgroup v1 memory+pids",
            Hierarchy::V1 { pids: None, .. } => "cgroup v1 memory",
            Hierarchy::V2 { .. } => "cgroup v2 memory+pids",
        }
    }
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    fs::write(path, value).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

impl CgroupPool {
    pub(crate) fn new(hierarchy: Hierarchy) -> CgroupPool {
        CgroupPool {
            hierarchy,
            prefix: format!("game-judge-{}", std::process::id()),
            free: Mutex::new(Vec::new()),
            created: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn describe(&self) -> &'static str {
        self.hierarchy.describe()
    }

    /// A slot for one run, limited to `memory` bytes and `processes` tasks.
    pub(crate) fn take(&self, memory: u64, processes: u64) -> io::Result<Slot> {
        let reused = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let slot = match reused {
            Some(slot) => slot,
            None => self.create()?,
        };
        slot.prepare(memory, processes)?;
        Ok(slot)
    }

    pub(crate) fn give_back(&self, slot: Slot) {
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(slot);
    }

    fn create(&self) -> io::Result<Slot> {
        let mut created = self.created.lock().unwrap_or_else(|e| e.into_inner());
        let name = format!("{}-{}", self.prefix, created.len());
        let open_join = |path: PathBuf| {
            OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
        };
        let slot = match &self.hierarchy {
            Hierarchy::V1 { memory, pids } => {
                let memory = memory.join(&name);
                fs::create_dir_all(&memory)?;
                created.push(memory.clone());
                let mut join = vec![open_join(memory.join("cgroup.procs"))?];
                let pids = match pids {
                    Some(base) => {
                        let dir = base.join(&name);
                        fs::create_dir_all(&dir)?;
                        created.push(dir.clone());
                        join.push(open_join(dir.join("cgroup.procs"))?);
                        Some(dir)
                    }
                    None => None,
                };
                // Without swap accounting a cgroup could swap instead of failing.
                let _ = write(&memory.join("memory.swappiness"), "0");
                Slot {
                    memory,
                    pids,
                    v2: false,
                    join,
                }
            }
            Hierarchy::V2 { base } => {
                let dir = base.join(&name);
                fs::create_dir_all(&dir)?;
                created.push(dir.clone());
                let _ = write(&dir.join("memory.swap.max"), "0");
                Slot {
                    join: vec![open_join(dir.join("cgroup.procs"))?],
                    memory: dir.clone(),
                    pids: Some(dir),
                    v2: true,
                }
            }
        };
        Ok(slot)
    }
}

impl Drop for CgroupPool {
    fn drop(&mut self) {
        let created = self.created.get_mut().unwrap_or_else(|e| e.into_inner());
        for dir in created.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}

impl Slot {
    fn prepare(&self, memory: u64, processes: u64) -> io::Result<()> {
        if self.v2 {
            write(&self.memory.join("memory.max"), &memory.to_string())?;
            // memory.peak is reset by writing to it (Linux 6.12+); older kernels keep the max.
            let _ = write(&self.memory.join("memory.peak"), "0");
            write(&self.memory.join("pids.max"), &processes.to_string())?;
        } else {
            write(
                &self.memory.join("memory.limit_in_bytes"),
                &memory.to_string(),
            )?;
            write(&self.memory.join("memory.max_usage_in_bytes"), "0")?;
            write(&self.memory.join("memory.failcnt"), "0")?;
            if let Some(pids) = &self.pids {
                write(&pids.join("pids.max"), &processes.to_string())?;
            }
        }
        Ok(())
    }

    pub(crate) fn join_fds(&self) -> Vec<RawFd> {
        self.join.iter().map(AsRawFd::as_raw_fd).collect()
    }

    /// Peak memory of everything that ran in the slot, in KiB.
    pub(crate) fn peak_kib(&self) -> Option<u64> {
        let file = if self.v2 {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        fs::read_to_string(self.memory.join(file))
            .ok()?
            .trim()
            .parse::<u64>()
            .ok()
            .map(|b| b / 1024)
    }

    /// Whether the kernel's OOM killer fired in this slot since `prepare`.
    pub(crate) fn oom_killed(&self) -> bool {
        if self.v2 {
            return fs::read_to_string(self.memory.join("memory.events")).is_ok_and(|t| {
                t.lines()
                    .any(|l| l.strip_prefix("oom_kill ").is_some_and(|n| n.trim() != "0"))
            });
        }
        fs::read_to_string(self.memory.join("memory.failcnt")).is_ok_and(|t| t.trim() != "0")
    }

    /// Kills every process still in the slot (daemons that left the process group).
    pub(crate) fn kill_all(&self) {
        for _ in 0..10 {
            let Ok(text) = fs::read_to_string(self.memory.join("cgroup.procs")) else {
                return;
            };
            let pids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                // SAFETY: kill on a pid read from our own cgroup; a stale pid is harmless (ESRCH).
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}
