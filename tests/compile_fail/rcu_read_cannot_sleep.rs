// SPDX-License-Identifier: GPL-2.0
// expect: E0277
// expect-message: cannot be shared between threads safely
//
// An RCU read closure runs in atomic context: it is Send, so it cannot
// capture the proof that the hook may sleep (`&MaySleep` is not Sync, so
// a reference to it is not Send), and a call that demands the proof
// (every sleeping API of the object views does) does not build inside it.

static VALUE: crate::platform::RcuCell<core::sync::atomic::AtomicU32> =
    crate::platform::RcuCell::new();

/// Stands for a sleeping API: it demands the proof.
fn sleeps(_cx: &crate::context::MaySleep) {}

#[allow(dead_code)]
fn sleep_under_rcu(cx: &crate::context::MaySleep) {
    VALUE.read(|_| sleeps(cx));
}
