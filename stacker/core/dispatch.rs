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
//! every submodule; `inode_free_security_rcu`, `inode_init_security`,
//! `getprocattr`, `setprocattr` and `vm_enough_memory` have their own
//! rules, documented on each.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.
//! The platform provides `single_branch!` (a static branch in the kernel)
//! and `crate::platform::boot()`.

/// Defines the registry and every dispatch function.
///
/// Syntax: `index => STATIC: Type = init, key;` per submodule, where `key`
/// names the submodule's fast-path static key, which must be `m` followed
/// by the index (`3 => ..., m3;`): the build fails otherwise, since a key
/// of another index would send the fast path to the wrong submodule.
macro_rules! define_registry {
    ($($idx:literal => $m:ident: $ty:ty = $init:expr, $key:ident;)*) => {
        $(
            static $m: $ty = $init;

            const _: () = assert!(
                $crate::dispatch::key_matches_index(stringify!($key), $idx),
                concat!(
                    "registry entry ", stringify!($idx), " (", stringify!($m),
                    ") has fast-path key ", stringify!($key), "; it must be m",
                    stringify!($idx)
                )
            );

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

        /// Initialises every enabled submodule, in chain order, and stops at
        /// the first failure: the failing submodule's index and error.
        ///
        /// `fail` names a submodule whose init fails with `ENODEV` without
        /// running (`stacker.fail_init=`, for testing).
        pub(crate) fn init_enabled(
            fail: Option<u8>,
        ) -> core::result::Result<(), (u8, $crate::error::Error)> {
            use $crate::submodule::Submodule;
            for &m in $crate::platform::boot().chain.order() {
                let result = if fail == Some(m) {
                    Err($crate::error::ENODEV)
                } else {
                    match m {
                        $($idx => $m.init(),)*
                        _ => Ok(()),
                    }
                };
                result.map_err(|err| (m, err))?;
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

use crate::blob::{BlobState, HasBlob};
use crate::layout::{Request, Slot, BLOB_ALIGN, KINDS};
use crate::objects::InodeBlob;
use crate::submodule::{Registered, Submodule};

/// The registry index that fast-path key `key` belongs to: `N` for `mN`
/// (decimal, no leading zeros), `usize::MAX` for any other name.
pub(crate) const fn key_index(key: &str) -> usize {
    let key = key.as_bytes();
    if key.len() < 2 || key[0] != b'm' || (key[1] == b'0' && key.len() > 2) {
        return usize::MAX;
    }
    let mut value: usize = 0;
    let mut i = 1;
    while i < key.len() {
        let d = key[i];
        if !d.is_ascii_digit() {
            return usize::MAX;
        }
        value = match value.checked_mul(10) {
            Some(v) => match v.checked_add((d - b'0') as usize) {
                Some(v) => v,
                None => return usize::MAX,
            },
            None => return usize::MAX,
        };
        i += 1;
    }
    value
}

/// Whether `key` is the fast-path key of registry entry `index`: `m`
/// followed by `index`.
pub(crate) const fn key_matches_index(key: &str, index: usize) -> bool {
    index != usize::MAX && key_index(key) == index
}

/// Calls `m`'s `inode_free_security_rcu` with its state in `blob`, if it
/// has a slot there.
#[inline(always)]
pub(crate) fn free_inode_rcu<M: Submodule + Registered>(m: &M, blob: &InodeBlob<'_>) {
    if let Some(state) = blob.state::<M>() {
        m.inode_free_security_rcu(state);
    }
}

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
            AccessMask, Binprm, CommittedBinprm, Cred, Dentry, PreparedCred, File, FileSecurity,
            Inode, InodeBlob, IpcPerm, KernelCap, MmapAddr, ProcAttrValue, ProcAttrWrite, Socket,
            Task, Vma, XattrSlots,
        };
        $crate::dispatch::int_hook!($mods, FileOpen, file_open(file: &File), (file));
        $crate::dispatch::int_hook!($mods, FilePermission, file_permission(file: &File, mask: AccessMask), (file, mask));
        $crate::dispatch::int_hook!($mods, MmapFile,
            mmap_file(file: Option<&File>, reqprot: u64, prot: u64, flags: u64),
            (file, reqprot, prot, flags));
        $crate::dispatch::int_hook!($mods, MmapAddr, mmap_addr(cred: &Cred, addr: MmapAddr), (cred, addr));
        $crate::dispatch::int_hook!($mods, FileMprotect,
            file_mprotect(vma: &Vma, reqprot: u64, prot: u64), (vma, reqprot, prot));
        $crate::dispatch::int_hook!($mods, FileAllocSecurity, file_alloc_security(file: &FileSecurity), (file));
        $crate::dispatch::void_hook!($mods, FileFreeSecurity, file_free_security(file: &FileSecurity), (file));
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
        $crate::dispatch::int_hook!($mods, BprmCredsFromFile,
            bprm_creds_from_file(cred: &PreparedCred<'_>, file: &File), (cred, file));
        $crate::dispatch::int_hook!($mods, BprmCheckSecurity, bprm_check_security(bprm: &Binprm), (bprm));
        $crate::dispatch::void_hook!($mods, BprmCommittedCreds,
            bprm_committed_creds(bprm: &CommittedBinprm), (bprm));
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
        $crate::dispatch::int_hook!($mods, TaskFixSetuid,
            task_fix_setuid(new: &PreparedCred<'_>, old: &Cred, flags: i32), (new, old, flags));
        $crate::dispatch::int_hook!($mods, TaskFixSetgid,
            task_fix_setgid(new: &PreparedCred<'_>, old: &Cred, flags: i32), (new, old, flags));
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
        /// Dispatches `inode_free_security_rcu`: every submodule that
        /// implements it gets its own state in the blob of an inode that is
        /// gone. Runs from an RCU callback.
        pub(crate) fn inode_free_security_rcu(blob: &InodeBlob<'_>) {
            use $crate::hook::Hook;
            for &m in $crate::platform::boot().order(Hook::InodeFreeSecurityRcu) {
                $crate::stats::count(m as usize, Hook::InodeFreeSecurityRcu, false);
                match m {
                    $($idx => $crate::dispatch::free_inode_rcu(&$m, blob),)*
                    _ => {}
                }
            }
        }

        /// Dispatches `inode_init_security`.
        ///
        /// As in the LSM core, every submodule is asked: `Ok(None)` and
        /// `EOPNOTSUPP` from one mean "no xattr from me" and the walk goes
        /// on; any other error stops it and is returned. Each xattr goes
        /// into the next LSM xattr slot, and a submodule gets at most its
        /// `XATTR_COUNT` slots. Returns `EOPNOTSUPP` when nobody added one,
        /// the LSM default.
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
                let xattr = match result {
                    Ok(Some(xattr)) => xattr,
                    Ok(None) => continue,
                    Err(err) if err == $crate::error::EOPNOTSUPP => continue,
                    Err(err) => return Err(err),
                };
                if XATTR_COUNTS.get(m as usize).copied().unwrap_or(0) == 0 {
                    return Err($crate::error::EINVAL);
                }
                slots.push(xattr)?;
                added = true;
            }
            if added { Ok(()) } else { Err($crate::error::EOPNOTSUPP) }
        }

        /// Dispatches `getprocattr`: the first submodule whose answer is not
        /// `EINVAL` (the LSM default, "not mine") decides.
        ///
        /// The LSM core asks only one LSM for a process attribute (the
        /// first that implements the hook, `security_getprocattr()`). So
        /// when no submodule claims the attribute, the LSMs registered after
        /// stacker are asked in turn, and the first answer that is not
        /// `EINVAL` decides: stacker must not hide SELinux, AppArmor or
        /// Smack after it.
        pub(crate) fn getprocattr(
            task: &Task,
            name: &core::ffi::CStr,
            out: &mut ProcAttrValue,
        ) -> $crate::error::Result {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            // The name without its NUL (`to_bytes()` would bring an
            // overflow check, a panic path, onto the hook path).
            let bytes = name.to_bytes_with_nul().split_last().map_or(&[][..], |(_, b)| b);
            for &m in $crate::platform::boot().order(Hook::Getprocattr) {
                let result = match m {
                    $($idx => $crate::dispatch::record($idx, Hook::Getprocattr, $m.getprocattr(task, bytes, out)),)*
                    _ => Err($crate::error::EINVAL),
                };
                if result != Err($crate::error::EINVAL) {
                    return result;
                }
            }
            // Nothing a submodule left in `out` before saying "not mine"
            // may reach the answer of another LSM.
            out.0.clear();
            $crate::objects::forward_getprocattr(task, name, out)
        }

        /// Dispatches `setprocattr`, routed by submodule name.
        ///
        /// A value of the form `NAME:rest`, where `NAME` is an enabled
        /// submodule that implements the hook, goes to that submodule only,
        /// with `rest`. Any other value goes through the chain, and the
        /// first answer that is not `EINVAL` decides. When none claims it,
        /// the write goes, unchanged, to the LSMs registered after stacker,
        /// as for [`getprocattr`]. Returns the number of bytes of the value
        /// consumed.
        pub(crate) fn setprocattr(write: ProcAttrWrite<'_>) -> $crate::error::Result<usize> {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            let order = $crate::platform::boot().order(Hook::Setprocattr);
            let (name, value) = (write.name(), write.value());
            if let Some(colon) = value.iter().position(|&b| b == b':') {
                let (target, rest) = (&value[..colon], &value[colon + 1..]);
                for &m in order {
                    if NAMES.get(m as usize).copied() == Some(target) {
                        let used = match m {
                            $($idx => $crate::dispatch::record($idx, Hook::Setprocattr, $m.setprocattr(name, rest)),)*
                            _ => Err($crate::error::EINVAL),
                        }?;
                        // A submodule cannot claim more than it was given.
                        if used > rest.len() {
                            return Err($crate::error::EINVAL);
                        }
                        return Ok(value.len() - rest.len() + used);
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
            write.forward()
        }

        /// Dispatches `vm_enough_memory`: `true` (the `CAP_SYS_ADMIN`
        /// reserve may be used) only if every submodule agrees; stops at the
        /// first that does not, as the LSM core does (it stops at the first
        /// LSM that returns a negative value and then passes
        /// `cap_sys_admin = 0` to `__vm_enough_memory()`).
        pub(crate) fn vm_enough_memory(cred: &Cred, pages: i64) -> bool {
            use $crate::hook::Hook;
            #[allow(unused_imports)]
            use $crate::submodule::Submodule;
            $(
                if single_branch!($idx, $key) {
                    let ok = $m.vm_enough_memory(cred, pages);
                    $crate::stats::count($idx, Hook::VmEnoughMemory, !ok);
                    return ok;
                }
            )*
            for &m in $crate::platform::boot().order(Hook::VmEnoughMemory) {
                let ok = match m {
                    $($idx => $m.vm_enough_memory(cred, pages),)*
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

#[cfg(test)]
mod tests {
    use super::{key_index, key_matches_index};

    #[test]
    fn fast_path_keys_must_match_their_index() {
        assert_eq!(key_index("m12"), 12);
        assert_eq!(key_index("x12"), usize::MAX);
        assert!(key_matches_index("m0", 0));
        assert!(key_matches_index("m7", 7));
        assert!(key_matches_index("m19", 19));
        assert!(!key_matches_index("m3", 4));
        assert!(!key_matches_index("m1", 10));
        assert!(!key_matches_index("m10", 1));
        assert!(!key_matches_index("m01", 1));
        assert!(!key_matches_index("m", 0));
        assert!(!key_matches_index("k1", 1));
        assert!(!key_matches_index("m1x", 1));
        assert!(!key_matches_index("m99999999999999999999999", 0));
    }
}
