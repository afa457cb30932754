// SPDX-License-Identifier: GPL-2.0

//! Host build of stacker: the core, the submodules, and a test harness.
//!
//! The kernel compiles the same core files (`layout.rs`, `hook.rs`,
//! `chain.rs`, `blob.rs`, `submodule.rs`, `dispatch.rs`, `stats.rs`) and
//! submodules into its stacker crate (`stacker_main.rs`). Here they are
//! compiled against in-memory objects (`host/objects.rs`) so that
//! `cargo test` runs the real dispatch, layout and submodule code.

// Some core items are only used by the kernel build.
#![allow(dead_code)]

#[path = "../../blob-layout/layout.rs"]
mod layout;

#[path = "../core/access.rs"]
mod access;
#[path = "../core/attribute.rs"]
mod attribute;
#[path = "../core/blob.rs"]
mod blob;
#[path = "../core/chain.rs"]
mod chain;
#[path = "../core/dispatch.rs"]
mod dispatch;
#[path = "../core/hook.rs"]
mod hook;
#[path = "../core/stats.rs"]
mod stats;
#[path = "../core/submodule.rs"]
mod submodule;

mod error;
mod objects;
mod platform;

mod nop;
mod recorder;
#[path = "../../modules/xattrlock/xattrlock.rs"]
mod xattrlock;

#[path = "../../capstack/mod.rs"]
mod capstack;

// denyname is kernel-only (it uses kernel locks); its rule parser is not.
#[path = "../../modules/denyname/name_rule.rs"]
mod name_rule;

/// The single-module direct path: a static branch in the kernel, a boot
/// state check here.
macro_rules! single_branch {
    ($idx:literal, $key:ident) => {{
        // The branch reads the key its name says (`mN` is key N, enabled at
        // boot for the single submodule of index N), as the kernel's does.
        const KEY: usize = $crate::dispatch::key_index(stringify!($key));
        $crate::platform::single(KEY)
    }};
}

/// The compiled-in submodules of the host build.
mod registry {
    use crate::capstack::Capstack;
    use crate::nop::Nop;
    use crate::recorder::Recorder;
    use crate::xattrlock::XattrLock;

    crate::dispatch::define_registry! {
        0 => XATTRLOCK: XattrLock<0> = XattrLock, m0;
        1 => XATTRLOCK_B: XattrLock<1> = XattrLock, m1;
        2 => XATTRLOCK_C: XattrLock<2> = XattrLock, m2;
        3 => REC_A: Recorder<0> = Recorder, m3;
        4 => REC_B: Recorder<1> = Recorder, m4;
        5 => REC_C: Recorder<2> = Recorder, m5;
        6 => REC_D: Recorder<3> = Recorder, m6;
        7 => REC_E: Recorder<4> = Recorder, m7;
        8 => REC_F: Recorder<5> = Recorder, m8;
        9 => REC_G: Recorder<6> = Recorder, m9;
        10 => REC_H: Recorder<7> = Recorder, m10;
        11 => CAPSTACK: Capstack = Capstack, m11;
        12 => NOP_A: Nop<0> = Nop, m12;
        13 => NOP_B: Nop<1> = Nop, m13;
        14 => NOP_C: Nop<2> = Nop, m14;
        15 => NOP_D: Nop<3> = Nop, m15;
        16 => NOP_E: Nop<4> = Nop, m16;
        17 => NOP_F: Nop<5> = Nop, m17;
        18 => NOP_G: Nop<6> = Nop, m18;
        19 => NOP_H: Nop<7> = Nop, m19;
    }
}

mod harness;

/// Dispatch benchmark loops, for the `dispatch-bench` binary.
pub mod bench;

#[cfg(test)]
mod tests;
