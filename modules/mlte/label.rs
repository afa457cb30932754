// SPDX-License-Identifier: GPL-2.0

//! What an object carries in its blob: a [`Label`], the [`Sid`] of its
//! context (`sidtab.rs`), in 4 bytes.
//!
//! A label is the submodule's slice of a cred, inode, sock, IPC or message
//! blob.
//! All zero means "no label yet": the policy's initial SIDs stand in for
//! it (`sid kernel` for tasks, `sid file` for inodes). A label can also be
//! provisional ([`Label::set_provisional`]): a SID that decisions use while
//! the real one could not be read, which the next read replaces.
//!
//! One atomic word: the SID, and a flag bit for "provisional". An inode's
//! label changes while other CPUs read it (a relabel through `setxattr`);
//! a reader sees the old SID or the new one, never a mix, and the context
//! behind a SID never changes. Nothing sleeps, nothing spins.
//!
//! Kernel-independent: no allocation, no panic path.

use super::classes::Class;
use super::sidtab::Sid;
use crate::blob::BlobState;
use core::sync::atomic::{AtomicU32, AtomicU8, Ordering};

/// The bit that says the SID is provisional: it stands in for one that
/// could not be read, and [`Label::is_set`] is false. SIDs stay far below
/// it (`sidtab::MAX`).
const PROVISIONAL: u32 = 1 << 31;

/// A SID in a blob, or none.
///
/// # Invariants
///
/// `word` is 0, or a SID's number, with [`PROVISIONAL`] or not.
#[derive(Default)]
pub(crate) struct Label {
    word: AtomicU32,
}

// SAFETY: all zero is "no label"; there is nothing to drop.
unsafe impl BlobState for Label {}

/// Whether `word` holds a SID set for good: set, not provisional.
#[inline(always)]
const fn set_for_good(word: u32) -> bool {
    word != 0 && word & PROVISIONAL == 0
}

impl Label {
    /// The SID, provisional or not; `None` when there is none.
    #[inline(always)]
    pub(crate) fn get(&self) -> Option<Sid> {
        Sid::from_raw(self.word.load(Ordering::Acquire) & !PROVISIONAL)
    }

    /// The SID, or `fallback` when there is none.
    #[inline(always)]
    pub(crate) fn sid_or(&self, fallback: Sid) -> Sid {
        self.get().unwrap_or(fallback)
    }

    /// Whether a SID is set for good: not when there is none, nor when it
    /// is provisional.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        set_for_good(self.word.load(Ordering::Acquire))
    }

    /// Whether the SID is provisional ([`Label::set_provisional`]).
    #[inline]
    pub(crate) fn is_provisional(&self) -> bool {
        self.word.load(Ordering::Acquire) & PROVISIONAL != 0
    }

    /// Sets the SID (`None` clears it).
    pub(crate) fn set(&self, sid: Option<Sid>) {
        self.word
            .store(sid.map_or(0, Sid::raw) & !PROVISIONAL, Ordering::Release);
    }

    /// Changes the word with `f` (old word → new word, or `None` to leave
    /// it); returns the old word.
    fn update(&self, f: impl FnMut(u32) -> Option<u32>) -> u32 {
        match self
            .word
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, f)
        {
            Ok(old) | Err(old) => old,
        }
    }

    /// Sets the SID unless one is set for good already (a label read from
    /// an xattr must not overwrite a relabel that landed meanwhile);
    /// replaces a provisional one.
    pub(crate) fn set_if_unset(&self, sid: Sid) {
        self.update(|w| (!set_for_good(w)).then_some(sid.raw() & !PROVISIONAL));
    }

    /// Sets `sid` as a provisional SID unless one is set for good:
    /// decisions use it as the label, [`Label::is_set`] stays false, and
    /// [`Label::set_if_unset`] or [`Label::set`] replace it. For a label
    /// that could not be read this time (`ENOMEM`, `EIO`). Returns whether
    /// the label was unset before (not already provisional, nor set).
    pub(crate) fn set_provisional(&self, sid: Sid) -> bool {
        let old = self.update(|w| (!set_for_good(w)).then_some(sid.raw() | PROVISIONAL));
        old == 0
    }

    /// Copies `other`'s SID (or its absence); a provisional SID is copied
    /// as one set for good (the copy is a new object's label, which
    /// nothing reads again).
    pub(crate) fn copy_from(&self, other: &Label) {
        self.set(other.get());
    }
}

/// An object's class, kept with it where its kind does not say it (SELinux's
/// `sclass`): a socket's, in its sock and its inode; a System V IPC
/// object's. Fixed when the object is made: none until then.
#[derive(Default)]
pub(crate) struct ObjectClass(AtomicU8);

impl ObjectClass {
    /// The class, if one was recorded.
    #[inline]
    pub(crate) fn get(&self) -> Option<Class> {
        let n = self.0.load(Ordering::Relaxed);
        Class::ALL.get(usize::from(n.checked_sub(1)?)).copied()
    }

    /// Records `class`.
    pub(crate) fn set(&self, class: Class) {
        // Fewer than 255 classes: no overflow.
        self.0
            .store((class as u8).wrapping_add(1), Ordering::Relaxed);
    }
}

/// An inode's slice of its blob: its [`Label`], and the SID of the task
/// that made it (SELinux's `task_sid` of an `inode_security_struct`), from
/// which the inodes of `fs_use_task` and `fs_use_trans` file systems are
/// labelled when they are first reached; for a socket's inode, the
/// socket's class. 12 bytes.
#[derive(Default)]
pub(crate) struct InodeLabel {
    /// The label decisions use.
    pub(crate) label: Label,
    /// The maker's SID; none for an inode made before stacker's blobs
    /// were set up.
    pub(crate) maker: Label,
    /// A socket's inode: its socket's class.
    pub(crate) socket_class: ObjectClass,
}

/// A file's slice of its blob, as SELinux's `file_security_struct`: the
/// SID of the task that opened it (the object of `fd use`), and what its
/// open was decided on: the inode's SID and the policy's sequence number
/// then, so that a read or write with the same task, label and policy
/// needs no new decision. 12 bytes.
#[derive(Default)]
pub(crate) struct FileLabel {
    /// The opener's SID.
    pub(crate) opener: Label,
    /// The inode's SID when the open was decided; 0 until then.
    inode_sid: AtomicU32,
    /// The low 32 bits of the policy's sequence number then.
    seqno: AtomicU32,
}

// SAFETY: all zero is "no opener, never decided"; nothing to drop.
unsafe impl BlobState for FileLabel {}

impl FileLabel {
    /// Notes that the open was decided on inode SID `inode` under the
    /// policy of sequence number `seqno`.
    pub(crate) fn decided(&self, inode: Sid, seqno: u64) {
        self.inode_sid.store(inode.raw(), Ordering::Relaxed);
        self.seqno.store(seqno as u32, Ordering::Relaxed);
    }

    /// Whether task `s` reading or writing now would be decided as the
    /// open was: `s` opened the file, the inode's SID is `inode` as then,
    /// and the policy's sequence number is `seqno` as then
    /// (`selinux_file_permission()`'s fast path).
    #[inline(always)]
    pub(crate) fn as_decided(&self, s: Sid, inode: Sid, seqno: u64) -> bool {
        self.opener.get() == Some(s)
            && self.inode_sid.load(Ordering::Relaxed) == inode.raw()
            && self.seqno.load(Ordering::Relaxed) == seqno as u32
    }
}

/// A sock's or a System V IPC object's slice of its blob: its [`Label`] and
/// its class (a socket's: `tcp_socket`, ...; an IPC object's: `msgq`, `sem`
/// or `shm`). 8 bytes.
#[derive(Default)]
pub(crate) struct ClassedLabel {
    /// The label decisions use.
    pub(crate) label: Label,
    /// The object's class.
    pub(crate) class: ObjectClass,
}

// SAFETY: all zero is "no label, no class"; there is nothing to drop.
unsafe impl BlobState for ClassedLabel {}

// SAFETY: all zero is "no label, no maker"; there is nothing to drop.
unsafe impl BlobState for InodeLabel {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::compiled::InitialSid;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// A SID for the tests: the initial ones are real SIDs too.
    fn sid(initial: InitialSid) -> Sid {
        Sid::initial(initial)
    }

    #[test]
    fn zero_is_no_label_and_set_reads_back() {
        let label = Label::default();
        assert_eq!(label.get(), None);
        assert!(!label.is_set());
        let a = sid(InitialSid::Kernel);
        label.set(Some(a));
        assert_eq!(label.get(), Some(a));
        assert_eq!(label.sid_or(sid(InitialSid::File)), a);
        let copy = Label::default();
        copy.copy_from(&label);
        assert_eq!(copy.get(), Some(a));
        let other = sid(InitialSid::File);
        copy.set_if_unset(other);
        assert_eq!(copy.get(), Some(a), "set: kept");
        let fresh = Label::default();
        fresh.set_if_unset(other);
        assert_eq!(fresh.get(), Some(other), "unset: set");
        label.set(None);
        assert_eq!(label.get(), None);
        assert_eq!(label.sid_or(other), other);
    }

    #[test]
    fn a_provisional_label_decides_until_a_read_replaces_it() {
        let label = Label::default();
        let unlabeled = sid(InitialSid::Unlabeled);
        let read = sid(InitialSid::File);
        assert!(label.set_provisional(unlabeled), "newly provisional");
        assert_eq!(label.get(), Some(unlabeled), "decisions use it");
        assert!(!label.is_set(), "a provisional label is read again");
        assert!(label.is_provisional());
        assert!(!label.set_provisional(unlabeled), "provisional already");
        let copy = Label::default();
        copy.copy_from(&label);
        assert!(
            copy.is_set() && !copy.is_provisional(),
            "a copy is for good"
        );
        label.set_if_unset(read);
        assert_eq!(label.get(), Some(read));
        assert!(label.is_set() && !label.is_provisional());
        assert!(!label.set_provisional(unlabeled));
        assert_eq!(label.get(), Some(read), "a label read for good stays");
        let relabelled = Label::default();
        assert!(relabelled.set_provisional(unlabeled));
        relabelled.set(Some(read));
        assert!(relabelled.is_set());
        assert_eq!(relabelled.get(), Some(read));
    }

    /// A reader sees one of the SIDs written, never another value, while
    /// writers relabel and a reader of the xattr races them.
    #[test]
    fn readers_see_whole_sids() {
        let (a, b) = (sid(InitialSid::Kernel), sid(InitialSid::File));
        let label = Arc::new(Label::default());
        label.set(Some(a));
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = [a, b]
            .into_iter()
            .map(|s| {
                let (label, stop) = (label.clone(), stop.clone());
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        label.set(Some(s));
                        label.set_if_unset(s);
                    }
                })
            })
            .collect();
        for _ in 0..20_000 {
            let got = label.get().unwrap();
            assert!(got == a || got == b, "torn: {got:?}");
            assert!(label.is_set());
        }
        stop.store(true, Ordering::Relaxed);
        for w in writers {
            w.join().unwrap();
        }
    }
}
