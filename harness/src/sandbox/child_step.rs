//! The steps a sandboxed child takes between `clone` and `exec`, in the
//! order it takes them. A child that fails one writes its number and
//! `errno` to the report pipe; the parent names it in the error.

/// `Ok` if a call of `step` is `done`, else `step` as the one that failed
/// (errno is left as the failed call set it).
pub(crate) fn checked(done: bool, step: ChildStep) -> Result<(), ChildStep> {
    if done { Ok(()) } else { Err(step) }
}

/// One setup step of the child (see `child.rs` for what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ChildStep {
    NewSession,
    ResetSignalMask,
    MapUser,
    JoinNetwork,
    JoinCgroup,
    PrivateMounts,
    PreparedRoot,
    BuildView,
    MountProc,
    ReadOnly,
    EnterRoot,
    Redirect,
    EnterWorkdir,
    Limits,
    DropPrivileges,
    OwnUserNamespace,
    SessionKeyRing,
    ParentDeathSignal,
    SyscallFilter,
    Exec,
}

impl ChildStep {
    /// Every step, indexed by its number.
    const ALL: [ChildStep; 20] = [
        ChildStep::NewSession,
        ChildStep::ResetSignalMask,
        ChildStep::MapUser,
        ChildStep::JoinNetwork,
        ChildStep::JoinCgroup,
        ChildStep::PrivateMounts,
        ChildStep::PreparedRoot,
        ChildStep::BuildView,
        ChildStep::MountProc,
        ChildStep::ReadOnly,
        ChildStep::EnterRoot,
        ChildStep::Redirect,
        ChildStep::EnterWorkdir,
        ChildStep::Limits,
        ChildStep::DropPrivileges,
        ChildStep::OwnUserNamespace,
        ChildStep::SessionKeyRing,
        ChildStep::ParentDeathSignal,
        ChildStep::SyscallFilter,
        ChildStep::Exec,
    ];

    /// The step a report byte names (`None` for a byte no child writes).
    pub(crate) fn from_byte(byte: u8) -> Option<ChildStep> {
        ChildStep::ALL.get(usize::from(byte)).copied()
    }

    /// What the step does, for error messages.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            ChildStep::NewSession => "start a new session",
            ChildStep::ResetSignalMask => "reset the signal mask",
            ChildStep::MapUser => "map the user namespace",
            ChildStep::JoinNetwork => "join the network namespace",
            ChildStep::JoinCgroup => "join the cgroup",
            ChildStep::PrivateMounts => "make mounts private",
            ChildStep::PreparedRoot => "enter the worker's prepared root",
            ChildStep::BuildView => "build the private view",
            ChildStep::MountProc => "mount /proc",
            ChildStep::ReadOnly => "make the filesystem read-only",
            ChildStep::EnterRoot => "enter the private root",
            ChildStep::Redirect => "redirect stdin, stdout and stderr",
            ChildStep::EnterWorkdir => "enter the working folder",
            ChildStep::Limits => "set resource limits",
            ChildStep::DropPrivileges => "drop privileges",
            ChildStep::OwnUserNamespace => "enter a user namespace of its own",
            ChildStep::SessionKeyRing => "join a new session key ring",
            ChildStep::ParentDeathSignal => "set the parent-death signal",
            ChildStep::SyscallFilter => "install the system call filter",
            ChildStep::Exec => "execute the program",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ChildStep;

    #[test]
    fn every_step_is_found_by_its_own_number() {
        for (number, step) in ChildStep::ALL.iter().enumerate() {
            assert_eq!(*step as usize, number, "{step:?}");
            assert_eq!(ChildStep::from_byte(*step as u8), Some(*step));
        }
        assert_eq!(ChildStep::from_byte(ChildStep::ALL.len() as u8), None);
    }
}
