/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacker - the Rust functions that the C glue calls.
 *
 * Every function declared here is defined in Rust as a `#[no_mangle]
 * extern "C"` function with exactly this signature, in kernel/boot.rs,
 * kernel/entry.rs and kernel/stacker_main.rs. The hook entry points are not
 * declared here: C only hands them to the LSM core, and Rust checks their
 * types against security_list_options.
 */
#ifndef _SECURITY_STACKER_H
#define _SECURITY_STACKER_H

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <linux/sockptr.h>

/* Early parameters: stacker.chain= and stacker.dispatch= (boot.rs). */
int stacker_rs_set_chain(const char *value);
int stacker_rs_set_dispatch(const char *value);
/* stacker.on_failure= (boot.rs). */
int stacker_rs_set_on_failure(const char *value);
/* Whether stacker did not start as configured and must panic (stacker_main.rs). */
bool stacker_rs_must_panic(void);
/* How many static call positions the chain fills: 0 unless the positions tier (boot.rs). */
int stacker_rs_positions(void);

/*
 * Whether the LSM core's hook @name is registered for @owner (-1: stacker;
 * else a registry index, own_lsm.c), and if so its entry point in @entry
 * (entry.rs).
 */
bool stacker_rs_hook(const char *name, union security_list_options *entry,
		     int owner);
/*
 * The lsmprop_to_secctx entry point for slot @slot of struct
 * lsm_prop_stacker, and the name and LSM id of the label-bearing submodule
 * that owns it, and whether it labels objects, if any (entry.rs).
 */
bool stacker_rs_label_hook(int slot, union security_list_options *entry,
			   const char **name, u64 *id, bool *objects);
/* Warns when the chain has more label-bearing submodules than @slots. */
void stacker_rs_label_slots(int slots);
/* How many hooks the LSM core has: the size of stacker's catalog (lsm.c). */
enum stacker_catalog_size {
#define LSM_HOOK(RET, DEFAULT, NAME, ...) STACKER_CATALOG_##NAME,
#include <linux/lsm_hook_defs.h>
#undef LSM_HOOK
	STACKER_CATALOG_SIZE
};

/*
 * Memory mappings (mm.c). stacker_data_noexec() tells whether data
 * mappings are not executable by default (SELinux's default_noexec,
 * decided at boot). stacker_vma_memory() tells what making
 * @vma executable would make executable, as selinux_file_mprotect() tells
 * it apart (the values of kernel/objects/mm.rs's VmaMemory).
 */
enum stacker_vma_memory {
	STACKER_VMA_OTHER = 0,
	STACKER_VMA_HEAP = 1,
	STACKER_VMA_STACK = 2,
	STACKER_VMA_WRITTEN_FILE = 3,
};
bool stacker_data_noexec(void);
int stacker_vma_memory(const struct vm_area_struct *vma);

/*
 * Whether the LSM with id @id (LSM_ID_*) is active (lsm.c). The LSM core's
 * list is complete before any hook runs.
 */
bool stacker_lsm_active(u64 id);

/* The catalog's hooks that Rust registers for @owner, into @hooks (lsm.c). */
int stacker_collect_hooks(struct security_hook_list *hooks, int owner);
/* Logs how many hooks were registered, and the dispatch tier (boot.rs). */
void stacker_rs_log_registered(int count);

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

/*
 * A submodule as an LSM of its own (own_lsm.c, own_lsm.rs): init returns
 * its registry index or a negative error; then its securityfs files.
 */
int stacker_rs_own_init(const char *name, const struct lsm_blob_sizes *offsets);
int stacker_rs_own_securityfs_init(const char *name);

/*
 * C's view of the structures Rust reads, and the field Rust cannot place
 * (layout_check.c).
 */
int stacker_layout_check(void);
struct sock;
void *stacker_sk_security(const struct sock *sk);
u32 stacker_sk_type_protocol(const struct sock *sk);
struct inode *stacker_socket_inode(const struct socket *sock);

/*
 * Process attributes for the LSMs after stacker, when no submodule claims
 * them (procattr.c; called from Rust).
 */
int stacker_forward_getprocattr(struct task_struct *p, const char *name,
				char **value);
int stacker_forward_setprocattr(const char *name, void *value, size_t size);

/* Blob sizes, then offsets; defined in Rust (boot.rs). */
extern struct lsm_blob_sizes stacker_blob_sizes;

/*
 * The submodules that can run as LSMs of their own, X(NAME, LSM_ID): the
 * one list. own_lsm.c registers each (with CONFIG_SECURITY_STACKER_OWN_LSM),
 * procattr.c knows that each runs stacker's entry points, and each has
 * its blob sizes defined in Rust (own_lsm.rs: an entry Rust does not size
 * does not link).
 */
#ifdef CONFIG_SECURITY_STACKER_CAPSTACK
#define STACKER_OWN_LSMS_CAPSTACK(X) X(capstack, LSM_ID_CAPSTACK)
#else
#define STACKER_OWN_LSMS_CAPSTACK(X)
#endif
#ifdef CONFIG_SECURITY_STACKER_TEST_MODULES
#define STACKER_OWN_LSMS_PROBES(X)                                           \
	X(probe, LSM_ID_PROBE) X(probe_b, LSM_ID_PROBE_B) X(probe_c, LSM_ID_PROBE_C)
#else
#define STACKER_OWN_LSMS_PROBES(X)
#endif
#define STACKER_OWN_LSMS(X) STACKER_OWN_LSMS_CAPSTACK(X) STACKER_OWN_LSMS_PROBES(X)

/* The blob sizes of each of them (own_lsm.rs). */
#define STACKER_OWN_BLOB_SIZES(NAME, ID)                                     \
	extern struct lsm_blob_sizes stacker_own_##NAME##_blob_sizes;
STACKER_OWN_LSMS(STACKER_OWN_BLOB_SIZES)
#undef STACKER_OWN_BLOB_SIZES

/*
 * Rust's offsets and sizes of the kernel structures it reads, in the order
 * of layout_check.c's lists; defined in Rust (objects/layout.rs).
 */
extern const size_t stacker_rust_offsets[];
extern const size_t stacker_rust_offsets_len;

/*
 * Mount options (mount_options.c): whether the LSM core's one mnt_opts
 * pointer is stacker's (no SELinux or Smack); the address of
 * fs_context::security; an fs_parameter's key, and its value (NULL for a
 * flag; -ENOPARAM for a value that is not a string or a flag).
 */
bool stacker_mount_options_ours(void);
struct fs_context;
struct fs_parameter;
void **stacker_fs_context_security(struct fs_context *fc);
const char *stacker_fs_param_key(const struct fs_parameter *param);
int stacker_fs_param_value(const struct fs_parameter *param,
			   const char **value, size_t *len);

/*
 * Whether stacker answers the one-LSM secid interfaces (a bare secid, the
 * audit rules): no other LSM with labels is active; and an audit rule of
 * value @value, allocated with @gfp, or NULL (secids.c).
 */
bool stacker_bare_secids_ours(void);
/*
 * Whether @krule has a label field (security_audit_rule_known()); and
 * makes such rules anew after a policy load, if stacker makes the rules.
 */
struct audit_krule;
int stacker_audit_rule_known(struct audit_krule *krule);
void stacker_audit_rules_update(void);
void *stacker_audit_rule_new(u64 value, gfp_t gfp);

/* Whether a refused securityfs write may be logged now (lsm.c). */
bool stacker_securityfs_ratelimit(void);

/* Whether an access denial may be logged now (lsm.c). */
bool stacker_audit_ratelimit(void);

/* Preemption off and on, for Rust (lsm.c). */
void stacker_preempt_disable(void);
void stacker_preempt_enable(void);
/* Interrupts off, then back as they were, for Rust (lsm.c). */
unsigned long stacker_irq_save(void);
void stacker_irq_restore(unsigned long flags);

/* copy_to_sockptr() for Rust: 0 or -EFAULT (lsm.c). */
int stacker_copy_to_sockptr(sockptr_t dst, const void *src, size_t size);

#endif /* _SECURITY_STACKER_H */
