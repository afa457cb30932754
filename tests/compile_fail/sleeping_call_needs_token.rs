// SPDX-License-Identifier: GPL-2.0
// expect: E0061
// expect-message: takes 3 arguments but 2 arguments were supplied
//
// An xattr read may sleep: without a proof that the caller may, it does
// not build (an RCU-walk inode_permission, a softirq socket hook and the
// free hooks have none to give).

use crate::objects::FileView;

#[allow(dead_code)]
fn read_label(file: &crate::objects::File) -> bool {
    let mut buf = [0u8; 8];
    file.getxattr(c"security.mlte", &mut buf).is_ok()
}
