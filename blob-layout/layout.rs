// SPDX-License-Identifier: GPL-2.0

//! Offsets of each submodule's state inside stacker's slice of each blob.
//!
//! The LSM core gives stacker one slice of every security blob (inode, cred,
//! file, ...). stacker divides each slice among the submodules of the
//! enabled chain, once, at boot. This file computes that division. It has
//! no kernel dependencies: the kernel and `cargo test` compile it unchanged,
//! and every function is `const` so that the layout of the default chain is
//! a compile-time constant.
//!
//! Packing: within one object kind, slots are placed in order of decreasing
//! alignment (ties keep chain order), each at the next offset that is a
//! multiple of its alignment. A Rust type's size is a multiple of its
//! alignment, so this leaves no padding between slots; the total is rounded
//! up to [`BLOB_ALIGN`].

/// The alignment the LSM core promises for stacker's slice of a blob: it
/// places every LSM's slice at `ALIGN(offset, sizeof(void *))` in a
/// `kmalloc`ed blob. A state type that needs more cannot be placed.
pub const BLOB_ALIGN: usize = core::mem::size_of::<*const u8>();

/// Most submodules one kernel can have compiled in.
pub const MAX_MODULES: usize = 32;

/// The object kinds, described once: everything that is said per kind of
/// kernel object (the [`ObjectKind`] enum and its names, the state types of
/// `Submodule`, `blob_states!`, the blob requests, the LSM core's blob
/// sizes) is made from this table.
///
/// For each kind, in index order: its name (as `blob_states!` and
/// `/sys/kernel/security/stacker/layout` spell it), its [`ObjectKind`]
/// variant, the name of its state type in `Submodule`, its member of the
/// LSM core's `struct lsm_blob_sizes`, and the C object and field of its
/// blob. Hands the list to macro `$callback`, after the tokens `$prefix` if
/// given (`object_kinds!(callback: tokens)`).
///
/// A new kind is one line here, its object view with `has_blob!` (kernel
/// and host), and its alloc and free hooks: see the module author's guide.
macro_rules! object_kinds {
    // The callback as plain tokens, not a `path` fragment, so that it can
    // be invoked in expression position too.
    ($($callback:ident)::+ $(: $($prefix:tt)*)?) => {
        $($callback)::+! {
            $($($prefix)*)?
            inode Inode InodeState lbs_inode "`struct inode` (`i_security`)";
            cred Cred CredState lbs_cred "`struct cred` (`security`)";
            file File FileState lbs_file "`struct file` (`f_security`)";
            task Task TaskState lbs_task "`struct task_struct` (`security`)";
            superblock Superblock SuperblockState lbs_superblock "`struct super_block` (`s_security`)";
            sock Sock SockState lbs_sock "`struct sock` (`sk_security`)";
            ipc Ipc IpcState lbs_ipc "`struct kern_ipc_perm` (`security`)";
            msg_msg MsgMsg MsgMsgState lbs_msg_msg "`struct msg_msg` (`security`)";
            key Key KeyState lbs_key "`struct key` (`security`)";
        }
    };
}
#[allow(unused_imports)]
pub(crate) use object_kinds;

/// Declares [`ObjectKind`], [`KINDS`], [`ObjectKind::ALL`] and
/// [`ObjectKind::name`] from [`object_kinds!`].
macro_rules! define_object_kind {
    ($($name:ident $kind:ident $state:ident $lbs:ident $doc:literal;)*) => {
        /// The kinds of kernel object whose security blob a submodule can use.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        #[repr(usize)]
        pub enum ObjectKind {
            $(#[doc = $doc] $kind,)*
        }

        /// Number of [`ObjectKind`]s.
        pub const KINDS: usize = [$(ObjectKind::$kind),*].len();

        impl ObjectKind {
            /// Every kind, in index order.
            pub const ALL: [ObjectKind; KINDS] = [$(ObjectKind::$kind),*];

            /// The name used in `/sys/kernel/security/stacker/layout`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(ObjectKind::$kind => stringify!($name),)*
                }
            }
        }
    };
}

object_kinds!(define_object_kind);

/// Size and alignment of one state type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot {
    /// `size_of` the state type; 0 when the submodule keeps no state there.
    pub size: usize,
    /// `align_of` the state type.
    pub align: usize,
}

impl Slot {
    /// No state for this kind.
    pub const NONE: Slot = Slot { size: 0, align: 1 };

    /// The slot for type `T`.
    pub const fn of<T>() -> Slot {
        Slot {
            size: core::mem::size_of::<T>(),
            align: core::mem::align_of::<T>(),
        }
    }
}

/// What one submodule asks for: a slot per object kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Request {
    /// Indexed by `ObjectKind as usize`.
    pub slots: [Slot; KINDS],
}

/// Why a layout cannot be made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LayoutError {
    /// A state type needs more alignment than [`BLOB_ALIGN`], or its
    /// alignment is not a power of two.
    OverAligned {
        /// The submodule.
        module: usize,
        /// The object kind.
        kind: ObjectKind,
    },
    /// The chain names a submodule that has no request.
    NoSuchModule(usize),
    /// The chain is longer than [`MAX_MODULES`] or names a module twice.
    BadChain,
    /// A total does not fit the LSM core's `unsigned int`.
    TooLarge,
}

/// Where each enabled submodule's state lives.
///
/// # Invariants
///
/// For every kind, the slots of the enabled submodules with a non-zero size
/// do not overlap, each offset is a multiple of its slot's alignment, and
/// each slot ends at or before `totals[kind]`, which is a multiple of
/// [`BLOB_ALIGN`]. Entries of submodules that are not enabled are 0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    offsets: [[usize; KINDS]; MAX_MODULES],
    sizes: [[usize; KINDS]; MAX_MODULES],
    totals: [usize; KINDS],
}

const fn align_up(value: usize, align: usize) -> usize {
    value.div_ceil(align) * align
}

const fn contains(chain: &[u8], module: u8) -> bool {
    let mut i = 0;
    while i < chain.len() {
        if chain[i] == module {
            return true;
        }
        i += 1;
    }
    false
}

impl Layout {
    /// The layout of an empty chain: no space in any blob.
    pub const EMPTY: Layout = Layout {
        offsets: [[0; KINDS]; MAX_MODULES],
        sizes: [[0; KINDS]; MAX_MODULES],
        totals: [0; KINDS],
    };

    /// Computes the layout for `chain` (indices into `requests`, in chain
    /// order).
    pub const fn compute(requests: &[Request], chain: &[u8]) -> Result<Layout, LayoutError> {
        if chain.len() > MAX_MODULES {
            return Err(LayoutError::BadChain);
        }
        let mut i = 0;
        while i < chain.len() {
            let m = chain[i] as usize;
            if m >= requests.len() || m >= MAX_MODULES {
                return Err(LayoutError::NoSuchModule(m));
            }
            let (_, rest) = chain.split_at(i + 1);
            if contains(rest, chain[i]) {
                return Err(LayoutError::BadChain);
            }
            i += 1;
        }

        let mut layout = Layout::EMPTY;
        let mut k = 0;
        while k < KINDS {
            let kind = ObjectKind::ALL[k];
            // Place the largest alignment first: BLOB_ALIGN, then halves.
            let mut offset = 0;
            let mut align = BLOB_ALIGN;
            while align >= 1 {
                let mut i = 0;
                while i < chain.len() {
                    let m = chain[i] as usize;
                    let slot = requests[m].slots[k];
                    if !slot.align.is_power_of_two() || slot.align > BLOB_ALIGN {
                        return Err(LayoutError::OverAligned { module: m, kind });
                    }
                    if slot.size != 0 && slot.align == align {
                        offset = align_up(offset, align);
                        layout.offsets[m][k] = offset;
                        layout.sizes[m][k] = slot.size;
                        offset += slot.size;
                    }
                    i += 1;
                }
                align /= 2;
            }
            let total = align_up(offset, BLOB_ALIGN);
            if total > u32::MAX as usize {
                return Err(LayoutError::TooLarge);
            }
            layout.totals[k] = total;
            k += 1;
        }
        Ok(layout)
    }

    /// Offset of `module`'s state for `kind`, from the start of stacker's
    /// slice of the blob.
    pub const fn offset(&self, module: usize, kind: ObjectKind) -> usize {
        self.offsets[module][kind as usize]
    }

    /// Size of `module`'s state for `kind`; 0 when it has none or is not
    /// enabled.
    pub const fn size(&self, module: usize, kind: ObjectKind) -> usize {
        self.sizes[module][kind as usize]
    }

    /// Size of stacker's whole slice of the `kind` blob.
    pub const fn total(&self, kind: ObjectKind) -> usize {
        self.totals[kind as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(slots: &[(usize, usize)]) -> Request {
        let mut r = Request {
            slots: [Slot::NONE; KINDS],
        };
        for (k, &(size, align)) in slots.iter().enumerate() {
            r.slots[k] = Slot { size, align };
        }
        r
    }

    /// A small deterministic generator (xorshift64*), so property tests
    /// need no crates and fail the same way every time.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: u64) -> usize {
            (self.next() % n) as usize
        }
    }

    /// A random request of Rust-like types: size a multiple of alignment.
    fn random_request(rng: &mut Rng) -> Request {
        let mut r = Request {
            slots: [Slot::NONE; KINDS],
        };
        for slot in r.slots.iter_mut() {
            let align = 1 << rng.below(4); // 1, 2, 4, 8
            let units = if rng.below(3) == 0 { 0 } else { rng.below(9) };
            *slot = Slot {
                size: align * units,
                align,
            };
        }
        r
    }

    fn random_chain(rng: &mut Rng, modules: usize) -> Vec<u8> {
        let mut all: Vec<u8> = (0..modules as u8).collect();
        // Fisher-Yates, then keep a prefix.
        for i in (1..all.len()).rev() {
            all.swap(i, rng.below(i as u64 + 1));
        }
        all.truncate(rng.below(modules as u64 + 1));
        all
    }

    fn check_invariants(requests: &[Request], chain: &[u8], layout: &Layout) {
        for kind in ObjectKind::ALL {
            let total = layout.total(kind);
            assert_eq!(total % BLOB_ALIGN, 0, "{kind:?} total {total} unaligned");
            let mut used = 0;
            let mut spans = Vec::new();
            for &m in chain {
                let m = m as usize;
                let slot = requests[m].slots[kind as usize];
                assert_eq!(layout.size(m, kind), slot.size);
                if slot.size == 0 {
                    continue;
                }
                let off = layout.offset(m, kind);
                assert_eq!(off % slot.align, 0, "{kind:?} module {m} misaligned");
                assert!(off + slot.size <= total, "{kind:?} module {m} past total");
                spans.push((off, off + slot.size));
                used += slot.size;
            }
            spans.sort();
            for w in spans.windows(2) {
                assert!(w[0].1 <= w[1].0, "{kind:?}: {:?} overlaps {:?}", w[0], w[1]);
            }
            // Packed: no padding but the final rounding.
            assert_eq!(total, align_up(used, BLOB_ALIGN), "{kind:?} wastes space");
        }
        for m in 0..requests.len() {
            if !chain.contains(&(m as u8)) {
                for kind in ObjectKind::ALL {
                    assert_eq!(layout.size(m, kind), 0);
                    assert_eq!(layout.offset(m, kind), 0);
                }
            }
        }
    }

    #[test]
    fn property_random_layouts_are_sound_packed_and_deterministic() {
        let mut rng = Rng(0x5eed_cafe_f00d_1234);
        for _ in 0..5000 {
            let n = 1 + rng.below(MAX_MODULES as u64);
            let requests: Vec<Request> = (0..n).map(|_| random_request(&mut rng)).collect();
            let chain = random_chain(&mut rng, n);
            let layout = Layout::compute(&requests, &chain).expect("valid input");
            check_invariants(&requests, &chain, &layout);
            assert_eq!(Layout::compute(&requests, &chain), Ok(layout));
        }
    }

    #[test]
    fn empty_chain_takes_no_space() {
        let requests = [request(&[(8, 8), (4, 4)])];
        let layout = Layout::compute(&requests, &[]).unwrap();
        assert_eq!(layout, Layout::EMPTY);
        for kind in ObjectKind::ALL {
            assert_eq!(layout.total(kind), 0);
        }
    }

    #[test]
    fn mixed_alignments_pack_without_padding() {
        // inode: a u8 state, a u64 state, a u32 state.
        let requests = [request(&[(1, 1)]), request(&[(8, 8)]), request(&[(4, 4)])];
        let layout = Layout::compute(&requests, &[0, 1, 2]).unwrap();
        assert_eq!(layout.offset(1, ObjectKind::Inode), 0);
        assert_eq!(layout.offset(2, ObjectKind::Inode), 8);
        assert_eq!(layout.offset(0, ObjectKind::Inode), 12);
        assert_eq!(layout.total(ObjectKind::Inode), 16);
        // Naive chain-order placement would need 24 bytes.
    }

    #[test]
    fn only_the_enabled_chain_gets_space() {
        let requests = [request(&[(8, 8)]), request(&[(16, 8)]), request(&[(4, 4)])];
        let layout = Layout::compute(&requests, &[2, 0]).unwrap();
        assert_eq!(layout.total(ObjectKind::Inode), 16);
        assert_eq!(layout.size(1, ObjectKind::Inode), 0);
    }

    #[test]
    fn bad_input_is_refused() {
        let over = [request(&[(16, 16)])];
        assert_eq!(
            Layout::compute(&over, &[0]),
            Err(LayoutError::OverAligned {
                module: 0,
                kind: ObjectKind::Inode
            })
        );
        let odd = [request(&[(3, 3)])];
        assert!(matches!(
            Layout::compute(&odd, &[0]),
            Err(LayoutError::OverAligned { .. })
        ));
        let one = [request(&[(8, 8)])];
        assert_eq!(
            Layout::compute(&one, &[1]),
            Err(LayoutError::NoSuchModule(1))
        );
        assert_eq!(Layout::compute(&one, &[0, 0]), Err(LayoutError::BadChain));
        let huge = [request(&[(1 << 33, 8)])];
        if usize::BITS > 32 {
            assert_eq!(Layout::compute(&huge, &[0]), Err(LayoutError::TooLarge));
        }
    }

    #[test]
    fn layout_is_a_compile_time_constant() {
        const REQ: [Request; 2] = [
            Request {
                slots: [Slot::of::<u64>(); KINDS],
            },
            Request {
                slots: [Slot::of::<u16>(); KINDS],
            },
        ];
        const L: Layout = match Layout::compute(&REQ, &[1, 0]) {
            Ok(l) => l,
            Err(_) => Layout::EMPTY,
        };
        assert_eq!(L.offset(0, ObjectKind::Cred), 0);
        assert_eq!(L.offset(1, ObjectKind::Cred), 8);
        assert_eq!(L.total(ObjectKind::Cred), 16);
    }
}
