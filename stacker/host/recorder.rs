// SPDX-License-Identifier: GPL-2.0

//! `rec_*`: host-only test submodules that implement every hook, record
//! each call, and return what the test told them to.

use crate::blob::HasBlob;
use crate::error::{Error, Result, EINVAL};
use crate::hook::{Hook, HookSet};
use crate::objects::{
    AccessMask, Binprm, CommittedBinprm, Cred, Dentry, File, FileSecurity, Inode, IpcPerm,
    KernelCap, MmapAddr, PreparedCred, ProcAttrValue, Socket, Task, Vma, XattrValue,
};
use crate::submodule::{Registered, Submodule};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::CStr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

thread_local! {
    static LOG: RefCell<Vec<(&'static str, Hook)>> = const { RefCell::new(Vec::new()) };
    static ANSWERS: RefCell<BTreeMap<(usize, u8), Error>> = const { RefCell::new(BTreeMap::new()) };
    static SEEN: RefCell<Vec<(&'static str, Hook, u64)>> = const { RefCell::new(Vec::new()) };
}

/// The state values recorders saw in their free hooks (name, hook, value),
/// and clears them.
pub(crate) fn take_seen() -> Vec<(&'static str, Hook, u64)> {
    SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// Makes recorder `instance` answer `hook` with `err`.
pub(crate) fn answer(instance: usize, hook: Hook, err: Error) {
    ANSWERS.with(|a| a.borrow_mut().insert((instance, hook as u8), err));
}

/// The calls recorded so far on this thread, and clears them.
pub(crate) fn take_log() -> Vec<(&'static str, Hook)> {
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// Clears the log and the configured answers.
pub(crate) fn reset() {
    LOG.with(|l| l.borrow_mut().clear());
    ANSWERS.with(|a| a.borrow_mut().clear());
    SEEN.with(|s| s.borrow_mut().clear());
}

/// Recorder instance `I`.
pub(crate) struct Recorder<const I: usize>;

const NAMES: [&CStr; 8] = [
    c"rec_a", c"rec_b", c"rec_c", c"rec_d", c"rec_e", c"rec_f", c"rec_g", c"rec_h",
];

impl<const I: usize> Recorder<I>
where
    Self: Registered,
{
    fn name() -> &'static str {
        Self::NAME.to_str().unwrap_or("?")
    }

    fn see(hook: Hook, value: u64) {
        SEEN.with(|s| s.borrow_mut().push((Self::name(), hook, value)));
    }

    /// The tag this instance writes into its file and inode state: its
    /// instance number plus 0x100, never 0.
    pub(crate) const TAG: u64 = 0x100 + I as u64;

    fn call(hook: Hook) -> Result {
        LOG.with(|l| l.borrow_mut().push((Self::name(), hook)));
        match ANSWERS.with(|a| a.borrow().get(&(I, hook as u8)).copied()) {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// Writes `value` into this instance's state in `inode`.
    pub(crate) fn tag_inode(inode: &Inode, value: u64) -> bool {
        inode
            .state::<Self>()
            .map(|s| s.store(value, Ordering::Relaxed))
            .is_some()
    }

    /// Reads this instance's state in `inode`.
    pub(crate) fn inode_tag(inode: &Inode) -> Option<u64> {
        inode.state::<Self>().map(|s| s.load(Ordering::Relaxed))
    }

    /// Writes `value` into this instance's state in `cred`.
    pub(crate) fn tag_cred(cred: &Cred, value: u32) -> bool {
        cred.state::<Self>()
            .map(|s| s.store(value, Ordering::Relaxed))
            .is_some()
    }

    /// Reads this instance's state in `cred`.
    pub(crate) fn cred_tag(cred: &Cred) -> Option<u32> {
        cred.state::<Self>().map(|s| s.load(Ordering::Relaxed))
    }
}

impl<const I: usize> Submodule for Recorder<I>
where
    Self: Registered,
{
    const NAME: &'static CStr = NAMES[I];
    const HOOKS: HookSet = HookSet::of(Hook::ALL);
    const XATTR_COUNT: u32 = 1;

    crate::submodule::blob_states! {
        inode: AtomicU64,
        cred: AtomicU32,
        file: AtomicU32,
        ipc: AtomicU64,
    }

    fn file_open(&self, _: &File) -> Result {
        Self::call(Hook::FileOpen)
    }
    fn file_permission(&self, _: &File, _: AccessMask) -> Result {
        Self::call(Hook::FilePermission)
    }
    fn mmap_file(&self, _: Option<&File>, _: u64, _: u64, _: u64) -> Result {
        Self::call(Hook::MmapFile)
    }
    fn file_mprotect(&self, _: &Vma, _: u64, _: u64) -> Result {
        Self::call(Hook::FileMprotect)
    }
    fn mmap_addr(&self, _: &Cred, _: MmapAddr) -> Result {
        Self::call(Hook::MmapAddr)
    }
    fn file_alloc_security(&self, file: &FileSecurity) -> Result {
        Self::call(Hook::FileAllocSecurity)?;
        // Set up this instance's file state, as a real module would.
        if let Some(state) = file.state::<Self>() {
            state.store(Self::TAG as u32, Ordering::Relaxed);
        }
        Ok(())
    }
    fn file_free_security(&self, file: &FileSecurity) {
        let _ = Self::call(Hook::FileFreeSecurity);
        if let Some(state) = file.state::<Self>() {
            Self::see(
                Hook::FileFreeSecurity,
                u64::from(state.load(Ordering::Relaxed)),
            );
        }
    }
    fn inode_permission(&self, _: &Inode, _: AccessMask) -> Result {
        Self::call(Hook::InodePermission)
    }
    fn inode_create(&self, _: &Inode, _: &Dentry, _: u16) -> Result {
        Self::call(Hook::InodeCreate)
    }
    fn inode_unlink(&self, _: &Inode, _: &Dentry) -> Result {
        Self::call(Hook::InodeUnlink)
    }
    fn inode_rename(&self, _: &Inode, _: &Dentry, _: &Inode, _: &Dentry) -> Result {
        Self::call(Hook::InodeRename)
    }
    fn inode_link(&self, _: &Dentry, _: &Inode, _: &Dentry) -> Result {
        Self::call(Hook::InodeLink)
    }
    fn inode_mkdir(&self, _: &Inode, _: &Dentry, _: u16) -> Result {
        Self::call(Hook::InodeMkdir)
    }
    fn inode_rmdir(&self, _: &Inode, _: &Dentry) -> Result {
        Self::call(Hook::InodeRmdir)
    }
    fn inode_setxattr(&self, _: &Dentry, _: &[u8], _: &[u8], _: i32) -> Result {
        Self::call(Hook::InodeSetxattr)
    }
    fn inode_removexattr(&self, _: &Dentry, _: &[u8]) -> Result {
        Self::call(Hook::InodeRemovexattr)
    }
    fn inode_init_security(&self, _: &Inode, _: &Inode, name: &[u8]) -> Result<Option<XattrValue>> {
        Self::call(Hook::InodeInitSecurity)?;
        Ok(Some(XattrValue::new(Self::NAME, name)?))
    }
    fn inode_alloc_security(&self, _: &Inode) -> Result {
        Self::call(Hook::InodeAllocSecurity)
    }
    fn inode_free_security(&self, _: &Inode) {
        let _ = Self::call(Hook::InodeFreeSecurity);
    }
    fn inode_free_security_rcu(&self, state: &AtomicU64) {
        let _ = Self::call(Hook::InodeFreeSecurityRcu);
        Self::see(Hook::InodeFreeSecurityRcu, state.load(Ordering::Relaxed));
    }
    fn d_instantiate(&self, _: &Dentry, _: Option<&Inode>) {
        let _ = Self::call(Hook::DInstantiate);
    }
    fn cred_alloc_blank(&self, _: &Cred) -> Result {
        Self::call(Hook::CredAllocBlank)
    }
    fn cred_prepare(&self, new: &Cred, old: &Cred) -> Result {
        Self::call(Hook::CredPrepare)?;
        // Inherit the tag, as a real module would inherit its state.
        if let Some(tag) = Self::cred_tag(old) {
            Self::tag_cred(new, tag);
        }
        Ok(())
    }
    fn cred_transfer(&self, _: &Cred, _: &Cred) {
        let _ = Self::call(Hook::CredTransfer);
    }
    fn cred_free(&self, _: &Cred) {
        let _ = Self::call(Hook::CredFree);
    }
    fn bprm_creds_for_exec(&self, _: &Binprm) -> Result {
        Self::call(Hook::BprmCredsForExec)
    }
    fn bprm_creds_from_file(&self, _: &PreparedCred<'_>, _: &File) -> Result {
        Self::call(Hook::BprmCredsFromFile)
    }
    fn bprm_check_security(&self, _: &Binprm) -> Result {
        Self::call(Hook::BprmCheckSecurity)
    }
    fn bprm_committed_creds(&self, _: &CommittedBinprm) {
        let _ = Self::call(Hook::BprmCommittedCreds);
    }
    fn capable(&self, _: &Cred, _: i32, _: u32) -> Result {
        Self::call(Hook::Capable)
    }
    fn capset(&self, _: &Cred, _: &Cred, _: KernelCap, _: KernelCap, _: KernelCap) -> Result {
        Self::call(Hook::Capset)
    }
    fn ptrace_access_check(&self, _: &Task, _: u32) -> Result {
        Self::call(Hook::PtraceAccessCheck)
    }
    fn task_alloc(&self, _: &Task, _: u64) -> Result {
        Self::call(Hook::TaskAlloc)
    }
    fn task_free(&self, _: &Task) {
        let _ = Self::call(Hook::TaskFree);
    }
    fn task_kill(&self, _: &Task, _: i32, _: Option<&Cred>) -> Result {
        Self::call(Hook::TaskKill)
    }
    fn task_fix_setuid(&self, _: &PreparedCred<'_>, _: &Cred, _: i32) -> Result {
        Self::call(Hook::TaskFixSetuid)
    }
    fn task_fix_setgid(&self, _: &PreparedCred<'_>, _: &Cred, _: i32) -> Result {
        Self::call(Hook::TaskFixSetgid)
    }
    fn socket_create(&self, _: i32, _: i32, _: i32, _: bool) -> Result {
        Self::call(Hook::SocketCreate)
    }
    fn socket_connect(&self, _: &Socket, _: &[u8]) -> Result {
        Self::call(Hook::SocketConnect)
    }
    fn ipc_permission(&self, _: &IpcPerm, _: i16) -> Result {
        Self::call(Hook::IpcPermission)
    }
    fn getprocattr(&self, _: &Task, _: &[u8], out: &mut ProcAttrValue) -> Result {
        Self::call(Hook::Getprocattr)?;
        out.push_bytes(Self::NAME.to_bytes())
    }
    fn setprocattr(&self, _: &[u8], value: &[u8]) -> Result<usize> {
        Self::call(Hook::Setprocattr)?;
        if value.is_empty() {
            return Err(EINVAL);
        }
        Ok(value.len())
    }
    fn vm_enough_memory(&self, _: &Cred, _: i64) -> bool {
        Self::call(Hook::VmEnoughMemory).is_ok()
    }
}
