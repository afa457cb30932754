// SPDX-License-Identifier: GPL-2.0
// expect: ok
//
// The control case: a read closure may borrow values, and the allocation
// comes after the read, with the proof.

use crate::objects::AttrValueView;

static VALUE: crate::platform::RcuCell<core::sync::atomic::AtomicU32> =
    crate::platform::RcuCell::new();

#[allow(dead_code)]
fn push_after_rcu(cx: &crate::context::MaySleep, out: &mut crate::objects::AttrValue) -> bool {
    let limit = 7;
    let small = VALUE.read(|v| v.map(|v| v.load(core::sync::atomic::Ordering::Relaxed) < limit));
    small.is_some() && out.push_bytes(cx, b"label").is_ok()
}
