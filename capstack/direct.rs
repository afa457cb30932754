// SPDX-License-Identifier: GPL-2.0

//! capstack registered directly as its own LSM (`capstack/lsm.c`).
//!
//! The hooks here do what the submodule's hooks do (`capstack.rs`), with
//! capstack's own slice of the cred blob instead of a slot in stacker's:
//! same policy, same functions, no dispatch in between.

use super::capstack::{self, CredState, PolicyFile};
use crate::attribute::Attribute;
use crate::init_status::{self, InitStatus, Lsm, Stage};
use crate::objects::{with_current_cred, Binprm, Cred, File, MmapAddr, PreparedCred};
use crate::platform::{Dir, TextBuf};
use core::fmt::Write;
use core::ptr::addr_of;
use kernel::{
    bindings,
    ffi::{c_int, c_long, c_uint, c_ulong},
    prelude::*,
};

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
    // SAFETY: the cred is valid, as the caller promises.
    let blob = unsafe { (*cred).security }.cast::<u8>();
    if blob.is_null() {
        return None;
    }
    // SAFETY: by the invariant of `capstack_blob_sizes`, it holds
    // capstack's offset once hooks run, and is no longer written.
    let off = unsafe { (*addr_of!(capstack_blob_sizes)).lbs_cred } as usize;
    // SAFETY: the core allocated the blob with capstack's slice at `off`.
    let slot = unsafe { blob.add(off) }.cast::<CredState>();
    // SAFETY: the core zeroed the blob, a valid `CredState` (`BlobState`),
    // aligned as asserted above, alive as long as the cred.
    Some(unsafe { &*slot })
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
    // SAFETY: the binprm's new cred is valid for the whole call.
    let st = unsafe { state(bprm.cred().as_raw()) };
    match capstack::on_exec(st, bprm) {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

/// `bprm_creds_from_file` hook: removes what capstack takes away from the
/// new cred's capability sets.
///
/// # Safety
///
/// Called by the LSM core with the binprm of an exec in `begin_new_exec()`,
/// whose `cred` is set and not yet committed.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_bprm_creds_from_file(
    bprm: *mut bindings::linux_binprm,
    file: *const bindings::file,
) -> c_int {
    // SAFETY: as the LSM core promises, for the whole call.
    let cred = unsafe { PreparedCred::from_bprm(bprm) };
    // SAFETY: the new cred is valid for the whole call.
    let st = unsafe { state(cred.cred().as_raw()) };
    // SAFETY: the binary that will run, open, for the whole call.
    let file = unsafe { File::from_raw(file) };
    capstack::drop_on_exec(st, &cred, file);
    0
}

/// `task_fix_setuid` hook: removes what capstack takes away under the new
/// ids from the new cred's capability sets.
///
/// # Safety
///
/// Called by the LSM core with the prepared, not yet committed `new` cred
/// of a uid change, and the current cred `old`.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_task_fix_setuid(
    new: *mut bindings::cred,
    _old: *const bindings::cred,
    _flags: c_int,
) -> c_int {
    // SAFETY: as the LSM core promises, for the whole call.
    let cred = unsafe { PreparedCred::from_new(new) };
    // SAFETY: the new cred is valid for the whole call.
    let st = unsafe { state(new) };
    capstack::drop_on_id_change(st, &cred);
    0
}

/// `task_fix_setgid` hook: as `task_fix_setuid`, for the gids.
///
/// # Safety
///
/// As for [`capstack_direct_task_fix_setuid`].
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_task_fix_setgid(
    new: *mut bindings::cred,
    old: *const bindings::cred,
    flags: c_int,
) -> c_int {
    // SAFETY: the same arguments, as promised by the caller.
    unsafe { capstack_direct_task_fix_setuid(new, old, flags) }
}

/// `mmap_addr` hook.
///
/// # Safety
///
/// Called by the LSM core, in process context.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_mmap_addr(addr: c_ulong) -> c_int {
    with_current_cred(|cred| {
        // SAFETY: the current cred is valid for the closure.
        let st = unsafe { state(cred.as_raw()) };
        match capstack::check_mmap_addr(st, &capstack::ids(cred), MmapAddr::from_raw(addr)) {
            Ok(()) => 0,
            Err(e) => e.to_errno(),
        }
    })
}

/// `vm_enough_memory` hook: 0 when the `CAP_SYS_ADMIN` reserve may be used,
/// `-EPERM` (the LSM core then denies it) when not.
///
/// # Safety
///
/// Called by the LSM core, in process context.
#[no_mangle]
pub(crate) unsafe extern "C" fn capstack_direct_vm_enough_memory(
    _mm: *mut bindings::mm_struct,
    _pages: c_long,
) -> c_int {
    with_current_cred(|cred| {
        // SAFETY: the current cred is valid for the closure.
        let st = unsafe { state(cred.as_raw()) };
        if capstack::check_vm_enough_memory(st, &capstack::ids(cred)) {
            0
        } else {
            EPERM.to_errno()
        }
    })
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

/// capstack's own init, called by `capstack_init()` (`capstack/lsm.c`)
/// before it registers any hook: checks the kernel structures Rust reads
/// and records the outcome (`init_status.rs`). Non-zero: register nothing.
#[no_mangle]
pub(crate) extern "C" fn capstack_direct_init() -> c_int {
    let status = if !crate::objects::layout_matches() {
        InitStatus::Failed {
            stage: Stage::LayoutCheck,
            err: EINVAL,
        }
    } else if crate::boot::fail_init_submodule() == Some(CAPSTACK_INDEX) {
        InitStatus::Failed {
            stage: Stage::Submodule(CAPSTACK_INDEX),
            err: ENODEV,
        }
    } else {
        InitStatus::Ok
    };
    init_status::record(Lsm::CapstackDirect, status);
    match status {
        InitStatus::Failed { err, .. } => {
            pr_err!("capstack: init {status}; no hook registered, nothing is enforced\n");
            err.to_errno()
        }
        _ => 0,
    }
}

/// capstack's registry index: `stacker.fail_init=capstack` names it.
const CAPSTACK_INDEX: u8 = <super::Capstack as crate::submodule::Registered>::INDEX as u8;

/// `/sys/kernel/security/capstack/status`: `ok`, or `failed: WHY`.
struct StatusFile;

impl Attribute for StatusFile {
    fn show(out: &mut TextBuf) -> Result {
        let status = init_status::get(Lsm::CapstackDirect);
        out.write_fmt(fmt!("{}\n", status)).map_err(|_| ENOMEM)
    }
}

fn init_succeeded() -> bool {
    matches!(init_status::get(Lsm::CapstackDirect), InitStatus::Ok)
}

/// Creates `/sys/kernel/security/capstack/`: `status`, and `policy` only
/// when init succeeded.
#[no_mangle]
pub(crate) extern "C" fn capstack_direct_securityfs_init() -> c_int {
    let result = Dir::root().create_dir(c"capstack").and_then(|dir| {
        dir.create_file::<StatusFile>(c"status")?;
        if !init_succeeded() {
            return Ok(());
        }
        dir.create_file::<PolicyFile>(c"policy")
    });
    match result {
        Ok(()) => 0,
        Err(e) => {
            pr_err!("capstack: securityfs setup failed: {:?}\n", e);
            e.to_errno()
        }
    }
}
