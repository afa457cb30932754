// SPDX-License-Identifier: GPL-2.0

//! The trait that every stacker submodule implements.
//!
//! A submodule names the hooks it implements in [`Submodule::HOOKS`] and
//! overrides the matching methods. Every method has a default that means
//! "no opinion", and a method whose hook is not in `HOOKS` is never called.
//! A denial is an `Err` with a kernel error code, never a panic.
//!
//! The argument types come from `crate::objects`: thin wrappers of the
//! kernel's objects in the kernel, an in-memory model on the host. The same
//! submodule source compiles against both. Hooks that see an object half
//! built or half torn down get a narrower view with only what is valid
//! there (`FileSecurity`, `CommittedBinprm`, `PreparedCred`, and the bare
//! inode state of `inode_free_security_rcu`).
//!
//! # Freeing state
//!
//! Blob state is never dropped. State that owns something is released in
//! the matching free hook:
//!
//! - `inode_free_security`: the inode is being evicted. RCU-walk path
//!   lookups (`inode_permission` with `MAY_NOT_BLOCK`) may still reach the
//!   inode, and its state, during and after this hook; release here only
//!   what they never read;
//! - `inode_free_security_rcu`: a grace period later, from an RCU callback
//!   (atomic context: no sleeping), with only the submodule's own inode
//!   state; no path walk can see the inode any more. Release here what
//!   RCU-walk readers may read;
//! - `file_free_security`, `cred_free`, `task_free`: also called after a
//!   failed allocation, for objects whose `*_alloc_security` never ran
//!   (their state is then all zero). `cred_free` and `task_free` may run
//!   from RCU callbacks: no sleeping.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::blob::BlobState;
use crate::error::{Result, EINVAL};
use crate::hook::HookSet;
use crate::objects::{
    AccessMask, Binprm, CommittedBinprm, Cred, Dentry, File, FileSecurity, Inode, IpcPerm,
    KernelCap, MmapAddr, PreparedCred, ProcAttrValue, Socket, Task, Vma, XattrValue,
};
use crate::platform::Dir;
use core::ffi::CStr;

/// A security module that runs behind stacker.
pub(crate) trait Submodule: Sync + 'static {
    /// Name in `stacker.chain=`, in `/sys/kernel/security/stacker/chain`,
    /// and of the submodule's securityfs directory.
    const NAME: &'static CStr;

    /// The hooks this submodule implements. Others are never called.
    const HOOKS: HookSet;

    /// How many xattrs `inode_init_security` may add (LSM xattr slots).
    const XATTR_COUNT: u32 = 0;

    /// State in each inode's blob (`()` for none).
    type InodeState: BlobState;
    /// State in each cred's blob.
    type CredState: BlobState;
    /// State in each open file's blob.
    type FileState: BlobState;
    /// State in each task's blob.
    type TaskState: BlobState;
    /// State in each superblock's blob.
    type SuperblockState: BlobState;
    /// State in each socket's blob.
    type SockState: BlobState;
    /// State in each IPC object's blob.
    type IpcState: BlobState;
    /// State in each message's blob.
    type MsgMsgState: BlobState;
    /// State in each key's blob.
    type KeyState: BlobState;

    /// Called once at boot, before any hook can run.
    fn init(&'static self) -> Result {
        Ok(())
    }

    /// Creates the submodule's files in its securityfs directory.
    fn securityfs_init(&'static self, _dir: &Dir) -> Result {
        Ok(())
    }

    /// `file_open`: may `file` be opened?
    fn file_open(&self, _file: &File) -> Result {
        Ok(())
    }
    /// `file_permission`: may `mask` access be made through `file`?
    fn file_permission(&self, _file: &File, _mask: AccessMask) -> Result {
        Ok(())
    }
    /// `mmap_file`: may `file` (or anonymous memory) be mapped with `prot`?
    fn mmap_file(&self, _file: Option<&File>, _reqprot: u64, _prot: u64, _flags: u64) -> Result {
        Ok(())
    }
    /// `mmap_addr`: may the current task, with credentials `cred`, map
    /// memory at `addr`? The capability module asks for `CAP_SYS_RAWIO`
    /// below `vm.mmap_min_addr` ([`MmapAddr::below_min`]) from the raw sets.
    fn mmap_addr(&self, _cred: &Cred, _addr: MmapAddr) -> Result {
        Ok(())
    }
    /// `file_mprotect`: may `vma` change to `prot`?
    fn file_mprotect(&self, _vma: &Vma, _reqprot: u64, _prot: u64) -> Result {
        Ok(())
    }
    /// `file_alloc_security`: a file is being set up; its path is not set
    /// yet, so only its blob is reachable.
    fn file_alloc_security(&self, _file: &FileSecurity) -> Result {
        Ok(())
    }
    /// `file_free_security`: a file is being freed, possibly after a failed
    /// open (or a failed `file_alloc_security`); only its blob is
    /// reachable.
    fn file_free_security(&self, _file: &FileSecurity) {}

    /// `inode_permission`: may `mask` access be made to `inode`?
    fn inode_permission(&self, _inode: &Inode, _mask: AccessMask) -> Result {
        Ok(())
    }
    /// `inode_create`: may `dentry` be created in `dir`?
    fn inode_create(&self, _dir: &Inode, _dentry: &Dentry, _mode: u16) -> Result {
        Ok(())
    }
    /// `inode_unlink`: may `dentry` be unlinked from `dir`?
    fn inode_unlink(&self, _dir: &Inode, _dentry: &Dentry) -> Result {
        Ok(())
    }
    /// `inode_rename`: may `old` in `old_dir` be renamed to `new` in `new_dir`?
    fn inode_rename(
        &self,
        _old_dir: &Inode,
        _old: &Dentry,
        _new_dir: &Inode,
        _new: &Dentry,
    ) -> Result {
        Ok(())
    }
    /// `inode_link`: may `old` be linked as `new` in `dir`?
    fn inode_link(&self, _old: &Dentry, _dir: &Inode, _new: &Dentry) -> Result {
        Ok(())
    }
    /// `inode_mkdir`: may directory `dentry` be made in `dir`?
    fn inode_mkdir(&self, _dir: &Inode, _dentry: &Dentry, _mode: u16) -> Result {
        Ok(())
    }
    /// `inode_rmdir`: may directory `dentry` be removed from `dir`?
    fn inode_rmdir(&self, _dir: &Inode, _dentry: &Dentry) -> Result {
        Ok(())
    }
    /// `inode_setxattr`: may xattr `name` be set to `value`?
    fn inode_setxattr(&self, _dentry: &Dentry, _name: &[u8], _value: &[u8], _flags: i32) -> Result {
        Ok(())
    }
    /// `inode_removexattr`: may xattr `name` be removed?
    fn inode_removexattr(&self, _dentry: &Dentry, _name: &[u8]) -> Result {
        Ok(())
    }
    /// `inode_init_security`: the security xattr for a new inode, if any.
    ///
    /// `Ok(None)` means "none from this submodule". At most
    /// [`Submodule::XATTR_COUNT`] are used per inode.
    fn inode_init_security(
        &self,
        _inode: &Inode,
        _dir: &Inode,
        _name: &[u8],
    ) -> Result<Option<XattrValue>> {
        Ok(None)
    }
    /// `inode_alloc_security`: an inode is being set up.
    fn inode_alloc_security(&self, _inode: &Inode) -> Result {
        Ok(())
    }
    /// `inode_free_security`: an inode is being freed. RCU-walk lookups
    /// may still read its state (see the module documentation).
    fn inode_free_security(&self, _inode: &Inode) {}
    /// `inode_free_security_rcu`: an RCU grace period after the inode was
    /// freed, with this submodule's `state` in its blob, right before the
    /// blob is freed. Runs from an RCU callback: must not sleep.
    fn inode_free_security_rcu(&self, _state: &Self::InodeState) {}
    /// `d_instantiate`: `dentry` now refers to `inode`.
    fn d_instantiate(&self, _dentry: &Dentry, _inode: Option<&Inode>) {}

    /// `cred_alloc_blank`: a blank cred is being set up.
    fn cred_alloc_blank(&self, _cred: &Cred) -> Result {
        Ok(())
    }
    /// `cred_prepare`: `new` is being made as a copy of `old`.
    fn cred_prepare(&self, _new: &Cred, _old: &Cred) -> Result {
        Ok(())
    }
    /// `cred_transfer`: `new` takes `old`'s security state.
    fn cred_transfer(&self, _new: &Cred, _old: &Cred) {}
    /// `cred_free`: a cred is being freed.
    fn cred_free(&self, _cred: &Cred) {}

    /// `bprm_creds_for_exec`: set up the creds of the program being run.
    /// Runs once per exec, with the file named to `execve` (a script, not
    /// its interpreter).
    fn bprm_creds_for_exec(&self, _bprm: &Binprm) -> Result {
        Ok(())
    }
    /// `bprm_creds_from_file`: the new credentials after the capability
    /// module computed their sets from `file`, the binary that will run
    /// (for a script, its interpreter). The sets can only shrink here
    /// ([`PreparedCred::drop_caps`]).
    fn bprm_creds_from_file(&self, _cred: &PreparedCred<'_>, _file: &File) -> Result {
        Ok(())
    }
    /// `bprm_check_security`: may the program be run?
    fn bprm_check_security(&self, _bprm: &Binprm) -> Result {
        Ok(())
    }
    /// `bprm_committed_creds`: the new program's creds are in place (they
    /// are the current task's; the binprm no longer holds them).
    fn bprm_committed_creds(&self, _bprm: &CommittedBinprm) {}
    /// `capable`: does `cred` have capability `cap` (`opts` as `CAP_OPT_*`)?
    fn capable(&self, _cred: &Cred, _cap: i32, _opts: u32) -> Result {
        Ok(())
    }
    /// `capset`: may `new` get these capability sets?
    fn capset(
        &self,
        _new: &Cred,
        _old: &Cred,
        _effective: KernelCap,
        _inheritable: KernelCap,
        _permitted: KernelCap,
    ) -> Result {
        Ok(())
    }
    /// `ptrace_access_check`: may the current task trace `child`?
    fn ptrace_access_check(&self, _child: &Task, _mode: u32) -> Result {
        Ok(())
    }
    /// `task_alloc`: a task is being created.
    fn task_alloc(&self, _task: &Task, _clone_flags: u64) -> Result {
        Ok(())
    }
    /// `task_free`: a task is being freed.
    fn task_free(&self, _task: &Task) {}
    /// `task_kill`: may signal `sig` be sent to `target` (by `cred`, if
    /// not the current task)?
    fn task_kill(&self, _target: &Task, _sig: i32, _cred: Option<&Cred>) -> Result {
        Ok(())
    }
    /// `task_fix_setuid`: the current task changes its uids to those of
    /// `new` (prepared, not yet committed; `flags` as `LSM_SETID_*`), after
    /// the capability module adjusted `new`'s capability sets.
    fn task_fix_setuid(&self, _new: &PreparedCred<'_>, _old: &Cred, _flags: i32) -> Result {
        Ok(())
    }
    /// `task_fix_setgid`: as `task_fix_setuid`, for the gids.
    fn task_fix_setgid(&self, _new: &PreparedCred<'_>, _old: &Cred, _flags: i32) -> Result {
        Ok(())
    }

    /// `socket_create`: may a socket of this family, type and protocol be
    /// created? `kern` is true for kernel sockets.
    fn socket_create(&self, _family: i32, _ty: i32, _protocol: i32, _kern: bool) -> Result {
        Ok(())
    }
    /// `socket_connect`: may `sock` connect to `address`?
    fn socket_connect(&self, _sock: &Socket, _address: &[u8]) -> Result {
        Ok(())
    }
    /// `ipc_permission`: may `flag` access be made to the IPC object?
    fn ipc_permission(&self, _ipc: &IpcPerm, _flag: i16) -> Result {
        Ok(())
    }

    /// `getprocattr`: the value of `/proc/PID/attr/NAME` for `task`.
    ///
    /// The default, `EINVAL`, means "not mine": the next submodule is asked.
    fn getprocattr(&self, _task: &Task, _name: &[u8], _out: &mut ProcAttrValue) -> Result {
        Err(EINVAL)
    }
    /// `setprocattr`: a write of `value` to `/proc/self/attr/NAME`; returns
    /// how many bytes were used. The default, `EINVAL`, means "not mine".
    fn setprocattr(&self, _name: &[u8], _value: &[u8]) -> Result<usize> {
        Err(EINVAL)
    }
    /// `vm_enough_memory`: `true` if the current task, with credentials
    /// `cred`, may use the reserve kept for `CAP_SYS_ADMIN` for an
    /// allocation of `pages`. Do not log: the kernel asks this on every
    /// allocation of address space.
    fn vm_enough_memory(&self, _cred: &Cred, _pages: i64) -> bool {
        true
    }
}

/// A submodule that is in the registry of compiled-in submodules.
///
/// Implemented by the registry (`define_registry!`) only. A generic
/// submodule type states `where Self: Registered` to reach its blob state.
pub(crate) trait Registered {
    /// Index in the registry.
    const INDEX: usize;
}

/// Declares a submodule's blob state types inside its `impl Submodule`:
/// the kinds named get the given type, every other kind `()`.
///
/// ```ignore
/// impl Submodule for Mine {
///     crate::submodule::blob_states! { inode: MyInodeState, cred: MyCredState }
///     // ...
/// }
/// ```
///
/// Kinds, in any order: `inode`, `cred`, `file`, `task`, `superblock`,
/// `sock`, `ipc`, `msg_msg`, `key`. A misspelt kind is not an error: it
/// leaves that kind `()`, so check the spelling.
macro_rules! blob_states {
    ($($kind:ident: $ty:ty),* $(,)?) => {
        type InodeState = $crate::submodule::blob_states!(@pick inode; $($kind: $ty,)*);
        type CredState = $crate::submodule::blob_states!(@pick cred; $($kind: $ty,)*);
        type FileState = $crate::submodule::blob_states!(@pick file; $($kind: $ty,)*);
        type TaskState = $crate::submodule::blob_states!(@pick task; $($kind: $ty,)*);
        type SuperblockState = $crate::submodule::blob_states!(@pick superblock; $($kind: $ty,)*);
        type SockState = $crate::submodule::blob_states!(@pick sock; $($kind: $ty,)*);
        type IpcState = $crate::submodule::blob_states!(@pick ipc; $($kind: $ty,)*);
        type MsgMsgState = $crate::submodule::blob_states!(@pick msg_msg; $($kind: $ty,)*);
        type KeyState = $crate::submodule::blob_states!(@pick key; $($kind: $ty,)*);
    };
    // The type given for `$want`, or `()`.
    (@pick $want:ident;) => { () };
    (@pick inode; inode: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick cred; cred: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick file; file: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick task; task: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick superblock; superblock: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick sock; sock: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick ipc; ipc: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick msg_msg; msg_msg: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick key; key: $ty:ty, $($rest:tt)*) => { $ty };
    (@pick $want:ident; $other:ident: $ty:ty, $($rest:tt)*) => {
        $crate::submodule::blob_states!(@pick $want; $($rest)*)
    };
}
pub(crate) use blob_states;
