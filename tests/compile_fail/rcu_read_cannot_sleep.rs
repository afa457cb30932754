// SPDX-License-Identifier: GPL-2.0
// expect: E0277
// expect-message: cannot be shared between threads safely
//
// An RCU read closure runs in atomic context: it is Send, so it cannot
// capture the proof that the hook may sleep (`&MaySleep` is not Sync, so
// a reference to it is not Send), and a call that demands the proof (every
// sleeping API does: here an allocation, `AttrValue::push_bytes`) does not
// build inside it.

use crate::objects::AttrValueView;

static VALUE: crate::platform::RcuCell<core::sync::atomic::AtomicU32> =
    crate::platform::RcuCell::new();

#[allow(dead_code)]
fn push_under_rcu(cx: &crate::context::MaySleep, out: &mut crate::objects::AttrValue) -> bool {
    VALUE.read(|_| out.push_bytes(cx, b"label").is_ok())
}
