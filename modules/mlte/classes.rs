// SPDX-License-Identifier: GPL-2.0

//! The object classes of `mlte` and their permissions, shared by the
//! policy language (host) and the compiled form's checker (kernel).
//!
//! Kernel-independent.

/// A class's permissions: first the ten that the file and socket classes
/// share, in one bit order, as SELinux's `COMMON_FILE_SOCK_PERMS` (so that
/// a check of one of these on a socket's inode, `ioctl`, `getattr`, `read`,
/// asks the same bit in the socket's class), then the class's own.
macro_rules! common_then {
    ($($more:literal),* $(,)?) => {
        &[
            "ioctl",
            "read",
            "write",
            "create",
            "getattr",
            "setattr",
            "relabelfrom",
            "relabelto",
            "append",
            "map",
            "lock",
            $($more),*
        ]
    };
}

/// The permissions the file and socket classes share.
const COMMON_PERMS: &[&str] = common_then!();

/// The bits of the permissions the file and socket classes share.
pub(crate) const COMMON_PERMS_MASK: u32 = (1 << COMMON_PERMS.len()) - 1;

/// The permissions of the file classes (the inode classes but `dir`), in
/// bit order: one order for all of them, so that a permission has one bit
/// whichever file class an inode is in.
const FILE_PERMS: &[&str] =
    common_then!("open", "execute", "link", "unlink", "rename", "execmod", "mounton");

/// The permissions of `file`: the file classes', then those of running a
/// program, which SELinux's other file classes have not.
const REGULAR_FILE_PERMS: &[&str] = common_then!(
    "open",
    "execute",
    "link",
    "unlink",
    "rename",
    "execmod",
    "mounton",
    "execute_no_trans",
    "entrypoint",
);

/// The permissions of the socket classes, in bit order, one order for all
/// of them. As SELinux's: sending is `write`, receiving `read`; `sendto`
/// is asked on the receiving Unix datagram socket.
const SOCKET_PERMS: &[&str] = common_then!("bind", "connect", "listen", "accept", "sendto");

/// The permissions of `unix_stream_socket`: the socket classes', then
/// connecting to a listener (`connectto`, asked on the listener).
const UNIX_STREAM_PERMS: &[&str] =
    common_then!("bind", "connect", "listen", "accept", "sendto", "connectto");

/// The permissions of the System V IPC classes, then a class's own: as
/// SELinux's `common ipc`, in its order.
macro_rules! ipc_then {
    ($($more:literal),* $(,)?) => {
        &[
            "create",
            "destroy",
            "getattr",
            "setattr",
            "read",
            "write",
            "associate",
            "unix_read",
            "unix_write",
            $($more),*
        ]
    };
}

/// The capabilities, as SELinux's `COMMON_CAP_PERMS`: bit `cap % 32` of
/// `capability` (`cap_userns` outside the initial user namespace) for
/// capabilities 0 to 31.
const CAP_PERMS: &[&str] = &[
    "chown",
    "dac_override",
    "dac_read_search",
    "fowner",
    "fsetid",
    "kill",
    "setgid",
    "setuid",
    "setpcap",
    "linux_immutable",
    "net_bind_service",
    "net_broadcast",
    "net_admin",
    "net_raw",
    "ipc_lock",
    "ipc_owner",
    "sys_module",
    "sys_rawio",
    "sys_chroot",
    "sys_ptrace",
    "sys_pacct",
    "sys_admin",
    "sys_boot",
    "sys_nice",
    "sys_resource",
    "sys_time",
    "sys_tty_config",
    "mknod",
    "lease",
    "audit_write",
    "audit_control",
    "setfcap",
];

/// The capabilities from 32 on, as SELinux's `COMMON_CAP2_PERMS`: bit
/// `cap % 32` of `capability2` (`cap2_userns`).
const CAP2_PERMS: &[&str] = &[
    "mac_override",
    "mac_admin",
    "syslog",
    "wake_alarm",
    "block_suspend",
    "audit_read",
    "perfmon",
    "bpf",
    "checkpoint_restore",
];

// One permission for each capability the kernel has (`CAP_LAST_CAP`,
// checked against the kernel's in `abi_check.rs`), as SELinux's `#error`.
const _: () = assert!(CAP_PERMS.len() + CAP2_PERMS.len() == crate::abi::CAP_LAST_CAP as usize + 1);

/// The object classes and their permissions, in bit order. The inode
/// classes are SELinux's, chosen by the inode's file type as its
/// `inode_mode_to_security_class()`.
pub(crate) const CLASSES: &[(&str, &[&str])] = &[
    ("file", REGULAR_FILE_PERMS),
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
            "ioctl",
            "lock",
            "append",
            "map",
            "mounton",
            "rename",
            "reparent",
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
            "dyntransition",
            "execstack",
            "execheap",
            "share",
            "noatsecure",
            "sigchld",
            "sigstop",
            "signull",
            "getattr",
        ],
    ),
    ("socket", SOCKET_PERMS),
    ("sem", ipc_then!()),
    ("filesystem", &["mount", "unmount", "getattr", "remount"]),
    ("lnk_file", FILE_PERMS),
    ("chr_file", FILE_PERMS),
    ("blk_file", FILE_PERMS),
    ("sock_file", FILE_PERMS),
    ("fifo_file", FILE_PERMS),
    ("unix_stream_socket", UNIX_STREAM_PERMS),
    ("unix_dgram_socket", SOCKET_PERMS),
    ("tcp_socket", SOCKET_PERMS),
    ("udp_socket", SOCKET_PERMS),
    ("rawip_socket", SOCKET_PERMS),
    ("netlink_socket", SOCKET_PERMS),
    ("netlink_route_socket", SOCKET_PERMS),
    ("packet_socket", SOCKET_PERMS),
    ("key_socket", SOCKET_PERMS),
    ("msgq", ipc_then!("enqueue")),
    ("shm", ipc_then!("lock")),
    ("msg", &["send", "receive"]),
    ("system", &["ipc_info"]),
    (
        "security",
        &[
            "compute_av",
            "compute_create",
            "compute_member",
            "check_context",
            "load_policy",
            "compute_relabel",
            "compute_user",
            "setenforce",
            "setbool",
            "setsecparam",
            "setcheckreqprot",
            "read_policy",
            "validate_trans",
        ],
    ),
    ("capability", CAP_PERMS),
    ("capability2", CAP2_PERMS),
    ("cap_userns", CAP_PERMS),
    ("cap2_userns", CAP2_PERMS),
    ("process2", &["nnp_transition", "nosuid_transition"]),
    ("fd", &["use"]),
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
    /// Sockets of a family no other socket class is for.
    Socket = 3,
    /// System V semaphore sets.
    Sem = 4,
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
    /// Unix stream and seqpacket sockets.
    UnixStreamSocket = 11,
    /// Unix datagram sockets.
    UnixDgramSocket = 12,
    /// TCP sockets.
    TcpSocket = 13,
    /// UDP sockets.
    UdpSocket = 14,
    /// Other IPv4 and IPv6 sockets.
    RawipSocket = 15,
    /// Netlink sockets but routing's.
    NetlinkSocket = 16,
    /// Netlink routing sockets.
    NetlinkRouteSocket = 17,
    /// Packet sockets.
    PacketSocket = 18,
    /// Key management sockets.
    KeySocket = 19,
    /// System V message queues.
    Msgq = 20,
    /// System V shared memory segments.
    Shm = 21,
    /// System V messages, each labelled when it is sent.
    Msg = 22,
    /// The system as a whole (`sid kernel`): of its permissions, SELinux's
    /// `ipc_info` (the System V `IPC_INFO` commands).
    System = 23,
    /// The policy and its interface (`sid security`), as SELinux's
    /// selinuxfs asks: loading a policy, setting the mode or a boolean,
    /// asking for decisions.
    Security = 24,
    /// A task's capabilities 0 to 31 in the initial user namespace, asked
    /// of the task itself.
    Capability = 25,
    /// Capabilities 32 and up in the initial user namespace.
    Capability2 = 26,
    /// Capabilities 0 to 31 in any other user namespace.
    CapUserns = 27,
    /// Capabilities 32 and up in any other user namespace.
    Cap2Userns = 28,
    /// Tasks: what `process` has no room for (exec transitions under
    /// `no_new_privs` or from a `nosuid` mount).
    Process2 = 29,
    /// Open file descriptions, by the context of the task that opened
    /// them: using one opened by another domain is `fd use`.
    Fd = 30,
}

/// The number of classes.
pub(crate) const CLASS_COUNT: usize = 31;

// `Class` and `CLASSES` agree: one class per entry.
const _: () = assert!(CLASSES.len() == CLASS_COUNT);

impl Class {
    /// Every class, in index order.
    pub(crate) const ALL: [Class; CLASS_COUNT] = [
        Class::File,
        Class::Dir,
        Class::Process,
        Class::Socket,
        Class::Sem,
        Class::Filesystem,
        Class::LnkFile,
        Class::ChrFile,
        Class::BlkFile,
        Class::SockFile,
        Class::FifoFile,
        Class::UnixStreamSocket,
        Class::UnixDgramSocket,
        Class::TcpSocket,
        Class::UdpSocket,
        Class::RawipSocket,
        Class::NetlinkSocket,
        Class::NetlinkRouteSocket,
        Class::PacketSocket,
        Class::KeySocket,
        Class::Msgq,
        Class::Shm,
        Class::Msg,
        Class::System,
        Class::Security,
        Class::Capability,
        Class::Capability2,
        Class::CapUserns,
        Class::Cap2Userns,
        Class::Process2,
        Class::Fd,
    ];

    /// The class that holds capability `cap` (its bit: `cap % 32`) for a
    /// check in the initial user namespace (`initial_ns`) or another, as
    /// SELinux's `cred_has_capability()`; `None` for a capability past the
    /// classes (SELinux: `EINVAL`).
    #[inline]
    pub(crate) const fn of_capability(cap: u32, initial_ns: bool) -> Option<Class> {
        match (cap / 32, initial_ns) {
            (0, true) => Some(Class::Capability),
            (0, false) => Some(Class::CapUserns),
            (1, true) if cap % 32 < CAP2_PERMS.len() as u32 => Some(Class::Capability2),
            (1, false) if cap % 32 < CAP2_PERMS.len() as u32 => Some(Class::Cap2Userns),
            _ => None,
        }
    }

    /// The class of a socket of address family `family`, type `ty` and
    /// protocol `protocol`, as SELinux's `socket_type_to_security_class()`
    /// (`extended`: under the `extended_socket_class` capability): Unix
    /// stream (and seqpacket) and datagram (and raw) sockets; IPv4 and
    /// IPv6 TCP (stream or seqpacket, protocol 0, TCP or MPTCP), UDP
    /// (datagram, protocol 0 or UDP) and the rest as `rawip_socket`;
    /// netlink routing sockets, and `netlink_socket` for the protocols
    /// SELinux has no class of their own for; packet and key sockets; any
    /// other family `socket`. Where SELinux has a class mlte has not, mlte's
    /// is `socket`, which a policy that grants SELinux's class does not
    /// grant (stricter): the netlink protocols with classes of their own
    /// (`netlink_audit_socket`, `netlink_kobject_uevent_socket`, ...),
    /// AppleTalk sockets, and, when `extended`, SCTP and ICMP sockets and
    /// the other families SELinux then gives classes of their own.
    #[inline]
    pub(crate) const fn of_socket(family: u32, ty: u32, protocol: u32, extended: bool) -> Class {
        const AF_UNIX: u32 = 1;
        const AF_INET: u32 = 2;
        const AF_INET6: u32 = 10;
        const AF_KEY: u32 = 15;
        const AF_NETLINK: u32 = 16;
        const AF_PACKET: u32 = 17;
        const SOCK_STREAM: u32 = 1;
        const SOCK_DGRAM: u32 = 2;
        const SOCK_RAW: u32 = 3;
        const SOCK_SEQPACKET: u32 = 5;
        const IPPROTO_IP: u32 = 0;
        const IPPROTO_ICMP: u32 = 1;
        const IPPROTO_TCP: u32 = 6;
        const IPPROTO_UDP: u32 = 17;
        const IPPROTO_ICMPV6: u32 = 58;
        const IPPROTO_SCTP: u32 = 132;
        const IPPROTO_MPTCP: u32 = 262;
        const NETLINK_ROUTE: u32 = 0;
        match family {
            AF_UNIX => match ty {
                SOCK_STREAM | SOCK_SEQPACKET => Class::UnixStreamSocket,
                SOCK_DGRAM | SOCK_RAW => Class::UnixDgramSocket,
                _ => Class::Socket,
            },
            AF_INET | AF_INET6 => match ty {
                SOCK_STREAM | SOCK_SEQPACKET => match protocol {
                    IPPROTO_IP | IPPROTO_TCP | IPPROTO_MPTCP => Class::TcpSocket,
                    IPPROTO_SCTP if extended => Class::Socket,
                    _ => Class::RawipSocket,
                },
                SOCK_DGRAM => match protocol {
                    IPPROTO_IP | IPPROTO_UDP => Class::UdpSocket,
                    IPPROTO_ICMP | IPPROTO_ICMPV6 if extended => Class::Socket,
                    _ => Class::RawipSocket,
                },
                _ => Class::RawipSocket,
            },
            AF_NETLINK => match protocol {
                NETLINK_ROUTE => Class::NetlinkRouteSocket,
                // SOCK_DIAG, NFLOG, XFRM, SELINUX, ISCSI, AUDIT,
                // FIB_LOOKUP, CONNECTOR, NETFILTER, DNRTMSG,
                // KOBJECT_UEVENT, GENERIC, SCSITRANSPORT, RDMA, CRYPTO.
                4..=12 | 14..=16 | 18 | 20 | 21 => Class::Socket,
                _ => Class::NetlinkSocket,
            },
            AF_PACKET => Class::PacketSocket,
            AF_KEY => Class::KeySocket,
            _ => Class::Socket,
        }
    }

    /// Whether this is a socket class: a new object of it takes its
    /// creator's role, type and range, as SELinux's
    /// `security_is_socket_class()` in `security_compute_sid()`.
    #[inline]
    pub(crate) const fn is_socket(self) -> bool {
        matches!(
            self,
            Class::Socket
                | Class::UnixStreamSocket
                | Class::UnixDgramSocket
                | Class::TcpSocket
                | Class::UdpSocket
                | Class::RawipSocket
                | Class::NetlinkSocket
                | Class::NetlinkRouteSocket
                | Class::PacketSocket
                | Class::KeySocket
        )
    }

    /// The class of an inode of file type `mode & S_IFMT` (`S_IFDIR`:
    /// `dir`), as SELinux's `inode_mode_to_security_class()`; `file` for
    /// a regular file and any type it does not know.
    #[inline(always)]
    pub(crate) const fn of_mode(mode: u32) -> Class {
        // By the file type's four bits (`S_IFMT >> 12`): one load on the
        // hooks' path.
        const BY_TYPE: [Class; 16] = {
            let mut by_type = [Class::File; 16];
            by_type[0o01] = Class::FifoFile;
            by_type[0o02] = Class::ChrFile;
            by_type[0o04] = Class::Dir;
            by_type[0o06] = Class::BlkFile;
            by_type[0o12] = Class::LnkFile;
            by_type[0o14] = Class::SockFile;
            by_type
        };
        BY_TYPE[((mode >> 12) & 0o17) as usize]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inodes_are_in_their_file_types_class() {
        use Class::*;
        for (mode, class) in [
            (0o100644, File),
            (0o040755, Dir),
            (0o120777, LnkFile),
            (0o020620, ChrFile),
            (0o060660, BlkFile),
            (0o140755, SockFile),
            (0o010644, FifoFile),
            (0o000644, File),
            (0o170000, File),
        ] {
            assert_eq!(Class::of_mode(mode), class, "{mode:o}");
        }
    }

    #[test]
    fn sockets_are_in_selinuxs_classes() {
        use Class::*;
        // (family, type, protocol): without, then with extended_socket_class.
        for (family, ty, protocol, plain, extended) in [
            (1, 1, 0, UnixStreamSocket, UnixStreamSocket),
            (1, 5, 0, UnixStreamSocket, UnixStreamSocket),
            (1, 2, 0, UnixDgramSocket, UnixDgramSocket),
            (2, 1, 0, TcpSocket, TcpSocket),
            (10, 1, 6, TcpSocket, TcpSocket),
            (2, 1, 132, RawipSocket, Socket),
            (2, 2, 0, UdpSocket, UdpSocket),
            (2, 2, 17, UdpSocket, UdpSocket),
            (2, 2, 1, RawipSocket, Socket),
            (10, 2, 58, RawipSocket, Socket),
            (2, 1, 262, TcpSocket, TcpSocket),
            (2, 3, 255, RawipSocket, RawipSocket),
            // DCCP: no case of its own in 7.3.
            (2, 6, 0, RawipSocket, RawipSocket),
            (16, 0, 0, NetlinkRouteSocket, NetlinkRouteSocket),
            // NETLINK_AUDIT and NETLINK_KOBJECT_UEVENT: classes of their
            // own in SELinux, which mlte has not.
            (16, 3, 9, Socket, Socket),
            (16, 2, 15, Socket, Socket),
            // NETLINK_USERSOCK, NETLINK_IP6_FW: SELinux's netlink_socket.
            (16, 3, 2, NetlinkSocket, NetlinkSocket),
            (16, 3, 13, NetlinkSocket, NetlinkSocket),
            (5, 2, 0, Socket, Socket),
            (17, 3, 768, PacketSocket, PacketSocket),
            (15, 3, 2, KeySocket, KeySocket),
            (31, 1, 0, Socket, Socket),
            (u32::MAX, u32::MAX, u32::MAX, Socket, Socket),
        ] {
            assert_eq!(
                Class::of_socket(family, ty, protocol, false),
                plain,
                "{family} {ty} {protocol}"
            );
            assert_eq!(
                Class::of_socket(family, ty, protocol, true),
                extended,
                "{family} {ty} {protocol}"
            );
            assert!(plain.is_socket() && extended.is_socket());
        }
        // Files and sockets share their first permissions, bit for bit.
        for name in COMMON_PERMS {
            assert_eq!(
                perm(Class::File, name),
                perm(Class::TcpSocket, name),
                "{name}"
            );
            assert_ne!(perm(Class::File, name) & COMMON_PERMS_MASK, 0);
        }
        assert_eq!(perm(Class::File, "open") & COMMON_PERMS_MASK, 0);
        assert_eq!(perm(Class::Socket, "bind") & COMMON_PERMS_MASK, 0);
        assert!(!Class::File.is_socket() && !Class::SockFile.is_socket());
    }

    #[test]
    fn the_ipc_classes_share_their_common_permissions_bit_for_bit() {
        // The hooks ask `sem`'s bits of `msgq` and `shm` objects too.
        for name in ipc_then!() {
            for class in [Class::Msgq, Class::Shm] {
                assert_eq!(perm(Class::Sem, name), perm(class, name), "{name}");
            }
        }
        assert_eq!(perm(Class::Msgq, "enqueue"), 1 << 9);
        assert_eq!(perm(Class::Shm, "lock"), 1 << 9);
        assert!(!Class::Msgq.is_socket() && !Class::Msg.is_socket());
    }

    #[test]
    fn capabilities_are_asked_in_selinuxs_classes_at_their_numbers() {
        use Class::*;
        // linux/capability.h: CAP_CHOWN 0, CAP_SYS_ADMIN 21, CAP_SETFCAP 31,
        // CAP_MAC_ADMIN 33, CAP_CHECKPOINT_RESTORE 40 (CAP_LAST_CAP).
        for (cap, name, init, userns) in [
            (0, "chown", Capability, CapUserns),
            (21, "sys_admin", Capability, CapUserns),
            (31, "setfcap", Capability, CapUserns),
            (33, "mac_admin", Capability2, Cap2Userns),
            (40, "checkpoint_restore", Capability2, Cap2Userns),
        ] {
            assert_eq!(Class::of_capability(cap, true), Some(init), "{cap}");
            assert_eq!(Class::of_capability(cap, false), Some(userns), "{cap}");
            assert_eq!(perm(init, name), 1 << (cap % 32), "{name}");
            assert_eq!(perm(userns, name), 1 << (cap % 32), "{name}");
        }
        // The names are the kernel's, as capstack spells them.
        let ours = CAP_PERMS.iter().chain(CAP2_PERMS);
        for (cap, (name, kernels)) in ours.zip(crate::capstack::caps::NAMES).enumerate() {
            assert!(kernels[4..].eq_ignore_ascii_case(name), "{cap}: {name}");
        }
        assert_eq!(Class::of_capability(41, true), None);
        assert_eq!(Class::of_capability(64, false), None);
        assert_eq!(Capability.all_perms(), u32::MAX);
        assert_eq!(Capability2.all_perms(), (1 << 9) - 1);
    }
}
