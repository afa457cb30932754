// SPDX-License-Identifier: GPL-2.0

//! What stacker decides at boot: the chain, the blob layout, the dispatch
//! tier.
//!
//! The LSM core reads an LSM's blob sizes in `security_init()`, before it
//! calls the LSM's `init`, and then overwrites them in place with the LSM's
//! offsets. So the sizes must be final earlier:
//!
//! - without `stacker.chain=`, the default chain from
//!   `CONFIG_SECURITY_STACKER_DEFAULT_CHAIN` is laid out at compile time and
//!   [`stacker_blob_sizes`] starts out with its sizes;
//! - with `stacker.chain=`, an `early_param` handler (which runs from
//!   `setup_arch()`, long before `security_init()`) lays out that chain and
//!   rewrites the sizes.
//!
//! Both live in `.data..ro_after_init`: once the kernel marks that section
//! read-only, nothing can change the chain or an offset.

use crate::chain::{BootState, ChainSpec, DispatchTier, Reject};
use crate::layout::{Layout, ObjectKind, KINDS, MAX_MODULES};
use crate::registry::{HOOK_SETS, NAMES, REQUESTS, XATTR_COUNTS};
use core::ptr::addr_of;
use kernel::{bindings, ffi::c_char, ffi::c_int, prelude::*};

/// The default chain, from Kconfig (passed in by Kbuild).
const DEFAULT_CHAIN: &str = env!("STACKER_DEFAULT_CHAIN");

/// The default chain, parsed at compile time.
const DEFAULT_SPEC: ChainSpec = ChainSpec::parse(DEFAULT_CHAIN.as_bytes(), NAMES);

/// The boot state of the default chain, computed at compile time. A default
/// chain that cannot be laid out fails the build.
const DEFAULT_BOOT: BootState = match BootState::new(DEFAULT_SPEC, REQUESTS, HOOK_SETS) {
    Ok(state) => state,
    Err(_) => panic!("CONFIG_SECURITY_STACKER_DEFAULT_CHAIN cannot be laid out"),
};

/// The default chain's registry indices, for its straight-line tier
/// (`entry.rs`).
pub(crate) const DEFAULT_ORDER: [usize; crate::dispatch::STRAIGHT_MAX] =
    crate::dispatch::straight_order(&DEFAULT_SPEC);

/// The boot state.
///
/// # Invariants
///
/// Written only by the early parameter handlers below, which run on the
/// boot CPU before `security_init()`, and by [`leave_out`] from stacker's
/// LSM init, before it registers any hook; read-only afterwards (and made
/// so by the MMU after init).
#[link_section = ".data..ro_after_init"]
static mut BOOT: BootState = DEFAULT_BOOT;

/// Whether `stacker.on_failure=panic` asked for a panic when stacker or one
/// of its submodules fails to start, instead of running without it.
#[link_section = ".data..ro_after_init"]
static mut PANIC_ON_FAILURE: bool = false;

/// Whether `stacker.chain=` was given.
#[link_section = ".data..ro_after_init"]
static mut CHAIN_FROM_CMDLINE: bool = false;

/// Whether `stacker.dispatch=loop` asked for the loop tier whatever the
/// chain (for measuring the tiers against each other).
#[link_section = ".data..ro_after_init"]
static mut LOOP_FORCED: bool = false;

/// The static call positions stacker has in the LSM core
/// (`CONFIG_SECURITY_STACKER_POSITIONS`, passed in by Kbuild; counted in
/// `include/linux/lsm_count.h` by linux/patches/0004).
pub(crate) const POSITIONS: usize = parse_positions(env!("STACKER_POSITIONS").as_bytes());

/// A decimal number of 1 to 4, as Kconfig's range gives it; anything else
/// fails the build.
const fn parse_positions(text: &[u8]) -> usize {
    match text {
        [d @ b'1'..=b'4'] => (*d - b'0') as usize,
        _ => panic!("CONFIG_SECURITY_STACKER_POSITIONS must be 1 to 4"),
    }
}

/// The dispatch tier stacker registers its hooks with.
pub(crate) fn tier() -> DispatchTier {
    // SAFETY: written only by the early parameter handler, before any
    // reader runs.
    let forced = unsafe { *addr_of!(LOOP_FORCED) };
    boot().tier(&DEFAULT_SPEC, POSITIONS, forced)
}

/// How many static call positions stacker fills: the chain's length for
/// the positions tier, else 0 (its hooks then take one position, that of
/// its chain's entry points). Called by `stacker_init()` (`lsm.c`).
#[no_mangle]
pub(crate) extern "C" fn stacker_rs_positions() -> c_int {
    match tier() {
        DispatchTier::Positions => boot().chain.order().len() as c_int,
        _ => 0,
    }
}

/// stacker's blob sizes, read by the LSM core (`DEFINE_LSM` in `lsm.c`
/// points at this), which then replaces them with stacker's offsets.
///
/// # Invariants
///
/// Holds sizes until `security_init()` and offsets afterwards; written only
/// by the early parameter handler and the LSM core before any hook runs.
#[no_mangle]
#[link_section = ".data..ro_after_init"]
pub(crate) static mut stacker_blob_sizes: bindings::lsm_blob_sizes = blob_sizes(&DEFAULT_BOOT);

/// The LSM core's blob sizes for the boot state `boot`.
pub(crate) const fn blob_sizes(boot: &BootState) -> bindings::lsm_blob_sizes {
    let l: &Layout = &boot.layout;
    /// Each kind's total in its `lsm_blob_sizes` member.
    macro_rules! blob_sizes_of {
        ($l:ident, $boot:ident; $($name:ident $kind:ident $state:ident $lbs:ident $doc:literal;)*) => {
            bindings::lsm_blob_sizes {
                $($lbs: $l.total(ObjectKind::$kind) as u32,)*
                lbs_xattr_count: xattr_count($boot),
                ..pin_init::zeroed()
            }
        };
    }
    // Totals fit `u32`: `Layout::compute` refuses larger ones.
    crate::layout::object_kinds!(blob_sizes_of: l, boot;)
}

/// LSM xattr slots the chain of `boot` may fill.
const fn xattr_count(boot: &BootState) -> u32 {
    let order = boot.chain.order();
    let mut n = 0;
    let mut i = 0;
    while i < order.len() {
        n += XATTR_COUNTS[order[i] as usize];
        i += 1;
    }
    n
}

/// The boot state.
#[inline(always)]
pub(crate) fn boot() -> &'static BootState {
    // SAFETY: by the invariant of `BOOT`, it is not written once hooks can
    // run, so a shared reference is sound for the rest of the kernel's life.
    unsafe { &*addr_of!(BOOT) }
}

/// stacker's offsets in each blob, as set by the LSM core.
#[inline(always)]
pub(crate) fn blob_offsets() -> &'static bindings::lsm_blob_sizes {
    // SAFETY: by the invariant of `stacker_blob_sizes`, it holds offsets and
    // no longer changes once any object with a blob can reach a hook.
    unsafe { &*addr_of!(stacker_blob_sizes) }
}

/// stacker's offset in each kind of blob, as set by the LSM core.
pub(crate) fn core_offset(kind: ObjectKind) -> usize {
    offset_of_kind(blob_offsets(), kind)
}

/// The `kind` member of an LSM's blob offsets.
pub(crate) fn offset_of_kind(o: &bindings::lsm_blob_sizes, kind: ObjectKind) -> usize {
    /// The `lsm_blob_sizes` member of `$kind`.
    macro_rules! member_of {
        ($o:ident, $k:ident; $($name:ident $kind:ident $state:ident $lbs:ident $doc:literal;)*) => {
            match $k {
                $(ObjectKind::$kind => $o.$lbs,)*
            }
        };
    }
    crate::layout::object_kinds!(member_of: o, kind;) as usize
}

/// No slot: the submodule is not enabled or keeps no state of that kind.
const NO_SLOT: u32 = u32::MAX;

/// Each submodule's offset in each kind of blob: stacker's offset plus the
/// slot's offset in stacker's slice.
///
/// # Invariants
///
/// Each row is filled once by [`set_slots`], from stacker's LSM init or
/// that of the submodule's own LSM (`own_lsm.rs`), before any hook that
/// reads it is registered; read-only afterwards. Entry `[m][k]` is `NO_SLOT` exactly
/// when the layout gives submodule `m` no space in kind `k`.
#[link_section = ".data..ro_after_init"]
static mut SLOTS: [[u32; KINDS]; MAX_MODULES] = [[NO_SLOT; KINDS]; MAX_MODULES];

/// Fills the [`SLOTS`] rows of the chain's submodules from the boot layout
/// and the LSM core's offsets, so that hooks only read them.
pub(crate) fn init_tables() {
    let b = boot();
    for &m in b.chain.order() {
        set_slots(m, b, blob_offsets());
    }
}

/// Fills submodule `m`'s row of [`SLOTS`]: its slot in `state`'s layout,
/// in the slices at `offsets` (stacker's, or its own LSM's).
///
/// Only from an LSM init, before any hook that reads the row is registered
/// (the invariant of [`SLOTS`]).
pub(crate) fn set_slots(m: u8, state: &BootState, offsets: &bindings::lsm_blob_sizes) {
    let mut row = [NO_SLOT; KINDS];
    for kind in ObjectKind::ALL {
        if state.layout.size(m as usize, kind) != 0 {
            let off = offset_of_kind(offsets, kind) + state.layout.offset(m as usize, kind);
            row[kind as usize] = u32::try_from(off).unwrap_or(NO_SLOT);
        }
    }
    // SAFETY: LSM init runs on the boot CPU before any hook can read
    // `SLOTS` (its invariant).
    if let Some(entry) = unsafe { (*core::ptr::addr_of_mut!(SLOTS)).get_mut(m as usize) } {
        *entry = row;
    }
}

/// Submodule `index`'s offset in a `kind` blob, or `None` without a slot.
#[inline(always)]
pub(crate) fn slot_offset(index: usize, kind: ObjectKind) -> Option<usize> {
    // SAFETY: `SLOTS` is not written once hooks can run (its invariant).
    let slots = unsafe { &*addr_of!(SLOTS) };
    match slots.get(index).map(|row| row[kind as usize]) {
        Some(NO_SLOT) | None => None,
        Some(off) => Some(off as usize),
    }
}

fn log_rejects(input: &[u8], spec: &ChainSpec, source: &str) {
    for r in spec.rejected() {
        let name = core::str::from_utf8(&input[r.start..r.end]).unwrap_or("?");
        let why = match r.why {
            Reject::Unknown => "unknown submodule",
            Reject::Repeated => "repeated",
        };
        pr_warn!("{source}: ignoring '{name}': {why}\n");
    }
    if spec.rejects_truncated {
        pr_warn!("{source}: more names ignored\n");
    }
}

/// The value of an early parameter; empty for a bare `name` without `=`.
///
/// # Safety
///
/// `value` must be null or a NUL-terminated string that lives for `'a`.
unsafe fn param_bytes<'a>(value: *const c_char) -> &'a [u8] {
    if value.is_null() {
        return b"";
    }
    // SAFETY: promised by the caller.
    unsafe { CStr::from_char_ptr(value) }.to_bytes()
}

/// `stacker.chain=` early parameter: lays out the chain it names.
///
/// Repeated names are logged and ignored; an empty value gives an empty
/// chain. A value that names any unknown submodule, or a chain that cannot
/// be laid out, is refused: logged as an error, and the chain in force
/// stays (the default, or the one an earlier `stacker.chain=` gave), so
/// that a typo never boots with no enforcement nor without the submodule it
/// misspells. A refusal is reported in `status` and, with
/// `stacker.on_failure=panic`, panics. The last occurrence decides.
///
/// # Safety
///
/// Called once per occurrence by `do_early_param()` with a NUL-terminated
/// string (or null for a bare `stacker.chain`), on the boot CPU, before
/// `security_init()`.
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_set_chain(value: *const c_char) -> c_int {
    // SAFETY: the caller passes a NUL-terminated string or null.
    let input = unsafe { param_bytes(value) };
    let spec = ChainSpec::parse(input, NAMES);
    log_rejects(input, &spec, "stacker.chain");
    // SAFETY: before `security_init()` on the boot CPU, so nothing else
    // reads or writes these (see their invariants).
    let keeping = if unsafe { *addr_of!(CHAIN_FROM_CMDLINE) } {
        "the chain an earlier stacker.chain= gave"
    } else {
        "the default chain"
    };
    let state = if spec.names_unknown() {
        // Fail safe: a mistyped chain must neither boot with no
        // enforcement nor run without the submodule it misspells.
        pr_err!("stacker.chain: names an unknown submodule; refused, keeping {keeping}\n");
        None
    } else {
        match BootState::new(spec, REQUESTS, HOOK_SETS) {
            Ok(state) => Some(state),
            Err(err) => {
                pr_err!("stacker.chain: cannot lay out this chain ({err:?}); refused, keeping {keeping}\n");
                None
            }
        }
    };
    // SAFETY: as above.
    unsafe {
        match state {
            Some(state) => {
                BOOT = state;
                stacker_blob_sizes = blob_sizes(&state);
                CHAIN_FROM_CMDLINE = true;
                CHAIN_REFUSED = false;
            }
            None => CHAIN_REFUSED = true,
        }
    }
    0
}

/// Whether the last `stacker.chain=` was refused (it named an unknown
/// submodule, or could not be laid out).
#[link_section = ".data..ro_after_init"]
static mut CHAIN_REFUSED: bool = false;

/// Whether a `stacker.chain=` was refused: with `stacker.on_failure=panic`
/// that is a failure to start as asked.
pub(crate) fn chain_refused() -> bool {
    // SAFETY: read after the early parameters, never written again.
    unsafe { *addr_of!(CHAIN_REFUSED) }
}

/// `stacker.on_failure=` early parameter: `panic` makes any failure to
/// start as configured fatal (stacker's init, a submodule left out, a
/// refused `stacker.chain=`), for deployments that must fail closed;
/// `continue`, the default, runs the rest of the chain and reports what is
/// left out (boot log, `status`).
///
/// # Safety
///
/// As for [`stacker_rs_set_chain`].
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_set_on_failure(value: *const c_char) -> c_int {
    // SAFETY: the caller passes a NUL-terminated string or null.
    let input = unsafe { param_bytes(value) };
    let panic = match input {
        b"panic" => true,
        b"continue" => false,
        _ => {
            pr_err!("stacker.on_failure: expected 'continue' or 'panic'; using 'panic'\n");
            true
        }
    };
    // SAFETY: as in `stacker_rs_set_chain`.
    unsafe { *core::ptr::addr_of_mut!(PANIC_ON_FAILURE) = panic };
    0
}

/// Whether `stacker.on_failure=panic` was given.
pub(crate) fn panic_on_failure() -> bool {
    // SAFETY: read after the early parameters, never written again.
    unsafe { *addr_of!(PANIC_ON_FAILURE) }
}

/// Leaves submodule `m` out of the chain: its hooks are not registered and
/// never called; its slots stay where they are, unused.
///
/// Only from stacker's LSM init, before it registers any hook (the
/// invariant of [`BOOT`]).
pub(crate) fn leave_out(m: u8) {
    let state = boot().without(m, HOOK_SETS);
    // SAFETY: stacker's LSM init runs on the boot CPU before any hook or
    // securityfs file can read `BOOT` (its invariant).
    unsafe { *core::ptr::addr_of_mut!(BOOT) = state };
}

/// `stacker.dispatch=` early parameter: `loop` registers the loop tier
/// whatever the chain (for measuring the tiers against each other);
/// `auto`, the default, lets the chain choose (`dispatch.rs`).
///
/// # Safety
///
/// As for [`stacker_rs_set_chain`].
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_set_dispatch(value: *const c_char) -> c_int {
    // SAFETY: the caller passes a NUL-terminated string or null.
    let input = unsafe { param_bytes(value) };
    let forced = match input {
        b"loop" => true,
        b"auto" => false,
        _ => {
            pr_warn!("stacker.dispatch: expected 'auto' or 'loop'; keeping 'auto'\n");
            return 0;
        }
    };
    // SAFETY: as in `stacker_rs_set_chain`.
    unsafe { *core::ptr::addr_of_mut!(LOOP_FORCED) = forced };
    0
}

/// Logs the names of the default chain that were ignored (the early
/// parameter handler logs those of `stacker.chain=` itself).
pub(crate) fn log_default_rejects() {
    // SAFETY: read after the early parameters, never written again.
    if !unsafe { *addr_of!(CHAIN_FROM_CMDLINE) } {
        log_rejects(DEFAULT_CHAIN.as_bytes(), &DEFAULT_SPEC, "default chain");
    }
}

/// What `stacker.fail_init=` names: nothing, the core's layout check, or a
/// submodule by registry index. (Without
/// `CONFIG_SECURITY_STACKER_TEST_FAIL_INIT` it is always `Nothing`.)
#[derive(Clone, Copy)]
#[cfg_attr(not(CONFIG_SECURITY_STACKER_TEST_FAIL_INIT), allow(dead_code))]
enum FailInit {
    Nothing,
    Core,
    Submodule(u8),
}

/// The part of init that `stacker.fail_init=` makes fail.
///
/// # Invariants
///
/// Written only by the early parameter handler, before `security_init()`.
#[link_section = ".data..ro_after_init"]
static mut FAIL_INIT: FailInit = FailInit::Nothing;

/// `stacker.fail_init=` early parameter (with
/// `CONFIG_SECURITY_STACKER_TEST_FAIL_INIT` only): `core` makes the layout
/// check fail, a submodule name makes that submodule's init fail with
/// `ENODEV`. For testing what a failed init leaves behind.
///
/// # Safety
///
/// As for [`stacker_rs_set_chain`].
#[cfg(CONFIG_SECURITY_STACKER_TEST_FAIL_INIT)]
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_set_fail_init(value: *const c_char) -> c_int {
    // SAFETY: the caller passes a NUL-terminated string or null.
    let input = unsafe { param_bytes(value) };
    let what = if input == b"core" {
        FailInit::Core
    } else if let Some(m) = NAMES.iter().position(|&n| n == input) {
        FailInit::Submodule(m as u8)
    } else {
        pr_warn!("stacker.fail_init: expected 'core' or a submodule name; ignored\n");
        return 0;
    };
    pr_warn!("stacker.fail_init: init will fail on purpose (testing)\n");
    // SAFETY: before `security_init()` on the boot CPU (its invariant).
    unsafe { *core::ptr::addr_of_mut!(FAIL_INIT) = what };
    0
}

/// Whether `stacker.fail_init=core` was given.
pub(crate) fn fail_init_core() -> bool {
    // SAFETY: read after the early parameters, never written again.
    matches!(unsafe { *addr_of!(FAIL_INIT) }, FailInit::Core)
}

/// The submodule that `stacker.fail_init=` names, if any.
pub(crate) fn fail_init_submodule() -> Option<u8> {
    // SAFETY: read after the early parameters, never written again.
    match unsafe { *addr_of!(FAIL_INIT) } {
        FailInit::Submodule(m) => Some(m),
        _ => None,
    }
}

/// Logs how many hooks stacker registered, and with which dispatch tier;
/// called by `stacker_init()` (`lsm.c`) once it registered them, with the
/// number of entries it gave the LSM core (with the positions tier, one
/// per submodule of a hook).
#[no_mangle]
pub(crate) extern "C" fn stacker_rs_log_registered(entries: c_int) {
    let t = tier();
    let count = crate::hook::Hook::ALL
        .iter()
        .filter(|&&hook| boot().wants(hook))
        .count();
    match t {
        DispatchTier::Single(m) => pr_info!(
            "registered {count} hooks, dispatch: {} {}\n",
            t.name(),
            crate::interface::name(m)
        ),
        DispatchTier::Positions => {
            pr_info!("registered {count} hooks, dispatch: {}\n", t.name());
            pr_info!(
                "{entries} entries in {} static call positions\n",
                boot().chain.order().len()
            );
        }
        _ => pr_info!("registered {count} hooks, dispatch: {}\n", t.name()),
    }
}
