// SPDX-License-Identifier: GPL-2.0

//! The registry of compiled-in submodules and hook dispatch through the chain.
//!
//! [`define_registry!`] is invoked once, in the crate root, with every
//! compiled-in submodule. It defines one `static` per submodule and, for
//! every hook, a dispatch function that:
//!
//! 1. when the chain has exactly one submodule and the fast path is on,
//!    takes a static branch (one per submodule, patched at boot) straight
//!    to that submodule's method: no loop, no table;
//! 2. otherwise walks the hook's precomputed order (only the enabled
//!    submodules that implement the hook, in chain order) and calls each
//!    through a `match` on its index: direct calls, never a function
//!    pointer.
//!
//! Combining rules follow the LSM core (`security/security.c`): an `int`
//! hook whose default is 0 stops at the first error; a `void` hook calls
//! every submodule; `inode_init_security`, `getprocattr`, `setprocattr`
//! and `vm_enough_memory` have their own rules, documented on each.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.
//! The platform provides `single_branch!` (a static branch in the kernel)
//! and `crate::platform::boot()`.

/// Defines the registry and every dispatch function.
///
/// Syntax: `index => STATIC: Type = init, key;` per submodule, where `key`
/// names the submodule's fast-path static key.
macro_rules! define_registry {
    ($($idx:literal => $m:ident: $ty:ty = $init:expr, $key:ident;)*) => {
        $(
            static $m: $ty = $init;

            impl $crate::submodule::Registered for $ty {
                const INDEX: usize = $idx;
            }
        )*

        /// Names of the registered submodules, by index.
        pub(crate) const NAMES: &[&[u8]] = &[$(<$ty as $crate::submodule::Submodule>::NAME.to_bytes()),*];

        /// Blob requests of the registered submodules, by index.
        pub(crate) const REQUESTS: &[$crate::layout::Request] = &[$($crate::dispatch::request::<$ty>()),*];

        /// Hook sets of the registered submodules, by index.
        pub(crate) const HOOK_SETS: &[$crate::hook::HookSet] =
            &[$(<$ty as $crate::submodule::Submodule>::HOOKS),*];

        /// Xattr slots each registered submodule may fill, by index.
        pub(crate) const XATTR_COUNTS: &[u32] =
            &[$(<$ty as $crate::submodule::Submodule>::XATTR_COUNT),*];

        /// The registered submodules' names as C strings, by index.
        pub(crate) const C_NAMES: &[&core::ffi::CStr] =
            &[$(<$ty as $crate::submodule::Submodule>::NAME),*];

        /// Initialises every enabled submodule, in chain order.
        pub(crate) fn init_enabled() -> $crate::error::Result {
            use $crate::submodule::Submodule;
            for &m in $crate::platform::boot().chain.order() {
                match m {
                    $($idx => $m.init()?,)*
                    _ => {}
                }
            }
            Ok(())
        }

        /// Creates each enabled submodule's securityfs directory in `parent`.
        pub(crate) fn securityfs_init_enabled(parent: &$crate::platform::Dir) -> $crate::error::Result {
            use $crate::submodule::Submodule;
            for &m in $crate::platform::boot().chain.order() {
                match m {
                    $($idx => {
                        let dir = parent.create_dir(<$ty as Submodule>::NAME)?;
                        $m.securityfs_init(&dir)?;
                    })*
                    _ => {}
                }
            }
            Ok(())
        }

        $crate::dispatch::define_hooks!([$(($idx, $m, $key)),*]);
    };
}
pub(crate) use define_registry;

use crate::blob::BlobState;
use crate::layout::{Request, Slot, BLOB_ALIGN, KINDS};
use crate::submodule::Submodule;

/// The blob request of submodule `M`, checked at compile time.
pub(crate) const fn request<M: Submodule>() -> Request {
    const fn slot<T: BlobState>() -> Slot {
        assert!(
            core::mem::align_of::<T>() <= BLOB_ALIGN,
            "a blob state needs more alignment than the LSM core promises"
        );
        assert!(
            !core::mem::needs_drop::<T>(),
            "a blob state must not need dropping"
        );
        Slot::of::<T>()
    }
    let slots: [Slot; KINDS] = [
        slot::<M::InodeState>(),
        slot::<M::CredState>(),
        slot::<M::FileState>(),
        slot::<M::TaskState>(),
        slot::<M::SuperblockState>(),
        slot::<M::SockState>(),
        slot::<M::IpcState>(),
        slot::<M::MsgMsgState>(),
        slot::<M::KeyState>(),
    ];
    Request { slots }
}

/// Counts a call (and whether it denied) when statistics are built in.
#[inline(always)]
pub(crate) fn record<T>(
    module: usize,
    hook: crate::hook::Hook,
    result: crate::error::Result<T>,
) -> crate::error::Result<T> {
    crate::stats::count(module, hook, result.is_err());
    result
}

/// An `int` hook whose LSM default is 0: the first error wins.
macro_rules! int_hook {
    ([$(($idx:literal, $m:ident, $key:ident)),*], $hook:ident, $name:ident $params:tt, $call:tt) => {
        #[doc = concat!("Dispatches `", stringify!($name), "`: the first submodule that returns an error decides.")]
        #[inline(always)]
        pub(crate) fn $name $params -> $crate::error::Result {
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            use $crate::hook::Hook;
            $(
                if single_branch!($idx, $key) {
                    return $crate::dispatch::record($idx, Hook::$hook, $m.$name $call);
                }
            )*
            let order = $crate::platform::boot().order(Hook::$hook);
            let mut i = 0;
            while i < order.len() {
                match order[i] {
                    $($idx => $crate::dispatch::record($idx, Hook::$hook, $m.$name $call)?,)*
                    _ => {}
                }
                i += 1;
            }
            Ok(())
        }
    };
}
pub(crate) use int_hook;

/// A `void` hook: every submodule is called.
macro_rules! void_hook {
    ([$(($idx:literal, $m:ident, $key:ident)),*], $hook:ident, $name:ident $params:tt, $call:tt) => {
        #[doc = concat!("Dispatches `", stringify!($name), "` to every submodule that implements it.")]
        #[inline(always)]
        pub(crate) fn $name $params {
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            use $crate::hook::Hook;
            $(
                if single_branch!($idx, $key) {
                    $crate::stats::count($idx, Hook::$hook, false);
                    return $m.$name $call;
                }
            )*
            let order = $crate::platform::boot().order(Hook::$hook);
            let mut i = 0;
            while i < order.len() {
                match order[i] {
                    $($idx => {
                        $crate::stats::count($idx, Hook::$hook, false);
                        $m.$name $call
                    })*
                    _ => {}
                }
                i += 1;
            }
        }
    };
}
pub(crate) use void_hook;

/// Defines the dispatch function of every hook for the modules `$mods`.
macro_rules! define_hooks {
    ($mods:tt) => {
        use $crate::objects::{
            AccessMask, Binprm, Cred, Dentry, File, Inode, IpcPerm, KernelCap, ProcAttrValue,
            Socket, Task, Vma, XattrSlots,
        };
        $crate::dispatch::int_hook!($mods, FileOpen, file_open(file: &File), (file));
        $crate::dispatch::int_hook!($mods, FilePermission, file_permission(file: &File, mask: AccessMask), (file, mask));
        $crate::dispatch::int_hook!($mods, MmapFile,
            mmap_file(file: Option<&File>, reqprot: u64, prot: u64, flags: u64),
            (file, reqprot, prot, flags));
        $crate::dispatch::int_hook!($mods, FileMprotect,
            file_mprotect(vma: &Vma, reqprot: u64, prot: u64), (vma, reqprot, prot));
        $crate::dispatch::int_hook!($mods, FileAllocSecurity, file_alloc_security(file: &File), (file));
        $crate::dispatch::void_hook!($mods, FileFreeSecurity, file_free_security(file: &File), (file));
        $crate::dispatch::int_hook!($mods, InodePermission,
            inode_permission(inode: &Inode, mask: AccessMask), (inode, mask));
        $crate::dispatch::int_hook!($mods, InodeCreate,
            inode_create(dir: &Inode, dentry: &Dentry, mode: u16), (dir, dentry, mode));
        $crate::dispatch::int_hook!($mods, InodeUnlink, inode_unlink(dir: &Inode, dentry: &Dentry), (dir, dentry));
        $crate::dispatch::int_hook!($mods, InodeRename,
            inode_rename(old_dir: &Inode, old: &Dentry, new_dir: &Inode, new: &Dentry),
            (old_dir, old, new_dir, new));
        $crate::dispatch::int_hook!($mods, InodeLink,
            inode_link(old: &Dentry, dir: &Inode, new: &Dentry), (old, dir, new));
        $crate::dispatch::int_hook!($mods, InodeMkdir,
            inode_mkdir(dir: &Inode, dentry: &Dentry, mode: u16), (dir, dentry, mode));
        $crate::dispatch::int_hook!($mods, InodeRmdir, inode_rmdir(dir: &Inode, dentry: &Dentry), (dir, dentry));
        $crate::dispatch::int_hook!($mods, InodeSetxattr,
            inode_setxattr(dentry: &Dentry, name: &[u8], value: &[u8], flags: i32),
            (dentry, name, value, flags));
        $crate::dispatch::int_hook!($mods, InodeRemovexattr,
            inode_removexattr(dentry: &Dentry, name: &[u8]), (dentry, name));
        $crate::dispatch::int_hook!($mods, InodeAllocSecurity, inode_alloc_security(inode: &Inode), (inode));
        $crate::dispatch::void_hook!($mods, InodeFreeSecurity, inode_free_security(inode: &Inode), (inode));
        $crate::dispatch::void_hook!($mods, DInstantiate,
            d_instantiate(dentry: &Dentry, inode: Option<&Inode>), (dentry, inode));
        $crate::dispatch::int_hook!($mods, CredAllocBlank, cred_alloc_blank(cred: &Cred), (cred));
        $crate::dispatch::int_hook!($mods, CredPrepare, cred_prepare(new: &Cred, old: &Cred), (new, old));
        $crate::dispatch::void_hook!($mods, CredTransfer, cred_transfer(new: &Cred, old: &Cred), (new, old));
        $crate::dispatch::void_hook!($mods, CredFree, cred_free(cred: &Cred), (cred));
        $crate::dispatch::int_hook!($mods, BprmCredsForExec, bprm_creds_for_exec(bprm: &Binprm), (bprm));
        $crate::dispatch::int_hook!($mods, BprmCheckSecurity, bprm_check_security(bprm: &Binprm), (bprm));
        $crate::dispatch::void_hook!($mods, BprmCommittedCreds, bprm_committed_creds(bprm: &Binprm), (bprm));
        $crate::dispatch::int_hook!($mods, Capable, capable(cred: &Cred, cap: i32, opts: u32), (cred, cap, opts));
        $crate::dispatch::int_hook!($mods, Capset,
            capset(new: &Cred, old: &Cred, effective: KernelCap, inheritable: KernelCap, permitted: KernelCap),
            (new, old, effective, inheritable, permitted));
        $crate::dispatch::int_hook!($mods, PtraceAccessCheck,
            ptrace_access_check(child: &Task, mode: u32), (child, mode));
        $crate::dispatch::int_hook!($mods, TaskAlloc, task_alloc(task: &Task, clone_flags: u64), (task, clone_flags));
        $crate::dispatch::void_hook!($mods, TaskFree, task_free(task: &Task), (task));
        $crate::dispatch::int_hook!($mods, TaskKill,
            task_kill(target: &Task, sig: i32, cred: Option<&Cred>), (target, sig, cred));
        $crate::dispatch::int_hook!($mods, SocketCreate,
            socket_create(family: i32, ty: i32, protocol: i32, kern: bool), (family, ty, protocol, kern));
        $crate::dispatch::int_hook!($mods, SocketConnect,
            socket_connect(sock: &Socket, address: &[u8]), (sock, address));
        $crate::dispatch::int_hook!($mods, IpcPermission, ipc_permission(ipc: &IpcPerm, flag: i16), (ipc, flag));
        $crate::dispatch::special_hooks!($mods);
    };
}
pub(crate) use define_hooks;

/// The hooks with their own combining rules.
macro_rules! special_hooks {
    ([$(($idx:literal, $m:ident, $key:ident)),*]) => {
        /// Dispatches `inode_init_security`.
        ///
        /// As in the LSM core, every submodule is asked: `Ok(None)` from one
        /// is skipped, an error stops the walk and is returned. Each xattr
        /// goes into the next LSM xattr slot, and a submodule gets at most
        /// its `XATTR_COUNT` slots. Returns `EOPNOTSUPP` when nobody added
        /// one, the LSM default.
        pub(crate) fn inode_init_security(
            inode: &Inode,
            dir: &Inode,
            name: &[u8],
            slots: &mut XattrSlots,
        ) -> $crate::error::Result {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            let mut added = false;
            for &m in $crate::platform::boot().order(Hook::InodeInitSecurity) {
                let result = match m {
                    $($idx => $crate::dispatch::record($idx, Hook::InodeInitSecurity,
                        $m.inode_init_security(inode, dir, name)),)*
                    _ => Ok(None),
                };
                if let Some(xattr) = result? {
                    if XATTR_COUNTS.get(m as usize).copied().unwrap_or(0) == 0 {
                        return Err($crate::error::EINVAL);
                    }
                    slots.push(xattr)?;
                    added = true;
                }
            }
            if added { Ok(()) } else { Err($crate::error::EOPNOTSUPP) }
        }

        /// Dispatches `getprocattr`: the first submodule whose answer is not
        /// `EINVAL` (the LSM default, "not mine") decides.
        pub(crate) fn getprocattr(task: &Task, name: &[u8], out: &mut ProcAttrValue) -> $crate::error::Result {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            for &m in $crate::platform::boot().order(Hook::Getprocattr) {
                let result = match m {
                    $($idx => $crate::dispatch::record($idx, Hook::Getprocattr, $m.getprocattr(task, name, out)),)*
                    _ => Err($crate::error::EINVAL),
                };
                if result != Err($crate::error::EINVAL) {
                    return result;
                }
            }
            Err($crate::error::EINVAL)
        }

        /// Dispatches `setprocattr`, routed by submodule name.
        ///
        /// A value of the form `NAME:rest`, where `NAME` is an enabled
        /// submodule that implements the hook, goes to that submodule only,
        /// with `rest`. Any other value goes through the chain, and the
        /// first answer that is not `EINVAL` decides. Returns the number of
        /// bytes of `value` consumed.
        pub(crate) fn setprocattr(name: &[u8], value: &[u8]) -> $crate::error::Result<usize> {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            let order = $crate::platform::boot().order(Hook::Setprocattr);
            if let Some(colon) = value.iter().position(|&b| b == b':') {
                let (target, rest) = (&value[..colon], &value[colon + 1..]);
                for &m in order {
                    if NAMES.get(m as usize).copied() == Some(target) {
                        let used = match m {
                            $($idx => $crate::dispatch::record($idx, Hook::Setprocattr, $m.setprocattr(name, rest)),)*
                            _ => Err($crate::error::EINVAL),
                        }?;
                        return Ok(colon + 1 + used);
                    }
                }
            }
            for &m in order {
                let result = match m {
                    $($idx => $crate::dispatch::record($idx, Hook::Setprocattr, $m.setprocattr(name, value)),)*
                    _ => Err($crate::error::EINVAL),
                };
                if result != Err($crate::error::EINVAL) {
                    return result;
                }
            }
            Err($crate::error::EINVAL)
        }

        /// Dispatches `vm_enough_memory`: `true` (the `CAP_SYS_ADMIN`
        /// reserve may be used) only if every submodule agrees; stops at the
        /// first that does not, as the LSM core does.
        pub(crate) fn vm_enough_memory(pages: i64) -> bool {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            for &m in $crate::platform::boot().order(Hook::VmEnoughMemory) {
                let ok = match m {
                    $($idx => $m.vm_enough_memory(pages),)*
                    _ => true,
                };
                $crate::stats::count(m as usize, Hook::VmEnoughMemory, !ok);
                if !ok {
                    return false;
                }
            }
            true
        }
    };
}
pub(crate) use special_hooks;
