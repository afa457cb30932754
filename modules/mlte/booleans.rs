// SPDX-License-Identifier: GPL-2.0

//! Booleans and conditional rules of `mlte`, as SELinux's (`bool NAME
//! true;`, `if (EXPR) { ... } else { ... }`): the compiled condition
//! expressions, their checker and evaluator, and the state a loaded policy
//! keeps of them.
//!
//! A condition is a postfix program of little-endian `u32` words with
//! SELinux's codes (`security/selinux/ss/conditional.h`): `COND_BOOL | id
//! << 8` pushes boolean `id`; `COND_NOT` pops one, pushes one;
//! `COND_OR`, `COND_AND`, `COND_XOR`, `COND_EQ`, `COND_NEQ` pop two, push
//! one. In the compiled form each condition is a fixed record of
//! [`COND_RECORD`] bytes: its length in words, then [`COND_WORDS`] words
//! (unused ones 0), so that condition `i` is one offset away.
//!
//! The state ([`BoolState`]) has each boolean's current and pending value,
//! and each condition's value under the current ones. A commit
//! (`mlte/commit_pending_bools`) makes the pending values current and
//! recomputes the conditions; once no decision made under the old values
//! can still go into the decision cache, the cache is emptied
//! (`policy::commit_bools`).
//!
//! Kernel-independent: no allocation, no panic path.

use core::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

/// Pushes a boolean; the id is in the bits above the code.
pub(crate) const COND_BOOL: u32 = 1;
/// `!`.
pub(crate) const COND_NOT: u32 = 2;
/// `||`.
pub(crate) const COND_OR: u32 = 3;
/// `&&`.
pub(crate) const COND_AND: u32 = 4;
/// `^`.
pub(crate) const COND_XOR: u32 = 5;
/// `==`.
pub(crate) const COND_EQ: u32 = 6;
/// `!=`.
pub(crate) const COND_NEQ: u32 = 7;

/// The most booleans a policy may declare.
pub(crate) const MAX_BOOLS: u32 = 1024;
/// The most conditions (`if` statements) a policy may have.
pub(crate) const MAX_CONDS: u32 = 4096;
/// The most words one condition may have.
pub(crate) const COND_WORDS: usize = 31;
/// The bytes of a condition in the compiled form.
pub(crate) const COND_RECORD: usize = 4 + 4 * COND_WORDS;
/// The deepest a condition's evaluation stack may get, as SELinux's
/// `COND_EXPR_MAXDEPTH`.
const MAX_DEPTH: u32 = 10;

const BOOL_WORDS: usize = MAX_BOOLS as usize / 64;
const COND_VALUE_WORDS: usize = MAX_CONDS as usize / 64;

use super::constraint::word;

/// Checks the condition `ops` (`words` words) for a policy of `bools`
/// booleans: known codes, boolean ids in range, no stack underflow, no
/// deeper than SELinux's limit, one value at the end. On error, the word
/// and what was wrong.
pub(crate) fn check(ops: &[u8], bools: u32) -> Result<(), (usize, &'static str)> {
    let n = ops.len() / 4;
    if n == 0 || n > COND_WORDS || ops.len() % 4 != 0 {
        return Err((0, "condition length out of range (1 to 31 words)"));
    }
    let mut depth = 0u32;
    for i in 0..n {
        let op = word(ops, i).unwrap_or(u32::MAX);
        let pops = match op & 0xff {
            COND_BOOL if op >> 8 < bools => 0,
            COND_BOOL => return Err((i, "condition names a boolean that does not exist")),
            COND_NOT if op >> 8 == 0 => 1,
            COND_OR | COND_AND | COND_XOR | COND_EQ | COND_NEQ if op >> 8 == 0 => 2,
            _ => return Err((i, "unknown condition operation")),
        };
        if depth < pops {
            return Err((i, "condition operation without enough operands"));
        }
        depth = depth - pops + 1;
        if depth > MAX_DEPTH {
            return Err((i, "condition nests deeper than 10"));
        }
    }
    if depth != 1 {
        return Err((n, "condition leaves more than one value"));
    }
    Ok(())
}

/// The value of the checked condition `ops` under `values`; a program
/// [`check`] did not pass yields `false`.
pub(crate) fn eval(ops: &[u8], values: &BoolValues) -> bool {
    let (mut stack, mut depth) = (0u32, 0u32);
    let mut i = 0;
    while let Some(op) = word(ops, i) {
        i = i.wrapping_add(1);
        let value = match op & 0xff {
            COND_BOOL => values.get(op >> 8),
            COND_NOT if depth >= 1 => {
                stack ^= 1;
                continue;
            }
            COND_OR | COND_AND | COND_XOR | COND_EQ | COND_NEQ if depth >= 2 => {
                let (b, a) = (stack & 1 != 0, stack & 2 != 0);
                stack >>= 2;
                depth = depth.wrapping_sub(2);
                match op & 0xff {
                    COND_OR => a || b,
                    COND_AND => a && b,
                    COND_EQ => a == b,
                    // XOR and NEQ.
                    _ => a != b,
                }
            }
            _ => return false,
        };
        if depth >= 32 {
            return false;
        }
        stack = (stack << 1) | u32::from(value);
        depth = depth.wrapping_add(1);
    }
    depth == 1 && stack & 1 != 0
}

/// `64 * W` bits, as `u64` words (bit `i` in word `i / 64`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    /// All clear.
    pub(crate) const NONE: Bits<W> = Bits([0; W]);

    /// Bit `i` (`false` out of range).
    pub(crate) fn get(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 != 0)
    }

    /// Sets bit `i` to `value` (nothing out of range).
    pub(crate) fn set(&mut self, i: u32, value: bool) {
        if let Some(w) = self.0.get_mut(i as usize / 64) {
            let bit = 1u64 << (i % 64);
            if value {
                *w |= bit;
            } else {
                *w &= !bit;
            }
        }
    }
}

/// A value for each boolean (bit `id`).
pub(crate) type BoolValues = Bits<BOOL_WORDS>;

/// The value of each condition (bit `cond`), computed once (the host
/// tests, and the answers for the defaults).
pub(crate) type CondValues = Bits<COND_VALUE_WORDS>;

impl Conds for CondValues {
    fn holds(&self, cond: u32) -> bool {
        self.get(cond)
    }
}

/// What decides whether a conditional rule is in force: the value of each
/// condition.
pub(crate) trait Conds {
    /// Whether condition `cond` holds.
    fn holds(&self, cond: u32) -> bool;
}

/// The conditions a decision is made with: none (a policy without `if`
/// statements: nothing copied), or the values of one commit.
// On the stack of a decision cache miss, where boxing would allocate: the
// small variant is the point (no 512-byte copy without conditions).
#[allow(clippy::large_enum_variant)]
pub(crate) enum CondsNow {
    None,
    Of(CondValues),
}

impl Conds for CondsNow {
    fn holds(&self, cond: u32) -> bool {
        match self {
            CondsNow::None => false,
            CondsNow::Of(values) => values.holds(cond),
        }
    }
}

/// The booleans of a loaded policy: current and pending values, and each
/// condition's value under the current ones. Committed one at a time
/// (`policy.rs`), without preemption; read anywhere. `seq` is odd while a
/// commit writes: a reader that wants all conditions of one commit
/// ([`BoolState::snapshot`]) reads again until it sees the same even
/// count before and after.
pub(crate) struct BoolState {
    current: [AtomicU64; BOOL_WORDS],
    pending: [AtomicU64; BOOL_WORDS],
    conds: [AtomicU64; COND_VALUE_WORDS],
    seq: AtomicU32,
}

impl BoolState {
    /// The state of `values` as current and pending, with `conds` their
    /// conditions' values.
    pub(crate) fn new(values: &BoolValues, conds: &CondValues) -> BoolState {
        BoolState {
            current: values.0.map(AtomicU64::new),
            pending: values.0.map(AtomicU64::new),
            conds: conds.0.map(AtomicU64::new),
            seq: AtomicU32::new(0),
        }
    }

    fn load(words: &[AtomicU64; BOOL_WORDS]) -> BoolValues {
        let mut out = BoolValues::default();
        for (o, w) in out.0.iter_mut().zip(words) {
            *o = w.load(Ordering::Acquire);
        }
        out
    }

    /// The current values.
    pub(crate) fn current(&self) -> BoolValues {
        Self::load(&self.current)
    }

    /// The pending values (those a commit makes current).
    pub(crate) fn pending(&self) -> BoolValues {
        Self::load(&self.pending)
    }

    /// Sets boolean `id`'s pending value.
    pub(crate) fn set_pending(&self, id: u32, value: bool) {
        if let Some(w) = self.pending.get(id as usize / 64) {
            let bit = 1u64 << (id % 64);
            if value {
                w.fetch_or(bit, Ordering::AcqRel);
            } else {
                w.fetch_and(!bit, Ordering::AcqRel);
            }
        }
    }

    /// Makes `values` current, with `conds` their conditions' values. The
    /// caller then empties the decision cache.
    pub(crate) fn commit(&self, values: &BoolValues, conds: &CondValues) {
        let seq = self.seq.load(Ordering::Relaxed);
        self.seq.store(seq.wrapping_add(1), Ordering::Relaxed);
        // The odd count is seen before any store that follows.
        fence(Ordering::Release);
        for (w, v) in self.conds.iter().zip(conds.0) {
            w.store(v, Ordering::Relaxed);
        }
        for (w, v) in self.current.iter().zip(values.0) {
            w.store(v, Ordering::Relaxed);
        }
        self.seq.store(seq.wrapping_add(2), Ordering::Release);
    }

    /// The values of conditions `0..count`, all of one commit (SELinux's
    /// decisions read one evaluated policy): copied, and copied again if a
    /// commit wrote meanwhile.
    pub(crate) fn snapshot(&self, count: u32) -> CondValues {
        let words = (count as usize).div_ceil(64).min(COND_VALUE_WORDS);
        let mut out = CondValues::NONE;
        loop {
            let seq = self.seq.load(Ordering::Acquire);
            if seq & 1 != 0 {
                core::hint::spin_loop();
                continue;
            }
            for (o, w) in out.0.iter_mut().zip(&self.conds).take(words) {
                *o = w.load(Ordering::Relaxed);
            }
            fence(Ordering::Acquire);
            if self.seq.load(Ordering::Relaxed) == seq {
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prog(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn b(id: u32) -> u32 {
        COND_BOOL | id << 8
    }

    #[test]
    fn conditions_evaluate_as_selinux() {
        let mut v = BoolValues::default();
        v.set(0, true);
        v.set(2, true);
        for (words, want) in [
            (&[b(0)][..], true),
            (&[b(1)][..], false),
            (&[b(1), COND_NOT][..], true),
            (&[b(0), b(1), COND_OR][..], true),
            (&[b(0), b(1), COND_AND][..], false),
            (&[b(0), b(2), COND_XOR][..], false),
            (&[b(0), b(2), COND_EQ][..], true),
            (&[b(0), b(1), COND_NEQ][..], true),
            (&[b(0), b(1), COND_AND, COND_NOT, b(2), COND_AND][..], true),
        ] {
            let p = prog(words);
            assert_eq!(check(&p, 3), Ok(()), "{words:?}");
            assert_eq!(eval(&p, &v), want, "{words:?}");
        }
    }

    #[test]
    fn bad_conditions_are_refused_and_false() {
        let v = BoolValues::default();
        let deep: Vec<u32> = (0..11).map(|_| b(0)).collect();
        for words in [
            &[][..],
            &[b(3)][..],
            &[COND_NOT][..],
            &[b(0), COND_AND][..],
            &[b(0), b(0)][..],
            &[9][..],
            &[COND_NOT | 1 << 8][..],
            &deep[..],
        ] {
            let p = prog(words);
            assert!(check(&p, 3).is_err(), "{words:?}");
            assert!(!eval(&p, &v) || words.len() == 1, "{words:?}");
        }
        let long: Vec<u32> = (0..32).map(|_| COND_NOT).collect();
        assert!(check(&prog(&long), 3).is_err());
    }

    #[test]
    fn state_commits_pending_values() {
        let mut v = BoolValues::default();
        v.set(5, true);
        let mut c = CondValues::NONE;
        c.set(7, true);
        let s = BoolState::new(&v, &c);
        assert!(s.snapshot(8).holds(7) && !s.snapshot(8).holds(6));
        s.set_pending(5, false);
        s.set_pending(1000, true);
        assert!(s.current().get(5) && !s.pending().get(5) && s.pending().get(1000));
        let (p, none) = (s.pending(), CondValues::NONE);
        s.commit(&p, &none);
        assert_eq!(s.current(), p);
        assert!(!s.snapshot(8).holds(7));
    }
}
