// SPDX-License-Identifier: GPL-2.0
// expect: E0603
// expect-message: tuple struct constructor `CapstackKey` is private
//
// Another submodule's key cannot be made outside its module: capstack's
// credential state is out of reach of any other code.

#[allow(dead_code)]
fn foreign_state(cred: &crate::objects::Cred) -> bool {
    use crate::blob::HasBlob;
    cred.state(&crate::capstack::capstack::CapstackKey(()))
        .is_some()
}
