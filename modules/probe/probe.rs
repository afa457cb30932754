// SPDX-License-Identifier: GPL-2.0

//! `probe`, `probe_b`, `probe_c`: test-only submodules that implement every
//! hook of the hook table.
//!
//! They enforce nothing. Every hook gives the "no opinion" answer, so a
//! chain of them shows what dispatch alone costs (`make bench`), and, with
//! `CONFIG_SECURITY_STACKER_STATS`, `/sys/kernel/security/stacker/stats`
//! shows which hooks userspace reached (the guest's `probe_test`).
//!
//! Instance 0, `probe`, also answers the hooks with rules of their own, so
//! that the guest can check those rules:
//!
//! - `getprocattr`: attribute `current` is a number, one for the whole
//!   system, 0 at boot; `setprocattr` of `current` sets it from a decimal
//!   number of at most 9 digits (`EINVAL` for anything else). Through the
//!   LSM syscalls they are `lsm_get_self_attr(2)` and `lsm_set_self_attr(2)`
//!   with the value `probe:NUMBER`;
//! - `inode_init_security`: each new inode gets the xattr
//!   `security.probe_init`, `1`, stored by its file system;
//! - `inode_getsecurity`: `security.probe` of every inode reads `probe`,
//!   without any xattr stored; `inode_listsecurity` lists it;
//! - `task_prctl`: option [`PR_PROBE`] returns its first argument plus one
//!   (at most `i32::MAX`); every other option is not its own (`ENOSYS`);
//! - `socket_getpeersec_stream`: the peer label of every stream socket
//!   (`getsockopt(SO_PEERSEC)`) is `probe`;
//! - labels as secids (`core/lsm_prop.rs`): the label of every task,
//!   inode, IPC object and datagram is its attribute `current`, as secid
//!   `current + 1`, whose text is the number; so audit records carry
//!   `subj_probe=NUMBER` and `obj_probe=NUMBER`;
//!   An audit rule `subj_type=NUMBER` (`=` only) matches a task whose
//!   `current` is NUMBER;
//! - `inode_xattr_skipcap`: it checks [`SKIPCAP_XATTR`] itself (it allows
//!   everything), so setting or removing that xattr needs no
//!   `CAP_SYS_ADMIN`; every other name keeps the check;
//! - `inode_copy_up_xattr`: overlayfs leaves [`COPY_UP_DISCARD_XATTR`]
//!   behind when it copies a file up; every other name is not its own;
//! - mount options: `probe_opt=N` (a decimal number of at most 9 digits;
//!   anything else is `EINVAL`, and the mount fails) is its own; when a
//!   superblock is set up with it, `sb_set_mnt_opts` keeps N, which
//!   `prctl(`[`PR_PROBE_MOUNT_OPT`]`)` returns (`ENOENT` before any).
//!
//! Kernel-independent: the host harness runs the same file.

use crate::context::MaySleep;
use crate::error::{Result, EINVAL, ENOENT, ENOPROTOOPT, ENOSYS, EOPNOTSUPP};
use crate::hook::{Hook, HookSet};
#[allow(unused_imports)]
use crate::objects::*;
use crate::submodule::Submodule;
use core::ffi::CStr;
use core::sync::atomic::{AtomicU32, Ordering};

/// Instance `I` of the probe.
pub(crate) struct Probe<const I: usize>;

crate::submodule::state_key!(ProbeKey<const I: usize> for Probe<I>);

const NAMES: [&CStr; 3] = [c"probe", c"probe_b", c"probe_c"];

/// The `prctl(2)` option `probe` answers: "PROB".
pub(crate) const PR_PROBE: i32 = 0x5052_4f42;

/// The `prctl(2)` option that returns the last `probe_opt=N` a mount was
/// set up with: "PROM".
pub(crate) const PR_PROBE_MOUNT_OPT: i32 = 0x5052_4f4d;

/// `probe`'s mount option.
const MOUNT_OPT: &[u8] = b"probe_opt";

/// The last `probe_opt=N` a superblock was set up with, plus one; 0 for
/// none yet.
static MOUNTED_WITH: AtomicU32 = AtomicU32::new(0);

/// The xattr whose capability check `probe` skips (`inode_xattr_skipcap`).
pub(crate) const SKIPCAP_XATTR: &[u8] = b"security.probe_skipcap";

/// The xattr `probe` discards on an overlayfs copy-up (`inode_copy_up_xattr`).
pub(crate) const COPY_UP_DISCARD_XATTR: &[u8] = b"user.probe_discard";

/// `probe`'s process attribute `current`.
static CURRENT: AtomicU32 = AtomicU32::new(0);

/// The longest number `setprocattr` takes, in digits.
const MAX_DIGITS: usize = 9;

/// Parses a decimal number of 1 to [`MAX_DIGITS`] digits, with an optional
/// trailing newline. (Checked arithmetic throughout: no panic path.)
fn parse_number(value: &[u8]) -> Option<u32> {
    let digits = value.strip_suffix(b"\n").unwrap_or(value);
    if digits.is_empty() || digits.len() > MAX_DIGITS {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &b| {
        if !b.is_ascii_digit() {
            return None;
        }
        n.checked_mul(10)?
            .checked_add(u32::from(b.wrapping_sub(b'0')))
    })
}

/// `n` in decimal, in `digits`.
fn decimal(n: u32, digits: &mut [u8; 10]) -> &[u8] {
    let mut start = digits.len();
    let mut rest = n;
    for slot in digits.iter_mut().rev() {
        *slot = b'0'.wrapping_add((rest % 10) as u8);
        start = start.wrapping_sub(1);
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    digits.get(start..).unwrap_or(&[])
}

/// Writes `n` in decimal.
fn push_number(cx: &MaySleep, out: &mut AttrValue, n: u32) -> Result {
    let mut digits = [0u8; 10];
    out.push_bytes(cx, decimal(n, &mut digits))
}

/// `probe`'s secid for a task: its attribute `current` plus one. Probe
/// instances other than `probe` bear no labels.
fn current_secid<const I: usize>() -> Option<Secid> {
    if I != 0 {
        return None;
    }
    Secid::new(CURRENT.load(Ordering::Relaxed).wrapping_add(1))
}

/// Declares the probe's method for each hook whose rule is generic: the
/// "no opinion" answer. The special rules' methods are written out below.
macro_rules! probe_methods {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        $(probe_methods!(@one $rule $name ($($rarg: $rty),*) $(-> $rret = $default)?);)*
    };
    // Answered by `probe` below.
    (@one first_error inode_listsecurity $($rest:tt)*) => {};
    (@one first_error $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        fn $name(&self, $(_: $rty),*) -> $rret {
            $default
        }
    };
    (@one every $name:ident ($($rarg:ident: $rty:ty),*)) => {
        fn $name(&self, $(_: $rty),*) {}
    };
    (@one all_agree $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        fn $name(&self, $(_: $rty),*) -> $rret {
            $default
        }
    };
    // Answered by `probe` below.
    (@one first_nondefault inode_xattr_skipcap $($rest:tt)*) => {};
    (@one first_nondefault inode_copy_up_xattr $($rest:tt)*) => {};
    (@one first_nondefault $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        fn $name(&self, $(_: $rty),*) -> $rret {
            $default
        }
    };
    (@one $special:ident $name:ident $($rest:tt)*) => {};
}

impl<const I: usize> Submodule for Probe<I>
where
    Self: crate::submodule::Registered,
{
    const NAME: &'static CStr = NAMES[I];
    // A probe implements every hook, so it says so itself rather than
    // through `submodule!`; only `probe` bears labels.
    // (scripts/gen-hook-names.py reads this line.)
    const HOOKS: HookSet = HookSet::of(Hook::ALL).without_if(I != 0, crate::lsm_prop::LABEL_HOOKS);
    const LSM_ID: u64 = if I == 0 { crate::abi::LSM_ID_PROBE } else { 0 };
    // The LSM core calls `inode_init_security` only when some LSM has an
    // xattr slot, and the free hooks of an object kind only when it has a
    // blob: so a probe asks for both, and never uses them.
    const XATTR_COUNT: u32 = 1;

    type Key = ProbeKey<I>;
    crate::submodule::blob_states! {
        inode: AtomicU32,
        cred: AtomicU32,
        file: AtomicU32,
        task: AtomicU32,
        superblock: AtomicU32,
        sock: AtomicU32,
        ipc: AtomicU32,
        msg_msg: AtomicU32,
        key: AtomicU32,
    }

    crate::hook_table::hook_table!(probe_methods);

    fn inode_init_security(
        &self,
        _: &MaySleep,
        _: &Inode,
        _: &Inode,
        _: &[u8],
    ) -> Result<Option<XattrValue>> {
        if I != 0 {
            return Ok(None);
        }
        XattrValue::new(c"probe_init", b"1").map(Some)
    }

    fn inode_getsecurity(
        &self,
        cx: &MaySleep,
        _: &Inode,
        name: &[u8],
        out: &mut AttrValue,
    ) -> Result {
        if I != 0 || name != b"probe" {
            return Err(EOPNOTSUPP);
        }
        out.push_bytes(cx, b"probe")
    }

    fn inode_listsecurity(&self, _cx: &MaySleep, _: &Inode, names: &mut XattrNames<'_>) -> Result {
        if I != 0 {
            return Ok(());
        }
        names.push(c"security.probe")
    }

    fn socket_getpeersec_stream(&self, cx: &MaySleep, _: &Socket, out: &mut AttrValue) -> Result {
        if I != 0 {
            return Err(ENOPROTOOPT);
        }
        out.push_bytes(cx, b"probe")
    }

    // `probe`'s label: its attribute `current`, as secid `current + 1` (a
    // secid is never 0), for every task, inode, IPC object and datagram.
    fn cred_getlsmprop(&self, _: &Cred) -> Option<Secid> {
        current_secid::<I>()
    }

    fn current_getlsmprop_subj(&self, _: &Cred) -> Option<Secid> {
        current_secid::<I>()
    }

    fn task_getlsmprop_obj(&self, _: &Task) -> Option<Secid> {
        current_secid::<I>()
    }

    fn inode_getlsmprop(&self, _: &Inode) -> Option<Secid> {
        current_secid::<I>()
    }

    fn ipc_getlsmprop(&self, _: &IpcPerm) -> Option<Secid> {
        current_secid::<I>()
    }

    fn socket_getpeersec_dgram(&self, _: Option<&Socket>) -> Result<Secid> {
        current_secid::<I>().ok_or(ENOPROTOOPT)
    }

    fn secid_to_secctx(&self, secid: Secid, out: &mut SecCtx) -> Result {
        let mut digits = [0u8; 10];
        let text = decimal(secid.raw().wrapping_sub(1), &mut digits);
        out.push_bytes(text)
    }

    // An audit rule on `probe`'s label: `subj_type=NUMBER` with `=` matches
    // a task whose attribute `current` is NUMBER.
    fn audit_rule_init(&self, field: u32, op: u32, text: &[u8]) -> Result<u64> {
        if I != 0 || field != crate::abi::AUDIT_SUBJ_TYPE || op != crate::abi::AUDIT_OP_EQUAL {
            return Err(EINVAL);
        }
        parse_number(text).map(u64::from).ok_or(EINVAL)
    }

    fn audit_rule_match(&self, secid: Secid, _field: u32, _op: u32, value: u64) -> Result<bool> {
        Ok(u64::from(secid.raw().wrapping_sub(1)) == value)
    }

    fn inode_xattr_skipcap(&self, _cx: &MaySleep, name: &[u8]) -> CapCheck {
        if I == 0 && name == SKIPCAP_XATTR {
            CapCheck::Skip
        } else {
            CapCheck::Keep
        }
    }

    fn inode_copy_up_xattr(&self, _cx: &MaySleep, _src: &Dentry, name: &[u8]) -> XattrCopyUp {
        if I == 0 && name == COPY_UP_DISCARD_XATTR {
            XattrCopyUp::Discard
        } else {
            XattrCopyUp::NotMine
        }
    }

    fn task_prctl(&self, option: i32, args: [u64; 4]) -> Result<i32> {
        match option {
            PR_PROBE if I == 0 => Ok(i32::try_from(args[0]).unwrap_or(i32::MAX).saturating_add(1)),
            PR_PROBE_MOUNT_OPT if I == 0 => match MOUNTED_WITH.load(Ordering::Relaxed) {
                0 => Err(ENOENT),
                n => Ok(i32::try_from(n.wrapping_sub(1)).unwrap_or(i32::MAX)),
            },
            _ => Err(ENOSYS),
        }
    }

    fn sb_eat_lsm_opts(&self, _cx: &MaySleep, name: &[u8], value: Option<&[u8]>) -> Result<bool> {
        if I != 0 || name != MOUNT_OPT {
            return Ok(false);
        }
        value.and_then(parse_number).map(|_| true).ok_or(EINVAL)
    }

    fn sb_set_mnt_opts(
        &self,
        _cx: &MaySleep,
        _sb: &Superblock,
        options: OwnMountOptions<'_>,
    ) -> Result {
        for option in options.iter() {
            // Checked when it was claimed.
            let n = option.value.and_then(parse_number).ok_or(EINVAL)?;
            MOUNTED_WITH.store(n.wrapping_add(1), Ordering::Relaxed);
        }
        Ok(())
    }

    fn getprocattr(&self, cx: &MaySleep, _: &Task, name: &[u8], out: &mut AttrValue) -> Result {
        if I != 0 || name != b"current" {
            return Err(EINVAL);
        }
        push_number(cx, out, CURRENT.load(Ordering::Relaxed))
    }

    fn setprocattr(&self, _cx: &MaySleep, name: &[u8], value: &[u8]) -> Result<usize> {
        if I != 0 || name != b"current" {
            return Err(EINVAL);
        }
        let n = parse_number(value).ok_or(EINVAL)?;
        CURRENT.store(n, Ordering::Relaxed);
        Ok(value.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number(b"0"), Some(0));
        assert_eq!(parse_number(b"42\n"), Some(42));
        assert_eq!(parse_number(b"999999999"), Some(999_999_999));
        for bad in [&b""[..], b"\n", b"1234567890", b"-1", b"1 ", b"x", b"4\n\n"] {
            assert_eq!(parse_number(bad), None, "{bad:?}");
        }
        for n in [0, 7, 10, 4_294_967_295] {
            let mut out = AttrValue::default();
            push_number(&crate::harness::cx(), &mut out, n).unwrap();
            assert_eq!(out.0, n.to_string().into_bytes());
        }
    }
}
