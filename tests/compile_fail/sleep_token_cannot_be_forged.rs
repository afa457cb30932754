// SPDX-License-Identifier: GPL-2.0
// expect: E0451
// expect-message: is private
//
// Nor can one be built from its fields outside crate::context.

#[allow(dead_code)]
fn forged() -> crate::context::MaySleep {
    crate::context::MaySleep {
        _here: core::marker::PhantomData,
    }
}
