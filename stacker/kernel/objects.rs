// SPDX-License-Identifier: GPL-2.0

//! Typed, borrowed views of the kernel objects that hooks receive.
//!
//! rust/kernel has no inode, dentry, binprm or IPC abstraction, and its
//! `File` and `Credential` do not expose the security blob, so stacker keeps
//! thin `#[repr(transparent)]` wrappers here. A hook gets `&File`, `&Inode`
//! and so on; the borrow lasts for the hook call. The host crate has an
//! in-memory model with the same names and methods (`host/objects.rs`).
//!
//! # Hook views
//!
//! Some hooks see an object before it is fully built or after it is half
//! torn down. Those hooks get a narrower view whose methods reach only what
//! is valid there, so that no safe method can read a NULL or stale pointer:
//!
//! - [`FileSecurity`] (`file_alloc_security`, `file_free_security`): only
//!   the file's blob. `file_alloc_security` runs before `f_path` is set, and
//!   `file_free_security` also runs for a file whose open failed, so there
//!   is no dentry or inode to reach;
//! - [`CommittedBinprm`] (`bprm_committed_creds`): only the file;
//!   `bprm->cred` is NULL by then (it was committed);
//! - [`PreparedCred`] (`bprm_creds_from_file`): the new credentials of an exec,
//!   still private to it, and the one write allowed there:
//!   [`PreparedCred::drop_caps`];
//! - [`InodeBlob`] (`inode_free_security_rcu`): the blob of an inode that is
//!   gone; submodules receive only their own state in it.
//!
//! C headers: [`include/linux/fs.h`](srctree/include/linux/fs.h),
//! [`include/linux/dcache.h`](srctree/include/linux/dcache.h),
//! [`include/linux/cred.h`](srctree/include/linux/cred.h),
//! [`include/linux/lsm_hooks.h`](srctree/include/linux/lsm_hooks.h)

use crate::blob::HasBlob;
use crate::context::MaySleep;
use crate::layout::ObjectKind;
use crate::submodule::Submodule;
use core::{ffi::CStr, marker::PhantomData, mem::MaybeUninit};
use kernel::{
    alloc::{flags::GFP_NOWAIT, KVec},
    bindings,
    ffi::{c_char, c_int, c_ulong, c_void},
    prelude::*,
    types::Opaque,
};

/// Declares a transparent wrapper of a C object that hooks receive.
macro_rules! wrapper {
    ($(#[$doc:meta])* $name:ident => $c:ty) => {
        $(#[$doc])*
        ///
        /// # Invariants
        ///
        /// The wrapped C object is valid for as long as it is borrowed.
        #[repr(transparent)]
        pub(crate) struct $name(Opaque<$c>);

        impl $name {
            /// Borrows a C object passed in by the LSM core.
            ///
            /// # Safety
            ///
            /// `ptr` must point to a valid object that stays valid for `'a`.
            #[inline(always)]
            pub(crate) unsafe fn from_raw<'a>(ptr: *const $c) -> &'a $name {
                // SAFETY: the wrapper is `repr(transparent)` over the C
                // object, and the caller promises validity for `'a`.
                // INVARIANT: as promised by the caller.
                unsafe { &*ptr.cast::<$name>() }
            }

            /// Borrows a C object passed in by the LSM core that may be
            /// null: `None` then.
            ///
            /// # Safety
            ///
            /// `ptr` must be null or point to a valid object that stays
            /// valid for `'a`.
            #[inline(always)]
            pub(crate) unsafe fn from_raw_opt<'a>(ptr: *const $c) -> Option<&'a $name> {
                // SAFETY: a non-null `ptr` is valid for `'a`, as the caller
                // promises.
                (!ptr.is_null()).then(|| unsafe { Self::from_raw(ptr) })
            }

            /// The C object.
            #[inline(always)]
            pub(crate) fn as_raw(&self) -> *mut $c {
                self.0.get()
            }
        }
    };
}

/// The C string at `ptr`, as a [`CStr`].
///
/// Unlike `CStr::from_char_ptr`, this has no overflow check, so no panic
/// path on a hook path: a string's length plus its NUL cannot overflow.
///
/// # Safety
///
/// `ptr` must point to a NUL-terminated string that stays valid and
/// unchanged for `'a`.
pub(crate) unsafe fn c_str<'a>(ptr: *const c_char) -> &'a CStr {
    // SAFETY: `ptr` is a NUL-terminated string, as the caller promises.
    let len = unsafe { bindings::strlen(ptr) };
    // SAFETY: the `len` bytes of the string and its NUL are readable for
    // `'a`.
    let bytes = unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len.wrapping_add(1)) };
    // SAFETY: `bytes` ends with the string's NUL and has no other.
    unsafe { CStr::from_bytes_with_nul_unchecked(bytes) }
}

/// The C string at `ptr` as bytes, without its NUL (and without a panic
/// path, unlike `CStr::to_bytes`).
///
/// # Safety
///
/// As for [`c_str`].
pub(crate) unsafe fn c_bytes<'a>(ptr: *const c_char) -> &'a [u8] {
    // SAFETY: as the caller promises.
    let s = unsafe { c_str(ptr) };
    // `c_str` ends the slice with the NUL, so `split_last` always finds it.
    s.to_bytes_with_nul()
        .split_last()
        .map_or(&[], |(_, bytes)| bytes)
}

/// The C string at `ptr` as bytes, as [`c_bytes`]; `None` when `ptr` is
/// null.
///
/// # Safety
///
/// `ptr` must be null or valid as for [`c_str`].
pub(crate) unsafe fn c_bytes_opt<'a>(ptr: *const c_char) -> Option<&'a [u8]> {
    // SAFETY: a non-null `ptr` is valid, as the caller promises.
    (!ptr.is_null()).then(|| unsafe { c_bytes(ptr) })
}

/// The `len` bytes at `ptr`; empty when `ptr` is null or `len` is 0.
///
/// # Safety
///
/// A non-null `ptr` must point to `len` readable bytes that stay valid and
/// unchanged for `'a`.
pub(crate) unsafe fn c_slice<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: promised by the caller.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// A socket address argument (`struct sockaddr *`, `int addrlen`) as bytes;
/// empty when it is null or its length is not positive.
///
/// # Safety
///
/// As for [`c_slice`], with `addrlen` bytes at `address`.
pub(crate) unsafe fn sockaddr_bytes<'a>(
    address: *mut bindings::sockaddr,
    addrlen: c_int,
) -> &'a [u8] {
    let len = usize::try_from(addrlen).unwrap_or(0);
    // SAFETY: promised by the caller.
    unsafe { c_slice(address.cast::<u8>().cast_const(), len) }
}

/// Implements [`HasBlob`] for a wrapper whose blob is `(*ptr).$field`.
macro_rules! has_blob {
    ($name:ident, $kind:ident, $state:ident, |$p:ident| $blob:expr) => {
        impl HasBlob for $name {
            const KIND: ObjectKind = ObjectKind::$kind;
            type State<M: Submodule> = M::$state;

            #[inline(always)]
            fn blob(&self) -> *mut u8 {
                let $p = self.as_raw();
                // SAFETY: the object is valid by the type invariant; its
                // blob pointer is set by the LSM core when it is allocated.
                unsafe { $blob }.cast::<u8>()
            }
        }
    };
}

wrapper!(
    /// A `struct file` that is open: its path, dentry and inode are set.
    ///
    /// Not for `file_alloc_security` and `file_free_security`, which get a
    /// [`FileSecurity`].
    File => bindings::file
);
has_blob!(File, File, FileState, |p| (*p).f_security);

wrapper!(
    /// A `struct file` in `file_alloc_security` or `file_free_security`:
    /// only its security blob.
    ///
    /// `file_alloc_security` runs before the file's path is set, and
    /// `file_free_security` also runs for a file whose open failed, so this
    /// view has no `dentry()`, `inode()` or `getxattr()`: there may be no
    /// dentry or inode to reach. A submodule sets up or releases its file
    /// state here, which [`File`] shows in the other file hooks.
    FileSecurity => bindings::file
);
has_blob!(FileSecurity, File, FileState, |p| (*p).f_security);

impl File {
    /// The dentry the file was opened through.
    pub(crate) fn dentry(&self) -> &Dentry {
        // SAFETY: an open file holds a reference on its `f_path.dentry`,
        // which therefore outlives `&self`.
        unsafe { Dentry::from_raw((*self.as_raw()).__bindgen_anon_1.f_path.dentry) }
    }

    /// Reads extended attribute `name` of the file into `buf`; returns its
    /// length. Fails with `ENODATA` when it is not set, `ERANGE` when it is
    /// longer than `buf`. May sleep.
    pub(crate) fn getxattr(&self, cx: &MaySleep, name: &CStr, buf: &mut [u8]) -> Result<usize> {
        self.dentry().getxattr_of(cx, self.inode(), name, buf)
    }

    /// The file's inode.
    pub(crate) fn inode(&self) -> &Inode {
        // SAFETY: `f_inode` is set for every file and pinned by it.
        unsafe { Inode::from_raw((*self.as_raw()).f_inode) }
    }

    /// The file's `f_mode`.
    fn mode(&self) -> u32 {
        // SAFETY: the file is valid; the `FMODE_READ`/`FMODE_WRITE` bits
        // are set at open and fixed.
        unsafe { (*self.as_raw()).f_mode }
    }

    /// Whether the file was opened for reading.
    pub(crate) fn readable(&self) -> bool {
        self.mode() & FMODE_READ != 0
    }

    /// Whether the file was opened for writing.
    pub(crate) fn writable(&self) -> bool {
        self.mode() & FMODE_WRITE != 0
    }

    /// Whether the file's pages are mapped writable and shared somewhere
    /// (`mapping_writably_mapped`): its contents may change with no hook
    /// seeing it.
    pub(crate) fn writably_mapped(&self) -> bool {
        // SAFETY: an open file's `f_mapping` is set at open and valid while
        // it is open.
        let mapping = unsafe { (*self.as_raw()).f_mapping };
        let count = {
            // SAFETY: `mapping` is valid (above); `i_mmap_writable` is an
            // `atomic_t`, read once as C's `atomic_read` does.
            unsafe { core::ptr::addr_of!((*mapping).i_mmap_writable.counter).read_volatile() }
        };
        count > 0
    }

    /// The file's absolute path (`d_absolute_path`, which a chroot does
    /// not shorten), written at the end of `buf`; `None` when it does not
    /// fit or the file is not reachable from the root (a detached mount).
    /// Takes locks: not for RCU-walk mode.
    pub(crate) fn absolute_path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]> {
        let len = i32::try_from(buf.len()).ok()?;
        // SAFETY: the file is open, so its `f_path` is valid; `buf` is
        // writable for `len` bytes.
        let p = unsafe {
            bindings::d_absolute_path(
                core::ptr::addr_of!((*self.as_raw()).__bindgen_anon_1.f_path),
                buf.as_mut_ptr().cast(),
                len,
            )
        };
        path_at(p, buf)
    }

    /// The file's path as `d_path` gives it (from the caller's root),
    /// written at the end of `buf`; `None` when it does not fit or the
    /// file has none. May not be called in RCU-walk mode: takes locks.
    pub(crate) fn path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]> {
        let len = i32::try_from(buf.len()).ok()?;
        // SAFETY: the file is open, so its `f_path` is valid; `buf` is
        // writable for `len` bytes.
        let p = unsafe { bindings::file_path(self.as_raw(), buf.as_mut_ptr().cast(), len) };
        path_at(p, buf)
    }
}

wrapper!(
    /// A `struct dentry`.
    Dentry => bindings::dentry
);

impl Dentry {
    /// Reads extended attribute `name` of `inode`, reached through this
    /// dentry, into `buf`; returns its length, as [`File::getxattr`]. The
    /// inode is explicit because the dentry may not have it yet: in
    /// `d_instantiate` the dentry is still negative (`d_inode` is set only
    /// after the hook), and a read through `d_inode` would find no xattr
    /// at all. May sleep.
    pub(crate) fn getxattr_of(
        &self,
        _cx: &MaySleep,
        inode: &Inode,
        name: &CStr,
        buf: &mut [u8],
    ) -> Result<usize> {
        // SAFETY: the caller holds the dentry and `inode`; `buf` is
        // writable for its length; `__vfs_getxattr` does no permission
        // check, which is what a security module reading its own label
        // wants.
        let n = unsafe {
            bindings::__vfs_getxattr(
                self.as_raw(),
                inode.as_raw(),
                name.as_char_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        if n < 0 {
            return Err(Error::from_errno(n as c_int));
        }
        Ok(n as usize)
    }

    /// The inode, or `None` for a negative dentry.
    pub(crate) fn inode(&self) -> Option<&Inode> {
        // SAFETY: the dentry is valid; a positive dentry pins its inode. One
        // volatile read, as C's `READ_ONCE`: in an RCU-walk lookup
        // (`inode_follow_link` with `rcu`) the dentry may change meanwhile.
        let inode = unsafe { core::ptr::addr_of!((*self.as_raw()).d_inode).read_volatile() };
        // SAFETY: non-null `d_inode` is a valid inode for the borrow.
        (!inode.is_null()).then(|| unsafe { Inode::from_raw(inode) })
    }

    /// Calls `f` with a stable copy of the dentry's name.
    ///
    /// A dentry may be renamed at any time; the snapshot taken here stays
    /// valid until `f` returns. Taking it does not sleep.
    pub(crate) fn with_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        let mut snapshot = MaybeUninit::<bindings::name_snapshot>::uninit();
        let snapshot = snapshot.as_mut_ptr();
        // SAFETY: the dentry is valid by the type invariant, and `snapshot`
        // is storage that does not move until it is released below (the
        // snapshot may point into itself).
        unsafe { bindings::take_dentry_name_snapshot(snapshot, self.as_raw()) };
        // SAFETY: the snapshot was initialised just above.
        let qstr = unsafe { &(*snapshot).name };
        // SAFETY: the snapshot's `name` points to `len` readable bytes until
        // it is released below.
        let name = unsafe {
            core::slice::from_raw_parts(
                qstr.name,
                qstr.__bindgen_anon_1.__bindgen_anon_1.len as usize,
            )
        };
        let result = f(name);
        // SAFETY: the snapshot was taken above and `name` is no longer used.
        unsafe { bindings::release_dentry_name_snapshot(snapshot) };
        result
    }
}

wrapper!(
    /// A `struct inode`.
    Inode => bindings::inode
);
has_blob!(Inode, Inode, InodeState, |p| (*p).i_security);

impl Inode {
    /// Whether this inode is a directory.
    pub(crate) fn is_dir(&self) -> bool {
        // SAFETY: the inode is valid; its file type never changes.
        let mode = u32::from(unsafe { (*self.as_raw()).i_mode });
        mode & bindings::S_IFMT == bindings::S_IFDIR
    }

    /// The inode number.
    pub(crate) fn ino(&self) -> u64 {
        // SAFETY: the inode is valid; `i_ino` is fixed once it is hashed.
        unsafe { (*self.as_raw()).i_ino }
    }

    /// The inode's mode: file type and permission bits.
    pub(crate) fn mode(&self) -> u16 {
        // SAFETY: the inode is valid; a racing `chmod` gives the old or
        // the new mode (an aligned 16-bit load).
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_mode).read_volatile() }
    }

    /// Whether this inode is a regular file.
    pub(crate) fn is_reg(&self) -> bool {
        u32::from(self.mode()) & bindings::S_IFMT == bindings::S_IFREG
    }

    /// The owner, in the initial user namespace.
    pub(crate) fn uid(&self) -> u32 {
        // SAFETY: the inode is valid; a racing `chown` gives the old or
        // the new owner (an aligned 32-bit load).
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_uid.val).read_volatile() }
    }

    /// The group, in the initial user namespace.
    pub(crate) fn gid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_gid.val).read_volatile() }
    }

    /// `i_generation`, as `FS_IOC_GETVERSION` reports it.
    pub(crate) fn generation(&self) -> u32 {
        // SAFETY: the inode is valid; the generation is set when it is
        // made and fixed.
        unsafe { (*self.as_raw()).i_generation }
    }

    /// The inode's superblock.
    fn sb(&self) -> *mut bindings::super_block {
        // SAFETY: the inode is valid; `i_sb` is set when it is allocated
        // and fixed for its life, and the superblock outlives it.
        unsafe { (*self.as_raw()).i_sb }
    }

    /// The UUID of the inode's file system (`s_uuid`; zero when it has
    /// none).
    pub(crate) fn fs_uuid(&self) -> [u8; 16] {
        // SAFETY: `sb()` is valid; `s_uuid` is set while mounting, before
        // the file system's inodes are reachable, and then fixed.
        unsafe { (*self.sb()).s_uuid.b }
    }

    /// How many open files may write to the inode (`i_writecount`; an
    /// executing file makes it negative).
    pub(crate) fn writers(&self) -> i32 {
        // SAFETY: the inode is valid; `i_writecount` is an `atomic_t`, read
        // once as C's `atomic_read` does.
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_writecount.counter).read_volatile() }
    }

    /// Whether the inode's file system is a pseudo file system whose
    /// files are views of kernel state (procfs, sysfs, securityfs, cgroup,
    /// ...): reading one to hash it may block or give new contents every
    /// time.
    pub(crate) fn on_pseudo_fs(&self) -> bool {
        // SAFETY: `sb()` is valid; `s_magic` is set before the
        // superblock's inodes are reachable and then fixed.
        let magic = unsafe { (*self.sb()).s_magic } as u64;
        crate::abi::PSEUDO_FS_MAGICS.contains(&magic)
    }

    /// Whether the inode's file system keeps file contents: a block-device
    /// file system (`FS_REQUIRES_DEV`), tmpfs or ramfs; not a pseudo file
    /// system (procfs, sysfs, securityfs, ...), whose reads may block or
    /// change on every read.
    pub(crate) fn on_content_fs(&self) -> bool {
        let sb = self.sb();
        // SAFETY: `sb` is valid (see `sb()`); `s_type` is set before it is
        // mounted and then fixed.
        let fs_type = unsafe { (*sb).s_type };
        // SAFETY: a file system type outlives its superblocks; `fs_flags`
        // is constant.
        let fs_flags = unsafe { (*fs_type).fs_flags };
        let requires_dev = fs_flags & bindings::FS_REQUIRES_DEV as i32 != 0;
        // SAFETY: `s_magic` is set before the superblock's inodes are
        // reachable and then fixed.
        let magic = unsafe { (*sb).s_magic } as u64;
        requires_dev || crate::abi::MEMORY_FS_MAGICS.contains(&magic)
    }

    /// Calls `f` with the name of one of the inode's dentries, or returns
    /// `None` when the inode has none.
    ///
    /// Takes and drops a dentry reference, which may sleep: not for
    /// RCU-walk mode (`MAY_NOT_BLOCK`).
    pub(crate) fn with_alias_name<R>(
        &self,
        cx: &MaySleep,
        f: impl FnOnce(&[u8]) -> R,
    ) -> Option<R> {
        self.with_alias(cx, |dentry| dentry.with_name(f))
    }

    /// Calls `f` with one of the inode's dentries, or returns `None` when
    /// the inode has none.
    ///
    /// Takes and drops a dentry reference, which may sleep: not for
    /// RCU-walk mode (`MAY_NOT_BLOCK`).
    pub(crate) fn with_alias<R>(&self, _cx: &MaySleep, f: impl FnOnce(&Dentry) -> R) -> Option<R> {
        // SAFETY: the inode is valid by the type invariant.
        let alias = unsafe { bindings::d_find_alias(self.as_raw()) };
        if alias.is_null() {
            return None;
        }
        // SAFETY: `d_find_alias` returned a referenced dentry, valid until
        // the `dput` below.
        let result = f(unsafe { Dentry::from_raw(alias) });
        // SAFETY: drops the reference that `d_find_alias` took.
        unsafe { bindings::dput(alias) };
        Some(result)
    }

    /// Whether the inode's file system has finished mounting (`SB_BORN`).
    /// While a file system sets itself up (`fill_super`), its inodes may
    /// not answer `getxattr` yet (overlayfs's root has no layers then).
    pub(crate) fn fs_ready(&self) -> bool {
        // SAFETY: the inode is valid; `i_sb` is set when it is allocated
        // and fixed for its life.
        let sb = unsafe { (*self.as_raw()).i_sb };
        // SAFETY: an inode's superblock outlives it; `s_flags` changes
        // (`super_wake` sets `SB_BORN`), so one volatile read, as C's
        // `READ_ONCE`.
        let flags = unsafe { core::ptr::addr_of!((*sb).s_flags).read_volatile() };
        flags & SB_BORN != 0
    }
}

/// The path that `d_path` and its kin wrote at the end of `buf`, given the
/// pointer they returned (into `buf`, or an error pointer): up to its NUL;
/// `None` for an error or a pointer outside `buf`.
fn path_at(p: *mut c_char, buf: &[u8]) -> Option<&[u8]> {
    if kernel::error::from_err_ptr(p).is_err() || p.is_null() {
        return None;
    }
    let start = (p as usize).checked_sub(buf.as_ptr() as usize)?;
    let tail = buf.get(start..)?;
    let end = tail.iter().position(|&b| b == 0)?;
    tail.get(..end)
}

/// `FMODE_READ` and `FMODE_WRITE` (`include/linux/fs.h`; bindgen does
/// not expand their casts, `layout_check.c` asserts the values).
const FMODE_READ: u32 = 1;
const FMODE_WRITE: u32 = 2;

/// `SB_BORN` (`BIT(29)`, which bindgen does not expand; `layout_check.c`
/// asserts the value).
const SB_BORN: c_ulong = 1 << 29;

/// Whether the current task has `CAP_SYS_ADMIN` in the initial user
/// namespace (`capable()`: asks the LSMs, audits, marks the task as having
/// used privilege). May sleep.
pub(crate) fn current_has_sys_admin() -> bool {
    // SAFETY: `capable` checks the current task's credentials; callable
    // from any process context.
    unsafe { bindings::capable(bindings::CAP_SYS_ADMIN as i32) }
}

/// Whether the current task is its process's only thread (and shares its
/// memory with no other process).
pub(crate) fn current_is_single_threaded() -> bool {
    // SAFETY: reads the current task's thread group; callable from any
    // process context.
    unsafe { bindings::current_is_single_threaded() }
}

wrapper!(
    /// A `struct cred`.
    Cred => bindings::cred
);
has_blob!(Cred, Cred, CredState, |p| (*p).security);

impl Cred {
    /// The real user id, in the initial user namespace.
    pub(crate) fn uid(&self) -> u32 {
        // SAFETY: the cred is valid; its ids do not change once shared.
        unsafe { (*self.as_raw()).uid.val }
    }

    /// The effective user id.
    pub(crate) fn euid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { (*self.as_raw()).euid.val }
    }

    /// The real group id.
    pub(crate) fn gid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { (*self.as_raw()).gid.val }
    }

    /// The effective group id.
    pub(crate) fn egid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { (*self.as_raw()).egid.val }
    }

    /// The effective, permitted and inheritable capability sets.
    pub(crate) fn caps(&self) -> [KernelCap; 3] {
        // SAFETY: the cred is valid; its sets do not change once shared.
        let c = unsafe { &*self.as_raw() };
        [
            KernelCap(c.cap_effective.val),
            KernelCap(c.cap_permitted.val),
            KernelCap(c.cap_inheritable.val),
        ]
    }
}

wrapper!(
    /// A `struct task_struct`.
    ///
    /// Its fields are read through bindgen's layout, which the layout check
    /// (`layout_check.c`) compares with the compiler's at init: with
    /// `--opaque-type sched_statistics` (linux/patches/0001, "rust:
    /// bindings: keep the alignment of an empty struct sched_statistics")
    /// they agree.
    Task => bindings::task_struct
);
has_blob!(Task, Task, TaskState, |p| (*p).security);

impl Task {
    /// The task's pid.
    pub(crate) fn pid(&self) -> i32 {
        // SAFETY: the task is valid; `pid` is fixed for its life.
        unsafe { (*self.as_raw()).pid }
    }

    /// Calls `f` with the task's objective credentials (`__task_cred`),
    /// inside an RCU read-side critical section: `f` must not sleep.
    pub(crate) fn with_cred<R>(&self, f: impl FnOnce(&Cred) -> R) -> R {
        let _guard = kernel::sync::rcu::read_lock();
        // SAFETY: the task is valid; `real_cred` is an RCU pointer, read
        // once under the read lock taken above.
        let cred = unsafe { core::ptr::addr_of!((*self.as_raw()).real_cred).read_volatile() };
        // SAFETY: a task always has credentials, which RCU keeps valid
        // until the read lock is dropped, after `f` returns.
        f(unsafe { Cred::from_raw(cred) })
    }

    /// The task's command name, NUL-padded, always NUL-terminated.
    ///
    /// The name may be changed while it is read (`set_task_comm`); each
    /// byte is read once, as C's `strscpy_pad` does, so the copy is some
    /// mix of old and new, never an unterminated string.
    pub(crate) fn comm(&self) -> [u8; 16] {
        let mut buf = [0u8; 16];
        // SAFETY: the task is valid; `comm` is an array inside it.
        let comm = unsafe { core::ptr::addr_of!((*self.as_raw()).comm) }.cast::<c_char>();
        for (i, byte) in buf.iter_mut().enumerate().take(15) {
            // SAFETY: `i < 15 < TASK_COMM_LEN`, inside the array of a valid
            // task; a volatile read of a byte that may change concurrently.
            let b: u8 = unsafe { comm.wrapping_add(i).read_volatile() };
            if b == 0 {
                break;
            }
            *byte = b;
        }
        buf
    }
}

/// Rust's offsets of the kernel fields it reads, then the sizes of the
/// kernel structures it builds, indexes or lets C write into, checked
/// against C's by `stacker_layout_check()` (`layout_check.c`: the same
/// entries, in the same order, each named in its error message).
#[no_mangle]
static stacker_rust_offsets: [usize; CHECKED_FIELDS] = {
    use core::mem::{offset_of, size_of};
    use kernel::bindings as b;
    [
        // Offsets (`STACKER_FIELDS` in C).
        offset_of!(b::file, __bindgen_anon_1.f_path.dentry),
        offset_of!(b::file, f_inode),
        offset_of!(b::file, f_security),
        offset_of!(b::dentry, d_inode),
        offset_of!(b::inode, i_mode),
        offset_of!(b::inode, i_ino),
        offset_of!(b::inode, i_security),
        offset_of!(b::cred, uid),
        offset_of!(b::cred, euid),
        offset_of!(b::cred, gid),
        offset_of!(b::cred, egid),
        offset_of!(b::cred, cap_inheritable),
        offset_of!(b::cred, cap_permitted),
        offset_of!(b::cred, cap_effective),
        offset_of!(b::cred, cap_ambient),
        offset_of!(b::cred, security),
        offset_of!(b::linux_binprm, file),
        offset_of!(b::linux_binprm, cred),
        offset_of!(b::kern_ipc_perm, security),
        offset_of!(b::vm_area_struct, vm_file),
        offset_of!(b::qstr, name),
        offset_of!(b::qstr, __bindgen_anon_1.__bindgen_anon_1.len),
        offset_of!(b::name_snapshot, name),
        offset_of!(b::xattr, name),
        offset_of!(b::xattr, value),
        offset_of!(b::xattr, value_len),
        offset_of!(b::lsm_blob_sizes, lbs_cred),
        offset_of!(b::lsm_blob_sizes, lbs_file),
        offset_of!(b::lsm_blob_sizes, lbs_inode),
        offset_of!(b::lsm_blob_sizes, lbs_sock),
        offset_of!(b::lsm_blob_sizes, lbs_superblock),
        offset_of!(b::lsm_blob_sizes, lbs_ipc),
        offset_of!(b::lsm_blob_sizes, lbs_key),
        offset_of!(b::lsm_blob_sizes, lbs_msg_msg),
        offset_of!(b::lsm_blob_sizes, lbs_task),
        offset_of!(b::lsm_blob_sizes, lbs_xattr_count),
        offset_of!(b::lsm_blob_sizes, lbs_bpf_token),
        offset_of!(b::task_struct, pid),
        offset_of!(b::task_struct, tgid),
        offset_of!(b::task_struct, mm),
        offset_of!(b::task_struct, group_leader),
        offset_of!(b::task_struct, cred),
        offset_of!(b::task_struct, comm),
        offset_of!(b::task_struct, security),
        offset_of!(b::socket, sk),
        offset_of!(b::sock, __sk_common.skc_family),
        offset_of!(b::super_block, s_magic),
        offset_of!(b::super_block, s_security),
        offset_of!(b::path, dentry),
        offset_of!(b::vfsmount, mnt_sb),
        offset_of!(b::iattr, ia_valid),
        offset_of!(b::iattr, ia_mode),
        offset_of!(b::msg_msg, m_type),
        offset_of!(b::msg_msg, security),
        offset_of!(b::key, serial),
        offset_of!(b::key, security),
        offset_of!(b::lsm_ctx, ctx_len),
        offset_of!(b::lsm_ctx, ctx),
        offset_of!(b::task_struct, real_cred),
        offset_of!(b::inode, i_sb),
        offset_of!(b::super_block, s_flags),
        offset_of!(b::linux_binprm, unsafe_),
        offset_of!(b::file, __bindgen_anon_1.f_path.mnt),
        offset_of!(b::vfsmount, mnt_flags),
        offset_of!(b::file, f_mode),
        offset_of!(b::inode, i_uid),
        offset_of!(b::inode, i_gid),
        offset_of!(b::inode, i_generation),
        offset_of!(b::super_block, s_uuid),
        offset_of!(b::super_block, s_type),
        offset_of!(b::file_system_type, fs_flags),
        offset_of!(b::vm_area_struct, __bindgen_anon_2.vm_flags),
        offset_of!(b::inode, i_writecount),
        offset_of!(b::file, f_mapping),
        offset_of!(b::address_space, i_mmap_writable),
        offset_of!(b::fown_struct, file),
        // Sizes (`STACKER_SIZES` in C).
        size_of::<b::xattr>(),
        size_of::<b::name_snapshot>(),
        size_of::<b::security_list_options>(),
        size_of::<b::file_operations>(),
        size_of::<b::lsm_blob_sizes>(),
        size_of::<b::task_struct>(),
        size_of::<b::cred>(),
        size_of::<b::kernel_cap_t>(),
        size_of::<b::linux_binprm>(),
    ]
};

/// Number of fields and sizes checked.
const CHECKED_FIELDS: usize = 85;

/// Whether Rust's and C's views of every listed kernel structure agree:
/// `stacker_layout_check()` (`layout_check.c`) compares the two lists and
/// logs every difference by name. Run once by each LSM's init.
pub(crate) fn layout_matches() -> bool {
    extern "C" {
        fn stacker_layout_check() -> kernel::ffi::c_int;
    }
    // SAFETY: `stacker_layout_check` only reads constant tables and logs.
    unsafe { stacker_layout_check() == 0 }
}

/// Number of entries in [`stacker_rust_offsets`] (C reads it).
#[no_mangle]
static stacker_rust_offsets_len: usize = CHECKED_FIELDS;

wrapper!(
    /// A `struct linux_binprm` whose new credentials are being prepared:
    /// in `bprm_creds_for_exec` and `bprm_check_security`.
    ///
    /// Not for `bprm_committed_creds`, where the credentials are gone from
    /// the binprm (see [`CommittedBinprm`]).
    Binprm => bindings::linux_binprm
);

impl Binprm {
    /// The credentials the program will run with (being prepared).
    pub(crate) fn cred(&self) -> &Cred {
        // SAFETY: `cred` is set before `bprm_creds_for_exec` and stays
        // owned by the binprm until it is committed, after the hooks that
        // get a `Binprm`.
        unsafe { Cred::from_raw((*self.as_raw()).cred) }
    }

    /// The file being executed.
    pub(crate) fn file(&self) -> &File {
        // SAFETY: `file` is set before any bprm hook runs and pinned by the
        // binprm.
        unsafe { File::from_raw((*self.as_raw()).file) }
    }

    /// Why the exec is unsafe to change privileges (`LSM_UNSAFE_*`: the
    /// task is traced, has `no_new_privs`, shares its files), set before
    /// `bprm_creds_for_exec`.
    pub(crate) fn unsafe_flags(&self) -> u32 {
        // SAFETY: the binprm is valid; `unsafe` is set by
        // `check_unsafe_exec()` before the hook and not changed after.
        unsafe { (*self.as_raw()).unsafe_ as u32 }
    }

    /// Whether the file is on a `nosuid` mount.
    pub(crate) fn nosuid(&self) -> bool {
        // SAFETY: an open file's `f_path.mnt` is pinned by the file.
        let mnt = unsafe { (*self.file().as_raw()).__bindgen_anon_1.f_path.mnt };
        // SAFETY: as above; `mnt_flags` of a pinned mount, read once.
        let flags = unsafe { core::ptr::addr_of!((*mnt).mnt_flags).read_volatile() };
        flags as u32 & bindings::mount_flags_MNT_NOSUID != 0
    }

    /// Asks for a secure exec (`AT_SECURE`: the dynamic loader then
    /// ignores `LD_PRELOAD` and the like), as a domain change needs.
    pub(crate) fn set_secureexec(&self) {
        // SAFETY: the binprm is private to the exec that runs this hook;
        // the bit is one of the `_bitfield_1` bits that bindgen's setter
        // places (the struct's size is cross-checked, `layout_check.c`).
        unsafe { (*self.as_raw()).set_secureexec(1) };
    }
}

wrapper!(
    /// A `struct linux_binprm` after its credentials were committed
    /// (`bprm_committed_creds`): only the file.
    ///
    /// `commit_creds()` took `bprm->cred`, which is NULL from then on, so
    /// this view has no `cred()`; the new credentials are the current
    /// task's.
    CommittedBinprm => bindings::linux_binprm
);

impl CommittedBinprm {
    /// The file being executed.
    pub(crate) fn file(&self) -> &File {
        // SAFETY: `file` stays set and pinned by the binprm until it is
        // freed, after this hook.
        unsafe { File::from_raw((*self.as_raw()).file) }
    }
}

/// New credentials that are prepared but not yet committed, after the
/// capability module computed their capability sets: those of an exec in
/// `bprm_creds_from_file`, and the `new` cred of `task_fix_setuid` and
/// `task_fix_setgid`.
///
/// # Invariants
///
/// `cred` was prepared by `prepare_creds()` (or `prepare_exec_creds()`) and
/// is not yet committed, so no other task and no other reference can see
/// it, and it stays valid for `'a`.
pub(crate) struct PreparedCred<'a> {
    cred: *mut bindings::cred,
    _borrow: PhantomData<&'a Cred>,
}

impl<'a> PreparedCred<'a> {
    /// The new credentials of `bprm`.
    ///
    /// # Safety
    ///
    /// `bprm` must be the binprm passed to `bprm_creds_from_file`, valid
    /// for `'a`.
    pub(crate) unsafe fn from_bprm(bprm: *mut bindings::linux_binprm) -> Self {
        // INVARIANT: the binprm of `bprm_creds_from_file` owns its new,
        // unshared cred until `commit_creds()`, after this hook.
        PreparedCred {
            // SAFETY: the caller passes a valid binprm.
            cred: unsafe { (*bprm).cred },
            _borrow: PhantomData,
        }
    }

    /// The `new` credentials of `task_fix_setuid` or `task_fix_setgid`.
    ///
    /// # Safety
    ///
    /// `cred` must be the `new` argument of one of those hooks, valid for
    /// `'a`.
    pub(crate) unsafe fn from_new(cred: *mut bindings::cred) -> Self {
        // INVARIANT: `__sys_setuid()` and its kin prepare `new` with
        // `prepare_creds()` and commit it only after these hooks.
        PreparedCred {
            cred,
            _borrow: PhantomData,
        }
    }

    /// The new credentials, to read (ids, sets, blob state).
    pub(crate) fn cred(&self) -> &'a Cred {
        // SAFETY: valid for `'a` by the type invariant.
        unsafe { Cred::from_raw(self.cred) }
    }

    /// Removes the capabilities in `mask` from the new credentials'
    /// permitted, effective, inheritable and ambient sets.
    ///
    /// Sound because the credentials are not shared yet (type invariant):
    /// nothing else reads them while they change, and once committed they
    /// never change again. Only ever removes, so the kernel's rules between
    /// the sets (ambient within permitted and inheritable, effective within
    /// permitted) still hold.
    pub(crate) fn drop_caps(&self, mask: u64) {
        let keep = !mask;
        let c = self.cred;
        // SAFETY: by the type invariant the cred is valid and private to
        // this exec; the `Cred` views of it read through `Opaque`, which
        // allows the change.
        unsafe { (*c).cap_permitted.val &= keep };
        // SAFETY: as above.
        unsafe { (*c).cap_effective.val &= keep };
        // SAFETY: as above.
        unsafe { (*c).cap_inheritable.val &= keep };
        // SAFETY: as above.
        unsafe { (*c).cap_ambient.val &= keep };
    }
}

/// The security blob of an inode that is gone (`inode_free_security_rcu`),
/// passed an RCU grace period after the inode was freed: submodules get
/// only their own state in it, never the inode.
///
/// # Invariants
///
/// `blob` is null or the start of an inode security blob allocated by the
/// LSM core, valid for `'a`.
pub(crate) struct InodeBlob<'a> {
    blob: *mut u8,
    _borrow: PhantomData<&'a u8>,
}

impl InodeBlob<'_> {
    /// Wraps the `inode_security` argument of `inode_free_security_rcu`.
    ///
    /// # Safety
    ///
    /// `blob` must be null or an inode security blob that stays valid for
    /// the life of the returned value.
    pub(crate) unsafe fn from_raw(blob: *mut c_void) -> Self {
        // INVARIANT: as promised by the caller.
        InodeBlob {
            blob: blob.cast(),
            _borrow: PhantomData,
        }
    }
}

impl HasBlob for InodeBlob<'_> {
    const KIND: ObjectKind = ObjectKind::Inode;
    type State<M: Submodule> = M::InodeState;

    #[inline(always)]
    fn blob(&self) -> *mut u8 {
        self.blob
    }
}

impl Cred {
    /// The current task's subjective credentials (`current_cred()`), for
    /// hooks that check the current task without being passed a cred
    /// (`mmap_addr`, `vm_enough_memory`).
    ///
    /// # Safety
    ///
    /// Only within a hook call, in process context, and `'a` must not
    /// outlast it: the task holds a reference on its own cred, and only the
    /// task itself (`commit_creds`, `override_creds`) replaces it, which no
    /// code reachable from a hook does.
    pub(crate) unsafe fn current<'a>() -> &'a Cred {
        // SAFETY: hooks run in process context, where `current` is valid.
        let task = unsafe { bindings::get_current() };
        // SAFETY: the current task is valid; `current_cred()` reads its
        // `cred` without RCU because only the task itself replaces it.
        let cred = unsafe { (*task).cred };
        // SAFETY: valid for `'a`, as the caller promises (see above).
        unsafe { Cred::from_raw(cred) }
    }

    /// Calls `f` with the current task's subjective credentials, for
    /// hooks that are not passed a cred.
    pub(crate) fn with_current<R>(f: impl FnOnce(&Cred) -> R) -> R {
        // SAFETY: hooks run in process context, and the borrow ends when
        // `f` returns, within the hook (see `Cred::current`).
        f(unsafe { Self::current() })
    }
}

/// New credentials for the current task, made by `prepare_creds()` from
/// its own, to change and install (`commit_creds`); dropped uninstalled,
/// they are released (`abort_creds`).
///
/// # Invariants
///
/// `ptr` came from `prepare_creds()` and is neither committed nor
/// aborted: only this value owns it.
pub(crate) struct NewCred {
    ptr: core::ptr::NonNull<bindings::cred>,
}

impl NewCred {
    /// A private copy of the current task's credentials (the LSM
    /// `cred_prepare` hooks run on it). Allocates: may sleep.
    pub(crate) fn prepare(_cx: &MaySleep) -> Result<NewCred> {
        // SAFETY: called in process context, as `prepare_creds` needs.
        let ptr = unsafe { bindings::prepare_creds() };
        // INVARIANT: a fresh cred from `prepare_creds`, owned here.
        core::ptr::NonNull::new(ptr)
            .map(|ptr| NewCred { ptr })
            .ok_or(ENOMEM)
    }

    /// The new credentials, private to this value until committed.
    pub(crate) fn cred(&self) -> &Cred {
        // SAFETY: valid by the type invariant, for as long as `self`.
        unsafe { Cred::from_raw(self.ptr.as_ptr()) }
    }

    /// Installs the new credentials as the current task's.
    pub(crate) fn commit(self) {
        let ptr = self.ptr.as_ptr();
        core::mem::forget(self);
        // SAFETY: `ptr` came from `prepare_creds` in this task and was
        // neither committed nor aborted (type invariant); `commit_creds`
        // takes it over. Its result is always 0.
        unsafe { bindings::commit_creds(ptr) };
    }
}

impl Drop for NewCred {
    fn drop(&mut self) {
        // SAFETY: by the type invariant, uncommitted credentials from
        // `prepare_creds`, released once.
        unsafe { bindings::abort_creds(self.ptr.as_ptr()) };
    }
}

/// The address an `mmap_addr` hook is asked about.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MmapAddr {
    addr: u64,
    min: u64,
}

impl MmapAddr {
    /// Wraps the `addr` argument of `mmap_addr`, with the current
    /// `vm.mmap_min_addr` (`dac_mmap_min_addr`).
    pub(crate) fn from_raw(addr: c_ulong) -> Self {
        // SAFETY: a plain global, written by the sysctl handler; one
        // volatile read of a machine word, as C's plain read.
        let min = unsafe { core::ptr::addr_of!(bindings::dac_mmap_min_addr).read_volatile() };
        MmapAddr {
            addr: addr as u64,
            min: min as u64,
        }
    }

    /// The address.
    pub(crate) fn addr(self) -> u64 {
        self.addr
    }

    /// Whether the address is below `vm.mmap_min_addr`: where the
    /// capability module asks for `CAP_SYS_RAWIO`.
    pub(crate) fn below_min(self) -> bool {
        self.addr < self.min
    }
}

wrapper!(
    /// A `struct socket`.
    Socket => bindings::socket
);

impl Socket {
    /// The socket's `struct sock`: `None` before the protocol set it up
    /// (the new socket of `socket_accept`).
    pub(crate) fn sock(&self) -> Option<&Sock> {
        // SAFETY: the socket is valid; `sk` is set once by the protocol.
        let sk = unsafe { (*self.as_raw()).sk };
        // SAFETY: a non-null `sk` lives as long as its socket.
        unsafe { Sock::from_raw_opt(sk) }
    }
}

wrapper!(
    /// A `struct sock`: the network layer's half of a socket.
    Sock => bindings::sock
);
// bindgen misplaces `sk_security` (`layout_check.c`): C reads it.
has_blob!(Sock, Sock, SockState, |p| stacker_sk_security(p.cast()));

wrapper!(
    /// A `struct sock` in `sk_alloc_security` or `sk_free_security`: only
    /// its security blob. The sock is allocated without zeroing and its
    /// family is set after `sk_alloc_security` (`sk_prot_alloc()`), and
    /// `sk_free_security` also runs for that half-built sock, so this view
    /// has no `family()`.
    SockSecurity => bindings::sock
);
has_blob!(SockSecurity, Sock, SockState, |p| stacker_sk_security(
    p.cast()
));

extern "C" {
    /// `sk->sk_security` (`layout_check.c`). The sock is passed as
    /// `*const c_void`: bindgen's `sock` holds empty structs, which the
    /// `improper_ctypes` lint refuses in an `extern` block.
    fn stacker_sk_security(sk: *const c_void) -> *mut c_void;
}

impl Sock {
    /// The address family (`AF_*`).
    pub(crate) fn family(&self) -> u16 {
        // SAFETY: the sock is valid; its family is fixed when it is set up.
        unsafe { (*self.as_raw()).__sk_common.skc_family }
    }
}

wrapper!(
    /// A `struct super_block`: a mounted (or mounting) file system.
    Superblock => bindings::super_block
);
has_blob!(Superblock, Superblock, SuperblockState, |p| (*p).s_security);

impl Superblock {
    /// The file system's magic number (`*_MAGIC`, as in `statfs(2)`); 0 in
    /// `sb_alloc_security`, which runs before the file system sets it.
    pub(crate) fn magic(&self) -> u64 {
        // SAFETY: the superblock is valid; `s_magic` is set before it is
        // mounted and then fixed.
        unsafe { (*self.as_raw()).s_magic as u64 }
    }
}

wrapper!(
    /// A `struct path`: a mount and a dentry in it.
    Path => bindings::path
);

impl Path {
    /// The dentry.
    pub(crate) fn dentry(&self) -> &Dentry {
        // SAFETY: a path passed to a hook holds its dentry.
        let dentry = unsafe { (*self.as_raw()).dentry };
        // SAFETY: as above, valid for the borrow.
        unsafe { Dentry::from_raw(dentry) }
    }
}

wrapper!(
    /// A `struct vfsmount`: one mount of a file system.
    Vfsmount => bindings::vfsmount
);

impl Vfsmount {
    /// The mounted file system.
    pub(crate) fn superblock(&self) -> &Superblock {
        // SAFETY: a mount holds its superblock for its life.
        let sb = unsafe { (*self.as_raw()).mnt_sb };
        // SAFETY: as above, valid for the borrow.
        unsafe { Superblock::from_raw(sb) }
    }
}

wrapper!(
    /// A `struct iattr`: the attribute changes of a `setattr`.
    Iattr => bindings::iattr
);

impl Iattr {
    /// Which attributes change (`ATTR_*` bits).
    pub(crate) fn valid(&self) -> u32 {
        // SAFETY: the iattr is valid for the hook call.
        unsafe { (*self.as_raw()).ia_valid }
    }

    /// The new mode, meaningful with `ATTR_MODE`.
    pub(crate) fn mode(&self) -> u16 {
        // SAFETY: as above.
        unsafe { (*self.as_raw()).ia_mode }
    }
}

wrapper!(
    /// A `struct msg_msg`: one System V message.
    MsgMsg => bindings::msg_msg
);
has_blob!(MsgMsg, MsgMsg, MsgMsgState, |p| (*p).security);

wrapper!(
    /// A `struct msg_msg` in `msg_msg_alloc_security` or
    /// `msg_msg_free_security`: only its security blob. The message is
    /// allocated without zeroing and its type set after the alloc hook
    /// (`alloc_msg()`, `do_msgsnd()`), and the free hook also runs on the
    /// failure path, so this view has no `mtype()`.
    MsgMsgSecurity => bindings::msg_msg
);
has_blob!(MsgMsgSecurity, MsgMsg, MsgMsgState, |p| (*p).security);

impl MsgMsg {
    /// The message type (`mtype`).
    pub(crate) fn mtype(&self) -> i64 {
        // SAFETY: the message is valid; its type is set before it is sent.
        unsafe { (*self.as_raw()).m_type as i64 }
    }
}

wrapper!(
    /// A `struct key`.
    Key => bindings::key
);
has_blob!(Key, Key, KeyState, |p| (*p).security);

impl Key {
    /// The key of a key reference (`key_ref_t`: a key pointer whose low
    /// bit says whether it is possessed).
    ///
    /// # Safety
    ///
    /// `key_ref` must be a valid key reference for `'a`.
    pub(crate) unsafe fn from_ref<'a>(key_ref: bindings::key_ref_t) -> &'a Key {
        let key = (key_ref as usize & !1usize) as *const bindings::key;
        // SAFETY: without its flag bit, a key reference is a valid key.
        unsafe { Key::from_raw(key) }
    }

    /// The key's serial number (0 in `key_alloc`: it is assigned after).
    pub(crate) fn serial(&self) -> i32 {
        // SAFETY: the key is valid; its serial is fixed for its life.
        unsafe { (*self.as_raw()).serial }
    }
}

/// The list of `security.*` xattr names that `listxattr(2)` is filling
/// (`inode_listsecurity`).
///
/// # Invariants
///
/// `buffer` and `remaining` are the LSM core's arguments, valid for `'a`:
/// a null `*buffer` asks only for the size.
pub(crate) struct XattrNames<'a> {
    buffer: *mut *mut c_char,
    remaining: *mut isize,
    _life: PhantomData<&'a mut ()>,
}

impl XattrNames<'_> {
    /// Wraps the arguments of `inode_listsecurity`.
    ///
    /// # Safety
    ///
    /// As in the type invariants.
    pub(crate) unsafe fn from_raw(buffer: *mut *mut c_char, remaining: *mut isize) -> Self {
        // INVARIANT: as promised by the caller.
        XattrNames {
            buffer,
            remaining,
            _life: PhantomData,
        }
    }

    /// Adds the xattr name `name` (in full: `security.NAME`); `ERANGE`
    /// when it does not fit.
    pub(crate) fn push(&mut self, name: &CStr) -> Result {
        let (buffer, remaining) = (self.buffer, self.remaining);
        // SAFETY: valid by the type invariant; `xattr_list_one` copies the
        // name and its NUL, or only counts when `*buffer` is null.
        let rc = unsafe { bindings::xattr_list_one(buffer, remaining, name.as_char_ptr()) };
        kernel::error::to_result(rc)
    }
}

wrapper!(
    /// A `struct kern_ipc_perm`: the permissions of an IPC object.
    IpcPerm => bindings::kern_ipc_perm
);
has_blob!(IpcPerm, Ipc, IpcState, |p| (*p).security);

wrapper!(
    /// A `struct vm_area_struct`.
    Vma => bindings::vm_area_struct
);

impl Vma {
    /// The file mapped by this area, if any.
    pub(crate) fn file(&self) -> Option<&File> {
        // SAFETY: the caller of the hook holds the mmap lock; `vm_file`
        // is pinned by the mapping.
        let file = unsafe { (*self.as_raw()).vm_file };
        // SAFETY: non-null `vm_file` is a valid file for the borrow.
        (!file.is_null()).then(|| unsafe { File::from_raw(file) })
    }

    /// Whether the area is mapped executable now (`VM_EXEC`).
    pub(crate) fn executable(&self) -> bool {
        // SAFETY: the caller of the hook holds the mmap lock, under which
        // `vm_flags` is stable.
        let flags = unsafe { (*self.as_raw()).__bindgen_anon_2.vm_flags };
        flags & bindings::VM_EXEC != 0
    }
}

pub(crate) use crate::access::{AccessMask, KernelCap};

/// Reads a `kernel_cap_t`.
///
/// # Safety
///
/// `ptr` must be valid for reads.
pub(crate) unsafe fn kernel_cap(ptr: *const bindings::kernel_cap_t) -> KernelCap {
    // SAFETY: promised by the caller.
    KernelCap(unsafe { (*ptr).val })
}

/// A value a submodule builds for a reader: of `/proc/PID/attr/NAME`
/// (`getprocattr`, and `lsm_get_self_attr(2)` through it) or of a
/// `security.*` xattr (`inode_getsecurity`).
#[derive(Default)]
pub(crate) struct AttrValue(pub(crate) KVec<u8>);

impl AttrValue {
    /// Appends bytes to the value.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        self.0.extend_from_slice(bytes, GFP_KERNEL)?;
        Ok(())
    }
}

/// The C side of forwarding (`stacker/procattr.c`).
///
/// The task is passed as `*mut c_void`: bindgen's `task_struct` holds
/// empty structs, which the `improper_ctypes` lint refuses in an `extern`
/// block of this crate.
mod procattr_c {
    use kernel::ffi::{c_char, c_int, c_void};

    extern "C" {
        pub(super) fn stacker_forward_getprocattr(
            p: *mut c_void,
            name: *const c_char,
            value: *mut *mut c_char,
        ) -> c_int;
        pub(super) fn stacker_forward_setprocattr(
            name: *const c_char,
            value: *mut c_void,
            size: usize,
        ) -> c_int;
    }
}

/// Asks the LSMs registered after stacker, in the LSM core's order, for
/// `/proc/PID/attr/NAME` of `task`; the first answer that is not `EINVAL`
/// is copied into `out`. `EINVAL` when none answers.
///
/// The LSM core asks only the first LSM that implements `getprocattr`
/// (`security_getprocattr()`): when stacker is that LSM and no submodule
/// claims the attribute, this keeps SELinux, AppArmor or Smack after it
/// reachable.
pub(crate) fn forward_getprocattr(task: &Task, name: &CStr, out: &mut AttrValue) -> Result {
    let mut value: *mut c_char = core::ptr::null_mut();
    // SAFETY: the task is valid, `name` is a C string, and `value` is a
    // writable pointer that the callee sets to a `kmalloc`ed value or
    // leaves null.
    let rc = unsafe {
        procattr_c::stacker_forward_getprocattr(
            task.as_raw().cast(),
            name.as_char_ptr(),
            &mut value,
        )
    };
    let result = match usize::try_from(rc) {
        Err(_) => Err(Error::from_errno(rc)),
        Ok(0) => Ok(()),
        Ok(_) if value.is_null() => Ok(()),
        Ok(len) => {
            // SAFETY: the answering LSM returned `len` bytes at `value`.
            let bytes = unsafe { core::slice::from_raw_parts(value.cast::<u8>(), len) };
            out.push_bytes(bytes)
        }
    };
    // SAFETY: `value` is null or was `kmalloc`ed for the caller, which
    // frees it; it is not used after this.
    unsafe { bindings::kfree(value.cast::<c_void>()) };
    result
}

/// A write to `/proc/self/attr/NAME` (`setprocattr`).
///
/// # Invariants
///
/// `name` is a NUL-terminated string, and `value` is null with `size` 0 or
/// valid for reads and writes of `size` bytes, both for `'a`.
pub(crate) struct ProcAttrWrite<'a> {
    name: *const c_char,
    value: *mut c_void,
    size: usize,
    _borrow: PhantomData<&'a mut [u8]>,
}

impl ProcAttrWrite<'_> {
    /// Wraps the arguments of `setprocattr`.
    ///
    /// # Safety
    ///
    /// `name` must be a NUL-terminated string, and `value` null with `size`
    /// 0 or valid for reads and writes of `size` bytes, for the life of the
    /// returned value.
    pub(crate) unsafe fn from_raw(name: *const c_char, value: *mut c_void, size: usize) -> Self {
        let size = if value.is_null() { 0 } else { size };
        // INVARIANT: as promised by the caller.
        ProcAttrWrite {
            name,
            value,
            size,
            _borrow: PhantomData,
        }
    }

    /// The attribute's name (`NAME`).
    pub(crate) fn name(&self) -> &[u8] {
        // SAFETY: a C string, valid for the borrow, by the type invariant.
        unsafe { c_bytes(self.name) }
    }

    /// The value written.
    pub(crate) fn value(&self) -> &[u8] {
        if self.size == 0 {
            return &[];
        }
        // SAFETY: `size` readable bytes by the type invariant.
        unsafe { core::slice::from_raw_parts(self.value.cast::<u8>(), self.size) }
    }

    /// Hands the write, unchanged, to the LSMs registered after stacker, in
    /// the LSM core's order; the first answer that is not `EINVAL` decides.
    /// `EINVAL` when none answers.
    ///
    /// Takes the write by value: an LSM may change the buffer in place
    /// (SELinux strips a trailing newline), so no borrow of
    /// [`ProcAttrWrite::value`] may live across this call.
    pub(crate) fn forward(self) -> Result<usize> {
        let (name, value, size) = (self.name, self.value, self.size);
        // SAFETY: `name` and `value` are valid for this call by the type
        // invariant, and nothing borrows `value` any more (`self` is moved).
        let rc = unsafe { procattr_c::stacker_forward_setprocattr(name, value, size) };
        usize::try_from(rc).map_err(|_| Error::from_errno(rc))
    }
}

/// A security xattr for a new inode (`inode_init_security`).
pub(crate) struct XattrValue {
    /// The name after the `security.` prefix.
    pub(crate) name: &'static CStr,
    /// The value.
    pub(crate) value: KVec<u8>,
}

impl XattrValue {
    /// Builds an xattr, copying `value`.
    ///
    /// `inode_init_security` runs with filesystem locks held, where an
    /// allocation must not recurse into filesystem reclaim. The kernel crate
    /// offers no `GFP_NOFS`, so this does not sleep at all (`GFP_NOWAIT`):
    /// the value is small, and failing gives `ENOMEM`, never a deadlock.
    pub(crate) fn new(name: &'static CStr, value: &[u8]) -> Result<Self> {
        // Never empty: the LSM core `kfree`s the value.
        let mut v = KVec::with_capacity(value.len().max(1), GFP_NOWAIT)?;
        v.extend_from_slice(value, GFP_NOWAIT)?;
        Ok(XattrValue { name, value: v })
    }
}

/// The LSM xattr slots of one `inode_init_security` call.
///
/// # Invariants
///
/// `xattrs` is null or has room for the LSM core's total slot count, of
/// which stacker may use `limit`, and `*count` is the next free slot.
pub(crate) struct XattrSlots {
    xattrs: *mut bindings::xattr,
    count: *mut c_int,
    limit: u32,
    used: u32,
}

impl XattrSlots {
    /// Wraps the `xattrs` and `xattr_count` arguments of the hook.
    ///
    /// # Safety
    ///
    /// They must be the LSM core's arguments to stacker's hook, valid for
    /// the life of the returned value, with `limit` slots reserved for
    /// stacker (its `lbs_xattr_count`).
    pub(crate) unsafe fn from_raw(
        xattrs: *mut bindings::xattr,
        count: *mut c_int,
        limit: u32,
    ) -> Self {
        // INVARIANT: as promised by the caller.
        XattrSlots {
            xattrs,
            count,
            limit,
            used: 0,
        }
    }

    /// Fills the next slot with `xattr`.
    pub(crate) fn push(&mut self, xattr: XattrValue) -> Result {
        if self.xattrs.is_null() {
            // The caller does not take xattrs; nothing to do.
            return Ok(());
        }
        if self.used >= self.limit {
            return Err(ENOSPC);
        }
        // SAFETY: `count` is valid by the type invariant.
        let next = unsafe { *self.count };
        let Ok(index) = usize::try_from(next) else {
            return Err(EINVAL);
        };
        let (ptr, len, _cap) = xattr.value.into_raw_parts();
        // SAFETY: by the type invariant there is room for one more of
        // stacker's slots at `*count`, inside the core's array.
        let slot = unsafe { self.xattrs.add(index) };
        // SAFETY: `slot` is a valid, unused slot (above). The core `kfree`s
        // `value`, which came from `kmalloc` (KVec), and `name` is static.
        unsafe {
            slot.write(bindings::xattr {
                name: xattr.name.as_char_ptr(),
                value: ptr.cast(),
                value_len: len,
            })
        };
        // SAFETY: as above.
        unsafe { *self.count = next.wrapping_add(1) };
        self.used += 1;
        Ok(())
    }
}
