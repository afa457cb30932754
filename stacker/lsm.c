// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - C glue: what only C can do.
 *
 * This file defines the LSM (DEFINE_LSM), its id, its hook list and its blob
 * sizes. All policy and dispatch lives in Rust; each hook entry below points
 * directly at a Rust function (see stacker.h), so there is no C trampoline
 * between the LSM core and the chain.
 */

#define pr_fmt(fmt) "stacker: " fmt

#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "stacker.h"

static const struct lsm_id stacker_lsmid = {
	.name = "stacker",
	.id = LSM_ID_STACKER,
};

/* Filled in by the LSM core with stacker's offsets into each blob. */
static struct lsm_blob_sizes stacker_blob_sizes __ro_after_init = {};

static struct security_hook_list stacker_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(file_open, stacker_file_open),
	LSM_HOOK_INIT(inode_permission, stacker_inode_permission),
};

static int __init stacker_init(void)
{
	int err = stacker_rs_init();

	if (err)
		return err;
	security_add_hooks(stacker_hooks, ARRAY_SIZE(stacker_hooks),
			   &stacker_lsmid);
	return 0;
}

DEFINE_LSM(stacker) = {
	.id = &stacker_lsmid,
	.blobs = &stacker_blob_sizes,
	.init = stacker_init,
	.initcall_fs = stacker_rs_securityfs_init,
};
