// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - the kernel's one-LSM secid interfaces, and the audit rules.
 *
 * A bare u32 secid (SCM_SECURITY's, netfilter's secmarks) and an audit
 * rule's pointer name no LSM: the core hands them to every LSM alike
 * (security_secid_to_secctx() to the first that answers,
 * security_audit_rule_init() and _match() to all with one void **), so two
 * LSMs with labels would each read the other's as their own; SELinux's
 * rule init even clears the pointer first. stacker answers them only when
 * no other LSM with labels is active: SELinux, Smack and AppArmor.
 *
 * An audit rule is one u64, the value the submodule gave (entry.rs). A
 * policy load makes the rules with label fields anew, as SELinux's does:
 * a rule naming a type that the old policy lacked starts to match.
 */

#define pr_fmt(fmt) "stacker: " fmt

#include <linux/audit.h>
#include <linux/lsm_hooks.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <uapi/linux/lsm.h>

#include "stacker.h"

bool stacker_bare_secids_ours(void)
{
	return !stacker_lsm_active(LSM_ID_SELINUX) && !stacker_lsm_active(LSM_ID_SMACK) &&
	       !stacker_lsm_active(LSM_ID_APPARMOR);
}

int stacker_audit_rule_known(struct audit_krule *krule)
{
	u32 i;

	/* The label fields, as selinux_audit_rule_known(). */
	for (i = 0; i < krule->field_count; i++) {
		switch (krule->fields[i].type) {
		case AUDIT_SUBJ_USER:
		case AUDIT_SUBJ_ROLE:
		case AUDIT_SUBJ_TYPE:
		case AUDIT_SUBJ_SEN:
		case AUDIT_SUBJ_CLR:
		case AUDIT_OBJ_USER:
		case AUDIT_OBJ_ROLE:
		case AUDIT_OBJ_TYPE:
		case AUDIT_OBJ_LEV_LOW:
		case AUDIT_OBJ_LEV_HIGH:
			return 1;
		}
	}
	return 0;
}

void stacker_audit_rules_update(void)
{
	int err;

	if (!stacker_bare_secids_ours())
		return;
	err = audit_update_lsm_rules();
	if (err)
		pr_warn("remaking the audit rules after a policy load failed: %d\n", err);
}

void *stacker_audit_rule_new(u64 value, gfp_t gfp)
{
	u64 *rule = kmalloc(sizeof(*rule), gfp);

	if (rule)
		*rule = value;
	return rule;
}
