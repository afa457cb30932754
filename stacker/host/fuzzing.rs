// SPDX-License-Identifier: GPL-2.0

//! Fuzz entry points: one per parser that takes input from outside the
//! kernel (the boot command line, securityfs writes, xattrs).
//!
//! Each calls the real parser, the code the kernel runs, and asserts its
//! invariants: no panic; errors point inside the input; where a parse has a
//! canonical text form, that text parses back to the same value. The
//! `fuzz/` cargo-fuzz project calls them (one target each), and a host test
//! (`tests::fuzz_corpus_replays`) replays the committed corpus through them,
//! so that `cargo test` needs neither nightly nor the fuzzer.
//!
//! Not an API: the names and the split between targets may change.

use crate::attribute::{check_write, WriterCaps};
use crate::capstack::policy::{Policy as CapPolicy, MAX_CANONICAL};
use crate::chain::{BootState, ChainSpec, Reject, MAX_REJECTS};
use crate::integrity::{formats, rules};
use crate::mlte::category::CategorySet;
use crate::mlte::classes::Class;
use crate::mlte::compiled::{Checked, Compiled, Computation, InitialSid};
use crate::mlte::context::{Context, ContextView};
use crate::mlte::level::Level;
use crate::mlte::{policy as mlte_policy, policy_text};
use crate::name_rule::{NameRule, NAME_MAX};
use crate::registry::{HOOK_SETS, NAMES, REQUESTS};
use std::sync::OnceLock;

/// The fuzz targets, by name: the directory names under `fuzz/corpus/` and
/// the `fuzz/fuzz_targets/*.rs` files.
pub const TARGETS: &[(&str, fn(&[u8]))] = &[
    ("chain", chain),
    ("capstack_policy", capstack_policy),
    ("mlte_policy_text", mlte_policy_text),
    ("mlte_compiled", mlte_compiled),
    ("mlte_context", mlte_context),
    ("integrity_policy", integrity_policy),
    ("integrity_xattr", integrity_xattr),
    ("denyname_rule", denyname_rule),
    ("securityfs_write", securityfs_write),
];

/// Drops the log lines a call made (`pr_warn!` on the host appends to a
/// per-thread list, which would grow without bound under a fuzzer).
fn drop_log() {
    let _ = crate::platform::take_log();
}

/// `stacker.chain=`: [`ChainSpec::parse`] with the host's registry, then
/// [`BootState::new`] on the result.
pub fn chain(data: &[u8]) {
    let spec = ChainSpec::parse(data, NAMES);
    let order = spec.order();
    for (i, &m) in order.iter().enumerate() {
        assert!(usize::from(m) < NAMES.len(), "index out of the registry");
        assert!(!order[..i].contains(&m), "a submodule twice in the chain");
        assert!(spec.contains(usize::from(m)));
    }
    let rejected = spec.rejected();
    assert!(rejected.len() <= MAX_REJECTS);
    for r in rejected {
        assert!(
            r.start < r.end && r.end <= data.len(),
            "reject outside the input"
        );
        let name = &data[r.start..r.end];
        assert!(!name.contains(&b','), "a rejected name spans a comma");
        let trim = |b: &u8| *b == b' ' || *b == b'\n';
        assert!(!trim(&name[0]) && !trim(&name[name.len() - 1]));
        let known = NAMES.iter().position(|n| *n == name);
        match r.why {
            Reject::Unknown => assert!(known.is_none(), "a known name rejected as unknown"),
            Reject::Repeated => {
                let i = known.expect("a repeated name is known");
                assert!(spec.contains(i), "a repeated name that is not in the chain");
            }
        }
    }
    // The canonical form: the accepted names, comma-separated.
    let canonical = order
        .iter()
        .map(|&m| NAMES[usize::from(m)])
        .collect::<Vec<_>>()
        .join(&b","[..]);
    let again = ChainSpec::parse(&canonical, NAMES);
    assert_eq!(
        again.order(),
        order,
        "the canonical chain parses differently"
    );
    assert!(again.rejected().is_empty() && !again.rejects_truncated);
    if let Ok(state) = BootState::new(spec, REQUESTS, HOOK_SETS) {
        for &h in crate::hook::Hook::ALL {
            let per_hook = state.order(h);
            // Chain order, only enabled submodules.
            let mut last = None;
            for &m in per_hook {
                let at = order
                    .iter()
                    .position(|&o| o == m)
                    .expect("hook order in chain");
                assert!(last.is_none_or(|l| l < at), "hook order is not chain order");
                last = Some(at);
            }
            assert_eq!(state.wants(h), !per_hook.is_empty());
        }
    }
}

/// A capstack policy text as `canonical` text.
fn cap_canonical(p: &CapPolicy) -> String {
    let mut out = String::new();
    p.write_canonical(&mut out)
        .expect("formatting into a String");
    out
}

/// capstack's policy language: [`CapPolicy::parse_into`]; the canonical
/// form of what parses fits one write and parses to the same policy.
pub fn capstack_policy(data: &[u8]) {
    let mut p = CapPolicy::EMPTY;
    match p.parse_into(data) {
        Ok(()) => {
            let text = cap_canonical(&p);
            assert!(
                text.len() <= MAX_CANONICAL,
                "canonical form longer than a write"
            );
            let mut again = CapPolicy::EMPTY;
            again
                .parse_into(text.as_bytes())
                .unwrap_or_else(|e| panic!("canonical form refused: {e:?}\n{text}"));
            assert_eq!(cap_canonical(&again), text, "canonical form is not stable");
            assert_eq!(again.permissive, p.permissive);
            assert_eq!(again.rules().len(), p.rules().len());
            for (a, b) in again.rules().iter().zip(p.rules()) {
                assert_eq!(
                    (a.only, a.caps, a.kind, a.lo, a.hi, a.label()),
                    (b.only, b.caps, b.kind, b.lo, b.hi, b.label())
                );
            }
        }
        Err(e) => {
            let lines = data.split(|&b| b == b'\n').count();
            assert!(
                e.line >= 1 && e.line as usize <= lines,
                "error line outside the input"
            );
        }
    }
}

/// Whether 1-based `line`:`col` is inside `text` or just past the end of
/// one of its lines.
fn pos_inside(text: &[u8], line: u32, col: u32) -> bool {
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    line >= 1
        && (line as usize) <= lines.len()
        && col >= 1
        && (col as usize) <= lines[line as usize - 1].len() + 1
}

/// mlte's policy language (host side: the `mlte-policy` tool): what
/// parses compiles, and its compiled form passes the kernel's checker.
pub fn mlte_policy_text(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    match policy_text::parse(text) {
        Ok(p) => {
            // The compiler may refuse (limits); what it makes must pass.
            if let Ok(bytes) = p.compile() {
                if let Err(e) = Checked::new(&bytes[..]) {
                    panic!("compiled form fails the checker at {}: {}", e.at, e.why);
                }
                exercise_compiled(&Checked::new(&bytes[..]).unwrap().view());
            }
        }
        Err(e) => assert!(
            pos_inside(data, e.pos.line, e.pos.col),
            "error position {}:{} outside the input",
            e.pos.line,
            e.pos.col
        ),
    }
}

/// Calls the lookups of a checked policy with ids in and out of range.
fn exercise_compiled(view: &Compiled<'_>) {
    let types = view.types();
    assert!(types >= 1);
    for ty in 0..types.min(16) {
        let name = view.type_name(ty);
        let id = view.type_id(name).expect("a type's own name");
        assert_eq!(
            id, ty,
            "type names are unique: type_id finds the type itself"
        );
    }
    assert!(view.type_name(types).is_empty());
    let sids = [InitialSid::Kernel, InitialSid::File, InitialSid::Unlabeled]
        .map(|s| view.sid_view(s).context);
    let classes = Class::ALL;
    // The conditions under the declared booleans, as a load computes them.
    let conds = view.cond_values(&view.default_bools());
    for id in 0..view.bool_count() {
        assert_eq!(
            view.bool_id(view.bool_name(id)),
            Some(id),
            "boolean names are unique"
        );
    }
    // And with every boolean flipped.
    let mut flipped_bools = view.default_bools();
    for id in 0..view.bool_count() {
        flipped_bools.set(id, !flipped_bools.get(id));
    }
    let flipped = view.cond_values(&flipped_bools);
    for s in &sids {
        assert!(s.ty < types, "a sid's type out of range");
        assert!(view.validate(s).is_ok(), "a sid's context is not valid");
        let _ = view.permissive(s.ty);
        for o in &sids {
            for &class in &classes {
                for c in [&conds, &flipped] {
                    let _ = view.allowed(s.ty, o.ty, class, c);
                    let _ = view.auditallow(s.ty, o.ty, class, c);
                    let _ = view.dontaudit(s.ty, o.ty, class, c);
                }
                let _ = view.validate_transition(s, o, s, class);
                let _ = view.allowed(s.ty, o.ty, class, &conds);
                let _ = view.denied(s, o, class, u32::MAX, &conds);
                for how in [
                    Computation::Create { name: None },
                    Computation::Create { name: Some(b"a") },
                    Computation::Relabel,
                    Computation::Member,
                ] {
                    let new = view.new_context(s, o, class, how);
                    assert!(new.ty < types, "a new context's type out of range");
                    assert!(new.role < view.roles(), "a new context's role out of range");
                    assert!(new.user < view.users(), "a new context's user out of range");
                    assert!(
                        view.level_allowed(new.low()) && view.level_allowed(new.high()),
                        "a new context's level not allowed"
                    );
                }
            }
        }
        let _ = view.allowed(types, s.ty, Class::File, &conds);
        let _ = view.allowed(s.ty, u32::MAX, Class::File, &conds);
    }
}

/// mlte's compiled form, as written to `mlte/policy`: the kernel's checker
/// ([`Checked::new`]); on success, every lookup stays in bounds; then the
/// loader ([`mlte_policy::load`]).
pub fn mlte_compiled(data: &[u8]) {
    match Checked::new(data) {
        Ok(checked) => exercise_compiled(&checked.view()),
        Err(e) => assert!(e.at <= data.len(), "error offset {} past the end", e.at),
    }
    let _ = mlte_policy::load(&crate::harness::cx(), data);
    drop_log();
}

/// The example policy, compiled: the policy contexts are parsed against.
fn example_policy() -> &'static Checked<Vec<u8>> {
    static POLICY: OnceLock<Checked<Vec<u8>>> = OnceLock::new();
    POLICY.get_or_init(|| {
        let text = include_str!("../../modules/mlte/example.policy");
        let bytes = crate::mlte_compile(text)
            .expect("the example policy compiles")
            .1;
        Checked::new(bytes).unwrap_or_else(|_| panic!("the example policy passes"))
    })
}

/// mlte's contexts (`TYPE:LEVEL`, as in `security.mlte` and the `context`
/// files), levels and category sets: [`Context::parse`] against the
/// example policy, [`Level::parse`], [`CategorySet::parse`]; each shown
/// form parses back to the same value.
pub fn mlte_context(data: &[u8]) {
    let view = example_policy().view();
    if let Ok(ctx) = Context::parse(data, &view) {
        let shown = ctx.show(&view).to_string();
        let again = Context::parse(shown.as_bytes(), &view).expect("a shown context parses");
        assert_eq!(again, ctx, "a context does not round-trip: {shown}");
    }
    match Level::parse(data) {
        Ok(level) => {
            let shown = level.to_string();
            assert_eq!(Level::parse(shown.as_bytes()), Ok(level), "{shown}");
        }
        Err(e) => assert!(e.at <= data.len(), "level error offset past the end"),
    }
    match CategorySet::parse(data) {
        Ok(set) => {
            let shown = set.to_string();
            assert_eq!(CategorySet::parse(shown.as_bytes()), Ok(set), "{shown}");
        }
        Err(e) => assert!(e.at <= data.len(), "category error offset past the end"),
    }
}

/// An empty integrity policy.
fn integrity_empty() -> Box<rules::Policy> {
    // SAFETY: all zero is a valid `Policy` (the empty one).
    unsafe { Box::new_zeroed().assume_init() }
}

fn integrity_text(p: &rules::Policy) -> String {
    let mut out = String::new();
    p.write_text(&mut out).expect("formatting into a String");
    out
}

/// The integrity policy language ([`rules::parse_into`]): errors point
/// inside the input; the text a read shows parses to the same policy.
pub fn integrity_policy(data: &[u8]) {
    let mut p = integrity_empty();
    match rules::parse_into(data, &mut p) {
        Ok(()) => {
            let text = integrity_text(&p);
            let mut again = integrity_empty();
            rules::parse_into(text.as_bytes(), &mut again)
                .unwrap_or_else(|e| panic!("the policy's own text is refused: {e}\n{text}"));
            assert_eq!(integrity_text(&again), text, "the text is not stable");
            assert_eq!(again.rules().len(), p.rules().len());
        }
        Err(e) => assert!(
            pos_inside(data, e.line, e.col),
            "error position {}:{} outside the input",
            e.line,
            e.col
        ),
    }
}

/// integrity's xattr formats: `security.ima` ([`formats::parse_ima`]) and
/// `security.evm` ([`formats::parse_evm`]), each fed the whole input.
pub fn integrity_xattr(data: &[u8]) {
    match formats::parse_ima(data) {
        Ok(formats::ImaXattr::Digest(d)) => {
            assert_eq!(data.len(), 2 + d.len());
            assert_eq!(&data[2..], &d[..]);
        }
        Ok(formats::ImaXattr::Signature { sig, .. }) => {
            assert!(!sig.is_empty());
            assert!(data.ends_with(sig));
        }
        Err(why) => assert!(why.starts_with("security.ima")),
    }
    match formats::parse_evm(data) {
        Ok(hmac) => assert_eq!(&formats::evm_value(hmac)[..], data),
        Err(why) => assert!(why.starts_with("security.evm")),
    }
}

/// denyname's rule ([`NameRule::parse`], what `denyname/name` takes): what
/// it keeps is the input less one newline, and reads back to the same rule.
pub fn denyname_rule(data: &[u8]) {
    if let Ok(rule) = NameRule::parse(data) {
        let name = rule.as_bytes();
        assert!(name.len() <= NAME_MAX);
        assert!(data == name || data.strip_suffix(b"\n") == Some(name));
        assert!(!name.contains(&b'/') && !name.contains(&0) && !name.contains(&b'\n'));
        assert_eq!(NameRule::parse(name), Ok(rule));
        assert_eq!(rule.is_set(), !name.is_empty());
        assert!(!rule.is_set() || rule.matches(name));
    }
}

/// The host's capstack boot, for [`securityfs_write`]: once per thread,
/// and kept (the files live in the platform's per-thread table).
fn capstack_booted() {
    thread_local! {
        static BOOTED: core::cell::OnceCell<crate::harness::Harness> =
            const { core::cell::OnceCell::new() };
    }
    BOOTED.with(|b| {
        b.get_or_init(|| crate::harness::Harness::boot("capstack").expect("capstack boots"));
    });
}

/// The securityfs write path: the first byte picks the file, the writer's
/// capabilities and the offset; the rest is the value. The write goes
/// through [`check_write`] and then the file's `store`, as in the kernel:
/// capstack's `policy` through the host's securityfs table; mlte's `policy`
/// ([`mlte_policy::load`]), integrity's `policy` and denyname's `name`
/// through their parsers. A capstack policy that was taken reads back as
/// text that is taken again and reads back the same.
pub fn securityfs_write(data: &[u8]) {
    let Some((&sel, value)) = data.split_first() else {
        return;
    };
    let caps = WriterCaps {
        opener: sel & 0x10 == 0,
        writer: sel & 0x20 == 0,
    };
    let pos = if sel & 0x40 == 0 {
        0
    } else {
        1 + i64::from(sel >> 7)
    };
    match sel & 0x3 {
        0 => {
            capstack_booted();
            let path = "stacker/capstack/policy";
            let before = crate::platform::read_file(path).expect("policy reads");
            match crate::platform::write_file_at(path, value, caps, pos) {
                Ok(end) => {
                    assert_eq!(end, pos + value.len() as i64);
                    let shown = crate::platform::read_file(path).expect("policy reads");
                    crate::platform::write_file(path, &shown, true)
                        .expect("what reads back is taken");
                    assert_eq!(
                        crate::platform::read_file(path).expect("policy reads"),
                        shown
                    );
                }
                Err(_) => {
                    let after = crate::platform::read_file(path).expect("policy reads");
                    assert_eq!(after, before, "a refused write changed the policy");
                }
            }
        }
        1 => {
            if check_write("policy", caps, pos, value.len(), 8 << 20).is_ok() {
                let _ = mlte_policy::load(&crate::harness::cx(), value);
            }
        }
        2 => {
            if check_write("policy", caps, pos, value.len(), 64 << 10).is_ok() {
                integrity_policy(value);
            }
        }
        _ => {
            if check_write("name", caps, pos, value.len(), 4096).is_ok() {
                denyname_rule(value);
            }
        }
    }
    drop_log();
}
