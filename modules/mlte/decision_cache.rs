// SPDX-License-Identifier: GPL-2.0

//! The decision cache: the allowed vector of recent (subject SID, object
//! SID, class) triples, as SELinux's access vector cache.
//!
//! A decision is a rule search plus the class's `mlsconstrain`
//! programs, a few hundred instructions; the same few triples come back on
//! every open and stat. The cache keeps, for each triple decided, every
//! permission of the class the policy allows, so a repeat is a hash, four
//! loads and a compare.
//!
//! Direct-mapped: [`SLOTS`] entries, each a triple's key and its vector
//! under a sequence count. No allocation, no lock, no list: a reader that
//! finds the entry being written, or another triple's, computes the
//! decision (a miss); a writer that finds another writer in the entry
//! leaves it. A cache belongs to one policy (`policy.rs`) and goes with it
//! on a reload, and a SID's context never changes (`sidtab.rs`), so an
//! entry is never stale.
//!
//! Kernel-independent: the host tests run the same file.

use super::classes::Class;
use super::sidtab::Sid;
use crate::blob::BlobState;
use core::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

/// Entries (a power of two).
pub(crate) const SLOTS: usize = 512;

/// One triple's decision.
///
/// # Invariants
///
/// When `seq` is even and unchanged around a read of the other fields,
/// they were written together by one [`DecisionCache::insert`]: `class` is
/// the class plus one (0: empty), `key` the subject SID in its high half
/// and the object SID in its low half, `allowed` the vector.
#[derive(Default)]
struct Entry {
    seq: AtomicU32,
    class: AtomicU32,
    key: AtomicU64,
    allowed: AtomicU32,
}

/// The cache of one policy.
pub(crate) struct DecisionCache {
    entries: [Entry; SLOTS],
    /// Decisions computed (misses) since the policy was loaded.
    misses: AtomicU64,
}

// SAFETY: all zero is an empty cache (every entry's class is 0, its count
// even); nothing in it needs dropping.
unsafe impl BlobState for DecisionCache {}

/// The key of a pair of SIDs.
#[inline(always)]
fn key(s: Sid, o: Sid) -> u64 {
    u64::from(s.raw()) << 32 | u64::from(o.raw())
}

impl DecisionCache {
    /// The entry of a triple.
    #[inline(always)]
    fn entry(&self, s: Sid, o: Sid, class: Class) -> Option<&Entry> {
        let h = s.raw().wrapping_mul(0x9e37_79b1)
            ^ o.raw().wrapping_mul(0x85eb_ca77)
            ^ (class as u32).wrapping_mul(0xc2b2_ae3d);
        self.entries.get((h >> 23) as usize & (SLOTS - 1))
    }

    /// The cached vector of `s` on `o` in `class`, if there is one.
    #[inline(always)]
    pub(crate) fn lookup(&self, s: Sid, o: Sid, class: Class) -> Option<u32> {
        let e = self.entry(s, o, class)?;
        let seq = e.seq.load(Ordering::Acquire);
        let (k, c, allowed) = (
            e.key.load(Ordering::Relaxed),
            e.class.load(Ordering::Relaxed),
            e.allowed.load(Ordering::Relaxed),
        );
        fence(Ordering::Acquire);
        let whole = seq & 1 == 0 && e.seq.load(Ordering::Relaxed) == seq;
        (whole && k == key(s, o) && c == class as u32 + 1).then_some(allowed)
    }

    /// Keeps `allowed` as the vector of `s` on `o` in `class`, in place of
    /// the triple the entry held, unless another writer is in it.
    pub(crate) fn insert(&self, s: Sid, o: Sid, class: Class, allowed: u32) {
        self.misses.fetch_add(1, Ordering::Relaxed);
        let Some(e) = self.entry(s, o, class) else {
            return;
        };
        let seq = e.seq.load(Ordering::Relaxed);
        if seq & 1 != 0
            || e.seq
                .compare_exchange(
                    seq,
                    seq.wrapping_add(1),
                    Ordering::Acquire,
                    Ordering::Relaxed,
                )
                .is_err()
        {
            return;
        }
        // The odd count is seen before any store that follows.
        fence(Ordering::Release);
        e.key.store(key(s, o), Ordering::Relaxed);
        e.class.store(class as u32 + 1, Ordering::Relaxed);
        e.allowed.store(allowed, Ordering::Relaxed);
        e.seq.store(seq.wrapping_add(2), Ordering::Release);
    }

    /// Decisions computed since the policy was loaded.
    pub(crate) fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::compiled::InitialSid;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn empty() -> Box<DecisionCache> {
        // SAFETY: zero is an empty cache (`BlobState`).
        unsafe { Box::<DecisionCache>::new_zeroed().assume_init() }
    }

    fn sid(raw: u32) -> Sid {
        Sid::from_raw(raw).unwrap()
    }

    #[test]
    fn a_triple_finds_its_own_vector_only() {
        let cache = empty();
        let (s, o) = (sid(7), sid(9));
        assert_eq!(cache.lookup(s, o, Class::File), None, "empty");
        cache.insert(s, o, Class::File, 0b1011);
        assert_eq!(cache.lookup(s, o, Class::File), Some(0b1011));
        assert_eq!(cache.lookup(s, o, Class::Dir), None, "other class");
        assert_eq!(cache.lookup(o, s, Class::File), None, "swapped SIDs");
        let k = Sid::initial(InitialSid::Kernel);
        assert_eq!(cache.lookup(k, o, Class::File), None);
        cache.insert(s, o, Class::File, 0);
        assert_eq!(cache.lookup(s, o, Class::File), Some(0), "a denial too");
        assert_eq!(cache.misses(), 2);
        // The classes of one pair never share an entry (the class's
        // hash term moves the slot); were they to, the class in the entry
        // tells them apart: the file entry's fields, written where the dir
        // decision would be, do not answer for it.
        let file = cache.entry(s, o, Class::File).unwrap();
        let dir = cache.entry(s, o, Class::Dir).unwrap();
        assert!(!core::ptr::eq(file, dir));
        for (to, from) in [(&dir.key, &file.key)] {
            to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        for (to, from) in [(&dir.class, &file.class), (&dir.allowed, &file.allowed)] {
            to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        assert_eq!(cache.lookup(s, o, Class::Dir), None, "another class");
    }

    /// Many triples in few entries: every hit is the triple's own vector.
    #[test]
    fn collisions_never_answer_for_another_triple() {
        let cache = empty();
        let vector = |s: u32, o: u32| s.wrapping_mul(31) ^ o;
        for s in 1..200 {
            for o in 1..20 {
                cache.insert(sid(s), sid(o), Class::Socket, vector(s, o));
            }
        }
        let mut hits = 0;
        for s in 1..200 {
            for o in 1..20 {
                if let Some(v) = cache.lookup(sid(s), sid(o), Class::Socket) {
                    assert_eq!(v, vector(s, o), "({s}, {o})");
                    hits += 1;
                }
            }
        }
        assert!(hits > 0 && hits <= SLOTS);
    }

    /// Readers never see one triple's key with another's vector while
    /// writers keep replacing the entry.
    #[test]
    fn readers_never_see_a_torn_entry() {
        let cache: Arc<DecisionCache> = Arc::from(empty());
        let stop = Arc::new(AtomicBool::new(false));
        // Triples chosen to share an entry with (1, 1, file).
        let target = cache.entry(sid(1), sid(1), Class::File).unwrap() as *const Entry;
        let sharing: Vec<u32> = (2..100_000)
            .filter(|&o| core::ptr::eq(cache.entry(sid(1), sid(o), Class::File).unwrap(), target))
            .take(3)
            .collect();
        assert!(!sharing.is_empty());
        let writers: Vec<_> = sharing
            .iter()
            .copied()
            .chain([1])
            .map(|o| {
                let (cache, stop) = (cache.clone(), stop.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        cache.insert(sid(1), sid(o), Class::File, o);
                    }
                })
            })
            .collect();
        for _ in 0..50_000 {
            for o in sharing.iter().copied().chain([1]) {
                if let Some(v) = cache.lookup(sid(1), sid(o), Class::File) {
                    assert_eq!(v, o, "torn");
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
        for w in writers {
            w.join().unwrap();
        }
    }
}
