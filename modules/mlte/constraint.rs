// SPDX-License-Identifier: GPL-2.0

//! `mlsconstrain` expressions of `mlte`, in their compiled form: a postfix
//! program of little-endian `u32` words, checked once when the policy is
//! loaded ([`check`]) and then evaluated on hook paths ([`holds`]) with a
//! stack of bits in one register: no allocation, no recursion. The tests
//! are SELinux's (`constraint_expr_eval()` in security/selinux/ss/services.c).
//!
//! Words:
//!
//! ```text
//! OP_LEVEL | relation << 8 | pair << 12
//!                                 push "<left> <relation> <right>" for the
//!                                 pair of levels (l1 l2, l1 h2, h1 l2,
//!                                 h1 h2, l1 h1, l2 h2)
//! OP_NAME | side << 8 | neg << 9 | attr << 10 | third << 12, id
//!                                 push "t1 == id" (attr 0, a type),
//!                                 "r1 == id" (1, a role) or "u1 == id"
//!                                 (2, a user); of the object ("t2") when
//!                                 side is 1; of the third context ("t3",
//!                                 `validatetrans` only) when third is 1;
//!                                 negated ("!=") when neg is 1
//! OP_SAME | neg << 9 | attr << 10 push "t1 == t2", "r1 == r2" or "u1 == u2"
//! OP_AND, OP_OR                   pop two, push one
//! OP_NOT                          pop one, push one
//! ```
//!
//! `u1`/`r1`/`t1`/`l1`/`h1` are the subject's user, role, type, low and
//! high level; `u2`/`r2`/`t2`/`l2`/`h2` the object's. In a
//! `validatetrans` (SELinux's `security_validate_transition()`), `1` is
//! the object's old context, `2` its new one and `u3`/`r3`/`t3` the
//! relabelling task's.
//!
//! Kernel-independent: no allocation, no panic path.

use super::context::{dominates, same_level, ContextView, LevelView};

/// Pushes a level relation.
pub(crate) const OP_LEVEL: u32 = 1;
/// Pushes a name test; the next word is the id.
pub(crate) const OP_NAME: u32 = 2;
/// Pops two, pushes their conjunction.
pub(crate) const OP_AND: u32 = 3;
/// Pops two, pushes their disjunction.
pub(crate) const OP_OR: u32 = 4;
/// Pops one, pushes its negation.
pub(crate) const OP_NOT: u32 = 5;
/// Pushes a comparison of the subject's user, role or type with the
/// object's.
pub(crate) const OP_SAME: u32 = 6;

/// `dom`: the left level dominates the right one.
pub(crate) const DOM: u32 = 0;
/// `domby`: the right level dominates the left one.
pub(crate) const DOMBY: u32 = 1;
/// `eq` (`==`).
pub(crate) const EQ: u32 = 2;
/// `incomp`: neither dominates the other.
pub(crate) const INCOMP: u32 = 3;
/// `!=`.
pub(crate) const NEQ: u32 = 4;

/// The level pairs, in the order of their code (`pair << 12`): SELinux's
/// `l1 l2`, `l1 h2`, `h1 l2`, `h1 h2`, `l1 h1`, `l2 h2`.
pub(crate) const PAIRS: [&str; 6] = ["l1 l2", "l1 h2", "h1 l2", "h1 h2", "l1 h1", "l2 h2"];

/// A name test of types (`attr << 10`).
pub(crate) const ATTR_TYPE: u32 = 0;
/// A name test of roles.
pub(crate) const ATTR_ROLE: u32 = 1;
/// A name test of users.
pub(crate) const ATTR_USER: u32 = 2;
/// In an `OP_NAME` word: the test is of the third context (`u3`, `r3`,
/// `t3`).
pub(crate) const THIRD: u32 = 1 << 12;

/// The most words one expression may have.
pub(crate) const MAX_WORDS: u32 = 64;
/// The deepest the evaluation stack may get (bits of one `u32`).
const MAX_DEPTH: u32 = 32;

/// How many users, roles and types the policy has: ids in a program must
/// be below.
pub(crate) struct Limits {
    pub(crate) users: u32,
    pub(crate) roles: u32,
    pub(crate) types: u32,
}

/// The `i`th word of `ops`.
pub(crate) fn word(ops: &[u8], i: usize) -> Option<u32> {
    let at = i.checked_mul(4)?;
    let b = ops.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Checks the program `ops` (its length a multiple of 4) for a policy with
/// `limits`: known operations, ids in range, no stack underflow or
/// overflow, exactly one value at the end; a test of a third context only
/// if `third` (a `validatetrans`). On error, the word index and what was
/// wrong.
pub(crate) fn check(ops: &[u8], limits: &Limits, third: bool) -> Result<(), (usize, &'static str)> {
    let n = ops.len() / 4;
    if n == 0 || n > MAX_WORDS as usize || ops.len() % 4 != 0 {
        return Err((0, "expression length out of range (1 to 64 words)"));
    }
    let mut depth = 0u32;
    let mut i = 0;
    while i < n {
        let op = word(ops, i).unwrap_or(u32::MAX);
        let (pops, extra) = match (op & 0xff, op >> 8) {
            (OP_LEVEL, flags) if flags & 0xf <= NEQ && flags >> 4 < PAIRS.len() as u32 => (0, 0),
            (OP_NAME, flags)
                if flags & !0x10 <= 0xb
                    && (flags & 0xf) >> 2 <= ATTR_USER
                    && (flags & 0x10 == 0 || third && flags & 1 == 0) =>
            {
                let limit = match (flags & 0xf) >> 2 {
                    ATTR_TYPE => limits.types,
                    ATTR_ROLE => limits.roles,
                    _ => limits.users,
                };
                match word(ops, i + 1) {
                    Some(id) if id < limit => {}
                    Some(_) => {
                        return Err((
                            i + 1,
                            "name test names a user, role or type that does not exist",
                        ))
                    }
                    None => return Err((i, "name test without its id")),
                }
                (0, 1)
            }
            (OP_SAME, flags) if flags & 1 == 0 && flags <= 0xa && flags >> 2 <= ATTR_USER => (0, 0),
            (OP_AND | OP_OR, 0) => (2, 0),
            (OP_NOT, 0) => (1, 0),
            _ => return Err((i, "unknown operation")),
        };
        if depth < pops {
            return Err((i, "operation without enough operands"));
        }
        depth = depth - pops + 1;
        if depth > MAX_DEPTH {
            return Err((i, "expression nests deeper than 32"));
        }
        i += 1 + extra;
    }
    if depth != 1 {
        return Err((n, "expression leaves more than one value"));
    }
    Ok(())
}

/// The user, role or type (`attr`) of `c`.
#[inline(always)]
fn attr_of(c: &impl ContextView, attr: u32) -> u32 {
    match attr {
        ATTR_TYPE => c.ty(),
        ATTR_ROLE => c.role(),
        _ => c.user(),
    }
}

/// Whether `relation` holds between levels `a` and `b`.
#[inline(always)]
fn relation(relation: u32, a: LevelView<'_>, b: LevelView<'_>) -> bool {
    match relation {
        DOM => dominates(a, b),
        DOMBY => dominates(b, a),
        EQ => same_level(a, b),
        NEQ => !same_level(a, b),
        INCOMP => !dominates(a, b) && !dominates(b, a),
        // Refused by `check`.
        _ => false,
    }
}

/// Whether the checked program `ops` holds for subject `s` and object `o`.
/// A program that [`check`] did not pass yields `false` (deny). Counters
/// wrap rather than panic (they are bounded by the checks above anyway).
#[inline]
pub(crate) fn holds(ops: &[u8], s: &impl ContextView, o: &impl ContextView) -> bool {
    holds_with_third(ops, s, o, None::<&super::context::Context>)
}

/// [`holds`] with a third context (`u3`, `r3`, `t3`), for a
/// `validatetrans`: `s` the old context, `o` the new one, `x` the task's.
/// A test of a third context without one yields `false`.
#[inline]
pub(crate) fn holds_with_third<X: ContextView>(
    ops: &[u8],
    s: &impl ContextView,
    o: &impl ContextView,
    x: Option<&X>,
) -> bool {
    // The stack: bit 0 is the top; `depth` values are on it.
    let (mut stack, mut depth) = (0u32, 0u32);
    let mut i = 0;
    while let Some(op) = word(ops, i) {
        i = i.wrapping_add(1);
        let value = match op & 0xff {
            OP_LEVEL => {
                let (left, right) = match (op >> 12) & 0xf {
                    0 => (s.low(), o.low()),
                    1 => (s.low(), o.high()),
                    2 => (s.high(), o.low()),
                    3 => (s.high(), o.high()),
                    4 => (s.low(), s.high()),
                    _ => (o.low(), o.high()),
                };
                relation((op >> 8) & 0xf, left, right)
            }
            OP_NAME => {
                let Some(id) = word(ops, i) else {
                    return false;
                };
                i = i.wrapping_add(1);
                let attr = (op >> 10) & 3;
                if attr > ATTR_USER || op >> 13 != 0 {
                    return false;
                }
                let value = if op & THIRD != 0 {
                    match x {
                        Some(x) => attr_of(x, attr),
                        None => return false,
                    }
                } else if op & (1 << 8) == 0 {
                    attr_of(s, attr)
                } else {
                    attr_of(o, attr)
                };
                (value == id) != (op & (1 << 9) != 0)
            }
            OP_SAME => {
                let attr = op >> 10;
                if attr > ATTR_USER {
                    return false;
                }
                (attr_of(s, attr) == attr_of(o, attr)) != (op & (1 << 9) != 0)
            }
            OP_NOT => {
                if depth == 0 {
                    return false;
                }
                stack ^= 1;
                continue;
            }
            OP_AND | OP_OR => {
                if depth < 2 {
                    return false;
                }
                let (a, b) = (stack & 1 != 0, stack & 2 != 0);
                stack >>= 2;
                depth = depth.wrapping_sub(2);
                if op & 0xff == OP_AND {
                    a && b
                } else {
                    a || b
                }
            }
            _ => return false,
        };
        if depth >= MAX_DEPTH {
            return false;
        }
        stack = (stack << 1) | u32::from(value);
        depth = depth.wrapping_add(1);
    }
    depth == 1 && stack & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::context::Context;
    use crate::mlte::level::Level;

    fn prog(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    const LIMITS: Limits = Limits {
        users: 2,
        roles: 3,
        types: 3,
    };

    fn ctx(user: u32, role: u32, ty: u32, low: &str, high: &str) -> Context {
        Context {
            user,
            role,
            ty,
            low: Level::parse(low.as_bytes()).unwrap(),
            high: Level::parse(high.as_bytes()).unwrap(),
        }
    }

    fn level(rel: u32, pair: u32) -> u32 {
        OP_LEVEL | rel << 8 | pair << 12
    }

    #[test]
    fn relations_and_connectives() {
        let s = ctx(0, 1, 1, "s1:c0,c1", "s2:c0.c2");
        let o = ctx(1, 1, 2, "s1:c0", "s1:c0,c1");
        let cases: [(&[u32], bool); 26] = [
            (&[level(DOM, 0)], true),
            (&[level(DOMBY, 0)], false),
            (&[level(EQ, 0)], false),
            (&[level(NEQ, 0)], true),
            (&[level(INCOMP, 0)], false),
            // l1 h2: s1:c0,c1 against s1:c0,c1.
            (&[level(EQ, 1)], true),
            // h1 l2: s2:c0.c2 dom s1:c0.
            (&[level(DOM, 2)], true),
            // h1 h2.
            (&[level(DOMBY, 3)], false),
            // l1 h1, l2 h2.
            (&[level(DOMBY, 4)], true),
            (&[level(EQ, 5)], false),
            (&[level(DOMBY, 5)], true),
            (&[OP_NAME, 1], true),
            (&[OP_NAME | 1 << 8, 1], false),
            (&[OP_NAME | 3 << 8, 1], true),
            (&[OP_NAME | ATTR_ROLE << 10, 1], true),
            (&[OP_NAME | (1 | ATTR_ROLE << 2) << 8, 0], false),
            (&[OP_NAME | ATTR_USER << 10, 0], true),
            (&[OP_NAME | (1 | ATTR_USER << 2) << 8, 1], true),
            (&[OP_NAME | (3 | ATTR_USER << 2) << 8, 1], false),
            (&[OP_SAME | ATTR_USER << 10], false),
            (&[OP_SAME | (2 | ATTR_USER << 2) << 8], true),
            (&[OP_SAME | ATTR_ROLE << 10], true),
            (&[OP_SAME | ATTR_TYPE << 10], false),
            (&[OP_SAME | 2 << 8], true),
            (&[level(DOMBY, 0), OP_NAME, 1, OP_OR], true),
            (&[level(DOMBY, 0), OP_NAME, 1, OP_AND, OP_NOT], true),
        ];
        for (words, want) in cases {
            let p = prog(words);
            assert_eq!(check(&p, &LIMITS, false), Ok(()), "{words:?}");
            assert_eq!(holds(&p, &s, &o), want, "{words:?}");
        }
        let p = prog(&[level(INCOMP, 0)]);
        let a = ctx(0, 0, 0, "s1:c0", "s1:c0");
        let b = ctx(0, 0, 0, "s1:c2", "s1:c2");
        assert!(holds(&p, &a, &b));
    }

    /// `u3`/`r3`/`t3` test the third context (a `validatetrans`'s task),
    /// and only where one is allowed and given.
    #[test]
    fn third_context_tests() {
        let (old, new) = (ctx(0, 0, 0, "s0", "s0"), ctx(0, 0, 1, "s0", "s0"));
        let task = ctx(1, 2, 2, "s0", "s0");
        for (words, want) in [
            (&[OP_NAME | THIRD, 2][..], true),
            (&[OP_NAME | THIRD | 1 << 9, 2][..], false),
            (&[OP_NAME | THIRD | ATTR_ROLE << 10, 2][..], true),
            (&[OP_NAME | THIRD | ATTR_USER << 10, 0][..], false),
        ] {
            let p = prog(words);
            assert_eq!(check(&p, &LIMITS, true), Ok(()), "{words:?}");
            assert!(
                check(&p, &LIMITS, false).is_err(),
                "{words:?}: not a validatetrans"
            );
            assert_eq!(
                holds_with_third(&p, &old, &new, Some(&task)),
                want,
                "{words:?}"
            );
            assert!(!holds(&p, &old, &new), "{words:?}: no third context");
        }
        // A third context on the object's side is no test.
        assert!(check(&prog(&[OP_NAME | THIRD | 1 << 8, 0]), &LIMITS, true).is_err());
    }

    #[test]
    fn bad_programs_are_refused_and_deny() {
        let cases: [&[u32]; 14] = [
            &[],
            &[OP_AND],
            &[OP_LEVEL, OP_LEVEL],
            &[OP_NAME],
            &[OP_NAME, 3],
            &[OP_NAME | ATTR_ROLE << 10, 3],
            &[OP_NAME | ATTR_USER << 10, 2],
            &[OP_NAME | 3 << 10, 0],
            &[OP_SAME | 1 << 8],
            &[OP_SAME | 3 << 10],
            &[99],
            &[OP_LEVEL | 5 << 8],
            &[OP_LEVEL | 6 << 12],
            &[OP_LEVEL | 1 << 20],
        ];
        let s = ctx(0, 0, 0, "s0", "s0");
        for words in cases {
            let p = prog(words);
            assert!(check(&p, &LIMITS, false).is_err(), "{words:?}");
            assert!(
                !holds(&p, &s, &s) || words.len() == 1,
                "{words:?} must deny"
            );
        }
        let deep: Vec<u32> = (0..33).map(|_| OP_LEVEL).collect();
        assert!(check(&prog(&deep), &LIMITS, false).is_err());
        let long: Vec<u32> = (0..65).map(|_| OP_NOT).collect();
        assert!(check(&prog(&long), &LIMITS, false).is_err());
    }
}
