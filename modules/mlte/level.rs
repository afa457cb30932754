// SPDX-License-Identifier: GPL-2.0

//! MLS levels for `mlte`, and their dominance.
//!
//! A level is a sensitivity `sN` and a category set: `s1:c0.c3,c7`, or
//! `s1` with no categories. Level `a` dominates level `b` when `a`'s
//! sensitivity is at least `b`'s and `a`'s categories contain `b`'s
//! ([`CategorySet::contains`], word by word). Sensitivities dominate in
//! numeric order.
//!
//! Bell-LaPadula (no read up: `l1 dom l2`; no write down: `l1 domby l2`)
//! is written in the policy's `mlsconstrain` rules, as in SELinux, and
//! evaluated with this dominance (`constraint.rs`).
//!
//! Kernel-independent: no allocation, no panic path.

use super::category::{decimal, CategorySet, DecimalError, ParseError as CategoryError};
use core::fmt;

/// Sensitivities are `s0` to `s255`.
pub(crate) const MAX_SENSITIVITY: u16 = 255;

/// A sensitivity and a category set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Level {
    /// The sensitivity, `0..=MAX_SENSITIVITY`.
    pub(crate) sensitivity: u16,
    /// The categories.
    pub(crate) categories: CategorySet,
}

/// Why a level was refused, and where (a byte offset in the
/// text).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ParseError {
    /// Byte offset of the problem.
    pub(crate) at: usize,
    /// What was wrong.
    pub(crate) kind: ParseErrorKind,
}

/// What was wrong in a level.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ParseErrorKind {
    /// Expected `s` and a sensitivity number.
    ExpectedSensitivity,
    /// A sensitivity above `s255`.
    SensitivityOutOfRange,
    /// The category set was wrong.
    Categories(super::category::ParseErrorKind),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ParseErrorKind::ExpectedSensitivity => "expected a sensitivity 'sN'",
            ParseErrorKind::SensitivityOutOfRange => "sensitivity above s255",
            ParseErrorKind::Categories(kind) => {
                return write!(f, "{}", CategoryError { at: self.at, kind })
            }
        };
        write!(f, "{what} (at byte {})", self.at)
    }
}

impl Level {
    /// Whether this level dominates `other` (the reference for the
    /// decisions' `context::dominates`, which reads contexts in place;
    /// the policy tool checks ranges with it).
    #[cfg(not(CONFIG_RUST))]
    pub(crate) fn dominates(&self, other: &Level) -> bool {
        self.sensitivity >= other.sensitivity && self.categories.contains(&other.categories)
    }

    /// Parses `sN` or `sN:CATEGORIES`. Error offsets are bytes in
    /// `text`; the arithmetic on them wraps (they stay within `text`), so
    /// that parsing has no panic path on the hooks that read labels.
    pub(crate) fn parse(text: &[u8]) -> Result<Level, ParseError> {
        if text.first() != Some(&b's') {
            return Err(ParseError {
                at: 0,
                kind: ParseErrorKind::ExpectedSensitivity,
            });
        }
        let digits = text.get(1..).unwrap_or(&[]);
        let (sensitivity, len) =
            decimal(digits, usize::from(MAX_SENSITIVITY)).map_err(|e| ParseError {
                at: 1,
                kind: match e {
                    DecimalError::Missing => ParseErrorKind::ExpectedSensitivity,
                    DecimalError::TooBig => ParseErrorKind::SensitivityOutOfRange,
                },
            })?;
        // At most MAX_SENSITIVITY: fits.
        let sensitivity = u16::try_from(sensitivity).unwrap_or(MAX_SENSITIVITY);
        let rest = digits.get(len..).unwrap_or(&[]);
        let after = len.wrapping_add(1);
        let categories = match rest.split_first() {
            None => CategorySet::EMPTY,
            Some((b':', cats)) => CategorySet::parse(cats).map_err(|e| ParseError {
                at: after.wrapping_add(1).wrapping_add(e.at),
                kind: ParseErrorKind::Categories(e.kind),
            })?,
            Some(_) => {
                return Err(ParseError {
                    at: after,
                    kind: ParseErrorKind::Categories(
                        super::category::ParseErrorKind::ExpectedSeparator,
                    ),
                })
            }
        };
        Ok(Level {
            sensitivity,
            categories,
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.sensitivity)?;
        if !self.categories.is_empty() {
            write!(f, ":{}", self.categories)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(text: &str) -> Level {
        Level::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn dominance_needs_sensitivity_and_categories() {
        let cases = [
            ("s1:c0.c3", "s0:c1", true),
            ("s1:c0.c3", "s1:c0.c3", true),
            ("s1:c0.c3", "s2", false),
            ("s2", "s1:c0", false),
            ("s2:c0,c5", "s1:c0.c5", false),
            ("s0", "s0", true),
            ("s255:c0.c1023", "s254:c1023", true),
        ];
        for (a, b, want) in cases {
            assert_eq!(level(a).dominates(&level(b)), want, "{a} dom {b}");
        }
    }

    #[test]
    fn text_round_trips() {
        for text in ["s0", "s1:c0.c3,c7", "s2:c0.c1023", "s255"] {
            assert_eq!(level(text).to_string(), text);
        }
        assert_eq!(level("s1:c7,c0,c1,c2").to_string(), "s1:c0.c2,c7");
    }

    #[test]
    fn bad_text_says_what_and_where() {
        use super::super::category::ParseErrorKind as C;
        use ParseErrorKind::*;
        let cases: [(&str, usize, ParseErrorKind); 7] = [
            ("", 0, ExpectedSensitivity),
            ("x1", 0, ExpectedSensitivity),
            ("s", 1, ExpectedSensitivity),
            ("s256", 1, SensitivityOutOfRange),
            ("s1:c1024", 4, Categories(C::OutOfRange)),
            ("s1c1", 2, Categories(C::ExpectedSeparator)),
            ("s1:c2,x", 6, Categories(C::ExpectedCategory)),
        ];
        for (text, at, kind) in cases {
            assert_eq!(
                Level::parse(text.as_bytes()),
                Err(ParseError { at, kind }),
                "{text}"
            );
        }
    }
}
