//! The system calls contained programs may not make, as two seccomp
//! programs (classic BPF):
//!
//! - the **worker's filter**, installed once on each thread that starts
//!   contained runs (root judge, `worker_keys`), inherited by every thread
//!   and program it starts from then on and never removed, so it costs
//!   nothing per run: the key ring calls (ENOSYS, in the native and the
//!   32-bit numbering), and the calls no judge thread makes that reach past
//!   the sandbox, as Docker's default profile refuses them: a user
//!   namespace (`clone` or `unshare` with `CLONE_NEWUSER`; the one
//!   namespace an unprivileged program could make, and with it
//!   capabilities for every other kind and for mounts), `clone3` (ENOSYS,
//!   since a filter cannot read its flags: the C library falls back to
//!   `clone`), tracing and other processes' memory (`ptrace`,
//!   `process_vm_*`), `bpf`, `perf_event_open`, `userfaultfd`, `io_uring_*`
//!   (ENOSYS: runtimes fall back), modules, `kexec`, `reboot`, swap,
//!   `acct`, clocks, `syslog`, quotas, handles on files by number,
//!   `fanotify`, other processes' descriptors (`pidfd_getfd`), port I/O.
//!   A call of an unknown architecture fails whole.
//! - the **run's filter**, installed by each contained run's child as its
//!   last step before `execve` (after the privilege drop and
//!   `no_new_privs`, so it needs no privilege): file locks (`flock` and
//!   `fcntl`'s lock commands fail with ENOLCK), which judge threads use
//!   themselves (the result store is SQLite) and so cannot refuse for
//!   what they start, and every call of another numbering than the native
//!   one (32-bit and x32 programs: ENOSYS). A lock on a file two runs may
//!   both read (`/etc/passwd`) is state both can see, a channel a byte
//!   range wide. It is two dozen instructions, so cheap to install. Where no
//!   worker's filter could be installed (an unprivileged judge), the run's
//!   filter holds everything, the namespace and mount calls whole.

use std::io;

/// Installs `program` on the calling thread (and so on everything it
/// starts from now on); the thread needs `CAP_SYS_ADMIN` or `no_new_privs`.
pub(crate) fn install(mut program: Vec<libc::sock_filter>) -> io::Result<()> {
    let program = libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        filter: program.as_mut_ptr(),
    };
    // SAFETY: seccomp(2) on this thread only (no TSYNC flag), with a valid
    // program that outlives the call (the kernel copies it).
    let rc = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &program as *const libc::sock_fprog,
        )
    };
    match rc {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// A thread that starts only runs and trusted programs, and never takes a
/// file lock itself (a worker of the runner's pool: the store is the
/// caller's), installs a run's filter on itself once, instead of each of
/// its runs installing it (a JIT compilation per run). Trusted programs it
/// starts inherit it: they take no locks either. Whether it did is the
/// box's to remember.
pub(crate) fn filter_this_threads_runs() -> bool {
    install(run_program(true)).is_ok()
}

/// `seccomp_data` offsets: the call's number, its architecture, and the
/// low 32 bits of its first and second arguments (little-endian).
const DATA_NR: u32 = 0;
const DATA_ARCH: u32 = 4;
const DATA_ARG0_LOW: u32 = 16;
const DATA_ARG1_LOW: u32 = 24;

/// linux/audit.h: the architectures whose system calls a thread may make.
#[cfg(target_arch = "x86_64")]
mod arch {
    pub(super) const NATIVE: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
    /// i386 programs (`int 0x80`) number system calls their own way.
    pub(super) const COMPAT: u32 = 0x4000_0003; // AUDIT_ARCH_I386
    /// add_key, request_key, keyctl in the i386 table.
    pub(super) const COMPAT_KEY_CALLS: [u32; 3] = [286, 287, 288];
    /// The x32 ABI's calls are the native numbers with this bit set.
    pub(super) const NATIVE_FLAG_BITS: u32 = 0x4000_0000;
}
#[cfg(target_arch = "aarch64")]
mod arch {
    pub(super) const NATIVE: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64
    /// 32-bit ARM programs number system calls their own way.
    pub(super) const COMPAT: u32 = 0x4000_0028; // AUDIT_ARCH_ARM
    /// add_key, request_key, keyctl in the 32-bit ARM table.
    pub(super) const COMPAT_KEY_CALLS: [u32; 3] = [309, 310, 311];
    pub(super) const NATIVE_FLAG_BITS: u32 = 0;
}

const KEY_CALLS: [libc::c_long; 3] = [libc::SYS_add_key, libc::SYS_request_key, libc::SYS_keyctl];

/// Refused with EPERM by the worker's filter: no judge thread makes them.
const REACHING: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_syslog,
    libc::SYS_quotactl,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_fanotify_init,
    libc::SYS_pidfd_getfd,
    libc::SYS_vhangup,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_uselib,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ustat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_sysfs,
];

/// Refused with ENOSYS by the worker's filter, as on a kernel without
/// them: their callers fall back to what is allowed.
const ABSENT: &[libc::c_long] = &[
    libc::SYS_clone3,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

/// Refused with EPERM by a run's filter only where no worker's filter
/// stands (the judge's threads make these themselves, and a run of the
/// root judge has no capability to: the kernel refuses them).
const NAMESPACES_AND_MOUNTS: &[libc::c_long] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
];

/// Every `CLONE_NEW*` flag (0x80 is `CLONE_NEWTIME`).
const NEW_NAMESPACES: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWCGROUP) as u32
    | 0x80;

/// `fcntl` commands that take or test a lock.
const LOCK_COMMANDS: [u32; 6] = [
    libc::F_GETLK as u32,
    libc::F_SETLK as u32,
    libc::F_SETLKW as u32,
    libc::F_OFD_GETLK as u32,
    libc::F_OFD_SETLK as u32,
    libc::F_OFD_SETLKW as u32,
];

fn statement(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(test: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: (libc::BPF_JMP | test | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    }
}

fn load(offset: u32) -> libc::sock_filter {
    statement(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, offset)
}

fn ret(value: u32) -> libc::sock_filter {
    statement(libc::BPF_RET | libc::BPF_K, value)
}

fn errno(code: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | code as u32
}

fn allow() -> libc::sock_filter {
    ret(libc::SECCOMP_RET_ALLOW)
}

/// `numbers` refused with `refusal`: a test and its own return each, so
/// that no jump is long. The call's number must be loaded.
fn refuse(code: &mut Vec<libc::sock_filter>, numbers: &[libc::c_long], refusal: u32) {
    for &number in numbers {
        code.push(jump(libc::BPF_JEQ, number as u32, 0, 1));
        code.push(ret(refusal));
    }
}

/// `call` refused with EPERM when its first argument has a flag of
/// `flags`, allowed otherwise. Ends in a return either way (it loads the
/// argument); the call's number must be loaded.
fn refuse_with_flags(code: &mut Vec<libc::sock_filter>, call: libc::c_long, flags: u32) {
    code.extend([
        jump(libc::BPF_JEQ, call as u32, 0, 4),
        load(DATA_ARG0_LOW),
        jump(libc::BPF_JSET, flags, 0, 1),
        ret(errno(libc::EPERM)),
        allow(),
    ]);
}

/// The worker's filter (see the module's doc).
pub(crate) fn worker_program() -> Vec<libc::sock_filter> {
    let mut native = vec![load(DATA_NR)];
    if arch::NATIVE_FLAG_BITS != 0 {
        // x32 numbers are the native ones with a flag bit: checked alike.
        native.push(statement(
            libc::BPF_ALU | libc::BPF_AND | libc::BPF_K,
            !arch::NATIVE_FLAG_BITS,
        ));
    }
    refuse(&mut native, &KEY_CALLS, errno(libc::ENOSYS));
    refuse(&mut native, REACHING, errno(libc::EPERM));
    refuse(&mut native, ABSENT, errno(libc::ENOSYS));
    let user = libc::CLONE_NEWUSER as u32;
    refuse_with_flags(&mut native, libc::SYS_clone, user);
    refuse_with_flags(&mut native, libc::SYS_unshare, user);
    native.push(allow());

    let mut compat = vec![load(DATA_NR)];
    for number in arch::COMPAT_KEY_CALLS {
        compat.push(jump(libc::BPF_JEQ, number, 0, 1));
        compat.push(ret(errno(libc::ENOSYS)));
    }
    compat.push(allow());

    let mut code = vec![
        load(DATA_ARCH),
        // Native: over the next test and the refusal.
        jump(libc::BPF_JEQ, arch::NATIVE, 2, 0),
        // Compatibility numbering: over the refusal and the native block.
        jump(libc::BPF_JEQ, arch::COMPAT, 1 + native.len() as u8, 0),
        ret(errno(libc::ENOSYS)),
    ];
    code.extend(native);
    code.extend(compat);
    code
}

/// A run's filter: locks and other numberings only where the worker's
/// filter stands (`worker_filtered`), everything otherwise.
pub(crate) fn run_program(worker_filtered: bool) -> Vec<libc::sock_filter> {
    let mut code = vec![
        load(DATA_ARCH),
        jump(libc::BPF_JEQ, arch::NATIVE, 1, 0),
        ret(errno(libc::ENOSYS)),
        load(DATA_NR),
    ];
    if arch::NATIVE_FLAG_BITS != 0 {
        code.push(jump(libc::BPF_JSET, arch::NATIVE_FLAG_BITS, 0, 1));
        code.push(ret(errno(libc::ENOSYS)));
    }
    if !worker_filtered {
        refuse(&mut code, &KEY_CALLS, errno(libc::ENOSYS));
        refuse(&mut code, REACHING, errno(libc::EPERM));
        refuse(&mut code, ABSENT, errno(libc::ENOSYS));
        refuse(&mut code, NAMESPACES_AND_MOUNTS, errno(libc::EPERM));
        refuse_with_flags(&mut code, libc::SYS_clone, NEW_NAMESPACES);
    }
    refuse(&mut code, &[libc::SYS_flock], errno(libc::ENOLCK));
    // fcntl: refused only for a lock command (its second argument).
    code.push(jump(
        libc::BPF_JEQ,
        libc::SYS_fcntl as u32,
        0,
        2 + 2 * LOCK_COMMANDS.len() as u8,
    ));
    code.push(load(DATA_ARG1_LOW));
    for command in LOCK_COMMANDS {
        code.push(jump(libc::BPF_JEQ, command, 0, 1));
        code.push(ret(errno(libc::ENOLCK)));
    }
    code.push(allow());
    code.push(allow());
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the classic BPF `program` on a call: what it returns.
    fn verdict(program: &[libc::sock_filter], arch: u32, nr: i64, args: [u64; 2]) -> u32 {
        let (mut a, mut pc) = (0u32, 0usize);
        loop {
            let insn = program[pc];
            pc += 1;
            let code = u32::from(insn.code);
            if code == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS {
                a = match insn.k {
                    DATA_NR => nr as u32,
                    DATA_ARCH => arch,
                    DATA_ARG0_LOW => args[0] as u32,
                    DATA_ARG1_LOW => args[1] as u32,
                    other => panic!("load of offset {other}"),
                };
            } else if code == libc::BPF_RET | libc::BPF_K {
                return insn.k;
            } else if code == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K {
                a &= insn.k;
            } else if code == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K {
                pc += usize::from(if a == insn.k { insn.jt } else { insn.jf });
            } else if code == libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K {
                pc += usize::from(if a & insn.k != 0 { insn.jt } else { insn.jf });
            } else {
                panic!("instruction {code:#x}");
            }
        }
    }

    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;

    fn worker(arch: u32, nr: libc::c_long, args: [u64; 2]) -> u32 {
        verdict(&worker_program(), arch, nr, args)
    }

    fn run(worker_filtered: bool, nr: libc::c_long, args: [u64; 2]) -> u32 {
        verdict(&run_program(worker_filtered), arch::NATIVE, nr, args)
    }

    #[test]
    fn the_workers_filter_refuses_key_rings_in_either_numbering() {
        for nr in KEY_CALLS {
            assert_eq!(worker(arch::NATIVE, nr, [0, 0]), errno(libc::ENOSYS));
            let x32 = nr | arch::NATIVE_FLAG_BITS as libc::c_long;
            assert_eq!(worker(arch::NATIVE, x32, [0, 0]), errno(libc::ENOSYS));
        }
        for nr in arch::COMPAT_KEY_CALLS {
            assert_eq!(worker(arch::COMPAT, nr.into(), [0, 0]), errno(libc::ENOSYS));
        }
        for nr in [0, 1, 59, 231, 285, 289, 400] {
            assert_eq!(worker(arch::COMPAT, nr, [0, 0]), ALLOW);
        }
        assert_eq!(worker(0x1234, 0, [0, 0]), errno(libc::ENOSYS));
    }

    #[test]
    fn the_workers_filter_refuses_what_reaches_past_the_sandbox_and_nothing_a_judge_does() {
        for call in [libc::SYS_ptrace, libc::SYS_bpf, libc::SYS_perf_event_open] {
            assert_eq!(
                worker(arch::NATIVE, call, [0, 0]),
                errno(libc::EPERM),
                "{call}"
            );
        }
        for call in [libc::SYS_clone3, libc::SYS_io_uring_setup] {
            assert_eq!(
                worker(arch::NATIVE, call, [0, 0]),
                errno(libc::ENOSYS),
                "{call}"
            );
        }
        let user = libc::CLONE_NEWUSER as u64;
        for call in [libc::SYS_clone, libc::SYS_unshare] {
            assert_eq!(worker(arch::NATIVE, call, [user, 0]), errno(libc::EPERM));
        }
        // What the judge's threads do: threads, other namespaces, mounts,
        // locks (the store), setns.
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_FS) as u64;
        let pid_ns = (libc::CLONE_NEWPID | libc::CLONE_VM | libc::CLONE_VFORK) as u64;
        for (call, args) in [
            (libc::SYS_clone, [thread, 0]),
            (libc::SYS_clone, [pid_ns, 0]),
            (libc::SYS_unshare, [libc::CLONE_NEWNET as u64, 0]),
            (libc::SYS_setns, [3, 0]),
            (libc::SYS_mount, [0, 0]),
            (libc::SYS_fcntl, [3, libc::F_SETLK as u64]),
            (libc::SYS_flock, [3, 2]),
            (libc::SYS_read, [0, 0]),
        ] {
            assert_eq!(worker(arch::NATIVE, call, args), ALLOW, "{call}");
        }
    }

    #[test]
    fn a_runs_filter_refuses_locks_and_other_numberings() {
        for filtered in [true, false] {
            for command in LOCK_COMMANDS {
                assert_eq!(
                    run(filtered, libc::SYS_fcntl, [3, u64::from(command)]),
                    errno(libc::ENOLCK)
                );
            }
            assert_eq!(run(filtered, libc::SYS_flock, [3, 2]), errno(libc::ENOLCK));
            for command in [libc::F_GETFL, libc::F_SETFD, libc::F_DUPFD_CLOEXEC] {
                assert_eq!(run(filtered, libc::SYS_fcntl, [3, command as u64]), ALLOW);
            }
            let read = libc::SYS_read;
            assert_eq!(
                verdict(&run_program(filtered), arch::COMPAT, read, [0, 0]),
                errno(libc::ENOSYS)
            );
            if arch::NATIVE_FLAG_BITS != 0 {
                let x32 = read | arch::NATIVE_FLAG_BITS as libc::c_long;
                assert_eq!(run(filtered, x32, [0, 0]), errno(libc::ENOSYS));
            }
            assert_eq!(run(filtered, read, [0, 0]), ALLOW);
        }
        // With the worker's filter in place, a run's is two dozen instructions.
        assert!(run_program(true).len() <= 24, "{}", run_program(true).len());
    }

    #[test]
    fn without_a_workers_filter_a_runs_filter_refuses_everything() {
        for call in [
            libc::SYS_mount,
            libc::SYS_setns,
            libc::SYS_ptrace,
            libc::SYS_unshare,
        ] {
            assert_eq!(run(false, call, [0, 0]), errno(libc::EPERM), "{call}");
        }
        assert_eq!(run(false, libc::SYS_keyctl, [0, 0]), errno(libc::ENOSYS));
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD) as u64;
        assert_eq!(run(false, libc::SYS_clone, [thread, 0]), ALLOW);
        assert_eq!(
            run(
                false,
                libc::SYS_clone,
                [thread | libc::CLONE_NEWNET as u64, 0]
            ),
            errno(libc::EPERM)
        );
        assert_eq!(run(true, libc::SYS_mount, [0, 0]), ALLOW);
    }
}
