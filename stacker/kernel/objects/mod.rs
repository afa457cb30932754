// SPDX-License-Identifier: GPL-2.0

//! Typed, borrowed views of the kernel objects that hooks receive.
//!
//! rust/kernel has no inode, dentry, binprm or IPC abstraction, and its
//! `File` and `Credential` do not expose the security blob, so stacker keeps
//! thin `#[repr(transparent)]` wrappers here. A hook gets `&File`, `&Inode`
//! and so on; the borrow lasts for the hook call. What submodules may call
//! on them is one trait per view (`core/views.rs`), which these types and
//! the host crate's in-memory model (`host/objects.rs`) both implement.
//!
//! # Hook views
//!
//! Some hooks see an object before it is fully built or after it is half
//! torn down. Those hooks get a narrower view whose methods reach only what
//! is valid there, so that no safe method can read a NULL or stale pointer:
//!
//! - [`FileSecurity`] (`file_alloc_security`, `file_free_security`): only
//!   the file's blob. `file_alloc_security` runs before `f_path` is set, and
//!   `file_free_security` also runs for a file whose open failed, so there
//!   is no dentry or inode to reach;
//! - [`CommittedBinprm`] (`bprm_committed_creds`): only the file;
//!   `bprm->cred` is NULL by then (it was committed);
//! - [`PreparedCred`] (`bprm_creds_from_file`): the new credentials of an exec,
//!   still private to it, and the one write allowed there:
//!   [`PreparedCred::drop_caps`];
//! - [`InodeBlob`] (`inode_free_security_rcu`): the blob of an inode that is
//!   gone; submodules receive only their own state in it.
//!
//! # Inlining
//!
//! A method of a trait impl is compiled as an exported function, which an
//! inherent method is not, and that changes what LLVM inlines. So the view
//! methods that every caller inlined while they were inherent carry
//! `#[inline]` (it keeps them local, as before), and so do the private
//! helpers they call (`Inode::sb`, `File::mode`); those that callers kept
//! out of line (`File::dentry`, `File::inode`, `Dentry::inode`,
//! `Dentry::with_name`, the values of `values.rs`) carry none. With that,
//! the hook entry points compile to the same code as before the traits.
//!
//! One file per concern: `file.rs`, `dentry.rs`, `inode.rs`, `cred.rs`,
//! `task.rs` (and the exec hooks' views), `mm.rs`, `net.rs`, `fs.rs`
//! (superblocks, paths, mounts), `ipc.rs`, `key.rs`, `values.rs` (what hooks
//! build or fill in), and `layout.rs`, the cross-check of the layout Rust
//! assumes. This file has what they share: the wrapper macros and the C
//! string helpers.
//!
//! C headers: [`include/linux/fs.h`](srctree/include/linux/fs.h),
//! [`include/linux/dcache.h`](srctree/include/linux/dcache.h),
//! [`include/linux/cred.h`](srctree/include/linux/cred.h),
//! [`include/linux/lsm_hooks.h`](srctree/include/linux/lsm_hooks.h)

use crate::blob::HasBlob;
use crate::context::MaySleep;
use crate::layout::ObjectKind;
use crate::submodule::Submodule;
use core::{ffi::CStr, marker::PhantomData, mem::MaybeUninit};
use kernel::{
    alloc::{flags::GFP_NOWAIT, KVec},
    bindings,
    ffi::{c_char, c_int, c_ulong, c_void},
    prelude::*,
    types::Opaque,
};

/// Declares a transparent wrapper of a C object that hooks receive.
macro_rules! wrapper {
    ($(#[$doc:meta])* $name:ident => $c:ty) => {
        $(#[$doc])*
        ///
        /// # Invariants
        ///
        /// The wrapped C object is valid for as long as it is borrowed.
        #[repr(transparent)]
        pub(crate) struct $name(Opaque<$c>);

        // SAFETY: the C object is shared by every CPU whatever Rust does
        // (the LSM core hands the same one to hooks running at once), and
        // each method of the view is made for that: it reads fields that
        // do not change while the object is borrowed, or reads under the
        // object's own lock, RCU or atomics. The one write through a shared
        // view, `Binprm::set_secureexec`, is to the exec's own `linux_binprm`,
        // which only the exec's task uses, and a borrow from a hook cannot
        // leave that task (it is not `'static`). Sharing a view between
        // threads adds nothing to that. (`Sync` lets an RCU read closure,
        // which must be `Send`, borrow it.)
        unsafe impl Sync for $name {}

        impl $name {
            /// Borrows a C object passed in by the LSM core.
            ///
            /// # Safety
            ///
            /// `ptr` must point to a valid object that stays valid for `'a`.
            #[inline(always)]
            pub(crate) unsafe fn from_raw<'a>(ptr: *const $c) -> &'a $name {
                // SAFETY: the wrapper is `repr(transparent)` over the C
                // object, and the caller promises validity for `'a`.
                // INVARIANT: as promised by the caller.
                unsafe { &*ptr.cast::<$name>() }
            }

            /// Borrows a C object passed in by the LSM core that may be
            /// null: `None` then.
            ///
            /// # Safety
            ///
            /// `ptr` must be null or point to a valid object that stays
            /// valid for `'a`.
            #[inline(always)]
            pub(crate) unsafe fn from_raw_opt<'a>(ptr: *const $c) -> Option<&'a $name> {
                // SAFETY: a non-null `ptr` is valid for `'a`, as the caller
                // promises.
                (!ptr.is_null()).then(|| unsafe { Self::from_raw(ptr) })
            }

            /// The C object.
            ///
            /// A cast of `self`, not `Opaque::get`: the kernel crate's
            /// `get` is not inlined across crates, and was a call per
            /// field read on every hook path.
            #[inline(always)]
            pub(crate) fn as_raw(&self) -> *mut $c {
                // The wrapper is `repr(transparent)` over `Opaque<$c>`, which
                // is `repr(transparent)` over the C object's storage, with
                // interior mutability: the same address, and writes through
                // it are allowed, as through `Opaque::get`'s pointer.
                core::ptr::from_ref(self).cast_mut().cast::<$c>()
            }
        }
    };
}

/// The C string at `ptr`, as a [`CStr`].
///
/// Unlike `CStr::from_char_ptr`, this has no overflow check, so no panic
/// path on a hook path: a string's length plus its NUL cannot overflow.
///
/// # Safety
///
/// `ptr` must point to a NUL-terminated string that stays valid and
/// unchanged for `'a`.
pub(crate) unsafe fn c_str<'a>(ptr: *const c_char) -> &'a CStr {
    // SAFETY: `ptr` is a NUL-terminated string, as the caller promises.
    let len = unsafe { bindings::strlen(ptr) };
    // SAFETY: the `len` bytes of the string and its NUL are readable for
    // `'a`.
    let bytes = unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len.wrapping_add(1)) };
    // SAFETY: `bytes` ends with the string's NUL and has no other.
    unsafe { CStr::from_bytes_with_nul_unchecked(bytes) }
}

/// The C string at `ptr` as bytes, without its NUL (and without a panic
/// path, unlike `CStr::to_bytes`).
///
/// # Safety
///
/// As for [`c_str`].
pub(crate) unsafe fn c_bytes<'a>(ptr: *const c_char) -> &'a [u8] {
    // SAFETY: as the caller promises.
    let s = unsafe { c_str(ptr) };
    // `c_str` ends the slice with the NUL, so `split_last` always finds it.
    s.to_bytes_with_nul()
        .split_last()
        .map_or(&[], |(_, bytes)| bytes)
}

/// The C string at `ptr` as bytes, as [`c_bytes`]; `None` when `ptr` is
/// null.
///
/// # Safety
///
/// `ptr` must be null or valid as for [`c_str`].
pub(crate) unsafe fn c_bytes_opt<'a>(ptr: *const c_char) -> Option<&'a [u8]> {
    // SAFETY: a non-null `ptr` is valid, as the caller promises.
    (!ptr.is_null()).then(|| unsafe { c_bytes(ptr) })
}

/// The `len` bytes at `ptr`; empty when `ptr` is null or `len` is 0.
///
/// # Safety
///
/// A non-null `ptr` must point to `len` readable bytes that stay valid and
/// unchanged for `'a`.
pub(crate) unsafe fn c_slice<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: promised by the caller.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// A socket address argument (`struct sockaddr *`, `int addrlen`) as bytes;
/// empty when it is null or its length is not positive.
///
/// # Safety
///
/// As for [`c_slice`], with `addrlen` bytes at `address`.
pub(crate) unsafe fn sockaddr_bytes<'a>(
    address: *mut bindings::sockaddr,
    addrlen: c_int,
) -> &'a [u8] {
    let len = usize::try_from(addrlen).unwrap_or(0);
    // SAFETY: promised by the caller.
    unsafe { c_slice(address.cast::<u8>().cast_const(), len) }
}

/// Implements [`HasBlob`] for a wrapper whose blob is `(*ptr).$field`.
macro_rules! has_blob {
    ($name:ident, $kind:ident, $state:ident, |$p:ident| $blob:expr) => {
        impl HasBlob for $name {
            const KIND: ObjectKind = ObjectKind::$kind;
            type State<M: Submodule> = M::$state;

            #[inline(always)]
            fn blob(&self) -> *mut u8 {
                let $p = self.as_raw();
                // SAFETY: the object is valid by the type invariant; its
                // blob pointer is set by the LSM core when it is allocated.
                unsafe { $blob }.cast::<u8>()
            }
        }
    };
}

/// The path that `d_path` and its kin wrote at the end of `buf`, given the
/// pointer they returned (into `buf`, or an error pointer): up to its NUL;
/// `None` for an error or a pointer outside `buf`.
fn path_at(p: *mut c_char, buf: &[u8]) -> Option<&[u8]> {
    if kernel::error::from_err_ptr(p).is_err() || p.is_null() {
        return None;
    }
    let start = (p as usize).checked_sub(buf.as_ptr() as usize)?;
    let tail = buf.get(start..)?;
    let end = tail.iter().position(|&b| b == 0)?;
    tail.get(..end)
}

/// `FMODE_READ` and `FMODE_WRITE` (`include/linux/fs.h`; bindgen does
/// not expand their casts, `layout_check.c` asserts the values).
const FMODE_READ: u32 = 1;
const FMODE_WRITE: u32 = 2;

/// `SB_BORN` (`BIT(29)`, which bindgen does not expand; `layout_check.c`
/// asserts the value).
const SB_BORN: c_ulong = 1 << 29;

/// Whether the current task has `CAP_SYS_ADMIN` in the initial user
/// namespace (`capable()`: asks the LSMs, audits, marks the task as having
/// used privilege). May sleep.
pub(crate) fn current_has_sys_admin() -> bool {
    // SAFETY: `capable` checks the current task's credentials; callable
    // from any process context.
    unsafe { bindings::capable(bindings::CAP_SYS_ADMIN as i32) }
}

/// Whether `ns` is the initial user namespace (`&init_user_ns`): a
/// comparison of addresses, never a dereference.
#[inline(always)]
pub(crate) fn is_initial_user_ns(ns: *const bindings::user_namespace) -> bool {
    core::ptr::eq(ns, &raw const bindings::init_user_ns)
}

/// Whether the current task is its process's only thread (and shares its
/// memory with no other process).
pub(crate) fn current_is_single_threaded() -> bool {
    // SAFETY: reads the current task's thread group; callable from any
    // process context.
    unsafe { bindings::current_is_single_threaded() }
}

mod cred;
mod dentry;
mod file;
mod fs;
mod inode;
mod ipc;
mod key;
mod layout;
mod mm;
mod net;
mod task;
mod values;

pub(crate) use self::layout::layout_matches;
pub(crate) use self::{
    cred::*, dentry::*, file::*, fs::*, inode::*, ipc::*, key::*, mm::*, net::*, task::*, values::*,
};
pub(crate) use crate::access::{AccessMask, CapCheck, KernelCap, XattrCopyUp};
pub(crate) use crate::lsm_prop::Secid;
pub(crate) use crate::mount_options::OwnMountOptions;
pub(crate) use crate::views::*;
