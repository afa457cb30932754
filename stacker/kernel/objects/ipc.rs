// SPDX-License-Identifier: GPL-2.0

//! System V IPC objects and messages.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct msg_msg`: one System V message.
    MsgMsg => bindings::msg_msg
);
has_blob!(MsgMsg, MsgMsg, MsgMsgState, |p| (*p).security);

wrapper!(
    /// A `struct msg_msg` in `msg_msg_alloc_security` or
    /// `msg_msg_free_security`: only its security blob. The message is
    /// allocated without zeroing and its type set after the alloc hook
    /// (`alloc_msg()`, `do_msgsnd()`), and the free hook also runs on the
    /// failure path, so this view has no `mtype()`.
    MsgMsgSecurity => bindings::msg_msg
);
has_blob!(MsgMsgSecurity, MsgMsg, MsgMsgState, |p| (*p).security);

impl MsgMsgView for MsgMsg {
    #[inline]
    fn mtype(&self) -> i64 {
        // SAFETY: the message is valid; its type is set before it is sent.
        unsafe { (*self.as_raw()).m_type as i64 }
    }
}

wrapper!(
    /// A `struct kern_ipc_perm`: the permissions of an IPC object.
    IpcPerm => bindings::kern_ipc_perm
);
has_blob!(IpcPerm, Ipc, IpcState, |p| (*p).security);
