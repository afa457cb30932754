// SPDX-License-Identifier: GPL-2.0

//! The hook table: every LSM hook stacker can dispatch, described once.
//!
//! Each entry gives, in this order:
//!
//! 1. the combining rule (see below);
//! 2. the hook's name and C signature, exactly as in
//!    `include/linux/lsm_hook_defs.h` (types from `kernel::bindings`, as
//!    `c::`);
//! 3. after `=>`, the typed Rust signature that submodules implement, each
//!    argument with the expression that makes it from the C arguments;
//! 4. the Rust return type and the "no opinion" default.
//!
//! Everything else is generated from this one table by the macros that
//! [`hook_table!`] is handed: the hook id ([`crate::hook::Hook`]), the
//! [`crate::submodule::Submodule`] method with its default, the dispatch
//! function of every tier (`dispatch.rs`), the `extern "C"` entry point and
//! its registration (`kernel/entry.rs`). A wrong C signature does not build:
//! each entry point is stored in bindgen's `security_list_options` union.
//!
//! The combining rules follow `security/security.c`:
//!
//! - `first_error`: an `int` hook whose LSM default is 0. Each submodule is
//!   called in chain order; the first error is returned and ends the walk;
//! - `every`: a `void` hook; every submodule is called;
//! - `all_agree`: `vm_enough_memory`; `true` only if every submodule says
//!   so, and the walk stops at the first that does not;
//! - `xattrs`, `procattr_get`, `procattr_set`, `selfattr_get`,
//!   `selfattr_set`: rules of their own, written out in `dispatch.rs`
//!   (dispatch) and `kernel/entry.rs` (entry point), and documented there.
//!
//! Kernel-independent: the host build hands the table to macros that ignore
//! the C part.

/// Hands the hook table to the macro `$callback`.
macro_rules! hook_table {
    ($callback:path) => {
        $callback! {
            // Files.
            /// May `file` be opened?
            first_error file_open(file: *mut c::file) -> c_int
                => (file: &File = File::from_raw(file)) -> Result = Ok(());
            /// May `mask` access be made through `file`?
            first_error file_permission(file: *mut c::file, mask: c_int) -> c_int
                => (file: &File = File::from_raw(file), mask: AccessMask = AccessMask::from_raw(mask))
                -> Result = Ok(());
            /// May `file` (or anonymous memory, `None`) be mapped with `prot`?
            first_error mmap_file(file: *mut c::file, reqprot: c_ulong, prot: c_ulong, flags: c_ulong) -> c_int
                => (file: Option<&File> = File::from_raw_opt(file), reqprot: u64 = reqprot as u64,
                    prot: u64 = prot as u64, flags: u64 = flags as u64) -> Result = Ok(());
            /// May the current task, with credentials `cred`, map memory at
            /// `addr`? The capability module asks for `CAP_SYS_RAWIO` below
            /// `vm.mmap_min_addr` ([`MmapAddr::below_min`]) from the raw sets.
            first_error mmap_addr(addr: c_ulong) -> c_int
                => (cred: &Cred = Cred::current(), addr: MmapAddr = MmapAddr::from_raw(addr))
                -> Result = Ok(());
            /// May `vma` change to `prot`?
            first_error file_mprotect(vma: *mut c::vm_area_struct, reqprot: c_ulong, prot: c_ulong) -> c_int
                => (vma: &Vma = Vma::from_raw(vma), reqprot: u64 = reqprot as u64,
                    prot: u64 = prot as u64) -> Result = Ok(());
            /// A file is being set up; its path is not set yet, so only its
            /// blob is reachable.
            first_error file_alloc_security(file: *mut c::file) -> c_int
                => (file: &FileSecurity = FileSecurity::from_raw(file)) -> Result = Ok(());
            /// A file is being freed, possibly after a failed open (or a
            /// failed `file_alloc_security`); only its blob is reachable.
            every file_free_security(file: *mut c::file)
                => (file: &FileSecurity = FileSecurity::from_raw(file));

            // Inodes.
            /// May `mask` access be made to `inode`?
            first_error inode_permission(inode: *mut c::inode, mask: c_int) -> c_int
                => (inode: &Inode = Inode::from_raw(inode), mask: AccessMask = AccessMask::from_raw(mask))
                -> Result = Ok(());
            /// May `dentry` be created in `dir`?
            first_error inode_create(dir: *mut c::inode, dentry: *mut c::dentry, mode: c::umode_t) -> c_int
                => (dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode) -> Result = Ok(());
            /// May `dentry` be unlinked from `dir`?
            first_error inode_unlink(dir: *mut c::inode, dentry: *mut c::dentry) -> c_int
                => (dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry))
                -> Result = Ok(());
            /// May `old` in `old_dir` be renamed to `new` in `new_dir`?
            first_error inode_rename(old_dir: *mut c::inode, old: *mut c::dentry,
                    new_dir: *mut c::inode, new: *mut c::dentry) -> c_int
                => (old_dir: &Inode = Inode::from_raw(old_dir), old: &Dentry = Dentry::from_raw(old),
                    new_dir: &Inode = Inode::from_raw(new_dir), new: &Dentry = Dentry::from_raw(new))
                -> Result = Ok(());
            /// May `old` be linked as `new` in `dir`?
            first_error inode_link(old: *mut c::dentry, dir: *mut c::inode, new: *mut c::dentry) -> c_int
                => (old: &Dentry = Dentry::from_raw(old), dir: &Inode = Inode::from_raw(dir),
                    new: &Dentry = Dentry::from_raw(new)) -> Result = Ok(());
            /// May directory `dentry` be made in `dir`?
            first_error inode_mkdir(dir: *mut c::inode, dentry: *mut c::dentry, mode: c::umode_t) -> c_int
                => (dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode) -> Result = Ok(());
            /// May directory `dentry` be removed from `dir`?
            first_error inode_rmdir(dir: *mut c::inode, dentry: *mut c::dentry) -> c_int
                => (dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry))
                -> Result = Ok(());
            /// May xattr `name` be set to `value`?
            first_error inode_setxattr(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    name: *const c_char, value: *const c_void, size: usize, flags: c_int) -> c_int
                => (dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name),
                    value: &[u8] = c_slice(value.cast(), size), flags: i32 = flags) -> Result = Ok(());
            /// May xattr `name` be removed?
            first_error inode_removexattr(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    name: *const c_char) -> c_int
                => (dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name))
                -> Result = Ok(());
            /// The security xattr for a new inode, if any. `Ok(None)` means
            /// "none from this submodule". At most
            /// [`Submodule::XATTR_COUNT`] are used per inode.
            xattrs inode_init_security(inode: *mut c::inode, dir: *mut c::inode, qstr: *const c::qstr,
                    xattrs: *mut c::xattr, xattr_count: *mut c_int) -> c_int
                => (inode: &Inode, dir: &Inode, name: &[u8]) -> Result<Option<XattrValue>> = Ok(None);
            /// An inode is being set up.
            first_error inode_alloc_security(inode: *mut c::inode) -> c_int
                => (inode: &Inode = Inode::from_raw(inode)) -> Result = Ok(());
            /// An inode is being freed. RCU-walk lookups may still read its
            /// state (see "Freeing state" in `submodule.rs`).
            every inode_free_security(inode: *mut c::inode)
                => (inode: &Inode = Inode::from_raw(inode));
            /// An RCU grace period after the inode was freed, right before
            /// its blob is freed: only the blob is left. Runs from an RCU
            /// callback: must not sleep.
            every inode_free_security_rcu(inode_security: *mut c_void)
                => (blob: &InodeBlob<'_> = &InodeBlob::from_raw(inode_security));
            /// `dentry` now refers to `inode`.
            every d_instantiate(dentry: *mut c::dentry, inode: *mut c::inode)
                => (dentry: &Dentry = Dentry::from_raw(dentry), inode: Option<&Inode> = Inode::from_raw_opt(inode));

            // Credentials.
            /// A blank cred is being set up.
            first_error cred_alloc_blank(cred: *mut c::cred, gfp: c::gfp_t) -> c_int
                => (cred: &Cred = Cred::from_raw(cred)) -> Result = Ok(());
            /// `new` is being made as a copy of `old`.
            first_error cred_prepare(new: *mut c::cred, old: *const c::cred, gfp: c::gfp_t) -> c_int
                => (new: &Cred = Cred::from_raw(new), old: &Cred = Cred::from_raw(old)) -> Result = Ok(());
            /// `new` takes `old`'s security state.
            every cred_transfer(new: *mut c::cred, old: *const c::cred)
                => (new: &Cred = Cred::from_raw(new), old: &Cred = Cred::from_raw(old));
            /// A cred is being freed.
            every cred_free(cred: *mut c::cred)
                => (cred: &Cred = Cred::from_raw(cred));

            // Exec.
            /// Set up the creds of the program being run. Runs once per
            /// exec, with the file named to `execve` (a script, not its
            /// interpreter).
            first_error bprm_creds_for_exec(bprm: *mut c::linux_binprm) -> c_int
                => (bprm: &Binprm = Binprm::from_raw(bprm)) -> Result = Ok(());
            /// The new credentials after the capability module computed
            /// their sets from `file`, the binary that will run (for a
            /// script, its interpreter). The sets can only shrink here
            /// ([`PreparedCred::drop_caps`]).
            first_error bprm_creds_from_file(bprm: *mut c::linux_binprm, file: *const c::file) -> c_int
                => (cred: &PreparedCred<'_> = &PreparedCred::from_bprm(bprm), file: &File = File::from_raw(file))
                -> Result = Ok(());
            /// May the program be run?
            first_error bprm_check_security(bprm: *mut c::linux_binprm) -> c_int
                => (bprm: &Binprm = Binprm::from_raw(bprm)) -> Result = Ok(());
            /// The new program's creds are in place (they are the current
            /// task's; the binprm no longer holds them).
            every bprm_committed_creds(bprm: *const c::linux_binprm)
                => (bprm: &CommittedBinprm = CommittedBinprm::from_raw(bprm));

            // Capabilities.
            /// Does `cred` have capability `cap` (`opts` as `CAP_OPT_*`)?
            first_error capable(cred: *const c::cred, ns: *mut c::user_namespace, cap: c_int, opts: c_uint) -> c_int
                => (cred: &Cred = Cred::from_raw(cred), cap: i32 = cap, opts: u32 = opts) -> Result = Ok(());
            /// May `new` get these capability sets?
            first_error capset(new: *mut c::cred, old: *const c::cred, effective: *const c::kernel_cap_t,
                    inheritable: *const c::kernel_cap_t, permitted: *const c::kernel_cap_t) -> c_int
                => (new: &Cred = Cred::from_raw(new), old: &Cred = Cred::from_raw(old),
                    effective: KernelCap = kernel_cap(effective), inheritable: KernelCap = kernel_cap(inheritable),
                    permitted: KernelCap = kernel_cap(permitted)) -> Result = Ok(());
            /// `true` if the current task, with credentials `cred`, may use
            /// the reserve kept for `CAP_SYS_ADMIN` for an allocation of
            /// `pages`. Do not log: the kernel asks this on every
            /// allocation of address space.
            all_agree vm_enough_memory(mm: *mut c::mm_struct, pages: c_long) -> c_int
                => (cred: &Cred = Cred::current(), pages: i64 = pages as i64) -> bool = true;

            // Tasks.
            /// May the current task trace `child`?
            first_error ptrace_access_check(child: *mut c::task_struct, mode: c_uint) -> c_int
                => (child: &Task = Task::from_raw(child), mode: u32 = mode) -> Result = Ok(());
            /// A task is being created.
            first_error task_alloc(task: *mut c::task_struct, clone_flags: u64) -> c_int
                => (task: &Task = Task::from_raw(task), clone_flags: u64 = clone_flags) -> Result = Ok(());
            /// A task is being freed.
            every task_free(task: *mut c::task_struct)
                => (task: &Task = Task::from_raw(task));
            /// May signal `sig` be sent to `target` (by `cred`, if not the
            /// current task)?
            first_error task_kill(p: *mut c::task_struct, info: *mut c::kernel_siginfo, sig: c_int,
                    cred: *const c::cred) -> c_int
                => (target: &Task = Task::from_raw(p), sig: i32 = sig, cred: Option<&Cred> = Cred::from_raw_opt(cred))
                -> Result = Ok(());
            /// The current task changes its uids to those of `new`
            /// (prepared, not yet committed; `flags` as `LSM_SETID_*`),
            /// after the capability module adjusted `new`'s sets.
            first_error task_fix_setuid(new: *mut c::cred, old: *const c::cred, flags: c_int) -> c_int
                => (new: &PreparedCred<'_> = &PreparedCred::from_new(new), old: &Cred = Cred::from_raw(old),
                    flags: i32 = flags) -> Result = Ok(());
            /// As `task_fix_setuid`, for the gids.
            first_error task_fix_setgid(new: *mut c::cred, old: *const c::cred, flags: c_int) -> c_int
                => (new: &PreparedCred<'_> = &PreparedCred::from_new(new), old: &Cred = Cred::from_raw(old),
                    flags: i32 = flags) -> Result = Ok(());

            // Sockets.
            /// May a socket of this family, type and protocol be created?
            /// `kern` is true for kernel sockets.
            first_error socket_create(family: c_int, ty: c_int, protocol: c_int, kern: c_int) -> c_int
                => (family: i32 = family, ty: i32 = ty, protocol: i32 = protocol, kern: bool = kern != 0)
                -> Result = Ok(());
            /// May `sock` connect to `address`?
            first_error socket_connect(sock: *mut c::socket, address: *mut c::sockaddr, addrlen: c_int) -> c_int
                => (sock: &Socket = Socket::from_raw(sock), address: &[u8] = sockaddr_bytes(address, addrlen))
                -> Result = Ok(());

            // IPC.
            /// May `flag` access be made to the IPC object?
            first_error ipc_permission(ipcp: *mut c::kern_ipc_perm, flag: c_short) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(ipcp), flag: i16 = flag) -> Result = Ok(());

            // Process attributes.
            /// The value of `/proc/PID/attr/NAME` for `task`. The default,
            /// `EINVAL`, means "not mine": the next submodule is asked.
            procattr_get getprocattr(p: *mut c::task_struct, name: *const c_char, value: *mut *mut c_char) -> c_int
                => (task: &Task, name: &[u8], out: &mut ProcAttrValue) -> Result = Err(EINVAL);
            /// A write of `value` to `/proc/self/attr/NAME`; returns how many
            /// bytes were used. The default, `EINVAL`, means "not mine".
            procattr_set setprocattr(name: *const c_char, value: *mut c_void, size: usize) -> c_int
                => (name: &[u8], value: &[u8]) -> Result<usize> = Err(EINVAL);
        }
    };
}
pub(crate) use hook_table;
