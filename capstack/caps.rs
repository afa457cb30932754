// SPDX-License-Identifier: GPL-2.0

//! Capability names and sets (`include/uapi/linux/capability.h`).
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

/// The capabilities, by number.
pub(crate) const NAMES: [&str; 41] = [
    "CAP_CHOWN",
    "CAP_DAC_OVERRIDE",
    "CAP_DAC_READ_SEARCH",
    "CAP_FOWNER",
    "CAP_FSETID",
    "CAP_KILL",
    "CAP_SETGID",
    "CAP_SETUID",
    "CAP_SETPCAP",
    "CAP_LINUX_IMMUTABLE",
    "CAP_NET_BIND_SERVICE",
    "CAP_NET_BROADCAST",
    "CAP_NET_ADMIN",
    "CAP_NET_RAW",
    "CAP_IPC_LOCK",
    "CAP_IPC_OWNER",
    "CAP_SYS_MODULE",
    "CAP_SYS_RAWIO",
    "CAP_SYS_CHROOT",
    "CAP_SYS_PTRACE",
    "CAP_SYS_PACCT",
    "CAP_SYS_ADMIN",
    "CAP_SYS_BOOT",
    "CAP_SYS_NICE",
    "CAP_SYS_RESOURCE",
    "CAP_SYS_TIME",
    "CAP_SYS_TTY_CONFIG",
    "CAP_MKNOD",
    "CAP_LEASE",
    "CAP_AUDIT_WRITE",
    "CAP_AUDIT_CONTROL",
    "CAP_SETFCAP",
    "CAP_MAC_OVERRIDE",
    "CAP_MAC_ADMIN",
    "CAP_SYSLOG",
    "CAP_WAKE_ALARM",
    "CAP_BLOCK_SUSPEND",
    "CAP_AUDIT_READ",
    "CAP_PERFMON",
    "CAP_BPF",
    "CAP_CHECKPOINT_RESTORE",
];

/// Every capability.
pub(crate) const ALL: u64 = (1 << NAMES.len()) - 1;

// One name for each capability the kernel has (`CAP_LAST_CAP`, checked
// against the kernel's in `abi_check.rs`).
const _: () = assert!(NAMES.len() == crate::abi::CAP_LAST_CAP as usize + 1);

/// The name of capability `cap`, or `"CAP_?"`.
pub(crate) fn name(cap: u32) -> &'static str {
    NAMES.get(cap as usize).copied().unwrap_or("CAP_?")
}

/// The capability called `name`: `CAP_NET_RAW` or `net_raw`, any case.
pub(crate) fn by_name(name: &[u8]) -> Option<u32> {
    let bare = match name.get(..4) {
        Some(p) if p.eq_ignore_ascii_case(b"CAP_") => &name[4..],
        _ => name,
    };
    NAMES
        .iter()
        .position(|n| n.as_bytes()[4..].eq_ignore_ascii_case(bare))
        .map(|i| i as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (i, n) in NAMES.iter().enumerate() {
            assert_eq!(by_name(n.as_bytes()), Some(i as u32));
            assert_eq!(name(i as u32), *n);
        }
        assert_eq!(by_name(b"net_raw"), Some(13));
        assert_eq!(by_name(b"cap_sys_module"), Some(16));
        assert_eq!(by_name(b"CAP_NOPE"), None);
        assert_eq!(by_name(b""), None);
        assert_eq!(name(99), "CAP_?");
        assert_eq!(ALL.count_ones(), 41);
        assert_eq!(name(33), "CAP_MAC_ADMIN");
    }
}
