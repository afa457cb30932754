/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacker - the Rust entry points that the C glue calls.
 *
 * Every function declared here is defined in Rust (stacker/stacker_main.rs)
 * as a `#[no_mangle] extern "C"` function with exactly this signature. The
 * hook functions are placed directly in the LSM core's static-call slots, so
 * a hook call goes from the core straight into Rust.
 */
#ifndef _SECURITY_STACKER_H
#define _SECURITY_STACKER_H

#include <linux/fs.h>
#include <linux/init.h>

/* Called once from security_init(), before any hook is registered. */
int stacker_rs_init(void);
/* Called once at fs_initcall time, after securityfs is up. */
int stacker_rs_securityfs_init(void);

int stacker_file_open(struct file *file);
int stacker_inode_permission(struct inode *inode, int mask);

#endif /* _SECURITY_STACKER_H */
