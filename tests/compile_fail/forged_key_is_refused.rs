// SPDX-License-Identifier: GPL-2.0
// expect: E0271
// expect-message: type mismatch resolving
//
// A key of one's own that names another submodule as its owner is refused:
// `state` demands that the owner's `Key` is that very type.

struct Forged;

impl crate::blob::StateKey for Forged {
    type Owner = crate::capstack::Capstack;
}

#[allow(dead_code)]
fn forged_state(cred: &crate::objects::Cred) -> bool {
    use crate::blob::HasBlob;
    cred.state(&Forged).is_some()
}
