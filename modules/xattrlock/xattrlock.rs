// SPDX-License-Identifier: GPL-2.0

//! `xattrlock`: the example submodule of the module author's guide.
//!
//! Setting the extended attribute `user.xattrlock` to `locked` on a file
//! locks it: from then on, opening it and unlinking or renaming it fail.
//! Setting any other value, or removing the attribute, unlocks it.
//!
//! The lock is one flag in the submodule's own slot of the inode's security
//! blob, so it costs no lookup and dies with the inode. It is recorded in
//! the post-operation hooks, once the xattr was set or removed: a refused
//! or failed `setxattr` changes nothing.
//!
//! The type is generic over an instance number so that the tests can stack
//! three independent copies (`xattrlock`, `xattrlock_b`, `xattrlock_c`),
//! each with its own attribute name and its own error code, and see which
//! one decided. Kernel-independent: the host harness runs the same file.

use crate::blob::{BlobState, HasBlob};
use crate::context::MaySleep;
use crate::error::{Error, Result, EACCES, EPERM, EROFS};
use crate::objects::{Dentry, DentryView, File, FileView, Inode};
use crate::submodule::Registered;
use core::ffi::CStr;
use core::sync::atomic::{AtomicBool, Ordering};

/// Instance `I` of the example submodule.
pub(crate) struct XattrLock<const I: usize>;

crate::submodule::state_key!(XattrLockKey<const I: usize> for XattrLock<I>);

/// The per-inode state: is the inode locked?
#[derive(Default)]
pub(crate) struct LockState {
    locked: AtomicBool,
}

// SAFETY: all-zero is `locked == false`, and there is nothing to drop.
unsafe impl BlobState for LockState {}

const NAMES: [&CStr; 3] = [c"xattrlock", c"xattrlock_b", c"xattrlock_c"];
const ATTRS: [&[u8]; 3] = [b"user.xattrlock", b"user.xattrlock_b", b"user.xattrlock_c"];
const ERRORS: [Error; 3] = [EACCES, EPERM, EROFS];

impl<const I: usize> XattrLock<I>
where
    Self: Registered,
{
    /// Whether `inode` is locked by this instance.
    fn locked(inode: &Inode) -> bool {
        inode
            .state(&key::<I>())
            .is_some_and(|s| s.locked.load(Ordering::Acquire))
    }

    /// Denies with this instance's error if `inode` is locked.
    fn check(inode: Option<&Inode>) -> Result {
        match inode {
            Some(inode) if Self::locked(inode) => Err(ERRORS[I]),
            _ => Ok(()),
        }
    }

    /// Records the lock state of `dentry`'s inode.
    fn set(dentry: &Dentry, locked: bool) {
        if let Some(state) = dentry.inode().and_then(|i| i.state(&key::<I>())) {
            state.locked.store(locked, Ordering::Release);
        }
    }
}

crate::submodule::submodule! {
    impl [const I: usize] Submodule for XattrLock<I> where [Self: Registered] {
        const NAME: &'static CStr = NAMES[I];

        type Key = XattrLockKey<I>;
        crate::submodule::blob_states! { inode: LockState }
    }
    hooks {
        fn file_open(&self, _cx: &MaySleep, file: &File) -> Result {
            Self::check(Some(file.inode()))
        }

        fn inode_unlink(&self, _cx: &MaySleep, _dir: &Inode, dentry: &Dentry) -> Result {
            Self::check(dentry.inode())
        }

        fn inode_rename(
            &self,            _cx: &MaySleep,
            _old_dir: &Inode,
            old: &Dentry,
            _new_dir: &Inode,
            new: &Dentry,
        ) -> Result {
            Self::check(old.inode())?;
            Self::check(new.inode())
        }

        fn inode_post_setxattr(&self, _cx: &MaySleep, dentry: &Dentry, name: &[u8], value: &[u8], _flags: i32) {
            if name == ATTRS[I] {
                Self::set(dentry, value == b"locked");
            }
        }

        fn inode_post_removexattr(&self, _cx: &MaySleep, dentry: &Dentry, name: &[u8]) {
            if name == ATTRS[I] {
                Self::set(dentry, false);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::error::{EACCES, EPERM};
    use crate::harness::Harness;

    #[test]
    fn locked_file_cannot_be_opened_or_unlinked() {
        let h = Harness::boot("xattrlock").unwrap();
        let file = h.create("secret").unwrap();
        assert!(h.open(&file).is_ok());
        h.setxattr(&file, b"user.xattrlock", b"locked").unwrap();
        assert_eq!(h.open(&file).err(), Some(EACCES));
        assert_eq!(h.unlink(&file), Err(EACCES));
        h.removexattr(&file, b"user.xattrlock").unwrap();
        assert!(h.open(&file).is_ok());
        assert_eq!(h.unlink(&file), Ok(()));
    }

    #[test]
    fn other_values_and_attributes_do_not_lock() {
        let h = Harness::boot("xattrlock").unwrap();
        let file = h.create("f").unwrap();
        h.setxattr(&file, b"user.xattrlock", b"open").unwrap();
        h.setxattr(&file, b"user.other", b"locked").unwrap();
        assert!(h.open(&file).is_ok());
    }

    #[test]
    fn stacked_copies_keep_separate_locks_and_order_decides() {
        let h = Harness::boot("xattrlock,xattrlock_b").unwrap();
        let both = h.create("both").unwrap();
        let only_b = h.create("only_b").unwrap();
        h.setxattr(&both, b"user.xattrlock", b"locked").unwrap();
        h.setxattr(&both, b"user.xattrlock_b", b"locked").unwrap();
        h.setxattr(&only_b, b"user.xattrlock_b", b"locked").unwrap();
        assert_eq!(h.open(&both).err(), Some(EACCES));
        assert_eq!(h.open(&only_b).err(), Some(EPERM));
        // Unlocking one copy leaves the other's lock in place.
        h.removexattr(&both, b"user.xattrlock").unwrap();
        assert_eq!(h.open(&both).err(), Some(EPERM));

        let h = Harness::boot("xattrlock_b,xattrlock").unwrap();
        let both = h.create("both").unwrap();
        h.setxattr(&both, b"user.xattrlock", b"locked").unwrap();
        h.setxattr(&both, b"user.xattrlock_b", b"locked").unwrap();
        assert_eq!(h.open(&both).err(), Some(EPERM));
    }
}
