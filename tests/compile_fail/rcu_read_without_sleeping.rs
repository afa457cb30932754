// SPDX-License-Identifier: GPL-2.0
// expect: ok
//
// The control case: a read closure may borrow values, and the call that
// may sleep comes after the read, with the proof.

static VALUE: crate::platform::RcuCell<core::sync::atomic::AtomicU32> =
    crate::platform::RcuCell::new();

/// Stands for a sleeping API: it demands the proof.
fn sleeps(_cx: &crate::context::MaySleep) {}

#[allow(dead_code)]
fn sleep_after_rcu(cx: &crate::context::MaySleep, name: &[u8]) -> bool {
    let limit = 7;
    let seen = VALUE.read(|v| {
        v.map(|v| v.load(core::sync::atomic::Ordering::Relaxed) < limit && !name.is_empty())
    });
    sleeps(cx);
    seen.is_some()
}
