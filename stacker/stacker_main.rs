// SPDX-License-Identifier: GPL-2.0

//! stacker: a stacking multiplexer Linux Security Module.
//!
//! stacker registers with the LSM core as one LSM (see `lsm.c`) and runs a
//! chain of submodules behind it. This is the crate root: it holds the
//! `extern "C"` entry points that the C glue and the LSM core call, and
//! pulls in the rest of the crate, including the submodules under
//! `modules/`, which are compiled into this same crate.
//!
//! C header: [`security/stacker/stacker/stacker.h`](srctree/security/stacker/stacker/stacker.h)

use kernel::{bindings, ffi::c_int, prelude::*};

/// Prefix of every log line (`pr_*!`), normally provided by `module!`.
const __LOG_PREFIX: &[u8] = b"stacker\0";

mod chain;
mod objects;
mod securityfs;
mod submodule;

#[path = "../modules/denyname/denyname.rs"]
mod denyname;

use objects::{AccessMask, File, Inode};
use securityfs::{Attribute, Dir, TextBuf};

/// Turns a hook's `Result` into the `int` the LSM core expects.
#[inline(always)]
fn to_hook_ret(result: Result) -> c_int {
    match result {
        Ok(()) => 0,
        Err(err) => err.to_errno(),
    }
}

/// Initialises the chain; called once by `stacker_init()` in `lsm.c`.
#[no_mangle]
pub extern "C" fn stacker_rs_init() -> c_int {
    if let Err(err) = chain::init() {
        pr_err!("chain init failed: {:?}\n", err);
        return err.to_errno();
    }
    pr_info!("initialized, chain: {}\n", ChainNames);
    0
}

/// Creates `/sys/kernel/security/stacker/`; called at `fs_initcall` time.
#[no_mangle]
pub extern "C" fn stacker_rs_securityfs_init() -> c_int {
    let result = (|| -> Result {
        let dir = Dir::root().create_dir(c"stacker")?;
        dir.create_file::<ChainFile>(c"chain")?;
        chain::securityfs_init(&dir)
    })();
    if let Err(err) = result {
        pr_err!("securityfs setup failed: {:?}\n", err);
    }
    to_hook_ret(result)
}

/// `file_open` LSM hook.
///
/// # Safety
///
/// Called by the LSM core with a valid, opened `file`.
#[no_mangle]
pub unsafe extern "C" fn stacker_file_open(file: *mut bindings::file) -> c_int {
    // SAFETY: the LSM core passes a valid file with `f_path` set, which
    // stays valid for the whole hook call.
    let file = unsafe { File::from_raw(file) };
    to_hook_ret(chain::file_open(file))
}

/// `inode_permission` LSM hook.
///
/// # Safety
///
/// Called by the LSM core with a valid `inode`.
#[no_mangle]
pub unsafe extern "C" fn stacker_inode_permission(
    inode: *mut bindings::inode,
    mask: c_int,
) -> c_int {
    // SAFETY: the LSM core passes a valid inode, which stays valid for the
    // whole hook call.
    let inode = unsafe { Inode::from_raw(inode) };
    to_hook_ret(chain::inode_permission(inode, AccessMask::from_raw(mask)))
}

/// The chain's names, comma separated, for the boot log.
struct ChainNames;

impl kernel::fmt::Display for ChainNames {
    fn fmt(&self, f: &mut kernel::fmt::Formatter<'_>) -> kernel::fmt::Result {
        for (i, name) in chain::NAMES.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{}", name.to_str().unwrap_or("?"))?;
        }
        Ok(())
    }
}

/// `/sys/kernel/security/stacker/chain`: one submodule name per line.
struct ChainFile;

impl Attribute for ChainFile {
    fn show(out: &mut TextBuf) -> Result {
        for name in chain::NAMES {
            out.push_bytes(name.to_bytes())?;
            out.push_bytes(b"\n")?;
        }
        Ok(())
    }
}

#[cfg(CONFIG_SECURITY_STACKER_KUNIT_TEST)]
#[kunit_tests(stacker)]
mod tests {
    use super::*;

    #[test]
    fn chain_lists_denyname() {
        assert_eq!(chain::NAMES.len(), 1);
        assert_eq!(chain::NAMES[0].to_bytes(), b"denyname");
    }

    #[test]
    fn denyname_rule_decides_file_open() {
        use crate::denyname::{name_rule::NameRule, DenyName};
        use crate::submodule::Submodule;
        // The rule is observable through the lock without a file.
        if let Ok(rule) = NameRule::parse(b"kunit-secret") {
            DenyName::set_rule(rule);
        }
        assert!(DenyName::denies(b"kunit-secret"));
        assert!(!DenyName::denies(b"kunit-other"));
        DenyName::set_rule(NameRule::none());
        assert!(!DenyName::denies(b"kunit-secret"));
        assert_eq!(DenyName::NAME.to_bytes(), b"denyname");
    }
}
