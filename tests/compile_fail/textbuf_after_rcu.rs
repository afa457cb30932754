// SPDX-License-Identifier: GPL-2.0
// expect: ok
//
// The control of textbuf_stays_out_of_rcu.rs: the closure returns the
// value, and the file formats it after the read-side section.

static VALUE: crate::platform::RcuCell<core::sync::atomic::AtomicU32> =
    crate::platform::RcuCell::new();

#[allow(dead_code)]
fn format_after_rcu(out: &mut crate::platform::TextBuf) -> bool {
    let value = VALUE.read(|v| v.map_or(0, |v| v.load(core::sync::atomic::Ordering::Relaxed)));
    out.format(|out| core::fmt::Write::write_fmt(out, format_args!("{value}")))
        .is_ok()
}
