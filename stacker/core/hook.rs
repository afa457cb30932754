// SPDX-License-Identifier: GPL-2.0

//! The LSM hooks that stacker can dispatch, and sets of them.
//!
//! The names are the LSM core's hook names (`include/linux/lsm_hook_defs.h`):
//! the C glue asks for each hook by name whether the enabled chain wants it.
//! Kernel-independent: compiled into the kernel and into the host crate.

/// Declares [`Hook`] and its table of names.
macro_rules! hooks {
    ($($variant:ident => $name:literal,)*) => {
        /// One LSM hook.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u8)]
        pub(crate) enum Hook {
            $(
                #[doc = concat!("The `", $name, "` hook.")]
                $variant,
            )*
        }

        impl Hook {
            /// Every hook, in declaration order.
            pub(crate) const ALL: &'static [Hook] = &[$(Hook::$variant),*];

            /// The LSM core's name for the hook.
            pub(crate) const fn name(self) -> &'static str {
                match self {
                    $(Hook::$variant => $name,)*
                }
            }
        }
    };
}

hooks! {
    FileOpen => "file_open",
    FilePermission => "file_permission",
    MmapFile => "mmap_file",
    MmapAddr => "mmap_addr",
    FileMprotect => "file_mprotect",
    FileAllocSecurity => "file_alloc_security",
    FileFreeSecurity => "file_free_security",
    InodePermission => "inode_permission",
    InodeCreate => "inode_create",
    InodeUnlink => "inode_unlink",
    InodeRename => "inode_rename",
    InodeLink => "inode_link",
    InodeMkdir => "inode_mkdir",
    InodeRmdir => "inode_rmdir",
    InodeSetxattr => "inode_setxattr",
    InodeRemovexattr => "inode_removexattr",
    InodeInitSecurity => "inode_init_security",
    InodeAllocSecurity => "inode_alloc_security",
    InodeFreeSecurity => "inode_free_security",
    InodeFreeSecurityRcu => "inode_free_security_rcu",
    DInstantiate => "d_instantiate",
    CredAllocBlank => "cred_alloc_blank",
    CredPrepare => "cred_prepare",
    CredTransfer => "cred_transfer",
    CredFree => "cred_free",
    BprmCredsForExec => "bprm_creds_for_exec",
    BprmCredsFromFile => "bprm_creds_from_file",
    BprmCheckSecurity => "bprm_check_security",
    BprmCommittedCreds => "bprm_committed_creds",
    Capable => "capable",
    Capset => "capset",
    PtraceAccessCheck => "ptrace_access_check",
    TaskAlloc => "task_alloc",
    TaskFree => "task_free",
    TaskKill => "task_kill",
    TaskFixSetuid => "task_fix_setuid",
    TaskFixSetgid => "task_fix_setgid",
    SocketCreate => "socket_create",
    SocketConnect => "socket_connect",
    IpcPermission => "ipc_permission",
    Getprocattr => "getprocattr",
    Setprocattr => "setprocattr",
    VmEnoughMemory => "vm_enough_memory",
}

/// Number of hooks stacker knows.
pub(crate) const N_HOOKS: usize = Hook::ALL.len();

// A `HookSet` is a `u64` bitmap.
const _: () = assert!(N_HOOKS <= 64);

impl Hook {
    /// The hook with the LSM core's name `name`.
    pub(crate) fn from_name(name: &[u8]) -> Option<Hook> {
        Hook::ALL
            .iter()
            .copied()
            .find(|h| h.name().as_bytes() == name)
    }
}

/// A set of hooks: those a submodule implements.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct HookSet(u64);

impl HookSet {
    /// The set of `hooks`.
    pub(crate) const fn of(hooks: &[Hook]) -> HookSet {
        let mut bits = 0;
        let mut i = 0;
        while i < hooks.len() {
            bits |= 1 << hooks[i] as u64;
            i += 1;
        }
        HookSet(bits)
    }

    /// Whether `hook` is in the set.
    pub(crate) const fn contains(self, hook: Hook) -> bool {
        self.0 & (1 << hook as u64) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for &h in Hook::ALL {
            assert_eq!(Hook::from_name(h.name().as_bytes()), Some(h));
        }
        assert_eq!(Hook::from_name(b"no_such_hook"), None);
    }

    #[test]
    fn hook_sets() {
        let set = HookSet::of(&[Hook::FileOpen, Hook::VmEnoughMemory]);
        assert!(set.contains(Hook::FileOpen));
        assert!(set.contains(Hook::VmEnoughMemory));
        assert!(!set.contains(Hook::Capable));
        assert!(!HookSet::of(&[]).contains(Hook::FileOpen));
    }
}
