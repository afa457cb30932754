// SPDX-License-Identifier: GPL-2.0

//! Read/write text files in securityfs, for stacker and its submodules.
//!
//! A file's behaviour is a type implementing [`Attribute`]; the
//! `file_operations` table for it is a compile-time constant. Files are
//! created once at boot and never removed: stacker is built in.
//!
//! C header: [`include/linux/security.h`](srctree/include/linux/security.h)

use core::{fmt, marker::PhantomData};
use kernel::{
    alloc::KVec,
    bindings,
    error::from_err_ptr,
    ffi::{c_char, c_void},
    prelude::*,
    uaccess::{UserPtr, UserSlice},
};

/// Largest write a securityfs file accepts, in bytes.
pub(crate) const MAX_WRITE: usize = 4096;

/// The contents of a securityfs file as it is being formatted.
pub(crate) struct TextBuf(KVec<u8>);

impl TextBuf {
    fn new() -> Self {
        TextBuf(KVec::new())
    }

    /// Appends raw bytes.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        self.0.extend_from_slice(bytes, GFP_KERNEL)?;
        Ok(())
    }
}

impl fmt::Write for TextBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_bytes(s.as_bytes()).map_err(|_| fmt::Error)
    }
}

pub(crate) use crate::attribute::Attribute;

/// A securityfs directory.
///
/// # Invariants
///
/// `dentry` is a securityfs directory that is never removed, or null for
/// the securityfs root.
#[derive(Clone, Copy)]
pub(crate) struct Dir {
    dentry: *mut bindings::dentry,
}

impl Dir {
    /// The root of securityfs (`/sys/kernel/security`).
    pub(crate) fn root() -> Self {
        // INVARIANT: null stands for the securityfs root.
        Dir {
            dentry: core::ptr::null_mut(),
        }
    }

    /// Creates a subdirectory.
    pub(crate) fn create_dir(&self, name: &CStr) -> Result<Dir> {
        // SAFETY: `name` is a valid C string and `self.dentry` is a
        // securityfs directory or null, by the type invariant.
        let dentry = from_err_ptr(unsafe {
            bindings::securityfs_create_dir(name.as_char_ptr(), self.dentry)
        })?;
        // INVARIANT: securityfs returned a directory, which is never removed.
        Ok(Dir { dentry })
    }

    /// Creates a file whose behaviour is given by `T`.
    pub(crate) fn create_file<T: Attribute>(&self, name: &CStr) -> Result {
        let mode: u16 = if T::WRITABLE { 0o600 } else { 0o444 };
        // SAFETY: `name` is a valid C string, `self.dentry` is a securityfs
        // directory by the type invariant, and the operations table is a
        // `'static` constant.
        from_err_ptr(unsafe {
            bindings::securityfs_create_file(
                name.as_char_ptr(),
                mode,
                self.dentry,
                core::ptr::null_mut(),
                FileOps::<T>::TABLE,
            )
        })?;
        Ok(())
    }
}

/// The `file_operations` table for an [`Attribute`] type.
struct FileOps<T>(PhantomData<T>);

impl<T: Attribute> FileOps<T> {
    const VTABLE: bindings::file_operations = bindings::file_operations {
        read: Some(read::<T>),
        write: if T::WRITABLE { Some(write::<T>) } else { None },
        ..pin_init::zeroed()
    };
    const TABLE: &'static bindings::file_operations = &Self::VTABLE;
}

/// `read` for an [`Attribute`] file.
///
/// # Safety
///
/// Called by the VFS with a user buffer of `count` bytes and a valid `ppos`.
unsafe extern "C" fn read<T: Attribute>(
    _file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut bindings::loff_t,
) -> isize {
    let mut out = TextBuf::new();
    if let Err(err) = T::show(&mut out) {
        return err.to_errno() as isize;
    }
    // SAFETY: `buf` is a user buffer of `count` bytes and `ppos` is valid, as
    // the VFS promises; the source is `out.0.len()` initialised bytes.
    unsafe {
        bindings::simple_read_from_buffer(
            buf.cast::<c_void>(),
            count,
            ppos,
            out.0.as_ptr().cast::<c_void>(),
            out.0.len(),
        )
    }
}

/// `write` for an [`Attribute`] file: the whole value in one write.
///
/// # Safety
///
/// Called by the VFS with a user buffer of `count` bytes and a valid `ppos`.
unsafe extern "C" fn write<T: Attribute>(
    _file: *mut bindings::file,
    buf: *const c_char,
    count: usize,
    ppos: *mut bindings::loff_t,
) -> isize {
    // SAFETY: the VFS passes a valid `ppos`.
    let pos = unsafe { *ppos };
    match write_all::<T>(buf, count, pos) {
        Ok(()) => count as isize,
        Err(err) => err.to_errno() as isize,
    }
}

fn write_all<T: Attribute>(buf: *const c_char, count: usize, pos: bindings::loff_t) -> Result {
    // SAFETY: `capable` may be called from any process context.
    if !unsafe { bindings::capable(bindings::CAP_MAC_ADMIN as i32) } {
        return Err(EPERM);
    }
    if pos != 0 {
        pr_warn!("securityfs: a value must be written at once, at offset 0\n");
        return Err(EINVAL);
    }
    if count > MAX_WRITE {
        pr_warn!("securityfs: write of {count} bytes is over the {MAX_WRITE}-byte limit\n");
        return Err(EINVAL);
    }
    let mut data = KVec::new();
    UserSlice::new(UserPtr::from_ptr(buf.cast_mut().cast::<c_void>()), count)
        .read_all(&mut data, GFP_KERNEL)?;
    T::store(&data)
}
