// SPDX-License-Identifier: GPL-2.0
// expect: error
// expect-message: blob_states!: no object kind `inodes`
//
// A misspelt object kind in blob_states! does not build: it would
// otherwise leave the state the submodule meant to keep as `()`.

pub(crate) struct Typo;

crate::submodule::state_key!(TypoKey for Typo);

crate::submodule::submodule! {
    impl Submodule for Typo {
        const NAME: &'static core::ffi::CStr = c"typo";
        type Key = TypoKey;
        crate::submodule::blob_states! { inodes: core::sync::atomic::AtomicU32 }
    }
    hooks {}
}
