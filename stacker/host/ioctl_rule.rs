// SPDX-License-Identifier: GPL-2.0

//! `ioctl_rule`: a host-only test submodule that implements `file_ioctl`
//! and nothing else, denying [`crate::abi::FS_IOC_GETFLAGS`]; for the tests
//! that 32-bit ioctls (`file_ioctl_compat`) reach such a submodule.

use crate::context::MaySleep;
use crate::error::{Result, EACCES};
use crate::objects::File;
use std::ffi::CStr;

/// The test submodule.
pub(crate) struct IoctlRule;

crate::submodule::state_key!(IoctlRuleKey for IoctlRule);

crate::submodule::submodule! {
    impl Submodule for IoctlRule {
        const NAME: &'static CStr = c"ioctl_rule";
        type Key = IoctlRuleKey;
        crate::submodule::blob_states! {}
    }
    hooks {
        fn file_ioctl(&self, _cx: &MaySleep, _file: &File, cmd: u32, _arg: u64) -> Result {
            if cmd == crate::abi::FS_IOC_GETFLAGS {
                Err(EACCES)
            } else {
                Ok(())
            }
        }
    }
}
