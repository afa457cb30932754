// SPDX-License-Identifier: GPL-2.0
// expect: E0277
// expect-message: cannot be sent between threads safely
//
// Formatting into a securityfs file's buffer allocates (GFP_KERNEL), so it
// may sleep: a `TextBuf` is not Send, and an RCU read closure (Send) cannot
// capture one. A file formats what the closure returns, after it.

static VALUE: crate::platform::RcuCell<core::sync::atomic::AtomicU32> =
    crate::platform::RcuCell::new();

#[allow(dead_code)]
fn format_under_rcu(out: &mut crate::platform::TextBuf) -> bool {
    VALUE.read(|_| out.push_bytes(b"value").is_ok())
}
