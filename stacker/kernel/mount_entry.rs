// SPDX-License-Identifier: GPL-2.0

//! The entry points of the mount option hooks (`core/mount_options.rs`).
//!
//! stacker's options of a mount live in the LSM core's `mnt_opts` pointer
//! (`fs_context::security`) as a `KBox<MountOptions>`, allocated when a
//! submodule first claims one of the mount's options. All of them leave
//! the pointer alone unless it is stacker's to use: no other active LSM
//! keeps its options there (`mount_options.c`); then the pointer is null or
//! stacker's. With submodules as LSMs of their own, each instance of these
//! entry points adds to the same options, and only the instance that made
//! them (their keeper: `mount_options_keeper`) copies and frees them.
//!
//! Each is called only by the LSM core, with the arguments that
//! `include/linux/lsm_hook_defs.h` documents for its hook, in process
//! context.

use crate::context::MaySleep;
use crate::dispatch::Tier;
use crate::hook::Hook;
use crate::mount_options::{eat, MountOption, MountOptions, QUOTED_VALUE_MAX};
use crate::objects::{c_bytes, Superblock};
use crate::platform;
use kernel::{
    bindings as c,
    ffi::{c_char, c_int, c_ulong, c_void},
    prelude::*,
};

mod mount_options_c {
    use kernel::{
        bindings as c,
        ffi::{c_char, c_int, c_void},
    };

    extern "C" {
        pub(super) fn stacker_mount_options_ours() -> bool;
        pub(super) fn stacker_fs_context_security(fc: *mut c::fs_context) -> *mut *mut c_void;
        pub(super) fn stacker_fs_param_key(param: *const c::fs_parameter) -> *const c_char;
        pub(super) fn stacker_fs_param_value(
            param: *const c::fs_parameter,
            value: *mut *const c_char,
            len: *mut usize,
        ) -> c_int;
    }
}

/// `-ENOPARAM`: "not mine", for `fs_context_parse_param`.
const NOT_MINE: c_int = -(c::ENOPARAM as c_int);

/// Whether the core's `mnt_opts` pointer is stacker's to use.
fn ours() -> bool {
    // SAFETY: no preconditions; it reads the LSM core's list of LSMs,
    // which is complete once any hook can run.
    unsafe { mount_options_c::stacker_mount_options_ours() }
}

/// The options stacker holds in `*slot`, if any.
///
/// # Safety
///
/// `slot` is valid, and (as [`ours`] holds) `*slot` is null or a
/// `KBox<MountOptions>` that [`take`] made, used by no one else for `'a`.
unsafe fn held<'a>(slot: *mut *mut c_void) -> Option<&'a mut MountOptions> {
    // SAFETY: `slot` is valid, as the caller promises.
    let options = unsafe { *slot }.cast::<MountOptions>();
    // SAFETY: null or stacker's own allocation, as the caller promises.
    unsafe { options.as_mut() }
}

/// Gives `option` to the first submodule of chain `T` that claims it and
/// keeps it in `*slot`, allocated at the first claim: whether it was
/// claimed.
///
/// # Safety
///
/// As for [`held`].
unsafe fn take<T: Tier>(
    cx: &MaySleep,
    slot: *mut *mut c_void,
    option: MountOption<'_>,
) -> Result<bool> {
    let Some(m) = crate::dispatch::mount_option_owner::<T>(cx, option)? else {
        return Ok(false);
    };
    // SAFETY: as the caller promises.
    if let Some(options) = unsafe { held(slot) } {
        options.push(m, option)?;
        return Ok(true);
    }
    let mut options = platform::zeroed_box::<MountOptions>(cx)?;
    options.set_keeper(crate::dispatch::mount_options_keeper::<T>().unwrap_or(m));
    options.push(m, option)?;
    // SAFETY: `slot` is valid, and null (above): the new options are the
    // mount's, until `sb_free_mnt_opts`.
    unsafe { *slot = KBox::into_raw(options).cast::<c_void>() };
    Ok(true)
}

/// Whether chain `T` is the keeper of `options`: the instance that made
/// them, and copies and frees them.
fn keeps<T: Tier>(options: &MountOptions) -> bool {
    crate::dispatch::mount_options_keeper::<T>().is_some_and(|first| options.kept_by(first))
}

/// Frees the options in `*slot`, if chain `T` keeps them, and clears it.
///
/// # Safety
///
/// As for [`held`], and the options are not used after this.
unsafe fn release<T: Tier>(slot: *mut *mut c_void) {
    // SAFETY: as the caller promises.
    let mine = unsafe { held(slot) }.is_some_and(|options| keeps::<T>(options));
    // SAFETY: `slot` is valid, as the caller promises.
    let options = unsafe { *slot }.cast::<MountOptions>();
    if mine {
        // SAFETY: stacker's own `KBox`, as the caller promises, and its
        // last use.
        drop(unsafe { KBox::from_raw(options) });
        // SAFETY: as above.
        unsafe { *slot = core::ptr::null_mut() };
    }
}

/// `sb_eat_lsm_opts` entry point for chain `T`: takes the submodules'
/// options out of `mount(2)`'s data string `orig`, into `*mnt_opts`. An
/// invalid option of a submodule's fails the mount, and what stacker held
/// is freed, as SELinux does.
///
/// # Safety
///
/// Called by the LSM core only: `orig` is null or the mount's
/// NUL-terminated data, which the hook may rewrite; `mnt_opts` is valid.
pub(super) unsafe extern "C" fn sb_eat_lsm_opts<T: Tier>(
    orig: *mut c_char,
    mnt_opts: *mut *mut c_void,
) -> c_int {
    if orig.is_null() || !ours() {
        return 0;
    }
    // SAFETY: the core's NUL-terminated data, for the call.
    let len = unsafe { c_bytes(orig) }.len();
    // SAFETY: `len` bytes and the NUL, writable: the mount's copy of the
    // data, which the LSMs rewrite in place.
    let data = unsafe { core::slice::from_raw_parts_mut(orig.cast::<u8>(), len.saturating_add(1)) };
    // SAFETY: `mount(2)` parses its data in process context, holding no
    // spinlock.
    let cx = unsafe { MaySleep::new() };
    let mut scratch = match platform::zeroed_box::<[u8; QUOTED_VALUE_MAX]>(&cx) {
        Ok(scratch) => scratch,
        Err(err) => return err.to_errno(),
    };
    let Some(text) = data.get_mut(..len) else {
        return 0;
    };
    // SAFETY: `mnt_opts` is valid, and null or stacker's (`ours`).
    match eat(text, &mut scratch, |option| unsafe {
        take::<T>(&cx, mnt_opts, option)
    }) {
        Ok(end) => {
            if let Some(nul) = data.get_mut(end) {
                *nul = 0;
            }
            0
        }
        Err(err) => {
            // SAFETY: as above; the mount fails, and nothing uses its
            // options after this but `sb_free_mnt_opts`, which finds none.
            unsafe { release::<T>(mnt_opts) };
            err.to_errno()
        }
    }
}

/// `fs_context_parse_param` entry point for chain `T` (`fsconfig(2)`): a
/// string or flag parameter that a submodule claims is kept in
/// `fc->security` (0); anything else is not stacker's (`-ENOPARAM`).
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments.
pub(super) unsafe extern "C" fn fs_context_parse_param<T: Tier>(
    fc: *mut c::fs_context,
    param: *mut c::fs_parameter,
) -> c_int {
    if !ours() {
        return NOT_MINE;
    }
    // SAFETY: a valid parameter, for the call.
    let key = unsafe { mount_options_c::stacker_fs_param_key(param) };
    let mut value: *const c_char = core::ptr::null();
    let mut len = 0usize;
    if key.is_null() {
        return NOT_MINE;
    }
    // SAFETY: as above; `value` and `len` are valid for writes.
    let rc = unsafe { mount_options_c::stacker_fs_param_value(param, &mut value, &mut len) };
    if rc != 0 {
        return NOT_MINE;
    }
    // SAFETY: the parameter's NUL-terminated key, for the call.
    let name = unsafe { c_bytes(key) };
    let value = if value.is_null() {
        None
    } else {
        // SAFETY: a string parameter's `len` bytes, for the call.
        Some(unsafe { core::slice::from_raw_parts(value.cast::<u8>(), len) })
    };
    crate::dispatch::mount_options_held::<T>(Hook::fs_context_parse_param);
    // SAFETY: `fsconfig(2)` runs in process context, holding no spinlock.
    let cx = unsafe { MaySleep::new() };
    // SAFETY: a valid context.
    let slot = unsafe { mount_options_c::stacker_fs_context_security(fc) };
    // SAFETY: `slot` is valid, and null or stacker's (`ours`).
    match unsafe { take::<T>(&cx, slot, MountOption { name, value }) } {
        Ok(true) => 0,
        Ok(false) => NOT_MINE,
        Err(err) => err.to_errno(),
    }
}

/// `fs_context_dup` entry point for chain `T`: the copy of a mount's
/// context gets a copy of stacker's options (`fc` starts as a byte copy of
/// `src_fc`, so its pointer is `src_fc`'s until replaced).
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments.
pub(super) unsafe extern "C" fn fs_context_dup<T: Tier>(
    fc: *mut c::fs_context,
    src_fc: *mut c::fs_context,
) -> c_int {
    if !ours() {
        return 0;
    }
    // SAFETY: a valid context; its pointer is null or stacker's (`ours`).
    let Some(src) = (unsafe { held(mount_options_c::stacker_fs_context_security(src_fc)) }) else {
        return 0;
    };
    if !keeps::<T>(src) {
        return 0;
    }
    crate::dispatch::mount_options_held::<T>(Hook::fs_context_dup);
    // SAFETY: `vfs_dup_fs_context()` allocates with GFP_KERNEL: it may
    // sleep.
    let cx = unsafe { MaySleep::new() };
    match platform::zeroed_box::<MountOptions>(&cx) {
        Ok(mut copy) => {
            copy.copy_from(src);
            // SAFETY: a valid context, whose options are now its own copy.
            unsafe {
                *mount_options_c::stacker_fs_context_security(fc) =
                    KBox::into_raw(copy).cast::<c_void>()
            };
            0
        }
        Err(err) => err.to_errno(),
    }
}

/// `sb_free_mnt_opts` entry point for chain `T`: frees stacker's options
/// of a mount.
///
/// # Safety
///
/// Called by the LSM core only (`security_free_mnt_opts()`, which then
/// clears the pointer): `mnt_opts` is not null.
pub(super) unsafe extern "C" fn sb_free_mnt_opts<T: Tier>(mnt_opts: *mut c_void) {
    if mnt_opts.is_null() || !ours() {
        return;
    }
    // SAFETY: stacker's own options (`ours`), not freed yet: only their
    // keeper frees them.
    let options = unsafe { &*mnt_opts.cast::<MountOptions>() };
    if !keeps::<T>(options) {
        return;
    }
    crate::dispatch::mount_options_held::<T>(Hook::sb_free_mnt_opts);
    // SAFETY: stacker's own `KBox`, and its last use (the LSM core clears
    // the pointer after asking every LSM).
    drop(unsafe { KBox::from_raw(mnt_opts.cast::<MountOptions>()) });
}

/// Hands `f` the superblock and stacker's options of its mount (none unless
/// the core's pointer is stacker's, `ours`), and returns its answer as an
/// errno.
///
/// # Safety
///
/// `sb` is a valid superblock and `mnt_opts` null or the mount's options,
/// not written meanwhile; the caller is in process context, holding no
/// spinlock.
unsafe fn with_mount_options(
    sb: *mut c::super_block,
    mnt_opts: *mut c_void,
    f: impl FnOnce(&MaySleep, &Superblock, Option<&MountOptions>) -> Result,
) -> c_int {
    if !ours() {
        return 0;
    }
    // SAFETY: a valid superblock, for the call, as the caller promises.
    let sb = unsafe { Superblock::from_raw(sb) };
    // SAFETY: null or stacker's options (`ours`), as the caller promises.
    let all = unsafe { mnt_opts.cast::<MountOptions>().as_ref() };
    // SAFETY: process context, no spinlock held, as the caller promises.
    let cx = unsafe { MaySleep::new() };
    kernel::error::from_result(|| f(&cx, sb, all).map(|()| 0))
}

/// `sb_set_mnt_opts` entry point for chain `T`: each submodule sets `sb`
/// up with the options it claimed; the first error fails the mount.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments: `mnt_opts` is null
/// or the mount's options.
pub(super) unsafe extern "C" fn sb_set_mnt_opts<T: Tier>(
    sb: *mut c::super_block,
    mnt_opts: *mut c_void,
    _kern_flags: c_ulong,
    _set_kern_flags: *mut c_ulong,
) -> c_int {
    // SAFETY: valid arguments from the core; a superblock is set up in
    // process context (`vfs_get_tree()`, under `s_umount`, a semaphore).
    unsafe { with_mount_options(sb, mnt_opts, crate::dispatch::sb_set_mnt_opts::<T>) }
}

/// `sb_mnt_opts_compat` entry point for chain `T`: 0 when each submodule
/// finds its options compatible with `sb`, else the first one's error.
///
/// # Safety
///
/// As for [`sb_set_mnt_opts`].
pub(super) unsafe extern "C" fn sb_mnt_opts_compat<T: Tier>(
    sb: *mut c::super_block,
    mnt_opts: *mut c_void,
) -> c_int {
    // SAFETY: valid arguments from the core; NFS compares a mount's
    // options in process context.
    unsafe { with_mount_options(sb, mnt_opts, crate::dispatch::sb_mnt_opts_compat::<T>) }
}
