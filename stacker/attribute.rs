// SPDX-License-Identifier: GPL-2.0

//! What a securityfs file of stacker or a submodule shows and accepts.
//!
//! The kernel build serves these from securityfs (`securityfs.rs`); the host
//! build keeps them in a table that the test harness reads and writes.
//! Kernel-independent.

use crate::error::{Result, EINVAL};
use crate::platform::TextBuf;

/// What a securityfs file shows when read and does when written.
pub(crate) trait Attribute: 'static {
    /// Whether the file accepts writes (mode 0600 rather than 0444).
    const WRITABLE: bool = false;

    /// Formats the current value into `out`.
    fn show(out: &mut TextBuf) -> Result;

    /// Applies a write of `input`, all of it at once.
    ///
    /// The caller has already checked that the writer has `CAP_MAC_ADMIN`
    /// (or failed the write with `EPERM`). On error nothing may change.
    fn store(_input: &[u8]) -> Result {
        Err(EINVAL)
    }
}
