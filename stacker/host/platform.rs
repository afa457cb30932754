// SPDX-License-Identifier: GPL-2.0

//! Host stand-ins for what the kernel build gets from `boot.rs`,
//! `securityfs.rs` and the static keys.
//!
//! The boot state is per thread, so that parallel tests can boot different
//! chains.

use crate::chain::{BootState, ChainSpec};
use std::cell::{Cell, RefCell};

thread_local! {
    static BOOT: Cell<Option<&'static BootState>> = const { Cell::new(None) };
    static DIRS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

static EMPTY: BootState = match BootState::new(ChainSpec::EMPTY, &[], &[], true) {
    Ok(state) => state,
    Err(_) => panic!("the empty chain always lays out"),
};

/// The boot state of this thread (the empty chain before any boot).
pub(crate) fn boot() -> &'static BootState {
    BOOT.with(|b| b.get()).unwrap_or(&EMPTY)
}

/// Makes `state` this thread's boot state.
pub(crate) fn set_boot(state: BootState) {
    let leaked: &'static BootState = Box::leak(Box::new(state));
    BOOT.with(|b| b.set(Some(leaked)));
    DIRS.with(|d| d.borrow_mut().clear());
}

/// The static branch of the single-module direct path: on when `index` is
/// the only submodule and the fast path is on.
pub(crate) fn single(index: usize) -> bool {
    boot().single() == Some(index as u8)
}

/// A securityfs directory; on the host it only records its path.
pub(crate) struct Dir {
    path: String,
}

impl Dir {
    /// The directory `/sys/kernel/security/stacker`.
    pub(crate) fn stacker_root() -> Dir {
        Dir {
            path: "stacker".into(),
        }
    }

    /// Creates a subdirectory.
    pub(crate) fn create_dir(&self, name: &core::ffi::CStr) -> crate::error::Result<Dir> {
        let path = format!("{}/{}", self.path, name.to_string_lossy());
        DIRS.with(|d| d.borrow_mut().push(path.clone()));
        Ok(Dir { path })
    }
}

/// The directories created since this thread's last boot.
pub(crate) fn dirs() -> Vec<String> {
    DIRS.with(|d| d.borrow().clone())
}
