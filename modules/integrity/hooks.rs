// SPDX-License-Identifier: GPL-2.0

//! The `integrity` submodule: measure, appraise and verify files, as IMA
//! and EVM do, in their formats.
//!
//! A file the policy (`rules.rs`) selects is, at exec, executable mmap,
//! open or kernel read:
//!
//! - measured: its SHA-256, through the kernel's crypto library, is
//!   appended to the measurement list (`measurements.rs`) once per version
//!   of its contents;
//! - appraised: `security.ima` must hold its digest (`evmctl ima_hash`) or,
//!   under `appraise_type=imasig`, a valid version 2 signature of it
//!   (`evmctl ima_sign`) by a loaded key; else `EACCES`, and the path is
//!   logged.
//!
//! Once an HMAC key is loaded (`evm_key`), every file that carries
//! `security.evm`, and every file an appraise rule selects, must carry a
//! valid one: an HMAC-SHA256 over its security xattrs and metadata
//! (`formats.rs`, EVM's layout), checked before its digest or its labels
//! are trusted at the first open, exec or mmap of each version; else
//! `EACCES`.
//!
//! What is known of a file is kept in its inode's blob (`status.rs`):
//! decided once per version, forgotten when it is written, truncated, or
//! its xattrs or attributes change. Concurrent first accesses wait on the
//! inode's measurement lock, so a file is hashed once.
//!
//! Only regular files on file systems that keep contents (block devices,
//! tmpfs, ramfs) are measured or appraised; opens for writing only are
//! neither (nothing is read through them).
//!
//! The same source runs in the kernel and in the host tests
//! (`hook_tests.rs`), against the host model of the kernel objects and
//! host models of `crypto.rs` and `measurements.rs`
//! (`stacker/host/integrity_crypto.rs`, `integrity_measurements.rs`).

use super::crypto::{self, BitLock, Hmac};
use super::formats::{self, Digest, EvmInput, ImaXattr, Sink};
use super::measurements;
use super::rules::{self, Access, Decision, Func, Policy, MAY_EXEC, MAY_READ};
use super::status::{Known, Status};
use crate::access::AccessMask;
use crate::blob::{BlobState, HasBlob};
use crate::context::MaySleep;
use crate::error::{
    Result, EACCES, EBADMSG, EBUSY, EINTR, EINVAL, EKEYREJECTED, ENODATA, ENOKEY, ENOMEM,
    EOPNOTSUPP, EPERM, ERANGE,
};
use crate::objects::{
    current_has_sys_admin, Binprm, BinprmView, Cred, CredView, Dentry, DentryView, File, FileView,
    Inode, InodeView, Vma, VmaView, XattrCopyUp,
};
use crate::platform::{self, Dir, RcuBox, RcuCell, TextBuf};
use core::ffi::CStr;
use core::fmt::Write;
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The `integrity` submodule.
pub(crate) struct Integrity;

crate::submodule::state_key!(IntegrityKey for Integrity);

/// What the submodule keeps in an inode's blob.
#[derive(Default)]
pub(crate) struct FileIntegrity {
    /// What is known of the file, by version.
    status: Status,
    /// Held while the file is measured and appraised.
    lock: BitLock,
}

// SAFETY: all zero is version 0 with nothing known, unlocked; nothing
// needs dropping.
unsafe impl BlobState for FileIntegrity {}

/// The policy in force (`None`: nothing selected).
static POLICY: RcuCell<Policy> = RcuCell::new();
/// Set while a policy is being loaded: loads do not overlap.
static LOADING: AtomicBool = AtomicBool::new(false);
/// The HMAC key of `security.evm`, loaded once.
static EVM_KEY: RcuBox<[u8; EVM_KEY_LEN]> = RcuBox::new();
/// Set once an HMAC key load has started: there is only ever one.
static EVM_KEY_TAKEN: AtomicBool = AtomicBool::new(false);

/// The HMAC key's length, in bytes.
const EVM_KEY_LEN: usize = 32;
/// The largest `security.ima` read: a version 2 signature by a 4096-bit
/// RSA key is 9 + 512 bytes.
const MAX_IMA_XATTR: usize = 1024;
/// The largest covered xattr value read for the HMAC.
const MAX_COVERED_XATTR: usize = 1024;
/// The room for a measured file's path.
const PATH_ROOM: usize = 4096;

/// Counters, for `status`.
static APPRAISAL_DENIALS: AtomicU64 = AtomicU64::new(0);
static META_DENIALS: AtomicU64 = AtomicU64::new(0);
static POLICY_LOADS: AtomicU64 = AtomicU64::new(0);
static KEYS: AtomicU64 = AtomicU64::new(0);

use crate::abi::{
    ATTR_GID, ATTR_MODE, ATTR_SIZE, ATTR_UID, LOADING_FIRMWARE, LOADING_MODULE, PROT_EXEC,
    READING_FIRMWARE, READING_MODULE, READING_MODULE_COMPRESSED,
};
/// `MAY_WRITE`, `MAY_APPEND`.
const MAY_WRITE: u32 = crate::access::may::WRITE;
const MAY_APPEND: u32 = crate::access::may::APPEND;
/// `ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_SIZE`: the changes that alter
/// what the HMAC covers or the contents.
const ATTR_COVERED: u32 = ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_SIZE;

/// What the kernel read a file for (`enum kernel_read_file_id`), as a
/// `func`.
fn read_func(id: u32) -> Option<Func> {
    match id {
        // A compressed module is appraised on the file's bytes; the
        // decompressed image that follows finds the file's status known.
        READING_MODULE | READING_MODULE_COMPRESSED => Some(Func::Module),
        READING_FIRMWARE => Some(Func::Firmware),
        _ => None,
    }
}

/// What the kernel loaded from memory (`enum kernel_load_data_id`), as a
/// `func`.
fn load_func(id: u32) -> Option<Func> {
    match id {
        LOADING_MODULE => Some(Func::Module),
        LOADING_FIRMWARE => Some(Func::Firmware),
        _ => None,
    }
}

/// Whether `name` is an xattr whose change matters here: one the HMAC
/// covers, or `security.evm`.
fn covered(name: &[u8]) -> bool {
    name == b"security.evm" || formats::EVM_XATTRS.iter().any(|x| x.as_bytes() == name)
}

/// `security.ima` and `security.evm` may be set or removed only with
/// `CAP_SYS_ADMIN` in the initial user namespace (as IMA and EVM): a user
/// namespace's root could otherwise give a file of its own tmpfs any
/// digest. May sleep.
fn protect(name: &[u8]) -> Result {
    if (name == b"security.ima" || name == b"security.evm") && !current_has_sys_admin() {
        return Err(EPERM);
    }
    Ok(())
}

/// Whether `inode` has the mlte type `name` (`obj_type=`); `None` when
/// mlte could not read its label.
fn obj_type_is(inode: &Inode, name: &[u8]) -> Option<bool> {
    #[cfg(CONFIG_SECURITY_STACKER_MLTE)]
    {
        crate::mlte::hooks::inode_type_is(inode, name)
    }
    #[cfg(not(CONFIG_SECURITY_STACKER_MLTE))]
    {
        let _ = (inode, name);
        Some(false)
    }
}

/// What the policy selects for `file` at `func` with access `mask`.
fn decide(file: &File, func: Func, mask: u32) -> Decision {
    let inode = file.inode();
    let access = Cred::with_current(|cred| Access {
        func,
        mask,
        uid: cred.uid(),
        fowner: inode.uid(),
    });
    POLICY
        .read(|p| p.map(|p| p.decide(&access, |name| obj_type_is(inode, name))))
        .unwrap_or_default()
}

/// Whether an HMAC key is loaded.
fn evm_key_loaded() -> bool {
    EVM_KEY.read(|k| k.is_some())
}

/// Which check refused a file.
#[derive(Clone, Copy)]
enum Refused {
    /// `security.evm` (the HMAC).
    Metadata,
    /// `security.ima` (the digest or signature).
    Contents,
}

/// Why a file is refused, from what is known of it; `None`: allowed.
fn refusal(known: Known, d: &Decision, key_loaded: bool) -> Option<(Refused, &'static str)> {
    if key_loaded && known.has(Known::META_CHECKED) && !known.has(Known::META_OK) {
        if known.has(Known::META_UNREADABLE) {
            return Some((
                Refused::Metadata,
                "security.evm or a value it covers could not be read",
            ));
        }
        if !known.has(Known::META_ABSENT) {
            return Some((Refused::Metadata, "security.evm does not verify (HMAC)"));
        }
        if d.appraise {
            return Some((Refused::Metadata, "no security.evm"));
        }
    }
    if d.appraise {
        if !known.has(Known::DIGEST_OK) {
            let why = if known.has(Known::IMA_UNREADABLE) {
                "its contents or security.ima could not be read"
            } else if known.has(Known::IMA_ABSENT) {
                "no security.ima"
            } else if known.has(Known::IMA_MALFORMED) {
                "security.ima is malformed"
            } else if known.has(Known::NO_KEY) {
                "no key is loaded with the key id of the signature in security.ima"
            } else if known.has(Known::IMA_SIGNATURE) {
                "the signature in security.ima does not verify"
            } else {
                "security.ima does not match the contents"
            };
            return Some((Refused::Contents, why));
        }
        if d.signature && !known.has(Known::SIGNED) {
            return Some((
                Refused::Contents,
                "a signature is required (appraise_type=imasig)",
            ));
        }
    }
    None
}

/// A zeroed buffer on the heap, for a path or an xattr value (hook paths
/// are deep: big buffers stay off the stack). Sleeps.
fn zeroed<const N: usize>(cx: &MaySleep) -> Result<platform::OwnedBox<[u8; N]>> {
    platform::zeroed_box(cx)
}

/// A file's contents, to hash: read from the file, or given (a kernel
/// read's buffer).
enum Contents<'a> {
    File,
    Buffer(&'a [u8]),
}

/// Refuses `file` for `why`: counts it, logs it, `EACCES`.
fn refuse(cx: &MaySleep, file: &File, func: Func, which: Refused, why: &str) -> Result {
    let counter = match which {
        Refused::Metadata => &META_DENIALS,
        Refused::Contents => &APPRAISAL_DENIALS,
    };
    counter.fetch_add(1, Ordering::Relaxed);
    log_denial(cx, file, func, why);
    Err(EACCES)
}

/// Measures, appraises and verifies `file` as the policy says for `func`
/// and `mask`; `Err(EACCES)` when it is refused. May sleep.
///
/// What is cached of a file is trusted only while no one may write to it
/// (`i_writecount` is 0): while a writer is open, the contents are checked
/// again at every access and nothing but the measurement is cached (the
/// last writer's close forgets it).
fn check(cx: &MaySleep, file: &File, func: Func, mask: u32, contents: Contents<'_>) -> Result {
    let inode = file.inode();
    if !inode.is_reg() {
        return Ok(());
    }
    let d = decide(file, func, mask);
    let key_loaded = evm_key_loaded();
    if d.is_none() && !key_loaded {
        // The common case: nothing to do for this file.
        return Ok(());
    }
    if inode.on_pseudo_fs() {
        return Ok(());
    }
    let Some(state) = inode.state(&KEY) else {
        return Ok(());
    };
    if (d.appraise || key_loaded) && !inode.on_content_fs() {
        // Overlayfs, FUSE, network file systems: their contents or xattrs
        // can change below this inode, unseen. Fail closed.
        if d.appraise {
            return refuse(
                cx,
                file,
                func,
                Refused::Contents,
                "its file system cannot be appraised",
            );
        }
    }
    if d.appraise && func == Func::Mmap && file.writably_mapped() {
        // As IMA: the mapping could change it after the check.
        return refuse(
            cx,
            file,
            func,
            Refused::Contents,
            "it is mapped writable (shared)",
        );
    }
    let settled = inode.writers() <= 0;
    let trusted = |known: Known| {
        if settled {
            known
        } else {
            Known(known.0 & Known::MEASURED.0)
        }
    };
    let key_checks = key_loaded && inode.on_content_fs();
    let wanted = |known: Known| {
        (d.measure && !known.has(Known::MEASURED))
            || (d.appraise && !known.has(Known::APPRAISED))
            || (key_checks && !known.has(Known::META_CHECKED))
    };
    let mut known = trusted(state.status.get().known);
    if wanted(known) {
        // Under the inode's lock: one task measures, the others then find
        // it known.
        let _guard = state.lock.lock()?;
        let snap = state.status.get();
        known = trusted(snap.known);
        if wanted(known) {
            let learnt = learn(cx, file, &d, key_checks, known, &contents)?;
            // Not recorded if the file changed meanwhile; this access is
            // still decided on what was learnt.
            let keep = if settled {
                learnt.lasting()
            } else {
                Known(learnt.0 & Known::MEASURED.0)
            };
            state.status.record(snap.version, keep);
            known = known.with(learnt);
        }
    }
    match refusal(known, &d, key_checks) {
        None => Ok(()),
        Some((which, why)) => refuse(cx, file, func, which, why),
    }
}

/// Logs a refusal, rate-limited: what, where and why.
fn log_denial(cx: &MaySleep, file: &File, func: Func, why: &str) {
    if !platform::ratelimit_audit() {
        return;
    }
    let Ok(mut buf) = zeroed::<PATH_ROOM>(cx) else {
        return;
    };
    let path = file.path_in(&mut buf[..]).unwrap_or(b"?");
    let path = core::str::from_utf8(path).unwrap_or("(not UTF-8)");
    let (pid, comm) = platform::current_task();
    platform::pr_warn!(
        "integrity: appraise: denied {} of {} (pid {} comm \"{}\"): {}\n",
        func.name(),
        path,
        pid,
        crate::access::comm_str(&comm),
        why
    );
}

/// Finds out what `wanted` lacks of `file`, given what is `known`: hashes
/// it, appends the measurement, compares `security.ima`, checks
/// `security.evm`. What was learnt; `Err` only when memory ran out
/// (`ENOMEM`: no buffer, the list could not grow) or the task was killed.
/// An allocation failure decides nothing of the file: the access fails
/// with `ENOMEM`, nothing is cached nor counted as a denial, and the next
/// access checks again. Sleeps.
fn learn(
    cx: &MaySleep,
    file: &File,
    d: &Decision,
    key_loaded: bool,
    known: Known,
    contents: &Contents<'_>,
) -> Result<Known> {
    let mut learnt = Known::default();
    if key_loaded && !known.has(Known::META_CHECKED) {
        learnt = learnt.with(check_evm(cx, file)?);
    }
    let measure = d.measure && !known.has(Known::MEASURED);
    let appraise = d.appraise && !known.has(Known::APPRAISED);
    if !measure && !appraise {
        return Ok(learnt);
    }
    let digest = match contents {
        Contents::Buffer(buf) => crypto::sha256(buf),
        Contents::File => match crypto::hash_file(file) {
            Ok(digest) => digest,
            // Unreadable (an I/O error, `O_DIRECT`, a write-only mapping
            // request): nothing is measured, appraisal fails, and nothing
            // of it is cached.
            Err(e) if e == ENOMEM || e == EINTR => return Err(e),
            Err(_) => {
                return Ok(learnt
                    .with(Known::APPRAISED)
                    .with(Known::IMA_UNREADABLE)
                    .with(Known::TRANSIENT))
            }
        },
    };
    if measure {
        let mut buf = zeroed::<PATH_ROOM>(cx)?;
        let path = match file.absolute_path_in(&mut buf[..]) {
            Some(path) => path,
            None => file.path_in(&mut buf[..]).unwrap_or(b"(unknown)"),
        };
        measurements::append(&digest, path)?;
        learnt = learnt.with(Known::MEASURED);
    }
    if appraise {
        learnt = learnt.with(appraise_digest(cx, file, &digest)?);
    }
    Ok(learnt)
}

/// Compares `digest` with `file`'s `security.ima`: what was learnt
/// (`NO_KEY` for a signature by a key that is not loaded, which is not
/// cached: a key loaded later may verify it). `ENOMEM` when memory ran out
/// (for the buffer, reading the xattr, verifying a signature): that says
/// nothing of the file. Sleeps.
fn appraise_digest(cx: &MaySleep, file: &File, digest: &Digest) -> Result<Known> {
    let done = Known::APPRAISED;
    let mut buf = zeroed::<MAX_IMA_XATTR>(cx)?;
    let n = match file.getxattr(cx, c"security.ima", &mut buf[..]) {
        Ok(n) => n,
        Err(e) if e == ENODATA || e == EOPNOTSUPP => return Ok(done.with(Known::IMA_ABSENT)),
        // Longer than any value this module writes or takes.
        Err(e) if e == ERANGE => return Ok(done.with(Known::IMA_MALFORMED)),
        Err(e) if e == ENOMEM => return Err(ENOMEM),
        Err(_) => return Ok(done.with(Known::IMA_UNREADABLE).with(Known::TRANSIENT)),
    };
    Ok(match formats::parse_ima(buf.get(..n).unwrap_or(&[])) {
        Ok(ImaXattr::Digest(want)) if want == digest => done.with(Known::DIGEST_OK),
        Ok(ImaXattr::Digest(_)) => done,
        Ok(ImaXattr::Signature { keyid, sig }) => match crypto::verify(keyid, sig, digest) {
            Ok(()) => done
                .with(Known::IMA_SIGNATURE)
                .with(Known::DIGEST_OK)
                .with(Known::SIGNED),
            Err(e) if e == ENOKEY => {
                if platform::ratelimit_audit() {
                    platform::pr_warn!(
                        "integrity: ino {}: no key with id {:08x} for the signature in security.ima\n",
                        file.inode().ino(),
                        keyid
                    );
                }
                done.with(Known::IMA_SIGNATURE).with(Known::NO_KEY)
            }
            // The signature is wrong.
            Err(e) if e == EKEYREJECTED || e == EBADMSG => done.with(Known::IMA_SIGNATURE),
            // Malformed for the key -- or an allocation failure that the
            // kernel's RSA code reports as `EINVAL` (crypto/rsa.c), twice
            // in a row (`integrity_glue.c` checks twice): refused, but not
            // cached, so that a good file is not refused for good.
            Err(e) if e == EINVAL => done.with(Known::IMA_SIGNATURE).with(Known::TRANSIENT),
            Err(e) if e == ENOMEM => return Err(ENOMEM),
            Err(_) => done.with(Known::IMA_SIGNATURE).with(Known::TRANSIENT),
        },
        Err(why) => {
            log_bad_xattr(file, why);
            done.with(Known::IMA_MALFORMED)
        }
    })
}

/// Logs an xattr that could not be parsed, rate-limited.
fn log_bad_xattr(file: &File, why: &str) {
    if platform::ratelimit_audit() {
        platform::pr_warn!("integrity: ino {}: {}\n", file.inode().ino(), why);
    }
}

/// An HMAC fed by `EvmInput::feed`, which notes an xattr it could not
/// read, and whether that was for want of memory.
struct EvmHmac {
    hmac: Hmac,
    unreadable: bool,
    no_memory: bool,
}

impl Sink for EvmHmac {
    fn update(&mut self, bytes: &[u8]) {
        self.hmac.update(bytes);
    }
}

/// What overlayfs does with `src`'s `security.evm` when it copies the file
/// up, as EVM's `evm_inode_copy_up_xattr()`: a portable signature is
/// copied, anything else is left behind (an HMAC would not verify on the
/// new inode), and a value that cannot be read, or is empty, fails the
/// copy-up (`EPERM`). Stricter than EVM: a value longer than
/// `MAX_COVERED_XATTR` (no HMAC is) is not read, and fails it too. Sleeps.
fn evm_copy_up(cx: &MaySleep, src: &Dentry) -> XattrCopyUp {
    let Some(inode) = src.inode() else {
        return XattrCopyUp::Abort(EPERM);
    };
    let mut value = match zeroed::<MAX_COVERED_XATTR>(cx) {
        Ok(value) => value,
        Err(err) => return XattrCopyUp::Abort(err),
    };
    match src.getxattr_of(cx, inode, c"security.evm", &mut value[..]) {
        Ok(n) if n > 0 && formats::evm_survives_copy_up(&value[..n]) => XattrCopyUp::Copy,
        Ok(n) if n > 0 => XattrCopyUp::Discard,
        _ => XattrCopyUp::Abort(EPERM),
    }
}

/// Checks `file`'s `security.evm` with the loaded key: what was learnt.
/// `ENOMEM` when memory ran out (for the buffer, reading an xattr): that
/// says nothing of the file. Sleeps.
fn check_evm(cx: &MaySleep, file: &File) -> Result<Known> {
    let done = Known::META_CHECKED;
    let mut value = [0u8; 64];
    let n = match file.getxattr(cx, c"security.evm", &mut value) {
        Ok(n) => n,
        Err(e) if e == ENODATA || e == EOPNOTSUPP => return Ok(done.with(Known::META_ABSENT)),
        Err(e) if e == ERANGE => return Ok(done),
        Err(e) if e == ENOMEM => return Err(ENOMEM),
        Err(_) => return Ok(done.with(Known::META_UNREADABLE).with(Known::TRANSIENT)),
    };
    let want = match formats::parse_evm(value.get(..n).unwrap_or(&[])) {
        Ok(want) => *want,
        Err(why) => {
            log_bad_xattr(file, why);
            return Ok(done);
        }
    };
    let mut buf = zeroed::<MAX_COVERED_XATTR>(cx)?;
    let Some(mut key) = EVM_KEY.read(|k| k.copied()) else {
        return Ok(Known::default());
    };
    let hmac = Hmac::new(&key);
    wipe(&mut key);
    let Some(hmac) = hmac else {
        return Ok(done.with(Known::TRANSIENT));
    };
    let inode = file.inode();
    let input = EvmInput {
        ino: inode.ino(),
        generation: inode.generation(),
        uid: inode.uid(),
        gid: inode.gid(),
        mode: inode.mode(),
        uuid: inode.fs_uuid(),
    };
    let mut sink = EvmHmac {
        hmac,
        unreadable: false,
        no_memory: false,
    };
    input.feed(&mut sink, |name, sink| {
        let mut cname = [0u8; 32];
        let Some(slot) = cname.get_mut(..name.len()) else {
            sink.unreadable = true;
            return;
        };
        slot.copy_from_slice(name.as_bytes());
        let Ok(cname) = CStr::from_bytes_until_nul(&cname) else {
            sink.unreadable = true;
            return;
        };
        match file.getxattr(cx, cname, &mut buf[..]) {
            Ok(n) => sink.update(buf.get(..n).unwrap_or(&[])),
            Err(e) if e == ENODATA || e == EOPNOTSUPP => {}
            Err(e) => {
                sink.unreadable = true;
                sink.no_memory |= e == ENOMEM;
            }
        }
    });
    let (unreadable, no_memory) = (sink.unreadable, sink.no_memory);
    // Finished either way: the C side wipes the context.
    let got = sink.hmac.finish();
    if no_memory {
        return Err(ENOMEM);
    }
    Ok(if unreadable {
        done.with(Known::META_UNREADABLE).with(Known::TRANSIENT)
    } else if formats::same_secret(&got, &want) {
        done.with(Known::META_OK)
    } else {
        done
    })
}

/// Overwrites a copy of a key, in a way the compiler keeps.
fn wipe(key: &mut [u8; EVM_KEY_LEN]) {
    for b in key.iter_mut() {
        // SAFETY: `b` is a valid, aligned byte of `key`.
        unsafe { core::ptr::write_volatile(b, 0) };
    }
}

/// The file changed (contents, security xattrs or covered attributes):
/// forget what is known of it.
fn invalidate(inode: &Inode) {
    if let Some(state) = inode.state(&KEY) {
        state.status.invalidate();
    }
}

/// Loads a text policy, whole: the old one stays on any error.
fn load_policy(text: &[u8]) -> Result {
    if LOADING.swap(true, Ordering::Acquire) {
        return Err(EBUSY);
    }
    let result = POLICY.replace_with(|policy| {
        rules::parse_into(text, policy).map_err(|e| {
            platform::pr_warn!(
                "integrity: policy rejected: line {} col {}: {}; previous policy kept\n",
                e.line,
                e.col,
                e.why
            );
            EINVAL
        })
    });
    if result.is_ok() {
        POLICY_LOADS.fetch_add(1, Ordering::Relaxed);
        platform::pr_info!("integrity: policy loaded\n");
    }
    LOADING.store(false, Ordering::Release);
    result
}

/// `.../integrity/policy`: write a text policy (one `write()`); read the
/// rules in force.
struct PolicyFile;

impl crate::attribute::Attribute for PolicyFile {
    const WRITABLE: bool = true;
    const MAX_WRITE: usize = 64 << 10;

    fn show(out: &mut TextBuf) -> Result {
        // The policy is copied out of the RCU section: formatting
        // allocates.
        match POLICY.copy_out()? {
            Some(p) => out.format(|out| p.write_text(out)),
            None => Ok(()),
        }
    }

    fn store(input: &[u8]) -> Result {
        load_policy(input)
    }
}

/// `.../integrity/ascii_runtime_measurements`: IMA's ascii list.
struct MeasurementsFile;

impl crate::attribute::Attribute for MeasurementsFile {
    // It names files of every user, as IMA's (0440).
    const ROOT_ONLY: bool = true;

    fn show(out: &mut TextBuf) -> Result {
        out.format(measurements::write_ascii)
    }
}

/// `.../integrity/aggregate`: the running aggregate, `sha1:HEX`.
struct AggregateFile;

impl crate::attribute::Attribute for AggregateFile {
    fn show(out: &mut TextBuf) -> Result {
        let agg = measurements::aggregate();
        out.format(|out| {
            out.write_str("sha1:")?;
            formats::write_hex(out, &agg)?;
            out.write_char('\n')
        })
    }
}

/// `.../integrity/keys`: write one DER X.509 certificate to add a
/// signature key; read how many were added.
struct KeysFile;

impl crate::attribute::Attribute for KeysFile {
    const WRITABLE: bool = true;
    const MAX_WRITE: usize = 16 << 10;

    fn show(out: &mut TextBuf) -> Result {
        out.format(|out| writeln!(out, "{}", KEYS.load(Ordering::Relaxed)))
    }

    fn store(input: &[u8]) -> Result {
        match crypto::add_key(input) {
            Ok(()) => {
                KEYS.fetch_add(1, Ordering::Relaxed);
                platform::pr_info!("integrity: key added ({} bytes)\n", input.len());
                Ok(())
            }
            Err(e) => {
                platform::pr_warn!(
                    "integrity: key rejected: not an X.509 certificate the kernel accepts (error {}); keys unchanged\n",
                    e.to_errno()
                );
                Err(e)
            }
        }
    }
}

/// `.../integrity/evm_key`: write the 32-byte HMAC key, once; read
/// whether it is loaded.
struct EvmKeyFile;

impl crate::attribute::Attribute for EvmKeyFile {
    const WRITABLE: bool = true;

    fn show(out: &mut TextBuf) -> Result {
        out.format(|out| writeln!(out, "{}", u8::from(evm_key_loaded())))
    }

    fn store(input: &[u8]) -> Result {
        let Ok(mut key) = <[u8; EVM_KEY_LEN]>::try_from(input) else {
            platform::pr_warn!(
                "integrity: evm_key: {} bytes refused: the key is exactly {} raw bytes\n",
                input.len(),
                EVM_KEY_LEN
            );
            return Err(EINVAL);
        };
        if EVM_KEY_TAKEN.swap(true, Ordering::AcqRel) {
            platform::pr_warn!("integrity: evm_key: refused: a key is already loaded\n");
            return Err(EBUSY);
        }
        let loaded = EVM_KEY.replace(key);
        wipe(&mut key);
        match loaded {
            Ok(()) => {
                platform::pr_info!("integrity: HMAC key loaded\n");
                Ok(())
            }
            Err(e) => {
                EVM_KEY_TAKEN.store(false, Ordering::Release);
                Err(e)
            }
        }
    }
}

/// `.../integrity/status`: counters since boot.
struct StatusFile;

impl crate::attribute::Attribute for StatusFile {
    fn show(out: &mut TextBuf) -> Result {
        out.format(|out| {
            writeln!(out, "measurements {}", measurements::count())?;
            writeln!(
                out,
                "appraisal_denials {}",
                APPRAISAL_DENIALS.load(Ordering::Relaxed)
            )?;
            writeln!(out, "evm_denials {}", META_DENIALS.load(Ordering::Relaxed))?;
            writeln!(out, "policy_loads {}", POLICY_LOADS.load(Ordering::Relaxed))?;
            writeln!(out, "keys {}", KEYS.load(Ordering::Relaxed))
        })
    }
}

/// The access bits of an open, for `mask=`.
fn open_mask(mask: AccessMask) -> u32 {
    mask.0 & (MAY_READ | MAY_EXEC | MAY_WRITE | MAY_APPEND)
}

crate::submodule::submodule! {
    impl Submodule for Integrity {
        const NAME: &'static CStr = c"integrity";

        type Key = IntegrityKey;
        crate::submodule::blob_states! { inode: FileIntegrity }

        fn securityfs_init(&'static self, dir: &Dir) -> Result {
            // The list starts as IMA's does without a TPM.
            measurements::append(&[0; 32], b"boot_aggregate")?;
            dir.create_file::<PolicyFile>(c"policy")?;
            dir.create_file::<MeasurementsFile>(c"ascii_runtime_measurements")?;
            dir.create_file::<AggregateFile>(c"aggregate")?;
            dir.create_file::<KeysFile>(c"keys")?;
            dir.create_file::<EvmKeyFile>(c"evm_key")?;
            dir.create_file::<StatusFile>(c"status")
        }
    }
    hooks {
        fn bprm_check_security(&self, cx: &MaySleep, bprm: &Binprm) -> Result {
            check(cx, bprm.file(), Func::Bprm, MAY_EXEC, Contents::File)
        }

        fn mmap_file(&self, cx: &MaySleep, file: Option<&File>, _reqprot: u64, prot: u64, _flags: u64) -> Result {
            let Some(file) = file else { return Ok(()) };
            if prot & PROT_EXEC == 0 {
                return Ok(());
            }
            check(cx, file, Func::Mmap, MAY_EXEC, Contents::File)
        }

        fn file_mprotect(&self, cx: &MaySleep, vma: &Vma, _reqprot: u64, prot: u64) -> Result {
            // As IMA: making a file mapping executable is refused when
            // MMAP_CHECK would appraise the file, since it was not checked
            // when it was mapped (and is not hashed here, under the mmap
            // lock).
            let Some(file) = vma.file() else { return Ok(()) };
            if prot & PROT_EXEC == 0 || vma.executable() || !file.inode().is_reg() {
                return Ok(());
            }
            if decide(file, Func::Mmap, MAY_EXEC).appraise {
                APPRAISAL_DENIALS.fetch_add(1, Ordering::Relaxed);
                log_denial(cx, file, Func::Mmap, "mprotect(PROT_EXEC) of a file that MMAP_CHECK appraises");
                return Err(EPERM);
            }
            Ok(())
        }

        fn file_post_open(&self, cx: &MaySleep, file: &File, mask: AccessMask) -> Result {
            if file.writable() {
                invalidate(file.inode());
            }
            if !file.readable() {
                return Ok(());
            }
            check(cx, file, Func::File, open_mask(mask), Contents::File)
        }

        fn file_release(&self, _cx: &MaySleep, file: &File) {
            if file.writable() {
                invalidate(file.inode());
            }
        }

        fn kernel_read_file(&self, cx: &MaySleep, file: &File, id: u32, contents: bool) -> Result {
            // As IMA's `ima_read_file()`: a read of the whole file is
            // checked on the kernel's buffer (`kernel_post_read_file`,
            // which follows it). A read in pieces (a partial firmware
            // read) has no such hook after it, so the whole file is
            // measured and appraised now, from the file, before the
            // kernel reads any of it.
            if contents {
                return Ok(());
            }
            let Some(func) = read_func(id) else { return Ok(()) };
            check(cx, file, func, MAY_READ, Contents::File)
        }

        fn kernel_post_read_file(&self, cx: &MaySleep, file: &File, buf: &[u8], id: u32) -> Result {
            let Some(func) = read_func(id) else { return Ok(()) };
            check(cx, file, func, MAY_READ, Contents::Buffer(buf))
        }

        fn inode_post_setattr(&self, _cx: &MaySleep, dentry: &Dentry, valid: u32) {
            if valid & ATTR_COVERED != 0 {
                if let Some(inode) = dentry.inode() {
                    invalidate(inode);
                }
            }
        }

        fn inode_setxattr(&self, _cx: &MaySleep, _dentry: &Dentry, name: &[u8], _value: &[u8], _flags: i32) -> Result {
            protect(name)
        }

        fn inode_removexattr(&self, _cx: &MaySleep, _dentry: &Dentry, name: &[u8]) -> Result {
            protect(name)
        }

        fn inode_copy_up_xattr(&self, cx: &MaySleep, src: &Dentry, name: &[u8]) -> XattrCopyUp {
            if name == b"security.evm" {
                evm_copy_up(cx, src)
            } else {
                XattrCopyUp::NotMine
            }
        }

        fn inode_post_setxattr(&self, _cx: &MaySleep, dentry: &Dentry, name: &[u8], _value: &[u8], _flags: i32) {
            if covered(name) {
                if let Some(inode) = dentry.inode() {
                    invalidate(inode);
                }
            }
        }

        fn inode_post_removexattr(&self, _cx: &MaySleep, dentry: &Dentry, name: &[u8]) {
            if covered(name) {
                if let Some(inode) = dentry.inode() {
                    invalidate(inode);
                }
            }
        }

        fn kernel_load_data(&self, _cx: &MaySleep, id: u32, _contents: bool) -> Result {
            // Data loaded from memory (init_module(2), the firmware
            // fallback) has no file and no security.ima: refused when the
            // policy appraises what it is, as IMA does.
            let Some(func) = load_func(id) else { return Ok(()) };
            if POLICY.read(|p| p.is_some_and(|p| p.appraises(func))) {
                APPRAISAL_DENIALS.fetch_add(1, Ordering::Relaxed);
                if platform::ratelimit_audit() {
                    platform::pr_warn!(
                        "integrity: appraise: denied {} loaded from memory: the policy appraises it\n",
                        func.name()
                    );
                }
                return Err(EACCES);
            }
            Ok(())
        }
    }
}

#[cfg(test)]
#[path = "hook_tests.rs"]
mod tests;
