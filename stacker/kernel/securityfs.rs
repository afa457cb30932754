// SPDX-License-Identifier: GPL-2.0

//! Read/write text files in securityfs, for stacker and its submodules.
//!
//! A file's behaviour is a type implementing [`Attribute`]; the
//! `file_operations` table for it is a compile-time constant. Files are
//! created once at boot and never removed: stacker is built in.
//!
//! C header: [`include/linux/security.h`](srctree/include/linux/security.h)

use core::{
    fmt,
    marker::PhantomData,
    sync::atomic::{AtomicPtr, Ordering},
};
use kernel::{
    alloc::{KBox, KVVec},
    bindings,
    error::from_err_ptr,
    ffi::{c_char, c_int, c_void},
    prelude::*,
    uaccess::{UserPtr, UserSlice},
};

/// The contents of a securityfs file as it is being formatted.
///
/// A policy can be tens of KiB: the buffer may be `vmalloc`ed. Appending
/// allocates (`GFP_KERNEL`) and so may sleep: a `TextBuf` is not `Send`, so
/// that no closure run under RCU (`RcuBox::read`, `RcuCell::read`, mlte's
/// `policy::with`, which all demand `Send`) can capture one and format
/// into it there; format what such a closure returns, after it.
pub(crate) struct TextBuf(KVVec<u8>, Option<Error>, NotSend);

/// A marker that makes its holder neither `Send` nor `Sync`.
type NotSend = core::marker::PhantomData<*const ()>;

impl TextBuf {
    fn new() -> Self {
        TextBuf(KVVec::new(), None, core::marker::PhantomData)
    }

    /// Appends raw bytes.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        self.0.extend_from_slice(bytes, GFP_KERNEL)?;
        Ok(())
    }

    /// Formats into the buffer with `f` (`write!` and the like); on
    /// failure, the error of the append that failed.
    pub(crate) fn format(&mut self, f: impl FnOnce(&mut Self) -> fmt::Result) -> Result {
        self.1 = None;
        f(self).map_err(|fmt::Error| self.1.take().unwrap_or(EINVAL))
    }
}

impl fmt::Write for TextBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_bytes(s.as_bytes()).map_err(|err| {
            self.1 = Some(err);
            fmt::Error
        })
    }
}

pub(crate) use crate::attribute::Attribute;
use crate::attribute::{check_write, WriterCaps};
use crate::objects::{DentryView, File, FileView};

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
        let mode: u16 = match (T::WRITABLE || T::TRANSACTION, T::ROOT_ONLY) {
            (true, _) => 0o600,
            (false, true) => 0o440,
            (false, false) => 0o444,
        };
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
        write: if T::WRITABLE || T::TRANSACTION {
            Some(write::<T>)
        } else {
            None
        },
        release: Some(release),
        // The offset is what tells a second write on one descriptor apart
        // from a new value: let userspace see it (and seek back to 0).
        llseek: Some(bindings::generic_file_llseek),
        ..pin_init::zeroed()
    };
    const TABLE: &'static bindings::file_operations = &Self::VTABLE;
}

/// The value an open file's reads are served from.
///
/// Formatted once, at the first read of the open file, and kept in the
/// file's `private_data` until it is closed: however small the reads, one
/// open file shows one whole value, never the start of an old value and
/// the end of a new one that was loaded in between.
///
/// # Safety
///
/// `file` must be an open file of an [`Attribute`] type, alive for `'a`,
/// whose `private_data` is only ever used through this function and
/// [`release`] (it starts out null).
unsafe fn snapshot<'a, T: Attribute>(file: *mut bindings::file) -> Result<&'a TextBuf> {
    // SAFETY: `private_data` is a pointer-sized, aligned field of the live
    // file, only accessed atomically while the file is open (see above).
    let slot = unsafe {
        AtomicPtr::<TextBuf>::from_ptr(core::ptr::addr_of_mut!((*file).private_data).cast())
    };
    let current = slot.load(Ordering::Acquire);
    if !current.is_null() {
        // SAFETY: a non-null `private_data` is a `KBox<TextBuf>` that lives
        // until `release`, which runs only after every read of the file
        // ended.
        return Ok(unsafe { &*current });
    }
    let mut out = TextBuf::new();
    T::show(&mut out)?;
    // SAFETY: as above: the caller's promise on `file`.
    Ok(unsafe { publish(file, out) }?.unwrap_or_else(|first| first))
}

/// Makes `value` what the open `file` reads, unless it already has a
/// value: then `Ok(Err(that one))`, and `value` is dropped. `ENOMEM` when
/// there is no room to keep it.
///
/// # Safety
///
/// As [`snapshot`].
unsafe fn publish<'a>(
    file: *mut bindings::file,
    value: TextBuf,
) -> Result<core::result::Result<&'a TextBuf, &'a TextBuf>> {
    // SAFETY: `private_data` is a pointer-sized, aligned field of the live
    // file, only accessed atomically while the file is open (see
    // `snapshot`).
    let slot = unsafe {
        AtomicPtr::<TextBuf>::from_ptr(core::ptr::addr_of_mut!((*file).private_data).cast())
    };
    let new = KBox::into_raw(KBox::new(value, GFP_KERNEL)?);
    Ok(
        match slot.compare_exchange(
            core::ptr::null_mut(),
            new,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            // SAFETY: `new` now lives in `private_data` until `release`, which
            // runs only after every read and write of the file ended.
            Ok(_) => Ok(unsafe { &*new }),
            Err(first) => {
                // SAFETY: `new` came from `KBox::into_raw` just above and was
                // never shared.
                drop(unsafe { KBox::from_raw(new) });
                // SAFETY: `first` is non-null, so a `KBox<TextBuf>` that lives
                // until `release`.
                Err(unsafe { &*first })
            }
        },
    )
}

/// `read` for an [`Attribute`] file, from the open file's snapshot.
///
/// # Safety
///
/// Called by the VFS with an open `file`, a user buffer of `count` bytes
/// and a valid `ppos`.
unsafe extern "C" fn read<T: Attribute>(
    file: *mut bindings::file,
    buf: *mut c_char,
    count: usize,
    ppos: *mut bindings::loff_t,
) -> isize {
    // SAFETY: the VFS passes an open file of this attribute type.
    let value = match unsafe { snapshot::<T>(file) } {
        Ok(value) => value,
        Err(err) => return err.to_errno() as isize,
    };
    // SAFETY: `buf` is a user buffer of `count` bytes and `ppos` is valid, as
    // the VFS promises; the source is `value.0.len()` initialised bytes.
    unsafe {
        bindings::simple_read_from_buffer(
            buf.cast::<c_void>(),
            count,
            ppos,
            value.0.as_ptr().cast::<c_void>(),
            value.0.len(),
        )
    }
}

/// `release` for every [`Attribute`] file: frees the read snapshot.
///
/// # Safety
///
/// Called by the VFS once, when the last reference to `file` is gone.
unsafe extern "C" fn release(_inode: *mut bindings::inode, file: *mut bindings::file) -> c_int {
    // SAFETY: the file is alive for this call and no read can run any more.
    let value = unsafe { (*file).private_data }.cast::<TextBuf>();
    if !value.is_null() {
        // SAFETY: a non-null `private_data` came from `KBox::into_raw` in
        // `snapshot`, and nothing uses it after this.
        drop(unsafe { KBox::from_raw(value) });
    }
    0
}

/// `write` for an [`Attribute`] file: the whole value in one `write()` at
/// offset 0, under the rules of [`check_write`]. On success the file offset
/// moves past the value, so that a second `write()` on the same descriptor
/// is refused rather than taken as a value of its own.
///
/// # Safety
///
/// Called by the VFS with an open `file`, a user buffer of `count` bytes and
/// a valid `ppos`.
unsafe extern "C" fn write<T: Attribute>(
    file: *mut bindings::file,
    buf: *const c_char,
    count: usize,
    ppos: *mut bindings::loff_t,
) -> isize {
    // SAFETY: the VFS passes a valid `ppos`, not shared during the call.
    let pos = unsafe { *ppos };
    // SAFETY: the VFS passes the open file, alive for the whole call.
    let file = unsafe { File::from_raw(file) };
    let Ok(written) = isize::try_from(count) else {
        return EFBIG.to_errno() as isize;
    };
    let done = if T::TRANSACTION {
        write_question::<T>(file, buf, count, pos)
    } else {
        write_value::<T>(file, buf, count, pos)
    };
    match done {
        // A question leaves the offset at 0, so that the answer reads from
        // its start (as selinuxfs's transaction files); a second question
        // on the file then gets `EBUSY`.
        Ok(()) if T::TRANSACTION => written,
        Ok(()) => {
            // SAFETY: as above; the VFS copies `*ppos` back into `f_pos`.
            unsafe { *ppos = pos + written as bindings::loff_t };
            written
        }
        Err(err) => err.to_errno() as isize,
    }
}

/// Checks a write, copies the value in and stores it.
fn write_value<T: Attribute>(
    file: &File,
    buf: *const c_char,
    count: usize,
    pos: bindings::loff_t,
) -> Result {
    T::store(&copy_in::<T>(file, buf, count, pos)?)
}

/// Checks a write to a transaction file, copies the question in, answers
/// it and keeps the answer for the file's reads (`EBUSY` if the file was
/// read first, or already answered).
fn write_question<T: Attribute>(
    file: &File,
    buf: *const c_char,
    count: usize,
    pos: bindings::loff_t,
) -> Result {
    let question = copy_in::<T>(file, buf, count, pos)?;
    let mut answer = TextBuf::new();
    T::answer(&question, &mut answer)?;
    // SAFETY: `file` is an open file of this attribute type (the VFS called
    // its `write`), whose `private_data` only `snapshot`, `publish` and
    // `release` use.
    match unsafe { publish(file.as_raw(), answer) }? {
        Ok(_) => Ok(()),
        Err(_) => Err(EBUSY),
    }
}

/// Checks a write (the rules of [`check_write`]) and copies its bytes in.
fn copy_in<T: Attribute>(
    file: &File,
    buf: *const c_char,
    count: usize,
    pos: bindings::loff_t,
) -> Result<KVVec<u8>> {
    let caps = WriterCaps {
        // SAFETY: the file is open, so its `f_cred` is valid; `init_user_ns`
        // is a static object.
        opener: unsafe {
            bindings::file_ns_capable(
                file.as_raw(),
                core::ptr::addr_of_mut!(bindings::init_user_ns),
                bindings::CAP_MAC_ADMIN as i32,
            )
        },
        // SAFETY: `capable` may be called from any process context.
        writer: unsafe { bindings::capable(bindings::CAP_MAC_ADMIN as i32) },
    };
    file.dentry().with_name(|name| {
        let name = core::str::from_utf8(name).unwrap_or("?");
        check_write(name, caps, pos, count, T::MAX_WRITE)
    })?;
    let mut data = KVVec::new();
    UserSlice::new(UserPtr::from_ptr(buf.cast_mut().cast::<c_void>()), count)
        .read_all(&mut data, GFP_KERNEL)?;
    Ok(data)
}
