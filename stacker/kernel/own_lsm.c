// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - submodules registered as LSMs of their own
 * (CONFIG_SECURITY_STACKER_OWN_LSM), for benchmarks and tests only.
 *
 * Each LSM here is named as its submodule and registers, with its own lsm_id
 * and its own slice of each blob, the very entry points stacker registers
 * for a one-submodule chain of that submodule (kernel/own_lsm.rs). Select
 * one with lsm=NAME. Their ids are local to this tree (uapi/linux/lsm.h as
 * patched by linux/patches), not assigned upstream.
 */

#define pr_fmt(fmt) "stacker: " fmt

#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "stacker.h"

#define STACKER_OWN_LSM(NAME, ID)                                            \
	static const struct lsm_id NAME##_own_lsmid = {                      \
		.name = #NAME,                                               \
		.id = ID,                                                    \
	};                                                                   \
	static struct security_hook_list                                     \
		NAME##_own_hooks[STACKER_CATALOG_SIZE] __ro_after_init;      \
	static int __init NAME##_own_init(void)                              \
	{                                                                    \
		int owner = stacker_rs_own_init(                             \
			#NAME, &stacker_own_##NAME##_blob_sizes);            \
		if (owner < 0)                                               \
			return owner;                                        \
		security_add_hooks(NAME##_own_hooks,                         \
				   stacker_collect_hooks(NAME##_own_hooks,   \
							 owner),             \
				   &NAME##_own_lsmid);                       \
		return 0;                                                    \
	}                                                                    \
	static int __init NAME##_own_securityfs_init(void)                   \
	{                                                                    \
		return stacker_rs_own_securityfs_init(#NAME);                \
	}                                                                    \
	DEFINE_LSM(NAME) = {                                                 \
		.id = &NAME##_own_lsmid,                                     \
		.blobs = &stacker_own_##NAME##_blob_sizes,                   \
		.init = NAME##_own_init,                                     \
		.initcall_fs = NAME##_own_securityfs_init,                   \
	};

/* One LSM for each entry of STACKER_OWN_LSMS (stacker.h). */
STACKER_OWN_LSMS(STACKER_OWN_LSM)
