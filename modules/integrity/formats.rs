// SPDX-License-Identifier: GPL-2.0

//! The on-disk and on-screen formats the integrity submodule shares with
//! IMA, EVM and `evmctl` (ima-evm-utils):
//!
//! - `security.ima` as `evmctl ima_hash` writes it (IMA's digest-ng xattr,
//!   `0x04`) or as `evmctl ima_sign` writes it (a version 2 signature,
//!   `0x03`);
//! - `security.evm` holding an HMAC (`0x02`), over EVM's layout
//!   ([`EvmInput`]);
//! - the `ima-ng` template of IMA's measurement list ([`ImaNg`]).
//!
//! Every parser here takes its input as hostile: lengths are checked
//! before anything is read, and an error says what was wrong.
//!
//! Kernel-independent: the host tests run the same file.

/// A SHA-256 digest.
pub(crate) type Digest = [u8; 32];
/// A SHA-1 digest (the template hash of IMA's measurement list).
pub(crate) type Sha1Digest = [u8; 20];

/// `enum hash_algo` (`include/uapi/linux/hash_info.h`): SHA-256, the only file digest taken.
pub(crate) const HASH_ALGO_SHA256: u8 = 4;

/// `enum evm_ima_xattr_type` (`security/integrity/integrity.h`).
const IMA_XATTR_DIGEST: u8 = 0x01;
const EVM_XATTR_HMAC: u8 = 0x02;
const EVM_IMA_XATTR_DIGSIG: u8 = 0x03;
const IMA_XATTR_DIGEST_NG: u8 = 0x04;
const EVM_XATTR_PORTABLE_DIGSIG: u8 = 0x05;

/// The version 2 signature header: type, version, hash algorithm, key id
/// (4 bytes, big-endian), signature size (2 bytes, big-endian).
const SIGNATURE_V2_HEADER: usize = 9;

/// What `security.ima` holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ImaXattr<'a> {
    /// The SHA-256 digest of the file's contents.
    Digest(&'a Digest),
    /// A signature of the file's SHA-256 digest by the key `keyid` (the
    /// last four bytes of its subject key identifier).
    Signature {
        /// The key id.
        keyid: u32,
        /// The signature (for RSA, PKCS#1 v1.5).
        sig: &'a [u8],
    },
}

/// Why an xattr could not be used: the text of the log line.
pub(crate) type XattrError = &'static str;

/// Parses a `security.ima` value.
pub(crate) fn parse_ima(value: &[u8]) -> Result<ImaXattr<'_>, XattrError> {
    match value.first() {
        None => Err("security.ima is empty"),
        Some(&IMA_XATTR_DIGEST_NG) => match (value.get(1), value.get(2..)) {
            (Some(&HASH_ALGO_SHA256), Some(d)) => d
                .try_into()
                .map(ImaXattr::Digest)
                .map_err(|_| "security.ima: a SHA-256 digest must be 32 bytes"),
            (Some(_), _) => Err("security.ima: unsupported hash algorithm (only sha256)"),
            _ => Err("security.ima: truncated digest header"),
        },
        Some(&IMA_XATTR_DIGEST) => {
            Err("security.ima: old SHA-1 digest format (use evmctl -a sha256)")
        }
        Some(&EVM_IMA_XATTR_DIGSIG) => {
            let header = value
                .get(..SIGNATURE_V2_HEADER)
                .ok_or("security.ima: truncated signature header")?;
            if header[1] != 2 {
                return Err("security.ima: unsupported signature version (only 2)");
            }
            if header[2] != HASH_ALGO_SHA256 {
                return Err("security.ima: unsupported signature hash algorithm (only sha256)");
            }
            let keyid = u32::from_be_bytes([header[3], header[4], header[5], header[6]]);
            let size = usize::from(u16::from_be_bytes([header[7], header[8]]));
            let sig = value.get(SIGNATURE_V2_HEADER..).unwrap_or(&[]);
            if sig.len() != size || size == 0 {
                return Err("security.ima: signature size does not match the xattr's length");
            }
            Ok(ImaXattr::Signature { keyid, sig })
        }
        Some(_) => Err("security.ima: unknown type"),
    }
}

/// Parses a `security.evm` value: the HMAC it holds.
pub(crate) fn parse_evm(value: &[u8]) -> Result<&Digest, XattrError> {
    match value.first() {
        None => Err("security.evm is empty"),
        Some(&EVM_XATTR_HMAC) => value
            .get(1..)
            .and_then(|h| h.try_into().ok())
            .ok_or("security.evm: an HMAC-SHA256 must be 32 bytes"),
        Some(&EVM_IMA_XATTR_DIGSIG) | Some(&EVM_XATTR_PORTABLE_DIGSIG) => {
            Err("security.evm: signatures are not supported (only HMAC)")
        }
        Some(_) => Err("security.evm: unknown type"),
    }
}

/// Whether a `security.evm` value stays true when overlayfs copies its
/// file up to a new inode: only a portable signature, which covers no
/// inode number, generation or file system UUID. An HMAC (and an ordinary
/// signature) is bound to the lower inode and is left behind, as EVM's
/// `evm_inode_copy_up_xattr()` does. `value` is not empty.
pub(crate) fn evm_survives_copy_up(value: &[u8]) -> bool {
    value.first() == Some(&EVM_XATTR_PORTABLE_DIGSIG)
}

/// The `security.evm` value for `hmac` (made on the host; the kernel only
/// checks them).
#[cfg(not(CONFIG_RUST))]
pub(crate) fn evm_value(hmac: &Digest) -> [u8; 33] {
    let mut v = [0u8; 33];
    v[0] = EVM_XATTR_HMAC;
    v[1..].copy_from_slice(hmac);
    v
}

/// The xattrs the HMAC covers, in order: EVM's (as `evmctl` lists them),
/// then stacker's own.
pub(crate) const EVM_XATTRS: [&str; 7] = [
    "security.selinux",
    "security.SMACK64",
    "security.apparmor",
    "security.ima",
    "security.capability",
    "security.mlte",
    "security.capstack",
];

/// Something bytes are fed to: a hash or an HMAC.
pub(crate) trait Sink {
    /// Feeds `bytes`.
    fn update(&mut self, bytes: &[u8]);
}

/// The inode metadata the HMAC covers.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct EvmInput {
    /// `i_ino`.
    pub(crate) ino: u64,
    /// `i_generation`.
    pub(crate) generation: u32,
    /// The owner, in the initial user namespace.
    pub(crate) uid: u32,
    /// The group, in the initial user namespace.
    pub(crate) gid: u32,
    /// `i_mode`.
    pub(crate) mode: u16,
    /// The file system's UUID (`s_uuid`).
    pub(crate) uuid: [u8; 16],
}

impl EvmInput {
    /// Feeds the HMAC's input to `sink`, as EVM's `evm_calc_hmac_or_hash`
    /// lays it out: for each covered xattr ([`EVM_XATTRS`], in order),
    /// `xattr(name, sink)` feeds its value if the file has it; then
    /// `struct h_misc` (64-bit: ino, generation, uid, gid, mode, zero
    /// padding to 24 bytes), then the file system's UUID.
    pub(crate) fn feed<S: Sink>(&self, sink: &mut S, mut xattr: impl FnMut(&'static str, &mut S)) {
        for name in EVM_XATTRS {
            xattr(name, sink);
        }
        sink.update(&self.h_misc());
        sink.update(&self.uuid);
    }

    /// `struct h_misc` on a 64-bit kernel, little-endian.
    fn h_misc(&self) -> [u8; 24] {
        let mut m = [0u8; 24];
        m[0..8].copy_from_slice(&self.ino.to_le_bytes());
        m[8..12].copy_from_slice(&self.generation.to_le_bytes());
        m[12..16].copy_from_slice(&self.uid.to_le_bytes());
        m[16..20].copy_from_slice(&self.gid.to_le_bytes());
        m[20..22].copy_from_slice(&self.mode.to_le_bytes());
        m
    }
}

/// The `ima-ng` template of one measurement: the file's digest and path.
pub(crate) struct ImaNg<'a> {
    /// The SHA-256 digest of the contents.
    pub(crate) digest: &'a Digest,
    /// The path (without a NUL).
    pub(crate) path: &'a [u8],
}

/// `sha256:` and its NUL: the algorithm prefix of an `ima-ng` digest.
const SHA256_PREFIX: &[u8] = b"sha256:\0";

impl ImaNg<'_> {
    /// Feeds the template data to `sink`, as IMA hashes it into the
    /// template hash: for each field (`d-ng`, `n-ng`), its length as a
    /// little-endian `u32`, then its data: `sha256:\0` and the digest; the
    /// path and a NUL.
    pub(crate) fn feed(&self, sink: &mut impl Sink) {
        let d_len = (SHA256_PREFIX.len() + self.digest.len()) as u32;
        sink.update(&d_len.to_le_bytes());
        sink.update(SHA256_PREFIX);
        sink.update(self.digest);
        let n_len = u32::try_from(self.path.len().saturating_add(1)).unwrap_or(u32::MAX);
        sink.update(&n_len.to_le_bytes());
        sink.update(self.path);
        sink.update(&[0]);
    }

    /// The template hash: SHA-1 of the template data, the value an entry
    /// of IMA's list is known by. `None` if no SHA-1 transform could be
    /// had (out of memory).
    pub(crate) fn template_hash(&self) -> Option<Sha1Digest> {
        let mut sha1 = super::crypto::Sha1::new()?;
        self.feed(&mut sha1);
        Some(sha1.finish())
    }
}

/// A byte of a path as IMA's `n-ng` field writes it: a space is `_`, so
/// that a line of the ascii list has no space inside a field.
pub(crate) fn ima_ng_path_byte(b: u8) -> u8 {
    if b == b' ' {
        b'_'
    } else {
        b
    }
}

/// Whether `a` and `b` are equal, in time that does not depend on where
/// they differ (for HMACs).
pub(crate) fn same_secret(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Writes `bytes` as lowercase hex.
pub(crate) fn write_hex(out: &mut impl core::fmt::Write, bytes: &[u8]) -> core::fmt::Result {
    bytes.iter().try_for_each(|b| write!(out, "{b:02x}"))
}

/// Writes a path as IMA prints it in the ascii list: bytes that are not
/// printable ASCII, and spaces, as `\xNN`, so that a line has exactly
/// five fields.
pub(crate) fn write_path(out: &mut impl core::fmt::Write, path: &[u8]) -> core::fmt::Result {
    path.iter().try_for_each(|&b| {
        if b.is_ascii_graphic() && b != b'\\' {
            out.write_char(char::from(b))
        } else {
            write!(out, "\\x{b:02x}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ima_digest_ng() {
        let mut v = vec![0x04, 0x04];
        v.extend_from_slice(&[0xab; 32]);
        assert_eq!(parse_ima(&v), Ok(ImaXattr::Digest(&[0xab; 32])));
        // Every cut is refused, and so is one byte more.
        for n in 0..v.len() {
            assert!(parse_ima(&v[..n]).is_err(), "cut at {n}");
        }
        v.push(0);
        assert!(parse_ima(&v).is_err());
        assert!(parse_ima(&[0x04, 0x02, 0, 0])
            .unwrap_err()
            .contains("hash algorithm"));
        assert!(parse_ima(&[0x01; 21]).unwrap_err().contains("SHA-1"));
        assert!(parse_ima(&[0x09, 1]).unwrap_err().contains("unknown type"));
    }

    #[test]
    fn ima_signature_v2() {
        let mut v = vec![0x03, 2, 4, 0xde, 0xad, 0xbe, 0xef, 0, 3, 7, 8, 9];
        assert_eq!(
            parse_ima(&v),
            Ok(ImaXattr::Signature {
                keyid: 0xdead_beef,
                sig: &[7, 8, 9]
            })
        );
        for n in 0..v.len() {
            assert!(parse_ima(&v[..n]).is_err(), "cut at {n}");
        }
        v.push(1);
        assert!(parse_ima(&v).unwrap_err().contains("size"));
        assert!(parse_ima(&[0x03, 1, 4, 0, 0, 0, 0, 0, 1, 1])
            .unwrap_err()
            .contains("version"));
        assert!(parse_ima(&[0x03, 2, 2, 0, 0, 0, 0, 0, 1, 1])
            .unwrap_err()
            .contains("algorithm"));
        assert!(parse_ima(&[0x03, 2, 4, 0, 0, 0, 0, 0, 0]).is_err());
    }

    #[test]
    fn evm_hmac_value() {
        let v = evm_value(&[5; 32]);
        assert_eq!(parse_evm(&v), Ok(&[5; 32]));
        for n in 0..v.len() {
            assert!(parse_evm(&v[..n]).is_err());
        }
        assert!(parse_evm(&[0x03, 1]).unwrap_err().contains("signatures"));
    }

    struct Collect(Vec<u8>);
    impl Sink for Collect {
        fn update(&mut self, b: &[u8]) {
            self.0.extend_from_slice(b);
        }
    }

    #[test]
    fn evm_layout_is_xattrs_then_h_misc_then_uuid() {
        let input = EvmInput {
            ino: 0x0102_0304_0506_0708,
            generation: 9,
            uid: 1000,
            gid: 100,
            mode: 0o100755,
            uuid: [0xee; 16],
        };
        let mut c = Collect(Vec::new());
        input.feed(&mut c, |name, c| match name {
            "security.ima" => c.update(b"IMA"),
            "security.mlte" => c.update(b"LABEL"),
            _ => {}
        });
        let mut want = b"IMALABEL".to_vec();
        want.extend_from_slice(&[
            8, 7, 6, 5, 4, 3, 2, 1, 9, 0, 0, 0, 0xe8, 3, 0, 0, 100, 0, 0, 0, 0xed, 0x81, 0, 0,
        ]);
        want.extend_from_slice(&[0xee; 16]);
        assert_eq!(c.0, want);
    }

    #[test]
    fn ima_ng_template_data() {
        let mut c = Collect(Vec::new());
        ImaNg {
            digest: &[1; 32],
            path: b"/bin/x",
        }
        .feed(&mut c);
        let mut want = vec![40, 0, 0, 0];
        want.extend_from_slice(b"sha256:\0");
        want.extend_from_slice(&[1; 32]);
        want.extend_from_slice(&[7, 0, 0, 0]);
        want.extend_from_slice(b"/bin/x\0");
        assert_eq!(c.0, want);
    }

    #[test]
    fn secrets_compare_whole() {
        let a = [7u8; 32];
        let mut b = a;
        assert!(same_secret(&a, &b));
        b[31] ^= 1;
        assert!(!same_secret(&a, &b));
    }

    #[test]
    fn paths_print_as_one_field() {
        let mut s = String::new();
        write_path(&mut s, b"/a b\\c\n\xff").unwrap();
        assert_eq!(s, "/a\\x20b\\x5cc\\x0a\\xff");
    }
}
