// SPDX-License-Identifier: GPL-2.0

//! An append-only table that gives each distinct value a number once and
//! never forgets it: the store behind SIDs (`sidtab.rs`) and global type
//! ids (`type_names.rs`), as SELinux's sidtab.
//!
//! An entry is never changed nor freed once published, so a reader, in any
//! context (atomic included), maps a number to its value with three loads
//! and no lock ([`InternTable::get`]), and the reference stays valid for
//! good. [`InternTable::intern`] looks a value up without a lock first
//! (hash chains whose links are numbers); a new value is appended under a
//! spinning writers' lock, with preemption off, so that nothing waits for
//! a preempted writer. Storage comes in chunks of [`CHUNK`] values,
//! allocated before the lock is taken (which is why interning demands
//! `&MaySleep`), at most [`MAX`] values in all: past that, `ENOMEM`.
//!
//! Kernel-independent: the host tests run the same file.

use crate::blob::BlobState;
use crate::context::MaySleep;
use crate::error::{Result, ENOMEM};
use crate::platform::{self, OwnedBox};
use core::cell::UnsafeCell;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

/// Values per chunk of storage.
pub(crate) const CHUNK: usize = 64;
/// Chunks at most.
const CHUNKS: usize = 1024;
/// Values a table holds at most.
pub(crate) const MAX: usize = CHUNK * CHUNKS;
/// Hash chains (a power of two).
const BUCKETS: usize = 4096;

/// What a table holds: a plain value with a hash.
///
/// # Safety
///
/// All zero must be a valid value of the type (chunks are allocated
/// zeroed).
pub(crate) unsafe trait Interned: Copy + PartialEq + Send + Sync + 'static {
    /// A hash of the value; its low bits choose the chain.
    fn hash(&self) -> u64;
}

/// One value.
struct Entry<T> {
    /// The next number in this entry's hash chain, plus one; 0 at the end.
    next: AtomicU32,
    /// The value. Written once, under the writers' lock, before its number
    /// is published; never written again.
    value: UnsafeCell<T>,
}

/// [`CHUNK`] entries.
struct Chunk<T>([Entry<T>; CHUNK]);

// SAFETY: all zero is a valid `Chunk` (chains end at 0, and a zero `T` is
// valid, as `Interned` demands); nothing in it needs dropping (`T: Copy`).
unsafe impl<T: Interned> BlobState for Chunk<T> {}

// SAFETY: `value` is written only by the writer holding the lock, before
// the entry's number is published ([`InternTable::append_locked`]); after
// that, it is only read. `next` is atomic.
unsafe impl<T: Interned> Sync for Chunk<T> {}

// SAFETY: as `Sync`: nothing in a chunk is tied to a thread.
unsafe impl<T: Interned> Send for Chunk<T> {}

/// A table of `T`s, numbered from 0.
///
/// # Invariants
///
/// - `count` entries are published: numbers `0..count`. Each has its chunk
///   in `dir`, and its value written, before `count` passed it.
/// - A chunk in `dir` came from [`OwnedBox::into_raw`] and is never freed.
/// - `buckets[h]` and every `next` are 0 or a published number plus one.
pub(crate) struct InternTable<T: Interned> {
    dir: [AtomicPtr<Chunk<T>>; CHUNKS],
    buckets: [AtomicU32; BUCKETS],
    count: AtomicU32,
    /// Held by the writer appending an entry.
    lock: AtomicBool,
}

impl<T: Interned> InternTable<T> {
    /// An empty table (for a `static`).
    pub(crate) const fn new() -> Self {
        InternTable {
            dir: [const { AtomicPtr::new(ptr::null_mut()) }; CHUNKS],
            buckets: [const { AtomicU32::new(0) }; BUCKETS],
            count: AtomicU32::new(0),
            lock: AtomicBool::new(false),
        }
    }

    /// The chain of `value`.
    fn bucket(&self, value: &T) -> Option<&AtomicU32> {
        self.buckets
            .get((value.hash() >> 40) as usize & (BUCKETS - 1))
    }

    /// The entry numbered `n`, if it is published.
    #[inline(always)]
    fn entry(&self, n: usize) -> Option<&Entry<T>> {
        if n >= self.count.load(Ordering::Acquire) as usize {
            return None;
        }
        let chunk = self.dir.get(n / CHUNK)?.load(Ordering::Acquire);
        // SAFETY: a published entry's chunk is in `dir` and never freed
        // (type invariants).
        let chunk: &Chunk<T> = unsafe { chunk.as_ref() }?;
        chunk.0.get(n % CHUNK)
    }

    /// The value numbered `n`, if it was given out.
    #[inline(always)]
    pub(crate) fn get(&self, n: u32) -> Option<&T> {
        let entry = self.entry(n as usize)?;
        // SAFETY: a published entry's value is never written again.
        Some(unsafe { &*entry.value.get() })
    }

    /// The number of `value`, if it has one (no allocation, any context).
    pub(crate) fn find(&self, value: &T) -> Option<u32> {
        let mut link = self.bucket(value)?.load(Ordering::Acquire);
        while let Some(n) = link.checked_sub(1) {
            let entry = self.entry(n as usize)?;
            // SAFETY: a published entry's value is never written again.
            if unsafe { &*entry.value.get() } == value {
                return Some(n);
            }
            link = entry.next.load(Ordering::Acquire);
        }
        None
    }

    /// How many values the table holds.
    pub(crate) fn len(&self) -> usize {
        self.count.load(Ordering::Relaxed) as usize
    }

    /// The number of `value`, giving it one if it has none. May allocate:
    /// `ENOMEM` when memory is short or the table is full ([`MAX`]).
    pub(crate) fn intern(&self, cx: &MaySleep, value: &T) -> Result<u32> {
        if let Some(n) = self.find(value) {
            return Ok(n);
        }
        // Each round reserves the chunk the last one lacked: `append` finds
        // a later one missing only if others appended meanwhile, and the
        // table is bounded.
        loop {
            self.reserve_ahead(cx)?;
            if let Some(n) = self.append(value)? {
                return Ok(n);
            }
        }
    }

    /// Makes sure the chunk the next value goes into exists, and the one
    /// after it: at least [`CHUNK`] values' room for
    /// [`InternTable::intern_atomic`] (past the last chunk, what is left).
    pub(crate) fn reserve_ahead(&self, cx: &MaySleep) -> Result {
        self.reserve(cx, self.len())?;
        let _ = self.reserve(cx, self.len() + CHUNK);
        Ok(())
    }

    /// [`InternTable::intern`] where nothing may sleep: no allocation, so
    /// `ENOMEM` when the value is new and the chunk it would go into is
    /// not there yet, as an allocation that may not sleep can fail: only
    /// after [`CHUNK`] new values in a row were interned this way since the
    /// last [`InternTable::reserve_ahead`] (which every sleeping intern of
    /// a new value makes, and callers make before they need the room).
    pub(crate) fn intern_atomic(&self, value: &T) -> Result<u32> {
        if let Some(n) = self.find(value) {
            return Ok(n);
        }
        self.append(value)?.ok_or(ENOMEM)
    }

    /// Makes sure the chunk that entry `n` goes into exists.
    fn reserve(&self, cx: &MaySleep, n: usize) -> Result {
        let Some(slot) = self.dir.get(n / CHUNK) else {
            return Err(ENOMEM);
        };
        if !slot.load(Ordering::Acquire).is_null() {
            return Ok(());
        }
        let chunk = OwnedBox::into_raw(platform::zeroed_box::<Chunk<T>>(cx)?);
        if slot
            .compare_exchange(ptr::null_mut(), chunk, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Another writer's chunk is in place: this one was never seen.
            // SAFETY: `chunk` came from `into_raw` just above.
            drop(unsafe { OwnedBox::from_raw(chunk) });
        }
        Ok(())
    }

    /// Appends `value` unless it is there by now. `Ok(None)` when the
    /// chunk for the next entry is missing: reserve it and try again.
    fn append(&self, value: &T) -> Result<Option<u32>> {
        platform::without_preemption(|| {
            while self
                .lock
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                core::hint::spin_loop();
            }
            let result = self.append_locked(value);
            self.lock.store(false, Ordering::Release);
            result
        })
    }

    /// [`InternTable::append`], with the lock held.
    fn append_locked(&self, value: &T) -> Result<Option<u32>> {
        if let Some(n) = self.find(value) {
            return Ok(Some(n));
        }
        let n = self.count.load(Ordering::Relaxed) as usize;
        if n >= MAX {
            return Err(ENOMEM);
        }
        let (Some(slot), Some(head)) = (self.dir.get(n / CHUNK), self.bucket(value)) else {
            return Err(ENOMEM);
        };
        // SAFETY: chunks in `dir` are never freed (type invariants).
        let Some(chunk) = (unsafe { slot.load(Ordering::Acquire).as_ref() }) else {
            return Ok(None);
        };
        let Some(entry) = chunk.0.get(n % CHUNK) else {
            return Err(ENOMEM);
        };
        // SAFETY: entry `n` is not published yet (it is `count`), and only
        // the lock holder writes it.
        unsafe { *entry.value.get() = *value };
        entry
            .next
            .store(head.load(Ordering::Relaxed), Ordering::Relaxed);
        // INVARIANT: the value and its chunk are in place; publish. Below
        // `MAX`, far below `u32::MAX`.
        let n = n as u32;
        self.count.store(n.wrapping_add(1), Ordering::Release);
        head.store(n.wrapping_add(1), Ordering::Release);
        Ok(Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Value(u64, u64);

    // SAFETY: two zero integers are a valid `Value`.
    unsafe impl Interned for Value {
        fn hash(&self) -> u64 {
            // Few chains: collisions on purpose.
            (self.0 % 3) << 40
        }
    }

    fn cx() -> MaySleep {
        crate::harness::cx()
    }

    #[test]
    fn each_value_gets_one_number_and_keeps_it() {
        static TABLE: InternTable<Value> = InternTable::new();
        let values: Vec<Value> = (0..200).map(|i| Value(i, i * 7)).collect();
        let numbers: Vec<u32> = values
            .iter()
            .map(|v| TABLE.intern(&cx(), v).unwrap())
            .collect();
        assert_eq!(numbers, (0..200).collect::<Vec<u32>>(), "in order, once");
        for (v, &n) in values.iter().zip(&numbers) {
            assert_eq!(TABLE.intern(&cx(), v).unwrap(), n);
            assert_eq!(TABLE.find(v), Some(n));
            assert_eq!(TABLE.get(n), Some(v));
        }
        assert_eq!(TABLE.find(&Value(1, 1)), None, "same chain, other value");
        assert_eq!(TABLE.get(200), None);
        assert_eq!(TABLE.get(u32::MAX), None);
        assert_eq!(TABLE.len(), 200);
    }

    /// Where nothing may sleep, a new value takes the room a sleeping
    /// intern set up ahead, at least a chunk's; past it, `ENOMEM`, and
    /// the next sleeping intern sets up more.
    #[test]
    fn atomic_interns_use_the_room_set_up_ahead() {
        static TABLE: InternTable<Value> = InternTable::new();
        assert_eq!(
            TABLE.intern_atomic(&Value(0, 0)),
            Err(ENOMEM),
            "no room yet"
        );
        assert_eq!(TABLE.intern(&cx(), &Value(0, 0)), Ok(0));
        let mut n = 1;
        while let Ok(got) = TABLE.intern_atomic(&Value(n, 0)) {
            assert_eq!(got as u64, n);
            n += 1;
        }
        assert!(n as usize > CHUNK, "{n} values fitted");
        assert_eq!(
            TABLE.intern_atomic(&Value(3, 0)),
            Ok(3),
            "known: no room needed"
        );
        assert_eq!(TABLE.intern(&cx(), &Value(n, 0)), Ok(n as u32));
        assert_eq!(TABLE.intern_atomic(&Value(n + 1, 0)), Ok(n as u32 + 1));
    }

    /// Threads interning the same new values at once agree on their
    /// numbers, across chunk boundaries, and every number reads back its
    /// value.
    #[test]
    fn racing_writers_agree() {
        static TABLE: InternTable<Value> = InternTable::new();
        let values: Arc<Vec<Value>> = Arc::new((0..300).map(|i| Value(i, 1)).collect());
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let values = values.clone();
                std::thread::spawn(move || {
                    let mut order: Vec<usize> = (0..values.len()).collect();
                    if t % 2 == 1 {
                        order.reverse();
                    }
                    let mut numbers = vec![0; values.len()];
                    for i in order {
                        numbers[i] = TABLE.intern(&cx(), &values[i]).unwrap();
                    }
                    numbers
                })
            })
            .collect();
        let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        for (i, v) in values.iter().enumerate() {
            let n = results[0][i];
            assert!(results.iter().all(|r| r[i] == n), "value {i}");
            assert_eq!(TABLE.get(n), Some(v));
        }
        assert_eq!(TABLE.len(), values.len());
    }
}
