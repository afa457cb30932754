// SPDX-License-Identifier: GPL-2.0

//! Security contexts of `mlte`, as SELinux's: a user, a role, a type and
//! an MLS range, written `USER:ROLE:TYPE:LOW[-HIGH]`
//! (`user_u:user_r:user_t:s0-s2:c0.c9`, `system_u:object_r:etc_t:s0`), as
//! in the `security.mlte` xattr, `/proc/PID/attr/current`, audit records
//! and the policy's `sid` statements. A range whose high level is its low
//! one is written as the low one alone, as SELinux prints it.
//!
//! A context's user, role and type are ids of the policy in force; its
//! text form needs that policy for the names ([`Context::parse`],
//! [`Context::show`]). A context is valid as SELinux's
//! `policydb_context_isvalid()` and `mls_context_isvalid()` say
//! (`Compiled::validate`).
//!
//! Kernel-independent: no allocation, no panic path.

use super::category::WORDS;
use super::compiled::Compiled;
use super::level::{Level, ParseError as LevelError};
use core::fmt;

/// A user, a role, a type and a range (a low and a high level).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Context {
    /// The user id, below the policy's user count.
    pub(crate) user: u32,
    /// The role id, below the policy's role count.
    pub(crate) role: u32,
    /// The type id, below the policy's type count.
    pub(crate) ty: u32,
    /// The low (current) level.
    pub(crate) low: Level,
    /// The high level (the clearance), which dominates the low one.
    pub(crate) high: Level,
}

/// A level read in place, with how many of its category words may be
/// nonzero (those from `len` on are 0).
#[derive(Clone, Copy)]
pub(crate) struct LevelView<'a> {
    level: &'a Level,
    len: usize,
}

impl<'a> LevelView<'a> {
    /// `level`, whose category words from `len` on are 0.
    #[inline(always)]
    pub(crate) fn new(level: &'a Level, len: usize) -> Self {
        LevelView { level, len }
    }

    /// The level.
    #[inline(always)]
    pub(crate) fn level(&self) -> &'a Level {
        self.level
    }
}

/// What a dominance test reads of a level: its sensitivity and its
/// category words, wherever the level is kept (a [`LevelView`], or in
/// place in the compiled form, `compiled::StoredLevel`).
pub(crate) trait LevelWords {
    /// The sensitivity.
    fn sensitivity(&self) -> u32;
    /// Category word `i` (bit `c % 64` of word `c / 64` is category `c`);
    /// 0 at and past [`LevelWords::significant_words`].
    fn word(&self, i: usize) -> u64;
    /// How many category words may be nonzero.
    fn significant_words(&self) -> usize;
}

impl LevelWords for LevelView<'_> {
    #[inline(always)]
    fn sensitivity(&self) -> u32 {
        u32::from(self.level.sensitivity)
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        if i >= self.len {
            return 0;
        }
        self.level.categories.words().get(i).copied().unwrap_or(0)
    }

    #[inline(always)]
    fn significant_words(&self) -> usize {
        self.len
    }
}

/// What a decision reads of a context: its user, role and type, and its
/// levels' sensitivities and category words. Decisions read through this,
/// so that a context in the SID table (`sidtab.rs`) is read in place, word
/// by word, and only as far as its categories go, never copied whole.
pub(crate) trait ContextView {
    /// The user id.
    fn user(&self) -> u32;
    /// The role id.
    fn role(&self) -> u32;
    /// The type id.
    fn ty(&self) -> u32;
    /// The low level.
    fn low(&self) -> LevelView<'_>;
    /// The high level.
    fn high(&self) -> LevelView<'_>;
}

impl ContextView for Context {
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
        LevelView::new(&self.low, WORDS)
    }

    fn high(&self) -> LevelView<'_> {
        LevelView::new(&self.high, WORDS)
    }
}

/// Whether level `a` dominates level `b`: `a`'s sensitivity is at least
/// `b`'s and `a`'s categories contain `b`'s (word by word, over `b`'s
/// significant words only).
#[inline(always)]
pub(crate) fn dominates(a: impl LevelWords, b: impl LevelWords) -> bool {
    if a.sensitivity() < b.sensitivity() {
        return false;
    }
    let mut missing = 0;
    for i in 0..b.significant_words() {
        missing |= b.word(i) & !a.word(i);
    }
    missing == 0
}

/// Whether levels `a` and `b` are equal.
#[inline(always)]
pub(crate) fn same_level(a: LevelView<'_>, b: LevelView<'_>) -> bool {
    if a.sensitivity() != b.sensitivity() {
        return false;
    }
    let mut differ = 0;
    for i in 0..a.len.max(b.len) {
        differ |= a.word(i) ^ b.word(i);
    }
    differ == 0
}

/// Why a context's text was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ContextError {
    /// Fewer than four `:`-separated fields.
    ExpectedFields,
    /// The user is not in the policy.
    UnknownUser,
    /// The role is not in the policy.
    UnknownRole,
    /// The type is not in the policy.
    UnknownType,
    /// A level's text is wrong (byte offset in the level).
    Level(LevelError),
    /// The policy declares no `level` that allows this sensitivity with
    /// these categories.
    LevelNotAllowed,
    /// The high level does not dominate the low one.
    HighBelowLow,
    /// The role is not authorized for the type (`role R types T`).
    RoleWithoutType,
    /// The user is not authorized for the role (`user U roles R`).
    UserWithoutRole,
    /// The range is not within the user's (`user U ... range R`).
    OutsideUserRange,
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ContextError::ExpectedFields => "expected USER:ROLE:TYPE:LOW[-HIGH]",
            ContextError::UnknownUser => "unknown user",
            ContextError::UnknownRole => "unknown role",
            ContextError::UnknownType => "unknown type",
            ContextError::Level(e) => return write!(f, "bad level: {e}"),
            ContextError::LevelNotAllowed => "no 'level' statement of the policy allows this level",
            ContextError::HighBelowLow => "the high level does not dominate the low one",
            ContextError::RoleWithoutType => "the role is not authorized for the type",
            ContextError::UserWithoutRole => "the user is not authorized for the role",
            ContextError::OutsideUserRange => "the range is outside the user's range",
        })
    }
}

/// The text before the first `:` of `text`, and the text after it.
fn field(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = text.iter().position(|&b| b == b':')?;
    Some((
        text.get(..colon)?,
        text.get(colon.wrapping_add(1)..).unwrap_or(&[]),
    ))
}

impl Context {
    /// Parses `USER:ROLE:TYPE:LOW[-HIGH]` against `policy`: the names
    /// must be declared and the context valid (`Compiled::validate`).
    pub(crate) fn parse(text: &[u8], policy: &Compiled<'_>) -> Result<Context, ContextError> {
        let (user, rest) = field(text).ok_or(ContextError::ExpectedFields)?;
        let (role, rest) = field(rest).ok_or(ContextError::ExpectedFields)?;
        let (ty, range) = field(rest).ok_or(ContextError::ExpectedFields)?;
        let user = policy.user_id(user).ok_or(ContextError::UnknownUser)?;
        let role = policy.role_id(role).ok_or(ContextError::UnknownRole)?;
        let ty = policy.type_id(ty).ok_or(ContextError::UnknownType)?;
        let (low, high) = match range.iter().position(|&b| b == b'-') {
            Some(dash) => (
                range.get(..dash).unwrap_or(&[]),
                Some(range.get(dash.wrapping_add(1)..).unwrap_or(&[])),
            ),
            None => (range, None),
        };
        let low = Level::parse(low).map_err(ContextError::Level)?;
        let high = match high {
            Some(high) => Level::parse(high).map_err(ContextError::Level)?,
            None => low,
        };
        let ctx = Context {
            user,
            role,
            ty,
            low,
            high,
        };
        policy.validate(&ctx)?;
        Ok(ctx)
    }

    /// The text form, with the names from `policy` (the kernel shows a
    /// SID's with `Policy::show`, or a `query::NamedContext` after the
    /// policy's read-side section).
    pub(crate) fn show<'a>(&'a self, policy: &Compiled<'a>) -> Shown<'a> {
        Shown {
            user: policy.user_name(self.user),
            role: policy.role_name(self.role),
            ty: policy.type_name(self.ty),
            low: &self.low,
            high: &self.high,
        }
    }
}

/// A context's text form, for `Display`.
pub(crate) struct Shown<'a> {
    user: &'a [u8],
    role: &'a [u8],
    ty: &'a [u8],
    low: &'a Level,
    high: &'a Level,
}

impl<'a> Shown<'a> {
    /// The text of `user:role:ty:low-high`.
    pub(crate) fn new(
        user: &'a [u8],
        role: &'a [u8],
        ty: &'a [u8],
        low: &'a Level,
        high: &'a Level,
    ) -> Shown<'a> {
        Shown {
            user,
            role,
            ty,
            low,
            high,
        }
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for name in [self.user, self.role, self.ty] {
            f.write_str(core::str::from_utf8(name).unwrap_or("?"))?;
            f.write_str(":")?;
        }
        write!(f, "{}", self.low)?;
        if self.high != self.low {
            write!(f, "-{}", self.high)?;
        }
        Ok(())
    }
}
