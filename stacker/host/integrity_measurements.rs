// SPDX-License-Identifier: GPL-2.0

//! The host model of the integrity submodule's measurement list
//! (`modules/integrity/measurements.rs`): the same API and the same
//! values (the `ima-ng` template hash of each entry, one entry per
//! template hash, spaces in paths as `_`, the running SHA-1 aggregate from
//! 20 zero bytes, IMA's ascii format), kept in a `Vec` under a `Mutex`
//! instead of the kernel's lock-free list. It is global, as the kernel's:
//! it only grows, across tests.

use super::crypto::Sha1;
use super::formats::{ima_ng_path_byte, write_hex, write_path, Digest, ImaNg, Sha1Digest, Sink};
use crate::error::{Result, ENOMEM};
use core::fmt;
use std::sync::{Mutex, PoisonError};

/// One measurement.
struct Entry {
    /// SHA-1 of the `ima-ng` template data.
    template: Sha1Digest,
    /// SHA-256 of the file's contents.
    digest: Digest,
    /// The file's path.
    path: Vec<u8>,
}

/// The list and its aggregate.
struct List {
    entries: Vec<Entry>,
    aggregate: Sha1Digest,
}

static LIST: Mutex<List> = Mutex::new(List {
    entries: Vec::new(),
    aggregate: [0; 20],
});

fn with_list<R>(f: impl FnOnce(&mut List) -> R) -> R {
    f(&mut LIST.lock().unwrap_or_else(PoisonError::into_inner))
}

/// Appends a measurement of `digest` at `path`, unless an entry with the
/// same template hash is already in the list (as the kernel's).
pub(crate) fn append(digest: &Digest, path: &[u8]) -> Result {
    let path: Vec<u8> = path.iter().copied().map(ima_ng_path_byte).collect();
    let template = ImaNg {
        digest,
        path: &path,
    }
    .template_hash()
    .ok_or(ENOMEM)?;
    let mut agg = Sha1::new().ok_or(ENOMEM)?;
    // Sleeps in the kernel (allocation, the list mutex).
    crate::platform::might_sleep();
    with_list(|list| {
        if list.entries.iter().any(|e| e.template == template) {
            return;
        }
        agg.update(&list.aggregate);
        agg.update(&template);
        list.aggregate = agg.finish();
        list.entries.push(Entry {
            template,
            digest: *digest,
            path,
        });
    });
    Ok(())
}

/// How many measurements there are.
pub(crate) fn count() -> u64 {
    with_list(|list| list.entries.len() as u64)
}

/// The running aggregate. Sleeps in the kernel (the list mutex).
pub(crate) fn aggregate() -> Sha1Digest {
    crate::platform::might_sleep();
    with_list(|list| list.aggregate)
}

/// Writes the list in IMA's ascii format, one line per entry:
/// `10 TEMPLATE_HASH ima-ng sha256:DIGEST PATH`. (Lock-free in the
/// kernel: the model's lock is not a sleep.)
pub(crate) fn write_ascii(out: &mut impl fmt::Write) -> fmt::Result {
    with_list(|list| {
        list.entries.iter().try_for_each(|e| {
            out.write_str("10 ")?;
            write_hex(out, &e.template)?;
            out.write_str(" ima-ng sha256:")?;
            write_hex(out, &e.digest)?;
            out.write_char(' ')?;
            write_path(out, &e.path)?;
            out.write_char('\n')
        })
    })
}
