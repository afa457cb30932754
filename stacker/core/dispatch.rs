// SPDX-License-Identifier: GPL-2.0

//! The registry of compiled-in submodules, and hook dispatch through a
//! chain of them in three tiers (a fourth, `positions`, is the LSM core's
//! own stacking of the single tier's entry points: `kernel/entry.rs`).
//!
//! A chain is a [`Tier`]: a way to visit, in order, the submodules that
//! implement a hook, and to call one of them. Which tier runs is chosen once,
//! when stacker registers its hooks (`kernel/entry.rs`), and never tested on
//! a hook path:
//!
//! - **single**: a one-submodule chain is `Then<M, End>`. Its entry points
//!   are the submodule's own, monomorphised: stacker adds no instruction
//!   (the same functions register a submodule as an LSM of its own,
//!   `kernel/own_lsm.rs`);
//! - **straight-line**: the compile-time default chain is a nest of
//!   [`Then`] types (`straight_chain!`); each submodule is called directly,
//!   in order, with no loop and no table;
//! - **loop**: a chain from `stacker.chain=` longer than the static call
//!   positions (or any chain with `stacker.dispatch=loop`), and the hooks
//!   of the positions tier whose rule is stacker's own, is [`Loop`]: it walks
//!   the hook's order computed at boot ([`crate::chain::BootState`]) and
//!   calls each submodule through a compare on its index, never through a
//!   function pointer.
//!
//! The dispatch function of each hook is made from the hook table
//! (`hook_table.rs`), generic over the tier, with the hook's combining rule
//! (documented there and, for the special rules, below).
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::blob::BlobState;
use crate::context::MaySleep;
use crate::error::{Error, Result, EINVAL, ENOPROTOOPT, ENOSYS, EOPNOTSUPP};
use crate::hook::{Hook, HookSet};
use crate::layout::{Request, Slot, BLOB_ALIGN, KINDS};
use crate::mount_options::{MountOption, MountOptions, OwnMountOptions};
#[allow(unused_imports)]
use crate::objects::*;
use crate::submodule::{Registered, Submodule};
use core::marker::PhantomData;
use core::ops::ControlFlow;

/// A chain of submodules, as one of the dispatch tiers.
pub(crate) trait Tier {
    /// Calls `visit` with the registry index of each submodule in the chain
    /// that implements `hook`, in chain order, until it breaks.
    fn each(hook: Hook, visit: impl FnMut(u8) -> ControlFlow<()>);

    crate::hook_table::hook_table!(crate::dispatch::tier_methods: decl);
}

/// The end of a chain: no submodule.
pub(crate) struct End;

/// Submodule `M`, then the chain `R`.
pub(crate) struct Then<M, R>(PhantomData<(M, R)>);

/// The chain chosen at boot, walked in the order computed then.
pub(crate) struct Loop;

/// Declares (`decl`) or implements (`end`, `then`, `loop`) the [`Tier`]
/// methods: one per hook with a submodule method, calling that hook of the
/// submodule with registry index `m` only.
macro_rules! tier_methods {
    ($kind:ident $(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        $(
            crate::dispatch::tier_methods!(@one $kind $rule $name ($($rarg: $rty),*) $(-> $rret = $default)?);
        )*
    };
    // No submodule method (`submodule.rs`).
    (@one $kind:ident selfattr_get $($rest:tt)*) => {};
    (@one $kind:ident selfattr_set $($rest:tt)*) => {};
    (@one $kind:ident secctx_by_slot $($rest:tt)*) => {};
    (@one $kind:ident secctx_release $($rest:tt)*) => {};
    (@one $kind:ident audit_rule_release $($rest:tt)*) => {};
    (@one $kind:ident mount_options_held $($rest:tt)*) => {};
    (@one decl $rule:ident $name:ident ($($rarg:ident: $rty:ty),*) $(-> $rret:ty = $default:expr)?) => {
        #[doc = concat!("Calls `", stringify!($name), "` of submodule `m` (if in the chain).")]
        fn $name(m: u8, $($rarg: $rty),*) $(-> $rret)?;
    };
    (@one end $rule:ident $name:ident ($($rarg:ident: $rty:ty),*) $(-> $rret:ty = $default:expr)?) => {
        #[inline(always)]
        #[allow(unused_variables)]
        fn $name(m: u8, $($rarg: $rty),*) $(-> $rret)? {
            $($default)?
        }
    };
    (@one then $rule:ident $name:ident ($($rarg:ident: $rty:ty),*) $(-> $rret:ty = $default:expr)?) => {
        #[inline(always)]
        fn $name(m: u8, $($rarg: $rty),*) $(-> $rret)? {
            if m as usize == M::INDEX {
                M::get().$name($($rarg),*)
            } else {
                R::$name(m, $($rarg),*)
            }
        }
    };
    (@one loop $rule:ident $name:ident ($($rarg:ident: $rty:ty),*) $(-> $rret:ty = $default:expr)?) => {
        #[inline(always)]
        fn $name(m: u8, $($rarg: $rty),*) $(-> $rret)? {
            <crate::registry::All as Tier>::$name(m, $($rarg),*)
        }
    };
}
pub(crate) use tier_methods;

impl Tier for End {
    #[inline(always)]
    fn each(_hook: Hook, _visit: impl FnMut(u8) -> ControlFlow<()>) {}

    crate::hook_table::hook_table!(crate::dispatch::tier_methods: end);
}

impl<M: Submodule + Registered, R: Tier> Tier for Then<M, R> {
    #[inline(always)]
    fn each(hook: Hook, mut visit: impl FnMut(u8) -> ControlFlow<()>) {
        // `M::INDEX` fits: the registry has at most `MAX_MODULES`
        // entries (`Absent` never implements a hook).
        if M::HOOKS.contains(hook) && visit(M::INDEX as u8).is_break() {
            return;
        }
        R::each(hook, visit)
    }

    crate::hook_table::hook_table!(crate::dispatch::tier_methods: then);
}

impl Tier for Loop {
    #[inline(always)]
    fn each(hook: Hook, mut visit: impl FnMut(u8) -> ControlFlow<()>) {
        for &m in crate::platform::boot().order(hook) {
            if visit(m).is_break() {
                return;
            }
        }
    }

    crate::hook_table::hook_table!(crate::dispatch::tier_methods: loop);
}

/// Declares the dispatch function of every hook with a generic rule.
macro_rules! dispatch_functions {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        $(
            crate::dispatch::combine!($rule $name ($($rarg: $rty),*) $(-> $rret = $default)?);
        )*
    };
}

/// The dispatch function of one hook, by its combining rule. The special
/// rules' functions are written out below.
macro_rules! combine {
    (first_error $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        #[doc = concat!("Dispatches `", stringify!($name), "` through chain `T`: the first error decides.")]
        #[inline(always)]
        pub(crate) fn $name<T: Tier>($($rarg: $rty),*) -> $rret {
            let mut out = Ok(());
            T::each(Hook::$name, |m| {
                let result = T::$name(m, $($rarg),*);
                crate::stats::count(m as usize, Hook::$name, result.is_err());
                match result {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(err) => {
                        out = Err(err);
                        ControlFlow::Break(())
                    }
                }
            });
            out
        }
    };
    (every $name:ident ($($rarg:ident: $rty:ty),*)) => {
        #[doc = concat!("Dispatches `", stringify!($name), "` to every submodule of chain `T` that implements it.")]
        #[inline(always)]
        pub(crate) fn $name<T: Tier>($($rarg: $rty),*) {
            T::each(Hook::$name, |m| {
                crate::stats::count(m as usize, Hook::$name, false);
                T::$name(m, $($rarg),*);
                ControlFlow::Continue(())
            });
        }
    };
    (all_agree $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        #[doc = concat!("Dispatches `", stringify!($name), "` through chain `T`: `true` only if every submodule agrees.")]
        ///
        /// Stops at the first that does not, as the LSM core does (for
        /// `vm_enough_memory` it stops at the first LSM that returns a
        /// negative value and then passes `cap_sys_admin = 0` to
        /// `__vm_enough_memory()`).
        #[inline(always)]
        pub(crate) fn $name<T: Tier>($($rarg: $rty),*) -> $rret {
            let mut out = true;
            T::each(Hook::$name, |m| {
                let ok = T::$name(m, $($rarg),*);
                crate::stats::count(m as usize, Hook::$name, !ok);
                if ok {
                    ControlFlow::Continue(())
                } else {
                    out = false;
                    ControlFlow::Break(())
                }
            });
            out
        }
    };
    (first_nondefault $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        #[doc = concat!("Dispatches `", stringify!($name), "` through chain `T`: the first answer other than the default decides.")]
        ///
        /// As `call_int_hook` does for a hook whose default is 0: it stops
        /// at the first LSM that answers something else.
        #[inline(always)]
        pub(crate) fn $name<T: Tier>($($rarg: $rty),*) -> $rret {
            let mut out = $default;
            T::each(Hook::$name, |m| {
                let answer = T::$name(m, $($rarg),*);
                let claimed = answer != $default;
                // A claim is not a denial.
                crate::stats::count(m as usize, Hook::$name, false);
                if claimed {
                    out = answer;
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            out
        }
    };
    (lsmprop $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        #[doc = concat!("Dispatches `", stringify!($name), "` through chain `T`: each label-bearing submodule with a slot gives the secid for its own slot (`core/lsm_prop.rs`).")]
        #[inline(always)]
        ///
        /// Returns the slots and how many the chain owns: only those are
        /// its to write.
        pub(crate) fn $name<T: Tier>($($rarg: $rty),*) -> (crate::lsm_prop::PropSlots, usize) {
            let mut slots = [0; crate::lsm_prop::LSM_PROP_SLOTS];
            let (owners, n) = crate::lsm_prop::label_owners::<T>();
            for (slot, &m) in slots.iter_mut().zip(owners.iter()).take(n) {
                crate::stats::count(m as usize, Hook::$name, false);
                *slot = T::$name(m, $($rarg),*).map_or(0, crate::lsm_prop::Secid::raw);
            }
            (slots, n)
        }
    };
    // `first_claim` (`inode_getsecurity`) and the other special rules:
    // written out below.
    ($special:ident $name:ident ($($rarg:ident: $rty:ty),*) $(-> $rret:ty = $default:expr)?) => {};
}
pub(crate) use combine;

crate::hook_table::hook_table!(dispatch_functions);

/// Counts a call of `hook` in submodule `m`, with whether it denied, when
/// statistics are built in.
#[inline(always)]
fn record<R>(m: u8, hook: Hook, result: Result<R>) -> Result<R> {
    crate::stats::count(m as usize, hook, result.is_err());
    result
}

/// Walks chain `T` for `hook`, calling `call` for each submodule, until one
/// answers something other than `Err(decline)` ("not mine"). Returns that
/// submodule and its answer, or `None` if none claimed the call.
#[inline(always)]
fn first_claim<T: Tier, R>(
    hook: Hook,
    decline: Error,
    mut call: impl FnMut(u8) -> Result<R>,
) -> Option<(u8, Result<R>)> {
    let mut claim = None;
    T::each(hook, |m| match record(m, hook, call(m)) {
        Err(err) if err == decline => ControlFlow::Continue(()),
        answer => {
            claim = Some((m, answer));
            ControlFlow::Break(())
        }
    });
    claim
}

/// The value in `out` of the first submodule of chain `T` that answers
/// `hook` with something other than `Err(decline)` ("not mine", the LSM
/// default), as `call_int_hook` does for a hook whose default is not 0;
/// `decline` when none answers. `call` appends the submodule's value.
#[inline(always)]
fn first_value<T: Tier>(
    hook: Hook,
    decline: Error,
    out: &mut AttrValue,
    mut call: impl FnMut(u8, &mut AttrValue) -> Result,
) -> Result {
    first_claim::<T, _>(hook, decline, |m| {
        // What a submodule left before saying "not mine" is not the answer.
        out.0.clear();
        call(m, out)
    })
    .map_or(Err(decline), |(_, answer)| answer)
}

/// Dispatches `inode_getsecurity`: the first answer that is not
/// `EOPNOTSUPP` ("not mine", the LSM default) decides. `EOPNOTSUPP`
/// when no submodule answers: the VFS then reads the xattr itself.
#[inline(always)]
pub(crate) fn inode_getsecurity<T: Tier>(
    cx: &MaySleep,
    inode: &Inode,
    name: &[u8],
    out: &mut AttrValue,
) -> Result {
    first_value::<T>(Hook::inode_getsecurity, EOPNOTSUPP, out, |m, out| {
        T::inode_getsecurity(m, cx, inode, name, out)
    })
}

/// Dispatches `socket_getpeersec_stream`: the first answer that is not
/// `ENOPROTOOPT` ("not mine", the LSM default) decides, and is the peer's
/// label for `getsockopt(SO_PEERSEC)`. `ENOPROTOOPT` when no submodule
/// answers, so that the LSMs after stacker are asked.
#[inline(always)]
pub(crate) fn socket_getpeersec_stream<T: Tier>(
    cx: &MaySleep,
    sock: &Socket,
    out: &mut AttrValue,
) -> Result {
    first_value::<T>(
        Hook::socket_getpeersec_stream,
        ENOPROTOOPT,
        out,
        |m, out| T::socket_getpeersec_stream(m, cx, sock, out),
    )
}

/// Dispatches `secid_to_secctx`: a bare secid is the chain's primary
/// label-bearing submodule's (`core/lsm_prop.rs`), which alone is asked
/// for its text. Returns that submodule; `EOPNOTSUPP` (the LSM default)
/// when the chain bears no labels.
#[inline(always)]
pub(crate) fn secid_to_secctx<T: Tier>(secid: Secid, out: &mut SecCtx) -> Result<u8> {
    let m = crate::lsm_prop::primary::<T>().ok_or(EOPNOTSUPP)?;
    record(m, Hook::secid_to_secctx, T::secid_to_secctx(m, secid, out)).map(|()| m)
}

/// Dispatches `lsmprop_to_secctx` for slot `slot`: the text of the secid
/// in that slot of `slots`, from the submodule that owns the slot, which
/// is returned. `EOPNOTSUPP` when no submodule owns it, `EINVAL` when the
/// slot is empty (audit then logs nothing for it).
#[inline(always)]
pub(crate) fn lsmprop_to_secctx<T: Tier>(
    slot: usize,
    slots: &crate::lsm_prop::PropSlots,
    out: &mut SecCtx,
) -> Result<u8> {
    let m = crate::lsm_prop::slot_owner::<T>(slot).ok_or(EOPNOTSUPP)?;
    let secid = slots
        .get(slot)
        .copied()
        .and_then(Secid::new)
        .ok_or(EINVAL)?;
    record(
        m,
        Hook::lsmprop_to_secctx,
        T::secid_to_secctx(m, secid, out),
    )
    .map(|()| m)
}

/// Dispatches `socket_getpeersec_dgram`: the primary label-bearing
/// submodule alone gives the secid of the sender's label (a bare secid,
/// as `secid_to_secctx` takes back); `ENOPROTOOPT` (the LSM default) when
/// the chain bears no labels.
#[inline(always)]
pub(crate) fn socket_getpeersec_dgram<T: Tier>(sock: Option<&Socket>) -> Result<Secid> {
    let m = crate::lsm_prop::primary::<T>().ok_or(ENOPROTOOPT)?;
    record(
        m,
        Hook::socket_getpeersec_dgram,
        T::socket_getpeersec_dgram(m, sock),
    )
}

/// Dispatches `audit_rule_init`: the value of the rule, from the chain's
/// primary label-bearing submodule, which is returned too. `EINVAL` when
/// the chain bears no labels.
#[inline(always)]
pub(crate) fn audit_rule_init<T: Tier>(field: u32, op: u32, text: &[u8]) -> Result<(u8, u64)> {
    let m = crate::lsm_prop::primary::<T>().ok_or(EINVAL)?;
    record(
        m,
        Hook::audit_rule_init,
        T::audit_rule_init(m, field, op, text),
    )
    .map(|v| (m, v))
}

/// Dispatches `audit_rule_match` for the rule of `field`, `op` and
/// `value`: the primary's answer for the secid of its slot (0) of
/// `slots`. No label there matches nothing.
#[inline(always)]
pub(crate) fn audit_rule_match<T: Tier>(
    slots: &crate::lsm_prop::PropSlots,
    field: u32,
    op: u32,
    value: u64,
) -> Result<bool> {
    let Some(m) = crate::lsm_prop::primary::<T>() else {
        return Ok(false);
    };
    let Some(secid) = slots.first().copied().and_then(Secid::new) else {
        return Ok(false);
    };
    record(
        m,
        Hook::audit_rule_match,
        T::audit_rule_match(m, secid, field, op, value),
    )
}

/// Dispatches `sb_eat_lsm_opts` (and `fs_context_parse_param`) for one
/// mount option: the registry index of the first submodule of chain `T`
/// that claims it, or `None` if none does. A submodule's error (an
/// invalid option of its own) ends the walk.
pub(crate) fn mount_option_owner<T: Tier>(
    cx: &MaySleep,
    option: MountOption<'_>,
) -> Result<Option<u8>> {
    let mut out = Ok(None);
    T::each(Hook::sb_eat_lsm_opts, |m| {
        match record(
            m,
            Hook::sb_eat_lsm_opts,
            T::sb_eat_lsm_opts(m, cx, option.name, option.value),
        ) {
            Ok(false) => ControlFlow::Continue(()),
            Ok(true) => {
                out = Ok(Some(m));
                ControlFlow::Break(())
            }
            Err(err) => {
                out = Err(err);
                ControlFlow::Break(())
            }
        }
    });
    out
}

/// The registry index of the first submodule of chain `T` that takes
/// mount options: it names this instance of stacker's entry points in the
/// options it makes (`MountOptions::set_keeper`). `None` if no submodule
/// takes any.
pub(crate) fn mount_options_keeper<T: Tier>() -> Option<u8> {
    let mut first = None;
    T::each(Hook::sb_eat_lsm_opts, |m| {
        first = Some(m);
        ControlFlow::Break(())
    });
    first
}

/// Counts `hook`, one of the hooks with which stacker keeps its mount
/// options (`fs_context_parse_param`, `fs_context_dup`,
/// `sb_free_mnt_opts`), for each submodule of chain `T` that takes mount
/// options.
pub(crate) fn mount_options_held<T: Tier>(hook: Hook) {
    T::each(hook, |m| {
        crate::stats::count(m as usize, hook, false);
        ControlFlow::Continue(())
    });
}

/// Calls `call` for each submodule of chain `T` that implements `hook`,
/// with its mount options; the first error decides.
#[inline(always)]
fn with_own_mount_options<T: Tier>(
    hook: Hook,
    all: Option<&MountOptions>,
    mut call: impl FnMut(u8, OwnMountOptions<'_>) -> Result,
) -> Result {
    let mut out = Ok(());
    T::each(hook, |m| {
        match record(m, hook, call(m, OwnMountOptions::new(all, m))) {
            Ok(()) => ControlFlow::Continue(()),
            Err(err) => {
                out = Err(err);
                ControlFlow::Break(())
            }
        }
    });
    out
}

/// Dispatches `sb_set_mnt_opts`: each submodule gets the options it
/// claimed for the mount (`all`: stacker's, or `None` for a mount without
/// any); the first error fails the mount.
pub(crate) fn sb_set_mnt_opts<T: Tier>(
    cx: &MaySleep,
    sb: &Superblock,
    all: Option<&MountOptions>,
) -> Result {
    with_own_mount_options::<T>(Hook::sb_set_mnt_opts, all, |m, own| {
        T::sb_set_mnt_opts(m, cx, sb, own)
    })
}

/// Dispatches `sb_mnt_opts_compat`: may a mount with these options share
/// superblock `sb`? Each submodule judges its own; the first error says
/// no.
pub(crate) fn sb_mnt_opts_compat<T: Tier>(
    cx: &MaySleep,
    sb: &Superblock,
    all: Option<&MountOptions>,
) -> Result {
    with_own_mount_options::<T>(Hook::sb_mnt_opts_compat, all, |m, own| {
        T::sb_mnt_opts_compat(m, cx, sb, own)
    })
}

/// Counts `audit_rule_free` for the primary label-bearing submodule,
/// whose rule stacker frees.
pub(crate) fn audit_rule_free<T: Tier>() {
    if let Some(m) = crate::lsm_prop::primary::<T>() {
        crate::stats::count(m as usize, Hook::audit_rule_free, false);
    }
}

/// Dispatches `release_secctx`: whether a context text with LSM id `id`
/// was made by chain `T`, and so is stacker's to free: the id of one of
/// its label-bearing submodules (whose call is counted), or stacker's own.
pub(crate) fn release_secctx<T: Tier>(id: u64) -> bool {
    if id == crate::abi::LSM_ID_STACKER {
        return true;
    }
    let mut made = false;
    T::each(Hook::secid_to_secctx, |m| {
        made = crate::registry::LSM_IDS.get(m as usize) == Some(&id);
        if made {
            crate::stats::count(m as usize, Hook::release_secctx, false);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    made
}

/// The LSM id of registered submodule `m`'s labels; stacker's when it has
/// none of its own.
pub(crate) fn label_lsm_id(m: u8) -> u64 {
    match crate::registry::LSM_IDS.get(m as usize) {
        Some(&id) if id != crate::abi::LSM_ID_UNDEF => id,
        _ => crate::abi::LSM_ID_STACKER,
    }
}

/// Dispatches `task_prctl` as `security_task_prctl()` does: `ENOSYS` from
/// a submodule means "not mine"; `Ok(0)` is kept and the walk goes on; any
/// other answer ends it. `ENOSYS` when no submodule handled the call, so
/// that the kernel's own `prctl` handling runs.
#[inline(always)]
pub(crate) fn task_prctl<T: Tier>(option: i32, args: [u64; 4]) -> Result<i32> {
    let mut out = Err(ENOSYS);
    T::each(Hook::task_prctl, |m| {
        match record(m, Hook::task_prctl, T::task_prctl(m, option, args)) {
            Err(err) if err == ENOSYS => ControlFlow::Continue(()),
            Ok(0) => {
                out = Ok(0);
                ControlFlow::Continue(())
            }
            answer => {
                out = answer;
                ControlFlow::Break(())
            }
        }
    });
    out
}

/// Dispatches `inode_init_security`.
///
/// As in the LSM core, every submodule is asked: `Ok(None)` and
/// `EOPNOTSUPP` from one mean "no xattr from me" and the walk goes on; any
/// other error stops it and is returned. Each xattr goes into the next LSM
/// xattr slot, and a submodule gets at most its `XATTR_COUNT` slots.
/// Returns `EOPNOTSUPP` when nobody added one, the LSM default.
#[inline(always)]
pub(crate) fn inode_init_security<T: Tier>(
    cx: &MaySleep,
    inode: &Inode,
    dir: &Inode,
    name: &[u8],
    slots: &mut XattrSlots,
) -> Result {
    let mut out = Err(EOPNOTSUPP);
    T::each(Hook::inode_init_security, |m| {
        let xattr = match record(
            m,
            Hook::inode_init_security,
            T::inode_init_security(m, cx, inode, dir, name),
        ) {
            Ok(Some(xattr)) => xattr,
            Ok(None) => return ControlFlow::Continue(()),
            Err(err) if err == EOPNOTSUPP => return ControlFlow::Continue(()),
            Err(err) => {
                out = Err(err);
                return ControlFlow::Break(());
            }
        };
        let allowed = crate::registry::XATTR_COUNTS
            .get(m as usize)
            .copied()
            .unwrap_or(0);
        let pushed = if allowed == 0 {
            Err(EINVAL)
        } else {
            slots.push(xattr)
        };
        match pushed {
            Ok(()) => {
                out = Ok(());
                ControlFlow::Continue(())
            }
            Err(err) => {
                out = Err(err);
                ControlFlow::Break(())
            }
        }
    });
    out
}

/// Dispatches `getprocattr`: the first submodule whose answer is not
/// `EINVAL` (the LSM default, "not mine") decides.
///
/// The LSM core asks only one LSM for a process attribute (the first that
/// implements the hook, `security_getprocattr()`). So when no submodule
/// claims the attribute, the LSMs registered after stacker are asked in
/// turn, and the first answer that is not `EINVAL` decides: stacker must not
/// hide SELinux, AppArmor or Smack after it.
///
/// A name `NAME/ATTR` (a file of `/proc/PID/attr/stacker/NAME/`) goes to
/// submodule `NAME` alone, as `ATTR`, and its answer is the answer:
/// `EINVAL` when it is not in the chain or says "not mine".
#[inline(always)]
pub(crate) fn getprocattr<T: Tier>(
    cx: &MaySleep,
    task: &Task,
    name: &core::ffi::CStr,
    out: &mut AttrValue,
) -> Result {
    // The name without its NUL (`to_bytes()` would bring an overflow
    // check, a panic path, onto the hook path).
    let bytes = name
        .to_bytes_with_nul()
        .split_last()
        .map_or(&[][..], |(_, b)| b);
    // `/proc/PID/attr/stacker/NAME/ATTR`: submodule NAME's own answer,
    // never another's nor a later LSM's.
    if let Some((owner, attr)) = split_owned_attr(bytes) {
        let mut answer = Err(EINVAL);
        with_owner::<T>(Hook::getprocattr, owner, |m| {
            answer = record(m, Hook::getprocattr, T::getprocattr(m, cx, task, attr, out));
        });
        if answer.is_err() {
            out.0.clear();
        }
        return answer;
    }
    if let Some((_, answer)) = first_claim::<T, _>(Hook::getprocattr, EINVAL, |m| {
        // What a submodule left before saying "not mine" is not the answer.
        out.0.clear();
        T::getprocattr(m, cx, task, bytes, out)
    }) {
        return answer;
    }
    // Nothing a submodule left in `out` before saying "not mine" may reach
    // the answer of another LSM.
    out.0.clear();
    crate::objects::forward_getprocattr(cx, task, name, out)
}

/// The attribute name of a file in `/proc/PID/attr/stacker/NAME/`, which
/// the kernel gives as `NAME/ATTR` (`fs/proc/base.c`, patched):
/// submodule `NAME` and its attribute `ATTR`, both non-empty. `None` for
/// the names of `/proc/PID/attr/` itself, which have no `/`.
fn split_owned_attr(name: &[u8]) -> Option<(&[u8], &[u8])> {
    let slash = name.iter().position(|&b| b == b'/')?;
    let (owner, attr) = (name.get(..slash)?, name.get(slash + 1..)?);
    (!owner.is_empty() && !attr.is_empty()).then_some((owner, attr))
}

/// Calls `call` with submodule `owner`, by name, if it is in chain `T` and
/// implements `hook`; not at all otherwise.
#[inline(always)]
fn with_owner<T: Tier>(hook: Hook, owner: &[u8], mut call: impl FnMut(u8)) {
    T::each(hook, |m| {
        if crate::registry::NAMES.get(m as usize).copied() != Some(owner) {
            return ControlFlow::Continue(());
        }
        call(m);
        ControlFlow::Break(())
    });
}

/// The submodules of `order` (a chain, in order) that have process
/// attributes: those whose hooks in `sets` (by registry index) include
/// `getprocattr` or `setprocattr`. They are the directories of
/// `/proc/PID/attr/stacker/`, in this order.
pub(crate) fn attribute_owners<'a>(
    order: &'a [u8],
    sets: &'a [HookSet],
) -> impl Iterator<Item = u8> + 'a {
    order.iter().copied().filter(|&m| {
        sets.get(m as usize)
            .is_some_and(|set| set.contains(Hook::getprocattr) || set.contains(Hook::setprocattr))
    })
}

/// Sends `value` for attribute `name` to the `setprocattr` of submodule
/// `owner`, if it is in chain `T` and implements `hook` (`setprocattr`, or
/// `setselfattr` which follows from it), counted as a call of `hook`.
/// Returns `None` if there is no such submodule; otherwise its answer,
/// which cannot claim more than `value`.
#[inline(always)]
fn send_setprocattr<T: Tier>(
    cx: &MaySleep,
    hook: Hook,
    owner: &[u8],
    name: &[u8],
    value: &[u8],
) -> Option<Result<usize>> {
    let mut answer = None;
    with_owner::<T>(hook, owner, |m| {
        answer = Some(match record(m, hook, T::setprocattr(m, cx, name, value)) {
            // A submodule cannot claim more than it was given.
            Ok(used) if used > value.len() => Err(EINVAL),
            answer => answer,
        });
    });
    answer
}

/// Sends a value `NAME:rest` for attribute `name` to the `setprocattr` of
/// submodule `NAME`, as [`send_setprocattr`].
/// Returns `None` if the value names no such submodule; otherwise its
/// answer, counting the `NAME:` prefix as used.
#[inline(always)]
fn route_setprocattr<T: Tier>(
    cx: &MaySleep,
    hook: Hook,
    name: &[u8],
    value: &[u8],
) -> Option<Result<usize>> {
    let colon = value.iter().position(|&b| b == b':')?;
    let (target, rest) = (value.get(..colon)?, value.get(colon + 1..)?);
    // `rest` is a tail of `value`, `used` at most its length: no wrap.
    send_setprocattr::<T>(cx, hook, target, name, rest)
        .map(|answer| answer.map(|used| value.len().wrapping_sub(rest.len()).wrapping_add(used)))
}

/// The process attributes of the LSM syscalls: each `LSM_ATTR_*` value
/// (`include/uapi/linux/lsm.h`; the kernel build checks them) with its name
/// in `/proc/PID/attr/`.
pub(crate) const SELF_ATTRS: [(u32, &[u8]); 6] = [
    (100, b"current"),
    (101, b"exec"),
    (102, b"fscreate"),
    (103, b"keycreate"),
    (104, b"prev"),
    (105, b"sockcreate"),
];

/// The name of the process attribute `attr` (`LSM_ATTR_*`).
fn self_attr_name(attr: u32) -> Option<&'static [u8]> {
    SELF_ATTRS
        .iter()
        .find(|(a, _)| *a == attr)
        .map(|(_, name)| *name)
}

/// Dispatches `getselfattr` (`lsm_get_self_attr(2)`) for `task`, the
/// current task: each submodule of the chain whose `getprocattr` answers
/// for attribute `attr` gives one entry, `NAME:value` with its name, to
/// `entry`, in chain order, so that every label-bearing submodule's label
/// is shown at once (all under stacker's one LSM id, told apart by the
/// name). With `single` (`LSM_FLAG_SINGLE`) only the first answer gives an
/// entry. Returns the number of entries; `EOPNOTSUPP` (the LSM default,
/// "nothing from this LSM") when none answers. An error other than
/// `EINVAL` or `EOPNOTSUPP` ("not mine") from a submodule, or from `entry`, ends the call
/// with that error, as an LSM's error ends `security_getselfattr()`.
/// Unlike `getprocattr`, never forwarded: the LSMs after stacker answer
/// the syscall under their own ids.
#[inline(always)]
pub(crate) fn getselfattr<T: Tier>(
    cx: &MaySleep,
    task: &Task,
    attr: u32,
    single: bool,
    mut entry: impl FnMut(&mut AttrValue) -> Result,
) -> Result<u32> {
    let Some(name) = self_attr_name(attr) else {
        return Err(EOPNOTSUPP);
    };
    let mut entry_value = AttrValue::default();
    let mut count = 0u32;
    let mut failure = None;
    // Each submodule that implements `getprocattr` has `getselfattr`
    // (`HookSet::with_derived`); the calls count as `getselfattr`. The
    // submodule appends its value after the `NAME:` prefix, in place.
    T::each(Hook::getselfattr, |m| {
        entry_value.0.clear();
        let owner = crate::registry::NAMES
            .get(m as usize)
            .copied()
            .unwrap_or(b"");
        let given = entry_value
            .push_bytes(cx, owner)
            .and_then(|()| entry_value.push_bytes(cx, b":"))
            .and_then(|()| {
                record(
                    m,
                    Hook::getselfattr,
                    T::getprocattr(m, cx, task, name, &mut entry_value),
                )
            });
        let given = match given {
            // "Not mine". Not `EOPNOTSUPP` either: from this hook it would
            // make the core drop the entries already copied for stacker
            // and let the next LSM write over them.
            Err(err) if err == EINVAL || err == EOPNOTSUPP => return ControlFlow::Continue(()),
            Err(err) => Err(err),
            Ok(()) => entry(&mut entry_value),
        };
        if let Err(err) = given {
            failure = Some(err);
            return ControlFlow::Break(());
        }
        count = count.saturating_add(1);
        if single {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    match failure {
        Some(err) => Err(err),
        None if count == 0 => Err(EOPNOTSUPP),
        None => Ok(count),
    }
}

/// Dispatches `setselfattr` (`lsm_set_self_attr(2)` with stacker's LSM
/// id): `value` must be `NAME:rest`, and goes to submodule `NAME`'s
/// `setprocattr` for attribute `attr`. `EINVAL` when it names no submodule
/// in the chain that implements `setprocattr`, or when the submodule used
/// less than all of it.
#[inline(always)]
pub(crate) fn setselfattr<T: Tier>(cx: &MaySleep, attr: u32, value: &[u8]) -> Result {
    let Some(name) = self_attr_name(attr) else {
        return Err(EOPNOTSUPP);
    };
    match route_setprocattr::<T>(cx, Hook::setselfattr, name, value) {
        Some(Ok(used)) if used == value.len() => Ok(()),
        Some(Ok(_)) | None => Err(EINVAL),
        Some(Err(err)) => Err(err),
    }
}

/// Dispatches `setprocattr`, routed by submodule name.
///
/// A value of the form `NAME:rest`, where `NAME` is an enabled submodule
/// that implements the hook, goes to that submodule only, with `rest`. Any
/// other value goes through the chain, and the first answer that is not
/// `EINVAL` decides. When none claims it, the write goes, unchanged, to the
/// LSMs registered after stacker, as for [`getprocattr`]. Returns the number
/// of bytes of the value consumed.
///
/// A write to `NAME/ATTR` (`/proc/self/attr/stacker/NAME/ATTR`) goes,
/// whole and without a prefix, to submodule `NAME` alone, as `ATTR`: what
/// a task reads there it can write back.
#[inline(always)]
pub(crate) fn setprocattr<T: Tier>(cx: &MaySleep, write: ProcAttrWrite<'_>) -> Result<usize> {
    let (name, value) = (write.name(), write.value());
    // `/proc/self/attr/stacker/NAME/ATTR`: the whole value, as written, to
    // submodule NAME alone; `EINVAL` when it is not in the chain.
    if let Some((owner, attr)) = split_owned_attr(name) {
        return send_setprocattr::<T>(cx, Hook::setprocattr, owner, attr, value)
            .unwrap_or(Err(EINVAL));
    }
    if let Some(answer) = route_setprocattr::<T>(cx, Hook::setprocattr, name, value) {
        return answer;
    }
    if let Some((_, answer)) = first_claim::<T, _>(Hook::setprocattr, EINVAL, |m| {
        T::setprocattr(m, cx, name, value)
    }) {
        return answer;
    }
    write.forward()
}

/// A registry entry that is not there: the straight-line tier fills the
/// unused places of its fixed-length nest with it. It implements no hook,
/// so it is never called, and has no state.
pub(crate) struct Absent;

crate::submodule::state_key!(AbsentKey for Absent);

crate::submodule::submodule! {
    impl Submodule for Absent {
        const NAME: &'static core::ffi::CStr = c"";
        type Key = AbsentKey;
        crate::submodule::blob_states! {}
    }
    hooks {}
}

/// `Absent` has no instance anyone could reach: `INDEX` matches no
/// registry index.
static ABSENT: Absent = Absent;

impl Registered for Absent {
    const INDEX: usize = usize::MAX;
    fn get() -> &'static Self {
        &ABSENT
    }
}

/// The submodule type at registry index `I` (made by `define_registry!`),
/// or [`Absent`] for [`NOWHERE`].
pub(crate) struct At<const I: usize>;

/// The registry index of no submodule.
pub(crate) const NOWHERE: usize = usize::MAX;

/// The submodule type of an [`At`].
pub(crate) trait Pick {
    /// The submodule.
    type M: Submodule + Registered;
}

impl Pick for At<NOWHERE> {
    type M = Absent;
}

/// The most submodules a straight-line chain can have.
pub(crate) const STRAIGHT_MAX: usize = 8;

/// The straight-line tier of the chain `$order`, a `[usize; STRAIGHT_MAX]`
/// constant of registry indices padded with [`NOWHERE`]: a nest of
/// [`Then`], each place the submodule at that index.
#[allow(unused_macros)] // The host library itself has no default chain.
macro_rules! straight_chain {
    ($order:path) => {
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[0] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[1] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[2] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[3] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[4] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[5] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[6] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::Then<<$crate::dispatch::At<{ $order[7] }> as $crate::dispatch::Pick>::M,
        $crate::dispatch::End>>>>>>>>
    };
}
#[allow(unused_imports)]
pub(crate) use straight_chain;

/// The order of `spec`, padded with [`NOWHERE`], for [`straight_chain!`].
pub(crate) const fn straight_order(spec: &crate::chain::ChainSpec) -> [usize; STRAIGHT_MAX] {
    let order = spec.order();
    assert!(
        order.len() <= STRAIGHT_MAX,
        "the default chain is longer than a straight-line chain can be"
    );
    let mut out = [NOWHERE; STRAIGHT_MAX];
    let mut i = 0;
    while i < order.len() {
        out[i] = order[i] as usize;
        i += 1;
    }
    out
}

/// Something to do with a chain type, chosen at run time by
/// `crate::registry::with_single` (Rust cannot pass a generic type as a
/// value; this carries it instead).
pub(crate) trait WithTier {
    /// What it gives.
    type Output;
    /// Does it with chain `T`.
    fn with<T: Tier>(self) -> Self::Output;
}

/// Something to do with a submodule type, chosen at run time by its
/// registry index (`crate::registry::with_submodule`).
pub(crate) trait WithSubmodule {
    /// What it gives.
    type Output;
    /// Does it with submodule `M`.
    fn with<M: Submodule + Registered>(self) -> Self::Output;
}

/// A [`WithTier`] done with the one-submodule chain of a submodule.
pub(crate) struct Single<W>(pub(crate) W);

impl<W: WithTier> WithSubmodule for Single<W> {
    type Output = W::Output;
    fn with<M: Submodule + Registered>(self) -> W::Output {
        self.0.with::<Then<M, End>>()
    }
}

/// Defines the registry of compiled-in submodules, in the crate root's
/// `registry` module.
///
/// Syntax: `[cfg] STATIC: Type = init;` per submodule, where `cfg` is the
/// `cfg` predicate under which it is compiled in (`all()` for always).
/// Registry indices count the entries compiled in, in order.
macro_rules! define_registry {
    ($([$cfg:meta] $m:ident: $ty:ty = $init:expr;)*) => {
        $crate::dispatch::define_registry!(@entries (0) $([$cfg] $m: $ty = $init;)*);

        /// Names of the registered submodules, by index.
        pub(crate) const NAMES: &[&[u8]] =
            &[$(#[cfg($cfg)] <$ty as $crate::submodule::Submodule>::NAME.to_bytes()),*];

        /// Blob requests of the registered submodules, by index.
        pub(crate) const REQUESTS: &[$crate::layout::Request] =
            &[$(#[cfg($cfg)] $crate::dispatch::request::<$ty>()),*];

        /// Hook sets of the registered submodules, by index.
        pub(crate) const HOOK_SETS: &[$crate::hook::HookSet] =
            &[$(#[cfg($cfg)] <$ty as $crate::submodule::Submodule>::HOOKS),*];

        /// Xattr slots each registered submodule may fill, by index.
        pub(crate) const XATTR_COUNTS: &[u32] =
            &[$(#[cfg($cfg)] <$ty as $crate::submodule::Submodule>::XATTR_COUNT),*];

        /// The LSM ids of the registered submodules' labels, by index
        /// (0: none).
        pub(crate) const LSM_IDS: &[u64] =
            &[$(#[cfg($cfg)] <$ty as $crate::submodule::Submodule>::LSM_ID),*];

        /// Whether every registered label-bearing submodule has an LSM id.
        /// Kernel-only, as the next two.
        #[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
        pub(crate) const fn label_ids_are_set() -> bool {
            let mut i = 0;
            while i < HOOK_SETS.len() {
                if HOOK_SETS[i].contains($crate::hook::Hook::secid_to_secctx) && LSM_IDS[i] == 0 {
                    return false;
                }
                i += 1;
            }
            true
        }

        /// The registered submodules' names as C strings, by index.
        pub(crate) const C_NAMES: &[&core::ffi::CStr] =
            &[$(#[cfg($cfg)] <$ty as $crate::submodule::Submodule>::NAME),*];

        // A registry index is a `u8` in the chain and the hook orders.
        const _: () = assert!(NAMES.len() <= $crate::layout::MAX_MODULES);
        // Each name can be given in `stacker.chain=` and routed by
        // `NAME:` (`chain.rs`): unique, and made of `[a-z0-9_]` only.
        const _: () = assert!(
            $crate::chain::names_are_valid(NAMES),
            "submodule names must be unique, non-empty, at most 32 bytes and [a-z0-9_]"
        );

        $crate::dispatch::define_registry!(@list $([$cfg] $m $ty,)*);
        /// Every registered submodule, as a chain (for the loop tier).
        pub(crate) type All = $crate::dispatch::define_registry!(@first $($m)*);

        /// Does `what` with the submodule type of registry index `m`;
        /// `None` for an index that is not registered.
        #[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
        pub(crate) fn with_submodule<W: $crate::dispatch::WithSubmodule>(m: u8, what: W) -> Option<W::Output> {
            use $crate::submodule::Registered;
            $(
                #[cfg($cfg)]
                if m as usize == <$ty as Registered>::INDEX {
                    return Some(what.with::<$ty>());
                }
            )*
            let _ = what;
            None
        }

        /// Does `what` with the one-submodule chain of registry index `m`;
        /// `None` for an index that is not registered.
        #[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
        pub(crate) fn with_single<W: $crate::dispatch::WithTier>(m: u8, what: W) -> Option<W::Output> {
            with_submodule(m, $crate::dispatch::Single(what))
        }

        /// Runs the init of submodule `m`.
        pub(crate) fn init_one(m: u8) -> $crate::error::Result {
            use $crate::submodule::{Registered, Submodule};
            $(
                #[cfg($cfg)]
                if m as usize == <$ty as Registered>::INDEX {
                    return <$ty as Registered>::get().init();
                }
            )*
            Err($crate::error::EINVAL)
        }

        /// Initialises the submodules of `order`, in order, and calls
        /// `failed` with the index and error of each whose init fails: one
        /// failure does not keep the others from starting. `order` is a
        /// copy of the chain's, so that `failed` may leave the submodule
        /// out of the boot state.
        ///
        /// `fail` names a submodule whose init fails with `ENODEV` without
        /// running (`stacker.fail_init=`, for testing).
        pub(crate) fn init_enabled(
            order: &[u8],
            fail: Option<u8>,
            mut failed: impl FnMut(u8, $crate::error::Error),
        ) {
            for &m in order {
                let result = if fail == Some(m) {
                    Err($crate::error::ENODEV)
                } else {
                    init_one(m)
                };
                if let Err(err) = result {
                    failed(m, err);
                }
            }
        }

        /// Creates submodule `m`'s files in `dir`, its securityfs directory.
        pub(crate) fn securityfs_init_one(m: u8, dir: &$crate::platform::Dir) -> $crate::error::Result {
            use $crate::submodule::{Registered, Submodule};
            $(
                #[cfg($cfg)]
                if m as usize == <$ty as Registered>::INDEX {
                    return <$ty as Registered>::get().securityfs_init(dir);
                }
            )*
            Err($crate::error::EINVAL)
        }

        /// Creates each enabled submodule's securityfs directory in `parent`.
        pub(crate) fn securityfs_init_enabled(parent: &$crate::platform::Dir) -> $crate::error::Result {
            for &m in $crate::platform::boot().chain.order() {
                let name = C_NAMES.get(m as usize).copied().ok_or($crate::error::EINVAL)?;
                let dir = parent.create_dir(name)?;
                securityfs_init_one(m, &dir)?;
            }
            Ok(())
        }
    };
    // One entry: its static, its index (the entries compiled in before it),
    // and its `At`.
    (@entries ($idx:expr) [$cfg:meta] $m:ident: $ty:ty = $init:expr; $($rest:tt)*) => {
        #[cfg($cfg)]
        static $m: $ty = $init;

        #[cfg($cfg)]
        impl $crate::submodule::Registered for $ty {
            const INDEX: usize = $idx;
            #[inline(always)]
            fn get() -> &'static Self {
                &$m
            }
        }

        #[cfg($cfg)]
        impl $crate::dispatch::Pick for $crate::dispatch::At<{ $idx }> {
            type M = $ty;
        }

        $crate::dispatch::define_registry!(@entries ($idx + cfg!($cfg) as usize) $($rest)*);
    };
    (@entries ($idx:expr)) => {};
    (@first $m:ident $($rest:ident)*) => { $m };
    // The chain of every entry compiled in: one type alias per entry,
    // named after its static, for the chain from that entry on.
    (@list [$cfg:meta] $m:ident $ty:ty, [$ncfg:meta] $nm:ident $nty:ty, $($rest:tt)*) => {
        #[cfg($cfg)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        type $m = $crate::dispatch::Then<$ty, $nm>;
        #[cfg(not($cfg))]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        type $m = $nm;
        $crate::dispatch::define_registry!(@list [$ncfg] $nm $nty, $($rest)*);
    };
    (@list [$cfg:meta] $m:ident $ty:ty,) => {
        #[cfg($cfg)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        type $m = $crate::dispatch::Then<$ty, $crate::dispatch::End>;
        #[cfg(not($cfg))]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        type $m = $crate::dispatch::End;
    };
}
pub(crate) use define_registry;

/// The blob request of submodule `M`, checked at compile time.
pub(crate) const fn request<M: Submodule>() -> Request {
    const fn slot<T: BlobState>() -> Slot {
        assert!(
            core::mem::align_of::<T>() <= BLOB_ALIGN,
            "a blob state needs more alignment than the LSM core promises"
        );
        assert!(
            !core::mem::needs_drop::<T>(),
            "a blob state must not need dropping"
        );
        Slot::of::<T>()
    }
    /// The slot of each kind's state type of `$m`, in index order.
    macro_rules! state_slots {
        ($m:ident; $($name:ident $kind:ident $state:ident $lbs:ident $doc:literal;)*) => {
            [$(slot::<$m::$state>()),*]
        };
    }
    let slots: [Slot; KINDS] = crate::layout::object_kinds!(state_slots: M;);
    Request { slots }
}
