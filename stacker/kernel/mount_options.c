// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - mount options: whether the LSM core's one mnt_opts pointer is
 * stacker's to use, and the fields of struct fs_context and struct
 * fs_parameter that Rust reads (bindgen sees neither structure).
 *
 * security_sb_eat_lsm_opts(), security_fs_context_parse_param() and
 * security_sb_set_mnt_opts() hand every LSM the same pointer
 * (fs_context::security), and SELinux and Smack each take it for a
 * structure of their own: stacker uses it only when neither is active
 * (core/mount_options.rs).
 */

#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "stacker.h"

bool stacker_mount_options_ours(void)
{
	return !stacker_lsm_active(LSM_ID_SELINUX) && !stacker_lsm_active(LSM_ID_SMACK);
}

void **stacker_fs_context_security(struct fs_context *fc)
{
	return &fc->security;
}

const char *stacker_fs_param_key(const struct fs_parameter *param)
{
	return param->key;
}

int stacker_fs_param_value(const struct fs_parameter *param,
			   const char **value, size_t *len)
{
	switch (param->type) {
	case fs_value_is_flag:
		*value = NULL;
		*len = 0;
		return 0;
	case fs_value_is_string:
		*value = param->string;
		*len = param->size;
		return 0;
	default:
		return -ENOPARAM;
	}
}
