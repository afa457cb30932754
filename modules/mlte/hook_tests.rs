// SPDX-License-Identifier: GPL-2.0

//! Host tests of mlte's hook bodies (`hooks.rs`): the same source as the
//! kernel's, run through the host model of the kernel objects
//! (`stacker/host/harness.rs`), with `example.policy` compiled by the
//! compiler of `mlte-policy` and loaded as `mlte/policy` takes it.
//!
//! mlte's policy, mode and counters are global, as in the kernel: the
//! tests take [`SERIAL`] and each loads the policy it needs.

use super::*;
use crate::harness::{cx, Harness};
use crate::objects::{AccessMask, Binprm, Cred, Dentry, File, Inode, Task};
use crate::submodule::Submodule;
use std::sync::{Arc, Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

/// The chain `mlte` booted, `example.policy` loaded through `mlte/policy`,
/// enforcing, and the current task root with no label yet (`sid kernel`:
/// `system_u:system_r:init_t:s0`).
fn boot() -> (MutexGuard<'static, ()>, Harness) {
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let h = Harness::boot("mlte").expect("mlte lays out");
    let (_, compiled) = crate::mlte_compile(include_str!("example.policy")).expect("compiles");
    assert_eq!(PolicyFile::store(&compiled), Ok(()));
    policy::set_enforcing(true);
    Cred::set_current(Arc::new(Cred::new(0)));
    (serial, h)
}

/// A file `name` whose `security.mlte` is `label` (none: `None`), looked
/// up as the VFS does: allocated, then `d_instantiate`, which reads the
/// label.
fn file(h: &Harness, name: &str, label: Option<&str>) -> Arc<Dentry> {
    let inode = h.new_inode(false).expect("inode_alloc_security");
    if let Some(label) = label {
        inode
            .xattrs
            .borrow_mut()
            .insert(b"security.mlte".to_vec(), label.as_bytes().to_vec());
    }
    let dentry = Dentry {
        name: name.as_bytes().to_vec(),
        inode: None,
    };
    crate::dispatch::d_instantiate::<crate::dispatch::Loop>(&cx(), &dentry, Some(&inode));
    Arc::new(Dentry {
        name: dentry.name,
        inode: Some(inode),
    })
}

fn label_of(inode: &Inode) -> String {
    context_text(inode_sid(inode))
}

fn context_text(sid: Sid) -> String {
    let text = sid_text(sid).expect("a policy is loaded");
    String::from_utf8(text.bytes().to_vec()).expect("contexts are text")
}

/// The SID of context `text` under the policy in force (interned).
fn sid_of(text: &str) -> Sid {
    let ctx = policy::with(|p| {
        let p = p.expect("a policy is loaded");
        p.store(&Context::parse(text.as_bytes(), p).expect("a valid context"))
    });
    sidtab::intern(&cx(), &ctx).expect("interned")
}

/// A directory numbered `ino`, labelled `label`.
fn labelled_dir(ino: u64, label: &str) -> Arc<Inode> {
    let dir = Arc::new(Inode::new(ino, true));
    crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &dir)
        .expect("inode_alloc_security");
    dir.state(&KEY)
        .expect("a blob")
        .label
        .set(Some(sid_of(label)));
    dir
}

fn open(h: &Harness, dentry: &Arc<Dentry>) -> Result {
    h.open(dentry).map(|file| h.close(file))
}

#[test]
fn open_is_decided_by_the_policy_on_the_files_label() {
    let (_s, h) = boot();
    let bin = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let etc = file(&h, "passwd", Some("system_u:object_r:etc_t:s0"));
    let none = file(&h, "plain", None);
    let unknown = file(&h, "odd", Some("system_u:object_r:no_such_t:s0"));
    assert_eq!(label_of(bin.inode().unwrap()), "system_u:object_r:bin_t:s0");
    // No security.mlte: `sid file`; a context the policy lacks:
    // `sid unlabeled`.
    assert_eq!(
        label_of(none.inode().unwrap()),
        "system_u:object_r:etc_t:s0"
    );
    assert_eq!(
        label_of(unknown.inode().unwrap()),
        "system_u:object_r:unlabeled_t:s0"
    );
    // init_t may read and open bin_t files, and nothing else.
    assert_eq!(open(&h, &bin), Ok(()));
    assert_eq!(open(&h, &etc), Err(EACCES));
    assert_eq!(open(&h, &none), Err(EACCES));
    assert_eq!(open(&h, &unknown), Err(EACCES));
    // `file_open` decides on its own (the opens above also ask
    // `inode_permission` first): it revalidates on the file's label.
    let file_open = |dentry: &Arc<Dentry>| {
        let inode = dentry.inode.clone().expect("positive");
        let file = File::new(dentry.clone(), inode);
        crate::dispatch::file_open::<crate::dispatch::Loop>(&cx(), &file)
    };
    assert_eq!(file_open(&bin), Ok(()));
    assert_eq!(file_open(&etc), Err(EACCES));
}

#[test]
fn permissive_mode_counts_the_denial_and_allows() {
    let (_s, h) = boot();
    let etc = file(&h, "passwd", Some("system_u:object_r:etc_t:s0"));
    policy::set_enforcing(false);
    let before = policy::counts().denials;
    assert_eq!(open(&h, &etc), Ok(()));
    assert!(policy::counts().denials > before);
    policy::set_enforcing(true);
    assert_eq!(open(&h, &etc), Err(EACCES));
}

#[test]
fn exec_enters_the_domain_of_the_type_transition() {
    let (_s, h) = boot();
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let root = Cred::new(0);
    // init_t runs bin_t: `type_transition init_t bin_t : process user_t`.
    let user = h.exec(&ls, &root, false).expect("exec");
    assert_eq!(context_text(cred_sid(&user)), "system_u:user_r:user_t:s0");
    assert_eq!(context_text(cred_sid(&root)), "system_u:system_r:init_t:s0");
    // As user_t: etc_t is readable, and at s0 a file at s1 is not (no
    // read up).
    Cred::set_current(Arc::new(user));
    let etc = file(&h, "passwd", Some("system_u:object_r:etc_t:s0"));
    let high = file(&h, "shadow", Some("system_u:object_r:etc_t:s1:c0.c2"));
    assert_eq!(open(&h, &etc), Ok(()));
    assert_eq!(open(&h, &high), Err(EACCES));
    // user_t executes bin_t with no transition of its own: it stays, with
    // its own SID, the first time and from the new-SID cache after.
    for _ in 0..2 {
        let again = Cred::with_current(|c| h.exec(&ls, c, false)).expect("exec");
        assert_eq!(cred_sid(&again), Cred::with_current(cred_sid));
    }
    // A second transition from init_t comes from the cache: the same SID.
    let second = h.exec(&ls, &root, false).expect("exec");
    assert_eq!(context_text(cred_sid(&second)), "system_u:user_r:user_t:s0");
}

#[test]
fn exec_transition_without_permission_is_refused() {
    let (_s, h) = boot();
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    // user_t may execute bin_t but has no transition rule from it; a
    // cred of a domain with neither execute nor transition is refused.
    let tmp = file(&h, "script", Some("system_u:object_r:user_tmp_t:s0"));
    assert_eq!(h.exec(&tmp, &Cred::new(0), false).err(), Some(EACCES));
    assert!(h.exec(&ls, &Cred::new(0), false).is_ok());
}

/// An exec under `no_new_privs` or from a `nosuid` mount whose
/// transition the policy does not allow for it stays in the old domain,
/// which then needs `execute_no_trans`, as SELinux's check_nnp_nosuid()
/// (mlte has no bounded types); under `policycap nnp_nosuid_transition`,
/// `process2 nnp_transition` and `nosuid_transition` allow it. A traced
/// exec needs the tracer's `ptrace` on the new domain, a shared one
/// `process share`; a transition clears the personality bits and asks for
/// AT_SECURE unless `noatsecure` is granted.
#[test]
fn exec_transitions_as_selinux_under_nnp_nosuid_ptrace_and_sharing() {
    let (_s, h) = boot();
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let exec = |unsafe_flags, nosuid| {
        let bprm = Binprm {
            unsafe_flags,
            nosuid,
            ..Binprm::new(h.open(&ls).expect("open"), Arc::new(Cred::new(0)))
        };
        let rc = Mlte.bprm_creds_for_exec(&cx(), &bprm);
        let secure = bprm.secureexec.get();
        let per_clear = bprm.per_clear.get();
        (rc, context_text(cred_sid(bprm.cred())), secure, per_clear)
    };
    let (init, user) = ("system_u:system_r:init_t:s0", "system_u:user_r:user_t:s0");
    let setid = crate::abi::PER_CLEAR_ON_SETID;
    // A plain exec: the transition, AT_SECURE, the personality cleared.
    assert_eq!(exec(0, false), (Ok(()), user.into(), true, setid));
    // NNP, nosuid: back to init_t, which may not run bin_t in itself.
    let nnp = LSM_UNSAFE_NO_NEW_PRIVS;
    assert_eq!(exec(nnp, false), (Err(EACCES), init.into(), false, 0));
    assert_eq!(exec(0, true), (Err(EACCES), init.into(), false, 0));
    load_example(|text| text + "allow init_t bin_t : file execute_no_trans;\n");
    assert_eq!(exec(nnp, false), (Ok(()), init.into(), false, 0));
    assert_eq!(exec(0, true), (Ok(()), init.into(), false, 0));
    // The capability: each permission for its own reason.
    load_example(|text| {
        text + "policycap nnp_nosuid_transition;\n\
                allow init_t bin_t : file execute_no_trans;\n\
                allow init_t user_t : process2 nnp_transition;\n"
    });
    assert_eq!(exec(nnp, false), (Ok(()), user.into(), true, setid));
    assert_eq!(exec(0, true), (Ok(()), init.into(), false, 0));
    assert_eq!(exec(nnp, true), (Ok(()), init.into(), false, 0));
    // Without the capability, the permission does nothing.
    load_example(|text| {
        text + "allow init_t bin_t : file execute_no_trans;\n\
                allow init_t user_t : process2 nnp_transition;\n"
    });
    assert_eq!(exec(nnp, false), (Ok(()), init.into(), false, 0));
    // Traced: the tracer (init_t) needs `ptrace` on user_t.
    let ptrace = crate::abi::LSM_UNSAFE_PTRACE;
    assert_eq!(exec(ptrace, false).0, Ok(()), "no tracer found");
    Task::set_current_tracer(Some(Arc::new(Task::new(1))));
    assert_eq!(exec(ptrace, false).0, Err(EPERM));
    load_example(|text| text + "allow init_t user_t : process ptrace;\n");
    assert_eq!(exec(ptrace, false), (Ok(()), user.into(), true, setid));
    Task::set_current_tracer(None);
    // Sharing with a task that stays: `process share`.
    let share = crate::abi::LSM_UNSAFE_SHARE;
    assert_eq!(exec(share, false).0, Err(EPERM));
    load_example(|text| text + "allow init_t user_t : process { share noatsecure };\n");
    assert_eq!(exec(share, false), (Ok(()), user.into(), false, setid));
    // A transition needs `entrypoint` of the new domain on the file.
    load_example(|text| {
        text.replace(
            "allow user_t bin_t : file { read open execute map getattr entrypoint execute_no_trans };",
            "allow user_t bin_t : file { read open execute map getattr execute_no_trans };",
        )
    });
    assert_eq!(exec(0, false).0, Err(EACCES));
}

#[test]
fn inode_permission_maps_the_mask_to_the_class_permission() {
    let (_s, h) = boot();
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let inode = ls.inode().unwrap();
    let may =
        |mask| crate::dispatch::inode_permission::<crate::dispatch::Loop>(inode, AccessMask(mask));
    // init_t has read and execute on bin_t files, not write or append.
    assert_eq!(may(crate::access::may::READ), Ok(()));
    assert_eq!(may(crate::access::may::EXEC), Ok(()));
    assert_eq!(may(crate::access::may::WRITE), Err(EACCES));
    assert_eq!(may(crate::access::may::APPEND), Err(EACCES));
    // An existence test asks nothing.
    assert_eq!(may(0), Ok(()));
}

#[test]
fn an_inode_is_decided_in_its_file_types_class() {
    let (_s, h) = boot();
    // init_t may read bin_t files: regular ones only. A device, a pipe, a
    // symbolic link or a socket file of that label is in its own class
    // (SELinux's), for which example.policy grants nothing.
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let inode = ls.inode().unwrap();
    let may = |inode: &Inode| {
        crate::dispatch::inode_permission::<crate::dispatch::Loop>(
            inode,
            AccessMask(crate::access::may::READ),
        )
    };
    assert_eq!(may(inode), Ok(()));
    for (kind, class) in [
        (0o020000, Class::ChrFile),
        (0o060000, Class::BlkFile),
        (0o010000, Class::FifoFile),
        (0o120000, Class::LnkFile),
        (0o140000, Class::SockFile),
    ] {
        inode.mode.set(kind | 0o644);
        assert_eq!(class_of(inode), class);
        assert_eq!(may(inode), Err(EACCES), "{class:?}");
    }
    inode.mode.set(0o100644);
    assert_eq!(may(inode), Ok(()));
    // mknod asks create in the class of the node's type: user_t may create
    // files in tmp_t (they become user_tmp_t), not named pipes (fifo_file,
    // no rule).
    load_example(|text| {
        text.replace(
            "type_transition user_t tmp_t : file user_tmp_t;",
            "type_transition user_t tmp_t : { file fifo_file } user_tmp_t;",
        )
    });
    Cred::set_current(Arc::new(h.exec(&ls, &Cred::new(0), false).expect("exec")));
    let tmp = labelled_dir(9200, "system_u:object_r:tmp_t:s0");
    let new = Dentry {
        name: b"n".to_vec(),
        inode: None,
    };
    assert_eq!(Mlte.inode_create(&cx(), &tmp, &new, 0o100644), Ok(()));
    assert_eq!(
        Mlte.inode_mknod(&cx(), &tmp, &new, 0o010644, 0),
        Err(EACCES)
    );
}

#[test]
fn audit_rules_name_types_and_match_secids() {
    let (_s, h) = boot();
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let user = h.exec(&ls, &Cred::new(0), false).expect("exec");
    let rule = Mlte
        .audit_rule_init(AUDIT_SUBJ_TYPE, AUDIT_OP_EQUAL, b"user_t")
        .expect("a type");
    let not = Mlte
        .audit_rule_init(AUDIT_SUBJ_TYPE, AUDIT_OP_NOT_EQUAL, b"user_t")
        .expect("a type");
    let secid = |cred: &Cred| Mlte.cred_getlsmprop(cred).expect("a secid");
    let (u, r) = (secid(&user), secid(&Cred::new(0)));
    assert_eq!(
        Mlte.audit_rule_match(u, AUDIT_SUBJ_TYPE, AUDIT_OP_EQUAL, rule),
        Ok(true)
    );
    assert_eq!(
        Mlte.audit_rule_match(r, AUDIT_SUBJ_TYPE, AUDIT_OP_EQUAL, rule),
        Ok(false)
    );
    assert_eq!(
        Mlte.audit_rule_match(r, AUDIT_SUBJ_TYPE, AUDIT_OP_NOT_EQUAL, not),
        Ok(true)
    );
    // A type the policy lacks, or a field mlte has no values for.
    assert_eq!(
        Mlte.audit_rule_init(AUDIT_SUBJ_TYPE, AUDIT_OP_EQUAL, b"nope_t"),
        Err(EINVAL)
    );
    assert_eq!(
        Mlte.audit_rule_init(AUDIT_SUBJ_TYPE + 1, AUDIT_OP_EQUAL, b"user_t"),
        Err(EINVAL)
    );
    // The secid's text is the context.
    let mut out = crate::objects::SecCtx(Vec::new());
    assert_eq!(Mlte.secid_to_secctx(u, &mut out), Ok(()));
    assert_eq!(out.0, b"system_u:user_r:user_t:s0");
    // Users and roles, of subjects and objects.
    let init = Mlte.inode_getlsmprop(ls.inode().unwrap()).expect("a secid");
    for (field, name, secid, want) in [
        (AUDIT_SUBJ_USER, &b"system_u"[..], u, true),
        (AUDIT_SUBJ_USER, b"user_u", u, false),
        (AUDIT_SUBJ_ROLE, b"user_r", u, true),
        (AUDIT_SUBJ_ROLE, b"system_r", u, false),
        (AUDIT_SUBJ_ROLE, b"system_r", r, true),
        (AUDIT_OBJ_ROLE, b"object_r", init, true),
        (AUDIT_OBJ_USER, b"system_u", init, true),
        (AUDIT_OBJ_TYPE, b"bin_t", init, true),
        (AUDIT_OBJ_TYPE, b"etc_t", init, false),
    ] {
        let rule = Mlte
            .audit_rule_init(field, AUDIT_OP_EQUAL, name)
            .expect("a name");
        assert_eq!(
            Mlte.audit_rule_match(secid, field, AUDIT_OP_EQUAL, rule),
            Ok(want),
            "field {field} = {}",
            String::from_utf8_lossy(name)
        );
    }
    // A name of another kind is no value: user_t is no user.
    assert_eq!(
        Mlte.audit_rule_init(AUDIT_SUBJ_USER, AUDIT_OP_EQUAL, b"user_t"),
        Err(EINVAL)
    );
    assert_eq!(
        Mlte.audit_rule_init(AUDIT_SUBJ_ROLE, AUDIT_OP_EQUAL, b"system_u"),
        Err(EINVAL)
    );
}

/// The exec enters a new role only if `allow system_r user_r` permits it,
/// and a computed context the policy does not find valid is refused, as
/// SELinux's `security_compute_sid()` (`EACCES` when enforcing).
#[test]
fn exec_needs_a_role_allow_and_a_valid_new_context() {
    let (_s, h) = boot();
    let load = |text: &str| {
        let (_, compiled) = crate::mlte_compile(text).expect("compiles");
        assert_eq!(PolicyFile::store(&compiled), Ok(()));
    };
    let example = include_str!("example.policy");
    load(&example.replace("allow system_r user_r;", ""));
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    assert_eq!(h.exec(&ls, &Cred::new(0), false).err(), Some(EACCES));
    // No role_transition: system_r may not have user_t.
    load(&example.replace("role_transition system_r bin_t user_r;", ""));
    assert_eq!(h.exec(&ls, &Cred::new(0), false).err(), Some(EACCES));
    policy::set_enforcing(false);
    let user = h.exec(&ls, &Cred::new(0), false).expect("permissive");
    // Interned as computed; the policy reads it as unlabeled.
    assert_eq!(context_text(cred_sid(&user)), "system_u:system_r:user_t:s0");
    policy::set_enforcing(true);
    load(example);
    let user = h.exec(&ls, &Cred::new(0), false).expect("exec");
    assert_eq!(context_text(cred_sid(&user)), "system_u:user_r:user_t:s0");
}

/// A label with a range, and one whose user the policy lacks.
#[test]
fn labels_are_whole_contexts() {
    let (_s, h) = boot();
    let ranged = file(&h, "r", Some("system_u:object_r:etc_t:s0-s2:c0.c2"));
    assert_eq!(
        label_of(ranged.inode().unwrap()),
        "system_u:object_r:etc_t:s0-s2:c0.c2"
    );
    let nul = file(&h, "n", Some("system_u:object_r:etc_t:s1:c1\0"));
    assert_eq!(
        label_of(nul.inode().unwrap()),
        "system_u:object_r:etc_t:s1:c1"
    );
    for bad in [
        "etc_t:s0",
        "nobody_u:object_r:etc_t:s0",
        "system_u:user_r:etc_t:s0",
        "system_u:object_r:etc_t:s2-s0",
    ] {
        let f = file(&h, "b", Some(bad));
        assert_eq!(
            label_of(f.inode().unwrap()),
            "system_u:object_r:unlabeled_t:s0",
            "{bad}"
        );
    }
}

#[test]
fn a_policy_load_remakes_the_audit_rules() {
    let (_s, _h) = boot();
    let before = platform::audit_rule_updates();
    let (_, compiled) = crate::mlte_compile(include_str!("example.policy")).expect("compiles");
    assert_eq!(PolicyFile::store(&compiled), Ok(()));
    assert_eq!(platform::audit_rule_updates(), before + 1);
    // A refused policy changes nothing.
    assert_eq!(PolicyFile::store(b"not a policy"), Err(EINVAL));
    assert_eq!(platform::audit_rule_updates(), before + 1);
}

/// A denial's log line is SELinux's AVC line with whole contexts, as
/// `tests/mlte/avc-sample.log` holds it: `tests/mlte/test_sepolgen.py`
/// checks that sepolgen (audit2allow) reads that file.
#[test]
fn a_denial_is_logged_as_an_avc_line_sepolgen_reads() {
    let (_s, h) = boot();
    let etc = file(&h, "passwd", Some("system_u:object_r:etc_t:s1:c0-s2:c0.c2"));
    platform::take_log();
    assert_eq!(open(&h, &etc), Err(EACCES));
    let sample = include_str!("../../tests/mlte/avc-sample.log");
    let want = sample.lines().next().expect("a line");
    let log = platform::take_log();
    assert!(
        log.iter()
            .any(|l| l.strip_prefix("stacker: ").map(str::trim_end) == Some(want)),
        "{log:?}"
    );
}

/// A write of `attr/current` needs `setcurrent` on the task itself and
/// `dyntransition` from the old context to the new one, as SELinux's
/// `selinux_lsm_setattr()`; one that changes the role also needs `allow
/// OLD NEW` (`dyntransition` is a role-changing permission); one in the
/// same role does not.
#[test]
fn setcurrent_needs_setcurrent_dyntransition_and_a_role_allow() {
    let (_s, _h) = boot();
    let load = |text: &str| {
        let (_, compiled) = crate::mlte_compile(text).expect("compiles");
        assert_eq!(PolicyFile::store(&compiled), Ok(()));
    };
    let example = include_str!("example.policy").replace(
        "allow init_t user_t : process transition;",
        "allow init_t user_t : process { transition dyntransition };\n\
         allow init_t init_t : process { setcurrent dyntransition };",
    );
    let set = |value: &str| Mlte.setprocattr(&cx(), b"current", value.as_bytes());
    let current = || context_text(current_sid());
    let user = "system_u:user_r:user_t:s0";
    // `setcurrent` alone: the move to user_t is not a `dyntransition`.
    load(&example.replace(
        "allow init_t user_t : process { transition dyntransition };",
        "allow init_t user_t : process { transition setcurrent };",
    ));
    assert_eq!(set(user), Err(EACCES), "no dyntransition");
    // `dyntransition` alone: the task may not set its context at all.
    load(&example.replace(
        "allow init_t init_t : process { setcurrent dyntransition };",
        "allow init_t init_t : process dyntransition;",
    ));
    assert_eq!(set(user), Err(EACCES), "no setcurrent");
    assert_eq!(current(), "system_u:system_r:init_t:s0");
    load(&example.replace("allow system_r user_r;", ""));
    assert_eq!(
        set("system_u:user_r:user_t:s0"),
        Err(EACCES),
        "no role allow"
    );
    assert_eq!(current(), "system_u:system_r:init_t:s0");
    // Another level in the same role needs no role allow.
    let same_role = "system_u:system_r:init_t:s1:c0";
    assert_eq!(set(same_role), Ok(same_role.len()));
    assert_eq!(current(), "system_u:system_r:init_t:s1:c0");
    Cred::set_current(Arc::new(Cred::new(0)));
    load(&example);
    assert_eq!(set(user), Ok(user.len()));
    assert_eq!(current(), "system_u:user_r:user_t:s0");
    // A context the policy finds invalid is refused as text.
    Cred::set_current(Arc::new(Cred::new(0)));
    assert_eq!(set("system_u:user_r:init_t:s0"), Err(EINVAL));
    // A traced task: its tracer (init_t) needs `ptrace` on the new context.
    let tracer = Arc::new(Task::new(1));
    Task::set_current_tracer(Some(tracer));
    assert_eq!(set(user), Err(EACCES), "the tracer may not trace user_t");
    assert_eq!(current(), "system_u:system_r:init_t:s0");
    load(&(example.clone() + "allow init_t user_t : process ptrace;\n"));
    assert_eq!(set(user), Ok(user.len()));
    Task::set_current_tracer(None);
}

/// `auditallow` logs a grant ("avc: granted", no `permissive=`), each
/// time, as SELinux's; a grant it does not name is not logged. A
/// `permissive` domain's denial is logged with `permissive=1` and allowed
/// while enforcing; another domain's is refused.
#[test]
fn auditallow_logs_grants_and_a_permissive_domain_is_not_enforced() {
    let (_s, h) = boot();
    let example = include_str!("example.policy");
    let load = |text: &str| {
        let (_, compiled) = crate::mlte_compile(text).expect("compiles");
        assert_eq!(PolicyFile::store(&compiled), Ok(()));
    };
    load(&format!(
        "{example}\nauditallow init_t bin_t : file open;\npermissive init_t;\n"
    ));
    let bin = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    let granted = |log: &[String]| {
        log.iter()
            .filter(|l| l.contains("avc: granted { open } for") && l.contains("tclass=file"))
            .count()
    };
    platform::take_log();
    for _ in 0..2 {
        assert_eq!(open(&h, &bin), Ok(()));
    }
    let log = platform::take_log();
    assert_eq!(granted(&log), 2, "{log:?}");
    assert!(log.iter().all(|l| !l.contains("permissive=")), "{log:?}");
    // init_t has no rule on user_tmp_t: denied, logged, allowed.
    let tmp = file(&h, "t", Some("system_u:object_r:user_tmp_t:s0"));
    platform::take_log();
    assert_eq!(open(&h, &tmp), Ok(()));
    let log = platform::take_log();
    assert!(
        log.iter().any(|l| l.contains("avc: denied {")
            && l.contains(" open }")
            && l.trim_end().ends_with("permissive=1")),
        "{log:?}"
    );
    // Without the statements: the same open is refused, and the grant is
    // quiet.
    load(example);
    platform::take_log();
    assert_eq!(open(&h, &tmp), Err(EACCES));
    assert_eq!(open(&h, &bin), Ok(()));
    let log = platform::take_log();
    assert_eq!(granted(&log), 0, "{log:?}");
    assert!(log.iter().any(|l| l.contains("permissive=0")), "{log:?}");
}

/// A relabel (`setxattr security.mlte`) that `validatetrans` refuses gets
/// `EPERM` after `relabelfrom`/`relabelto` pass, as SELinux's
/// `selinux_inode_setxattr()`, with SELinux's
/// `op=security_validate_transition` line; permissive mode logs it and
/// lets it through.
#[test]
fn validatetrans_refuses_a_relabel_with_eperm() {
    let (_s, h) = boot();
    let load = |text: &str| {
        let (_, compiled) = crate::mlte_compile(text).expect("compiles");
        assert_eq!(PolicyFile::store(&compiled), Ok(()));
    };
    let example = format!(
        "{}\nallow init_t {{ etc_t tmp_t bin_t }} : file {{ relabelfrom relabelto }};\n",
        include_str!("example.policy")
    );
    // Old `etc_t` may become anything but `bin_t`, unless the task is
    // `user_t`; levels must stay.
    load(&format!(
        "{example}validatetrans file (t1 != etc_t or t2 != bin_t or t3 == user_t);\n\
         mlsvalidatetrans file (l1 eq l2);\n"
    ));
    let relabel = |to: &str| {
        let f = file(&h, "f", Some("system_u:object_r:etc_t:s0"));
        h.setxattr(&f, b"security.mlte", to.as_bytes())
    };
    platform::take_log();
    assert_eq!(relabel("system_u:object_r:tmp_t:s0"), Ok(()));
    assert_eq!(relabel("system_u:object_r:bin_t:s0"), Err(EPERM));
    assert_eq!(
        relabel("system_u:object_r:tmp_t:s1:c0"),
        Err(EPERM),
        "level"
    );
    let log = platform::take_log();
    assert!(
        log.iter().any(|l| l.contains(
            "mlte: op=security_validate_transition seresult=denied \
             oldcontext=system_u:object_r:etc_t:s0 newcontext=system_u:object_r:bin_t:s0 \
             taskcontext=system_u:system_r:init_t:s0 tclass=file"
        )),
        "{log:?}"
    );
    policy::set_enforcing(false);
    assert_eq!(relabel("system_u:object_r:bin_t:s0"), Ok(()));
    policy::set_enforcing(true);
    load(&example);
    assert_eq!(
        relabel("system_u:object_r:bin_t:s0"),
        Ok(()),
        "no statement"
    );
}

/// Booleans: a conditional `allow` follows its boolean through
/// `mlte/booleans` and `mlte/commit_pending_bools` (the decision cache
/// forgets what it decided under the old value), the `else` branch the
/// other way; a reload keeps the current value of a boolean it has too.
#[test]
fn booleans_switch_conditional_rules_through_the_files() {
    let (_s, h) = boot();
    let text = format!(
        "{}\nbool read_etc false;\nbool other true;\n\
         if (read_etc && other) {{ allow init_t etc_t : file {{ read open getattr }}; }}\n\
         else {{ dontaudit init_t etc_t : file {{ read open }}; }}\n",
        include_str!("example.policy")
    );
    let load = |text: &str| {
        let (_, compiled) = crate::mlte_compile(text).expect("compiles");
        assert_eq!(PolicyFile::store(&compiled), Ok(()));
    };
    load(&text);
    let etc = file(&h, "passwd", Some("system_u:object_r:etc_t:s0"));
    let read =
        || platform::read_file("stacker/mlte/booleans").map(|b| String::from_utf8(b).unwrap());
    let write = |path: &str, data: &str| platform::write_file(path, data.as_bytes(), true);
    assert_eq!(read().unwrap(), "other 1 1\nread_etc 0 0\n");
    platform::take_log();
    assert_eq!(open(&h, &etc), Err(EACCES));
    assert!(
        platform::take_log().is_empty(),
        "the else branch's dontaudit"
    );
    assert_eq!(write("stacker/mlte/booleans", "read_etc 1\n"), Ok(()));
    assert_eq!(read().unwrap(), "other 1 1\nread_etc 0 1\n");
    assert_eq!(open(&h, &etc), Err(EACCES), "pending, not committed");
    let seqno = policy::seqno();
    platform::take_log();
    assert_eq!(write("stacker/mlte/commit_pending_bools", "1"), Ok(()));
    assert_eq!(
        policy::seqno(),
        seqno + 1,
        "a commit moves the sequence number"
    );
    let log = platform::take_log();
    assert!(
        log.iter()
            .any(|l| l.contains("mlte: bool=read_etc val=1 old_val=0")),
        "{log:?}"
    );
    assert_eq!(read().unwrap(), "other 1 1\nread_etc 1 1\n");
    assert_eq!(
        open(&h, &etc),
        Ok(()),
        "committed: the cache forgot the denial"
    );
    // Bad writes change nothing.
    for (data, err) in [
        ("nosuch 1", crate::error::ENOENT),
        ("read_etc x", EINVAL),
        ("read_etc 0x1", EINVAL),
        ("read_etc", EINVAL),
        ("read_etc 1 1", EINVAL),
    ] {
        assert_eq!(write("stacker/mlte/booleans", data), Err(err), "{data}");
    }
    assert_eq!(write("stacker/mlte/commit_pending_bools", "x"), Err(EINVAL));
    // As selinuxfs's "%d": any number other than 0 is true.
    assert_eq!(write("stacker/mlte/booleans", "read_etc -2"), Ok(()));
    assert_eq!(read().unwrap(), "other 1 1\nread_etc 1 1\n");
    assert_eq!(
        platform::write_file("stacker/mlte/booleans", b"read_etc 0", false),
        Err(EPERM),
        "CAP_MAC_ADMIN"
    );
    // A reload keeps read_etc's current value; other's pending 0 is not
    // committed, and the reload takes current values only.
    assert_eq!(write("stacker/mlte/booleans", "other 0"), Ok(()));
    load(&text);
    assert_eq!(read().unwrap(), "other 1 1\nread_etc 1 1\n");
    assert_eq!(open(&h, &etc), Ok(()));
    assert_eq!(write("stacker/mlte/booleans", "other 0"), Ok(()));
    assert_eq!(write("stacker/mlte/commit_pending_bools", "1"), Ok(()));
    assert_eq!(open(&h, &etc), Err(EACCES), "read_etc && other");
}

/// Loads `example.policy` with `edit` applied to its text.
fn load_example(edit: impl FnOnce(String) -> String) {
    let text = edit(include_str!("example.policy").to_string());
    let (_, compiled) = crate::mlte_compile(&text).expect("compiles");
    // Loaded by init_t, which may (`security load_policy`), whatever the
    // test's current task is.
    let task = Cred::with_current(Cred::prepare_copy).expect("a copy of the task's cred");
    Cred::set_current(Arc::new(Cred::new(0)));
    assert_eq!(PolicyFile::store(&compiled), Ok(()));
    Cred::set_current(Arc::new(task));
}

/// An inode on file system `fs` (a regular file, or of `mode`), allocated
/// by the current task and reached as `/NAME` in it by `d_instantiate`.
fn inode_on(fs: &'static str, name: &str, mode: Option<u16>) -> Arc<Inode> {
    let inode = Arc::new(Inode::new(9000, false));
    inode.fs.set(crate::objects::HostFs {
        name: fs,
        ..crate::objects::HostFs::PROC
    });
    if let Some(mode) = mode {
        inode.mode.set(mode);
    }
    crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &inode)
        .expect("inode_alloc_security");
    let dentry = Dentry {
        name: name.as_bytes().to_vec(),
        inode: None,
    };
    crate::dispatch::d_instantiate::<crate::dispatch::Loop>(&cx(), &dentry, Some(&inode));
    inode
}

#[test]
fn file_systems_are_labelled_as_the_policy_names_them() {
    let (_s, _h) = boot();
    load_example(|text| {
        text.replace(
            "genfscon proc / system_u:object_r:etc_t:s0",
            "genfscon proc / system_u:object_r:etc_t:s0\n\
             genfscon proc /sys system_u:object_r:bin_t:s0\n\
             genfscon proc /sys/kernel system_u:object_r:tmp_t:s0\n\
             genfscon proc /sysvipc -- system_u:object_r:user_tmp_t:s0",
        )
        .replace(
            "genfscon pipefs / system_u:object_r:etc_t:s0",
            "fs_use_task pipefs system_u:object_r:etc_t:s0;\n\
             fs_use_trans devpts system_u:object_r:tmp_t:s0;",
        )
        .replace("genfscon devpts / system_u:object_r:etc_t:s0\n", "")
        .replace(
            "genfscon sysfs / system_u:object_r:etc_t:s0\n",
            "genfscon sysfs /x system_u:object_r:bin_t:s0\n",
        )
    });
    let label = |fs, name, mode| label_of(&inode_on(fs, name, mode));
    // proc by path: the longest prefix (of bytes, not components), the
    // file type when the rule names one.
    assert_eq!(label("proc", "sys", None), "system_u:object_r:bin_t:s0");
    assert_eq!(
        label("proc", "sysrq-trigger", None),
        "system_u:object_r:bin_t:s0"
    );
    assert_eq!(
        label("proc", "sysvipc", None),
        "system_u:object_r:user_tmp_t:s0"
    );
    assert_eq!(
        label("proc", "sysvipc", Some(0o040755)),
        "system_u:object_r:bin_t:s0"
    );
    assert_eq!(label("proc", "1", None), "system_u:object_r:etc_t:s0");
    // A symbolic link has the file system's context without
    // genfs_seclabel_symlinks.
    assert_eq!(
        label("proc", "sys", Some(0o120777)),
        "system_u:object_r:etc_t:s0"
    );
    // sysfs with no rule for its '/': no file system context, and a path
    // no rule matches is unlabeled; one that matches has its rule's.
    assert_eq!(
        label("sysfs", "y", None),
        "system_u:object_r:unlabeled_t:s0"
    );
    assert_eq!(label("sysfs", "x", None), "system_u:object_r:bin_t:s0");
    // A file system the policy names nowhere: unlabeled, whatever its
    // xattrs say.
    let fuse = Arc::new(Inode::new(9001, false));
    fuse.fs.set(crate::objects::HostFs::FUSE);
    fuse.xattrs.borrow_mut().insert(
        b"security.mlte".to_vec(),
        b"system_u:object_r:bin_t:s0".to_vec(),
    );
    crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &fuse).unwrap();
    let d = Dentry {
        name: b"f".to_vec(),
        inode: None,
    };
    crate::dispatch::d_instantiate::<crate::dispatch::Loop>(&cx(), &d, Some(&fuse));
    assert_eq!(label_of(&fuse), "system_u:object_r:unlabeled_t:s0");
    // fs_use_task: the maker's context; fs_use_trans: the transition from
    // the maker's on the file system's (none here: the file system's).
    assert_eq!(label("pipefs", "p", None), "system_u:system_r:init_t:s0");
    assert_eq!(label("devpts", "0", None), "system_u:object_r:tmp_t:s0");
    Cred::set_current(Arc::new({
        let c = Cred::new(0);
        c.state(&KEY)
            .unwrap()
            .set(Some(sid_of("system_u:user_r:user_t:s0")));
        c
    }));
    assert_eq!(label("pipefs", "p", None), "system_u:user_r:user_t:s0");
    // user_t on tmp_t: `type_transition user_t tmp_t : file user_tmp_t`.
    assert_eq!(
        label("devpts", "1", None),
        "system_u:object_r:user_tmp_t:s0"
    );
}

#[test]
fn file_systems_labelled_by_the_policy_take_no_labels() {
    let (_s, h) = boot();
    let inode = inode_on("proc", "x", None);
    let dentry = Dentry {
        name: b"x".to_vec(),
        inode: Some(inode.clone()),
    };
    assert_eq!(
        h.setxattr(&dentry, b"security.mlte", b"system_u:object_r:bin_t:s0"),
        Err(EOPNOTSUPP)
    );
    // A new inode on such a file system gets no xattr and no label yet.
    let new = Arc::new(Inode::new(9002, false));
    new.fs.set(crate::objects::HostFs::PROC);
    let xattr = Mlte.inode_init_security(&cx(), &new, &inode, b"n");
    assert!(matches!(xattr, Ok(None)), "no xattr on proc");
    assert!(new.state(&KEY).is_some_and(|s| !s.label.is_set()));
    // On ext4 (fs_use_xattr) the new inode gets its computed context.
    let ext4 = Arc::new(Inode::new(9003, true));
    let file = Arc::new(Inode::new(9004, false));
    let xattr = Mlte.inode_init_security(&cx(), &file, &ext4, b"n");
    assert!(matches!(xattr, Ok(Some(_))), "an xattr on ext4");
}

#[test]
fn private_inodes_are_not_checked() {
    let (_s, h) = boot();
    let etc = file(&h, "shm", Some("system_u:object_r:etc_t:s0"));
    // init_t may not open etc_t files...
    assert_eq!(open(&h, &etc), Err(EACCES));
    // ...but System V shared memory's private file is not checked.
    etc.inode().unwrap().private.set(true);
    assert_eq!(open(&h, &etc), Ok(()));
}

#[test]
fn new_files_get_their_context_from_the_cache_and_names_still_count() {
    let (_s, _h) = boot();
    // Without name-based rules for the triple, repeats come from the new-SID
    // cache; with one, every creation computes (its name may match).
    load_example(|text| {
        text.replace(
            "type_transition user_t tmp_t : file user_tmp_t;",
            "type_transition user_t tmp_t : file user_tmp_t;\n\
             type_transition user_t etc_t : file bin_t \"special\";",
        )
    });
    Cred::set_current(Arc::new({
        let c = Cred::new(0);
        c.state(&KEY)
            .unwrap()
            .set(Some(sid_of("system_u:user_r:user_t:s0")));
        c
    }));
    let dir = |label: &str| labelled_dir(9100, label);
    let created = |dir: &Arc<Inode>, name: &str| {
        let file = Arc::new(Inode::new(9101, false));
        crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &file).unwrap();
        Mlte.inode_init_security(&cx(), &file, dir, name.as_bytes())
            .unwrap();
        label_of(&file)
    };
    let (tmp, etc) = (
        dir("system_u:object_r:tmp_t:s0"),
        dir("system_u:object_r:etc_t:s0"),
    );
    let cached = || policy::with(|p| p.unwrap().new_sids_cached());
    for round in 0..3 {
        assert_eq!(created(&tmp, "a"), "system_u:object_r:user_tmp_t:s0");
        assert_eq!(created(&etc, "special"), "system_u:object_r:bin_t:s0");
        assert_eq!(created(&etc, "plain"), "system_u:object_r:etc_t:s0");
        // The tmp_t triple is cached once, in the first round; etc_t's,
        // which a name can change, never.
        assert_eq!(cached(), 1, "round {round}");
    }
    // A new policy computes afresh: the cache went with the old one.
    load_example(|text| {
        text.replace(
            "type_transition user_t tmp_t : file user_tmp_t;",
            "type_transition user_t tmp_t : file etc_t;",
        )
    });
    assert_eq!(created(&tmp, "a"), "system_u:object_r:etc_t:s0");
}

#[test]
fn sockets_and_their_inodes_are_in_their_socket_class() {
    let (_s, _h) = boot();
    load_example(|text| text + "allow init_t self : tcp_socket { create getattr };\n");
    let create = |family, ty| Mlte.socket_create(&cx(), family, ty, 0, false);
    // TCP is allowed; a Unix stream socket is another class, with no rule.
    assert_eq!(create(2, 1), Ok(()));
    assert_eq!(create(1, 1), Err(EACCES));
    // The socket's inode takes its class and label: getattr (a permission
    // files and sockets share) is allowed, read is not.
    let inode = Arc::new(Inode::new(9300, false));
    inode.mode.set(0o140777);
    crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &inode).unwrap();
    assert_eq!(
        class_of(&inode),
        Class::SockFile,
        "before socket_post_create"
    );
    let sock = Socket {
        sock: Some(Arc::new(crate::objects::Sock::new(2))),
        inode: inode.clone(),
    };
    assert_eq!(
        Mlte.socket_post_create(&cx(), &sock, 2, 1, 0, false),
        Ok(())
    );
    assert_eq!(class_of(&inode), Class::TcpSocket);
    assert_eq!(inode_sid(&inode), current_sid());
    let target = Target::Inode(&inode);
    assert_eq!(
        check_inode(&inode, Class::TcpSocket, FILE_GETATTR, target),
        Ok(())
    );
    assert_eq!(
        check_inode(&inode, Class::TcpSocket, FILE_READ, target),
        Err(EACCES)
    );
    // `open` is not a socket permission: not asked of a socket's inode.
    assert_eq!(
        check_inode(&inode, Class::TcpSocket, FILE_OPEN, target),
        Ok(())
    );
}

#[test]
fn statfs_asks_on_the_file_systems_context() {
    let (_s, h) = boot();
    // ext4's context is etc_t (fs_use_xattr); the file's label does not
    // count: a bin_t file there is asked about as etc_t's file system.
    load_example(|text| {
        text.replace(
            "fs_use_xattr ext4 system_u:object_r:etc_t:s0;",
            "fs_use_xattr ext4 system_u:object_r:tmp_t:s0;",
        ) + "allow init_t tmp_t : filesystem getattr;\n"
    });
    let ls = file(&h, "ls", Some("system_u:object_r:bin_t:s0"));
    assert_eq!(Mlte.sb_statfs(&cx(), &ls), Ok(()));
    // The same file system named by another context: refused.
    load_example(|text| text + "allow init_t bin_t : filesystem getattr;\n");
    assert_eq!(Mlte.sb_statfs(&cx(), &ls), Err(EACCES));
}

#[test]
fn a_new_socket_takes_its_type_transition_and_an_accepted_one_its_listeners_label() {
    let (_s, _h) = boot();
    load_example(|text| {
        text + "role system_r types user_t;\n\
                type_transition init_t init_t : udp_socket user_t;\n\
                allow init_t user_t : udp_socket create;\n\
                allow init_t init_t : tcp_socket { create accept };\n"
    });
    let socket = |ino| {
        let inode = Arc::new(Inode::new(ino, false));
        inode.mode.set(0o140777);
        crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &inode).unwrap();
        Socket {
            sock: Some(Arc::new(crate::objects::Sock::new(2))),
            inode,
        }
    };
    // UDP: create is asked on the new socket's SID, user_t's, and the
    // sock and its inode are labelled with it.
    assert_eq!(Mlte.socket_create(&cx(), 2, 2, 0, false), Ok(()));
    let udp = socket(9400);
    assert_eq!(Mlte.socket_post_create(&cx(), &udp, 2, 2, 0, false), Ok(()));
    assert_eq!(label_of(&udp.inode), "system_u:system_r:user_t:s0");
    assert_eq!(class_of(&udp.inode), Class::UdpSocket);
    // TCP has no transition: the creator's own SID.
    let tcp = socket(9401);
    assert_eq!(Mlte.socket_post_create(&cx(), &tcp, 2, 1, 0, false), Ok(()));
    assert_eq!(inode_sid(&tcp.inode), current_sid());
    // A kernel socket: sid kernel, whatever the creator.
    let kern = socket(9402);
    assert_eq!(Mlte.socket_post_create(&cx(), &kern, 2, 2, 0, true), Ok(()));
    assert_eq!(inode_sid(&kern.inode), Sid::initial(InitialSid::Kernel));
    // An accepted socket's inode: the listener's inode's class and label.
    let accepted = Socket {
        sock: None,
        inode: socket(9403).inode,
    };
    assert_eq!(Mlte.socket_accept(&cx(), &udp, &accepted), Err(EACCES));
    assert_eq!(Mlte.socket_accept(&cx(), &tcp, &accepted), Ok(()));
    assert_eq!(class_of(&accepted.inode), Class::TcpSocket);
    assert_eq!(inode_sid(&accepted.inode), current_sid());
    // Without the create rule on the new SID, the UDP socket is refused.
    load_example(|text| {
        text + "role system_r types user_t;\n\
                type_transition init_t init_t : udp_socket user_t;\n"
    });
    assert_eq!(Mlte.socket_create(&cx(), 2, 2, 0, false), Err(EACCES));
}

#[test]
fn system_v_ipc_is_asked_as_selinux_asks_it() {
    use crate::objects::{IpcPerm, MsgMsg, Task};
    let (_s, _h) = boot();
    // init_t's queues: a message init_t sends is user_t's (a
    // type_transition on msg), which init_t may send, and which may be
    // queued; its semaphore sets: create only.
    let rules = "role system_r types user_t;\n\
                 allow init_t self : msgq { create write read unix_read unix_write associate };\n\
                 type_transition init_t init_t : msg user_t;\n\
                 allow init_t user_t : msg { send receive };\n\
                 allow user_t init_t : msgq enqueue;\n\
                 allow init_t self : sem { create unix_read read };\n";
    load_example(|text| text + rules);
    let queue = IpcPerm::new();
    assert_eq!(Mlte.msg_queue_alloc_security(&cx(), &queue), Ok(()));
    let sem = IpcPerm::new();
    assert_eq!(Mlte.sem_alloc_security(&cx(), &sem), Ok(()));
    // `ipcperms()`'s bits are unix_read and unix_write, in the object's
    // own class; none asks nothing.
    const R: i16 = 0o444;
    const W: i16 = 0o222;
    assert_eq!(Mlte.ipc_permission(&queue, R | W), Ok(()));
    assert_eq!(Mlte.ipc_permission(&sem, R), Ok(()));
    assert_eq!(Mlte.ipc_permission(&sem, W), Err(EACCES));
    assert_eq!(Mlte.ipc_permission(&sem, 0), Ok(()));
    assert_eq!(Mlte.msg_queue_associate(&queue, 0), Ok(()));
    assert_eq!(Mlte.sem_associate(&sem, 0), Err(EACCES));
    // semop: waiting reads, altering writes too.
    assert_eq!(Mlte.sem_semop(&sem, 1, false), Ok(()));
    assert_eq!(Mlte.sem_semop(&sem, 1, true), Err(EACCES));
    // *ctl: GETVAL reads, SETVAL writes, IPC_STAT is getattr and
    // associate, an unchecked command is allowed, IPC_INFO is `system
    // ipc_info`.
    assert_eq!(Mlte.sem_semctl(Some(&sem), crate::abi::GETVAL), Ok(()));
    assert_eq!(Mlte.sem_semctl(Some(&sem), crate::abi::SETVAL), Err(EACCES));
    assert_eq!(
        Mlte.msg_queue_msgctl(Some(&queue), crate::abi::IPC_STAT),
        Err(EACCES)
    );
    assert_eq!(Mlte.msg_queue_msgctl(Some(&queue), 99), Ok(()));
    assert_eq!(
        Mlte.msg_queue_msgctl(None, crate::abi::MSG_INFO),
        Err(EACCES)
    );
    // A message is labelled when sent, by the type_transition. (Its
    // allocation sets up room to intern its context without sleeping.)
    let security = crate::objects::MsgMsgSecurity::new();
    assert_eq!(Mlte.msg_msg_alloc_security(&cx(), &security), Ok(()));
    let msg = MsgMsg::new(1);
    assert_eq!(Mlte.msg_queue_msgsnd(&queue, &msg, 0), Ok(()));
    let label = msg.state(&KEY).and_then(Label::get).expect("labelled");
    assert_eq!(context_text(label), "system_u:object_r:user_t:s0");
    let me = Task::new(1);
    assert_eq!(Mlte.msg_queue_msgrcv(&queue, &msg, &me, 0, 0), Ok(()));
    // Without `msgq enqueue` for the message's type, it is not queued;
    // without `msg receive`, not received.
    load_example(|text| {
        text + &rules
            .replace("allow user_t init_t : msgq enqueue;\n", "")
            .replace("{ send receive }", "send")
            + "allow init_t self : system ipc_info;\n"
    });
    assert_eq!(
        Mlte.msg_queue_msgsnd(&queue, &MsgMsg::new(1), 0),
        Err(EACCES)
    );
    assert_eq!(Mlte.msg_queue_msgrcv(&queue, &msg, &me, 0, 0), Err(EACCES));
    assert_eq!(Mlte.msg_queue_msgctl(None, crate::abi::IPC_INFO), Ok(()));
    // shmat: read-only asks read, else read and write.
    let shm = IpcPerm::new();
    load_example(|text| text + "allow init_t self : shm { create read };\n");
    assert_eq!(Mlte.shm_alloc_security(&cx(), &shm), Ok(()));
    assert_eq!(Mlte.shm_shmat(&shm, crate::abi::SHM_RDONLY), Ok(()));
    assert_eq!(Mlte.shm_shmat(&shm, 0), Err(EACCES));
    assert_eq!(
        Mlte.shm_shmctl(Some(&shm), crate::abi::SHM_LOCK),
        Err(EACCES)
    );
}

#[test]
fn taking_append_mode_off_needs_write() {
    let (_s, h) = boot();
    // init_t may append to etc_t files but not write them.
    load_example(|text| text + "allow init_t etc_t : file { open append getattr };\n");
    let log = file(&h, "log", Some("system_u:object_r:etc_t:s0"));
    let inode = log.inode.clone().expect("positive");
    let file = File::opened(log.clone(), inode, false, true);
    file.appending
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let fcntl = |cmd, arg| Mlte.file_fcntl(&cx(), &file, cmd, arg);
    const O_APPEND: u64 = crate::abi::O_APPEND as u64;
    // F_SETFL keeping O_APPEND, or any other command: nothing asked.
    assert_eq!(fcntl(crate::abi::F_SETFL, O_APPEND), Ok(()));
    assert_eq!(fcntl(3, 0), Ok(()));
    // Taking it off: `write`, which init_t lacks.
    assert_eq!(fcntl(crate::abi::F_SETFL, 0), Err(EACCES));
    load_example(|text| text + "allow init_t etc_t : file { open append write getattr };\n");
    assert_eq!(fcntl(crate::abi::F_SETFL, 0), Ok(()));
    // A file not in append mode has nothing to take off.
    load_example(|text| text + "allow init_t etc_t : file { open append getattr };\n");
    file.appending
        .store(false, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(fcntl(crate::abi::F_SETFL, 0), Ok(()));
}

/// A capability is asked of the task itself, in SELinux's class for its
/// word (0-31 `capability`, 32 and up `capability2`) and user namespace
/// (`cap_userns`, `cap2_userns` outside the initial one), as
/// `cred_has_capability()`; a denial is an AVC line with `capability=`,
/// except under `CAP_OPT_NOAUDIT`.
#[test]
fn capabilities_are_asked_in_selinuxs_classes() {
    let (_s, h) = boot();
    load_example(|text| {
        text.replace("allow init_t self : { capability capability2 } *;", "")
            + "allow init_t self : capability chown;\n\
                allow init_t self : cap_userns sys_admin;\n\
                allow init_t self : capability2 mac_admin;\n\
                allow init_t self : cap2_userns syslog;\n"
    });
    let root = Cred::new(0);
    let cap = |initial_ns, cap: u32, opts| h.capable_in(&root, initial_ns, cap, opts);
    const NOAUDIT: u32 = crate::abi::CAP_OPT_NOAUDIT;
    // CAP_CHOWN 0, CAP_DAC_OVERRIDE 1, CAP_SYS_ADMIN 21, CAP_MAC_ADMIN 33,
    // CAP_SYSLOG 34.
    assert_eq!(cap(true, 0, 0), Ok(()));
    assert_eq!(cap(false, 0, 0), Err(EACCES));
    assert_eq!(cap(true, 21, 0), Err(EACCES));
    assert_eq!(cap(false, 21, 0), Ok(()));
    assert_eq!(cap(true, 33, 0), Ok(()));
    assert_eq!(cap(false, 33, 0), Err(EACCES));
    assert_eq!(cap(true, 34, 0), Err(EACCES));
    assert_eq!(cap(false, 34, 0), Ok(()));
    // Past CAP_LAST_CAP: refused, as SELinux's "out of range capability".
    assert_eq!(cap(true, 41, 0), Err(EINVAL));
    assert_eq!(cap(true, u32::MAX, 0), Err(EINVAL));
    // The denial's line names the capability; a NOAUDIT check logs nothing.
    platform::take_log();
    assert_eq!(cap(true, 1, 0), Err(EACCES));
    let log = platform::take_log();
    assert!(
        log.iter().any(|l| l.contains("denied { dac_override }")
            && l.contains(" capability=1 ")
            && l.contains("tclass=capability ")),
        "{log:?}"
    );
    assert_eq!(cap(true, 2, NOAUDIT), Err(EACCES));
    let log = platform::take_log();
    assert!(!log.iter().any(|l| l.contains("avc:")), "{log:?}");
    // Permissive: allowed, and still logged.
    policy::set_enforcing(false);
    assert_eq!(cap(true, 1, 0), Ok(()));
    let log = platform::take_log();
    assert!(
        log.iter()
            .any(|l| l.contains("denied { dac_override }") && l.contains("permissive=1")),
        "{log:?}"
    );
    policy::set_enforcing(true);
}

/// The policy interface asks the policy, as selinuxfs does: loading a
/// policy needs `security load_policy`, changing the mode `setenforce`,
/// a boolean `setbool`, and each question its `compute_*` or
/// `check_context` permission, all on `sid security`. So a root task in a
/// domain without them cannot change the policy or the mode.
#[test]
fn the_policy_interface_asks_the_security_class() {
    let (_s, _h) = boot();
    let (_, compiled) = crate::mlte_compile(include_str!("example.policy")).expect("compiles");
    let as_user = || {
        Cred::set_current(Arc::new({
            let c = Cred::new(0);
            c.state(&KEY)
                .unwrap()
                .set(Some(sid_of("system_u:user_r:user_t:s0")));
            c
        }))
    };
    let question = "system_u:user_r:user_t:s0 system_u:object_r:etc_t:s0 file";
    let ask =
        |input: &str| platform::ask_file("stacker/mlte/access", input.as_bytes(), true).map(|_| ());
    let write = |path: &str, data: &str| platform::write_file(path, data.as_bytes(), true);
    as_user();
    platform::take_log();
    assert_eq!(PolicyFile::store(&compiled), Err(EACCES));
    let log = platform::take_log();
    assert!(
        log.iter().any(|l| l.contains("denied { load_policy }")
            && l.contains("tcontext=system_u:object_r:security_t:s0 tclass=security ")),
        "{log:?}"
    );
    assert_eq!(write("stacker/mlte/enforce", "0"), Err(EACCES));
    assert!(policy::enforcing());
    // Writing the mode in force changes nothing and asks nothing.
    assert_eq!(write("stacker/mlte/enforce", "1\n"), Ok(()));
    assert_eq!(ask(question), Err(EACCES));
    assert_eq!(write("stacker/mlte/commit_pending_bools", "1"), Err(EACCES));
    // init_t has `security *`.
    Cred::set_current(Arc::new(Cred::new(0)));
    assert_eq!(ask(question), Ok(()));
    assert_eq!(write("stacker/mlte/enforce", "0"), Ok(()));
    assert!(!policy::enforcing());
    assert_eq!(write("stacker/mlte/enforce", "1"), Ok(()));
    assert_eq!(PolicyFile::store(&compiled), Ok(()));
    assert_eq!(write("stacker/mlte/commit_pending_bools", "1"), Ok(()));
    // Only the permission asked is granted.
    load_example(|text| {
        text.replace(
            "allow init_t security_t : security *;",
            "allow init_t security_t : security { load_policy compute_av };",
        )
    });
    assert_eq!(ask(question), Ok(()));
    assert_eq!(write("stacker/mlte/enforce", "0"), Err(EACCES));
    assert_eq!(write("stacker/mlte/commit_pending_bools", "1"), Err(EACCES));
    assert_eq!(PolicyFile::store(&compiled), Ok(()));
}

/// Mapping asks what SELinux's `selinux_mmap_file()` and
/// `selinux_file_mprotect()` ask: `map`, then `read`, `write` for a shared
/// writable mapping and `execute` for an executable one; `process
/// execmem` for executable anonymous memory or a private writable
/// executable mapping; and, when `mprotect` makes memory executable,
/// `execheap`, `execstack` or the file's `execmod`.
#[test]
fn mappings_ask_what_selinux_asks() {
    use crate::abi::{MAP_SHARED, PROT_EXEC, PROT_WRITE};
    use crate::objects::{Vma, VmaMemory};
    const PROT_READ: u64 = 1;
    const MAP_PRIVATE: u64 = 2;
    let (_s, h) = boot();
    let lib = file(&h, "lib", Some("system_u:object_r:etc_t:s0"));
    let inode = lib.inode.clone().expect("positive");
    let file = Arc::new(File::opened(lib.clone(), inode, true, true));
    let allow = |perms: &str| {
        load_example(|text| text + &format!("allow init_t etc_t : file {{ {perms} }};\n"));
    };
    let mmap = |f: Option<&File>, prot, flags| Mlte.mmap_file(&cx(), f, prot, prot, flags);
    // `map` alone: reading needs `read` too.
    allow("map");
    assert_eq!(mmap(Some(&file), PROT_READ, MAP_PRIVATE), Err(EACCES));
    allow("read");
    assert_eq!(
        mmap(Some(&file), PROT_READ, MAP_PRIVATE),
        Err(EACCES),
        "no map"
    );
    allow("map read");
    assert_eq!(mmap(Some(&file), PROT_READ, MAP_PRIVATE), Ok(()));
    // Writable: `write` when shared only (a private one writes no file).
    let rw = PROT_READ | PROT_WRITE;
    assert_eq!(mmap(Some(&file), rw, MAP_PRIVATE), Ok(()));
    assert_eq!(mmap(Some(&file), rw, MAP_SHARED), Err(EACCES));
    allow("map read write");
    assert_eq!(mmap(Some(&file), rw, MAP_SHARED), Ok(()));
    // Executable: `execute`; private and writable too: `execmem`.
    let rx = PROT_READ | PROT_EXEC;
    assert_eq!(mmap(Some(&file), rx, MAP_PRIVATE), Err(EACCES));
    allow("map read execute");
    assert_eq!(mmap(Some(&file), rx, MAP_PRIVATE), Ok(()));
    assert_eq!(mmap(Some(&file), rx | PROT_WRITE, MAP_PRIVATE), Err(EACCES));
    assert_eq!(mmap(None, rx, MAP_PRIVATE), Err(EACCES));
    assert_eq!(mmap(None, rw, MAP_PRIVATE), Ok(()));
    load_example(|text| {
        text + "allow init_t etc_t : file { map read execute };\n\
                allow init_t self : process execmem;\n"
    });
    assert_eq!(mmap(Some(&file), rx | PROT_WRITE, MAP_PRIVATE), Ok(()));
    assert_eq!(mmap(None, rx, MAP_PRIVATE), Ok(()));
    // mprotect to executable: by what the memory is.
    let vma = |f: Option<Arc<File>>, memory, exec| Vma {
        exec,
        memory,
        ..Vma::new(f)
    };
    let mprotect = |v: &Vma, prot| Mlte.file_mprotect(&cx(), v, prot, prot);
    let heap = vma(None, VmaMemory::Heap, false);
    let stack = vma(None, VmaMemory::Stack, false);
    let relocated = vma(Some(file.clone()), VmaMemory::WrittenFile, false);
    assert_eq!(mprotect(&heap, rx), Err(EACCES));
    assert_eq!(mprotect(&stack, rx), Err(EACCES));
    assert_eq!(mprotect(&relocated, rx), Err(EACCES));
    // Already executable: none of those, only what a mapping asks.
    assert_eq!(mprotect(&vma(None, VmaMemory::Heap, true), rx), Ok(()));
    assert_eq!(
        mprotect(&vma(Some(file.clone()), VmaMemory::WrittenFile, true), rx),
        Ok(())
    );
    load_example(|text| {
        text + "allow init_t etc_t : file { map read execute execmod };\n\
                allow init_t self : process { execmem execheap execstack };\n"
    });
    assert_eq!(mprotect(&heap, rx), Ok(()));
    assert_eq!(mprotect(&stack, rx), Ok(()));
    assert_eq!(mprotect(&relocated, rx), Ok(()));
    // mprotect asks no `map`, but `read` (and the rest) on the file.
    load_example(|text| text + "allow init_t etc_t : file map;\n");
    assert_eq!(
        mprotect(&vma(Some(file.clone()), VmaMemory::Other, false), PROT_READ),
        Err(EACCES)
    );
}

/// Unix sockets, as SELinux's hooks: connecting asks `connectto` of the
/// connecting socket on the listener, and the server's end of the
/// connection takes the listener's context at the client's levels
/// (`security_sid_mls_copy()`: refused when that is not valid); a
/// datagram asks `sendto` on the receiving socket. An accepted socket's
/// inode takes its sock's context (`sock_graft`); a cloned sock its
/// listener's.
#[test]
fn unix_sockets_ask_connectto_and_sendto_and_the_server_end_has_the_clients_level() {
    use crate::objects::Sock;
    let (_s, _h) = boot();
    let sk = |label: &str, class: Class| {
        let sk = Arc::new(Sock::new(1));
        let state = sk.state(&KEY).expect("a slot");
        state.class.set(class);
        state.label.set(Some(sid_of(label)));
        sk
    };
    let stream = Class::UnixStreamSocket;
    let listener = sk("system_u:system_r:init_t:s0-s2:c0.c2", stream);
    let client = sk("system_u:user_r:user_t:s1:c0", stream);
    let new = Arc::new(Sock::new(1));
    assert_eq!(
        Mlte.unix_stream_connect(&client, &listener, &new),
        Err(EACCES)
    );
    load_example(|text| text + "allow user_t init_t : unix_stream_socket connectto;\n");
    assert_eq!(Mlte.unix_stream_connect(&client, &listener, &new), Ok(()));
    let server_end = new.state(&KEY).expect("a slot");
    assert_eq!(
        context_text(server_end.label.get().expect("labelled")),
        "system_u:system_r:init_t:s1:c0"
    );
    assert_eq!(server_end.class.get(), Some(stream));
    // The accepted socket's inode takes that context; a clone its sock's.
    let inode = Arc::new(Inode::new(9400, false));
    inode.mode.set(0o140777);
    crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &inode).unwrap();
    let accepted = Socket {
        sock: Some(new.clone()),
        inode: inode.clone(),
    };
    Mlte.sock_graft(&new, &accepted);
    assert_eq!(
        context_text(inode_sid(&inode)),
        "system_u:system_r:init_t:s1:c0"
    );
    assert_eq!(class_of(&inode), stream);
    let clone = Arc::new(Sock::new(1));
    Mlte.sk_clone_security(&new, &clone);
    assert_eq!(
        clone.state(&KEY).and_then(|s| s.label.get()),
        server_end.label.get()
    );
    // user_u's listener at a client's level beyond user_u's range: no
    // valid context for the server's end.
    let user_listener = sk("user_u:user_r:user_t:s0", stream);
    let high = sk("system_u:user_r:user_t:s2:c0.c2", stream);
    load_example(|text| text + "allow user_t user_t : unix_stream_socket connectto;\n");
    assert_eq!(
        Mlte.unix_stream_connect(&high, &user_listener, &Arc::new(Sock::new(1))),
        Err(EINVAL)
    );
    // Datagrams: `sendto` on the receiver.
    let dgram = Class::UnixDgramSocket;
    let socket = |sk: Arc<Sock>| Socket {
        sock: Some(sk),
        inode: Arc::new(Inode::new(9401, false)),
    };
    let receiver = socket(sk("system_u:system_r:init_t:s0", dgram));
    let sender = socket(sk("system_u:user_r:user_t:s0", dgram));
    assert_eq!(Mlte.unix_may_send(&sender, &receiver), Err(EACCES));
    load_example(|text| text + "allow user_t init_t : unix_dgram_socket sendto;\n");
    assert_eq!(Mlte.unix_may_send(&sender, &receiver), Ok(()));
    assert_eq!(Mlte.unix_may_send(&receiver, &sender), Err(EACCES));
}

/// An open file is decided again when it is used by another task than
/// its opener, after a relabel, or after a reload, as SELinux's
/// `selinux_file_permission()`, and using one another context opened is
/// `fd use` on that context (`file_has_perm()`): through reads and writes,
/// `fcntl`, locks, `ioctl`, and a descriptor received.
#[test]
fn open_files_are_decided_again_and_their_use_is_fd_use() {
    use crate::objects::AccessMask;
    let (_s, h) = boot();
    load_example(|text| text + "allow init_t etc_t : file { read open getattr };\n");
    let etc = file(&h, "passwd", Some("system_u:object_r:etc_t:s0"));
    let f = h.open(&etc).expect("init_t opens etc_t");
    let read = |f: &File| Mlte.file_permission(&cx(), f, AccessMask(may::READ));
    // Its opener, nothing changed: decided at open.
    assert_eq!(read(&f), Ok(()));
    // user_t (after an exec, or handed the descriptor): `fd use` on
    // init_t first, then `read` on etc_t.
    let user = || {
        let c = Cred::new(0);
        c.state(&KEY)
            .unwrap()
            .set(Some(sid_of("system_u:user_r:user_t:s0")));
        Cred::set_current(Arc::new(c));
    };
    let init = || Cred::set_current(Arc::new(Cred::new(0)));
    user();
    assert_eq!(read(&f), Err(EACCES), "no fd use");
    assert_eq!(Mlte.file_receive(&cx(), &f), Err(EACCES));
    assert_eq!(
        Mlte.file_fcntl(&cx(), &f, crate::abi::F_GETFL, 0),
        Err(EACCES)
    );
    init();
    load_example(|text| {
        text + "allow init_t etc_t : file { read open getattr };\n\
                allow user_t init_t : fd use;\n"
    });
    user();
    assert_eq!(read(&f), Ok(()));
    assert_eq!(Mlte.file_receive(&cx(), &f), Ok(()));
    assert_eq!(Mlte.file_fcntl(&cx(), &f, crate::abi::F_GETFL, 0), Ok(()));
    // Locking needs `lock`, which user_t lacks on etc_t; FIONREAD is
    // `getattr`, which it has; another ioctl `ioctl`, which it has not.
    assert_eq!(Mlte.file_lock(&cx(), &f, 2), Err(EACCES));
    assert_eq!(Mlte.file_fcntl(&cx(), &f, 6, 0), Err(EACCES), "F_SETLK");
    assert_eq!(Mlte.file_ioctl(&cx(), &f, crate::abi::FIONREAD, 0), Ok(()));
    assert_eq!(Mlte.file_ioctl(&cx(), &f, 0x5401, 0), Err(EACCES), "TCGETS");
    // The opener again, after a relabel to a type it may not read (a
    // file opened under the policy in force: only the label changed).
    init();
    h.close(f);
    let f = h.open(&etc).expect("init_t opens etc_t");
    assert_eq!(read(&f), Ok(()));
    let inode = etc.inode.clone().expect("positive");
    inode
        .state(&KEY)
        .unwrap()
        .label
        .set(Some(sid_of("system_u:object_r:user_tmp_t:s0")));
    assert_eq!(read(&f), Err(EACCES), "relabelled");
    inode
        .state(&KEY)
        .unwrap()
        .label
        .set(Some(sid_of("system_u:object_r:etc_t:s0")));
    assert_eq!(read(&f), Ok(()));
    // After a reload that takes `read` away: decided again, refused.
    load_example(|text| text + "allow init_t etc_t : file { open getattr };\n");
    assert_eq!(read(&f), Err(EACCES), "reloaded");
    h.close(f);
}

/// Mounts as SELinux's hooks: `mounton` on the mount point (mount(2),
/// move_mount(2) of the new mount API), `filesystem mount` on a new file
/// system's context (sb_kern_mount, also for fsconfig's create),
/// `unmount` and `remount` on the mounted one's.
#[test]
fn mounts_ask_mounton_and_the_file_systems_mount_remount_unmount() {
    use crate::abi::MS_REMOUNT;
    use crate::objects::{Path, Superblock, Vfsmount};
    let (_s, h) = boot();
    let point = file(&h, "mnt", Some("system_u:object_r:tmp_t:s0"));
    let path = Path {
        dentry: point.clone(),
    };
    // A tmpfs: `fs_use_xattr tmpfs` gives it etc_t.
    let tmpfs = Arc::new(Superblock::new(0x0102_1994));
    let mounted = Vfsmount { sb: tmpfs.clone() };
    let all = || {
        (
            Mlte.sb_mount(&cx(), None, &path, Some(b"tmpfs"), 0),
            Mlte.move_mount(&cx(), &path, &path),
            Mlte.sb_kern_mount(&cx(), &tmpfs),
            Mlte.sb_umount(&cx(), &mounted, 0),
        )
    };
    assert_eq!(all(), (Err(EACCES), Err(EACCES), Err(EACCES), Err(EACCES)));
    load_example(|text| text + "allow init_t tmp_t : file mounton;\n");
    assert_eq!(all(), (Ok(()), Ok(()), Err(EACCES), Err(EACCES)));
    load_example(|text| {
        text + "allow init_t tmp_t : file mounton;\n\
                allow init_t etc_t : filesystem { mount unmount };\n"
    });
    assert_eq!(all(), (Ok(()), Ok(()), Ok(()), Ok(())));
    // A remount asks the mounted file system (ext4's: etc_t), not the
    // mount point.
    let remount = || Mlte.sb_mount(&cx(), None, &path, None, MS_REMOUNT);
    assert_eq!(remount(), Err(EACCES));
    load_example(|text| text + "allow init_t etc_t : filesystem remount;\n");
    assert_eq!(remount(), Ok(()));
}

/// The smaller checks of SELinux's: signals by kind (`signull`,
/// `sigchld`, `sigstop`), PTRACE_TRACEME from the parent, another task's
/// `attr/current` (`process getattr`), symlinks (`lnk_file read`),
/// extended attributes (`getattr`), and a directory's rename (`rename`,
/// `reparent` to another parent).
#[test]
fn signals_traceme_attr_symlinks_xattrs_and_directory_renames() {
    let (_s, h) = boot();
    let task = Arc::new(Task::new(4321));
    load_example(|text| text + "allow init_t init_t : process signal;\n");
    let kill = |sig| Mlte.task_kill(&task, sig, None);
    assert_eq!(kill(15), Ok(()));
    for sig in [0, 9, 17, 19] {
        assert_eq!(kill(sig), Err(EACCES), "signal {sig}");
    }
    load_example(|text| {
        text + "allow init_t init_t : process { signal signull sigkill sigchld sigstop };\n"
    });
    for sig in [0, 9, 15, 17, 19] {
        assert_eq!(kill(sig), Ok(()), "signal {sig}");
    }
    // PTRACE_TRACEME: the parent (init_t) needs `ptrace` on the task.
    assert_eq!(Mlte.ptrace_traceme(&task), Err(EACCES));
    // Another task's attr/current: `getattr` on it.
    let mut out = AttrValue::default();
    assert_eq!(
        Mlte.getprocattr(&cx(), &task, b"current", &mut out),
        Err(EACCES)
    );
    load_example(|text| text + "allow init_t init_t : process { ptrace getattr };\n");
    assert_eq!(Mlte.ptrace_traceme(&task), Ok(()));
    assert_eq!(Mlte.getprocattr(&cx(), &task, b"current", &mut out), Ok(()));
    // A symlink: read to follow or read it; xattrs: getattr.
    let link = file(&h, "link", Some("system_u:object_r:etc_t:s0"));
    let inode = link.inode.clone().expect("positive");
    inode.mode.set(0o120777);
    assert_eq!(Mlte.inode_readlink(&cx(), &link), Err(EACCES));
    assert_eq!(Mlte.inode_follow_link(&link, &inode, true), Err(EACCES));
    assert_eq!(Mlte.inode_getxattr(&cx(), &link, b"user.x"), Err(EACCES));
    assert_eq!(Mlte.inode_listxattr(&cx(), &link), Err(EACCES));
    load_example(|text| text + "allow init_t etc_t : lnk_file { read getattr };\n");
    assert_eq!(Mlte.inode_readlink(&cx(), &link), Ok(()));
    assert_eq!(Mlte.inode_follow_link(&link, &inode, true), Ok(()));
    assert_eq!(Mlte.inode_getxattr(&cx(), &link, b"user.x"), Ok(()));
    assert_eq!(Mlte.inode_listxattr(&cx(), &link), Ok(()));
    // A link met before the policy, not labelled yet: RCU-walk walks
    // again (ECHILD) rather than decide it as `sid file`.
    let unlabelled = Arc::new(Inode::new(9502, false));
    unlabelled.mode.set(0o120777);
    crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(&cx(), &unlabelled).unwrap();
    assert_eq!(
        Mlte.inode_follow_link(&link, &unlabelled, true),
        Err(ECHILD)
    );
    // A directory renamed: `rename`, and `reparent` to another parent.
    let sub = file(&h, "sub", Some("system_u:object_r:etc_t:s0"));
    sub.inode.clone().expect("positive").mode.set(0o040755);
    let (a, b) = (
        labelled_dir(9500, "system_u:object_r:tmp_t:s0"),
        labelled_dir(9501, "system_u:object_r:tmp_t:s0"),
    );
    let to = Arc::new(Dentry {
        name: b"sub2".to_vec(),
        inode: None,
    });
    let rename =
        |from: &Arc<Inode>, into: &Arc<Inode>| Mlte.inode_rename(&cx(), from, &sub, into, &to);
    let dirs = "allow init_t tmp_t : dir { write add_name remove_name };\n";
    load_example(|text| text + dirs);
    assert_eq!(rename(&a, &a), Err(EACCES));
    load_example(|text| text + dirs + "allow init_t etc_t : dir rename;\n");
    assert_eq!(rename(&a, &a), Ok(()));
    assert_eq!(rename(&a, &b), Err(EACCES));
    load_example(|text| text + dirs + "allow init_t etc_t : dir { rename reparent };\n");
    assert_eq!(rename(&a, &b), Ok(()));
}
