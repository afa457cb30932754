// SPDX-License-Identifier: GPL-2.0

//! capstack registered directly as its own LSM (`capstack/lsm.c`).
//!
//! The hooks here do what the submodule's hooks do (`capstack.rs`), with
//! capstack's own slice of the cred blob instead of a slot in stacker's:
//! same policy, same functions, no dispatch in between.

use super::capstack::{self, CredState, PolicyFile};
use crate::objects::{Binprm, Cred};
use crate::platform::Dir;
use core::ptr::addr_of;
use kernel::{bindings, ffi::c_int, ffi::c_uint, prelude::*};

/// capstack's blob sizes, read by the LSM core, which then replaces them
/// with capstack's offsets.
///
/// # Invariants
///
/// Written only by the LSM core, in `security_init()`, before any hook runs.
#[no_mangle]
#[link_section = ".data..ro_after_init"]
static mut capstack_blob_sizes: bindings::lsm_blob_sizes = bindings::lsm_blob_sizes {
    lbs_cred: core::mem::size_of::<CredState>() as u32,
    ..pin_init::zeroed()
};

// The LSM core aligns each slice to a pointer; that suffices.
const _: () = assert!(core::mem::align_of::<CredState>() <= core::mem::size_of::<usize>());

/// capstack's state in `cred`.
///
/// # Safety
///
/// `cred` must be a valid cred whose blob the LSM core allocated with
/// capstack's slice, alive for `'a`.
unsafe fn state<'a>(cred: *const bindings::cred) -> Option<&'a CredState> {
    // SAFETY: the cred is valid; by the invariant of `capstack_blob_sizes`
    // it holds capstack's offset, and the core allocated and zeroed the
    // blob, a valid `CredState` (`BlobState`), aligned as asserted above.
    unsafe {
        let blob = (*cred).security.cast::<u8>();
        if blob.is_null() {
            return None;
        }
        let off = (*addr_of!(capstack_blob_sizes)).lbs_cred as usize;
        Some(&*blob.add(off).cast::<CredState>())
    }
}

/// `cred_prepare` hook.
///
/// # Safety
///
/// Called by the LSM core with valid creds.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_cred_prepare(
    new: *mut bindings::cred,
    old: *const bindings::cred,
    _gfp: bindings::gfp_t,
) -> c_int {
    // SAFETY: valid creds from the LSM core, for the whole call.
    if let (Some(n), Some(o)) = unsafe { (state(new), state(old)) } {
        capstack::inherit(n, o);
    }
    0
}

/// `cred_transfer` hook.
///
/// # Safety
///
/// Called by the LSM core with valid creds.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_cred_transfer(
    new: *mut bindings::cred,
    old: *const bindings::cred,
) {
    // SAFETY: valid creds from the LSM core, for the whole call.
    if let (Some(n), Some(o)) = unsafe { (state(new), state(old)) } {
        capstack::inherit(n, o);
    }
}

/// `bprm_creds_for_exec` hook.
///
/// # Safety
///
/// Called by the LSM core with a valid binprm whose `file` and `cred` are
/// set.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_bprm_creds_for_exec(
    bprm: *mut bindings::linux_binprm,
) -> c_int {
    // SAFETY: a valid binprm from the LSM core, for the whole call.
    let bprm = unsafe { Binprm::from_raw(bprm) };
    let cred = bprm.cred();
    // SAFETY: the binprm's new cred is valid and has a blob.
    if let Some(st) = unsafe { state(cred.as_raw()) } {
        let mut buf = [0u8; 32];
        capstack::narrow_on_exec(
            st,
            &capstack::ids(cred),
            capstack::exec_label(bprm, &mut buf),
        );
    }
    0
}

/// `capable` hook.
///
/// # Safety
///
/// Called by the LSM core with a valid cred.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_capable(
    cred: *const bindings::cred,
    _ns: *mut bindings::user_namespace,
    cap: c_int,
    opts: c_uint,
) -> c_int {
    // SAFETY: a valid cred from the LSM core, for the whole call.
    let (st, c) = unsafe { (state(cred), Cred::from_raw(cred)) };
    match capstack::check_capable(st, &capstack::ids(c), cap, opts) {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

/// `capset` hook.
///
/// # Safety
///
/// Called by the LSM core with valid creds and capability sets.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_capset(
    _new: *mut bindings::cred,
    old: *const bindings::cred,
    effective: *const bindings::kernel_cap_t,
    inheritable: *const bindings::kernel_cap_t,
    permitted: *const bindings::kernel_cap_t,
) -> c_int {
    // SAFETY: valid arguments from the LSM core, for the whole call.
    let (st, o, new) = unsafe {
        (
            state(old),
            Cred::from_raw(old),
            [
                crate::objects::kernel_cap(effective),
                crate::objects::kernel_cap(permitted),
                crate::objects::kernel_cap(inheritable),
            ],
        )
    };
    match capstack::check_capset(st, &capstack::ids(o), o.caps(), new) {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

/// Creates `/sys/kernel/security/capstack/policy`.
#[no_mangle]
pub(crate) extern "C" fn capstack_direct_securityfs_init() -> c_int {
    let result = Dir::root()
        .create_dir(c"capstack")
        .and_then(|dir| dir.create_file::<PolicyFile>(c"policy"));
    match result {
        Ok(()) => 0,
        Err(e) => {
            pr_err!("capstack: securityfs setup failed: {:?}\n", e);
            e.to_errno()
        }
    }
}
