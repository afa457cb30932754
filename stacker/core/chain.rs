// SPDX-License-Identifier: GPL-2.0

//! The enabled chain: which submodules run, in which order, for which hooks.
//!
//! The chain is chosen at boot (`stacker.chain=`, or the Kconfig default)
//! as a list of names. [`ChainSpec::parse`] turns it into indices into the
//! registry of compiled-in submodules; [`BootState::new`] then computes the
//! blob layout and, for every hook, the submodules that implement it, in
//! chain order. All of it is computed once, before the LSM core reads the
//! blob sizes, and never changes afterwards.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::hook::{Hook, HookSet, N_HOOKS};
use crate::layout::{Layout, LayoutError, Request, MAX_MODULES};

/// Most names the chain parser reports as rejected.
pub(crate) const MAX_REJECTS: usize = 8;

/// Why a name in the chain was ignored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reject {
    /// No compiled-in submodule has this name.
    Unknown,
    /// The name was already in the chain.
    Repeated,
}

/// A name that was ignored, as a byte range of the parsed string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Rejected {
    /// Start of the name in the input.
    pub(crate) start: usize,
    /// End (exclusive) of the name in the input.
    pub(crate) end: usize,
    /// Why it was ignored.
    pub(crate) why: Reject,
}

/// A parsed chain.
///
/// # Invariants
///
/// `order[..len]` are distinct indices of registered submodules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ChainSpec {
    order: [u8; MAX_MODULES],
    len: usize,
    rejected: [Rejected; MAX_REJECTS],
    n_rejected: usize,
    /// More names were rejected than `rejected` can hold.
    pub(crate) rejects_truncated: bool,
    /// Some name was not a registered submodule (recorded or not).
    unknown: bool,
}

/// Whether two byte strings are equal, in a `const` context too.
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The longest submodule name: `NAME/sockcreate`, the name of a file of
/// `/proc/PID/attr/stacker/NAME/`, must fit the 64-byte buffer of
/// `proc_pid_attr_name()` (`fs/proc/base.c`, `linux/patches/0008`).
pub(crate) const MAX_NAME_LEN: usize = 32;

/// Whether `name` can name a submodule: non-empty, at most
/// [`MAX_NAME_LEN`] bytes, `[a-z0-9_]` only (so never the `,` of
/// `stacker.chain=` or the `:` of `NAME:` routing, nor the `/` of
/// `/proc/PID/attr/stacker/NAME/ATTR`).
pub(crate) const fn name_is_valid(name: &[u8]) -> bool {
    if name.is_empty() || name.len() > MAX_NAME_LEN {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        let b = name[i];
        if !(b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether every name of a registry is valid ([`name_is_valid`]) and no two
/// are the same; checked at compile time by `define_registry!`.
pub(crate) const fn names_are_valid(names: &[&[u8]]) -> bool {
    let mut i = 0;
    while i < names.len() {
        if !name_is_valid(names[i]) {
            return false;
        }
        let mut j = i + 1;
        while j < names.len() {
            if bytes_eq(names[i], names[j]) {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

impl ChainSpec {
    /// The empty chain.
    pub(crate) const EMPTY: ChainSpec = ChainSpec {
        order: [0; MAX_MODULES],
        len: 0,
        rejected: [Rejected {
            start: 0,
            end: 0,
            why: Reject::Unknown,
        }; MAX_REJECTS],
        n_rejected: 0,
        rejects_truncated: false,
        unknown: false,
    };

    /// Parses a comma-separated list of submodule names.
    ///
    /// `names[i]` is the name of registered submodule `i`. Empty entries
    /// (`a,,b`) and surrounding spaces are skipped; unknown and repeated
    /// names are recorded in [`ChainSpec::rejected`] and otherwise ignored.
    pub(crate) const fn parse(input: &[u8], names: &[&[u8]]) -> ChainSpec {
        let mut spec = ChainSpec::EMPTY;
        let mut pos = 0;
        while pos <= input.len() {
            // One entry: [pos, end).
            let mut end = pos;
            while end < input.len() && input[end] != b',' {
                end += 1;
            }
            let mut start = pos;
            let mut stop = end;
            while start < stop && (input[start] == b' ' || input[start] == b'\n') {
                start += 1;
            }
            while stop > start && (input[stop - 1] == b' ' || input[stop - 1] == b'\n') {
                stop -= 1;
            }
            if start < stop {
                let (_, tail) = input.split_at(start);
                let (name, _) = tail.split_at(stop - start);
                let mut found = names.len();
                let mut i = 0;
                while i < names.len() {
                    if bytes_eq(names[i], name) {
                        found = i;
                    }
                    i += 1;
                }
                let why = if found == names.len() || found >= MAX_MODULES {
                    Some(Reject::Unknown)
                } else if spec.contains(found) {
                    Some(Reject::Repeated)
                } else {
                    None
                };
                match why {
                    Some(why) => spec.reject(start, stop, why),
                    None => {
                        // INVARIANT: `found` is registered and not yet present;
                        // at most `MAX_MODULES` distinct indices exist.
                        spec.order[spec.len] = found as u8;
                        spec.len += 1;
                    }
                }
            }
            pos = end + 1;
        }
        spec
    }

    const fn reject(&mut self, start: usize, end: usize, why: Reject) {
        if matches!(why, Reject::Unknown) {
            self.unknown = true;
        }
        if self.n_rejected < MAX_REJECTS {
            self.rejected[self.n_rejected] = Rejected { start, end, why };
            self.n_rejected += 1;
        } else {
            self.rejects_truncated = true;
        }
    }

    /// Whether submodule `index` is in the chain.
    pub(crate) const fn contains(&self, index: usize) -> bool {
        let mut i = 0;
        while i < self.len {
            if self.order[i] as usize == index {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The chain without submodule `index`: what runs when that
    /// submodule is left out at init (its init failed, or it conflicts).
    pub(crate) const fn without(&self, index: u8) -> ChainSpec {
        let mut spec = *self;
        spec.len = 0;
        let mut i = 0;
        while i < self.len {
            if self.order[i] != index {
                // INVARIANT: a subsequence of a valid order.
                spec.order[spec.len] = self.order[i];
                spec.len += 1;
            }
            i += 1;
        }
        spec
    }

    /// Whether the text named a submodule that is not registered (a typo
    /// such as `mlte,capstak`): such a chain is refused as a whole, so
    /// that no boot runs a chain with one of its submodules silently gone.
    pub(crate) const fn names_unknown(&self) -> bool {
        self.unknown
    }

    /// The submodule indices, in chain order.
    pub(crate) const fn order(&self) -> &[u8] {
        self.order.split_at(self.len).0
    }

    /// The names that were ignored.
    pub(crate) fn rejected(&self) -> &[Rejected] {
        &self.rejected[..self.n_rejected]
    }
}

/// Everything stacker decides at boot.
///
/// # Invariants
///
/// `layout` gives a slot to every submodule of `chain` (it is the layout of
/// the chain as given at boot: a submodule left out at init keeps its
/// slots, unused, so that no other slot moves), and
/// `hook_order[h][..hook_len[h]]` lists, in chain order, the submodules of
/// `chain` whose hook set contains hook `h`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct BootState {
    /// The enabled chain.
    pub(crate) chain: ChainSpec,
    /// Where each enabled submodule's state lives in each blob.
    pub(crate) layout: Layout,
    hook_order: [[u8; MAX_MODULES]; N_HOOKS],
    hook_len: [u8; N_HOOKS],
}

impl BootState {
    /// Computes the boot state of `chain`.
    ///
    /// `requests[i]` and `hooks[i]` describe registered submodule `i`.
    pub(crate) const fn new(
        chain: ChainSpec,
        requests: &[Request],
        hooks: &[HookSet],
    ) -> Result<BootState, LayoutError> {
        let layout = match Layout::compute(requests, chain.order()) {
            Ok(layout) => layout,
            Err(err) => return Err(err),
        };
        Ok(BootState::with_layout(chain, layout, hooks))
    }

    /// The boot state with submodule `index` left out of the chain, with
    /// the same layout: no slot moves, and the left-out submodule's hooks
    /// are never called.
    pub(crate) const fn without(&self, index: u8, hooks: &[HookSet]) -> BootState {
        BootState::with_layout(self.chain.without(index), self.layout, hooks)
    }

    /// The boot state of `chain` with `layout`, which gives a slot to each
    /// of its submodules.
    const fn with_layout(chain: ChainSpec, layout: Layout, hooks: &[HookSet]) -> BootState {
        let mut state = BootState {
            chain,
            layout,
            hook_order: [[0; MAX_MODULES]; N_HOOKS],
            hook_len: [0; N_HOOKS],
        };
        let mut h = 0;
        while h < N_HOOKS {
            let hook = Hook::ALL[h];
            let mut i = 0;
            while i < chain.len {
                let m = chain.order[i];
                if hooks[m as usize].contains(hook) {
                    // INVARIANT: chain order, only modules that implement `hook`.
                    state.hook_order[h][state.hook_len[h] as usize] = m;
                    state.hook_len[h] += 1;
                }
                i += 1;
            }
            h += 1;
        }
        state
    }

    /// The submodules to call for `hook`, in chain order.
    #[inline(always)]
    pub(crate) fn order(&self, hook: Hook) -> &[u8] {
        let h = hook as usize;
        // Never out of bounds by the invariant; `get` keeps any panic path
        // off the hook path regardless.
        self.hook_order[h]
            .get(..self.hook_len[h] as usize)
            .unwrap_or(&[])
    }

    /// Whether some enabled submodule implements `hook`: only then is the
    /// hook registered with the LSM core.
    pub(crate) fn wants(&self, hook: Hook) -> bool {
        self.hook_len[hook as usize] != 0
    }
}

/// The dispatch tier a chain's hooks are registered with (`dispatch.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DispatchTier {
    /// An empty chain: no hook is registered.
    Empty,
    /// One submodule: its own entry points.
    Single(u8),
    /// The compile-time default chain: straight-line calls.
    Straight,
    /// Any other chain of at most as many submodules as stacker has static
    /// call positions (`CONFIG_SECURITY_STACKER_POSITIONS`): each
    /// submodule's own entry points are registered in the LSM core's
    /// static call slots, one position per submodule, in chain order, for
    /// every hook whose combining rule is the LSM core's own
    /// ([`Hook::positional`]); the LSM core calls them as it calls stacked
    /// LSMs. The other hooks go through the loop.
    Positions,
    /// Any other chain: the loop over the boot-time hook order.
    Loop,
}

impl DispatchTier {
    /// The tier's name, as logged and shown in `dispatch`. Kernel-only.
    #[cfg_attr(not(CONFIG_RUST), allow(dead_code))]
    pub(crate) const fn name(self) -> &'static str {
        match self {
            DispatchTier::Empty => "none",
            DispatchTier::Single(_) => "single",
            DispatchTier::Straight => "straight-line",
            DispatchTier::Positions => "positions",
            DispatchTier::Loop => "loop",
        }
    }
}

impl BootState {
    /// The tier for this chain: `default` is the compile-time default
    /// chain, `positions` how many static call positions stacker has in
    /// the LSM core, and `loop_forced` (`stacker.dispatch=loop`) asks for
    /// the loop whatever the chain.
    pub(crate) const fn tier(
        &self,
        default: &ChainSpec,
        positions: usize,
        loop_forced: bool,
    ) -> DispatchTier {
        let order = self.chain.order();
        if order.is_empty() {
            DispatchTier::Empty
        } else if loop_forced {
            DispatchTier::Loop
        } else if order.len() == 1 {
            DispatchTier::Single(order[0])
        } else if bytes_eq(order, default.order()) {
            DispatchTier::Straight
        } else if order.len() <= positions {
            DispatchTier::Positions
        } else {
            DispatchTier::Loop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_checked() {
        assert!(names_are_valid(&[b"mlte", b"cap_stack2"]));
        assert!(!names_are_valid(&[b"mlte", b"mlte"]));
        assert!(!names_are_valid(&[b"a,b"]));
        assert!(!names_are_valid(&[b"a:b"]));
        assert!(!names_are_valid(&[b""]));
        assert!(!names_are_valid(&[b"Mlte"]));
        assert!(!names_are_valid(&[b"a/b"]));
        // The longest that fits /proc/PID/attr/stacker/NAME/sockcreate.
        assert!(names_are_valid(&[&[b'a'; MAX_NAME_LEN]]));
        assert!(!names_are_valid(&[&[b'a'; MAX_NAME_LEN + 1]]));
    }
    use crate::layout::{Slot, KINDS};

    const NAMES: &[&[u8]] = &[b"capstack", b"selinux_like", b"integrity"];

    fn names_of(spec: &ChainSpec) -> Vec<&'static [u8]> {
        spec.order().iter().map(|&i| NAMES[i as usize]).collect()
    }

    #[test]
    fn parse_orders_and_rejects() {
        let input = b"integrity, capstack,,bogus,integrity,selinux_like";
        let spec = ChainSpec::parse(input, NAMES);
        assert_eq!(
            names_of(&spec),
            [&b"integrity"[..], b"capstack", b"selinux_like"]
        );
        let rejected: Vec<_> = spec
            .rejected()
            .iter()
            .map(|r| (&input[r.start..r.end], r.why))
            .collect();
        assert_eq!(
            rejected,
            [
                (&b"bogus"[..], Reject::Unknown),
                (&b"integrity"[..], Reject::Repeated)
            ]
        );
    }

    #[test]
    fn parse_empty_and_blank() {
        for input in [&b""[..], b",", b" , ,", b"\n"] {
            let spec = ChainSpec::parse(input, NAMES);
            assert!(spec.order().is_empty(), "{input:?}");
            assert!(spec.rejected().is_empty());
        }
    }

    #[test]
    fn parse_caps_the_reject_list() {
        let spec = ChainSpec::parse(b"x,x,x,x,x,x,x,x,x,x,capstack", NAMES);
        assert_eq!(names_of(&spec), [&b"capstack"[..]]);
        assert_eq!(spec.rejected().len(), MAX_REJECTS);
        assert!(spec.rejects_truncated);
    }

    #[test]
    fn parse_is_const() {
        const SPEC: ChainSpec = ChainSpec::parse(b"selinux_like,capstack", NAMES);
        assert_eq!(SPEC.order(), &[1, 0]);
    }

    fn requests() -> [Request; 3] {
        [Request {
            slots: [Slot::of::<u64>(); KINDS],
        }; 3]
    }

    #[test]
    fn hook_order_follows_chain_and_hook_sets() {
        let hooks = [
            HookSet::of(&[Hook::capable, Hook::file_open]),
            HookSet::of(&[Hook::file_open]),
            HookSet::of(&[Hook::inode_permission]),
        ];
        let spec = ChainSpec::parse(b"integrity,selinux_like,capstack", NAMES);
        let state = BootState::new(spec, &requests(), &hooks).unwrap();
        assert_eq!(state.order(Hook::file_open), &[1, 0]);
        assert_eq!(state.order(Hook::capable), &[0]);
        assert_eq!(state.order(Hook::inode_permission), &[2]);
        assert!(!state.wants(Hook::task_kill));
        assert!(state.wants(Hook::capable));
    }

    #[test]
    fn dispatch_tiers() {
        let hooks = [HookSet::of(&[Hook::capable]); 3];
        let default = ChainSpec::parse(b"capstack,integrity", NAMES);
        let tier_with = |chain: &[u8], positions, forced| {
            let spec = ChainSpec::parse(chain, NAMES);
            BootState::new(spec, &requests(), &hooks)
                .unwrap()
                .tier(&default, positions, forced)
        };
        let tier = |chain: &[u8], forced| tier_with(chain, 2, forced);
        assert_eq!(tier(b"selinux_like", false), DispatchTier::Single(1));
        assert_eq!(tier(b"selinux_like", true), DispatchTier::Loop);
        assert_eq!(tier(b"capstack,integrity", false), DispatchTier::Straight);
        assert_eq!(tier(b"capstack,integrity", true), DispatchTier::Loop);
        assert_eq!(tier(b"integrity,capstack", false), DispatchTier::Positions);
        assert_eq!(
            tier_with(b"integrity,capstack", 1, false),
            DispatchTier::Loop
        );
        // More submodules than positions: the loop.
        assert_eq!(
            tier(b"capstack,integrity,selinux_like", false),
            DispatchTier::Loop
        );
        assert_eq!(
            tier_with(b"capstack,integrity,selinux_like", 3, false),
            DispatchTier::Positions
        );
        assert_eq!(tier(b"", false), DispatchTier::Empty);
        assert_eq!(tier(b"", true), DispatchTier::Empty);
        let empty = BootState::new(ChainSpec::EMPTY, &requests(), &hooks).unwrap();
        assert!(Hook::ALL.iter().all(|&h| !empty.wants(h)));
    }

    #[test]
    fn any_unknown_name_is_flagged() {
        let names: &[&[u8]] = &[b"capstack", b"mlte"];
        assert!(ChainSpec::parse(b"capstak", names).names_unknown());
        assert!(ChainSpec::parse(b"bogus,nosuch", names).names_unknown());
        // One unknown name among known ones (`mlte,capstak`) too: the
        // kernel refuses such a chain rather than run without it.
        let spec = ChainSpec::parse(b"mlte,capstak", names);
        assert!(spec.names_unknown());
        assert_eq!(spec.order(), &[1]);
        // An explicitly empty chain is a chain, with nothing unknown.
        for empty in [&b""[..], b",", b" , ,"] {
            let spec = ChainSpec::parse(empty, names);
            assert!(!spec.names_unknown());
            assert_eq!(spec.order().len(), 0);
        }
        // Repeats of a known name are ignored, not unknown, however many.
        assert!(!ChainSpec::parse(b"mlte,mlte", names).names_unknown());
        let many = b"mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte";
        assert!(!ChainSpec::parse(many, names).names_unknown());
        // An unknown name past the record of rejects is still unknown.
        let late = b"mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,mlte,bogus";
        assert!(ChainSpec::parse(late, names).names_unknown());
    }
}
