// SPDX-License-Identifier: GPL-2.0

//! The host model of the integrity submodule's crypto
//! (`modules/integrity/crypto.rs`): the same API, computed with RustCrypto
//! (`sha2`, `sha1`, `hmac`) instead of the kernel's crypto library.
//!
//! - [`hash_file`], [`sha256`], [`Sha1`] and [`Hmac`] are real: the same
//!   values as the kernel's (`hash_file` hashes the model inode's
//!   `contents`, which is what a read of the file gives);
//! - signature keys are not modelled: the host has no X.509 parser and no
//!   RSA. [`add_key`] refuses every certificate (`EOPNOTSUPP`), so no key
//!   is ever loaded, and [`verify`] answers every signature as the kernel
//!   answers one whose key id is not loaded: `ENOKEY`. It never says a
//!   signature is good, nor that it is bad;
//! - [`BitLock`] is a lock on bit 0 of a word, as the kernel's, waiting by
//!   yielding the thread (the model has no fatal signals: never `EINTR`).

use super::formats::{Digest, Sha1Digest, Sink};
use crate::error::{Result, ENOKEY, EOPNOTSUPP};
use crate::objects::{File, FileView};
use core::sync::atomic::{AtomicUsize, Ordering};
use sha1::Digest as _;

/// The SHA-256 of `file`'s contents (the model inode's `contents`).
pub(crate) fn hash_file(file: &File) -> Result<Digest> {
    Ok(sha256(&file.inode().contents.borrow()))
}

/// The SHA-256 of `data`.
pub(crate) fn sha256(data: &[u8]) -> Digest {
    sha2::Sha256::digest(data).into()
}

/// A SHA-1 in progress (template hashes and the aggregate).
pub(crate) struct Sha1(sha1::Sha1);

impl Sha1 {
    /// A new SHA-1 (never `None` on the host: the kernel's is `None` when
    /// its context would not fit its buffer).
    pub(crate) fn new() -> Option<Self> {
        Some(Sha1(sha1::Sha1::new()))
    }

    /// The digest.
    pub(crate) fn finish(self) -> Sha1Digest {
        self.0.finalize().into()
    }
}

impl Sink for Sha1 {
    fn update(&mut self, bytes: &[u8]) {
        sha1::Digest::update(&mut self.0, bytes);
    }
}

/// An HMAC-SHA256 in progress (`security.evm`).
pub(crate) struct Hmac(hmac::Hmac<sha2::Sha256>);

impl Hmac {
    /// A new HMAC under `key` (HMAC takes keys of any length: never
    /// `None`).
    pub(crate) fn new(key: &[u8]) -> Option<Self> {
        <hmac::Hmac<sha2::Sha256> as hmac::Mac>::new_from_slice(key)
            .ok()
            .map(Hmac)
    }

    /// The HMAC.
    pub(crate) fn finish(self) -> Digest {
        hmac::Mac::finalize(self.0).into_bytes().into()
    }
}

impl Sink for Hmac {
    fn update(&mut self, bytes: &[u8]) {
        hmac::Mac::update(&mut self.0, bytes);
    }
}

/// Refuses the certificate: the host has no X.509 parser (see the module
/// documentation). `EOPNOTSUPP`, keys unchanged.
pub(crate) fn add_key(_der: &[u8]) -> Result {
    Err(EOPNOTSUPP)
}

/// `ENOKEY`, always: no key is ever loaded on the host (see the module
/// documentation), which is what the kernel returns for a key id it does
/// not have. Not a verification.
pub(crate) fn verify(_keyid: u32, _sig: &[u8], _digest: &Digest) -> Result {
    Err(ENOKEY)
}

/// A lock on bit 0 of a word: the measurement lock of an inode.
///
/// # Invariants
///
/// Only [`BitLock::lock`]'s guard sets and clears the bit.
#[derive(Default)]
pub(crate) struct BitLock(AtomicUsize);

/// A held [`BitLock`]; dropping it unlocks.
pub(crate) struct BitLockGuard<'a>(&'a BitLock);

impl BitLock {
    /// Waits for the lock. Never fails on the host.
    pub(crate) fn lock(&self) -> Result<BitLockGuard<'_>> {
        crate::platform::might_sleep();
        while self.0.fetch_or(1, Ordering::Acquire) & 1 != 0 {
            std::thread::yield_now();
        }
        Ok(BitLockGuard(self))
    }
}

impl Drop for BitLockGuard<'_> {
    fn drop(&mut self) {
        self.0 .0.fetch_and(!1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::{sha256, BitLock, Hmac, Sha1};
    use crate::integrity::formats::{ImaNg, Sink};

    fn unhex<const N: usize>(s: &str) -> [u8; N] {
        core::array::from_fn(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
    }

    // The kernel's KUnit vectors (`crypto.rs`), on the host model.
    #[test]
    fn known_answers() {
        assert_eq!(
            sha256(b"abc"),
            unhex::<32>("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        let mut h = Sha1::new().unwrap();
        h.update(b"a");
        h.update(b"bc");
        assert_eq!(
            h.finish(),
            unhex::<20>("a9993e364706816aba3e25717850c26c9cd0d89d")
        );
        let mut h = Hmac::new(b"Jefe").unwrap();
        h.update(b"what do ya ");
        h.update(b"want for nothing?");
        assert_eq!(
            h.finish(),
            unhex::<32>("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        );
        let got = ImaNg {
            digest: &[0; 32],
            path: b"boot_aggregate",
        }
        .template_hash();
        assert_eq!(
            got,
            Some(unhex::<20>("0adefe762c149c7cec19da62f0da1297fcfbffff"))
        );
    }

    #[test]
    fn bit_lock_excludes() {
        let lock = BitLock::default();
        let g = lock.lock().unwrap();
        assert_eq!(lock.0.load(core::sync::atomic::Ordering::Relaxed), 1);
        drop(g);
        assert_eq!(lock.0.load(core::sync::atomic::Ordering::Relaxed), 0);
        drop(lock.lock().unwrap());
    }
}
