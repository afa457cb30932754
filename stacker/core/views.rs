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
use crate::objects::{
    AttrValue, Cred, Dentry, File, Inode, KernelCap, Sock, Superblock, Task, XattrValue,
};
use core::ffi::CStr;

/// A `struct inode`.
pub(crate) trait InodeView: HasBlob + Sync {
    /// Whether this inode is a directory.
    fn is_dir(&self) -> bool;

    /// The name of its file system's type (`s_type->name`: `ext4`,
    /// `proc`, `tmpfs`, ...).
    fn fs_type(&self) -> &[u8];

    /// Whether it is private to its file system (`IS_PRIVATE`: System V
    /// shared memory's files, other internal ones), which the LSM hooks of
    /// the VFS leave out.
    fn is_private(&self) -> bool;

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

    /// Calls `f` with the dentry's path from its file system's root
    /// (`dentry_path_raw()`: `/` for the root, `/net/rpc` below it), in a
    /// buffer of `PATH_MAX` bytes allocated here. Fails with `ENOMEM`, or
    /// `ENAMETOOLONG` for a longer path. May sleep.
    fn with_path<R>(&self, cx: &MaySleep, f: impl FnOnce(&[u8]) -> R) -> Result<R>;
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

    /// Whether the file is in append mode (`O_APPEND` in its `f_flags`,
    /// which `fcntl(F_SETFL)` may change: read once).
    fn appending(&self) -> bool;

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

/// A `struct cred`.
pub(crate) trait CredView: HasBlob + Sync {
    /// The real user id, in the initial user namespace.
    fn uid(&self) -> u32;

    /// The effective user id.
    fn euid(&self) -> u32;

    /// The real group id.
    fn gid(&self) -> u32;

    /// The effective group id.
    fn egid(&self) -> u32;

    /// The effective, permitted and inheritable capability sets.
    fn caps(&self) -> [KernelCap; 3];

    /// Calls `f` with the current task's subjective credentials, for
    /// hooks that are not passed a cred.
    fn with_current<R>(f: impl FnOnce(&Self) -> R) -> R;
}

/// A `struct task_struct`.
pub(crate) trait TaskView: HasBlob + Sync {
    /// The task's pid.
    fn pid(&self) -> i32;

    /// Calls `f` with the task's objective credentials (`__task_cred`),
    /// inside an RCU read-side critical section: `f` must not sleep, and
    /// is `Send`, so it cannot capture a sleep proof (as `RcuCell::read`).
    fn with_cred<R>(&self, f: impl FnOnce(&Cred) -> R + Send) -> R;

    /// Calls `f` with the current task's tracer (`ptrace_parent()`), or
    /// `None` when it is not traced, inside an RCU read-side critical
    /// section: `f` must not sleep, and is `Send` (as
    /// [`TaskView::with_cred`]).
    fn with_current_tracer<R>(f: impl FnOnce(Option<&Self>) -> R + Send) -> R
    where
        Self: Sized;
}

/// A `struct linux_binprm` whose new credentials are being prepared: in
/// `bprm_creds_for_exec` and `bprm_check_security`.
///
/// Not for `bprm_committed_creds`, where the credentials are gone from the
/// binprm (see [`CommittedBinprmView`]).
pub(crate) trait BinprmView: Sync {
    /// The credentials the program will run with (being prepared).
    fn cred(&self) -> &Cred;

    /// The file being executed.
    fn file(&self) -> &File;

    /// Why the exec is unsafe to change privileges (`LSM_UNSAFE_*`: the
    /// task is traced, has `no_new_privs`, shares its files), set before
    /// `bprm_creds_for_exec`.
    fn unsafe_flags(&self) -> u32;

    /// Whether the file is on a mount that allows no set-user-ID program
    /// for this task (`!mnt_may_suid()`): a `nosuid` mount, one of another
    /// mount namespace, or of a file system whose user namespace the task
    /// is not in.
    fn nosuid(&self) -> bool;

    /// Asks for a secure exec (`AT_SECURE`: the dynamic loader then
    /// ignores `LD_PRELOAD` and the like), as a domain change needs.
    fn set_secureexec(&self);

    /// Clears the personality bits that weaken the memory layout
    /// (`PER_CLEAR_ON_SETID`), as an exec into more privilege must.
    fn clear_personality_on_setid(&self);
}

/// A `struct linux_binprm` after its credentials were committed
/// (`bprm_committed_creds`): only the file. `bprm->cred` is NULL by then,
/// so there is no `cred()`; the new credentials are the current task's.
// No submodule calls it yet: the view keeps it in both models.
#[allow(dead_code)]
pub(crate) trait CommittedBinprmView: Sync {
    /// The file being executed.
    fn file(&self) -> &File;
}

/// New credentials that are prepared but not yet committed, so private to
/// the task (`bprm_creds_from_file`, `task_fix_setuid`, `task_fix_setgid`,
/// `task_fix_setgroups`): readable, and their capability sets can only
/// shrink.
pub(crate) trait PreparedCredView<'a> {
    /// The new credentials, to read (ids, sets, blob state).
    fn cred(&self) -> &'a Cred;

    /// Removes the capabilities in `mask` from the new credentials'
    /// permitted, effective, inheritable and ambient sets.
    fn drop_caps(&self, mask: u64);
}

/// New credentials for the current task, made by `prepare_creds()` from
/// its own, to change and install (`commit_creds`); dropped uninstalled,
/// they are released (`abort_creds`).
pub(crate) trait NewCredView: Sync {
    /// A private copy of the current task's credentials (the LSM
    /// `cred_prepare` hooks run on it). Allocates: may sleep.
    fn prepare(cx: &MaySleep) -> Result<Self>
    where
        Self: Sized;

    /// The new credentials, private to this value until committed.
    fn cred(&self) -> &Cred;

    /// Installs the new credentials as the current task's.
    fn commit(self);
}

/// A `struct super_block`: a mounted (or mounting) file system.
// No submodule calls it yet: the view keeps it in both models.
#[allow(dead_code)]
pub(crate) trait SuperblockView: HasBlob + Sync {
    /// The file system's magic number (`*_MAGIC`, as in `statfs(2)`); 0 in
    /// `sb_alloc_security`, which runs before the file system sets it.
    fn magic(&self) -> u64;

    /// The name of its file system's type (`s_type->name`), as
    /// [`InodeView::fs_type`].
    fn fs_type(&self) -> &[u8];
}

/// A `struct path`: a mount and a dentry in it.
pub(crate) trait PathView: Sync {
    /// The dentry.
    fn dentry(&self) -> &Dentry;
}

/// A `struct vfsmount`: one mount of a file system.
pub(crate) trait VfsmountView: Sync {
    /// The mounted file system.
    fn superblock(&self) -> &Superblock;
}

/// A `struct iattr`: the attribute changes of a `setattr`.
pub(crate) trait IattrView: Sync {
    /// Which attributes change (`ATTR_*` bits).
    fn valid(&self) -> u32;

    /// The new mode, meaningful with `ATTR_MODE`.
    // No submodule calls it yet: the view keeps it in both models.
    #[allow(dead_code)]
    fn mode(&self) -> u16;
}

/// A `struct msg_msg`: one System V message. Not for its alloc and free
/// hooks, which get a `MsgMsgSecurity`.
// No submodule calls it yet: the view keeps it in both models.
#[allow(dead_code)]
pub(crate) trait MsgMsgView: HasBlob + Sync {
    /// The message type (`mtype`).
    fn mtype(&self) -> i64;
}

/// A `struct key`.
// No submodule calls it yet: the view keeps it in both models.
#[allow(dead_code)]
pub(crate) trait KeyView: HasBlob + Sync {
    /// The key's serial number (0 in `key_alloc`: it is assigned after).
    fn serial(&self) -> i32;
}

/// A `struct socket`.
pub(crate) trait SocketView: Sync {
    /// The socket's `struct sock`: `None` before the protocol set it up
    /// (the new socket of `socket_accept`).
    fn sock(&self) -> Option<&Sock>;

    /// The socket's inode, in sockfs. Only for a socket that
    /// `sock_alloc()` made, as every socket the socket layer's hooks
    /// (`socket_post_create`, `socket_accept`) are given is; not for the
    /// sockets some drivers embed (tun, tap).
    fn inode(&self) -> &Inode;
}

/// A `struct sock`: the network layer's half of a socket. Not for its
/// alloc and free hooks, which get a `SockSecurity`.
pub(crate) trait SockView: HasBlob + Sync {
    /// The address family (`AF_*`).
    fn family(&self) -> u16;

    /// The socket type (`SOCK_*`) and protocol.
    fn type_and_protocol(&self) -> (u16, u16);
}

/// A `struct vm_area_struct`.
pub(crate) trait VmaView: Sync {
    /// The file mapped by this area, if any.
    fn file(&self) -> Option<&File>;

    /// Whether the area is mapped executable now (`VM_EXEC`).
    fn executable(&self) -> bool;

    /// Whether the area is a shared mapping (`VM_SHARED`): writes reach
    /// the file.
    fn shared(&self) -> bool;

    /// What the area's memory is, for what making it executable means.
    fn memory(&self) -> VmaMemory;
}

/// What an area's memory is, as SELinux's `selinux_file_mprotect()` tells
/// it apart when a task makes it executable: the first that holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum VmaMemory {
    /// None of the others.
    Other,
    /// Within the process's initial heap (`brk`).
    Heap,
    /// An anonymous area that is a stack: the process's first, or the
    /// calling thread's.
    Stack,
    /// A file mapping whose private pages were written (copy-on-write:
    /// it has an `anon_vma`), as text relocations do.
    WrittenFile,
}

/// The address an `mmap_addr` hook is asked about.
pub(crate) trait MmapAddrView: Copy {
    /// The address.
    // No submodule calls it yet: the view keeps it in both models.
    #[allow(dead_code)]
    fn addr(self) -> u64;

    /// Whether the address is below `vm.mmap_min_addr`: where the
    /// capability module asks for `CAP_SYS_RAWIO`.
    fn below_min(self) -> bool;
}

/// A value a submodule builds for a reader: of `/proc/PID/attr/NAME`
/// (`getprocattr`, and `lsm_get_self_attr(2)` through it), of a
/// `security.*` xattr (`inode_getsecurity`), or a peer label
/// (`socket_getpeersec_stream`).
pub(crate) trait AttrValueView: Default {
    /// Appends bytes to the value. Allocates (`GFP_KERNEL`): may sleep,
    /// so it demands the proof.
    fn push_bytes(&mut self, cx: &MaySleep, bytes: &[u8]) -> Result;
}

/// The text of a label, for the LSM core's `struct lsm_context`
/// (`secid_to_secctx`, `lsmprop_to_secctx`). Audit asks for it from any
/// context, atomic ones included, so it demands no proof.
pub(crate) trait SecCtxView: Default {
    /// Appends bytes to the text. Does not sleep (`GFP_ATOMIC`).
    fn push_bytes(&mut self, bytes: &[u8]) -> Result;
}

/// A write to `/proc/self/attr/NAME` (`setprocattr`).
pub(crate) trait ProcAttrWriteView {
    /// The attribute's name (`NAME`).
    fn name(&self) -> &[u8];

    /// The value written.
    fn value(&self) -> &[u8];

    /// Hands the write, unchanged, to the LSMs registered after stacker, in
    /// the LSM core's order; the first answer that is not `EINVAL` decides.
    /// `EINVAL` when none answers.
    ///
    /// Takes the write by value: an LSM may change the buffer in place
    /// (SELinux strips a trailing newline), so no borrow of
    /// [`ProcAttrWriteView::value`] may live across this call.
    fn forward(self) -> Result<usize>;
}

/// The list of `security.*` xattr names that `listxattr(2)` is filling
/// (`inode_listsecurity`).
pub(crate) trait XattrNamesView {
    /// Adds the xattr name `name` (in full: `security.NAME`); `ERANGE`
    /// when it does not fit.
    fn push(&mut self, name: &CStr) -> Result;
}

/// A security xattr for a new inode (`inode_init_security`).
pub(crate) trait XattrValueView {
    /// Builds an xattr named `security.` and `name`, copying `value`.
    /// Does not sleep: `inode_init_security` runs with file system locks
    /// held.
    fn new(name: &'static CStr, value: &[u8]) -> Result<Self>
    where
        Self: Sized;
}

/// The LSM xattr slots of one `inode_init_security` call.
pub(crate) trait XattrSlotsView {
    /// Fills the next slot with `xattr`; `ENOSPC` when stacker's slots are
    /// full.
    fn push(&mut self, xattr: XattrValue) -> Result;
}

// The free functions of the view API, with the signature each model must
// give them.

// Whether the current task has `CAP_SYS_ADMIN` in the initial user
// namespace (`capable()`). May sleep.
const _: fn() -> bool = crate::objects::current_has_sys_admin;

// Whether the current task is its process's only thread.
const _: fn() -> bool = crate::objects::current_is_single_threaded;

// `getprocattr` asked of the LSMs registered after stacker, in order.
const _: fn(&MaySleep, &Task, &CStr, &mut AttrValue) -> Result =
    crate::objects::forward_getprocattr;
