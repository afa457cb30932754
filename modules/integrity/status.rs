// SPDX-License-Identifier: GPL-2.0

//! A file's integrity status, cached in its inode's blob.
//!
//! One 64-bit word: a version in the high half, counted up every time the
//! file's contents, security xattrs or attributes change, and in the low
//! half what is known of the file at that version ([`Known`]). A change
//! clears what is known ([`Status::invalidate`]). A result is recorded only
//! for the version it was computed at ([`Status::record`]), so a
//! measurement that raced with a write never claims the new contents.
//!
//! Zero is a valid start: version 0, nothing known.
//!
//! Kernel-independent: the host tests run the same file.

use core::sync::atomic::{AtomicU64, Ordering};

/// What is known of a file at one version: bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Known(pub(crate) u32);

impl Known {
    /// It is in the measurement list.
    pub(crate) const MEASURED: Known = Known(1);
    /// Its digest was compared with `security.ima`; the bits below say how
    /// it went.
    pub(crate) const APPRAISED: Known = Known(1 << 1);
    /// `security.ima` matches the contents (digest or signature).
    pub(crate) const DIGEST_OK: Known = Known(1 << 2);
    /// `security.ima` is a valid signature of the contents.
    pub(crate) const SIGNED: Known = Known(1 << 3);
    /// `security.evm` was checked with the key; the bits below say how it
    /// went.
    pub(crate) const META_CHECKED: Known = Known(1 << 4);
    /// `security.evm` holds the right HMAC.
    pub(crate) const META_OK: Known = Known(1 << 5);
    /// There is no `security.evm`.
    pub(crate) const META_ABSENT: Known = Known(1 << 6);
    /// There is no `security.ima`.
    pub(crate) const IMA_ABSENT: Known = Known(1 << 7);
    /// `security.ima` is malformed (the log line said how).
    pub(crate) const IMA_MALFORMED: Known = Known(1 << 8);
    /// `security.ima` holds a signature.
    pub(crate) const IMA_SIGNATURE: Known = Known(1 << 9);
    /// No key with the signature's key id is loaded: true only until a key
    /// is added, so the result is not cached ([`Known::lasting`]).
    pub(crate) const NO_KEY: Known = Known(1 << 10);
    /// The result came from a transient failure (a read error): it
    /// decides this access but is not cached. (An allocation failure
    /// decides nothing: the access fails with `ENOMEM`.)
    pub(crate) const TRANSIENT: Known = Known(1 << 11);
    /// `security.evm`, or a value it covers, could not be read (with
    /// [`Known::TRANSIENT`]): the refusal says so.
    pub(crate) const META_UNREADABLE: Known = Known(1 << 12);
    /// The contents or `security.ima` could not be read (with
    /// [`Known::TRANSIENT`]): the refusal says so.
    pub(crate) const IMA_UNREADABLE: Known = Known(1 << 13);

    /// Whether all of `other`'s bits are known.
    pub(crate) fn has(self, other: Known) -> bool {
        self.0 & other.0 == other.0
    }

    /// Both sets of bits.
    #[must_use]
    pub(crate) fn with(self, other: Known) -> Known {
        Known(self.0 | other.0)
    }

    /// What may be cached of a result: all of it, except when it found no
    /// key or a transient failure (then only the measurement, which is
    /// done): a later access decides again.
    #[must_use]
    pub(crate) fn lasting(self) -> Known {
        if self.has(Known::NO_KEY) || self.has(Known::TRANSIENT) {
            Known(self.0 & Known::MEASURED.0)
        } else {
            self
        }
    }
}

/// A status read at one moment: the version and what was known.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Snapshot {
    /// The version.
    pub(crate) version: u32,
    /// What was known at it.
    pub(crate) known: Known,
}

/// A file's integrity status (see the module's documentation).
#[derive(Default)]
pub(crate) struct Status(AtomicU64);

impl Status {
    /// The status now.
    pub(crate) fn get(&self) -> Snapshot {
        let w = self.0.load(Ordering::Acquire);
        Snapshot {
            version: (w >> 32) as u32,
            known: Known(w as u32),
        }
    }

    /// The file changed: a new version, of which nothing is known.
    pub(crate) fn invalidate(&self) {
        let mut w = self.0.load(Ordering::Relaxed);
        loop {
            let next = ((w >> 32).wrapping_add(1) & 0xffff_ffff) << 32;
            match self
                .0
                .compare_exchange_weak(w, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(seen) => w = seen,
            }
        }
    }

    /// Records `known` for version `at`; nothing if the file changed since
    /// (the result describes contents that are gone). Whether it was
    /// recorded.
    pub(crate) fn record(&self, at: u32, known: Known) -> bool {
        let mut w = self.0.load(Ordering::Relaxed);
        loop {
            if (w >> 32) as u32 != at {
                return false;
            }
            let next = w | u64::from(known.0);
            match self
                .0
                .compare_exchange_weak(w, next, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return true,
                Err(seen) => w = seen,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_change_forgets_and_a_stale_result_is_dropped() {
        let s = Status::default();
        assert_eq!(
            s.get(),
            Snapshot {
                version: 0,
                known: Known(0)
            }
        );
        assert!(s.record(0, Known::MEASURED));
        assert!(s.get().known.has(Known::MEASURED));
        let before = s.get().version;
        s.invalidate();
        assert_eq!(
            s.get(),
            Snapshot {
                version: before + 1,
                known: Known(0)
            }
        );
        // A result computed at the old version is not recorded.
        assert!(!s.record(before, Known::MEASURED));
        assert!(!s.get().known.has(Known::MEASURED));
    }

    #[test]
    fn a_missing_key_is_not_cached() {
        let r = Known::APPRAISED
            .with(Known::IMA_SIGNATURE)
            .with(Known::NO_KEY)
            .with(Known::MEASURED);
        assert_eq!(r.lasting(), Known::MEASURED);
        let ok = Known::APPRAISED.with(Known::DIGEST_OK);
        assert_eq!(ok.lasting(), ok);
    }

    #[test]
    fn results_accumulate_within_a_version() {
        let s = Status::default();
        assert!(s.record(0, Known::APPRAISED.with(Known::DIGEST_OK)));
        assert!(s.record(0, Known::MEASURED));
        let k = s.get().known;
        assert!(k.has(Known::APPRAISED) && k.has(Known::DIGEST_OK) && k.has(Known::MEASURED));
        assert!(!k.has(Known::SIGNED));
    }

    #[test]
    fn concurrent_writers_never_leave_a_result_of_an_old_version() {
        let s = Arc::new(Status::default());
        let writer = {
            let s = s.clone();
            std::thread::spawn(move || {
                for _ in 0..50_000 {
                    s.invalidate();
                }
            })
        };
        let (mut recorded, mut refused) = (0u32, 0u32);
        while !writer.is_finished() {
            let at = s.get().version;
            if s.record(at, Known::MEASURED) {
                recorded += 1;
            }
            // Whatever the interleaving, a result for a version that is
            // gone is refused.
            let now = s.get().version;
            if now != at {
                assert!(!s.record(at, Known::SIGNED));
                refused += 1;
            }
        }
        let _ = (recorded, refused);
        writer.join().unwrap();
        let end = s.get();
        assert_eq!(end.version, 50_000);
        assert!(!end.known.has(Known::SIGNED));
    }
}
