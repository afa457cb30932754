// SPDX-License-Identifier: GPL-2.0

//! Typed, borrowed views of the kernel objects that hooks receive.
//!
//! rust/kernel has no inode, dentry, binprm or IPC abstraction, and its
//! `File` and `Credential` do not expose the security blob, so stacker keeps
//! thin `#[repr(transparent)]` wrappers here. A hook gets `&File`, `&Inode`
//! and so on; the borrow lasts for the hook call. The host crate has an
//! in-memory model with the same names and methods (`host/objects.rs`).
//!
//! C headers: [`include/linux/fs.h`](srctree/include/linux/fs.h),
//! [`include/linux/dcache.h`](srctree/include/linux/dcache.h),
//! [`include/linux/cred.h`](srctree/include/linux/cred.h),
//! [`include/linux/lsm_hooks.h`](srctree/include/linux/lsm_hooks.h)

use crate::blob::HasBlob;
use crate::layout::ObjectKind;
use crate::submodule::Submodule;
use core::{ffi::CStr, mem::MaybeUninit};
use kernel::{
    alloc::{flags::GFP_NOWAIT, KVec},
    bindings,
    ffi::c_int,
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

            /// The C object.
            #[inline(always)]
            pub(crate) fn as_raw(&self) -> *mut $c {
                self.0.get()
            }
        }
    };
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
    /// A `struct file`.
    File => bindings::file
);
has_blob!(File, File, FileState, |p| (*p).f_security);

impl File {
    /// The dentry the file was opened through.
    pub(crate) fn dentry(&self) -> &Dentry {
        // SAFETY: an open file holds a reference on its `f_path.dentry`,
        // which therefore outlives `&self`.
        unsafe { Dentry::from_raw((*self.as_raw()).__bindgen_anon_1.f_path.dentry) }
    }

    /// Reads extended attribute `name` of the file into `buf`; returns its
    /// length. Fails with `ENODATA` when it is not set, `ERANGE` when it is
    /// longer than `buf`.
    pub(crate) fn getxattr(&self, name: &CStr, buf: &mut [u8]) -> Result<usize> {
        let dentry = self.dentry().as_raw();
        // SAFETY: the file pins its dentry and inode; `buf` is writable for
        // its length; `__vfs_getxattr` does no permission check, which is
        // what a security module reading its own label wants.
        let n = unsafe {
            bindings::__vfs_getxattr(
                dentry,
                self.inode().as_raw(),
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

    /// The file's inode.
    pub(crate) fn inode(&self) -> &Inode {
        // SAFETY: `f_inode` is set for every file and pinned by it.
        unsafe { Inode::from_raw((*self.as_raw()).f_inode) }
    }
}

wrapper!(
    /// A `struct dentry`.
    Dentry => bindings::dentry
);

impl Dentry {
    /// The inode, or `None` for a negative dentry.
    pub(crate) fn inode(&self) -> Option<&Inode> {
        // SAFETY: the dentry is valid; a positive dentry pins its inode.
        let inode = unsafe { (*self.as_raw()).d_inode };
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
        // SAFETY: the snapshot was initialised just above; its `name` points
        // to `len` readable bytes until it is released.
        let name = unsafe {
            let qstr = &(*snapshot).name;
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

    /// Calls `f` with the name of one of the inode's dentries, or returns
    /// `None` when the inode has none.
    ///
    /// Takes and drops a dentry reference, which may sleep: not for
    /// RCU-walk mode (`MAY_NOT_BLOCK`).
    pub(crate) fn with_alias_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        // SAFETY: the inode is valid by the type invariant.
        let alias = unsafe { bindings::d_find_alias(self.as_raw()) };
        if alias.is_null() {
            return None;
        }
        // SAFETY: `d_find_alias` returned a referenced dentry, valid until
        // the `dput` below.
        let result = unsafe { Dentry::from_raw(alias) }.with_name(f);
        // SAFETY: drops the reference that `d_find_alias` took.
        unsafe { bindings::dput(alias) };
        Some(result)
    }
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
    /// bindgen's layout of `task_struct` does not match the compiler's in
    /// this kernel (see `layout_check.c`), so its fields are read in C.
    Task => bindings::task_struct
);
has_blob!(Task, Task, TaskState, |p| {
    task_c::stacker_task_security(p)
});

impl Task {
    /// The task's pid.
    pub(crate) fn pid(&self) -> i32 {
        // SAFETY: the task is valid; `pid` is fixed for its life.
        unsafe { task_c::stacker_task_pid(self.as_raw()) }
    }

    /// The task's command name.
    pub(crate) fn comm(&self) -> [u8; 16] {
        let mut buf = [0u8; 16];
        // SAFETY: the task is valid and `buf` has room for TASK_COMM_LEN.
        unsafe { task_c::stacker_task_comm(self.as_raw(), buf.as_mut_ptr()) };
        buf
    }
}

/// The `task_struct` accessors of `layout_check.c`.
///
/// They take the task as `*const c_void`: bindgen's `task_struct` is not
/// FFI-safe (its `sched_statistics` member could not be laid out).
pub(crate) mod task_c {
    use kernel::{bindings::task_struct, ffi::c_void};

    mod raw {
        use kernel::ffi::c_void;

        extern "C" {
            pub(super) fn stacker_task_security(task: *const c_void) -> *mut c_void;
            pub(super) fn stacker_task_pid(task: *const c_void) -> i32;
            pub(super) fn stacker_task_comm(task: *const c_void, buf: *mut u8);
        }
    }

    /// `task->security`.
    ///
    /// # Safety
    ///
    /// `task` must be a valid task.
    pub(crate) unsafe fn stacker_task_security(task: *const task_struct) -> *mut c_void {
        // SAFETY: promised by the caller.
        unsafe { raw::stacker_task_security(task.cast()) }
    }

    /// `task->pid`.
    ///
    /// # Safety
    ///
    /// `task` must be a valid task.
    pub(crate) unsafe fn stacker_task_pid(task: *const task_struct) -> i32 {
        // SAFETY: promised by the caller.
        unsafe { raw::stacker_task_pid(task.cast()) }
    }

    /// Copies `task->comm` into `buf` (16 bytes, NUL-padded).
    ///
    /// # Safety
    ///
    /// `task` must be a valid task and `buf` writable for 16 bytes.
    pub(crate) unsafe fn stacker_task_comm(task: *const task_struct, buf: *mut u8) {
        // SAFETY: promised by the caller.
        unsafe { raw::stacker_task_comm(task.cast(), buf) }
    }
}

/// Rust's offsets of the kernel fields it reads, checked against C's by
/// `stacker_layout_check()` (`layout_check.c`, same list, same order).
#[no_mangle]
static stacker_rust_offsets: [usize; CHECKED_FIELDS] = {
    use core::mem::{offset_of, size_of};
    use kernel::bindings as b;
    [
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
        size_of::<b::lsm_blob_sizes>(),
    ]
};

/// Number of fields (and sizes) checked.
const CHECKED_FIELDS: usize = 37;

/// Number of entries in [`stacker_rust_offsets`] (C reads it).
#[no_mangle]
static stacker_rust_offsets_len: usize = CHECKED_FIELDS;

wrapper!(
    /// A `struct linux_binprm`: a program being executed.
    Binprm => bindings::linux_binprm
);

impl Binprm {
    /// The credentials the program will run with (being prepared).
    pub(crate) fn cred(&self) -> &Cred {
        // SAFETY: `cred` is set before any bprm hook runs and owned by the
        // binprm until it is committed.
        unsafe { Cred::from_raw((*self.as_raw()).cred) }
    }

    /// The file being executed.
    pub(crate) fn file(&self) -> &File {
        // SAFETY: `file` is set before any bprm hook runs and pinned by the
        // binprm.
        unsafe { File::from_raw((*self.as_raw()).file) }
    }
}

wrapper!(
    /// A `struct socket`.
    Socket => bindings::socket
);

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
}

pub(crate) use crate::access::{AccessMask, KernelCap};

// The shared `MAY_*` values are the kernel's.
const _: () = {
    use crate::access::may;
    assert!(may::EXEC == bindings::MAY_EXEC);
    assert!(may::WRITE == bindings::MAY_WRITE);
    assert!(may::READ == bindings::MAY_READ);
    assert!(may::APPEND == bindings::MAY_APPEND);
    assert!(may::NOT_BLOCK == bindings::MAY_NOT_BLOCK);
};

/// Reads a `kernel_cap_t`.
///
/// # Safety
///
/// `ptr` must be valid for reads.
pub(crate) unsafe fn kernel_cap(ptr: *const bindings::kernel_cap_t) -> KernelCap {
    // SAFETY: promised by the caller.
    KernelCap(unsafe { (*ptr).val })
}

/// The value a `getprocattr` hook returns, built up by a submodule.
pub(crate) struct ProcAttrValue(pub(crate) KVec<u8>);

impl ProcAttrValue {
    /// Appends bytes to the value.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        self.0.extend_from_slice(bytes, GFP_KERNEL)?;
        Ok(())
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
        let (ptr, len, _cap) = xattr.value.into_raw_parts();
        // SAFETY: by the type invariant there is room for one more of
        // stacker's slots at `*count`. The core `kfree`s `value`, which
        // came from `kmalloc` (KVec), and `name` is static.
        unsafe {
            let slot = self.xattrs.add(*self.count as usize);
            *self.count += 1;
            (*slot).name = xattr.name.as_char_ptr();
            (*slot).value = ptr.cast();
            (*slot).value_len = len;
        }
        self.used += 1;
        Ok(())
    }
}
