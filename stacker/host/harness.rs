// SPDX-License-Identifier: GPL-2.0

//! A test harness that boots a chain on the host and drives the real
//! dispatch code with in-memory objects.
//!
//! It does what the kernel's LSM core and VFS do around stacker: a hook is
//! only called when the chain registered it (some enabled submodule
//! implements it), objects get zeroed blobs sized by the boot layout, and
//! the usual operations call the hooks in the kernel's order.
//!
//! ```ignore
//! let h = Harness::boot("xattrlock")?;
//! let file = h.create("secret")?;
//! h.setxattr(&file, b"user.xattrlock", b"locked")?;
//! assert_eq!(h.open(&file).err(), Some(EACCES));
//! ```

use crate::access::{may, AccessMask};
use crate::chain::{BootState, ChainSpec};
use crate::error::Result;
use crate::hook::Hook;
use crate::layout::LayoutError;
use crate::objects::{
    Binprm, CommittedBinprm, Cred, Dentry, DentryView, File, Inode, InodeBlob, PreparedCred,
};
use crate::registry::{self, HOOK_SETS, NAMES, REQUESTS};
use std::cell::Cell;
use std::sync::Arc;

/// A booted chain on the host.
pub(crate) struct Harness {
    root: Arc<Inode>,
    next_ino: Cell<u64>,
}

/// The proof that a hook may sleep, for the host model's calls of the
/// hooks that the kernel calls where they may ([`MaySleep`]).
pub(crate) fn cx() -> crate::context::MaySleep {
    // SAFETY: the host model calls each of these hooks as the kernel does,
    // from a plain thread holding no lock (its RCU read section, the one
    // atomic section it has, panics on any sleeping call).
    unsafe { crate::context::MaySleep::new() }
}

impl Harness {
    /// Boots `chain` (as in `stacker.chain=`). Hooks go through the loop
    /// tier; tests of the other tiers call `dispatch` with their chain type.
    pub(crate) fn boot(chain: &str) -> core::result::Result<Harness, LayoutError> {
        Harness::boot_failing(chain, None)
    }

    /// Boots `chain` with the init of registry index `fail` failing, as
    /// `stacker.fail_init=` does: as in the kernel (`stacker_main.rs`), a
    /// submodule whose init fails is left out of the chain, with its slots
    /// kept, and the rest start.
    pub(crate) fn boot_failing(
        chain: &str,
        fail: Option<u8>,
    ) -> core::result::Result<Harness, LayoutError> {
        let spec = ChainSpec::parse(chain.as_bytes(), NAMES);
        let state = BootState::new(spec, REQUESTS, HOOK_SETS)?;
        crate::platform::set_boot(state);
        registry::init_enabled(state.chain.order(), fail, |m, _| {
            crate::platform::set_boot(crate::platform::boot().without(m, HOOK_SETS))
        });
        registry::securityfs_init_enabled(&crate::platform::Dir::stacker_root())
            .map_err(|_| LayoutError::BadChain)?;
        Ok(Harness {
            root: Arc::new(Inode::new(1, true)),
            next_ino: Cell::new(2),
        })
    }

    /// Whether the chain registered `hook`.
    pub(crate) fn registered(&self, hook: Hook) -> bool {
        crate::platform::boot().wants(hook)
    }

    /// Runs `call` if `hook` is registered; otherwise the LSM default (0).
    pub(crate) fn int_hook(&self, hook: Hook, call: impl FnOnce() -> Result) -> Result {
        if self.registered(hook) {
            call()
        } else {
            Ok(())
        }
    }

    /// Allocates an inode, calling `inode_alloc_security`.
    pub(crate) fn new_inode(&self, dir: bool) -> Result<Arc<Inode>> {
        let ino = self.next_ino.get();
        self.next_ino.set(ino + 1);
        let inode = Arc::new(Inode::new(ino, dir));
        self.int_hook(Hook::inode_alloc_security, || {
            crate::dispatch::inode_alloc_security::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &inode,
            )
        })?;
        Ok(inode)
    }

    /// Creates a regular file `name` in the root directory.
    pub(crate) fn create(&self, name: &str) -> Result<Arc<Dentry>> {
        let negative = Dentry {
            name: name.as_bytes().to_vec(),
            inode: None,
        };
        self.int_hook(Hook::inode_create, || {
            crate::dispatch::inode_create::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &self.root,
                &negative,
                0o100644,
            )
        })?;
        let inode = self.new_inode(false)?;
        // As `d_instantiate()`: the hook runs before the dentry has the
        // inode.
        if self.registered(Hook::d_instantiate) {
            crate::dispatch::d_instantiate::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &negative,
                Some(&inode),
            );
        }
        Ok(Arc::new(Dentry {
            name: negative.name,
            inode: Some(inode),
        }))
    }

    /// Opens `dentry` for reading: `inode_permission`, `file_alloc_security`
    /// and `file_open`, as `do_dentry_open()` does. When the open fails
    /// after the file was allocated, the file is freed again
    /// (`file_free_security`), as the kernel does.
    pub(crate) fn open(&self, dentry: &Arc<Dentry>) -> Result<Arc<File>> {
        let inode = dentry.inode.clone().ok_or(crate::error::ENOENT)?;
        self.int_hook(Hook::inode_permission, || {
            crate::dispatch::inode_permission::<crate::dispatch::Loop>(
                &inode,
                AccessMask(may::READ),
            )
        })?;
        let file = Arc::new(File::new(dentry.clone(), inode));
        let opened = self
            .int_hook(Hook::file_alloc_security, || {
                crate::dispatch::file_alloc_security::<crate::dispatch::Loop>(
                    &crate::harness::cx(),
                    file.security(),
                )
            })
            .and_then(|()| {
                self.int_hook(Hook::file_open, || {
                    crate::dispatch::file_open::<crate::dispatch::Loop>(
                        &crate::harness::cx(),
                        &file,
                    )
                })
            });
        if let Err(err) = opened {
            self.close(file);
            return Err(err);
        }
        Ok(file)
    }

    /// Closes `file`: `file_free_security`, with only the file's blob.
    pub(crate) fn close(&self, file: Arc<File>) {
        if self.registered(Hook::file_free_security) {
            crate::dispatch::file_free_security::<crate::dispatch::Loop>(file.security());
        }
        drop(file);
    }

    /// Frees `inode`: `inode_free_security` with the inode, then, as after
    /// an RCU grace period, `inode_free_security_rcu` with only its blob.
    /// Returns `ENOENT` (and frees nothing) while the inode is still in use.
    pub(crate) fn free_inode(&self, inode: Arc<Inode>) -> Result {
        if self.registered(Hook::inode_free_security) {
            crate::dispatch::inode_free_security::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &inode,
            );
        }
        let blob = Arc::try_unwrap(inode)
            .map_err(|_| crate::error::ENOENT)?
            .into_blob();
        if self.registered(Hook::inode_free_security_rcu) {
            crate::dispatch::inode_free_security_rcu::<crate::dispatch::Loop>(&InodeBlob {
                blob: &blob,
            });
        }
        Ok(())
    }

    /// Sets xattr `name` of `dentry` to `value`, if `inode_setxattr` allows.
    pub(crate) fn setxattr(&self, dentry: &Dentry, name: &[u8], value: &[u8]) -> Result {
        self.int_hook(Hook::inode_setxattr, || {
            crate::dispatch::inode_setxattr::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                dentry,
                name,
                value,
                0,
            )
        })?;
        if let Some(inode) = dentry.inode() {
            inode
                .xattrs
                .borrow_mut()
                .insert(name.to_vec(), value.to_vec());
        }
        if self.registered(Hook::inode_post_setxattr) {
            crate::dispatch::inode_post_setxattr::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                dentry,
                name,
                value,
                0,
            );
        }
        Ok(())
    }

    /// Removes xattr `name` of `dentry`, if `inode_removexattr` allows.
    pub(crate) fn removexattr(&self, dentry: &Dentry, name: &[u8]) -> Result {
        self.int_hook(Hook::inode_removexattr, || {
            crate::dispatch::inode_removexattr::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                dentry,
                name,
            )
        })?;
        if let Some(inode) = dentry.inode() {
            inode.xattrs.borrow_mut().remove(name);
        }
        if self.registered(Hook::inode_post_removexattr) {
            crate::dispatch::inode_post_removexattr::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                dentry,
                name,
            );
        }
        Ok(())
    }

    /// Unlinks `dentry` from the root directory, if `inode_unlink` allows.
    pub(crate) fn unlink(&self, dentry: &Dentry) -> Result {
        self.int_hook(Hook::inode_unlink, || {
            crate::dispatch::inode_unlink::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &self.root,
                dentry,
            )
        })
    }

    /// Executes `dentry` from a process with credentials `parent`, in the
    /// kernel's order: prepares the new credentials (`cred_prepare`), runs
    /// `bprm_creds_for_exec` with them; then, as the capability module does
    /// in `bprm_creds_from_file`, computes the new sets (kept from `parent`;
    /// for a setuid-root file, effective uid 0 and every capability) and
    /// runs the LSM `bprm_creds_from_file` hook after it; commits the
    /// credentials and runs `bprm_committed_creds`. Returns the new
    /// credentials.
    pub(crate) fn exec(
        &self,
        dentry: &Arc<Dentry>,
        parent: &Cred,
        setuid_root: bool,
    ) -> Result<Cred> {
        let inode = dentry.inode.clone().ok_or(crate::error::ENOENT)?;
        let file = Arc::new(File::new(dentry.clone(), inode));
        let mut cred = Cred::new(parent.uid);
        cred.euid = parent.euid;
        cred.gid = parent.gid;
        cred.caps.set(parent.caps.get());
        cred.ambient.set(parent.ambient.get());
        self.int_hook(Hook::cred_prepare, || {
            crate::dispatch::cred_prepare::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &cred,
                parent,
            )
        })?;
        let bprm = Binprm::new(file, Arc::new(cred));
        self.int_hook(Hook::bprm_creds_for_exec, || {
            crate::dispatch::bprm_creds_for_exec::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &bprm,
            )
        })?;
        let Binprm { file, cred, .. } = bprm;
        let mut cred = Arc::try_unwrap(cred).map_err(|_| crate::error::EINVAL)?;
        if setuid_root {
            cred.euid = 0;
            cred.caps.set([crate::objects::KernelCap((1 << 41) - 1); 3]);
        }
        self.int_hook(Hook::bprm_creds_from_file, || {
            crate::dispatch::bprm_creds_from_file::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &PreparedCred { cred: &cred },
                &file,
            )
        })?;
        if self.registered(Hook::bprm_committed_creds) {
            crate::dispatch::bprm_committed_creds::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &CommittedBinprm { file },
            );
        }
        Ok(cred)
    }

    /// `setresuid(uid, uid, uid)` by a process with `PR_SET_KEEPCAPS`: a
    /// copy of `old` (`cred_prepare`) with the new ids and the same
    /// capability sets, then `task_fix_setuid`, as `__sys_setresuid()` does
    /// after the capability module kept the sets. Returns the new
    /// credentials.
    pub(crate) fn setuid_keepcaps(&self, old: &Cred, uid: u32) -> Result<Cred> {
        let cred = Cred::new(uid);
        cred.caps.set(old.caps.get());
        cred.ambient.set(old.ambient.get());
        self.int_hook(Hook::cred_prepare, || {
            crate::dispatch::cred_prepare::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &cred,
                old,
            )
        })?;
        self.int_hook(Hook::task_fix_setuid, || {
            crate::dispatch::task_fix_setuid::<crate::dispatch::Loop>(
                &crate::harness::cx(),
                &PreparedCred { cred: &cred },
                old,
                0,
            )
        })?;
        Ok(cred)
    }

    /// `capable(cap)` for `cred`, as the LSM core calls it after the
    /// capability module agreed.
    pub(crate) fn capable(&self, cred: &Cred, cap: u32) -> Result {
        self.capable_in(cred, true, cap, 0)
    }

    /// `ns_capable_opts()` for `cred`: capability `cap` in the initial
    /// user namespace or (`initial_ns` false) another, with `opts`
    /// (`CAP_OPT_*`).
    pub(crate) fn capable_in(&self, cred: &Cred, initial_ns: bool, cap: u32, opts: u32) -> Result {
        self.int_hook(Hook::capable, || {
            crate::dispatch::capable::<crate::dispatch::Loop>(cred, initial_ns, cap as i32, opts)
        })
    }

    /// New credentials of `uid`, prepared from `parent` when given.
    pub(crate) fn cred(&self, uid: u32, parent: Option<&Cred>) -> Result<Cred> {
        let cred = Cred::new(uid);
        match parent {
            Some(old) => self.int_hook(Hook::cred_prepare, || {
                crate::dispatch::cred_prepare::<crate::dispatch::Loop>(
                    &crate::harness::cx(),
                    &cred,
                    old,
                )
            })?,
            None => self.int_hook(Hook::cred_alloc_blank, || {
                crate::dispatch::cred_alloc_blank::<crate::dispatch::Loop>(
                    &crate::harness::cx(),
                    &cred,
                )
            })?,
        }
        Ok(cred)
    }
}
