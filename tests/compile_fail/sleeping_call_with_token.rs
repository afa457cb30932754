// SPDX-License-Identifier: GPL-2.0
// expect: ok
//
// The control case: where the context may sleep, the proof is made and
// the sleeping call takes it.

use crate::objects::FileView;

#[allow(dead_code)]
fn read_label(file: &crate::objects::File) -> bool {
    // SAFETY: a compile-fail control case; never run. (A hook that may
    // sleep, such as file_open, makes it so.)
    let cx = unsafe { crate::context::MaySleep::new() };
    let mut buf = [0u8; 8];
    file.getxattr(&cx, c"security.mlte", &mut buf).is_ok()
}
