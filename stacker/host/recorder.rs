// SPDX-License-Identifier: GPL-2.0

//! `rec_*`: host-only test submodules that implement every hook, record
//! each call, and return what the test told them to.

use crate::blob::HasBlob;
use crate::context::MaySleep;
use crate::error::{Error, Result, EINVAL};
use crate::hook::{Hook, HookSet};
#[allow(unused_imports)]
use crate::objects::*;
use crate::submodule::{Registered, Submodule};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::CStr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

thread_local! {
    static LOG: RefCell<Vec<(&'static str, Hook)>> = const { RefCell::new(Vec::new()) };
    static ANSWERS: RefCell<BTreeMap<(usize, u16), Error>> = const { RefCell::new(BTreeMap::new()) };
    static SEEN: RefCell<Vec<(&'static str, Hook, u64)>> = const { RefCell::new(Vec::new()) };
}

/// The state values recorders saw in their free hooks (name, hook, value),
/// and clears them.
pub(crate) fn take_seen() -> Vec<(&'static str, Hook, u64)> {
    SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// Makes recorder `instance` answer `hook` with `err`.
pub(crate) fn answer(instance: usize, hook: Hook, err: Error) {
    ANSWERS.with(|a| a.borrow_mut().insert((instance, hook as u16), err));
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

crate::submodule::state_key!(RecorderKey<const I: usize> for Recorder<I>);

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

    /// The recorder's secid, its tag, for an `lsmprop` hook; none when
    /// told to answer an error.
    fn label(hook: Hook) -> Option<Secid> {
        Self::call(hook).ok()?;
        Secid::new(Self::TAG as u32)
    }

    fn call(hook: Hook) -> Result {
        LOG.with(|l| l.borrow_mut().push((Self::name(), hook)));
        match ANSWERS.with(|a| a.borrow().get(&(I, hook as u16)).copied()) {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// Writes `value` into this instance's state in `inode`.
    pub(crate) fn tag_inode(inode: &Inode, value: u64) -> bool {
        inode
            .state(&key::<I>())
            .map(|s| s.store(value, Ordering::Relaxed))
            .is_some()
    }

    /// Reads this instance's state in `inode`.
    pub(crate) fn inode_tag(inode: &Inode) -> Option<u64> {
        inode.state(&key::<I>()).map(|s| s.load(Ordering::Relaxed))
    }

    /// Writes `value` into this instance's state in `cred`.
    pub(crate) fn tag_cred(cred: &Cred, value: u32) -> bool {
        cred.state(&key::<I>())
            .map(|s| s.store(value, Ordering::Relaxed))
            .is_some()
    }

    /// Reads this instance's state in `cred`.
    pub(crate) fn cred_tag(cred: &Cred) -> Option<u32> {
        cred.state(&key::<I>()).map(|s| s.load(Ordering::Relaxed))
    }

    /// Reads this instance's state in `file`.
    pub(crate) fn file_tag(file: &File) -> Option<u32> {
        file.state(&key::<I>()).map(|s| s.load(Ordering::Relaxed))
    }
}

/// The answer a recorder gives a `first_nondefault` hook when it is told
/// to refuse: a claim, other than the hook's default.
pub(crate) trait RecorderClaim {
    /// The claim.
    const CLAIM: Self;
}

impl RecorderClaim for CapCheck {
    const CLAIM: Self = CapCheck::Skip;
}

impl RecorderClaim for XattrCopyUp {
    const CLAIM: Self = XattrCopyUp::Discard;
}

/// Declares a recorder method for each hook of the table that it only
/// records: those with their own behaviour are written out below.
macro_rules! record_methods {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rarg:ident: $rty:ty $(= $conv:expr)?),* $(,)?) $(-> $rret:ty = $default:expr)?;
    )*) => {
        $(record_methods!(@one $rule $name ($($rarg: $rty),*) $(-> $rret = $default)?);)*
    };
    (@one $rule:ident file_alloc_security $args:tt $($ret:tt)*) => {};
    (@one $rule:ident file_free_security $args:tt $($ret:tt)*) => {};
    (@one $rule:ident inode_free_security_rcu $args:tt $($ret:tt)*) => {};
    (@one $rule:ident cred_prepare $args:tt $($ret:tt)*) => {};
    (@one first_error $name:ident ($($rarg:ident: $rty:ty),*) $($ret:tt)*) => {
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) -> Result {
            Self::call(Hook::$name)
        }
    };
    (@one every $name:ident ($($rarg:ident: $rty:ty),*) $($ret:tt)*) => {
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) {
            let _ = Self::call(Hook::$name);
        }
    };
    (@one all_agree $name:ident ($($rarg:ident: $rty:ty),*) $($ret:tt)*) => {
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) -> bool {
            Self::call(Hook::$name).is_ok()
        }
    };
    // Told to refuse, it claims (the one answer other than the default).
    (@one first_nondefault $name:ident ($($rarg:ident: $rty:ty),*) -> $rret:ty = $default:expr) => {
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) -> $rret {
            match Self::call(Hook::$name) {
                Ok(()) => $default,
                Err(_) => <$rret as RecorderClaim>::CLAIM,
            }
        }
    };
    // Mount options: it claims none; told to refuse, it fails the mount.
    (@one mount_option $name:ident ($($rarg:ident: $rty:ty),*) $($ret:tt)*) => {
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) -> Result<bool> {
            Self::call(Hook::$name).map(|()| false)
        }
    };
    (@one mount_options $name:ident ($($rarg:ident: $rty:ty),*) $($ret:tt)*) => {
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) -> Result {
            Self::call(Hook::$name)
        }
    };
    (@one prctl $name:ident ($($rarg:ident: $rty:ty),*) $($ret:tt)*) => {
        /// Handles the call (`Ok(0)`), unless told to answer otherwise.
        #[allow(unused_variables)]
        fn $name(&self, $($rarg: $rty),*) -> Result<i32> {
            Self::call(Hook::$name).map(|()| 0)
        }
    };
    (@one $special:ident $name:ident $args:tt $($ret:tt)*) => {};
}

impl<const I: usize> Submodule for Recorder<I>
where
    Self: Registered,
{
    const NAME: &'static CStr = NAMES[I];
    // A recorder implements every hook, so it says so itself rather than
    // through `submodule!`.
    const HOOKS: HookSet = HookSet::of(Hook::ALL);
    const XATTR_COUNT: u32 = 1;

    type Key = RecorderKey<I>;
    crate::submodule::blob_states! {
        inode: AtomicU64,
        cred: AtomicU32,
        file: AtomicU32,
        ipc: AtomicU64,
    }

    crate::hook_table::hook_table!(record_methods);

    fn file_alloc_security(&self, _cx: &MaySleep, file: &FileSecurity) -> Result {
        Self::call(Hook::file_alloc_security)?;
        // Set up this instance's file state, as a real module would.
        if let Some(state) = file.state(&key::<I>()) {
            state.store(Self::TAG as u32, Ordering::Relaxed);
        }
        Ok(())
    }
    fn file_free_security(&self, file: &FileSecurity) {
        let _ = Self::call(Hook::file_free_security);
        if let Some(state) = file.state(&key::<I>()) {
            Self::see(
                Hook::file_free_security,
                u64::from(state.load(Ordering::Relaxed)),
            );
        }
    }
    fn inode_init_security(
        &self,
        _: &MaySleep,
        _: &Inode,
        _: &Inode,
        name: &[u8],
    ) -> Result<Option<XattrValue>> {
        Self::call(Hook::inode_init_security)?;
        Ok(Some(XattrValue::new(Self::NAME, name)?))
    }
    fn inode_free_security_rcu(&self, blob: &InodeBlob<'_>) {
        let _ = Self::call(Hook::inode_free_security_rcu);
        if let Some(state) = blob.state(&key::<I>()) {
            Self::see(Hook::inode_free_security_rcu, state.load(Ordering::Relaxed));
        }
    }
    fn cred_prepare(&self, _cx: &MaySleep, new: &Cred, old: &Cred) -> Result {
        Self::call(Hook::cred_prepare)?;
        // Inherit the tag, as a real module would inherit its state.
        if let Some(tag) = Self::cred_tag(old) {
            Self::tag_cred(new, tag);
        }
        Ok(())
    }
    fn socket_getpeersec_stream(&self, cx: &MaySleep, _: &Socket, out: &mut AttrValue) -> Result {
        Self::call(Hook::socket_getpeersec_stream)?;
        out.push_bytes(cx, Self::NAME.to_bytes())
    }
    // Labels: each recorder's secid is its tag (none when told to answer
    // an error); its text is `NAME:secid`.
    fn cred_getlsmprop(&self, _: &Cred) -> Option<Secid> {
        Self::label(Hook::cred_getlsmprop)
    }
    fn current_getlsmprop_subj(&self, _: &Cred) -> Option<Secid> {
        Self::label(Hook::current_getlsmprop_subj)
    }
    fn task_getlsmprop_obj(&self, _: &Task) -> Option<Secid> {
        Self::label(Hook::task_getlsmprop_obj)
    }
    fn inode_getlsmprop(&self, _: &Inode) -> Option<Secid> {
        Self::label(Hook::inode_getlsmprop)
    }
    fn ipc_getlsmprop(&self, _: &IpcPerm) -> Option<Secid> {
        Self::label(Hook::ipc_getlsmprop)
    }
    fn secid_to_secctx(&self, secid: Secid, out: &mut SecCtx) -> Result {
        Self::call(Hook::secid_to_secctx)?;
        out.push_bytes(format!("{}:{}", Self::name(), secid.raw()).as_bytes())
    }
    // An audit rule's value is the recorder's tag; it matches the secid
    // equal to it.
    fn audit_rule_init(&self, _: u32, _: u32, _: &[u8]) -> Result<u64> {
        Self::call(Hook::audit_rule_init)?;
        Ok(Self::TAG)
    }
    fn audit_rule_match(&self, secid: Secid, _: u32, _: u32, value: u64) -> Result<bool> {
        Self::call(Hook::audit_rule_match)?;
        Ok(u64::from(secid.raw()) == value)
    }
    fn socket_getpeersec_dgram(&self, _: Option<&Socket>) -> Result<Secid> {
        Self::call(Hook::socket_getpeersec_dgram)?;
        Secid::new(Self::TAG as u32).ok_or(EINVAL)
    }
    fn inode_getsecurity(&self, cx: &MaySleep, _: &Inode, _: &[u8], out: &mut AttrValue) -> Result {
        Self::call(Hook::inode_getsecurity)?;
        out.push_bytes(cx, Self::NAME.to_bytes())
    }
    /// Answers its name for the attributes of `/proc/PID/attr/`; "not
    /// mine" for any other name.
    fn getprocattr(&self, cx: &MaySleep, _: &Task, name: &[u8], out: &mut AttrValue) -> Result {
        Self::call(Hook::getprocattr)?;
        if !is_self_attr(name) {
            return Err(EINVAL);
        }
        out.push_bytes(cx, Self::NAME.to_bytes())
    }
    /// Uses the whole value, except a trailing `!`, which it leaves unused;
    /// "not mine" for a name that is not one of `/proc/PID/attr/`.
    fn setprocattr(&self, _cx: &MaySleep, name: &[u8], value: &[u8]) -> Result<usize> {
        Self::call(Hook::setprocattr)?;
        if !is_self_attr(name) {
            return Err(EINVAL);
        }
        match value {
            [] => Err(EINVAL),
            [.., b'!'] => Ok(value.len() - 1),
            _ => Ok(value.len()),
        }
    }
}

/// Whether `name` is one of the attributes of `/proc/PID/attr/`.
fn is_self_attr(name: &[u8]) -> bool {
    crate::dispatch::SELF_ATTRS.iter().any(|&(_, n)| n == name)
}
