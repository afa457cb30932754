// SPDX-License-Identifier: GPL-2.0

//! Keys.

#[allow(unused_imports)]
use super::*;

wrapper!(
    /// A `struct key`.
    Key => bindings::key
);
has_blob!(Key, Key, KeyState, |p| (*p).security);

impl Key {
    /// The key of a key reference (`key_ref_t`: a key pointer whose low
    /// bit says whether it is possessed).
    ///
    /// # Safety
    ///
    /// `key_ref` must be a valid key reference for `'a`.
    pub(crate) unsafe fn from_ref<'a>(key_ref: bindings::key_ref_t) -> &'a Key {
        let key = (key_ref as usize & !1usize) as *const bindings::key;
        // SAFETY: without its flag bit, a key reference is a valid key.
        unsafe { Key::from_raw(key) }
    }
}

impl KeyView for Key {
    #[inline]
    fn serial(&self) -> i32 {
        // SAFETY: the key is valid; its serial is fixed for its life.
        unsafe { (*self.as_raw()).serial }
    }
}
