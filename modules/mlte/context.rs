// SPDX-License-Identifier: GPL-2.0

//! Security contexts of `mlte`: a type and an MLS level, written
//! `TYPE:LEVEL` (`user_t:s1:c0.c3,c7`), as in the `security.mlte` xattr,
//! `/proc/PID/attr/current` and the policy's `sid` statements.
//!
//! A context's type is a type id of the policy in force; its text form
//! needs that policy for the names ([`Context::parse`], [`Context::show`]).
//!
//! Kernel-independent: no allocation, no panic path.

use super::category::WORDS;
use super::compiled::Compiled;
use super::level::{Level, ParseError as LevelError};
use core::fmt;

/// A type and a level.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Context {
    /// The type id, below the policy's type count.
    pub(crate) ty: u32,
    /// The MLS level.
    pub(crate) level: Level,
}

/// What a decision reads of a context: its type, and its level's
/// sensitivity and category words. Decisions read through this, so that a
/// context in the SID table (`sidtab.rs`) is read in place, word by word,
/// and only as far as its categories go, never copied whole.
pub(crate) trait ContextView {
    /// The type id.
    fn ty(&self) -> u32;
    /// The sensitivity.
    fn sensitivity(&self) -> u16;
    /// How many category words may be nonzero: those from here on are 0.
    fn len(&self) -> usize;
    /// Category word `i` (bit `c % 64` of word `c / 64` is category `c`);
    /// 0 at and past [`ContextView::len`].
    fn word(&self, i: usize) -> u64;
}

impl ContextView for Context {
    fn ty(&self) -> u32 {
        self.ty
    }

    fn sensitivity(&self) -> u16 {
        self.level.sensitivity
    }

    fn len(&self) -> usize {
        WORDS
    }

    #[inline(always)]
    fn word(&self, i: usize) -> u64 {
        self.level.categories.words().get(i).copied().unwrap_or(0)
    }
}

/// Whether `a`'s level dominates `b`'s: `a`'s sensitivity is at least
/// `b`'s and `a`'s categories contain `b`'s (word by word, over `b`'s
/// significant words only).
#[inline(always)]
pub(crate) fn dominates(a: &impl ContextView, b: &impl ContextView) -> bool {
    if a.sensitivity() < b.sensitivity() {
        return false;
    }
    let mut missing = 0;
    for i in 0..b.len() {
        missing |= b.word(i) & !a.word(i);
    }
    missing == 0
}

/// Whether `a`'s and `b`'s levels are equal.
#[inline(always)]
pub(crate) fn same_level(a: &impl ContextView, b: &impl ContextView) -> bool {
    if a.sensitivity() != b.sensitivity() {
        return false;
    }
    let mut differ = 0;
    for i in 0..a.len().max(b.len()) {
        differ |= a.word(i) ^ b.word(i);
    }
    differ == 0
}

/// Why a context's text was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ContextError {
    /// No `:` between the type and the level.
    ExpectedColon,
    /// The type is not in the policy.
    UnknownType,
    /// The level's text is wrong (byte offset in the level).
    Level(LevelError),
    /// The policy declares no `level` that allows this sensitivity with
    /// these categories.
    LevelNotAllowed,
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextError::ExpectedColon => f.write_str("expected TYPE:LEVEL"),
            ContextError::UnknownType => f.write_str("unknown type"),
            ContextError::Level(e) => write!(f, "bad level: {e}"),
            ContextError::LevelNotAllowed => {
                f.write_str("no 'level' statement of the policy allows this level")
            }
        }
    }
}

impl Context {
    /// Parses `TYPE:LEVEL` against `policy`: the type must be declared and
    /// the level allowed by one of its `level` statements.
    pub(crate) fn parse(text: &[u8], policy: &Compiled<'_>) -> Result<Context, ContextError> {
        let colon = text
            .iter()
            .position(|&b| b == b':')
            .ok_or(ContextError::ExpectedColon)?;
        let (name, level) = (
            text.get(..colon).unwrap_or(&[]),
            text.get(colon.wrapping_add(1)..).unwrap_or(&[]),
        );
        let ty = policy.type_id(name).ok_or(ContextError::UnknownType)?;
        let level = Level::parse(level).map_err(ContextError::Level)?;
        if !policy.level_allowed(&level) {
            return Err(ContextError::LevelNotAllowed);
        }
        Ok(Context { ty, level })
    }

    /// The text form, with the type's name from `policy` (host tools and
    /// tests; the kernel shows a SID's, `Policy::show`, or a
    /// `query::NamedContext`).
    #[cfg(not(CONFIG_RUST))]
    pub(crate) fn show<'a>(&'a self, policy: &Compiled<'a>) -> Shown<'a> {
        Shown {
            name: policy.type_name(self.ty),
            level: &self.level,
        }
    }
}

/// A context's text form, for `Display`.
pub(crate) struct Shown<'a> {
    name: &'a [u8],
    level: &'a Level,
}

impl<'a> Shown<'a> {
    /// The text of type `name` at `level`.
    pub(crate) fn new(name: &'a [u8], level: &'a Level) -> Shown<'a> {
        Shown { name, level }
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(core::str::from_utf8(self.name).unwrap_or("?"))?;
        write!(f, ":{}", self.level)
    }
}
