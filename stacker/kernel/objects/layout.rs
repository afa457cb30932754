// SPDX-License-Identifier: GPL-2.0

//! The offsets and sizes Rust uses, for C's cross-check (`layout_check.c`).

#[allow(unused_imports)]
use super::*;

/// Rust's offsets of the kernel fields it reads, then the sizes of the
/// kernel structures it builds, indexes or lets C write into, checked
/// against C's by `stacker_layout_check()` (`layout_check.c`: the same
/// entries, in the same order, each named in its error message).
#[no_mangle]
static stacker_rust_offsets: [usize; CHECKED_FIELDS] = {
    use core::mem::{offset_of, size_of};
    use kernel::bindings as b;
    [
        // Offsets (`STACKER_FIELDS` in C).
        offset_of!(b::file, __bindgen_anon_1.f_path.dentry),
        offset_of!(b::file, f_inode),
        offset_of!(b::file, f_security),
        offset_of!(b::dentry, d_inode),
        offset_of!(b::inode, i_mode),
        offset_of!(b::inode, i_ino),
        offset_of!(b::inode, i_security),
        offset_of!(b::cred, uid),
        offset_of!(b::cred, euid),
        offset_of!(b::cred, gid),
        offset_of!(b::cred, egid),
        offset_of!(b::cred, cap_inheritable),
        offset_of!(b::cred, cap_permitted),
        offset_of!(b::cred, cap_effective),
        offset_of!(b::cred, cap_ambient),
        offset_of!(b::cred, security),
        offset_of!(b::linux_binprm, file),
        offset_of!(b::linux_binprm, cred),
        offset_of!(b::kern_ipc_perm, security),
        offset_of!(b::vm_area_struct, vm_file),
        offset_of!(b::qstr, name),
        offset_of!(b::qstr, __bindgen_anon_1.__bindgen_anon_1.len),
        offset_of!(b::name_snapshot, name),
        offset_of!(b::xattr, name),
        offset_of!(b::xattr, value),
        offset_of!(b::xattr, value_len),
        offset_of!(b::lsm_blob_sizes, lbs_cred),
        offset_of!(b::lsm_blob_sizes, lbs_file),
        offset_of!(b::lsm_blob_sizes, lbs_inode),
        offset_of!(b::lsm_blob_sizes, lbs_sock),
        offset_of!(b::lsm_blob_sizes, lbs_superblock),
        offset_of!(b::lsm_blob_sizes, lbs_ipc),
        offset_of!(b::lsm_blob_sizes, lbs_key),
        offset_of!(b::lsm_blob_sizes, lbs_msg_msg),
        offset_of!(b::lsm_blob_sizes, lbs_task),
        offset_of!(b::lsm_blob_sizes, lbs_xattr_count),
        offset_of!(b::lsm_blob_sizes, lbs_bpf_token),
        offset_of!(b::task_struct, pid),
        offset_of!(b::task_struct, tgid),
        offset_of!(b::task_struct, mm),
        offset_of!(b::task_struct, group_leader),
        offset_of!(b::task_struct, cred),
        offset_of!(b::task_struct, comm),
        offset_of!(b::task_struct, security),
        offset_of!(b::socket, sk),
        offset_of!(b::sock, __sk_common.skc_family),
        offset_of!(b::super_block, s_magic),
        offset_of!(b::super_block, s_security),
        offset_of!(b::path, dentry),
        offset_of!(b::vfsmount, mnt_sb),
        offset_of!(b::iattr, ia_valid),
        offset_of!(b::iattr, ia_mode),
        offset_of!(b::msg_msg, m_type),
        offset_of!(b::msg_msg, security),
        offset_of!(b::key, serial),
        offset_of!(b::key, security),
        offset_of!(b::lsm_ctx, ctx_len),
        offset_of!(b::lsm_ctx, ctx),
        offset_of!(b::task_struct, real_cred),
        offset_of!(b::inode, i_sb),
        offset_of!(b::super_block, s_flags),
        offset_of!(b::linux_binprm, unsafe_),
        offset_of!(b::file, __bindgen_anon_1.f_path.mnt),
        offset_of!(b::vfsmount, mnt_flags),
        offset_of!(b::file, f_mode),
        offset_of!(b::inode, i_uid),
        offset_of!(b::inode, i_gid),
        offset_of!(b::inode, i_generation),
        offset_of!(b::super_block, s_uuid),
        offset_of!(b::super_block, s_type),
        offset_of!(b::file_system_type, fs_flags),
        offset_of!(b::vm_area_struct, __bindgen_anon_2.vm_flags),
        offset_of!(b::inode, i_writecount),
        offset_of!(b::file, f_mapping),
        offset_of!(b::address_space, i_mmap_writable),
        offset_of!(b::fown_struct, file),
        // Sizes (`STACKER_SIZES` in C).
        size_of::<b::xattr>(),
        size_of::<b::name_snapshot>(),
        size_of::<b::security_list_options>(),
        size_of::<b::file_operations>(),
        size_of::<b::lsm_blob_sizes>(),
        size_of::<b::task_struct>(),
        size_of::<b::cred>(),
        size_of::<b::kernel_cap_t>(),
        size_of::<b::linux_binprm>(),
    ]
};

/// Number of fields and sizes checked.
const CHECKED_FIELDS: usize = 85;

/// Whether Rust's and C's views of every listed kernel structure agree:
/// `stacker_layout_check()` (`layout_check.c`) compares the two lists and
/// logs every difference by name. Run once by each LSM's init.
pub(crate) fn layout_matches() -> bool {
    extern "C" {
        fn stacker_layout_check() -> kernel::ffi::c_int;
    }
    // SAFETY: `stacker_layout_check` only reads constant tables and logs.
    unsafe { stacker_layout_check() == 0 }
}

/// Number of entries in [`stacker_rust_offsets`] (C reads it).
#[no_mangle]
static stacker_rust_offsets_len: usize = CHECKED_FIELDS;
