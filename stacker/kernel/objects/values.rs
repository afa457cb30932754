// SPDX-License-Identifier: GPL-2.0

//! Values hooks build or fill in: xattr names and values, process attributes, the LSM xattr slots.

#[allow(unused_imports)]
use super::*;

/// The list of `security.*` xattr names that `listxattr(2)` is filling
/// (`inode_listsecurity`).
///
/// # Invariants
///
/// `buffer` and `remaining` are the LSM core's arguments, valid for `'a`:
/// a null `*buffer` asks only for the size.
pub(crate) struct XattrNames<'a> {
    buffer: *mut *mut c_char,
    remaining: *mut isize,
    _life: PhantomData<&'a mut ()>,
}

impl XattrNames<'_> {
    /// Wraps the arguments of `inode_listsecurity`.
    ///
    /// # Safety
    ///
    /// As in the type invariants.
    pub(crate) unsafe fn from_raw(buffer: *mut *mut c_char, remaining: *mut isize) -> Self {
        // INVARIANT: as promised by the caller.
        XattrNames {
            buffer,
            remaining,
            _life: PhantomData,
        }
    }
}

impl XattrNamesView for XattrNames<'_> {
    fn push(&mut self, name: &CStr) -> Result {
        let (buffer, remaining) = (self.buffer, self.remaining);
        // SAFETY: valid by the type invariant; `xattr_list_one` copies the
        // name and its NUL, or only counts when `*buffer` is null.
        let rc = unsafe { bindings::xattr_list_one(buffer, remaining, name.as_char_ptr()) };
        kernel::error::to_result(rc)
    }
}

/// Reads a `kernel_cap_t`.
///
/// # Safety
///
/// `ptr` must be valid for reads.
pub(crate) unsafe fn kernel_cap(ptr: *const bindings::kernel_cap_t) -> KernelCap {
    // SAFETY: promised by the caller.
    KernelCap(unsafe { (*ptr).val })
}

/// A value a submodule builds for a reader: of `/proc/PID/attr/NAME`
/// (`getprocattr`, and `lsm_get_self_attr(2)` through it) or of a
/// `security.*` xattr (`inode_getsecurity`).
#[derive(Default)]
pub(crate) struct AttrValue(pub(crate) KVec<u8>);

impl AttrValueView for AttrValue {
    fn push_bytes(&mut self, _cx: &MaySleep, bytes: &[u8]) -> Result {
        self.0.extend_from_slice(bytes, GFP_KERNEL)?;
        Ok(())
    }
}

/// The text of a label, for the LSM core's `struct lsm_context`
/// (`secid_to_secctx`, `lsmprop_to_secctx`). Audit asks for it from any
/// context, atomic ones included, so it allocates with `GFP_ATOMIC` and
/// demands no proof.
#[derive(Default)]
pub(crate) struct SecCtx(pub(crate) KVec<u8>);

impl SecCtxView for SecCtx {
    fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        self.0
            .extend_from_slice(bytes, kernel::alloc::flags::GFP_ATOMIC)?;
        Ok(())
    }
}

/// The C side of forwarding (`stacker/procattr.c`).
///
/// The task is passed as `*mut c_void`: bindgen's `task_struct` holds
/// empty structs, which the `improper_ctypes` lint refuses in an `extern`
/// block of this crate.
mod procattr_c {
    use kernel::ffi::{c_char, c_int, c_void};

    extern "C" {
        pub(super) fn stacker_forward_getprocattr(
            p: *mut c_void,
            name: *const c_char,
            value: *mut *mut c_char,
        ) -> c_int;
        pub(super) fn stacker_forward_setprocattr(
            name: *const c_char,
            value: *mut c_void,
            size: usize,
        ) -> c_int;
    }
}

/// Asks the LSMs registered after stacker, in the LSM core's order, for
/// `/proc/PID/attr/NAME` of `task`; the first answer that is not `EINVAL`
/// is copied into `out`. `EINVAL` when none answers.
///
/// The LSM core asks only the first LSM that implements `getprocattr`
/// (`security_getprocattr()`): when stacker is that LSM and no submodule
/// claims the attribute, this keeps SELinux, AppArmor or Smack after it
/// reachable.
pub(crate) fn forward_getprocattr(
    cx: &MaySleep,
    task: &Task,
    name: &CStr,
    out: &mut AttrValue,
) -> Result {
    let mut value: *mut c_char = core::ptr::null_mut();
    // SAFETY: the task is valid, `name` is a C string, and `value` is a
    // writable pointer that the callee sets to a `kmalloc`ed value or
    // leaves null.
    let rc = unsafe {
        procattr_c::stacker_forward_getprocattr(
            task.as_raw().cast(),
            name.as_char_ptr(),
            &mut value,
        )
    };
    let result = match usize::try_from(rc) {
        Err(_) => Err(Error::from_errno(rc)),
        Ok(0) => Ok(()),
        Ok(_) if value.is_null() => Ok(()),
        Ok(len) => {
            // SAFETY: the answering LSM returned `len` bytes at `value`.
            let bytes = unsafe { core::slice::from_raw_parts(value.cast::<u8>(), len) };
            out.push_bytes(cx, bytes)
        }
    };
    // SAFETY: `value` is null or was `kmalloc`ed for the caller, which
    // frees it; it is not used after this.
    unsafe { bindings::kfree(value.cast::<c_void>()) };
    result
}

/// A write to `/proc/self/attr/NAME` (`setprocattr`).
///
/// # Invariants
///
/// `name` is a NUL-terminated string, and `value` is null with `size` 0 or
/// valid for reads and writes of `size` bytes, both for `'a`.
pub(crate) struct ProcAttrWrite<'a> {
    name: *const c_char,
    value: *mut c_void,
    size: usize,
    _borrow: PhantomData<&'a mut [u8]>,
}

impl ProcAttrWrite<'_> {
    /// Wraps the arguments of `setprocattr`.
    ///
    /// # Safety
    ///
    /// `name` must be a NUL-terminated string, and `value` null with `size`
    /// 0 or valid for reads and writes of `size` bytes, for the life of the
    /// returned value.
    pub(crate) unsafe fn from_raw(name: *const c_char, value: *mut c_void, size: usize) -> Self {
        let size = if value.is_null() { 0 } else { size };
        // INVARIANT: as promised by the caller.
        ProcAttrWrite {
            name,
            value,
            size,
            _borrow: PhantomData,
        }
    }
}

impl ProcAttrWriteView for ProcAttrWrite<'_> {
    fn name(&self) -> &[u8] {
        // SAFETY: a C string, valid for the borrow, by the type invariant.
        unsafe { c_bytes(self.name) }
    }

    fn value(&self) -> &[u8] {
        if self.size == 0 {
            return &[];
        }
        // SAFETY: `size` readable bytes by the type invariant.
        unsafe { core::slice::from_raw_parts(self.value.cast::<u8>(), self.size) }
    }

    fn forward(self) -> Result<usize> {
        let (name, value, size) = (self.name, self.value, self.size);
        // SAFETY: `name` and `value` are valid for this call by the type
        // invariant, and nothing borrows `value` any more (`self` is moved).
        let rc = unsafe { procattr_c::stacker_forward_setprocattr(name, value, size) };
        usize::try_from(rc).map_err(|_| Error::from_errno(rc))
    }
}

/// A security xattr for a new inode (`inode_init_security`).
pub(crate) struct XattrValue {
    /// The name after the `security.` prefix.
    pub(crate) name: &'static CStr,
    /// The value.
    pub(crate) value: KVec<u8>,
}

impl XattrValueView for XattrValue {
    /// `inode_init_security` runs with filesystem locks held, where an
    /// allocation must not recurse into filesystem reclaim. The kernel crate
    /// offers no `GFP_NOFS`, so this does not sleep at all (`GFP_NOWAIT`):
    /// the value is small, and failing gives `ENOMEM`, never a deadlock.
    fn new(name: &'static CStr, value: &[u8]) -> Result<Self> {
        // Never empty: the LSM core `kfree`s the value.
        let mut v = KVec::with_capacity(value.len().max(1), GFP_NOWAIT)?;
        v.extend_from_slice(value, GFP_NOWAIT)?;
        Ok(XattrValue { name, value: v })
    }
}

/// The LSM xattr slots of one `inode_init_security` call.
///
/// # Invariants
///
/// `xattrs` is null or has room for the LSM core's total slot count, of
/// which stacker may use `limit`, and `*count` is the next free slot.
pub(crate) struct XattrSlots {
    xattrs: *mut bindings::xattr,
    count: *mut c_int,
    limit: u32,
    used: u32,
}

impl XattrSlots {
    /// Wraps the `xattrs` and `xattr_count` arguments of the hook.
    ///
    /// # Safety
    ///
    /// They must be the LSM core's arguments to stacker's hook, valid for
    /// the life of the returned value, with `limit` slots reserved for
    /// stacker (its `lbs_xattr_count`).
    pub(crate) unsafe fn from_raw(
        xattrs: *mut bindings::xattr,
        count: *mut c_int,
        limit: u32,
    ) -> Self {
        // INVARIANT: as promised by the caller.
        XattrSlots {
            xattrs,
            count,
            limit,
            used: 0,
        }
    }
}

impl XattrSlotsView for XattrSlots {
    fn push(&mut self, xattr: XattrValue) -> Result {
        if self.xattrs.is_null() {
            // The caller does not take xattrs; nothing to do.
            return Ok(());
        }
        if self.used >= self.limit {
            return Err(ENOSPC);
        }
        // SAFETY: `count` is valid by the type invariant.
        let next = unsafe { *self.count };
        let Ok(index) = usize::try_from(next) else {
            return Err(EINVAL);
        };
        let (ptr, len, _cap) = xattr.value.into_raw_parts();
        // SAFETY: by the type invariant there is room for one more of
        // stacker's slots at `*count`, inside the core's array.
        let slot = unsafe { self.xattrs.add(index) };
        // SAFETY: `slot` is a valid, unused slot (above). The core `kfree`s
        // `value`, which came from `kmalloc` (KVec), and `name` is static.
        unsafe {
            slot.write(bindings::xattr {
                name: xattr.name.as_char_ptr(),
                value: ptr.cast(),
                value_len: len,
            })
        };
        // SAFETY: as above.
        unsafe { *self.count = next.wrapping_add(1) };
        self.used += 1;
        Ok(())
    }
}
