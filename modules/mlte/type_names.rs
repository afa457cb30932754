// SPDX-License-Identifier: GPL-2.0

//! Global type ids: every type name a loaded policy declared, numbered
//! once and for good.
//!
//! The SID table's contexts (`sidtab.rs`) hold a global type id, not a
//! policy's own: a policy's type ids are its declaration order, which the
//! next policy may change, rename or drop. Each policy maps its types to
//! global ids when it is loaded (`policy.rs`); a context whose type the
//! policy in force does not declare reads as `sid unlabeled`'s, and comes
//! back if a later policy declares that name again, as SELinux's contexts
//! do across reloads.
//!
//! Kernel-independent: the host tests run the same file.

use super::compiled::MAX_NAME;
use super::intern::{InternTable, Interned};
use crate::context::MaySleep;
use crate::error::{Result, EINVAL};

/// A type name, NUL-padded.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct TypeName {
    len: u8,
    bytes: [u8; MAX_NAME as usize],
}

// SAFETY: all zero is the empty name.
unsafe impl Interned for TypeName {
    fn hash(&self) -> u64 {
        // FNV-1a.
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in self.name() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

impl TypeName {
    /// The name's bytes.
    fn name(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

/// Every type name, by global id.
static NAMES: InternTable<TypeName> = InternTable::new();

/// The global id of type `name` (at most [`MAX_NAME`] bytes: `EINVAL`
/// beyond), giving it one if it has none. May allocate (`ENOMEM`).
pub(crate) fn intern(cx: &MaySleep, name: &[u8]) -> Result<u32> {
    let mut bytes = [0u8; MAX_NAME as usize];
    bytes
        .get_mut(..name.len())
        .ok_or(EINVAL)?
        .copy_from_slice(name);
    let len = u8::try_from(name.len()).map_err(|_| EINVAL)?;
    NAMES.intern(cx, &TypeName { len, bytes })
}

/// The name of global type `id`, if it was given out.
pub(crate) fn name(id: u32) -> Option<&'static [u8]> {
    NAMES.get(id).map(TypeName::name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_keeps_its_id() {
        let cx = crate::harness::cx();
        let a = intern(&cx, b"type_names_test_a_t").unwrap();
        let b = intern(&cx, b"type_names_test_b_t").unwrap();
        assert_ne!(a, b);
        assert_eq!(intern(&cx, b"type_names_test_a_t").unwrap(), a);
        assert_eq!(name(a), Some(&b"type_names_test_a_t"[..]));
        assert_eq!(name(b), Some(&b"type_names_test_b_t"[..]));
        assert_eq!(intern(&cx, &[b'x'; MAX_NAME as usize + 1]), Err(EINVAL));
        let longest = [b'y'; MAX_NAME as usize];
        let id = intern(&cx, &longest).unwrap();
        assert_eq!(name(id), Some(&longest[..]));
    }
}
