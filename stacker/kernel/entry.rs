// SPDX-License-Identifier: GPL-2.0

//! The LSM hook entry points: `extern "C"` functions that the LSM core calls
//! through its static calls (see `lsm.c`).
//!
//! Each one wraps its C arguments in the typed views of `objects.rs` and
//! hands them to the dispatch function of the same name (`dispatch.rs`),
//! then turns the `Result` into the `int` the core expects. Only hooks that
//! some enabled submodule implements are ever registered.
//!
//! # Safety
//!
//! Every function here is called only by the LSM core, with the arguments
//! that `include/linux/lsm_hook_defs.h` documents for its hook: pointers are
//! valid (or null where the hook allows it) for the whole call.

use crate::objects::{
    c_bytes, c_str, with_current_cred, AccessMask, Binprm, CommittedBinprm, Cred, Dentry, File,
    FileSecurity, Inode, InodeBlob, IpcPerm, MmapAddr, PreparedCred, ProcAttrValue, ProcAttrWrite,
    Socket, Task, Vma, XattrSlots,
};
use crate::registry as chain;
use kernel::{
    alloc::KVec,
    bindings,
    ffi::{c_char, c_int, c_long, c_short, c_uint, c_ulong, c_void},
    prelude::*,
};

/// A hook's `Result` as the `int` the LSM core expects.
#[inline(always)]
fn ret(result: Result) -> c_int {
    match result {
        Ok(()) => 0,
        Err(err) => err.to_errno(),
    }
}

/// Declares hook entry points: `name(args) => body;` each.
macro_rules! entry_points {
    ($($name:ident($($arg:ident: $ty:ty),*) $(-> $r:ty)? => $body:expr;)*) => {
        $(
            #[doc = concat!("`", stringify!($name), "` LSM hook entry point.")]
            ///
            /// # Safety
            ///
            /// Called by the LSM core only, with valid arguments (module docs).
            #[no_mangle]
            #[allow(unused_unsafe)]
            pub(crate) unsafe extern "C" fn $name($($arg: $ty),*) $(-> $r)? {
                // SAFETY: the LSM core passes valid arguments for the whole
                // call (see the module documentation).
                unsafe { $body }
            }
        )*
    };
}

entry_points! {
    stacker_file_open(file: *mut bindings::file) -> c_int =>
        ret(chain::file_open(File::from_raw(file)));
    stacker_file_permission(file: *mut bindings::file, mask: c_int) -> c_int =>
        ret(chain::file_permission(File::from_raw(file), AccessMask::from_raw(mask)));
    stacker_mmap_file(file: *mut bindings::file, reqprot: c_ulong, prot: c_ulong, flags: c_ulong) -> c_int =>
        ret(chain::mmap_file((!file.is_null()).then(|| File::from_raw(file)), reqprot as u64, prot as u64, flags as u64));
    stacker_mmap_addr(addr: c_ulong) -> c_int =>
        with_current_cred(|cred| ret(chain::mmap_addr(cred, MmapAddr::from_raw(addr))));
    stacker_file_mprotect(vma: *mut bindings::vm_area_struct, reqprot: c_ulong, prot: c_ulong) -> c_int =>
        ret(chain::file_mprotect(Vma::from_raw(vma), reqprot as u64, prot as u64));
    stacker_file_alloc_security(file: *mut bindings::file) -> c_int =>
        ret(chain::file_alloc_security(FileSecurity::from_raw(file)));
    stacker_file_free_security(file: *mut bindings::file) =>
        chain::file_free_security(FileSecurity::from_raw(file));
    stacker_inode_permission(inode: *mut bindings::inode, mask: c_int) -> c_int =>
        ret(chain::inode_permission(Inode::from_raw(inode), AccessMask::from_raw(mask)));
    stacker_inode_create(dir: *mut bindings::inode, dentry: *mut bindings::dentry, mode: bindings::umode_t) -> c_int =>
        ret(chain::inode_create(Inode::from_raw(dir), Dentry::from_raw(dentry), mode));
    stacker_inode_unlink(dir: *mut bindings::inode, dentry: *mut bindings::dentry) -> c_int =>
        ret(chain::inode_unlink(Inode::from_raw(dir), Dentry::from_raw(dentry)));
    stacker_inode_rename(
        old_dir: *mut bindings::inode, old: *mut bindings::dentry,
        new_dir: *mut bindings::inode, new: *mut bindings::dentry
    ) -> c_int =>
        ret(chain::inode_rename(Inode::from_raw(old_dir), Dentry::from_raw(old),
            Inode::from_raw(new_dir), Dentry::from_raw(new)));
    stacker_inode_link(old: *mut bindings::dentry, dir: *mut bindings::inode, new: *mut bindings::dentry) -> c_int =>
        ret(chain::inode_link(Dentry::from_raw(old), Inode::from_raw(dir), Dentry::from_raw(new)));
    stacker_inode_mkdir(dir: *mut bindings::inode, dentry: *mut bindings::dentry, mode: bindings::umode_t) -> c_int =>
        ret(chain::inode_mkdir(Inode::from_raw(dir), Dentry::from_raw(dentry), mode));
    stacker_inode_rmdir(dir: *mut bindings::inode, dentry: *mut bindings::dentry) -> c_int =>
        ret(chain::inode_rmdir(Inode::from_raw(dir), Dentry::from_raw(dentry)));
    stacker_inode_setxattr(
        _idmap: *mut bindings::mnt_idmap, dentry: *mut bindings::dentry, name: *const c_char,
        value: *const c_void, size: usize, flags: c_int
    ) -> c_int => {
        let value: &[u8] = if value.is_null() || size == 0 {
            &[]
        } else {
            core::slice::from_raw_parts(value.cast::<u8>(), size)
        };
        ret(chain::inode_setxattr(Dentry::from_raw(dentry), c_bytes(name), value, flags))
    };
    stacker_inode_removexattr(_idmap: *mut bindings::mnt_idmap, dentry: *mut bindings::dentry, name: *const c_char) -> c_int =>
        ret(chain::inode_removexattr(Dentry::from_raw(dentry), c_bytes(name)));
    stacker_inode_init_security(
        inode: *mut bindings::inode, dir: *mut bindings::inode, qstr: *const bindings::qstr,
        xattrs: *mut bindings::xattr, xattr_count: *mut c_int
    ) -> c_int => {
        let name: &[u8] = if qstr.is_null() {
            &[]
        } else {
            core::slice::from_raw_parts((*qstr).name, (*qstr).__bindgen_anon_1.__bindgen_anon_1.len as usize)
        };
        let mut slots = XattrSlots::from_raw(xattrs, xattr_count, crate::boot::xattr_limit());
        ret(chain::inode_init_security(Inode::from_raw(inode), Inode::from_raw(dir), name, &mut slots))
    };
    stacker_inode_alloc_security(inode: *mut bindings::inode) -> c_int =>
        ret(chain::inode_alloc_security(Inode::from_raw(inode)));
    stacker_inode_free_security(inode: *mut bindings::inode) =>
        chain::inode_free_security(Inode::from_raw(inode));
    stacker_inode_free_security_rcu(inode_security: *mut c_void) =>
        chain::inode_free_security_rcu(&InodeBlob::from_raw(inode_security));
    stacker_d_instantiate(dentry: *mut bindings::dentry, inode: *mut bindings::inode) =>
        chain::d_instantiate(Dentry::from_raw(dentry), (!inode.is_null()).then(|| Inode::from_raw(inode)));
    stacker_cred_alloc_blank(cred: *mut bindings::cred, _gfp: bindings::gfp_t) -> c_int =>
        ret(chain::cred_alloc_blank(Cred::from_raw(cred)));
    stacker_cred_prepare(new: *mut bindings::cred, old: *const bindings::cred, _gfp: bindings::gfp_t) -> c_int =>
        ret(chain::cred_prepare(Cred::from_raw(new), Cred::from_raw(old)));
    stacker_cred_transfer(new: *mut bindings::cred, old: *const bindings::cred) =>
        chain::cred_transfer(Cred::from_raw(new), Cred::from_raw(old));
    stacker_cred_free(cred: *mut bindings::cred) =>
        chain::cred_free(Cred::from_raw(cred));
    stacker_bprm_creds_for_exec(bprm: *mut bindings::linux_binprm) -> c_int =>
        ret(chain::bprm_creds_for_exec(Binprm::from_raw(bprm)));
    stacker_bprm_creds_from_file(bprm: *mut bindings::linux_binprm, file: *const bindings::file) -> c_int =>
        ret(chain::bprm_creds_from_file(&PreparedCred::from_bprm(bprm), File::from_raw(file)));
    stacker_bprm_check_security(bprm: *mut bindings::linux_binprm) -> c_int =>
        ret(chain::bprm_check_security(Binprm::from_raw(bprm)));
    stacker_bprm_committed_creds(bprm: *const bindings::linux_binprm) =>
        chain::bprm_committed_creds(CommittedBinprm::from_raw(bprm));
    stacker_capable(cred: *const bindings::cred, _ns: *mut bindings::user_namespace, cap: c_int, opts: c_uint) -> c_int =>
        ret(chain::capable(Cred::from_raw(cred), cap, opts));
    stacker_capset(
        new: *mut bindings::cred, old: *const bindings::cred, effective: *const bindings::kernel_cap_t,
        inheritable: *const bindings::kernel_cap_t, permitted: *const bindings::kernel_cap_t
    ) -> c_int =>
        ret(chain::capset(Cred::from_raw(new), Cred::from_raw(old), crate::objects::kernel_cap(effective),
            crate::objects::kernel_cap(inheritable), crate::objects::kernel_cap(permitted)));
    stacker_ptrace_access_check(child: *mut bindings::task_struct, mode: c_uint) -> c_int =>
        ret(chain::ptrace_access_check(Task::from_raw(child), mode));
    stacker_task_alloc(task: *mut bindings::task_struct, clone_flags: u64) -> c_int =>
        ret(chain::task_alloc(Task::from_raw(task), clone_flags));
    stacker_task_free(task: *mut bindings::task_struct) =>
        chain::task_free(Task::from_raw(task));
    stacker_task_kill(
        p: *mut bindings::task_struct, _info: *mut bindings::kernel_siginfo, sig: c_int,
        cred: *const bindings::cred
    ) -> c_int =>
        ret(chain::task_kill(Task::from_raw(p), sig, (!cred.is_null()).then(|| Cred::from_raw(cred))));
    stacker_task_fix_setuid(new: *mut bindings::cred, old: *const bindings::cred, flags: c_int) -> c_int =>
        ret(chain::task_fix_setuid(&PreparedCred::from_new(new), Cred::from_raw(old), flags));
    stacker_task_fix_setgid(new: *mut bindings::cred, old: *const bindings::cred, flags: c_int) -> c_int =>
        ret(chain::task_fix_setgid(&PreparedCred::from_new(new), Cred::from_raw(old), flags));
    stacker_socket_create(family: c_int, ty: c_int, protocol: c_int, kern: c_int) -> c_int =>
        ret(chain::socket_create(family, ty, protocol, kern != 0));
    stacker_socket_connect(sock: *mut bindings::socket, address: *mut bindings::sockaddr, addrlen: c_int) -> c_int => {
        let address: &[u8] = if address.is_null() || addrlen <= 0 {
            &[]
        } else {
            core::slice::from_raw_parts(address.cast::<u8>(), addrlen as usize)
        };
        ret(chain::socket_connect(Socket::from_raw(sock), address))
    };
    stacker_ipc_permission(ipcp: *mut bindings::kern_ipc_perm, flag: c_short) -> c_int =>
        ret(chain::ipc_permission(IpcPerm::from_raw(ipcp), flag));
    stacker_getprocattr(p: *mut bindings::task_struct, name: *const c_char, value: *mut *mut c_char) -> c_int => {
        let mut out = ProcAttrValue(KVec::new());
        match chain::getprocattr(Task::from_raw(p), c_str(name), &mut out) {
            Ok(()) => {
                let (ptr, len, cap) = out.0.into_raw_parts();
                // The caller `kfree`s the value: it came from `kmalloc`, or
                // is null when nothing was allocated.
                *value = if cap == 0 { core::ptr::null_mut() } else { ptr.cast() };
                c_int::try_from(len).unwrap_or(c_int::MAX)
            }
            Err(err) => err.to_errno(),
        }
    };
    stacker_setprocattr(name: *const c_char, value: *mut c_void, size: usize) -> c_int =>
        match chain::setprocattr(ProcAttrWrite::from_raw(name, value, size)) {
            Ok(used) => c_int::try_from(used).unwrap_or(c_int::MAX),
            Err(err) => err.to_errno(),
        };
    // The LSM core stops at the first negative answer and then denies the
    // `CAP_SYS_ADMIN` reserve (`security_vm_enough_memory_mm()`).
    stacker_vm_enough_memory(_mm: *mut bindings::mm_struct, pages: c_long) -> c_int =>
        if with_current_cred(|cred| chain::vm_enough_memory(cred, pages as i64)) {
            0
        } else {
            EPERM.to_errno()
        };
}
