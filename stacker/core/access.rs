// SPDX-License-Identifier: GPL-2.0

//! Plain values that hooks receive or answer: the access mask, capability
//! sets, a task's command name and whether an xattr's capability check is
//! kept.
//!
//! The bit values are the kernel's ABI (`include/linux/fs.h`,
//! `include/uapi/linux/capability.h`); the kernel build checks them against
//! its bindings at compile time (`kernel/abi_check.rs`). Kernel-independent.

/// `MAY_*` bits.
pub(crate) mod may {
    /// Execute, or search a directory.
    pub(crate) const EXEC: u32 = 0x1;
    /// Write.
    pub(crate) const WRITE: u32 = 0x2;
    /// Read.
    pub(crate) const READ: u32 = 0x4;
    /// Append.
    pub(crate) const APPEND: u32 = 0x8;
    /// RCU-walk: the hook must not sleep.
    pub(crate) const NOT_BLOCK: u32 = 0x80;
}

/// The access a permission hook is asked about (`MAY_*` bits).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct AccessMask(pub(crate) u32);

impl AccessMask {
    /// Wraps the `mask` argument of a permission hook.
    pub(crate) fn from_raw(mask: i32) -> Self {
        AccessMask(mask as u32)
    }

    /// Whether execute, or search for a directory, is asked for.
    pub(crate) fn exec(self) -> bool {
        self.0 & may::EXEC != 0
    }

    /// Whether write (or append) access is asked for.
    pub(crate) fn write(self) -> bool {
        self.0 & (may::WRITE | may::APPEND) != 0
    }

    /// Whether the caller is in RCU-walk mode and must not sleep.
    pub(crate) fn non_blocking(self) -> bool {
        self.0 & may::NOT_BLOCK != 0
    }
}

/// A capability set (`kernel_cap_t`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct KernelCap(pub(crate) u64);

impl KernelCap {
    /// Whether capability `cap` is in the set.
    pub(crate) fn has(self, cap: u32) -> bool {
        cap < 64 && self.0 & (1 << cap) != 0
    }
}

/// A task's command name (`Task::comm`, NUL-padded) as text for a log
/// line.
pub(crate) fn comm_str(comm: &[u8; 16]) -> &str {
    let len = comm.iter().position(|&b| b == 0).unwrap_or(comm.len());
    core::str::from_utf8(comm.get(..len).unwrap_or(&[])).unwrap_or("?")
}

/// An answer of `inode_xattr_skipcap`: whether `setxattr(2)` and
/// `removexattr(2)` of an xattr keep the capability check that
/// `security_inode_setxattr()` and `security_inode_removexattr()` make
/// before any LSM's hook (`cap_inode_setxattr`: `CAP_SYS_ADMIN` for a
/// `security.*` name other than `security.capability`), or skip it because
/// a submodule checks that xattr fully itself, as SELinux does for
/// `security.selinux`. The skip holds for every LSM, so claim only your
/// own xattr.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CapCheck {
    /// The capability check runs (the LSM default).
    Keep,
    /// The capability check is skipped: the LSM core is told 1.
    Skip,
}

/// An answer of `inode_copy_up_xattr`: what overlayfs does with one xattr
/// of a file it copies up from a lower layer (`ovl_copy_xattr()`). The
/// first submodule that answers other than [`XattrCopyUp::NotMine`]
/// decides, as `security_inode_copy_up_xattr()` does; so claim only your
/// own xattrs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum XattrCopyUp {
    /// Not the submodule's xattr (the LSM default, `-EOPNOTSUPP`): the
    /// next one is asked, and if none claims it, overlayfs copies it.
    NotMine,
    /// Copy it up (0).
    Copy,
    /// Leave it behind (`-ECANCELED`), as EVM does with an HMAC that is
    /// bound to the lower inode, or SELinux with a label it sets itself.
    Discard,
    /// Fail the copy-up with this error.
    Abort(crate::error::Error),
}
