// SPDX-License-Identifier: GPL-2.0

//! The rule of the `denyname` submodule: one file name that may not be opened.
//!
//! This file has no kernel dependencies. It is compiled into the kernel as
//! part of the stacker crate and on the host as the `denyname` crate, so
//! `cargo test` exercises the same code that runs in the kernel.

/// Longest name a rule can hold: the kernel's `NAME_MAX`.
pub const NAME_MAX: usize = 255;

/// A single file name, or nothing.
///
/// # Invariants
///
/// `len <= NAME_MAX`, and `name[..len]` is a valid path component: it is not
/// `.` or `..` and contains neither `/` nor NUL. `len == 0` means "no rule".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NameRule {
    name: [u8; NAME_MAX],
    len: usize,
}

/// Why some input is not a valid rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NameRuleError {
    /// The name is longer than [`NAME_MAX`] bytes.
    TooLong,
    /// The name contains `/`: it must be a single path component.
    HasSlash,
    /// The name contains a NUL byte or a second line.
    HasControl,
    /// The name is `.` or `..`, which no file is ever opened by.
    Dot,
}

impl NameRuleError {
    /// A short text for the log line that reports a rejected write.
    pub fn reason(self) -> &'static str {
        match self {
            NameRuleError::TooLong => "name longer than 255 bytes",
            NameRuleError::HasSlash => "name contains '/'",
            NameRuleError::HasControl => "name contains NUL or a newline",
            NameRuleError::Dot => "name is '.' or '..'",
        }
    }
}

impl NameRule {
    /// The empty rule, which matches nothing.
    pub const fn none() -> Self {
        // INVARIANT: `len == 0`.
        NameRule {
            name: [0; NAME_MAX],
            len: 0,
        }
    }

    /// Parses what a user wrote: one name, optionally ending in one newline.
    ///
    /// An empty input (or a lone newline) gives the empty rule.
    pub fn parse(input: &[u8]) -> Result<Self, NameRuleError> {
        let name = match input.split_last() {
            Some((b'\n', rest)) => rest,
            _ => input,
        };
        if name.len() > NAME_MAX {
            return Err(NameRuleError::TooLong);
        }
        if name.contains(&b'/') {
            return Err(NameRuleError::HasSlash);
        }
        if name.iter().any(|&b| b == 0 || b == b'\n') {
            return Err(NameRuleError::HasControl);
        }
        if name == b"." || name == b".." {
            return Err(NameRuleError::Dot);
        }
        let mut rule = NameRule::none();
        rule.name[..name.len()].copy_from_slice(name);
        // INVARIANT: checked above: short enough, one valid component.
        rule.len = name.len();
        Ok(rule)
    }

    /// Whether a rule is set at all.
    pub fn is_set(&self) -> bool {
        self.len != 0
    }

    /// The name this rule denies; empty when no rule is set.
    pub fn as_bytes(&self) -> &[u8] {
        &self.name[..self.len]
    }

    /// Whether `name` (one path component) is the denied name.
    pub fn matches(&self, name: &[u8]) -> bool {
        self.is_set() && self.as_bytes() == name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_table() {
        let long = [b'a'; NAME_MAX + 1];
        let cases: &[(&[u8], Result<&[u8], NameRuleError>)] = &[
            (b"secret", Ok(b"secret")),
            (b"secret\n", Ok(b"secret")),
            (b"", Ok(b"")),
            (b"\n", Ok(b"")),
            (b"a b", Ok(b"a b")),
            (b"...", Ok(b"...")),
            (&long[..NAME_MAX], Ok(&long[..NAME_MAX])),
            (&long, Err(NameRuleError::TooLong)),
            (b"dir/file", Err(NameRuleError::HasSlash)),
            (b"/", Err(NameRuleError::HasSlash)),
            (b"a\0b", Err(NameRuleError::HasControl)),
            (b"one\ntwo", Err(NameRuleError::HasControl)),
            (b"x\n\n", Err(NameRuleError::HasControl)),
            (b".", Err(NameRuleError::Dot)),
            (b"..\n", Err(NameRuleError::Dot)),
        ];
        for (input, want) in cases {
            let got = NameRule::parse(input).map(|r| r.as_bytes().to_vec());
            assert_eq!(got, want.map(|w| w.to_vec()), "input {:?}", input);
        }
    }

    #[test]
    fn matches_only_the_exact_name() {
        let rule = NameRule::parse(b"secret\n").unwrap();
        assert!(rule.matches(b"secret"));
        assert!(!rule.matches(b"secret2"));
        assert!(!rule.matches(b"secre"));
        assert!(!rule.matches(b"Secret"));
        assert!(!rule.matches(b""));
    }

    #[test]
    fn empty_rule_matches_nothing() {
        let rule = NameRule::none();
        assert!(!rule.is_set());
        assert!(!rule.matches(b""));
        assert!(!rule.matches(b"secret"));
        assert_eq!(NameRule::parse(b"\n"), Ok(NameRule::none()));
    }

    #[test]
    fn any_valid_component_round_trips() {
        // Every single-byte name that is a valid component parses to itself.
        for b in 1u8..=255 {
            let input = [b];
            match NameRule::parse(&input) {
                Ok(rule) if b == b'\n' => assert!(!rule.is_set()),
                Ok(rule) => assert!(rule.matches(&input)),
                Err(e) => assert!(matches!(b, b'/' | b'.'), "byte {b}: {e:?}"),
            }
        }
    }
}
