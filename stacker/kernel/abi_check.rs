// SPDX-License-Identifier: GPL-2.0

//! The kernel's ABI numbers that the kernel-independent code keeps
//! (`core/abi.rs`, `core/access.rs`, `core/dispatch.rs`), checked against
//! the kernel's own definitions in the bindings: a wrong number does not
//! build. The few that bindgen does not evaluate (function-like macros:
//! `PROT_EXEC` through its header, `CAP_OPT_NOAUDIT`, the `FS_IOC*`
//! commands) are `static_assert`ed in `layout_check.c`.

use crate::abi;
use kernel::bindings as b;

const _: () = {
    assert!(abi::SIGKILL == b::SIGKILL as i32);
    assert!(abi::SIGCHLD == b::SIGCHLD as i32);
    assert!(abi::SIGSTOP == b::SIGSTOP as i32);
    assert!(abi::AUDIT_SUBJ_USER == b::AUDIT_SUBJ_USER);
    assert!(abi::AUDIT_SUBJ_ROLE == b::AUDIT_SUBJ_ROLE);
    assert!(abi::AUDIT_SUBJ_TYPE == b::AUDIT_SUBJ_TYPE);
    assert!(abi::AUDIT_OBJ_USER == b::AUDIT_OBJ_USER);
    assert!(abi::AUDIT_OBJ_ROLE == b::AUDIT_OBJ_ROLE);
    assert!(abi::AUDIT_OBJ_TYPE == b::AUDIT_OBJ_TYPE);
    assert!(abi::AUDIT_OP_EQUAL == b::Audit_equal);
    assert!(abi::AUDIT_OP_NOT_EQUAL == b::Audit_not_equal);
    assert!(abi::LSM_ID_UNDEF == b::LSM_ID_UNDEF as u64);
    assert!(abi::LSM_ID_STACKER == b::LSM_ID_STACKER as u64);
    assert!(abi::LSM_ID_PROBE == b::LSM_ID_PROBE as u64);
    assert!(abi::LSM_ID_MLTE == b::LSM_ID_MLTE as u64);
    assert!(crate::lsm_prop::LSM_PROP_SLOTS == b::LSM_PROP_STACKER_SLOTS as usize);
    assert!(abi::PTRACE_MODE_ATTACH == b::PTRACE_MODE_ATTACH);
    assert!(abi::LSM_UNSAFE_SHARE == b::LSM_UNSAFE_SHARE);
    assert!(abi::LSM_UNSAFE_PTRACE == b::LSM_UNSAFE_PTRACE);
    assert!(abi::LSM_UNSAFE_NO_NEW_PRIVS == b::LSM_UNSAFE_NO_NEW_PRIVS);
    assert!(abi::CAP_SYS_RAWIO == b::CAP_SYS_RAWIO);
    assert!(abi::CAP_SYS_ADMIN == b::CAP_SYS_ADMIN);
    assert!(abi::CAP_LAST_CAP == b::CAP_LAST_CAP);
    assert!(abi::ATTR_MODE == b::ATTR_MODE);
    assert!(abi::ATTR_UID == b::ATTR_UID);
    assert!(abi::ATTR_GID == b::ATTR_GID);
    assert!(abi::ATTR_ATIME_SET == b::ATTR_ATIME_SET);
    assert!(abi::ATTR_MTIME_SET == b::ATTR_MTIME_SET);
    assert!(abi::ATTR_TIMES_SET == b::ATTR_TIMES_SET);
    assert!(abi::ATTR_SIZE == b::ATTR_SIZE);
    assert!(abi::READING_FIRMWARE == b::kernel_read_file_id_READING_FIRMWARE);
    assert!(abi::READING_MODULE == b::kernel_read_file_id_READING_MODULE);
    assert!(abi::READING_MODULE_COMPRESSED == b::kernel_read_file_id_READING_MODULE_COMPRESSED);
    assert!(abi::LOADING_FIRMWARE == b::kernel_load_data_id_LOADING_FIRMWARE);
    assert!(abi::LOADING_MODULE == b::kernel_load_data_id_LOADING_MODULE);
};

// The magic numbers, in the order `abi.rs` lists them.
const _: () = {
    let pseudo = [
        b::PROC_SUPER_MAGIC,
        b::SYSFS_MAGIC,
        b::SECURITYFS_MAGIC,
        b::DEBUGFS_MAGIC,
        b::TRACEFS_MAGIC,
        b::DEVPTS_SUPER_MAGIC,
        b::CGROUP_SUPER_MAGIC,
        b::CGROUP2_SUPER_MAGIC,
        b::BPF_FS_MAGIC,
        b::NSFS_MAGIC,
        b::PIPEFS_MAGIC,
        b::SOCKFS_MAGIC,
        b::ANON_INODE_FS_MAGIC,
        b::BINFMTFS_MAGIC,
        b::EFIVARFS_MAGIC,
        b::SELINUX_MAGIC,
        b::SMACK_MAGIC,
        b::CONFIGFS_MAGIC,
        b::PSTOREFS_MAGIC,
    ];
    let mut i = 0;
    while i < pseudo.len() {
        assert!(abi::PSEUDO_FS_MAGICS[i] == pseudo[i] as u64);
        i += 1;
    }
    assert!(abi::MEMORY_FS_MAGICS[0] == b::TMPFS_MAGIC as u64);
    assert!(abi::MEMORY_FS_MAGICS[1] == b::RAMFS_MAGIC as u64);
};

// The shared `MAY_*` values are the kernel's.
const _: () = {
    use crate::access::may;
    assert!(may::EXEC == b::MAY_EXEC);
    assert!(may::WRITE == b::MAY_WRITE);
    assert!(may::READ == b::MAY_READ);
    assert!(may::APPEND == b::MAY_APPEND);
    assert!(may::NOT_BLOCK == b::MAY_NOT_BLOCK);
};

// The LSM syscalls' attribute numbers are the kernel's.
const _: () = {
    use crate::dispatch::SELF_ATTRS;
    assert!(SELF_ATTRS[0].0 == b::LSM_ATTR_CURRENT);
    assert!(SELF_ATTRS[1].0 == b::LSM_ATTR_EXEC);
    assert!(SELF_ATTRS[2].0 == b::LSM_ATTR_FSCREATE);
    assert!(SELF_ATTRS[3].0 == b::LSM_ATTR_KEYCREATE);
    assert!(SELF_ATTRS[4].0 == b::LSM_ATTR_PREV);
    assert!(SELF_ATTRS[5].0 == b::LSM_ATTR_SOCKCREATE);
};
