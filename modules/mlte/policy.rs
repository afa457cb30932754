// SPDX-License-Identifier: GPL-2.0

//! The policy in force, the enforcing mode, and access decisions with
//! their audit lines.
//!
//! The policy is a checked compiled form (`compiled.rs`) with its own
//! decision cache (`decision_cache.rs`) in an RCU cell: hooks read it
//! without a lock and see the old policy or the new one, never a mix.
//! [`load`] checks every byte first; a bad policy is refused with `EINVAL`
//! and a log line saying at which byte and why, and the old one stays in
//! force.
//!
//! Decisions are on SIDs (`sidtab.rs`): [`Policy::allowed`] answers from
//! the cache, or computes the class's whole vector once on the contexts
//! behind the SIDs and keeps it. An initial SID's context is the policy's
//! own `sid` statement, so it follows a reload.
//!
//! Type ids are kept in the SID table's contexts, so a new policy must keep
//! the types of the one in force, in the same order, and may add types
//! after them; a policy that does not is refused.
//!
//! A denial is logged like SELinux's AVC messages, rate-limited:
//!
//! ```text
//! mlte: avc: denied { read } for pid=42 comm="cat" name="secret" ino=17
//!   scontext=user_t:s0 tcontext=secret_t:s0 tclass=file permissive=0
//! ```
//!
//! Kernel-independent: the host tests run the same file.

use super::classes::Class;
use super::compiled::{Checked, Compiled, InitialSid, SidContext};
use super::decision_cache::DecisionCache;
use super::sidtab::{self, Sid};
use crate::access::comm_str;
use crate::context::MaySleep;
use crate::error::{Error, Result, EACCES, EBUSY, EINVAL};
use crate::objects::{Dentry, Inode};
use crate::platform::{self, Bytes, OwnedBox, RcuBox};
use core::fmt;
use core::ops::Deref;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A policy as loaded: its checked bytes and its decision cache.
struct Loaded {
    checked: Checked<Bytes>,
    cache: OwnedBox<DecisionCache>,
}

/// The policy in force.
static POLICY: RcuBox<Loaded> = RcuBox::new();

/// The policy in force, as a hook sees it ([`with`]): the compiled form
/// (which it derefs to) and the decisions on SIDs.
pub(crate) struct Policy<'a> {
    compiled: Compiled<'a>,
    cache: &'a DecisionCache,
}

impl<'a> Deref for Policy<'a> {
    type Target = Compiled<'a>;

    #[inline(always)]
    fn deref(&self) -> &Compiled<'a> {
        &self.compiled
    }
}

impl<'a> Policy<'a> {
    /// The context of `sid` under this policy: an initial SID's from the
    /// policy's `sid` statements, another from the SID table (`sid
    /// unlabeled`'s for a number never given out).
    #[inline(always)]
    pub(crate) fn context(&self, sid: Sid) -> &'a SidContext {
        match sid.as_initial() {
            Some(initial) => self.compiled.sid_view(initial),
            None => sidtab::context(sid)
                .unwrap_or_else(|| self.compiled.sid_view(InitialSid::Unlabeled)),
        }
    }

    /// Every permission of `class` that `s` has on `o`: from the cache, or
    /// computed and kept.
    #[inline(always)]
    pub(crate) fn allowed(&self, s: Sid, o: Sid, class: Class) -> u32 {
        match self.cache.lookup(s, o, class) {
            Some(allowed) => allowed,
            None => self.compute(s, o, class),
        }
    }

    /// [`Policy::allowed`] on a miss: the matrix and the class's
    /// constraints, on the contexts behind the SIDs.
    #[inline(never)]
    fn compute(&self, s: Sid, o: Sid, class: Class) -> u32 {
        let all = class.all_perms();
        let denied = self
            .compiled
            .denied(self.context(s), self.context(o), class, all);
        let allowed = all & !denied;
        self.cache.insert(s, o, class, allowed);
        allowed
    }

    /// Decisions computed (cache misses) since this policy was loaded.
    pub(crate) fn misses(&self) -> u64 {
        self.cache.misses()
    }
}

/// Whether denials are enforced (else only logged).
static ENFORCING: AtomicBool = AtomicBool::new(true);

/// Set while a policy is being loaded: loads do not overlap.
static LOADING: AtomicBool = AtomicBool::new(false);

/// Denials since boot (also those only logged in permissive mode).
static DENIALS: AtomicU64 = AtomicU64::new(0);

/// Policies loaded since boot.
static LOADS: AtomicU64 = AtomicU64::new(0);

/// Reads of an inode label that failed since boot (`ENOMEM`, `EIO`), each
/// access then decided as `sid unlabeled` ([`label_read_failed`]).
static LABEL_READ_ERRORS: AtomicU64 = AtomicU64::new(0);

/// Calls `f` with the policy in force (`None` before the first load),
/// under RCU: `f` must not sleep, and cannot capture a sleep proof
/// (`Send`, as `RcuCell::read`).
#[inline(always)]
pub(crate) fn with<R>(f: impl FnOnce(Option<&Policy<'_>>) -> R + Send) -> R {
    POLICY.read(|p| {
        f(p.map(|p| Policy {
            compiled: p.checked.view(),
            cache: &p.cache,
        })
        .as_ref())
    })
}

/// Whether denials are enforced.
pub(crate) fn enforcing() -> bool {
    ENFORCING.load(Ordering::Relaxed)
}

/// Sets the mode, logging a change.
pub(crate) fn set_enforcing(on: bool) {
    if ENFORCING.swap(on, Ordering::Relaxed) != on {
        let mode = if on { "enforcing" } else { "permissive" };
        platform::pr_info!("mlte: now {mode}\n");
    }
}

/// What `mlte/status` counts since boot.
pub(crate) struct Counts {
    /// Denials (also those only logged in permissive mode).
    pub(crate) denials: u64,
    /// Policies loaded.
    pub(crate) loads: u64,
    /// Failed reads of inode labels.
    pub(crate) label_read_errors: u64,
}

/// The counts since boot.
pub(crate) fn counts() -> Counts {
    Counts {
        denials: DENIALS.load(Ordering::Relaxed),
        loads: LOADS.load(Ordering::Relaxed),
        label_read_errors: LABEL_READ_ERRORS.load(Ordering::Relaxed),
    }
}

/// Counts a failed read (`err`, from `getxattr`) of inode `ino`'s label:
/// the access is decided as `sid unlabeled`. Logs it (rate-limited) when
/// `first`: the inode's label was unset, not already provisional, so that
/// a label that stays unreadable is logged once, not at every lookup.
#[cold]
pub(crate) fn label_read_failed(ino: u64, err: Error, first: bool) {
    LABEL_READ_ERRORS.fetch_add(1, Ordering::Relaxed);
    if first && platform::ratelimit_audit() {
        platform::pr_warn!(
            "mlte: the label of inode {ino} could not be read (error {}): decided as sid unlabeled\n",
            err.to_errno()
        );
    }
}

/// Why a policy was refused, for the log line.
enum Refusal {
    /// The checker refused byte `at`.
    Invalid(usize, &'static str),
    /// Type `ty` of the policy in force is missing or renamed.
    TypeChanged(u32),
}

/// Replaces the policy with the compiled form `bytes`. A bad one is
/// refused with `EINVAL` and a log line; the old one stays in force.
/// Sleeps.
pub(crate) fn load(cx: &MaySleep, bytes: &[u8]) -> Result {
    if LOADING.swap(true, Ordering::Acquire) {
        platform::pr_warn!("mlte: policy load refused: another load is in progress\n");
        return Err(EBUSY);
    }
    let result = load_exclusive(cx, bytes);
    LOADING.store(false, Ordering::Release);
    result
}

/// [`load`], with no other load running.
fn load_exclusive(cx: &MaySleep, bytes: &[u8]) -> Result {
    let refused = |why: Refusal| {
        match why {
            Refusal::Invalid(at, why) => platform::pr_warn!(
                "mlte: policy rejected: byte {at}: {why}; previous policy kept\n"
            ),
            Refusal::TypeChanged(ty) => platform::pr_warn!(
                "mlte: policy rejected: type {ty} of the policy in force is missing or \
                 renamed (a new policy keeps the types in force, in order, and may add \
                 more); previous policy kept\n"
            ),
        }
        Err(EINVAL)
    };
    let checked = match Checked::new(platform::bytes_from(bytes)?) {
        Ok(checked) => checked,
        Err(e) => return refused(Refusal::Invalid(e.at, e.why)),
    };
    let new = checked.view();
    let changed = with(|old| {
        old.and_then(|old| (0..old.types()).find(|&ty| old.type_name(ty) != new.type_name(ty)))
    });
    if let Some(ty) = changed {
        return refused(Refusal::TypeChanged(ty));
    }
    let types = new.types();
    let cache = platform::zeroed_box::<DecisionCache>(cx)?;
    POLICY.replace(Loaded { checked, cache })?;
    LOADS.fetch_add(1, Ordering::Relaxed);
    let mode = if enforcing() {
        "enforcing"
    } else {
        "permissive"
    };
    platform::pr_info!(
        "mlte: policy loaded: {types} types, {} bytes, {mode}\n",
        bytes.len()
    );
    Ok(())
}

/// What a decision is about, for the audit line.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    /// An inode reached through a dentry: its name and number.
    Dentry(&'a Dentry),
    /// An inode without a dentry at hand: its number.
    Inode(&'a Inode),
    /// A task: its pid.
    Task(i32),
    /// Nothing more to say (a socket, an IPC object, the subject itself).
    None,
}

/// The names of the permissions in `perms` of `class`, `{ a b }`.
struct PermNames(Class, u32);

impl fmt::Display for PermNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (bit, name) in self.0.entry().1.iter().enumerate() {
            if self.1 & (1u32 << bit) != 0 {
                write!(f, " {name}")?;
            }
        }
        f.write_str(" }")
    }
}

/// May subject `s` have `perms` (bits of `class`) on object `o`, under
/// `policy`? A denial is counted and logged (rate-limited) and, when
/// enforcing, returned as `EACCES`. Does not sleep.
#[inline(always)]
pub(crate) fn check(
    policy: &Policy<'_>,
    s: Sid,
    o: Sid,
    class: Class,
    perms: u32,
    target: Target<'_>,
) -> Result {
    match perms & !policy.allowed(s, o, class) {
        0 => Ok(()),
        denied => deny(policy, s, o, class, denied, target),
    }
}

/// The verdict on a decision that denied `denied` (nonzero, bits of
/// `class`'s permissions) to `s` on `o`: counted, logged (rate-limited)
/// and, when enforcing, `EACCES`.
#[cold]
fn deny(
    policy: &Policy<'_>,
    s: Sid,
    o: Sid,
    class: Class,
    denied: u32,
    target: Target<'_>,
) -> Result {
    DENIALS.fetch_add(1, Ordering::Relaxed);
    let enforcing = enforcing();
    if platform::ratelimit_audit() {
        report(policy, s, o, class, denied, target, enforcing);
    }
    if enforcing {
        Err(EACCES)
    } else {
        Ok(())
    }
}

/// Logs one denial.
#[cold]
fn report(
    policy: &Policy<'_>,
    s: Sid,
    o: Sid,
    class: Class,
    denied: u32,
    target: Target<'_>,
    enforcing: bool,
) {
    let (pid, comm) = platform::current_task();
    let comm = comm_str(&comm);
    let perms = PermNames(class, denied);
    let (s, o) = (&policy.context(s).context, &policy.context(o).context);
    let (scontext, tcontext) = (s.show(policy), o.show(policy));
    let tclass = class.name();
    let permissive = u8::from(!enforcing);
    let line = |object: fmt::Arguments<'_>| {
        // The kernel's `pr_warn!` formats its own `Display`; these types
        // have `core`'s, which `format_args!` reaches.
        platform::pr_warn!(
            "{}\n",
            format_args!(
                "mlte: avc: denied {perms} for pid={pid} comm=\"{comm}\"{object} \
                 scontext={scontext} tcontext={tcontext} tclass={tclass} \
                 permissive={permissive}"
            )
        )
    };
    match target {
        Target::Dentry(dentry) => dentry.with_name(|name| {
            let name = core::str::from_utf8(name).unwrap_or("?");
            let ino = dentry.inode().map_or(0, |i| i.ino());
            line(format_args!(" name=\"{name}\" ino={ino}"))
        }),
        Target::Inode(inode) => line(format_args!(" ino={}", inode.ino())),
        Target::Task(target) => line(format_args!(" tpid={target}")),
        Target::None => line(format_args!("")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::classes::perm;
    use crate::mlte::compiled::tests::POLICY as TEXT;
    use crate::mlte::context::Context;
    use crate::mlte::policy_text::parse;

    fn load(bytes: &[u8]) -> Result {
        super::load(&crate::harness::cx(), bytes)
    }

    /// One test: the policy cell is global.
    #[test]
    fn load_refuses_bad_policies_and_keeps_the_old_one() {
        let good = parse(TEXT).unwrap().compile().unwrap();
        assert_eq!(load(&good), Ok(()));
        let sid = |text: &[u8]| {
            let ctx = with(|p| Context::parse(text, p.unwrap()).unwrap());
            sidtab::intern(&crate::harness::cx(), &ctx).unwrap()
        };
        let (user, tmp, tmp_hi) = (sid(b"user_t:s1"), sid(b"tmp_t:s1"), sid(b"tmp_t:s2"));
        let decide = || {
            with(|p| {
                let p = p.unwrap();
                let read = perm(Class::File, "read");
                (
                    check(p, user, tmp, Class::File, read, Target::None),
                    check(p, user, tmp_hi, Class::File, read, Target::None),
                )
            })
        };
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        let Counts { denials, loads, .. } = counts();
        assert!(denials >= 1 && loads >= 1);
        // Malformed, truncated, random: refused, and decisions unchanged.
        let mut bad = good.clone();
        bad[4] = 9;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let random: Vec<u8> = (0..good.len())
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect();
        for b in [&bad[..], &good[..good.len() / 2], &random[..], &[][..]] {
            assert_eq!(load(b), Err(EINVAL));
            assert_eq!(decide(), (Ok(()), Err(EACCES)));
        }
        // A reload must keep the types in force; adding one is fine.
        let renamed = TEXT.replace("user_t", "person_t");
        assert_eq!(
            load(&parse(&renamed).unwrap().compile().unwrap()),
            Err(EINVAL)
        );
        let added = TEXT.replace("type user_tmp_t;", "type user_tmp_t; type extra_t;");
        assert_eq!(load(&parse(&added).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        // Repeats come from the cache: nothing more is computed.
        let misses = with(|p| p.unwrap().misses());
        for _ in 0..10 {
            assert_eq!(decide(), (Ok(()), Err(EACCES)));
        }
        assert_eq!(with(|p| p.unwrap().misses()), misses);
        // A reload brings its own cache: no decision of the old policy
        // survives it, and initial SIDs take the new policy's contexts.
        let no_read = added.replace("allow user_t tmp_t : file { read write };", "");
        assert_eq!(load(&parse(&no_read).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(decide(), (Err(EACCES), Err(EACCES)));
        let file = Sid::initial(InitialSid::File);
        let moved = no_read.replace("sid file tmp_t:s0", "sid file bin_t:s0");
        assert_eq!(load(&parse(&moved).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(
            with(|p| {
                let p = p.unwrap();
                p.type_name(p.context(file).context.ty).to_vec()
            }),
            b"bin_t"
        );
        assert_eq!(load(&parse(&added).unwrap().compile().unwrap()), Ok(()));
        assert_eq!(decide(), (Ok(()), Err(EACCES)));
        // Permissive: counted, allowed.
        set_enforcing(false);
        let before = counts().denials;
        assert_eq!(decide(), (Ok(()), Ok(())));
        assert_eq!(counts().denials, before + 1);
        set_enforcing(true);
    }
}
