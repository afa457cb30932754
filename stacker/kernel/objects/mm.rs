// SPDX-License-Identifier: GPL-2.0

//! Memory: the `mmap_addr` argument and mappings.

#[allow(unused_imports)]
use super::*;

/// The address an `mmap_addr` hook is asked about.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MmapAddr {
    addr: u64,
    min: u64,
}

impl MmapAddr {
    /// Wraps the `addr` argument of `mmap_addr`, with the current
    /// `vm.mmap_min_addr` (`dac_mmap_min_addr`).
    pub(crate) fn from_raw(addr: c_ulong) -> Self {
        // SAFETY: a plain global, written by the sysctl handler; one
        // volatile read of a machine word, as C's plain read.
        let min = unsafe { core::ptr::addr_of!(bindings::dac_mmap_min_addr).read_volatile() };
        MmapAddr {
            addr: addr as u64,
            min: min as u64,
        }
    }
}

impl MmapAddrView for MmapAddr {
    #[inline]
    fn addr(self) -> u64 {
        self.addr
    }

    #[inline]
    fn below_min(self) -> bool {
        self.addr < self.min
    }
}

wrapper!(
    /// A `struct vm_area_struct`.
    Vma => bindings::vm_area_struct
);

impl VmaView for Vma {
    #[inline]
    fn file(&self) -> Option<&File> {
        // SAFETY: the caller of the hook holds the mmap lock; `vm_file`
        // is pinned by the mapping.
        let file = unsafe { (*self.as_raw()).vm_file };
        // SAFETY: non-null `vm_file` is a valid file for the borrow.
        (!file.is_null()).then(|| unsafe { File::from_raw(file) })
    }

    #[inline]
    fn executable(&self) -> bool {
        // SAFETY: the caller of the hook holds the mmap lock, under which
        // `vm_flags` is stable.
        let flags = unsafe { (*self.as_raw()).__bindgen_anon_2.vm_flags };
        flags & bindings::VM_EXEC != 0
    }
}
