// SPDX-License-Identifier: GPL-2.0

//! Credentials: the cred views, the prepared cred of an exec or an id change, new credentials.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct cred`.
    Cred => bindings::cred
);
has_blob!(Cred, Cred, CredState, |p| (*p).security);

impl CredView for Cred {
    #[inline]
    fn uid(&self) -> u32 {
        // SAFETY: the cred is valid; its ids do not change once shared.
        unsafe { (*self.as_raw()).uid.val }
    }

    #[inline]
    fn euid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { (*self.as_raw()).euid.val }
    }

    #[inline]
    fn gid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { (*self.as_raw()).gid.val }
    }

    #[inline]
    fn egid(&self) -> u32 {
        // SAFETY: as for `uid`.
        unsafe { (*self.as_raw()).egid.val }
    }

    #[inline]
    fn caps(&self) -> [KernelCap; 3] {
        // SAFETY: the cred is valid; its sets do not change once shared.
        let c = unsafe { &*self.as_raw() };
        [
            KernelCap(c.cap_effective.val),
            KernelCap(c.cap_permitted.val),
            KernelCap(c.cap_inheritable.val),
        ]
    }

    #[inline(always)]
    fn with_current<R>(f: impl FnOnce(&Cred) -> R) -> R {
        // SAFETY: hooks run in process context, and the borrow ends when
        // `f` returns, within the hook (see `Cred::current`).
        f(unsafe { Self::current() })
    }
}

/// New credentials that are prepared but not yet committed, after the
/// capability module computed their capability sets: those of an exec in
/// `bprm_creds_from_file`, and the `new` cred of `task_fix_setuid` and
/// `task_fix_setgid`.
///
/// # Invariants
///
/// `cred` was prepared by `prepare_creds()` (or `prepare_exec_creds()`) and
/// is not yet committed, so no other task and no other reference can see
/// it, and it stays valid for `'a`.
pub(crate) struct PreparedCred<'a> {
    cred: *mut bindings::cred,
    _borrow: PhantomData<&'a Cred>,
}

impl PreparedCred<'_> {
    /// The new credentials of `bprm`.
    ///
    /// # Safety
    ///
    /// `bprm` must be the binprm passed to `bprm_creds_from_file`, valid
    /// for `'a`.
    pub(crate) unsafe fn from_bprm(bprm: *mut bindings::linux_binprm) -> Self {
        // INVARIANT: the binprm of `bprm_creds_from_file` owns its new,
        // unshared cred until `commit_creds()`, after this hook.
        PreparedCred {
            // SAFETY: the caller passes a valid binprm.
            cred: unsafe { (*bprm).cred },
            _borrow: PhantomData,
        }
    }

    /// The `new` credentials of `task_fix_setuid` or `task_fix_setgid`.
    ///
    /// # Safety
    ///
    /// `cred` must be the `new` argument of one of those hooks, valid for
    /// `'a`.
    pub(crate) unsafe fn from_new(cred: *mut bindings::cred) -> Self {
        // INVARIANT: `__sys_setuid()` and its kin prepare `new` with
        // `prepare_creds()` and commit it only after these hooks.
        PreparedCred {
            cred,
            _borrow: PhantomData,
        }
    }
}

impl<'a> PreparedCredView<'a> for PreparedCred<'a> {
    #[inline]
    fn cred(&self) -> &'a Cred {
        // SAFETY: valid for `'a` by the type invariant.
        unsafe { Cred::from_raw(self.cred) }
    }

    /// Sound because the credentials are not shared yet (type invariant):
    /// nothing else reads them while they change, and once committed they
    /// never change again. Only ever removes, so the kernel's rules between
    /// the sets (ambient within permitted and inheritable, effective within
    /// permitted) still hold.
    #[inline]
    fn drop_caps(&self, mask: u64) {
        let keep = !mask;
        let c = self.cred;
        // SAFETY: by the type invariant the cred is valid and private to
        // this exec; the `Cred` views of it read through `Opaque`, which
        // allows the change.
        unsafe { (*c).cap_permitted.val &= keep };
        // SAFETY: as above.
        unsafe { (*c).cap_effective.val &= keep };
        // SAFETY: as above.
        unsafe { (*c).cap_inheritable.val &= keep };
        // SAFETY: as above.
        unsafe { (*c).cap_ambient.val &= keep };
    }
}

impl Cred {
    /// The current task's subjective credentials (`current_cred()`), for
    /// hooks that check the current task without being passed a cred
    /// (`mmap_addr`, `vm_enough_memory`).
    ///
    /// # Safety
    ///
    /// Only within a hook call, in process context, and `'a` must not
    /// outlast it: the task holds a reference on its own cred, and only the
    /// task itself (`commit_creds`, `override_creds`) replaces it, which no
    /// code reachable from a hook does.
    #[inline(always)]
    pub(crate) unsafe fn current<'a>() -> &'a Cred {
        // SAFETY: hooks run in process context, where `current` is valid.
        let task = unsafe { bindings::get_current() };
        // SAFETY: the current task is valid; `current_cred()` reads its
        // `cred` without RCU because only the task itself replaces it.
        let cred = unsafe { (*task).cred };
        // SAFETY: valid for `'a`, as the caller promises (see above).
        unsafe { Cred::from_raw(cred) }
    }
}

/// New credentials for the current task, made by `prepare_creds()` from
/// its own, to change and install (`commit_creds`); dropped uninstalled,
/// they are released (`abort_creds`).
///
/// # Invariants
///
/// `ptr` came from `prepare_creds()` and is neither committed nor
/// aborted: only this value owns it.
pub(crate) struct NewCred {
    ptr: core::ptr::NonNull<bindings::cred>,
}

// SAFETY: a shared `NewCred` gives only `cred()`, a `Sync` view of the new
// credentials; committing or dropping them takes the value itself.
unsafe impl Sync for NewCred {}

impl NewCredView for NewCred {
    #[inline]
    fn prepare(_cx: &MaySleep) -> Result<NewCred> {
        // SAFETY: called in process context, as `prepare_creds` needs.
        let ptr = unsafe { bindings::prepare_creds() };
        // INVARIANT: a fresh cred from `prepare_creds`, owned here.
        core::ptr::NonNull::new(ptr)
            .map(|ptr| NewCred { ptr })
            .ok_or(ENOMEM)
    }

    #[inline]
    fn cred(&self) -> &Cred {
        // SAFETY: valid by the type invariant, for as long as `self`.
        unsafe { Cred::from_raw(self.ptr.as_ptr()) }
    }

    #[inline]
    fn commit(self) {
        let ptr = self.ptr.as_ptr();
        core::mem::forget(self);
        // SAFETY: `ptr` came from `prepare_creds` in this task and was
        // neither committed nor aborted (type invariant); `commit_creds`
        // takes it over. Its result is always 0.
        unsafe { bindings::commit_creds(ptr) };
    }
}

impl Drop for NewCred {
    fn drop(&mut self) {
        // SAFETY: by the type invariant, uncommitted credentials from
        // `prepare_creds`, released once.
        unsafe { bindings::abort_creds(self.ptr.as_ptr()) };
    }
}
