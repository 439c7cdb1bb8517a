//! What a run sees of what its worker prepared once (`worker_root`,
//! `worker_ns`): its own folders and nothing an earlier run left. These
//! need root (skipped otherwise).

use std::time::Duration;

use crate::sandbox::{Containment, IsolationLevel, RunRequest, Sandbox};
use crate::spec::Limits;

fn shell(sandbox: &Sandbox, script: &str, workdir: &std::path::Path) -> String {
    run(sandbox, "/bin/sh".as_ref(), &["-c", script], workdir)
}

/// `program` run as a submission; its stdout.
fn run(
    sandbox: &Sandbox,
    program: &std::path::Path,
    args: &[&str],
    workdir: &std::path::Path,
) -> String {
    let request = RunRequest {
        program: program.to_path_buf(),
        args: args.iter().map(Into::into).collect(),
        stdin: None,
        workdir: workdir.to_path_buf(),
        limits: Limits {
            time: Duration::from_secs(2),
            wall: Duration::from_secs(4),
            memory: 256 << 20,
            output: 1 << 20,
        },
        env: Vec::new(),
        stack: None,
        read_only: Vec::new(),
        containment: Containment::Submission,
    };
    let outcome = sandbox.run(&request).unwrap();
    String::from_utf8_lossy(&outcome.stdout).into_owned()
}

/// The mount points in a `/proc/self/mountinfo`.
fn mount_points(mountinfo: &str) -> Vec<String> {
    mountinfo
        .lines()
        .filter_map(|line| line.split(' ').nth(4))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_run_sees_the_shared_root_and_its_own_folders_only() {
    if !rustix::process::geteuid().is_root() {
        eprintln!("skipped: the prepared root needs root");
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1);
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir_in(first.path().parent().unwrap()).unwrap();
    let script = "cat /proc/self/mountinfo; echo ==; ls -a \"$(dirname \"$PWD\")\"";
    shell(&sandbox, script, first.path());
    let seen = shell(&sandbox, script, second.path());
    let (mountinfo, listing) = seen.split_once("==\n").unwrap();
    assert!(
        !mountinfo.contains("shared:"),
        "a run's mounts propagate: {mountinfo}"
    );
    let own = second.path().to_string_lossy().into_owned();
    for point in mount_points(mountinfo) {
        let system = ["/", "/usr", "/etc", "/bin", "/sbin", "/proc"].contains(&point.as_str())
            || point.starts_with("/lib")
            || point.starts_with("/dev/");
        assert!(system || point == own, "{point} is mounted in a run");
    }
    let earlier = first.path().file_name().unwrap().to_string_lossy();
    assert!(
        !listing.contains(earlier.as_ref()),
        "an earlier run's folder is still there: {listing}"
    );
}

/// A program that makes (`make`) or looks for (`find`) a POSIX message queue.
fn message_queue_program(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let source = dir.join("mq.c");
    std::fs::write(
        &source,
        "#include <fcntl.h>\n#include <mqueue.h>\n#include <stdio.h>\n#include <string.h>\n\
         int main(int c, char **v) {\n\
         if (!strcmp(v[1], \"make\")) return mq_open(\"/left\", O_CREAT | O_RDWR, 0666, 0) < 0;\n\
         puts(mq_open(\"/left\", O_RDWR) < 0 ? \"gone\" : \"found\"); return 0; }\n",
    )
    .ok()?;
    let program = dir.join("mq");
    let built = std::process::Command::new("gcc")
        .arg("-o")
        .arg(&program)
        .arg(&source)
        .arg("-lrt")
        .status();
    built.is_ok_and(|s| s.success()).then_some(program)
}

#[test]
fn ipc_objects_a_run_leaves_are_gone_for_the_next() {
    if !rustix::process::geteuid().is_root() || !std::path::Path::new("/usr/bin/ipcmk").exists() {
        eprintln!("skipped: needs root and ipcmk");
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1);
    let dir = tempfile::tempdir().unwrap();
    let count = "ipcs | grep -c '^0x'";
    let made = shell(
        &sandbox,
        &format!(
            "ipcmk -Q >/dev/null && ipcmk -M 4096 >/dev/null && ipcmk -S 1 >/dev/null; {count}"
        ),
        dir.path(),
    );
    assert_eq!(made.trim(), "3", "the run could not make its IPC objects");
    assert_eq!(shell(&sandbox, count, dir.path()).trim(), "0");

    let programs = tempfile::tempdir().unwrap();
    let Some(program) = message_queue_program(programs.path()) else {
        eprintln!("skipped the message queue: no gcc");
        return;
    };
    run(&sandbox, &program, &["make"], dir.path());
    assert_eq!(
        run(&sandbox, &program, &["find"], dir.path()).trim(),
        "gone"
    );
}
