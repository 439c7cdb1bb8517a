//! The system calls a contained run may not make: a deny list installed by
//! the child itself as its last step before `execve` (after the privilege
//! drop and `no_new_privs`, so it needs no privilege), on top of the
//! worker's key ring filter (`worker_keys`). The namespaces, the uid and
//! the read-only view contain a run already; these calls are refused
//! because they reach past all of that (the kernel's own attack surface,
//! as Docker's default profile has it) or would open a channel between
//! runs that the namespaces do not close:
//!
//! - new namespaces (`unshare`, `setns`, `clone` with a `CLONE_NEW*` flag;
//!   `clone3`, whose flags a filter cannot read, fails with ENOSYS so that
//!   the C library falls back to `clone`), and every mount call;
//! - tracing and other processes' memory (`ptrace`, `process_vm_*`),
//!   `bpf`, `perf_event_open`, `userfaultfd`, `io_uring_*` (ENOSYS: the
//!   runtimes that use it fall back), kernel modules, `kexec`, `reboot`,
//!   swap, clocks, `acct`, `syslog`, quotas, handles on files by number
//!   (`open_by_handle_at`), `fanotify`, another process's descriptors
//!   (`pidfd_getfd`), the host and domain names, and the key ring calls
//!   (ENOSYS, as where the worker closed them);
//! - file locks (`flock`, and `fcntl`'s lock commands: ENOLCK): the lock
//!   on a shared read-only file (`/etc/passwd`) is state that two runs at
//!   once could both see, a channel a byte range wide;
//! - every call of another architecture's numbering (32-bit programs,
//!   x32): ENOSYS, since their numbers are not the ones listed here.

/// `seccomp_data` offsets: the call's number, its architecture, and the
/// low 32 bits of its first and second arguments (little-endian).
const DATA_NR: u32 = 0;
const DATA_ARCH: u32 = 4;
const DATA_ARG0_LOW: u32 = 16;
const DATA_ARG1_LOW: u32 = 24;

#[cfg(target_arch = "x86_64")]
const NATIVE_ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const NATIVE_ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64
/// The x32 ABI's numbers are the native ones with this bit set.
const X32_BIT: u32 = 0x4000_0000;

/// Every `CLONE_NEW*` flag (and `CLONE_NEWTIME`, which only `clone3`
/// takes, for good measure).
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

/// Refused with EPERM.
const DENIED: &[libc::c_long] = &[
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
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
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

/// Refused with ENOSYS, as on a kernel without them: their callers fall
/// back to what is allowed.
const ABSENT: &[libc::c_long] = &[
    libc::SYS_clone3,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_keyctl,
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

/// The classic BPF program. Each test is followed by its own return, so
/// no jump is longer than a few instructions.
pub(crate) fn program() -> Vec<libc::sock_filter> {
    let allow = ret(libc::SECCOMP_RET_ALLOW);
    let mut code = vec![
        load(DATA_ARCH),
        jump(libc::BPF_JEQ, NATIVE_ARCH, 1, 0),
        ret(errno(libc::ENOSYS)),
        load(DATA_NR),
    ];
    if cfg!(target_arch = "x86_64") {
        code.push(jump(libc::BPF_JSET, X32_BIT, 0, 1));
        code.push(ret(errno(libc::ENOSYS)));
    }
    for (numbers, refusal) in [(DENIED, errno(libc::EPERM)), (ABSENT, errno(libc::ENOSYS))] {
        for &number in numbers {
            code.push(jump(libc::BPF_JEQ, number as u32, 0, 1));
            code.push(ret(refusal));
        }
    }
    code.push(jump(libc::BPF_JEQ, libc::SYS_flock as u32, 0, 1));
    code.push(ret(errno(libc::ENOLCK)));
    // clone: refused only with a namespace flag (its first argument).
    code.extend([
        jump(libc::BPF_JEQ, libc::SYS_clone as u32, 0, 4),
        load(DATA_ARG0_LOW),
        jump(libc::BPF_JSET, NEW_NAMESPACES, 0, 1),
        ret(errno(libc::EPERM)),
        allow,
    ]);
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
    code.push(allow);
    code.push(allow);
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
            } else if code == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K {
                pc += usize::from(if a == insn.k { insn.jt } else { insn.jf });
            } else if code == libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K {
                pc += usize::from(if a & insn.k != 0 { insn.jt } else { insn.jf });
            } else {
                panic!("instruction {code:#x}");
            }
        }
    }

    fn native(nr: libc::c_long, args: [u64; 2]) -> u32 {
        verdict(&program(), NATIVE_ARCH, nr, args)
    }

    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;

    #[test]
    fn reaching_calls_are_refused_and_ordinary_ones_allowed() {
        for call in [
            libc::SYS_mount,
            libc::SYS_unshare,
            libc::SYS_ptrace,
            libc::SYS_bpf,
        ] {
            assert_eq!(native(call, [0, 0]), errno(libc::EPERM), "call {call}");
        }
        for call in [libc::SYS_clone3, libc::SYS_io_uring_setup, libc::SYS_keyctl] {
            assert_eq!(native(call, [0, 0]), errno(libc::ENOSYS), "call {call}");
        }
        for call in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_openat,
            libc::SYS_mmap,
            libc::SYS_exit_group,
        ] {
            assert_eq!(native(call, [0, 0]), ALLOW, "call {call}");
        }
    }

    #[test]
    fn clone_is_refused_only_with_a_namespace_flag() {
        let thread = (libc::CLONE_VM | libc::CLONE_FS | libc::CLONE_THREAD) as u64;
        assert_eq!(native(libc::SYS_clone, [thread, 0]), ALLOW);
        assert_eq!(native(libc::SYS_clone, [libc::SIGCHLD as u64, 0]), ALLOW);
        for flag in [libc::CLONE_NEWUSER, libc::CLONE_NEWNS, libc::CLONE_NEWNET] {
            assert_eq!(
                native(libc::SYS_clone, [thread | flag as u64, 0]),
                errno(libc::EPERM)
            );
        }
    }

    #[test]
    fn locks_are_refused_and_other_fcntl_commands_allowed() {
        for command in LOCK_COMMANDS {
            assert_eq!(
                native(libc::SYS_fcntl, [3, u64::from(command)]),
                errno(libc::ENOLCK)
            );
        }
        assert_eq!(native(libc::SYS_flock, [3, 2]), errno(libc::ENOLCK));
        for command in [libc::F_GETFL, libc::F_SETFD, libc::F_DUPFD_CLOEXEC] {
            assert_eq!(native(libc::SYS_fcntl, [3, command as u64]), ALLOW);
        }
    }

    #[test]
    fn another_architectures_calls_are_refused() {
        assert_eq!(
            verdict(&program(), 0x4000_0003, libc::SYS_read, [0, 0]),
            errno(libc::ENOSYS)
        );
        if cfg!(target_arch = "x86_64") {
            assert_eq!(
                native(libc::SYS_read | X32_BIT as libc::c_long, [0, 0]),
                errno(libc::ENOSYS)
            );
        }
    }
}
