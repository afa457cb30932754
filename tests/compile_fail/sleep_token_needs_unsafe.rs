// SPDX-License-Identifier: GPL-2.0
// expect: E0133
// expect-message: call to unsafe function
//
// A proof that the caller may sleep is made only in an unsafe block, whose
// SAFETY comment names why the context may sleep.

#[allow(dead_code)]
fn claims_to_sleep() -> crate::context::MaySleep {
    crate::context::MaySleep::new()
}
