// SPDX-License-Identifier: GPL-2.0
// expect: ok
//
// The control case: a submodule's own code reaches its own blob state with
// the key its module made (state_key!). If this stops building, the cases
// beside it fail for the wrong reason.

pub(crate) struct Own<const I: usize>;

crate::submodule::state_key!(OwnKey<const I: usize> for Own<I>);

crate::submodule::submodule! {
    impl [const I: usize] Submodule for Own<I> {
        const NAME: &'static core::ffi::CStr = c"own";
        type Key = OwnKey<I>;
        crate::submodule::blob_states! { cred: core::sync::atomic::AtomicU32 }
    }
    hooks {}
}

#[allow(dead_code)]
fn own_state<const I: usize>(cred: &crate::objects::Cred) -> Option<u32>
where
    Own<I>: crate::submodule::Registered,
{
    use crate::blob::HasBlob;
    cred.state(&key::<I>())
        .map(|s| s.load(core::sync::atomic::Ordering::Relaxed))
}
