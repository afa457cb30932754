// SPDX-License-Identifier: GPL-2.0
// expect: ok
//
// The control case: a hook that may sleep (file_open) is given the proof by
// the hook table, and passes it to the sleeping call, with no unsafe.

use crate::objects::FileView;

pub(crate) struct Reader;

crate::submodule::state_key!(ReaderKey for Reader);

crate::submodule::submodule! {
    impl Submodule for Reader {
        const NAME: &'static core::ffi::CStr = c"reader";
        type Key = ReaderKey;
        crate::submodule::blob_states! {}
    }
    hooks {
        fn file_open(
            &self,
            cx: &crate::context::MaySleep,
            file: &crate::objects::File,
        ) -> crate::error::Result {
            let mut buf = [0u8; 8];
            file.getxattr(cx, c"security.reader", &mut buf).map(|_| ())
        }
    }
}
