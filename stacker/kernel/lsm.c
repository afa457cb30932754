// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - C glue: what only C can do.
 *
 * This file defines the LSM (DEFINE_LSM), its id, its early parameters, the
 * catalog of hooks it can register, and the fast-path static keys. Policy,
 * layout and dispatch live in Rust. Each hook entry points directly at a
 * Rust function (stacker.h), so a hook goes from the LSM core's static call
 * straight into Rust, with no C trampoline.
 *
 * Only the hooks that some enabled submodule implements are registered: the
 * others keep the LSM core's static key off and cost nothing.
 */

#define pr_fmt(fmt) "stacker: " fmt

#include <linux/jump_label.h>
#include <linux/lsm_hooks.h>
#include <linux/ratelimit.h>
#include <uapi/linux/lsm.h>

#include "stacker.h"

static const struct lsm_id stacker_lsmid = {
	.name = "stacker",
	.id = LSM_ID_STACKER,
};

struct stacker_single_keys stacker_single __ro_after_init = {
	STATIC_KEY_FALSE_INIT, STATIC_KEY_FALSE_INIT, STATIC_KEY_FALSE_INIT,
	STATIC_KEY_FALSE_INIT, STATIC_KEY_FALSE_INIT, STATIC_KEY_FALSE_INIT,
	STATIC_KEY_FALSE_INIT, STATIC_KEY_FALSE_INIT,
};

/* Every hook stacker can dispatch; keep in step with stacker/hook.rs. */
#define STACKER_HOOKS(X)                                                     \
	X(file_open) X(file_permission) X(mmap_file) X(mmap_addr)            \
	X(file_mprotect) X(file_alloc_security) X(file_free_security)        \
	X(inode_permission) X(inode_create) X(inode_unlink)                  \
	X(inode_rename) X(inode_link) X(inode_mkdir) X(inode_rmdir)          \
	X(inode_setxattr) X(inode_removexattr) X(inode_init_security)        \
	X(inode_alloc_security) X(inode_free_security)                       \
	X(inode_free_security_rcu) X(d_instantiate) X(cred_alloc_blank)      \
	X(cred_prepare) X(cred_transfer) X(cred_free)                        \
	X(bprm_creds_for_exec) X(bprm_creds_from_file)                       \
	X(bprm_check_security) X(bprm_committed_creds) X(capable) X(capset)  \
	X(ptrace_access_check) X(task_alloc) X(task_free) X(task_kill)       \
	X(task_fix_setuid) X(task_fix_setgid)                                \
	X(socket_create) X(socket_connect) X(ipc_permission)                 \
	X(getprocattr) X(setprocattr) X(vm_enough_memory)

struct stacker_hook {
	struct security_hook_list hl;
	const char *name;
};

#define STACKER_CATALOG_ENTRY(NAME) \
	{ .hl = LSM_HOOK_INIT(NAME, stacker_##NAME), .name = #NAME },

static struct stacker_hook stacker_catalog[] __initdata = {
	STACKER_HOOKS(STACKER_CATALOG_ENTRY)
};

/* The hooks actually registered: the wanted part of the catalog. */
static struct security_hook_list stacker_hooks[ARRAY_SIZE(stacker_catalog)]
	__ro_after_init;

static int __init stacker_chain_setup(char *str)
{
	return stacker_rs_set_chain(str);
}
early_param("stacker.chain", stacker_chain_setup);

static int __init stacker_fastpath_setup(char *str)
{
	return stacker_rs_set_fastpath(str);
}
early_param("stacker.fastpath", stacker_fastpath_setup);

#ifdef CONFIG_SECURITY_STACKER_TEST_FAIL_INIT
static int __init stacker_fail_init_setup(char *str)
{
	return stacker_rs_set_fail_init(str);
}
early_param("stacker.fail_init", stacker_fail_init_setup);
#endif

/* The keys are consecutive members of one type, used like an array. */
static struct static_key_false *stacker_single_key(int index)
{
	BUILD_BUG_ON(sizeof(stacker_single) !=
		     STACKER_SINGLE_KEYS * sizeof(stacker_single.m0));
	if (index < 0 || index >= STACKER_SINGLE_KEYS)
		return NULL;
	return &stacker_single.m0 + index;
}

/* The registry index whose fast-path key is enabled, or -1 (interface.rs). */
int stacker_single_key_enabled(void)
{
	int i;

	for (i = 0; i < STACKER_SINGLE_KEYS; i++)
		if (static_key_enabled(stacker_single_key(i)))
			return i;
	return -1;
}

/*
 * Refused securityfs writes are logged through their own rate limit (10
 * lines per 5 s), so that a writer without CAP_MAC_ADMIN can neither flood
 * the log nor use up the kernel-wide printk_ratelimit() budget that
 * capstack's denials draw on (attribute.rs).
 */
static DEFINE_RATELIMIT_STATE(stacker_securityfs_rs, 5 * HZ, 10);

bool stacker_securityfs_ratelimit(void)
{
	return __ratelimit(&stacker_securityfs_rs);
}

static int __init stacker_init(void)
{
	struct static_key_false *single;
	int i, count = 0;
	/* Checks the kernel structures, then lays out and inits the chain. */
	int err = stacker_rs_init();

	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(stacker_catalog); i++)
		if (stacker_rs_hook_wanted(stacker_catalog[i].name))
			stacker_hooks[count++] = stacker_catalog[i].hl;
	security_add_hooks(stacker_hooks, count, &stacker_lsmid);
	single = stacker_single_key(stacker_rs_single_index());
	if (single)
		static_branch_enable(single);
	pr_info("registered %d of %zu hooks\n", count,
		ARRAY_SIZE(stacker_catalog));
	return 0;
}

DEFINE_LSM(stacker) = {
	.id = &stacker_lsmid,
	.blobs = &stacker_blob_sizes,
	.init = stacker_init,
	.initcall_fs = stacker_rs_securityfs_init,
};
