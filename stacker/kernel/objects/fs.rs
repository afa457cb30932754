// SPDX-License-Identifier: GPL-2.0

//! Superblocks, paths, mounts and attribute changes.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct super_block`: a mounted (or mounting) file system.
    Superblock => bindings::super_block
);
has_blob!(Superblock, Superblock, SuperblockState, |p| (*p).s_security);

impl SuperblockView for Superblock {
    #[inline]
    fn magic(&self) -> u64 {
        // SAFETY: the superblock is valid; `s_magic` is set before it is
        // mounted and then fixed.
        unsafe { (*self.as_raw()).s_magic as u64 }
    }

    #[inline]
    fn fs_type(&self) -> &[u8] {
        // SAFETY: the superblock is valid; `s_type` is set when it is
        // made and then fixed.
        let fs_type = unsafe { (*self.as_raw()).s_type };
        // SAFETY: a file system type outlives its superblocks; its name is
        // a constant NUL-terminated string.
        let name = unsafe { (*fs_type).name };
        // SAFETY: as above: valid, NUL-terminated, unchanged, for longer
        // than the superblock's borrow.
        unsafe { c_bytes(name) }
    }
}

wrapper!(
    /// A `struct path`: a mount and a dentry in it.
    Path => bindings::path
);

impl PathView for Path {
    #[inline]
    fn dentry(&self) -> &Dentry {
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

impl VfsmountView for Vfsmount {
    #[inline]
    fn superblock(&self) -> &Superblock {
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

impl IattrView for Iattr {
    #[inline]
    fn valid(&self) -> u32 {
        // SAFETY: the iattr is valid for the hook call.
        unsafe { (*self.as_raw()).ia_valid }
    }

    #[inline]
    fn mode(&self) -> u16 {
        // SAFETY: as above.
        unsafe { (*self.as_raw()).ia_mode }
    }
}
