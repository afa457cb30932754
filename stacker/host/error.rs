// SPDX-License-Identifier: GPL-2.0

//! Host stand-in for `kernel::error`: an errno in a newtype.

use core::fmt;

/// A kernel error code (a negative errno).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Error(i32);

impl Error {
    /// The negative errno, as a hook returns it.
    pub(crate) fn to_errno(self) -> i32 {
        self.0
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({})", self.0)
    }
}

/// The result type of hooks.
pub(crate) type Result<T = (), E = Error> = core::result::Result<T, E>;

macro_rules! codes {
    ($($name:ident = $v:literal,)*) => {
        $(
            #[doc = concat!("`-", stringify!($name), "`.")]
            pub(crate) const $name: Error = Error(-$v);
        )*
    };
}

codes! {
    EPERM = 1,
    ENOENT = 2,
    EAGAIN = 11,
    EINTR = 4,
    ECHILD = 10,
    EIO = 5,
    ENOMEM = 12,
    EBUSY = 16,
    EACCES = 13,
    ENODEV = 19,
    EINVAL = 22,
    EFAULT = 14,
    EFBIG = 27,
    ENOSPC = 28,
    EROFS = 30,
    ERANGE = 34,
    ENOSYS = 38,
    ENODATA = 61,
    EBADMSG = 74,
    ENOPROTOOPT = 92,
    EOPNOTSUPP = 95,
    ENOKEY = 126,
    EKEYREJECTED = 129,
}
