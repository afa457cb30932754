// SPDX-License-Identifier: GPL-2.0

//! Asking the policy in force from userspace, as `/sys/fs/selinux` lets
//! userspace object managers ask SELinux: `mlte/access`, `mlte/create`,
//! `mlte/relabel`, `mlte/member` and `mlte/context`, transaction files
//! (write a question, read the answer on the same open file), as
//! selinuxfs's of the same names; `mlte/validatetrans`, written; and,
//! read-only, `mlte/mls` (`1`) and `mlte/policyvers` (the compiled form's
//! version).
//!
//! - `access`: `SCON TCON CLASS [REQUESTED]` gives SELinux's answer line,
//!   `ALLOWED DECIDED AUDITALLOW AUDITDENY SEQNO FLAGS` (`%x %x %x %x %u
//!   %x`): the permissions of `CLASS` the policy allows `SCON` on `TCON`, as
//!   a bitmap in the class's permission order (`classes.rs`); every bit
//!   decided; the grants that are logged (what `auditallow` rules name,
//!   whether allowed or not, as SELinux's auditallow); the denials that
//!   are logged (all but those a `dontaudit` rule names, as SELinux's
//!   auditdeny); the policy's sequence number (policies loaded since
//!   boot); the flags, `1` (`AVD_FLAGS_PERMISSIVE`) when `SCON`'s type is
//!   a `permissive` domain.
//! - `create`: `SCON TCON CLASS [NAME]` gives the context of a new object
//!   of `CLASS` (named `NAME`) that `SCON` creates in `TCON` (for
//!   `process`: the domain an exec of a `TCON` file enters), as SELinux's
//!   `security_transition_sid()` (`Compiled::new_context`, what the hooks
//!   give). `NAME` is decoded as `sel_write_create()` decodes it: `+` a
//!   space, `%XX` a byte, up to the first NUL.
//! - `relabel`: `SCON TCON CLASS`, the same as SELinux's
//!   `security_change_sid()` (`type_change`).
//! - `member`: `SCON TCON CLASS`, the same as SELinux's
//!   `security_member_sid()` (`type_member`).
//!
//!   The three answer with the context and a NUL, as selinuxfs. A computed
//!   context the policy does not find valid is refused with `EACCES` when
//!   mlte enforces, and given when permissive, as SELinux's
//!   `compute_sid_handle_invalid_context()`.
//! - `context`: `CONTEXT` gives the context in canonical form, followed by a
//!   NUL as selinuxfs gives it, or `EINVAL` when the policy does not accept
//!   it.
//! - `validatetrans` (written, not a transaction, as selinuxfs's):
//!   `OLDCON NEWCON CLASS TASKCON` succeeds when relabelling an object of
//!   `CLASS` from `OLDCON` to `NEWCON` by a task in `TASKCON` passes the
//!   class's `validatetrans` statements, and gets `EPERM` when it does not.
//!
//! `CLASS` is a class's name or its number (the index in `classes.rs`,
//! from 1, as SELinux numbers classes from 1). A question may end with a
//! newline or a NUL. A bad question gets `EINVAL` and a log line that says
//! which word is wrong and why; with no policy loaded every question gets
//! `EINVAL`. The decisions are the hooks' (`Compiled::denied` on the two
//! contexts), computed without touching the SID table or the decision
//! cache, so that a question neither allocates nor evicts a hook's entry.
//!
//! Stricter than SELinux: SELinux lets any task with `security
//! compute_av` (and so on) ask; mlte mediates no `security` class yet, so
//! the asker needs `CAP_MAC_ADMIN`, as for every write to stacker's files.
//!
//! Kernel-independent: the answers are pure functions of a checked policy,
//! which the host tests call directly.

use core::fmt::{self, Write};

use super::booleans::Conds;
use super::classes::Class;
use super::compiled::{Compiled, Computation, MAX_NAME, MAX_OBJECT_NAME};
use super::context::{Context, Shown};
use super::level::Level;
use crate::attribute::Attribute;
use crate::error::{Result, EACCES, EINVAL, EPERM};
use crate::platform::{self, TextBuf};

use super::hooks::check_security;
use super::hooks::perms::{
    SECURITY_CHECK_CONTEXT, SECURITY_COMPUTE_AV, SECURITY_COMPUTE_CREATE, SECURITY_COMPUTE_MEMBER,
    SECURITY_COMPUTE_RELABEL, SECURITY_VALIDATE_TRANS,
};
use super::policy;

/// Why a question was refused: which word, and what was wrong with it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Refusal {
    /// Too few or too many words; the message says what the file takes.
    Words(&'static str),
    /// Word `n` (from 1) is not a context the policy accepts.
    Context(usize, super::context::ContextError),
    /// Word `n` is not a class's name or number.
    Class(usize),
    /// Word `n` is not a hexadecimal permission bitmap.
    Requested(usize),
    /// Word `n` is not a name encoded as selinuxfs takes it.
    Name(usize),
    /// The question is not text.
    NotText,
    /// The computed context is not valid under the policy.
    Invalid(super::context::ContextError),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Words(expected) => write!(f, "expected {expected}"),
            Refusal::Context(n, e) => write!(f, "word {n}: {e}"),
            Refusal::Class(n) => write!(f, "word {n}: no such class (a name or a number from 1)"),
            Refusal::Requested(n) => write!(f, "word {n}: not a hexadecimal permission bitmap"),
            Refusal::Name(n) => write!(f, "word {n}: a '%' not followed by two hexadecimal digits"),
            Refusal::NotText => f.write_str("not text"),
            Refusal::Invalid(e) => write!(f, "the new context is not valid: {e}"),
        }
    }
}

/// The words of a question: up to `N`, split on single spaces, with one
/// trailing newline or NUL dropped; past `N` words, the refusal that says
/// the file takes `expected`.
fn words<'a, const N: usize>(
    question: &'a [u8],
    expected: &'static str,
) -> core::result::Result<([&'a [u8]; N], usize), Refusal> {
    let text = question
        .strip_suffix(b"\0")
        .or_else(|| question.strip_suffix(b"\n"))
        .unwrap_or(question);
    if text.iter().any(|&b| !(b.is_ascii_graphic() || b == b' ')) {
        return Err(Refusal::NotText);
    }
    let mut out = [&[][..]; N];
    let mut count = 0;
    for word in text.split(|&b| b == b' ') {
        let slot = out.get_mut(count).ok_or(Refusal::Words(expected))?;
        *slot = word;
        count += 1;
    }
    Ok((out, count))
}

/// The class named or numbered `word` (the `n`th).
fn class(word: &[u8], n: usize) -> core::result::Result<Class, Refusal> {
    if let Some(class) = Class::ALL.iter().find(|c| c.name().as_bytes() == word) {
        return Ok(*class);
    }
    let number = core::str::from_utf8(word)
        .ok()
        .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|w| w.parse::<usize>().ok());
    number
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| Class::ALL.get(i))
        .copied()
        .ok_or(Refusal::Class(n))
}

/// The context `word` (the `n`th) under `policy`.
fn context(policy: &Compiled<'_>, word: &[u8], n: usize) -> core::result::Result<Context, Refusal> {
    Context::parse(word, policy).map_err(|e| Refusal::Context(n, e))
}

/// `access`: the permissions of `CLASS` the policy allows `SCON` on
/// `TCON`, for `SCON TCON CLASS [REQUESTED]`.
pub(crate) fn access(
    policy: &Compiled<'_>,
    conds: &impl Conds,
    question: &[u8],
) -> core::result::Result<Decision, Refusal> {
    const EXPECTED: &str = "SCON TCON CLASS [REQUESTED]";
    let (w, count) = words::<4>(question, EXPECTED)?;
    if count < 3 {
        return Err(Refusal::Words(EXPECTED));
    }
    let (s, t) = (context(policy, w[0], 1)?, context(policy, w[1], 2)?);
    let class = class(w[2], 3)?;
    if count == 4 {
        // As SELinux, the requested permissions do not change the answer;
        // they must still be a bitmap.
        core::str::from_utf8(w[3])
            .ok()
            .and_then(|r| u32::from_str_radix(r.trim_start_matches("0x"), 16).ok())
            .ok_or(Refusal::Requested(4))?;
    }
    let all = class.all_perms();
    Ok(Decision {
        allowed: all & !policy.denied(&s, &t, class, all, conds),
        auditallow: policy.auditallow(s.ty, t.ty, class, conds),
        auditdeny: !policy.dontaudit(s.ty, t.ty, class, conds),
        permissive: policy.permissive(s.ty),
    })
}

/// What `access` answers: the allowed vector, the grants that are logged
/// (`auditallow`), the denials that are logged (all but those of
/// `dontaudit` rules), and whether the source's domain is permissive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Decision {
    pub(crate) allowed: u32,
    pub(crate) auditallow: u32,
    pub(crate) auditdeny: u32,
    pub(crate) permissive: bool,
}

/// SELinux's `AVD_FLAGS_PERMISSIVE`, the flag of a permissive domain.
const AVD_FLAGS_PERMISSIVE: u32 = 0x0001;

/// `access`'s answer line: SELinux's `%x %x %x %x %u %x`.
pub(crate) fn write_access(out: &mut impl Write, d: Decision, seqno: u64) -> fmt::Result {
    let flags = if d.permissive {
        AVD_FLAGS_PERMISSIVE
    } else {
        0
    };
    write!(
        out,
        "{:x} ffffffff {:x} {:x} {seqno} {flags:x}",
        d.allowed, d.auditallow, d.auditdeny
    )
}

/// A name copied out of the policy.
#[derive(Clone, Copy)]
struct NameCopy {
    bytes: [u8; MAX_NAME as usize],
    len: usize,
}

impl NameCopy {
    /// A copy of `name` (cut at [`MAX_NAME`] bytes, which no name passes).
    fn new(name: &[u8]) -> NameCopy {
        let mut bytes = [0u8; MAX_NAME as usize];
        let len = name.len().min(bytes.len());
        if let (Some(to), Some(from)) = (bytes.get_mut(..len), name.get(..len)) {
            to.copy_from_slice(from);
        }
        NameCopy { bytes, len }
    }

    fn get(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }
}

/// A context with its names copied out of the policy, so that it can be
/// shown after the policy's read-side section.
#[derive(Clone, Copy)]
pub(crate) struct NamedContext {
    user: NameCopy,
    role: NameCopy,
    ty: NameCopy,
    low: Level,
    high: Level,
}

impl NamedContext {
    /// `ctx`, with its names from `policy`.
    fn new(policy: &Compiled<'_>, ctx: &Context) -> NamedContext {
        NamedContext {
            user: NameCopy::new(policy.user_name(ctx.user)),
            role: NameCopy::new(policy.role_name(ctx.role)),
            ty: NameCopy::new(policy.type_name(ctx.ty)),
            low: ctx.low,
            high: ctx.high,
        }
    }

    /// The text form.
    pub(crate) fn shown(&self) -> Shown<'_> {
        Shown::new(
            self.user.get(),
            self.role.get(),
            self.ty.get(),
            &self.low,
            &self.high,
        )
    }
}

/// The name of a new object as `create` takes it: selinuxfs's
/// `sel_write_create()` decoding, `+` a space and `%XX` a byte, up to the
/// first NUL.
struct ObjectName {
    /// The name; past [`MAX_OBJECT_NAME`] bytes, its first `MAX_OBJECT_NAME
    /// + 1`, which no rule's name matches.
    bytes: [u8; MAX_OBJECT_NAME + 1],
    len: usize,
}

impl ObjectName {
    /// Decodes `word` (the `n`th).
    fn decode(word: &[u8], n: usize) -> core::result::Result<ObjectName, Refusal> {
        let mut name = ObjectName {
            bytes: [0; MAX_OBJECT_NAME + 1],
            len: 0,
        };
        let hex = |b: Option<&u8>| {
            b.and_then(|&b| char::from(b).to_digit(16))
                .ok_or(Refusal::Name(n))
        };
        let mut r = word.iter();
        while let Some(&c) = r.next() {
            let c = match c {
                b'+' => b' ',
                b'%' => {
                    let (high, low) = (hex(r.next())?, hex(r.next())?);
                    u8::try_from(high << 4 | low).map_err(|_| Refusal::Name(n))?
                }
                c => c,
            };
            if c == 0 {
                break;
            }
            if let Some(slot) = name.bytes.get_mut(name.len) {
                *slot = c;
                name.len += 1;
            }
        }
        Ok(name)
    }

    fn get(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }
}

/// The context `how` computes for `SCON TCON CLASS` (the words `w`), or
/// when `enforcing` `Invalid` for one the policy does not find valid, as
/// SELinux's `security_compute_sid()` (permissive, it gives it).
fn new_context(
    policy: &Compiled<'_>,
    w: &[&[u8]],
    how: Computation<'_>,
    enforcing: bool,
) -> core::result::Result<NamedContext, Refusal> {
    let word = |i: usize| w.get(i).copied().unwrap_or(&[]);
    let (s, t) = (context(policy, word(0), 1)?, context(policy, word(1), 2)?);
    let new = policy.new_context(&s, &t, class(word(2), 3)?, how);
    if enforcing {
        policy.validate(&new).map_err(Refusal::Invalid)?;
    }
    Ok(NamedContext::new(policy, &new))
}

/// `create`: the context of the new object of `SCON TCON CLASS [NAME]`
/// (SELinux's `security_transition_sid()`).
pub(crate) fn create(
    policy: &Compiled<'_>,
    question: &[u8],
    enforcing: bool,
) -> core::result::Result<NamedContext, Refusal> {
    const EXPECTED: &str = "SCON TCON CLASS [NAME]";
    let (w, count) = words::<4>(question, EXPECTED)?;
    if count < 3 {
        return Err(Refusal::Words(EXPECTED));
    }
    let name = if count == 4 {
        Some(ObjectName::decode(w[3], 4)?)
    } else {
        None
    };
    let how = Computation::Create {
        name: name.as_ref().map(ObjectName::get),
    };
    new_context(policy, &w, how, enforcing)
}

/// `relabel` (`type_change`, SELinux's `security_change_sid()`) or
/// `member` (`type_member`, `security_member_sid()`): the context `how`
/// gives for `SCON TCON CLASS`.
pub(crate) fn relabel_or_member(
    policy: &Compiled<'_>,
    question: &[u8],
    how: Computation<'_>,
    enforcing: bool,
) -> core::result::Result<NamedContext, Refusal> {
    const EXPECTED: &str = "SCON TCON CLASS";
    let (w, count) = words::<3>(question, EXPECTED)?;
    if count != 3 {
        return Err(Refusal::Words(EXPECTED));
    }
    new_context(policy, &w, how, enforcing)
}

/// `validatetrans`: whether `OLDCON NEWCON CLASS TASKCON` passes the
/// class's `validatetrans` statements (SELinux's
/// `security_validate_transition_user()`).
pub(crate) fn validatetrans(
    policy: &Compiled<'_>,
    question: &[u8],
) -> core::result::Result<bool, Refusal> {
    const EXPECTED: &str = "OLDCON NEWCON CLASS TASKCON";
    let (w, count) = words::<4>(question, EXPECTED)?;
    if count != 4 {
        return Err(Refusal::Words(EXPECTED));
    }
    let (old, new) = (context(policy, w[0], 1)?, context(policy, w[1], 2)?);
    let class = class(w[2], 3)?;
    let task = context(policy, w[3], 4)?;
    Ok(policy.validate_transition(&old, &new, &task, class))
}

/// `context`: `CONTEXT` in canonical form (shown with a NUL after it).
pub(crate) fn canonical(
    policy: &Compiled<'_>,
    question: &[u8],
) -> core::result::Result<NamedContext, Refusal> {
    const EXPECTED: &str = "CONTEXT";
    let (w, count) = words::<1>(question, EXPECTED)?;
    if count != 1 {
        return Err(Refusal::Words(EXPECTED));
    }
    Ok(NamedContext::new(policy, &context(policy, w[0], 1)?))
}

/// Answers a question to `file` with `answer` (which holds the question)
/// under the policy in force, in its read-side section (so `answer`
/// neither sleeps nor formats: it returns a value to show after): `EINVAL`
/// and a log line for a refused question, or without a policy.
fn decide<T: Send>(
    file: &str,
    needs: u32,
    answer: impl FnOnce(&policy::Policy<'_>) -> core::result::Result<T, Refusal> + Send,
) -> Result<T> {
    check_security(needs)?;
    match policy::with(|p| p.map(answer)) {
        Some(Ok(value)) => Ok(value),
        Some(Err(refusal)) => {
            if platform::ratelimit_securityfs() {
                // The kernel's `pr_warn!` formats its own `Display`;
                // `Refusal` has `core`'s, which `format_args!` reaches.
                platform::pr_warn!(
                    "{}\n",
                    format_args!("mlte: {file}: question refused: {refusal}")
                );
            }
            // As selinuxfs: a computed context that is not valid is the
            // `EACCES` of security_compute_sid(), not a bad question.
            Err(if matches!(refusal, Refusal::Invalid(_)) {
                EACCES
            } else {
                EINVAL
            })
        }
        None => {
            if platform::ratelimit_securityfs() {
                platform::pr_warn!("mlte: {file}: question refused: no policy is loaded\n");
            }
            Err(EINVAL)
        }
    }
}

/// `.../mlte/access` ([`access`]).
pub(crate) struct AccessFile;

impl Attribute for AccessFile {
    const TRANSACTION: bool = true;

    fn show(_out: &mut TextBuf) -> Result {
        Ok(())
    }

    fn answer(input: &[u8], out: &mut TextBuf) -> Result {
        let seqno = policy::seqno();
        let decision = decide("access", SECURITY_COMPUTE_AV, |p| {
            access(p, &p.bool_state().snapshot(p.cond_count()), input)
        })?;
        out.format(|out| write_access(out, decision, seqno))
    }
}

/// `.../mlte/create` ([`create`]).
pub(crate) struct CreateFile;

impl Attribute for CreateFile {
    const TRANSACTION: bool = true;

    fn show(_out: &mut TextBuf) -> Result {
        Ok(())
    }

    fn answer(input: &[u8], out: &mut TextBuf) -> Result {
        let enforcing = policy::enforcing();
        let new = decide("create", SECURITY_COMPUTE_CREATE, |p| {
            create(p, input, enforcing)
        })?;
        out.format(|out| write!(out, "{}\0", new.shown()))
    }
}

/// `.../mlte/relabel` (`type_change`) and `.../mlte/member`
/// (`type_member`): [`relabel_or_member`], `MEMBER` says which.
pub(crate) struct RelabelOrMemberFile<const MEMBER: bool>;

/// `.../mlte/relabel`.
pub(crate) type RelabelFile = RelabelOrMemberFile<false>;
/// `.../mlte/member`.
pub(crate) type MemberFile = RelabelOrMemberFile<true>;

impl<const MEMBER: bool> Attribute for RelabelOrMemberFile<MEMBER> {
    const TRANSACTION: bool = true;

    fn show(_out: &mut TextBuf) -> Result {
        Ok(())
    }

    fn answer(input: &[u8], out: &mut TextBuf) -> Result {
        let (file, how, needs) = if MEMBER {
            ("member", Computation::Member, SECURITY_COMPUTE_MEMBER)
        } else {
            ("relabel", Computation::Relabel, SECURITY_COMPUTE_RELABEL)
        };
        let enforcing = policy::enforcing();
        let new = decide(file, needs, |p| relabel_or_member(p, input, how, enforcing))?;
        out.format(|out| write!(out, "{}\0", new.shown()))
    }
}

/// `.../mlte/context` ([`canonical`]).
pub(crate) struct ContextFile;

impl Attribute for ContextFile {
    const TRANSACTION: bool = true;

    fn show(_out: &mut TextBuf) -> Result {
        Ok(())
    }

    fn answer(input: &[u8], out: &mut TextBuf) -> Result {
        let ctx = decide("context", SECURITY_CHECK_CONTEXT, |p| canonical(p, input))?;
        out.format(|out| write!(out, "{}\0", ctx.shown()))
    }
}

/// `.../mlte/validatetrans` ([`validatetrans`]): a write of a question
/// succeeds when the transition is valid, and gets `EPERM` when it is not,
/// as selinuxfs's `validatetrans`.
pub(crate) struct ValidatetransFile;

impl Attribute for ValidatetransFile {
    const WRITABLE: bool = true;

    fn show(_out: &mut TextBuf) -> Result {
        Ok(())
    }

    fn store(input: &[u8]) -> Result {
        if decide("validatetrans", SECURITY_VALIDATE_TRANS, |p| {
            validatetrans(p, input)
        })? {
            Ok(())
        } else {
            Err(EPERM)
        }
    }
}

/// `.../mlte/mls`: `1`, as selinuxfs's `mls` for a policy with MLS
/// (mlte's always has levels), for libselinux's `is_selinux_mls_enabled`.
pub(crate) struct MlsFile;

impl Attribute for MlsFile {
    fn show(out: &mut TextBuf) -> Result {
        out.format(|out| out.write_str("1"))
    }
}

/// `.../mlte/policyvers`: the version of the compiled form this kernel
/// loads, as selinuxfs's `policyvers` gives the policy database version it
/// reads (no newline, as there).
pub(crate) struct PolicyversFile;

impl Attribute for PolicyversFile {
    fn show(out: &mut TextBuf) -> Result {
        out.format(|out| write!(out, "{}", super::compiled::VERSION))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mlte::booleans::CondValues;
    use crate::mlte::classes::perm;
    use crate::mlte::compiled::tests::POLICY;
    use crate::mlte::compiled::Checked;
    use crate::mlte::policy_text::parse;

    fn policy() -> Checked<Vec<u8>> {
        Checked::new(parse(POLICY).unwrap().compile().unwrap()).unwrap()
    }

    fn ask_access(q: &str) -> core::result::Result<String, Refusal> {
        let decision = access(&policy().view(), &CondValues::NONE, q.as_bytes())?;
        let mut out = String::new();
        write_access(&mut out, decision, 7).unwrap();
        Ok(out)
    }

    fn ask_create(q: &str) -> core::result::Result<String, Refusal> {
        Ok(create(&policy().view(), q.as_bytes(), true)?
            .shown()
            .to_string())
    }

    fn ask_context(q: &[u8]) -> core::result::Result<String, Refusal> {
        Ok(format!("{}\0", canonical(&policy().view(), q)?.shown()))
    }

    /// The answers are the decisions the hooks make (`Compiled::denied`),
    /// in SELinux's format.
    #[test]
    fn access_gives_the_allowed_vector_in_selinux_format() {
        let (read, write) = (perm(Class::File, "read"), perm(Class::File, "write"));
        // user_t may read and write tmp_t files; MLS decides by level.
        let same = format!("{:x} ffffffff 0 ffffffff 7 0", read | write);
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 file").unwrap(),
            same
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 1 6\n").unwrap(),
            same,
            "class number, requested"
        );
        let down = format!("{read:x} ffffffff 0 ffffffff 7 0");
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s0 file").unwrap(),
            down,
            "no write down"
        );
        let up = format!("{write:x} ffffffff 0 ffffffff 7 0");
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s2 file").unwrap(),
            up,
            "no read up"
        );
        let dir = ["search", "add_name", "write"].map(|p| perm(Class::Dir, p));
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 dir\0").unwrap(),
            format!("{:x} ffffffff 0 ffffffff 7 0", dir[0] | dir[1] | dir[2])
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:bin_t:s1 file").unwrap(),
            "0 ffffffff 0 ffffffff 7 0"
        );
        let signal = perm(Class::Process, "signal");
        assert_eq!(
            ask_access("system_u:system_r:user_t:s0 system_u:system_r:user_t:s0 process").unwrap(),
            format!("{signal:x} ffffffff 0 ffffffff 7 0"),
            "self"
        );
    }

    /// `auditallow` fills the third field (whether allowed or not, as
    /// SELinux's), `permissive` the flags (`AVD_FLAGS_PERMISSIVE`).
    #[test]
    fn access_gives_auditallow_and_the_permissive_flag() {
        let text = format!(
            "{POLICY}\nauditallow user_t tmp_t : file {{ read getattr }};\npermissive user_t;\n"
        );
        let checked = Checked::new(parse(&text).unwrap().compile().unwrap()).unwrap();
        let ask = |q: &str| {
            let mut out = String::new();
            let decision = access(&checked.view(), &CondValues::NONE, q.as_bytes()).unwrap();
            write_access(&mut out, decision, 7).unwrap();
            out
        };
        let (read, write, getattr) = (
            perm(Class::File, "read"),
            perm(Class::File, "write"),
            perm(Class::File, "getattr"),
        );
        assert_eq!(
            ask("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 file"),
            format!(
                "{:x} ffffffff {:x} ffffffff 7 1",
                read | write,
                read | getattr
            )
        );
        assert_eq!(
            ask("system_u:system_r:init_t:s0 system_u:object_r:tmp_t:s0 file"),
            "0 ffffffff 0 ffffffff 7 0",
            "init_t: neither"
        );
    }

    /// `validatetrans`: SELinux's word order (old, new, class, task).
    #[test]
    fn validatetrans_answers_whether_a_relabel_is_valid() {
        let text = format!("{POLICY}\nvalidatetrans file (t1 == t2 or t3 == init_t);\n");
        let checked = Checked::new(parse(&text).unwrap().compile().unwrap()).unwrap();
        let ask = |q: &str| validatetrans(&checked.view(), q.as_bytes());
        let (tmp, bin) = ("system_u:object_r:tmp_t:s0", "system_u:object_r:bin_t:s0");
        let (init, user) = ("system_u:system_r:init_t:s0", "system_u:system_r:user_t:s0");
        assert_eq!(ask(&format!("{tmp} {tmp} file {user}")), Ok(true));
        assert_eq!(ask(&format!("{tmp} {bin} file {user}")), Ok(false));
        assert_eq!(ask(&format!("{tmp} {bin} 1 {init}\n")), Ok(true));
        assert_eq!(ask(&format!("{tmp} {bin} dir {user}")), Ok(true));
        assert_eq!(
            ask(&format!("{tmp} {bin} file")),
            Err(Refusal::Words("OLDCON NEWCON CLASS TASKCON"))
        );
        assert!(matches!(
            ask(&format!("{tmp} {bin} file nobody")),
            Err(Refusal::Context(4, _))
        ));
    }

    #[test]
    fn bad_questions_say_which_word_and_why() {
        use crate::mlte::context::ContextError;
        let words = Refusal::Words("SCON TCON CLASS [REQUESTED]");
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1"),
            Err(words)
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 file 1 2"),
            Err(words)
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1  system_u:object_r:tmp_t:s1 file"),
            Err(Refusal::Context(2, ContextError::ExpectedFields))
        );
        assert_eq!(
            ask_access("system_u:system_r:nobody_t:s0 system_u:object_r:tmp_t:s1 file"),
            Err(Refusal::Context(1, ContextError::UnknownType))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s3 file"),
            Err(Refusal::Context(2, ContextError::LevelNotAllowed))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 fil"),
            Err(Refusal::Class(3))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 0"),
            Err(Refusal::Class(3))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 32"),
            Err(Refusal::Class(3))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 +1"),
            Err(Refusal::Class(3))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s1 file zz"),
            Err(Refusal::Requested(4))
        );
        assert_eq!(
            ask_access("system_u:system_r:user_t:s1\ttmp_t:s1 file"),
            Err(Refusal::NotText)
        );
        assert_eq!(ask_access(""), Err(words));
        assert_eq!(
            Refusal::Context(2, ContextError::UnknownType).to_string(),
            "word 2: unknown type"
        );
    }

    #[test]
    fn create_gives_the_new_objects_context() {
        // A type_transition, at the creator's level.
        assert_eq!(
            ask_create("system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s0 file").unwrap(),
            "system_u:object_r:user_tmp_t:s1"
        );
        // None: the directory's type; for a process, the source's.
        assert_eq!(
            ask_create("system_u:system_r:user_t:s2 system_u:object_r:tmp_t:s0 dir").unwrap(),
            "system_u:object_r:tmp_t:s2"
        );
        assert_eq!(
            ask_create("system_u:system_r:init_t:s0 system_u:object_r:bin_t:s0 process").unwrap(),
            "system_u:system_r:user_t:s0"
        );
        assert_eq!(
            ask_create("system_u:system_r:user_t:s0 system_u:object_r:bin_t:s0 process").unwrap(),
            "system_u:system_r:user_t:s0"
        );
        // A socket, as a process, keeps its creator's type.
        assert_eq!(
            ask_create("system_u:system_r:user_t:s0 system_u:object_r:tmp_t:s0 socket").unwrap(),
            "system_u:system_r:user_t:s0"
        );
        // A range: a new file gets the creator's low level, a socket its
        // whole range.
        assert_eq!(
            ask_create("system_u:system_r:user_t:s0-s2:c0.c2 system_u:object_r:tmp_t:s1 file")
                .unwrap(),
            "system_u:object_r:user_tmp_t:s0"
        );
        assert_eq!(
            ask_create("system_u:system_r:user_t:s0-s2:c0.c2 system_u:object_r:tmp_t:s1 socket")
                .unwrap(),
            "system_u:system_r:user_t:s0-s2:c0.c2"
        );
        // A computed context the policy does not find valid is no answer,
        // as SELinux's security_compute_sid(): system_r may not have bin_t.
        let text = POLICY.replace(
            "type_transition user_t tmp_t : file user_tmp_t;",
            "type_transition user_t tmp_t : file user_tmp_t;\n\
             type_transition user_t tmp_t : process bin_t;",
        );
        let checked = Checked::new(parse(&text).unwrap().compile().unwrap()).unwrap();
        let q = b"system_u:system_r:user_t:s0 system_u:object_r:tmp_t:s0 process";
        assert_eq!(
            create(&checked.view(), q, true).map(|_| ()),
            Err(Refusal::Invalid(
                crate::mlte::context::ContextError::RoleWithoutType
            ))
        );
        // A role_transition gives the new role.
        let text = text
            .replace(
                "role system_r types { init_t user_t };",
                "role system_r types { init_t user_t }; role bin_r types bin_t;\n\
             role_transition system_r tmp_t bin_r;",
            )
            .replace("roles system_r", "roles { system_r bin_r }");
        let checked = Checked::new(parse(&text).unwrap().compile().unwrap()).unwrap();
        assert_eq!(
            create(&checked.view(), q, true)
                .unwrap()
                .shown()
                .to_string(),
            "system_u:bin_r:bin_t:s0"
        );
        assert_eq!(
            ask_create("system_u:system_r:user_t:s0 system_u:object_r:bin_t:s0"),
            Err(Refusal::Words("SCON TCON CLASS [NAME]"))
        );
    }

    #[test]
    fn context_gives_the_canonical_form() {
        assert_eq!(
            ask_context(b"system_u:system_r:user_t:s1:c2,c0,c1\0").unwrap(),
            "system_u:system_r:user_t:s1:c0.c2\0"
        );
        assert_eq!(
            ask_context(b"system_u:system_r:user_t:s0\n").unwrap(),
            "system_u:system_r:user_t:s0\0"
        );
        assert_eq!(
            ask_context(b"system_u:system_r:user_t:s0-s0").unwrap(),
            "system_u:system_r:user_t:s0\0",
            "a range whose high level is its low one"
        );
        assert_eq!(
            ask_context(b"system_u:system_r:user_t:s0-s2:c2,c1,c0").unwrap(),
            "system_u:system_r:user_t:s0-s2:c0.c2\0"
        );
        assert_eq!(
            ask_context(b"user_t:s0"),
            Err(Refusal::Context(
                1,
                crate::mlte::context::ContextError::ExpectedFields
            )),
            "the old TYPE:LEVEL form"
        );
        assert!(matches!(
            ask_context(b"system_u:system_r:user_t:s0:c0"),
            Err(Refusal::Context(1, _))
        ));
        assert_eq!(
            ask_context(b"system_u:system_r:user_t:s0 x"),
            Err(Refusal::Words("CONTEXT"))
        );
        assert_eq!(ask_context(b"user_t:\xff"), Err(Refusal::NotText));
    }

    /// `create` with a name (decoded as selinuxfs decodes it), `relabel`
    /// and `member`; an invalid result is `EACCES` only when enforcing, as
    /// SELinux's `compute_sid_handle_invalid_context()`.
    #[test]
    fn create_with_a_name_relabel_and_member() {
        use crate::mlte::compiled::tests::NEW_OBJECTS;
        use crate::mlte::context::ContextError;
        let text = format!("{POLICY}{NEW_OBJECTS}");
        let checked = Checked::new(parse(&text).unwrap().compile().unwrap()).unwrap();
        let p = checked.view();
        let ask = |f: fn(&Compiled<'_>, &[u8]) -> core::result::Result<NamedContext, Refusal>,
                   q: &str| f(&p, q.as_bytes()).map(|c| c.shown().to_string());
        let create = |p: &Compiled<'_>, q: &[u8]| create(p, q, true);
        let relabel =
            |p: &Compiled<'_>, q: &[u8]| relabel_or_member(p, q, Computation::Relabel, true);
        let member =
            |p: &Compiled<'_>, q: &[u8]| relabel_or_member(p, q, Computation::Member, true);
        let st = "system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s0";
        for (name, want) in [
            ("a+b", "bin_t"),
            ("a%20b", "bin_t"),
            ("%61%20%62", "bin_t"),
            ("a+b%00c", "bin_t"),
            ("z", "init_t"),
            ("%7a", "init_t"),
            ("Z", "user_tmp_t"),
            ("a", "user_tmp_t"),
            ("a+b+", "user_tmp_t"),
            ("%00", "user_tmp_t"),
        ] {
            assert_eq!(
                ask(create, &format!("{st} file {name}\n")).unwrap(),
                format!("system_u:object_r:{want}:s1"),
                "{name}"
            );
        }
        let long = "x".repeat(300);
        assert_eq!(
            ask(create, &format!("{st} file {long}")).unwrap(),
            "system_u:object_r:user_tmp_t:s1"
        );
        for bad in ["%", "%4", "a%g0", "%0g"] {
            assert_eq!(
                ask(create, &format!("{st} file {bad}")),
                Err(Refusal::Name(4)),
                "{bad}"
            );
        }
        assert_eq!(
            ask(create, &format!("{st} file a b")),
            Err(Refusal::Words("SCON TCON CLASS [NAME]"))
        );
        // A range_transition: only for a new object.
        assert_eq!(
            ask(
                create,
                "system_u:system_r:init_t:s0 system_u:object_r:bin_t:s0 process"
            )
            .unwrap(),
            "system_u:system_r:user_t:s1:c0-s2:c0.c2"
        );
        assert_eq!(
            ask(relabel, &format!("{st} file")).unwrap(),
            "system_u:object_r:bin_t:s1"
        );
        assert_eq!(
            ask(relabel, &format!("{st} dir")).unwrap(),
            "system_u:object_r:tmp_t:s1"
        );
        assert_eq!(
            ask(member, &format!("{st} dir")).unwrap(),
            "system_u:object_r:user_tmp_t:s1"
        );
        assert_eq!(
            ask(
                member,
                "system_u:system_r:init_t:s0 system_u:object_r:bin_t:s0 process"
            )
            .unwrap(),
            "system_u:system_r:init_t:s0"
        );
        for f in [relabel, member] {
            assert_eq!(
                ask(f, &format!("{st} file x")),
                Err(Refusal::Words("SCON TCON CLASS"))
            );
            assert_eq!(ask(f, &format!("{st} fil")), Err(Refusal::Class(3)));
        }
        // type_change to bin_t for a process: system_r may not have bin_t.
        let text = format!("{text}type_change user_t tmp_t : process bin_t;\n");
        let checked = Checked::new(parse(&text).unwrap().compile().unwrap()).unwrap();
        let q = format!("{st} process");
        assert_eq!(
            relabel_or_member(&checked.view(), q.as_bytes(), Computation::Relabel, true)
                .map(|_| ()),
            Err(Refusal::Invalid(ContextError::RoleWithoutType))
        );
        let permissive =
            relabel_or_member(&checked.view(), q.as_bytes(), Computation::Relabel, false);
        assert_eq!(
            permissive.unwrap().shown().to_string(),
            "system_u:system_r:bin_t:s1",
            "permissive: the invalid context, as SELinux gives it"
        );
    }
}
