// SPDX-License-Identifier: GPL-2.0

//! Inodes, and the bare blob of one that is gone.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct inode`.
    Inode => bindings::inode
);
has_blob!(Inode, Inode, InodeState, |p| (*p).i_security);

impl Inode {
    /// The inode's superblock.
    #[inline]
    fn sb(&self) -> *mut bindings::super_block {
        // SAFETY: the inode is valid; `i_sb` is set when it is allocated
        // and fixed for its life, and the superblock outlives it.
        unsafe { (*self.as_raw()).i_sb }
    }

    /// Calls `f` with the name of one of the inode's dentries, or returns
    /// `None` when the inode has none.
    ///
    /// Takes and drops a dentry reference, which may sleep: not for
    /// RCU-walk mode (`MAY_NOT_BLOCK`). Kernel-only (`denyname`).
    pub(crate) fn with_alias_name<R>(
        &self,
        cx: &MaySleep,
        f: impl FnOnce(&[u8]) -> R,
    ) -> Option<R> {
        self.with_alias(cx, |dentry| dentry.with_name(f))
    }
}

impl InodeView for Inode {
    #[inline]
    fn is_dir(&self) -> bool {
        // SAFETY: the inode is valid; its file type never changes.
        let mode = u32::from(unsafe { (*self.as_raw()).i_mode });
        mode & bindings::S_IFMT == bindings::S_IFDIR
    }

    #[inline]
    fn is_private(&self) -> bool {
        // SAFETY: the inode is valid; `S_PRIVATE` is set when the inode is
        // made, before it is reachable, and never changes (one volatile
        // read, as the other `i_flags` bits may change).
        let flags = unsafe { core::ptr::addr_of!((*self.as_raw()).i_flags).read_volatile() };
        flags & bindings::S_PRIVATE != 0
    }

    fn fs_type(&self) -> &[u8] {
        // SAFETY: `sb()` is valid; `s_type` is set before the superblock's
        // inodes exist and then fixed.
        let fs_type = unsafe { (*self.sb()).s_type };
        // SAFETY: a file system type outlives its superblocks; its name is
        // a constant NUL-terminated string.
        let name = unsafe { (*fs_type).name };
        // SAFETY: as above: valid, NUL-terminated, unchanged, for longer
        // than the inode's borrow.
        unsafe { c_bytes(name) }
    }

    #[inline]
    fn ino(&self) -> u64 {
        // SAFETY: the inode is valid; `i_ino` is fixed once it is hashed.
        unsafe { (*self.as_raw()).i_ino }
    }

    #[inline]
    fn mode(&self) -> u16 {
        // SAFETY: the inode is valid; a racing `chmod` gives the old or
        // the new mode (an aligned 16-bit load).
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_mode).read_volatile() }
    }

    #[inline]
    fn is_reg(&self) -> bool {
        u32::from(self.mode()) & bindings::S_IFMT == bindings::S_IFREG
    }

    #[inline]
    fn uid(&self) -> u32 {
        // SAFETY: the inode is valid; a racing `chown` gives the old or
        // the new owner (an aligned 32-bit load).
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_uid.val).read_volatile() }
    }

    #[inline]
    fn gid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_gid.val).read_volatile() }
    }

    #[inline]
    fn generation(&self) -> u32 {
        // SAFETY: the inode is valid; the generation is set when it is
        // made and fixed.
        unsafe { (*self.as_raw()).i_generation }
    }

    #[inline]
    fn fs_uuid(&self) -> [u8; 16] {
        // SAFETY: `sb()` is valid; `s_uuid` is set while mounting, before
        // the file system's inodes are reachable, and then fixed.
        unsafe { (*self.sb()).s_uuid.b }
    }

    #[inline]
    fn writers(&self) -> i32 {
        // SAFETY: the inode is valid; `i_writecount` is an `atomic_t`, read
        // once as C's `atomic_read` does.
        unsafe { core::ptr::addr_of!((*self.as_raw()).i_writecount.counter).read_volatile() }
    }

    #[inline]
    fn on_pseudo_fs(&self) -> bool {
        // SAFETY: `sb()` is valid; `s_magic` is set before the
        // superblock's inodes are reachable and then fixed.
        let magic = unsafe { (*self.sb()).s_magic } as u64;
        crate::abi::PSEUDO_FS_MAGICS.contains(&magic)
    }

    #[inline]
    fn on_content_fs(&self) -> bool {
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

    #[inline]
    fn with_alias<R>(&self, _cx: &MaySleep, f: impl FnOnce(&Dentry) -> R) -> Option<R> {
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

    #[inline]
    fn fs_ready(&self) -> bool {
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
