// SPDX-License-Identifier: GPL-2.0

//! The hook ids, made from the hook table (`hook_table.rs`), and sets of
//! them.
//!
//! A hook's id is the LSM core's name for it (`include/linux/lsm_hook_defs.h`):
//! the C glue asks Rust for each of the core's hooks by name.
//! Kernel-independent: compiled into the kernel and into the host crate.

/// Declares [`Hook`] and its table of names from the hook table.
macro_rules! hook_ids {
    ($(
        $(#[doc = $doc:literal])*
        $rule:ident $name:ident ($($cargs:tt)*) $(-> $cret:ty)?
            => ($($rargs:tt)*) $(-> $rret:ty = $default:expr)?;
    )*) => {
        /// One LSM hook, named as the LSM core names it.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(u16)]
        #[allow(non_camel_case_types)]
        pub(crate) enum Hook {
            $(
                #[doc = concat!("The `", stringify!($name), "` hook.")]
                $name,
            )*
        }

        impl Hook {
            /// Every hook, in table order.
            pub(crate) const ALL: &'static [Hook] = &[$(Hook::$name),*];

            /// The LSM core's name for the hook.
            pub(crate) const fn name(self) -> &'static str {
                match self {
                    $(Hook::$name => stringify!($name),)*
                }
            }

            /// Whether the hook's combining rule is the one the LSM core
            /// applies across stacked LSMs (`security/security.c`): then
            /// each submodule's own entry point can sit in a static call
            /// position of its own and the core combines them (the
            /// `positions` tier). True for `first_error` (`call_int_hook`
            /// with default 0), `every` (`call_void_hook`), `all_agree`
            /// (`security_vm_enough_memory_mm`) and `prctl`
            /// (`security_task_prctl`); the other rules are stacker's own.
            pub(crate) const fn positional(self) -> bool {
                match self {
                    $(Hook::$name => crate::hook::positional_rule(stringify!($rule)),)*
                }
            }
        }
    };
}

crate::hook_table::hook_table!(hook_ids);

/// Whether combining rule `rule` (`hook_table.rs`) is the LSM core's own.
pub(crate) const fn positional_rule(rule: &str) -> bool {
    let r = rule.as_bytes();
    crate::chain::bytes_eq(r, b"first_error")
        || crate::chain::bytes_eq(r, b"every")
        || crate::chain::bytes_eq(r, b"all_agree")
        || crate::chain::bytes_eq(r, b"first_nondefault")
        || crate::chain::bytes_eq(r, b"prctl")
}

/// Number of hooks stacker knows.
pub(crate) const N_HOOKS: usize = Hook::ALL.len();

// A `HookSet` is a bitmap of `HOOK_WORDS` words: as many as the table
// needs. A hook id is a `u16`, so the table is limited only by the 277
// hooks the LSM core has.
const HOOK_WORDS: usize = N_HOOKS.div_ceil(64);
const _: () = assert!(N_HOOKS <= 64 * HOOK_WORDS);

impl Hook {
    /// The hook with the LSM core's name `name`.
    pub(crate) fn from_name(name: &[u8]) -> Option<Hook> {
        Hook::ALL
            .iter()
            .copied()
            .find(|h| h.name().as_bytes() == name)
    }
}

/// A set of hooks: those a submodule implements.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct HookSet([u64; HOOK_WORDS]);

impl HookSet {
    /// The set of `hooks`.
    pub(crate) const fn of(hooks: &[Hook]) -> HookSet {
        let mut bits = [0; HOOK_WORDS];
        let mut i = 0;
        while i < hooks.len() {
            let h = hooks[i] as usize;
            bits[h / 64] |= 1 << (h % 64);
            i += 1;
        }
        HookSet(bits)
    }

    /// The set with the hooks that follow from those in it: the LSM
    /// syscalls' `getselfattr` and `setselfattr` are answered from
    /// `getprocattr` and `setprocattr`, so a submodule that implements one
    /// of those gets the matching one of these; 32-bit tasks' ioctls
    /// (`file_ioctl_compat`) reach the submodule's `file_ioctl`; and a
    /// label-bearing submodule (`secid_to_secctx`) gets
    /// `lsmprop_to_secctx` and `release_secctx`; and one that takes mount
    /// options (`sb_eat_lsm_opts`) gets the hooks with which stacker keeps
    /// them (`fs_context_parse_param`, `fs_context_dup`,
    /// `sb_free_mnt_opts`).
    pub(crate) const fn with_derived(self) -> HookSet {
        let mut set = self;
        if set.contains(Hook::file_ioctl) {
            set = set.with(Hook::file_ioctl_compat);
        }
        if set.contains(Hook::getprocattr) {
            set = set.with(Hook::getselfattr);
        }
        if set.contains(Hook::setprocattr) {
            set = set.with(Hook::setselfattr);
        }
        // A label-bearing submodule's texts are reached by slot and freed
        // by stacker (`core/lsm_prop.rs`).
        if set.contains(Hook::secid_to_secctx) {
            set = set.with(Hook::lsmprop_to_secctx).with(Hook::release_secctx);
        }
        // Rules it makes, stacker frees, and knows to make anew after a
        // policy load.
        if set.contains(Hook::audit_rule_init) {
            set = set.with(Hook::audit_rule_free).with(Hook::audit_rule_known);
        }
        // Mount options it takes, stacker keeps (`core/mount_options.rs`).
        if set.contains(Hook::sb_eat_lsm_opts) {
            set = set
                .with(Hook::fs_context_parse_param)
                .with(Hook::fs_context_dup)
                .with(Hook::sb_free_mnt_opts);
        }
        set
    }

    /// The set without `hooks` if `cond`; else the set.
    pub(crate) const fn without_if(self, cond: bool, hooks: &[Hook]) -> HookSet {
        let mut bits = self.0;
        let mut i = 0;
        while cond && i < hooks.len() {
            let h = hooks[i] as usize;
            bits[(h / 64) % HOOK_WORDS] &= !(1 << (h % 64));
            i += 1;
        }
        HookSet(bits)
    }

    /// The set with `hook` added.
    const fn with(self, hook: Hook) -> HookSet {
        let h = hook as usize;
        let mut bits = self.0;
        bits[(h / 64) % HOOK_WORDS] |= 1 << (h % 64);
        HookSet(bits)
    }

    /// Whether `hook` is in the set.
    pub(crate) const fn contains(self, hook: Hook) -> bool {
        let h = hook as usize;
        // `% HOOK_WORDS` keeps the index provably in bounds: no panic path.
        self.0[(h / 64) % HOOK_WORDS] & (1 << (h % 64)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for &h in Hook::ALL {
            assert_eq!(Hook::from_name(h.name().as_bytes()), Some(h));
        }
        assert_eq!(Hook::from_name(b"no_such_hook"), None);
    }

    #[test]
    fn hook_sets() {
        let set = HookSet::of(&[Hook::file_open, Hook::vm_enough_memory]);
        assert!(set.contains(Hook::file_open));
        assert!(set.contains(Hook::vm_enough_memory));
        assert!(!set.contains(Hook::capable));
        assert!(!HookSet::of(&[]).contains(Hook::file_open));
    }

    #[test]
    fn selfattr_hooks_follow_from_procattr_hooks() {
        let get = HookSet::of(&[Hook::getprocattr]).with_derived();
        assert!(get.contains(Hook::getselfattr));
        assert!(!get.contains(Hook::setselfattr));
        let set = HookSet::of(&[Hook::setprocattr]).with_derived();
        assert!(set.contains(Hook::setselfattr));
        assert!(!set.contains(Hook::getselfattr));
        assert!(!HookSet::of(&[Hook::file_open])
            .with_derived()
            .contains(Hook::getselfattr));
    }

    #[test]
    fn positional_hooks_are_those_with_the_cores_rules() {
        assert!(Hook::file_open.positional());
        assert!(Hook::cred_free.positional());
        assert!(Hook::vm_enough_memory.positional());
        assert!(Hook::task_prctl.positional());
        for h in [
            Hook::inode_getsecurity,
            Hook::inode_init_security,
            Hook::getprocattr,
            Hook::setprocattr,
            Hook::getselfattr,
            Hook::setselfattr,
        ] {
            assert!(!h.positional(), "{h:?}");
        }
    }

    #[test]
    fn compat_ioctl_follows_from_ioctl() {
        assert!(HookSet::of(&[Hook::file_ioctl])
            .with_derived()
            .contains(Hook::file_ioctl_compat));
        assert!(!HookSet::of(&[Hook::file_open])
            .with_derived()
            .contains(Hook::file_ioctl_compat));
        // Implemented on its own, it is in the set without `file_ioctl`.
        let own = HookSet::of(&[Hook::file_ioctl_compat]).with_derived();
        assert!(own.contains(Hook::file_ioctl_compat));
        assert!(!own.contains(Hook::file_ioctl));
    }
}
