//! What a run sees of what its worker prepared once (`worker_root`,
//! `worker_ns`): its own folders and nothing an earlier run left. These
//! need root (skipped otherwise).

use std::path::Path;
use std::time::Duration;

use tempfile::TempDir;

use crate::sandbox::Limits;
use crate::sandbox::{Containment, IsolationLevel, RunRequest, Sandbox, Worker};
use crate::test_support::{bounded, have, present, skip};

fn shell(sandbox: &Worker, script: &str, workdir: &std::path::Path) -> String {
    run(sandbox, "/bin/sh".as_ref(), &["-c", script], workdir)
}

/// `program` run as a submission; its stdout.
fn run(
    sandbox: &Worker,
    program: &std::path::Path,
    args: &[&str],
    workdir: &std::path::Path,
) -> String {
    run_as(sandbox, program, args, workdir, Containment::Submission)
}

/// `program` run with `containment`; its stdout.
fn run_as(
    sandbox: &Worker,
    program: &std::path::Path,
    args: &[&str],
    workdir: &std::path::Path,
    containment: Containment,
) -> String {
    let limits = Limits {
        time: Duration::from_secs(2),
        wall: Duration::from_secs(4),
        memory: 256 << 20,
        output: 1 << 20,
    };
    let request = RunRequest {
        args: args.iter().map(Into::into).collect(),
        ..RunRequest::new(
            program.to_path_buf(),
            workdir.to_path_buf(),
            limits,
            containment,
        )
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

/// A run of the script `probe.sh` in a fresh folder, working in another:
/// (the folder, the working folder, what the script printed).
fn run_probe(sandbox: &Worker, parent: &Path) -> (TempDir, TempDir, String) {
    let program = tempfile::tempdir_in(parent).unwrap();
    let work = tempfile::tempdir_in(parent).unwrap();
    let script = program.path().join("probe.sh");
    std::fs::write(
        &script,
        "cat /proc/self/mountinfo; echo ==; ls -a \"$(dirname \"$PWD\")\"; \
         touch \"$0.new\" 2>/dev/null && echo WROTE\n",
    )
    .unwrap();
    let seen = run(
        sandbox,
        "/bin/sh".as_ref(),
        &[script.to_str().unwrap()],
        work.path(),
    );
    (program, work, seen)
}

/// The device (`major:minor`) of the root in a `/proc/self/mountinfo`.
fn root_device(mountinfo: &str) -> Option<&str> {
    mountinfo.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(' ').collect();
        (fields.get(4) == Some(&"/")).then(|| fields[2])
    })
}

#[test]
fn a_run_sees_the_shared_root_and_its_own_folders_only() {
    // The prepared root needs root.
    if !have(&["root"]) {
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1).worker();
    let parent = tempfile::tempdir().unwrap();
    let (first_program, first_work, first_seen) = run_probe(&sandbox, parent.path());
    let (program, work, seen) = run_probe(&sandbox, parent.path());
    // Prepared once, not built per run: the same tmpfs is the root of both.
    let root = root_device(&seen);
    assert!(root.is_some(), "no root in {seen}");
    assert_eq!(root_device(&first_seen), root);
    let (mountinfo, listing) = seen.split_once("==\n").unwrap();
    assert!(
        !mountinfo.contains("shared:"),
        "a run's mounts propagate: {mountinfo}"
    );
    let own = [program.path(), work.path()].map(|p| p.to_string_lossy().into_owned());
    for point in mount_points(mountinfo) {
        let system = ["/", "/usr", "/etc", "/bin", "/sbin", "/proc"].contains(&point.as_str())
            || point.starts_with("/lib")
            || point.starts_with("/dev/");
        assert!(
            system || own.contains(&point),
            "{point} is mounted in a run"
        );
    }
    for earlier in [first_program.path(), first_work.path()] {
        let name = earlier.file_name().unwrap().to_string_lossy();
        assert!(
            !listing.contains(name.as_ref()),
            "an earlier run's folder is still there: {listing}"
        );
    }
    assert!(listing.contains(program.path().file_name().unwrap().to_str().unwrap()));
    assert!(!seen.contains("WROTE"), "the program's folder is writable");

    // Its `/` is the worker's root, not the host's under it.
    let top = shell(&sandbox, "ls -A /", work.path());
    let shown = [
        "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc",
    ];
    let parent_top = parent.path().components().nth(1).unwrap();
    for entry in std::fs::read_dir("/").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if shown.contains(&name.as_str()) || parent_top.as_os_str() == name.as_str() {
            continue;
        }
        assert!(
            !top.lines().any(|line| line == name),
            "the host's /{name} is in a run's root: {top}"
        );
    }
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
    let mut gcc = std::process::Command::new("gcc");
    gcc.arg("-o").arg(&program).arg(&source).arg("-lrt");
    let built = bounded(gcc).output();
    built.is_ok_and(|o| o.status.success()).then_some(program)
}

#[test]
fn ipc_objects_a_run_leaves_are_gone_for_the_next() {
    if !have(&["root", "ipcmk"]) {
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1).worker();
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
    // Emptied, not replaced: the worker's runs share its namespace.
    let namespace = "readlink /proc/self/ns/ipc";
    assert_eq!(
        shell(&sandbox, namespace, dir.path()),
        shell(&sandbox, namespace, dir.path())
    );

    let programs = tempfile::tempdir().unwrap();
    if !present("gcc") {
        skip("gcc", "the message queue half");
        return;
    }
    let program = message_queue_program(programs.path()).expect("the message queue program builds");
    run(&sandbox, &program, &["make"], dir.path());
    assert_eq!(
        run(&sandbox, &program, &["find"], dir.path()).trim(),
        "gone"
    );
}

#[test]
fn the_minimal_dev_works() {
    // The prepared root needs root.
    if !have(&["root"]) {
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1).worker();
    let dir = tempfile::tempdir().unwrap();
    let script = "echo lost > /dev/null && head -c 3 /dev/urandom | wc -c && \
                  head -c 2 /dev/zero | wc -c && (echo x > /dev/full) 2>/dev/null || echo full; \
                  ls /dev | tr '\\n' ' '";
    let seen = shell(&sandbox, script, dir.path());
    assert_eq!(
        seen,
        "3\n2\nfull\nfd full null random stderr stdin stdout urandom zero "
    );
}

#[test]
fn the_working_folder_is_kept_only_while_runs_leave_it_untouched() {
    // The prepared root needs root.
    if !have(&["root"]) {
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1).worker();
    let dir = tempfile::tempdir().unwrap();
    // When its root was made (a fresh one is made later).
    let made = || shell(&sandbox, "stat -c %z .", dir.path());
    let first = made();
    assert_eq!(
        made(),
        first,
        "a run that wrote nothing got a new working folder"
    );

    // The first file of a fresh working folder gets the same inode number
    // every time: a run cannot tell the next how many files it made.
    let inode = "touch f && stat -c %i f";
    let fresh = shell(&sandbox, inode, dir.path());
    shell(
        &sandbox,
        "for i in 1 2 3 4 5 6 7; do touch $i; done; rm -f ./*",
        dir.path(),
    );
    assert_eq!(shell(&sandbox, inode, dir.path()), fresh);
    assert_eq!(shell(&sandbox, "ls -A", dir.path()), "");
    assert_ne!(made(), first);

    // The run sees the system's Python, not the one on the tests' PATH.
    if !Path::new("/usr/bin/python3").exists() {
        skip(
            "python3",
            "the extended attributes half (no /usr/bin/python3)",
        );
        return;
    }
    let python = |code: &str| {
        run(
            &sandbox,
            "/usr/bin/python3".as_ref(),
            &["-c", code],
            dir.path(),
        )
    };
    python("import os; os.setxattr('.', 'user.left', b'1')");
    assert_eq!(python("import os; print(os.listxattr('.'))"), "[]\n");
}

#[test]
fn programs_start_from_a_thread_whose_key_rings_are_closed() {
    // Closing the key rings needs root.
    if !have(&["root"]) {
        return;
    }
    // On a thread of its own: the filter stays with the thread.
    std::thread::spawn(|| {
        let full = Sandbox::with_isolation(IsolationLevel::Full, 1).worker();
        let dir = tempfile::tempdir().unwrap();
        let session = "grep -c _ses /proc/keys 2>/dev/null; echo started";
        assert!(shell(&full, session, dir.path()).ends_with("started\n"));
        // A trusted program (no contained setup) from the same thread.
        let trusted = run_as(
            &Sandbox::new().worker(),
            "/bin/sh".as_ref(),
            &["-c", "echo trusted"],
            dir.path(),
            Containment::Tool,
        );
        assert_eq!(trusted, "trusted\n");
    })
    .join()
    .unwrap();
}

#[test]
fn a_run_finds_no_process_nor_pid_number_of_an_earlier_one() {
    // The worker's PID namespace needs root.
    if !have(&["root"]) {
        return;
    }
    let sandbox = Sandbox::with_isolation(IsolationLevel::Full, 1).worker();
    let dir = tempfile::tempdir().unwrap();
    // Its own PID, the processes it sees (a loop of the shell's own, no
    // process started), and its PID 1's name and command line.
    let look = "echo $$; for p in /proc/[0-9]*; do printf '%s ' ${p#/proc/}; done; echo; \
                cat /proc/1/comm; tr -d '\\000' < /proc/1/cmdline | wc -c";
    let first = shell(&sandbox, look, dir.path());
    // A run that leaves a process behind, out of its session (waiting
    // until it is), after making a few others.
    let left = shell(
        &sandbox,
        "for i in 1 2 3 4 5 6 7 8; do /bin/true; done; setsid sleep 60 & \
         until read -r _ _ _ _ _ sid _ < /proc/$!/stat && [ \"$sid\" = $! ]; do :; done; echo left",
        dir.path(),
    );
    assert_eq!(left, "left\n");
    let second = shell(&sandbox, look, dir.path());
    assert_eq!(first, "2\n1 2 \npid1\n0\n", "what a run sees of its PIDs");
    assert_eq!(second, first, "an earlier run left a trace");
}

#[test]
fn each_worker_thread_runs_programs_as_a_uid_of_its_own() {
    // Dropping to a worker's uid needs root.
    if !have(&["root"]) {
        return;
    }
    let range = crate::sandbox::UidRange {
        first: 64800,
        last: 64809,
    };
    let sandbox = Sandbox::with_uid_range(IsolationLevel::Full, 2, range);
    let (first_dir, second_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let uid_of = |text: String| -> u32 { text.trim().parse().expect("a uid") };
    std::thread::scope(|scope| {
        let (told, first) = std::sync::mpsc::channel();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let sandbox = &sandbox;
        let first_dir = first_dir.path();
        // The first worker stays alive (holding its uid) while the second runs.
        scope.spawn(move || {
            let worker = sandbox.worker();
            told.send(shell(&worker, "id -u", first_dir)).unwrap();
            let _ = wait.recv();
        });
        let first = uid_of(first.recv().unwrap());
        let second = std::thread::scope(|inner| {
            inner
                .spawn(|| uid_of(shell(&sandbox.worker(), "id -u", second_dir.path())))
                .join()
                .unwrap()
        });
        drop(done);
        for uid in [first, second] {
            assert!((range.first..=range.last).contains(&uid), "uid {uid}");
        }
        assert_ne!(first, second, "two live workers ran programs as one uid");
    });
}
