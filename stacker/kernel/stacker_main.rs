// SPDX-License-Identifier: GPL-2.0

//! stacker: a stacking multiplexer Linux Security Module.
//!
//! stacker registers with the LSM core as one LSM (see `lsm.c`) and runs a
//! chain of submodules behind it. This is the kernel crate root. It pulls
//! in the kernel-independent core (shared with the host crate, `stacker/host/lib.rs`),
//! the kernel-side files, and the submodules under `modules/`, which are
//! all compiled into this one crate.
//!
//! C header: [`security/stacker/stacker/stacker.h`](srctree/security/stacker/stacker/kernel/stacker.h)

use init_status::{InitStatus, Lsm, Stage};
use kernel::{
    bindings,
    ffi::{c_char, c_int, c_uint},
    prelude::*,
};

/// Prefix of every log line (`pr_*!`), normally provided by `module!`.
const __LOG_PREFIX: &[u8] = b"stacker\0";

// The kernel-independent core, shared with the host crate.
include!("../core/modules.rs");

// Kernel side.
mod abi_check;
mod boot;
mod entry;
mod init_status;
mod interface;
// The wrappers are the API that submodules program against; not every
// method is used by the submodules compiled in today.
#[allow(dead_code)]
mod objects;
mod platform;
mod securityfs;

/// Error codes, as the core spells them.
mod error {
    pub(crate) use kernel::error::{code::*, Error, Result};
}

// Submodules, each behind its own Kconfig option.
#[cfg(CONFIG_SECURITY_STACKER_CAPSTACK)]
#[path = "../../capstack/mod.rs"]
mod capstack;
#[cfg(CONFIG_SECURITY_STACKER_TEST_MODULES)]
#[path = "../../modules/denyname/denyname.rs"]
mod denyname;
#[cfg(CONFIG_SECURITY_STACKER_TEST_MODULES)]
#[path = "../../modules/probe/probe.rs"]
mod probe;
#[cfg(CONFIG_SECURITY_STACKER_TEST_MODULES)]
#[path = "../../modules/xattrlock/xattrlock.rs"]
mod xattrlock;

#[cfg(CONFIG_SECURITY_STACKER_MLTE)]
#[path = "../../modules/mlte/mod.rs"]
mod mlte;

#[cfg(CONFIG_SECURITY_STACKER_INTEGRITY)]
#[path = "../../modules/integrity/mod.rs"]
mod integrity;

// A submodule registered as an LSM of its own, for benchmarks and tests.
#[cfg(CONFIG_SECURITY_STACKER_OWN_LSM)]
mod own_lsm;

/// The compiled-in submodules. The chain picks among them at boot.
mod registry {
    #[cfg(CONFIG_SECURITY_STACKER_CAPSTACK)]
    use crate::capstack::Capstack;
    #[cfg(CONFIG_SECURITY_STACKER_INTEGRITY)]
    use crate::integrity::hooks::Integrity;
    #[cfg(CONFIG_SECURITY_STACKER_MLTE)]
    use crate::mlte::hooks::Mlte;
    #[cfg(CONFIG_SECURITY_STACKER_TEST_MODULES)]
    use crate::{denyname::DenyName, probe::Probe, xattrlock::XattrLock};

    crate::dispatch::define_registry! {
        [CONFIG_SECURITY_STACKER_CAPSTACK] CAPSTACK: Capstack = Capstack;
        [CONFIG_SECURITY_STACKER_MLTE] MLTE: Mlte = Mlte;
        [CONFIG_SECURITY_STACKER_INTEGRITY] INTEGRITY: Integrity = Integrity;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] DENYNAME: DenyName = DenyName;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] XATTRLOCK: XattrLock<0> = XattrLock;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] XATTRLOCK_B: XattrLock<1> = XattrLock;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] XATTRLOCK_C: XattrLock<2> = XattrLock;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] PROBE: Probe<0> = Probe;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] PROBE_B: Probe<1> = Probe;
        [CONFIG_SECURITY_STACKER_TEST_MODULES] PROBE_C: Probe<2> = Probe;
    }
}

// Audit names each label-bearing submodule by its LSM id
// (`core/lsm_prop.rs`).
const _: () = assert!(
    registry::label_ids_are_set(),
    "a label-bearing submodule (one with secid_to_secctx) needs an LSM_ID"
);

/// stacker's init: checks the kernel structures Rust reads, fills the
/// tables the hooks read, and initialises the enabled submodules.
///
/// Only the layout check fails stacker as a whole. A submodule that is
/// already registered as an LSM of its own, or whose init fails, is left
/// out of the chain (logged, and listed in `status`); the rest of the chain
/// starts and enforces.
fn init() -> core::result::Result<(), InitStatus> {
    if boot::fail_init_core() || !objects::layout_matches() {
        return Err(InitStatus::Failed {
            stage: Stage::LayoutCheck,
            err: EINVAL,
        });
    }
    boot::log_default_rejects();
    // A submodule already registered as its own LSM keeps its slots there:
    // stacker must not fill them, so it leaves it out first.
    // (A copy of the order: leaving out rewrites the boot state.)
    let chain = boot::boot().chain;
    for &m in chain.order() {
        if matches!(init_status::get(Lsm::Own(m)), InitStatus::Ok) {
            leave_out(m, Stage::Conflict(m), EBUSY);
        }
    }
    boot::init_tables();
    let chain = boot::boot().chain;
    registry::init_enabled(chain.order(), boot::fail_init_submodule(), |m, err| {
        leave_out(m, Stage::Submodule(m), err)
    });
    Ok(())
}

/// Leaves submodule `m` out of the chain because `stage` failed with `err`,
/// and says so loudly.
fn leave_out(m: u8, stage: Stage, err: kernel::error::Error) {
    let why = InitStatus::Failed { stage, err };
    pr_err!(
        "{}; left out of the chain, which runs without it\n",
        init_status::Reason(why)
    );
    init_status::record_left_out(m, stage, err);
    boot::leave_out(m);
}

/// Called once by `stacker_init()` in `lsm.c`, before it registers any hook.
/// Records the outcome (`init_status.rs`); on failure returns the error and
/// `lsm.c` registers nothing.
#[no_mangle]
pub extern "C" fn stacker_rs_init() -> c_int {
    match init() {
        Ok(()) => {
            init_status::record(Lsm::Stacker, InitStatus::Ok);
            pr_info!("initialized, chain: {}\n", ChainNames);
            0
        }
        Err(status) => {
            init_status::record(Lsm::Stacker, status);
            pr_err!("init {status}; no hook registered, nothing is enforced\n");
            match status {
                InitStatus::Failed { err, .. } => err.to_errno(),
                _ => EINVAL.to_errno(),
            }
        }
    }
}

/// Whether stacker did not start as configured (its init failed, a
/// submodule was left out, or `stacker.chain=` was refused) while
/// `stacker.on_failure=panic` asks for a panic then; `lsm.c` panics.
#[no_mangle]
pub extern "C" fn stacker_rs_must_panic() -> bool {
    let not_as_configured = !matches!(init_status::get(Lsm::Stacker), InitStatus::Ok)
        || init_status::left_out().next().is_some()
        || boot::chain_refused();
    boot::panic_on_failure() && not_as_configured
}

/// Creates `/sys/kernel/security/stacker/`; called at `fs_initcall` time.
///
/// After a failed init it holds only `status`.
#[no_mangle]
pub extern "C" fn stacker_rs_securityfs_init() -> c_int {
    let result = (|| -> Result {
        let dir = platform::Dir::root().create_dir(c"stacker")?;
        interface::create_status(&dir, Lsm::Stacker)?;
        if !matches!(init_status::get(Lsm::Stacker), InitStatus::Ok) {
            return Ok(());
        }
        interface::create(&dir)?;
        registry::securityfs_init_enabled(&dir)
    })();
    match result {
        Ok(()) => 0,
        Err(err) => {
            pr_err!("securityfs setup failed: {:?}\n", err);
            err.to_errno()
        }
    }
}

/// The name of the `i`-th submodule of the chain that has process
/// attributes (`dispatch::attribute_owners`), for the directories of
/// `/proc/PID/attr/stacker/`, which `fs/proc/base.c` lists and looks up
/// through this (declared in `include/linux/security.h`; both from
/// `linux/patches/0008`). Null past the last one, and for every `i` when
/// stacker did not start. The chain is fixed once stacker's init is done,
/// before any process can look.
#[no_mangle]
pub extern "C" fn stacker_attr_dir_name(i: c_uint) -> *const c_char {
    if !matches!(init_status::get(Lsm::Stacker), InitStatus::Ok) {
        return core::ptr::null();
    }
    let order = boot::boot().chain.order();
    crate::dispatch::attribute_owners(order, registry::HOOK_SETS)
        .nth(i as usize)
        .and_then(|m| registry::C_NAMES.get(m as usize))
        .map_or(core::ptr::null(), |name| name.as_char_ptr())
}

// `stacker_attr_dir_name` has the type that `security.h` declares.
const _: unsafe extern "C" fn(c_uint) -> *const c_char = bindings::stacker_attr_dir_name;
const _: extern "C" fn(c_uint) -> *const c_char = stacker_attr_dir_name;

/// The chain's names, comma separated, for the boot log.
struct ChainNames;

impl kernel::fmt::Display for ChainNames {
    fn fmt(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
        let order = boot::boot().chain.order();
        if order.is_empty() {
            return write!(f, "(empty)");
        }
        for (i, &m) in order.iter().enumerate() {
            write!(f, "{}{}", if i == 0 { "" } else { "," }, interface::name(m))?;
        }
        Ok(())
    }
}

#[cfg(CONFIG_SECURITY_STACKER_KUNIT_TEST)]
#[kunit_tests(stacker)]
mod tests {
    use super::*;
    use crate::blob::HasBlob;
    use crate::layout::{ObjectKind, BLOB_ALIGN};
    use crate::objects::Inode;
    use kernel::bindings;

    /// Marks the running KUnit test as skipped, with `reason`: a test with
    /// nothing to check in this boot says so instead of passing.
    fn skip(reason: &CStr) {
        // SAFETY: always safe to call; null outside a KUnit test.
        let test = unsafe { bindings::kunit_get_current_test() };
        if test.is_null() {
            return;
        }
        // SAFETY: `test` is the running test, which only this thread
        // touches while it runs.
        unsafe { (*test).status = bindings::kunit_status_KUNIT_SKIPPED };
        let bytes = reason.to_bytes_with_nul();
        // SAFETY: as above; the copy below stays inside the buffer and
        // leaves its last byte NUL.
        let comment = unsafe { &mut (*test).status_comment };
        let n = bytes.len().min(comment.len() - 1);
        for (d, &s) in comment.iter_mut().zip(&bytes[..n]) {
            *d = s as kernel::ffi::c_char;
        }
        comment[n] = 0;
    }

    /// Every enabled submodule's slot, placed at stacker's offset in a real
    /// inode blob (a new securityfs inode's), lies inside the blob's allocation and
    /// is aligned.
    #[test]
    fn real_inode_offsets_are_inside_the_blob_and_aligned() {
        let b = boot::boot();
        let total = b.layout.total(ObjectKind::Inode);
        let core_off = boot::blob_offsets().lbs_inode as usize;
        if total == 0 {
            // No enabled submodule keeps inode state: stacker takes no space.
            for &m in b.chain.order() {
                assert_eq!(b.layout.size(m as usize, ObjectKind::Inode), 0);
            }
            skip(c"no submodule of this chain keeps inode state");
            return;
        }
        // A fresh inode: a securityfs directory made for this test.
        // SAFETY: the name is a valid C string; null means the fs root.
        let dentry = unsafe {
            bindings::securityfs_create_dir(c"stacker_kunit".as_char_ptr(), core::ptr::null_mut())
        };
        let made = kernel::error::from_err_ptr(dentry).is_ok();
        assert!(made);
        if !made {
            return;
        }
        // SAFETY: securityfs holds the dentry, which pins its inode, until
        // `securityfs_remove` below.
        let inode = unsafe { Inode::from_raw((*dentry).d_inode) };
        // SAFETY: the inode is valid; its blob came from the LSM core.
        let blob = unsafe { (*inode.as_raw()).i_security }.cast::<u8>();
        let alloc = if blob.is_null() {
            0
        } else {
            // SAFETY: `blob` is a live slab object.
            unsafe { bindings::ksize(blob.cast()) }
        };
        let slice = blob as usize + core_off;
        // SAFETY: removes the directory made above; nothing uses it now.
        unsafe { bindings::securityfs_remove(dentry) };

        assert!(!blob.is_null());
        // The inode blob starts with the core's rcu_head.
        assert!(core_off >= core::mem::size_of::<bindings::callback_head>());
        assert_eq!(core_off % BLOB_ALIGN, 0);
        assert!(core_off + total <= alloc);
        assert_eq!(inode.blob() as usize, blob as usize);
        // The layout aligns each slot within the slice; the slice itself
        // must then be aligned for the largest alignment a state may have.
        assert_eq!(slice % BLOB_ALIGN, 0);
        for &m in b.chain.order() {
            let off = b.layout.offset(m as usize, ObjectKind::Inode);
            let size = b.layout.size(m as usize, ObjectKind::Inode);
            assert!(off + size <= total);
            // The slot table that `state()` reads agrees, and stays inside
            // the allocation.
            let slot = boot::slot_offset(m as usize, ObjectKind::Inode);
            if size == 0 {
                assert!(slot.is_none());
            } else {
                assert_eq!(slot, Some(core_off + off));
                assert!(core_off + off + size <= alloc);
            }
        }
    }
}
