// SPDX-License-Identifier: GPL-2.0

//! Safe wrappers of the integrity submodule's C glue (`integrity_glue.c`):
//! file hashing, SHA-1 and HMAC-SHA256 in pieces, and the signature keys.
//!
//! Kernel only. The host's model of this file, with the same API, is
//! `stacker/host/integrity_crypto.rs` (RustCrypto; no signature keys).

use super::formats::{Digest, Sha1Digest, Sink};
use crate::error::{Error, Result};
use crate::objects::File;
use core::mem::MaybeUninit;

extern "C" {
    fn stacker_integrity_hash_file(file: *mut core::ffi::c_void, out: *mut u8) -> i32;
    fn stacker_integrity_sha256(data: *const u8, len: usize, out: *mut u8);
    fn stacker_integrity_sha1_ctx_size() -> usize;
    fn stacker_integrity_sha1_init(ctx: *mut u8);
    fn stacker_integrity_sha1_update(ctx: *mut u8, data: *const u8, len: usize);
    fn stacker_integrity_sha1_final(ctx: *mut u8, out: *mut u8);
    fn stacker_integrity_hmac_ctx_size() -> usize;
    fn stacker_integrity_hmac_init(ctx: *mut u8, key: *const u8, len: usize);
    fn stacker_integrity_hmac_update(ctx: *mut u8, data: *const u8, len: usize);
    fn stacker_integrity_hmac_final(ctx: *mut u8, out: *mut u8);
    fn stacker_integrity_add_key(der: *const u8, len: usize) -> i32;
    fn stacker_integrity_verify(keyid: u32, sig: *const u8, sig_len: u32, digest: *const u8)
        -> i32;
    fn stacker_integrity_lock(word: *mut usize) -> i32;
    fn stacker_integrity_unlock(word: *mut usize);
}

/// 0 or a negative errno, as a `Result`.
fn errno(ret: i32) -> Result {
    if ret == 0 {
        Ok(())
    } else {
        Err(Error::from_errno(ret))
    }
}

/// The SHA-256 of `file`'s contents. The file must be open for reading.
/// Sleeps (reads the file).
pub(crate) fn hash_file(file: &File) -> Result<Digest> {
    let mut out = [0u8; 32];
    // SAFETY: `file` is an open file for the call; `out` is 32 writable
    // bytes, SHA256_DIGEST_SIZE.
    errno(unsafe { stacker_integrity_hash_file(file.as_raw().cast(), out.as_mut_ptr()) })?;
    Ok(out)
}

/// The SHA-256 of `data`.
pub(crate) fn sha256(data: &[u8]) -> Digest {
    let mut out = [0u8; 32];
    // SAFETY: `data` is readable for its length; `out` is 32 bytes.
    unsafe { stacker_integrity_sha256(data.as_ptr(), data.len(), out.as_mut_ptr()) };
    out
}

/// Room for a hash context on the stack: at least the C side's size
/// (checked at each use; SHA-1's is about 100 bytes, HMAC-SHA256's about
/// 140), 8-byte aligned.
#[repr(C, align(8))]
struct CtxBuf([MaybeUninit<u8>; CTX_ROOM]);

/// The room in a [`CtxBuf`].
const CTX_ROOM: usize = 256;

impl CtxBuf {
    /// A buffer for a context of `size` bytes, or `None` if it would not
    /// fit (the C structure grew: a build problem, not an input one).
    fn new(size: usize) -> Option<Self> {
        (size <= CTX_ROOM).then_some(CtxBuf([MaybeUninit::uninit(); CTX_ROOM]))
    }

    fn ptr(&mut self) -> *mut u8 {
        self.0.as_mut_ptr().cast()
    }
}

/// A SHA-1 in progress (template hashes and the aggregate).
pub(crate) struct Sha1(CtxBuf);

impl Sha1 {
    /// A new SHA-1; `None` if the context does not fit (see [`CtxBuf`]).
    pub(crate) fn new() -> Option<Self> {
        // SAFETY: returns a constant.
        let mut buf = CtxBuf::new(unsafe { stacker_integrity_sha1_ctx_size() })?;
        // SAFETY: `buf` holds at least `sizeof(struct sha1_ctx)` bytes,
        // suitably aligned (8 bytes, the struct's alignment).
        unsafe { stacker_integrity_sha1_init(buf.ptr()) };
        Some(Sha1(buf))
    }

    /// The digest.
    pub(crate) fn finish(mut self) -> Sha1Digest {
        let mut out = [0u8; 20];
        // SAFETY: the context was initialised by `new`; `out` is 20 bytes.
        unsafe { stacker_integrity_sha1_final(self.0.ptr(), out.as_mut_ptr()) };
        out
    }
}

impl Sink for Sha1 {
    fn update(&mut self, bytes: &[u8]) {
        // SAFETY: the context was initialised by `new`; `bytes` is
        // readable for its length.
        unsafe { stacker_integrity_sha1_update(self.0.ptr(), bytes.as_ptr(), bytes.len()) };
    }
}

/// An HMAC-SHA256 in progress (`security.evm`).
pub(crate) struct Hmac(CtxBuf);

impl Hmac {
    /// A new HMAC under `key`; `None` if the context does not fit.
    pub(crate) fn new(key: &[u8]) -> Option<Self> {
        // SAFETY: returns a constant.
        let mut buf = CtxBuf::new(unsafe { stacker_integrity_hmac_ctx_size() })?;
        // SAFETY: `buf` holds the context (see `Sha1::new`); `key` is
        // readable for its length.
        unsafe { stacker_integrity_hmac_init(buf.ptr(), key.as_ptr(), key.len()) };
        Some(Hmac(buf))
    }

    /// The HMAC; the context is wiped by the C side.
    pub(crate) fn finish(mut self) -> Digest {
        let mut out = [0u8; 32];
        // SAFETY: the context was initialised by `new`; `out` is 32 bytes.
        unsafe { stacker_integrity_hmac_final(self.0.ptr(), out.as_mut_ptr()) };
        out
    }
}

impl Sink for Hmac {
    fn update(&mut self, bytes: &[u8]) {
        // SAFETY: as for `Sha1::update`.
        unsafe { stacker_integrity_hmac_update(self.0.ptr(), bytes.as_ptr(), bytes.len()) };
    }
}

/// Adds the X.509 certificate `der` to the signature keys. Sleeps.
pub(crate) fn add_key(der: &[u8]) -> Result {
    // SAFETY: `der` is readable for its length; the C side copies it.
    errno(unsafe { stacker_integrity_add_key(der.as_ptr(), der.len()) })
}

/// Whether `sig` is a valid signature of `digest` by the key `keyid`:
/// `Ok` if so, else the error (`ENOKEY`: no such key; `ENOMEM`: memory ran
/// out, which says nothing of the key or the signature). Sleeps.
pub(crate) fn verify(keyid: u32, sig: &[u8], digest: &Digest) -> Result {
    let len = u32::try_from(sig.len()).map_err(|_| crate::error::EINVAL)?;
    // SAFETY: `sig` is readable for `len` bytes and `digest` for 32.
    errno(unsafe { stacker_integrity_verify(keyid, sig.as_ptr(), len, digest.as_ptr()) })
}

/// A sleeping lock on bit 0 of a word: the measurement lock of an inode.
///
/// # Invariants
///
/// Only [`BitLock::lock`]'s guard sets and clears the bit.
#[derive(Default)]
pub(crate) struct BitLock(core::sync::atomic::AtomicUsize);

/// A held [`BitLock`]; dropping it unlocks.
pub(crate) struct BitLockGuard<'a>(&'a BitLock);

impl BitLock {
    /// Waits for the lock (killable: `EINTR` on a fatal signal). Sleeps.
    pub(crate) fn lock(&self) -> Result<BitLockGuard<'_>> {
        // SAFETY: the word is valid for the guard's life; the C side only
        // uses atomic bit operations on it.
        errno(unsafe { stacker_integrity_lock(self.0.as_ptr()) })?;
        Ok(BitLockGuard(self))
    }
}

impl Drop for BitLockGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: this guard holds the bit (type invariant).
        unsafe { stacker_integrity_unlock(self.0 .0.as_ptr()) };
    }
}

#[cfg(CONFIG_SECURITY_STACKER_KUNIT_TEST)]
#[kernel::prelude::kunit_tests(stacker_integrity)]
mod tests {
    use super::super::formats::{ImaNg, Sink};
    use super::{sha256, Hmac, Sha1};

    /// Parses 2n hex digits into n bytes (test vectors).
    fn unhex<const N: usize>(s: &str) -> [u8; N] {
        let mut out = [0u8; N];
        for (i, b) in out.iter_mut().enumerate() {
            let pair = s.get(2 * i..2 * i + 2).unwrap_or("");
            *b = u8::from_str_radix(pair, 16).unwrap_or(0);
        }
        out
    }

    #[test]
    fn sha256_known_answer() {
        let want: [u8; 32] =
            unhex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(sha256(b"abc"), want);
    }

    #[test]
    fn sha1_in_pieces_known_answer() {
        let want: [u8; 20] = unhex("a9993e364706816aba3e25717850c26c9cd0d89d");
        let mut h = Sha1::new();
        assert!(h.is_some());
        if let Some(mut h) = h.take() {
            h.update(b"a");
            h.update(b"bc");
            assert_eq!(h.finish(), want);
        }
    }

    /// RFC 4231, test case 2.
    #[test]
    fn hmac_sha256_rfc4231_case_2() {
        let want: [u8; 32] =
            unhex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        let mut h = Hmac::new(b"Jefe");
        assert!(h.is_some());
        if let Some(mut h) = h.take() {
            h.update(b"what do ya ");
            h.update(b"want for nothing?");
            assert_eq!(h.finish(), want);
        }
    }

    /// The template hash IMA gives the `boot_aggregate` entry of a
    /// machine without a TPM (computed independently on the host).
    #[test]
    fn ima_ng_template_hash_of_boot_aggregate() {
        let want: [u8; 20] = unhex("0adefe762c149c7cec19da62f0da1297fcfbffff");
        let got = ImaNg {
            digest: &[0; 32],
            path: b"boot_aggregate",
        }
        .template_hash();
        assert_eq!(got, Some(want));
    }
}
