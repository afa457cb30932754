// SPDX-License-Identifier: GPL-2.0

//! Host build of stacker: the core, the submodules, and a test harness.
//!
//! The kernel compiles the same core files (the one list in
//! `stacker/core/modules.rs`) and submodules into its stacker crate
//! (`stacker_main.rs`). Here they are
//! compiled against in-memory objects (`host/objects.rs`) so that
//! `cargo test` runs the real dispatch, layout and submodule code.

// Outside `cargo test` the harness that calls the hooks has no caller, so
// most of the crate is unused there. The test build is checked: what only
// the kernel build uses says so where it is declared.
#![cfg_attr(not(test), allow(dead_code))]

// The kernel-independent core.
include!("../core/modules.rs");

mod error;
mod objects;

// One compile-fail case (tests/compile_fail/run.py): the file that
// STACKER_COMPILE_FAIL_CASE names, compiled as a module of this crate, so
// that it sees the crate's own items as a submodule's code would.
#[cfg(stacker_compile_fail)]
mod compile_fail_case {
    include!(env!("STACKER_COMPILE_FAIL_CASE"));
}
mod platform;

#[cfg(test)]
mod ioctl_rule;
mod nop;
#[path = "../../modules/probe/probe.rs"]
mod probe;
mod recorder;
#[path = "../../modules/xattrlock/xattrlock.rs"]
mod xattrlock;

#[path = "../../capstack/mod.rs"]
mod capstack;

#[path = "../../modules/mlte/mod.rs"]
mod mlte;

#[path = "../../modules/integrity/mod.rs"]
mod integrity;

/// The names of the xattrs an integrity HMAC covers, in order.
pub const EVM_XATTRS: [&str; 7] = integrity::formats::EVM_XATTRS;

/// An HMAC-SHA256 on the host, fed by the kernel's layout code.
struct HostHmac(hmac::Hmac<sha2::Sha256>);

impl integrity::formats::Sink for HostHmac {
    fn update(&mut self, bytes: &[u8]) {
        hmac::Mac::update(&mut self.0, bytes);
    }
}

/// The `security.evm` value the integrity submodule expects for a file
/// with inode number `ino`, `generation`, owner `uid`:`gid`, `mode`, on
/// the file system `uuid`, with the xattr values `xattrs` (by name; names
/// it does not cover are ignored), under the HMAC key `key`: computed by
/// the same layout code the kernel runs.
#[allow(clippy::too_many_arguments)]
pub fn evm_xattr(
    key: &[u8],
    ino: u64,
    generation: u32,
    uid: u32,
    gid: u32,
    mode: u16,
    uuid: [u8; 16],
    xattrs: &[(String, Vec<u8>)],
) -> Vec<u8> {
    let meta = integrity::formats::EvmInput {
        ino,
        generation,
        uid,
        gid,
        mode,
        uuid,
    };
    let mac = <hmac::Hmac<sha2::Sha256> as hmac::Mac>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
    let mut sink = HostHmac(mac);
    meta.feed(&mut sink, |name, sink| {
        if let Some((_, v)) = xattrs.iter().find(|(n, _)| n == name) {
            integrity::formats::Sink::update(sink, v);
        }
    });
    let tag: [u8; 32] = hmac::Mac::finalize(sink.0).into_bytes().into();
    integrity::formats::evm_value(&tag).to_vec()
}

/// Checks an `mlte` policy text (the `mlte-policy` tool): a summary, or the
/// first error as `LINE:COL: message`.
pub fn mlte_check(text: &str) -> Result<String, String> {
    mlte_compile(text).map(|(summary, _)| summary)
}

/// mlte's classes, one line each: the class's name, then its permissions
/// in bit order (`modules/mlte/classes.rs`), for the test generators.
pub fn mlte_classes() -> String {
    mlte::classes::CLASSES
        .iter()
        .map(|(class, perms)| format!("{class} {}\n", perms.join(" ")))
        .collect()
}

/// Compiles an `mlte` policy text: a summary and the compiled form, checked
/// by the kernel's checker, or the first error.
pub fn mlte_compile(text: &str) -> Result<(String, Vec<u8>), String> {
    let p = mlte::policy_text::parse(text).map_err(|e| e.to_string())?;
    let bytes = p.compile().map_err(|e| format!(" {e}"))?;
    mlte::compiled::Checked::new(&bytes[..]).map_err(|e| {
        format!(
            " the compiled form fails its check at byte {}: {}",
            e.at, e.why
        )
    })?;
    let summary = format!(
        "ok: {} types, {} allow rules, {} type transitions ({} by name, {} type changes, {} \
         type members, {} range transitions), {} auditallow and {} dontaudit rules, {} \
         permissive types, {} booleans, {} if statements ({} conditional rules), {} \
         sensitivities, {} categories, {} levels, {} constraints, {} validatetrans, {} fs_use \
         and {} genfscon statements; compiled: {} bytes",
        p.types.len(),
        p.allow.len(),
        p.transitions.len(),
        p.name_transitions.len(),
        p.type_changes.len(),
        p.type_members.len(),
        p.range_transitions.len(),
        p.auditallow.len(),
        p.dontaudit.len(),
        p.permissive.len(),
        p.bools.len(),
        p.conds.len(),
        p.cond_rules.len(),
        p.sensitivities.len(),
        p.categories.len(),
        p.levels.len(),
        p.constraints.len(),
        p.validatetrans.len(),
        p.fs_uses.len(),
        p.genfs.len(),
        bytes.len()
    );
    let summary = if p.left_out == 0 {
        summary
    } else {
        format!(
            "{summary}; {} rules name classes mlte does not mediate (those parts left out)",
            p.left_out
        )
    };
    Ok((summary, bytes))
}

// denyname is kernel-only (it uses kernel locks); its rule parser is not,
// but what only denyname reads of it is unused here.
#[allow(dead_code)]
#[path = "../../modules/denyname/name_rule.rs"]
mod name_rule;

/// The compiled-in submodules of the host build.
mod registry {
    use crate::capstack::Capstack;
    use crate::integrity::hooks::Integrity;
    use crate::mlte::hooks::Mlte;
    use crate::nop::Nop;
    use crate::probe::Probe;
    use crate::recorder::Recorder;
    use crate::xattrlock::XattrLock;

    crate::dispatch::define_registry! {
        [all()] XATTRLOCK: XattrLock<0> = XattrLock;
        [all()] XATTRLOCK_B: XattrLock<1> = XattrLock;
        [all()] XATTRLOCK_C: XattrLock<2> = XattrLock;
        [all()] REC_A: Recorder<0> = Recorder;
        [all()] REC_B: Recorder<1> = Recorder;
        [all()] REC_C: Recorder<2> = Recorder;
        [all()] REC_D: Recorder<3> = Recorder;
        [all()] REC_E: Recorder<4> = Recorder;
        [all()] REC_F: Recorder<5> = Recorder;
        [all()] REC_G: Recorder<6> = Recorder;
        [all()] REC_H: Recorder<7> = Recorder;
        [all()] CAPSTACK: Capstack = Capstack;
        [all()] MLTE: Mlte = Mlte;
        [all()] INTEGRITY: Integrity = Integrity;
        [all()] NOP_A: Nop<0> = Nop;
        [all()] NOP_B: Nop<1> = Nop;
        [all()] NOP_C: Nop<2> = Nop;
        [all()] NOP_D: Nop<3> = Nop;
        [all()] NOP_E: Nop<4> = Nop;
        [all()] NOP_F: Nop<5> = Nop;
        [all()] NOP_G: Nop<6> = Nop;
        [all()] NOP_H: Nop<7> = Nop;
        [all()] PROBE: Probe<0> = Probe;
        [all()] PROBE_B: Probe<1> = Probe;
        [all()] PROBE_C: Probe<2> = Probe;
        [test] IOCTL_RULE: crate::ioctl_rule::IoctlRule = crate::ioctl_rule::IoctlRule;
    }
}

mod harness;

/// Dispatch benchmark loops, for the `dispatch-bench` binary.
pub mod bench;

/// Fuzz entry points, for `fuzz/` and the corpus replay test.
#[doc(hidden)]
pub mod fuzzing;

#[cfg(test)]
mod samples;
#[cfg(test)]
mod tests;
