/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacker - the Rust functions that the C glue calls.
 *
 * Every function declared here is defined in Rust as a `#[no_mangle]
 * extern "C"` function with exactly this signature: the hook entry points in
 * stacker/hooks.rs, the rest in stacker/boot.rs and stacker/stacker_main.rs.
 */
#ifndef _SECURITY_STACKER_H
#define _SECURITY_STACKER_H

#include <linux/init.h>
#include <linux/lsm_hooks.h>

/*
 * Hook entry points: stacker_<hook> with the LSM core's signature of <hook>,
 * declared for every hook the way security/security.c does it. Only those
 * in STACKER_HOOKS (lsm.c) are defined.
 */
#define LSM_HOOK(RET, DEFAULT, NAME, ...) RET stacker_##NAME(__VA_ARGS__);
#include <linux/lsm_hook_defs.h>
#undef LSM_HOOK

/* Early parameters: stacker.chain= and stacker.fastpath= (boot.rs). */
int stacker_rs_set_chain(const char *value);
int stacker_rs_set_fastpath(const char *value);

/* Whether the enabled chain wants hook @name (boot.rs). */
bool stacker_rs_hook_wanted(const char *name);
/* Registry index of the only submodule on the fast path, or -1 (boot.rs). */
int stacker_rs_single_index(void);

/* stacker.fail_init= (CONFIG_SECURITY_STACKER_TEST_FAIL_INIT; boot.rs). */
int stacker_rs_set_fail_init(const char *value);

/*
 * Once from security_init(), before any hook is registered: checks the
 * kernel structures Rust reads, lays out and initialises the chain, and
 * records the outcome for the status file. Non-zero: nothing may be
 * registered.
 */
int stacker_rs_init(void);
/* Once at fs_initcall time, after securityfs is up. */
int stacker_rs_securityfs_init(void);

/* C's view of the structures Rust reads (layout_check.c). */
int stacker_layout_check(void);

/*
 * Process attributes for the LSMs after stacker, when no submodule claims
 * them (procattr.c; called from Rust).
 */
int stacker_forward_getprocattr(struct task_struct *p, const char *name,
				char **value);
int stacker_forward_setprocattr(const char *name, void *value, size_t size);

/* Blob sizes, then offsets; defined in Rust (boot.rs). */
extern struct lsm_blob_sizes stacker_blob_sizes;

/* Fast-path keys, one per registry index (platform.rs mirrors this). */
#define STACKER_SINGLE_KEYS 8
struct stacker_single_keys {
	struct static_key_false m0, m1, m2, m3, m4, m5, m6, m7;
};
extern struct stacker_single_keys stacker_single;
/* Whether a refused securityfs write may be logged now (lsm.c). */
bool stacker_securityfs_ratelimit(void);

/* The registry index whose fast-path key is enabled, or -1 (lsm.c). */
int stacker_single_key_enabled(void);

#endif /* _SECURITY_STACKER_H */
