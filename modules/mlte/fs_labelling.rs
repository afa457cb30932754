// SPDX-License-Identifier: GPL-2.0

//! How a policy labels each file system's inodes: SELinux's `fs_use_xattr`,
//! `fs_use_task`, `fs_use_trans` and `genfscon`, and the per-file-system
//! behaviours that SELinux's `hooks.c` ties to file system type names.
//!
//! What the policy says, as SELinux's `security_fs_use()` reads it:
//!
//! - `fs_use_xattr FS CONTEXT;`: inodes carry their label in
//!   `security.mlte` (no xattr: `sid file`);
//! - `fs_use_task FS CONTEXT;`: an inode has the context of the task that
//!   made it (pipes, sockets);
//! - `fs_use_trans FS CONTEXT;`: an inode has the context a
//!   `type_transition` gives its maker on CONTEXT (CONTEXT when none does):
//!   devpts, tmpfs;
//! - `genfscon FS PATH [-TYPE] CONTEXT`: with no `fs_use_*` for FS, the
//!   file system's context is that of its `/`. Every inode has it, except
//!   on the file systems SELinux labels by path (proc, sysfs, securityfs,
//!   ...: [`labels_by_path`]), where an inode has the context of the
//!   longest `genfscon` PATH that is a prefix of its path in the file
//!   system (for its file type, if the rule names one), and `sid
//!   unlabeled` when none is;
//! - a file system the policy does not name at all: `sid unlabeled`.
//!
//! Kernel-independent: no allocation, no panic path.

/// How a file system's inodes get their labels (`fs_use_*`), as the
/// compiled form numbers them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FsUse {
    /// `fs_use_xattr`: from the `security.mlte` xattr.
    Xattr = 1,
    /// `fs_use_task`: the context of the task that made the inode.
    Task = 2,
    /// `fs_use_trans`: a `type_transition` from the maker's context on the
    /// file system's.
    Trans = 3,
}

impl FsUse {
    /// The behaviour numbered `n` in the compiled form.
    pub(crate) const fn from_u32(n: u32) -> Option<FsUse> {
        match n {
            1 => Some(FsUse::Xattr),
            2 => Some(FsUse::Task),
            3 => Some(FsUse::Trans),
            _ => None,
        }
    }
}

/// How one file system labels its inodes under a policy: SELinux's
/// `superblock_security_struct` `behavior` (SECURITY_FS_USE_*).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Behaviour {
    /// An `fs_use_*` statement names it.
    Use(FsUse),
    /// No `fs_use_*`, but a `genfscon` for its `/` (SECURITY_FS_USE_GENFS).
    Genfs,
    /// Neither: its inodes are unlabeled (SECURITY_FS_USE_NONE).
    None,
}

/// The file type a `genfscon` rule is for, as `S_IFMT` bits (0: any):
/// checkpolicy's `-b -c -d -p -l -s --`.
pub(crate) const GENFS_TYPES: [(&str, u32); 7] = [
    ("b", 0o060000),
    ("c", 0o020000),
    ("d", 0o040000),
    ("p", 0o010000),
    ("l", 0o120000),
    ("s", 0o140000),
    ("-", 0o100000),
];

/// `S_IFMT`: the file type bits of a mode.
pub(crate) const S_IFMT: u32 = 0o170000;
/// `S_IFLNK`.
const S_IFLNK: u32 = 0o120000;
/// `S_IFDIR`.
pub(crate) const S_IFDIR: u32 = 0o040000;

/// Whether `mode` is one a `genfscon` rule may name (0: any type).
pub(crate) fn genfs_type_valid(mode: u32) -> bool {
    mode == 0 || GENFS_TYPES.iter().any(|&(_, m)| m == mode)
}

/// The policy capabilities that change what mlte does (how it labels, and
/// more), as the compiled form's bits.
pub(crate) mod policycap {
    /// `genfs_seclabel_symlinks`: symbolic links on file systems labelled
    /// by path are labelled by path too (otherwise with the file system's
    /// context).
    pub(crate) const GENFS_SECLABEL_SYMLINKS: u32 = 1 << 0;
    /// `cgroup_seclabel`: cgroup and cgroup2 keep labels set on them.
    pub(crate) const CGROUP_SECLABEL: u32 = 1 << 1;
    /// `functionfs_seclabel`: functionfs is labelled by path and keeps
    /// labels set on it.
    pub(crate) const FUNCTIONFS_SECLABEL: u32 = 1 << 2;
    /// `extended_socket_class`: SCTP, ICMP and other sockets have classes
    /// of their own (`Class::of_socket`).
    pub(crate) const EXTENDED_SOCKET_CLASS: u32 = 1 << 3;
    /// `nnp_nosuid_transition`: an exec transition under `no_new_privs` or
    /// from a `nosuid` mount happens when `process2 nnp_transition` (and
    /// `nosuid_transition`) allow it.
    pub(crate) const NNP_NOSUID_TRANSITION: u32 = 1 << 4;
    /// `ioctl_skip_cloexec`: `FIOCLEX` and `FIONCLEX` need no permission.
    pub(crate) const IOCTL_SKIP_CLOEXEC: u32 = 1 << 5;
    /// Every bit a compiled policy may set.
    pub(crate) const ALL: u32 = GENFS_SECLABEL_SYMLINKS
        | CGROUP_SECLABEL
        | FUNCTIONFS_SECLABEL
        | EXTENDED_SOCKET_CLASS
        | NNP_NOSUID_TRANSITION
        | IOCTL_SKIP_CLOEXEC;
}

/// Whether the inodes of a file system of type `fs` are labelled by their
/// path (`genfscon`), as SELinux's `SE_SBGENFS` (`selinux_set_mnt_opts()`
/// and `sb_finish_set_opts()` in hooks.c).
pub(crate) fn labels_by_path(fs: &[u8], caps: u32) -> bool {
    matches!(
        fs,
        b"proc"
            | b"debugfs"
            | b"tracefs"
            | b"binder"
            | b"bpf"
            | b"pstore"
            | b"securityfs"
            | b"sysfs"
            | b"cgroup"
            | b"cgroup2"
    ) || (fs == b"functionfs" && caps & policycap::FUNCTIONFS_SECLABEL != 0)
}

/// Whether a file system labelled by path also keeps labels set on its
/// inodes in memory (`SE_SBGENFS_XATTR`): sysfs, cgroup, cgroup2.
pub(crate) fn path_label_then_xattr(fs: &[u8]) -> bool {
    matches!(fs, b"sysfs" | b"cgroup" | b"cgroup2")
}

/// Whether inodes of `fs` labelled by path are labelled so when they are
/// symbolic links of `mode` (without `genfs_seclabel_symlinks`, a link
/// has the file system's context).
pub(crate) fn path_labels_mode(mode: u32, caps: u32) -> bool {
    mode & S_IFMT != S_IFLNK || caps & policycap::GENFS_SECLABEL_SYMLINKS != 0
}

/// Whether new inodes of `fs` get the context computed for them, and the
/// file system takes labels set on it (SELinux's `SBLABEL_MNT`,
/// `selinux_is_sblabel_mnt()`): every `fs_use_*` file system, and of the
/// `genfscon` ones sysfs, pstore, debugfs, tracefs, rootfs, and cgroup,
/// cgroup2 and functionfs with their capabilities.
pub(crate) fn takes_labels(fs: &[u8], behaviour: Behaviour, caps: u32) -> bool {
    match behaviour {
        Behaviour::Use(_) => true,
        Behaviour::None => false,
        Behaviour::Genfs => {
            matches!(
                fs,
                b"sysfs" | b"pstore" | b"debugfs" | b"tracefs" | b"rootfs"
            ) || (matches!(fs, b"cgroup" | b"cgroup2") && caps & policycap::CGROUP_SECLABEL != 0)
                || (fs == b"functionfs" && caps & policycap::FUNCTIONFS_SECLABEL != 0)
        }
    }
}

/// The path `genfscon` rules are matched against, of an inode at `path`
/// (from its file system's root, as `dentry_path_raw()` gives it) on
/// `fs`, without its leading `/`: on proc, the digits after that `/` are
/// taken out too (`/1/net/rpc` is matched as `/net/rpc`, `/1` as `/`), as
/// `selinux_genfs_get_sid()`; then any further leading slashes, as
/// `__security_genfs_sid()` takes doubled ones out. `None` for a path that
/// does not start with `/` (none does).
pub(crate) fn genfs_path<'p>(fs: &[u8], path: &'p [u8]) -> Option<&'p [u8]> {
    let mut rest = path.strip_prefix(b"/")?;
    if fs == b"proc" {
        while let [d, tail @ ..] = rest {
            if !d.is_ascii_digit() {
                break;
            }
            rest = tail;
        }
    }
    while let [b'/', tail @ ..] = rest {
        rest = tail;
    }
    Some(rest)
}

/// Whether a `genfscon` rule's path (which starts with `/`) matches an
/// inode's, `rest` from [`genfs_path`]: a prefix of its bytes, as
/// `strncmp()`, not of its components (`/sys` matches `/sysrq-trigger`).
pub(crate) fn genfs_matches(rule_path: &[u8], rest: &[u8]) -> bool {
    rule_path
        .strip_prefix(b"/")
        .is_some_and(|rule| rest.starts_with(rule))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_paths_lose_their_pid_as_selinux_genfs_get_sid() {
        let m = |fs: &[u8], rule: &[u8], path: &[u8]| {
            genfs_path(fs, path).is_some_and(|rest| genfs_matches(rule, rest))
        };
        assert_eq!(genfs_path(b"proc", b"/1/net/rpc"), Some(&b"net/rpc"[..]));
        assert_eq!(genfs_path(b"proc", b"/123"), Some(&b""[..]));
        assert_eq!(genfs_path(b"proc", b"/12abc"), Some(&b"abc"[..]));
        assert_eq!(genfs_path(b"proc", b"/self/net"), Some(&b"self/net"[..]));
        // Only proc loses digits.
        assert_eq!(genfs_path(b"sysfs", b"/1/x"), Some(&b"1/x"[..]));
        assert_eq!(genfs_path(b"sysfs", b"//x"), Some(&b"x"[..]));
        assert_eq!(genfs_path(b"sysfs", b"x"), None);
        assert!(m(b"proc", b"/net", b"/1/net/rpc"));
        assert!(m(b"proc", b"/", b"/1"));
        assert!(!m(b"proc", b"/1", b"/1/net"));
        assert!(m(b"proc", b"/sys", b"/sysrq-trigger"));
        assert!(!m(b"proc", b"/sys/kernel", b"/sys/kern"));
        assert!(!m(b"proc", b"sys", b"/sys"));
    }

    #[test]
    fn file_systems_behave_as_selinux_names_them() {
        assert!(labels_by_path(b"proc", 0) && labels_by_path(b"securityfs", 0));
        assert!(!labels_by_path(b"rootfs", 0) && !labels_by_path(b"tmpfs", 0));
        assert!(!labels_by_path(b"functionfs", 0));
        assert!(labels_by_path(
            b"functionfs",
            policycap::FUNCTIONFS_SECLABEL
        ));
        assert!(takes_labels(b"rootfs", Behaviour::Genfs, 0));
        assert!(!takes_labels(b"proc", Behaviour::Genfs, 0));
        assert!(!takes_labels(b"cgroup2", Behaviour::Genfs, 0));
        assert!(takes_labels(
            b"cgroup2",
            Behaviour::Genfs,
            policycap::CGROUP_SECLABEL
        ));
        assert!(takes_labels(b"proc", Behaviour::Use(FsUse::Task), 0));
        assert!(!takes_labels(b"ext4", Behaviour::None, 0));
        assert!(!path_labels_mode(0o120777, 0));
        assert!(path_labels_mode(
            0o120777,
            policycap::GENFS_SECLABEL_SYMLINKS
        ));
        assert!(path_labels_mode(0o100644, 0));
    }
}
