// SPDX-License-Identifier: GPL-2.0

//! Host stand-ins for what the kernel build gets from `boot.rs`,
//! `securityfs.rs` and the static keys.
//!
//! The boot state is per thread, so that parallel tests can boot different
//! chains.

use crate::attribute::{check_write, Attribute, WriterCaps};
use crate::blob::BlobState;
use crate::chain::{BootState, ChainSpec};
use crate::error::{Result, EACCES, ENOENT};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::sync::RwLock;

/// How the host serves a securityfs file: its `show` and, if writable,
/// its `store`.
type FileOps = (
    fn(&mut TextBuf) -> Result,
    Option<(fn(&[u8]) -> Result, usize)>,
    Option<(fn(&[u8], &mut TextBuf) -> Result, usize)>,
);

thread_local! {
    static BOOT: Cell<Option<&'static BootState>> = const { Cell::new(None) };
    static DIRS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static FILES: RefCell<BTreeMap<String, FileOps>> = const { RefCell::new(BTreeMap::new()) };
    static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static CURRENT: Cell<(i32, [u8; 16])> = const { Cell::new((1, *b"init\0\0\0\0\0\0\0\0\0\0\0\0")) };
    /// Depth of RCU read-side critical sections on this thread.
    static RCU_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// The host's `might_sleep()`: an operation that may sleep in the kernel (a
/// `GFP_KERNEL` allocation, `synchronize_rcu`, a user copy) panics inside an
/// RCU read-side critical section, as `CONFIG_DEBUG_ATOMIC_SLEEP` reports
/// "sleeping function called from invalid context" in the kernel.
#[track_caller]
pub(crate) fn might_sleep() {
    assert_eq!(
        RCU_DEPTH.with(|d| d.get()),
        0,
        "might sleep inside an RCU read-side critical section"
    );
}

static EMPTY: BootState = match BootState::new(ChainSpec::EMPTY, &[], &[]) {
    Ok(state) => state,
    Err(_) => panic!("the empty chain always lays out"),
};

/// The boot state of this thread (the empty chain before any boot).
pub(crate) fn boot() -> &'static BootState {
    BOOT.with(|b| b.get()).unwrap_or(&EMPTY)
}

/// Makes `state` this thread's boot state.
pub(crate) fn set_boot(state: BootState) {
    let leaked: &'static BootState = Box::leak(Box::new(state));
    BOOT.with(|b| b.set(Some(leaked)));
    DIRS.with(|d| d.borrow_mut().clear());
    FILES.with(|f| f.borrow_mut().clear());
    LOG.with(|l| l.borrow_mut().clear());
}

/// Submodule `index`'s offset in a `kind` blob, or `None` without a slot.
/// stacker is the only "LSM" on the host, so its slice starts the blob.
pub(crate) fn slot_offset(index: usize, kind: crate::layout::ObjectKind) -> Option<usize> {
    let layout = &boot().layout;
    (index < crate::layout::MAX_MODULES && layout.size(index, kind) != 0)
        .then(|| layout.offset(index, kind))
}

/// A securityfs directory; on the host it only records its path.
pub(crate) struct Dir {
    path: String,
}

impl Dir {
    /// The directory `/sys/kernel/security/stacker`.
    pub(crate) fn stacker_root() -> Dir {
        Dir {
            path: "stacker".into(),
        }
    }

    /// Creates a subdirectory.
    pub(crate) fn create_dir(&self, name: &core::ffi::CStr) -> crate::error::Result<Dir> {
        let path = format!("{}/{}", self.path, name.to_string_lossy());
        DIRS.with(|d| d.borrow_mut().push(path.clone()));
        Ok(Dir { path })
    }
}

impl Dir {
    /// Creates a file whose behaviour is given by `T`.
    pub(crate) fn create_file<T: Attribute>(&self, name: &core::ffi::CStr) -> Result {
        let path = format!("{}/{}", self.path, name.to_string_lossy());
        let store: Option<(fn(&[u8]) -> Result, usize)> = if T::WRITABLE {
            Some((T::store, T::MAX_WRITE))
        } else {
            None
        };
        let answer: Option<(fn(&[u8], &mut TextBuf) -> Result, usize)> =
            T::TRANSACTION.then_some((T::answer, T::MAX_WRITE));
        FILES.with(|f| f.borrow_mut().insert(path, (T::show, store, answer)));
        Ok(())
    }
}

/// Reads securityfs file `path` (e.g. `stacker/capstack/policy`).
pub(crate) fn read_file(path: &str) -> Result<Vec<u8>> {
    let ops = FILES
        .with(|f| f.borrow().get(path).copied())
        .ok_or(ENOENT)?;
    let mut out = TextBuf(Vec::new(), None, core::marker::PhantomData);
    (ops.0)(&mut out)?;
    Ok(out.0)
}

/// Writes `data` to securityfs file `path` in one `write()` at offset 0, as
/// a process that opened the file and writes with (`mac_admin`) or without
/// `CAP_MAC_ADMIN`.
pub(crate) fn write_file(path: &str, data: &[u8], mac_admin: bool) -> Result {
    let caps = WriterCaps {
        opener: mac_admin,
        writer: mac_admin,
    };
    write_file_at(path, data, caps, 0).map(|_| ())
}

/// Writes `data` to securityfs file `path` at offset `pos`, as the kernel's
/// `write()` does: the same checks (`attribute::check_write`), then the
/// file's `store`. Returns the new file offset.
pub(crate) fn write_file_at(path: &str, data: &[u8], caps: WriterCaps, pos: i64) -> Result<i64> {
    let ops = FILES
        .with(|f| f.borrow().get(path).copied())
        .ok_or(ENOENT)?;
    let (store, max_write) = ops.1.ok_or(EACCES)?;
    let name = path.rsplit('/').next().unwrap_or(path);
    check_write(name, caps, pos, data.len(), max_write)?;
    might_sleep(); // the copy from userspace
    store(data)?;
    Ok(pos + data.len() as i64)
}

/// Asks transaction file `path` (`Attribute::TRANSACTION`) `question` in
/// one `write()` at offset 0 of a fresh open file, as a process with or
/// without `CAP_MAC_ADMIN` (`mac_admin`), and reads the answer back: the
/// same checks as the kernel's `write()`, then the file's `answer`.
// No host test asks a question file yet.
#[allow(dead_code)]
pub(crate) fn ask_file(path: &str, question: &[u8], mac_admin: bool) -> Result<Vec<u8>> {
    let ops = FILES
        .with(|f| f.borrow().get(path).copied())
        .ok_or(ENOENT)?;
    let (answer, max_write) = ops.2.ok_or(EACCES)?;
    let name = path.rsplit('/').next().unwrap_or(path);
    let caps = WriterCaps {
        opener: mac_admin,
        writer: mac_admin,
    };
    check_write(name, caps, 0, question.len(), max_write)?;
    might_sleep(); // the copy from userspace
    let mut out = TextBuf(Vec::new(), None, core::marker::PhantomData);
    answer(question, &mut out)?;
    Ok(out.0)
}

/// The contents of a securityfs file as it is being formatted.
///
/// Not `Send`, as the kernel's: appending may sleep, so no closure run
/// under RCU may capture one.
pub(crate) struct TextBuf(
    pub(crate) Vec<u8>,
    Option<crate::error::Error>,
    core::marker::PhantomData<*const ()>,
);

impl TextBuf {
    /// Appends raw bytes.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8]) -> Result {
        might_sleep();
        self.0.extend_from_slice(bytes);
        Ok(())
    }

    /// Formats into the buffer with `f` (`write!` and the like); on
    /// failure, the error of the append that failed.
    pub(crate) fn format(&mut self, f: impl FnOnce(&mut Self) -> core::fmt::Result) -> Result {
        self.1 = None;
        f(self).map_err(|core::fmt::Error| self.1.take().unwrap_or(crate::error::EINVAL))
    }
}

impl core::fmt::Write for TextBuf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.push_bytes(s.as_bytes()).map_err(|err| {
            self.1 = Some(err);
            core::fmt::Error
        })
    }
}

/// Records a kernel log line (see `pr_warn!`).
pub(crate) fn log_line(line: String) {
    LOG.with(|l| l.borrow_mut().push(line));
}

/// The log lines since this thread's last boot, and clears them.
pub(crate) fn take_log() -> Vec<String> {
    LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
}

/// `pr_warn!` of the kernel: here, into the harness's log.
macro_rules! pr_warn {
    ($($arg:tt)*) => {
        $crate::platform::log_line(format!("stacker: {}", format_args!($($arg)*)))
    };
}
pub(crate) use pr_warn;
pub(crate) use pr_warn as pr_info;

thread_local! {
    static AUDIT_RULE_UPDATES: Cell<u32> = const { Cell::new(0) };
}

/// Makes the audit rules with label fields anew, after a policy load: on
/// the host, counted ([`audit_rule_updates`]).
pub(crate) fn audit_rules_update(_cx: &crate::context::MaySleep) {
    AUDIT_RULE_UPDATES.with(|n| n.set(n.get() + 1));
}

/// How many times [`audit_rules_update`] ran on this thread.
pub(crate) fn audit_rule_updates() -> u32 {
    AUDIT_RULE_UPDATES.with(Cell::get)
}

/// Rate limiting never drops a line on the host.
pub(crate) fn ratelimit() -> bool {
    true
}

/// Rate limiting never drops a line on the host.
pub(crate) fn ratelimit_securityfs() -> bool {
    true
}

/// The host model has no preemption to turn off: runs `f`.
pub(crate) fn without_preemption<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// The host model has no interrupts to turn off: runs `f`.
pub(crate) fn without_interrupts<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// The kernel's `synchronize_rcu`: here only a point that may sleep (host
/// readers run to their end before a writer goes on).
pub(crate) fn synchronize_rcu(_cx: &crate::context::MaySleep) {
    might_sleep();
}

/// Rate limiting never drops a line on the host.
pub(crate) fn ratelimit_audit() -> bool {
    true
}

/// The current task's pid and command name.
pub(crate) fn current_task() -> (i32, [u8; 16]) {
    CURRENT.with(|c| c.get())
}

/// A value that readers see whole, old or new, while it is replaced.
pub(crate) struct RcuCell<T: BlobState> {
    inner: RcuBox<T>,
}

impl<T: BlobState> RcuCell<T> {
    /// An empty cell.
    pub(crate) const fn new() -> Self {
        RcuCell {
            inner: RcuBox::new(),
        }
    }

    /// Calls `f` with the current value (`None` before the first one), in a
    /// modelled RCU read-side critical section: `f` must not sleep, and
    /// being `Send` it cannot capture the proof that the caller may
    /// (`&MaySleep` is not `Send`), as in the kernel build.
    pub(crate) fn read<R>(&self, f: impl FnOnce(Option<&T>) -> R + Send) -> R {
        self.inner.read(f)
    }

    /// A private copy of the current value, for work that may sleep.
    pub(crate) fn copy_out(&self) -> Result<Option<Box<T>>>
    where
        T: Copy,
    {
        might_sleep();
        Ok(self.read(|value| value.map(|v| Box::new(*v))))
    }

    /// Builds a new value from all zeroes; installs it if `build` succeeds.
    pub(crate) fn replace_with(&self, build: impl FnOnce(&mut T) -> Result) -> Result {
        let mut new = zeroed();
        build(&mut new)?;
        self.inner.replace_boxed(new);
        Ok(())
    }
}

/// A value on the heap, owned (a `KBox` in the kernel build).
pub(crate) type OwnedBox<T> = Box<T>;

/// A new `T` on the heap, all zero (a valid `T`: `BlobState`). Allocates.
pub(crate) fn zeroed_box<T: BlobState>(_cx: &crate::context::MaySleep) -> Result<OwnedBox<T>> {
    Ok(zeroed())
}

/// [`zeroed_box`] without the proof.
fn zeroed<T: BlobState>() -> Box<T> {
    might_sleep();
    let new = Box::<T>::new_zeroed();
    // SAFETY: zero is a valid `T` (`BlobState`).
    unsafe { new.assume_init() }
}

/// The directories created since this thread's last boot.
pub(crate) fn dirs() -> Vec<String> {
    DIRS.with(|d| d.borrow().clone())
}

/// Bytes owned by the model: a `Vec` (a `kvmalloc`ed `KVVec` in the
/// kernel).
pub(crate) type Bytes = Vec<u8>;

/// A copy of `bytes`.
pub(crate) fn bytes_from(bytes: &[u8]) -> Result<Bytes> {
    might_sleep();
    Ok(bytes.to_vec())
}

/// A table of `Copy` values owned by the model: a `Vec` (a `kvmalloc`ed
/// `KVVec` in the kernel).
pub(crate) type Table<T> = Vec<T>;

/// A table of `len` copies of `value`. Allocates.
pub(crate) fn table_filled<T: Copy>(
    _cx: &crate::context::MaySleep,
    len: usize,
    value: T,
) -> Result<Table<T>> {
    might_sleep();
    Ok(vec![value; len])
}

/// The model of the kernel's `RcuBox`: a value built whole elsewhere,
/// which readers see whole, old or new, while it is replaced.
pub(crate) struct RcuBox<T: Send + Sync> {
    value: RwLock<Option<Box<T>>>,
}

impl<T: Send + Sync> RcuBox<T> {
    /// An empty cell.
    pub(crate) const fn new() -> Self {
        RcuBox {
            value: RwLock::new(None),
        }
    }

    /// Calls `f` with the current value (`None` before the first one), in a
    /// modelled RCU read-side critical section: `f` must not sleep (and is
    /// `Send`, see [`RcuCell::read`]).
    pub(crate) fn read<R>(&self, f: impl FnOnce(Option<&T>) -> R + Send) -> R {
        let guard = self.value.read().unwrap_or_else(|e| e.into_inner());
        RCU_DEPTH.with(|d| d.set(d.get() + 1));
        let result = f(guard.as_deref());
        RCU_DEPTH.with(|d| d.set(d.get() - 1));
        result
    }

    /// Makes `value` the current one.
    pub(crate) fn replace(&self, value: T) -> Result {
        self.replace_boxed(Box::new(value));
        Ok(())
    }

    /// Makes the boxed `new` the current one.
    pub(crate) fn replace_boxed(&self, new: Box<T>) {
        might_sleep();
        *self.value.write().unwrap_or_else(|e| e.into_inner()) = Some(new);
    }
}
