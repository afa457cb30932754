// SPDX-License-Identifier: GPL-2.0

//! Loops for measuring dispatch cost (`dispatch-bench`) and the category
//! check of `mlte` (`category-bench`) with callgrind.
//!
//! Each loop calls the `capable` hook `iters` times, either through the
//! chain's dispatch function or straight into one submodule's method (the
//! baseline), and is `#[inline(never)]` so that callgrind can count its
//! instructions alone (`--toggle-collect`).

use crate::dispatch::{End, Loop, Then};
use crate::harness::Harness;
use crate::mlte::category::{CategorySet, MAX_CATEGORIES};
use crate::objects::Cred;
use crate::submodule::Submodule;
use std::hint::black_box;

/// Boots `chain`. Panics on a bad chain: this is a benchmark driver, not
/// a hook.
pub fn boot(chain: &str) {
    Harness::boot(chain).expect("benchmark chain lays out");
}

/// How `chain_loop` dispatches.
#[derive(Clone, Copy)]
pub enum Tier {
    /// The loop over the booted chain's order.
    Loop,
    /// `nop_a` alone, as its own entry points.
    Single,
    /// `nop_a,nop_b` as a straight-line chain.
    Straight2,
    /// `nop_a,nop_b,nop_c` as a straight-line chain.
    Straight3,
}

type Nop<const I: usize> = crate::nop::Nop<I>;
type Single = Then<Nop<0>, End>;
type Straight2 = Then<Nop<0>, Then<Nop<1>, End>>;
type Straight3 = Then<Nop<0>, Then<Nop<1>, Then<Nop<2>, End>>>;

/// Calls `capable` `iters` times through chain `T`.
#[inline(always)]
fn calls<T: crate::dispatch::Tier>(iters: u64) -> u64 {
    let cred = Cred::new(0);
    let mut denied = 0;
    for _ in 0..iters {
        denied += u64::from(
            crate::dispatch::capable::<T>(black_box(&cred), true, black_box(21), 0).is_err(),
        );
    }
    denied
}

/// Calls `capable` through the booted chain `iters` times, in `tier`.
#[inline(never)]
pub fn chain_loop(tier: Tier, iters: u64) -> u64 {
    match tier {
        Tier::Loop => calls::<Loop>(iters),
        Tier::Single => calls::<Single>(iters),
        Tier::Straight2 => calls::<Straight2>(iters),
        Tier::Straight3 => calls::<Straight3>(iters),
    }
}

/// Calls one no-op submodule's `capable` directly `iters` times.
#[inline(never)]
pub fn direct_loop(iters: u64) -> u64 {
    let cred = Cred::new(0);
    let module = black_box(&crate::nop::Nop::<0>);
    let mut denied = 0;
    for _ in 0..iters {
        denied += u64::from(
            module
                .capable(black_box(&cred), true, black_box(21), 0)
                .is_err(),
        );
    }
    denied
}

/// Two sets of all 1024 categories: containment holds, so both checks
/// must look at every category (the worst case, and the common one for a
/// process cleared for everything).
fn full_sets() -> (CategorySet, CategorySet) {
    let mut all = CategorySet::EMPTY;
    all.insert_range(0, MAX_CATEGORIES - 1);
    (all, all)
}

/// Checks containment of two 1024-category sets `iters` times, word by
/// word (`CategorySet::contains`, the code the submodule runs). Returns how
/// many checks failed (0).
#[inline(never)]
pub fn category_loop(iters: u64) -> u64 {
    let (a, b) = full_sets();
    let mut failed = 0;
    for _ in 0..iters {
        failed += u64::from(!black_box(&a).contains(black_box(&b)));
    }
    failed
}

/// The same check bit by bit, as SELinux's `ebitmap_contains` once walked
/// its bitmaps: the reference the word-wise check is measured against.
#[inline(never)]
pub fn category_bitwise_loop(iters: u64) -> u64 {
    let (a, b) = full_sets();
    let mut failed = 0;
    for _ in 0..iters {
        let (a, b) = (black_box(&a), black_box(&b));
        let mut ok = true;
        for c in 0..MAX_CATEGORIES {
            if b.has(c) && !a.has(c) {
                ok = false;
                break;
            }
        }
        failed += u64::from(!ok);
    }
    failed
}

/// A compiled policy of `types` types where each type may read four
/// others' files, with the Bell-LaPadula read constraint, for
/// [`decision_loop`].
fn decision_policy(types: usize) -> Vec<u8> {
    let mut text = String::from(
        "sensitivity s0; sensitivity s1; category c0; category c1023;\n\
         level s0:c0,c1023; level s1:c0,c1023;\n\
         ",
    );
    for t in 0..types {
        text += &format!("type t{t};\n");
    }
    for t in 0..types {
        for k in 0..4 {
            text += &format!("allow t{t} t{} : file read;\n", (t * 7 + 3 + k) % types);
        }
    }
    // Bell-LaPadula with the exemptions a real policy has (a trusted
    // subject type, a trusted object type), as tests/bench/mlte/.
    text += "mlsconstrain file { read } l1 dom l2 or t1 == t0 or t2 == t1;\n\
             mlsconstrain file { write append } l1 eq l2 or t1 == t0 or t2 == t1;\n\
             user u roles object_r level s0 range s0 - s1:c0,c1023;\n\
             sid kernel u:object_r:t0:s0; sid file u:object_r:t0:s0;\n\
             sid unlabeled u:object_r:t0:s0;\n";
    crate::mlte::policy_text::parse(&text)
        .expect("benchmark policy parses")
        .compile()
        .expect("benchmark policy compiles")
}

/// Makes `iters` whole access decisions as a hook does when the decision
/// cache misses: both SIDs read from their labels, their contexts from the
/// SID table, then `Compiled::denied` (the rule search, then the class's
/// `mlsconstrain`, whose level test compares two 1024-category sets), in a
/// checked compiled policy of 512 types and 2,048 rules. Returns how many
/// were allowed.
#[inline(never)]
pub fn decision_loop(iters: u64) -> u64 {
    use crate::mlte::booleans::CondValues;
    use crate::mlte::classes::{perm, Class};
    use crate::mlte::compiled::InitialSid;
    use crate::mlte::label::Label;
    use crate::mlte::level::Level;
    use crate::mlte::sidtab::{self, StoredContext};
    const READ: u32 = perm(Class::File, "read");
    let bytes = decision_policy(512);
    let checked = crate::mlte::compiled::Checked::new(&bytes[..]).expect("benchmark policy checks");
    let policy = checked.view();
    let level = |text: &str| Level::parse(text.as_bytes()).expect("benchmark level parses");
    let (high, low) = (level("s1:c0,c1023"), level("s0:c0"));
    let labels: Vec<(Label, Label)> = (0..512u32)
        .map(|t| {
            let (s, o) = (Label::default(), Label::default());
            // The policy's ids stand for global ones here: the policy is
            // not loaded, only checked. User 0 is `u`, role 0 `object_r`.
            let intern = |ty: u32, level| {
                let ctx = StoredContext::new(0, 0, ty, level, level);
                sidtab::intern(&crate::harness::cx(), &ctx).ok()
            };
            s.set(intern(t, high));
            o.set(intern((t * 7 + 3) % 512, low));
            (s, o)
        })
        .collect();
    let kernel = policy.sid_view(InitialSid::Kernel).context;
    let fallback =
        &StoredContext::new(kernel.user, kernel.role, kernel.ty, kernel.low, kernel.high);
    let mut allowed = 0;
    for i in 0..iters {
        let (s, o) = &labels[(i % 512) as usize];
        let context = |label: &Label| label.get().and_then(sidtab::stored).unwrap_or(fallback);
        let (s, o) = (context(black_box(s)), context(black_box(o)));
        let denied = black_box(&policy).denied(s, o, Class::File, READ, &CondValues::NONE);
        allowed += u64::from(denied == 0);
    }
    allowed
}

/// Makes `iters` access decisions as a hook does, through the decision
/// cache of the loaded policy (`Policy::allowed`, in one
/// [`crate::mlte::policy::with`]), cycling over `pairs` (at most 8,192)
/// (subject SID, object SID) pairs: with a few pairs every decision is a
/// cache hit; with four times more pairs than the cache has entries
/// (2,048) nearly every one is a miss that resolves both SIDs under the
/// policy and computes the decision (the worst case, the cache thrashed). The policy
/// is [`decision_policy`]'s, loaded. Returns how many were allowed.
#[inline(never)]
pub fn cached_decision_loop(iters: u64, pairs: u32) -> u64 {
    use crate::mlte::classes::{perm, Class};
    use crate::mlte::context::Context;
    use crate::mlte::level::Level;
    use crate::mlte::policy;
    use crate::mlte::sidtab::{self, Sid};
    const READ: u32 = perm(Class::File, "read");
    let cx = crate::harness::cx();
    policy::load(&cx, &decision_policy(512)).expect("benchmark policy loads");
    let level = |text: &str| Level::parse(text.as_bytes()).expect("benchmark level parses");
    // Subjects at s1 with c0 (and c1023 or not), objects at s0 (with c0
    // or not): every pair reads down, so every decision runs the rules and
    // the constraint. Four level combinations and four objects per type:
    // up to 8,192 distinct pairs.
    let subjects = [level("s1:c0,c1023"), level("s1:c0")];
    let objects = [level("s0:c0"), level("s0")];
    let stored = |ty: u32, level: Level| {
        let ctx = Context {
            user: 0,
            role: 0,
            ty,
            low: level,
            high: level,
        };
        policy::with(|p| p.map(|p| p.store(&ctx))).expect("benchmark policy is loaded")
    };
    let sid = |ty: u32, level: Level| -> Sid {
        sidtab::intern(&cx, &stored(ty, level)).expect("benchmark context interns")
    };
    let table: Vec<(Sid, Sid)> = (0..pairs.min(8192))
        .map(|i| {
            let t = i % 512;
            let (sl, ol, k) = ((i / 512) % 2, (i / 1024) % 2, i / 2048);
            (
                sid(t, subjects[sl as usize]),
                sid((t * 7 + 3 + k) % 512, objects[ol as usize]),
            )
        })
        .collect();
    // One read-side section around the loop: the host's model of RCU
    // costs far more than the kernel's (a preemption count), and would
    // swamp the figure.
    let table = &table;
    policy::with(move |p| {
        let p = p.expect("benchmark policy is loaded");
        let mut allowed = 0;
        for i in 0..iters {
            let (s, o) = table[(i % table.len() as u64) as usize];
            let vector = black_box(p).allowed_quietly(black_box(s), black_box(o), Class::File);
            allowed += u64::from(vector & READ != 0);
        }
        allowed
    })
}
