// SPDX-License-Identifier: GPL-2.0

//! The trait that every stacker submodule implements.
//!
//! The trait's hook methods are made from the hook table (`hook_table.rs`),
//! each with a default that means "no opinion". A submodule implements the
//! trait through [`submodule!`], which makes its hook set
//! ([`Submodule::HOOKS`]) from the methods it implements: only those hooks
//! are registered and called.
//! A denial is an `Err` with a kernel error code, never a panic.
//!
//! The argument types come from `crate::objects`: thin wrappers of the
//! kernel's objects in the kernel, an in-memory model on the host. The same
//! submodule source compiles against both. Hooks that see an object half
//! built or half torn down get a narrower view with only what is valid
//! there (`FileSecurity`, `CommittedBinprm`, `PreparedCred`, and the bare
//! inode state of `inode_free_security_rcu`).
//!
//! # Freeing state
//!
//! Blob state is never dropped. State that owns something is released in
//! the matching free hook:
//!
//! - `inode_free_security`: the inode is being evicted. RCU-walk path
//!   lookups (`inode_permission` with `MAY_NOT_BLOCK`) may still reach the
//!   inode, and its state, during and after this hook; release here only
//!   what they never read;
//! - `inode_free_security_rcu`: a grace period later, from an RCU callback
//!   (atomic context: no sleeping), with only the submodule's own inode
//!   state; no path walk can see the inode any more. Release here what
//!   RCU-walk readers may read;
//! - `file_free_security`, `cred_free`, `task_free`: also called after a
//!   failed allocation, for objects whose `*_alloc_security` never ran
//!   (their state is then all zero). `cred_free` and `task_free` may run
//!   from RCU callbacks: no sleeping.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::blob::BlobState;
use crate::error::{Result, EINVAL, ENOPROTOOPT, ENOSYS, EOPNOTSUPP};
use crate::hook::HookSet;
#[allow(unused_imports)]
use crate::objects::*;
use crate::platform::Dir;
use core::ffi::CStr;

/// A security module that runs behind stacker.
pub(crate) trait Submodule: Sync + 'static {
    /// Name in `stacker.chain=`, in `/sys/kernel/security/stacker/chain`,
    /// and of the submodule's securityfs directory.
    const NAME: &'static CStr;

    /// The hooks this submodule implements. Others are never called.
    /// Made by [`submodule!`] from the methods the submodule implements.
    const HOOKS: HookSet;

    /// The key to this submodule's blob state ([`crate::blob::StateKey`]),
    /// made by [`state_key!`] in the submodule's own module, which alone
    /// can make one.
    type Key: crate::blob::StateKey<Owner = Self>;

    /// How many xattrs `inode_init_security` may add (LSM xattr slots).
    const XATTR_COUNT: u32 = 0;

    /// For a label-bearing submodule (one that implements
    /// `secid_to_secctx`, `core/lsm_prop.rs`): the LSM id its labels go by
    /// (`LSM_ID_*` of `include/uapi/linux/lsm.h`), in `lsm_context.id` and
    /// in audit's `subj_NAME=`. 0 for none (the kernel build refuses a
    /// label-bearing submodule without one).
    const LSM_ID: u64 = 0;

    // The state in each kind of object's blob (`()` for none):
    // `InodeState`, `CredState`, ... (`object_kinds!`).
    crate::layout::object_kinds!(crate::submodule::state_types);

    /// Called once at boot, before any hook can run.
    fn init(&'static self) -> Result {
        Ok(())
    }

    /// Creates the submodule's files in its securityfs directory.
    fn securityfs_init(&'static self, _dir: &Dir) -> Result {
        Ok(())
    }

    crate::hook_table::hook_table!(crate::submodule::hook_methods);
}

/// Declares one [`Submodule`] method per hook, with its "no opinion"
/// default, from the hook table.
macro_rules! hook_methods {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        $(
            crate::submodule::hook_methods!(@one $rule $name ($($rarg: $rty),*) $(-> $rret = $default)?;
                $($doc)*);
        )*
    };
    // The LSM syscalls' hooks are answered from `getprocattr` and
    // `setprocattr` (`dispatch.rs`): no method of their own.
    (@one selfattr_get $($rest:tt)*) => {};
    (@one selfattr_set $($rest:tt)*) => {};
    // `lsmprop_to_secctx` is answered from `secid_to_secctx`, and stacker
    // frees the texts it made (`core/lsm_prop.rs`).
    (@one secctx_by_slot $($rest:tt)*) => {};
    (@one secctx_release $($rest:tt)*) => {};
    (@one audit_rule_release $($rest:tt)*) => {};
    // stacker keeps the mount options (`core/mount_options.rs`).
    (@one mount_options_held $($rest:tt)*) => {};
    // `file_ioctl_compat` defaults to the submodule's `file_ioctl`, with
    // the 32-bit commands translated (`hook_table.rs`).
    (@one $rule:ident file_ioctl_compat (cx: $cx:ty, file: $file:ty, cmd: $cmd:ty, arg: $arg:ty)
        -> $rret:ty = $default:expr; $($doc:literal)*) => {
        #[doc = "`file_ioctl_compat`: "]
        $(#[doc = $doc])*
        fn file_ioctl_compat(&self, cx: $cx, file: $file, cmd: $cmd, arg: $arg) -> $rret {
            self.file_ioctl(cx, file, crate::abi::native_ioctl_cmd(cmd), arg)
        }
    };
    (@one $rule:ident $name:ident ($($rarg:ident: $rty:ty),*) $(-> $rret:ty = $default:expr)?;
        $($doc:literal)*) => {
        #[doc = concat!("`", stringify!($name), "`: ")]
        $(#[doc = $doc])*
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) $(-> $rret)? {
            $($default)?
        }
    };
}
pub(crate) use hook_methods;

/// A submodule that is in the registry of compiled-in submodules.
///
/// Implemented by the registry (`define_registry!`) only. A generic
/// submodule type states `where Self: Registered` to reach its blob state.
pub(crate) trait Registered {
    /// Index in the registry.
    const INDEX: usize;

    /// The submodule's one instance.
    fn get() -> &'static Self;
}

/// Implements [`Submodule`] for a type: `NAME`, the blob states, `init` and
/// `securityfs_init` as in any `impl`, then the hook methods in a
/// `hooks { ... }` block. Generic parameters go in brackets:
/// `impl [const N: usize] Submodule for Mine<N>`, and a where clause in
/// brackets after the type: `where [Self: Registered]`. The submodule's hook set ([`Submodule::HOOKS`])
/// is made from the methods in that block, so it cannot disagree with them;
/// a method there that is not a hook does not build.
///
/// ```ignore
/// crate::submodule::submodule! {
///     impl Submodule for Mine {
///         const NAME: &'static CStr = c"mine";
///         crate::submodule::blob_states! { inode: MyInodeState }
///     }
///     hooks {
///         fn file_open(&self, file: &File) -> Result { ... }
///     }
/// }
/// ```
macro_rules! submodule {
    (
        impl $([$($gen:tt)*])? Submodule for $ty:ty $(where [$($wc:tt)*])? { $($items:tt)* }
        hooks {
            $(
                $(#[$attr:meta])*
                fn $name:ident $args:tt $(-> $ret:ty)? $body:block
            )*
        }
    ) => {
        impl$(<$($gen)*>)? $crate::submodule::Submodule for $ty $(where $($wc)*)? {
            $($items)*

            const HOOKS: $crate::hook::HookSet =
                $crate::hook::HookSet::of(&[$($crate::hook::Hook::$name),*]).with_derived();

            $(
                $(#[$attr])*
                fn $name $args $(-> $ret)? $body
            )*
        }
    };
}
pub(crate) use submodule;

/// Declares the key to a submodule's blob state ([`crate::blob::StateKey`])
/// in the submodule's module: a type whose one field is private there, so
/// that only this module and the modules inside it can make one, and a
/// private `KEY` (plain) or `key()` (generic over a `const` parameter) that
/// makes one. The submodule names it as its `type Key`.
///
/// ```ignore
/// crate::submodule::state_key!(MineKey for Mine);
/// crate::submodule::state_key!(OursKey<const I: usize> for Ours<I>);
/// // in `impl Submodule for Mine`: type Key = MineKey;
/// // in a hook: inode.state(&KEY)
/// ```
macro_rules! state_key {
    ($key:ident for $owner:ty) => {
        /// The key to this submodule's blob state: only this module and the
        /// modules inside it can make one (`StateKey`). A submodule
        /// without state never makes one.
        #[allow(dead_code)]
        pub(crate) struct $key(());

        impl $crate::blob::StateKey for $key {
            type Owner = $owner;
        }

        /// This submodule's key.
        #[allow(dead_code)]
        const KEY: $key = $key(());
    };
    ($key:ident<const $n:ident: usize> for $owner:ty) => {
        /// The key to this submodule's blob state: only this module and the
        /// modules inside it can make one (`StateKey`). A submodule
        /// without state never makes one.
        #[allow(dead_code)]
        pub(crate) struct $key<const $n: usize>(());

        impl<const $n: usize> $crate::blob::StateKey for $key<$n> {
            type Owner = $owner;
        }

        /// The key of instance `$n`.
        #[allow(dead_code)]
        const fn key<const $n: usize>() -> $key<$n> {
            $key(())
        }
    };
}
pub(crate) use state_key;

/// Declares the state type of each object kind in `trait Submodule`, from
/// [`crate::layout::object_kinds!`].
macro_rules! state_types {
    ($($name:ident $kind:ident $state:ident $lbs:ident $doc:literal;)*) => {
        $(
            #[doc = concat!("State in the blob of each ", $doc, " (`()` for none).")]
            type $state: BlobState;
        )*
    };
}
pub(crate) use state_types;

/// Declares [`blob_states!`] from [`crate::layout::object_kinds!`]: `$d`
/// is a `$`, for the macro's own metavariables.
macro_rules! define_blob_states {
    ($d:tt $($name:ident $kind:ident $state:ident $lbs:ident $doc:literal;)*) => {
        /// Declares a submodule's blob state types inside its `impl
        /// Submodule`: the kinds named get the given type, every other kind
        /// `()`.
        ///
        /// ```ignore
        /// impl Submodule for Mine {
        ///     crate::submodule::blob_states! { inode: MyInodeState, cred: MyCredState }
        ///     // ...
        /// }
        /// ```
        ///
        /// Kinds, in any order: the names of `object_kinds!` (`inode`,
        /// `cred`, `file`, `task`, `superblock`, `sock`, `ipc`, `msg_msg`,
        /// `key`). Any other name does not build.
        macro_rules! blob_states {
            ($d($d given:ident: $d ty:ty),* $d(,)?) => {
                $d($crate::submodule::blob_states!(@known $d given);)*
                $(
                    type $state = $crate::submodule::blob_states!(@pick $name; $d($d given: $d ty,)*);
                )*
            };
            // Each kind named must be one of the table's.
            $((@known $name) => {};)*
            (@known $d other:ident) => {
                compile_error!(concat!(
                    "blob_states!: no object kind `", stringify!($d other), "`; the kinds are:",
                    $(" ", stringify!($name),)*
                ));
            };
            // The type given for `$want`, or `()`.
            (@pick $d want:ident;) => { () };
            $(
                (@pick $name; $name: $d ty:ty, $d($d rest:tt)*) => { $d ty };
            )*
            (@pick $d want:ident; $d other:ident: $d ty:ty, $d($d rest:tt)*) => {
                $crate::submodule::blob_states!(@pick $d want; $d($d rest)*)
            };
        }
        pub(crate) use blob_states;
    };
}

crate::layout::object_kinds!(define_blob_states: $);
