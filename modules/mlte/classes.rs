// SPDX-License-Identifier: GPL-2.0

//! The object classes of `mlte` and their permissions, shared by the
//! policy language (host) and the compiled form's checker (kernel).
//!
//! Kernel-independent.

/// The permissions of the file classes (`file` and the other inode classes
/// but `dir`), in bit order: one order for all of them, so that a
/// permission has one bit whichever file class an inode is in.
const FILE_PERMS: &[&str] = &[
    "read",
    "write",
    "append",
    "open",
    "getattr",
    "setattr",
    "execute",
    "ioctl",
    "map",
    "create",
    "link",
    "unlink",
    "rename",
    "relabelfrom",
    "relabelto",
];

/// The object classes and their permissions, in bit order. The inode
/// classes are SELinux's, chosen by the inode's file type as its
/// `inode_mode_to_security_class()`.
pub(crate) const CLASSES: &[(&str, &[&str])] = &[
    ("file", FILE_PERMS),
    (
        "dir",
        &[
            "read",
            "write",
            "open",
            "getattr",
            "setattr",
            "search",
            "add_name",
            "remove_name",
            "create",
            "rmdir",
            "relabelfrom",
            "relabelto",
        ],
    ),
    (
        "process",
        &[
            "transition",
            "signal",
            "sigkill",
            "ptrace",
            "setcurrent",
            "execmem",
        ],
    ),
    (
        "socket",
        &[
            // As SELinux's: sending is `write`, receiving `read`.
            "create", "bind", "connect", "listen", "accept", "write", "read",
        ],
    ),
    ("ipc", &["create", "associate", "read", "write", "destroy"]),
    ("filesystem", &["mount", "unmount", "getattr"]),
    ("lnk_file", FILE_PERMS),
    ("chr_file", FILE_PERMS),
    ("blk_file", FILE_PERMS),
    ("sock_file", FILE_PERMS),
    ("fifo_file", FILE_PERMS),
];

/// An object class: its index in [`CLASSES`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// Regular files (and an inode of no known file type).
    File = 0,
    /// Directories.
    Dir = 1,
    /// Tasks.
    Process = 2,
    /// Sockets.
    Socket = 3,
    /// System V message queues, semaphores and shared memory.
    Ipc = 4,
    /// Mounted file systems.
    Filesystem = 5,
    /// Symbolic links.
    LnkFile = 6,
    /// Character devices.
    ChrFile = 7,
    /// Block devices.
    BlkFile = 8,
    /// Unix domain socket files.
    SockFile = 9,
    /// Named pipes and pipes.
    FifoFile = 10,
}

/// The number of classes.
pub(crate) const CLASS_COUNT: usize = 11;

// `Class` and `CLASSES` agree: one class per entry.
const _: () = assert!(CLASSES.len() == CLASS_COUNT);

impl Class {
    /// Every class, in index order.
    pub(crate) const ALL: [Class; CLASS_COUNT] = [
        Class::File,
        Class::Dir,
        Class::Process,
        Class::Socket,
        Class::Ipc,
        Class::Filesystem,
        Class::LnkFile,
        Class::ChrFile,
        Class::BlkFile,
        Class::SockFile,
        Class::FifoFile,
    ];

    /// The class of an inode of file type `mode & S_IFMT` (`S_IFDIR`:
    /// `dir`), as SELinux's `inode_mode_to_security_class()`; `file` for
    /// a regular file and any type it does not know.
    #[inline]
    pub(crate) const fn of_mode(mode: u32) -> Class {
        match mode & 0o170000 {
            0o040000 => Class::Dir,
            0o120000 => Class::LnkFile,
            0o020000 => Class::ChrFile,
            0o060000 => Class::BlkFile,
            0o140000 => Class::SockFile,
            0o010000 => Class::FifoFile,
            _ => Class::File,
        }
    }

    /// The class's name and permission names.
    pub(crate) const fn entry(self) -> (&'static str, &'static [&'static str]) {
        CLASSES[self as usize]
    }

    /// The class's name in the policy language.
    pub(crate) const fn name(self) -> &'static str {
        self.entry().0
    }

    /// Every permission of the class, as a bitmap.
    pub(crate) const fn all_perms(self) -> u32 {
        let n = self.entry().1.len();
        if n >= 32 {
            u32::MAX
        } else {
            (1u32 << n) - 1
        }
    }
}

/// The bit of permission `name` of `class`. Used in constants only, so a
/// name that is not in [`CLASSES`] fails the build (const evaluation), never
/// a running kernel.
pub(crate) const fn perm(class: Class, name: &str) -> u32 {
    let perms = class.entry().1;
    let mut bit = 0;
    while bit < perms.len() {
        if crate::chain::bytes_eq(perms[bit].as_bytes(), name.as_bytes()) {
            return 1 << bit;
        }
        bit += 1;
    }
    panic!("no such permission in CLASSES")
}
