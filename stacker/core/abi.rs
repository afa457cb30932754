// SPDX-License-Identifier: GPL-2.0

//! Numbers of the kernel's ABI that the core and the submodules use, one
//! place for all, with the header each comes from. The kernel build
//! checks each against the kernel's own definition: against the bindings
//! in `kernel/abi_check.rs`, and, for the few that bindgen does not
//! evaluate (function-like macros), with `static_assert`s in
//! `kernel/layout_check.c`. A wrong number does not build.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

/// `FS_IOC_GETFLAGS`, `_IOR('f', 1, long)` (`include/uapi/linux/fs.h`).
pub(crate) const FS_IOC_GETFLAGS: u32 = 0x8008_6601;
/// `FS_IOC_SETFLAGS`, `_IOW('f', 2, long)`.
pub(crate) const FS_IOC_SETFLAGS: u32 = 0x4008_6602;
/// `FS_IOC_GETVERSION`, `_IOR('v', 1, long)`.
pub(crate) const FS_IOC_GETVERSION: u32 = 0x8008_7601;
/// `FS_IOC_SETVERSION`, `_IOW('v', 2, long)`.
pub(crate) const FS_IOC_SETVERSION: u32 = 0x4008_7602;
/// `FS_IOC32_GETFLAGS`, `_IOR('f', 1, int)` (the same header): the
/// same command from a 32-bit task.
pub(crate) const FS_IOC32_GETFLAGS: u32 = 0x8004_6601;
/// `FS_IOC32_SETFLAGS`, `_IOW('f', 2, int)`.
pub(crate) const FS_IOC32_SETFLAGS: u32 = 0x4004_6602;
/// `FS_IOC32_GETVERSION`, `_IOR('v', 1, int)`.
pub(crate) const FS_IOC32_GETVERSION: u32 = 0x8004_7601;
/// `FS_IOC32_SETVERSION`, `_IOW('v', 2, int)`.
pub(crate) const FS_IOC32_SETVERSION: u32 = 0x4004_7602;

/// The `ioctl(2)` commands that SELinux's `selinux_file_ioctl()` asks
/// other than `ioctl` for (`include/uapi/asm-generic/ioctls.h`,
/// `include/uapi/linux/fs.h`, `include/uapi/linux/kd.h`): `FIONREAD`.
pub(crate) const FIONREAD: u32 = 0x541b;
/// `FIBMAP`, `_IO(0x00, 1)`.
pub(crate) const FIBMAP: u32 = 1;
/// `FIGETBSZ`, `_IO(0x00, 2)`.
pub(crate) const FIGETBSZ: u32 = 2;
/// `FIONBIO`.
pub(crate) const FIONBIO: u32 = 0x5421;
/// `FIOASYNC`.
pub(crate) const FIOASYNC: u32 = 0x5452;
/// `FIONCLEX`.
pub(crate) const FIONCLEX: u32 = 0x5450;
/// `FIOCLEX`.
pub(crate) const FIOCLEX: u32 = 0x5451;
/// `KDSKBENT`.
pub(crate) const KDSKBENT: u32 = 0x4b47;
/// `KDSKBSENT`.
pub(crate) const KDSKBSENT: u32 = 0x4b49;
/// `CAP_SYS_TTY_CONFIG`: what `KDSKBENT` and `KDSKBSENT` need.
pub(crate) const CAP_SYS_TTY_CONFIG: u32 = 26;

/// `LSM_ID_UNDEF` (`include/uapi/linux/lsm.h`): no LSM. Kernel-only.
#[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
pub(crate) const LSM_ID_UNDEF: u64 = 0;
/// `LSM_ID_STACKER` (the same header, linux/patches/0003).
pub(crate) const LSM_ID_STACKER: u64 = 114;
/// `LSM_ID_PROBE`: the test submodule `probe` (linux/patches/0003).
pub(crate) const LSM_ID_PROBE: u64 = 116;
/// `LSM_ID_MLTE`: the name of mlte's labels (linux/patches/0009).
pub(crate) const LSM_ID_MLTE: u64 = 119;

/// `AUDIT_SUBJ_USER` (`include/uapi/linux/audit.h`): an audit rule's
/// field for the user of the subject's label.
pub(crate) const AUDIT_SUBJ_USER: u32 = 13;
/// `AUDIT_SUBJ_ROLE`: the field for the role of the subject's label.
pub(crate) const AUDIT_SUBJ_ROLE: u32 = 14;
/// `AUDIT_SUBJ_TYPE`: the field for the type of the subject's label.
pub(crate) const AUDIT_SUBJ_TYPE: u32 = 15;
/// `AUDIT_OBJ_USER`: the field for the user of an object's label.
pub(crate) const AUDIT_OBJ_USER: u32 = 19;
/// `AUDIT_OBJ_ROLE`: the field for the role of an object's label.
pub(crate) const AUDIT_OBJ_ROLE: u32 = 20;
/// `AUDIT_OBJ_TYPE`: the field for the type of an object's label.
pub(crate) const AUDIT_OBJ_TYPE: u32 = 21;
/// `Audit_equal` (the same header): a rule's operator `=`, as the kernel
/// hands it to the LSMs.
pub(crate) const AUDIT_OP_EQUAL: u32 = 0;
/// `Audit_not_equal`: the operator `!=`.
pub(crate) const AUDIT_OP_NOT_EQUAL: u32 = 1;

/// `MS_REMOUNT` (`include/uapi/linux/mount.h`): `mount(2)` changes the
/// options of an existing mount.
pub(crate) const MS_REMOUNT: u64 = 32;
/// `PROT_EXEC` (`include/uapi/asm-generic/mman-common.h`): a mapping may
/// be executed. (Not in the bindings: `layout_check.c` asserts it.)
pub(crate) const PROT_EXEC: u64 = 0x4;
/// `PROT_WRITE`: a mapping may be written.
pub(crate) const PROT_WRITE: u64 = 0x2;
/// `MAP_TYPE` (`include/uapi/linux/mman.h`): the bits of `mmap`'s flags
/// that give the mapping's type: `MAP_SHARED` or `MAP_SHARED_VALIDATE`
/// for a shared one.
pub(crate) const MAP_TYPE: u64 = 0x0f;
/// `MAP_SHARED`.
pub(crate) const MAP_SHARED: u64 = 0x01;
/// `MAP_SHARED_VALIDATE`: shared, with the flags checked.
pub(crate) const MAP_SHARED_VALIDATE: u64 = 0x03;
/// The System V IPC commands (`include/uapi/linux/ipc.h`, `msg.h`,
/// `shm.h`, `sem.h`), as the `*ctl` hooks get them. (A 32-bit caller's
/// `msgctl`/`semctl` pass `IPC_64` through to the hook, which matches none
/// of these, as in SELinux's hooks.) (Asserted in `layout_check.c`.)
/// `IPC_RMID`: remove the object.
pub(crate) const IPC_RMID: i32 = 0;
/// `IPC_SET`: change the object's owner and mode.
pub(crate) const IPC_SET: i32 = 1;
/// `IPC_STAT`: read the object's attributes.
pub(crate) const IPC_STAT: i32 = 2;
/// `IPC_INFO`: the system's limits, about no object.
pub(crate) const IPC_INFO: i32 = 3;
/// `MSG_STAT`: `IPC_STAT` by index.
pub(crate) const MSG_STAT: i32 = 11;
/// `MSG_INFO`: the system's message queue figures.
pub(crate) const MSG_INFO: i32 = 12;
/// `MSG_STAT_ANY`: `MSG_STAT` without the read permission check.
pub(crate) const MSG_STAT_ANY: i32 = 13;
/// `SHM_LOCK`: lock the segment in memory.
pub(crate) const SHM_LOCK: i32 = 11;
/// `SHM_UNLOCK`: unlock it.
pub(crate) const SHM_UNLOCK: i32 = 12;
/// `SHM_STAT`: `IPC_STAT` by index.
pub(crate) const SHM_STAT: i32 = 13;
/// `SHM_INFO`: the system's shared memory figures.
pub(crate) const SHM_INFO: i32 = 14;
/// `SHM_STAT_ANY`: `SHM_STAT` without the read permission check.
pub(crate) const SHM_STAT_ANY: i32 = 15;
/// `GETPID`: the pid of a semaphore's last operation.
pub(crate) const GETPID: i32 = 11;
/// `GETVAL`: a semaphore's value.
pub(crate) const GETVAL: i32 = 12;
/// `GETALL`: every semaphore's value.
pub(crate) const GETALL: i32 = 13;
/// `GETNCNT`: how many wait for a semaphore to grow.
pub(crate) const GETNCNT: i32 = 14;
/// `GETZCNT`: how many wait for it to be zero.
pub(crate) const GETZCNT: i32 = 15;
/// `SETVAL`: set a semaphore's value.
pub(crate) const SETVAL: i32 = 16;
/// `SETALL`: set every semaphore's value.
pub(crate) const SETALL: i32 = 17;
/// `SEM_STAT`: `IPC_STAT` by index.
pub(crate) const SEM_STAT: i32 = 18;
/// `SEM_INFO`: the system's semaphore figures.
pub(crate) const SEM_INFO: i32 = 19;
/// `SEM_STAT_ANY`: `SEM_STAT` without the read permission check.
pub(crate) const SEM_STAT_ANY: i32 = 20;
/// `SHM_RDONLY` (`include/uapi/linux/shm.h`): `shmat(2)` attaches for
/// reading only.
pub(crate) const SHM_RDONLY: i32 = 0o10000;

/// `O_APPEND` (`include/uapi/asm-generic/fcntl.h`): writes go to the
/// end. (Asserted in `layout_check.c`.)
pub(crate) const O_APPEND: u32 = 0o2000;
/// `F_SETFL` (the same header): `fcntl(2)` sets the file's flags.
pub(crate) const F_SETFL: u32 = 4;
/// The other `fcntl(2)` commands SELinux's `selinux_file_fcntl()` asks
/// about (the same header): `F_GETFL` and the owner and signal ones,
/// which need only `fd use`.
pub(crate) const F_GETFL: u32 = 3;
/// `F_SETOWN`.
pub(crate) const F_SETOWN: u32 = 8;
/// `F_GETOWN`.
pub(crate) const F_GETOWN: u32 = 9;
/// `F_SETSIG`.
pub(crate) const F_SETSIG: u32 = 10;
/// `F_GETSIG`.
pub(crate) const F_GETSIG: u32 = 11;
/// `F_GETOWNER_UIDS`.
pub(crate) const F_GETOWNER_UIDS: u32 = 17;
/// The record-lock commands, which need `lock`: `F_GETLK`, `F_SETLK`,
/// `F_SETLKW` (5, 6, 7) and the open-file-description ones `F_OFD_GETLK`,
/// `F_OFD_SETLK`, `F_OFD_SETLKW` (36, 37, 38); on 64-bit kernels the
/// `*64` ones are these numbers.
pub(crate) const F_LOCK_COMMANDS: [u32; 6] = [5, 6, 7, 36, 37, 38];

/// `SIGKILL` (`arch/x86/include/uapi/asm/signal.h`).
pub(crate) const SIGKILL: i32 = 9;
/// `SIGCHLD`.
pub(crate) const SIGCHLD: i32 = 17;
/// `SIGSTOP`.
pub(crate) const SIGSTOP: i32 = 19;
/// `PTRACE_MODE_ATTACH` (`include/linux/ptrace.h`): the access attaches
/// (else it only reads).
pub(crate) const PTRACE_MODE_ATTACH: u32 = 0x02;
/// `LSM_UNSAFE_SHARE` (`include/linux/security.h`): the exec shares its
/// files, file system context or memory with a task that stays behind.
pub(crate) const LSM_UNSAFE_SHARE: u32 = 1;
/// `LSM_UNSAFE_PTRACE` (`include/linux/security.h`): the exec is traced.
pub(crate) const LSM_UNSAFE_PTRACE: u32 = 2;
/// `LSM_UNSAFE_NO_NEW_PRIVS`: the task has `no_new_privs`.
pub(crate) const LSM_UNSAFE_NO_NEW_PRIVS: u32 = 4;
/// `PER_CLEAR_ON_SETID` (`include/uapi/linux/personality.h`): the
/// personality bits an exec into more privilege clears (`READ_IMPLIES_EXEC`,
/// `ADDR_NO_RANDOMIZE`, `ADDR_COMPAT_LAYOUT`, `MMAP_PAGE_ZERO`). (Not in
/// the bindings: `layout_check.c` asserts it.)
pub(crate) const PER_CLEAR_ON_SETID: u32 = 0x0400000 | 0x0040000 | 0x0200000 | 0x0100000;
/// The `iattr` change bits (`include/linux/fs.h`): mode, owner, group,
/// and access and modification times set to a given value (`utimes(2)`
/// with times, as against "now").
pub(crate) const ATTR_MODE: u32 = 1 << 0;
/// See [`ATTR_MODE`].
pub(crate) const ATTR_UID: u32 = 1 << 1;
/// See [`ATTR_MODE`].
pub(crate) const ATTR_GID: u32 = 1 << 2;
/// `ATTR_SIZE`: the size changes (truncation).
pub(crate) const ATTR_SIZE: u32 = 1 << 3;
/// See [`ATTR_MODE`].
pub(crate) const ATTR_ATIME_SET: u32 = 1 << 7;
/// See [`ATTR_MODE`].
pub(crate) const ATTR_MTIME_SET: u32 = 1 << 8;
/// See [`ATTR_MODE`].
pub(crate) const ATTR_TIMES_SET: u32 = 1 << 16;
/// What the kernel reads a file for (`enum kernel_read_file_id`,
/// `include/linux/kernel_read_file.h`): firmware.
pub(crate) const READING_FIRMWARE: u32 = 1;
/// `READING_MODULE`: a kernel module (`finit_module(2)`).
pub(crate) const READING_MODULE: u32 = 2;
/// `READING_MODULE_COMPRESSED`: a compressed kernel module, before it is
/// decompressed.
pub(crate) const READING_MODULE_COMPRESSED: u32 = 7;
/// What the kernel loads from memory (`enum kernel_load_data_id`,
/// `include/linux/security.h`, in step with `kernel_read_file_id`):
/// firmware (the fallback loader).
pub(crate) const LOADING_FIRMWARE: u32 = 1;
/// `LOADING_MODULE`: a kernel module (`init_module(2)`).
pub(crate) const LOADING_MODULE: u32 = 2;
/// `CAP_OPT_NOAUDIT` (`include/linux/security.h`, `BIT(1)`): the caller
/// only probes; do not log. (A macro the bindings do not evaluate:
/// `layout_check.c` asserts it.)
pub(crate) const CAP_OPT_NOAUDIT: u32 = 1 << 1;
/// `CAP_SYS_RAWIO` (`include/uapi/linux/capability.h`): what mapping
/// below `vm.mmap_min_addr` takes.
pub(crate) const CAP_SYS_RAWIO: u32 = 17;
/// `CAP_SYS_ADMIN`: what the memory reserve of `vm_enough_memory` takes.
pub(crate) const CAP_SYS_ADMIN: u32 = 21;
/// `CAP_LAST_CAP`: the highest capability number.
pub(crate) const CAP_LAST_CAP: u32 = 40;

/// The magic numbers of the pseudo file systems whose files are views of
/// kernel state (`include/uapi/linux/magic.h`): proc, sysfs, securityfs,
/// debugfs, tracefs, devpts, cgroup, cgroup2, bpf, nsfs, pipefs, sockfs,
/// anon inodes, binfmt_misc, efivarfs, selinuxfs, smackfs, configfs,
/// pstore. Reading one of their files to hash it may block, or give new
/// contents every time.
pub(crate) const PSEUDO_FS_MAGICS: [u64; 19] = [
    0x9fa0,      // PROC_SUPER_MAGIC
    0x6265_6572, // SYSFS_MAGIC
    0x7363_6673, // SECURITYFS_MAGIC
    0x6462_6720, // DEBUGFS_MAGIC
    0x7472_6163, // TRACEFS_MAGIC
    0x1cd1,      // DEVPTS_SUPER_MAGIC
    0x0027_e0eb, // CGROUP_SUPER_MAGIC
    0x6367_7270, // CGROUP2_SUPER_MAGIC
    0xcafe_4a11, // BPF_FS_MAGIC
    0x6e73_6673, // NSFS_MAGIC
    0x5049_5045, // PIPEFS_MAGIC
    0x534f_434b, // SOCKFS_MAGIC
    0x0904_1934, // ANON_INODE_FS_MAGIC
    0x4249_4e4d, // BINFMTFS_MAGIC
    0xde5e_81e4, // EFIVARFS_MAGIC
    0xf97c_ff8c, // SELINUX_MAGIC
    0x4341_5d53, // SMACK_MAGIC
    0x6265_6570, // CONFIGFS_MAGIC
    0x6165_676c, // PSTOREFS_MAGIC
];
/// `TMPFS_MAGIC`, `RAMFS_MAGIC`: the memory file systems, which keep file
/// contents as a block-device file system does.
pub(crate) const MEMORY_FS_MAGICS: [u64; 2] = [0x0102_1994, 0x8584_58f6];

/// The native command that a 32-bit task's ioctl `cmd` stands for: the
/// four whose number differs only by the size of `long`, as
/// `selinux_file_ioctl_compat` (security/selinux/hooks.c) translates them;
/// every other command is the same number in both.
pub(crate) const fn native_ioctl_cmd(cmd: u32) -> u32 {
    match cmd {
        FS_IOC32_GETFLAGS => FS_IOC_GETFLAGS,
        FS_IOC32_SETFLAGS => FS_IOC_SETFLAGS,
        FS_IOC32_GETVERSION => FS_IOC_GETVERSION,
        FS_IOC32_SETVERSION => FS_IOC_SETVERSION,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compat_commands_become_native() {
        assert_eq!(native_ioctl_cmd(FS_IOC32_GETFLAGS), FS_IOC_GETFLAGS);
        assert_eq!(native_ioctl_cmd(FS_IOC32_SETFLAGS), FS_IOC_SETFLAGS);
        assert_eq!(native_ioctl_cmd(FS_IOC32_GETVERSION), FS_IOC_GETVERSION);
        assert_eq!(native_ioctl_cmd(FS_IOC32_SETVERSION), FS_IOC_SETVERSION);
        // FIONREAD and the native numbers pass through unchanged.
        assert_eq!(native_ioctl_cmd(0x541b), 0x541b);
        assert_eq!(native_ioctl_cmd(FS_IOC_GETFLAGS), FS_IOC_GETFLAGS);
    }
}
