// SPDX-License-Identifier: GPL-2.0

//! The trait that every stacker submodule implements.
//!
//! Each hook method has a default that means "no opinion" (`Ok(())`), so a
//! submodule implements only the hooks it cares about. A denial is an
//! `Err` carrying a kernel error code; it is never a panic.

use crate::objects::{AccessMask, File, Inode};
use crate::securityfs::Dir;
use kernel::prelude::*;

/// A security module that runs behind stacker, in chain order.
pub(crate) trait Submodule: Sync + 'static {
    /// The name in `/sys/kernel/security/stacker/chain` and the name of the
    /// submodule's own securityfs directory.
    const NAME: &'static CStr;

    /// Called once from stacker's LSM init, before any hook can run.
    fn init(&'static self) -> Result {
        Ok(())
    }

    /// Creates the submodule's files in its securityfs directory.
    fn securityfs_init(&'static self, _dir: &Dir) -> Result {
        Ok(())
    }

    /// `file_open` LSM hook: may `file` be opened?
    fn file_open(&self, _file: &File) -> Result {
        Ok(())
    }

    /// `inode_permission` LSM hook: may `mask` access be made to `inode`?
    fn inode_permission(&self, _inode: &Inode, _mask: AccessMask) -> Result {
        Ok(())
    }
}
