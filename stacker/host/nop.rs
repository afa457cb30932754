// SPDX-License-Identifier: GPL-2.0

//! `nop_*`: host-only submodules that allow everything and do nothing
//! else, for measuring what dispatch itself costs (`host/bench.rs`).

use crate::context::MaySleep;
use crate::error::Result;
use crate::objects::{Cred, File};
use crate::submodule::Registered;
use std::ffi::CStr;

/// No-op instance `I`.
pub(crate) struct Nop<const I: usize>;

crate::submodule::state_key!(NopKey<const I: usize> for Nop<I>);

const NAMES: [&CStr; 8] = [
    c"nop_a", c"nop_b", c"nop_c", c"nop_d", c"nop_e", c"nop_f", c"nop_g", c"nop_h",
];

crate::submodule::submodule! {
    impl [const I: usize] Submodule for Nop<I> where [Self: Registered] {
        const NAME: &'static CStr = NAMES[I];
        type Key = NopKey<I>;
        crate::submodule::blob_states! {}
    }
    hooks {
        #[inline(never)]
        fn capable(&self, _cred: &Cred, _initial_ns: bool, _cap: i32, _opts: u32) -> Result {
            Ok(())
        }

        #[inline(never)]
        fn file_open(&self, _cx: &MaySleep, _file: &File) -> Result {
            Ok(())
        }
    }
}
