// SPDX-License-Identifier: GPL-2.0

//! Labels as numbers: secids, and stacker's slots in `struct lsm_prop`.
//!
//! Audit records, `SCM_SECURITY` and the other users of `struct lsm_prop`
//! (`include/linux/security.h`) carry each LSM's part of a subject's or an
//! object's security data as numbers, and later ask the LSM for the text of
//! each. stacker's part is `struct lsm_prop_stacker`
//! (`include/linux/lsm/stacker.h`, linux/patches/0009): one secid per
//! label-bearing submodule of the chain, [`LSM_PROP_SLOTS`] at most.
//!
//! A submodule bears labels when it implements `secid_to_secctx`. Slot `s`
//! belongs to the chain's `s`-th label-bearing submodule, in chain order
//! ([`label_owners`]); the first is the chain's *primary* label, the one a
//! bare secid with no LSM id beside it stands for (`SCM_SECURITY`,
//! netfilter's secmarks). A label-bearing submodule after the first
//! [`LSM_PROP_SLOTS`] has no slot: stacker says so at boot.
//!
//! A submodule gives and takes only its own secids: the dispatch functions
//! (`dispatch.rs`) hand each the slot it owns, and ask it for the text of
//! that slot alone.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::dispatch::Tier;
use crate::hook::Hook;
use core::num::NonZeroU32;
use core::ops::ControlFlow;

/// How many label-bearing submodules stacker reports at once: the length
/// of `struct lsm_prop_stacker`'s `secid` (asserted against the binding,
/// `kernel/abi_check.rs`).
pub(crate) const LSM_PROP_SLOTS: usize = 2;

/// A secid: a label-bearing submodule's number for one of its labels.
/// Never 0, which `struct lsm_prop` uses for "none".
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Secid(NonZeroU32);

impl Secid {
    /// The secid `raw`; `None` for 0.
    #[inline(always)]
    pub(crate) const fn new(raw: u32) -> Option<Secid> {
        match NonZeroU32::new(raw) {
            Some(n) => Some(Secid(n)),
            None => None,
        }
    }

    /// The number.
    #[inline(always)]
    pub(crate) const fn raw(self) -> u32 {
        self.0.get()
    }
}

/// stacker's part of a `struct lsm_prop`: a secid (or 0) per slot.
pub(crate) type PropSlots = [u32; LSM_PROP_SLOTS];

/// The registry indices of chain `T`'s label-bearing submodules that have
/// a slot, by slot, in chain order; and how many there are.
#[inline(always)]
pub(crate) fn label_owners<T: Tier>() -> ([u8; LSM_PROP_SLOTS], usize) {
    let mut owners = [0; LSM_PROP_SLOTS];
    let mut n = 0;
    T::each(Hook::secid_to_secctx, |m| match owners.get_mut(n) {
        Some(owner) => {
            *owner = m;
            n += 1;
            ControlFlow::Continue(())
        }
        None => ControlFlow::Break(()),
    });
    (owners, n)
}

/// The registry index of the submodule that owns slot `slot` of chain `T`.
#[inline(always)]
pub(crate) fn slot_owner<T: Tier>(slot: usize) -> Option<u8> {
    let (owners, n) = label_owners::<T>();
    if slot < n {
        owners.get(slot).copied()
    } else {
        None
    }
}

/// The chain's primary label-bearing submodule: the first, which owns
/// slot 0.
#[inline(always)]
pub(crate) fn primary<T: Tier>() -> Option<u8> {
    slot_owner::<T>(0)
}

/// The hooks of labels as secids. A submodule registered as an LSM of its
/// own takes none of them: its slot and its bare secids would be
/// stacker's chain's too.
pub(crate) const LABEL_HOOKS: &[Hook] = &[
    Hook::cred_getlsmprop,
    Hook::current_getlsmprop_subj,
    Hook::task_getlsmprop_obj,
    Hook::inode_getlsmprop,
    Hook::ipc_getlsmprop,
    Hook::secid_to_secctx,
    Hook::lsmprop_to_secctx,
    Hook::release_secctx,
    Hook::socket_getpeersec_dgram,
    Hook::audit_rule_init,
    Hook::audit_rule_match,
    Hook::audit_rule_free,
    Hook::audit_rule_known,
];

/// Whether a submodule with hook set `hooks` labels every object audit
/// asks about (inodes, IPC objects, tasks): only then may audit ask it for
/// object contexts, where an empty slot is an error. Kernel-only.
#[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
pub(crate) const fn labels_objects(hooks: crate::hook::HookSet) -> bool {
    hooks.contains(Hook::inode_getlsmprop)
        && hooks.contains(Hook::ipc_getlsmprop)
        && hooks.contains(Hook::task_getlsmprop_obj)
}

/// How many label-bearing submodules chain `T` has, with a slot or not.
/// Kernel-only.
#[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
pub(crate) fn label_count<T: Tier>() -> usize {
    let mut n = 0usize;
    T::each(Hook::secid_to_secctx, |_| {
        n = n.saturating_add(1);
        ControlFlow::Continue(())
    });
    n
}
