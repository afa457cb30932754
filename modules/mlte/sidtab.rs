// SPDX-License-Identifier: GPL-2.0

//! Interned contexts: the security identifier ([`Sid`]) of each context in
//! use, as SELinux's sidtab.
//!
//! A blob holds a 32-bit SID (`label.rs`), not a context: a context is 136
//! bytes, and a few contexts label millions of objects. Each distinct
//! context gets its SID once, in an append-only table (`intern.rs`): a
//! reader in any context maps a SID to its context with three loads and no
//! lock, and interning demands `&MaySleep` (it may allocate).
//!
//! SID 0 is "no label"; SIDs 1 to 3 are the initial SIDs (`sid kernel`,
//! `sid file`, `sid unlabeled`), whose contexts are those of the policy in
//! force (`policy.rs` resolves them); the table's SIDs follow.
//!
//! The table keeps contexts as [`StoredContext`]s, whose type is a global
//! type id (`type_names.rs`), so that they outlive the policy that made
//! them: the policy in force reads each one through its own type map, and
//! one whose type or level it does not have reads as `sid unlabeled`'s.
//!
//! Kernel-independent: the host tests run the same file.

use super::compiled::{InitialSid, SIDS};
use super::context::ContextView;
use super::intern::{InternTable, Interned};
use super::level::Level;
use crate::context::MaySleep;
use crate::error::Result;
use crate::platform;

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

/// A context as the SID table keeps it: a global type id and a level,
/// with the number of its significant category words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct StoredContext {
    /// The global type id (`type_names.rs`).
    pub(crate) ty: u32,
    /// The level.
    pub(crate) level: Level,
    /// Category words from here on are 0.
    len: u32,
}

// SAFETY: all zero is global type 0 at `s0` with no categories.
unsafe impl Interned for StoredContext {
    fn hash(&self) -> u64 {
        let mut h = u64::from(self.ty) << 16 | u64::from(self.level.sensitivity);
        for w in self.level.categories.words() {
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        h
    }
}

impl StoredContext {
    /// Global type `ty` at `level`.
    pub(crate) fn new(ty: u32, level: Level) -> StoredContext {
        StoredContext {
            ty,
            level,
            len: level.categories.significant_words() as u32,
        }
    }

    /// How many category words may be nonzero.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }

    /// Category word `i`.
    #[inline(always)]
    pub(crate) fn word(&self, i: usize) -> u64 {
        self.level.categories.words().get(i).copied().unwrap_or(0)
    }
}

impl ContextView for StoredContext {
    fn ty(&self) -> u32 {
        self.ty
    }

    fn sensitivity(&self) -> u16 {
        self.level.sensitivity
    }

    fn len(&self) -> usize {
        StoredContext::len(self)
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        StoredContext::word(self, i)
    }
}

/// Every context given a SID, by SID less [`FIRST`].
static TABLE: InternTable<StoredContext> = InternTable::new();

/// The SID of `ctx`, giving it one if it has none. May allocate: `ENOMEM`
/// when memory is short or the table is full (`intern::MAX` contexts,
/// logged).
pub(crate) fn intern(cx: &MaySleep, ctx: &StoredContext) -> Result<Sid> {
    match TABLE.intern(cx, ctx) {
        // Below `intern::MAX`: nothing wraps.
        Ok(n) => Ok(Sid(n.wrapping_add(FIRST))),
        Err(e) => {
            if platform::ratelimit() {
                platform::pr_warn!(
                    "mlte: no SID for a new context: out of memory or {} contexts in use\n",
                    super::intern::MAX
                );
            }
            Err(e)
        }
    }
}

/// The context of table SID `sid`; `None` for an initial SID or one that
/// was never given out. Any context; the reference stays valid for good.
#[inline(always)]
pub(crate) fn stored(sid: Sid) -> Option<&'static StoredContext> {
    TABLE.get(sid.0.checked_sub(FIRST)?)
}

/// How many contexts the table holds.
pub(crate) fn len() -> usize {
    TABLE.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(ty: u32, level: &str) -> StoredContext {
        StoredContext::new(ty, Level::parse(level.as_bytes()).unwrap())
    }

    #[test]
    fn each_context_gets_one_sid_and_keeps_it() {
        let cx = crate::harness::cx();
        let a = ctx(900_001, "s1:c0.c1023");
        let b = ctx(900_001, "s1:c0.c1022");
        let sa = intern(&cx, &a).unwrap();
        let sb = intern(&cx, &b).unwrap();
        assert_ne!(sa, sb);
        assert!(sa.raw() >= FIRST && sa.as_initial().is_none());
        assert_eq!(intern(&cx, &a).unwrap(), sa);
        assert_eq!(stored(sa), Some(&a));
        assert_eq!(stored(sb), Some(&b));
        assert_eq!(a.len(), 16);
        assert_eq!(ctx(1, "s0:c3").len(), 1);
    }

    #[test]
    fn initial_and_unknown_sids_have_no_table_context() {
        for (i, (initial, _)) in SIDS.iter().enumerate() {
            let sid = Sid::initial(*initial);
            assert_eq!(sid.raw(), i as u32 + 1);
            assert_eq!(sid.as_initial(), Some(*initial));
            assert!(stored(sid).is_none());
        }
        assert_eq!(Sid::from_raw(0), None);
        assert!(stored(Sid(u32::MAX)).is_none());
        assert!(stored(Sid(FIRST + super::super::intern::MAX as u32)).is_none());
    }
}
