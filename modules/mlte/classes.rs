// SPDX-License-Identifier: GPL-2.0

//! The object classes of `mlte` and their permissions, shared by the
//! policy language (host) and the compiled form's checker (kernel).
//!
//! Kernel-independent.

/// The object classes and their permissions, in bit order.
pub(crate) const CLASSES: &[(&str, &[&str])] = &[
    (
        "file",
        &[
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
        ],
    ),
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
];

/// An object class: its index in [`CLASSES`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// Files and every other non-directory inode.
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
}

/// The number of classes.
pub(crate) const CLASS_COUNT: usize = 6;

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
    ];

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
