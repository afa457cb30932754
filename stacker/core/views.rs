// SPDX-License-Identifier: GPL-2.0

//! The object views submodules program against: one trait per view.
//!
//! A hook gets borrowed, typed views of the kernel objects it is passed
//! (`&Inode`, `&File`, `&Cred`, ...). Two models implement them: the
//! kernel's wrappers of the C objects (`stacker/kernel/objects/`) and the
//! host's in-memory objects (`stacker/host/objects.rs`), which `cargo test`
//! runs the same submodule code against. Each trait here lists the methods
//! that portable code (the core and the submodules) may call on one view,
//! and both models implement it: a method added here that one model lacks,
//! or implements with another signature, fails the build of that model,
//! whichever model is built.
//!
//! The types in the signatures are each model's own (`crate::objects::Inode`
//! is the kernel's wrapper in the kernel and the in-memory inode on the
//! host). What only one model has stays an inherent method of its type:
//! the kernel's constructors from C pointers (`from_raw`) and accessors the
//! kernel-only code uses, the host's constructors and the fields its tests
//! set.
//!
//! Views whose whole API is their blob (`FileSecurity`, `SockSecurity`,
//! `MsgMsgSecurity`, `IpcPerm`, `InodeBlob`) need no trait: [`HasBlob`]
//! is theirs. The few free functions of the view API are checked by their
//! signatures at the bottom of this file.
//!
//! Static dispatch only: a method call on a view is a call of the model's
//! method, as before, and the kernel model keeps its inline attributes.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::blob::HasBlob;
use crate::context::MaySleep;
use crate::error::Result;
use crate::objects::{Dentry, Inode};
use core::ffi::CStr;

/// A `struct inode`.
pub(crate) trait InodeView: HasBlob + Sync {
    /// Whether this inode is a directory.
    fn is_dir(&self) -> bool;

    /// The inode number.
    fn ino(&self) -> u64;

    /// The inode's mode: file type and permission bits.
    fn mode(&self) -> u16;

    /// Whether this inode is a regular file.
    fn is_reg(&self) -> bool;

    /// The owner, in the initial user namespace.
    fn uid(&self) -> u32;

    /// The group, in the initial user namespace.
    fn gid(&self) -> u32;

    /// `i_generation`, as `FS_IOC_GETVERSION` reports it.
    fn generation(&self) -> u32;

    /// The UUID of the inode's file system (`s_uuid`; zero when it has
    /// none).
    fn fs_uuid(&self) -> [u8; 16];

    /// How many open files may write to the inode (`i_writecount`; an
    /// executing file makes it negative).
    fn writers(&self) -> i32;

    /// Whether the inode's file system is a pseudo file system whose
    /// files are views of kernel state (procfs, sysfs, securityfs, cgroup,
    /// ...: `abi::PSEUDO_FS_MAGICS`): reading one to hash it may block or
    /// give new contents every time.
    fn on_pseudo_fs(&self) -> bool;

    /// Whether the inode's file system keeps file contents: a block-device
    /// file system (`FS_REQUIRES_DEV`), tmpfs or ramfs
    /// (`abi::MEMORY_FS_MAGICS`); not a pseudo file system, whose reads
    /// may block or change on every read.
    fn on_content_fs(&self) -> bool;

    /// Calls `f` with one of the inode's dentries, or returns `None` when
    /// the inode has none.
    ///
    /// Takes and drops a dentry reference, which may sleep: not for
    /// RCU-walk mode (`MAY_NOT_BLOCK`).
    fn with_alias<R>(&self, cx: &MaySleep, f: impl FnOnce(&Dentry) -> R) -> Option<R>;

    /// Whether the inode's file system has finished mounting (`SB_BORN`).
    /// While a file system sets itself up (`fill_super`), its inodes may
    /// not answer `getxattr` yet (overlayfs's root has no layers then).
    fn fs_ready(&self) -> bool;
}

/// A `struct dentry`.
pub(crate) trait DentryView: Sync {
    /// Reads extended attribute `name` of `inode`, reached through this
    /// dentry, into `buf`; returns its length, as [`FileView::getxattr`].
    /// The inode is explicit because the dentry may not have it yet: in
    /// `d_instantiate` the dentry is still negative (`d_inode` is set only
    /// after the hook), and a read through `d_inode` would find no xattr
    /// at all. May sleep.
    fn getxattr_of(
        &self,
        cx: &MaySleep,
        inode: &Inode,
        name: &CStr,
        buf: &mut [u8],
    ) -> Result<usize>;

    /// The inode, or `None` for a negative dentry.
    fn inode(&self) -> Option<&Inode>;

    /// Calls `f` with a stable copy of the dentry's name.
    ///
    /// A dentry may be renamed at any time; the snapshot taken here stays
    /// valid until `f` returns. Taking it does not sleep.
    fn with_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R;
}

/// A `struct file` that is open: its path, dentry and inode are set.
///
/// Not for `file_alloc_security` and `file_free_security`, which get a
/// `FileSecurity`.
pub(crate) trait FileView: HasBlob + Sync {
    /// The dentry the file was opened through.
    fn dentry(&self) -> &Dentry;

    /// Reads extended attribute `name` of the file into `buf`; returns its
    /// length. Fails with `ENODATA` when it is not set, `ERANGE` when it is
    /// longer than `buf`. May sleep.
    fn getxattr(&self, cx: &MaySleep, name: &CStr, buf: &mut [u8]) -> Result<usize>;

    /// The file's inode.
    fn inode(&self) -> &Inode;

    /// Whether the file was opened for reading.
    fn readable(&self) -> bool;

    /// Whether the file was opened for writing.
    fn writable(&self) -> bool;

    /// Whether the file's pages are mapped writable and shared somewhere
    /// (`mapping_writably_mapped`): its contents may change with no hook
    /// seeing it.
    fn writably_mapped(&self) -> bool;

    /// The file's absolute path (`d_absolute_path`, which a chroot does
    /// not shorten), written at the end of `buf`; `None` when it does not
    /// fit or the file is not reachable from the root (a detached mount).
    /// Takes locks: not for RCU-walk mode.
    fn absolute_path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]>;

    /// The file's path as `d_path` gives it (from the caller's root),
    /// written at the end of `buf`; `None` when it does not fit or the
    /// file has none. Takes locks: not for RCU-walk mode.
    fn path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]>;
}
