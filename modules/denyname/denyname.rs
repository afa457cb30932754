// SPDX-License-Identifier: GPL-2.0

//! `denyname`: a submodule that proves dispatch end to end.
//!
//! An administrator writes one file name to
//! `/sys/kernel/security/stacker/denyname/name`. From then on:
//!
//! - `file_open` of any file with that name fails with `EACCES`;
//! - `inode_permission` denies search (`MAY_EXEC`) of any directory with
//!   that name with `EACCES`, so nothing below it can be reached.
//!
//! Writing an empty line clears the rule. A bad name is refused with
//! `EINVAL` and a log line, and the previous rule stays in force.

use crate::attribute::Attribute;
use crate::context::MaySleep;
use crate::objects::{AccessMask, DentryView, File, FileView, Inode, InodeView};
use crate::platform::{Dir, TextBuf};
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::{prelude::*, sync::global_lock};

// Shared with the host crate, where these items are its public API.
#[allow(unreachable_pub)]
#[path = "name_rule.rs"]
pub(crate) mod name_rule;
use name_rule::NameRule;

global_lock! {
    // SAFETY: initialised in `DenyName::init`, before any hook is registered.
    unsafe(uninit) static RULE: SpinLock<NameRule> = NameRule::none();
}

/// Whether a rule is set: lets the hooks skip the lock when none is.
static RULE_SET: AtomicBool = AtomicBool::new(false);

/// The `denyname` submodule.
pub(crate) struct DenyName;

crate::submodule::state_key!(DenyNameKey for DenyName);

impl DenyName {
    /// Whether `name` is the denied name.
    pub(crate) fn denies(name: &[u8]) -> bool {
        RULE.lock().matches(name)
    }

    /// Replaces the rule.
    pub(crate) fn set_rule(rule: NameRule) {
        let mut guard = RULE.lock();
        *guard = rule;
        RULE_SET.store(rule.is_set(), Ordering::Release);
    }
}

crate::submodule::submodule! {
    impl Submodule for DenyName {
        const NAME: &'static CStr = c"denyname";

        type Key = DenyNameKey;
        crate::submodule::blob_states! {}

        fn init(&'static self) -> Result {
            // SAFETY: called exactly once, from stacker's LSM init.
            unsafe { RULE.init() };
            Ok(())
        }

        fn securityfs_init(&'static self, dir: &Dir) -> Result {
            dir.create_file::<RuleFile>(c"name")
        }
    }
    hooks {
        fn file_open(&self, _cx: &MaySleep, file: &File) -> Result {
            if !RULE_SET.load(Ordering::Acquire) {
                return Ok(());
            }
            if file.dentry().with_name(Self::denies) {
                return Err(EACCES);
            }
            Ok(())
        }

        fn inode_permission(&self, inode: &Inode, mask: AccessMask) -> Result {
            if !mask.exec() || !inode.is_dir() || !RULE_SET.load(Ordering::Acquire) {
                return Ok(());
            }
            if mask.non_blocking() {
                // Looking up the name may sleep: ask for ref-walk.
                return Err(ECHILD);
            }
            // SAFETY: without `MAY_NOT_BLOCK`, `inode_permission` runs in a
            // ref-walk lookup or a system call: process context, no
            // spinlock or RCU read lock held.
            let cx = unsafe { MaySleep::new() };
            if inode.with_alias_name(&cx, Self::denies) == Some(true) {
                return Err(EACCES);
            }
            Ok(())
        }
    }
}

/// `/sys/kernel/security/stacker/denyname/name`.
struct RuleFile;

impl Attribute for RuleFile {
    const WRITABLE: bool = true;

    fn show(out: &mut TextBuf) -> Result {
        let rule = *RULE.lock();
        if rule.is_set() {
            out.push_bytes(rule.as_bytes())?;
            out.push_bytes(b"\n")?;
        }
        Ok(())
    }

    fn store(input: &[u8]) -> Result {
        match NameRule::parse(input) {
            Ok(rule) => {
                DenyName::set_rule(rule);
                Ok(())
            }
            Err(err) => {
                pr_warn!(
                    "denyname/name: rejected: {}; rule unchanged\n",
                    err.reason()
                );
                Err(EINVAL)
            }
        }
    }
}

#[cfg(CONFIG_SECURITY_STACKER_KUNIT_TEST)]
#[kunit_tests(stacker_denyname)]
mod tests {
    use super::name_rule::{NameRule, NameRuleError, NAME_MAX};

    #[test]
    fn parse_rejects_bad_names_with_the_exact_error() {
        let long = [b'a'; NAME_MAX + 1];
        assert_eq!(NameRule::parse(&long), Err(NameRuleError::TooLong));
        assert_eq!(NameRule::parse(b"a/b"), Err(NameRuleError::HasSlash));
        assert_eq!(NameRule::parse(b"a\0b"), Err(NameRuleError::HasControl));
        assert_eq!(NameRule::parse(b"..\n"), Err(NameRuleError::Dot));
    }

    #[test]
    fn parse_accepts_and_matches_one_name() {
        let rule = NameRule::parse(b"secret\n");
        assert!(rule.is_ok());
        if let Ok(rule) = rule {
            assert!(rule.matches(b"secret"));
            assert!(!rule.matches(b"secret2"));
        }
        assert_eq!(NameRule::parse(b"\n"), Ok(NameRule::none()));
    }
}
