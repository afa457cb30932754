// SPDX-License-Identifier: GPL-2.0

//! `mlsconstrain` expressions of `mlte`, in their compiled form: a postfix
//! program of little-endian `u32` words, checked once when the policy is
//! loaded ([`check`]) and then evaluated on hook paths ([`holds`]) with a
//! stack of bits in one register: no allocation, no recursion.
//!
//! Words:
//!
//! ```text
//! OP_LEVEL | relation << 8       push "l1 <relation> l2"
//! OP_TYPE | side << 8 | neg << 9, type
//!                                 push "t1 == type" (side 0) or "t2 == type"
//!                                 (side 1), negated ("!=") when neg is 1
//! OP_AND, OP_OR                   pop two, push one
//! OP_NOT                          pop one, push one
//! ```
//!
//! `l1`/`t1` are the subject's level and type, `l2`/`t2` the object's.
//!
//! Kernel-independent: no allocation, no panic path.

use super::context::{dominates, same_level, ContextView};

/// Pushes a level relation between `l1` and `l2`.
pub(crate) const OP_LEVEL: u32 = 1;
/// Pushes a type test; the next word is the type.
pub(crate) const OP_TYPE: u32 = 2;
/// Pops two, pushes their conjunction.
pub(crate) const OP_AND: u32 = 3;
/// Pops two, pushes their disjunction.
pub(crate) const OP_OR: u32 = 4;
/// Pops one, pushes its negation.
pub(crate) const OP_NOT: u32 = 5;

/// `l1 dom l2`: l1 dominates l2.
pub(crate) const DOM: u32 = 0;
/// `l1 domby l2`: l2 dominates l1.
pub(crate) const DOMBY: u32 = 1;
/// `l1 eq l2`.
pub(crate) const EQ: u32 = 2;
/// `l1 incomp l2`: neither dominates the other.
pub(crate) const INCOMP: u32 = 3;

/// The most words one expression may have.
pub(crate) const MAX_WORDS: u32 = 64;
/// The deepest the evaluation stack may get (bits of one `u32`).
const MAX_DEPTH: u32 = 32;

/// The `i`th word of `ops`.
fn word(ops: &[u8], i: usize) -> Option<u32> {
    let at = i.checked_mul(4)?;
    let b = ops.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Checks the program `ops` (its length a multiple of 4) for a policy with
/// `types` types: known operations, types in range, no stack underflow or
/// overflow, exactly one value at the end. On error, the word index and
/// what was wrong.
pub(crate) fn check(ops: &[u8], types: u32) -> Result<(), (usize, &'static str)> {
    let n = ops.len() / 4;
    if n == 0 || n > MAX_WORDS as usize || ops.len() % 4 != 0 {
        return Err((0, "expression length out of range (1 to 64 words)"));
    }
    let mut depth = 0u32;
    let mut i = 0;
    while i < n {
        let op = word(ops, i).unwrap_or(u32::MAX);
        let (pops, extra) = match (op & 0xff, op >> 8) {
            (OP_LEVEL, rel) if rel <= INCOMP => (0, 0),
            (OP_TYPE, flags) if flags <= 3 => {
                match word(ops, i + 1) {
                    Some(t) if t < types => {}
                    Some(_) => return Err((i + 1, "type test names a type that does not exist")),
                    None => return Err((i, "type test without its type")),
                }
                (0, 1)
            }
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

/// Whether the checked program `ops` holds for subject `s` and object `o`.
/// A program that [`check`] did not pass yields `false` (deny). Counters
/// wrap rather than panic (they are bounded by the checks above anyway).
#[inline]
pub(crate) fn holds(ops: &[u8], s: &impl ContextView, o: &impl ContextView) -> bool {
    // The stack: bit 0 is the top; `depth` values are on it.
    let (mut stack, mut depth) = (0u32, 0u32);
    let mut i = 0;
    while let Some(op) = word(ops, i) {
        i = i.wrapping_add(1);
        let value = match op & 0xff {
            OP_LEVEL => match op >> 8 {
                DOM => dominates(s, o),
                DOMBY => dominates(o, s),
                EQ => same_level(s, o),
                _ => !dominates(s, o) && !dominates(o, s),
            },
            OP_TYPE => {
                let Some(ty) = word(ops, i) else {
                    return false;
                };
                i = i.wrapping_add(1);
                let side = if op & (1 << 8) == 0 { s.ty() } else { o.ty() };
                (side == ty) != (op & (1 << 9) != 0)
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

    fn ctx(ty: u32, level: &str) -> Context {
        Context {
            ty,
            level: Level::parse(level.as_bytes()).unwrap(),
        }
    }

    #[test]
    fn relations_and_connectives() {
        let s = ctx(1, "s1:c0,c1");
        let cases: [(&[u32], bool); 9] = [
            (&[OP_LEVEL | DOM << 8], true),
            (&[OP_LEVEL | DOMBY << 8], false),
            (&[OP_LEVEL | EQ << 8], false),
            (&[OP_LEVEL | INCOMP << 8], false),
            (&[OP_TYPE, 1], true),
            (&[OP_TYPE | 1 << 8, 1], false),
            (&[OP_TYPE | 3 << 8, 1], true),
            (&[OP_LEVEL | DOMBY << 8, OP_TYPE, 1, OP_OR], true),
            (&[OP_LEVEL | DOMBY << 8, OP_TYPE, 1, OP_AND, OP_NOT], true),
        ];
        let o = ctx(2, "s1:c0");
        for (words, want) in cases {
            let p = prog(words);
            assert_eq!(check(&p, 3), Ok(()), "{words:?}");
            assert_eq!(holds(&p, &s, &o), want, "{words:?}");
        }
        let p = prog(&[OP_LEVEL | INCOMP << 8]);
        assert!(holds(&p, &ctx(0, "s1:c0"), &ctx(0, "s1:c2")));
    }

    #[test]
    fn bad_programs_are_refused_and_deny() {
        let cases: [&[u32]; 7] = [
            &[],
            &[OP_AND],
            &[OP_LEVEL, OP_LEVEL],
            &[OP_TYPE],
            &[OP_TYPE, 3],
            &[99],
            &[OP_LEVEL | 4 << 8],
        ];
        let s = ctx(0, "s0");
        for words in cases {
            let p = prog(words);
            assert!(check(&p, 3).is_err(), "{words:?}");
            assert!(!holds(&p, &s, &s), "{words:?} must deny");
        }
        let deep: Vec<u32> = (0..33).map(|_| OP_LEVEL).collect();
        assert!(check(&prog(&deep), 3).is_err());
        let long: Vec<u32> = (0..65).map(|_| OP_NOT).collect();
        assert!(check(&prog(&long), 3).is_err());
    }
}
