// SPDX-License-Identifier: GPL-2.0

//! What the kernel-independent core needs from the kernel build: the boot
//! state, securityfs directories, RCU values and log rate limits.
//!
//! The host build has a file of the same role (`host/platform.rs`).

pub(crate) use crate::boot::{boot, slot_offset};
pub(crate) use crate::securityfs::{Dir, TextBuf};

pub(crate) use kernel::{pr_info, pr_warn};

use crate::blob::BlobState;
use crate::context::MaySleep;
use crate::error::Result;
use crate::objects::TaskView;
use core::sync::atomic::{AtomicPtr, Ordering};
use kernel::{alloc::KBox, bindings, prelude::*};

/// Makes the audit rules with label fields anew (`audit_update_lsm_rules()`,
/// when stacker makes the rules: `secids.c`), after a policy load changed
/// what their types are, as SELinux does after its loads. Takes the audit
/// filter mutex and allocates: demands the proof.
pub(crate) fn audit_rules_update(_cx: &MaySleep) {
    extern "C" {
        fn stacker_audit_rules_update();
    }
    // SAFETY: no preconditions beyond process context, which `_cx`
    // proves.
    unsafe { stacker_audit_rules_update() };
}

/// Whether a rate-limited log line may be printed now (`printk_ratelimit`).
pub(crate) fn ratelimit() -> bool {
    // SAFETY: `__printk_ratelimit` takes any NUL-terminated name.
    unsafe { bindings::__printk_ratelimit(c"stacker".as_char_ptr()) != 0 }
}

/// Whether a refused securityfs write may be logged now: its own rate
/// limit (`lsm.c`), apart from the kernel-wide one.
pub(crate) fn ratelimit_securityfs() -> bool {
    extern "C" {
        fn stacker_securityfs_ratelimit() -> bool;
    }
    // SAFETY: takes the rate limit's own spinlock; callable from any
    // context.
    unsafe { stacker_securityfs_ratelimit() }
}

/// Whether an access denial may be logged now: its own rate limit
/// (`lsm.c`), apart from the kernel-wide one.
pub(crate) fn ratelimit_audit() -> bool {
    extern "C" {
        fn stacker_audit_ratelimit() -> bool;
    }
    // SAFETY: takes the rate limit's own spinlock; callable from any
    // context.
    unsafe { stacker_audit_ratelimit() }
}

/// Waits until every RCU read-side section that began before the call has
/// ended. Sleeps.
pub(crate) fn synchronize_rcu(_cx: &MaySleep) {
    // SAFETY: called in process context, which `MaySleep` proves, with no
    // RCU read lock held (a `MaySleep` cannot exist inside one).
    unsafe { bindings::synchronize_rcu() };
}

/// Runs `f` with local interrupts disabled (`lsm.c`): for short sections
/// that readers in interrupt context on the same CPU may spin on. `f` must
/// not sleep.
pub(crate) fn without_interrupts<R>(f: impl FnOnce() -> R) -> R {
    extern "C" {
        fn stacker_irq_save() -> core::ffi::c_ulong;
        fn stacker_irq_restore(flags: core::ffi::c_ulong);
    }
    // SAFETY: balanced below; callable from any context.
    let flags = unsafe { stacker_irq_save() };
    let result = f();
    // SAFETY: restores what the call above saved, on the same CPU (no
    // preemption with interrupts off).
    unsafe { stacker_irq_restore(flags) };
    result
}

/// Runs `f` with preemption disabled (`lsm.c`): for short sections that
/// others may spin on. `f` must not sleep. (Unlike `RcuCell::read`, `f`
/// is not bound to be `Send`: mlte's label readers, which fall back to
/// this, pass on closures of every hook.)
pub(crate) fn without_preemption<R>(f: impl FnOnce() -> R) -> R {
    extern "C" {
        fn stacker_preempt_disable();
        fn stacker_preempt_enable();
    }
    // SAFETY: balanced below; callable from any context.
    unsafe { stacker_preempt_disable() };
    let result = f();
    // SAFETY: re-enables what the call above disabled.
    unsafe { stacker_preempt_enable() };
    result
}

/// The current task's pid and command name, for log lines.
pub(crate) fn current_task() -> (i32, [u8; 16]) {
    // SAFETY: `current` is always valid in process context, where hooks run.
    let task = unsafe { crate::objects::Task::from_raw(bindings::get_current()) };
    (task.pid(), task.comm())
}

/// A value that readers see whole, old or new, while it is replaced:
/// read under RCU, replaced by pointer swap, the old one freed after a
/// grace period ([`RcuBox`]), and built in place from all zeroes, so that a
/// large value never sits on the stack.
pub(crate) struct RcuCell<T: BlobState> {
    inner: RcuBox<T>,
}

impl<T: BlobState> RcuCell<T> {
    /// An empty cell.
    pub(crate) const fn new() -> Self {
        RcuCell {
            inner: RcuBox::new(),
        }
    }

    /// Calls `f` with the current value (`None` before the first one).
    ///
    /// `f` runs inside an RCU read-side critical section, which on this
    /// kernel is atomic context: it must not sleep, so no `GFP_KERNEL`
    /// allocation, no mutex, no user copy. For anything that may sleep, such
    /// as formatting the value for userspace, take a private copy with
    /// [`RcuCell::copy_out`] and work on that. (`CONFIG_DEBUG_ATOMIC_SLEEP`
    /// catches a sleep in `f` in the kernel; the host model panics.)
    ///
    /// `f` is `Send`, so it cannot capture the proof that the hook may
    /// sleep (`&MaySleep` is not `Send`), which every sleeping API of the
    /// object views demands: a sleeping call in `f` does not build. The
    /// object views are `Sync`, so `f` may capture them.
    #[inline(always)]
    pub(crate) fn read<R>(&self, f: impl FnOnce(Option<&T>) -> R + Send) -> R {
        self.inner.read(f)
    }

    /// A private copy of the current value (`None` before the first one),
    /// for work that may sleep.
    ///
    /// Allocates first, outside RCU (may sleep), then copies the value under
    /// RCU: the copy is one whole value, old or new, and stays valid however
    /// long the caller keeps it.
    pub(crate) fn copy_out(&self) -> Result<Option<KBox<T>>>
    where
        T: Copy,
    {
        let mut copy = KBox::<T>::new_uninit(GFP_KERNEL)?;
        let dst = SendPtr(copy.as_mut_ptr());
        let found = self.read(move |value| {
            let dst = dst.get();
            value.is_some_and(|v| {
                // SAFETY: `dst` is a fresh allocation for one `T`, so it is
                // valid for writes and does not overlap `v`. `T: Copy`, so
                // a bitwise copy is a valid value.
                unsafe { core::ptr::copy_nonoverlapping(v, dst, 1) };
                true
            })
        });
        if !found {
            return Ok(None);
        }
        // SAFETY: the copy above initialised the storage.
        Ok(Some(unsafe { copy.assume_init() }))
    }

    /// Builds a new value in place, starting from all zeroes, and makes it
    /// the current one if `build` succeeds. On error nothing changes.
    ///
    /// Sleeps (allocation, `synchronize_rcu`).
    pub(crate) fn replace_with(&self, build: impl FnOnce(&mut T) -> Result) -> Result {
        let mut new = zeroed()?;
        build(&mut new)?;
        self.inner.replace_boxed(new);
        Ok(())
    }
}

/// A value on the heap, owned (a `Box` in the host build).
pub(crate) type OwnedBox<T> = KBox<T>;

/// A new `T` on the heap, all zero, which is a valid `T` (`BlobState`):
/// built in place, so that a large value never sits on the stack.
/// Allocates (`GFP_KERNEL`), so it demands the proof that the caller may
/// sleep.
pub(crate) fn zeroed_box<T: BlobState>(_cx: &MaySleep) -> Result<OwnedBox<T>> {
    zeroed()
}

/// [`zeroed_box`], for callers that may sleep by their own rule (the
/// securityfs side).
fn zeroed<T: BlobState>() -> Result<KBox<T>> {
    let mut new = KBox::<T>::new_uninit(GFP_KERNEL)?;
    // SAFETY: `new` is a fresh allocation for one `T`, valid for writes.
    unsafe { new.as_mut_ptr().write_bytes(0, 1) };
    // SAFETY: zero is a valid `T` (`BlobState`), so after zeroing the
    // storage it is initialised.
    Ok(unsafe { new.assume_init() })
}

/// A pointer to a fresh allocation that only one closure writes through
/// ([`RcuCell::copy_out`]), so that the closure is `Send`.
#[derive(Clone, Copy)]
struct SendPtr<T>(*mut T);

// SAFETY: the one pointer is used by one closure, on the thread that made
// it; nothing else reaches the allocation until that closure returns.
unsafe impl<T> Send for SendPtr<T> {}

impl<T> SendPtr<T> {
    /// The pointer. (A method, so that a closure captures the whole
    /// `SendPtr`, not its field.)
    fn get(self) -> *mut T {
        self.0
    }
}

/// Bytes owned by the kernel: `kvmalloc`ed, so that a large value (a
/// compiled policy of megabytes) does not need contiguous pages.
pub(crate) type Bytes = KVVec<u8>;

/// A copy of `bytes`. Allocates: may sleep.
pub(crate) fn bytes_from(bytes: &[u8]) -> Result<Bytes> {
    let mut out = KVVec::with_capacity(bytes.len(), GFP_KERNEL)?;
    out.extend_from_slice(bytes, GFP_KERNEL)?;
    Ok(out)
}

/// A table of `Copy` values owned by the kernel: `kvmalloc`ed, as
/// [`Bytes`].
pub(crate) type Table<T> = KVVec<T>;

/// A table of `len` copies of `value`. Allocates (`GFP_KERNEL`), so it
/// demands the proof that the caller may sleep.
pub(crate) fn table_filled<T: Copy>(_cx: &MaySleep, len: usize, value: T) -> Result<Table<T>> {
    Ok(KVVec::from_elem(value, len, GFP_KERNEL)?)
}

/// A value, built whole elsewhere, that readers see whole, old or new,
/// while it is replaced: read under RCU, replaced by pointer swap, the old
/// one dropped after a grace period. ([`RcuCell`] builds its values in
/// place from zero on top of this.)
///
/// # Invariants
///
/// `ptr` is null or came from `KBox::into_raw` of a whole value, and is
/// dropped only after it was swapped out and a grace period passed.
pub(crate) struct RcuBox<T: Send + Sync> {
    ptr: AtomicPtr<T>,
}

impl<T: Send + Sync> RcuBox<T> {
    /// An empty cell.
    pub(crate) const fn new() -> Self {
        // INVARIANT: null.
        RcuBox {
            ptr: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// Calls `f` with the current value (`None` before the first one),
    /// inside an RCU read-side critical section: `f` must not sleep (see
    /// [`RcuCell::read`], also for why it is `Send`).
    #[inline(always)]
    pub(crate) fn read<R>(&self, f: impl FnOnce(Option<&T>) -> R + Send) -> R {
        let _guard = kernel::sync::rcu::read_lock();
        let p = self.ptr.load(Ordering::Acquire);
        // SAFETY: by the type invariant, a non-null `p` is a whole value that
        // is not dropped before this read-side critical section ends.
        f(unsafe { p.as_ref() })
    }

    /// Makes `value` the current one, then drops the old one once no
    /// reader can see it. Sleeps (allocation, `synchronize_rcu`).
    pub(crate) fn replace(&self, value: T) -> Result {
        self.replace_boxed(KBox::new(value, GFP_KERNEL)?);
        Ok(())
    }

    /// Makes the boxed `new` the current value, as [`RcuBox::replace`].
    /// Sleeps (`synchronize_rcu`).
    pub(crate) fn replace_boxed(&self, new: KBox<T>) {
        // INVARIANT: a whole value from `KBox::into_raw`.
        let old = self.ptr.swap(KBox::into_raw(new), Ordering::AcqRel);
        if !old.is_null() {
            // SAFETY: waits until no reader can still see `old`.
            unsafe { bindings::synchronize_rcu() };
            // SAFETY: `old` came from `KBox::into_raw` and no reader holds
            // it any more.
            drop(unsafe { KBox::from_raw(old) });
        }
    }
}
