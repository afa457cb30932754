// SPDX-License-Identifier: GPL-2.0

//! Global ids of users, roles and types: every name a loaded policy
//! declared, numbered once and for good, one numbering per kind.
//!
//! The SID table's contexts (`sidtab.rs`) hold global ids, not a policy's
//! own: a policy's ids are its declaration order (its name order for users
//! and roles), which the next policy may change, rename or drop. Each
//! policy maps its users, roles and types to global ids when it is loaded
//! (`policy.rs`); a context that the policy in force cannot read (a name
//! it does not declare, or a context it does not find valid) reads as
//! `sid unlabeled`'s, and comes back if a later policy has it again, as
//! SELinux's contexts do across reloads.
//!
//! Kernel-independent: the host tests run the same file.

use super::compiled::MAX_NAME;
use super::intern::{InternTable, Interned};
use crate::context::MaySleep;
use crate::error::{Result, EINVAL};

/// What a name names: each kind has its own ids.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// A user (`system_u`).
    User,
    /// A role (`object_r`).
    Role,
    /// A type (`etc_t`).
    Type,
}

/// A name, NUL-padded.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct Name {
    len: u8,
    bytes: [u8; MAX_NAME as usize],
}

// SAFETY: all zero is the empty name.
unsafe impl Interned for Name {
    fn hash(&self) -> u64 {
        // FNV-1a.
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &b in self.name() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

impl Name {
    /// The name's bytes.
    fn name(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

/// Every user name, by global id.
static USERS: InternTable<Name> = InternTable::new();
/// Every role name, by global id.
static ROLES: InternTable<Name> = InternTable::new();
/// Every type name, by global id.
static TYPES: InternTable<Name> = InternTable::new();

/// The table of `kind`'s names.
fn table(kind: Kind) -> &'static InternTable<Name> {
    match kind {
        Kind::User => &USERS,
        Kind::Role => &ROLES,
        Kind::Type => &TYPES,
    }
}

/// The global id of the `kind` named `name` (at most [`MAX_NAME`] bytes:
/// `EINVAL` beyond), giving it one if it has none. May allocate (`ENOMEM`).
pub(crate) fn intern(cx: &MaySleep, kind: Kind, name: &[u8]) -> Result<u32> {
    let mut bytes = [0u8; MAX_NAME as usize];
    bytes
        .get_mut(..name.len())
        .ok_or(EINVAL)?
        .copy_from_slice(name);
    let len = u8::try_from(name.len()).map_err(|_| EINVAL)?;
    table(kind).intern(cx, &Name { len, bytes })
}

/// The name of `kind`'s global id `id`, if it was given out.
pub(crate) fn name(kind: Kind, id: u32) -> Option<&'static [u8]> {
    table(kind).get(id).map(Name::name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_keeps_its_id_in_its_kind() {
        let cx = crate::harness::cx();
        let a = intern(&cx, Kind::Type, b"type_names_test_a_t").unwrap();
        let b = intern(&cx, Kind::Type, b"type_names_test_b_t").unwrap();
        assert_ne!(a, b);
        assert_eq!(intern(&cx, Kind::Type, b"type_names_test_a_t").unwrap(), a);
        assert_eq!(name(Kind::Type, a), Some(&b"type_names_test_a_t"[..]));
        assert_eq!(name(Kind::Type, b), Some(&b"type_names_test_b_t"[..]));
        assert_eq!(
            intern(&cx, Kind::Type, &[b'x'; MAX_NAME as usize + 1]),
            Err(EINVAL)
        );
        let longest = [b'y'; MAX_NAME as usize];
        let id = intern(&cx, Kind::Type, &longest).unwrap();
        assert_eq!(name(Kind::Type, id), Some(&longest[..]));
        // Each kind numbers its own names.
        let u = intern(&cx, Kind::User, b"type_names_test_a_t").unwrap();
        let r = intern(&cx, Kind::Role, b"type_names_test_r").unwrap();
        assert_eq!(name(Kind::User, u), Some(&b"type_names_test_a_t"[..]));
        assert_eq!(name(Kind::Role, r), Some(&b"type_names_test_r"[..]));
        assert_eq!(intern(&cx, Kind::User, b"type_names_test_a_t").unwrap(), u);
    }
}
