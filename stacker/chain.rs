// SPDX-License-Identifier: GPL-2.0

//! The chain of submodules and the hook dispatch through it.
//!
//! The chain is fixed at compile time: [`define_chain!`] expands each hook
//! into a straight sequence of direct calls, one per submodule, in chain
//! order. There are no function pointers and no loop on the dispatch path.
//! For every `int` hook wired so far the LSM default is 0, so the first
//! submodule that returns an error decides, and later submodules are not
//! called.

use crate::objects::{AccessMask, File, Inode};
use crate::securityfs::Dir;
use crate::submodule::Submodule;
use kernel::prelude::*;

/// Defines the chain: one `static` per submodule and one dispatch function
/// per hook.
macro_rules! define_chain {
    ($($module:ident: $ty:ty = $init:expr),+ $(,)?) => {
        $(static $module: $ty = $init;)+

        /// The names of the submodules, in chain order.
        pub(crate) const NAMES: &[&CStr] = &[$(<$ty as Submodule>::NAME),+];

        /// Initialises every submodule, in chain order.
        pub(crate) fn init() -> Result {
            $($module.init()?;)+
            Ok(())
        }

        /// Creates each submodule's securityfs directory under `parent`.
        pub(crate) fn securityfs_init(parent: &Dir) -> Result {
            $(
                let dir = parent.create_dir(<$ty as Submodule>::NAME)?;
                $module.securityfs_init(&dir)?;
            )+
            Ok(())
        }

        /// Dispatches `file_open` through the chain.
        pub(crate) fn file_open(file: &File) -> Result {
            $($module.file_open(file)?;)+
            Ok(())
        }

        /// Dispatches `inode_permission` through the chain.
        pub(crate) fn inode_permission(inode: &Inode, mask: AccessMask) -> Result {
            $($module.inode_permission(inode, mask)?;)+
            Ok(())
        }
    };
}

define_chain! {
    DENYNAME: crate::denyname::DenyName = crate::denyname::DenyName,
}
