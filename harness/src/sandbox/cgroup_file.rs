//! The control files a cgroup slot reads and writes at every run, opened
//! once with the slot. Each is read and written at offset 0 (the kernel
//! makes its text afresh each time): a run costs no open, stat or close of
//! them, and on cgroup v2 a reset of `memory.peak`, which holds only for
//! the descriptor that wrote it, is read back through that descriptor.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::time::Duration;

/// One control file, kept open.
#[derive(Debug)]
struct ControlFile(File);

impl ControlFile {
    fn open(path: &Path, write: bool) -> io::Result<ControlFile> {
        OpenOptions::new()
            .read(true)
            .write(write)
            .open(path)
            .map(ControlFile)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    /// The whole text (a task list can be long).
    fn text(&self) -> Option<String> {
        let mut text = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let n = self.0.read_at(&mut buffer, text.len() as u64).ok()?;
            if n == 0 {
                return String::from_utf8(text).ok();
            }
            text.extend_from_slice(&buffer[..n]);
        }
    }

    /// The number the file holds (a single-value file).
    fn number(&self) -> Option<u64> {
        let mut buffer = [0u8; 64];
        let n = self.0.read_at(&mut buffer, 0).ok()?;
        std::str::from_utf8(&buffer[..n]).ok()?.trim().parse().ok()
    }

    /// The number after `key ` in a `key value` list (`cpu.stat`, `memory.events`).
    fn keyed(&self, key: &str) -> Option<u64> {
        self.text()?.lines().find_map(|line| {
            let (name, value) = line.split_once(' ')?;
            (name == key).then(|| value.trim().parse().ok())?
        })
    }

    fn write(&self, value: &str) -> io::Result<()> {
        self.0.write_at(value.as_bytes(), 0).map(|_| ())
    }
}

/// A slot's per-run files: in its memory cgroup, and its CPU counter.
#[derive(Debug)]
pub(crate) struct SlotFiles {
    v2: bool,
    /// Bytes charged now.
    usage: ControlFile,
    /// The peak since the last reset (v1 `max_usage_in_bytes`, v2 `memory.peak`).
    peak: ControlFile,
    /// v1 `memory.failcnt` (reset by writing 0), v2 `memory.events`.
    failures: ControlFile,
    /// The thread ids in the slot.
    tasks: ControlFile,
    /// v1 `cpuacct.usage` (ns), v2 `cpu.stat` (µs), with a CPU controller.
    cpu: Option<ControlFile>,
}

impl SlotFiles {
    pub(crate) fn open(memory: &Path, cpuacct: Option<&Path>, v2: bool) -> io::Result<SlotFiles> {
        let names = if v2 {
            [
                "memory.current",
                "memory.peak",
                "memory.events",
                "cgroup.threads",
            ]
        } else {
            [
                "memory.usage_in_bytes",
                "memory.max_usage_in_bytes",
                "memory.failcnt",
                "tasks",
            ]
        };
        // v2 kernels before 6.12 have a read-only memory.peak.
        let peak = ControlFile::open(&memory.join(names[1]), true)
            .or_else(|_| ControlFile::open(&memory.join(names[1]), false))?;
        Ok(SlotFiles {
            v2,
            usage: ControlFile::open(&memory.join(names[0]), false)?,
            peak,
            failures: ControlFile::open(&memory.join(names[2]), !v2)?,
            tasks: ControlFile::open(&memory.join(names[3]), false)?,
            cpu: cpuacct
                .map(|dir| {
                    ControlFile::open(
                        &dir.join(if v2 { "cpu.stat" } else { "cpuacct.usage" }),
                        false,
                    )
                })
                .transpose()?,
        })
    }

    /// Bytes charged to the slot now.
    pub(crate) fn charged(&self) -> u64 {
        self.usage.number().unwrap_or(0)
    }

    /// Starts the peak (and, on v1, the failure count) afresh.
    pub(crate) fn reset_peak(&self) -> io::Result<()> {
        if self.v2 {
            // Linux 6.12+; older kernels keep the all-time peak.
            let _ = self.peak.write("0");
            Ok(())
        } else {
            self.peak.write("0")?;
            self.failures.write("0")
        }
    }

    pub(crate) fn peak(&self) -> Option<u64> {
        self.peak.number()
    }

    /// Whether the memory limit was hit since `reset_peak` (v1) or ever
    /// killed a task (v2: `oom_kill` only grows, see `Slot::oom_killed`).
    pub(crate) fn failures(&self) -> Option<u64> {
        if self.v2 {
            self.failures.keyed("oom_kill")
        } else {
            self.failures.number()
        }
    }

    /// The CPU time every task of the slot ever used.
    pub(crate) fn cpu(&self) -> Option<Duration> {
        let cpu = self.cpu.as_ref()?;
        if self.v2 {
            cpu.keyed("usage_usec").map(Duration::from_micros)
        } else {
            cpu.number().map(Duration::from_nanos)
        }
    }

    /// The thread ids in the slot.
    pub(crate) fn tasks(&self) -> Vec<i32> {
        self.tasks.text().map_or_else(Vec::new, |text| {
            text.lines().filter_map(|l| l.trim().parse().ok()).collect()
        })
    }
}
