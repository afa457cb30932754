// SPDX-License-Identifier: GPL-2.0

//! In-memory model of the kernel objects that hooks receive.
//!
//! The same types as the kernel's wrappers (`stacker/kernel/objects/`),
//! implementing the same view traits (`core/views.rs`), so the same
//! submodule source compiles against both, and a view method one model
//! lacks fails its build. Every object that has a security blob in the
//! kernel gets a real, zeroed, 8-byte-aligned buffer here too, sized by the
//! boot layout, and submodule state lives in it at the offsets the layout
//! computed: the host tests exercise the layout, not a substitute for it.

use crate::blob::HasBlob;
use crate::context::MaySleep;
use crate::error::{Error, Result, EINVAL, ENOSPC, ERANGE};
use crate::layout::ObjectKind;
use crate::submodule::Submodule;
use std::collections::BTreeMap;
use std::ffi::CStr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// A zeroed blob buffer for one object, aligned like a `kmalloc` buffer.
pub(crate) struct Blob(Box<[u64]>);

impl Blob {
    /// stacker's slice of a `kind` blob under the current boot layout.
    pub(crate) fn new(kind: ObjectKind) -> Blob {
        let bytes = crate::platform::boot().layout.total(kind);
        Blob(vec![0u64; bytes.div_ceil(8)].into_boxed_slice())
    }

    fn ptr(&self) -> *mut u8 {
        if self.0.is_empty() {
            core::ptr::null_mut()
        } else {
            self.0.as_ptr().cast_mut().cast()
        }
    }
}

/// A `Cell` the kernel objects' model can share between threads, as the
/// kernel shares the objects it models (hooks take them across RCU
/// closures, which must be `Send`).
#[derive(Default)]
pub(crate) struct SyncCell<T: Copy>(Mutex<T>);

impl<T: Copy> SyncCell<T> {
    pub(crate) const fn new(value: T) -> SyncCell<T> {
        SyncCell(Mutex::new(value))
    }

    pub(crate) fn get(&self) -> T {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn set(&self, value: T) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = value;
    }
}

/// A `RefCell` the model can share between threads: a borrow is a lock.
#[derive(Default)]
pub(crate) struct SyncRefCell<T>(Mutex<T>);

impl<T> SyncRefCell<T> {
    pub(crate) fn borrow(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn borrow_mut(&self) -> MutexGuard<'_, T> {
        self.borrow()
    }
}

macro_rules! has_blob {
    ($name:ident, $kind:ident, $state:ident) => {
        impl HasBlob for $name {
            const KIND: ObjectKind = ObjectKind::$kind;
            type State<M: Submodule> = M::$state;

            fn blob(&self) -> *mut u8 {
                self.blob.ptr()
            }
        }
    };
}

/// An inode with extended attributes.
pub(crate) struct Inode {
    /// Inode number.
    pub(crate) ino: u64,
    /// Whether it is a directory.
    pub(crate) dir: bool,
    /// Its extended attributes.
    pub(crate) xattrs: SyncRefCell<BTreeMap<Vec<u8>, Vec<u8>>>,
    /// An error every `getxattr` fails with, to model `EIO` and the like.
    getxattr_error: SyncCell<Option<Error>>,
    /// `i_mode`: file type and permission bits (a new inode: `0o100644`,
    /// or `0o040755` for a directory).
    pub(crate) mode: SyncCell<u16>,
    /// Owner and group, in the initial user namespace (a new inode: 0).
    pub(crate) uid: SyncCell<u32>,
    /// See [`Inode::uid`].
    pub(crate) gid: SyncCell<u32>,
    /// `i_generation` (a new inode: 0).
    pub(crate) generation: SyncCell<u32>,
    /// `i_writecount`: open files that may write to it (the model's opens
    /// do not count: a test sets it).
    pub(crate) writers: SyncCell<i32>,
    /// `mapping_writably_mapped()` of its pages.
    pub(crate) writably_mapped: SyncCell<bool>,
    /// The file system it is on (a new inode: [`HostFs::EXT4`]).
    pub(crate) fs: SyncCell<HostFs>,
    /// `IS_PRIVATE` (a new inode: not).
    pub(crate) private: SyncCell<bool>,
    /// Its contents, as a read of the file gives them (the model's file
    /// systems keep contents for hashing only).
    pub(crate) contents: SyncRefCell<Vec<u8>>,
    blob: Blob,
}
has_blob!(Inode, Inode, InodeState);

/// What the model knows of an inode's file system (its superblock and
/// type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HostFs {
    /// `s_type->name`.
    pub(crate) name: &'static str,
    /// `s_magic`.
    pub(crate) magic: u64,
    /// `FS_REQUIRES_DEV` in its type's `fs_flags`: a block-device file
    /// system.
    pub(crate) requires_dev: bool,
    /// `s_uuid`.
    pub(crate) uuid: [u8; 16],
}

impl HostFs {
    /// ext4 (`EXT4_SUPER_MAGIC`, on a block device), with a UUID.
    pub(crate) const EXT4: HostFs = HostFs {
        name: "ext4",
        magic: 0xef53,
        requires_dev: true,
        uuid: *b"stacker-host-fs!",
    };
    /// tmpfs (`TMPFS_MAGIC`): keeps contents, no device, no UUID.
    pub(crate) const TMPFS: HostFs = HostFs {
        name: "tmpfs",
        magic: 0x0102_1994,
        requires_dev: false,
        uuid: [0; 16],
    };
    /// procfs (`PROC_SUPER_MAGIC`): a pseudo file system.
    pub(crate) const PROC: HostFs = HostFs {
        name: "proc",
        magic: 0x9fa0,
        requires_dev: false,
        uuid: [0; 16],
    };
    /// FUSE (`FUSE_SUPER_MAGIC`): neither a pseudo file system nor one
    /// that keeps contents (they can change below the inode).
    pub(crate) const FUSE: HostFs = HostFs {
        name: "fuse",
        magic: 0x6573_5546,
        requires_dev: false,
        uuid: [0; 16],
    };
}

/// `S_IFMT`, `S_IFREG`, `S_IFDIR` (`include/uapi/linux/stat.h`).
const S_IFMT: u16 = 0o170000;
const S_IFREG: u16 = 0o100000;
const S_IFDIR: u16 = 0o040000;

impl Inode {
    /// The inode's blob once the inode is gone, for
    /// `inode_free_security_rcu`.
    pub(crate) fn into_blob(self) -> Blob {
        self.blob
    }

    /// A new inode with a zeroed blob.
    pub(crate) fn new(ino: u64, dir: bool) -> Inode {
        Inode {
            ino,
            dir,
            xattrs: SyncRefCell::default(),
            getxattr_error: SyncCell::new(None),
            mode: SyncCell::new(if dir {
                S_IFDIR | 0o755
            } else {
                S_IFREG | 0o644
            }),
            uid: SyncCell::new(0),
            gid: SyncCell::new(0),
            generation: SyncCell::new(0),
            writers: SyncCell::new(0),
            writably_mapped: SyncCell::new(false),
            fs: SyncCell::new(HostFs::EXT4),
            private: SyncCell::new(false),
            contents: SyncRefCell::default(),
            blob: Blob::new(ObjectKind::Inode),
        }
    }

    /// Makes every later `getxattr` of this inode fail with `err` (`None`:
    /// work again), as a failing disk or filesystem would.
    pub(crate) fn fail_getxattr(&self, err: Option<Error>) {
        self.getxattr_error.set(err);
    }

    /// Reads extended attribute `name` into `buf`; returns its length. An
    /// error set with [`Inode::fail_getxattr`] comes first.
    fn getxattr(&self, name: &CStr, buf: &mut [u8]) -> Result<usize> {
        if let Some(err) = self.getxattr_error.get() {
            return Err(err);
        }
        let xattrs = self.xattrs.borrow();
        let value = xattrs.get(name.to_bytes()).ok_or(crate::error::ENODATA)?;
        let dst = buf.get_mut(..value.len()).ok_or(crate::error::ERANGE)?;
        dst.copy_from_slice(value);
        Ok(value.len())
    }
}

impl InodeView for Inode {
    fn is_dir(&self) -> bool {
        self.dir
    }

    fn fs_type(&self) -> &[u8] {
        self.fs.get().name.as_bytes()
    }

    fn is_private(&self) -> bool {
        self.private.get()
    }

    fn ino(&self) -> u64 {
        self.ino
    }

    fn mode(&self) -> u16 {
        self.mode.get()
    }

    fn is_reg(&self) -> bool {
        !self.dir && self.mode() & S_IFMT == S_IFREG
    }

    fn uid(&self) -> u32 {
        self.uid.get()
    }

    fn gid(&self) -> u32 {
        self.gid.get()
    }

    fn generation(&self) -> u32 {
        self.generation.get()
    }

    fn fs_uuid(&self) -> [u8; 16] {
        self.fs.get().uuid
    }

    fn writers(&self) -> i32 {
        self.writers.get()
    }

    fn on_pseudo_fs(&self) -> bool {
        crate::abi::PSEUDO_FS_MAGICS.contains(&self.fs.get().magic)
    }

    fn on_content_fs(&self) -> bool {
        let fs = self.fs.get();
        fs.requires_dev || crate::abi::MEMORY_FS_MAGICS.contains(&fs.magic)
    }

    /// The model keeps no alias list: the dentry is a nameless one bound
    /// to no inode, which is what [`DentryView::getxattr_of`] needs (it
    /// names the inode itself).
    fn with_alias<R>(&self, _cx: &MaySleep, f: impl FnOnce(&Dentry) -> R) -> Option<R> {
        Some(f(&Dentry {
            name: Vec::new(),
            inode: None,
        }))
    }

    /// Always, in the model, which has no `fill_super`.
    fn fs_ready(&self) -> bool {
        true
    }
}

/// A name in a directory, bound to an inode or negative.
pub(crate) struct Dentry {
    /// The name.
    pub(crate) name: Vec<u8>,
    /// The inode, `None` for a negative dentry.
    pub(crate) inode: Option<Arc<Inode>>,
}

impl DentryView for Dentry {
    fn getxattr_of(
        &self,
        _cx: &MaySleep,
        inode: &Inode,
        name: &CStr,
        buf: &mut [u8],
    ) -> Result<usize> {
        inode.getxattr(name, buf)
    }

    fn inode(&self) -> Option<&Inode> {
        self.inode.as_deref()
    }

    fn with_name<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        f(&self.name)
    }
    /// The model's dentries are all in their file system's root: the
    /// path is `/NAME`.
    fn with_path<R>(&self, _cx: &MaySleep, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let mut path = b"/".to_vec();
        path.extend_from_slice(&self.name);
        Ok(f(&path))
    }
}

/// An open file.
pub(crate) struct File {
    /// The dentry it was opened through.
    pub(crate) dentry: Arc<Dentry>,
    inode: Arc<Inode>,
    /// `FMODE_READ`, `FMODE_WRITE`.
    readable: bool,
    writable: bool,
    /// `O_APPEND` in `f_flags`.
    pub(crate) appending: core::sync::atomic::AtomicBool,
    security: FileSecurity,
}

impl HasBlob for File {
    const KIND: ObjectKind = ObjectKind::File;
    type State<M: Submodule> = M::FileState;

    fn blob(&self) -> *mut u8 {
        self.security.blob.ptr()
    }
}

impl File {
    /// A new file of `dentry`, which must be positive, open for reading.
    pub(crate) fn new(dentry: Arc<Dentry>, inode: Arc<Inode>) -> File {
        File::opened(dentry, inode, true, false)
    }

    /// A new file of `dentry` open for reading, writing, both or neither
    /// (`O_PATH`-like: `f_mode` without `FMODE_READ` or `FMODE_WRITE`).
    pub(crate) fn opened(dentry: Arc<Dentry>, inode: Arc<Inode>, read: bool, write: bool) -> File {
        File {
            dentry,
            inode,
            readable: read,
            writable: write,
            appending: core::sync::atomic::AtomicBool::new(false),
            security: FileSecurity::new(),
        }
    }

    /// The view that `file_alloc_security` and `file_free_security` get:
    /// the same blob, nothing else.
    pub(crate) fn security(&self) -> &FileSecurity {
        &self.security
    }
}

impl FileView for File {
    fn dentry(&self) -> &Dentry {
        &self.dentry
    }

    /// An error set with [`Inode::fail_getxattr`] comes first.
    fn getxattr(&self, _cx: &MaySleep, name: &CStr, buf: &mut [u8]) -> Result<usize> {
        self.inode.getxattr(name, buf)
    }

    fn inode(&self) -> &Inode {
        &self.inode
    }

    fn readable(&self) -> bool {
        self.readable
    }

    fn writable(&self) -> bool {
        self.writable
    }

    fn appending(&self) -> bool {
        self.appending.load(core::sync::atomic::Ordering::Relaxed)
    }

    /// The inode's [`Inode::writably_mapped`].
    fn writably_mapped(&self) -> bool {
        self.inode.writably_mapped.get()
    }

    /// The model has no directory tree: every file is in the root, so its
    /// path is `/` and its dentry's name.
    fn absolute_path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]> {
        let name = &self.dentry.name;
        let start = buf.len().checked_sub(name.len() + 1)?;
        let out = buf.get_mut(start..)?;
        out[0] = b'/';
        out[1..].copy_from_slice(name);
        Some(out)
    }

    /// In the model, the same as [`FileView::absolute_path_in`] (no
    /// chroot).
    fn path_in<'a>(&self, buf: &'a mut [u8]) -> Option<&'a [u8]> {
        self.absolute_path_in(buf)
    }
}

/// A file in `file_alloc_security` or `file_free_security`: only its blob.
///
/// As in the kernel (`objects/file.rs`), this view has no `dentry()`, `inode()`
/// or `getxattr()`: `file_alloc_security` runs before the file's path is
/// set and `file_free_security` also runs after a failed open, so a
/// submodule that tried to reach them does not compile.
pub(crate) struct FileSecurity {
    blob: Blob,
}

impl FileSecurity {
    /// The blob of a file being set up.
    pub(crate) fn new() -> FileSecurity {
        FileSecurity {
            blob: Blob::new(ObjectKind::File),
        }
    }
}

impl HasBlob for FileSecurity {
    const KIND: ObjectKind = ObjectKind::File;
    type State<M: Submodule> = M::FileState;

    fn blob(&self) -> *mut u8 {
        self.blob.ptr()
    }
}

/// A set of credentials.
pub(crate) struct Cred {
    /// The real user id.
    pub(crate) uid: u32,
    /// The effective user id.
    pub(crate) euid: u32,
    /// The real and effective group id.
    pub(crate) gid: u32,
    /// Effective, permitted and inheritable capabilities.
    pub(crate) caps: SyncCell<[KernelCap; 3]>,
    /// Ambient capabilities.
    pub(crate) ambient: SyncCell<KernelCap>,
    blob: Blob,
}
has_blob!(Cred, Cred, CredState);

impl Cred {
    /// New credentials of user `uid`.
    pub(crate) fn new(uid: u32) -> Cred {
        let all = KernelCap(if uid == 0 { (1 << 41) - 1 } else { 0 });
        Cred {
            uid,
            euid: uid,
            gid: uid,
            caps: SyncCell::new([all; 3]),
            ambient: SyncCell::new(KernelCap(0)),
            blob: Blob::new(ObjectKind::Cred),
        }
    }

    /// A copy of these credentials as `prepare_creds()` makes it: the
    /// same ids and capability sets, a new blob, and the chain's
    /// `cred_prepare` hooks run on it.
    pub(crate) fn prepare_copy(&self) -> Result<Cred> {
        let new = Cred::new(self.uid);
        let new = Cred {
            euid: self.euid,
            gid: self.gid,
            ..new
        };
        new.caps.set(self.caps.get());
        new.ambient.set(self.ambient.get());
        crate::dispatch::cred_prepare::<crate::dispatch::Loop>(&crate::harness::cx(), &new, self)?;
        Ok(new)
    }

    /// Makes `cred` the current task's credentials on this thread.
    pub(crate) fn set_current(cred: Arc<Cred>) {
        CURRENT_CRED.with(|c| *c.borrow_mut() = Some(cred));
    }
}

impl CredView for Cred {
    fn uid(&self) -> u32 {
        self.uid
    }

    fn euid(&self) -> u32 {
        self.euid
    }

    fn gid(&self) -> u32 {
        self.gid
    }

    /// The model has one group id, real and effective.
    fn egid(&self) -> u32 {
        self.gid
    }

    fn caps(&self) -> [KernelCap; 3] {
        self.caps.get()
    }

    /// Those [`Cred::set_current`] made current on this thread, else
    /// root's.
    fn with_current<R>(f: impl FnOnce(&Cred) -> R) -> R {
        let cred = CURRENT_CRED.with(|c| {
            c.borrow_mut()
                .get_or_insert_with(|| Arc::new(Cred::new(0)))
                .clone()
        });
        f(&cred)
    }
}

thread_local! {
    /// The current task's credentials ([`CredView::with_current`]).
    static CURRENT_CRED: std::cell::RefCell<Option<Arc<Cred>>> =
        const { std::cell::RefCell::new(None) };
}

/// New credentials for the current task, not yet installed
/// (`prepare_creds()`).
pub(crate) struct NewCred {
    cred: Cred,
}

impl NewCredView for NewCred {
    /// With the chain's `cred_prepare` hooks run on it
    /// ([`Cred::prepare_copy`]).
    fn prepare(_cx: &MaySleep) -> Result<NewCred> {
        Cred::with_current(Cred::prepare_copy).map(|cred| NewCred { cred })
    }

    fn cred(&self) -> &Cred {
        &self.cred
    }

    fn commit(self) {
        Cred::set_current(Arc::new(self.cred));
    }
}

/// Whether the current task has `CAP_SYS_ADMIN` (`capable()`): in the
/// model, whether the current credentials' effective set has it (the
/// model has one user namespace and audits nothing).
pub(crate) fn current_has_sys_admin() -> bool {
    Cred::with_current(|c| c.caps()[0].has(crate::abi::CAP_SYS_ADMIN))
}

/// Whether the current task is its process's only thread: always, in the
/// model.
pub(crate) fn current_is_single_threaded() -> bool {
    true
}

/// A task.
pub(crate) struct Task {
    /// Its pid.
    pub(crate) pid: i32,
    /// Its objective credentials (`None`: root's, made on first use).
    pub(crate) cred: SyncRefCell<Option<Arc<Cred>>>,
    blob: Blob,
}
has_blob!(Task, Task, TaskState);

impl Task {
    /// Makes `tracer` (`None`: no tracer) the current task's tracer on
    /// this thread.
    pub(crate) fn set_current_tracer(tracer: Option<Arc<Task>>) {
        CURRENT_TRACER.with(|t| *t.borrow_mut() = tracer);
    }

    /// A new task with pid `pid`.
    pub(crate) fn new(pid: i32) -> Task {
        Task {
            pid,
            cred: SyncRefCell::default(),
            blob: Blob::new(ObjectKind::Task),
        }
    }
}

impl TaskView for Task {
    fn pid(&self) -> i32 {
        self.pid
    }

    /// The model has no RCU here: `f` runs under no lock.
    fn with_cred<R>(&self, f: impl FnOnce(&Cred) -> R + Send) -> R {
        let cred = self
            .cred
            .borrow()
            .get_or_insert_with(|| Arc::new(Cred::new(0)))
            .clone();
        f(&cred)
    }

    /// The tracer [`Task::set_current_tracer`] set on this thread.
    fn with_current_tracer<R>(f: impl FnOnce(Option<&Task>) -> R + Send) -> R {
        let tracer = CURRENT_TRACER.with(|t| t.borrow().clone());
        f(tracer.as_deref())
    }
}

thread_local! {
    /// The current task's tracer ([`TaskView::with_current_tracer`]).
    static CURRENT_TRACER: std::cell::RefCell<Option<Arc<Task>>> =
        const { std::cell::RefCell::new(None) };
}

/// A program being executed, its new credentials being prepared
/// (`bprm_creds_for_exec`, `bprm_check_security`).
pub(crate) struct Binprm {
    /// The file being executed.
    pub(crate) file: Arc<File>,
    /// The credentials being prepared for it.
    pub(crate) cred: Arc<Cred>,
    /// Why the exec is unsafe to change privileges (`LSM_UNSAFE_*`).
    pub(crate) unsafe_flags: u32,
    /// Whether the file is on a `nosuid` mount.
    pub(crate) nosuid: bool,
    /// Whether a hook asked for a secure exec (`AT_SECURE`).
    pub(crate) secureexec: SyncCell<bool>,
    /// The personality bits to clear (`per_clear`).
    pub(crate) per_clear: SyncCell<u32>,
}

impl Binprm {
    /// The exec of `file` with credentials `cred`: safe, not `nosuid`.
    pub(crate) fn new(file: Arc<File>, cred: Arc<Cred>) -> Binprm {
        Binprm {
            file,
            cred,
            unsafe_flags: 0,
            nosuid: false,
            secureexec: SyncCell::new(false),
            per_clear: SyncCell::new(0),
        }
    }
}

impl BinprmView for Binprm {
    fn cred(&self) -> &Cred {
        &self.cred
    }

    fn file(&self) -> &File {
        &self.file
    }

    fn unsafe_flags(&self) -> u32 {
        self.unsafe_flags
    }

    fn nosuid(&self) -> bool {
        self.nosuid
    }

    fn set_secureexec(&self) {
        self.secureexec.set(true);
    }

    fn clear_personality_on_setid(&self) {
        self.per_clear
            .set(self.per_clear.get() | crate::abi::PER_CLEAR_ON_SETID);
    }
}

/// A program whose credentials were committed (`bprm_committed_creds`):
/// only the file, as in the kernel, where `bprm->cred` is NULL by then.
pub(crate) struct CommittedBinprm {
    /// The file being executed.
    pub(crate) file: Arc<File>,
}

impl CommittedBinprmView for CommittedBinprm {
    fn file(&self) -> &File {
        &self.file
    }
}

/// The new credentials of an exec in `bprm_creds_from_file`, not yet
/// shared: readable, and their capability sets can only shrink.
pub(crate) struct PreparedCred<'a> {
    /// The credentials.
    pub(crate) cred: &'a Cred,
}

impl<'a> PreparedCredView<'a> for PreparedCred<'a> {
    fn cred(&self) -> &'a Cred {
        self.cred
    }

    fn drop_caps(&self, mask: u64) {
        let keep = |c: KernelCap| KernelCap(c.0 & !mask);
        self.cred.caps.set(self.cred.caps.get().map(keep));
        self.cred.ambient.set(keep(self.cred.ambient.get()));
    }
}

/// The blob of an inode that is gone (`inode_free_security_rcu`).
pub(crate) struct InodeBlob<'a> {
    /// The blob.
    pub(crate) blob: &'a Blob,
}

impl HasBlob for InodeBlob<'_> {
    const KIND: ObjectKind = ObjectKind::Inode;
    type State<M: Submodule> = M::InodeState;

    fn blob(&self) -> *mut u8 {
        self.blob.ptr()
    }
}

/// The address an `mmap_addr` hook is asked about.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MmapAddr {
    /// The address.
    pub(crate) addr: u64,
    /// `vm.mmap_min_addr`.
    pub(crate) min: u64,
}

impl MmapAddrView for MmapAddr {
    fn addr(self) -> u64 {
        self.addr
    }

    fn below_min(self) -> bool {
        self.addr < self.min
    }
}

/// A socket.
pub(crate) struct Socket {
    /// Its network-layer half, once set up.
    pub(crate) sock: Option<Arc<Sock>>,
    /// Its inode (sockfs's).
    pub(crate) inode: Arc<Inode>,
}

impl SocketView for Socket {
    fn sock(&self) -> Option<&Sock> {
        self.sock.as_deref()
    }

    fn inode(&self) -> &Inode {
        &self.inode
    }
}

/// The network layer's half of a socket.
pub(crate) struct Sock {
    /// Address family.
    pub(crate) family: u16,
    /// Socket type (`SOCK_*`).
    pub(crate) ty: u16,
    /// Protocol.
    pub(crate) protocol: u16,
    blob: Blob,
}
has_blob!(Sock, Sock, SockState);

impl Sock {
    /// A new stream sock of `family`, protocol 0.
    pub(crate) fn new(family: u16) -> Sock {
        Sock {
            family,
            ty: 1,
            protocol: 0,
            blob: Blob::new(ObjectKind::Sock),
        }
    }
}

impl SockView for Sock {
    fn family(&self) -> u16 {
        self.family
    }

    fn type_and_protocol(&self) -> (u16, u16) {
        (self.ty, self.protocol)
    }
}

/// A sock in `sk_alloc_security` or `sk_free_security`: only its blob (as
/// in the kernel, where it is half built there).
pub(crate) struct SockSecurity {
    blob: Blob,
}
has_blob!(SockSecurity, Sock, SockState);

impl SockSecurity {
    /// The blob of a sock being set up.
    pub(crate) fn new() -> SockSecurity {
        SockSecurity {
            blob: Blob::new(ObjectKind::Sock),
        }
    }
}

/// A message in `msg_msg_alloc_security` or `msg_msg_free_security`: only
/// its blob (as in the kernel, where it is half built there).
pub(crate) struct MsgMsgSecurity {
    blob: Blob,
}
has_blob!(MsgMsgSecurity, MsgMsg, MsgMsgState);

impl MsgMsgSecurity {
    /// The blob of a message being set up.
    pub(crate) fn new() -> MsgMsgSecurity {
        MsgMsgSecurity {
            blob: Blob::new(ObjectKind::MsgMsg),
        }
    }
}

/// A mounted (or mounting) file system.
pub(crate) struct Superblock {
    /// Its magic number.
    pub(crate) magic: u64,
    /// Its file system type's name.
    pub(crate) fs_type: &'static str,
    blob: Blob,
}
has_blob!(Superblock, Superblock, SuperblockState);

impl Superblock {
    /// A new superblock with `magic`.
    pub(crate) fn new(magic: u64) -> Superblock {
        Superblock {
            magic,
            fs_type: "tmpfs",
            blob: Blob::new(ObjectKind::Superblock),
        }
    }
}

impl SuperblockView for Superblock {
    fn magic(&self) -> u64 {
        self.magic
    }

    fn fs_type(&self) -> &[u8] {
        self.fs_type.as_bytes()
    }
}

/// A mount and a dentry in it.
pub(crate) struct Path {
    /// The dentry.
    pub(crate) dentry: Arc<Dentry>,
}

impl PathView for Path {
    fn dentry(&self) -> &Dentry {
        &self.dentry
    }
}

/// One mount of a file system.
pub(crate) struct Vfsmount {
    /// The mounted file system.
    pub(crate) sb: Arc<Superblock>,
}

impl VfsmountView for Vfsmount {
    fn superblock(&self) -> &Superblock {
        &self.sb
    }
}

/// The attribute changes of a `setattr`.
#[derive(Default)]
pub(crate) struct Iattr {
    /// `ATTR_*` bits.
    pub(crate) valid: u32,
    /// The new mode.
    pub(crate) mode: u16,
}

impl IattrView for Iattr {
    fn valid(&self) -> u32 {
        self.valid
    }

    fn mode(&self) -> u16 {
        self.mode
    }
}

/// One System V message.
pub(crate) struct MsgMsg {
    /// The message type.
    pub(crate) mtype: i64,
    blob: Blob,
}
has_blob!(MsgMsg, MsgMsg, MsgMsgState);

impl MsgMsg {
    /// A new message of type `mtype`.
    pub(crate) fn new(mtype: i64) -> MsgMsg {
        MsgMsg {
            mtype,
            blob: Blob::new(ObjectKind::MsgMsg),
        }
    }
}

impl MsgMsgView for MsgMsg {
    fn mtype(&self) -> i64 {
        self.mtype
    }
}

/// A key.
pub(crate) struct Key {
    /// Its serial number.
    pub(crate) serial: i32,
    blob: Blob,
}
has_blob!(Key, Key, KeyState);

impl Key {
    /// A new key with `serial`.
    pub(crate) fn new(serial: i32) -> Key {
        Key {
            serial,
            blob: Blob::new(ObjectKind::Key),
        }
    }
}

impl KeyView for Key {
    fn serial(&self) -> i32 {
        self.serial
    }
}

/// The `security.*` xattr names `listxattr(2)` is filling, NUL-separated,
/// in a buffer of `room` bytes (`None`: only the size is asked).
pub(crate) struct XattrNames<'a> {
    /// The names so far.
    pub(crate) names: &'a mut Vec<u8>,
    /// The room left, if the buffer is bounded.
    pub(crate) room: Option<usize>,
}

impl XattrNamesView for XattrNames<'_> {
    fn push(&mut self, name: &CStr) -> Result {
        let bytes = name.to_bytes_with_nul();
        if let Some(room) = self.room {
            self.room = Some(room.checked_sub(bytes.len()).ok_or(ERANGE)?);
        }
        self.names.extend_from_slice(bytes);
        Ok(())
    }
}

/// The permissions of an IPC object.
pub(crate) struct IpcPerm {
    blob: Blob,
}
has_blob!(IpcPerm, Ipc, IpcState);

impl IpcPerm {
    /// A new IPC object.
    pub(crate) fn new() -> IpcPerm {
        IpcPerm {
            blob: Blob::new(ObjectKind::Ipc),
        }
    }
}

/// A memory mapping.
pub(crate) struct Vma {
    /// The mapped file, if any.
    pub(crate) file: Option<Arc<File>>,
    /// `VM_EXEC` in its flags.
    pub(crate) exec: bool,
    /// `VM_SHARED` in its flags.
    pub(crate) shared: bool,
    /// What its memory is.
    pub(crate) memory: VmaMemory,
}

impl Vma {
    /// A private mapping of `file`, not executable.
    pub(crate) fn new(file: Option<Arc<File>>) -> Vma {
        Vma {
            file,
            exec: false,
            shared: false,
            memory: VmaMemory::Other,
        }
    }
}

impl VmaView for Vma {
    fn file(&self) -> Option<&File> {
        self.file.as_deref()
    }

    fn executable(&self) -> bool {
        self.exec
    }

    fn shared(&self) -> bool {
        self.shared
    }

    fn memory(&self) -> VmaMemory {
        self.memory
    }
}

/// Whether data mappings are not executable by default: as on x86-64.
pub(crate) fn data_noexec() -> bool {
    true
}

pub(crate) use crate::access::{AccessMask, CapCheck, KernelCap, XattrCopyUp};
pub(crate) use crate::lsm_prop::Secid;
pub(crate) use crate::mount_options::OwnMountOptions;
pub(crate) use crate::views::*;

/// The text of a label, for the LSM core's `struct lsm_context`
/// (`secid_to_secctx`). Audit asks for it in any context: the kernel's
/// allocates atomically, so it demands no proof.
#[derive(Default)]
pub(crate) struct SecCtx(pub(crate) Vec<u8>);

impl SecCtxView for SecCtx {
    fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

/// A value a submodule builds for a reader (`getprocattr`,
/// `inode_getsecurity`).
#[derive(Default)]
pub(crate) struct AttrValue(pub(crate) Vec<u8>);

impl AttrValueView for AttrValue {
    /// The model checks that the caller may sleep.
    fn push_bytes(&mut self, _cx: &MaySleep, bytes: &[u8]) -> Result {
        crate::platform::might_sleep();
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

/// A write to `/proc/self/attr/NAME` (`setprocattr`).
pub(crate) struct ProcAttrWrite<'a> {
    name: &'a [u8],
    value: &'a [u8],
}

impl<'a> ProcAttrWrite<'a> {
    /// A write of `value` to attribute `name`.
    pub(crate) fn new(name: &'a CStr, value: &'a [u8]) -> Self {
        ProcAttrWrite {
            name: name.to_bytes(),
            value,
        }
    }
}

impl ProcAttrWriteView for ProcAttrWrite<'_> {
    fn name(&self) -> &[u8] {
        self.name
    }

    fn value(&self) -> &[u8] {
        self.value
    }

    /// To the modelled LSMs after stacker (see [`set_later_lsms`]).
    fn forward(self) -> Result<usize> {
        LATER_LSMS.with(|l| {
            for lsm in l.borrow().iter() {
                FORWARDED.with(|f| f.borrow_mut().push((lsm.name, "setprocattr")));
                if lsm.set != Err(EINVAL) {
                    return lsm.set;
                }
            }
            Err(EINVAL)
        })
    }
}

/// An LSM registered after stacker, as the host models it for the hooks
/// that the LSM core asks of one LSM only (`getprocattr`, `setprocattr`).
pub(crate) struct LaterLsm {
    /// Its name, for [`take_forwarded`].
    pub(crate) name: &'static str,
    /// What its `getprocattr` answers.
    pub(crate) get: Result<Vec<u8>>,
    /// What its `setprocattr` answers.
    pub(crate) set: Result<usize>,
}

thread_local! {
    static LATER_LSMS: std::cell::RefCell<Vec<LaterLsm>> = const { std::cell::RefCell::new(Vec::new()) };
    static FORWARDED: std::cell::RefCell<Vec<(&'static str, &'static str)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes `lsms` the LSMs after stacker, in order, on this thread.
pub(crate) fn set_later_lsms(lsms: Vec<LaterLsm>) {
    LATER_LSMS.with(|l| *l.borrow_mut() = lsms);
    FORWARDED.with(|f| f.borrow_mut().clear());
}

/// The (LSM, hook) pairs forwarded to since the last call, in order.
pub(crate) fn take_forwarded() -> Vec<(&'static str, &'static str)> {
    FORWARDED.with(|f| std::mem::take(&mut *f.borrow_mut()))
}

/// Asks the modelled LSMs after stacker for attribute `name`: the first
/// answer that is not `EINVAL` goes into `out`.
pub(crate) fn forward_getprocattr(
    cx: &MaySleep,
    _task: &Task,
    _name: &CStr,
    out: &mut AttrValue,
) -> Result {
    LATER_LSMS.with(|l| {
        for lsm in l.borrow().iter() {
            FORWARDED.with(|f| f.borrow_mut().push((lsm.name, "getprocattr")));
            match &lsm.get {
                Err(err) if *err == EINVAL => continue,
                Err(err) => return Err(*err),
                Ok(value) => return out.push_bytes(cx, value),
            }
        }
        Err(EINVAL)
    })
}

/// A security xattr for a new inode.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct XattrValue {
    /// The name after the `security.` prefix.
    pub(crate) name: &'static CStr,
    /// The value.
    pub(crate) value: Vec<u8>,
}

impl XattrValueView for XattrValue {
    fn new(name: &'static CStr, value: &[u8]) -> Result<Self> {
        Ok(XattrValue {
            name,
            value: value.to_vec(),
        })
    }
}

/// The LSM xattr slots of one `inode_init_security` call.
pub(crate) struct XattrSlots {
    /// The xattrs filled in, in order.
    pub(crate) filled: Vec<XattrValue>,
    /// How many stacker may fill.
    pub(crate) limit: usize,
}

impl XattrSlotsView for XattrSlots {
    fn push(&mut self, xattr: XattrValue) -> Result {
        if self.filled.len() >= self.limit {
            return Err(ENOSPC);
        }
        self.filled.push(xattr);
        Ok(())
    }
}
