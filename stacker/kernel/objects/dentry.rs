// SPDX-License-Identifier: GPL-2.0

//! Dentries.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct dentry`.
    Dentry => bindings::dentry
);

impl DentryView for Dentry {
    #[inline]
    fn getxattr_of(
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

    fn inode(&self) -> Option<&Inode> {
        // SAFETY: the dentry is valid; a positive dentry pins its inode. One
        // volatile read, as C's `READ_ONCE`: in an RCU-walk lookup
        // (`inode_follow_link` with `rcu`) the dentry may change meanwhile.
        let inode = unsafe { core::ptr::addr_of!((*self.as_raw()).d_inode).read_volatile() };
        // SAFETY: non-null `d_inode` is a valid inode for the borrow.
        (!inode.is_null()).then(|| unsafe { Inode::from_raw(inode) })
    }

    fn with_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
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

    fn with_path<R>(&self, _cx: &MaySleep, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        const PATH_MAX: usize = bindings::PATH_MAX as usize;
        let mut buf = KVec::<u8>::with_capacity(PATH_MAX, kernel::alloc::flags::GFP_KERNEL)?;
        let (dentry, base, size) = (self.as_raw(), buf.as_mut_ptr(), PATH_MAX as c_int);
        // SAFETY: the dentry is valid; `base` is writable for `PATH_MAX`
        // bytes. `dentry_path_raw` writes the path and its NUL at the end
        // of the buffer and returns where it starts, or an error pointer.
        let start = unsafe { bindings::dentry_path_raw(dentry, base.cast(), size) };
        let start = kernel::error::from_err_ptr(start)?;
        // The path runs from `start` to the NUL in the buffer's last byte.
        let end = (base as usize).checked_add(PATH_MAX - 1).ok_or(EINVAL)?;
        let len = end.checked_sub(start as usize).ok_or(EINVAL)?;
        // SAFETY: `dentry_path_raw` wrote `len` bytes from `start`, inside
        // the buffer, which lives until the end of this function.
        let path = unsafe { core::slice::from_raw_parts(start.cast::<u8>(), len) };
        Ok(f(path))
    }
}
