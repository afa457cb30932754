// SPDX-License-Identifier: GPL-2.0

//! Where code runs: a proof that it may sleep.
//!
//! Many hooks run where nothing may sleep: under RCU (an RCU-walk path
//! lookup, `task_kill`), under a spinlock (the System V IPC hooks, the
//! `task_*` hooks under `tasklist_lock`), in softirq context (the socket
//! clone hooks) or from RCU callbacks (the free hooks). On the kernels this
//! project builds, `rcu_read_lock()` disables preemption, so a sleep inside
//! an RCU read section can let the grace period end and free what is being
//! read.
//!
//! So every API of the object views that may sleep (an xattr read, taking
//! and dropping a dentry reference, preparing credentials) demands a
//! [`MaySleep`]: safe code cannot call one without it. The hook table
//! hands one, as the first argument `cx`, to each hook with a generic rule
//! whose note does not say "must not sleep" (`hook_table.rs`), and to no
//! other: a method of a hook that must not sleep cannot ask for one (its
//! signature would not match the hook's). Anywhere else it is made with
//! the `unsafe` [`MaySleep::new`], whose `// SAFETY:` comment names why the
//! context may sleep (`inode_permission` without `MAY_NOT_BLOCK`, the
//! process-attribute writes). It is neither `Send` nor `Sync`: it cannot
//! be kept in a static or handed to another context. `tests/compile_fail/`
//! shows each of these refused.
//!
//! The closures run under RCU (`RcuCell::read`, `RcuBox::read`,
//! `Task::with_cred`) must be `Send`, and a reference to the proof is
//! not: they cannot capture their hook's `cx`.
//! The hooks that build a value for a reader (`getprocattr`,
//! `setprocattr`, `inode_getsecurity`, `socket_getpeersec_stream`) get
//! one from their entry points; `AttrValue::push_bytes` demands it.
//!
//! `inode_init_security` gets one too: file systems call it while they
//! create an inode, in process context.
//!
//! What it does not do (yet): `task_prctl` gets none; a closure run with preemption off (`without_preemption`, under
//! mlte's label writers' lock) is not bound; and the securityfs side's
//! allocations (`TextBuf` writes, which a closure under RCU cannot reach
//! since a `TextBuf` is not `Send`;
//! `RcuCell::copy_out`, `replace_with`, `RcuBox::replace`) demand none; the
//! host model's RCU section panics on every sleeping call it models, and
//! the debug test kernel (`CONFIG_DEBUG_ATOMIC_SLEEP`, `CONFIG_PROVE_RCU`)
//! reports one, at run time.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use core::marker::PhantomData;

/// A proof that the code holding it runs where it may sleep: process
/// context, with no spinlock, RCU read lock or other atomic section held,
/// and not in an RCU callback, a softirq or an interrupt.
///
/// Demanded by every sleeping API of the object views. Neither `Send` nor
/// `Sync`, and made only by [`MaySleep::new`].
pub(crate) struct MaySleep {
    _here: PhantomData<*const ()>,
}

impl MaySleep {
    /// A proof that the caller may sleep.
    ///
    /// # Safety
    ///
    /// The caller runs in process context with no spinlock, RCU read lock
    /// or other atomic section held, and not in an RCU callback, softirq
    /// or interrupt: for a hook, one whose note in the hook table does not
    /// say "must not sleep", called where the kernel calls it.
    #[inline(always)]
    pub(crate) const unsafe fn new() -> MaySleep {
        MaySleep { _here: PhantomData }
    }
}
