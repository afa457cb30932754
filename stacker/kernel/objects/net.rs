// SPDX-License-Identifier: GPL-2.0

//! Sockets.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct socket`.
    Socket => bindings::socket
);

impl SocketView for Socket {
    #[inline]
    fn sock(&self) -> Option<&Sock> {
        // SAFETY: the socket is valid; `sk` is set once by the protocol.
        let sk = unsafe { (*self.as_raw()).sk };
        // SAFETY: a non-null `sk` lives as long as its socket.
        unsafe { Sock::from_raw_opt(sk) }
    }

    #[inline]
    fn inode(&self) -> &Inode {
        // SAFETY: the socket is valid, and (as the trait says) one that
        // `sock_alloc()` made: the `socket` of a `struct socket_alloc`,
        // whose inode lives as long as it. The call computes an address.
        let inode = unsafe { stacker_socket_inode(self.as_raw().cast()) };
        // SAFETY: as above: the socket's inode, valid as long as it.
        unsafe { Inode::from_raw(inode.cast()) }
    }
}

wrapper!(
    /// A `struct sock`: the network layer's half of a socket.
    Sock => bindings::sock
);
// bindgen misplaces `sk_security` (`layout_check.c`): C reads it.
has_blob!(Sock, Sock, SockState, |p| stacker_sk_security(p.cast()));

wrapper!(
    /// A `struct sock` in `sk_alloc_security` or `sk_free_security`: only
    /// its security blob. The sock is allocated without zeroing and its
    /// family is set after `sk_alloc_security` (`sk_prot_alloc()`), and
    /// `sk_free_security` also runs for that half-built sock, so this view
    /// has no `family()`.
    SockSecurity => bindings::sock
);
has_blob!(SockSecurity, Sock, SockState, |p| stacker_sk_security(
    p.cast()
));

extern "C" {
    /// `sk->sk_security` (`layout_check.c`). The sock is passed as
    /// `*const c_void`: bindgen's `sock` holds empty structs, which the
    /// `improper_ctypes` lint refuses in an `extern` block.
    fn stacker_sk_security(sk: *const c_void) -> *mut c_void;

    /// `sk->sk_type << 16 | sk->sk_protocol` (`layout_check.c`), read in C
    /// for the same reason.
    fn stacker_sk_type_protocol(sk: *const c_void) -> u32;

    /// `SOCK_INODE(sock)` (`layout_check.c`), as a `struct inode *` (an
    /// untyped pointer here, for the same reason as the sock's).
    fn stacker_socket_inode(sock: *const c_void) -> *mut c_void;
}

impl SockView for Sock {
    #[inline]
    fn family(&self) -> u16 {
        // SAFETY: the sock is valid; its family is fixed when it is set up.
        unsafe { (*self.as_raw()).__sk_common.skc_family }
    }

    #[inline]
    fn type_and_protocol(&self) -> (u16, u16) {
        // SAFETY: the sock is valid; its type and protocol are set with
        // it (`sk_alloc()`, the protocol's `create`), before any hook that
        // has a `Sock` view.
        let both = unsafe { stacker_sk_type_protocol(self.as_raw().cast()) };
        ((both >> 16) as u16, both as u16)
    }
}
