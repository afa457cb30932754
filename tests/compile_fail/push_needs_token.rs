// SPDX-License-Identifier: GPL-2.0
// expect: E0061
// expect-message: takes 2 arguments but 1 argument was supplied
//
// An allocation for a reader's value may sleep (GFP_KERNEL): it demands
// the proof, which a hook that must not sleep is not given.

use crate::objects::AttrValueView;

#[allow(dead_code)]
fn push_without_proof(out: &mut crate::objects::AttrValue) -> bool {
    out.push_bytes(b"label").is_ok()
}
