// SPDX-License-Identifier: GPL-2.0

//! capstack: capability policy as a stackable submodule.
//!
//! The kernel's capability module grants capabilities from the
//! process's capability sets; capstack can only take them away, by policy
//! (`policy.rs`): by uid or gid range, for every process, or for processes
//! that executed a file with a given `security.capstack` label.
//!
//! What a process has lost lives in its cred blob ([`CredState`]): it is
//! inherited on fork and, on exec, only ever grows. So a narrowed process
//! stays narrowed, through setuid binaries too, and neither `capset` nor
//! file capabilities bring a capability back: `capable()` is where capstack
//! says no, whatever the capability sets say.
//!
//! The policy is read under RCU and replaced whole, so a hook sees the old
//! policy or the new one, never a mix. A malformed policy is refused with
//! `EINVAL` and a log line naming the line; the old one stays in force.
//!
//! The hook logic is in free functions that take the [`CredState`], so that
//! capstack can also be registered directly as its own LSM (`direct.rs`).
//! Kernel-independent: the host harness runs the same file.

use super::caps;
use super::policy::{Ids, Policy};
use crate::attribute::Attribute;
use crate::blob::{BlobState, HasBlob};
use crate::error::{Result, EINVAL, EPERM};
use crate::hook::{Hook, HookSet};
use crate::objects::{Binprm, Cred, KernelCap};
use crate::platform::{self, Dir, RcuCell, TextBuf};
use crate::submodule::Submodule;
use core::ffi::CStr;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The policy in force.
static POLICY: RcuCell<Policy> = RcuCell::new();

// SAFETY: all-zero is the empty, enforcing policy (`SubjectKind::Uid` is 0,
// every other field an integer or bool), and nothing needs dropping.
unsafe impl BlobState for Policy {}

/// `CAP_OPT_NOAUDIT`: the caller only probes; do not log.
const CAP_OPT_NOAUDIT: u32 = 1 << 1;

/// The xattr that labels an executable for `exec` rules.
pub(crate) const LABEL_XATTR: &CStr = c"security.capstack";

/// What a process has lost for good, in its cred blob.
pub(crate) struct CredState {
    /// Capabilities taken away at an exec.
    denied: AtomicU64,
    /// Line of the rule that last took something away, for log lines.
    line: AtomicU32,
}

// SAFETY: all-zero is "nothing taken away"; nothing needs dropping.
unsafe impl BlobState for CredState {}

/// The capstack submodule.
pub(crate) struct Capstack;

impl Capstack {
    /// `new` starts with what `old` lost (`cred_prepare`, `cred_transfer`).
    fn inherit_cred(new: &Cred, old: &Cred) {
        if let (Some(n), Some(o)) = (new.state::<Self>(), old.state::<Self>()) {
            inherit(n, o);
        }
    }
}

/// The ids `uid` and `gid` rules look at.
pub(crate) fn ids(cred: &Cred) -> Ids {
    Ids {
        uid: cred.uid(),
        euid: cred.euid(),
        gid: cred.gid(),
        egid: cred.egid(),
    }
}

/// Logs a decision, rate-limited: pid, command, capability and rule.
fn report(permissive: bool, cap: u32, line: u32) {
    if !platform::ratelimit() {
        return;
    }
    let (pid, comm) = platform::current_task();
    let len = comm.iter().position(|&b| b == 0).unwrap_or(comm.len());
    let comm = core::str::from_utf8(&comm[..len]).unwrap_or("?");
    let verdict = if permissive {
        "would deny (permissive)"
    } else {
        "denied"
    };
    let name = caps::name(cap);
    if line == 0 {
        platform::pr_warn!(
            "capstack: {verdict} {name} to pid {pid} ({comm}): inherited restriction\n"
        );
    } else {
        platform::pr_warn!(
            "capstack: {verdict} {name} to pid {pid} ({comm}): policy line {line}\n"
        );
    }
}

/// A child's cred starts with what its parent lost.
pub(crate) fn inherit(new: &CredState, old: &CredState) {
    new.denied
        .store(old.denied.load(Ordering::Relaxed), Ordering::Relaxed);
    new.line
        .store(old.line.load(Ordering::Relaxed), Ordering::Relaxed);
}

/// At exec: the new cred also loses what the policy takes from the caller's
/// ids and from the executed file's label. Only ever narrows.
pub(crate) fn narrow_on_exec(state: &CredState, caller: &Ids, label: Option<&[u8]>) {
    POLICY.read(|policy| {
        let Some(policy) = policy else { return };
        let (by_ids, id_line) = policy.id_restriction(caller);
        let (by_label, label_line) = policy.exec_denied(label);
        let add = by_ids | by_label;
        if add & !state.denied.load(Ordering::Relaxed) != 0 {
            let line = if by_label != 0 { label_line } else { id_line };
            state.line.store(line, Ordering::Relaxed);
        }
        state.denied.fetch_or(add, Ordering::Relaxed);
    })
}

/// Whether `policy` and `state` take `cap` (< 64) away from a cred with
/// `ids`; logs the decision unless `opts` says not to.
fn decide(
    policy: Option<&Policy>,
    state: Option<&CredState>,
    ids: &Ids,
    cap: u32,
    opts: u32,
) -> Result {
    let bit = 1u64 << cap;
    let inherited = state.map_or(0, |s| s.denied.load(Ordering::Relaxed));
    let (by_ids, id_line, permissive) = match policy {
        Some(p) => {
            let (mask, line) = p.id_denied(ids, cap);
            (mask, line, p.permissive)
        }
        None => (0, 0, false),
    };
    if (inherited | by_ids) & bit == 0 {
        return Ok(());
    }
    if opts & CAP_OPT_NOAUDIT == 0 {
        let line = if by_ids & bit != 0 {
            id_line
        } else {
            state.map_or(0, |s| s.line.load(Ordering::Relaxed))
        };
        report(permissive, cap, line);
    }
    if permissive {
        Ok(())
    } else {
        Err(EPERM)
    }
}

/// The `capable` decision for a cred with `state` and `ids`.
pub(crate) fn check_capable(state: Option<&CredState>, ids: &Ids, cap: i32, opts: u32) -> Result {
    match u32::try_from(cap) {
        Ok(cap) if cap < 64 => POLICY.read(|policy| decide(policy, state, ids, cap, opts)),
        _ => Ok(()),
    }
}

/// The `capset` decision: no set may gain a capability that is taken away.
/// Every such capability is logged; the first denial is returned.
pub(crate) fn check_capset(
    state: Option<&CredState>,
    ids: &Ids,
    old: [KernelCap; 3],
    new: [KernelCap; 3],
) -> Result {
    let gained = (0..3).fold(0u64, |g, i| g | (new[i].0 & !old[i].0));
    if gained == 0 {
        return Ok(());
    }
    POLICY.read(|policy| {
        let mut first = Ok(());
        for cap in (0..caps::NAMES.len() as u32).filter(|c| gained & (1 << c) != 0) {
            // Checked like `capable`, but never silently.
            if let Err(err) = decide(policy, state, ids, cap, 0) {
                first = first.and(Err(err));
            }
        }
        first
    })
}

/// Replaces the policy with `text`. A malformed text is refused with
/// `EINVAL` and a log line naming the line; the old policy stays.
pub(crate) fn load_policy(text: &[u8]) -> Result {
    let mut failure = None;
    let result = POLICY.replace_with(|p| {
        p.parse_into(text).map_err(|e| {
            failure = Some(e);
            EINVAL
        })
    });
    if let Some(e) = failure {
        platform::pr_warn!(
            "capstack: policy rejected: line {}: {}; previous policy kept\n",
            e.line,
            e.kind.reason()
        );
    } else if result.is_ok() {
        POLICY.read(|p| {
            let n = p.map_or(0, |p| p.rules().len());
            let mode = if p.is_some_and(|p| p.permissive) {
                "permissive"
            } else {
                "enforcing"
            };
            platform::pr_info!("capstack: policy loaded: {n} rules, {mode}\n");
        });
    }
    result
}

/// Writes the policy in force, in canonical form.
pub(crate) fn show_policy(out: &mut TextBuf) -> Result {
    POLICY.read(|p| {
        p.unwrap_or(&Policy::EMPTY)
            .write_canonical(out)
            .map_err(|_| EINVAL)
    })
}

/// The label of the file being executed, if it has one.
pub(crate) fn exec_label<'a>(bprm: &Binprm, buf: &'a mut [u8; 32]) -> Option<&'a [u8]> {
    match bprm.file().getxattr(LABEL_XATTR, buf) {
        Ok(n) => buf.get(..n),
        Err(_) => None,
    }
}

/// The policy file: `.../capstack/policy`.
pub(crate) struct PolicyFile;

impl Attribute for PolicyFile {
    const WRITABLE: bool = true;

    fn show(out: &mut TextBuf) -> Result {
        show_policy(out)
    }

    fn store(input: &[u8]) -> Result {
        load_policy(input)
    }
}

impl Submodule for Capstack {
    const NAME: &'static CStr = c"capstack";
    const HOOKS: HookSet = HookSet::of(&[
        Hook::CredPrepare,
        Hook::CredTransfer,
        Hook::BprmCredsForExec,
        Hook::Capable,
        Hook::Capset,
    ]);

    crate::submodule::blob_states! { cred: CredState }

    fn securityfs_init(&'static self, dir: &Dir) -> Result {
        dir.create_file::<PolicyFile>(c"policy")
    }

    fn cred_prepare(&self, new: &Cred, old: &Cred) -> Result {
        Self::inherit_cred(new, old);
        Ok(())
    }

    fn cred_transfer(&self, new: &Cred, old: &Cred) {
        Self::inherit_cred(new, old);
    }

    fn bprm_creds_for_exec(&self, bprm: &Binprm) -> Result {
        let cred = bprm.cred();
        if let Some(state) = cred.state::<Self>() {
            let mut buf = [0u8; 32];
            narrow_on_exec(state, &ids(cred), exec_label(bprm, &mut buf));
        }
        Ok(())
    }

    fn capable(&self, cred: &Cred, cap: i32, opts: u32) -> Result {
        check_capable(cred.state::<Self>(), &ids(cred), cap, opts)
    }

    fn capset(
        &self,
        _new: &Cred,
        old: &Cred,
        effective: KernelCap,
        inheritable: KernelCap,
        permitted: KernelCap,
    ) -> Result {
        check_capset(
            old.state::<Self>(),
            &ids(old),
            old.caps(),
            [effective, permitted, inheritable],
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::error::{EINVAL, EPERM};
    use crate::harness::Harness;
    use crate::objects::KernelCap;
    use crate::platform::{read_file, take_log, write_file};
    use std::sync::Mutex;

    /// The policy is global: these tests take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    const POLICY: &str = "stacker/capstack/policy";
    const NET_RAW: u32 = 13;
    const NET_BIND: u32 = 10;
    const CHOWN: u32 = 0;

    fn boot() -> Harness {
        let h = Harness::boot("capstack").unwrap();
        write_file(POLICY, b"", true).unwrap();
        take_log();
        h
    }

    #[test]
    fn uid_rule_denies_users_not_root() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        write_file(POLICY, b"deny CAP_NET_RAW uid 1000-60000\n", true).unwrap();
        let root = h.cred(0, None).unwrap();
        let user = h.cred(1000, None).unwrap();
        assert_eq!(h.capable(&root, NET_RAW), Ok(()));
        assert_eq!(h.capable(&user, NET_RAW), Err(EPERM));
        assert_eq!(h.capable(&user, CHOWN), Ok(()));
        let log = take_log().join("");
        assert!(
            log.contains("denied CAP_NET_RAW to pid 1 (init): policy line 1"),
            "{log}"
        );
    }

    #[test]
    fn labelled_binary_keeps_only_its_capability_even_as_root_and_after_setuid_exec() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        write_file(POLICY, b"only CAP_NET_BIND_SERVICE exec websvc\n", true).unwrap();
        let websvc = h.create("websvc").unwrap();
        h.setxattr(&websvc, b"security.capstack", b"websvc")
            .unwrap();
        let plain = h.create("suid-tool").unwrap();
        let root = h.cred(0, None).unwrap();

        let narrowed = h.exec(&websvc, &root, false).unwrap();
        assert_eq!(h.capable(&narrowed, NET_BIND), Ok(()));
        assert_eq!(h.capable(&narrowed, NET_RAW), Err(EPERM));
        assert_eq!(h.capable(&narrowed, CHOWN), Err(EPERM));
        // Inherited on fork, kept through a setuid-root exec.
        let child = h.cred(0, Some(&narrowed)).unwrap();
        let after = h.exec(&plain, &child, true).unwrap();
        assert_eq!(h.capable(&after, NET_RAW), Err(EPERM));
        assert_eq!(h.capable(&after, NET_BIND), Ok(()));
        // An unlabelled exec from root is not narrowed.
        let free = h.exec(&plain, &root, false).unwrap();
        assert_eq!(h.capable(&free, NET_RAW), Ok(()));
    }

    #[test]
    fn capset_cannot_regain_a_removed_capability() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        write_file(POLICY, b"deny CAP_NET_RAW all\n", true).unwrap();
        let mut old = h.cred(0, None).unwrap();
        let all = (1u64 << 41) - 1;
        old.caps = [
            KernelCap(all & !(1 << NET_RAW)),
            KernelCap(all),
            KernelCap(0),
        ];
        let new = h.cred(0, Some(&old)).unwrap();
        let regain = KernelCap(all);
        assert_eq!(
            crate::registry::capset(&new, &old, regain, KernelCap(0), KernelCap(all)),
            Err(EPERM)
        );
        // Dropping, or keeping what it has, is fine.
        let drop_more = KernelCap(all & !(1 << NET_RAW) & !(1 << CHOWN));
        assert_eq!(
            crate::registry::capset(&new, &old, drop_more, KernelCap(0), KernelCap(all)),
            Ok(())
        );
    }

    #[test]
    fn permissive_mode_logs_and_allows() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        write_file(POLICY, b"mode permissive\ndeny CAP_CHOWN all\n", true).unwrap();
        let root = h.cred(0, None).unwrap();
        take_log();
        assert_eq!(h.capable(&root, CHOWN), Ok(()));
        let log = take_log().join("");
        assert!(log.contains("would deny (permissive) CAP_CHOWN"), "{log}");
    }

    #[test]
    fn malformed_policy_is_refused_and_the_old_one_stays() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        write_file(POLICY, b"deny net_raw uid 1000\n", true).unwrap();
        let before = read_file(POLICY).unwrap();
        assert_eq!(
            write_file(POLICY, b"deny CAP_CHOWN all\ndeny CAP_BOGUS all\n", true),
            Err(EINVAL)
        );
        let log = take_log().join("");
        assert!(log.contains("line 2: unknown capability"), "{log}");
        assert_eq!(read_file(POLICY).unwrap(), before);
        assert_eq!(before, b"mode enforcing\ndeny CAP_NET_RAW uid 1000\n");
        let user = h.cred(1000, None).unwrap();
        assert_eq!(h.capable(&user, NET_RAW), Err(EPERM));
        assert_eq!(h.capable(&user, CHOWN), Ok(()));
    }

    #[test]
    fn writers_need_cap_mac_admin() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let _h = boot();
        assert_eq!(write_file(POLICY, b"deny all all\n", false), Err(EPERM));
        assert_eq!(read_file(POLICY).unwrap(), b"mode enforcing\n");
    }
}
