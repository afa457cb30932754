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
//! A hook that may sleep (its note does not say "must not sleep") and has
//! a generic rule gets `cx: &MaySleep` first ([`crate::context`]): the
//! proof that every sleeping API of the object views demands. The notes
//! are checked against the kernel's callers: a hook that some caller runs
//! in atomic context must say so, and then gets no `cx`.
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
//! - `first_nondefault`: an `int` hook whose answers other than its LSM
//!   default are claims, not errors to combine (`inode_xattr_skipcap`,
//!   whose default is 0 and whose claim is 1; `inode_copy_up_xattr`, whose
//!   default is `-EOPNOTSUPP`): the first answer other than the default
//!   decides and ends the walk. Its Rust answer is a type of its own
//!   ([`CapCheck`], [`XattrCopyUp`]);
//! - `first_claim`: a hook whose default is an error that means "not
//!   mine" (`inode_getsecurity`): the first answer that is not the default
//!   decides;
//! - `prctl`: `task_prctl`'s rule, as `security_task_prctl()`;
//! - `lsmprop`: a `void` hook that fills `struct lsm_prop`: every
//!   label-bearing submodule gives the secid for its own slot
//!   (`core/lsm_prop.rs`), and no other slot is reachable;
//! - `primary_label`: a hook that takes or gives a bare secid, which names
//!   no submodule: only the chain's first label-bearing submodule (its
//!   primary label) is asked;
//! - `audit_rule`: `audit_rule_init` and `audit_rule_match`, which only the
//!   primary label-bearing submodule answers, and only when stacker holds
//!   the audit rules; `audit_rule_release` (`audit_rule_free`,
//!   `audit_rule_known`), with no method of its own;
//! - `secctx_by_slot`, `secctx_release`: `lsmprop_to_secctx`, registered
//!   once per label-bearing submodule under an LSM id of its own, and
//!   `release_secctx`; no methods of their own;
//! - `mount_option`, `mount_options`, `mount_options_held`: the mount
//!   options of `core/mount_options.rs`: an option goes to the first
//!   submodule that claims it (`sb_eat_lsm_opts`, also for
//!   `fs_context_parse_param`), and each submodule gets its own back
//!   (`sb_set_mnt_opts`, `sb_mnt_opts_compat`: the first error decides);
//!   the `mount_options_held` hooks keep stacker's copy (no methods);
//! - `xattrs`, `procattr_get`, `procattr_set`, `selfattr_get`,
//!   `selfattr_set`: rules of their own, written out in `dispatch.rs`
//!   (dispatch) and `kernel/entry.rs` (entry point), and documented there.
//!   The `selfattr_*` hooks (the LSM syscalls) have no method of their
//!   own: they are answered from `getprocattr` and `setprocattr`.
//!
//! Kernel-independent: the host build hands the table to macros that ignore
//! the C part.

/// Hands the hook table to the macro `$callback`, after the tokens
/// `$prefix` if given (`hook_table!(m: tokens)`).
macro_rules! hook_table {
    ($callback:path $(: $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            // Files.
            /// May `file` be opened?
            first_error file_open(file: *mut c::file) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file)) -> Result = Ok(());
            /// May `mask` access be made through `file`?
            first_error file_permission(file: *mut c::file, mask: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), mask: AccessMask = AccessMask::from_raw(mask))
                -> Result = Ok(());
            /// May `file` (or anonymous memory, `None`) be mapped with `prot`?
            first_error mmap_file(file: *mut c::file, reqprot: c_ulong, prot: c_ulong, flags: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: Option<&File> = File::from_raw_opt(file), reqprot: u64 = reqprot as u64,
                    prot: u64 = prot as u64, flags: u64 = flags as u64) -> Result = Ok(());
            /// May the current task, with credentials `cred`, map memory at
            /// `addr`? The capability module asks for `CAP_SYS_RAWIO` below
            /// `vm.mmap_min_addr` ([`MmapAddr::below_min`]) from the raw sets.
            first_error mmap_addr(addr: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), cred: &Cred = Cred::current(), addr: MmapAddr = MmapAddr::from_raw(addr))
                -> Result = Ok(());
            /// May `vma` change to `prot`?
            first_error file_mprotect(vma: *mut c::vm_area_struct, reqprot: c_ulong, prot: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), vma: &Vma = Vma::from_raw(vma), reqprot: u64 = reqprot as u64,
                    prot: u64 = prot as u64) -> Result = Ok(());
            /// May `cmd` be run on `file` through `ioctl(2)`?
            first_error file_ioctl(file: *mut c::file, cmd: c_uint, arg: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), cmd: u32 = cmd, arg: u64 = arg as u64) -> Result = Ok(());
            /// May `cmd` be run on `file` through a 32-bit task's `ioctl(2)`
            /// (`compat_sys_ioctl`, which calls this hook and not
            /// `file_ioctl`)? A submodule that implements `file_ioctl` gets
            /// this hook too, routed to its `file_ioctl` with the 32-bit
            /// commands that name a native one translated
            /// ([`crate::abi::native_ioctl_cmd`], as
            /// `selinux_file_ioctl_compat`).
            first_error file_ioctl_compat(file: *mut c::file, cmd: c_uint, arg: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), cmd: u32 = cmd, arg: u64 = arg as u64) -> Result = Ok(());
            /// May `cmd` be run on `file` through `fcntl(2)`?
            first_error file_fcntl(file: *mut c::file, cmd: c_uint, arg: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), cmd: u32 = cmd, arg: u64 = arg as u64) -> Result = Ok(());
            /// May `file` be locked (`cmd` as `LOCK_*` or `F_*LK`)?
            first_error file_lock(file: *mut c::file, cmd: c_uint) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), cmd: u32 = cmd) -> Result = Ok(());
            /// May `file` be received over a Unix socket or by `pidfd_getfd`?
            first_error file_receive(file: *mut c::file) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file)) -> Result = Ok(());
            /// The current task was made the owner of `file`, for SIGIO
            /// (`F_SETOWN`). (Under the owner's write lock, interrupts off:
            /// must not sleep.)
            every file_set_fowner(file: *mut c::file)
                => (file: &File = File::from_raw(file));
            /// May `task` be sent `sig` (SIGIO or the `F_SETSIG` signal)
            /// for I/O on `file`, whose owner it is? (From `kill_fasync()`,
            /// possibly in interrupt context, with the owner's lock
            /// read-held and interrupts off, and under RCU: must not sleep,
            /// and any lock taken must be irq-safe.)
            first_error file_send_sigiotask(tsk: *mut c::task_struct, fown: *mut c::fown_struct, sig: c_int) -> c_int
                => (task: &Task = Task::from_raw(tsk), file: &File = File::from_raw((*fown).file),
                    sig: i32 = sig) -> Result = Ok(());
            /// `file` was opened with `mask` access: the measure and
            /// appraise point of integrity modules.
            first_error file_post_open(file: *mut c::file, mask: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), mask: AccessMask = AccessMask::from_raw(mask))
                -> Result = Ok(());
            /// May `file` be truncated?
            first_error file_truncate(file: *mut c::file) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file)) -> Result = Ok(());
            /// A file is being set up; its path is not set yet, so only its
            /// blob is reachable.
            first_error file_alloc_security(file: *mut c::file) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &FileSecurity = FileSecurity::from_raw(file)) -> Result = Ok(());
            /// The last reference to an open `file` is being dropped: the
            /// point where integrity modules learn that a writer is done.
            every file_release(file: *mut c::file)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file));
            /// A file is being freed, possibly after a failed open (or a
            /// failed `file_alloc_security`); only its blob is reachable.
            /// (An `fput()` under RCU, `__fget_files_rcu()`, can drop the
            /// last reference of a file never opened and free it there:
            /// must not sleep.)
            every file_free_security(file: *mut c::file)
                => (file: &FileSecurity = FileSecurity::from_raw(file));

            // Inodes.
            /// May `mask` access be made to `inode`? With `MAY_NOT_BLOCK` in
            /// `mask` it is called in an RCU-walk lookup (under RCU): must
            /// not sleep then; returning `ECHILD` asks for a ref-walk retry.
            first_error inode_permission(inode: *mut c::inode, mask: c_int) -> c_int
                => (inode: &Inode = Inode::from_raw(inode), mask: AccessMask = AccessMask::from_raw(mask))
                -> Result = Ok(());
            /// May `dentry` be created in `dir`?
            first_error inode_create(dir: *mut c::inode, dentry: *mut c::dentry, mode: c::umode_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode) -> Result = Ok(());
            /// May `dentry` be unlinked from `dir`?
            first_error inode_unlink(dir: *mut c::inode, dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry))
                -> Result = Ok(());
            /// May `old` in `old_dir` be renamed to `new` in `new_dir`?
            first_error inode_rename(old_dir: *mut c::inode, old: *mut c::dentry,
                    new_dir: *mut c::inode, new: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), old_dir: &Inode = Inode::from_raw(old_dir), old: &Dentry = Dentry::from_raw(old),
                    new_dir: &Inode = Inode::from_raw(new_dir), new: &Dentry = Dentry::from_raw(new))
                -> Result = Ok(());
            /// May `old` be linked as `new` in `dir`?
            first_error inode_link(old: *mut c::dentry, dir: *mut c::inode, new: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), old: &Dentry = Dentry::from_raw(old), dir: &Inode = Inode::from_raw(dir),
                    new: &Dentry = Dentry::from_raw(new)) -> Result = Ok(());
            /// May directory `dentry` be made in `dir`?
            first_error inode_mkdir(dir: *mut c::inode, dentry: *mut c::dentry, mode: c::umode_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode) -> Result = Ok(());
            /// May directory `dentry` be removed from `dir`?
            first_error inode_rmdir(dir: *mut c::inode, dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry))
                -> Result = Ok(());
            /// May xattr `name` be set to `value`?
            first_error inode_setxattr(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    name: *const c_char, value: *const c_void, size: usize, flags: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name),
                    value: &[u8] = c_slice(value.cast(), size), flags: i32 = flags) -> Result = Ok(());
            /// Does a submodule check xattr `name` fully itself, so that
            /// `setxattr(2)` and `removexattr(2)` of it skip the
            /// capability check the LSM core makes first
            /// ([`CapCheck::Skip`])? Claim only your own xattr: the skip
            /// holds for every LSM.
            first_nondefault inode_xattr_skipcap(name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), name: &[u8] = c_bytes(name))
                -> CapCheck = CapCheck::Keep;
            /// overlayfs copies a file up from a lower layer: what of its
            /// xattr `name`, read from `src`, the lower dentry
            /// ([`XattrCopyUp`])? Claim only your own xattrs: the first
            /// claim decides for every LSM. (`ovl_copy_xattr()`, which may
            /// sleep.)
            first_nondefault inode_copy_up_xattr(src: *mut c::dentry, name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), src: &Dentry = Dentry::from_raw(src), name: &[u8] = c_bytes(name))
                -> XattrCopyUp = XattrCopyUp::NotMine;
            /// May xattr `name` be removed?
            first_error inode_removexattr(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name))
                -> Result = Ok(());
            /// May symlink `dentry` to `old_name` be made in `dir`?
            first_error inode_symlink(dir: *mut c::inode, dentry: *mut c::dentry, old_name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    old_name: &[u8] = c_bytes(old_name)) -> Result = Ok(());
            /// May special file `dentry` be made in `dir`?
            first_error inode_mknod(dir: *mut c::inode, dentry: *mut c::dentry, mode: c::umode_t, dev: c::dev_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Inode = Inode::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode, dev: u32 = dev) -> Result = Ok(());
            /// May symlink `dentry` be read?
            first_error inode_readlink(dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry)) -> Result = Ok(());
            /// May symlink `dentry` (inode `inode`) be followed? With `rcu`,
            /// in an RCU-walk lookup: must not sleep.
            first_error inode_follow_link(dentry: *mut c::dentry, inode: *mut c::inode, rcu: bool) -> c_int
                => (dentry: &Dentry = Dentry::from_raw(dentry), inode: &Inode = Inode::from_raw(inode),
                    rcu: bool = rcu) -> Result = Ok(());
            /// May the attributes of `dentry` be changed as `attr` says?
            first_error inode_setattr(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry, attr: *mut c::iattr) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), attr: &Iattr = Iattr::from_raw(attr))
                -> Result = Ok(());
            /// The attributes of `dentry` were changed by `attr`.
            every inode_post_setattr(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry, ia_valid: c_int)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), valid: u32 = ia_valid as u32);
            /// May the attributes of `path` be read (`stat(2)`)?
            first_error inode_getattr(path: *const c::path) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), path: &Path = Path::from_raw(path)) -> Result = Ok(());
            /// May xattr `name` of `dentry` be read?
            first_error inode_getxattr(dentry: *mut c::dentry, name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name)) -> Result = Ok(());
            /// May the xattr names of `dentry` be listed?
            first_error inode_listxattr(dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry)) -> Result = Ok(());
            /// Xattr `name` of `dentry` was set to `value`.
            every inode_post_setxattr(dentry: *mut c::dentry, name: *const c_char, value: *const c_void,
                    size: usize, flags: c_int)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name),
                    value: &[u8] = c_slice(value.cast(), size), flags: i32 = flags);
            /// Xattr `name` of `dentry` was removed.
            every inode_post_removexattr(dentry: *mut c::dentry, name: *const c_char)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(name));
            /// May the POSIX ACL `acl_name` (`system.posix_acl_access` or
            /// `_default`) of `dentry` be set (`setxattr(2)`, `vfs_set_acl`)?
            first_error inode_set_acl(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    acl_name: *const c_char, kacl: *mut c::posix_acl) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(acl_name))
                -> Result = Ok(());
            /// The POSIX ACL `acl_name` of `dentry` was set.
            every inode_post_set_acl(dentry: *mut c::dentry, acl_name: *const c_char, kacl: *mut c::posix_acl)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(acl_name));
            /// May the POSIX ACL `acl_name` of `dentry` be read?
            first_error inode_get_acl(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    acl_name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(acl_name))
                -> Result = Ok(());
            /// May the POSIX ACL `acl_name` of `dentry` be removed?
            first_error inode_remove_acl(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    acl_name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(acl_name))
                -> Result = Ok(());
            /// The POSIX ACL `acl_name` of `dentry` was removed.
            every inode_post_remove_acl(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry,
                    acl_name: *const c_char)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), name: &[u8] = c_bytes(acl_name));
            /// The value of `security.NAME` of `inode`, made by the
            /// submodule rather than read from the file system. The default,
            /// `EOPNOTSUPP`, means "not mine": the next submodule is asked,
            /// and if none answers, the xattr is read from the inode.
            first_claim inode_getsecurity(idmap: *mut c::mnt_idmap, inode: *mut c::inode, name: *const c_char,
                    buffer: *mut *mut c_void, alloc: bool) -> c_int
                => (cx: &crate::context::MaySleep, inode: &Inode, name: &[u8], out: &mut AttrValue) -> Result = Err(EOPNOTSUPP);
            /// Adds the `security.*` xattr names the submodule makes for
            /// `inode` to `names` (for `listxattr(2)`).
            first_error inode_listsecurity(inode: *mut c::inode, buffer: *mut *mut c_char, remaining_size: *mut isize) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), inode: &Inode = Inode::from_raw(inode),
                    names: &mut XattrNames<'_> = &mut XattrNames::from_raw(buffer, remaining_size))
                -> Result = Ok(());
            /// The security xattr for a new inode, if any. `Ok(None)` means
            /// "none from this submodule". At most
            /// [`Submodule::XATTR_COUNT`] are used per inode.
            xattrs inode_init_security(inode: *mut c::inode, dir: *mut c::inode, qstr: *const c::qstr,
                    xattrs: *mut c::xattr, xattr_count: *mut c_int) -> c_int
                => (cx: &crate::context::MaySleep, inode: &Inode, dir: &Inode, name: &[u8]) -> Result<Option<XattrValue>> = Ok(None);
            /// An inode is being set up.
            first_error inode_alloc_security(inode: *mut c::inode) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), inode: &Inode = Inode::from_raw(inode)) -> Result = Ok(());
            /// An inode is being freed. RCU-walk lookups may still read its
            /// state (see "Freeing state" in `submodule.rs`).
            every inode_free_security(inode: *mut c::inode)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), inode: &Inode = Inode::from_raw(inode));
            /// An RCU grace period after the inode was freed, right before
            /// its blob is freed: only the blob is left. Runs from an RCU
            /// callback: must not sleep.
            every inode_free_security_rcu(inode_security: *mut c_void)
                => (blob: &InodeBlob<'_> = &InodeBlob::from_raw(inode_security));
            /// A temporary file (`O_TMPFILE`) was created, its `inode` set up.
            every inode_post_create_tmpfile(idmap: *mut c::mnt_idmap, inode: *mut c::inode)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), inode: &Inode = Inode::from_raw(inode));
            /// `inode`, a `/proc/PID` entry, was set up or revalidated for
            /// `task`: the point to label it as its task. (Under RCU when
            /// revalidated, `pid_revalidate()`: must not sleep.)
            every task_to_inode(p: *mut c::task_struct, inode: *mut c::inode)
                => (task: &Task = Task::from_raw(p), inode: &Inode = Inode::from_raw(inode));
            /// `dentry` now refers to `inode`.
            every d_instantiate(dentry: *mut c::dentry, inode: *mut c::inode)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry), inode: Option<&Inode> = Inode::from_raw_opt(inode));

            // Paths (`CONFIG_SECURITY_PATH`): the same operations as the
            // inode hooks, told the mount as well, before the inode hooks.
            /// May `dentry` be unlinked from directory `dir`?
            first_error path_unlink(dir: *const c::path, dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Path = Path::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry))
                -> Result = Ok(());
            /// May directory `dentry` be made in `dir` with `mode`?
            first_error path_mkdir(dir: *const c::path, dentry: *mut c::dentry, mode: c::umode_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Path = Path::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode) -> Result = Ok(());
            /// May directory `dentry` be removed from `dir`?
            first_error path_rmdir(dir: *const c::path, dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Path = Path::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry))
                -> Result = Ok(());
            /// May `dentry` be made in `dir` by `mknod(2)` (or `open(O_CREAT)`
            /// of a regular file), with `mode` and device `dev`?
            first_error path_mknod(dir: *const c::path, dentry: *mut c::dentry, mode: c::umode_t, dev: c_uint) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Path = Path::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    mode: u16 = mode, dev: u32 = dev) -> Result = Ok(());
            /// Regular file `dentry` was made by `mknod(2)` (IMA marks it
            /// new here).
            every path_post_mknod(idmap: *mut c::mnt_idmap, dentry: *mut c::dentry)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry));
            /// May the file at `path` be truncated by `truncate(2)`?
            first_error path_truncate(path: *const c::path) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), path: &Path = Path::from_raw(path)) -> Result = Ok(());
            /// May symlink `dentry` to `old_name` be made in `dir`?
            first_error path_symlink(dir: *const c::path, dentry: *mut c::dentry, old_name: *const c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dir: &Path = Path::from_raw(dir), dentry: &Dentry = Dentry::from_raw(dentry),
                    old_name: &[u8] = c_bytes(old_name)) -> Result = Ok(());
            /// May hard link `new` in `new_dir` to `old` be made?
            first_error path_link(old: *mut c::dentry, new_dir: *const c::path, new: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), old: &Dentry = Dentry::from_raw(old), new_dir: &Path = Path::from_raw(new_dir),
                    new: &Dentry = Dentry::from_raw(new)) -> Result = Ok(());
            /// May `old` in `old_dir` be renamed to `new` in `new_dir`
            /// (`flags` as `RENAME_*`)?
            first_error path_rename(old_dir: *const c::path, old: *mut c::dentry, new_dir: *const c::path,
                    new: *mut c::dentry, flags: c_uint) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), old_dir: &Path = Path::from_raw(old_dir), old: &Dentry = Dentry::from_raw(old),
                    new_dir: &Path = Path::from_raw(new_dir), new: &Dentry = Dentry::from_raw(new), flags: u32 = flags)
                -> Result = Ok(());
            /// May the mode of the file at `path` become `mode`?
            first_error path_chmod(path: *const c::path, mode: c::umode_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), path: &Path = Path::from_raw(path), mode: u16 = mode) -> Result = Ok(());
            /// May the owner of the file at `path` become `uid` and `gid`
            /// (kernel ids; `u32::MAX` leaves one unchanged)?
            first_error path_chown(path: *const c::path, uid: c::kuid_t, gid: c::kgid_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), path: &Path = Path::from_raw(path), uid: u32 = uid.val, gid: u32 = gid.val)
                -> Result = Ok(());
            /// May the current task's root become `path`?
            first_error path_chroot(path: *const c::path) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), path: &Path = Path::from_raw(path)) -> Result = Ok(());

            // Superblocks and mounts.
            /// A superblock is being set up.
            first_error sb_alloc_security(sb: *mut c::super_block) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sb: &Superblock = Superblock::from_raw(sb)) -> Result = Ok(());
            /// A superblock is being freed.
            every sb_free_security(sb: *mut c::super_block)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sb: &Superblock = Superblock::from_raw(sb));
            /// May file system type `fs_type` from `dev_name` be mounted on
            /// `path` (`flags` as `MS_*`)? Either name may be absent.
            first_error sb_mount(dev_name: *const c_char, path: *const c::path, fs_type: *const c_char,
                    flags: c_ulong, data: *mut c_void) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dev_name: Option<&[u8]> = c_bytes_opt(dev_name), path: &Path = Path::from_raw(path),
                    fs_type: Option<&[u8]> = c_bytes_opt(fs_type), flags: u64 = flags as u64)
                -> Result = Ok(());
            /// May `mnt` be unmounted (`flags` as `MNT_*`)?
            first_error sb_umount(mnt: *mut c::vfsmount, flags: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), mnt: &Vfsmount = Vfsmount::from_raw(mnt), flags: i32 = flags) -> Result = Ok(());
            /// May the mount of `sb` be remounted with new options
            /// (`mount(MS_REMOUNT)`)?
            first_error sb_remount(sb: *mut c::super_block, mnt_opts: *mut c_void) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sb: &Superblock = Superblock::from_raw(sb)) -> Result = Ok(());
            /// May the new superblock `sb` be mounted?
            first_error sb_kern_mount(sb: *const c::super_block) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sb: &Superblock = Superblock::from_raw(sb)) -> Result = Ok(());
            // Mount options (`core/mount_options.rs`): taken only while no
            // other active LSM keeps options of its own in the core's one
            // `mnt_opts` pointer (SELinux, Smack).
            /// Is mount option `name` (with `value`, what follows its `=`,
            /// if any) the submodule's? `Ok(true)`: it is, and valid:
            /// stacker takes it out of what the file system sees and hands
            /// it back to `sb_set_mnt_opts`. `Err`: it is, and invalid: the
            /// mount fails. The first submodule that claims an option has
            /// it. (From `mount(2)`'s data string and from `fsconfig(2)`:
            /// process context.)
            mount_option sb_eat_lsm_opts(orig: *mut c_char, mnt_opts: *mut *mut c_void) -> c_int
                => (cx: &crate::context::MaySleep, name: &[u8], value: Option<&[u8]>) -> Result<bool> = Ok(false);
            /// `fsconfig(2)`'s parameters: answered from `sb_eat_lsm_opts`
            /// (no method of its own).
            mount_options_held fs_context_parse_param(fc: *mut c::fs_context, param: *mut c::fs_parameter) -> c_int
                => () -> Result = Ok(());
            /// A mount's context is copied: so are the options stacker
            /// holds for it (no method of its own).
            mount_options_held fs_context_dup(fc: *mut c::fs_context, src_fc: *mut c::fs_context) -> c_int
                => () -> Result = Ok(());
            /// Frees the options stacker holds for a mount (no method of
            /// its own).
            mount_options_held sb_free_mnt_opts(mnt_opts: *mut c_void)
                => () -> Result = Ok(());
            /// The new superblock `sb` of a mount is being set up with the
            /// options the submodule claimed (none, for a mount without
            /// any): the first error fails the mount.
            mount_options sb_set_mnt_opts(sb: *mut c::super_block, mnt_opts: *mut c_void, kern_flags: c_ulong,
                    set_kern_flags: *mut c_ulong) -> c_int
                => (cx: &crate::context::MaySleep, sb: &Superblock, options: OwnMountOptions<'_>) -> Result = Ok(());
            /// May a mount with the submodule's `options` share the existing
            /// superblock `sb` (NFS)? An error says no.
            mount_options sb_mnt_opts_compat(sb: *mut c::super_block, mnt_opts: *mut c_void) -> c_int
                => (cx: &crate::context::MaySleep, sb: &Superblock, options: OwnMountOptions<'_>) -> Result = Ok(());
            /// May an automount (a submount) under the mount of `reference`
            /// be made?
            first_error fs_context_submount(fc: *mut c::fs_context, reference: *mut c::super_block) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), reference: &Superblock = Superblock::from_raw(reference))
                -> Result = Ok(());
            /// May the file system of `dentry` be asked for its statistics?
            first_error sb_statfs(dentry: *mut c::dentry) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), dentry: &Dentry = Dentry::from_raw(dentry)) -> Result = Ok(());
            /// May the mount at `from` be moved to `to`?
            first_error move_mount(from: *const c::path, to: *const c::path) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), from: &Path = Path::from_raw(from), to: &Path = Path::from_raw(to)) -> Result = Ok(());

            // Credentials.
            /// A blank cred is being set up.
            first_error cred_alloc_blank(cred: *mut c::cred, gfp: c::gfp_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), cred: &Cred = Cred::from_raw(cred)) -> Result = Ok(());
            /// `new` is being made as a copy of `old`.
            first_error cred_prepare(new: *mut c::cred, old: *const c::cred, gfp: c::gfp_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), new: &Cred = Cred::from_raw(new), old: &Cred = Cred::from_raw(old)) -> Result = Ok(());
            /// `new` takes `old`'s security state.
            every cred_transfer(new: *mut c::cred, old: *const c::cred)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), new: &Cred = Cred::from_raw(new), old: &Cred = Cred::from_raw(old));
            /// A cred is being freed. (May run from an RCU callback,
            /// `put_cred_rcu`: must not sleep.)
            every cred_free(cred: *mut c::cred)
                => (cred: &Cred = Cred::from_raw(cred));

            // Exec.
            /// Set up the creds of the program being run. Runs once per
            /// exec, with the file named to `execve` (a script, not its
            /// interpreter).
            first_error bprm_creds_for_exec(bprm: *mut c::linux_binprm) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), bprm: &Binprm = Binprm::from_raw(bprm)) -> Result = Ok(());
            /// The new credentials after the capability module computed
            /// their sets from `file`, the binary that will run (for a
            /// script, its interpreter). The sets can only shrink here
            /// ([`PreparedCred::drop_caps`]).
            first_error bprm_creds_from_file(bprm: *mut c::linux_binprm, file: *const c::file) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), cred: &PreparedCred<'_> = &PreparedCred::from_bprm(bprm), file: &File = File::from_raw(file))
                -> Result = Ok(());
            /// May the program be run?
            first_error bprm_check_security(bprm: *mut c::linux_binprm) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), bprm: &Binprm = Binprm::from_raw(bprm)) -> Result = Ok(());
            /// The new program's creds are about to be committed (they
            /// are still the binprm's).
            every bprm_committing_creds(bprm: *const c::linux_binprm)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), bprm: &Binprm = Binprm::from_raw(bprm));
            /// The new program's creds are in place (they are the current
            /// task's; the binprm no longer holds them).
            every bprm_committed_creds(bprm: *const c::linux_binprm)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), bprm: &CommittedBinprm = CommittedBinprm::from_raw(bprm));

            // Capabilities.
            /// May the kernel log be acted on with `syslog(2)` action
            /// `action` (`SYSLOG_ACTION_*`; reads of `/dev/kmsg` and
            /// `/proc/kmsg` too)?
            first_error syslog(r#type: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), action: i32 = r#type) -> Result = Ok(());
            /// May the current task, with `cred`, set the system time
            /// (`clock_settime(2)`, `settimeofday(2)`, `stime`)?
            first_error settime(ts: *const c::timespec64, tz: *const c::timezone) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), cred: &Cred = Cred::current()) -> Result = Ok(());
            /// Does `cred` have capability `cap` (`opts` as `CAP_OPT_*`) in
            /// a user namespace, the initial one (`initial_ns`) or another?
            /// (Called from atomic context too, e.g. under `task_lock` and
            /// RCU by `ptrace_may_access()`: must not sleep.)
            first_error capable(cred: *const c::cred, ns: *mut c::user_namespace, cap: c_int, opts: c_uint) -> c_int
                => (cred: &Cred = Cred::from_raw(cred), initial_ns: bool = is_initial_user_ns(ns), cap: i32 = cap, opts: u32 = opts) -> Result = Ok(());
            /// May the capability sets of `target` be read by the current
            /// task (`capget(2)`)? (Under RCU for another task,
            /// `cap_get_target_pid()`: must not sleep.)
            first_error capget(target: *const c::task_struct, effective: *mut c::kernel_cap_t,
                    inheritable: *mut c::kernel_cap_t, permitted: *mut c::kernel_cap_t) -> c_int
                => (target: &Task = Task::from_raw(target)) -> Result = Ok(());
            /// May `new` get these capability sets?
            first_error capset(new: *mut c::cred, old: *const c::cred, effective: *const c::kernel_cap_t,
                    inheritable: *const c::kernel_cap_t, permitted: *const c::kernel_cap_t) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), new: &Cred = Cred::from_raw(new), old: &Cred = Cred::from_raw(old),
                    effective: KernelCap = kernel_cap(effective), inheritable: KernelCap = kernel_cap(inheritable),
                    permitted: KernelCap = kernel_cap(permitted)) -> Result = Ok(());
            /// `true` if the current task, with credentials `cred`, may use
            /// the reserve kept for `CAP_SYS_ADMIN` for an allocation of
            /// `pages`. Do not log: the kernel asks this on every
            /// allocation of address space. (`swapoff` asks under
            /// `swap_lock`: must not sleep.)
            all_agree vm_enough_memory(mm: *mut c::mm_struct, pages: c_long) -> c_int
                => (cred: &Cred = Cred::current(), pages: i64 = pages as i64) -> bool = true;

            // Tasks.
            /// May the current task trace `child`? (Under `task_lock(child)`,
            /// `__ptrace_may_access()`: must not sleep.)
            first_error ptrace_access_check(child: *mut c::task_struct, mode: c_uint) -> c_int
                => (child: &Task = Task::from_raw(child), mode: u32 = mode) -> Result = Ok(());
            /// A task is being created.
            first_error task_alloc(task: *mut c::task_struct, clone_flags: u64) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), task: &Task = Task::from_raw(task), clone_flags: u64 = clone_flags) -> Result = Ok(());
            /// A task is being freed. (May run from an RCU callback,
            /// `delayed_put_task_struct`: must not sleep.)
            every task_free(task: *mut c::task_struct)
                => (task: &Task = Task::from_raw(task));
            /// May signal `sig` be sent to `target` (by `cred`, if not the
            /// current task)? (Under RCU, `group_send_sig_info()`: must not
            /// sleep.)
            first_error task_kill(p: *mut c::task_struct, info: *mut c::kernel_siginfo, sig: c_int,
                    cred: *const c::cred) -> c_int
                => (target: &Task = Task::from_raw(p), sig: i32 = sig, cred: Option<&Cred> = Cred::from_raw_opt(cred))
                -> Result = Ok(());
            /// May the current task be traced by `parent` (`PTRACE_TRACEME`)?
            /// (Under `tasklist_lock`: must not sleep.)
            first_error ptrace_traceme(parent: *mut c::task_struct) -> c_int
                => (parent: &Task = Task::from_raw(parent)) -> Result = Ok(());
            /// May `target`'s process group be set to `pgid`?
            /// (Under `tasklist_lock`: must not sleep.)
            first_error task_setpgid(p: *mut c::task_struct, pgid: c::pid_t) -> c_int
                => (target: &Task = Task::from_raw(p), pgid: i32 = pgid) -> Result = Ok(());
            /// May `target`'s process group be read?
            /// (Under RCU: must not sleep.)
            first_error task_getpgid(p: *mut c::task_struct) -> c_int
                => (target: &Task = Task::from_raw(p)) -> Result = Ok(());
            /// May `target`'s session id be read?
            /// (Under RCU: must not sleep.)
            first_error task_getsid(p: *mut c::task_struct) -> c_int
                => (target: &Task = Task::from_raw(p)) -> Result = Ok(());
            /// May `target`'s nice value be set to `nice`?
            /// (Under RCU or `tasklist_lock`: must not sleep.)
            first_error task_setnice(p: *mut c::task_struct, nice: c_int) -> c_int
                => (target: &Task = Task::from_raw(p), nice: i32 = nice) -> Result = Ok(());
            /// May `target`'s scheduling policy be changed?
            first_error task_setscheduler(p: *mut c::task_struct) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), target: &Task = Task::from_raw(p)) -> Result = Ok(());
            /// May `target`'s scheduling policy be read? (Under RCU,
            /// `sched_getscheduler()`, `sched_getparam()`: must not sleep.)
            first_error task_getscheduler(p: *mut c::task_struct) -> c_int
                => (target: &Task = Task::from_raw(p)) -> Result = Ok(());
            /// May `target`'s I/O priority be set to `ioprio`? (Under RCU,
            /// `ioprio_set()`: must not sleep.)
            first_error task_setioprio(p: *mut c::task_struct, ioprio: c_int) -> c_int
                => (target: &Task = Task::from_raw(p), ioprio: i32 = ioprio) -> Result = Ok(());
            /// May `target`'s I/O priority be read? (Under RCU,
            /// `ioprio_get()`: must not sleep.)
            first_error task_getioprio(p: *mut c::task_struct) -> c_int
                => (target: &Task = Task::from_raw(p)) -> Result = Ok(());
            /// May a task with `cred` read (`flags` has `LSM_PRLIMIT_READ`)
            /// or write (`LSM_PRLIMIT_WRITE`) the resource limits of a task
            /// with `target` (`prlimit(2)`)? (Under RCU: must not sleep.)
            first_error task_prlimit(cred: *const c::cred, tcred: *const c::cred, flags: c_uint) -> c_int
                => (cred: &Cred = Cred::from_raw(cred), target: &Cred = Cred::from_raw(tcred),
                    flags: u32 = flags) -> Result = Ok(());
            /// May `target`'s limit `resource` be set, to the hard limit
            /// `max` (`setrlimit(2)`, `prlimit(2)`)? (Under the task's
            /// `task_lock`: must not sleep.)
            first_error task_setrlimit(p: *mut c::task_struct, resource: c_uint, new_rlim: *mut c::rlimit) -> c_int
                => (target: &Task = Task::from_raw(p), resource: u32 = resource,
                    max: u64 = (*new_rlim).rlim_max as u64) -> Result = Ok(());
            /// A `prctl(2)` call. The default, `ENOSYS`, means "not mine";
            /// `Ok(0)` means handled, and the next submodule is asked too;
            /// any other answer ends the walk and is `prctl`'s result.
            prctl task_prctl(option: c_int, arg2: c_ulong, arg3: c_ulong, arg4: c_ulong, arg5: c_ulong) -> c_int
                => (option: i32 = option, args: [u64; 4] = [arg2 as u64, arg3 as u64, arg4 as u64, arg5 as u64])
                -> Result<i32> = Err(ENOSYS);
            /// The current task changes its uids to those of `new`
            /// (prepared, not yet committed; `flags` as `LSM_SETID_*`),
            /// after the capability module adjusted `new`'s sets.
            first_error task_fix_setuid(new: *mut c::cred, old: *const c::cred, flags: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), new: &PreparedCred<'_> = &PreparedCred::from_new(new), old: &Cred = Cred::from_raw(old),
                    flags: i32 = flags) -> Result = Ok(());
            /// The supplementary groups of `new` (from `old`) were set by
            /// `setgroups(2)`: a last chance to refuse them.
            first_error task_fix_setgroups(new: *mut c::cred, old: *const c::cred) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), new: &PreparedCred<'_> = &PreparedCred::from_new(new), old: &Cred = Cred::from_raw(old))
                -> Result = Ok(());
            /// As `task_fix_setuid`, for the gids.
            first_error task_fix_setgid(new: *mut c::cred, old: *const c::cred, flags: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), new: &PreparedCred<'_> = &PreparedCred::from_new(new), old: &Cred = Cred::from_raw(old),
                    flags: i32 = flags) -> Result = Ok(());

            // Sockets.
            /// May a socket of this family, type and protocol be created?
            /// `kern` is true for kernel sockets.
            first_error socket_create(family: c_int, ty: c_int, protocol: c_int, kern: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), family: i32 = family, ty: i32 = ty, protocol: i32 = protocol, kern: bool = kern != 0)
                -> Result = Ok(());
            /// May `sock` connect to `address`?
            first_error socket_connect(sock: *mut c::socket, address: *mut c::sockaddr, addrlen: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), address: &[u8] = sockaddr_bytes(address, addrlen))
                -> Result = Ok(());
            /// `sock` was created (`kern` for kernel sockets).
            first_error socket_post_create(sock: *mut c::socket, family: c_int, ty: c_int, protocol: c_int,
                    kern: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), family: i32 = family, ty: i32 = ty,
                    protocol: i32 = protocol, kern: bool = kern != 0) -> Result = Ok(());
            /// May `sock` be bound to `address`?
            first_error socket_bind(sock: *mut c::socket, address: *mut c::sockaddr, addrlen: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), address: &[u8] = sockaddr_bytes(address, addrlen))
                -> Result = Ok(());
            /// May `sock` listen?
            first_error socket_listen(sock: *mut c::socket, backlog: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), backlog: i32 = backlog) -> Result = Ok(());
            /// May `sock`'s own address be read (`getsockname(2)`)?
            first_error socket_getsockname(sock: *mut c::socket) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock)) -> Result = Ok(());
            /// May `sock`'s peer's address be read (`getpeername(2)`)?
            first_error socket_getpeername(sock: *mut c::socket) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock)) -> Result = Ok(());
            /// May option `optname` at `level` of `sock` be read?
            first_error socket_getsockopt(sock: *mut c::socket, level: c_int, optname: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), level: i32 = level, optname: i32 = optname)
                -> Result = Ok(());
            /// Appends to `out` the label of the peer of stream socket
            /// `sock`, for `getsockopt(SO_PEERSEC)`. The default,
            /// `ENOPROTOOPT`, means "not mine": the next submodule is asked,
            /// and if none answers, so is the caller.
            first_claim socket_getpeersec_stream(sock: *mut c::socket, optval: c::sockptr_t, optlen: c::sockptr_t,
                    len: c_uint) -> c_int
                => (cx: &crate::context::MaySleep, sock: &Socket, out: &mut AttrValue) -> Result = Err(ENOPROTOOPT);
            /// May option `optname` at `level` of `sock` be set?
            first_error socket_setsockopt(sock: *mut c::socket, level: c_int, optname: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), level: i32 = level, optname: i32 = optname)
                -> Result = Ok(());
            /// May `sock` be shut down (`how`: `SHUT_RD`, `SHUT_WR`,
            /// `SHUT_RDWR`)?
            first_error socket_shutdown(sock: *mut c::socket, how: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), how: i32 = how) -> Result = Ok(());
            /// May the message being sent on netlink socket `sk` go to the
            /// kernel (`netlink_sendmsg()`)?
            first_error netlink_send(sk: *mut c::sock, skb: *mut c::sk_buff) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sk: &Sock = Sock::from_raw(sk)) -> Result = Ok(());
            /// May the new sockets `a` and `b` be connected as a pair
            /// (`socketpair(2)`)?
            first_error socket_socketpair(socka: *mut c::socket, sockb: *mut c::socket) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), a: &Socket = Socket::from_raw(socka), b: &Socket = Socket::from_raw(sockb))
                -> Result = Ok(());
            /// `sk` was grafted onto the socket `parent`: an accepted
            /// connection (`sock_graft()`, under the socket's callback lock
            /// with bottom halves off) or a socket some families make
            /// (af_alg, LLC). The point to give an accepted socket its
            /// label. Must not sleep.
            every sock_graft(sk: *mut c::sock, parent: *mut c::socket)
                => (sk: &Sock = Sock::from_raw(sk), parent: &Socket = Socket::from_raw(parent));
            /// May `sock` accept a connection? `new` has no `sock` yet.
            first_error socket_accept(sock: *mut c::socket, new: *mut c::socket) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), new: &Socket = Socket::from_raw(new)) -> Result = Ok(());
            /// May `size` bytes be sent on `sock`?
            first_error socket_sendmsg(sock: *mut c::socket, msg: *mut c::msghdr, size: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), size: i32 = size) -> Result = Ok(());
            /// May `size` bytes be received on `sock`?
            first_error socket_recvmsg(sock: *mut c::socket, msg: *mut c::msghdr, size: c_int, flags: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), sock: &Socket = Socket::from_raw(sock), size: i32 = size, flags: i32 = flags) -> Result = Ok(());
            /// A `struct sock` of `family` is being set up; only its blob is
            /// reachable. May run in softirq context (a socket cloned for
            /// an incoming connection): must not sleep.
            first_error sk_alloc_security(sk: *mut c::sock, family: c_int, priority: c::gfp_t) -> c_int
                => (sk: &SockSecurity = SockSecurity::from_raw(sk), family: i32 = family) -> Result = Ok(());
            /// A `struct sock` is being freed, possibly half built; only its
            /// blob is reachable. May run in softirq context: must not sleep.
            every sk_free_security(sk: *mut c::sock)
                => (sk: &SockSecurity = SockSecurity::from_raw(sk));
            /// `new`, a copy of `sk` (`sk_clone_lock()`: an accepted TCP
            /// connection's socket, made from its listener), was made: the
            /// point to copy the listener's state. (Softirq context, `new`
            /// locked: must not sleep.)
            every sk_clone_security(sk: *const c::sock, newsk: *mut c::sock)
                => (sk: &Sock = Sock::from_raw(sk), new: &Sock = Sock::from_raw(newsk));
            /// `new`, the socket of a connection a listener accepts, was
            /// cloned from the request (`inet_csk_clone_lock()`): the point
            /// to label it from the peer's request. (Softirq context: must
            /// not sleep.)
            every inet_csk_clone(newsk: *mut c::sock, req: *const c::request_sock)
                => (new: &Sock = Sock::from_raw(newsk));
            /// `sk`'s outgoing TCP connection was established (the peer's
            /// SYN-ACK arrived, `tcp_finish_connect()`). (Softirq context:
            /// must not sleep.)
            every inet_conn_established(sk: *mut c::sock, skb: *mut c::sk_buff)
                => (sk: &Sock = Sock::from_raw(sk));
            /// May the Unix socket `other`, bound at `path`, be found by
            /// name (`connect(2)`, `sendto(2)`; `flags` as `SOCK_*`)?
            first_error unix_find(path: *const c::path, other: *mut c::sock, flags: c_int) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), path: &Path = Path::from_raw(path), other: &Sock = Sock::from_raw(other), flags: i32 = flags)
                -> Result = Ok(());
            /// May Unix stream socket `sock` connect to `other` (`new` is
            /// the server's end of the new connection)? (Under `sock`'s
            /// `unix_state_lock`: must not sleep.)
            first_error unix_stream_connect(sock: *mut c::sock, other: *mut c::sock, new: *mut c::sock) -> c_int
                => (sock: &Sock = Sock::from_raw(sock), other: &Sock = Sock::from_raw(other),
                    new: &Sock = Sock::from_raw(new)) -> Result = Ok(());
            /// May Unix datagram socket `sock` send to `other`? (Under
            /// `other`'s `unix_state_lock`: must not sleep.)
            first_error unix_may_send(sock: *mut c::socket, other: *mut c::socket) -> c_int
                => (sock: &Socket = Socket::from_raw(sock), other: &Socket = Socket::from_raw(other))
                -> Result = Ok(());

            // IPC.
            /// May `flag` access be made to the IPC object? (`ipcperms()`,
            /// often under RCU or the object's lock: must not sleep.)
            first_error ipc_permission(ipcp: *mut c::kern_ipc_perm, flag: c_short) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(ipcp), flag: i16 = flag) -> Result = Ok(());
            /// A message queue is being set up.
            first_error msg_queue_alloc_security(perm: *mut c::kern_ipc_perm) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), ipc: &IpcPerm = IpcPerm::from_raw(perm)) -> Result = Ok(());
            /// A message queue is being freed.
            /// (From an RCU callback: must not sleep.)
            every msg_queue_free_security(perm: *mut c::kern_ipc_perm)
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm));
            /// A shared memory segment is being set up.
            first_error shm_alloc_security(perm: *mut c::kern_ipc_perm) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), ipc: &IpcPerm = IpcPerm::from_raw(perm)) -> Result = Ok(());
            /// A shared memory segment is being freed.
            /// (From an RCU callback: must not sleep.)
            every shm_free_security(perm: *mut c::kern_ipc_perm)
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm));
            /// A semaphore set is being set up.
            first_error sem_alloc_security(perm: *mut c::kern_ipc_perm) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), ipc: &IpcPerm = IpcPerm::from_raw(perm)) -> Result = Ok(());
            /// A semaphore set is being freed.
            /// (From an RCU callback: must not sleep.)
            every sem_free_security(perm: *mut c::kern_ipc_perm)
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm));
            /// May the existing message queue be looked up (`msgget(2)`)?
            /// (Under the IPC object's spinlock: must not sleep.)
            first_error msg_queue_associate(perm: *mut c::kern_ipc_perm, msqflg: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), flag: i32 = msqflg) -> Result = Ok(());
            /// May the existing shared memory segment be looked up?
            /// (Under the IPC object's spinlock: must not sleep.)
            first_error shm_associate(perm: *mut c::kern_ipc_perm, shmflg: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), flag: i32 = shmflg) -> Result = Ok(());
            /// May the existing semaphore set be looked up?
            /// (Under the IPC object's spinlock: must not sleep.)
            first_error sem_associate(perm: *mut c::kern_ipc_perm, semflg: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), flag: i32 = semflg) -> Result = Ok(());
            /// May `cmd` be run on the message queue (`msgctl(2)`)? `None`
            /// for the commands about all queues (`IPC_INFO`, `MSG_INFO`).
            /// (Under RCU for a queue: must not sleep.)
            first_error msg_queue_msgctl(perm: *mut c::kern_ipc_perm, cmd: c_int) -> c_int
                => (ipc: Option<&IpcPerm> = IpcPerm::from_raw_opt(perm), cmd: i32 = cmd) -> Result = Ok(());
            /// May `cmd` be run on the shared memory segment (`shmctl(2)`)?
            /// `None` for the commands about all segments (`IPC_INFO`,
            /// `SHM_INFO`). (Under RCU for a segment: must not sleep.)
            first_error shm_shmctl(perm: *mut c::kern_ipc_perm, cmd: c_int) -> c_int
                => (ipc: Option<&IpcPerm> = IpcPerm::from_raw_opt(perm), cmd: i32 = cmd) -> Result = Ok(());
            /// May the shared memory segment be attached (`shmat(2)`, with
            /// `SHM_RDONLY` and the other `flag`s)? (Under RCU: must not
            /// sleep.)
            first_error shm_shmat(perm: *mut c::kern_ipc_perm, shmaddr: *mut c_char, shmflg: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), flag: i32 = shmflg) -> Result = Ok(());
            /// May `cmd` be run on the semaphore set (`semctl(2)`)? `None`
            /// for the commands about all sets (`IPC_INFO`, `SEM_INFO`).
            /// (Under RCU for a set: must not sleep.)
            first_error sem_semctl(perm: *mut c::kern_ipc_perm, cmd: c_int) -> c_int
                => (ipc: Option<&IpcPerm> = IpcPerm::from_raw_opt(perm), cmd: i32 = cmd) -> Result = Ok(());
            /// May `nsops` operations be run on the semaphore set
            /// (`semop(2)`), `alter`ing it or only waiting for values?
            /// (Under RCU: must not sleep.)
            first_error sem_semop(perm: *mut c::kern_ipc_perm, sops: *mut c::sembuf, nsops: c_uint, alter: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), nsops: u32 = nsops, alter: bool = alter != 0)
                -> Result = Ok(());
            /// May `msg` be sent to the queue?
            /// (Under the queue's spinlock: must not sleep.)
            first_error msg_queue_msgsnd(perm: *mut c::kern_ipc_perm, msg: *mut c::msg_msg, msqflg: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), msg: &MsgMsg = MsgMsg::from_raw(msg),
                    flag: i32 = msqflg) -> Result = Ok(());
            /// May `target` receive `msg` from the queue?
            /// (Under the queue's spinlock: must not sleep.)
            first_error msg_queue_msgrcv(perm: *mut c::kern_ipc_perm, msg: *mut c::msg_msg, target: *mut c::task_struct,
                    ty: c_long, mode: c_int) -> c_int
                => (ipc: &IpcPerm = IpcPerm::from_raw(perm), msg: &MsgMsg = MsgMsg::from_raw(msg),
                    target: &Task = Task::from_raw(target), ty: i64 = ty as i64, mode: i32 = mode)
                -> Result = Ok(());
            /// A message is being set up; only its blob is reachable.
            first_error msg_msg_alloc_security(msg: *mut c::msg_msg) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), msg: &MsgMsgSecurity = MsgMsgSecurity::from_raw(msg)) -> Result = Ok(());
            /// A message is being freed, possibly half built; only its blob
            /// is reachable.
            every msg_msg_free_security(msg: *mut c::msg_msg)
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), msg: &MsgMsgSecurity = MsgMsgSecurity::from_raw(msg));

            // Keys.
            /// A key is being set up for `cred` (`flags` as `KEY_ALLOC_*`).
            first_error key_alloc(key: *mut c::key, cred: *const c::cred, flags: c_ulong) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), key: &Key = Key::from_raw(key), cred: &Cred = Cred::from_raw(cred), flags: u64 = flags as u64)
                -> Result = Ok(());
            /// May `cred` use the key for `need` (`enum key_need_perm`)?
            /// (Often under RCU: must not sleep.)
            first_error key_permission(key_ref: c::key_ref_t, cred: *const c::cred, need: c::key_need_perm) -> c_int
                => (key: &Key = Key::from_ref(key_ref), cred: &Cred = Cred::from_raw(cred), need: u32 = need as u32)
                -> Result = Ok(());

            // Kernel reads.
            /// May the kernel read `file` for `id` (`enum kernel_read_file_id`)?
            /// `contents` is false when only the file, not its contents,
            /// will be seen (`kernel_post_read_file` will not follow).
            first_error kernel_read_file(file: *mut c::file, id: c::kernel_read_file_id, contents: bool) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), id: u32 = id as u32, contents: bool = contents)
                -> Result = Ok(());
            /// The kernel read `buf` from `file` for `id`: the measure and
            /// appraise point of integrity modules.
            first_error kernel_post_read_file(file: *mut c::file, buf: *mut c_char, size: c::loff_t,
                    id: c::kernel_read_file_id) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), file: &File = File::from_raw(file), buf: &[u8] = c_slice(buf.cast(), usize::try_from(size).unwrap_or(0)),
                    id: u32 = id as u32) -> Result = Ok(());
            /// May the kernel load data for `id` (`enum kernel_load_data_id`)
            /// from memory rather than a file?
            first_error kernel_load_data(id: c::kernel_load_data_id, contents: bool) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), id: u32 = id as u32, contents: bool = contents) -> Result = Ok(());
            /// The kernel loaded `buf` from memory for `id`.
            first_error kernel_post_load_data(buf: *mut c_char, size: c::loff_t, id: c::kernel_load_data_id,
                    description: *mut c_char) -> c_int
                => (cx: &crate::context::MaySleep = &crate::context::MaySleep::new(), buf: &[u8] = c_slice(buf.cast(), usize::try_from(size).unwrap_or(0)), id: u32 = id as u32,
                    description: &[u8] = c_bytes_opt(description).unwrap_or(&[])) -> Result = Ok(());

            // Labels as numbers (secids), for audit records, SCM_SECURITY and
            // the other users of `struct lsm_prop` (`core/lsm_prop.rs`). A
            // label-bearing submodule is one that implements
            // `secid_to_secctx`; each has a slot of its own in
            // `struct lsm_prop_stacker`. (Audit calls these from any
            // context, IPC's under the object's lock: must not sleep.)
            /// The secid of `cred`'s label, for its slot.
            lsmprop cred_getlsmprop(c: *const c::cred, prop: *mut c::lsm_prop)
                => (cred: &Cred) -> Option<Secid> = None;
            /// The secid of the current task's subjective label, for its
            /// slot.
            lsmprop current_getlsmprop_subj(prop: *mut c::lsm_prop)
                => (cred: &Cred) -> Option<Secid> = None;
            /// The secid of `task`'s objective label, for its slot.
            lsmprop task_getlsmprop_obj(p: *mut c::task_struct, prop: *mut c::lsm_prop)
                => (task: &Task) -> Option<Secid> = None;
            /// The secid of `inode`'s label, for its slot.
            lsmprop inode_getlsmprop(inode: *mut c::inode, prop: *mut c::lsm_prop)
                => (inode: &Inode) -> Option<Secid> = None;
            /// The secid of `ipc`'s label, for its slot.
            lsmprop ipc_getlsmprop(ipcp: *mut c::kern_ipc_perm, prop: *mut c::lsm_prop)
                => (ipc: &IpcPerm) -> Option<Secid> = None;
            /// Appends to `out` the context text of `secid`, one of the
            /// submodule's own. The default, `EOPNOTSUPP`, means the
            /// submodule bears no labels. A bare secid (`SCM_SECURITY`,
            /// netfilter) is the chain's primary label-bearing submodule's:
            /// only that one is asked.
            primary_label secid_to_secctx(secid: u32, cp: *mut c::lsm_context) -> c_int
                => (secid: Secid, out: &mut SecCtx) -> Result = Err(EOPNOTSUPP);
            /// The context text of a `struct lsm_prop`: one entry point per
            /// label-bearing submodule of the chain, each under an LSM id of
            /// the submodule's own, answered from its slot by its
            /// `secid_to_secctx` (no method of its own).
            secctx_by_slot lsmprop_to_secctx(prop: *mut c::lsm_prop, cp: *mut c::lsm_context) -> c_int
                => () -> Result = Err(EOPNOTSUPP);
            /// Frees a context text that stacker made (no method of its
            /// own).
            secctx_release release_secctx(cp: *mut c::lsm_context)
                => () -> Result = Ok(());
            /// The secid of the label of a datagram's sender, for
            /// `SCM_SECURITY`: `sock` is the sending Unix socket, or `None`
            /// for an IP packet. The default, `ENOPROTOOPT`, means "none".
            /// Only the primary label-bearing submodule is asked.
            primary_label socket_getpeersec_dgram(sock: *mut c::socket, skb: *mut c::sk_buff, secid: *mut u32) -> c_int
                => (sock: Option<&Socket>) -> Result<Secid> = Err(ENOPROTOOPT);

            // Audit rules on labels (`auditctl -F subj_type=TYPE`, IMA's
            // `obj_type=`). The LSM core keeps one rule pointer for all
            // LSMs, which would read each other's rules, so stacker makes
            // rules only when no other active LSM does (SELinux, Smack,
            // AppArmor), and then only its primary label-bearing submodule
            // is asked (`core/lsm_prop.rs`).
            /// The value of the rule that `field` (`AUDIT_SUBJ_TYPE`, ...)
            /// `op` (`Audit_equal`, ...) `text` makes, which
            /// `audit_rule_match` gets back; `EINVAL` for a rule the
            /// submodule cannot make. (From adding a rule or loading IMA's
            /// policy: process context.)
            audit_rule audit_rule_init(field: u32, op: u32, rulestr: *mut c_char, lsmrule: *mut *mut c_void,
                    gfp: c::gfp_t) -> c_int
                => (field: u32, op: u32, text: &[u8]) -> Result<u64> = Err(EINVAL);
            /// Whether the label `secid` (of a record's subject or object)
            /// matches the rule of `field`, `op` and `value`. (From audit's
            /// filters, under RCU: must not sleep.)
            audit_rule audit_rule_match(prop: *mut c::lsm_prop, field: u32, op: u32, lsmrule: *mut c_void) -> c_int
                => (secid: Secid, field: u32, op: u32, value: u64) -> Result<bool> = Ok(false);
            /// Frees a rule stacker made (no method of its own; possibly
            /// from an RCU callback: must not sleep).
            audit_rule_release audit_rule_free(lsmrule: *mut c_void)
                => () -> Result = Ok(());
            /// Whether `krule` has a label field, which a policy load makes
            /// anew (`audit_update_lsm_rules()`), as
            /// `selinux_audit_rule_known()` (no method of its own; under
            /// the audit filter mutex).
            audit_rule_release audit_rule_known(krule: *mut c::audit_krule) -> c_int
                => () -> Result = Ok(());

            // Process attributes.
            /// The value of `/proc/PID/attr/NAME` for `task`, appended to
            /// `out` (which holds the `NAME:` prefix when the call answers
            /// `lsm_get_self_attr(2)`). The default, `EINVAL`, means "not
            /// mine": the next submodule is asked.
            procattr_get getprocattr(p: *mut c::task_struct, name: *const c_char, value: *mut *mut c_char) -> c_int
                => (cx: &crate::context::MaySleep, task: &Task, name: &[u8], out: &mut AttrValue) -> Result = Err(EINVAL);
            /// A write of `value` to `/proc/self/attr/NAME`; returns how many
            /// bytes were used. The default, `EINVAL`, means "not mine".
            procattr_set setprocattr(name: *const c_char, value: *mut c_void, size: usize) -> c_int
                => (cx: &crate::context::MaySleep, name: &[u8], value: &[u8]) -> Result<usize> = Err(EINVAL);
            /// The current task's attribute `attr` (`LSM_ATTR_*`), for
            /// `lsm_get_self_attr(2)`: one entry under stacker's LSM id for
            /// each submodule whose `getprocattr` answers for the
            /// attribute's name, `NAME:value`, in chain order (the first
            /// only with `LSM_FLAG_SINGLE`).
            selfattr_get getselfattr(attr: c_uint, ctx: *mut c::lsm_ctx, size: *mut u32, flags: u32) -> c_int
                => () -> Result = Err(EOPNOTSUPP);
            /// `lsm_set_self_attr(2)` with stacker's LSM id: a value
            /// `NAME:rest` goes to submodule `NAME`'s `setprocattr`.
            selfattr_set setselfattr(attr: c_uint, ctx: *mut c::lsm_ctx, size: u32, flags: u32) -> c_int
                => () -> Result = Err(EOPNOTSUPP);
        }
    };
}
pub(crate) use hook_table;
