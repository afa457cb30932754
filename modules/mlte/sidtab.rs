// SPDX-License-Identifier: GPL-2.0

//! Interned contexts: the security identifier ([`Sid`]) of each context in
//! use, as SELinux's sidtab.
//!
//! A blob holds a 32-bit SID (`label.rs`), not a context: a context is 136
//! bytes, and a few contexts label millions of objects. Each distinct
//! context gets its SID once, and the table never forgets it: an entry is
//! never changed nor freed once published, so a reader, in any context
//! (atomic included), maps a SID to its context with three loads and no
//! lock ([`context`]).
//!
//! SID 0 is "no label"; SIDs 1 to 3 are the initial SIDs (`sid kernel`,
//! `sid file`, `sid unlabeled`), whose contexts are those of the policy in
//! force (`policy.rs` resolves them); the table's SIDs follow.
//!
//! [`intern`] looks a context up without a lock first (hash chains whose
//! links are SIDs). A new context is appended under a spinning writers'
//! lock, with preemption off, so that nothing waits for a preempted writer.
//! Storage comes in chunks of [`CHUNK`] contexts, allocated before the lock
//! is taken (which is why [`intern`] demands `&MaySleep`), at most [`MAX`]
//! contexts in all: past that, `ENOMEM` and a log line.
//!
//! Type ids in contexts are the policy's: a reload keeps the types in force,
//! in order (`policy.rs`), so every context in the table stays valid.
//!
//! Kernel-independent: the host tests run the same file.

use super::compiled::{InitialSid, SidContext, SIDS};
use super::context::Context;
use crate::blob::BlobState;
use crate::context::MaySleep;
use crate::error::{Result, ENOMEM};
use crate::platform::{self, OwnedBox};
use core::cell::UnsafeCell;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};

/// A security identifier: a context's number, or an initial SID's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Sid(u32);

/// The first SID of the table: after 0 (none) and the initial SIDs.
const FIRST: u32 = SIDS.len() as u32 + 1;

impl Sid {
    /// The SID of an initial SID (`sid kernel`, ...).
    #[inline(always)]
    pub(crate) const fn initial(sid: InitialSid) -> Sid {
        Sid(sid as u32 + 1)
    }

    /// The number kept in a blob (never 0).
    #[inline(always)]
    pub(crate) const fn raw(self) -> u32 {
        self.0
    }

    /// The SID numbered `raw`; `None` for 0, "no label".
    #[inline(always)]
    pub(crate) const fn from_raw(raw: u32) -> Option<Sid> {
        if raw == 0 {
            None
        } else {
            Some(Sid(raw))
        }
    }

    /// The initial SID this is, if it is one.
    #[inline(always)]
    pub(crate) fn as_initial(self) -> Option<InitialSid> {
        let index = self.0.checked_sub(1)? as usize;
        SIDS.get(index).map(|(sid, _)| *sid)
    }
}

/// Contexts per chunk of storage.
pub(crate) const CHUNK: usize = 64;
/// Chunks at most.
const CHUNKS: usize = 1024;
/// Contexts the table holds at most.
pub(crate) const MAX: usize = CHUNK * CHUNKS;
/// Hash chains (a power of two).
const BUCKETS: usize = 4096;

/// One interned context.
struct Entry {
    /// The next SID in this entry's hash chain; 0 at the end.
    next: AtomicU32,
    /// The context. Written once, under the writers' lock, before the SID
    /// is published; never written again.
    context: UnsafeCell<SidContext>,
}

/// [`CHUNK`] entries.
struct Chunk([Entry; CHUNK]);

// SAFETY: all zero is a valid `Chunk` (chains end at 0, a zero context is
// type 0 at `s0`); nothing in it needs dropping.
unsafe impl BlobState for Chunk {}

// SAFETY: `context` is written only by the writer holding the lock, before
// the entry's SID is published ([`Table::append`]); after that, it is only
// read. `next` is atomic.
unsafe impl Sync for Chunk {}

/// The table.
///
/// # Invariants
///
/// - `count` entries are published: SIDs `FIRST..FIRST + count`. Each has
///   its chunk in `dir`, and its context written, before `count` passed it.
/// - A chunk in `dir` came from [`OwnedBox::into_raw`] and is never freed.
/// - `buckets[h]` and every `next` are 0 or published SIDs.
struct Table {
    dir: [AtomicPtr<Chunk>; CHUNKS],
    buckets: [AtomicU32; BUCKETS],
    count: AtomicU32,
    /// Held by the writer appending an entry.
    lock: AtomicBool,
}

static TABLE: Table = Table {
    dir: [const { AtomicPtr::new(ptr::null_mut()) }; CHUNKS],
    buckets: [const { AtomicU32::new(0) }; BUCKETS],
    count: AtomicU32::new(0),
    lock: AtomicBool::new(false),
};

/// The hash chain of `ctx`: over its type, sensitivity and category words.
fn bucket(ctx: &Context) -> usize {
    let mut h = u64::from(ctx.ty) << 16 | u64::from(ctx.level.sensitivity);
    for w in ctx.level.categories.words() {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    (h >> 52) as usize & (BUCKETS - 1)
}

impl Table {
    /// The entry of table index `index`, if it is published.
    #[inline(always)]
    fn entry(&self, index: usize) -> Option<&'static Entry> {
        if index >= self.count.load(Ordering::Acquire) as usize {
            return None;
        }
        let chunk = self.dir.get(index / CHUNK)?.load(Ordering::Acquire);
        // SAFETY: a published entry's chunk is in `dir` and never freed
        // (type invariants).
        let chunk: &'static Chunk = unsafe { chunk.as_ref() }?;
        chunk.0.get(index % CHUNK)
    }

    /// The published SID whose context is `ctx`.
    fn find(&self, ctx: &Context) -> Option<Sid> {
        let mut sid = self.buckets.get(bucket(ctx))?.load(Ordering::Acquire);
        while let Some(index) = sid.checked_sub(FIRST) {
            let entry = self.entry(index as usize)?;
            // SAFETY: a published entry's context is never written again.
            if unsafe { &*entry.context.get() }.context == *ctx {
                return Some(Sid(sid));
            }
            sid = entry.next.load(Ordering::Acquire);
        }
        None
    }

    /// Makes sure the chunk that entry `index` goes into exists.
    fn reserve(&self, cx: &MaySleep, index: usize) -> Result {
        let Some(slot) = self.dir.get(index / CHUNK) else {
            return Err(ENOMEM);
        };
        if !slot.load(Ordering::Acquire).is_null() {
            return Ok(());
        }
        let chunk = OwnedBox::into_raw(platform::zeroed_box::<Chunk>(cx)?);
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

    /// Appends `ctx` unless it is there by now. `Ok(None)` when the chunk
    /// for the next entry is missing: reserve it and try again.
    fn append(&self, ctx: &Context) -> Result<Option<Sid>> {
        platform::without_preemption(|| {
            while self
                .lock
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                core::hint::spin_loop();
            }
            let result = self.append_locked(ctx);
            self.lock.store(false, Ordering::Release);
            result
        })
    }

    /// [`Table::append`], with the lock held.
    fn append_locked(&self, ctx: &Context) -> Result<Option<Sid>> {
        if let Some(sid) = self.find(ctx) {
            return Ok(Some(sid));
        }
        let index = self.count.load(Ordering::Relaxed) as usize;
        if index >= MAX {
            return Err(ENOMEM);
        }
        let Some(chunk) = self.dir.get(index / CHUNK) else {
            return Err(ENOMEM);
        };
        // SAFETY: chunks in `dir` are never freed (type invariants).
        let Some(chunk) = (unsafe { chunk.load(Ordering::Acquire).as_ref() }) else {
            return Ok(None);
        };
        let Some(entry) = chunk.0.get(index % CHUNK) else {
            return Err(ENOMEM);
        };
        let Some(head) = self.buckets.get(bucket(ctx)) else {
            return Err(ENOMEM);
        };
        // Below `MAX`, far below `u32::MAX`.
        let sid = FIRST.wrapping_add(index as u32);
        let context = SidContext::new(*ctx);
        // SAFETY: entry `index` is not published yet (it is `count`), and
        // only the lock holder writes it.
        unsafe { *entry.context.get() = context };
        entry
            .next
            .store(head.load(Ordering::Relaxed), Ordering::Relaxed);
        // INVARIANT: the context and its chunk are in place; publish.
        self.count.store(index as u32 + 1, Ordering::Release);
        head.store(sid, Ordering::Release);
        Ok(Some(Sid(sid)))
    }
}

/// The SID of `ctx`, giving it one if it has none. May allocate: `ENOMEM`
/// when memory is short or the table is full ([`MAX`] contexts, logged).
pub(crate) fn intern(cx: &MaySleep, ctx: &Context) -> Result<Sid> {
    if let Some(sid) = TABLE.find(ctx) {
        return Ok(sid);
    }
    // Each round reserves the chunk the last one lacked: `append` finds it
    // or a later one missing only if others appended meanwhile, and the
    // table is bounded.
    loop {
        TABLE
            .reserve(cx, TABLE.count.load(Ordering::Relaxed) as usize)
            .inspect_err(|_| full())?;
        if let Some(sid) = TABLE.append(ctx).inspect_err(|_| full())? {
            return Ok(sid);
        }
    }
}

/// Logs that a context could not be interned.
#[cold]
fn full() {
    if platform::ratelimit() {
        platform::pr_warn!(
            "mlte: no SID for a new context: out of memory or {MAX} contexts in use\n"
        );
    }
}

/// The context of table SID `sid`; `None` for an initial SID or one that
/// was never given out. Any context; the reference stays valid for good.
#[inline(always)]
pub(crate) fn context(sid: Sid) -> Option<&'static SidContext> {
    let entry = TABLE.entry(sid.0.checked_sub(FIRST)? as usize)?;
    // SAFETY: a published entry's context is never written again.
    Some(unsafe { &*entry.context.get() })
}

/// How many contexts the table holds.
pub(crate) fn len() -> usize {
    TABLE.count.load(Ordering::Relaxed) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::level::Level;
    use std::sync::Arc;

    fn ctx(ty: u32, level: &str) -> Context {
        Context {
            ty,
            level: Level::parse(level.as_bytes()).unwrap(),
        }
    }

    fn cx() -> MaySleep {
        crate::harness::cx()
    }

    #[test]
    fn each_context_gets_one_sid_and_keeps_it() {
        let a = ctx(900_001, "s1:c0.c1023");
        let b = ctx(900_001, "s1:c0.c1022");
        let sa = intern(&cx(), &a).unwrap();
        let sb = intern(&cx(), &b).unwrap();
        assert_ne!(sa, sb);
        assert!(sa.raw() >= FIRST && sa.as_initial().is_none());
        assert_eq!(intern(&cx(), &a).unwrap(), sa);
        assert_eq!(TABLE.find(&b), Some(sb));
        assert_eq!(context(sa).unwrap().context, a);
        assert_eq!(context(sb).unwrap().context, b);
        assert_eq!(TABLE.find(&ctx(900_002, "s0")), None);
    }

    /// Contexts that share a hash chain keep their own SIDs.
    #[test]
    fn a_hash_chain_tells_its_contexts_apart() {
        let first = ctx(700_000, "s3:c7");
        let same_chain: Vec<Context> = (700_001..800_000)
            .map(|ty| ctx(ty, "s3:c7"))
            .filter(|c| bucket(c) == bucket(&first))
            .take(3)
            .collect();
        assert_eq!(same_chain.len(), 3);
        let sids: Vec<Sid> = core::iter::once(&first)
            .chain(&same_chain)
            .map(|c| intern(&cx(), c).unwrap())
            .collect();
        for (i, c) in core::iter::once(&first).chain(&same_chain).enumerate() {
            assert_eq!(intern(&cx(), c).unwrap(), sids[i], "context {i}");
            assert_eq!(context(sids[i]).unwrap().context, *c);
        }
    }

    #[test]
    fn initial_and_unknown_sids_have_no_table_context() {
        for (i, (initial, _)) in SIDS.iter().enumerate() {
            let sid = Sid::initial(*initial);
            assert_eq!(sid.raw(), i as u32 + 1);
            assert_eq!(sid.as_initial(), Some(*initial));
            assert!(context(sid).is_none());
        }
        assert_eq!(Sid::from_raw(0), None);
        assert!(context(Sid(u32::MAX)).is_none());
        assert!(context(Sid(FIRST + MAX as u32)).is_none());
    }

    /// Threads interning the same new contexts at once agree on their
    /// SIDs, across chunk boundaries, and every SID reads back its context.
    #[test]
    fn racing_writers_agree() {
        let contexts: Arc<Vec<Context>> =
            Arc::new((0..300).map(|i| ctx(800_000 + i, "s2:c5")).collect());
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let contexts = contexts.clone();
                std::thread::spawn(move || {
                    let order: Vec<usize> = if t % 2 == 0 {
                        (0..contexts.len()).collect()
                    } else {
                        (0..contexts.len()).rev().collect()
                    };
                    let mut sids = vec![None; contexts.len()];
                    for i in order {
                        sids[i] = Some(intern(&cx(), &contexts[i]).unwrap());
                    }
                    sids
                })
            })
            .collect();
        let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        for (i, c) in contexts.iter().enumerate() {
            let sid = results[0][i].unwrap();
            assert!(results.iter().all(|r| r[i] == Some(sid)), "context {i}");
            assert_eq!(context(sid).unwrap().context, *c);
        }
        assert!(len() >= contexts.len());
    }
}
