// SPDX-License-Identifier: GPL-2.0
// expect: E0277
// expect-message: cannot be sent between threads safely
//
// A proof made in one context cannot be handed to another (a work item, a
// thread, a static): it is not Send.

fn elsewhere<T: Send>(_: T) {}

#[allow(dead_code)]
fn hand_over() {
    // SAFETY: a compile-fail case; never run.
    elsewhere(unsafe { crate::context::MaySleep::new() });
}
