// SPDX-License-Identifier: GPL-2.0

//! Numbers of the kernel's user ABI that the core translates, with the
//! header each comes from. The kernel build checks each against the
//! kernel's own definition (`static_assert`s in `kernel/layout_check.c`),
//! so a wrong number does not build.
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
