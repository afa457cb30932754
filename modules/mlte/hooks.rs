// SPDX-License-Identifier: GPL-2.0

//! The `mlte` submodule: labels, type enforcement and multi-level
//! security, on stacker's hooks.
//!
//! Every task, inode, socket and IPC object carries the SID of a context
//! (`label.rs`, `sidtab.rs`) in its blob: a user, a role, a type and an
//! MLS range, as SELinux's (`system_u:object_r:etc_t:s0`). A
//! decision is a probe of the policy's decision cache; a miss looks both
//! contexts up in the policy's sparse rule table and evaluates the
//! class's `mlsconstrain` expressions (`policy.rs`, `compiled.rs`). No
//! allocation, no lock, no sleep; a new context is interned where the hook
//! may sleep, before the decision.
//!
//! Where contexts come from:
//!
//! - tasks: their parent's, changed by an exec through a `type_transition`
//!   or a `role_transition` on `process` (which needs `process
//!   transition`, the new domain's `file entrypoint`, and `allow OLD_ROLE
//!   NEW_ROLE` for a new role; under `no_new_privs` or from a nosuid mount
//!   the old context unless `process2` allows it), or by a write to
//!   `/proc/self/attr/current` or `lsm_set_self_attr(LSM_ATTR_CURRENT)`
//!   (which needs `process setcurrent` on itself and `dyntransition` to
//!   the new context, and `allow OLD_ROLE NEW_ROLE` for a new role). Tasks
//!   that started before the first policy have the `sid kernel` context;
//! - inodes: the `security.mlte` xattr, read when the inode is first
//!   reached through a dentry after a policy is loaded (`d_instantiate`,
//!   or the first open, exec or attribute change of an inode met before),
//!   and cached in the inode's blob. No xattr, or no xattr support: `sid
//!   file`. A label the policy cannot read, or an xattr that could not be
//!   read this time (`ENOMEM`, `EIO`; read again on the next access): `sid
//!   unlabeled`. A new inode gets its creator's user, the role
//!   `object_r`, its parent directory's type (or a `type_transition`'s)
//!   and its creator's low level, as SELinux's `security_compute_sid()`,
//!   and the xattr is written with it; a computed context the policy does
//!   not find valid is refused (`EACCES` when enforcing);
//! - sockets: their creator's, or a `type_transition`'s on (creator,
//!   creator, class);
//! - System V IPC objects: their creator's, in class `msgq`, `sem` or
//!   `shm`; a message: a `type_transition`'s on (sender, queue, `msg`), or
//!   the sender's user, `object_r`, the queue's type and the sender's low
//!   level, given when it is first sent.
//!
//! Relabelling (`setxattr security.mlte`) needs `relabelfrom` on the old
//! context and `relabelto` on the new one, and a context the policy
//! accepts (`EINVAL` otherwise).
//!
//! Before the first policy is loaded, `mlte` allows everything and labels
//! nothing.
//!
//! The same source runs in the kernel and in the host tests
//! (`hook_tests.rs`), against the host model of the kernel objects; its
//! decisions, labels and loader are the kernel-independent files beside
//! it.

use super::boolean_files;
use super::classes::{perm, Class, COMMON_PERMS_MASK};
use super::compiled::{Computation, InitialSid, SIDS};
use super::context::{Context, ContextView, Shown};
use super::fs_labelling::{self, policycap, Behaviour, FsUse};
use super::label::{ClassedLabel, FileLabel, InodeLabel, Label};
use super::policy::{self, NewSid, Policy, Target};
use super::query;
use super::sidtab::{self, Sid, StoredContext};
use super::type_names::Kind;
use crate::access::{may, AccessMask};
use crate::attribute::Attribute;
use crate::blob::HasBlob;
use crate::context::MaySleep;
use crate::error::{
    Result, EACCES, ECHILD, EINVAL, ENODATA, ENOPROTOOPT, EOPNOTSUPP, EPERM, ERANGE,
};
use crate::objects::{
    self, current_is_single_threaded, AttrValue, AttrValueView, Binprm, BinprmView, Cred, CredView,
    Dentry, DentryView, File, FileSecurity, FileView, Iattr, IattrView, Inode, InodeView, IpcPerm,
    MsgMsg, MsgMsgSecurity, NewCred, NewCredView, Path, PathView, SecCtx, SecCtxView, Secid, Sock,
    SockView, Socket, SocketView, Superblock, SuperblockView, Task, TaskView, Vfsmount,
    VfsmountView, Vma, VmaMemory, VmaView, XattrValue, XattrValueView,
};
use crate::platform::{self, Dir, TextBuf};
use core::ffi::CStr;
use core::fmt::Write;

/// The `mlte` submodule.
pub(crate) struct Mlte;

crate::submodule::state_key!(MlteKey for Mlte);

/// The xattr that holds an inode's context (after `security.`).
const XATTR_SUFFIX: &CStr = c"mlte";
/// Its full name.
const XATTR_NAME: &[u8] = b"security.mlte";

/// The longest context text taken in, in bytes: from an xattr (longer:
/// `sid unlabeled`), `setxattr` or `/proc/self/attr/current` (longer:
/// `EINVAL`). A type name is at most 64 bytes; this leaves room for a level
/// with a few dozen category runs.
const MAX_CONTEXT: usize = 256;

/// The room for a context's text given out (`ContextText`): a context
/// taken in is at most [`MAX_CONTEXT`] bytes, and its canonical text is no
/// longer, but a type transition may give it a longer type name. A context
/// whose text does not fit is refused where it would be made (a new file:
/// `EINVAL`), never cut.
const CONTEXT_TEXT: usize = MAX_CONTEXT + 64;

/// Permissions, by class.
pub(super) mod perms {
    use super::{perm, Class};

    pub(super) const FILE_READ: u32 = perm(Class::File, "read");
    pub(super) const FILE_WRITE: u32 = perm(Class::File, "write");
    pub(super) const FILE_APPEND: u32 = perm(Class::File, "append");
    pub(super) const FILE_OPEN: u32 = perm(Class::File, "open");
    pub(super) const FILE_GETATTR: u32 = perm(Class::File, "getattr");
    pub(super) const FILE_SETATTR: u32 = perm(Class::File, "setattr");
    pub(super) const FILE_EXECUTE: u32 = perm(Class::File, "execute");
    pub(super) const FILE_IOCTL: u32 = perm(Class::File, "ioctl");
    pub(super) const FILE_MAP: u32 = perm(Class::File, "map");
    pub(super) const FILE_EXECMOD: u32 = perm(Class::File, "execmod");
    pub(super) const FILE_LOCK: u32 = perm(Class::File, "lock");
    pub(super) const FILE_MOUNTON: u32 = perm(Class::File, "mounton");
    pub(super) const FILE_EXECUTE_NO_TRANS: u32 = perm(Class::File, "execute_no_trans");
    pub(super) const FILE_ENTRYPOINT: u32 = perm(Class::File, "entrypoint");
    pub(super) const FILE_CREATE: u32 = perm(Class::File, "create");
    pub(super) const FILE_LINK: u32 = perm(Class::File, "link");
    pub(super) const FILE_UNLINK: u32 = perm(Class::File, "unlink");
    pub(super) const FILE_RENAME: u32 = perm(Class::File, "rename");
    pub(super) const FILE_RELABELFROM: u32 = perm(Class::File, "relabelfrom");
    pub(super) const FILE_RELABELTO: u32 = perm(Class::File, "relabelto");

    pub(super) const DIR_READ: u32 = perm(Class::Dir, "read");
    pub(super) const DIR_WRITE: u32 = perm(Class::Dir, "write");
    pub(super) const DIR_OPEN: u32 = perm(Class::Dir, "open");
    pub(super) const DIR_GETATTR: u32 = perm(Class::Dir, "getattr");
    pub(super) const DIR_SETATTR: u32 = perm(Class::Dir, "setattr");
    pub(super) const DIR_SEARCH: u32 = perm(Class::Dir, "search");
    pub(super) const DIR_ADD_NAME: u32 = perm(Class::Dir, "add_name");
    pub(super) const DIR_REMOVE_NAME: u32 = perm(Class::Dir, "remove_name");
    pub(super) const DIR_CREATE: u32 = perm(Class::Dir, "create");
    pub(super) const DIR_RMDIR: u32 = perm(Class::Dir, "rmdir");
    pub(super) const DIR_RELABELFROM: u32 = perm(Class::Dir, "relabelfrom");
    pub(super) const DIR_RELABELTO: u32 = perm(Class::Dir, "relabelto");
    pub(super) const DIR_IOCTL: u32 = perm(Class::Dir, "ioctl");
    pub(super) const DIR_LOCK: u32 = perm(Class::Dir, "lock");
    pub(super) const DIR_MOUNTON: u32 = perm(Class::Dir, "mounton");
    pub(super) const DIR_RENAME: u32 = perm(Class::Dir, "rename");
    pub(super) const DIR_REPARENT: u32 = perm(Class::Dir, "reparent");

    pub(super) const PROCESS_TRANSITION: u32 = perm(Class::Process, "transition");
    pub(super) const PROCESS_SIGNAL: u32 = perm(Class::Process, "signal");
    pub(super) const PROCESS_SIGKILL: u32 = perm(Class::Process, "sigkill");
    pub(super) const PROCESS_PTRACE: u32 = perm(Class::Process, "ptrace");
    pub(super) const PROCESS_SETCURRENT: u32 = perm(Class::Process, "setcurrent");
    pub(super) const PROCESS_EXECMEM: u32 = perm(Class::Process, "execmem");
    pub(super) const PROCESS_DYNTRANSITION: u32 = perm(Class::Process, "dyntransition");
    pub(super) const PROCESS_EXECSTACK: u32 = perm(Class::Process, "execstack");
    pub(super) const PROCESS_EXECHEAP: u32 = perm(Class::Process, "execheap");
    pub(super) const PROCESS_SHARE: u32 = perm(Class::Process, "share");
    pub(super) const PROCESS_NOATSECURE: u32 = perm(Class::Process, "noatsecure");
    pub(super) const PROCESS_SIGCHLD: u32 = perm(Class::Process, "sigchld");
    pub(super) const PROCESS_SIGSTOP: u32 = perm(Class::Process, "sigstop");
    pub(super) const PROCESS_SIGNULL: u32 = perm(Class::Process, "signull");
    pub(super) const PROCESS_GETATTR: u32 = perm(Class::Process, "getattr");
    pub(super) const FD_USE: u32 = perm(Class::Fd, "use");
    pub(super) const PROCESS2_NNP_TRANSITION: u32 = perm(Class::Process2, "nnp_transition");
    pub(super) const PROCESS2_NOSUID_TRANSITION: u32 = perm(Class::Process2, "nosuid_transition");

    pub(super) const SOCKET_CREATE: u32 = perm(Class::Socket, "create");
    pub(super) const SOCKET_BIND: u32 = perm(Class::Socket, "bind");
    pub(super) const SOCKET_CONNECT: u32 = perm(Class::Socket, "connect");
    pub(super) const SOCKET_LISTEN: u32 = perm(Class::Socket, "listen");
    pub(super) const SOCKET_ACCEPT: u32 = perm(Class::Socket, "accept");
    pub(super) const SOCKET_WRITE: u32 = perm(Class::Socket, "write");
    pub(super) const SOCKET_READ: u32 = perm(Class::Socket, "read");
    pub(super) const SOCKET_SENDTO: u32 = perm(Class::Socket, "sendto");
    pub(super) const UNIX_STREAM_SOCKET_CONNECTTO: u32 = perm(Class::UnixStreamSocket, "connectto");

    // The permissions `sem`, `msgq` and `shm` share, at the same bits in
    // each (SELinux's `common ipc`).
    pub(super) const IPC_CREATE: u32 = perm(Class::Sem, "create");
    pub(super) const IPC_DESTROY: u32 = perm(Class::Sem, "destroy");
    pub(super) const IPC_GETATTR: u32 = perm(Class::Sem, "getattr");
    pub(super) const IPC_SETATTR: u32 = perm(Class::Sem, "setattr");
    pub(super) const IPC_READ: u32 = perm(Class::Sem, "read");
    pub(super) const IPC_WRITE: u32 = perm(Class::Sem, "write");
    pub(super) const IPC_ASSOCIATE: u32 = perm(Class::Sem, "associate");
    pub(super) const IPC_UNIX_READ: u32 = perm(Class::Sem, "unix_read");
    pub(super) const IPC_UNIX_WRITE: u32 = perm(Class::Sem, "unix_write");
    pub(super) const MSGQ_ENQUEUE: u32 = perm(Class::Msgq, "enqueue");
    pub(super) const SHM_LOCK: u32 = perm(Class::Shm, "lock");
    pub(super) const MSG_SEND: u32 = perm(Class::Msg, "send");
    pub(super) const MSG_RECEIVE: u32 = perm(Class::Msg, "receive");
    pub(super) const SYSTEM_IPC_INFO: u32 = perm(Class::System, "ipc_info");

    pub(crate) const SECURITY_COMPUTE_AV: u32 = perm(Class::Security, "compute_av");
    pub(crate) const SECURITY_COMPUTE_CREATE: u32 = perm(Class::Security, "compute_create");
    pub(crate) const SECURITY_COMPUTE_MEMBER: u32 = perm(Class::Security, "compute_member");
    pub(crate) const SECURITY_CHECK_CONTEXT: u32 = perm(Class::Security, "check_context");
    pub(crate) const SECURITY_LOAD_POLICY: u32 = perm(Class::Security, "load_policy");
    pub(crate) const SECURITY_COMPUTE_RELABEL: u32 = perm(Class::Security, "compute_relabel");
    pub(crate) const SECURITY_SETENFORCE: u32 = perm(Class::Security, "setenforce");
    pub(crate) const SECURITY_SETBOOL: u32 = perm(Class::Security, "setbool");
    pub(crate) const SECURITY_VALIDATE_TRANS: u32 = perm(Class::Security, "validate_trans");

    pub(super) const FILESYSTEM_MOUNT: u32 = perm(Class::Filesystem, "mount");
    pub(super) const FILESYSTEM_GETATTR: u32 = perm(Class::Filesystem, "getattr");
    pub(super) const FILESYSTEM_UNMOUNT: u32 = perm(Class::Filesystem, "unmount");
    pub(super) const FILESYSTEM_REMOUNT: u32 = perm(Class::Filesystem, "remount");
}
use perms::*;

use crate::abi::{
    ATTR_ATIME_SET, ATTR_GID, ATTR_MODE, ATTR_MTIME_SET, ATTR_TIMES_SET, ATTR_UID, AUDIT_OBJ_ROLE,
    AUDIT_OBJ_TYPE, AUDIT_OBJ_USER, AUDIT_OP_EQUAL, AUDIT_OP_NOT_EQUAL, AUDIT_SUBJ_ROLE,
    AUDIT_SUBJ_TYPE, AUDIT_SUBJ_USER, CAP_OPT_NOAUDIT, LSM_UNSAFE_NO_NEW_PRIVS, LSM_UNSAFE_PTRACE,
    LSM_UNSAFE_SHARE, MAP_SHARED, MAP_SHARED_VALIDATE, MAP_TYPE, MS_REMOUNT, PROT_EXEC, PROT_WRITE,
    PTRACE_MODE_ATTACH, SIGCHLD, SIGKILL, SIGSTOP,
};
/// `ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_ATIME_SET | ATTR_MTIME_SET |
/// ATTR_TIMES_SET` (`include/linux/fs.h`): the `iattr` changes that are
/// `setattr`; the others (size, times set to now, privilege bits dropped
/// by a write) are part of writing.
const ATTR_SETATTR: u32 =
    ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_ATIME_SET | ATTR_MTIME_SET | ATTR_TIMES_SET;

/// The SID of a label, or `fallback` when there is no label or it has
/// none.
#[inline(always)]
fn sid_or(label: Option<&Label>, fallback: InitialSid) -> Sid {
    let fallback = Sid::initial(fallback);
    label.map_or(fallback, |l| l.sid_or(fallback))
}

/// The SID of a cred: `sid kernel` when it has none.
#[inline(always)]
fn cred_sid(cred: &Cred) -> Sid {
    sid_or(cred.state(&KEY), InitialSid::Kernel)
}

/// The SID of the current task's subjective cred.
#[inline(always)]
fn current_sid() -> Sid {
    Cred::with_current(cred_sid)
}

/// May the current task do `perm`, a permission of `security`, on the
/// policy (`sid security`)? As selinuxfs asks before it loads a policy,
/// sets the mode or a boolean, or answers a question. Before a policy is
/// loaded, yes (as SELinux's AVC). Does not sleep.
pub(super) fn check_security(perm: u32) -> Result {
    let s = current_sid();
    check(
        s,
        Sid::initial(InitialSid::Security),
        Class::Security,
        perm,
        Target::None,
    )
}

/// Whether a transition from `s` to `new` is refused by the exec's
/// `no_new_privs` or by a mount that allows no set-user-ID programs, as
/// SELinux's check_nnp_nosuid(): under `policycap nnp_nosuid_transition`,
/// `process2 nnp_transition` (and `nosuid_transition`) allow it; mlte has
/// no bounded types, SELinux's other way. The caller falls back to the old
/// context.
fn nnp_nosuid_refuses(bprm: &Binprm, s: Sid, new: Sid) -> bool {
    let nnp = bprm.unsafe_flags() & LSM_UNSAFE_NO_NEW_PRIVS != 0;
    let nosuid = bprm.nosuid();
    if !nnp && !nosuid {
        return false;
    }
    let by_capability =
        policy::with(|p| p.is_some_and(|p| p.policycaps() & policycap::NNP_NOSUID_TRANSITION != 0));
    if !by_capability {
        return true;
    }
    let perms = if nnp { PROCESS2_NNP_TRANSITION } else { 0 }
        | if nosuid {
            PROCESS2_NOSUID_TRANSITION
        } else {
            0
        };
    check(s, new, Class::Process2, perms, Target::None).is_err()
}

/// May the current task have `perms` of `filesystem` on a file system of
/// type `fs`, as SELinux's `superblock_has_perm()` on the superblock's
/// SID: its `fs_use_*` or `/` genfscon context (`sid unlabeled`'s when
/// the policy names it nowhere). May sleep (interns the context).
fn check_superblock(cx: &MaySleep, fs: &[u8], perms: u32, target: Target<'_>) -> Result {
    let Some(ctx) = policy::with(|p| p.map(|p| p.store(&p.fs_behaviour(fs).1))) else {
        return Ok(());
    };
    let sb = sidtab::intern(cx, &ctx)?;
    check(current_sid(), sb, Class::Filesystem, perms, target)
}

/// May the current task mount on `dentry`? `mounton` in its inode's
/// class (SELinux's `path_has_perm(..., FILE__MOUNTON)`).
fn check_mount_point(cx: &MaySleep, dentry: &Dentry) -> Result {
    let Some(inode) = label_dentry(cx, dentry) else {
        return Ok(());
    };
    let (class, perms) = by_class(inode, FILE_MOUNTON, DIR_MOUNTON);
    check_inode(inode, class, perms, Target::Dentry(dentry))
}

/// The SID of a task's objective cred.
fn task_sid(task: &Task) -> Sid {
    task.with_cred(cred_sid)
}

/// An inode's label.
#[inline(always)]
fn inode_label(inode: &Inode) -> Option<&Label> {
    inode.state(&KEY).map(|state| &state.label)
}

/// The SID of an inode: `sid file` when it has none.
#[inline(always)]
fn inode_sid(inode: &Inode) -> Sid {
    sid_or(inode_label(inode), InitialSid::File)
}

/// The class of an inode, by its file type (`Class::of_mode`); a
/// socket's inode is in its socket's class, as SELinux's (set by
/// `socket_post_create`).
#[inline(always)]
fn class_of(inode: &Inode) -> Class {
    let class = Class::of_mode(u32::from(inode.mode()));
    if class == Class::SockFile {
        if let Some(socket) = inode.state(&KEY).and_then(|l| l.socket_class.get()) {
            return socket;
        }
    }
    class
}

/// `file` or `dir` permissions, by the inode's class.
#[inline(always)]
fn by_class(inode: &Inode, file: u32, dir: u32) -> (Class, u32) {
    match class_of(inode) {
        Class::Dir => (Class::Dir, dir),
        class => (class, file),
    }
}

/// Decides whether `s` may have `perms` on `o` in `class`; allows
/// everything when no policy is loaded. Does not sleep. Inline: the
/// decision cache's answer, then, when it has none, [`check_uncached`].
#[inline(always)]
fn check(s: Sid, o: Sid, class: Class, perms: u32, target: Target<'_>) -> Result {
    if policy::allowed_by_cache(s, o, class, perms) {
        return Ok(());
    }
    check_uncached(s, o, class, perms, target)
}

/// [`check`] when the decision cache does not allow quietly: decided,
/// logged and cached under the policy in force.
#[inline(never)]
fn check_uncached(s: Sid, o: Sid, class: Class, perms: u32, target: Target<'_>) -> Result {
    policy::with(|p| match p {
        Some(p) => policy::check(p, s, o, class, perms, target),
        None => Ok(()),
    })
}

/// May the current task have `perms` on `inode`?
///
/// The hot path of the file hooks: two SIDs read from their blobs and one
/// probe of the decision cache.
/// A file system's private inode (`S_PRIVATE`: System V shared memory's
/// files, other internal ones) is not checked, as SELinux's
/// `inode_has_perm()` does not.
#[inline(always)]
fn check_inode(inode: &Inode, class: Class, perms: u32, target: Target<'_>) -> Result {
    if inode.is_private() {
        return Ok(());
    }
    // A socket's inode is asked only the permissions files and sockets
    // share (SELinux asks no `open` on sockfs, `open_file_to_av()`). The
    // files' own others (execute, link, unlink, rename) do not reach a
    // socket's inode: the VFS refuses those operations on it first.
    let perms = if class.is_socket() {
        perms & COMMON_PERMS_MASK
    } else {
        perms
    };
    check(current_sid(), inode_sid(inode), class, perms, target)
}

/// Whether `inode`'s type is the one named `name` (`sid file`'s for an
/// unlabelled inode): `None` when its label could not be read (it is
/// provisional) and so its type is not known; `Some(false)` when no policy
/// is loaded or it has no such type. For other submodules' selectors (the
/// integrity policy's `obj_type=`). Does not sleep.
#[cfg_attr(not(CONFIG_SECURITY_STACKER_MLTE), allow(dead_code))]
pub(crate) fn inode_type_is(inode: &Inode, name: &[u8]) -> Option<bool> {
    let label = inode_label(inode);
    if label.is_some_and(Label::is_provisional) {
        return None;
    }
    let sid = inode_sid(inode);
    Some(policy::with(|p| {
        let Some(p) = p else { return false };
        p.type_name(p.context(sid).ty()) == name
    }))
}

/// May the current task have `file`/`dir` permissions on `dentry`'s inode
/// (labelling it first if it has no label yet)? Allows a negative dentry.
fn check_dentry(cx: &MaySleep, dentry: &Dentry, file: u32, dir: u32) -> Result {
    let Some(inode) = label_dentry(cx, dentry) else {
        return Ok(());
    };
    let (class, perms) = by_class(inode, file, dir);
    check_inode(inode, class, perms, Target::Dentry(dentry))
}

/// What a label's text gives in a policy: a context to intern, or an
/// initial SID.
#[allow(
    clippy::large_enum_variant,
    reason = "a local of one call, interned at once; boxing it would allocate"
)]
enum Parsed {
    /// A context the policy accepts, as the SID table keeps it.
    Context(StoredContext),
    /// An initial SID (`sid unlabeled` for text the policy cannot read).
    Initial(InitialSid),
    /// A SID already interned.
    Sid(Sid),
}

/// The context a label's text gives in `policy`, or `sid unlabeled` when
/// the policy cannot read it.
fn parse_label(text: &[u8], policy: &Policy<'_>) -> Parsed {
    match Context::parse(text, policy) {
        Ok(ctx) => Parsed::Context(policy.store(&ctx)),
        Err(_) => Parsed::Initial(InitialSid::Unlabeled),
    }
}

impl Parsed {
    /// The SID: a context interned (may allocate), or the initial SID.
    fn sid(&self, cx: &MaySleep) -> Result<Sid> {
        match self {
            Parsed::Context(ctx) => sidtab::intern(cx, ctx),
            Parsed::Initial(initial) => Ok(Sid::initial(*initial)),
            Parsed::Sid(sid) => Ok(*sid),
        }
    }
}

/// An xattr value without the one trailing NUL that some tools write.
fn trim_nul(value: &[u8]) -> &[u8] {
    value.strip_suffix(b"\0").unwrap_or(value)
}

/// Labels `inode`, reached through `dentry`, as the policy says its file
/// system's inodes are labelled (`fs_labelling.rs`), unless it has a
/// label, no policy is loaded, or its file system is still mounting (its
/// inodes are labelled on a later access). May read an xattr or the
/// dentry's path and intern a context: may sleep. A transient error
/// (`ENOMEM`, `EIO`) gives the inode `sid unlabeled` provisionally (never
/// `sid file`, which an unreadable label could be more restricted than),
/// and the next access tries again; a label read meanwhile by another
/// task, or set by a relabel, is kept.
///
/// Inline: nearly every call finds the label set, and that test is two
/// loads; the labelling itself is out of line.
#[inline(always)]
fn label_inode(cx: &MaySleep, dentry: &Dentry, inode: &Inode) {
    if inode_label(inode).is_some_and(|label| !label.is_set()) {
        read_label(cx, dentry, inode);
    }
}

/// How an inode's label is found, as SELinux's `inode_doinit_with_dentry()`
/// decides it from its file system's behaviour.
#[allow(
    clippy::large_enum_variant,
    reason = "a local of one call, used at once; boxing it would allocate"
)]
enum LabelSource {
    /// The `security.mlte` xattr; without one, `sid file`.
    Xattr,
    /// A context, computed or given.
    Context(StoredContext),
    /// A SID.
    Sid(Sid),
    /// The context of the `genfscon` rule for the inode's path (`sid
    /// unlabeled` when none matches), then, on sysfs and cgroup, the xattr
    /// kept in memory if one was set.
    Path { then_xattr: bool },
}

/// Whether `inode`'s file system gets computed contexts for its new
/// inodes and takes labels set on them, under `p` (SELinux's
/// `SBLABEL_MNT`, `fs_labelling::takes_labels`).
fn takes_labels(p: &Policy<'_>, inode: &Inode) -> bool {
    let fs = inode.fs_type();
    fs_labelling::takes_labels(fs, p.fs_labelling(fs), p.policycaps())
}

/// [`label_inode`] for an inode whose label is not set.
#[inline(never)]
fn read_label(cx: &MaySleep, dentry: &Dentry, inode: &Inode) {
    let Some(state) = inode.state(&KEY) else {
        return;
    };
    let label = &state.label;
    if label.is_set() || !inode.fs_ready() {
        return;
    }
    let fs = inode.fs_type();
    let mode = u32::from(inode.mode());
    let maker = state.maker.sid_or(Sid::initial(InitialSid::Kernel));
    let source = policy::with(|p| {
        let p = p?;
        let source = match p.fs_labelling(fs) {
            Behaviour::Use(FsUse::Xattr) => LabelSource::Xattr,
            // The maker's SID itself, as SELinux's `task_sid`.
            Behaviour::Use(FsUse::Task) => LabelSource::Sid(maker),
            Behaviour::Use(FsUse::Trans) => {
                let class = class_of(inode);
                let maker_context = p.context(maker).context();
                let fs_context = p.fs_behaviour(fs).1;
                let new = p.new_context(
                    &maker_context,
                    &fs_context,
                    class,
                    Computation::Create { name: None },
                );
                // A context the policy does not find valid: the file
                // system's (SELinux fails the lookup, and the inode stays
                // unlabelled until an access that finds it valid).
                let new = if p.validate(&new).is_ok() {
                    new
                } else {
                    fs_context
                };
                LabelSource::Context(p.store(&new))
            }
            Behaviour::Genfs | Behaviour::None => {
                let caps = p.policycaps();
                if fs_labelling::labels_by_path(fs, caps)
                    && fs_labelling::path_labels_mode(mode, caps)
                {
                    LabelSource::Path {
                        then_xattr: fs_labelling::path_label_then_xattr(fs),
                    }
                } else {
                    LabelSource::Context(p.store(&p.fs_behaviour(fs).1))
                }
            }
        };
        Some(source)
    });
    let Some(source) = source else {
        return;
    };
    let parsed = match source {
        LabelSource::Xattr => xattr_label(cx, dentry, inode, Sid::initial(InitialSid::File)),
        LabelSource::Context(ctx) => Ok(Parsed::Context(ctx)),
        LabelSource::Sid(sid) => Ok(Parsed::Sid(sid)),
        LabelSource::Path { then_xattr } => path_label(cx, dentry, inode, fs, mode, then_xattr),
    };
    let sid = parsed.and_then(|parsed| parsed.sid(cx));
    match sid {
        Ok(sid) => label.set_if_unset(sid),
        Err(e) => label_unreadable(label, inode, e),
    }
}

/// The label `inode`'s `security.mlte` xattr gives (read through
/// `dentry`): `default` without one, `sid unlabeled` for one the policy
/// cannot read; an error when it could not be read this time.
fn xattr_label(cx: &MaySleep, dentry: &Dentry, inode: &Inode, default: Sid) -> Result<Parsed> {
    let mut buf = [0u8; MAX_CONTEXT];
    let read = dentry.getxattr_of(cx, inode, c"security.mlte", &mut buf);
    let parsed = match read {
        Ok(n) => match buf.get(..n) {
            Some(text) => policy::with(|p| p.map(|p| parse_label(trim_nul(text), p))),
            None => Some(Parsed::Initial(InitialSid::Unlabeled)),
        },
        Err(e) if e == ENODATA || e == EOPNOTSUPP => Some(Parsed::Sid(default)),
        // Longer than any label taken in: not one this policy can use.
        Err(e) if e == ERANGE => Some(Parsed::Initial(InitialSid::Unlabeled)),
        Err(e) => return Err(e),
    };
    // No policy any more: nothing to label with (the next access tries).
    parsed.ok_or(ENODATA)
}

/// The label of `inode` on `fs`, labelled by path: the context of the
/// `genfscon` rule for its path (through `dentry`) and `mode`, `sid
/// unlabeled` when none is; with `then_xattr`, a label set on the inode in
/// memory wins, as SELinux's `SE_SBGENFS_XATTR`.
fn path_label(
    cx: &MaySleep,
    dentry: &Dentry,
    inode: &Inode,
    fs: &[u8],
    mode: u32,
    then_xattr: bool,
) -> Result<Parsed> {
    let found = dentry.with_path(cx, |path| {
        policy::with(|p| p.map(|p| p.genfs(fs, path, mode).map(|ctx| p.store(&ctx))))
    })?;
    let by_path = match found {
        Some(Some(ctx)) => Parsed::Context(ctx),
        Some(None) => Parsed::Initial(InitialSid::Unlabeled),
        None => return Err(ENODATA),
    };
    if !then_xattr {
        return Ok(by_path);
    }
    let default = by_path.sid(cx)?;
    xattr_label(cx, dentry, inode, default)
}

/// `inode`'s label could not be read (`err`, transient): decided as `sid
/// unlabeled` until an access reads it.
#[cold]
fn label_unreadable(label: &Label, inode: &Inode, err: crate::error::Error) {
    let first = label.set_provisional(Sid::initial(InitialSid::Unlabeled));
    policy::label_read_failed(inode.ino(), err, first);
}

/// `dentry`'s inode, labelled (see [`label_inode`]). May sleep.
fn label_dentry<'a>(cx: &MaySleep, dentry: &'a Dentry) -> Option<&'a Inode> {
    let inode = dentry.inode()?;
    label_inode(cx, dentry, inode);
    Some(inode)
}

/// The context of a new object of `class` that a task in `s` creates in
/// `t` (for `process`, the domain an exec of a file of `t` enters), named
/// `name` if it is a file, as SELinux's `security_transition_sid()`
/// (`Compiled::new_context`). A context the policy does not find valid is
/// logged and, when enforcing, refused with `EACCES`, as
/// `compute_sid_handle_invalid_context()`.
fn compute_context(
    p: &Policy<'_>,
    s: Sid,
    t: Sid,
    class: Class,
    name: Option<&[u8]>,
) -> Result<Context> {
    let subject = p.context(s).context();
    let how = Computation::Create { name };
    let new = p.new_context(&subject, &p.context(t).context(), class, how);
    match p.validate(&new) {
        Ok(()) => Ok(new),
        Err(_) => invalid_context(p, s, t, &new, class),
    }
}

/// [`compute_context`] computed `new`, which is not valid.
#[cold]
fn invalid_context(p: &Policy<'_>, s: Sid, t: Sid, new: &Context, class: Class) -> Result<Context> {
    if platform::ratelimit_audit() {
        let (scontext, tcontext, tclass) = (p.show(s), p.show(t), class.name());
        let invalid = new.show(p);
        platform::pr_warn!(
            "{}\n",
            format_args!(
                "mlte: op=security_compute_sid invalid_context=\"{invalid}\" \
                 scontext={scontext} tcontext={tcontext} tclass={tclass}"
            )
        );
    }
    if policy::enforcing() {
        Err(EACCES)
    } else {
        Ok(*new)
    }
}

/// The context of a new inode of `class` named `name` that a task in `s`
/// creates in a directory of SID `dir` ([`compute_context`]).
fn new_inode_context(
    p: &Policy<'_>,
    s: Sid,
    dir: Sid,
    class: Class,
    name: &[u8],
) -> Result<Context> {
    compute_context(p, s, dir, class, Some(name))
}

/// May the current task create an inode of `class` as `dentry` in `dir`?
/// Interns the new inode's context (may sleep).
fn check_create(cx: &MaySleep, dir: &Inode, dentry: &Dentry, class: Class) -> Result {
    let create = if class == Class::Dir {
        DIR_CREATE
    } else {
        FILE_CREATE
    };
    let (s, parent) = (current_sid(), inode_sid(dir));
    // The new file's name, for name-based type_transitions (as SELinux's
    // may_create()).
    let new = dentry.with_name(|name| {
        policy::with(|p| -> Result<Option<NewSid>> {
            let Some(p) = p else { return Ok(None) };
            policy::check(
                p,
                s,
                parent,
                Class::Dir,
                DIR_ADD_NAME | DIR_WRITE,
                Target::Inode(dir),
            )?;
            p.new_sid(s, parent, class, |p| {
                new_inode_context(p, s, parent, class, name)
            })
            .map(Some)
        })
    })?;
    let Some(new) = new else {
        return Ok(());
    };
    let new = new.sid(cx)?;
    check(s, new, class, create, Target::Dentry(dentry))
}

/// May the current task remove `dentry` from `dir` (`unlink` or `rmdir`
/// permission on the inode)?
fn check_remove(cx: &MaySleep, dir: &Inode, dentry: &Dentry) -> Result {
    check_inode(
        dir,
        Class::Dir,
        DIR_REMOVE_NAME | DIR_WRITE,
        Target::Inode(dir),
    )?;
    check_dentry(cx, dentry, FILE_UNLINK, DIR_RMDIR)
}

/// May the current task (or `cred`) have `perms` on task `target`?
fn check_task(target: &Task, cred: Option<&Cred>, perms: u32) -> Result {
    let s = cred.map_or_else(current_sid, cred_sid);
    check(
        s,
        task_sid(target),
        Class::Process,
        perms,
        Target::Task(target.pid()),
    )
}

/// May the current task have `perms` on socket `sock`?
///
/// A socket without a label (one made before the policy, or a sock a
/// protocol made without a clone of a labelled one) takes the SID of the
/// first task that uses it. Accepted sockets are labelled when they are
/// made (`sk_clone_security`, `unix_stream_connect`).
fn check_socket(sock: &Socket, perms: u32) -> Result {
    let s = current_sid();
    let state = sock.sock().and_then(|sk| sk.state(&KEY));
    let label = state.map(|state| &state.label);
    policy::with(|p| {
        let Some(p) = p else { return Ok(()) };
        // The class fixed when the socket was made; else (an accepted
        // socket's sock, which the protocol cloned) its family's.
        let class = state
            .and_then(|state| state.class.get())
            .unwrap_or_else(|| socket_class(sock, extended_sockets(p)));
        let o = match label {
            Some(label) => {
                label.set_if_unset(s);
                label.sid_or(s)
            }
            None => s,
        };
        policy::check(p, s, o, class, perms, Target::None)
    })
}

/// The SID and class of `sk`, the sock of a Unix socket (`sid kernel`
/// for one made before the policy, as SELinux's are; its class by its
/// type when it has none).
fn unix_sock_sid_class(sk: &Sock, class: Class) -> (Sid, Class) {
    let state = sk.state(&KEY);
    let sid = state.and_then(|st| st.label.get());
    let sid = sid.unwrap_or(Sid::initial(InitialSid::Kernel));
    (sid, state.and_then(|st| st.class.get()).unwrap_or(class))
}

/// The class of `sock`, by its family, type and protocol
/// (`Class::of_socket`, `extended` as the policy's capability says);
/// `socket` before the protocol set it up.
fn socket_class(sock: &Socket, extended: bool) -> Class {
    sock.sock().map_or(Class::Socket, |sk| {
        let (ty, protocol) = sk.type_and_protocol();
        Class::of_socket(sk.family().into(), ty.into(), protocol.into(), extended)
    })
}

/// Whether `p` has the `extended_socket_class` capability.
fn extended_sockets(p: &Policy<'_>) -> bool {
    p.policycaps() & policycap::EXTENDED_SOCKET_CLASS != 0
}

/// The class of a new socket of `family`, `ty` and `protocol` that a
/// task in `s` makes, and, with a policy, its SID, as SELinux's
/// `socket_sockcreate_sid()`: a `type_transition` on (`s`, `s`, class),
/// else `s`'s context. May sleep (interns a computed context).
fn new_socket(
    cx: &MaySleep,
    s: Sid,
    family: i32,
    ty: i32,
    protocol: i32,
) -> Result<(Class, Option<Sid>)> {
    let (class, new) = policy::with(|p| -> Result<(Class, Option<NewSid>)> {
        // Negative values name no class of their own: `socket`.
        let extended = p.is_some_and(extended_sockets);
        let class = Class::of_socket(family as u32, ty as u32, protocol as u32, extended);
        let Some(p) = p else { return Ok((class, None)) };
        let new = p.new_sid(s, s, class, |p| compute_context(p, s, s, class, None))?;
        Ok((class, Some(new)))
    })?;
    let sid = new.map(|new| new.sid(cx)).transpose()?;
    Ok((class, sid))
}

/// The SID of System V IPC object `ipc`: `sid kernel` when it has none.
fn ipc_sid(ipc: &IpcPerm) -> Sid {
    sid_or(
        ipc.state(&KEY).map(|state| &state.label),
        InitialSid::Kernel,
    )
}

/// May a task in `s` have `perms` on IPC object `ipc` of `class` (SELinux's
/// `ipc_has_perm()`)?
fn check_ipc(s: Sid, ipc: &IpcPerm, class: Class, perms: u32) -> Result {
    check(s, ipc_sid(ipc), class, perms, Target::None)
}

/// Labels a new IPC object of `class` with its creator's SID (SELinux's
/// `ipc_init_security()`: no `type_transition`) and checks `create` on
/// it.
fn create_ipc(ipc: &IpcPerm, class: Class) -> Result {
    let s = current_sid();
    let state = ipc.state(&KEY);
    if let Some(state) = state {
        state.class.set(class);
    }
    policy::with(|p| {
        let Some(p) = p else { return Ok(()) };
        if let Some(state) = state {
            state.label.set(Some(s));
        }
        policy::check(p, s, s, class, IPC_CREATE, Target::None)
    })
}

/// What a System V `*ctl` command needs, as SELinux's
/// `selinux_{msg_queue_msgctl,shm_shmctl,sem_semctl}()` decide.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CtlNeeds {
    /// Nothing: a command SELinux does not check.
    Nothing,
    /// `system ipc_info` on `sid kernel`: a command about no object
    /// (`IPC_INFO`, `MSG_INFO`, `SHM_INFO`, `SEM_INFO`).
    SystemInfo,
    /// These permissions on the object, in its class.
    Perms(u32),
}

impl CtlNeeds {
    /// What command `cmd` of `class`'s `*ctl` (`msgq`: `msgctl(2)`, `shm`:
    /// `shmctl(2)`, `sem`: `semctl(2)`) needs.
    fn of(class: Class, cmd: i32) -> CtlNeeds {
        use crate::abi as c;
        let perms = match (class, cmd) {
            (_, c::IPC_INFO)
            | (Class::Msgq, c::MSG_INFO)
            | (Class::Shm, c::SHM_INFO)
            | (Class::Sem, c::SEM_INFO) => return CtlNeeds::SystemInfo,
            (_, c::IPC_STAT)
            | (Class::Msgq, c::MSG_STAT | c::MSG_STAT_ANY)
            | (Class::Shm, c::SHM_STAT | c::SHM_STAT_ANY)
            | (Class::Sem, c::SEM_STAT | c::SEM_STAT_ANY) => IPC_GETATTR | IPC_ASSOCIATE,
            (_, c::IPC_SET) => IPC_SETATTR,
            (_, c::IPC_RMID) => IPC_DESTROY,
            (Class::Shm, c::SHM_LOCK | c::SHM_UNLOCK) => SHM_LOCK,
            (Class::Sem, c::GETPID | c::GETNCNT | c::GETZCNT) => IPC_GETATTR,
            (Class::Sem, c::GETVAL | c::GETALL) => IPC_READ,
            (Class::Sem, c::SETVAL | c::SETALL) => IPC_WRITE,
            _ => return CtlNeeds::Nothing,
        };
        CtlNeeds::Perms(perms)
    }
}

/// May the current task run `*ctl` command `cmd` on IPC object `ipc` of
/// `class` (`None`: a command about no object)? ([`CtlNeeds`].)
fn check_ipc_ctl(ipc: Option<&IpcPerm>, class: Class, cmd: i32) -> Result {
    let s = current_sid();
    match (CtlNeeds::of(class, cmd), ipc) {
        (CtlNeeds::Perms(perms), Some(ipc)) => check_ipc(s, ipc, class, perms),
        (CtlNeeds::SystemInfo, _) => check(
            s,
            Sid::initial(InitialSid::Kernel),
            Class::System,
            SYSTEM_IPC_INFO,
            Target::None,
        ),
        // The kernel passes an object for every command but the
        // `*_INFO` ones.
        (CtlNeeds::Perms(_), None) | (CtlNeeds::Nothing, _) => Ok(()),
    }
}

/// May a task in `s` use capability `cap` in the initial user namespace
/// (`initial_ns`) or another? As SELinux's `cred_has_capability()`: the
/// task's own context, bit `cap % 32` of the class of the capability's
/// word and namespace; logged unless `audit` is false (`CAP_OPT_NOAUDIT`);
/// `EINVAL` past the classes. Does not sleep.
fn check_capability(s: Sid, cap: u32, initial_ns: bool, audit: bool) -> Result {
    let Some(class) = Class::of_capability(cap, initial_ns) else {
        if platform::ratelimit() {
            platform::pr_warn!("mlte: out of range capability {cap}\n");
        }
        return Err(EINVAL);
    };
    let target = if audit {
        Target::Capability(cap)
    } else {
        Target::Unaudited
    };
    check(s, s, class, 1 << (cap % 32), target)
}

/// May the current task use `file` for `perms` of `class` (its inode's),
/// as SELinux's `file_has_perm()`: `fd use` on the context of the task
/// that opened it when that was another context, then `perms` on the
/// inode (none: `fd use` alone).
fn check_file(file: &File, class: Class, perms: u32) -> Result {
    let s = current_sid();
    let target = Target::Dentry(file.dentry());
    if let Some(opener) = file.state(&KEY).and_then(|f| f.opener.get()) {
        if opener != s {
            check(s, opener, Class::Fd, FD_USE, target)?;
        }
    }
    if perms == 0 {
        return Ok(());
    }
    check_inode(file.inode(), class, perms, target)
}

/// The permissions the open mode of `file` needs, in its inode's class, as
/// SELinux's `file_to_av()`: `read` when opened for reading, `write` (or
/// `append` in append mode) when opened for writing, `ioctl` when opened
/// for neither.
fn open_mode_perms(file: &File) -> (Class, u32) {
    let inode = file.inode();
    let bit = |on: bool, perm: u32| if on { perm } else { 0 };
    let (class, perms) = if class_of(inode) == Class::Dir {
        (
            Class::Dir,
            bit(file.readable(), DIR_READ) | bit(file.writable(), DIR_WRITE),
        )
    } else {
        let write = if file.appending() {
            FILE_APPEND
        } else {
            FILE_WRITE
        };
        (
            class_of(inode),
            bit(file.readable(), FILE_READ) | bit(file.writable(), write),
        )
    };
    if perms == 0 {
        return by_class(inode, FILE_IOCTL, DIR_IOCTL);
    }
    (class, perms)
}

/// The permissions a read or write `mask` (`MAY_*`) of an inode asks, in
/// its class, as SELinux's `file_mask_to_av()`: for a directory `search`,
/// `read` and `write`; else `execute`, `read`, and `append` instead of
/// `write` when appending.
fn mask_perms(inode: &Inode, m: u32) -> (Class, u32) {
    let bit = |flag: u32, perm: u32| if m & flag != 0 { perm } else { 0 };
    let class = class_of(inode);
    if class == Class::Dir {
        return (
            Class::Dir,
            bit(may::EXEC, DIR_SEARCH) | bit(may::READ, DIR_READ) | bit(may::WRITE, DIR_WRITE),
        );
    }
    // Appending is `append`, not `write`, and is asked for itself:
    // `open(O_RDONLY | O_APPEND)` asks `MAY_APPEND` without `MAY_WRITE`.
    let write = if m & may::APPEND != 0 {
        FILE_APPEND
    } else {
        bit(may::WRITE, FILE_WRITE)
    };
    (
        class,
        bit(may::EXEC, FILE_EXECUTE) | bit(may::READ, FILE_READ) | write,
    )
}

/// May the current task map `file` (anonymous memory: `None`) with
/// `prot`, `shared` or private? As SELinux's `file_map_prot_check()`:
/// `process execmem` to make executable anonymous memory, or a private
/// mapping that is also writable, where data is not executable by
/// default; on the file, `read`, `write` for a shared writable mapping
/// (writes reach the file), and `execute` for an executable one
/// (`file_map_prot_to_av()`).
fn check_map_prot(file: Option<&File>, prot: u64, shared: bool) -> Result {
    let (exec, write) = (prot & PROT_EXEC != 0, prot & PROT_WRITE != 0);
    if exec && objects::data_noexec() {
        let anonymous = file.is_none_or(|f| f.inode().is_private());
        if anonymous || (!shared && write) {
            let s = current_sid();
            check(s, s, Class::Process, PROCESS_EXECMEM, Target::None)?;
        }
    }
    let Some(file) = file else { return Ok(()) };
    let perms = FILE_READ
        | if shared && write { FILE_WRITE } else { 0 }
        | if exec { FILE_EXECUTE } else { 0 };
    check_file(file, class_of(file.inode()), perms)
}

/// May the current task make `vma` executable by `mprotect()`, where it
/// was not? As SELinux's `selinux_file_mprotect()`, where data is not
/// executable by default: `process execheap` for the heap, `process
/// execstack` for a stack, and `execmod` on a file whose mapping had
/// private pages written (text relocations).
fn check_made_executable(vma: &Vma) -> Result {
    let s = current_sid();
    match (vma.memory(), vma.file()) {
        (VmaMemory::Heap, _) => check(s, s, Class::Process, PROCESS_EXECHEAP, Target::None),
        (VmaMemory::Stack, _) => check(s, s, Class::Process, PROCESS_EXECSTACK, Target::None),
        (VmaMemory::WrittenFile, Some(file)) => {
            check_file(file, class_of(file.inode()), FILE_EXECMOD)
        }
        _ => Ok(()),
    }
}

/// What an audit rule's `field` compares: the user, role or type of the
/// subject's or the object's context.
fn audit_field_kind(field: u32) -> Option<Kind> {
    match field {
        AUDIT_SUBJ_USER | AUDIT_OBJ_USER => Some(Kind::User),
        AUDIT_SUBJ_ROLE | AUDIT_OBJ_ROLE => Some(Kind::Role),
        AUDIT_SUBJ_TYPE | AUDIT_OBJ_TYPE => Some(Kind::Type),
        _ => None,
    }
}

/// The text of `sid`'s context ([`Policy::show`]); `None` without a
/// policy or for a text longer than [`CONTEXT_TEXT`].
fn sid_text(sid: Sid) -> Option<ContextText> {
    policy::with(|p| p.and_then(|p| ContextText::of(p.show(sid))))
}

/// `sid` as mlte's secid for `struct lsm_prop` (`core/lsm_prop.rs`).
/// Every object has one, before a policy too (an initial SID's), as
/// SELinux's have: audit takes an empty slot for an error.
fn secid_of(sid: Sid) -> Option<Secid> {
    Secid::new(sid.raw())
}

/// The text of secid `sid` for audit and `SCM_SECURITY`: its context's
/// ([`sid_text`]); before a policy is loaded, an initial SID's name
/// (`kernel`, `file`), as SELinux gives before its policy
/// (`security_sid_to_context()` of an initial SID).
fn secid_text(sid: Sid, out: &mut SecCtx) -> Result {
    if let Some(text) = sid_text(sid) {
        return out.push_bytes(text.bytes());
    }
    let initial = sid.as_initial().unwrap_or(InitialSid::Unlabeled);
    let name = SIDS
        .iter()
        .find(|(s, _)| *s == initial)
        .map_or("unlabeled", |(_, name)| name);
    out.push_bytes(name.as_bytes())
}

/// A context's text, in a buffer of [`CONTEXT_TEXT`] bytes on the stack.
struct ContextText {
    buf: [u8; CONTEXT_TEXT],
    len: usize,
}

impl Write for ContextText {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(core::fmt::Error)?;
        self.buf
            .get_mut(self.len..end)
            .ok_or(core::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl ContextText {
    /// The text of a context, or `None` if it is longer than
    /// [`CONTEXT_TEXT`]. Does not sleep (a stack buffer).
    fn of(shown: Shown<'_>) -> Option<Self> {
        let mut text = ContextText {
            buf: [0; CONTEXT_TEXT],
            len: 0,
        };
        write!(text, "{shown}").ok()?;
        Some(text)
    }

    fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

/// `.../mlte/policy`: write a compiled policy (one `write()`); read a
/// summary of the one in force.
struct PolicyFile;

impl Attribute for PolicyFile {
    const WRITABLE: bool = true;
    // A compiled form of 32 MiB: 2,000,000 rules at 16 bytes, or 32,768
    // types at 68 bytes with 1,800,000 rules.
    const MAX_WRITE: usize = 32 << 20;

    fn show(out: &mut TextBuf) -> Result {
        let summary = policy::with(|p| p.map(|p| (p.types(), p.rules())));
        out.format(|out| match summary {
            Some((types, rules)) => writeln!(out, "loaded: {types} types, {rules} rules"),
            None => writeln!(out, "none"),
        })
    }

    fn store(input: &[u8]) -> Result {
        check_security(SECURITY_LOAD_POLICY)?;
        // SAFETY: securityfs calls `store` from the file's `write`, in
        // process context with no spinlock or RCU read lock held.
        let cx = unsafe { MaySleep::new() };
        policy::load(&cx, input)?;
        // Audit rules that name types mean what the new policy says.
        platform::audit_rules_update(&cx);
        Ok(())
    }
}

/// `.../mlte/enforce`: `1` enforcing, `0` permissive.
struct EnforceFile;

impl Attribute for EnforceFile {
    const WRITABLE: bool = true;

    fn show(out: &mut TextBuf) -> Result {
        out.format(|out| writeln!(out, "{}", u8::from(policy::enforcing())))
    }

    fn store(input: &[u8]) -> Result {
        let enforcing = match input.strip_suffix(b"\n").unwrap_or(input) {
            b"1" => true,
            b"0" => false,
            _ => {
                platform::pr_warn!("mlte: enforce: expected 0 or 1\n");
                return Err(EINVAL);
            }
        };
        // As selinuxfs's sel_write_enforce(): a change of mode needs
        // `setenforce`; writing the mode in force changes nothing.
        if enforcing != policy::enforcing() {
            check_security(SECURITY_SETENFORCE)?;
            policy::set_enforcing(enforcing);
        }
        Ok(())
    }
}

/// `.../mlte/status`: denials, loads and failed label reads since boot,
/// the contexts interned, and the decisions the policy in force computed
/// (its cache's misses).
struct StatusFile;

impl Attribute for StatusFile {
    fn show(out: &mut TextBuf) -> Result {
        let c = policy::counts();
        let misses = policy::with(|p| p.map_or(0, |p| p.misses()));
        out.format(|out| {
            writeln!(
                out,
                "denials {}\nloads {}\nlabel_read_errors {}\nsids {}\ncache_misses {}",
                c.denials,
                c.loads,
                c.label_read_errors,
                sidtab::len(),
                misses
            )
        })
    }
}

crate::submodule::submodule! {
    impl Submodule for Mlte {
        const NAME: &'static CStr = c"mlte";
        const XATTR_COUNT: u32 = 1;
        const LSM_ID: u64 = crate::abi::LSM_ID_MLTE;

        type Key = MlteKey;
        crate::submodule::blob_states! {
            inode: InodeLabel,
            cred: Label,
            file: FileLabel,
            sock: ClassedLabel,
            ipc: ClassedLabel,
            msg_msg: Label,
        }

        fn securityfs_init(&'static self, dir: &Dir) -> Result {
            dir.create_file::<PolicyFile>(c"policy")?;
            dir.create_file::<EnforceFile>(c"enforce")?;
            dir.create_file::<StatusFile>(c"status")?;
            dir.create_file::<query::AccessFile>(c"access")?;
            dir.create_file::<query::CreateFile>(c"create")?;
            dir.create_file::<query::RelabelFile>(c"relabel")?;
            dir.create_file::<query::MemberFile>(c"member")?;
            dir.create_file::<query::ContextFile>(c"context")?;
            dir.create_file::<query::ValidatetransFile>(c"validatetrans")?;
            dir.create_file::<boolean_files::BooleansFile>(c"booleans")?;
            dir.create_file::<boolean_files::CommitBoolsFile>(c"commit_pending_bools")?;
            dir.create_file::<query::MlsFile>(c"mls")?;
            dir.create_file::<query::PolicyversFile>(c"policyvers")
        }
    }
    hooks {
        fn cred_prepare(&self, _cx: &MaySleep, new: &Cred, old: &Cred) -> Result {
            if let (Some(n), Some(o)) = (new.state(&KEY), old.state(&KEY)) {
                n.copy_from(o);
            }
            Ok(())
        }

        fn cred_transfer(&self, _cx: &MaySleep, new: &Cred, old: &Cred) {
            if let (Some(n), Some(o)) = (new.state(&KEY), old.state(&KEY)) {
                n.copy_from(o);
            }
        }

        fn bprm_creds_for_exec(&self, cx: &MaySleep, bprm: &Binprm) -> Result {
            let file = bprm.file();
            let inode = file.inode();
            label_inode(cx, file.dentry(), inode);
            let cred = bprm.cred();
            let (s, o) = (cred_sid(cred), inode_sid(inode));
            let target = Target::Dentry(file.dentry());
            // As SELinux's selinux_bprm_creds_for_exec(): the new context
            // a `type_transition` computes, or the old one.
            let computed = policy::with(|p| -> Result<Option<NewSid>> {
                let Some(p) = p else { return Ok(None) };
                let new = p.new_sid(s, o, Class::Process, |p| {
                    compute_context(p, s, o, Class::Process, None)
                })?;
                Ok((!matches!(new, NewSid::Known(sid) if sid == s)).then_some(new))
            })?;
            let new = match computed {
                Some(new) => new.sid(cx)?,
                None => s,
            };
            // Under `no_new_privs` or from a mount that allows no set-user-ID
            // programs, a transition the policy does not allow for it falls
            // back to the old context (check_nnp_nosuid()).
            let unsafe_flags = bprm.unsafe_flags();
            let new = if new != s && nnp_nosuid_refuses(bprm, s, new) { s } else { new };
            if new == s {
                return check(s, o, Class::File, FILE_EXECUTE_NO_TRANS, target);
            }
            check(s, new, Class::Process, PROCESS_TRANSITION, target)?;
            check(new, o, Class::File, FILE_ENTRYPOINT, target)?;
            // Sharing state (files, fs, a thread) with a task that stays
            // behind, or traced by a tracer that may not trace the new
            // context: EPERM, as SELinux's.
            if unsafe_flags & LSM_UNSAFE_SHARE != 0 {
                check(s, new, Class::Process, PROCESS_SHARE, Target::None).map_err(|_| EPERM)?;
            }
            if unsafe_flags & LSM_UNSAFE_PTRACE != 0 {
                if let Some(tracer) = Task::with_current_tracer(|t| t.map(task_sid)) {
                    check(tracer, new, Class::Process, PROCESS_PTRACE, Target::None)
                        .map_err(|_| EPERM)?;
                }
            }
            // The new cred is still private to this exec.
            if let Some(label) = cred.state(&KEY) {
                label.set(Some(new));
            }
            // No personality bit that weakens the new domain's memory
            // layout survives (PER_CLEAR_ON_SETID), and its loader ignores
            // LD_PRELOAD and the like (AT_SECURE) unless the policy grants
            // `noatsecure` (a denial of which is logged, as SELinux's).
            bprm.clear_personality_on_setid();
            if check(s, new, Class::Process, PROCESS_NOATSECURE, Target::None).is_err() {
                bprm.set_secureexec();
            }
            Ok(())
        }

        fn file_open(&self, cx: &MaySleep, file: &File) -> Result {
            let inode = file.inode();
            label_inode(cx, file.dentry(), inode);
            // What the open is decided on, for file_permission's fast path,
            // then the decision itself, the open mode's permissions asked
            // again with `open`: the label or the policy may have changed
            // since inode_permission, and reads and writes of this
            // descriptor take this decision (selinux_file_open()).
            if let Some(state) = file.state(&KEY) {
                state.decided(inode_sid(inode), policy::seqno());
            }
            let (class, perms) = open_mode_perms(file);
            let open = by_class(inode, FILE_OPEN, DIR_OPEN).1;
            check_inode(inode, class, perms | open, Target::Dentry(file.dentry()))
        }

        fn file_alloc_security(&self, _cx: &MaySleep, file: &FileSecurity) -> Result {
            if let Some(state) = file.state(&KEY) {
                state.opener.set(Some(current_sid()));
            }
            Ok(())
        }

        fn file_permission(&self, _cx: &MaySleep, file: &File, mask: AccessMask) -> Result {
            // As SELinux's selinux_file_permission(): a read or write by
            // the task that opened the file, of the inode label and under
            // the policy its open was decided on, was decided then; any
            // other (after a domain change, a relabel, a reload, or
            // through a descriptor another task opened) is decided again,
            // `fd use` included.
            let mut m = mask.0;
            if m == 0 {
                return Ok(());
            }
            let inode = file.inode();
            let s = current_sid();
            if file
                .state(&KEY)
                .is_some_and(|state| state.as_decided(s, inode_sid(inode), policy::seqno()))
            {
                return Ok(());
            }
            if file.appending() && m & may::WRITE != 0 {
                m |= may::APPEND;
            }
            let (class, perms) = mask_perms(inode, m);
            check_file(file, class, perms)
        }

        fn file_lock(&self, _cx: &MaySleep, file: &File, _cmd: u32) -> Result {
            let (class, perms) = by_class(file.inode(), FILE_LOCK, DIR_LOCK);
            check_file(file, class, perms)
        }

        fn file_receive(&self, _cx: &MaySleep, file: &File) -> Result {
            // As SELinux's selinux_file_receive() (SCM_RIGHTS,
            // pidfd_getfd()): `fd use`, and what the file's open mode
            // needs.
            let (class, perms) = open_mode_perms(file);
            check_file(file, class, perms)
        }

        fn file_ioctl(&self, _cx: &MaySleep, file: &File, cmd: u32, _arg: u64) -> Result {
            // As SELinux's selinux_file_ioctl(), command by command (a
            // 32-bit task's come here as the native ones).
            use crate::abi::{
                CAP_SYS_TTY_CONFIG, FIBMAP, FIGETBSZ, FIOASYNC, FIOCLEX, FIONBIO, FIONCLEX,
                FIONREAD, FS_IOC_GETFLAGS, FS_IOC_GETVERSION, FS_IOC_SETFLAGS, FS_IOC_SETVERSION,
                KDSKBENT, KDSKBSENT,
            };
            let inode = file.inode();
            let (class, perms) = match cmd {
                FIONREAD | FIBMAP | FIGETBSZ | FS_IOC_GETFLAGS | FS_IOC_GETVERSION => {
                    by_class(inode, FILE_GETATTR, DIR_GETATTR)
                }
                FS_IOC_SETFLAGS | FS_IOC_SETVERSION => by_class(inode, FILE_SETATTR, DIR_SETATTR),
                // What sys_ioctl() itself does: `fd use` alone.
                FIONBIO | FIOASYNC => (class_of(inode), 0),
                KDSKBENT | KDSKBSENT => {
                    return check_capability(current_sid(), CAP_SYS_TTY_CONFIG, true, true);
                }
                FIOCLEX | FIONCLEX
                    if policy::with(|p| {
                        p.is_some_and(|p| p.policycaps() & policycap::IOCTL_SKIP_CLOEXEC != 0)
                    }) =>
                {
                    return Ok(());
                }
                _ => by_class(inode, FILE_IOCTL, DIR_IOCTL),
            };
            check_file(file, class, perms)
        }

        fn file_fcntl(&self, _cx: &MaySleep, file: &File, cmd: u32, arg: u64) -> Result {
            // As SELinux's selinux_file_fcntl(): taking `O_APPEND` off a
            // file needs `write` on it (else a file opened with `append`
            // alone could be written anywhere); the flags, owner and
            // signal commands `fd use`; the record locks `lock`.
            use crate::abi::{
                F_GETFL, F_GETOWN, F_GETOWNER_UIDS, F_GETSIG, F_LOCK_COMMANDS, F_SETFL, F_SETOWN,
                F_SETSIG, O_APPEND,
            };
            let inode = file.inode();
            let (class, perms) = match cmd {
                F_SETFL if file.appending() && arg & u64::from(O_APPEND) == 0 => {
                    by_class(inode, FILE_WRITE, DIR_WRITE)
                }
                F_SETFL | F_SETOWN | F_SETSIG | F_GETFL | F_GETOWN | F_GETSIG
                | F_GETOWNER_UIDS => (class_of(inode), 0),
                cmd if F_LOCK_COMMANDS.contains(&cmd) => by_class(inode, FILE_LOCK, DIR_LOCK),
                _ => return Ok(()),
            };
            check_file(file, class, perms)
        }

        fn mmap_file(&self, _cx: &MaySleep, file: Option<&File>, _reqprot: u64, prot: u64, flags: u64) -> Result {
            // As SELinux's selinux_mmap_file(): `map` on the file first.
            if let Some(file) = file {
                let inode = file.inode();
                check_inode(inode, class_of(inode), FILE_MAP, Target::Dentry(file.dentry()))?;
            }
            // MAP_SHARED_VALIDATE is shared too (stricter than SELinux,
            // which tests MAP_SHARED alone and so lets it write a file
            // without `write`).
            let shared = matches!(flags & MAP_TYPE, MAP_SHARED | MAP_SHARED_VALIDATE);
            check_map_prot(file, prot, shared)
        }

        fn file_mprotect(&self, _cx: &MaySleep, vma: &Vma, _reqprot: u64, prot: u64) -> Result {
            if objects::data_noexec() && prot & PROT_EXEC != 0 && !vma.executable() {
                check_made_executable(vma)?;
            }
            check_map_prot(vma.file(), prot, vma.shared())
        }

        fn inode_permission(&self, inode: &Inode, mask: AccessMask) -> Result {
            let m = mask.0;
            if m & (may::EXEC | may::WRITE | may::READ | may::APPEND) == 0 {
                return Ok(());
            }
            // An inode met before the policy (or while its file system was
            // mounting) is labelled first: in RCU-walk mode, which cannot
            // read an xattr, by asking the VFS to walk again (`ECHILD`).
            if inode_label(inode).is_some_and(|l| !l.is_set())
                && inode.fs_ready()
                && policy::with(|p| p.is_some())
            {
                if mask.non_blocking() {
                    return Err(ECHILD);
                }
                // SAFETY: without `MAY_NOT_BLOCK`, `inode_permission` runs
                // in a ref-walk lookup or a system call: process context,
                // no spinlock or RCU read lock held.
                let cx = unsafe { MaySleep::new() };
                inode.with_alias(&cx, |dentry| label_inode(&cx, dentry, inode));
            }
            let (class, perms) = mask_perms(inode, m);
            check_inode(inode, class, perms, Target::Inode(inode))
        }

        fn inode_create(&self, cx: &MaySleep, dir: &Inode, dentry: &Dentry, _mode: u16) -> Result {
            check_create(cx, dir, dentry, Class::File)
        }

        fn inode_mkdir(&self, cx: &MaySleep, dir: &Inode, dentry: &Dentry, _mode: u16) -> Result {
            check_create(cx, dir, dentry, Class::Dir)
        }

        fn inode_mknod(&self, cx: &MaySleep, dir: &Inode, dentry: &Dentry, mode: u16, _dev: u32) -> Result {
            // The class of the node's type (`chr_file`, `fifo_file`, ...),
            // as SELinux's `may_create()`.
            check_create(cx, dir, dentry, Class::of_mode(u32::from(mode)))
        }

        fn inode_symlink(&self, cx: &MaySleep, dir: &Inode, dentry: &Dentry, _old_name: &[u8]) -> Result {
            check_create(cx, dir, dentry, Class::LnkFile)
        }

        fn inode_link(&self, cx: &MaySleep, old: &Dentry, dir: &Inode, _new: &Dentry) -> Result {
            check_inode(dir, Class::Dir, DIR_ADD_NAME | DIR_WRITE, Target::Inode(dir))?;
            check_dentry(cx, old, FILE_LINK, 0)
        }

        fn inode_unlink(&self, cx: &MaySleep, dir: &Inode, dentry: &Dentry) -> Result {
            check_remove(cx, dir, dentry)
        }

        fn inode_rmdir(&self, cx: &MaySleep, dir: &Inode, dentry: &Dentry) -> Result {
            check_remove(cx, dir, dentry)
        }

        fn inode_rename(
            &self,            cx: &MaySleep,
            old_dir: &Inode,
            old: &Dentry,
            new_dir: &Inode,
            new: &Dentry,
        ) -> Result {
            check_inode(old_dir, Class::Dir, DIR_REMOVE_NAME | DIR_WRITE, Target::Inode(old_dir))?;
            // A directory: `rename`, and `reparent` when it moves to
            // another one (SELinux's may_rename()).
            let reparent = if core::ptr::eq(old_dir, new_dir) { 0 } else { DIR_REPARENT };
            check_dentry(cx, old, FILE_RENAME, DIR_RENAME | reparent)?;
            check_inode(new_dir, Class::Dir, DIR_ADD_NAME | DIR_WRITE, Target::Inode(new_dir))?;
            if new.inode().is_some() {
                check_remove(cx, new_dir, new)?;
            }
            Ok(())
        }

        fn inode_readlink(&self, cx: &MaySleep, dentry: &Dentry) -> Result {
            // Reading a symlink is `lnk_file read` (selinux_inode_readlink()).
            check_dentry(cx, dentry, FILE_READ, DIR_READ)
        }

        fn inode_follow_link(&self, dentry: &Dentry, inode: &Inode, rcu: bool) -> Result {
            // So is following one (selinux_inode_follow_link()). A link
            // met before the policy is labelled first, as in
            // inode_permission: in RCU-walk mode, which cannot read an
            // xattr, by asking the VFS to walk again (`ECHILD`, as
            // SELinux's inode_security_rcu()); else it would be decided
            // as `sid file`.
            if inode_label(inode).is_some_and(|l| !l.is_set())
                && inode.fs_ready()
                && policy::with(|p| p.is_some())
            {
                if rcu {
                    return Err(ECHILD);
                }
                // SAFETY: without `rcu`, the link is followed in a
                // ref-walk lookup: process context, no spinlock or RCU
                // read lock held.
                let cx = unsafe { MaySleep::new() };
                label_inode(&cx, dentry, inode);
            }
            check_inode(inode, class_of(inode), FILE_READ, Target::Dentry(dentry))
        }

        fn inode_getxattr(&self, cx: &MaySleep, dentry: &Dentry, _name: &[u8]) -> Result {
            // Reading or listing extended attributes is `getattr`
            // (selinux_inode_getxattr(), selinux_inode_listxattr()).
            check_dentry(cx, dentry, FILE_GETATTR, DIR_GETATTR)
        }

        fn inode_listxattr(&self, cx: &MaySleep, dentry: &Dentry) -> Result {
            check_dentry(cx, dentry, FILE_GETATTR, DIR_GETATTR)
        }

        fn inode_setattr(&self, cx: &MaySleep, dentry: &Dentry, attr: &Iattr) -> Result {
            // Changing the mode, owner or set times is `setattr`; a
            // truncation (`O_TRUNC`, `truncate`) or a time update to now
            // is a `write`, as in SELinux.
            if attr.valid() & ATTR_SETATTR != 0 {
                check_dentry(cx, dentry, FILE_SETATTR, DIR_SETATTR)
            } else {
                check_dentry(cx, dentry, FILE_WRITE, DIR_WRITE)
            }
        }

        fn inode_getattr(&self, cx: &MaySleep, path: &Path) -> Result {
            check_dentry(cx, path.dentry(), FILE_GETATTR, DIR_GETATTR)
        }

        fn inode_setxattr(&self, cx: &MaySleep, dentry: &Dentry, name: &[u8], value: &[u8], _flags: i32) -> Result {
            if name != XATTR_NAME {
                return check_dentry(cx, dentry, FILE_SETATTR, DIR_SETATTR);
            }
            let Some(inode) = label_dentry(cx, dentry) else {
                return Ok(());
            };
            // A file system whose labels come from the policy (proc, a
            // genfscon one) takes none: as SELinux's `SBLABEL_MNT` test.
            if policy::with(|p| p.is_some_and(|p| !takes_labels(p, inode))) {
                return Err(EOPNOTSUPP);
            }
            let (from, to) = match class_of(inode) {
                Class::Dir => (DIR_RELABELFROM, DIR_RELABELTO),
                _ => (FILE_RELABELFROM, FILE_RELABELTO),
            };
            let class = class_of(inode);
            let target = Target::Dentry(dentry);
            if value.len() > MAX_CONTEXT {
                if platform::ratelimit() {
                    platform::pr_warn!(
                        "mlte: setxattr security.mlte refused: longer than {MAX_CONTEXT} bytes\n"
                    );
                }
                return Err(EINVAL);
            }
            let new = policy::with(|p| {
                p.map(|p| {
                    Context::parse(trim_nul(value), p).map(|c| p.store(&c)).map_err(|e| {
                        if platform::ratelimit() {
                            platform::pr_warn!(
                                "mlte: setxattr security.mlte refused: {}; label unchanged\n",
                                format_args!("{e}")
                            );
                        }
                        EINVAL
                    })
                })
            });
            let Some(new) = new else {
                return Ok(());
            };
            let new = sidtab::intern(cx, &new?)?;
            let (s, old) = (current_sid(), inode_sid(inode));
            check(s, old, class, from, target)?;
            check(s, new, class, to, target)?;
            policy::with(|p| match p {
                Some(p) => policy::validate_transition(p, old, new, s, class),
                None => Ok(()),
            })
        }

        fn inode_post_setxattr(&self, cx: &MaySleep, dentry: &Dentry, name: &[u8], value: &[u8], _flags: i32) {
            if name != XATTR_NAME {
                return;
            }
            let Some(inode) = dentry.inode() else {
                return;
            };
            let Some(label) = inode_label(inode) else {
                return;
            };
            let Some(parsed) = policy::with(|p| p.map(|p| parse_label(trim_nul(value), p))) else {
                return;
            };
            match parsed.sid(cx) {
                Ok(sid) => label.set(Some(sid)),
                // No SID for it now: read it again at the next access.
                Err(e) => {
                    label.set(None);
                    label_unreadable(label, inode, e);
                }
            }
        }

        fn inode_removexattr(&self, cx: &MaySleep, dentry: &Dentry, name: &[u8]) -> Result {
            if name == XATTR_NAME {
                // The label is part of the policy's view of the file: it
                // can be changed, not removed (as SELinux's).
                return policy::with(|p| if p.is_some() { Err(EACCES) } else { Ok(()) });
            }
            check_dentry(cx, dentry, FILE_SETATTR, DIR_SETATTR)
        }

        // POSIX ACLs are permission bits, kept out of the xattr hooks
        // (`vfs_set_acl`, `vfs_get_acl`, `vfs_remove_acl`): as SELinux's
        // `selinux_inode_set_acl`, `_get_acl` and `_remove_acl`, setting
        // or removing one is `setattr`, reading one `getattr`.
        fn inode_set_acl(&self, cx: &MaySleep, dentry: &Dentry, _name: &[u8]) -> Result {
            check_dentry(cx, dentry, FILE_SETATTR, DIR_SETATTR)
        }

        fn inode_get_acl(&self, cx: &MaySleep, dentry: &Dentry, _name: &[u8]) -> Result {
            check_dentry(cx, dentry, FILE_GETATTR, DIR_GETATTR)
        }

        fn inode_remove_acl(&self, cx: &MaySleep, dentry: &Dentry, _name: &[u8]) -> Result {
            check_dentry(cx, dentry, FILE_SETATTR, DIR_SETATTR)
        }

        fn inode_getsecurity(&self, cx: &MaySleep, inode: &Inode, name: &[u8], out: &mut AttrValue) -> Result {
            if name != XATTR_SUFFIX.to_bytes() {
                return Err(EOPNOTSUPP);
            }
            // An inode made while its file system was mounting (its root,
            // proc's `self`) is labelled when first asked about, as when
            // first used.
            if inode_label(inode).is_some_and(|l| !l.is_set()) {
                inode.with_alias(cx, |dentry| label_inode(cx, dentry, inode));
            }
            // A provisional label is no value to show or copy (overlayfs'
            // copy-up, `cp -a`): the VFS then reads the xattr itself, and
            // its value or its error comes out.
            if inode_label(inode).is_some_and(Label::is_provisional) {
                return Err(EOPNOTSUPP);
            }
            match sid_text(inode_sid(inode)) {
                Some(text) => out.push_bytes(cx, text.bytes()),
                None => Err(EOPNOTSUPP),
            }
        }

        fn inode_alloc_security(&self, _cx: &MaySleep, inode: &Inode) -> Result {
            // Its maker, for file systems whose inodes are labelled from
            // it (as SELinux's `task_sid`).
            if let Some(state) = inode.state(&KEY) {
                state.maker.set(Some(current_sid()));
            }
            Ok(())
        }

        fn inode_init_security(&self, cx: &MaySleep, inode: &Inode, dir: &Inode, name: &[u8]) -> Result<Option<XattrValue>> {
            let class = class_of(inode);
            let s = current_sid();
            // On a file system that takes no labels, the new inode is
            // labelled as the policy labels that file system's, when it is
            // reached (SELinux's `selinux_inode_init_security()` gives no
            // xattr and leaves it uninitialised).
            let new = policy::with(|p| {
                p.map(|p| {
                    if !takes_labels(p, dir) {
                        return Ok(None);
                    }
                    let t = inode_sid(dir);
                    p.new_sid(s, t, class, |p| new_inode_context(p, s, t, class, name))
                        .map(Some)
                })
            });
            let Some(new) = new else {
                return Ok(None);
            };
            let Some(new) = new? else {
                return Ok(None);
            };
            let sid = new.sid(cx)?;
            match sid_text(sid) {
                Some(text) => {
                    if let Some(label) = inode_label(inode) {
                        label.set(Some(sid));
                    }
                    XattrValue::new(XATTR_SUFFIX, text.bytes()).map(Some)
                }
                None => {
                    if platform::ratelimit() {
                        platform::pr_warn!(
                            "mlte: new inode refused: its context is longer than {CONTEXT_TEXT} bytes\n"
                        );
                    }
                    Err(EINVAL)
                }
            }
        }

        fn task_to_inode(&self, task: &Task, inode: &Inode) {
            // A /proc/PID entry has its task's context, as SELinux's
            // `selinux_task_to_inode()` (before the first policy: none,
            // labelled as proc's other inodes once one is loaded).
            if policy::with(|p| p.is_none()) {
                return;
            }
            if let Some(label) = inode_label(inode) {
                label.set(Some(task_sid(task)));
            }
        }

        fn d_instantiate(&self, cx: &MaySleep, dentry: &Dentry, inode: Option<&Inode>) {
            if let Some(inode) = inode {
                label_inode(cx, dentry, inode);
            }
        }

        fn sb_mount(
            &self,            cx: &MaySleep,
            _dev_name: Option<&[u8]>,
            path: &Path,
            _fs_type: Option<&[u8]>,
            flags: u64,
        ) -> Result {
            // As SELinux's selinux_mount(): a remount asks `filesystem
            // remount` of the mounted file system; any other mount (a new
            // one, a bind, a move) `mounton` on the mount point. The new
            // file system's `filesystem mount` is sb_kern_mount's.
            let dentry = path.dentry();
            if flags & MS_REMOUNT != 0 {
                let Some(inode) = dentry.inode() else {
                    return Ok(());
                };
                let target = Target::Dentry(dentry);
                return check_superblock(cx, inode.fs_type(), FILESYSTEM_REMOUNT, target);
            }
            check_mount_point(cx, dentry)
        }

        fn move_mount(&self, cx: &MaySleep, _from: &Path, to: &Path) -> Result {
            // The new mount API's attach (move_mount(2) after fsmount(2)),
            // and moves: `mounton` on the new place (selinux_move_mount()).
            check_mount_point(cx, to.dentry())
        }

        fn sb_kern_mount(&self, cx: &MaySleep, sb: &Superblock) -> Result {
            // A new file system, by mount(2) or fsconfig(FSCONFIG_CMD_CREATE):
            // `filesystem mount` on its context (selinux_sb_kern_mount()).
            check_superblock(cx, sb.fs_type(), FILESYSTEM_MOUNT, Target::None)
        }

        fn sb_umount(&self, cx: &MaySleep, mnt: &Vfsmount, _flags: i32) -> Result {
            let fs = mnt.superblock().fs_type();
            check_superblock(cx, fs, FILESYSTEM_UNMOUNT, Target::None)
        }

        fn sb_statfs(&self, cx: &MaySleep, dentry: &Dentry) -> Result {
            // On the file system's context, as SELinux's
            // `superblock_has_perm()` on the superblock's SID: its
            // `fs_use_*` or `/` genfscon context (`sid unlabeled`'s when
            // the policy names it nowhere).
            let Some(inode) = dentry.inode() else {
                return Ok(());
            };
            check_superblock(cx, inode.fs_type(), FILESYSTEM_GETATTR, Target::Dentry(dentry))
        }

        fn ptrace_access_check(&self, child: &Task, mode: u32) -> Result {
            // Reading a task's state (`/proc/PID`, `PTRACE_MODE_READ`) is
            // `file read` on the task, as in SELinux; attaching is
            // `process ptrace`.
            if mode & PTRACE_MODE_ATTACH == 0 {
                let target = Target::Task(child.pid());
                return check(current_sid(), task_sid(child), Class::File, FILE_READ, target);
            }
            check_task(child, None, PROCESS_PTRACE)
        }

        fn capable(&self, cred: &Cred, initial_ns: bool, cap: i32, opts: u32) -> Result {
            let audit = opts & CAP_OPT_NOAUDIT == 0;
            check_capability(cred_sid(cred), cap as u32, initial_ns, audit)
        }

        fn task_kill(&self, target: &Task, sig: i32, cred: Option<&Cred>) -> Result {
            // As SELinux's selinux_task_kill() and signal_to_av().
            let perm = match sig {
                0 => PROCESS_SIGNULL,
                SIGCHLD => PROCESS_SIGCHLD,
                SIGKILL => PROCESS_SIGKILL,
                SIGSTOP => PROCESS_SIGSTOP,
                _ => PROCESS_SIGNAL,
            };
            check_task(target, cred, perm)
        }

        fn ptrace_traceme(&self, parent: &Task) -> Result {
            // PTRACE_TRACEME: the parent traces the current task
            // (selinux_ptrace_traceme()).
            let target = Target::Task(parent.pid());
            check(task_sid(parent), current_sid(), Class::Process, PROCESS_PTRACE, target)
        }

        fn socket_create(&self, cx: &MaySleep, family: i32, ty: i32, protocol: i32, kern: bool) -> Result {
            if kern {
                return Ok(());
            }
            // `create` on the new socket's SID, as SELinux's.
            let s = current_sid();
            match new_socket(cx, s, family, ty, protocol)? {
                (class, Some(new)) => check(s, new, class, SOCKET_CREATE, Target::None),
                (_, None) => Ok(()),
            }
        }

        fn socket_post_create(
            &self,            cx: &MaySleep,
            sock: &Socket,
            family: i32,
            ty: i32,
            protocol: i32,
            kern: bool,
        ) -> Result {
            // The sock and the inode get the socket's class, and with a
            // policy its SID, as SELinux's: a kernel socket `sid kernel`.
            let (class, sid) = new_socket(cx, current_sid(), family, ty, protocol)?;
            let sid = sid.map(|sid| if kern { Sid::initial(InitialSid::Kernel) } else { sid });
            if let Some(state) = sock.sock().and_then(|sk| sk.state(&KEY)) {
                state.class.set(class);
                if sid.is_some() {
                    state.label.set(sid);
                }
            }
            if let Some(inode) = sock.inode().state(&KEY) {
                inode.socket_class.set(class);
                if sid.is_some() {
                    inode.label.set(sid);
                }
            }
            Ok(())
        }

        fn socket_bind(&self, _cx: &MaySleep, sock: &Socket, _address: &[u8]) -> Result {
            check_socket(sock, SOCKET_BIND)
        }

        fn socket_connect(&self, cx: &MaySleep, sock: &Socket, _address: &[u8]) -> Result {
            check_socket(sock, SOCKET_CONNECT)?;
            // A Unix stream connect labels the server's end under a lock
            // (`unix_stream_connect`): room for a new context is set up
            // here, where sleeping is allowed.
            // A full table refuses only a connect that needs a new
            // context (there, ENOMEM).
            if sock.sock().is_some_and(|sk| sk.family() == 1) {
                let _ = sidtab::reserve(cx);
            }
            Ok(())
        }

        fn unix_stream_connect(&self, sock: &Sock, other: &Sock, new: &Sock) -> Result {
            // As SELinux's selinux_socket_unix_stream_connect():
            // `connectto` from the connecting socket to the listener, in
            // the listener's class; the server's end of the connection
            // gets the listener's context at the client's levels, so that
            // what the server reads and writes there is decided at the
            // client's level (security_sid_mls_copy()). Under a lock:
            // nothing sleeps.
            let (s, _) = unix_sock_sid_class(sock, Class::UnixStreamSocket);
            let (o, class) = unix_sock_sid_class(other, Class::UnixStreamSocket);
            check(s, o, class, UNIX_STREAM_SOCKET_CONNECTTO, Target::None)?;
            let server = match policy::with(|p| p.map(|p| p.mls_copy(o, s))) {
                None => o,
                Some(Some(ctx)) => sidtab::intern_atomic(&ctx)?,
                Some(None) => {
                    // As SELinux's invalid computed contexts: refused when
                    // enforcing; in permissive mode logged, and the
                    // listener's context taken.
                    let enforcing = policy::enforcing();
                    if platform::ratelimit_audit() {
                        platform::pr_warn!(
                            "mlte: unix connect: the listener's context at the client's \
                             levels is not valid{}\n",
                            if enforcing { ": refused" } else { " (permissive)" }
                        );
                    }
                    if enforcing {
                        return Err(EINVAL);
                    }
                    o
                }
            };
            if let Some(state) = new.state(&KEY) {
                state.class.set(class);
                state.label.set(Some(server));
            }
            Ok(())
        }

        fn unix_may_send(&self, sock: &Socket, other: &Socket) -> Result {
            // As SELinux's selinux_socket_unix_may_send(): `sendto` from
            // the sender's socket to the receiver's, in its class.
            let dgram = Class::UnixDgramSocket;
            let kernel = (Sid::initial(InitialSid::Kernel), dgram);
            let of = |sk: Option<&Sock>| sk.map_or(kernel, |sk| unix_sock_sid_class(sk, dgram));
            let ((s, _), (o, class)) = (of(sock.sock()), of(other.sock()));
            check(s, o, class, SOCKET_SENDTO, Target::None)
        }

        fn sk_clone_security(&self, sk: &Sock, new: &Sock) {
            // A clone (an accepted TCP connection's sock) is its
            // listener's: context and class (selinux_sk_clone_security()).
            if let (Some(from), Some(to)) = (sk.state(&KEY), new.state(&KEY)) {
                if let Some(class) = from.class.get() {
                    to.class.set(class);
                }
                to.label.set(from.label.get());
            }
        }

        fn sock_graft(&self, sk: &Sock, parent: &Socket) {
            // An accepted Unix or IP socket's inode takes its sock's
            // context and class (selinux_sock_graft()): for a Unix stream,
            // the listener's context at the client's levels.
            const AF_UNIX: u16 = 1;
            const AF_INET: u16 = 2;
            const AF_INET6: u16 = 10;
            if !matches!(sk.family(), AF_UNIX | AF_INET | AF_INET6) {
                return;
            }
            if let (Some(from), Some(inode)) = (sk.state(&KEY), parent.inode().state(&KEY)) {
                if let Some(class) = from.class.get() {
                    inode.socket_class.set(class);
                }
                if let Some(sid) = from.label.get() {
                    inode.label.set(Some(sid));
                }
            }
        }

        fn socket_listen(&self, _cx: &MaySleep, sock: &Socket, _backlog: i32) -> Result {
            check_socket(sock, SOCKET_LISTEN)
        }

        fn socket_accept(&self, _cx: &MaySleep, sock: &Socket, new: &Socket) -> Result {
            check_socket(sock, SOCKET_ACCEPT)?;
            // The new socket's inode takes the listener's inode's class
            // and label, as SELinux's `selinux_socket_accept()`.
            if let (Some(listener), Some(inode)) = (sock.inode().state(&KEY), new.inode().state(&KEY)) {
                if let Some(class) = listener.socket_class.get() {
                    inode.socket_class.set(class);
                }
                if let Some(sid) = listener.label.get() {
                    inode.label.set(Some(sid));
                }
            }
            Ok(())
        }

        fn socket_sendmsg(&self, _cx: &MaySleep, sock: &Socket, _size: i32) -> Result {
            check_socket(sock, SOCKET_WRITE)
        }

        fn socket_recvmsg(&self, _cx: &MaySleep, sock: &Socket, _size: i32, _flags: i32) -> Result {
            check_socket(sock, SOCKET_READ)
        }

        fn ipc_permission(&self, ipc: &IpcPerm, flag: i16) -> Result {
            // The `S_IRUGO` and `S_IWUGO` bits of the access that
            // `ipcperms()` asks, as SELinux's `unix_read` and `unix_write`
            // in the object's class; no bit, no check.
            let mut perms = 0;
            if flag & 0o444 != 0 {
                perms |= IPC_UNIX_READ;
            }
            if flag & 0o222 != 0 {
                perms |= IPC_UNIX_WRITE;
            }
            if perms == 0 {
                return Ok(());
            }
            match ipc.state(&KEY).and_then(|state| state.class.get()) {
                Some(class) => check_ipc(current_sid(), ipc, class, perms),
                // Every IPC object's class is set when it is made, so this
                // does not happen; if it did, refuse under a policy.
                None => policy::with(|p| if p.is_some() { Err(EACCES) } else { Ok(()) }),
            }
        }

        fn msg_queue_alloc_security(&self, _cx: &MaySleep, ipc: &IpcPerm) -> Result {
            create_ipc(ipc, Class::Msgq)
        }

        fn shm_alloc_security(&self, _cx: &MaySleep, ipc: &IpcPerm) -> Result {
            create_ipc(ipc, Class::Shm)
        }

        fn sem_alloc_security(&self, _cx: &MaySleep, ipc: &IpcPerm) -> Result {
            create_ipc(ipc, Class::Sem)
        }

        fn msg_queue_associate(&self, ipc: &IpcPerm, _flag: i32) -> Result {
            check_ipc(current_sid(), ipc, Class::Msgq, IPC_ASSOCIATE)
        }

        fn shm_associate(&self, ipc: &IpcPerm, _flag: i32) -> Result {
            check_ipc(current_sid(), ipc, Class::Shm, IPC_ASSOCIATE)
        }

        fn sem_associate(&self, ipc: &IpcPerm, _flag: i32) -> Result {
            check_ipc(current_sid(), ipc, Class::Sem, IPC_ASSOCIATE)
        }

        fn msg_queue_msgctl(&self, ipc: Option<&IpcPerm>, cmd: i32) -> Result {
            check_ipc_ctl(ipc, Class::Msgq, cmd)
        }

        fn shm_shmctl(&self, ipc: Option<&IpcPerm>, cmd: i32) -> Result {
            check_ipc_ctl(ipc, Class::Shm, cmd)
        }

        fn sem_semctl(&self, ipc: Option<&IpcPerm>, cmd: i32) -> Result {
            check_ipc_ctl(ipc, Class::Sem, cmd)
        }

        fn shm_shmat(&self, ipc: &IpcPerm, flag: i32) -> Result {
            let perms = if flag & crate::abi::SHM_RDONLY != 0 {
                IPC_READ
            } else {
                IPC_READ | IPC_WRITE
            };
            check_ipc(current_sid(), ipc, Class::Shm, perms)
        }

        fn sem_semop(&self, ipc: &IpcPerm, _nsops: u32, alter: bool) -> Result {
            let perms = if alter { IPC_READ | IPC_WRITE } else { IPC_READ };
            check_ipc(current_sid(), ipc, Class::Sem, perms)
        }

        fn msg_msg_alloc_security(&self, cx: &MaySleep, _msg: &MsgMsgSecurity) -> Result {
            // Room for the message's context, which `msgsnd` interns where
            // it may not sleep: set up here, where the kernel may, before
            // every send (two loads when it is there).
            sidtab::reserve(cx)
        }

        fn msg_queue_msgsnd(&self, ipc: &IpcPerm, msg: &MsgMsg, _flag: i32) -> Result {
            // As SELinux's: the message is labelled when it is first sent,
            // by a `type_transition` on (sender, queue, `msg`), else the
            // sender's user, `object_r`, the queue's type and the sender's
            // low level; then the sender needs `msgq write` on the queue
            // and `msg send` on the message, and the message `msgq enqueue`
            // on the queue. Under the queue's lock: nothing sleeps.
            let (s, queue) = (current_sid(), ipc_sid(ipc));
            let label = msg.state(&KEY);
            let m = match label.and_then(Label::get) {
                Some(m) => m,
                None => {
                    let new = policy::with(|p| {
                        p.map(|p| {
                            p.new_sid(s, queue, Class::Msg, |p| {
                                compute_context(p, s, queue, Class::Msg, None)
                            })
                        })
                        .transpose()
                    })?;
                    // No policy: the queue's SID, as SELinux's
                    // `security_compute_sid()` answers before its first
                    // policy (`sid kernel`'s, as every object's is then).
                    let m = match new {
                        Some(new) => new.sid_atomic()?,
                        None => queue,
                    };
                    if let Some(label) = label {
                        label.set(Some(m));
                    }
                    m
                }
            };
            check(s, queue, Class::Msgq, IPC_WRITE, Target::None)?;
            check(s, m, Class::Msg, MSG_SEND, Target::None)?;
            check(m, queue, Class::Msgq, MSGQ_ENQUEUE, Target::None)
        }

        fn msg_queue_msgrcv(&self, ipc: &IpcPerm, msg: &MsgMsg, target: &Task, _ty: i64, _mode: i32) -> Result {
            // The receiver needs `msgq read` on the queue and `msg
            // receive` on the message, as SELinux's.
            let s = task_sid(target);
            check_ipc(s, ipc, Class::Msgq, IPC_READ)?;
            let m = sid_or(msg.state(&KEY), InitialSid::Unlabeled);
            check(s, m, Class::Msg, MSG_RECEIVE, Target::None)
        }

        fn getprocattr(&self, cx: &MaySleep, task: &Task, name: &[u8], out: &mut AttrValue) -> Result {
            if name != b"current" {
                return Err(EINVAL);
            }
            // Another task's context is `process getattr` on it
            // (selinux_lsm_getattr()).
            if task.pid() != platform::current_task().0 {
                check_task(task, None, PROCESS_GETATTR)?;
            }
            match sid_text(task_sid(task)) {
                Some(text) => out.push_bytes(cx, text.bytes()),
                // No policy: no context to show.
                None => Err(EINVAL),
            }
        }

        // Labels as secids (`core/lsm_prop.rs`): a SID is mlte's secid, as
        // SELinux's SID is its own.
        fn cred_getlsmprop(&self, cred: &Cred) -> Option<Secid> {
            secid_of(cred_sid(cred))
        }

        fn current_getlsmprop_subj(&self, cred: &Cred) -> Option<Secid> {
            secid_of(cred_sid(cred))
        }

        fn task_getlsmprop_obj(&self, task: &Task) -> Option<Secid> {
            secid_of(task_sid(task))
        }

        fn inode_getlsmprop(&self, inode: &Inode) -> Option<Secid> {
            secid_of(inode_sid(inode))
        }

        fn ipc_getlsmprop(&self, ipc: &IpcPerm) -> Option<Secid> {
            secid_of(ipc_sid(ipc))
        }

        fn secid_to_secctx(&self, secid: Secid, out: &mut SecCtx) -> Result {
            // A SID the table does not hold shows as `sid unlabeled`'s
            // context, as SELinux's `sidtab_search()` answers.
            let sid = Sid::from_raw(secid.raw()).ok_or(EINVAL)?;
            secid_text(sid, out)
        }

        fn audit_rule_init(&self, field: u32, op: u32, text: &[u8]) -> Result<u64> {
            // As `selinux_audit_rule_init()` for a user, a role or a type:
            // `=` or `!=`, and a name the policy in force declares. Levels
            // (`subj_sen`, `obj_lev_low`, ...) are not rule values (yet):
            // they are refused.
            let kind = audit_field_kind(field).ok_or(EINVAL)?;
            if !matches!(op, AUDIT_OP_EQUAL | AUDIT_OP_NOT_EQUAL) {
                return Err(EINVAL);
            }
            policy::with(|p| p.and_then(|p| p.global_id(kind, text)))
                .map(u64::from)
                .ok_or(EINVAL)
        }

        fn audit_rule_match(&self, secid: Secid, field: u32, op: u32, value: u64) -> Result<bool> {
            let sid = Sid::from_raw(secid.raw()).ok_or(EINVAL)?;
            let Some(kind) = audit_field_kind(field) else {
                return Ok(false);
            };
            // No policy: nothing matches, as SELinux before its first.
            let Some(id) = policy::with(|p| p.map(|p| u64::from(p.global_of(kind, sid)))) else {
                return Ok(false);
            };
            Ok(match op {
                AUDIT_OP_EQUAL => id == value,
                AUDIT_OP_NOT_EQUAL => id != value,
                _ => false,
            })
        }

        fn socket_getpeersec_dgram(&self, sock: Option<&Socket>) -> Result<Secid> {
            // A Unix datagram's sender is its socket's label, as in
            // `selinux_socket_getpeersec_dgram()`; an IP datagram carries
            // none (no packet labels).
            let state = sock.and_then(Socket::sock).and_then(|sk| sk.state(&KEY));
            state
                .and_then(|state| state.label.get())
                .and_then(secid_of)
                .ok_or(ENOPROTOOPT)
        }

        fn setprocattr(&self, cx: &MaySleep, name: &[u8], value: &[u8]) -> Result<usize> {
            if name != b"current" {
                return Err(EINVAL);
            }
            let text = value.strip_suffix(b"\n").unwrap_or(value);
            let text = trim_nul(text);
            if text.len() > MAX_CONTEXT {
                return Err(EINVAL);
            }
            let s = current_sid();
            check(s, s, Class::Process, PROCESS_SETCURRENT, Target::None)?;
            // One context per process: threads sharing memory cannot be in
            // different domains.
            if !current_is_single_threaded() {
                return Err(EPERM);
            }
            let new_cred = NewCred::prepare(cx)?;
            let new = policy::with(|p| {
                p.map(|p| {
                    Context::parse(text, p).map(|c| p.store(&c)).map_err(|e| {
                        if platform::ratelimit() {
                            platform::pr_warn!(
                                "mlte: write to attr/current refused: {}\n",
                                format_args!("{e}")
                            );
                        }
                        EINVAL
                    })
                })
            });
            // No policy: no context to take.
            let new = sidtab::intern(cx, &new.ok_or(EINVAL)??)?;
            // As SELinux's selinux_lsm_setattr(): `setcurrent` on itself
            // (above), then `dyntransition` from the old context to the new
            // one, which the policy's MLS constraints and role allows also
            // decide.
            let s = current_sid();
            check(s, new, Class::Process, PROCESS_DYNTRANSITION, Target::None)?;
            // A tracer must be allowed to trace the new context
            // (`ptrace_parent_sid()`).
            if let Some(tracer) = Task::with_current_tracer(|t| t.map(task_sid)) {
                check(tracer, new, Class::Process, PROCESS_PTRACE, Target::None)?;
            }
            if let Some(label) = new_cred.cred().state(&KEY) {
                label.set(Some(new));
            }
            new_cred.commit();
            Ok(value.len())
        }
    }
}

#[cfg(test)]
#[path = "hook_tests.rs"]
mod tests;
