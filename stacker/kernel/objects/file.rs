// SPDX-License-Identifier: GPL-2.0

//! The open file and the file in its alloc and free hooks.

#[allow(unused_imports)]
use super::*;

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
    /// The file's `f_mode`.
    #[inline]
    fn mode(&self) -> u32 {
        // SAFETY: the file is valid; the `FMODE_READ`/`FMODE_WRITE` bits
        // are set at open and fixed.
        unsafe { (*self.as_raw()).f_mode }
    }
}

impl FileView for File {
    fn dentry(&self) -> &Dentry {
        // SAFETY: an open file holds a reference on its `f_path.dentry`,
        // which therefore outlives `&self`.
        unsafe { Dentry::from_raw((*self.as_raw()).__bindgen_anon_1.f_path.dentry) }
    }

    #[inline]
    fn getxattr(&self, cx: &MaySleep, name: &CStr, buf: &mut [u8]) -> Result<usize> {
        self.dentry().getxattr_of(cx, self.inode(), name, buf)
    }

    fn inode(&self) -> &Inode {
        // SAFETY: `f_inode` is set for every file and pinned by it.
        unsafe { Inode::from_raw((*self.as_raw()).f_inode) }
    }

    #[inline]
    fn readable(&self) -> bool {
        self.mode() & FMODE_READ != 0
    }

    #[inline]
    fn writable(&self) -> bool {
        self.mode() & FMODE_WRITE != 0
    }

    #[inline]
    fn appending(&self) -> bool {
        // SAFETY: the file is valid; `f_flags` is a plain word that
        // `fcntl(F_SETFL)` rewrites under `f_lock`, read once as C's
        // `READ_ONCE`.
        let flags = unsafe { core::ptr::addr_of!((*self.as_raw()).f_flags).read_volatile() };
        flags & crate::abi::O_APPEND != 0
    }

    #[inline]
    fn writably_mapped(&self) -> bool {
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

    #[inline]
    fn absolute_path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]> {
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

    #[inline]
    fn path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]> {
        let len = i32::try_from(buf.len()).ok()?;
        // SAFETY: the file is open, so its `f_path` is valid; `buf` is
        // writable for `len` bytes.
        let p = unsafe { bindings::file_path(self.as_raw(), buf.as_mut_ptr().cast(), len) };
        path_at(p, buf)
    }
}
