// SPDX-License-Identifier: GPL-2.0

//! The compiled form of an `mlte` policy, and its checker.
//!
//! The host tool writes it (`mlte-policy compile`); the kernel will load it
//! through securityfs and must treat every byte as hostile: [`Compiled::check`]
//! validates all of it before anything reads a field, and afterwards every
//! lookup is in bounds by construction. The decision structure is a dense
//! access matrix: one `u32` permission bitmap per (source type, target type,
//! class), so a decision is one multiply-add and one load, with no search,
//! no allocation and no lock.
//!
//! Layout, all integers little-endian `u32`:
//!
//! ```text
//! "MLTE" version types classes transitions
//! type names:   types x (length, bytes)          1..=MAX_NAME bytes of [a-z0-9_]
//! matrix:       types x types x classes bitmaps  (source, target, class) order
//! transitions:  transitions x (source, target, class, new), sorted, unique
//! ```
//!
//! Cost: `4 x types^2 x classes` bytes; with [`MAX_TYPES`] types and the six
//! classes, 6 MiB at most.
//!
//! Kernel-independent: no allocation, no panic path.

use super::classes::CLASSES;

/// The magic at the start of the compiled form.
pub(crate) const MAGIC: &[u8; 4] = b"MLTE";
/// The version this code reads and writes.
pub(crate) const VERSION: u32 = 1;
/// The most types a policy may declare.
pub(crate) const MAX_TYPES: u32 = 512;
/// The longest type name, in bytes.
pub(crate) const MAX_NAME: u32 = 64;

/// Why a compiled policy was refused, and at which byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Invalid {
    /// Byte offset of the field that was wrong.
    pub(crate) at: usize,
    /// What was wrong.
    pub(crate) why: &'static str,
}

/// A compiled policy whose every field was checked.
///
/// # Invariants
///
/// `bytes` passed [`Compiled::check`]: the matrix holds
/// `types * types * classes` bitmaps at `matrix`, and the transitions
/// `transitions` entries at `trans`, all in bounds and valid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compiled<'a> {
    bytes: &'a [u8],
    types: u32,
    classes: u32,
    matrix: usize,
    trans: usize,
    transitions: u32,
}

/// Reads the `u32` at `at`.
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl<'a> Compiled<'a> {
    /// Checks every field of `bytes`.
    pub(crate) fn check(bytes: &'a [u8]) -> Result<Compiled<'a>, Invalid> {
        let bad = |at, why| Invalid { at, why };
        if bytes.get(..4) != Some(&MAGIC[..]) {
            return Err(bad(0, "not an mlte policy (no MLTE magic)"));
        }
        let field = |at| u32_at(bytes, at).ok_or(bad(at, "cut short in the header"));
        if field(4)? != VERSION {
            return Err(bad(4, "unknown version"));
        }
        let types = field(8)?;
        if types == 0 || types > MAX_TYPES {
            return Err(bad(8, "type count out of range (1 to 512)"));
        }
        let classes = field(12)?;
        if classes as usize != CLASSES.len() {
            return Err(bad(12, "class count differs from this kernel's classes"));
        }
        let transitions = field(16)?;
        let mut at = 20usize;
        for _ in 0..types {
            let len = u32_at(bytes, at).ok_or(bad(at, "cut short in the type names"))?;
            if len == 0 || len > MAX_NAME {
                return Err(bad(at, "type name length out of range (1 to 64)"));
            }
            let start = at + 4;
            let end = start + len as usize;
            let name = bytes
                .get(start..end)
                .ok_or(bad(start, "cut short in a type name"))?;
            if !name
                .iter()
                .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            {
                return Err(bad(start, "type name with a byte outside [a-z0-9_]"));
            }
            at = end;
        }
        // At most 512 * 512 * 6 entries: no overflow.
        let cells = (types as usize) * (types as usize) * (classes as usize);
        let matrix = at;
        let matrix_end = matrix + 4 * cells;
        if bytes.len() < matrix_end {
            return Err(bad(matrix, "cut short in the access matrix"));
        }
        for cell in 0..cells {
            let class = cell % (classes as usize);
            let perms = CLASSES.get(class).map_or(0, |(_, p)| p.len());
            let at = matrix + 4 * cell;
            let bits = u32_at(bytes, at).unwrap_or(u32::MAX);
            if perms < 32 && bits >> perms != 0 {
                return Err(bad(at, "permission bit beyond its class's permissions"));
            }
        }
        let trans = matrix_end;
        let trans_len = (transitions as usize)
            .checked_mul(16)
            .ok_or(bad(16, "transition count out of range"))?;
        if bytes.len() != trans.saturating_add(trans_len) {
            return Err(bad(
                trans,
                "size differs from what the header says (cut short or trailing bytes)",
            ));
        }
        let mut previous: Option<(u32, u32, u32)> = None;
        for i in 0..transitions as usize {
            let at = trans + 16 * i;
            let get = |k: usize| u32_at(bytes, at + 4 * k).unwrap_or(u32::MAX);
            let key = (get(0), get(1), get(2));
            if key.0 >= types || key.1 >= types || get(3) >= types {
                return Err(bad(at, "transition names a type that does not exist"));
            }
            if key.2 >= classes {
                return Err(bad(at + 8, "transition names a class that does not exist"));
            }
            if previous.is_some_and(|p| p >= key) {
                return Err(bad(at, "transitions not sorted or repeated"));
            }
            previous = Some(key);
        }
        // INVARIANT: every field was checked above.
        Ok(Compiled {
            bytes,
            types,
            classes,
            matrix,
            trans,
            transitions,
        })
    }

    /// The number of types.
    pub(crate) fn types(&self) -> u32 {
        self.types
    }

    /// The permissions `source` has on `target` in `class`, as a bitmap of
    /// the class's permissions; 0 for ids out of range.
    #[inline]
    pub(crate) fn allowed(&self, source: u32, target: u32, class: u32) -> u32 {
        if source >= self.types || target >= self.types || class >= self.classes {
            return 0;
        }
        let cell = ((source * self.types + target) * self.classes + class) as usize;
        u32_at(self.bytes, self.matrix + 4 * cell).unwrap_or(0)
    }

    /// The type a new object of `class` gets when `source` creates it in (or
    /// `source` executes) `target`, if a transition says so.
    pub(crate) fn transition(&self, source: u32, target: u32, class: u32) -> Option<u32> {
        let key = (source, target, class);
        let (mut lo, mut hi) = (0usize, self.transitions as usize);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at = self.trans + 16 * mid;
            let get = |k: usize| u32_at(self.bytes, at + 4 * k).unwrap_or(u32::MAX);
            let here = (get(0), get(1), get(2));
            if here == key {
                return Some(get(3));
            }
            if here < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::policy_text::parse;

    const POLICY: &str = "\
type init_t; type user_t; type bin_t; type tmp_t; type user_tmp_t;
allow init_t bin_t : file { read open execute };
allow user_t tmp_t : dir { search add_name write };
allow user_t self : process signal;
type_transition init_t bin_t : process user_t;
type_transition user_t tmp_t : file user_tmp_t;
";

    fn compiled() -> Vec<u8> {
        parse(POLICY).unwrap().compile().unwrap()
    }

    #[test]
    fn decisions_match_the_text() {
        let p = parse(POLICY).unwrap();
        let bytes = compiled();
        let c = Compiled::check(&bytes).unwrap();
        assert_eq!(c.types(), 5);
        for s in 0..5 {
            for t in 0..5 {
                for class in 0..CLASSES.len() as u8 {
                    let want = p.allow.get(&(s, t, class)).copied().unwrap_or(0);
                    assert_eq!(c.allowed(s, t, u32::from(class)), want);
                    let want = p.transitions.get(&(s, t, class)).copied();
                    assert_eq!(c.transition(s, t, u32::from(class)), want);
                }
            }
        }
        assert_eq!(c.allowed(5, 0, 0), 0, "out of range: nothing");
        assert_eq!(c.allowed(0, 0, 99), 0);
    }

    #[test]
    fn every_cut_is_refused() {
        let bytes = compiled();
        for len in 0..bytes.len() {
            assert!(Compiled::check(&bytes[..len]).is_err(), "cut at {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Compiled::check(&longer).is_err(), "trailing byte");
    }

    #[test]
    fn hostile_fields_are_refused_and_nothing_panics() {
        let bytes = compiled();
        let set = |at: usize, v: u32| {
            let mut b = bytes.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            b
        };
        let cases = [
            (set(0, 0), 0),
            (set(4, 2), 4),
            (set(8, 0), 8),
            (set(8, MAX_TYPES + 1), 8),
            (set(8, u32::MAX), 8),
            (set(12, 99), 12),
            (set(16, u32::MAX), 0),
            (set(20, 0), 20),
            (set(20, u32::MAX), 20),
        ];
        for (b, at) in cases {
            let err = Compiled::check(&b).unwrap_err();
            assert!(at == 0 || err.at == at, "{err:?} for a bad field at {at}");
        }
        // A bit beyond the class's permissions (the last matrix cell,
        // class `filesystem`, has 3 permissions).
        let trans = bytes.len() - 2 * 16;
        let bad = set(trans - 4, 1 << 3);
        assert_eq!(
            Compiled::check(&bad).unwrap_err().why,
            "permission bit beyond its class's permissions"
        );
        // Transitions: a type out of range, then out of order.
        assert!(Compiled::check(&set(trans + 12, 5)).is_err());
        let mut swapped = bytes.clone();
        let (first, second) = (trans..trans + 16, trans + 16..trans + 32);
        let a = bytes[first.clone()].to_vec();
        swapped[first].copy_from_slice(&bytes[second.clone()]);
        swapped[second].copy_from_slice(&a);
        assert_eq!(
            Compiled::check(&swapped).unwrap_err().why,
            "transitions not sorted or repeated"
        );
        // Random corruption: refused or consistent, never a panic.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut b = bytes.clone();
            let at = (seed % b.len() as u64) as usize;
            b[at] ^= (seed >> 32) as u8 | 1;
            if let Ok(c) = Compiled::check(&b) {
                for s in 0..c.types() {
                    let _ = c.allowed(s, s, 0);
                    let _ = c.transition(s, s, 0);
                }
            }
        }
    }
}
