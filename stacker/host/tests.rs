// SPDX-License-Identifier: GPL-2.0

//! Host tests of dispatch: order, short-circuit, defaults, void hooks, the
//! hooks with their own combining rules, the fast path, and blob state.

use crate::error::{EACCES, EINVAL, EOPNOTSUPP, EPERM};
use crate::harness::Harness;
use crate::hook::Hook;
use crate::objects::{AccessMask, Cred, Inode, ProcAttrValue, Task, XattrSlots};
use crate::recorder::{self, Recorder};
use crate::registry;
use crate::stats;

fn boot(chain: &str) -> Harness {
    recorder::reset();
    Harness::boot(chain).expect("chain lays out")
}

fn names(log: &[(&'static str, Hook)]) -> Vec<&'static str> {
    log.iter().map(|(n, _)| *n).collect()
}

#[test]
fn int_hook_runs_in_chain_order_and_stops_at_first_denial() {
    let h = boot("rec_b,rec_a,rec_c");
    let inode = Inode::new(7, false);
    let mask = AccessMask(0);
    assert_eq!(registry::inode_permission(&inode, mask), Ok(()));
    assert_eq!(names(&recorder::take_log()), ["rec_b", "rec_a", "rec_c"]);

    recorder::answer(0, Hook::InodePermission, EACCES); // rec_a
    recorder::answer(2, Hook::InodePermission, EPERM); // rec_c
    assert_eq!(registry::inode_permission(&inode, mask), Err(EACCES));
    // rec_c, after the denial, was not called.
    assert_eq!(names(&recorder::take_log()), ["rec_b", "rec_a"]);

    // The other order: rec_c's denial comes first.
    let _h = boot("rec_c,rec_a,rec_b");
    recorder::answer(0, Hook::InodePermission, EACCES);
    recorder::answer(2, Hook::InodePermission, EPERM);
    assert_eq!(registry::inode_permission(&inode, mask), Err(EPERM));
    assert_eq!(names(&recorder::take_log()), ["rec_c"]);
    drop(h);
}

#[test]
fn void_hook_calls_every_submodule() {
    let _h = boot("rec_a,rec_b,rec_c");
    recorder::answer(0, Hook::CredFree, EACCES); // ignored: void hook
    let cred = Cred::new(0);
    registry::cred_free(&cred);
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b", "rec_c"]);
}

#[test]
fn unknown_and_repeated_names_are_ignored() {
    let h = boot("rec_a,nosuch,rec_a,rec_b");
    assert_eq!(crate::platform::boot().chain.order(), &[3, 4]);
    assert!(h.registered(Hook::FileOpen));
}

#[test]
fn empty_chain_registers_no_hook_and_takes_no_space() {
    let h = boot("");
    for &hook in Hook::ALL {
        assert!(!h.registered(hook), "{hook:?}");
    }
    for kind in crate::layout::ObjectKind::ALL {
        assert_eq!(crate::platform::boot().layout.total(kind), 0);
    }
}

#[test]
fn only_implemented_hooks_are_registered() {
    let h = boot("xattrlock");
    assert!(h.registered(Hook::FileOpen));
    assert!(h.registered(Hook::InodeSetxattr));
    assert!(!h.registered(Hook::Capable));
    assert!(!h.registered(Hook::InodePermission));
    assert!(!h.registered(Hook::CredFree));
}

#[test]
fn fast_path_and_loop_agree() {
    for fast in [true, false] {
        recorder::reset();
        let _h = Harness::boot_with("rec_d", fast).unwrap();
        assert_eq!(crate::platform::boot().single(), fast.then_some(6));
        let cred = Cred::new(0);
        assert_eq!(registry::capable(&cred, 21, 0), Ok(()));
        recorder::answer(3, Hook::Capable, EPERM);
        assert_eq!(registry::capable(&cred, 21, 0), Err(EPERM));
        assert_eq!(names(&recorder::take_log()), ["rec_d", "rec_d"]);
    }
}

#[test]
fn getprocattr_skips_einval_and_setprocattr_routes_by_name() {
    let _h = boot("rec_a,rec_b");
    let task = Task::new(1);
    let mut out = ProcAttrValue::default();
    recorder::answer(0, Hook::Getprocattr, EINVAL); // "not mine"
    assert_eq!(registry::getprocattr(&task, b"current", &mut out), Ok(()));
    assert_eq!(out.0, b"rec_b");

    // Routed: only rec_b sees the write.
    recorder::take_log();
    assert_eq!(registry::setprocattr(b"current", b"rec_b:xyz"), Ok(9));
    assert_eq!(names(&recorder::take_log()), ["rec_b"]);
    // Not routed: first non-EINVAL answer wins.
    assert_eq!(registry::setprocattr(b"current", b"plain"), Ok(5));
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    // Nobody takes it: the LSM default.
    recorder::answer(0, Hook::Setprocattr, EINVAL);
    recorder::answer(1, Hook::Setprocattr, EINVAL);
    assert_eq!(registry::setprocattr(b"current", b"x"), Err(EINVAL));
}

#[test]
fn inode_init_security_fills_slots_and_defaults_to_eopnotsupp() {
    let _h = boot("rec_a,rec_b");
    let (dir, inode) = (Inode::new(1, true), Inode::new(2, false));
    let mut slots = XattrSlots {
        filled: Vec::new(),
        limit: 2,
    };
    assert_eq!(
        registry::inode_init_security(&inode, &dir, b"f", &mut slots),
        Ok(())
    );
    let got: Vec<_> = slots.filled.iter().map(|x| x.name.to_bytes()).collect();
    assert_eq!(got, [&b"rec_a"[..], b"rec_b"]);

    recorder::answer(0, Hook::InodeInitSecurity, EOPNOTSUPP);
    recorder::answer(1, Hook::InodeInitSecurity, EOPNOTSUPP);
    let mut slots = XattrSlots {
        filled: Vec::new(),
        limit: 2,
    };
    // EOPNOTSUPP from every submodule is "nothing to add": the default.
    assert_eq!(
        registry::inode_init_security(&inode, &dir, b"f", &mut slots),
        Err(EOPNOTSUPP)
    );
    recorder::answer(0, Hook::InodeInitSecurity, EACCES);
    assert_eq!(
        registry::inode_init_security(&inode, &dir, b"f", &mut slots),
        Err(EACCES)
    );
}

#[test]
fn vm_enough_memory_needs_every_submodule() {
    let _h = boot("rec_a,rec_b,rec_c");
    assert!(registry::vm_enough_memory(1));
    recorder::take_log();
    recorder::answer(1, Hook::VmEnoughMemory, EPERM);
    assert!(!registry::vm_enough_memory(1));
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b"]);
}

#[test]
fn each_submodule_state_is_its_own() {
    let h = boot("rec_a,rec_b,rec_c");
    let inode = h.new_inode(false).unwrap();
    assert!(Recorder::<0>::tag_inode(&inode, 0xaaaa));
    assert!(Recorder::<1>::tag_inode(&inode, 0xbbbb));
    assert!(Recorder::<2>::tag_inode(&inode, u64::MAX));
    assert_eq!(Recorder::<0>::inode_tag(&inode), Some(0xaaaa));
    assert_eq!(Recorder::<1>::inode_tag(&inode), Some(0xbbbb));
    assert_eq!(Recorder::<2>::inode_tag(&inode), Some(u64::MAX));
    // A submodule that is not in the chain has no slot.
    assert_eq!(Recorder::<3>::inode_tag(&inode), None);

    let parent = h.cred(0, None).unwrap();
    assert!(Recorder::<1>::tag_cred(&parent, 42));
    let child = h.cred(1000, Some(&parent)).unwrap();
    assert_eq!(Recorder::<1>::cred_tag(&child), Some(42));
    assert_eq!(Recorder::<0>::cred_tag(&child), Some(0));
}

#[test]
fn statistics_count_calls_and_denials() {
    let _h = boot("rec_e");
    let cred = Cred::new(0);
    let before = stats::get(7, Hook::Capable);
    recorder::answer(4, Hook::Capable, EPERM);
    let _ = registry::capable(&cred, 1, 0);
    let after = stats::get(7, Hook::Capable);
    assert!(after.0 > before.0 && after.1 > before.1);
}

#[test]
fn securityfs_gets_a_directory_per_enabled_submodule() {
    let _h = boot("rec_b,xattrlock");
    assert_eq!(
        crate::platform::dirs(),
        ["stacker/rec_b", "stacker/xattrlock"]
    );
}
