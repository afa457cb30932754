// SPDX-License-Identifier: GPL-2.0

//! MLS category sets for `mlte` (MLS and type enforcement), the
//! SELinux-like submodule: a fixed word-wise bitmap.
//!
//! A set holds categories `c0` to `c1023` in [`WORDS`] 64-bit words, bit
//! `c % 64` of word `c / 64`. Containment, the check on every MLS decision
//! (a level dominates another only if its categories contain the other's),
//! is one pass over the words: `other & !self` must be 0 in each, with no
//! branch per word and none per bit. In 2013 SELinux's category check
//! walked its bitmaps bit by bit and cost about 9% of CPU in a socket-heavy
//! AIM7 run; `make bench` counts both ways with callgrind
//! (`scripts/category-bench.sh`).
//!
//! Text form, as SELinux writes it: categories in ascending order, runs of
//! three or more as `cA.cB`, separated by commas: `c0.c3,c7`. The empty set
//! is the empty string.
//!
//! Kernel-independent: no allocation, no panic path.

use core::fmt;

/// The number of categories a set can hold: `c0` to `c1023`.
pub(crate) const MAX_CATEGORIES: usize = 1024;

/// Words of a set.
pub(crate) const WORDS: usize = MAX_CATEGORIES / 64;

/// A set of MLS categories.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct CategorySet {
    words: [u64; WORDS],
}

/// Why a category set's text was refused, and where (a byte offset in it).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ParseError {
    /// Byte offset of the problem in the text.
    pub(crate) at: usize,
    /// What was wrong.
    pub(crate) kind: ParseErrorKind,
}

/// What was wrong in a category set's text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ParseErrorKind {
    /// Expected `c` and a category number.
    ExpectedCategory,
    /// A category number of [`MAX_CATEGORIES`] or more.
    OutOfRange,
    /// A range `cA.cB` with `B` below `A`.
    EmptyRange,
    /// Expected `,` or `.` after a category.
    ExpectedSeparator,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ParseErrorKind::ExpectedCategory => "expected a category 'cN'",
            ParseErrorKind::OutOfRange => "category number above c1023",
            ParseErrorKind::EmptyRange => "range 'cA.cB' with B below A",
            ParseErrorKind::ExpectedSeparator => "expected ',' or '.' after a category",
        };
        write!(f, "{what} (at byte {})", self.at)
    }
}

impl CategorySet {
    /// The empty set.
    pub(crate) const EMPTY: CategorySet = CategorySet { words: [0; WORDS] };

    /// Adds category `c`; `false` (and no change) if `c` is out of range.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, c: usize) -> bool {
        match self.words.get_mut(c / 64) {
            Some(word) => {
                *word |= 1 << (c % 64);
                true
            }
            None => false,
        }
    }

    /// Whether category `c` is in the set (for the host's tests and
    /// tools: the kernel reads sets word by word).
    #[cfg(not(CONFIG_RUST))]
    pub(crate) fn has(&self, c: usize) -> bool {
        self.words
            .get(c / 64)
            .is_some_and(|word| word & (1 << (c % 64)) != 0)
    }

    /// Adds categories `lo` to `hi`, both included, a word at a time;
    /// `false` (and no change) if `hi` is out of range or below `lo`.
    pub(crate) fn insert_range(&mut self, lo: usize, hi: usize) -> bool {
        if hi >= MAX_CATEGORIES || hi < lo {
            return false;
        }
        for (i, word) in self.words.iter_mut().enumerate() {
            // Wrapping arithmetic: all below 1024, no panic path.
            let first = i.wrapping_mul(64);
            let last = first.wrapping_add(63);
            if last < lo || first > hi {
                continue;
            }
            let from = lo.saturating_sub(first);
            let to = hi.min(last).wrapping_sub(first);
            // Bits `from..=to` of this word.
            let width = to.wrapping_sub(from).wrapping_add(1);
            let mask = if width == 64 {
                u64::MAX
            } else {
                1u64.wrapping_shl(width as u32)
                    .wrapping_sub(1)
                    .wrapping_shl(from as u32)
            };
            *word |= mask;
        }
        true
    }

    /// Whether every category of `other` is in this set: one pass over
    /// the words, no branch per word (for the host: the kernel compares
    /// levels in place, `context::dominates`).
    #[cfg(not(CONFIG_RUST))]
    #[inline]
    pub(crate) fn contains(&self, other: &CategorySet) -> bool {
        self.words
            .iter()
            .zip(other.words.iter())
            .fold(0, |missing, (mine, theirs)| missing | (theirs & !mine))
            == 0
    }

    /// The categories in both sets.
    #[cfg(test)]
    pub(crate) fn intersection(&self, other: &CategorySet) -> CategorySet {
        let mut out = *self;
        for (word, theirs) in out.words.iter_mut().zip(other.words.iter()) {
            *word &= theirs;
        }
        out
    }

    /// The set from its words (category `c` is bit `c % 64` of word
    /// `c / 64`).
    pub(crate) const fn from_words(words: [u64; WORDS]) -> CategorySet {
        CategorySet { words }
    }

    /// The set's words, as [`CategorySet::from_words`] takes them.
    pub(crate) const fn words(&self) -> &[u64; WORDS] {
        &self.words
    }

    /// How many words, from the first, hold the set: those after are 0.
    pub(crate) fn significant_words(&self) -> usize {
        self.words
            .iter()
            .rposition(|&w| w != 0)
            .map_or(0, |i| i.wrapping_add(1))
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Parses the text form (`c0.c3,c7`; empty for the empty set).
    /// Categories may come in any order and overlap.
    pub(crate) fn parse(text: &[u8]) -> Result<CategorySet, ParseError> {
        let mut set = CategorySet::EMPTY;
        if text.is_empty() {
            return Ok(set);
        }
        let mut at = 0;
        loop {
            let (lo, next) = category(text, at)?;
            at = next;
            let hi = if text.get(at) == Some(&b'.') {
                let (hi, next) = category(text, at.wrapping_add(1))?;
                if hi < lo {
                    return Err(ParseError {
                        at: at.wrapping_add(1),
                        kind: ParseErrorKind::EmptyRange,
                    });
                }
                at = next;
                hi
            } else {
                lo
            };
            // Both are below MAX_CATEGORIES (checked by `category`).
            set.insert_range(lo, hi);
            match text.get(at) {
                None => return Ok(set),
                Some(b',') => at = at.wrapping_add(1),
                Some(_) => {
                    return Err(ParseError {
                        at,
                        kind: ParseErrorKind::ExpectedSeparator,
                    })
                }
            }
        }
    }
}

/// What [`decimal`] found wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DecimalError {
    /// No digit.
    Missing,
    /// A number above the maximum.
    TooBig,
}

/// The decimal number at the start of `digits`, at most `max`, and how many
/// digits it has. Checked arithmetic: no panic path.
pub(crate) fn decimal(digits: &[u8], max: usize) -> Result<(usize, usize), DecimalError> {
    let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if len == 0 {
        return Err(DecimalError::Missing);
    }
    let mut n: usize = 0;
    for &d in digits.iter().take(len) {
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(usize::from(d.wrapping_sub(b'0'))))
            .filter(|&n| n <= max)
            .ok_or(DecimalError::TooBig)?;
    }
    Ok((n, len))
}

/// Parses `cN` at `at`: the number and the offset after it.
fn category(text: &[u8], at: usize) -> Result<(usize, usize), ParseError> {
    if text.get(at) != Some(&b'c') {
        return Err(ParseError {
            at,
            kind: ParseErrorKind::ExpectedCategory,
        });
    }
    // Wrapping: `at` is within `text`, no panic path.
    let after = at.wrapping_add(1);
    let digits = text.get(after..).unwrap_or(&[]);
    match decimal(digits, MAX_CATEGORIES - 1) {
        Ok((n, len)) => Ok((n, after.wrapping_add(len))),
        Err(e) => Err(ParseError {
            at: after,
            kind: match e {
                DecimalError::Missing => ParseErrorKind::ExpectedCategory,
                DecimalError::TooBig => ParseErrorKind::OutOfRange,
            },
        }),
    }
}

impl CategorySet {
    /// The first category at or after `from` that is in the set (`member`)
    /// or not in it (`!member`), found word by word; [`MAX_CATEGORIES`]
    /// when there is none.
    fn next(&self, from: usize, member: bool) -> usize {
        let flip = if member { 0 } else { u64::MAX };
        let mut i = from / 64;
        let Some(&first) = self.words.get(i) else {
            return MAX_CATEGORIES;
        };
        let mut w = (first ^ flip) & (u64::MAX << (from % 64));
        loop {
            if w != 0 {
                // Below `MAX_CATEGORIES`: nothing wraps.
                return (i * 64).wrapping_add(w.trailing_zeros() as usize);
            }
            i = i.wrapping_add(1);
            match self.words.get(i) {
                Some(&word) => w = word ^ flip,
                None => return MAX_CATEGORIES,
            }
        }
    }
}

impl fmt::Display for CategorySet {
    /// The canonical text form: ascending, runs of three or more as
    /// `cA.cB`. Word by word: a set's cost is its runs, not its size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut c = self.next(0, true);
        while c < MAX_CATEGORIES {
            // The run's last category (`c` is in the set: the first one
            // after it that is not is above it).
            let end = self.next(c.wrapping_add(1), false).wrapping_sub(1);
            let sep = if first { "" } else { "," };
            first = false;
            match end.wrapping_sub(c) {
                0 => write!(f, "{sep}c{c}")?,
                1 => write!(f, "{sep}c{c},c{end}")?,
                _ => write!(f, "{sep}c{c}.c{end}")?,
            }
            c = self.next(end.wrapping_add(1), true);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: bit by bit, as SELinux's old check.
    fn contains_bitwise(a: &CategorySet, b: &CategorySet) -> bool {
        (0..MAX_CATEGORIES).all(|c| !b.has(c) || a.has(c))
    }

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn set(&mut self) -> CategorySet {
            let mut s = CategorySet::EMPTY;
            // Sparse, dense and in-between sets.
            let density = self.next() % 4;
            for c in 0..MAX_CATEGORIES {
                let r = self.next();
                let keep = match density {
                    0 => r % 64 == 0,
                    1 => r % 4 == 0,
                    2 => r % 4 != 0,
                    _ => true,
                };
                if keep {
                    s.insert(c);
                }
            }
            s
        }
    }

    #[test]
    fn containment_agrees_with_the_bitwise_check() {
        let mut rng = Rng(0x5eed);
        for _ in 0..2000 {
            let a = rng.set();
            let mut b = if rng.next() % 2 == 0 {
                a.intersection(&rng.set())
            } else {
                rng.set()
            };
            if rng.next() % 3 == 0 {
                // One category more than `a` has, often the only difference.
                b = a;
                b.insert((rng.next() % MAX_CATEGORIES as u64) as usize);
            }
            assert_eq!(a.contains(&b), contains_bitwise(&a, &b), "{a} vs {b}");
            assert!(a.contains(&a.intersection(&b)));
        }
        assert!(CategorySet::EMPTY.contains(&CategorySet::EMPTY));
    }

    #[test]
    fn text_round_trips() {
        let mut rng = Rng(42);
        for _ in 0..500 {
            let s = rng.set();
            let text = s.to_string();
            assert_eq!(CategorySet::parse(text.as_bytes()), Ok(s), "{text}");
        }
        for (text, canon) in [
            ("", ""),
            ("c0", "c0"),
            ("c0.c3,c7", "c0.c3,c7"),
            ("c7,c0.c3", "c0.c3,c7"),
            ("c1,c2", "c1,c2"),
            ("c1.c2", "c1,c2"),
            ("c5.c5", "c5"),
            ("c0.c1023", "c0.c1023"),
            ("c60.c70,c3", "c3,c60.c70"),
        ] {
            let s = CategorySet::parse(text.as_bytes()).unwrap();
            assert_eq!(s.to_string(), canon, "{text}");
        }
    }

    /// The reference text form: bit by bit.
    fn text_bitwise(s: &CategorySet) -> String {
        let mut out = Vec::new();
        let mut c = 0;
        while c < MAX_CATEGORIES {
            if !s.has(c) {
                c += 1;
                continue;
            }
            let mut end = c;
            while end + 1 < MAX_CATEGORIES && s.has(end + 1) {
                end += 1;
            }
            out.push(match end - c {
                0 => format!("c{c}"),
                1 => format!("c{c},c{end}"),
                _ => format!("c{c}.c{end}"),
            });
            c = end + 1;
        }
        out.join(",")
    }

    #[test]
    fn text_agrees_with_the_bitwise_form() {
        let mut rng = Rng(7);
        let mut sets: Vec<CategorySet> = (0..2000).map(|_| rng.set()).collect();
        // Runs across and up to word boundaries, and the last category.
        for text in [
            "c63,c64",
            "c62.c65",
            "c0.c63",
            "c64.c127",
            "c1023",
            "c1022,c1023",
            "c0.c1023",
            "c127,c129",
        ] {
            sets.push(CategorySet::parse(text.as_bytes()).unwrap());
        }
        for s in &sets {
            assert_eq!(s.to_string(), text_bitwise(s));
        }
    }

    #[test]
    fn bad_text_says_what_and_where() {
        use ParseErrorKind::*;
        for (text, at, kind) in [
            ("x", 0, ExpectedCategory),
            ("c", 1, ExpectedCategory),
            ("c1,", 3, ExpectedCategory),
            ("c1024", 1, OutOfRange),
            ("c99999999999999999999999", 1, OutOfRange),
            ("c3.c1", 3, EmptyRange),
            ("c1;c2", 2, ExpectedSeparator),
            ("c1.", 3, ExpectedCategory),
            ("c1 ", 2, ExpectedSeparator),
            (",c1", 0, ExpectedCategory),
        ] {
            assert_eq!(
                CategorySet::parse(text.as_bytes()),
                Err(ParseError { at, kind }),
                "{text}"
            );
        }
    }

    #[test]
    fn ranges_cover_word_edges() {
        for (lo, hi) in [
            (0, 0),
            (0, 63),
            (63, 64),
            (1, 1022),
            (64, 127),
            (1000, 1023),
        ] {
            let mut s = CategorySet::EMPTY;
            assert!(s.insert_range(lo, hi));
            for c in 0..MAX_CATEGORIES {
                assert_eq!(s.has(c), (lo..=hi).contains(&c), "{lo}..{hi} at {c}");
            }
        }
        let mut s = CategorySet::EMPTY;
        assert!(!s.insert_range(5, 4));
        assert!(!s.insert_range(0, 1024));
        assert!(!s.insert(1024));
        assert!(s.is_empty());
    }
}
