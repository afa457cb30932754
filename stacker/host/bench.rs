// SPDX-License-Identifier: GPL-2.0

//! Loops for measuring dispatch cost with callgrind (`dispatch-bench`).
//!
//! Each loop calls the `capable` hook `iters` times, either through the
//! chain's dispatch function or straight into one submodule's method (the
//! baseline), and is `#[inline(never)]` so that callgrind can count its
//! instructions alone (`--toggle-collect`).

use crate::harness::Harness;
use crate::objects::Cred;
use crate::submodule::Submodule;
use std::hint::black_box;

/// Boots `chain` (fast path on or off). Panics on a bad chain: this is a
/// benchmark driver, not a hook.
pub fn boot(chain: &str, fast_path: bool) {
    Harness::boot_with(chain, fast_path).expect("benchmark chain lays out");
}

/// Calls `capable` through the booted chain `iters` times.
#[inline(never)]
pub fn chain_loop(iters: u64) -> u64 {
    let cred = Cred::new(0);
    let mut denied = 0;
    for _ in 0..iters {
        denied += u64::from(crate::registry::capable(black_box(&cred), black_box(21), 0).is_err());
    }
    denied
}

/// Calls one no-op submodule's `capable` directly `iters` times.
#[inline(never)]
pub fn direct_loop(iters: u64) -> u64 {
    let cred = Cred::new(0);
    let module = black_box(&crate::nop::Nop::<0>);
    let mut denied = 0;
    for _ in 0..iters {
        denied += u64::from(module.capable(black_box(&cred), black_box(21), 0).is_err());
    }
    denied
}
