// SPDX-License-Identifier: GPL-2.0

//! What a securityfs file of stacker or a submodule shows and accepts, and
//! the rules every write to one must pass.
//!
//! The kernel build serves these from securityfs (`securityfs.rs`); the host
//! build keeps them in a table that the test harness reads and writes. Both
//! apply [`check_write`], so the host tests exercise the very checks that
//! guard the kernel's files. Kernel-independent.

use crate::error::{Result, EFBIG, EINVAL, EPERM};
use crate::platform::{pr_warn, ratelimit_securityfs, TextBuf};

/// What a securityfs file shows when read and does when written.
pub(crate) trait Attribute: 'static {
    /// Whether the file accepts writes (mode 0600 rather than 0444).
    const WRITABLE: bool = false;

    /// Whether only root may read it (0440 rather than 0444, for a
    /// read-only file): for what names other users' files. The host model
    /// has no file modes: only the kernel reads it.
    #[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
    const ROOT_ONLY: bool = false;

    /// The largest value one write may carry, in bytes. Whatever
    /// [`Attribute::show`] can produce must fit, so that what reads back
    /// can be written back.
    const MAX_WRITE: usize = 4096;

    /// Formats the current value into `out`.
    fn show(out: &mut TextBuf) -> Result;

    /// Applies a write of `input`, all of it at once.
    ///
    /// The caller has already applied [`check_write`]. On error nothing may
    /// change.
    fn store(_input: &[u8]) -> Result {
        Err(EINVAL)
    }

    /// Whether a write is a question that the same open file then answers,
    /// as selinuxfs's transaction files (`access`, `create`, `context`):
    /// the write goes to [`Attribute::answer`] instead of `store`, and the
    /// file's reads give the answer instead of `show`'s value. The write
    /// leaves the file offset at 0, so the answer reads from its start. One
    /// question per open file: a second one gets `EBUSY`, and so does a
    /// question after a read (which gave `show`'s value).
    const TRANSACTION: bool = false;

    /// Answers the question `input` into `out` (transaction files only).
    /// The caller has already applied [`check_write`]. Changes nothing.
    fn answer(_input: &[u8], _out: &mut TextBuf) -> Result {
        Err(EINVAL)
    }
}

/// Whether the two processes behind a write hold `CAP_MAC_ADMIN`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WriterCaps {
    /// The process that opened the file (the file's `f_cred`).
    pub(crate) opener: bool,
    /// The process calling `write()`.
    pub(crate) writer: bool,
}

/// The rules for a write of `count` bytes at offset `pos` to the file
/// `name`, whose limit is `max_write` (its [`Attribute::MAX_WRITE`]),
/// checked before any byte is copied in:
///
/// - both the opener and the writer need `CAP_MAC_ADMIN` (`EPERM`), so a
///   privileged process handed a descriptor cannot be used as a deputy,
///   nor an unprivileged one write through a descriptor it was handed;
/// - a value is one `write()` at offset 0 (`EINVAL`): after a successful
///   write the file offset moves past it, so a second `write()` on the same
///   descriptor is refused, never taken as a new value or as its end;
/// - at most `max_write` bytes (`EFBIG`).
///
/// Each refusal is logged, rate-limited, with the file's name and the
/// reason.
pub(crate) fn check_write(
    name: &str,
    caps: WriterCaps,
    pos: i64,
    count: usize,
    max_write: usize,
) -> Result {
    if !caps.opener || !caps.writer {
        let who = if caps.opener {
            "the writer"
        } else {
            "the process that opened it"
        };
        if ratelimit_securityfs() {
            pr_warn!("securityfs: {name}: write refused: {who} lacks CAP_MAC_ADMIN\n");
        }
        return Err(EPERM);
    }
    if pos != 0 {
        if ratelimit_securityfs() {
            pr_warn!(
                "securityfs: {name}: write at offset {pos} refused: a value is one write() at \
                 offset 0; open the file again to write another\n"
            );
        }
        return Err(EINVAL);
    }
    if count > max_write {
        if ratelimit_securityfs() {
            pr_warn!(
                "securityfs: {name}: write of {count} bytes refused: the limit is {max_write} \
                 bytes\n"
            );
        }
        return Err(EFBIG);
    }
    Ok(())
}
