// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - C glue: what only C can do.
 *
 * This file defines the LSM (DEFINE_LSM), its id, its early parameters, and
 * the catalog of the LSM core's hooks, made from lsm_hook_defs.h as
 * security/bpf/hooks.c makes its own. Policy, layout and dispatch live in
 * Rust: for each hook of the catalog, Rust says whether it is registered
 * and with which entry point (kernel/entry.rs), so a hook goes from the LSM
 * core's static call straight into Rust, with no C trampoline.
 *
 * Only the hooks that some enabled submodule implements are registered: the
 * others keep the LSM core's static key off and cost nothing.
 */

#define pr_fmt(fmt) "stacker: " fmt

#include <linux/audit.h>
#include <linux/lsm_count.h>
#include <linux/lsm_hooks.h>
#include <linux/ratelimit.h>
#include <uapi/linux/lsm.h>

#include "../../../lsm.h"
#include "stacker.h"

/*
 * The core counts the built-in LSMs with COUNT_ARGS(), which counts at most
 * 15: with more (stacker and its own LSMs add up to five), MAX_LSM_COUNT
 * would collapse to 1 and size the static call slots wrong. Capability and
 * stacker are two.
 */
static_assert(MAX_LSM_COUNT >= 2, "too many LSMs for COUNT_ARGS() in lsm_count.h");

static const struct lsm_id stacker_lsmid = {
	.name = "stacker",
	.id = LSM_ID_STACKER,
};

/* Every hook of the LSM core, by name, with its static call slots. */
struct stacker_hook_slot {
	struct lsm_static_call *scalls;
	const char *name;
};

#define LSM_HOOK(RET, DEFAULT, NAME, ...) \
	{ .scalls = static_calls_table.NAME, .name = #NAME },
static const struct stacker_hook_slot stacker_catalog[STACKER_CATALOG_SIZE] __initconst = {
#include <linux/lsm_hook_defs.h>
};
#undef LSM_HOOK

/*
 * The static call positions of the positions tier
 * (CONFIG_SECURITY_STACKER_POSITIONS, counted in MAX_LSM_COUNT by
 * include/linux/lsm_count.h).
 */
#define STACKER_POSITIONS CONFIG_SECURITY_STACKER_POSITIONS

/*
 * The hooks actually registered: at most one per hook of the catalog and
 * position (a hook takes either one entry per submodule, in the positions
 * tier, or one entry for the whole chain).
 */
static struct security_hook_list stacker_hooks[STACKER_POSITIONS * STACKER_CATALOG_SIZE]
	__ro_after_init;

/*
 * Fills @hooks with the catalog's hooks that Rust registers for @owner
 * (-1: stacker's chain; else the registry index of a submodule registered
 * as an LSM of its own, own_lsm.c) and returns how many. @hooks has room
 * for one per hook of the catalog.
 */
int __init stacker_collect_hooks(struct security_hook_list *hooks, int owner)
{
	int i, count = 0;

	for (i = 0; i < ARRAY_SIZE(stacker_catalog); i++) {
		union security_list_options entry;

		if (!stacker_rs_hook(stacker_catalog[i].name, &entry, owner))
			continue;
		hooks[count].scalls = stacker_catalog[i].scalls;
		hooks[count].hook = entry;
		count++;
	}
	return count;
}

/*
 * Each label-bearing submodule of the chain answers lsmprop_to_secctx for
 * its slot of struct lsm_prop_stacker under an LSM id of its own, which
 * security_lsmprop_to_secctx() routes by, and audit names it by
 * (subj_mlte=...). The core counts stacker once per position in
 * MAX_LSM_COUNT, so a hook has at least STACKER_POSITIONS slots for it.
 */
static struct lsm_id stacker_label_lsmids[LSM_PROP_STACKER_SLOTS] __ro_after_init;
static struct security_hook_list stacker_label_hooks[LSM_PROP_STACKER_SLOTS] __ro_after_init;

static void __init stacker_add_label_hooks(void)
{
	int slot;

	for (slot = 0; slot < LSM_PROP_STACKER_SLOTS && slot < STACKER_POSITIONS; slot++) {
		struct lsm_id *lsmid = &stacker_label_lsmids[slot];
		struct security_hook_list *hook = &stacker_label_hooks[slot];
		bool objects;

		if (!stacker_rs_label_hook(slot, &hook->hook, &lsmid->name, &lsmid->id,
					   &objects))
			break;
		hook->scalls = static_calls_table.lsmprop_to_secctx;
		security_add_hooks(hook, 1, lsmid);
		/*
		 * Object contexts only from a submodule that labels every
		 * object audit asks about: an empty slot there is an error
		 * to audit_log_obj_ctx().
		 */
		audit_cfg_lsm(lsmid, AUDIT_CFG_LSM_SECCTX_SUBJECT |
			      (objects ? AUDIT_CFG_LSM_SECCTX_OBJECT : 0));
	}
	stacker_rs_label_slots(slot);
}

bool stacker_lsm_active(u64 id)
{
	unsigned int i;

	for (i = 0; i < lsm_active_cnt; i++)
		if (lsm_idlist[i]->id == id)
			return true;
	return false;
}

static int __init stacker_chain_setup(char *str)
{
	return stacker_rs_set_chain(str);
}
early_param("stacker.chain", stacker_chain_setup);

static int __init stacker_dispatch_setup(char *str)
{
	return stacker_rs_set_dispatch(str);
}
early_param("stacker.dispatch", stacker_dispatch_setup);

static int __init stacker_on_failure_setup(char *str)
{
	return stacker_rs_set_on_failure(str);
}
early_param("stacker.on_failure", stacker_on_failure_setup);

#ifdef CONFIG_SECURITY_STACKER_TEST_FAIL_INIT
static int __init stacker_fail_init_setup(char *str)
{
	return stacker_rs_set_fail_init(str);
}
early_param("stacker.fail_init", stacker_fail_init_setup);
#endif

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

/*
 * Access denials of the label-based submodules (mlte's AVC-style lines)
 * have their own rate limit too: a burst of 50 lines per 5 s, so that one
 * noisy domain cannot silence the rest of the kernel's warnings, nor they
 * its denials.
 */
static DEFINE_RATELIMIT_STATE(stacker_audit_rs, 5 * HZ, 50);

bool stacker_audit_ratelimit(void)
{
	return __ratelimit(&stacker_audit_rs);
}

/*
 * copy_to_sockptr() for Rust (it is an inline function, which bindgen
 * cannot call): 0, or -EFAULT when the copy failed.
 */
int stacker_copy_to_sockptr(sockptr_t dst, const void *src, size_t size)
{
	return copy_to_sockptr(dst, src, size) ? -EFAULT : 0;
}

/*
 * Preemption off and on, for Rust code that spins on a word another task
 * holds (the label writers of label.rs, like the kernel's seqcount
 * writers): a writer must not be preempted while a reader on its CPU
 * spins. preempt_disable() is a macro, which bindgen cannot call.
 */
void stacker_preempt_disable(void)
{
	preempt_disable();
}

/*
 * Interrupts off and on, for Rust code whose readers may run in interrupt
 * context on the same CPU and spin until the writer is done (mlte's
 * boolean commit: a capable() from an interrupt decides by the booleans).
 */
unsigned long stacker_irq_save(void)
{
	unsigned long flags;

	local_irq_save(flags);
	return flags;
}

void stacker_irq_restore(unsigned long flags)
{
	local_irq_restore(flags);
}

void stacker_preempt_enable(void)
{
	preempt_enable();
}

static int __init stacker_init(void)
{
	int count, positions, p;
	/* Checks the kernel structures, then lays out and inits the chain. */
	int err = stacker_rs_init();

	/* stacker.on_failure=panic: fail closed rather than run degraded. */
	if (stacker_rs_must_panic())
		panic("stacker: did not start as configured (see above) and stacker.on_failure=panic\n");
	if (err)
		return err;
	/*
	 * The positions tier: position p holds the entry points of the
	 * chain's p-th submodule, for the hooks whose combining rule is the
	 * LSM core's own; the chain's entry points (-1) take the other hooks.
	 * security_add_hooks() gives each entry the next free slot of its
	 * hook, so the positions keep chain order. Other tiers: positions is
	 * 0 and the chain's entry points take every hook.
	 */
	positions = stacker_rs_positions();
	if (WARN_ON(positions < 0 || positions > STACKER_POSITIONS))
		positions = 0;
	count = 0;
	for (p = 0; p < positions; p++)
		count += stacker_collect_hooks(stacker_hooks + count, -2 - p);
	count += stacker_collect_hooks(stacker_hooks + count, -1);
	security_add_hooks(stacker_hooks, count, &stacker_lsmid);
	stacker_add_label_hooks();
	stacker_rs_log_registered(count);
	return 0;
}

DEFINE_LSM(stacker) = {
	.id = &stacker_lsmid,
	.blobs = &stacker_blob_sizes,
	.init = stacker_init,
	.initcall_fs = stacker_rs_securityfs_init,
};
