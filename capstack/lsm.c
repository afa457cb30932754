// SPDX-License-Identifier: GPL-2.0
/*
 * capstack as an LSM of its own (CONFIG_SECURITY_CAPSTACK).
 *
 * The same Rust code that runs behind stacker as the "capstack" submodule,
 * registered directly with the LSM core: its own id, its own slice of the
 * cred blob, its own securityfs file (/sys/kernel/security/capstack/policy).
 * It exists so that stacker's cost can be measured against capstack alone;
 * select it with lsm=capstack. Each hook points directly at Rust
 * (capstack/direct.rs).
 */

#define pr_fmt(fmt) "capstack: " fmt

#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "../stacker/kernel/stacker.h"

int capstack_direct_cred_prepare(struct cred *new, const struct cred *old, gfp_t gfp);
void capstack_direct_cred_transfer(struct cred *new, const struct cred *old);
int capstack_direct_bprm_creds_for_exec(struct linux_binprm *bprm);
int capstack_direct_bprm_creds_from_file(struct linux_binprm *bprm,
					 const struct file *file);
int capstack_direct_mmap_addr(unsigned long addr);
int capstack_direct_task_fix_setuid(struct cred *new, const struct cred *old, int flags);
int capstack_direct_task_fix_setgid(struct cred *new, const struct cred *old, int flags);
int capstack_direct_vm_enough_memory(struct mm_struct *mm, long pages);
int capstack_direct_capable(const struct cred *cred, struct user_namespace *ns,
			    int cap, unsigned int opts);
int capstack_direct_capset(struct cred *new, const struct cred *old,
			   const kernel_cap_t *effective,
			   const kernel_cap_t *inheritable,
			   const kernel_cap_t *permitted);
int capstack_direct_securityfs_init(void);
/* Defined in Rust: the size of capstack's cred state, then its offset. */
extern struct lsm_blob_sizes capstack_blob_sizes;

static const struct lsm_id capstack_lsmid = {
	.name = "capstack",
	.id = LSM_ID_CAPSTACK,
};

static struct security_hook_list capstack_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, capstack_direct_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, capstack_direct_cred_transfer),
	LSM_HOOK_INIT(bprm_creds_for_exec, capstack_direct_bprm_creds_for_exec),
	LSM_HOOK_INIT(bprm_creds_from_file, capstack_direct_bprm_creds_from_file),
	LSM_HOOK_INIT(capable, capstack_direct_capable),
	LSM_HOOK_INIT(capset, capstack_direct_capset),
	LSM_HOOK_INIT(mmap_addr, capstack_direct_mmap_addr),
	LSM_HOOK_INIT(task_fix_setuid, capstack_direct_task_fix_setuid),
	LSM_HOOK_INIT(task_fix_setgid, capstack_direct_task_fix_setgid),
	LSM_HOOK_INIT(vm_enough_memory, capstack_direct_vm_enough_memory),
};

/* Checks the kernel structures and records the outcome (direct.rs). */
int capstack_direct_init(void);

static int __init capstack_init(void)
{
	int err = capstack_direct_init();

	if (err)
		return err;
	security_add_hooks(capstack_hooks, ARRAY_SIZE(capstack_hooks),
			   &capstack_lsmid);
	pr_info("initialized as its own LSM\n");
	return 0;
}

DEFINE_LSM(capstack) = {
	.id = &capstack_lsmid,
	.blobs = &capstack_blob_sizes,
	.init = capstack_init,
	.initcall_fs = capstack_direct_securityfs_init,
};
