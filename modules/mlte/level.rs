// SPDX-License-Identifier: GPL-2.0

//! MLS levels and ranges for `mlte`, and the Bell-LaPadula checks.
//!
//! A level is a sensitivity `sN` and a category set: `s1:c0.c3,c7`, or
//! `s1` with no categories. Level `a` dominates level `b` when `a`'s
//! sensitivity is at least `b`'s and `a`'s categories contain `b`'s
//! ([`CategorySet::contains`], word by word). A range is a low and a high
//! level, the high dominating the low: `s0-s2:c0.c1023`, or one level for
//! both.
//!
//! Bell-LaPadula: a subject may read an object only if the subject's level
//! dominates the object's (no read up), and write it only if the object's
//! level dominates the subject's (no write down).
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

/// A low and a high level; the high one dominates the low one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Range {
    /// The low level (the current level of a process).
    pub(crate) low: Level,
    /// The high level (its clearance).
    pub(crate) high: Level,
}

/// Why a level or range was refused, and where (a byte offset in the
/// text).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ParseError {
    /// Byte offset of the problem.
    pub(crate) at: usize,
    /// What was wrong.
    pub(crate) kind: ParseErrorKind,
}

/// What was wrong in a level or range.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ParseErrorKind {
    /// Expected `s` and a sensitivity number.
    ExpectedSensitivity,
    /// A sensitivity above `s255`.
    SensitivityOutOfRange,
    /// The category set was wrong.
    Categories(super::category::ParseErrorKind),
    /// The high level of a range does not dominate its low level.
    HighBelowLow,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ParseErrorKind::ExpectedSensitivity => "expected a sensitivity 'sN'",
            ParseErrorKind::SensitivityOutOfRange => "sensitivity above s255",
            ParseErrorKind::Categories(kind) => {
                return write!(f, "{}", CategoryError { at: self.at, kind })
            }
            ParseErrorKind::HighBelowLow => "the high level does not dominate the low level",
        };
        write!(f, "{what} (at byte {})", self.at)
    }
}

impl Level {
    /// Whether this level dominates `other`.
    #[inline]
    pub(crate) fn dominates(&self, other: &Level) -> bool {
        self.sensitivity >= other.sensitivity && self.categories.contains(&other.categories)
    }

    /// Parses `sN` or `sN:CATEGORIES`, starting at byte `base` of the
    /// whole text (for error offsets).
    fn parse_at(text: &[u8], base: usize) -> Result<Level, ParseError> {
        if text.first() != Some(&b's') {
            return Err(ParseError {
                at: base,
                kind: ParseErrorKind::ExpectedSensitivity,
            });
        }
        let digits = text.get(1..).unwrap_or(&[]);
        let (sensitivity, len) =
            decimal(digits, usize::from(MAX_SENSITIVITY)).map_err(|e| ParseError {
                at: base + 1,
                kind: match e {
                    DecimalError::Missing => ParseErrorKind::ExpectedSensitivity,
                    DecimalError::TooBig => ParseErrorKind::SensitivityOutOfRange,
                },
            })?;
        // At most MAX_SENSITIVITY: fits.
        let sensitivity = u16::try_from(sensitivity).unwrap_or(MAX_SENSITIVITY);
        let rest = digits.get(len..).unwrap_or(&[]);
        let categories = match rest.split_first() {
            None => CategorySet::EMPTY,
            Some((b':', cats)) => {
                let cats_at = base + 1 + len + 1;
                CategorySet::parse(cats).map_err(|e| ParseError {
                    at: cats_at + e.at,
                    kind: ParseErrorKind::Categories(e.kind),
                })?
            }
            Some(_) => {
                return Err(ParseError {
                    at: base + 1 + len,
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

    /// Parses `sN` or `sN:CATEGORIES`.
    pub(crate) fn parse(text: &[u8]) -> Result<Level, ParseError> {
        Level::parse_at(text, 0)
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

impl Range {
    /// Parses `LEVEL` or `LOW-HIGH`; the high level must dominate the low.
    pub(crate) fn parse(text: &[u8]) -> Result<Range, ParseError> {
        match text.iter().position(|&b| b == b'-') {
            None => {
                let level = Level::parse(text)?;
                Ok(Range {
                    low: level,
                    high: level,
                })
            }
            Some(dash) => {
                let low = Level::parse_at(text.get(..dash).unwrap_or(&[]), 0)?;
                let high_at = dash + 1;
                let high = Level::parse_at(text.get(high_at..).unwrap_or(&[]), high_at)?;
                if !high.dominates(&low) {
                    return Err(ParseError {
                        at: high_at,
                        kind: ParseErrorKind::HighBelowLow,
                    });
                }
                Ok(Range { low, high })
            }
        }
    }

    /// Whether `level` lies in the range.
    pub(crate) fn contains(&self, level: &Level) -> bool {
        self.high.dominates(level) && level.dominates(&self.low)
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.low == self.high {
            write!(f, "{}", self.low)
        } else {
            write!(f, "{}-{}", self.low, self.high)
        }
    }
}

/// Bell-LaPadula, no read up: may a subject at `subject` read an object at
/// `object`?
#[inline]
pub(crate) fn may_read(subject: &Level, object: &Level) -> bool {
    subject.dominates(object)
}

/// Bell-LaPadula, no write down: may a subject at `subject` write an object
/// at `object`?
#[inline]
pub(crate) fn may_write(subject: &Level, object: &Level) -> bool {
    object.dominates(subject)
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
    fn bell_lapadula() {
        let (secret, public) = (level("s2:c0.c3"), level("s0"));
        assert!(may_read(&secret, &public), "read down");
        assert!(!may_read(&public, &secret), "no read up");
        assert!(may_write(&public, &secret), "write up");
        assert!(!may_write(&secret, &public), "no write down");
        // Incomparable levels: neither reads nor writes the other.
        let (a, b) = (level("s1:c0"), level("s1:c1"));
        for (x, y) in [(a, b), (b, a)] {
            assert!(!may_read(&x, &y) && !may_write(&x, &y));
        }
    }

    #[test]
    fn text_round_trips_and_ranges_are_checked() {
        for text in [
            "s0",
            "s1:c0.c3,c7",
            "s0-s2:c0.c1023",
            "s0:c1-s1:c1,c2",
            "s255",
        ] {
            let r = Range::parse(text.as_bytes()).unwrap();
            assert_eq!(r.to_string(), text);
        }
        let r = Range::parse(b"s0-s2:c0.c9").unwrap();
        assert!(r.contains(&level("s1:c3")));
        assert!(!r.contains(&level("s3")));
        assert!(!r.contains(&level("s1:c10")));
    }

    #[test]
    fn bad_text_says_what_and_where() {
        use super::super::category::ParseErrorKind as C;
        use ParseErrorKind::*;
        let cases: [(&str, usize, ParseErrorKind); 8] = [
            ("", 0, ExpectedSensitivity),
            ("x1", 0, ExpectedSensitivity),
            ("s", 1, ExpectedSensitivity),
            ("s256", 1, SensitivityOutOfRange),
            ("s1:c1024", 4, Categories(C::OutOfRange)),
            ("s1c1", 2, Categories(C::ExpectedSeparator)),
            ("s2-s1", 3, HighBelowLow),
            ("s0-s1:c2,x", 9, Categories(C::ExpectedCategory)),
        ];
        for (text, at, kind) in cases {
            assert_eq!(
                Range::parse(text.as_bytes()),
                Err(ParseError { at, kind }),
                "{text}"
            );
        }
        assert_eq!(
            Range::parse(b"s1:c0-s1").err().map(|e| e.kind),
            Some(HighBelowLow)
        );
    }
}
