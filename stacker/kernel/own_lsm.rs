// SPDX-License-Identifier: GPL-2.0

//! A submodule registered as an LSM of its own, next to stacker
//! (`CONFIG_SECURITY_STACKER_OWN_LSM`, for benchmarks and tests).
//!
//! `own_lsm.c` defines one LSM per submodule listed there, named as the
//! submodule. It registers exactly the entry points that stacker registers
//! for a one-submodule chain of that submodule (`entry.rs`), with its own
//! slice of each blob, whose offsets go in the same table stacker's slots
//! use. So `lsm=capstack` and `stacker.chain=capstack` run the same
//! instructions, and `lsm=A,B` against `stacker.chain=A,B` compares the LSM
//! core's stacking with stacker's.
//!
//! A submodule cannot be both: whichever of stacker and the submodule's
//! own LSM initialises second refuses (`Stage::Conflict`).

use crate::chain::{BootState, ChainSpec};
use crate::init_status::{self, InitStatus, Lsm, Stage};
use crate::registry::{C_NAMES, HOOK_SETS, NAMES, REQUESTS};
use crate::submodule::Registered;
use kernel::{
    bindings,
    ffi::{c_char, c_int},
    prelude::*,
};

/// The boot state of submodule `index` alone: its own LSM's layout, or
/// `None` when there is no such submodule or its states cannot be laid out.
const fn alone(index: usize) -> Option<BootState> {
    if index >= NAMES.len() {
        return None;
    }
    let spec = ChainSpec::parse(NAMES[index], NAMES);
    match BootState::new(spec, REQUESTS, HOOK_SETS) {
        Ok(state) => Some(state),
        Err(_) => None,
    }
}

/// [`alone`], for the blob sizes computed at compile time: a submodule
/// with an LSM of its own that cannot be laid out alone fails the build.
const fn alone_at_build(index: usize) -> BootState {
    match alone(index) {
        Some(state) => state,
        None => panic!("a submodule alone cannot be laid out"),
    }
}

/// The registry index of the submodule named `name`.
fn index_of(name: &[u8]) -> Option<u8> {
    NAMES
        .iter()
        .position(|n| *n == name)
        .and_then(|m| u8::try_from(m).ok())
}

/// Defines, for each submodule named, `stacker_own_NAME_blob_sizes`: the
/// blob sizes of its own LSM, which `own_lsm.c` hands to the LSM core.
macro_rules! own_lsm_blob_sizes {
    ($($name:ident: $ty:ty),* $(,)?) => {
        kernel::macros::paste! {
            $(
                #[doc = concat!("Blob sizes, then offsets, of `", stringify!($name), "` as its own LSM.")]
                ///
                /// # Invariants
                ///
                /// Written only by the LSM core, in `security_init()`, before
                /// any hook runs.
                #[no_mangle]
                #[link_section = ".data..ro_after_init"]
                pub(crate) static mut [<stacker_own_ $name _blob_sizes>]: bindings::lsm_blob_sizes =
                    crate::boot::blob_sizes(&alone_at_build(<$ty as Registered>::INDEX));
            )*
        }
    };
}

#[cfg(CONFIG_SECURITY_STACKER_CAPSTACK)]
own_lsm_blob_sizes!(capstack: crate::capstack::Capstack);
#[cfg(CONFIG_SECURITY_STACKER_TEST_MODULES)]
own_lsm_blob_sizes!(
    probe: crate::probe::Probe<0>,
    probe_b: crate::probe::Probe<1>,
    probe_c: crate::probe::Probe<2>,
);

/// The init of the own LSM of submodule `name`, called by its `init` in
/// `own_lsm.c` before it registers any hook, with its blob offsets. Checks
/// the kernel structures, fills the submodule's slots, runs its init and
/// records the outcome. Returns its registry index (for
/// `stacker_collect_hooks()`), or a negative error: then nothing may be
/// registered.
///
/// # Safety
///
/// `name` must be a NUL-terminated string and `offsets` the LSM core's
/// offsets for this LSM. Called once per LSM from its init.
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_own_init(
    name: *const c_char,
    offsets: *const bindings::lsm_blob_sizes,
) -> c_int {
    // SAFETY: a NUL-terminated string, as the caller promises.
    let Some(m) = index_of(unsafe { crate::objects::c_bytes(name) }) else {
        return EINVAL.to_errno();
    };
    let failed = |stage, err| InitStatus::Failed { stage, err };
    let stacker_has_it = matches!(init_status::get(Lsm::Stacker), InitStatus::Ok)
        && crate::boot::boot().chain.order().contains(&m);
    let status = if !crate::objects::layout_matches() {
        failed(Stage::LayoutCheck, EINVAL)
    } else if stacker_has_it {
        failed(Stage::Conflict(m), EBUSY)
    } else if crate::boot::fail_init_submodule() == Some(m) {
        failed(Stage::Submodule(m), ENODEV)
    } else if let Some(state) = alone(m as usize) {
        // SAFETY: the LSM core's offsets for this LSM, final by now.
        crate::boot::set_slots(m, &state, unsafe { &*offsets });
        match crate::registry::init_one(m) {
            Ok(()) => InitStatus::Ok,
            Err(err) => failed(Stage::Submodule(m), err),
        }
    } else {
        // Not reached: each own LSM's blob sizes were laid out alone at
        // build time (`alone_at_build`).
        failed(Stage::Submodule(m), EINVAL)
    };
    init_status::record(Lsm::Own(m), status);
    let name = C_NAMES.get(m as usize).copied().unwrap_or(c"?");
    match status {
        InitStatus::Failed { err, .. } => {
            pr_err!(
                "{}: init {status}; no hook registered, nothing is enforced\n",
                name.to_str().unwrap_or("?")
            );
            err.to_errno()
        }
        _ => {
            pr_info!(
                "{}: initialized as its own LSM\n",
                name.to_str().unwrap_or("?")
            );
            c_int::from(m)
        }
    }
}

/// Creates `/sys/kernel/security/NAME/` for the own LSM of submodule `name`:
/// `status`, and, when its init succeeded, the submodule's own files.
///
/// # Safety
///
/// `name` must be a NUL-terminated string. Called at `fs_initcall` time.
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_own_securityfs_init(name: *const c_char) -> c_int {
    // SAFETY: a NUL-terminated string, as the caller promises.
    let Some(m) = index_of(unsafe { crate::objects::c_bytes(name) }) else {
        return EINVAL.to_errno();
    };
    let Some(&dir_name) = C_NAMES.get(m as usize) else {
        return EINVAL.to_errno();
    };
    let result = crate::platform::Dir::root()
        .create_dir(dir_name)
        .and_then(|dir| {
            crate::interface::create_status(&dir, Lsm::Own(m))?;
            if matches!(init_status::get(Lsm::Own(m)), InitStatus::Ok) {
                crate::registry::securityfs_init_one(m, &dir)?;
            }
            Ok(())
        });
    match result {
        Ok(()) => 0,
        Err(err) => {
            pr_err!("securityfs setup of an own LSM failed: {:?}\n", err);
            err.to_errno()
        }
    }
}
