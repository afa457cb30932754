// SPDX-License-Identifier: GPL-2.0

//! Per-submodule, per-hook call and denial counters.
//!
//! Built in with `CONFIG_SECURITY_STACKER_STATS` (and always in host
//! tests); otherwise [`count`] is an empty inline function and costs
//! nothing. Benchmark kernels leave the option off.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::hook::Hook;

/// Whether the counters are built in. Kernel-only.
#[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
pub(crate) const ENABLED: bool = cfg!(any(test, CONFIG_SECURITY_STACKER_STATS));

#[cfg(any(test, CONFIG_SECURITY_STACKER_STATS))]
mod counters {
    use crate::hook::N_HOOKS;
    use crate::layout::MAX_MODULES;
    use core::sync::atomic::AtomicU64;

    type Table = [[AtomicU64; N_HOOKS]; MAX_MODULES];

    /// Calls, by submodule index and hook.
    pub(super) static CALLS: Table =
        [const { [const { AtomicU64::new(0) }; N_HOOKS] }; MAX_MODULES];
    /// Denials, by submodule index and hook.
    pub(super) static DENIALS: Table =
        [const { [const { AtomicU64::new(0) }; N_HOOKS] }; MAX_MODULES];
}

/// Counts one call of `hook` in submodule `module`.
#[inline(always)]
pub(crate) fn count(module: usize, hook: Hook, denied: bool) {
    #[cfg(any(test, CONFIG_SECURITY_STACKER_STATS))]
    {
        use core::sync::atomic::Ordering::Relaxed;
        if let Some(row) = counters::CALLS.get(module) {
            row[hook as usize].fetch_add(1, Relaxed);
        }
        if denied {
            if let Some(row) = counters::DENIALS.get(module) {
                row[hook as usize].fetch_add(1, Relaxed);
            }
        }
    }
    #[cfg(not(any(test, CONFIG_SECURITY_STACKER_STATS)))]
    let _ = (module, hook, denied);
}

/// `(calls, denials)` of `hook` in submodule `module` so far.
pub(crate) fn get(module: usize, hook: Hook) -> (u64, u64) {
    #[cfg(any(test, CONFIG_SECURITY_STACKER_STATS))]
    {
        use core::sync::atomic::Ordering::Relaxed;
        match (counters::CALLS.get(module), counters::DENIALS.get(module)) {
            (Some(c), Some(d)) => (
                c[hook as usize].load(Relaxed),
                d[hook as usize].load(Relaxed),
            ),
            _ => (0, 0),
        }
    }
    #[cfg(not(any(test, CONFIG_SECURITY_STACKER_STATS)))]
    {
        let _ = (module, hook);
        (0, 0)
    }
}
