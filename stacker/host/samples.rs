// SPDX-License-Identifier: GPL-2.0

//! A sample value of every argument type of the hook table, so that a test
//! can call any hook's dispatch function with arguments made from the table
//! itself (`tests.rs`).
//!
//! References are to leaked objects: a test process is short-lived. Make
//! samples after `Harness::boot`, whose layout sizes their blobs.

use crate::objects::*;
use std::sync::Arc;

/// A sample value of a hook argument type.
pub(crate) trait Sample {
    /// The sample.
    fn sample() -> Self;
}

/// An object a sample reference can point to.
pub(crate) trait SampleObject: Sized + 'static {
    /// A new object.
    fn make() -> Self;
}

impl<T: SampleObject> Sample for &'static T {
    fn sample() -> Self {
        Box::leak(Box::new(T::make()))
    }
}

impl<T: SampleObject> Sample for &'static mut T {
    fn sample() -> Self {
        Box::leak(Box::new(T::make()))
    }
}

impl<T: SampleObject> Sample for Option<&'static T> {
    fn sample() -> Self {
        Some(<&'static T>::sample())
    }
}

impl Sample for &'static crate::context::MaySleep {
    fn sample() -> Self {
        Box::leak(Box::new(crate::harness::cx()))
    }
}

impl Sample for &'static [u8] {
    fn sample() -> Self {
        b"sample"
    }
}

impl Sample for Option<&'static [u8]> {
    fn sample() -> Self {
        Some(b"sample")
    }
}

macro_rules! plain_samples {
    ($($ty:ty = $value:expr;)*) => {
        $(impl Sample for $ty {
            fn sample() -> Self {
                $value
            }
        })*
    };
}

plain_samples! {
    bool = true;
    i16 = 1;
    i32 = 1;
    i64 = 1;
    u16 = 0o644;
    u32 = 1;
    u64 = 1;
    [u64; 4] = [1, 2, 3, 4];
    AccessMask = AccessMask::from_raw(4);
    KernelCap = KernelCap(1);
    MmapAddr = MmapAddr { addr: 1 << 20, min: 1 << 16 };
}

fn dentry() -> Arc<Dentry> {
    Arc::new(Dentry {
        name: b"sample".to_vec(),
        inode: Some(Arc::new(Inode::new(7, false))),
    })
}

pub(crate) fn file() -> File {
    let d = dentry();
    let inode = d
        .inode
        .clone()
        .unwrap_or_else(|| Arc::new(Inode::new(7, false)));
    File::new(d, inode)
}

macro_rules! sample_objects {
    ($($ty:ty = $value:expr;)*) => {
        $(impl SampleObject for $ty {
            fn make() -> Self {
                $value
            }
        })*
    };
}

sample_objects! {
    Inode = Inode::new(7, false);
    Dentry = Dentry { name: b"sample".to_vec(), inode: Some(Arc::new(Inode::new(7, false))) };
    File = file();
    FileSecurity = FileSecurity::new();
    Cred = Cred::new(0);
    Task = Task::new(1);
    Binprm = Binprm::new(Arc::new(file()), Arc::new(Cred::new(0)));
    CommittedBinprm = CommittedBinprm { file: Arc::new(file()) };
    PreparedCred<'static> = PreparedCred { cred: <&Cred>::sample() };
    InodeBlob<'static> = InodeBlob { blob: Box::leak(Box::new(Inode::new(7, false).into_blob())) };
    Socket = Socket { sock: Some(Arc::new(Sock::new(1))), inode: Arc::new(Inode::new(8, false)) };
    Sock = Sock::new(1);
    SockSecurity = SockSecurity::new();
    IpcPerm = IpcPerm::new();
    Vma = Vma::new(Some(Arc::new(file())));
    Iattr = Iattr::default();
    Path = Path { dentry: dentry() };
    Superblock = Superblock::new(0x0102_1994);
    Vfsmount = Vfsmount { sb: Arc::new(Superblock::new(0x0102_1994)) };
    MsgMsg = MsgMsg::new(1);
    MsgMsgSecurity = MsgMsgSecurity::new();
    Key = Key::new(1);
    XattrNames<'static> = XattrNames { names: Box::leak(Box::default()), room: None };
}
