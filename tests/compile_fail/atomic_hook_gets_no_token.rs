// SPDX-License-Identifier: GPL-2.0
// expect: E0050
// expect-message: has 5 parameters but the declaration in trait `Submodule::task_kill` has 4
//
// A hook that runs where nothing may sleep (task_kill, under RCU) is given
// no proof that it may: a method that asks for one does not match the
// hook.

pub(crate) struct Atomic;

crate::submodule::state_key!(AtomicKey for Atomic);

crate::submodule::submodule! {
    impl Submodule for Atomic {
        const NAME: &'static core::ffi::CStr = c"atomic";
        type Key = AtomicKey;
        crate::submodule::blob_states! {}
    }
    hooks {
        fn task_kill(
            &self,
            _cx: &crate::context::MaySleep,
            _target: &crate::objects::Task,
            _sig: i32,
            _cred: Option<&crate::objects::Cred>,
        ) -> crate::error::Result {
            Ok(())
        }
    }
}
