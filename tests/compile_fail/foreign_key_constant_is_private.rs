// SPDX-License-Identifier: GPL-2.0
// expect: E0603
// expect-message: constant `KEY` is private
//
// Nor can its module's own key constant be named from outside it.

#[allow(dead_code)]
fn foreign_state(cred: &crate::objects::Cred) -> bool {
    use crate::blob::HasBlob;
    cred.state(&crate::capstack::capstack::KEY).is_some()
}
