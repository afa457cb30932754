// SPDX-License-Identifier: GPL-2.0

//! The text policy language of `mlte`, read on the host by the policy tool
//! (`mlte-policy check FILE`): the kernel will load a compiled form.
//!
//! The syntax follows SELinux's kernel policy language, so that SELinux
//! users can read it at sight. Statements end with `;`; `#` starts a
//! comment:
//!
//! ```text
//! sensitivity s0;                 # declares s0 (s0 to s255)
//! category c0;                    # declares c0 (c0 to c1023)
//! type user_t;                    # declares a type
//! allow user_t etc_t : file { read open getattr };
//! allow user_t self : process signal;
//! type_transition user_t tmp_t : file user_tmp_t;
//! type_transition init_t bin_t : process user_t;
//! ```
//!
//! Classes and their permissions are built in ([`CLASSES`]). `self` as a
//! target means the source type. Every error carries `line:col` (1-based)
//! and says what was expected.
//!
//! Host only: it allocates freely.

use std::collections::BTreeMap;
use std::fmt;

pub(crate) use super::classes::CLASSES;

/// A position in the policy text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Pos {
    /// Line, from 1.
    pub(crate) line: u32,
    /// Column, from 1, in bytes.
    pub(crate) col: u32,
}

/// An error in a policy: where, and what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Error {
    /// Where.
    pub(crate) pos: Pos,
    /// What was wrong, and what was expected.
    pub(crate) message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.pos.line, self.pos.col, self.message)
    }
}

/// A parsed policy.
#[derive(Default, Debug)]
pub(crate) struct Policy {
    /// Type names, by type id.
    pub(crate) types: Vec<String>,
    /// Declared sensitivities.
    pub(crate) sensitivities: Vec<u16>,
    /// Declared categories.
    pub(crate) categories: Vec<u16>,
    /// Allowed permissions: (source, target, class) to a bitmap of
    /// [`CLASSES`]' permissions.
    pub(crate) allow: BTreeMap<(u32, u32, u8), u32>,
    /// Type transitions: (source, target, class) to the new type.
    pub(crate) transitions: BTreeMap<(u32, u32, u8), u32>,
}

/// One token and where it starts.
#[derive(Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    pos: Pos,
}

/// Splits `text` into words and the punctuation `{ } ; :`, skipping
/// comments and white space.
fn tokens(text: &str) -> Result<Vec<Token<'_>>, Error> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = u32::try_from(n + 1).unwrap_or(u32::MAX);
        let code = line.split('#').next().unwrap_or("");
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            let pos = Pos {
                line: line_no,
                col: u32::try_from(i + 1).unwrap_or(u32::MAX),
            };
            if c.is_ascii_whitespace() {
                i += 1;
            } else if b"{};:".contains(&c) {
                out.push(Token {
                    text: &code[i..i + 1],
                    pos,
                });
                i += 1;
            } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.')
                {
                    i += 1;
                }
                out.push(Token {
                    text: &code[start..i],
                    pos,
                });
            } else {
                return Err(Error {
                    pos,
                    message: format!("unexpected character '{}'", char::from(c)),
                });
            }
        }
    }
    Ok(out)
}

/// A cursor over the tokens.
struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    end: Pos,
    policy: Policy,
    type_ids: BTreeMap<String, u32>,
}

impl<'a> Parser<'a> {
    /// The position of the next token, or the end of the text.
    fn pos(&self) -> Pos {
        self.tokens.get(self.next).map_or(self.end, |t| t.pos)
    }

    fn error<T>(&self, message: String) -> Result<T, Error> {
        Err(Error {
            pos: self.pos(),
            message,
        })
    }

    /// What the next token is, for messages.
    fn found(&self) -> String {
        self.tokens
            .get(self.next)
            .map_or("the end of the policy".into(), |t| format!("'{}'", t.text))
    }

    /// The next token, which must be a name (`what` says which).
    fn word(&mut self, what: &str) -> Result<Token<'a>, Error> {
        match self.tokens.get(self.next) {
            Some(t) if !"{};:".contains(t.text) => {
                self.next += 1;
                Ok(t.clone())
            }
            _ => self.error(format!("expected {what}, found {}", self.found())),
        }
    }

    /// Skips `punct`, which must come next.
    fn expect(&mut self, punct: &str) -> Result<(), Error> {
        match self.tokens.get(self.next) {
            Some(t) if t.text == punct => {
                self.next += 1;
                Ok(())
            }
            _ => self.error(format!("expected '{punct}', found {}", self.found())),
        }
    }

    fn peek_is(&self, punct: &str) -> bool {
        self.tokens.get(self.next).is_some_and(|t| t.text == punct)
    }

    /// A declared type, or `self` (`self_type`) if allowed.
    fn type_ref(&mut self, self_type: Option<u32>) -> Result<u32, Error> {
        let pos = self.pos();
        let t = self.word("a type")?;
        if t.text == "self" {
            if let Some(id) = self_type {
                return Ok(id);
            }
        }
        self.type_ids.get(t.text).copied().ok_or(Error {
            pos,
            message: format!(
                "unknown type '{}': declare it with 'type {};'",
                t.text, t.text
            ),
        })
    }

    /// A built-in class.
    fn class(&mut self) -> Result<u8, Error> {
        let pos = self.pos();
        let t = self.word("a class")?;
        CLASSES
            .iter()
            .position(|(name, _)| *name == t.text)
            .and_then(|i| u8::try_from(i).ok())
            .ok_or_else(|| Error {
                pos,
                message: format!(
                    "unknown class '{}': expected one of {}",
                    t.text,
                    CLASSES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
    }

    /// One permission of `class`, as its bit.
    fn perm(&mut self, class: u8) -> Result<u32, Error> {
        let pos = self.pos();
        let t = self.word("a permission")?;
        let perms = CLASSES[usize::from(class)].1;
        perms
            .iter()
            .position(|p| *p == t.text)
            .map(|bit| 1u32 << bit)
            .ok_or_else(|| Error {
                pos,
                message: format!(
                    "class {} has no permission '{}': expected one of {}",
                    CLASSES[usize::from(class)].0,
                    t.text,
                    perms.join(", ")
                ),
            })
    }

    /// `N` of `prefix N` (`s3`, `c7`), at most `max`.
    fn numbered(&mut self, prefix: char, what: &str, max: u16) -> Result<u16, Error> {
        let pos = self.pos();
        let t = self.word(what)?;
        t.text
            .strip_prefix(prefix)
            .and_then(
                |n| match super::category::decimal(n.as_bytes(), usize::from(max)) {
                    Ok((value, len)) if len == n.len() => u16::try_from(value).ok(),
                    _ => None,
                },
            )
            .ok_or(Error {
                pos,
                message: format!(
                    "expected {what} ({prefix}0 to {prefix}{max}), found '{}'",
                    t.text
                ),
            })
    }

    fn statement(&mut self) -> Result<(), Error> {
        let pos = self.pos();
        let keyword = self.word("a statement")?;
        match keyword.text {
            "type" => {
                let pos = self.pos();
                let name = self.word("a type name")?;
                if name.text == "self" || self.type_ids.contains_key(name.text) {
                    return Err(Error {
                        pos,
                        message: format!("type '{}' is already declared", name.text),
                    });
                }
                let id = u32::try_from(self.policy.types.len()).unwrap_or(u32::MAX);
                self.type_ids.insert(name.text.to_string(), id);
                self.policy.types.push(name.text.to_string());
            }
            "sensitivity" => {
                let s = self.numbered('s', "a sensitivity", super::level::MAX_SENSITIVITY)?;
                self.policy.sensitivities.push(s);
            }
            "category" => {
                let max = u16::try_from(super::category::MAX_CATEGORIES - 1).unwrap_or(0);
                let c = self.numbered('c', "a category", max)?;
                self.policy.categories.push(c);
            }
            "allow" => {
                let source = self.type_ref(None)?;
                let target = self.type_ref(Some(source))?;
                self.expect(":")?;
                let class = self.class()?;
                let mut perms = 0;
                if self.peek_is("{") {
                    self.expect("{")?;
                    perms |= self.perm(class)?;
                    while !self.peek_is("}") {
                        perms |= self.perm(class)?;
                    }
                    self.expect("}")?;
                } else {
                    perms = self.perm(class)?;
                }
                *self
                    .policy
                    .allow
                    .entry((source, target, class))
                    .or_insert(0) |= perms;
            }
            "type_transition" => {
                let source = self.type_ref(None)?;
                let target = self.type_ref(Some(source))?;
                self.expect(":")?;
                let class = self.class()?;
                let new = self.type_ref(None)?;
                if let Some(&old) = self.policy.transitions.get(&(source, target, class)) {
                    if old != new {
                        return self.error(format!(
                            "a second type_transition for {} {} : {} (the first gives {})",
                            self.policy.types[source as usize],
                            self.policy.types[target as usize],
                            CLASSES[usize::from(class)].0,
                            self.policy.types[old as usize]
                        ));
                    }
                }
                self.policy.transitions.insert((source, target, class), new);
            }
            other => {
                return Err(Error {
                    pos,
                    message: format!(
                        "unknown statement '{other}': expected type, sensitivity, category, \
                         allow or type_transition"
                    ),
                })
            }
        }
        self.expect(";")
    }
}

impl Policy {
    /// The compiled form (`compiled.rs`), or why there is none.
    pub(crate) fn compile(&self) -> Result<Vec<u8>, String> {
        use super::compiled::{MAGIC, MAX_NAME, MAX_TYPES, VERSION};
        let types = u32::try_from(self.types.len()).unwrap_or(u32::MAX);
        if types == 0 || types > MAX_TYPES {
            return Err(format!("{types} types: a policy has 1 to {MAX_TYPES}"));
        }
        let classes = CLASSES.len();
        let mut out = MAGIC.to_vec();
        let transitions = u32::try_from(self.transitions.len()).unwrap_or(u32::MAX);
        for v in [VERSION, types, classes as u32, transitions] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for name in &self.types {
            let ok = (1..=MAX_NAME as usize).contains(&name.len())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
            if !ok {
                return Err(format!(
                    "type name '{name}': 1 to {MAX_NAME} characters of a-z, 0-9 and _"
                ));
            }
            out.extend_from_slice(&(name.len() as u32).to_le_bytes());
            out.extend_from_slice(name.as_bytes());
        }
        let n = self.types.len();
        let mut matrix = vec![0u32; n * n * classes];
        for (&(s, t, c), &bits) in &self.allow {
            matrix[(s as usize * n + t as usize) * classes + usize::from(c)] |= bits;
        }
        for bits in matrix {
            out.extend_from_slice(&bits.to_le_bytes());
        }
        // A BTreeMap iterates in key order: sorted and unique.
        for (&(s, t, c), &new) in &self.transitions {
            for v in [s, t, u32::from(c), new] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Ok(out)
    }
}

/// Parses a policy text.
pub(crate) fn parse(text: &str) -> Result<Policy, Error> {
    let line_count = u32::try_from(text.lines().count()).unwrap_or(u32::MAX);
    let mut p = Parser {
        tokens: tokens(text)?,
        next: 0,
        end: Pos {
            line: line_count.max(1),
            col: u32::try_from(text.lines().last().map_or(0, str::len) + 1).unwrap_or(u32::MAX),
        },
        policy: Policy::default(),
        type_ids: BTreeMap::new(),
    };
    while p.next < p.tokens.len() {
        p.statement()?;
    }
    Ok(p.policy)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
# A small policy.
sensitivity s0;
sensitivity s1;
category c0;
type init_t;
type user_t;
type etc_t;
type bin_t;
allow user_t etc_t : file { read open getattr };
allow user_t etc_t : file map;
allow user_t self : process signal;
type_transition init_t bin_t : process user_t;
";

    #[test]
    fn a_good_policy_parses() {
        let p = parse(GOOD).unwrap();
        assert_eq!(p.types, ["init_t", "user_t", "etc_t", "bin_t"]);
        assert_eq!(p.sensitivities, [0, 1]);
        assert_eq!(p.categories, [0]);
        let file = 0u8;
        let bits = p.allow[&(1, 2, file)];
        let perm = |name| 1u32 << CLASSES[0].1.iter().position(|p| *p == name).unwrap();
        assert_eq!(
            bits,
            perm("read") | perm("open") | perm("getattr") | perm("map")
        );
        assert!(p.allow.contains_key(&(1, 1, 2)), "self is the source");
        assert_eq!(p.transitions[&(0, 3, 2)], 1);
    }

    #[test]
    fn errors_say_where_and_what_was_expected() {
        let cases = [
            ("type a\n", "1:7: expected ';', found the end of the policy"),
            ("type a;\ntype a;", "2:6: type 'a' is already declared"),
            ("type a;\nallow a b : file read;", "2:9: unknown type 'b'"),
            (
                "type a;\nallow a a : fil read;",
                "2:13: unknown class 'fil'",
            ),
            (
                "type a;\nallow a a : file fly;",
                "2:18: class file has no permission 'fly'",
            ),
            (
                "type a;\nallow a a file read;",
                "2:11: expected ':', found 'file'",
            ),
            (
                "type a;\nallow a a : file { };",
                "2:20: expected a permission, found '}'",
            ),
            (
                "sensitivity s256;",
                "1:13: expected a sensitivity (s0 to s255)",
            ),
            ("category c1024;", "1:10: expected a category (c0 to c1023)"),
            ("permit a b;", "1:1: unknown statement 'permit'"),
            ("type a$;", "1:7: unexpected character '$'"),
            (
                "type a; type b;\ntype_transition a a : file a;\ntype_transition a a : file b;",
                "3:29: a second type_transition for a a : file (the first gives a)",
            ),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err().to_string();
            assert!(
                err.starts_with(want),
                "{text:?}: got '{err}', want '{want}...'"
            );
        }
    }
}
