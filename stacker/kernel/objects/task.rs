// SPDX-License-Identifier: GPL-2.0

//! Tasks and the exec hooks' `linux_binprm` views.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct task_struct`.
    ///
    /// Its fields are read through bindgen's layout, which the layout check
    /// (`layout_check.c`) compares with the compiler's at init: with
    /// `--opaque-type sched_statistics` (linux/patches/0001, "rust:
    /// bindings: keep the alignment of an empty struct sched_statistics")
    /// they agree.
    Task => bindings::task_struct
);
has_blob!(Task, Task, TaskState, |p| (*p).security);

impl TaskView for Task {
    #[inline]
    fn pid(&self) -> i32 {
        // SAFETY: the task is valid; `pid` is fixed for its life.
        unsafe { (*self.as_raw()).pid }
    }

    #[inline]
    fn with_cred<R>(&self, f: impl FnOnce(&Cred) -> R + Send) -> R {
        let _guard = kernel::sync::rcu::read_lock();
        // SAFETY: the task is valid; `real_cred` is an RCU pointer, read
        // once under the read lock taken above.
        let cred = unsafe { core::ptr::addr_of!((*self.as_raw()).real_cred).read_volatile() };
        // SAFETY: a task always has credentials, which RCU keeps valid
        // until the read lock is dropped, after `f` returns.
        f(unsafe { Cred::from_raw(cred) })
    }

    #[inline]
    fn with_current_tracer<R>(f: impl FnOnce(Option<&Task>) -> R + Send) -> R {
        let _guard = kernel::sync::rcu::read_lock();
        // SAFETY: hooks run in process context, where `current` is valid.
        let task = unsafe { bindings::get_current() };
        // SAFETY: the current task is valid; `ptrace` is changed by the
        // tracer under locks this reader does not take, so it is read once.
        let ptrace = unsafe { core::ptr::addr_of!((*task).ptrace).read_volatile() };
        if ptrace == 0 {
            return f(None);
        }
        // SAFETY: as `ptrace_parent()`: `parent` is an RCU pointer, read
        // once under the read lock taken above.
        let parent = unsafe { core::ptr::addr_of!((*task).parent).read_volatile() };
        if parent.is_null() {
            return f(None);
        }
        // SAFETY: a task's parent, read under RCU, stays valid until the
        // read lock is dropped, after `f` returns.
        f(Some(unsafe { Task::from_raw(parent) }))
    }
}

impl Task {
    /// The task's command name, NUL-padded, always NUL-terminated.
    ///
    /// The name may be changed while it is read (`set_task_comm`); each
    /// byte is read once, as C's `strscpy_pad` does, so the copy is some
    /// mix of old and new, never an unterminated string.
    pub(crate) fn comm(&self) -> [u8; 16] {
        let mut buf = [0u8; 16];
        // SAFETY: the task is valid; `comm` is an array inside it.
        let comm = unsafe { core::ptr::addr_of!((*self.as_raw()).comm) }.cast::<c_char>();
        for (i, byte) in buf.iter_mut().enumerate().take(15) {
            // SAFETY: `i < 15 < TASK_COMM_LEN`, inside the array of a valid
            // task; a volatile read of a byte that may change concurrently.
            let b: u8 = unsafe { comm.wrapping_add(i).read_volatile() };
            if b == 0 {
                break;
            }
            *byte = b;
        }
        buf
    }
}

wrapper!(
    /// A `struct linux_binprm` whose new credentials are being prepared:
    /// in `bprm_creds_for_exec` and `bprm_check_security`.
    ///
    /// Not for `bprm_committed_creds`, where the credentials are gone from
    /// the binprm (see [`CommittedBinprm`]).
    Binprm => bindings::linux_binprm
);

impl BinprmView for Binprm {
    #[inline]
    fn cred(&self) -> &Cred {
        // SAFETY: `cred` is set before `bprm_creds_for_exec` and stays
        // owned by the binprm until it is committed, after the hooks that
        // get a `Binprm`.
        unsafe { Cred::from_raw((*self.as_raw()).cred) }
    }

    #[inline]
    fn file(&self) -> &File {
        // SAFETY: `file` is set before any bprm hook runs and pinned by the
        // binprm.
        unsafe { File::from_raw((*self.as_raw()).file) }
    }

    #[inline]
    fn unsafe_flags(&self) -> u32 {
        // SAFETY: the binprm is valid; `unsafe` is set by
        // `check_unsafe_exec()` before the hook and not changed after.
        unsafe { (*self.as_raw()).unsafe_ as u32 }
    }

    #[inline]
    fn nosuid(&self) -> bool {
        // SAFETY: an open file's `f_path.mnt` is pinned by the file.
        let mnt = unsafe { (*self.file().as_raw()).__bindgen_anon_1.f_path.mnt };
        // SAFETY: `mnt_may_suid` reads the pinned mount, its namespace and
        // its superblock's user namespace; it may be called in process
        // context from any hook.
        !unsafe { bindings::mnt_may_suid(mnt) }
    }

    #[inline]
    fn set_secureexec(&self) {
        // SAFETY: the binprm is private to the exec that runs this hook;
        // the bit is one of the `_bitfield_1` bits that bindgen's setter
        // places (the struct's size is cross-checked, `layout_check.c`).
        unsafe { (*self.as_raw()).set_secureexec(1) };
    }

    #[inline]
    fn clear_personality_on_setid(&self) {
        // SAFETY: the binprm is private to the exec that runs this hook;
        // `per_clear` is read when the new personality is set, after it.
        unsafe { (*self.as_raw()).per_clear |= crate::abi::PER_CLEAR_ON_SETID };
    }
}

wrapper!(
    /// A `struct linux_binprm` after its credentials were committed
    /// (`bprm_committed_creds`): only the file.
    ///
    /// `commit_creds()` took `bprm->cred`, which is NULL from then on, so
    /// this view has no `cred()`; the new credentials are the current
    /// task's.
    CommittedBinprm => bindings::linux_binprm
);

impl CommittedBinprmView for CommittedBinprm {
    #[inline]
    fn file(&self) -> &File {
        // SAFETY: `file` stays set and pinned by the binprm until it is
        // freed, after this hook.
        unsafe { File::from_raw((*self.as_raw()).file) }
    }
}
