// SPDX-License-Identifier: GPL-2.0

//! Typed, borrowed views of the kernel objects that hooks receive.
//!
//! rust/kernel has no inode or dentry abstraction, and its `File` does not
//! expose the path, so stacker keeps thin `#[repr(transparent)]` wrappers
//! here. A hook gets `&File` or `&Inode`; the borrow lasts for the hook call.
//!
//! C headers: [`include/linux/fs.h`](srctree/include/linux/fs.h),
//! [`include/linux/dcache.h`](srctree/include/linux/dcache.h)

use core::mem::MaybeUninit;
use kernel::{bindings, types::Opaque};

/// A `struct file` that is valid for the lifetime of the borrow.
///
/// # Invariants
///
/// The wrapped `struct file` is valid and its `f_path` is set for as long as
/// the reference to this `File` lives.
#[repr(transparent)]
pub(crate) struct File(Opaque<bindings::file>);

impl File {
    /// Borrows a `struct file` passed in by the LSM core.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid `struct file` whose `f_path` is set, and it
    /// must stay so for `'a`.
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::file) -> &'a File {
        // SAFETY: `File` is `repr(transparent)` over the C struct, and the
        // caller promises validity for `'a`.
        // INVARIANT: as promised by the caller.
        unsafe { &*ptr.cast::<File>() }
    }

    /// The dentry the file was opened through.
    pub(crate) fn dentry(&self) -> &Dentry {
        // SAFETY: by the type invariant `f_path` is set, and an open file
        // holds a reference on its dentry, so it outlives `&self`.
        unsafe { Dentry::from_raw((*self.0.get()).__bindgen_anon_1.f_path.dentry) }
    }
}

/// A `struct dentry` that is valid for the lifetime of the borrow.
///
/// # Invariants
///
/// The wrapped dentry is valid (referenced by the caller) while borrowed.
#[repr(transparent)]
pub(crate) struct Dentry(Opaque<bindings::dentry>);

impl Dentry {
    /// Borrows a dentry.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid dentry that stays referenced for `'a`.
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::dentry) -> &'a Dentry {
        // SAFETY: `Dentry` is `repr(transparent)` over the C struct, and the
        // caller promises validity for `'a`.
        // INVARIANT: as promised by the caller.
        unsafe { &*ptr.cast::<Dentry>() }
    }

    /// Calls `f` with a stable copy of the dentry's name.
    ///
    /// A dentry may be renamed at any time; the snapshot taken here stays
    /// valid until `f` returns. Taking it does not sleep, so this may be
    /// called in any context where the dentry is referenced.
    pub(crate) fn with_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        let mut snapshot = MaybeUninit::<bindings::name_snapshot>::uninit();
        let snapshot = snapshot.as_mut_ptr();
        // SAFETY: `self` is a valid dentry by the type invariant, and
        // `snapshot` is writable storage that does not move until it is
        // released below (the snapshot may point into itself).
        unsafe { bindings::take_dentry_name_snapshot(snapshot, self.0.get()) };
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

/// A `struct inode` that is valid for the lifetime of the borrow.
///
/// # Invariants
///
/// The wrapped inode is valid while borrowed.
#[repr(transparent)]
pub(crate) struct Inode(Opaque<bindings::inode>);

impl Inode {
    /// Borrows an inode passed in by the LSM core.
    ///
    /// # Safety
    ///
    /// `ptr` must point to a valid inode that stays valid for `'a`.
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::inode) -> &'a Inode {
        // SAFETY: `Inode` is `repr(transparent)` over the C struct, and the
        // caller promises validity for `'a`.
        // INVARIANT: as promised by the caller.
        unsafe { &*ptr.cast::<Inode>() }
    }

    /// Whether this inode is a directory.
    pub(crate) fn is_dir(&self) -> bool {
        // SAFETY: the inode is valid by the type invariant; `i_mode` does
        // not change its file type after the inode is set up.
        let mode = u32::from(unsafe { (*self.0.get()).i_mode });
        mode & bindings::S_IFMT == bindings::S_IFDIR
    }

    /// Calls `f` with the name of one of the inode's dentries, or returns
    /// `None` when the inode has no dentry.
    ///
    /// This takes and drops a dentry reference, which may sleep: it must not
    /// be called in RCU-walk mode (`MAY_NOT_BLOCK`).
    pub(crate) fn with_alias_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        // SAFETY: the inode is valid by the type invariant.
        let alias = unsafe { bindings::d_find_alias(self.0.get()) };
        if alias.is_null() {
            return None;
        }
        // SAFETY: `d_find_alias` returned a referenced dentry, which stays
        // valid until the `dput` below.
        let result = unsafe { Dentry::from_raw(alias) }.with_name(f);
        // SAFETY: drops the reference that `d_find_alias` took.
        unsafe { bindings::dput(alias) };
        Some(result)
    }
}

/// The access a permission hook is asked about (`MAY_*` bits).
#[derive(Clone, Copy)]
pub(crate) struct AccessMask(u32);

impl AccessMask {
    /// Wraps the `mask` argument of a permission hook.
    pub(crate) fn from_raw(mask: i32) -> Self {
        AccessMask(mask as u32)
    }

    /// Whether execute, or search for a directory, is asked for.
    pub(crate) fn exec(self) -> bool {
        self.0 & bindings::MAY_EXEC != 0
    }

    /// Whether the caller is in RCU-walk mode and must not sleep.
    pub(crate) fn non_blocking(self) -> bool {
        self.0 & bindings::MAY_NOT_BLOCK != 0
    }
}
