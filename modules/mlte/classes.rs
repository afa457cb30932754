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
            "create", "bind", "connect", "listen", "accept", "sendmsg", "recvmsg",
        ],
    ),
    ("ipc", &["create", "associate", "read", "write", "destroy"]),
    ("filesystem", &["mount", "unmount", "getattr"]),
];
