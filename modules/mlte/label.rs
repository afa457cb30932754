// SPDX-License-Identifier: GPL-2.0

//! The security context an object carries in its blob: [`Label`].
//!
//! A label is the submodule's slice of a cred, inode, sock or IPC blob.
//! All zero means "no label yet": the policy's `sid` contexts stand in for
//! it (`kernel` for tasks, `file` for inodes). A label can also be
//! provisional ([`Label::set_provisional`]): a context decisions use while
//! the real one could not be read, which the next read replaces.
//!
//! An inode's label changes while other CPUs read it (a relabel through
//! `setxattr`), and a context is 17 words, so a label is a sequence lock
//! over atomics: a reader copies the words and retries if a writer was
//! active meanwhile; writers take the odd count with a compare-and-swap, so
//! they exclude each other, with preemption off (as the kernel's seqcount
//! writers), so that a reader spinning on the same CPU cannot wait for a
//! preempted writer forever. Nothing sleeps. A cred's label is written only
//! while the cred is still private (`cred_prepare`, an exec's new cred), so
//! its reads never retry.
//!
//! Kernel-independent: no allocation, no panic path.

use super::category::{CategorySet, WORDS};
use super::context::{Context, ContextView};
use super::level::{Level, MAX_SENSITIVITY};
use crate::blob::BlobState;
use crate::platform;
use core::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

/// The bit of `head` that says the label is set.
const SET: u32 = 1 << 31;
/// The bit of `head` that says a set label is provisional: it stands in
/// for one that could not be read, and [`Label::is_set`] is false.
const PROVISIONAL: u32 = 1 << 30;

/// Whether `head` holds a context set for good: set, not provisional.
#[inline(always)]
const fn set_for_good(head: u32) -> bool {
    head & (SET | PROVISIONAL) == SET
}
/// Where `head` keeps the number of significant category words (0 to 16);
/// its low 16 bits are the sensitivity.
const LEN_SHIFT: u32 = 16;

/// How often a reader retries while writers keep changing the label
/// before it takes the writers' lock itself, so that relabelling in a loop
/// cannot starve it. A write is a few dozen stores, so this is rare.
const MAX_RETRIES: u32 = 64;

/// A context in a blob, or none.
///
/// # Invariants
///
/// When `head & SET`, `ty`, the sensitivity in `head` and `words` are a
/// context written by [`Label::set`], read whole when `seq` was even and
/// unchanged around the read.
#[derive(Default)]
pub(crate) struct Label {
    /// Even when no writer is active.
    seq: AtomicU32,
    /// [`SET`], the number of significant category words (those after
    /// are 0) and the sensitivity.
    head: AtomicU32,
    /// The type id.
    ty: AtomicU32,
    /// The categories.
    words: [AtomicU64; WORDS],
}

// SAFETY: all zero is "no label" (`head` without `SET`, `seq` even); there
// is nothing to drop.
unsafe impl BlobState for Label {}

impl Label {
    /// The context, or `None` when there is none. Copies it out: for
    /// paths that keep it; decisions use [`Label::with_view`] or
    /// [`Label::with_context`].
    pub(crate) fn get(&self) -> Option<Context> {
        self.with_raw(|head, ty, words| (head & SET != 0).then(|| Self::context(head, ty, words)))
    }

    /// Calls `f` with the context, or with `fallback` when there is none.
    ///
    /// The context is built in `f`'s caller's frame and lent, never moved:
    /// a context is 136 bytes, which the compiler copies with a call to
    /// `memcpy` (a string instruction per byte under QEMU's icount), and
    /// this is every hook's path.
    #[inline(always)]
    pub(crate) fn with_context<R>(&self, fallback: &Context, f: impl FnOnce(&Context) -> R) -> R {
        self.with_raw(|head, ty, words| {
            if head & SET == 0 {
                return f(fallback);
            }
            f(&Self::context(head, ty, words))
        })
    }

    /// Calls `f` with a view of the label for a decision (`None` when it
    /// has none), read in place: only the type, the head and the
    /// significant category words are loaded, and nothing is copied.
    ///
    /// `f` may run more than once (a concurrent relabel makes the view
    /// retry), so it must only compute: no side effect, no log line.
    #[inline(always)]
    pub(crate) fn with_view<R>(&self, mut f: impl FnMut(Option<&LabelView<'_>>) -> R) -> R {
        for _ in 0..MAX_RETRIES {
            let seq = self.seq.load(Ordering::Acquire);
            if seq & 1 != 0 {
                core::hint::spin_loop();
                continue;
            }
            let result = f(self.view().as_ref());
            fence(Ordering::Acquire);
            if self.seq.load(Ordering::Relaxed) == seq {
                return result;
            }
        }
        // Writers keep coming: decide under their lock.
        self.locked(|label| f(label.view().as_ref()))
    }

    /// The view of the fields as they are now.
    #[inline(always)]
    fn view(&self) -> Option<LabelView<'_>> {
        let head = self.head.load(Ordering::Relaxed);
        (head & SET != 0).then(|| LabelView {
            label: self,
            head,
            ty: self.ty.load(Ordering::Relaxed),
        })
    }

    /// The context of raw fields that have `SET`.
    #[inline(always)]
    fn context(head: u32, ty: u32, words: &[u64; WORDS]) -> Context {
        let sensitivity = (head & 0xffff) as u16;
        Context {
            ty,
            level: Level {
                sensitivity: sensitivity.min(MAX_SENSITIVITY),
                categories: CategorySet::from_words(*words),
            },
        }
    }

    /// Calls `f` with a consistent copy of the raw fields: the head, the
    /// type and the category words.
    #[inline(always)]
    fn with_raw<R>(&self, f: impl FnOnce(u32, u32, &[u64; WORDS]) -> R) -> R {
        let mut words = [0u64; WORDS];
        for _ in 0..MAX_RETRIES {
            let seq = self.seq.load(Ordering::Acquire);
            if seq & 1 != 0 {
                core::hint::spin_loop();
                continue;
            }
            let (head, ty) = self.fields(&mut words);
            fence(Ordering::Acquire);
            if self.seq.load(Ordering::Relaxed) == seq {
                return f(head, ty, &words);
            }
        }
        // Writers keep coming: read under their lock.
        let (head, ty) = self.locked(|label| label.fields(&mut words));
        f(head, ty, &words)
    }

    /// The head and type, and the words into `words`, as they are now
    /// (whole only under the rules of [`Label::with_raw`]).
    #[inline(always)]
    fn fields(&self, words: &mut [u64; WORDS]) -> (u32, u32) {
        let head = self.head.load(Ordering::Relaxed);
        for (w, a) in words.iter_mut().zip(self.words.iter()) {
            *w = a.load(Ordering::Relaxed);
        }
        (head, self.ty.load(Ordering::Relaxed))
    }

    /// Whether a context is set for good (one load; no copy): not when
    /// there is none, nor when it is provisional.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        set_for_good(self.head.load(Ordering::Acquire))
    }

    /// Runs `f` under the writers' lock, with preemption off.
    fn locked<R>(&self, f: impl FnOnce(&Self) -> R) -> R {
        platform::without_preemption(|| {
            let seq = self.lock();
            let result = f(self);
            self.unlock(seq);
            result
        })
    }

    /// Takes the writers' lock: makes the count odd. Returns the even
    /// count it replaced. Spins (briefly: writers do not sleep and are not
    /// preempted, [`Label::locked`]).
    fn lock(&self) -> u32 {
        let mut seq = self.seq.load(Ordering::Relaxed);
        loop {
            if seq & 1 != 0 {
                core::hint::spin_loop();
                seq = self.seq.load(Ordering::Relaxed);
                continue;
            }
            match self.seq.compare_exchange_weak(
                seq,
                seq.wrapping_add(1),
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(now) => seq = now,
            }
        }
        // The odd count is seen before any store that follows.
        fence(Ordering::Release);
        seq
    }

    /// Releases the lock taken by [`Label::lock`], which returned `seq`.
    fn unlock(&self, seq: u32) {
        self.seq.store(seq.wrapping_add(2), Ordering::Release);
    }

    /// Writes the fields, with `flags` ([`PROVISIONAL`] or 0) in the head;
    /// under the lock. The head is written once, last.
    fn store(&self, ctx: Option<&Context>, flags: u32) {
        match ctx {
            Some(ctx) => {
                self.ty.store(ctx.ty, Ordering::Relaxed);
                for (a, w) in self.words.iter().zip(ctx.level.categories.words()) {
                    a.store(*w, Ordering::Relaxed);
                }
                let len = ctx.level.categories.significant_words() as u32;
                self.head.store(
                    SET | flags | len << LEN_SHIFT | u32::from(ctx.level.sensitivity),
                    Ordering::Relaxed,
                );
            }
            None => self.head.store(0, Ordering::Relaxed),
        }
    }

    /// Sets the context (`None` clears it).
    pub(crate) fn set(&self, ctx: Option<&Context>) {
        self.locked(|label| label.store(ctx, 0));
    }

    /// Sets the context unless one is set for good already (a label read
    /// from an xattr must not overwrite a relabel that landed meanwhile);
    /// replaces a provisional one.
    pub(crate) fn set_if_unset(&self, ctx: &Context) {
        self.locked(|label| {
            if !set_for_good(label.head.load(Ordering::Relaxed)) {
                label.store(Some(ctx), 0);
            }
        });
    }

    /// Sets `ctx` as a provisional context unless one is set for good:
    /// decisions use it as the label, [`Label::is_set`] stays false, and
    /// [`Label::set_if_unset`] or [`Label::set`] replace it. For a label
    /// that could not be read this time (`ENOMEM`, `EIO`). Returns whether
    /// the label was unset before (not already provisional, nor set).
    pub(crate) fn set_provisional(&self, ctx: &Context) -> bool {
        self.locked(|label| {
            let head = label.head.load(Ordering::Relaxed);
            if set_for_good(head) {
                return false;
            }
            label.store(Some(ctx), PROVISIONAL);
            head & SET == 0
        })
    }

    /// Whether the context is provisional ([`Label::set_provisional`]).
    #[inline]
    pub(crate) fn is_provisional(&self) -> bool {
        self.head.load(Ordering::Acquire) & PROVISIONAL != 0
    }

    /// Copies `other`'s context (or its absence), word by word; a
    /// provisional context is copied as one set for good (the copy is a
    /// new object's label, which nothing reads again).
    pub(crate) fn copy_from(&self, other: &Label) {
        other.with_raw(|head, ty, words| {
            self.locked(|label| {
                label.ty.store(ty, Ordering::Relaxed);
                for (a, w) in label.words.iter().zip(words) {
                    a.store(*w, Ordering::Relaxed);
                }
                label.head.store(head & !PROVISIONAL, Ordering::Relaxed);
            })
        })
    }
}

/// A label read in place for a decision ([`Label::with_view`]).
pub(crate) struct LabelView<'a> {
    label: &'a Label,
    head: u32,
    ty: u32,
}

impl ContextView for LabelView<'_> {
    fn ty(&self) -> u32 {
        self.ty
    }

    fn sensitivity(&self) -> u16 {
        ((self.head & 0xffff) as u16).min(MAX_SENSITIVITY)
    }

    fn len(&self) -> usize {
        ((self.head >> LEN_SHIFT) & 0x1f) as usize
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        if i >= self.len() {
            return 0;
        }
        self.label
            .words
            .get(i)
            .map_or(0, |w| w.load(Ordering::Relaxed))
    }
}

/// A label's view, or a stand-in context when the label has none (the
/// policy's `sid` context), for a decision.
pub(crate) enum View<'a, C: ContextView> {
    /// The label, read in place.
    Label(&'a LabelView<'a>),
    /// The stand-in.
    Other(&'a C),
}

impl<C: ContextView> ContextView for View<'_, C> {
    #[inline(always)]
    fn ty(&self) -> u32 {
        match self {
            View::Label(v) => v.ty(),
            View::Other(c) => c.ty(),
        }
    }

    #[inline(always)]
    fn sensitivity(&self) -> u16 {
        match self {
            View::Label(v) => v.sensitivity(),
            View::Other(c) => c.sensitivity(),
        }
    }

    #[inline(always)]
    fn len(&self) -> usize {
        match self {
            View::Label(v) => v.len(),
            View::Other(c) => c.len(),
        }
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        match self {
            View::Label(v) => v.word(i),
            View::Other(c) => c.word(i),
        }
    }
}

/// Calls `f` with `label`'s view, or with `fallback` when there is no
/// label or it has no context. `f` may run more than once (see
/// [`Label::with_view`]).
#[inline(always)]
pub(crate) fn with_view_or<C: ContextView, R>(
    label: Option<&Label>,
    fallback: &C,
    mut f: impl FnMut(&View<'_, C>) -> R,
) -> R {
    match label {
        Some(label) => label.with_view(|v| match v {
            Some(v) => f(&View::Label(v)),
            None => f(&View::Other(fallback)),
        }),
        None => f(&View::Other(fallback)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn ctx(ty: u32, level: &str) -> Context {
        Context {
            ty,
            level: Level::parse(level.as_bytes()).unwrap(),
        }
    }

    #[test]
    fn zero_is_no_label_and_set_reads_back() {
        let label = Label::default();
        assert_eq!(label.get(), None);
        assert!(!label.is_set());
        let c = ctx(7, "s3:c0,c1000");
        label.set(Some(&c));
        assert_eq!(label.get(), Some(c));
        let copy = Label::default();
        copy.copy_from(&label);
        assert_eq!(copy.get(), Some(c));
        let other = ctx(1, "s0");
        copy.set_if_unset(&other);
        assert_eq!(copy.get(), Some(c), "set: kept");
        let fresh = Label::default();
        fresh.set_if_unset(&other);
        assert_eq!(fresh.get(), Some(other), "unset: set");
        label.set(None);
        assert_eq!(label.get(), None);
    }

    #[test]
    fn a_provisional_label_decides_until_a_read_replaces_it() {
        let label = Label::default();
        let unlabeled = ctx(2, "s0");
        let read = ctx(7, "s3:c0,c1000");
        assert!(label.set_provisional(&unlabeled), "newly provisional");
        assert_eq!(label.get(), Some(unlabeled));
        assert!(!label.is_set(), "a provisional label is read again");
        assert!(label.is_provisional());
        assert_eq!(
            with_view_or(Some(&label), &read, |v| v.ty()),
            unlabeled.ty,
            "decisions use it, not the stand-in"
        );
        assert!(!label.set_provisional(&unlabeled), "provisional already");
        let copy = Label::default();
        copy.copy_from(&label);
        assert!(
            copy.is_set() && !copy.is_provisional(),
            "a copy is for good"
        );
        label.set_if_unset(&read);
        assert_eq!(label.get(), Some(read));
        assert!(label.is_set() && !label.is_provisional());
        assert!(!label.set_provisional(&unlabeled));
        assert_eq!(label.get(), Some(read), "a label read for good stays");
        let relabelled = Label::default();
        assert!(relabelled.set_provisional(&unlabeled));
        relabelled.set(Some(&read));
        assert!(relabelled.is_set());
        assert_eq!(relabelled.get(), Some(read));
    }

    #[test]
    fn views_decide_as_contexts_do() {
        use crate::mlte::context::{dominates, same_level};
        let levels = [
            "s0",
            "s1:c0",
            "s1:c0,c1",
            "s2:c0.c1023",
            "s1:c1000",
            "s1:c64",
        ];
        for a in levels {
            for b in levels {
                let (ca, cb) = (ctx(1, a), ctx(2, b));
                let (la, lb) = (Label::default(), Label::default());
                la.set(Some(&ca));
                lb.set(Some(&cb));
                let got = la.with_view(|va| {
                    lb.with_view(|vb| {
                        let (va, vb) = (va.unwrap(), vb.unwrap());
                        (
                            dominates(va, vb),
                            same_level(va, vb),
                            dominates(va, &cb),
                            va.ty(),
                        )
                    })
                });
                let want = (
                    ca.level.dominates(&cb.level),
                    ca.level == cb.level,
                    ca.level.dominates(&cb.level),
                    1,
                );
                assert_eq!(got, want, "{a} vs {b}");
            }
        }
        assert!(Label::default().with_view(|v| v.is_none()));
    }

    /// Readers never see half of one context and half of another while
    /// two writers keep relabelling.
    #[test]
    fn readers_never_see_a_torn_context() {
        let a = ctx(1, "s1:c0.c1023");
        let b = ctx(2, "s2");
        let label = Arc::new(Label::default());
        label.set(Some(&a));
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = [a, b]
            .into_iter()
            .map(|c| {
                let (label, stop) = (label.clone(), stop.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        label.set(Some(&c));
                    }
                })
            })
            .collect();
        for _ in 0..20_000 {
            let got = label.get().unwrap();
            assert!(got == a || got == b, "torn: {got:?}");
        }
        stop.store(true, Ordering::Relaxed);
        for w in writers {
            w.join().unwrap();
        }
    }
}
