// SPDX-License-Identifier: GPL-2.0

//! Typed access to a submodule's own state in a kernel object's blob.
//!
//! Each object type that carries a security blob implements [`HasBlob`]:
//! it knows its [`ObjectKind`] and where stacker's slice of its blob starts.
//! [`HasBlob::state`] adds the submodule's offset, which was fixed at boot
//! (see [`crate::chain::BootState`]), and returns a reference of the
//! submodule's state type for that kind. There is no lookup: one load of
//! the offset and one add.
//!
//! Kernel-independent: compiled into the kernel and into the host crate.

use crate::layout::ObjectKind;
use crate::submodule::{Registered, Submodule};
use core::ptr::NonNull;

/// A type that can live in a security blob.
///
/// The LSM core zeroes every blob when it allocates it and frees it without
/// running destructors, so a state starts out as all-zero bytes and is never
/// dropped. It stays where it is for the object's whole life, so it is
/// pinned without further ado.
///
/// # Safety
///
/// The all-zero bit pattern must be a valid value of the type, and the type
/// must not need dropping (`core::mem::needs_drop` is false). Its alignment
/// must not exceed [`crate::layout::BLOB_ALIGN`] (checked when the layout
/// is computed).
pub(crate) unsafe trait BlobState: Send + Sync + 'static {}

// SAFETY: zero is a valid value of each of these, and none needs dropping.
unsafe impl BlobState for () {}
// SAFETY: as above.
unsafe impl BlobState for core::sync::atomic::AtomicU8 {}
// SAFETY: as above.
unsafe impl BlobState for core::sync::atomic::AtomicU32 {}
// SAFETY: as above.
unsafe impl BlobState for core::sync::atomic::AtomicU64 {}
// SAFETY: as above.
unsafe impl BlobState for core::sync::atomic::AtomicBool {}
// SAFETY: as above (byte buffers: `platform::zeroed_box` gives them).
unsafe impl<const N: usize> BlobState for [u8; N] {}

/// The key to one submodule's blob state, which [`HasBlob::state`]
/// demands: a type that only the submodule's own Rust module (and the
/// modules inside it) can make, because its one field is private there.
/// Made by [`crate::submodule::state_key!`], named as the submodule's
/// [`Submodule::Key`]; nothing else implements it.
///
/// So no submodule reaches another's state in safe code: a key of its own
/// whose `Owner` is another submodule is refused too, since `state` also
/// demands that the owner's `Key` is that very type.
pub(crate) trait StateKey: 'static {
    /// The submodule whose state the key opens.
    type Owner;
}

/// A kernel object that carries a security blob.
pub(crate) trait HasBlob {
    /// The blob this object carries.
    const KIND: ObjectKind;

    /// The state type submodule `M` keeps in this kind of blob.
    type State<M: Submodule>: BlobState;

    /// The start of this object's security blob, or null when it has none.
    fn blob(&self) -> *mut u8;

    /// The state of the submodule whose `key` is given, in this object, or
    /// `None` when that submodule is not in the enabled chain (it then has
    /// no slot) or the object has no blob. Only the submodule's own code
    /// has its key ([`StateKey`]).
    ///
    /// One load of the slot's offset in the blob (fixed at boot, read-only
    /// afterwards) and one add.
    #[inline(always)]
    fn state<K>(&self, _key: &K) -> Option<&Self::State<K::Owner>>
    where
        K: StateKey,
        K::Owner: Submodule<Key = K> + Registered,
    {
        if core::mem::size_of::<Self::State<K::Owner>>() == 0 {
            // SAFETY: a zero-sized state needs no storage; a dangling,
            // aligned pointer is a valid reference to it.
            return Some(unsafe { NonNull::<Self::State<K::Owner>>::dangling().as_ref() });
        }
        let offset = crate::platform::slot_offset(K::Owner::INDEX, Self::KIND)?;
        let base = self.blob();
        if base.is_null() {
            return None;
        }
        // SAFETY: a slot exists only for an enabled submodule, and it is
        // `size_of::<Self::State<K::Owner>>()` bytes: the layout was computed from
        // the request the registry built from these very state types
        // (`dispatch::request`). It lies inside stacker's slice, aligned for
        // the state type (the slice is `BLOB_ALIGN`-aligned). The blob was
        // zeroed at allocation, a valid state by `BlobState`, and lives as
        // long as `self`. Only shared references are ever handed out.
        Some(unsafe { &*base.add(offset).cast::<Self::State<K::Owner>>() })
    }
}
