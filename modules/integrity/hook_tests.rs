// SPDX-License-Identifier: GPL-2.0

//! Host tests of integrity's hook bodies (`hooks.rs`): the same source as
//! the kernel's, run through the host model of the kernel objects
//! (`stacker/host/harness.rs`) and the host models of `crypto.rs` and
//! `measurements.rs` (`stacker/host/integrity_crypto.rs`,
//! `integrity_measurements.rs`), with policies and the HMAC key written
//! to the submodule's securityfs files as userspace writes them.
//!
//! The policy, the HMAC key and the measurement list are global, as in the
//! kernel: the tests take [`SERIAL`], each loads the policy it needs, and
//! the key is loaded by the first test that boots (it can only be loaded
//! once), so every file an appraise rule selects carries a valid
//! `security.evm`, computed independently by `crate::evm_xattr`.
//! Expected digests are computed with `sha2` directly.

use super::*;
use crate::harness::{cx, Harness};
use crate::objects::{AccessMask, Binprm, Cred, Dentry, HostFs, Vma, XattrCopyUp};
use crate::submodule::Submodule;
use sha2::Digest as _;
use std::sync::{Arc, Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

/// The HMAC key the tests load into `evm_key`.
const EVM_KEY_BYTES: &[u8; EVM_KEY_LEN] = b"stacker host integrity evm key!!";

/// The boot test's policy (`tests/guest/integrity/test.policy`): files
/// are selected by owner: 1000 appraised at exec, 1001 appraised at exec
/// with a signature required, 1002 measured when read, 1003 appraised when
/// read; every executed file measured.
const TEST_POLICY: &str = include_str!("../../tests/guest/integrity/test.policy");

/// The chain `integrity` booted (its securityfs files created), the boot
/// test's policy loaded through `integrity/policy`, the HMAC key loaded
/// through `integrity/evm_key`, and the current task root.
fn boot() -> (MutexGuard<'static, ()>, Harness) {
    let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let h = Harness::boot("integrity").expect("integrity lays out");
    assert_eq!(load(TEST_POLICY), Ok(()));
    match platform::write_file("stacker/integrity/evm_key", EVM_KEY_BYTES, true) {
        Ok(()) => {}
        // Loaded by an earlier test: it is the same key.
        Err(e) => assert_eq!(e, EBUSY),
    }
    assert!(evm_key_loaded());
    Cred::set_current(Arc::new(Cred::new(0)));
    (serial, h)
}

fn load(policy: &str) -> Result {
    platform::write_file("stacker/integrity/policy", policy.as_bytes(), true)
}

fn read(name: &str) -> String {
    let bytes = platform::read_file(&format!("stacker/integrity/{name}")).expect("reads");
    String::from_utf8(bytes).expect("text")
}

/// `security.ima` as `evmctl ima_hash` writes it: `0x04`, SHA-256 (`0x04`),
/// the digest.
fn ima_hash(contents: &[u8]) -> Vec<u8> {
    let mut v = vec![0x04, 0x04];
    v.extend_from_slice(&sha2::Sha256::digest(contents));
    v
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `security.evm` of `inode` as it is now, under the tests' key,
/// computed by `crate::evm_xattr` (the host's own HMAC).
fn evm_of(inode: &crate::objects::Inode) -> Vec<u8> {
    let xattrs: Vec<(String, Vec<u8>)> = inode
        .xattrs
        .borrow()
        .iter()
        .map(|(n, v)| (String::from_utf8(n.clone()).unwrap(), v.clone()))
        .collect();
    crate::evm_xattr(
        EVM_KEY_BYTES,
        inode.ino(),
        inode.generation(),
        inode.uid(),
        inode.gid(),
        inode.mode(),
        inode.fs_uuid(),
        &xattrs,
    )
}

/// A regular file `name` owned by `owner` holding `contents`, with the
/// xattrs `xattrs` and, if `evm`, a valid `security.evm` over them.
fn file(
    h: &Harness,
    name: &str,
    owner: u32,
    contents: &[u8],
    xattrs: &[(&str, &[u8])],
    evm: bool,
) -> Arc<Dentry> {
    let dentry = h.create(name).expect("create");
    let inode = dentry.inode().unwrap();
    inode.uid.set(owner);
    inode.gid.set(owner);
    inode.generation.set(7);
    *inode.contents.borrow_mut() = contents.to_vec();
    for (n, v) in xattrs {
        inode
            .xattrs
            .borrow_mut()
            .insert(n.as_bytes().to_vec(), v.to_vec());
    }
    if evm {
        let value = evm_of(inode);
        inode
            .xattrs
            .borrow_mut()
            .insert(b"security.evm".to_vec(), value);
    }
    dentry
}

/// Opens `dentry` for reading as `file_post_open` sees it.
fn open(dentry: &Arc<Dentry>) -> Result {
    let inode = dentry.inode.clone().unwrap();
    let file = crate::objects::File::new(dentry.clone(), inode);
    Integrity.file_post_open(&cx(), &file, AccessMask(MAY_READ))
}

/// Executes `dentry` as `bprm_check_security` sees it.
fn exec(dentry: &Arc<Dentry>) -> Result {
    let inode = dentry.inode.clone().unwrap();
    let file = Arc::new(crate::objects::File::new(dentry.clone(), inode));
    let bprm = Binprm::new(file, Arc::new(Cred::new(0)));
    Integrity.bprm_check_security(&cx(), &bprm)
}

/// The measurement list's lines that name `path`.
fn measured(path: &str) -> Vec<String> {
    read("ascii_runtime_measurements")
        .lines()
        .filter(|l| l.ends_with(&format!(" {path}")))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_policy_file_takes_a_policy_and_keeps_it_on_error() {
    let (_s, _h) = boot();
    // Read back as written: the rule lines of the file.
    let rules: Vec<&str> = TEST_POLICY
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(read("policy").lines().collect::<Vec<_>>(), rules);
    // A bad policy is refused whole: the old one stays.
    let loads = POLICY_LOADS.load(Ordering::Relaxed);
    assert_eq!(
        load("measure func=BPRM_CHECK\nappraise func=NO_SUCH_CHECK\n"),
        Err(EINVAL)
    );
    assert_eq!(read("policy").lines().collect::<Vec<_>>(), rules);
    assert_eq!(POLICY_LOADS.load(Ordering::Relaxed), loads);
    // A new one replaces it.
    assert_eq!(load("measure func=MMAP_CHECK uid=5\n"), Ok(()));
    assert_eq!(read("policy"), "measure func=MMAP_CHECK uid=5\n");
    assert!(read("status").contains(&format!("policy_loads {}\n", loads + 1)));
}

#[test]
fn a_measured_file_is_listed_once_with_its_ima_ng_digest() {
    let (_s, h) = boot();
    let contents = b"data measured when read\n";
    let data = file(&h, "measured data", 1002, contents, &[], false);
    let other = file(&h, "not-measured", 1004, b"not selected\n", &[], false);
    let before = measurements::count();
    assert_eq!(open(&data), Ok(()));
    assert_eq!(open(&data), Ok(()));
    assert_eq!(open(&other), Ok(()));
    assert_eq!(measurements::count(), before + 1);
    // The path's space is IMA's `_`.
    let lines = measured("/measured_data");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let digest = sha2::Sha256::digest(contents);
    // The template hash: SHA-1 over the ima-ng fields, computed here.
    let mut template = sha1::Sha1::new();
    let path = b"/measured_data\0";
    sha1::Digest::update(&mut template, 40u32.to_le_bytes());
    sha1::Digest::update(&mut template, b"sha256:\0");
    sha1::Digest::update(&mut template, digest);
    sha1::Digest::update(&mut template, (path.len() as u32).to_le_bytes());
    sha1::Digest::update(&mut template, path);
    assert_eq!(
        lines[0],
        format!(
            "10 {} ima-ng sha256:{} /measured_data",
            hex(&template.finalize()),
            hex(&digest)
        )
    );
    assert!(measured("/not-measured").is_empty());
    // New contents, once the file was written: a second entry.
    *data.inode().unwrap().contents.borrow_mut() = b"changed\n".to_vec();
    let inode = data.inode.clone().unwrap();
    let writer = crate::objects::File::opened(data.clone(), inode, false, true);
    Integrity.file_release(&cx(), &writer);
    assert_eq!(open(&data), Ok(()));
    assert_eq!(measured("/measured_data").len(), 2);
    assert_eq!(measurements::count(), before + 2);
    // Back to the first contents: measured again, but the same template
    // hash is not listed twice (as IMA).
    *data.inode().unwrap().contents.borrow_mut() = contents.to_vec();
    Integrity.file_release(&cx(), &writer);
    assert_eq!(open(&data), Ok(()));
    assert_eq!(measured("/measured_data").len(), 2);
    assert_eq!(measurements::count(), before + 2);
}

#[test]
fn appraisal_takes_the_right_digest_and_refuses_a_wrong_or_missing_one() {
    let (_s, h) = boot();
    let contents = b"#!/bin/sh\necho hashed\n";
    let good = file(
        &h,
        "hashed",
        1000,
        contents,
        &[("security.ima", &ima_hash(contents))],
        true,
    );
    let wrong = file(
        &h,
        "wrong",
        1000,
        contents,
        &[("security.ima", &ima_hash(b"other"))],
        true,
    );
    let none = file(&h, "unhashed", 1000, contents, &[], true);
    let denials = APPRAISAL_DENIALS.load(Ordering::Relaxed);
    assert_eq!(exec(&good), Ok(()));
    assert_eq!(exec(&wrong), Err(EACCES));
    assert_eq!(exec(&none), Err(EACCES));
    assert_eq!(APPRAISAL_DENIALS.load(Ordering::Relaxed), denials + 2);
    // Decided once per version: the contents change under a writer and the
    // file is refused again (not the cached answer).
    assert_eq!(exec(&good), Ok(()));
    *good.inode().unwrap().contents.borrow_mut() = b"#!/bin/sh\necho changed\n".to_vec();
    let inode = good.inode.clone().unwrap();
    let writer = crate::objects::File::opened(good.clone(), inode, false, true);
    Integrity.file_release(&cx(), &writer);
    assert_eq!(exec(&good), Err(EACCES));
    // A file the appraise rules do not select (owner 1002) runs.
    let free = file(&h, "free", 1002, contents, &[], false);
    assert_eq!(exec(&free), Ok(()));
}

#[test]
fn a_signature_without_a_loaded_key_is_refused() {
    let (_s, h) = boot();
    let contents = b"signed\n";
    // A version 2 signature header (type 3, version 2, SHA-256, key id,
    // length) and 4 bytes of signature: the host has no keys (ENOKEY).
    let sig = [3, 2, 4, 0xde, 0xad, 0xbe, 0xef, 0, 4, 1, 2, 3, 4];
    let signed = file(
        &h,
        "signed",
        1001,
        contents,
        &[("security.ima", &sig)],
        true,
    );
    assert_eq!(exec(&signed), Err(EACCES));
    // imasig: a digest is not enough.
    let hashed = file(
        &h,
        "hashed-only",
        1001,
        contents,
        &[("security.ima", &ima_hash(contents))],
        true,
    );
    assert_eq!(exec(&hashed), Err(EACCES));
    assert_eq!(
        platform::write_file("stacker/integrity/keys", b"not a cert", true),
        Err(EOPNOTSUPP)
    );
}

#[test]
fn security_evm_is_checked_with_the_loaded_key() {
    let (_s, h) = boot();
    let contents = b"meta\n";
    let ima = ima_hash(contents);
    let good = file(&h, "meta", 1003, contents, &[("security.ima", &ima)], true);
    let none = file(
        &h,
        "meta-none",
        1003,
        contents,
        &[("security.ima", &ima)],
        false,
    );
    let forged = file(
        &h,
        "meta-forged",
        1003,
        contents,
        &[("security.ima", &ima)],
        false,
    );
    let mut value = evm_of(forged.inode().unwrap());
    *value.last_mut().unwrap() ^= 1;
    forged
        .inode()
        .unwrap()
        .xattrs
        .borrow_mut()
        .insert(b"security.evm".to_vec(), value);
    let denials = META_DENIALS.load(Ordering::Relaxed);
    assert_eq!(open(&good), Ok(()));
    assert_eq!(open(&none), Err(EACCES), "appraised: security.evm required");
    assert_eq!(open(&forged), Err(EACCES));
    assert_eq!(META_DENIALS.load(Ordering::Relaxed), denials + 2);
    // A file no appraise rule selects needs no security.evm, but one it
    // carries must verify.
    let plain = file(&h, "plain", 1004, contents, &[], false);
    assert_eq!(open(&plain), Ok(()));
    let bad = file(&h, "plain-bad", 1004, contents, &[], false);
    bad.inode()
        .unwrap()
        .xattrs
        .borrow_mut()
        .insert(b"security.evm".to_vec(), evm_of(good.inode().unwrap()));
    assert_eq!(open(&bad), Err(EACCES));
    // A chown the HMAC covers: forgotten, checked again, refused.
    assert_eq!(open(&good), Ok(()));
    good.inode().unwrap().uid.set(1003 + 1000);
    Integrity.inode_post_setattr(&cx(), &good, ATTR_UID);
    assert_eq!(open(&good), Err(EACCES));
}

#[test]
fn only_content_file_systems_are_appraised() {
    let (_s, h) = boot();
    let contents = b"#!/bin/sh\n";
    let ima = ima_hash(contents);
    let fuse = file(
        &h,
        "on-fuse",
        1000,
        contents,
        &[("security.ima", &ima)],
        true,
    );
    fuse.inode().unwrap().fs.set(HostFs::FUSE);
    assert_eq!(exec(&fuse), Err(EACCES));
    // A pseudo file system is neither measured nor appraised.
    let proc = file(&h, "on-proc", 1000, contents, &[], false);
    proc.inode().unwrap().fs.set(HostFs::PROC);
    assert_eq!(exec(&proc), Ok(()));
    // tmpfs keeps contents: appraised, and its (zero) UUID is in the HMAC.
    let tmp = file(
        &h,
        "on-tmpfs",
        1000,
        contents,
        &[("security.ima", &ima)],
        false,
    );
    tmp.inode().unwrap().fs.set(HostFs::TMPFS);
    let value = evm_of(tmp.inode().unwrap());
    tmp.inode()
        .unwrap()
        .xattrs
        .borrow_mut()
        .insert(b"security.evm".to_vec(), value);
    assert_eq!(exec(&tmp), Ok(()));
}

#[test]
fn mprotect_exec_and_loads_from_memory_are_refused_where_appraised() {
    let (_s, h) = boot();
    assert_eq!(
        load("appraise func=MMAP_CHECK fowner=1000\nappraise func=MODULE_CHECK\n"),
        Ok(())
    );
    let lib = file(&h, "lib.so", 1000, b"\x7fELF", &[], true);
    let other = file(&h, "other.so", 1002, b"\x7fELF", &[], true);
    let vma = |d: &Arc<Dentry>| {
        let inode = d.inode.clone().unwrap();
        Vma::new(Some(Arc::new(crate::objects::File::new(d.clone(), inode))))
    };
    assert_eq!(
        Integrity.file_mprotect(&cx(), &vma(&lib), 0, PROT_EXEC),
        Err(EPERM)
    );
    assert_eq!(Integrity.file_mprotect(&cx(), &vma(&lib), 0, 1), Ok(()));
    assert_eq!(
        Integrity.file_mprotect(&cx(), &vma(&other), 0, PROT_EXEC),
        Ok(())
    );
    assert_eq!(
        Integrity.kernel_load_data(&cx(), LOADING_MODULE, true),
        Err(EACCES)
    );
    assert_eq!(
        Integrity.kernel_load_data(&cx(), LOADING_FIRMWARE, true),
        Ok(())
    );
}

#[test]
fn only_sys_admin_sets_security_ima_and_evm() {
    let (_s, _h) = boot();
    let d = Dentry {
        name: b"f".to_vec(),
        inode: None,
    };
    assert_eq!(
        Integrity.inode_setxattr(&cx(), &d, b"security.ima", b"", 0),
        Ok(())
    );
    Cred::set_current(Arc::new(Cred::new(1000)));
    assert_eq!(
        Integrity.inode_setxattr(&cx(), &d, b"security.ima", b"", 0),
        Err(EPERM)
    );
    assert_eq!(
        Integrity.inode_removexattr(&cx(), &d, b"security.evm"),
        Err(EPERM)
    );
    assert_eq!(
        Integrity.inode_setxattr(&cx(), &d, b"user.x", b"", 0),
        Ok(())
    );
}

/// An overlayfs copy-up, as EVM's `evm_inode_copy_up_xattr()`: an HMAC in
/// `security.evm` is bound to the lower inode and stays behind, a portable
/// signature is copied, an empty or unreadable value fails the copy-up,
/// and every other xattr is not integrity's to decide (`security.ima` is
/// copied, as IMA has no such hook).
#[test]
fn copy_up_leaves_an_hmac_behind_and_keeps_a_portable_signature() {
    let (_s, h) = boot();
    let copy_up = |d: &Dentry, name: &[u8]| {
        crate::dispatch::inode_copy_up_xattr::<crate::dispatch::Loop>(&cx(), d, name)
    };
    let hmac = file(
        &h,
        "hmac",
        1000,
        b"x",
        &[("security.ima", &ima_hash(b"x"))],
        true,
    );
    assert_eq!(copy_up(&hmac, b"security.evm"), XattrCopyUp::Discard);
    assert_eq!(copy_up(&hmac, b"security.ima"), XattrCopyUp::NotMine);
    assert_eq!(copy_up(&hmac, b"user.x"), XattrCopyUp::NotMine);
    let portable = file(
        &h,
        "portable",
        1000,
        b"x",
        &[("security.evm", &[0x05, 2, 4, 1, 2, 3, 4, 0, 1, 9])],
        false,
    );
    assert_eq!(copy_up(&portable, b"security.evm"), XattrCopyUp::Copy);
    let signed = file(
        &h,
        "signed",
        1000,
        b"x",
        &[("security.evm", &[0x03, 2, 4, 1, 2, 3, 4, 0, 1, 9])],
        false,
    );
    assert_eq!(copy_up(&signed, b"security.evm"), XattrCopyUp::Discard);
    let empty = file(&h, "empty", 1000, b"x", &[("security.evm", &[])], false);
    assert_eq!(copy_up(&empty, b"security.evm"), XattrCopyUp::Abort(EPERM));
    let none = file(&h, "none", 1000, b"x", &[], false);
    assert_eq!(copy_up(&none, b"security.evm"), XattrCopyUp::Abort(EPERM));
    let long = file(
        &h,
        "long",
        1000,
        b"x",
        &[("security.evm", &[0x05; 2000])],
        false,
    );
    assert_eq!(copy_up(&long, b"security.evm"), XattrCopyUp::Abort(EPERM));
}

/// A kernel read in pieces (`kernel_read_file` with `contents` false: a
/// partial firmware read, which `kernel_post_read_file` never follows) is
/// appraised on the whole file, from the file, as IMA's `ima_read_file()`;
/// a whole read waits for the buffer. Firmware no rule selects, and reads
/// with no `func`, are not checked.
#[test]
fn a_read_in_pieces_is_appraised_on_the_whole_file() {
    let (_s, h) = boot();
    assert_eq!(load("appraise func=FIRMWARE_CHECK fowner=1000\n"), Ok(()));
    let good = file(
        &h,
        "good.bin",
        1000,
        b"fw",
        &[("security.ima", &ima_hash(b"fw"))],
        true,
    );
    let bad = file(
        &h,
        "bad.bin",
        1000,
        b"fw",
        &[("security.ima", &ima_hash(b"other"))],
        true,
    );
    let other = file(&h, "other.bin", 1002, b"fw", &[], true);
    let read = |d: &Arc<Dentry>, id: u32, contents: bool| {
        let inode = d.inode.clone().unwrap();
        let f = crate::objects::File::new(d.clone(), inode);
        crate::dispatch::kernel_read_file::<crate::dispatch::Loop>(&cx(), &f, id, contents)
    };
    assert_eq!(read(&good, READING_FIRMWARE, false), Ok(()));
    assert_eq!(read(&bad, READING_FIRMWARE, false), Err(EACCES));
    // A whole read is appraised on its buffer, after this hook.
    assert_eq!(read(&bad, READING_FIRMWARE, true), Ok(()));
    assert_eq!(read(&other, READING_FIRMWARE, false), Ok(()));
    assert_eq!(read(&bad, crate::abi::READING_MODULE, false), Ok(()));
}
