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

    #[inline]
    fn shared(&self) -> bool {
        // SAFETY: as in `executable`.
        let flags = unsafe { (*self.as_raw()).__bindgen_anon_2.vm_flags };
        flags & bindings::VM_SHARED != 0
    }

    #[inline]
    fn memory(&self) -> VmaMemory {
        extern "C" {
            // A `const struct vm_area_struct *` in C (mm.c): opaque here,
            // as bindgen's struct holds a member Rust deems not FFI-safe.
            fn stacker_vma_memory(vma: *const core::ffi::c_void) -> c_int;
        }
        // SAFETY: the caller of the hook holds the mmap lock, under which
        // the area, its `mm` and the `mm`'s `brk` and stack are stable.
        match unsafe { stacker_vma_memory(self.as_raw().cast()) } {
            1 => VmaMemory::Heap,
            2 => VmaMemory::Stack,
            3 => VmaMemory::WrittenFile,
            _ => VmaMemory::Other,
        }
    }
}

/// Whether data mappings are not executable by default (SELinux's
/// `default_noexec`, decided at boot: true on x86-64), so that making
/// memory executable is a privilege the policy grants.
pub(crate) fn data_noexec() -> bool {
    extern "C" {
        fn stacker_data_noexec() -> bool;
    }
    // SAFETY: reads a flag set once at boot.
    unsafe { stacker_data_noexec() }
}
