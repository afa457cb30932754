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
//! Some kernel checks never call `capable()`: they read the cred's sets
//! (`CAP_SYS_RAWIO` in `cap_mmap_addr`, `CAP_SYS_ADMIN` in
//! `cap_vm_enough_memory`, `CAP_SETPCAP` in `cap_inh_is_capped` and the
//! securebits checks, psi's `CAP_SYS_RESOURCE` on `f_cred`, the user
//! namespace code). So at exec (`bprm_creds_from_file`, after the
//! capability module computed the new sets) capstack also removes what is
//! taken away from the new cred's permitted, effective, inheritable and
//! ambient sets, and it implements `mmap_addr` and `vm_enough_memory`, so
//! that a rule loaded after a process started holds there too. An id
//! change without an exec (`task_fix_setuid`/`task_fix_setgid`) drops the
//! bits the new ids lose, as an exec does. A process that started before a
//! rule keeps the bit in its sets until its next exec or id change: the
//! other raw-set readers still see it until then.
//!
//! An exec's label (`security.capstack`) is read only when the policy has
//! `exec` rules, and fails closed: a label that cannot be read (`EIO`,
//! `ENOMEM`, a value longer than any label, ...) denies the exec with
//! `EACCES` in enforcing mode. Only `ENODATA` and `EOPNOTSUPP` mean "no
//! label". For a `#!` script, `bprm_creds_for_exec` runs once, with the
//! script before its interpreter is opened: the script's own label counts.
//!
//! The policy is read under RCU and replaced whole, so a hook sees the old
//! policy or the new one, never a mix. A malformed policy is refused with
//! `EINVAL` and a log line naming the line; the old one stays in force.
//!
//! The hook logic is in free functions that take the [`CredState`], so that
//! capstack can also be registered as an LSM of its own, with the same
//! entry points (`stacker/kernel/own_lsm.rs`, `CONFIG_SECURITY_STACKER_OWN_LSM`).
//! Kernel-independent: the host harness runs the same file.

use super::caps;
use super::policy::{Ids, Policy};
use crate::access::comm_str;
use crate::attribute::Attribute;
use crate::blob::{BlobState, HasBlob};
use crate::context::MaySleep;
use crate::error::{Error, Result, EACCES, EINVAL, ENODATA, EOPNOTSUPP, EPERM};
use crate::objects::{
    Binprm, BinprmView, Cred, CredView, DentryView, File, FileView, InodeView, KernelCap, MmapAddr,
    MmapAddrView, PreparedCred, PreparedCredView,
};
use crate::platform::{self, Dir, RcuCell, TextBuf};
use core::ffi::CStr;
use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// The policy in force.
static POLICY: RcuCell<Policy> = RcuCell::new();

// SAFETY: all-zero is the empty, enforcing policy (`SubjectKind::Uid` is 0,
// every other field an integer or bool), and nothing needs dropping.
unsafe impl BlobState for Policy {}

use crate::abi::{CAP_OPT_NOAUDIT, CAP_SYS_ADMIN, CAP_SYS_RAWIO};

/// Room for the longest label and one byte more, to tell a value that is
/// too long from one that fits.
const LABEL_BUF: usize = super::policy::MAX_LABEL + 1;

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

crate::submodule::state_key!(CapstackKey for Capstack);

impl Capstack {
    /// `new` starts with what `old` lost (`cred_prepare`, `cred_transfer`).
    fn inherit_cred(new: &Cred, old: &Cred) {
        if let (Some(n), Some(o)) = (new.state(&KEY), old.state(&KEY)) {
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
    let comm = comm_str(&comm);
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
    // No bit (nothing taken away) for a capability past the 64 a set holds.
    let bit = 1u64.checked_shl(cap).unwrap_or(0);
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
        let taken = |c: &u32| gained & 1u64.checked_shl(*c).unwrap_or(0) != 0;
        for cap in (0..caps::NAMES.len() as u32).filter(taken) {
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
    // A policy ends with a newline. A value that does not was most likely
    // cut by a write in pieces (`dd bs=512`): its last line may still parse
    // as something else (`uid 4242` cut to `uid 4`), so refuse it.
    if text.last().is_some_and(|&b| b != b'\n') {
        let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
        platform::pr_warn!(
            "capstack: policy rejected: line {line}: the last line does not end with a \
             newline (a policy cut by a write in pieces?); previous policy kept\n"
        );
        return Err(EINVAL);
    }
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
///
/// Formatting allocates, which may sleep: it works on a private copy of the
/// policy, taken under RCU, never on the policy in the RCU cell itself.
pub(crate) fn show_policy(out: &mut TextBuf) -> Result {
    let copy = POLICY.copy_out()?;
    let policy = copy.as_deref().unwrap_or(&Policy::EMPTY);
    out.format(|out| policy.write_canonical(out))
}

/// The mode of a policy that has `exec` rules, or `None` when there is no
/// policy or it has none: only then does an exec's label matter.
fn exec_rules_mode() -> Option<bool> {
    POLICY.read(|policy| policy.filter(|p| p.has_exec_rules()).map(|p| p.permissive))
}

/// Logs, rate-limited, that the label of `file` could not be read.
fn report_label_error(file: &File, err: Error, permissive: bool) {
    if !platform::ratelimit() {
        return;
    }
    let ino = file.inode().ino();
    let errno = err.to_errno();
    file.dentry().with_name(|name| {
        let name = core::str::from_utf8(name).unwrap_or("?");
        if permissive {
            platform::pr_warn!(
                "capstack: exec of '{name}' (inode {ino}): cannot read security.capstack \
                 (error {errno}); would deny (permissive), treated as unlabelled\n"
            );
        } else {
            platform::pr_warn!(
                "capstack: exec of '{name}' (inode {ino}) denied: cannot read \
                 security.capstack (error {errno})\n"
            );
        }
    });
}

/// The label of the file being executed, for `exec` rules: `Ok(None)`
/// when it has none, or when the policy has no `exec` rules (the label is
/// then not read at all).
///
/// Fails closed: only `ENODATA` and `EOPNOTSUPP` mean "no label". Any other
/// error, and a value longer than any label (`ERANGE`), is logged and, in
/// enforcing mode, denies the exec with `EACCES`; in permissive mode the
/// file is treated as unlabelled.
///
/// Reads the xattr, which may sleep (hence `cx`).
pub(crate) fn exec_label<'a>(
    cx: &MaySleep,
    file: &File,
    buf: &'a mut [u8; LABEL_BUF],
) -> Result<Option<&'a [u8]>> {
    let Some(permissive) = exec_rules_mode() else {
        return Ok(None);
    };
    let err = match file.getxattr(cx, LABEL_XATTR, buf) {
        Ok(n) if n < LABEL_BUF => return Ok(buf.get(..n)),
        // Longer than any label: as if it did not fit.
        Ok(_) => crate::error::ERANGE,
        Err(e) if e == ENODATA || e == EOPNOTSUPP => return Ok(None),
        Err(e) => e,
    };
    report_label_error(file, err, permissive);
    if permissive {
        Ok(None)
    } else {
        Err(EACCES)
    }
}

/// `bprm_creds_for_exec` for a new cred with capstack `state`: reads the
/// executed file's label (outside RCU) and narrows the state.
pub(crate) fn on_exec(cx: &MaySleep, state: Option<&CredState>, bprm: &Binprm) -> Result {
    let Some(state) = state else {
        return Ok(());
    };
    let mut buf = [0u8; LABEL_BUF];
    let label = exec_label(cx, bprm.file(), &mut buf)?;
    narrow_on_exec(state, &ids(bprm.cred()), label);
    Ok(())
}

/// `bprm_creds_from_file`: removes from the new cred's capability sets what
/// capstack takes from it (its `state`, and what `uid`, `gid` and `all`
/// rules take from its new ids), so that kernel checks that read the sets
/// instead of calling `capable()` see the restriction too. In permissive
/// mode only logs, naming `file`, the binary that will run.
pub(crate) fn drop_on_exec(state: Option<&CredState>, cred: &PreparedCred<'_>, file: &File) {
    let gone = drop_taken(state, cred);
    if gone != 0 && platform::ratelimit() {
        let (pid, comm) = platform::current_task();
        let comm = comm_str(&comm);
        file.dentry().with_name(|name| {
            let name = core::str::from_utf8(name).unwrap_or("?");
            platform::pr_warn!(
                "capstack: would remove capabilities {gone:#x} at exec of '{name}' by pid {pid} \
                 ({comm}) (permissive)\n"
            );
        });
    }
}

/// `task_fix_setuid` and `task_fix_setgid`: as at exec, removes from the
/// new cred's sets what capstack takes from it under its new ids, so that
/// a process that changes ids without executing anything (`setuid()` with
/// `PR_SET_KEEPCAPS`) does not keep a denied capability in its sets.
pub(crate) fn drop_on_id_change(state: Option<&CredState>, cred: &PreparedCred<'_>) {
    let gone = drop_taken(state, cred);
    if gone != 0 && platform::ratelimit() {
        let (pid, comm) = platform::current_task();
        let comm = comm_str(&comm);
        platform::pr_warn!(
            "capstack: would remove capabilities {gone:#x} at an id change of pid {pid} \
             ({comm}) (permissive)\n"
        );
    }
}

/// Removes from the prepared `cred` (whose capstack state is `state`) what
/// capstack takes from it: what it lost before, and what `uid`, `gid` and
/// `all` rules take from its ids. In permissive mode changes nothing and
/// returns what it would have removed (0 otherwise), for the caller's log.
fn drop_taken(state: Option<&CredState>, cred: &PreparedCred<'_>) -> u64 {
    let new = cred.cred();
    let ids = ids(new);
    let inherited = state.map_or(0, |s| s.denied.load(Ordering::Relaxed));
    let (mask, permissive) = POLICY.read(|policy| match policy {
        Some(p) => (inherited | p.id_restriction(&ids).0, p.permissive),
        None => (inherited, false),
    });
    let held = new.caps().iter().fold(0, |held, set| held | set.0);
    if mask & held == 0 {
        return 0;
    }
    if permissive {
        return mask & held;
    }
    cred.drop_caps(mask);
    0
}

/// `mmap_addr`: below `vm.mmap_min_addr`, the same decision as
/// `capable(CAP_SYS_RAWIO)` (which the capability module made from the raw
/// sets), logged.
pub(crate) fn check_mmap_addr(state: Option<&CredState>, ids: &Ids, addr: MmapAddr) -> Result {
    if !addr.below_min() {
        return Ok(());
    }
    check_capable(state, ids, CAP_SYS_RAWIO as i32, 0)
}

/// `vm_enough_memory`: whether the `CAP_SYS_ADMIN` reserve may be used,
/// decided as `capable(CAP_SYS_ADMIN)` without logging (as
/// `cap_vm_enough_memory` asks with `CAP_OPT_NOAUDIT`).
pub(crate) fn check_vm_enough_memory(state: Option<&CredState>, ids: &Ids) -> bool {
    check_capable(state, ids, CAP_SYS_ADMIN as i32, CAP_OPT_NOAUDIT).is_ok()
}

/// The policy file: `.../capstack/policy`.
pub(crate) struct PolicyFile;

impl Attribute for PolicyFile {
    const WRITABLE: bool = true;
    // Any policy that reads back fits in one write.
    const MAX_WRITE: usize = super::policy::MAX_CANONICAL;

    fn show(out: &mut TextBuf) -> Result {
        show_policy(out)
    }

    fn store(input: &[u8]) -> Result {
        load_policy(input)
    }
}

crate::submodule::submodule! {
    impl Submodule for Capstack {
        const NAME: &'static CStr = c"capstack";

        type Key = CapstackKey;
        crate::submodule::blob_states! { cred: CredState }

        fn securityfs_init(&'static self, dir: &Dir) -> Result {
            dir.create_file::<PolicyFile>(c"policy")
        }
    }
    hooks {
        fn cred_prepare(&self, _cx: &MaySleep, new: &Cred, old: &Cred) -> Result {
            Self::inherit_cred(new, old);
            Ok(())
        }

        fn cred_transfer(&self, _cx: &MaySleep, new: &Cred, old: &Cred) {
            Self::inherit_cred(new, old);
        }

        fn mmap_addr(&self, _cx: &MaySleep, cred: &Cred, addr: MmapAddr) -> Result {
            check_mmap_addr(cred.state(&KEY), &ids(cred), addr)
        }

        fn bprm_creds_for_exec(&self, cx: &MaySleep, bprm: &Binprm) -> Result {
            on_exec(cx, bprm.cred().state(&KEY), bprm)
        }

        fn task_fix_setuid(&self, _cx: &MaySleep, new: &PreparedCred<'_>, _old: &Cred, _flags: i32) -> Result {
            drop_on_id_change(new.cred().state(&KEY), new);
            Ok(())
        }

        fn task_fix_setgid(&self, _cx: &MaySleep, new: &PreparedCred<'_>, _old: &Cred, _flags: i32) -> Result {
            drop_on_id_change(new.cred().state(&KEY), new);
            Ok(())
        }

        fn bprm_creds_from_file(&self, _cx: &MaySleep, cred: &PreparedCred<'_>, file: &File) -> Result {
            drop_on_exec(cred.cred().state(&KEY), cred, file);
            Ok(())
        }

        fn vm_enough_memory(&self, cred: &Cred, _pages: i64) -> bool {
            check_vm_enough_memory(cred.state(&KEY), &ids(cred))
        }

        fn capable(&self, cred: &Cred, _initial_ns: bool, cap: i32, opts: u32) -> Result {
            check_capable(cred.state(&KEY), &ids(cred), cap, opts)
        }

        fn capset(
            &self,            _cx: &MaySleep,
            _new: &Cred,
            old: &Cred,
            effective: KernelCap,
            inheritable: KernelCap,
            permitted: KernelCap,
        ) -> Result {
            check_capset(
                old.state(&KEY),
                &ids(old),
                old.caps(),
                [effective, permitted, inheritable],
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PolicyFile;
    use crate::attribute::{Attribute, WriterCaps};
    use crate::error::{EACCES, EFBIG, EINVAL, EIO, ENODATA, ENOMEM, EOPNOTSUPP, EPERM};
    use crate::harness::Harness;
    use crate::objects::{Cred, DentryView, InodeView, KernelCap, MmapAddr};
    use crate::platform::{read_file, take_log, write_file, write_file_at};
    use std::sync::Mutex;

    /// The policy is global: these tests take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    const POLICY: &str = "stacker/capstack/policy";
    const NET_RAW: u32 = 13;
    const NET_BIND: u32 = 10;
    const CHOWN: u32 = 0;
    const SYS_RAWIO: u32 = 17;
    const SYS_ADMIN: u32 = 21;
    const ALL: u64 = (1 << 41) - 1;

    /// Whether `cap` is in any of `cred`'s permitted, effective,
    /// inheritable and ambient sets, as `[effective, permitted,
    /// inheritable, ambient]`.
    fn in_sets(cred: &Cred, cap: u32) -> [bool; 4] {
        let [e, p, i] = cred.caps.get();
        [e, p, i, cred.ambient.get()].map(|set| set.has(cap))
    }

    /// Root credentials with every capability, also ambient.
    fn full_root(h: &Harness) -> Cred {
        let root = h.cred(0, None).unwrap();
        root.ambient.set(KernelCap(ALL));
        root
    }

    /// `mmap_addr` for `cred` at `addr`, with `vm.mmap_min_addr` 4096.
    fn mmap_at(h: &Harness, cred: &Cred, addr: u64) -> crate::error::Result {
        h.int_hook(crate::hook::Hook::mmap_addr, || {
            crate::dispatch::mmap_addr::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                cred,
                MmapAddr { addr, min: 4096 },
            )
        })
    }

    fn boot() -> Harness {
        let h = Harness::boot("capstack").unwrap();
        write_file(POLICY, b"", true).unwrap();
        take_log();
        h
    }

    /// What `make run` shows: root loses `CAP_CHOWN` under a `uid 0` rule,
    /// and an empty policy (a comment) gives it back.
    #[test]
    fn uid_0_rule_takes_chown_from_root() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let root = h.cred(0, None).unwrap();
        assert_eq!(h.capable(&root, CHOWN), Ok(()));
        write_file(POLICY, b"deny CAP_CHOWN uid 0\n", true).unwrap();
        assert_eq!(h.capable(&root, CHOWN), Err(EPERM));
        write_file(POLICY, b"# empty\n", true).unwrap();
        assert_eq!(h.capable(&root, CHOWN), Ok(()));
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
        let old = h.cred(0, None).unwrap();
        let all = (1u64 << 41) - 1;
        old.caps.set([
            KernelCap(all & !(1 << NET_RAW)),
            KernelCap(all),
            KernelCap(0),
        ]);
        let new = h.cred(0, Some(&old)).unwrap();
        let regain = KernelCap(all);
        assert_eq!(
            crate::dispatch::capset::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &new,
                &old,
                regain,
                KernelCap(0),
                KernelCap(all)
            ),
            Err(EPERM)
        );
        // Dropping, or keeping what it has, is fine.
        let drop_more = KernelCap(all & !(1 << NET_RAW) & !(1 << CHOWN));
        assert_eq!(
            crate::dispatch::capset::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &new,
                &old,
                drop_more,
                KernelCap(0),
                KernelCap(all)
            ),
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

    fn caps(opener: bool, writer: bool) -> WriterCaps {
        WriterCaps { opener, writer }
    }

    #[test]
    fn writers_and_openers_need_cap_mac_admin() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let _h = boot();
        let evil = b"deny all all\n";
        // The writer lacks it.
        assert_eq!(
            write_file_at(POLICY, evil, caps(true, false), 0),
            Err(EPERM)
        );
        // The writer has it, but was handed a descriptor opened without it.
        assert_eq!(
            write_file_at(POLICY, evil, caps(false, true), 0),
            Err(EPERM)
        );
        let log = take_log().join("");
        assert!(
            log.contains("policy: write refused: the writer lacks CAP_MAC_ADMIN"),
            "{log}"
        );
        assert!(
            log.contains("the process that opened it lacks CAP_MAC_ADMIN"),
            "{log}"
        );
        assert_eq!(read_file(POLICY).unwrap(), b"mode enforcing\n");
        assert_eq!(
            write_file_at(POLICY, evil, caps(true, true), 0),
            Ok(evil.len() as i64)
        );
    }

    #[test]
    fn a_second_write_on_one_descriptor_is_refused_and_loads_nothing() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let _h = boot();
        let first = b"mode permissive\n";
        let pos = write_file_at(POLICY, first, caps(true, true), 0).unwrap();
        assert_eq!(pos, first.len() as i64);
        // The same descriptor, now at the offset the first write left.
        let second = b"deny CAP_CHOWN uid 4242\n";
        assert_eq!(
            write_file_at(POLICY, second, caps(true, true), pos),
            Err(EINVAL)
        );
        let log = take_log().join("");
        assert!(log.contains("policy: write at offset 16 refused"), "{log}");
        // What is in force is the first write, whole; nothing of the second.
        assert_eq!(read_file(POLICY).unwrap(), b"mode permissive\n");
    }

    #[test]
    fn the_largest_policy_reads_back_and_writes_back() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let _h = boot();
        // Every rule as long as a rule can be: all capabilities but the one
        // with the shortest name (all of them would be written `all`), and
        // the longest subject.
        let shortest = crate::capstack::caps::NAMES
            .iter()
            .min_by_key(|n| n.len())
            .unwrap();
        let caps_list: Vec<&str> = crate::capstack::caps::NAMES
            .iter()
            .copied()
            .filter(|n| n != shortest)
            .collect();
        let mut text = String::from("mode permissive\n");
        for i in 0..crate::capstack::policy::MAX_RULES {
            text += &format!("only {} exec {:A>31}\n", caps_list.join(","), i);
        }
        write_file(POLICY, text.as_bytes(), true).unwrap();
        let back = read_file(POLICY).unwrap();
        assert_eq!(back, text.as_bytes());
        assert!(back.len() > 4096, "{}", back.len());
        assert!(back.len() <= PolicyFile::MAX_WRITE);
        write_file(POLICY, &back, true).unwrap();
        // One byte more than the limit is refused as too big.
        let mut big = back.clone();
        big.resize(PolicyFile::MAX_WRITE + 1, b'#');
        assert_eq!(write_file(POLICY, &big, true), Err(EFBIG));
    }

    #[test]
    fn a_policy_cut_mid_line_is_refused() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        write_file(POLICY, b"deny CAP_NET_RAW all\n", true).unwrap();
        // The first 512 bytes of a longer policy, cut inside a rule: the
        // cut line would parse as another rule (uid 4 for uid 4242).
        assert_eq!(
            write_file(POLICY, b"mode enforcing\ndeny CAP_CHOWN uid 4", true),
            Err(EINVAL)
        );
        let log = take_log().join("");
        assert!(
            log.contains("line 2: the last line does not end with a newline"),
            "{log}"
        );
        assert_eq!(
            read_file(POLICY).unwrap(),
            b"mode enforcing\ndeny CAP_NET_RAW all\n"
        );
        let uid4 = h.cred(4, None).unwrap();
        assert_eq!(h.capable(&uid4, CHOWN), Ok(()));
    }

    #[test]
    fn reading_the_policy_formats_a_copy_outside_rcu() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let _h = boot();
        write_file(POLICY, b"deny CAP_CHOWN all\n", true).unwrap();
        // The host model panics if formatting (which allocates) ran inside
        // the RCU read section, as a debug kernel would report it.
        assert_eq!(
            read_file(POLICY).unwrap(),
            b"mode enforcing\ndeny CAP_CHOWN all\n"
        );
    }

    /// A denied capability is removed from the sets at exec, after the
    /// capability module computed them, so that checks that read the sets
    /// (not `capable()`) see the restriction; only in enforcing mode.
    #[test]
    fn exec_removes_denied_capabilities_from_every_set() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let prog = h.create("prog").unwrap();
        let root = full_root(&h);
        // Control: no rule, every set keeps it.
        let free = h.exec(&prog, &root, false).unwrap();
        assert_eq!(in_sets(&free, SYS_RAWIO), [true; 4]);

        write_file(POLICY, b"deny CAP_SYS_RAWIO all\n", true).unwrap();
        let narrowed = h.exec(&prog, &root, false).unwrap();
        assert_eq!(in_sets(&narrowed, SYS_RAWIO), [false; 4]);
        assert_eq!(in_sets(&narrowed, CHOWN), [true; 4]);
        // A setuid-root exec gets every capability from the capability
        // module; capstack takes this one away again.
        let suid = h.exec(&prog, &narrowed, true).unwrap();
        assert_eq!(in_sets(&suid, SYS_RAWIO), [false; 4]);

        // Permissive: logs, removes nothing.
        write_file(POLICY, b"mode permissive\ndeny CAP_SYS_RAWIO all\n", true).unwrap();
        take_log();
        let kept = h.exec(&prog, &root, false).unwrap();
        assert_eq!(in_sets(&kept, SYS_RAWIO), [true; 4]);
        let log = take_log().join("");
        assert!(
            log.contains(
                "would remove capabilities 0x20000 at exec of 'prog' by pid 1 (init) (permissive)"
            ),
            "{log}"
        );
    }

    /// `uid` rules look at the new ids: a setuid-root exec by uid 1000 loses
    /// what a rule on uid 1000 takes, in its sets too; an inherited
    /// restriction is removed at every later exec.
    #[test]
    fn exec_removes_what_uid_rules_and_inherited_restrictions_take() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let prog = h.create("prog").unwrap();
        let user = h.cred(1000, None).unwrap();
        user.caps.set([KernelCap(ALL); 3]);
        write_file(POLICY, b"deny CAP_NET_RAW uid 1000\n", true).unwrap();
        let suid = h.exec(&prog, &user, true).unwrap();
        assert_eq!(suid.euid, 0);
        assert_eq!(in_sets(&suid, NET_RAW)[..3], [false; 3]);
        assert_eq!(in_sets(&suid, CHOWN)[..3], [true; 3]);
        // A rule on the new effective uid only: the caller's ids do not
        // match it, the new ones do.
        write_file(POLICY, b"deny CAP_NET_RAW uid 0\n", true).unwrap();
        let before = h.exec(&prog, &user, false).unwrap();
        assert_eq!(in_sets(&before, NET_RAW)[..3], [true; 3]);
        let suid = h.exec(&prog, &user, true).unwrap();
        assert_eq!(in_sets(&suid, NET_RAW)[..3], [false; 3]);
        assert_eq!(h.capable(&suid, NET_RAW), Err(EPERM));

        write_file(POLICY, b"only CAP_NET_BIND_SERVICE exec websvc\n", true).unwrap();
        let websvc = h.create("websvc").unwrap();
        h.setxattr(&websvc, b"security.capstack", b"websvc")
            .unwrap();
        let root = full_root(&h);
        let narrowed = h.exec(&websvc, &root, false).unwrap();
        assert_eq!(narrowed.caps.get(), [KernelCap(1 << NET_BIND); 3]);
        // Inherited: a later unlabelled exec, even setuid root, keeps only it.
        let after = h.exec(&prog, &narrowed, true).unwrap();
        assert_eq!(after.caps.get(), [KernelCap(1 << NET_BIND); 3]);
    }

    /// A uid change without an exec (`setresuid` with `PR_SET_KEEPCAPS`)
    /// drops from the kept sets what uid rules take from the new uid.
    #[test]
    fn setuid_with_keepcaps_drops_what_the_new_uid_loses() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let root = full_root(&h);
        // Control: without a rule the sets are kept whole.
        let kept = h.setuid_keepcaps(&root, 4242).unwrap();
        assert_eq!(in_sets(&kept, NET_RAW), [true; 4]);
        write_file(POLICY, b"deny CAP_NET_RAW uid 4242\n", true).unwrap();
        let narrowed = h.setuid_keepcaps(&root, 4242).unwrap();
        assert_eq!(in_sets(&narrowed, NET_RAW), [false; 4]);
        assert_eq!(in_sets(&narrowed, CHOWN), [true; 4]);
        // Another uid is not touched; permissive mode only logs.
        let other = h.setuid_keepcaps(&root, 4243).unwrap();
        assert_eq!(in_sets(&other, NET_RAW), [true; 4]);
        write_file(
            POLICY,
            b"mode permissive\ndeny CAP_NET_RAW uid 4242\n",
            true,
        )
        .unwrap();
        take_log();
        let logged = h.setuid_keepcaps(&root, 4242).unwrap();
        assert_eq!(in_sets(&logged, NET_RAW), [true; 4]);
        let log = take_log().join("");
        assert!(
            log.contains("would remove capabilities 0x2000 at an id change"),
            "{log}"
        );
    }

    /// `mmap_addr`: below `vm.mmap_min_addr` the decision of
    /// `capable(CAP_SYS_RAWIO)`, for a process whose sets still hold the
    /// capability (it started before the rule).
    #[test]
    fn mapping_below_mmap_min_addr_follows_the_rule_loaded_later() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let root = full_root(&h);
        assert_eq!(mmap_at(&h, &root, 0), Ok(()));
        write_file(POLICY, b"deny CAP_SYS_RAWIO all\n", true).unwrap();
        take_log();
        assert!(root.caps.get()[0].has(SYS_RAWIO));
        assert_eq!(mmap_at(&h, &root, 0), Err(EPERM));
        assert_eq!(mmap_at(&h, &root, 4095), Err(EPERM));
        // At or above the limit no capability is needed.
        assert_eq!(mmap_at(&h, &root, 4096), Ok(()));
        let log = take_log().join("");
        assert!(
            log.contains("denied CAP_SYS_RAWIO to pid 1 (init): policy line 1"),
            "{log}"
        );
        write_file(POLICY, b"mode permissive\ndeny CAP_SYS_RAWIO all\n", true).unwrap();
        assert_eq!(mmap_at(&h, &root, 0), Ok(()));
    }

    /// `vm_enough_memory`: no `CAP_SYS_ADMIN` reserve when the capability
    /// is taken away, decided without a log line.
    #[test]
    fn the_admin_memory_reserve_follows_the_rule_without_logging() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let root = full_root(&h);
        assert!(crate::dispatch::vm_enough_memory::<crate::dispatch::Loop>(
            &root, 1
        ));
        write_file(POLICY, b"deny CAP_SYS_ADMIN all\n", true).unwrap();
        take_log();
        assert!(!crate::dispatch::vm_enough_memory::<crate::dispatch::Loop>(
            &root, 1
        ));
        assert_eq!(take_log(), Vec::<String>::new());
        write_file(POLICY, b"deny CAP_SYS_ADMIN uid 1000\n", true).unwrap();
        assert!(crate::dispatch::vm_enough_memory::<crate::dispatch::Loop>(
            &root, 1
        ));
        assert_eq!(h.capable(&root, SYS_ADMIN), Ok(()));
    }

    /// A label that cannot be read fails closed when the policy has exec
    /// rules: `EACCES` and a log line naming the file; only `ENODATA` and
    /// `EOPNOTSUPP` mean "no label". Without exec rules the label is not
    /// read at all; in permissive mode the file runs as unlabelled.
    #[test]
    fn an_unreadable_exec_label_denies_the_exec_when_exec_rules_exist() {
        let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let h = boot();
        let root = full_root(&h);
        let prog = h.create("labelled").unwrap();
        let inode = prog.inode().unwrap();
        let ino = inode.ino();
        // Control: no policy at all; a broken label does not matter.
        inode.fail_getxattr(Some(EIO));
        assert!(h.exec(&prog, &root, false).is_ok());

        write_file(POLICY, b"only CAP_NET_BIND_SERVICE exec websvc\n", true).unwrap();
        take_log();
        for err in [EIO, ENOMEM, crate::error::ERANGE] {
            inode.fail_getxattr(Some(err));
            assert_eq!(h.exec(&prog, &root, false).err(), Some(EACCES), "{err:?}");
        }
        let log = take_log().join("");
        assert!(
            log.contains(&format!(
                "capstack: exec of 'labelled' (inode {ino}) denied: cannot read security.capstack (error -5)"
            )),
            "{log}"
        );
        // "No label": runs, unnarrowed.
        for err in [ENODATA, EOPNOTSUPP] {
            inode.fail_getxattr(Some(err));
            let cred = h.exec(&prog, &root, false).unwrap();
            assert_eq!(h.capable(&cred, NET_RAW), Ok(()));
        }
        // A value longer than any label (31 bytes) is refused too.
        inode.fail_getxattr(None);
        h.setxattr(&prog, b"security.capstack", &[b'a'; 40])
            .unwrap();
        assert_eq!(h.exec(&prog, &root, false).err(), Some(EACCES));
        h.setxattr(&prog, b"security.capstack", &[b'a'; 32])
            .unwrap();
        assert_eq!(h.exec(&prog, &root, false).err(), Some(EACCES));
        h.setxattr(&prog, b"security.capstack", &[b'a'; 31])
            .unwrap();
        assert!(h.exec(&prog, &root, false).is_ok());

        // Without exec rules the label is never read.
        write_file(POLICY, b"deny CAP_NET_RAW uid 1000\n", true).unwrap();
        inode.fail_getxattr(Some(EIO));
        assert!(h.exec(&prog, &root, false).is_ok());
        // Permissive: logged, treated as unlabelled.
        write_file(
            POLICY,
            b"mode permissive\nonly CAP_CHOWN exec websvc\n",
            true,
        )
        .unwrap();
        take_log();
        let cred = h.exec(&prog, &root, false).unwrap();
        assert_eq!(h.capable(&cred, NET_RAW), Ok(()));
        let log = take_log().join("");
        assert!(
            log.contains("would deny (permissive), treated as unlabelled"),
            "{log}"
        );
    }
}
