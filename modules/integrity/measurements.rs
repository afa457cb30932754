// SPDX-License-Identifier: GPL-2.0

//! The measurement list: what was measured, in order, and the running
//! aggregate over it.
//!
//! An append-only singly linked list of entries that are never changed
//! nor freed once linked (as IMA's list): readers walk it without a lock,
//! loading each `next` with acquire ordering. Appends and the aggregate
//! are serialised by one mutex (`integrity_glue.c`), so the aggregate
//! extends in list order: `aggregate = SHA1(aggregate || template_hash)`,
//! starting from 20 zero bytes, as TPM PCR 10's SHA-1 bank under IMA.
//!
//! Kernel only (allocation, the mutex); the entries' format is
//! `formats.rs`. The host's model, with the same API and values, is
//! `stacker/host/integrity_measurements.rs`.

use super::crypto::Sha1;
use super::formats::{ima_ng_path_byte, write_hex, write_path, Digest, ImaNg, Sha1Digest, Sink};
use crate::error::{Result, ENOMEM};
use core::cell::UnsafeCell;
use core::fmt;
use core::ptr;
use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use kernel::alloc::{KBox, KVec};
use kernel::prelude::GFP_KERNEL;

extern "C" {
    fn stacker_integrity_list_lock();
    fn stacker_integrity_list_unlock();
}

/// One measurement.
struct Entry {
    /// The next entry; null at the tail. Set once, under the list lock.
    next: AtomicPtr<Entry>,
    /// SHA-1 of the `ima-ng` template data.
    template: Sha1Digest,
    /// SHA-256 of the file's contents.
    digest: Digest,
    /// The file's path.
    path: KVec<u8>,
}

/// What the list lock protects.
struct Tail {
    /// The last entry; null when the list is empty.
    last: *mut Entry,
    /// The running aggregate.
    aggregate: Sha1Digest,
}

/// [`Tail`], shared.
///
/// # Invariants
///
/// The inside is only reached between `stacker_integrity_list_lock()` and
/// `stacker_integrity_list_unlock()` ([`with_tail`]).
struct TailCell(UnsafeCell<Tail>);

// SAFETY: every access is under the list mutex (type invariant); the
// pointers it holds are to entries that are never freed.
unsafe impl Sync for TailCell {}

static TAIL: TailCell = TailCell(UnsafeCell::new(Tail {
    last: ptr::null_mut(),
    aggregate: [0; 20],
}));

/// The first entry; null when the list is empty.
static HEAD: AtomicPtr<Entry> = AtomicPtr::new(ptr::null_mut());

/// How many entries there are.
static COUNT: AtomicU64 = AtomicU64::new(0);

/// Calls `f` with the tail, under the list lock. Sleeps.
fn with_tail<R>(f: impl FnOnce(&mut Tail) -> R) -> R {
    // SAFETY: takes the list mutex; the caller may sleep.
    unsafe { stacker_integrity_list_lock() };
    // SAFETY: the mutex is held until the unlock below, so this is the
    // only reference (type invariant of `TailCell`).
    let r = f(unsafe { &mut *TAIL.0.get() });
    // SAFETY: releases the mutex taken above.
    unsafe { stacker_integrity_list_unlock() };
    r
}

/// Appends a measurement of `digest` at `path`, unless an entry with the
/// same template hash (the same contents at the same path) is already in
/// the list, as IMA does. Spaces in the path become `_` (IMA's `n-ng`
/// field). Sleeps (allocation, the list lock). `ENOMEM` leaves the list
/// as it was.
pub(crate) fn append(digest: &Digest, path: &[u8]) -> Result {
    let mut owned = KVec::with_capacity(path.len(), GFP_KERNEL)?;
    owned.extend_from_slice(path, GFP_KERNEL)?;
    for b in owned.iter_mut() {
        *b = ima_ng_path_byte(*b);
    }
    let template = ImaNg {
        digest,
        path: &owned,
    }
    .template_hash()
    .ok_or(ENOMEM)?;
    let mut agg = Sha1::new().ok_or(ENOMEM)?;
    let entry = KBox::new(
        Entry {
            next: AtomicPtr::new(ptr::null_mut()),
            template,
            digest: *digest,
            path: owned,
        },
        GFP_KERNEL,
    )?;
    let unused = with_tail(|tail| {
        if contains(&template) {
            return Some(entry);
        }
        let entry = KBox::into_raw(entry);
        if tail.last.is_null() {
            HEAD.store(entry, Ordering::Release);
        } else {
            // SAFETY: `last` is a linked entry, never freed; its `next` is
            // only set here, under the lock.
            unsafe { (*tail.last).next.store(entry, Ordering::Release) };
        }
        tail.last = entry;
        agg.update(&tail.aggregate);
        agg.update(&template);
        tail.aggregate = agg.finish();
        COUNT.fetch_add(1, Ordering::Relaxed);
        None
    });
    // A duplicate is freed outside the lock.
    drop(unused);
    Ok(())
}

/// Whether an entry has template hash `template`.
fn contains(template: &Sha1Digest) -> bool {
    let mut p = HEAD.load(Ordering::Acquire);
    while !p.is_null() {
        // SAFETY: as in `write_ascii`: published entries are never changed
        // nor freed.
        let e = unsafe { &*p };
        if e.template == *template {
            return true;
        }
        p = e.next.load(Ordering::Acquire);
    }
    false
}

/// How many measurements there are.
pub(crate) fn count() -> u64 {
    COUNT.load(Ordering::Relaxed)
}

/// The running aggregate. Sleeps (the list lock).
pub(crate) fn aggregate() -> Sha1Digest {
    with_tail(|tail| tail.aggregate)
}

/// Writes the list in IMA's ascii format, one line per entry:
/// `10 TEMPLATE_HASH ima-ng sha256:DIGEST PATH`. Entries appended while it
/// runs may or may not be included; those included are whole and in
/// order.
pub(crate) fn write_ascii(out: &mut impl fmt::Write) -> fmt::Result {
    let mut p = HEAD.load(Ordering::Acquire);
    while !p.is_null() {
        // SAFETY: `p` was published with release ordering after the entry
        // was written, and entries are never changed nor freed.
        let e = unsafe { &*p };
        out.write_str("10 ")?;
        write_hex(out, &e.template)?;
        out.write_str(" ima-ng sha256:")?;
        write_hex(out, &e.digest)?;
        out.write_char(' ')?;
        write_path(out, &e.path)?;
        out.write_char('\n')?;
        p = e.next.load(Ordering::Acquire);
    }
    Ok(())
}
