// SPDX-License-Identifier: GPL-2.0

//! The booleans of the policy in force, from userspace: `mlte/booleans`
//! and `mlte/commit_pending_bools`, as selinuxfs's `booleans/` and
//! `commit_pending_bools`.
//!
//! - Reading `booleans` gives a line per boolean, in name order: `NAME
//!   CURRENT PENDING` (each `0` or `1`), SELinux's `%d %d` of
//!   `booleans/NAME` after the name. Writing `NAME VALUE` (a number: `0`
//!   false, another true, as selinuxfs's `%d`) sets the boolean's pending
//!   value, as a write of `booleans/NAME`.
//! - Writing a number other than `0` to `commit_pending_bools` makes every
//!   pending value current: the conditional rules of the policy follow,
//!   the decision cache is emptied once no decision made under the old
//!   values can still go in (`policy::commit_bools`), the sequence number
//!   `access` answers moves on, and each boolean changed
//!   is logged (`mlte: bool=NAME val=1 old_val=0`, SELinux's
//!   `AUDIT_MAC_CONFIG_CHANGE` fields). `0` changes nothing, as in SELinux.
//!
//! selinuxfs has a file per boolean under `booleans/`, remade at each
//! policy load; mlte has one file for all of them (no files to create and
//! remove at a load). A policy reload keeps the current value of every
//! boolean the new policy has too, as SELinux's
//! `security_preserve_bools()`. Writes need `CAP_MAC_ADMIN`, as every
//! write to stacker's files (SELinux: `security setbool`).

use core::fmt::Write;

use super::compiled::MAX_NAME;
use super::hooks::check_security;
use super::hooks::perms::SECURITY_SETBOOL;
use super::policy;
use crate::attribute::Attribute;
use crate::context::MaySleep;
use crate::error::{Result, EAGAIN, EINVAL, ENOENT};
use crate::platform::{self, TextBuf};

/// A boolean's line, copied out of the policy's read-side section.
struct Line {
    name: [u8; MAX_NAME as usize],
    len: usize,
    current: bool,
    pending: bool,
}

/// `.../mlte/booleans`.
pub(crate) struct BooleansFile;

impl Attribute for BooleansFile {
    const WRITABLE: bool = true;

    fn show(out: &mut TextBuf) -> Result {
        // One boolean per read-side section, so that formatting (which may
        // sleep) happens outside it; a policy loaded in between makes the
        // read fail with `EAGAIN` rather than mix two policies' booleans.
        let mut first = None;
        let mut id = 0u32;
        loop {
            let step = policy::with(|p| {
                let p = p?;
                let name = p.bool_name(id);
                let mut line = Line {
                    name: [0; MAX_NAME as usize],
                    len: name.len().min(MAX_NAME as usize),
                    current: p.bool_state().current().get(id),
                    pending: p.bool_state().pending().get(id),
                };
                if let (Some(to), Some(from)) =
                    (line.name.get_mut(..line.len), name.get(..line.len))
                {
                    to.copy_from_slice(from);
                }
                Some((p.identity(), (id < p.bool_count()).then_some(line)))
            });
            let Some((identity, line)) = step else {
                return Ok(());
            };
            if *first.get_or_insert(identity) != identity {
                return Err(EAGAIN);
            }
            let Some(line) = line else {
                return Ok(());
            };
            let name =
                core::str::from_utf8(line.name.get(..line.len).unwrap_or(&[])).unwrap_or("?");
            out.format(|out| {
                writeln!(
                    out,
                    "{name} {} {}",
                    u8::from(line.current),
                    u8::from(line.pending)
                )
            })?;
            id = id.wrapping_add(1);
        }
    }

    fn store(input: &[u8]) -> Result {
        // As selinuxfs's sel_write_bool(): `setbool` before anything.
        check_security(SECURITY_SETBOOL)?;
        let text = input.strip_suffix(b"\n").unwrap_or(input);
        let mut words = text.split(|&b| b == b' ');
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            refuse("expected NAME VALUE");
            return Err(EINVAL);
        };
        // As selinuxfs's "%d": a number; not 0 sets it.
        let Some(value) = number(value) else {
            refuse("a value is a number (0: false, other: true)");
            return Err(EINVAL);
        };
        let value = value != 0;
        match policy::with(|p| {
            let p = p?;
            let id = p.bool_id(name)?;
            p.bool_state().set_pending(id, value);
            Some(())
        }) {
            Some(()) => Ok(()),
            None => {
                refuse("no such boolean in the policy in force");
                Err(ENOENT)
            }
        }
    }
}

/// The decimal number `text`, with an optional sign, as selinuxfs's
/// `sscanf("%d")` reads a whole value.
fn number(text: &[u8]) -> Option<i32> {
    core::str::from_utf8(text).ok()?.parse().ok()
}

/// Logs why a write of `booleans` was refused.
fn refuse(why: &str) {
    if platform::ratelimit_securityfs() {
        platform::pr_warn!("mlte: booleans: write refused: {why}\n");
    }
}

/// `.../mlte/commit_pending_bools`.
pub(crate) struct CommitBoolsFile;

impl Attribute for CommitBoolsFile {
    const WRITABLE: bool = true;

    fn show(_out: &mut TextBuf) -> Result {
        Ok(())
    }

    fn store(input: &[u8]) -> Result {
        // As selinuxfs's sel_commit_bools_write(): `setbool` first.
        check_security(SECURITY_SETBOOL)?;
        match number(input.strip_suffix(b"\n").unwrap_or(input)) {
            Some(0) => Ok(()),
            Some(_) => {
                // SAFETY: securityfs calls `store` from the file's `write`,
                // in process context with no spinlock or RCU read lock
                // held.
                let cx = unsafe { MaySleep::new() };
                policy::commit_bools(&cx)
            }
            None => {
                if platform::ratelimit_securityfs() {
                    platform::pr_warn!("mlte: commit_pending_bools: expected a number\n");
                }
                Err(EINVAL)
            }
        }
    }
}
