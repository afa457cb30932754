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
//! Set-associative: [`SETS`] sets of [`WAYS`] entries, each entry a
//! triple's key and its vector under a sequence count. A triple hashes to
//! one set and may sit in any of its ways, so a few hot triples that hash
//! alike do not evict each other on every call (a direct-mapped cache of
//! the same size lost a fifth of the hits of 64 cycling pairs that way); a
//! miss replaces an empty way, or else one picked by the miss count, which
//! no access pattern can keep in step with. No allocation, no lock, no
//! list: a reader that finds an entry being written, or another triple's,
//! looks on and then computes the decision (a miss); a writer that finds
//! another writer in the entry leaves it. A cache belongs to one policy
//! (`policy.rs`) and goes with it on a reload, and a SID's context never
//! changes (`sidtab.rs`), so an entry is never stale; a commit of booleans
//! (which changes decisions) waits until every decision computed under the
//! old values is in, then empties the cache ([`DecisionCache::clear`]).
//!
//! Kernel-independent: the host tests run the same file.

use super::classes::Class;
use super::sidtab::Sid;
use crate::blob::BlobState;
use core::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

/// Sets (a power of two).
pub(crate) const SETS: usize = 512;
/// Entries per set.
pub(crate) const WAYS: usize = 4;
/// The bits of a set's index.
const SET_BITS: u32 = SETS.trailing_zeros();

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

impl Entry {
    /// Runs `store` (relaxed stores of the fields) as this entry's writer,
    /// unless another writer is in it: then nothing happens.
    #[inline(always)]
    fn write(&self, store: impl FnOnce(&Entry)) {
        let seq = self.seq.load(Ordering::Relaxed);
        if seq & 1 != 0
            || self
                .seq
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
        store(self);
        self.seq.store(seq.wrapping_add(2), Ordering::Release);
    }

    /// The vector in this entry, if it is whole and the triple's.
    #[inline(always)]
    fn read(&self, key: u64, class: u32) -> Option<u32> {
        let seq = self.seq.load(Ordering::Acquire);
        let (k, c, allowed) = (
            self.key.load(Ordering::Relaxed),
            self.class.load(Ordering::Relaxed),
            self.allowed.load(Ordering::Relaxed),
        );
        fence(Ordering::Acquire);
        let whole = seq & 1 == 0 && self.seq.load(Ordering::Relaxed) == seq;
        (whole && k == key && c == class).then_some(allowed)
    }
}

/// The cache of one policy.
pub(crate) struct DecisionCache {
    sets: [[Entry; WAYS]; SETS],
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
    /// The set of a triple: the top bits of its key and class times a
    /// 64-bit odd constant (Fibonacci hashing), so that SIDs handed out in
    /// sequence spread over the sets.
    #[inline(always)]
    fn set(&self, s: Sid, o: Sid, class: Class) -> Option<&[Entry; WAYS]> {
        let h = (key(s, o) ^ (class as u64) << 56).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.sets.get((h >> (64 - SET_BITS)) as usize)
    }

    /// The cached vector of `s` on `o` in `class`, if there is one.
    #[inline(always)]
    pub(crate) fn lookup(&self, s: Sid, o: Sid, class: Class) -> Option<u32> {
        let (k, c) = (key(s, o), class as u32 + 1);
        self.set(s, o, class)?.iter().find_map(|e| e.read(k, c))
    }

    /// Keeps `allowed` as the vector of `s` on `o` in `class`: in the way
    /// of its set that holds the triple, or an empty one, or else in place
    /// of the triple of the way the miss count picks; unless another writer
    /// is in that way.
    pub(crate) fn insert(&self, s: Sid, o: Sid, class: Class, allowed: u32) {
        let misses = self.misses.fetch_add(1, Ordering::Relaxed);
        let Some(set) = self.set(s, o, class) else {
            return;
        };
        // The triple's own way (two CPUs may miss on it at once), or an
        // empty one, or the one the miss count picks.
        let (k, c) = (key(s, o), class as u32 + 1);
        let e = set
            .iter()
            .find(|e| e.key.load(Ordering::Relaxed) == k && e.class.load(Ordering::Relaxed) == c)
            .or_else(|| set.iter().find(|e| e.class.load(Ordering::Relaxed) == 0))
            .or_else(|| set.get(misses as usize % WAYS));
        let Some(e) = e else { return };
        e.write(|e| {
            e.key.store(k, Ordering::Relaxed);
            e.class.store(c, Ordering::Relaxed);
            e.allowed.store(allowed, Ordering::Relaxed);
        });
    }

    /// Decisions computed since the policy was loaded.
    pub(crate) fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// Empties every entry that no writer is in. The caller has made sure
    /// that every decision made before what changed decisions is in (an
    /// RCU grace period after the change: decisions are computed and
    /// inserted in one read-side section), so a writer found in an entry
    /// writes a decision made after it, which may stay.
    pub(crate) fn clear(&self) {
        for e in self.sets.iter().flatten() {
            e.write(|e| e.class.store(0, Ordering::Relaxed));
        }
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
        // Were the classes of one pair to share an entry, the class in the
        // entry tells them apart: the file entry's fields, written into
        // every way of the dir decision's set, do not answer for it.
        let file = cache
            .set(s, o, Class::File)
            .unwrap()
            .iter()
            .find(|e| e.read(key(s, o), Class::File as u32 + 1).is_some())
            .unwrap();
        for dir in cache.set(s, o, Class::Dir).unwrap() {
            dir.key
                .store(file.key.load(Ordering::Relaxed), Ordering::Relaxed);
            for (to, from) in [(&dir.class, &file.class), (&dir.allowed, &file.allowed)] {
                to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
            }
        }
        assert_eq!(cache.lookup(s, o, Class::Dir), None, "another class");
    }

    /// `clear` empties every entry; a writer's entry stays.
    #[test]
    fn clear_empties_the_cache() {
        let cache = empty();
        let (s, o) = (sid(7), sid(9));
        cache.insert(s, o, Class::File, 0b11);
        cache.insert(o, s, Class::Dir, 0b1);
        cache.clear();
        assert_eq!(cache.lookup(s, o, Class::File), None);
        assert_eq!(cache.lookup(o, s, Class::Dir), None);
        cache.insert(s, o, Class::File, 0b01);
        assert_eq!(cache.lookup(s, o, Class::File), Some(0b01));
        // An entry a writer is in (odd count) is left to it.
        let e = cache
            .set(s, o, Class::File)
            .unwrap()
            .iter()
            .find(|e| e.read(key(s, o), Class::File as u32 + 1).is_some())
            .unwrap();
        e.seq.fetch_add(1, Ordering::Relaxed);
        cache.clear();
        e.seq.fetch_add(1, Ordering::Relaxed);
        assert_eq!(cache.lookup(s, o, Class::File), Some(0b01));
    }

    /// Up to WAYS triples of one set are all kept: hot triples that hash
    /// alike do not evict each other.
    #[test]
    fn triples_of_one_set_share_it() {
        let cache = empty();
        let target = cache.set(sid(1), sid(1), Class::File).unwrap() as *const _;
        let alike: Vec<u32> = (1..1_000_000)
            .filter(|&o| core::ptr::eq(cache.set(sid(1), sid(o), Class::File).unwrap(), target))
            .take(WAYS)
            .collect();
        assert_eq!(alike.len(), WAYS);
        for &o in &alike {
            cache.insert(sid(1), sid(o), Class::File, o);
        }
        for &o in &alike {
            assert_eq!(cache.lookup(sid(1), sid(o), Class::File), Some(o));
        }
    }

    /// SIDs handed out in sequence spread over the sets: 64 pairs of
    /// consecutive SIDs, as a benchmark or a boot makes them, all stay.
    #[test]
    fn sequential_sids_all_stay() {
        let cache = empty();
        for i in 0..64 {
            cache.insert(sid(4 + 2 * i), sid(5 + 2 * i), Class::File, i);
        }
        for i in 0..64 {
            assert_eq!(
                cache.lookup(sid(4 + 2 * i), sid(5 + 2 * i), Class::File),
                Some(i)
            );
        }
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
        assert!(hits > 0 && hits <= SETS * WAYS);
    }

    /// Readers never see one triple's key with another's vector while
    /// writers keep replacing the entry.
    #[test]
    fn readers_never_see_a_torn_entry() {
        let cache: Arc<DecisionCache> = Arc::from(empty());
        let stop = Arc::new(AtomicBool::new(false));
        // Triples chosen to share a set with (1, 1, file), more than it has
        // ways, so that writers replace each other's entries.
        let target = cache.set(sid(1), sid(1), Class::File).unwrap() as *const _;
        let sharing: Vec<u32> = (2..1_000_000)
            .filter(|&o| core::ptr::eq(cache.set(sid(1), sid(o), Class::File).unwrap(), target))
            .take(WAYS + 2)
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
