// SPDX-License-Identifier: GPL-2.0

//! What the kernel-independent core needs from the kernel build: the boot
//! state, securityfs directories, and the fast-path static keys.
//!
//! The host build has a file of the same role (`host/platform.rs`).

pub(crate) use crate::boot::boot;
pub(crate) use crate::securityfs::Dir;

use kernel::bindings::static_key_false;

/// The fast-path static keys, one per registry index, defined in `lsm.c`
/// as `struct stacker_single_keys`.
///
/// Key `mN` is enabled at boot when submodule `N` is the only one in the
/// chain and the fast path is on; it is never changed afterwards.
#[repr(C)]
pub(crate) struct SingleKeys {
    pub(crate) m0: static_key_false,
    pub(crate) m1: static_key_false,
    pub(crate) m2: static_key_false,
    pub(crate) m3: static_key_false,
    pub(crate) m4: static_key_false,
    pub(crate) m5: static_key_false,
    pub(crate) m6: static_key_false,
    pub(crate) m7: static_key_false,
}

extern "C" {
    /// The keys (`lsm.c`).
    pub(crate) static stacker_single: SingleKeys;
}

/// Number of fast-path keys: the most submodules the kernel build can have.
pub(crate) const SINGLE_KEYS: usize = 8;

/// The single-module direct path for registry index `$idx`: a static
/// branch, patched to a jump at boot when that submodule is alone.
macro_rules! single_branch {
    ($idx:literal, $key:ident) => {
        // SAFETY: `stacker_single` is a real static key structure defined
        // in C (`lsm.c`), and `$key` is one of its `static_key_false` fields.
        unsafe {
            kernel::static_branch_unlikely!(
                crate::platform::stacker_single,
                crate::platform::SingleKeys,
                $key
            )
        }
    };
}
pub(crate) use single_branch;
