// SPDX-License-Identifier: GPL-2.0

//! Interned contexts: the security identifier ([`Sid`]) of each context in
//! use, as SELinux's sidtab.
//!
//! A blob holds a 32-bit SID (`label.rs`), not a context: a context is 276
//! bytes, and a few contexts label millions of objects. Each distinct
//! context gets its SID once, in an append-only table (`intern.rs`): a
//! reader in any context maps a SID to its context with three loads and no
//! lock, and interning demands `&MaySleep` (it may allocate).
//!
//! SID 0 is "no label"; SIDs 1 to 3 are the initial SIDs (`sid kernel`,
//! `sid file`, `sid unlabeled`), whose contexts are those of the policy in
//! force (`policy.rs` resolves them); the table's SIDs follow.
//!
//! The table keeps contexts as [`StoredContext`]s, whose user, role and
//! type are global ids (`type_names.rs`), so that they outlive the policy
//! that made them: the policy in force reads each one through its own
//! maps, and one it cannot read (a name it does not have, or a context
//! not valid under it) reads as `sid unlabeled`'s.
//!
//! Kernel-independent: the host tests run the same file.

use super::compiled::{InitialSid, SIDS};
use super::context::{ContextView, LevelView};
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

/// A context as the SID table keeps it: global user, role and type ids
/// and the two levels, with the number of their significant category
/// words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct StoredContext {
    /// The global user id (`type_names.rs`).
    pub(crate) user: u32,
    /// The global role id.
    pub(crate) role: u32,
    /// The global type id.
    pub(crate) ty: u32,
    /// The low level.
    pub(crate) low: Level,
    /// The high level.
    pub(crate) high: Level,
    /// Category words of the low level from here on are 0.
    low_len: u16,
    /// Category words of the high level from here on are 0.
    high_len: u16,
}

// SAFETY: all zero is global user, role and type 0 at `s0` with no
// categories.
unsafe impl Interned for StoredContext {
    fn hash(&self) -> u64 {
        let mut h = u64::from(self.ty) << 32
            ^ u64::from(self.role) << 16
            ^ u64::from(self.user)
            ^ u64::from(self.low.sensitivity) << 48
            ^ u64::from(self.high.sensitivity) << 56;
        for w in self.low.categories.words() {
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        for w in self.high.categories.words() {
            h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        h
    }
}

impl StoredContext {
    /// Global `user`, `role` and `ty` with the range `low` to `high`.
    pub(crate) fn new(user: u32, role: u32, ty: u32, low: Level, high: Level) -> StoredContext {
        // At most `WORDS`: fits.
        let len = |l: &Level| u16::try_from(l.categories.significant_words()).unwrap_or(u16::MAX);
        StoredContext {
            user,
            role,
            ty,
            low,
            high,
            low_len: len(&low),
            high_len: len(&high),
        }
    }

    /// How many category words of the low level may be nonzero.
    #[inline(always)]
    pub(crate) fn low_len(&self) -> usize {
        usize::from(self.low_len)
    }

    /// How many category words of the high level may be nonzero.
    #[inline(always)]
    pub(crate) fn high_len(&self) -> usize {
        usize::from(self.high_len)
    }
}

impl ContextView for StoredContext {
    fn user(&self) -> u32 {
        self.user
    }

    fn role(&self) -> u32 {
        self.role
    }

    fn ty(&self) -> u32 {
        self.ty
    }

    fn low(&self) -> LevelView<'_> {
        LevelView::new(&self.low, self.low_len())
    }

    fn high(&self) -> LevelView<'_> {
        LevelView::new(&self.high, self.high_len())
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

/// Sets up room for [`intern_atomic`]: at least [`super::intern::CHUNK`]
/// new contexts. Done by every [`intern`] of a new context, every policy
/// load and every new System V message (whose context `msgsnd` interns
/// where it may not sleep). May allocate: `ENOMEM`.
pub(crate) fn reserve(cx: &MaySleep) -> Result {
    TABLE.reserve_ahead(cx)
}

/// [`intern`] where nothing may sleep ([`InternTable::intern_atomic`]):
/// `ENOMEM` when a new context finds no room set up for it.
pub(crate) fn intern_atomic(ctx: &StoredContext) -> Result<Sid> {
    match TABLE.intern_atomic(ctx) {
        // Below `intern::MAX`: nothing wraps.
        Ok(n) => Ok(Sid(n.wrapping_add(FIRST))),
        Err(e) => {
            if platform::ratelimit() {
                platform::pr_warn!(
                    "mlte: no SID for a new context where nothing may sleep: no room set up\n"
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
        let level = Level::parse(level.as_bytes()).unwrap();
        StoredContext::new(3, 4, ty, level, level)
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
        assert_eq!(a.low_len(), 16);
        assert_eq!(ctx(1, "s0:c3").high_len(), 1);
        // Every field makes a context of its own.
        let c = |u, r, high: &str| {
            let low = Level::parse(b"s1").unwrap();
            StoredContext::new(u, r, 900_001, low, Level::parse(high.as_bytes()).unwrap())
        };
        let base = intern(&cx, &c(0, 0, "s1")).unwrap();
        for other in [c(1, 0, "s1"), c(0, 1, "s1"), c(0, 0, "s2")] {
            assert_ne!(intern(&cx, &other).unwrap(), base);
        }
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
