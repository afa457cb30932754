// SPDX-License-Identifier: GPL-2.0

//! The LSM hook entry points: `extern "C"` functions that the LSM core calls
//! through its static calls, made from the hook table (`hook_table.rs`).
//!
//! Each entry point is generic over the dispatch tier `T` (`dispatch.rs`):
//! it wraps its C arguments in the typed views of `objects/`, calls the
//! hook's dispatch function through `T`, and turns the answer into what the
//! LSM core expects. [`options`] stores `entry_point::<T>` in bindgen's
//! `security_list_options` union, under the hook's own member: an entry
//! point whose C signature differs from the kernel's does not build.
//!
//! The C glue walks `lsm_hook_defs.h` and asks [`stacker_rs_hook`] for each
//! of the core's hooks; only the hooks that some enabled submodule
//! implements get an entry point.
//!
//! # Safety
//!
//! Every entry point is called only by the LSM core, with the arguments that
//! `include/linux/lsm_hook_defs.h` documents for its hook: pointers are
//! valid (or null where the hook allows it) for the whole call.

use crate::chain::DispatchTier;
use crate::context::MaySleep;
use crate::dispatch::{Loop, Tier, WithTier};
use crate::hook::Hook;
#[allow(unused_imports)]
use crate::objects::*;
use kernel::{
    bindings as c,
    ffi::{c_char, c_int, c_long, c_short, c_uint, c_ulong, c_void},
    prelude::*,
};

#[path = "mount_entry.rs"]
mod mount_entry;
use mount_entry::{
    fs_context_dup, fs_context_parse_param, sb_eat_lsm_opts, sb_free_mnt_opts, sb_mnt_opts_compat,
    sb_set_mnt_opts,
};

/// A dispatch function's answer as the LSM core's return value.
trait IntoC {
    /// The C return type.
    type C;
    /// The conversion.
    fn into_c(self) -> Self::C;
}

impl IntoC for Result {
    type C = c_int;
    #[inline(always)]
    fn into_c(self) -> c_int {
        kernel::error::from_result(|| self.map(|()| 0))
    }
}

impl IntoC for () {
    type C = ();
    #[inline(always)]
    fn into_c(self) {}
}

/// `task_prctl`: `prctl`'s result, or an error.
impl IntoC for Result<i32> {
    type C = c_int;
    #[inline(always)]
    fn into_c(self) -> c_int {
        kernel::error::from_result(|| self)
    }
}

/// `vm_enough_memory`: the LSM core stops at the first negative answer and
/// then denies the `CAP_SYS_ADMIN` reserve.
impl IntoC for bool {
    type C = c_int;
    #[inline(always)]
    fn into_c(self) -> c_int {
        if self {
            0
        } else {
            EPERM.to_errno()
        }
    }
}

/// `inode_xattr_skipcap`: 1 skips the capability check, 0 keeps it.
impl IntoC for CapCheck {
    type C = c_int;
    #[inline(always)]
    fn into_c(self) -> c_int {
        match self {
            CapCheck::Keep => 0,
            CapCheck::Skip => 1,
        }
    }
}

/// `inode_copy_up_xattr`: 0 copies, `-ECANCELED` discards, `-EOPNOTSUPP`
/// is "not mine", another error fails the copy-up.
impl IntoC for XattrCopyUp {
    type C = c_int;
    #[inline(always)]
    fn into_c(self) -> c_int {
        match self {
            XattrCopyUp::NotMine => EOPNOTSUPP.to_errno(),
            XattrCopyUp::Copy => 0,
            XattrCopyUp::Discard => ECANCELED.to_errno(),
            XattrCopyUp::Abort(err) => err.to_errno(),
        }
    }
}

/// Declares the entry point of every hook whose rule is generic, and
/// [`options`].
macro_rules! entry_points {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($carg:ident: $cty:ty),* $(,)?) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        $(
            entry_points!(@one $rule $name ($($carg: $cty),*) $(-> $cret)? => ($($rarg: $rty $(= $conv)?),*));
        )*

        /// The entry point of `hook` for chain `T`, as the LSM core stores
        /// it. Each arm names the hook's own member of the union, so the
        /// entry point must have exactly the kernel's type.
        fn options<T: Tier>(hook: Hook) -> c::security_list_options {
            match hook {
                $(Hook::$name => c::security_list_options { $name: Some($name::<T>) },)*
            }
        }
    };
    (@one first_error $($rest:tt)*) => { entry_points!(@generic $($rest)*); };
    (@one every $($rest:tt)*) => { entry_points!(@generic $($rest)*); };
    (@one all_agree $($rest:tt)*) => { entry_points!(@generic $($rest)*); };
    (@one first_nondefault $($rest:tt)*) => { entry_points!(@generic $($rest)*); };
    (@one prctl $($rest:tt)*) => { entry_points!(@generic $($rest)*); };
    // The special rules' entry points are written out below.
    (@one $special:ident $($rest:tt)*) => {};
    (@generic $name:ident ($($carg:ident: $cty:ty),*) $(-> $cret:ty)?
        => ($($rarg:ident: $rty:ty = $conv:expr),*)) => {
        #[doc = concat!("`", stringify!($name), "` entry point for chain `T`.")]
        ///
        /// # Safety
        ///
        /// Called by the LSM core only, with valid arguments (module docs).
        #[allow(unused_variables, unused_unsafe, clippy::unnecessary_cast, clippy::useless_conversion)]
        unsafe extern "C" fn $name<T: Tier>($($carg: $cty),*) $(-> $cret)? {
            let ($($rarg,)*): ($($rty,)*) = ($(
                // SAFETY: the LSM core passes this hook's documented
                // arguments, valid for the whole call, which is what each
                // view's constructor asks for; the views do not outlive the
                // call.
                unsafe { $conv },
            )*);
            IntoC::into_c(crate::dispatch::$name::<T>($($rarg),*))
        }
    };
}

crate::hook_table::hook_table!(entry_points);

/// `inode_init_security` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn inode_init_security<T: Tier>(
    inode: *mut c::inode,
    dir: *mut c::inode,
    qstr: *const c::qstr,
    xattrs: *mut c::xattr,
    xattr_count: *mut c_int,
) -> c_int {
    let name: &[u8] = if qstr.is_null() {
        &[]
    } else {
        // SAFETY: a non-null `qstr` is the new dentry's name, valid for the
        // call.
        let len = unsafe { (*qstr).__bindgen_anon_1.__bindgen_anon_1.len };
        // SAFETY: as above.
        let bytes = unsafe { (*qstr).name };
        // SAFETY: the name has `len` bytes, valid for the call.
        unsafe { c_slice(bytes, len as usize) }
    };
    // The LSM xattr slots reserved for this chain: the sum of the counts of
    // its submodules that fill any (stacker's `lbs_xattr_count`, or that of
    // a submodule's own LSM, which runs the same entry point).
    let mut limit = 0u32;
    T::each(Hook::inode_init_security, |m| {
        let count = crate::registry::XATTR_COUNTS.get(m as usize).copied();
        limit = limit.saturating_add(count.unwrap_or(0));
        core::ops::ControlFlow::Continue(())
    });
    // SAFETY: the core's slot array and count, with stacker's reserved
    // slots (its `lbs_xattr_count`).
    let mut slots = unsafe { XattrSlots::from_raw(xattrs, xattr_count, limit) };
    // SAFETY: a valid inode from the LSM core, for the call.
    let inode = unsafe { Inode::from_raw(inode) };
    // SAFETY: as above.
    let dir = unsafe { Inode::from_raw(dir) };
    // SAFETY: the LSM core calls this from a file system's inode creation
    // (`security_inode_init_security()` from `ext4_init_security()`,
    // `shmem_mknod()`, ...), in process context with no spinlock or RCU read
    // lock held: the file systems' own callbacks allocate with `GFP_NOFS`.
    let cx = unsafe { MaySleep::new() };
    crate::dispatch::inode_init_security::<T>(&cx, inode, dir, name, &mut slots).into_c()
}

/// `getprocattr` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn getprocattr<T: Tier>(
    p: *mut c::task_struct,
    name: *const c_char,
    value: *mut *mut c_char,
) -> c_int {
    let mut out = AttrValue::default();
    // SAFETY: a valid task from the LSM core, for the call.
    let task = unsafe { Task::from_raw(p) };
    // SAFETY: a NUL-terminated name from the LSM core, for the call.
    let name = unsafe { c_str(name) };
    kernel::error::from_result(|| {
        // SAFETY: `/proc/PID/attr` reads and `lsm_get_self_attr(2)` run
        // in process context, holding no lock.
        let cx = unsafe { MaySleep::new() };
        crate::dispatch::getprocattr::<T>(&cx, task, name, &mut out)?;
        // SAFETY: `value` is the core's out pointer, valid for writes.
        Ok(unsafe { hand_over(out, value.cast()) })
    })
}

/// `setprocattr` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn setprocattr<T: Tier>(
    name: *const c_char,
    value: *mut c_void,
    size: usize,
) -> c_int {
    // SAFETY: the core's name and value, valid for the call.
    let write = unsafe { ProcAttrWrite::from_raw(name, value, size) };
    kernel::error::from_result(|| {
        // SAFETY: `/proc/self/attr` writes (under `cred_guard_mutex`, a
        // mutex) and `lsm_set_self_attr(2)` run in process context, where
        // sleeping is allowed.
        let cx = unsafe { MaySleep::new() };
        crate::dispatch::setprocattr::<T>(&cx, write)
            .map(|used| c_int::try_from(used).unwrap_or(c_int::MAX))
    })
}

/// Hands `value` to the LSM core as a `kmalloc`ed buffer in `*out`, which
/// the caller `kfree`s (null when nothing was allocated), and returns its
/// length.
///
/// # Safety
///
/// `out` must be valid for a write.
unsafe fn hand_over(value: AttrValue, out: *mut *mut c_void) -> c_int {
    let (ptr, len, cap) = value.0.into_raw_parts();
    let ptr = if cap == 0 {
        core::ptr::null_mut()
    } else {
        ptr.cast()
    };
    // SAFETY: `out` is valid for a write, as the caller promises.
    unsafe { *out = ptr };
    c_int::try_from(len).unwrap_or(c_int::MAX)
}

/// `inode_getsecurity` entry point for chain `T`: with `alloc`, the value
/// is handed over in `*buffer`; its length is returned either way.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn inode_getsecurity<T: Tier>(
    _idmap: *mut c::mnt_idmap,
    inode: *mut c::inode,
    name: *const c_char,
    buffer: *mut *mut c_void,
    alloc: bool,
) -> c_int {
    // SAFETY: a valid inode from the LSM core, for the call.
    let inode = unsafe { Inode::from_raw(inode) };
    // SAFETY: a NUL-terminated name from the LSM core, for the call.
    let name = unsafe { c_bytes(name) };
    let mut value = AttrValue::default();
    kernel::error::from_result(|| {
        // SAFETY: `getxattr(2)` (`xattr_getsecurity`) runs in process
        // context, holding no spinlock.
        let cx = unsafe { MaySleep::new() };
        crate::dispatch::inode_getsecurity::<T>(&cx, inode, name, &mut value)?;
        if !alloc {
            return Ok(c_int::try_from(value.0.len()).unwrap_or(c_int::MAX));
        }
        // SAFETY: with `alloc`, `buffer` is the core's out pointer.
        Ok(unsafe { hand_over(value, buffer) })
    })
}

/// `socket_getpeersec_stream` entry point for chain `T`
/// (`getsockopt(SO_PEERSEC)`): the peer's label goes to `optval`, at most
/// `len` bytes of it, and its length to `optlen`, as
/// `selinux_socket_getpeersec_stream()` does: `ERANGE` when it does not
/// fit (with the length it needs in `optlen`), `EFAULT` when a copy fails.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs):
/// `optval` and `optlen` are the caller's buffers, user or kernel.
unsafe extern "C" fn socket_getpeersec_stream<T: Tier>(
    sock: *mut c::socket,
    optval: c::sockptr_t,
    optlen: c::sockptr_t,
    len: c_uint,
) -> c_int {
    extern "C" {
        fn stacker_copy_to_sockptr(dst: c::sockptr_t, src: *const c_void, size: usize) -> c_int;
    }
    // SAFETY: a valid socket from the LSM core, for the call.
    let sock = unsafe { Socket::from_raw(sock) };
    let mut value = AttrValue::default();
    kernel::error::from_result(|| {
        // SAFETY: `getsockopt(2)` runs in process context, holding no
        // spinlock (it copies to user memory next).
        let cx = unsafe { MaySleep::new() };
        crate::dispatch::socket_getpeersec_stream::<T>(&cx, sock, &mut value)?;
        let value = value.0.as_slice();
        let size = u32::try_from(value.len()).map_err(|_| ERANGE)?;
        let fits = size <= len;
        let copied = if fits {
            // SAFETY: `optval` is the caller's buffer of `len` bytes, at
            // least `size`; `value` is `size` readable bytes.
            let rc = unsafe { stacker_copy_to_sockptr(optval, value.as_ptr().cast(), value.len()) };
            rc == 0
        } else {
            true
        };
        let size_ptr: *const u32 = &size;
        // The length goes out whatever happened to the value, as SELinux
        // does.
        // SAFETY: `optlen` is the caller's `int`, room for a `u32`.
        let told = unsafe { stacker_copy_to_sockptr(optlen, size_ptr.cast(), 4) } == 0;
        match (copied && told, fits) {
            (false, _) => Err(EFAULT),
            (true, true) => Ok(0),
            (true, false) => Err(ERANGE),
        }
    })
}

/// The C side of the one-LSM secid interfaces (`secids.c`).
mod secids_c {
    use kernel::{
        bindings as c,
        ffi::{c_int, c_void},
    };

    extern "C" {
        pub(super) fn stacker_bare_secids_ours() -> bool;
        pub(super) fn stacker_audit_rule_known(krule: *mut c::audit_krule) -> c_int;
        pub(super) fn stacker_audit_rule_new(value: u64, gfp: c::gfp_t) -> *mut c_void;
    }
}

/// Writes stacker's part of `prop`: the secid of each of the first `n`
/// slots, the chain's, or 0; the others stay as they are.
///
/// # Safety
///
/// `prop` must be valid for writes.
unsafe fn write_prop(prop: *mut c::lsm_prop, (slots, n): (crate::lsm_prop::PropSlots, usize)) {
    // SAFETY: valid for writes, as the caller promises; the field is this
    // LSM's own (linux/patches/0009), and its length is `LSM_PROP_SLOTS`
    // (`abi_check.rs`).
    let secids = unsafe { &mut (*prop).stacker.secid };
    for (to, from) in secids.iter_mut().zip(slots).take(n) {
        *to = from;
    }
}

/// `cred_getlsmprop` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn cred_getlsmprop<T: Tier>(c: *const c::cred, prop: *mut c::lsm_prop) {
    // SAFETY: a valid cred from the LSM core, for the call.
    let cred = unsafe { Cred::from_raw(c) };
    let slots = crate::dispatch::cred_getlsmprop::<T>(cred);
    // SAFETY: the core's `lsm_prop`, valid for writes.
    unsafe { write_prop(prop, slots) };
}

/// `current_getlsmprop_subj` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn current_getlsmprop_subj<T: Tier>(prop: *mut c::lsm_prop) {
    // SAFETY: the current task's subjective cred, which stays valid for the
    // call (only the task itself replaces it).
    let cred = unsafe { Cred::current() };
    let slots = crate::dispatch::current_getlsmprop_subj::<T>(cred);
    // SAFETY: the core's `lsm_prop`, valid for writes.
    unsafe { write_prop(prop, slots) };
}

/// `task_getlsmprop_obj` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn task_getlsmprop_obj<T: Tier>(p: *mut c::task_struct, prop: *mut c::lsm_prop) {
    // SAFETY: a valid task from the LSM core, for the call.
    let task = unsafe { Task::from_raw(p) };
    let slots = crate::dispatch::task_getlsmprop_obj::<T>(task);
    // SAFETY: the core's `lsm_prop`, valid for writes.
    unsafe { write_prop(prop, slots) };
}

/// `inode_getlsmprop` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn inode_getlsmprop<T: Tier>(inode: *mut c::inode, prop: *mut c::lsm_prop) {
    // SAFETY: a valid inode from the LSM core, for the call.
    let inode = unsafe { Inode::from_raw(inode) };
    let slots = crate::dispatch::inode_getlsmprop::<T>(inode);
    // SAFETY: the core's `lsm_prop`, valid for writes.
    unsafe { write_prop(prop, slots) };
}

/// `ipc_getlsmprop` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn ipc_getlsmprop<T: Tier>(ipcp: *mut c::kern_ipc_perm, prop: *mut c::lsm_prop) {
    // SAFETY: a valid IPC object from the LSM core, for the call.
    let ipc = unsafe { IpcPerm::from_raw(ipcp) };
    let slots = crate::dispatch::ipc_getlsmprop::<T>(ipc);
    // SAFETY: the core's `lsm_prop`, valid for writes.
    unsafe { write_prop(prop, slots) };
}

/// Hands a label's text, made by registered submodule `m`, to the LSM
/// core as SELinux does (`selinux_secid_to_secctx()`): NUL-terminated, a
/// `kmalloc`ed buffer in `cp` (whose `release_secctx` frees it) with the
/// LSM id of `m`'s labels, and the length with the NUL as the answer. With
/// `cp` null, only the length.
///
/// # Safety
///
/// `cp` must be null or valid for writes.
unsafe fn hand_over_secctx(mut text: SecCtx, m: u8, cp: *mut c::lsm_context) -> Result<c_int> {
    text.push_bytes(b"\0")?;
    let len = u32::try_from(text.0.len()).map_err(|_| ERANGE)?;
    let answer = c_int::try_from(len).map_err(|_| ERANGE)?;
    if cp.is_null() {
        return Ok(answer);
    }
    let id = c_int::try_from(crate::dispatch::label_lsm_id(m)).map_err(|_| EINVAL)?;
    // A `KVec`'s buffer is `kmalloc`ed: `release_secctx` `kfree`s it.
    let (ptr, _, _) = text.0.into_raw_parts();
    // SAFETY: `cp` is valid for writes, as the caller promises.
    unsafe {
        cp.write(c::lsm_context {
            context: ptr.cast(),
            len,
            id,
        })
    };
    Ok(answer)
}

/// `secid_to_secctx` entry point for chain `T`: the text of a bare secid,
/// the primary label-bearing submodule's.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs): `cp`
/// is null or valid for writes.
unsafe extern "C" fn secid_to_secctx<T: Tier>(secid: u32, cp: *mut c::lsm_context) -> c_int {
    if !bare_secids_ours::<T>() {
        return EOPNOTSUPP.to_errno();
    }
    kernel::error::from_result(|| {
        let secid = Secid::new(secid).ok_or(EINVAL)?;
        let mut text = SecCtx::default();
        let m = crate::dispatch::secid_to_secctx::<T>(secid, &mut text)?;
        // SAFETY: `cp` is null or valid for writes.
        unsafe { hand_over_secctx(text, m, cp) }
    })
}

/// `lsmprop_to_secctx` entry point for chain `T` and slot `SLOT`: the
/// text of the secid in that slot of `prop`. Registered once per slot,
/// under the LSM id of the slot's owner (`stacker_rs_label_hook`), for
/// `security_lsmprop_to_secctx()` routes by LSM id.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs): `cp`
/// is null or valid for writes.
unsafe extern "C" fn lsmprop_to_secctx_slot<T: Tier, const SLOT: usize>(
    prop: *mut c::lsm_prop,
    cp: *mut c::lsm_context,
) -> c_int {
    // SAFETY: the core's valid `lsm_prop`; the field is stacker's own.
    let slots = unsafe { (*prop).stacker.secid };
    kernel::error::from_result(|| {
        let mut text = SecCtx::default();
        let m = crate::dispatch::lsmprop_to_secctx::<T>(SLOT, &slots, &mut text)?;
        // SAFETY: `cp` is null or valid for writes.
        unsafe { hand_over_secctx(text, m, cp) }
    })
}

/// `lsmprop_to_secctx` entry point for chain `T`: slot 0, the primary
/// label's (the hook of a submodule registered as an LSM of its own).
///
/// # Safety
///
/// As [`lsmprop_to_secctx_slot`].
unsafe extern "C" fn lsmprop_to_secctx<T: Tier>(
    prop: *mut c::lsm_prop,
    cp: *mut c::lsm_context,
) -> c_int {
    // SAFETY: the caller's arguments, passed on.
    unsafe { lsmprop_to_secctx_slot::<T, 0>(prop, cp) }
}

/// The `lsmprop_to_secctx` entry point of chain `T` for `slot`.
fn slot_options<T: Tier>(slot: usize) -> Option<c::security_list_options> {
    // One arm per slot of `struct lsm_prop_stacker`.
    const _: () = assert!(crate::lsm_prop::LSM_PROP_SLOTS == 2);
    let entry: unsafe extern "C" fn(*mut c::lsm_prop, *mut c::lsm_context) -> c_int = match slot {
        0 => lsmprop_to_secctx_slot::<T, 0>,
        1 => lsmprop_to_secctx_slot::<T, 1>,
        _ => return None,
    };
    Some(c::security_list_options {
        lsmprop_to_secctx: Some(entry),
    })
}

/// `release_secctx` entry point for chain `T`: frees a text that the chain
/// made, as `selinux_release_secctx()` frees SELinux's, and leaves the
/// others to their LSMs.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn release_secctx<T: Tier>(cp: *mut c::lsm_context) {
    // SAFETY: the core's valid `lsm_context`.
    let id = unsafe { (*cp).id };
    let ours = u64::try_from(id).is_ok_and(crate::dispatch::release_secctx::<T>);
    if !ours {
        return;
    }
    // SAFETY: as above; a text with the LSM id of one of the chain's
    // label-bearing submodules was made by `hand_over_secctx`, whose buffer
    // is `kmalloc`ed and used by no one after this.
    unsafe { c::kfree((*cp).context.cast::<c_void>()) };
    // SAFETY: as above. Cleared, so that no LSM after stacker frees it
    // again.
    unsafe {
        cp.write(c::lsm_context {
            context: core::ptr::null_mut(),
            len: 0,
            id: 0,
        })
    };
}

/// `socket_getpeersec_dgram` entry point for chain `T`: the secid of a
/// datagram sender's label, for `SCM_SECURITY`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs):
/// `sock` is null or valid, `secid` valid for writes.
unsafe extern "C" fn socket_getpeersec_dgram<T: Tier>(
    sock: *mut c::socket,
    _skb: *mut c::sk_buff,
    secid: *mut u32,
) -> c_int {
    if !bare_secids_ours::<T>() {
        return ENOPROTOOPT.to_errno();
    }
    // SAFETY: null (an IP datagram) or a valid socket, for the call.
    let sock = unsafe { Socket::from_raw_opt(sock) };
    kernel::error::from_result(|| {
        let sender = crate::dispatch::socket_getpeersec_dgram::<T>(sock)?;
        // SAFETY: valid for writes.
        unsafe { secid.write(sender.raw()) };
        Ok(0)
    })
}

/// Whether chain `T` answers the one-LSM secid interfaces (a bare secid,
/// the audit rules): it bears labels, and no other LSM with labels is
/// active (`secids.c`). Else those hooks answer "not mine" and leave the
/// rule pointer alone.
fn bare_secids_ours<T: Tier>() -> bool {
    crate::lsm_prop::primary::<T>().is_some()
        // SAFETY: no preconditions; it reads the LSM core's list of LSMs,
        // which is complete once any hook can run.
        && unsafe { secids_c::stacker_bare_secids_ours() }
}

/// `audit_rule_init` entry point for chain `T`: a rule is a `kmalloc`ed
/// `u64`, the value the primary label-bearing submodule gave. When another
/// LSM makes the rules, stacker leaves `*lsmrule` to it and answers 0.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn audit_rule_init<T: Tier>(
    field: u32,
    op: u32,
    rulestr: *mut c_char,
    lsmrule: *mut *mut c_void,
    gfp: c::gfp_t,
) -> c_int {
    if !bare_secids_ours::<T>() {
        return 0;
    }
    // SAFETY: the core's out pointer, valid for writes. None until made,
    // as SELinux's.
    unsafe { lsmrule.write(core::ptr::null_mut()) };
    // SAFETY: the rule's NUL-terminated text, valid for the call.
    let text = unsafe { c_bytes(rulestr) };
    kernel::error::from_result(|| {
        let (_, value) = crate::dispatch::audit_rule_init::<T>(field, op, text)?;
        // SAFETY: `kmalloc` with the caller's flags.
        let rule = unsafe { secids_c::stacker_audit_rule_new(value, gfp) };
        if rule.is_null() {
            return Err(ENOMEM);
        }
        // SAFETY: as above.
        unsafe { lsmrule.write(rule) };
        Ok(0)
    })
}

/// `audit_rule_match` entry point for chain `T`: 1 for a match, 0 for
/// none, or an error.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs):
/// `lsmrule` is a rule `audit_rule_init` made, or null.
unsafe extern "C" fn audit_rule_match<T: Tier>(
    prop: *mut c::lsm_prop,
    field: u32,
    op: u32,
    lsmrule: *mut c_void,
) -> c_int {
    if lsmrule.is_null() || !bare_secids_ours::<T>() {
        return 0;
    }
    // SAFETY: the core's valid `lsm_prop`; the field is stacker's own.
    let slots = unsafe { (*prop).stacker.secid };
    // SAFETY: with stacker making the rules, a rule is the `u64` that
    // `audit_rule_init` allocated.
    let value = unsafe { lsmrule.cast::<u64>().read() };
    match crate::dispatch::audit_rule_match::<T>(&slots, field, op, value) {
        Ok(matched) => c_int::from(matched),
        Err(err) => err.to_errno(),
    }
}

/// `audit_rule_free` entry point for chain `T`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs):
/// `lsmrule` is a rule `audit_rule_init` made, or null, and is not used
/// after this.
unsafe extern "C" fn audit_rule_free<T: Tier>(lsmrule: *mut c_void) {
    if lsmrule.is_null() || !bare_secids_ours::<T>() {
        return;
    }
    crate::dispatch::audit_rule_free::<T>();
    // SAFETY: `kmalloc`ed by `stacker_audit_rule_new`, and the core's last
    // use of it.
    unsafe { c::kfree(lsmrule) };
}

/// `audit_rule_known` entry point for chain `T`: 1 when `krule` has a
/// label field and the chain makes the rules, so that a policy load makes
/// it anew.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs).
unsafe extern "C" fn audit_rule_known<T: Tier>(krule: *mut c::audit_krule) -> c_int {
    if !bare_secids_ours::<T>() {
        return 0;
    }
    if let Some(m) = crate::lsm_prop::primary::<T>() {
        crate::stats::count(m as usize, Hook::audit_rule_known, false);
    }
    // SAFETY: the core's valid rule, under its filter mutex.
    unsafe { secids_c::stacker_audit_rule_known(krule) }
}

/// `getselfattr` entry point for chain `T` (`lsm_get_self_attr(2)`): one
/// `struct lsm_ctx` under stacker's LSM id for each submodule that answers
/// (the first only, with `LSM_FLAG_SINGLE`), whose value is `NAME:value`
/// and a NUL, filled in as `security_getselfattr()` fills in the LSMs'
/// entries: each after the last, and when one does not fit, `E2BIG` with
/// the size that all of them need in `*size`.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs): `ctx`
/// is NULL or a user pointer with room for `*size` bytes, and `size` a
/// valid kernel pointer.
unsafe extern "C" fn getselfattr<T: Tier>(
    attr: c_uint,
    ctx: *mut c::lsm_ctx,
    size: *mut u32,
    flags: u32,
) -> c_int {
    // SAFETY: the LSM syscalls run in process context, where `current`
    // is valid.
    let current = unsafe { c::get_current() };
    // SAFETY: the current task stays valid for the call.
    let task = unsafe { Task::from_raw(current) };
    // SAFETY: `size` is the core's valid pointer to the room left.
    let mut left = unsafe { size.read() };
    let mut total = 0u32;
    let mut too_big = false;
    let single = flags & c::LSM_FLAG_SINGLE != 0;
    // SAFETY: `lsm_get_self_attr(2)` runs in process context, holding no
    // lock (it copies to user memory).
    let cx = unsafe { MaySleep::new() };
    let count = crate::dispatch::getselfattr::<T>(&cx, task, attr, single, |value| {
        value.push_bytes(&cx, b"\0")?;
        let mut entry_size = left;
        // Each entry after the ones before it; a user pointer, never
        // dereferenced here (`lsm_fill_user_ctx` copies with
        // `copy_to_user`), and NULL stays NULL: a query of the size.
        let at = if ctx.is_null() {
            ctx
        } else {
            ctx.cast::<u8>().wrapping_add(total as usize).cast()
        };
        // SAFETY: `at` is NULL or inside the user buffer with
        // `entry_size` bytes left, the value is `value.0`'s bytes.
        let rc = unsafe {
            c::lsm_fill_user_ctx(
                at,
                &mut entry_size,
                value.0.as_mut_ptr().cast(),
                value.0.len(),
                u64::from(c::LSM_ID_STACKER),
                // The entry's own flags, none (as SELinux and AppArmor): the
                // syscall's `LSM_FLAG_SINGLE` is not one of them.
                0,
            )
        };
        if rc == kernel::error::code::E2BIG.to_errno() {
            too_big = true;
            left = 0;
        } else {
            kernel::error::to_result(rc)?;
            left = left.saturating_sub(entry_size);
        }
        total = total.saturating_add(entry_size);
        Ok(())
    });
    match count {
        Err(err) => err.to_errno(),
        Ok(count) => {
            // SAFETY: as above.
            unsafe { size.write(total) };
            if too_big {
                kernel::error::code::E2BIG.to_errno()
            } else {
                c_int::try_from(count).unwrap_or(c_int::MAX)
            }
        }
    }
}

/// `setselfattr` entry point for chain `T` (`lsm_set_self_attr(2)` with
/// stacker's LSM id). A trailing NUL of the value is not part of it.
///
/// # Safety
///
/// Called by the LSM core only, with valid arguments (module docs): `ctx`
/// is a kernel copy of `size` bytes whose lengths the core checked.
unsafe extern "C" fn setselfattr<T: Tier>(
    attr: c_uint,
    ctx: *mut c::lsm_ctx,
    size: u32,
    _flags: u32,
) -> c_int {
    // SAFETY: `ctx` is valid, and `ctx_len` within `size` (checked by
    // `security_setselfattr()`).
    let len = unsafe { (*ctx).ctx_len };
    // SAFETY: as above; `ctx` is a flexible array member after the header.
    let bytes = unsafe { core::ptr::addr_of!((*ctx).ctx) }.cast::<u8>();
    let len = usize::try_from(len).unwrap_or(0).min(size as usize);
    // SAFETY: `len` bytes follow the header, inside the core's copy.
    let mut value = unsafe { c_slice(bytes, len) };
    if let [head @ .., 0] = value {
        value = head;
    }
    // SAFETY: `lsm_set_self_attr(2)` runs in process context, holding no
    // lock (it copied the value from user memory).
    let cx = unsafe { MaySleep::new() };
    crate::dispatch::setselfattr::<T>(&cx, attr, value).into_c()
}

/// [`slot_options`] of one slot, for [`crate::registry::with_single`].
struct SlotOptions(usize);

impl WithTier for SlotOptions {
    type Output = Option<c::security_list_options>;
    fn with<T: Tier>(self) -> Option<c::security_list_options> {
        slot_options::<T>(self.0)
    }
}

/// The LSM id under which stacker answers for each slot, one per
/// label-bearing submodule: the C glue registers `lsmprop_to_secctx` for
/// slot `slot` under an `lsm_id` with this name and id, and names it to
/// audit (`audit_cfg_lsm()`), so that records carry `subj_NAME=`; and for
/// object contexts too when `*objects` (the submodule labels every object
/// audit asks about).
///
/// Fills `*out`, `*name`, `*id` and `*objects` and returns true if the
/// chain has a label-bearing submodule in slot `slot`.
///
/// # Safety
///
/// `out`, `name`, `id` and `objects` must be valid for writes. Called from
/// stacker's init only, before any hook runs.
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_label_hook(
    slot: c_int,
    out: *mut c::security_list_options,
    name: *mut *const c_char,
    id: *mut u64,
    objects: *mut bool,
) -> bool {
    let Ok(slot) = usize::try_from(slot) else {
        return false;
    };
    let Some(m) = crate::lsm_prop::slot_owner::<Loop>(slot) else {
        return false;
    };
    let entry = match crate::boot::tier() {
        DispatchTier::Empty => None,
        DispatchTier::Single(single) => {
            crate::registry::with_single(single, SlotOptions(slot)).flatten()
        }
        DispatchTier::Straight => slot_options::<Straight>(slot),
        DispatchTier::Positions | DispatchTier::Loop => slot_options::<Loop>(slot),
    };
    let (Some(entry), Some(sub), Some(&hooks)) = (
        entry,
        crate::registry::C_NAMES.get(m as usize),
        crate::registry::HOOK_SETS.get(m as usize),
    ) else {
        return false;
    };
    let labels_objects = crate::lsm_prop::labels_objects(hooks);
    // SAFETY: valid for writes, as the caller promises.
    unsafe { out.write(entry) };
    // SAFETY: as above; the name is a `'static` C string.
    unsafe { name.write(sub.as_char_ptr()) };
    // SAFETY: as above.
    unsafe { id.write(crate::dispatch::label_lsm_id(m)) };
    // SAFETY: as above.
    unsafe { objects.write(labels_objects) };
    let sub = sub.to_str().unwrap_or("?");
    if labels_objects {
        pr_info!("lsm_prop slot {slot}: {sub}'s labels (audit: subj_{sub}=, obj_{sub}=)\n");
    } else {
        pr_info!("lsm_prop slot {slot}: {sub}'s labels (audit: subj_{sub}=)\n");
    }
    true
}

/// Says so when the chain has more label-bearing submodules than the
/// `registered` slots whose text is registered: the others' labels reach
/// no audit record.
#[no_mangle]
pub(crate) extern "C" fn stacker_rs_label_slots(registered: c_int) {
    let registered = usize::try_from(registered).unwrap_or(0);
    let all = crate::lsm_prop::label_count::<Loop>();
    if all > registered {
        pr_warn!(
            "{all} label-bearing submodules in the chain, {registered} lsm_prop slots: the last {} have no labels in audit records\n",
            all - registered
        );
    }
}

/// [`options`] of one hook, for [`crate::registry::with_single`].
struct Options(Hook);

impl WithTier for Options {
    type Output = c::security_list_options;
    fn with<T: Tier>(self) -> c::security_list_options {
        options::<T>(self.0)
    }
}

/// The compile-time default chain as a straight-line chain.
type Straight = crate::dispatch::straight_chain!(crate::boot::DEFAULT_ORDER);

/// The entry point of `hook` for `tier`, or `None` if `tier` registers no
/// hook.
fn entry_point(tier: DispatchTier, hook: Hook) -> Option<c::security_list_options> {
    match tier {
        DispatchTier::Empty => None,
        DispatchTier::Single(m) => crate::registry::with_single(m, Options(hook)),
        DispatchTier::Straight => Some(options::<Straight>(hook)),
        // The positional hooks are registered per position
        // (`position_entry_point`); the others through the loop.
        DispatchTier::Positions if hook.positional() => None,
        DispatchTier::Positions | DispatchTier::Loop => Some(options::<Loop>(hook)),
    }
}

/// The entry point of `hook` at static call position `position` of the
/// positions tier: that of the chain's submodule at `position`, as a
/// one-submodule chain, if the hook is positional and it implements it.
fn position_entry_point(position: usize, hook: Hook) -> Option<c::security_list_options> {
    if !matches!(crate::boot::tier(), DispatchTier::Positions) || !hook.positional() {
        return None;
    }
    let &m = crate::boot::boot().chain.order().get(position)?;
    let implements = crate::registry::HOOK_SETS
        .get(m as usize)
        .is_some_and(|set| set.contains(hook));
    if !implements {
        return None;
    }
    crate::registry::with_single(m, Options(hook))
}

/// Whom the C glue registers hooks for: stacker (`-1`), position `p` of
/// stacker's positions tier (`-2 - p`) or, with
/// `CONFIG_SECURITY_STACKER_OWN_LSM`, the submodule of that registry index
/// as an LSM of its own.
///
/// Fills `*out` with the entry point of the LSM core's hook `name` and
/// returns true if it is to be registered: for stacker, if some enabled
/// submodule implements it, with the tier chosen at boot; for a submodule
/// on its own, if it implements it, as a one-submodule chain, except the
/// LSM syscalls' `getselfattr` and `setselfattr` and the hooks of labels as
/// secids.
///
/// # Safety
///
/// `name` must be a NUL-terminated string and `out` valid for a write.
/// Called from the LSM init functions only, before any hook runs.
#[no_mangle]
pub(crate) unsafe extern "C" fn stacker_rs_hook(
    name: *const c_char,
    out: *mut c::security_list_options,
    owner: c_int,
) -> bool {
    // SAFETY: the caller passes a NUL-terminated string.
    let name = unsafe { c_bytes(name) };
    let Some(hook) = Hook::from_name(name) else {
        return false;
    };
    let entry = match u8::try_from(owner) {
        Ok(m) => {
            let implements = crate::registry::HOOK_SETS
                .get(m as usize)
                .is_some_and(|set| set.contains(hook));
            // The LSM syscalls' entry points answer under stacker's LSM id,
            // so a submodule on its own does not take them; nor the hooks
            // of labels as secids, whose slots and bare secids are
            // stacker's chain's (`core/lsm_prop.rs`).
            let syscall = matches!(hook, Hook::getselfattr | Hook::setselfattr);
            let label = crate::lsm_prop::LABEL_HOOKS.contains(&hook);
            if !implements || syscall || label {
                return false;
            }
            crate::registry::with_single(m, Options(hook))
        }
        // Registered once per label-bearing submodule, under its own LSM
        // id (`stacker_rs_label_hook`).
        Err(_) if owner == -1 && hook == Hook::lsmprop_to_secctx => None,
        Err(_) if owner <= -2 => usize::try_from(-2 - owner)
            .ok()
            .and_then(|position| position_entry_point(position, hook)),
        Err(_) if crate::boot::boot().wants(hook) => entry_point(crate::boot::tier(), hook),
        Err(_) => None,
    };
    match entry {
        Some(entry) => {
            // SAFETY: `out` is valid for a write, as the caller promises.
            unsafe { out.write(entry) };
            true
        }
        None => false,
    }
}
