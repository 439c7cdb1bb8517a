//! Kernel key rings closed to a worker thread's runs, once per thread.
//!
//! Key rings are kernel state that outlives a process: a user's key ring
//! lives as long as its user namespace, so a run of uid 65534 could leave
//! a key there for the next run, or the next judge, to find. A user
//! namespace per run gives each run fresh ones, but costs about 0.1 ms per
//! run (a namespace made, mapped and freed), and a new session key ring
//! per run another 25 µs (measured in docs/benchmarks.md).
//!
//! Instead, the first thread that starts a contained run joins an
//! anonymous session key ring of its own (so runs do not possess the
//! judge's, nor the grader's login one) and installs a seccomp filter on
//! itself that makes the three key ring system calls (`add_key`,
//! `request_key`, `keyctl`) fail with ENOSYS, as on a kernel built without
//! keys. Filters and credentials are inherited and can never be removed:
//! every thread and program it starts from then on (the judge's worker
//! threads, the runs, the trusted programs too) lives without key rings,
//! and no run can put anything in one for another to read. The judge
//! itself never uses them.

use std::cell::Cell;
use std::io;

use super::spawn::KEYCTL_JOIN_SESSION_KEYRING;

/// `seccomp_data` offsets: the system call number, then the architecture.
const SECCOMP_DATA_NR: u32 = 0;
const SECCOMP_DATA_ARCH: u32 = 4;

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

const NATIVE_KEY_CALLS: [u32; 3] = [
    libc::SYS_add_key as u32,
    libc::SYS_request_key as u32,
    libc::SYS_keyctl as u32,
];

thread_local! {
    /// `None` until tried on this thread.
    static CLOSED: Cell<Option<bool>> = const { Cell::new(None) };
}

/// Whether the calling thread's key rings are closed to what it starts:
/// tried once per thread (root only: installing a filter without
/// `no_new_privs` needs CAP_SYS_ADMIN). `false` when the kernel refused:
/// its runs then need a user namespace each.
pub(crate) fn closed() -> bool {
    CLOSED.with(|cell| {
        if let Some(closed) = cell.get() {
            return closed;
        }
        let closed = already_closed() || close().is_ok();
        cell.set(Some(closed));
        closed
    })
}

/// Whether the key ring calls already fail on this thread: a thread
/// inherits the filter of the thread that started it (the judge's worker
/// threads are started by a thread that ran the isolation probe), and a
/// container's own filter may close them too (EPERM under Docker's).
fn already_closed() -> bool {
    // keyctl(KEYCTL_GET_KEYRING_ID = 0, KEY_SPEC_SESSION_KEYRING = -3,
    // create = 0): the one key ring every thread has.
    // SAFETY: no pointers passed.
    let rc = unsafe { libc::syscall(libc::SYS_keyctl, 0, -3, 0) };
    let errno = io::Error::last_os_error().raw_os_error();
    rc == -1 && matches!(errno, Some(libc::ENOSYS | libc::EPERM))
}

/// Joins a session key ring of this thread's own, then closes the calls.
fn close() -> io::Result<()> {
    // SAFETY: keyctl with a null name changes this thread's credentials
    // only (credentials are per thread); nothing is passed by pointer.
    let joined = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if joined < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut filter = key_calls_filter();
    let program = libc::sock_fprog {
        len: filter.len() as libc::c_ushort,
        filter: filter.as_mut_ptr(),
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
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

const fn statement(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

/// Jumps `jt` instructions ahead when the accumulator equals `k`.
const fn jump_if_equal(k: u32, jt: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        jt,
        jf: 0,
        k,
    }
}

/// The classic BPF program: the key ring calls fail with ENOSYS, in the
/// native and the compatibility numbering; everything else is allowed;
/// a call from any other architecture fails (its numbers are unknown).
fn key_calls_filter() -> Vec<libc::sock_filter> {
    let load = |offset| statement(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, offset);
    let allow = statement(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW);
    let refuse = statement(
        libc::BPF_RET | libc::BPF_K,
        libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
    );
    let block = |numbers: [u32; 3], clear_bits: u32| {
        let mut code = vec![load(SECCOMP_DATA_NR)];
        if clear_bits != 0 {
            code.push(statement(
                libc::BPF_ALU | libc::BPF_AND | libc::BPF_K,
                !clear_bits,
            ));
        }
        // Each test jumps over the rest of the tests and the `allow`.
        for (i, number) in numbers.iter().enumerate() {
            code.push(jump_if_equal(*number, (numbers.len() - i) as u8));
        }
        code.push(allow);
        code.push(refuse);
        code
    };
    let native = block(NATIVE_KEY_CALLS, arch::NATIVE_FLAG_BITS);
    let compat = block(arch::COMPAT_KEY_CALLS, 0);
    let mut code = vec![load(SECCOMP_DATA_ARCH)];
    // native arch: skip the next test and the `refuse` after it.
    code.push(jump_if_equal(arch::NATIVE, 2));
    // compat arch: skip the `refuse` and the native block.
    code.push(jump_if_equal(arch::COMPAT, 1 + native.len() as u8));
    code.push(refuse);
    code.extend(native);
    code.extend(compat);
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the classic BPF `program` on a system call: what it returns.
    fn verdict(program: &[libc::sock_filter], arch: u32, nr: u32) -> u32 {
        let (mut a, mut pc) = (0u32, 0usize);
        loop {
            let insn = program[pc];
            let code = insn.code as u32;
            pc += 1;
            match code {
                c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    a = if insn.k == SECCOMP_DATA_ARCH {
                        arch
                    } else {
                        nr
                    }
                }
                c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => a &= insn.k,
                c if c == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => {
                    pc += if a == insn.k { insn.jt } else { insn.jf } as usize
                }
                c if c == libc::BPF_RET | libc::BPF_K => return insn.k,
                other => panic!("unexpected instruction {other:#x}"),
            }
        }
    }

    #[test]
    fn only_the_key_ring_calls_are_refused_in_either_numbering() {
        let program = key_calls_filter();
        let refused = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
        for nr in NATIVE_KEY_CALLS {
            assert_eq!(verdict(&program, arch::NATIVE, nr), refused, "{nr}");
            assert_eq!(
                verdict(&program, arch::NATIVE, nr | arch::NATIVE_FLAG_BITS),
                refused
            );
        }
        for nr in arch::COMPAT_KEY_CALLS {
            assert_eq!(verdict(&program, arch::COMPAT, nr), refused, "{nr}");
        }
        for nr in [0, 1, 59, 231, 285, 289, 400] {
            assert_eq!(verdict(&program, arch::NATIVE, nr), libc::SECCOMP_RET_ALLOW);
            assert_eq!(verdict(&program, arch::COMPAT, nr), libc::SECCOMP_RET_ALLOW);
        }
        assert_eq!(verdict(&program, 0x1234, 0), refused);
    }

    #[test]
    fn a_closed_thread_and_its_children_have_no_key_rings() {
        if !rustix::process::geteuid().is_root() {
            eprintln!("skipped: not root");
            return;
        }
        // keyctl(KEYCTL_GET_KEYRING_ID = 0, session = -3, create = 1).
        // SAFETY: no pointers passed.
        let session = || unsafe { libc::syscall(libc::SYS_keyctl, 0, -3, 1) };
        std::thread::spawn(move || {
            assert!(session() >= 0, "key rings work before");
            assert!(!already_closed());
            assert!(closed());
            let rc = session();
            assert_eq!(rc, -1);
            assert_eq!(
                io::Error::last_os_error().raw_os_error(),
                Some(libc::ENOSYS)
            );
            // What the thread starts inherits the filter.
            // SAFETY: the child makes only async-signal-safe calls.
            let child = unsafe { libc::fork() };
            if child == 0 {
                // SAFETY: as above.
                unsafe {
                    let rc = libc::syscall(libc::SYS_keyctl, 0, -3, 1);
                    let refused = rc == -1 && *libc::__errno_location() == libc::ENOSYS;
                    libc::_exit(if refused { 0 } else { 1 });
                }
            }
            let mut status = 0;
            // SAFETY: waiting for our own child.
            assert_eq!(unsafe { libc::waitpid(child, &mut status, 0) }, child);
            assert_eq!(status, 0, "the child could use a key ring");
            // And so do the threads it starts, which know it.
            std::thread::spawn(|| assert!(already_closed() && closed()))
                .join()
                .unwrap();
        })
        .join()
        .unwrap();
    }
}
