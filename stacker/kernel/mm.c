// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - C glue: what a memory mapping is, for the mmap and mprotect
 * hooks, where the answer needs the kernel's inline helpers and the
 * architecture's macros (VMA_DATA_DEFAULT_FLAGS, vma_is_initial_stack(),
 * KSTK_ESP() behind vma_is_stack_for_current()).
 */

#include <linux/mm.h>

#include "stacker.h"

static bool data_noexec __ro_after_init;

/*
 * As SELinux's default_noexec: decided once, at boot (from the boot task's
 * personality, not the caller's: READ_IMPLIES_EXEC is any process's to
 * set), before the first user mapping. Whichever way stacker's code runs
 * (as stacker or as LSMs of its own), this runs.
 */
static int __init stacker_mm_init(void)
{
	vma_flags_t data_default_flags = VMA_DATA_DEFAULT_FLAGS;

	data_noexec = !vma_flags_test(&data_default_flags, VMA_EXEC_BIT);
	return 0;
}
pure_initcall(stacker_mm_init);

bool stacker_data_noexec(void)
{
	return data_noexec;
}

int stacker_vma_memory(const struct vm_area_struct *vma)
{
	/* The tests and their order are selinux_file_mprotect()'s. */
	if (vma->vm_start >= vma->vm_mm->start_brk &&
	    vma->vm_end <= vma->vm_mm->brk)
		return STACKER_VMA_HEAP;
	if (!vma->vm_file &&
	    (vma_is_initial_stack(vma) || vma_is_stack_for_current(vma)))
		return STACKER_VMA_STACK;
	if (vma->vm_file && vma->anon_vma)
		return STACKER_VMA_WRITTEN_FILE;
	return STACKER_VMA_OTHER;
}
