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
//! allow init_t { bin_t etc_t } : file *;   # sets of types; * is every permission
//! type_transition user_t tmp_t : file user_tmp_t;
//! type_transition init_t bin_t : process user_t;
//! level s1:c0.c3;                 # s1 with any of c0 to c3
//! sid kernel init_t:s0;           # tasks from before the policy
//! sid file file_t:s0;             # files without a label
//! sid unlabeled unlabeled_t:s0;   # labels this policy cannot read
//! mlsconstrain file { read } l1 dom l2;           # no read up
//! mlsconstrain file { write append } l1 domby l2; # no write down
//! ```
//!
//! An `mlsconstrain` expression is made of `l1 dom l2`, `l1 domby l2`,
//! `l1 eq l2`, `l1 incomp l2` (`l1` the subject's level, `l2` the
//! object's; `l2 dom l1` is `l1 domby l2`), `t1 == TYPE`, `t2 != TYPE`,
//! `t1 == { A B }`, joined with `not`, `and` and `or` (in that order of
//! precedence) and parentheses. A context is `TYPE:LEVEL`, written without
//! spaces. Sensitivities dominate in numeric order.
//!
//! Classes and their permissions are built in ([`CLASSES`]). `self` as a
//! target means the source type. Every error carries `line:col` (1-based)
//! and says what was expected.
//!
//! Host only: it allocates freely.

use std::collections::BTreeMap;
use std::fmt;

use super::category::CategorySet;
pub(crate) use super::classes::CLASSES;
use super::compiled::SIDS;
use super::constraint::{DOM, DOMBY, EQ, INCOMP, OP_AND, OP_LEVEL, OP_NOT, OP_OR, OP_TYPE};
use super::context::Context;
use super::level::Level;

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
    /// `level` statements, by sensitivity.
    pub(crate) levels: BTreeMap<u16, CategorySet>,
    /// `sid` statements, in the order of [`SIDS`].
    pub(crate) sids: [Option<Context>; 3],
    /// `mlsconstrain` statements: class, permissions and the compiled
    /// expression (`constraint.rs`), in the order written.
    pub(crate) constraints: Vec<(u8, u32, Vec<u32>)>,
}

/// One token and where it starts.
#[derive(Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    pos: Pos,
}

/// Splits `text` into words and the punctuation `{ } ; : ( ) * == !=`,
/// skipping comments and white space. Words are made of letters, digits,
/// `_`, `.` and `,`.
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
            } else if b"{};:()*".contains(&c) {
                out.push(Token {
                    text: &code[i..i + 1],
                    pos,
                });
                i += 1;
            } else if (c == b'=' || c == b'!') && bytes.get(i + 1) == Some(&b'=') {
                out.push(Token {
                    text: &code[i..i + 2],
                    pos,
                });
                i += 2;
            } else if is_word_byte(c) {
                let start = i;
                while i < bytes.len() && is_word_byte(bytes[i]) {
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

/// Whether `c` may be part of a word.
fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b','
}

/// Whether a token is punctuation, not a word.
fn is_punct(text: &str) -> bool {
    matches!(text, "{" | "}" | ";" | ":" | "(" | ")" | "*" | "==" | "!=")
}

/// A cursor over the tokens.
struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    end: Pos,
    policy: Policy,
    type_ids: BTreeMap<String, u32>,
    /// How deeply the constraint expression being parsed nests (`not`,
    /// `(`): bounded, so that a hostile text cannot overflow the stack.
    depth: u32,
}

/// The deepest a constraint expression may nest (`not`, parentheses).
const MAX_NESTING: u32 = 256;

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
            Some(t) if !is_punct(t.text) => {
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

    /// A run of tokens written without space between them (a context or
    /// a level: `user_t:s1:c0,c1`), joined, and where it starts.
    fn glued(&mut self, what: &str) -> Result<(String, Pos), Error> {
        let first = self.word(what)?;
        let mut text = first.text.to_string();
        let mut end = first.pos.col as usize + first.text.len();
        while let Some(t) = self.tokens.get(self.next) {
            if t.pos.line != first.pos.line || t.pos.col as usize != end || t.text == ";" {
                break;
            }
            text.push_str(t.text);
            end += t.text.len();
            self.next += 1;
        }
        Ok((text, first.pos))
    }

    /// An error at `pos`, `at` bytes further on the same line.
    fn error_at<T>(pos: Pos, at: usize, message: String) -> Result<T, Error> {
        Err(Error {
            pos: Pos {
                line: pos.line,
                col: pos
                    .col
                    .saturating_add(u32::try_from(at).unwrap_or(u32::MAX)),
            },
            message,
        })
    }

    /// Parses the level `text` (starting at `pos`): its sensitivity and
    /// categories must be declared.
    fn level_of(&self, text: &str, pos: Pos) -> Result<Level, Error> {
        let level = Level::parse(text.as_bytes()).or_else(|e| {
            Self::error_at(
                pos,
                e.at,
                format!("{e}: expected a level 'sN[:CATEGORIES]'"),
            )
        })?;
        if !self.policy.sensitivities.contains(&level.sensitivity) {
            return Self::error_at(
                pos,
                0,
                format!(
                    "sensitivity s{} is not declared: declare it with 'sensitivity s{};' first",
                    level.sensitivity, level.sensitivity
                ),
            );
        }
        if let Some(c) = (0..super::category::MAX_CATEGORIES)
            .find(|&c| level.categories.has(c) && !self.policy.categories.contains(&(c as u16)))
        {
            return Self::error_at(
                pos,
                0,
                format!("category c{c} is not declared: declare it with 'category c{c};' first"),
            );
        }
        Ok(level)
    }

    /// A context `TYPE:LEVEL`, whose level a `level` statement allows.
    fn context(&mut self) -> Result<Context, Error> {
        let (text, pos) = self.glued("a context TYPE:LEVEL")?;
        let Some((name, level)) = text.split_once(':') else {
            return Self::error_at(
                pos,
                0,
                format!("expected a context TYPE:LEVEL, found '{text}'"),
            );
        };
        let ty = self.type_ids.get(name).copied().map_or_else(
            || {
                Self::error_at(
                    pos,
                    0,
                    format!("unknown type '{name}': declare it with 'type {name};' first"),
                )
            },
            Ok,
        )?;
        let level_pos = Pos {
            line: pos.line,
            col: pos
                .col
                .saturating_add(u32::try_from(name.len() + 1).unwrap_or(u32::MAX)),
        };
        let level = self.level_of(level, level_pos)?;
        let allowed = self
            .policy
            .levels
            .get(&level.sensitivity)
            .is_some_and(|cats| cats.contains(&level.categories));
        if !allowed {
            return Self::error_at(
                level_pos,
                0,
                format!("no 'level' statement allows {level}: declare one first"),
            );
        }
        Ok(Context { ty, level })
    }

    /// Skips the word `keyword` if it comes next.
    fn keyword(&mut self, keyword: &str) -> bool {
        let found = self
            .tokens
            .get(self.next)
            .is_some_and(|t| t.text == keyword);
        if found {
            self.next += 1;
        }
        found
    }

    /// `or` of terms, in postfix.
    fn expr(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        self.conjunction(out)?;
        while self.keyword("or") {
            self.conjunction(out)?;
            out.push(OP_OR);
        }
        Ok(())
    }

    /// `and` of factors, in postfix.
    fn conjunction(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        self.factor(out)?;
        while self.keyword("and") {
            self.factor(out)?;
            out.push(OP_AND);
        }
        Ok(())
    }

    /// `not` factor, `( expr )`, or a test, at most [`MAX_NESTING`] deep.
    fn factor(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        if self.depth >= MAX_NESTING {
            return self.error(format!(
                "constraint nested more than {MAX_NESTING} deep (not, parentheses)"
            ));
        }
        self.depth += 1;
        let result = self.factor_inner(out);
        self.depth -= 1;
        result
    }

    fn factor_inner(&mut self, out: &mut Vec<u32>) -> Result<(), Error> {
        if self.keyword("not") {
            self.factor(out)?;
            out.push(OP_NOT);
            return Ok(());
        }
        if self.peek_is("(") {
            self.expect("(")?;
            self.expr(out)?;
            return self.expect(")");
        }
        let pos = self.pos();
        let left = self.word("l1, l2, t1, t2, not or '('")?;
        match left.text {
            "l1" | "l2" => {
                let rel_pos = self.pos();
                let rel = self.word("dom, domby, eq or incomp")?;
                let right = self.word("l1 or l2")?;
                let rel = match rel.text {
                    "dom" => DOM,
                    "domby" => DOMBY,
                    "eq" => EQ,
                    "incomp" => INCOMP,
                    other => {
                        return Self::error_at(
                            rel_pos,
                            0,
                            format!("expected dom, domby, eq or incomp, found '{other}'"),
                        )
                    }
                };
                let rel = match (left.text, right.text) {
                    ("l1", "l2") => rel,
                    ("l2", "l1") => match rel {
                        DOM => DOMBY,
                        DOMBY => DOM,
                        other => other,
                    },
                    _ => {
                        return Self::error_at(
                            pos,
                            0,
                            "a level test compares l1 with l2".to_string(),
                        )
                    }
                };
                out.push(OP_LEVEL | rel << 8);
            }
            "t1" | "t2" => {
                let side = u32::from(left.text == "t2");
                let negated = if self.peek_is("==") {
                    false
                } else if self.peek_is("!=") {
                    true
                } else {
                    return self.error(format!("expected '==' or '!=', found {}", self.found()));
                };
                self.next += 1;
                let mut types = Vec::new();
                if self.peek_is("{") {
                    self.expect("{")?;
                    types.push(self.type_ref(None)?);
                    while !self.peek_is("}") {
                        types.push(self.type_ref(None)?);
                    }
                    self.expect("}")?;
                } else {
                    types.push(self.type_ref(None)?);
                }
                for (i, ty) in types.into_iter().enumerate() {
                    out.extend([OP_TYPE | side << 8 | u32::from(negated) << 9, ty]);
                    if i > 0 {
                        // Equal to one of them; different from all of them.
                        out.push(if negated { OP_AND } else { OP_OR });
                    }
                }
            }
            other => {
                return Self::error_at(
                    pos,
                    0,
                    format!("expected l1, l2, t1, t2, not or '(', found '{other}'"),
                )
            }
        }
        Ok(())
    }

    /// One type or a `{ }` set of them; `self` (as `None`) if `with_self`.
    fn type_set(&mut self, with_self: bool) -> Result<Vec<Option<u32>>, Error> {
        let one = |p: &mut Self| -> Result<Option<u32>, Error> {
            if with_self && p.keyword("self") {
                return Ok(None);
            }
            p.type_ref(None).map(Some)
        };
        if !self.peek_is("{") {
            return Ok(vec![one(self)?]);
        }
        self.expect("{")?;
        let mut set = vec![one(self)?];
        while !self.peek_is("}") {
            set.push(one(self)?);
        }
        self.expect("}")?;
        Ok(set)
    }

    /// The permissions of `class`: one, a `{ }` set, or `*` for all.
    fn perms(&mut self, class: u8) -> Result<u32, Error> {
        if self.peek_is("*") {
            self.next += 1;
            let n = CLASSES[usize::from(class)].1.len();
            return Ok(u32::MAX >> (32 - n));
        }
        if !self.peek_is("{") {
            return self.perm(class);
        }
        self.expect("{")?;
        let mut perms = self.perm(class)?;
        while !self.peek_is("}") {
            perms |= self.perm(class)?;
        }
        self.expect("}")?;
        Ok(perms)
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
                let sources = self.type_set(false)?;
                let targets = self.type_set(true)?;
                self.expect(":")?;
                let class = self.class()?;
                let perms = self.perms(class)?;
                for &source in &sources {
                    for &target in &targets {
                        // `None`: `self`, the source.
                        let target = target.or(source).unwrap_or(0);
                        let source = source.unwrap_or(0);
                        *self
                            .policy
                            .allow
                            .entry((source, target, class))
                            .or_insert(0) |= perms;
                    }
                }
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
            "level" => {
                let (text, pos) = self.glued("a level")?;
                let level = self.level_of(&text, pos)?;
                if self.policy.levels.contains_key(&level.sensitivity) {
                    return Self::error_at(
                        pos,
                        0,
                        format!("a second level statement for s{}", level.sensitivity),
                    );
                }
                self.policy
                    .levels
                    .insert(level.sensitivity, level.categories);
            }
            "sid" => {
                let pos = self.pos();
                let name = self.word("a sid name")?;
                let Some(i) = SIDS.iter().position(|(_, n)| *n == name.text) else {
                    return Self::error_at(
                        pos,
                        0,
                        format!(
                            "unknown sid '{}': expected kernel, file or unlabeled",
                            name.text
                        ),
                    );
                };
                if self.policy.sids[i].is_some() {
                    return Self::error_at(pos, 0, format!("a second sid {}", name.text));
                }
                self.policy.sids[i] = Some(self.context()?);
            }
            "mlsconstrain" => {
                let class = self.class()?;
                let perms = self.perms(class)?;
                let pos = self.pos();
                let mut ops = Vec::new();
                self.expr(&mut ops)?;
                let bytes: Vec<u8> = ops.iter().flat_map(|w| w.to_le_bytes()).collect();
                let types = u32::try_from(self.policy.types.len()).unwrap_or(u32::MAX);
                if let Err((_, why)) = super::constraint::check(&bytes, types) {
                    return Self::error_at(pos, 0, format!("expression refused: {why}"));
                }
                self.policy.constraints.push((class, perms, ops));
            }
            other => {
                return Err(Error {
                    pos,
                    message: format!(
                        "unknown statement '{other}': expected type, sensitivity, category, \
                         level, allow, type_transition, mlsconstrain or sid"
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
        use super::compiled::{push_level, MAGIC, MAX_NAME, MAX_RULES, MAX_TYPES, VERSION};
        let types = u32::try_from(self.types.len()).unwrap_or(u32::MAX);
        if types == 0 || types > MAX_TYPES {
            return Err(format!("{types} types: a policy has 1 to {MAX_TYPES}"));
        }
        if self.levels.is_empty() {
            return Err("no level statement: a policy needs at least one".into());
        }
        let mut sids = Vec::new();
        for (i, (_, name)) in SIDS.iter().enumerate() {
            match self.sids[i] {
                Some(ctx) => sids.push(ctx),
                None => return Err(format!("no 'sid {name}' statement: a policy needs one")),
            }
        }
        let classes = CLASSES.len();
        let mut out = MAGIC.to_vec();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        // A BTreeMap iterates in key order: the rules come sorted and
        // unique; those that allow nothing are left out.
        let rules: Vec<_> = self.allow.iter().filter(|(_, &bits)| bits != 0).collect();
        if count(rules.len()) > MAX_RULES {
            return Err(format!(
                "{} rules (source, target, class triples): a policy has at most {MAX_RULES}",
                rules.len()
            ));
        }
        for v in [
            VERSION,
            types,
            classes as u32,
            count(rules.len()),
            count(self.transitions.len()),
            count(self.levels.len()),
            count(self.constraints.len()),
        ] {
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
            let mut slot = [0u8; MAX_NAME as usize];
            slot[..name.len()].copy_from_slice(name.as_bytes());
            out.extend_from_slice(&slot);
        }
        let mut by_name: Vec<u32> = (0..types).collect();
        by_name.sort_by(|&a, &b| self.types[a as usize].cmp(&self.types[b as usize]));
        for ty in by_name {
            out.extend_from_slice(&ty.to_le_bytes());
        }
        for ctx in &sids {
            out.extend_from_slice(&ctx.ty.to_le_bytes());
            push_level(&mut out, &ctx.level);
        }
        // A BTreeMap iterates in key order: ascending sensitivities.
        for (&sensitivity, &categories) in &self.levels {
            push_level(
                &mut out,
                &Level {
                    sensitivity,
                    categories,
                },
            );
        }
        for (&(s, t, c), &bits) in rules {
            for v in [s, t, u32::from(c), bits] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        // A BTreeMap iterates in key order: sorted and unique.
        for (&(s, t, c), &new) in &self.transitions {
            for v in [s, t, u32::from(c), new] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        // Constraints by class; in the order written within a class.
        let mut constraints: Vec<_> = self.constraints.iter().collect();
        constraints.sort_by_key(|(class, _, _)| *class);
        for (class, perms, ops) in constraints {
            for v in [u32::from(*class), *perms, count(ops.len())] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for w in ops {
                out.extend_from_slice(&w.to_le_bytes());
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
        depth: 0,
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
        let sets = parse("type a; type b; type c;\nallow { a b } { self c } : dir *;").unwrap();
        let all = (1u32 << CLASSES[1].1.len()) - 1;
        let want = [
            ((0, 0, 1), all),
            ((0, 2, 1), all),
            ((1, 1, 1), all),
            ((1, 2, 1), all),
        ];
        assert_eq!(
            sets.allow.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            want
        );
    }

    #[test]
    fn deep_constraints_are_refused_not_a_stack_overflow() {
        let text = |n| {
            format!(
                "{GOOD}mlsconstrain file read {}l1 dom l2;\n",
                "not ".repeat(n)
            )
        };
        assert_eq!(parse(&text(60)).err(), None);
        let err = parse(&text(100_000)).unwrap_err();
        assert!(err.message.contains("nested more than"), "{err}");
        let parens = format!(
            "{GOOD}mlsconstrain file read {}l1 dom l2;\n",
            "(".repeat(100_000)
        );
        assert!(parse(&parens)
            .unwrap_err()
            .message
            .contains("nested more than"));
    }

    #[test]
    fn mls_statements_parse() {
        let text = "sensitivity s0; sensitivity s1; category c0; category c1;\n\
                    level s0; level s1:c0,c1; type a; type b;\n\
                    sid kernel a:s1:c0; sid file b:s0; sid unlabeled b:s0;\n\
                    mlsconstrain file { read write } (l1 dom l2 or t1 == { a b }) and not t2 != a;\n";
        let p = parse(text).unwrap();
        assert_eq!(p.levels.len(), 2);
        assert_eq!(p.sids[0].unwrap().level.to_string(), "s1:c0");
        let (class, perms, ops) = &p.constraints[0];
        assert_eq!((*class, *perms), (0, 3));
        assert_eq!(
            ops[..],
            [
                OP_LEVEL,
                OP_TYPE,
                0,
                OP_TYPE,
                1,
                OP_OR,
                OP_OR,
                OP_TYPE | 1 << 8 | 1 << 9,
                0,
                OP_NOT,
                OP_AND
            ]
        );
        assert!(p.compile().is_ok());
        let err = parse("type a;").unwrap().compile().unwrap_err();
        assert!(err.contains("no level statement"), "{err}");
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
            ("level s0;", "1:7: sensitivity s0 is not declared"),
            (
                "sensitivity s0;\nlevel s0:c1;",
                "2:7: category c1 is not declared",
            ),
            (
                "sensitivity s0; type a;\nsid kernel a:s0;",
                "2:14: no 'level' statement allows s0",
            ),
            (
                "sensitivity s0; level s0; type a;\nsid kernel b:s0;",
                "2:12: unknown type 'b'",
            ),
            ("sid bogus a:s0;", "1:5: unknown sid 'bogus'"),
            (
                "type a;\nmlsconstrain file read l1 dom l1;",
                "2:24: a level test compares l1 with l2",
            ),
            (
                "type a;\nmlsconstrain file read l1 above l2;",
                "2:27: expected dom, domby, eq or incomp, found 'above'",
            ),
            (
                "type a;\nmlsconstrain file read t1 = a;",
                "2:27: unexpected character '='",
            ),
            (
                "type a;\nmlsconstrain file read (l1 dom l2;",
                "2:34: expected ')', found ';'",
            ),
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
