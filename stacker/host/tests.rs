// SPDX-License-Identifier: GPL-2.0

//! Host tests of dispatch: order, short-circuit, defaults, void hooks, the
//! hooks with their own combining rules, the dispatch tiers, and blob state.

use crate::error::{EACCES, EFAULT, EINVAL, ENOMEM, ENOPROTOOPT, ENOSYS, EOPNOTSUPP, EPERM};
use crate::harness::Harness;
use crate::hook::Hook;
use crate::objects::{
    set_later_lsms, take_forwarded, AccessMask, AttrValue, Cred, Inode, LaterLsm, ProcAttrWrite,
    SecCtx, Secid, Socket, Task, XattrSlots,
};
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
    assert_eq!(
        crate::dispatch::inode_permission::<crate::dispatch::Loop>(&inode, mask),
        Ok(())
    );
    assert_eq!(names(&recorder::take_log()), ["rec_b", "rec_a", "rec_c"]);

    recorder::answer(0, Hook::inode_permission, EACCES); // rec_a
    recorder::answer(2, Hook::inode_permission, EPERM); // rec_c
    assert_eq!(
        crate::dispatch::inode_permission::<crate::dispatch::Loop>(&inode, mask),
        Err(EACCES)
    );
    // rec_c, after the denial, was not called.
    assert_eq!(names(&recorder::take_log()), ["rec_b", "rec_a"]);

    // The other order: rec_c's denial comes first.
    let _h = boot("rec_c,rec_a,rec_b");
    recorder::answer(0, Hook::inode_permission, EACCES);
    recorder::answer(2, Hook::inode_permission, EPERM);
    assert_eq!(
        crate::dispatch::inode_permission::<crate::dispatch::Loop>(&inode, mask),
        Err(EPERM)
    );
    assert_eq!(names(&recorder::take_log()), ["rec_c"]);
    drop(h);
}

#[test]
fn void_hook_calls_every_submodule() {
    let _h = boot("rec_a,rec_b,rec_c");
    recorder::answer(0, Hook::cred_free, EACCES); // ignored: void hook
    let cred = Cred::new(0);
    crate::dispatch::cred_free::<crate::dispatch::Loop>(&cred);
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b", "rec_c"]);
}

#[test]
fn unknown_and_repeated_names_are_ignored() {
    let h = boot("rec_a,nosuch,rec_a,rec_b");
    assert_eq!(crate::platform::boot().chain.order(), &[3, 4]);
    assert!(h.registered(Hook::file_open));
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
    assert!(h.registered(Hook::file_open));
    assert!(h.registered(Hook::inode_post_setxattr));
    assert!(!h.registered(Hook::inode_setxattr));
    assert!(!h.registered(Hook::capable));
    assert!(!h.registered(Hook::inode_permission));
    assert!(!h.registered(Hook::cred_free));
}

/// The three dispatch tiers agree: a recorder alone as its own entry
/// points (`Then<Rec, End>`) and through the loop; three recorders as a
/// straight-line chain (`straight_chain!`, padded with `Absent`) and
/// through the loop. Each tier reaches exactly the submodules of its chain,
/// in order, and stops at the first denial.
#[test]
fn dispatch_tiers_agree() {
    use crate::dispatch::{capable, vm_enough_memory, End, Loop, Then, Tier, NOWHERE};

    fn run<T: Tier>(instance: usize) -> Vec<&'static str> {
        let cred = Cred::new(0);
        assert_eq!(capable::<T>(&cred, true, 21, 0), Ok(()));
        recorder::answer(instance, Hook::capable, EPERM);
        recorder::answer(instance, Hook::vm_enough_memory, EPERM);
        assert_eq!(capable::<T>(&cred, true, 21, 0), Err(EPERM));
        assert!(!vm_enough_memory::<T>(&cred, 1));
        names(&recorder::take_log())
    }

    macro_rules! single {
        ($($i:literal),*) => {$(
            let name = ["rec_a", "rec_b", "rec_c", "rec_d", "rec_e", "rec_f", "rec_g", "rec_h"][$i];
            boot(name);
            assert_eq!(run::<Then<Recorder<$i>, End>>($i), [name; 3], "single {name}");
            boot(name);
            assert_eq!(run::<Loop>($i), [name; 3], "loop {name}");
        )*};
    }
    single!(0, 1, 2, 3, 4, 5, 6, 7);

    // rec_c, rec_a, rec_b: indices from the registry, as the kernel's
    // default chain is.
    const ORDER: [usize; crate::dispatch::STRAIGHT_MAX] = {
        let spec = crate::chain::ChainSpec::parse(b"rec_c,rec_a,rec_b", registry::NAMES);
        crate::dispatch::straight_order(&spec)
    };
    const _: () = assert!(ORDER[3] == NOWHERE);
    type Straight = crate::dispatch::straight_chain!(ORDER);
    let expected = [
        "rec_c", "rec_a", "rec_b", "rec_c", "rec_a", "rec_b", "rec_c", "rec_a", "rec_b",
    ];
    boot("rec_c,rec_a,rec_b");
    // rec_b (instance 1) denies last: every submodule runs each time.
    assert_eq!(run::<Straight>(1), expected);
    boot("rec_c,rec_a,rec_b");
    assert_eq!(run::<Loop>(1), expected);
    // rec_c (instance 2) denies first: the others are not asked.
    boot("rec_c,rec_a,rec_b");
    assert_eq!(
        run::<Straight>(2),
        ["rec_c", "rec_a", "rec_b", "rec_c", "rec_c"]
    );
}

#[test]
fn getprocattr_skips_einval_and_setprocattr_routes_by_name() {
    let _h = boot("rec_a,rec_b");
    let task = Task::new(1);
    let mut out = AttrValue::default();
    recorder::answer(0, Hook::getprocattr, EINVAL); // "not mine"
    assert_eq!(
        crate::dispatch::getprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            c"current",
            &mut out
        ),
        Ok(())
    );
    assert_eq!(out.0, b"rec_b");

    // Routed: only rec_b sees the write.
    recorder::take_log();
    let write = |value: &'static [u8]| ProcAttrWrite::new(c"current", value);
    assert_eq!(
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            write(b"rec_b:xyz")
        ),
        Ok(9)
    );
    assert_eq!(names(&recorder::take_log()), ["rec_b"]);
    // Not routed: first non-EINVAL answer wins.
    assert_eq!(
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            write(b"plain")
        ),
        Ok(5)
    );
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    // Nobody takes it, and there is no LSM after stacker: the LSM default.
    recorder::answer(0, Hook::setprocattr, EINVAL);
    recorder::answer(1, Hook::setprocattr, EINVAL);
    set_later_lsms(Vec::new());
    assert_eq!(
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(&crate::harness::cx(), write(b"x")),
        Err(EINVAL)
    );
}

/// The LSMs after stacker, as the LSM core orders them: one without the
/// procattr hooks (it answers `EINVAL`), then two that answer.
fn later_lsms() -> Vec<LaterLsm> {
    vec![
        LaterLsm {
            name: "landlock",
            get: Err(EINVAL),
            set: Err(EINVAL),
        },
        LaterLsm {
            name: "selinux",
            get: Ok(b"system_u:system_r:init_t:s0".to_vec()),
            set: Ok(7),
        },
        LaterLsm {
            name: "apparmor",
            get: Ok(b"unconfined".to_vec()),
            set: Ok(3),
        },
    ]
}

/// The LSM core asks one LSM only: when no submodule claims a process
/// attribute, stacker asks the LSMs after it in order, and the first
/// answer that is not `EINVAL` is the answer; a submodule's answer comes
/// first and nothing is forwarded then.
#[test]
fn getprocattr_goes_to_the_lsms_after_stacker_when_no_submodule_claims_it() {
    let _h = boot("rec_a,rec_b");
    let task = Task::new(1);
    set_later_lsms(later_lsms());
    recorder::answer(0, Hook::getprocattr, EINVAL);
    recorder::answer(1, Hook::getprocattr, EINVAL);
    let mut out = AttrValue::default();
    assert_eq!(
        crate::dispatch::getprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            c"current",
            &mut out
        ),
        Ok(())
    );
    assert_eq!(out.0, b"system_u:system_r:init_t:s0");
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b"]);
    assert_eq!(
        take_forwarded(),
        [("landlock", "getprocattr"), ("selinux", "getprocattr")]
    );

    // A later LSM's error other than EINVAL is its answer.
    set_later_lsms(vec![LaterLsm {
        name: "smack",
        get: Err(EACCES),
        set: Err(EACCES),
    }]);
    assert_eq!(
        crate::dispatch::getprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            c"current",
            &mut AttrValue::default()
        ),
        Err(EACCES)
    );
    // Nobody anywhere: EINVAL.
    set_later_lsms(Vec::new());
    assert_eq!(
        crate::dispatch::getprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            c"current",
            &mut AttrValue::default()
        ),
        Err(EINVAL)
    );

    // A submodule that claims it answers; the later LSMs are not asked.
    set_later_lsms(later_lsms());
    recorder::reset();
    let mut out = AttrValue::default();
    assert_eq!(
        crate::dispatch::getprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            c"current",
            &mut out
        ),
        Ok(())
    );
    assert_eq!(out.0, b"rec_a");
    assert_eq!(take_forwarded(), []);
}

#[test]
fn setprocattr_goes_to_the_lsms_after_stacker_when_no_submodule_claims_it() {
    let _h = boot("rec_a,rec_b");
    set_later_lsms(later_lsms());
    recorder::answer(0, Hook::setprocattr, EINVAL);
    recorder::answer(1, Hook::setprocattr, EINVAL);
    let write = |value: &'static [u8]| ProcAttrWrite::new(c"exec", value);
    assert_eq!(
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            write(b"unconfined_t")
        ),
        Ok(7)
    );
    assert_eq!(
        take_forwarded(),
        [("landlock", "setprocattr"), ("selinux", "setprocattr")]
    );
    // `NAME:rest` for a NAME that is no submodule: the whole value goes on.
    assert_eq!(
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            write(b"selinux:x")
        ),
        Ok(7)
    );
    assert_eq!(take_forwarded().len(), 2);
    // A submodule that takes it: nothing is forwarded.
    recorder::reset();
    assert_eq!(
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(&crate::harness::cx(), write(b"abc")),
        Ok(3)
    );
    assert_eq!(take_forwarded(), []);
}

/// `/proc/PID/attr/stacker/NAME/ATTR` reaches submodule NAME alone, as
/// `ATTR`: its answer, "not mine" included, is the answer; nothing goes
/// to another submodule or to the LSMs after stacker; a write goes whole,
/// with no `NAME:` prefix, so what was read can be written back.
#[test]
fn attr_dir_of_a_submodule_reaches_it_alone() {
    let _h = boot("rec_a,rec_b");
    let task = Task::new(1);
    set_later_lsms(later_lsms());
    let get = |name: &core::ffi::CStr| {
        let mut out = AttrValue::default();
        crate::dispatch::getprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            name,
            &mut out,
        )
        .map(|()| out.0)
    };
    recorder::take_log();
    assert_eq!(get(c"rec_b/current"), Ok(b"rec_b".to_vec()));
    assert_eq!(names(&recorder::take_log()), ["rec_b"]);
    assert_eq!(get(c"rec_a/exec"), Ok(b"rec_a".to_vec()));
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    // Its "not mine" is the answer: rec_a and the later LSMs are not asked.
    recorder::answer(1, Hook::getprocattr, EINVAL);
    assert_eq!(get(c"rec_b/current"), Err(EINVAL));
    assert_eq!(names(&recorder::take_log()), ["rec_b"]);
    // A name that is no submodule of the chain, or an attribute it does
    // not have: EINVAL, nobody else asked.
    assert_eq!(get(c"rec_c/current"), Err(EINVAL));
    assert_eq!(get(c"selinux/current"), Err(EINVAL));
    assert_eq!(get(c"rec_a/nosuch"), Err(EINVAL));
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    assert_eq!(take_forwarded(), []);

    let write = |name: &'static core::ffi::CStr, value: &'static [u8]| {
        crate::dispatch::setprocattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            ProcAttrWrite::new(name, value),
        )
    };
    // The whole value, a colon included, goes to rec_a, not to rec_b.
    assert_eq!(write(c"rec_a/current", b"rec_b:xyz"), Ok(9));
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    // What rec_a uses is what is used.
    assert_eq!(write(c"rec_a/current", b"abc!"), Ok(3));
    recorder::answer(0, Hook::setprocattr, EACCES);
    assert_eq!(write(c"rec_a/current", b"abc"), Err(EACCES));
    recorder::answer(1, Hook::setprocattr, EINVAL);
    assert_eq!(write(c"rec_b/current", b"abc"), Err(EINVAL));
    assert_eq!(write(c"rec_c/current", b"abc"), Err(EINVAL));
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_a", "rec_b"]);
    assert_eq!(take_forwarded(), []);
}

/// The directories of `/proc/PID/attr/stacker/`: the chain's submodules
/// with process attributes, in chain order.
#[test]
fn attribute_owners_are_the_chain_s_label_bearers_in_order() {
    use crate::hook::HookSet;
    let get = HookSet::of(&[Hook::getprocattr]);
    let set = HookSet::of(&[Hook::setprocattr]);
    let neither = HookSet::of(&[Hook::file_open]);
    let sets = [get, neither, set, get];
    let owners = |order: &[u8]| crate::dispatch::attribute_owners(order, &sets).collect::<Vec<_>>();
    assert_eq!(owners(&[3, 1, 0, 2]), [3, 0, 2]);
    assert_eq!(owners(&[1]), [] as [u8; 0]);
    // An index past the registry has no hooks.
    assert_eq!(owners(&[9, 0]), [0]);
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
        crate::dispatch::inode_init_security::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &inode,
            &dir,
            b"f",
            &mut slots
        ),
        Ok(())
    );
    let got: Vec<_> = slots.filled.iter().map(|x| x.name.to_bytes()).collect();
    assert_eq!(got, [&b"rec_a"[..], b"rec_b"]);

    recorder::answer(0, Hook::inode_init_security, EOPNOTSUPP);
    recorder::answer(1, Hook::inode_init_security, EOPNOTSUPP);
    let mut slots = XattrSlots {
        filled: Vec::new(),
        limit: 2,
    };
    // EOPNOTSUPP from every submodule is "nothing to add": the default.
    assert_eq!(
        crate::dispatch::inode_init_security::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &inode,
            &dir,
            b"f",
            &mut slots
        ),
        Err(EOPNOTSUPP)
    );
    recorder::answer(0, Hook::inode_init_security, EACCES);
    assert_eq!(
        crate::dispatch::inode_init_security::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &inode,
            &dir,
            b"f",
            &mut slots
        ),
        Err(EACCES)
    );
}

/// `EOPNOTSUPP` from a submodule means "no xattr from me", not "stop": the
/// next one still adds its xattr.
#[test]
fn inode_init_security_goes_on_after_eopnotsupp() {
    let _h = boot("rec_a,rec_b");
    let (dir, inode) = (Inode::new(1, true), Inode::new(2, false));
    let mut slots = XattrSlots {
        filled: Vec::new(),
        limit: 2,
    };
    recorder::answer(0, Hook::inode_init_security, EOPNOTSUPP);
    assert_eq!(
        crate::dispatch::inode_init_security::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &inode,
            &dir,
            b"f",
            &mut slots
        ),
        Ok(())
    );
    let got: Vec<_> = slots.filled.iter().map(|x| x.name.to_bytes()).collect();
    assert_eq!(got, [&b"rec_b"[..]]);
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b"]);
}

/// `file_alloc_security` and `file_free_security` get a view with only the
/// file's blob (`FileSecurity`: no dentry, no inode, so a submodule cannot
/// reach what is not set yet, or no longer). The state set up at alloc is
/// what the other file hooks and the free hook see, also after a failed
/// open.
#[test]
fn file_alloc_and_free_get_the_file_state() {
    let h = boot("rec_a,rec_b");
    let dentry = h.create("f").unwrap();
    let file = h.open(&dentry).unwrap();
    let tag_a = Recorder::<0>::TAG as u32;
    let tag_b = Recorder::<1>::TAG as u32;
    let state = |m: u32| match m {
        0 => Recorder::<0>::file_tag(&file),
        _ => Recorder::<1>::file_tag(&file),
    };
    assert_eq!((state(0), state(1)), (Some(tag_a), Some(tag_b)));
    recorder::take_seen();
    h.close(file);
    assert_eq!(
        recorder::take_seen(),
        [
            ("rec_a", Hook::file_free_security, u64::from(tag_a)),
            ("rec_b", Hook::file_free_security, u64::from(tag_b)),
        ]
    );

    // A failed open frees the file again; the free hooks still get state.
    recorder::answer(1, Hook::file_open, EACCES);
    assert_eq!(h.open(&dentry).err(), Some(EACCES));
    let seen: Vec<_> = recorder::take_seen().into_iter().map(|s| s.2).collect();
    assert_eq!(seen, [u64::from(tag_a), u64::from(tag_b)]);
}

/// `inode_free_security` runs with the inode; `inode_free_security_rcu`,
/// later, with each submodule's own state in the blob of the inode that is
/// gone, for every submodule that implements it.
#[test]
fn inode_free_security_rcu_gets_each_submodule_its_own_state() {
    let h = boot("rec_a,rec_c");
    let inode = h.new_inode(false).unwrap();
    assert!(Recorder::<0>::tag_inode(&inode, 0xa));
    assert!(Recorder::<2>::tag_inode(&inode, 0xc));
    recorder::take_log();
    h.free_inode(inode).unwrap();
    let log: Vec<_> = recorder::take_log();
    assert_eq!(
        log,
        [
            ("rec_a", Hook::inode_free_security),
            ("rec_c", Hook::inode_free_security),
            ("rec_a", Hook::inode_free_security_rcu),
            ("rec_c", Hook::inode_free_security_rcu),
        ]
    );
    assert_eq!(
        recorder::take_seen(),
        [
            ("rec_a", Hook::inode_free_security_rcu, 0xa),
            ("rec_c", Hook::inode_free_security_rcu, 0xc),
        ]
    );
}

/// An exec runs its hooks in the kernel's order, the LSM's
/// `bprm_creds_from_file` after the capability module computed the sets.
#[test]
fn exec_runs_the_bprm_hooks_in_the_kernels_order() {
    let h = boot("rec_b");
    let dentry = h.create("prog").unwrap();
    let parent = h.cred(0, None).unwrap();
    recorder::take_log();
    h.exec(&dentry, &parent, false).unwrap();
    let hooks: Vec<Hook> = recorder::take_log().into_iter().map(|(_, h)| h).collect();
    assert_eq!(
        hooks,
        [
            Hook::cred_prepare,
            Hook::bprm_creds_for_exec,
            Hook::bprm_creds_from_file,
            Hook::bprm_committed_creds,
        ]
    );
    // A denial at bprm_creds_from_file fails the exec.
    recorder::answer(1, Hook::bprm_creds_from_file, EACCES);
    assert_eq!(h.exec(&dentry, &parent, false).err(), Some(EACCES));
}

#[test]
fn vm_enough_memory_needs_every_submodule() {
    let _h = boot("rec_a,rec_b,rec_c");
    let cred = Cred::new(0);
    assert!(crate::dispatch::vm_enough_memory::<crate::dispatch::Loop>(
        &cred, 1
    ));
    recorder::take_log();
    recorder::answer(1, Hook::vm_enough_memory, EPERM);
    assert!(!crate::dispatch::vm_enough_memory::<crate::dispatch::Loop>(
        &cred, 1
    ));
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
    let before = stats::get(7, Hook::capable);
    recorder::answer(4, Hook::capable, EPERM);
    let _ = crate::dispatch::capable::<crate::dispatch::Loop>(&cred, true, 1, 0);
    let after = stats::get(7, Hook::capable);
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

/// What a hook's dispatch function answered.
#[derive(Debug, PartialEq)]
enum Answer {
    Int(crate::error::Result),
    Void,
    Bool(bool),
    /// A `first_nondefault` hook: whether it answered its default, and
    /// otherwise whether the answer is the recorders' claim.
    Claim {
        default: bool,
        recorders: bool,
    },
}

/// Calls the dispatch function of every hook with a generic rule with
/// sample arguments; `None` for the hooks with rules of their own.
macro_rules! hook_calls {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        pub(super) fn call_generic<T: crate::dispatch::Tier>(hook: Hook) -> Option<Answer> {
            match hook {
                $(Hook::$name => hook_calls!(@call $rule $name T ($($rty),*) $(-> $rret = $default)?),)*
            }
        }
    };
    (@call first_error $name:ident $t:ident ($($rty:ty),*) $($ret:tt)*) => {
        Some(Answer::Int(crate::dispatch::$name::<$t>($(<$rty as crate::samples::Sample>::sample()),*)))
    };
    (@call every $name:ident $t:ident ($($rty:ty),*) $($ret:tt)*) => {{
        crate::dispatch::$name::<$t>($(<$rty as crate::samples::Sample>::sample()),*);
        Some(Answer::Void)
    }};
    (@call all_agree $name:ident $t:ident ($($rty:ty),*) $($ret:tt)*) => {
        Some(Answer::Bool(crate::dispatch::$name::<$t>($(<$rty as crate::samples::Sample>::sample()),*)))
    };
    (@call first_nondefault $name:ident $t:ident ($($rty:ty),*) -> $rret:ty = $default:expr) => {{
        let answer: $rret = crate::dispatch::$name::<$t>($(<$rty as crate::samples::Sample>::sample()),*);
        Some(Answer::Claim {
            default: answer == $default,
            recorders: answer == <$rret as crate::recorder::RecorderClaim>::CLAIM,
        })
    }};
    (@call $special:ident $name:ident $t:ident $args:tt $($ret:tt)*) => {
        None
    };
}
/// [`call_generic`], where the hook table's argument types are in scope.
mod hook_call {
    use super::{Answer, Hook};
    #[allow(unused_imports)]
    use crate::objects::*;

    crate::hook_table::hook_table!(hook_calls);
}
use hook_call::call_generic;

/// Every hook with a generic rule, called through the chain with the
/// middle submodule refusing, follows its rule as `security.c` does:
/// `first_error` returns that error and calls no later submodule; `every`
/// calls all three; `all_agree` answers false and stops there;
/// `first_nondefault` gives the middle one's claim and stops there. With
/// no refusal, each gives its default.
#[test]
fn every_generic_hook_follows_its_rule() {
    let h = boot("rec_a,rec_b,rec_c");
    let mut checked = 0;
    for &hook in Hook::ALL {
        recorder::reset();
        let Some(answer) = call_generic::<crate::dispatch::Loop>(hook) else {
            continue;
        };
        checked += 1;
        let all: Vec<_> = recorder::take_log()
            .iter()
            .filter(|(_, k)| *k == hook)
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(
            all,
            ["rec_a", "rec_b", "rec_c"],
            "{hook:?} without a refusal"
        );
        assert!(
            matches!(
                answer,
                Answer::Int(Ok(()))
                    | Answer::Void
                    | Answer::Bool(true)
                    | Answer::Claim { default: true, .. }
            ),
            "{hook:?} without a refusal gave {answer:?}"
        );
        recorder::answer(1, hook, EACCES);
        let answer = call_generic::<crate::dispatch::Loop>(hook);
        let seen: Vec<_> = recorder::take_log()
            .iter()
            .filter(|(_, k)| *k == hook)
            .map(|(n, _)| *n)
            .collect();
        match answer {
            Some(Answer::Int(result)) => {
                assert_eq!(result, Err(EACCES), "{hook:?}");
                assert_eq!(seen, ["rec_a", "rec_b"], "{hook:?} went on after a denial");
            }
            Some(Answer::Void) => assert_eq!(seen, ["rec_a", "rec_b", "rec_c"], "{hook:?}"),
            Some(Answer::Bool(ok)) => {
                assert!(!ok, "{hook:?}");
                assert_eq!(seen, ["rec_a", "rec_b"], "{hook:?} went on after a refusal");
            }
            // The middle one claims: its answer, and the walk ends there.
            Some(Answer::Claim { default, recorders }) => {
                assert!(
                    !default && recorders,
                    "{hook:?} gave another answer than the claim"
                );
                assert_eq!(seen, ["rec_a", "rec_b"], "{hook:?} went on after a claim");
            }
            None => unreachable!(),
        }
    }
    drop(h);
    assert!(checked >= 90, "only {checked} hooks have a generic rule");
}

/// Mount options: an option goes to the first submodule that claims it
/// and is taken out of what the file system sees; an invalid option of a
/// submodule's fails the mount; when the superblock is set up, each
/// submodule gets its own options back (probe keeps `probe_opt=N` for
/// `prctl(PR_PROBE_MOUNT_OPT)`), and the others none.
#[test]
fn mount_options_go_to_the_first_claimant_and_come_back_to_it() {
    use crate::dispatch::{mount_option_owner, sb_set_mnt_opts, task_prctl, Loop};
    use crate::mount_options::{eat, MountOption, MountOptions, QUOTED_VALUE_MAX};
    let _h = boot("probe_b,probe,rec_a");
    let cx = crate::harness::cx();
    let mut all = crate::platform::zeroed_box::<MountOptions>(&cx).unwrap();
    let mut scratch = [0u8; QUOTED_VALUE_MAX];
    let mut data = b"size=1m,probe_opt=\"41\",mode=0755".to_vec();
    let n = eat(&mut data, &mut scratch, |o| {
        Ok(match mount_option_owner::<Loop>(&cx, o)? {
            Some(m) => {
                all.push(m, o)?;
                true
            }
            None => false,
        })
    });
    assert_eq!(n, Ok(17));
    assert_eq!(&data[..17], b"size=1m,mode=0755");
    let probe = crate::registry::NAMES
        .iter()
        .position(|n| *n == b"probe")
        .unwrap() as u8;
    let held: Vec<_> = all.iter().collect();
    assert_eq!(
        held,
        [(
            probe,
            MountOption {
                name: b"probe_opt",
                value: Some(b"41")
            }
        )]
    );
    recorder::reset();
    let sb = <&crate::objects::Superblock as crate::samples::Sample>::sample();
    assert_eq!(sb_set_mnt_opts::<Loop>(&cx, sb, Some(&all)), Ok(()));
    assert_eq!(
        task_prctl::<Loop>(crate::probe::PR_PROBE_MOUNT_OPT, [0; 4]),
        Ok(41)
    );
    // The recorder, which claimed nothing, was set up with nothing.
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    // Without stacker's options (`None`) everyone is called too.
    assert_eq!(sb_set_mnt_opts::<Loop>(&cx, sb, None), Ok(()));
    // An invalid value of probe's option fails the mount.
    let mut bad = b"probe_opt=4x".to_vec();
    assert_eq!(
        eat(&mut bad, &mut scratch, |o| Ok(mount_option_owner::<Loop>(
            &cx, o
        )?
        .is_some())),
        Err(EINVAL)
    );
    let flag = MountOption {
        name: b"probe_opt",
        value: None,
    };
    assert_eq!(mount_option_owner::<Loop>(&cx, flag), Err(EINVAL));
    let other = MountOption {
        name: b"size",
        value: Some(b"1m"),
    };
    assert_eq!(mount_option_owner::<Loop>(&cx, other), Ok(None));
    // A later submodule's error: the option is no one's, the mount fails.
    recorder::answer(0, Hook::sb_eat_lsm_opts, EPERM);
    assert_eq!(mount_option_owner::<Loop>(&cx, other), Err(EPERM));
    // A claim ends the walk: the submodules after it are not asked.
    let mine = MountOption {
        name: b"probe_opt",
        value: Some(b"1"),
    };
    assert_eq!(mount_option_owner::<Loop>(&cx, mine), Ok(Some(probe)));
    // The first error of a submodule setting up the superblock decides.
    recorder::answer(0, Hook::sb_set_mnt_opts, EACCES);
    assert_eq!(sb_set_mnt_opts::<Loop>(&cx, sb, Some(&all)), Err(EACCES));
}

/// `task_prctl`, as `security_task_prctl()`: `ENOSYS` is "not mine",
/// `Ok(0)` is kept and the walk goes on, anything else ends it.
#[test]
fn task_prctl_follows_the_cores_rule() {
    let _h = boot("rec_a,rec_b,rec_c");
    let prctl = crate::dispatch::task_prctl::<crate::dispatch::Loop>;
    assert_eq!(prctl(1, [0; 4]), Ok(0));
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b", "rec_c"]);
    for instance in 0..3 {
        recorder::answer(instance, Hook::task_prctl, ENOSYS);
    }
    assert_eq!(prctl(1, [0; 4]), Err(ENOSYS), "nobody handled it");
    recorder::reset();
    recorder::answer(1, Hook::task_prctl, EPERM);
    assert_eq!(prctl(1, [0; 4]), Err(EPERM));
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b"]);

    let _h = boot("probe_b,probe,probe_c");
    assert_eq!(
        crate::dispatch::task_prctl::<crate::dispatch::Loop>(crate::probe::PR_PROBE, [41, 0, 0, 0]),
        Ok(42)
    );
    assert_eq!(
        crate::dispatch::task_prctl::<crate::dispatch::Loop>(1, [0; 4]),
        Err(ENOSYS)
    );
}

/// `inode_getsecurity`: the first answer that is not `EOPNOTSUPP` decides,
/// and `EOPNOTSUPP` when none answers.
#[test]
fn inode_getsecurity_takes_the_first_claim() {
    let _h = boot("rec_a,rec_b,rec_c");
    let inode = Inode::new(1, false);
    let get = |inode: &Inode| {
        let mut out = AttrValue::default();
        crate::dispatch::inode_getsecurity::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            inode,
            b"x",
            &mut out,
        )
        .map(|()| out.0)
    };
    recorder::answer(0, Hook::inode_getsecurity, EOPNOTSUPP);
    assert_eq!(get(&inode), Ok(b"rec_b".to_vec()));
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b"]);
    recorder::answer(1, Hook::inode_getsecurity, EACCES);
    assert_eq!(
        get(&inode),
        Err(EACCES),
        "an error other than EOPNOTSUPP decides"
    );
    recorder::answer(1, Hook::inode_getsecurity, EOPNOTSUPP);
    recorder::answer(2, Hook::inode_getsecurity, EOPNOTSUPP);
    assert_eq!(get(&inode), Err(EOPNOTSUPP));
}

/// `socket_getpeersec_stream`: the first answer that is not `ENOPROTOOPT`
/// decides, with its value only; `ENOPROTOOPT` when none answers.
#[test]
fn socket_getpeersec_stream_takes_the_first_claim() {
    let _h = boot("rec_a,rec_b,rec_c");
    let sock = <&Socket as crate::samples::Sample>::sample();
    let get = || {
        let mut out = AttrValue::default();
        crate::dispatch::socket_getpeersec_stream::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            sock,
            &mut out,
        )
        .map(|()| out.0)
    };
    recorder::take_log();
    assert_eq!(get(), Ok(b"rec_a".to_vec()));
    assert_eq!(names(&recorder::take_log()), ["rec_a"]);
    recorder::answer(0, Hook::socket_getpeersec_stream, ENOPROTOOPT);
    assert_eq!(get(), Ok(b"rec_b".to_vec()));
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_b"]);
    recorder::answer(1, Hook::socket_getpeersec_stream, EACCES);
    assert_eq!(
        get(),
        Err(EACCES),
        "an error other than ENOPROTOOPT decides"
    );
    recorder::answer(1, Hook::socket_getpeersec_stream, ENOPROTOOPT);
    recorder::answer(2, Hook::socket_getpeersec_stream, ENOPROTOOPT);
    assert_eq!(get(), Err(ENOPROTOOPT));
}

/// `lsmprop` hooks: each label-bearing submodule fills its own slot, in
/// chain order, and no other; one past the slots gets none; one that
/// gives no secid leaves its slot empty, not taken by the next.
#[test]
fn lsmprop_slots_belong_to_label_bearing_submodules_in_chain_order() {
    use crate::lsm_prop::LSM_PROP_SLOTS;
    let _h = boot("rec_c,rec_a,rec_b");
    let cred = Cred::new(0);
    let tag = |i: usize| 0x100 + i as u32;
    recorder::take_log();
    assert_eq!(LSM_PROP_SLOTS, 2);
    assert_eq!(
        crate::dispatch::cred_getlsmprop::<crate::dispatch::Loop>(&cred),
        ([tag(2), tag(0)], 2)
    );
    // rec_b, third, has no slot and is not asked.
    assert_eq!(names(&recorder::take_log()), ["rec_c", "rec_a"]);
    recorder::answer(2, Hook::cred_getlsmprop, EINVAL);
    assert_eq!(
        crate::dispatch::cred_getlsmprop::<crate::dispatch::Loop>(&cred),
        ([0, tag(0)], 2)
    );
    let task = Task::new(1);
    assert_eq!(
        crate::dispatch::task_getlsmprop_obj::<crate::dispatch::Loop>(&task),
        ([tag(2), tag(0)], 2)
    );
    // A chain whose first submodule bears no labels: the second has slot 0.
    drop(_h);
    let _h = boot("probe_b,probe,probe_c");
    let (slots, n) = crate::dispatch::current_getlsmprop_subj::<crate::dispatch::Loop>(&cred);
    assert_eq!(n, 1, "one slot is the chain's");
    assert_ne!(slots[0], 0);
    assert_eq!(slots[1], 0);
    // A chain with no label-bearing submodule owns no slot to write.
    drop(_h);
    let _h = boot("probe_b,probe_c");
    assert_eq!(
        crate::dispatch::current_getlsmprop_subj::<crate::dispatch::Loop>(&cred).1,
        0
    );
}

/// The text of a slot comes from the slot's owner, with the secid of that
/// slot; a bare secid (`secid_to_secctx`, `socket_getpeersec_dgram`) is
/// the primary's alone.
#[test]
fn secctx_comes_from_the_slots_owner_and_bare_secids_from_the_primary() {
    let _h = boot("rec_c,rec_a,rec_b");
    let text = |slot: usize, slots: &crate::lsm_prop::PropSlots| {
        let mut out = SecCtx::default();
        crate::dispatch::lsmprop_to_secctx::<crate::dispatch::Loop>(slot, slots, &mut out)
            .map(|m| (m, String::from_utf8(out.0).unwrap()))
    };
    let (_, a) = text(1, &[7, 9]).unwrap();
    assert_eq!(a, "rec_a:9");
    let (_, c) = text(0, &[7, 9]).unwrap();
    assert_eq!(c, "rec_c:7");
    assert_eq!(text(1, &[7, 0]), Err(EINVAL), "an empty slot has no text");
    assert_eq!(text(2, &[7, 9]), Err(EOPNOTSUPP), "no such slot");
    recorder::take_log();
    let mut out = SecCtx::default();
    let secid = Secid::new(5).unwrap();
    crate::dispatch::secid_to_secctx::<crate::dispatch::Loop>(secid, &mut out).unwrap();
    assert_eq!(out.0, b"rec_c:5");
    recorder::answer(2, Hook::secid_to_secctx, EOPNOTSUPP);
    let mut out = SecCtx::default();
    assert_eq!(
        crate::dispatch::secid_to_secctx::<crate::dispatch::Loop>(secid, &mut out),
        Err(EOPNOTSUPP),
        "the next submodule is not asked for the primary's secid"
    );
    assert_eq!(names(&recorder::take_log()), ["rec_c", "rec_c"]);
    assert_eq!(
        crate::dispatch::socket_getpeersec_dgram::<crate::dispatch::Loop>(None),
        Ok(Secid::new(0x102).unwrap())
    );
    assert_eq!(names(&recorder::take_log()), ["rec_c"]);
    assert!(crate::dispatch::release_secctx::<crate::dispatch::Loop>(
        crate::abi::LSM_ID_STACKER
    ));
    assert!(!crate::dispatch::release_secctx::<crate::dispatch::Loop>(
        101
    ));
    // A chain with no label-bearing submodule answers nothing.
    drop(_h);
    let _h = boot("probe_b");
    let mut out = SecCtx::default();
    assert_eq!(
        crate::dispatch::secid_to_secctx::<crate::dispatch::Loop>(secid, &mut out),
        Err(EOPNOTSUPP)
    );
    assert_eq!(
        crate::dispatch::socket_getpeersec_dgram::<crate::dispatch::Loop>(None),
        Err(ENOPROTOOPT)
    );
    assert!(crate::dispatch::release_secctx::<crate::dispatch::Loop>(
        crate::abi::LSM_ID_STACKER
    ));
    assert!(!crate::dispatch::release_secctx::<crate::dispatch::Loop>(
        crate::abi::LSM_ID_PROBE
    ));
}

/// Audit rules are the primary label-bearing submodule's: it alone makes
/// them and matches them, against the secid of its own slot.
#[test]
fn audit_rules_are_the_primarys() {
    let _h = boot("rec_c,rec_a");
    recorder::take_log();
    let (m, value) =
        crate::dispatch::audit_rule_init::<crate::dispatch::Loop>(15, 0, b"x").unwrap();
    assert_eq!(names(&recorder::take_log()), ["rec_c"]);
    assert_eq!(value, 0x102);
    assert_eq!(crate::registry::NAMES[m as usize], b"rec_c");
    let matches = |slots: [u32; 2]| {
        crate::dispatch::audit_rule_match::<crate::dispatch::Loop>(&slots, 15, 0, value)
    };
    assert_eq!(matches([0x102, 0]), Ok(true));
    assert_eq!(
        matches([0x100, 0x102]),
        Ok(false),
        "slot 1 is not the primary's"
    );
    assert_eq!(matches([0, 0x102]), Ok(false), "no label matches nothing");
    recorder::answer(2, Hook::audit_rule_init, EINVAL);
    assert_eq!(
        crate::dispatch::audit_rule_init::<crate::dispatch::Loop>(15, 0, b"x"),
        Err(EINVAL),
        "the primary's refusal is final"
    );
    assert_eq!(names(&recorder::take_log()), ["rec_c", "rec_c", "rec_c"]);
    drop(_h);
    let _h = boot("probe_b");
    assert_eq!(
        crate::dispatch::audit_rule_init::<crate::dispatch::Loop>(15, 0, b"1"),
        Err(EINVAL),
        "no label-bearing submodule, no rules"
    );
}

/// The LSM syscalls: `getselfattr` names the submodule that answered,
/// `setselfattr` routes `NAME:value` and refuses anything else.
#[test]
fn selfattr_names_and_routes_by_submodule() {
    let _h = boot("probe_b,probe,probe_c");
    let task = Task::new(1);
    let get = |attr| {
        let mut out = Vec::new();
        crate::dispatch::getselfattr::<crate::dispatch::Loop>(
            &crate::harness::cx(),
            &task,
            attr,
            false,
            |v| {
                out = v.0.clone();
                Ok(())
            },
        )
        .map(|n| {
            assert_eq!(n, 1);
            out
        })
    };
    let set = |attr, value: &[u8]| {
        crate::dispatch::setselfattr::<crate::dispatch::Loop>(&crate::harness::cx(), attr, value)
    };
    assert_eq!(set(100, b"probe:5"), Ok(()));
    assert_eq!(get(100), Ok(b"probe:5".to_vec()));
    assert_eq!(set(100, b"probe:x"), Err(EINVAL), "probe refuses it");
    assert_eq!(get(100), Ok(b"probe:5".to_vec()), "the old value stays");
    assert_eq!(
        set(100, b"probe_b:5"),
        Err(EINVAL),
        "probe_b takes no attribute"
    );
    assert_eq!(set(100, b"5"), Err(EINVAL), "no submodule named");
    assert_eq!(set(100, b"nosuch:5"), Err(EINVAL));
    assert_eq!(get(101), Err(EOPNOTSUPP), "nobody answers exec");
    assert_eq!(get(999), Err(EOPNOTSUPP), "not an attribute");
    assert_eq!(set(999, b"probe:5"), Err(EOPNOTSUPP));

    // A value the submodule uses only in part is refused.
    let _h = boot("rec_a");
    let set = |attr, value: &[u8]| {
        crate::dispatch::setselfattr::<crate::dispatch::Loop>(&crate::harness::cx(), attr, value)
    };
    assert_eq!(set(100, b"rec_a:x"), Ok(()));
    assert_eq!(
        set(100, b"rec_a:x!"),
        Err(EINVAL),
        "rec_a leaves the '!' unused"
    );
}

/// `getselfattr` shows every submodule that answers, one entry each in
/// chain order (`NAME:value`), skips those that say "not mine" (`EINVAL`),
/// gives only the first with `LSM_FLAG_SINGLE`, and ends at an error, as
/// `security_getselfattr()` ends at an LSM's error.
#[test]
fn selfattr_shows_every_label() {
    use crate::dispatch::{getselfattr, Loop};
    let _h = boot("rec_b,rec_a,rec_c");
    let task = Task::new(1);
    let get = |single| {
        let mut entries = Vec::new();
        getselfattr::<Loop>(&crate::harness::cx(), &task, 100, single, |v| {
            entries.push(String::from_utf8_lossy(&v.0).into_owned());
            Ok(())
        })
        .map(|n| {
            assert_eq!(n as usize, entries.len());
            entries
        })
    };
    assert_eq!(
        get(false),
        Ok(vec![
            "rec_b:rec_b".into(),
            "rec_a:rec_a".into(),
            "rec_c:rec_c".into()
        ])
    );
    assert_eq!(get(true), Ok(vec!["rec_b:rec_b".into()]));
    recorder::answer(1, Hook::getprocattr, EINVAL); // rec_b: not mine
                                                    // EOPNOTSUPP is "not mine" too (it would make the core drop stacker's
                                                    // entries already copied): rec_a is skipped, rec_c still answers.
    recorder::answer(0, Hook::getprocattr, EOPNOTSUPP);
    assert_eq!(get(false), Ok(vec!["rec_c:rec_c".into()]));
    recorder::reset();
    recorder::answer(1, Hook::getprocattr, EINVAL);
    assert_eq!(
        get(false),
        Ok(vec!["rec_a:rec_a".into(), "rec_c:rec_c".into()])
    );
    assert_eq!(get(true), Ok(vec!["rec_a:rec_a".into()]));
    recorder::answer(2, Hook::getprocattr, ENOMEM); // rec_c fails
    assert_eq!(get(false), Err(ENOMEM));
    recorder::answer(0, Hook::getprocattr, EINVAL);
    recorder::answer(2, Hook::getprocattr, EINVAL);
    assert_eq!(get(false), Err(EOPNOTSUPP), "nobody answers");
    // An error of the entry (the user buffer) ends it too.
    recorder::reset();
    let mut calls = 0;
    let failed = getselfattr::<Loop>(&crate::harness::cx(), &task, 100, false, |_| {
        calls += 1;
        Err(EFAULT)
    });
    assert_eq!((failed, calls), (Err(EFAULT), 1));
}

/// A 32-bit task's ioctl (`file_ioctl_compat`) reaches a submodule that
/// implements only `file_ioctl`, in every tier, with the 32-bit commands
/// that stand for a native one translated (as `selinux_file_ioctl_compat`).
#[test]
fn compat_ioctl_reaches_file_ioctl() {
    use crate::abi::{FS_IOC32_GETFLAGS, FS_IOC32_SETFLAGS, FS_IOC_GETFLAGS};
    use crate::dispatch::{file_ioctl, file_ioctl_compat, End, Loop, Then};
    use crate::ioctl_rule::IoctlRule;

    let h = boot("rec_a,ioctl_rule");
    assert!(h.registered(Hook::file_ioctl));
    assert!(h.registered(Hook::file_ioctl_compat));
    let file = crate::samples::file();
    for tier in 0..2 {
        let compat = |cmd| match tier {
            0 => file_ioctl_compat::<Loop>(&crate::harness::cx(), &file, cmd, 0),
            _ => file_ioctl_compat::<Then<IoctlRule, End>>(&crate::harness::cx(), &file, cmd, 0),
        };
        assert_eq!(compat(FS_IOC32_GETFLAGS), Err(EACCES), "tier {tier}");
        assert_eq!(compat(FS_IOC_GETFLAGS), Err(EACCES), "tier {tier}");
        assert_eq!(compat(FS_IOC32_SETFLAGS), Ok(()), "tier {tier}");
    }
    assert_eq!(
        file_ioctl::<Loop>(&crate::harness::cx(), &file, FS_IOC_GETFLAGS, 0),
        Err(EACCES)
    );
    // The native hook does not translate: the 32-bit number is another
    // command there.
    assert_eq!(
        file_ioctl::<Loop>(&crate::harness::cx(), &file, FS_IOC32_GETFLAGS, 0),
        Ok(())
    );
    // The recorder before it saw the compat hook as a hook of its own.
    assert!(recorder::take_log().contains(&("rec_a", Hook::file_ioctl_compat)));
}

/// A submodule whose init fails is left out: the rest of the chain is
/// called, in order, and keeps the slots it had.
#[test]
fn failed_init_leaves_out_only_that_submodule() {
    use crate::layout::ObjectKind;

    let full = boot("rec_a,rec_b,rec_c");
    let slots: Vec<_> = [3, 5]
        .iter()
        .map(|&m| crate::platform::boot().layout.offset(m, ObjectKind::Inode))
        .collect();
    drop(full);
    recorder::reset();
    // rec_b is registry index 4.
    let _h = Harness::boot_failing("rec_a,rec_b,rec_c", Some(4)).expect("boots");
    assert_eq!(crate::platform::boot().chain.order(), &[3, 5]);
    let inode = Inode::new(7, false);
    recorder::answer(2, Hook::inode_permission, EPERM); // rec_c
    assert_eq!(
        crate::dispatch::inode_permission::<crate::dispatch::Loop>(&inode, AccessMask(0)),
        Err(EPERM)
    );
    assert_eq!(names(&recorder::take_log()), ["rec_a", "rec_c"]);
    let after: Vec<_> = [3, 5]
        .iter()
        .map(|&m| crate::platform::boot().layout.offset(m, ObjectKind::Inode))
        .collect();
    assert_eq!(slots, after);
}

/// A chain that names an unknown submodule is known to: the kernel then
/// refuses it as a whole (`boot.rs`); repeats alone are not unknown.
#[test]
fn unknown_names_are_detected() {
    use crate::chain::ChainSpec;

    let names = crate::registry::NAMES;
    assert!(ChainSpec::parse(b"rec_a,nosuch", names).names_unknown());
    assert!(ChainSpec::parse(b"nosuch", names).names_unknown());
    assert!(!ChainSpec::parse(b"rec_a,rec_a", names).names_unknown());
    assert!(!ChainSpec::parse(b"rec_a,rec_b", names).names_unknown());
    assert!(!ChainSpec::parse(b"", names).names_unknown());
}
