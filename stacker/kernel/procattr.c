// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - process attributes for the LSMs after stacker.
 *
 * The LSM core does not combine getprocattr/setprocattr: with lsmid 0
 * (/proc/PID/attr/NAME) it asks only the first LSM that registered the hook
 * (security_getprocattr(), security_setprocattr()). When that is stacker
 * and no submodule claims the attribute, the LSMs ordered after stacker
 * (SELinux, AppArmor, Smack, ...) would never be asked. So stacker's hooks
 * (dispatch.rs) end by calling these, which ask each LSM after stacker in
 * the LSM core's order (lsm_idlist), by its id, and return the first answer
 * that is not -EINVAL ("not mine", the hook's default). An LSM that does not
 * implement the hook answers -EINVAL through the core, so it is skipped.
 *
 * lsm_idlist and lsm_active_cnt (security/security.c, declared in
 * security/lsm.h) are filled while the LSMs are ordered, before any LSM's
 * init, and never change afterwards. Asking by id never reaches stacker
 * again. Nor does it reach a submodule registered as an LSM of its own
 * (own_lsm.c): that runs the same entry points, which forward too, so
 * asking it would recurse without end (lsm=stacker,probe_b). Those LSMs
 * are skipped: no recursion.
 */

#define pr_fmt(fmt) "stacker: " fmt

#include <linux/lsm_hooks.h>
#include <linux/security.h>
#include <uapi/linux/lsm.h>

#include "../../../lsm.h"
#include "stacker.h"

/*
 * Whether LSM @id runs stacker's entry points: stacker or one of the
 * submodules that can be LSMs of their own (STACKER_OWN_LSMS, stacker.h).
 */
static bool stacker_runs(u64 id)
{
#define STACKER_OWN_LSM_ID(NAME, ID) case ID:
	switch (id) {
	case LSM_ID_STACKER:
	STACKER_OWN_LSMS(STACKER_OWN_LSM_ID)
		return true;
	default:
		return false;
	}
#undef STACKER_OWN_LSM_ID
}

/* The index in lsm_idlist of the first LSM after stacker. */
static unsigned int stacker_first_later_lsm(void)
{
	unsigned int i;

	for (i = 0; i < lsm_active_cnt; i++)
		if (lsm_idlist[i]->id == LSM_ID_STACKER)
			return i + 1;
	return lsm_active_cnt;
}

/*
 * /proc/PID/attr/NAME of @p from the first LSM after stacker that answers
 * something other than -EINVAL; -EINVAL when none does. On success *@value
 * is the answering LSM's kmalloc'ed value, which the caller frees.
 */
int stacker_forward_getprocattr(struct task_struct *p, const char *name,
				char **value)
{
	unsigned int i;
	int rc;

	for (i = stacker_first_later_lsm(); i < lsm_active_cnt; i++) {
		if (stacker_runs(lsm_idlist[i]->id))
			continue;
		rc = security_getprocattr(p, lsm_idlist[i]->id, name, value);
		if (rc != -EINVAL)
			return rc;
	}
	return -EINVAL;
}

/*
 * A write of @size bytes at @value to /proc/self/attr/NAME, offered to each
 * LSM after stacker in turn: the first answer other than -EINVAL (bytes
 * used, or an error); -EINVAL when none takes it.
 */
int stacker_forward_setprocattr(const char *name, void *value, size_t size)
{
	unsigned int i;
	int rc;

	for (i = stacker_first_later_lsm(); i < lsm_active_cnt; i++) {
		if (stacker_runs(lsm_idlist[i]->id))
			continue;
		rc = security_setprocattr(lsm_idlist[i]->id, name, value, size);
		if (rc != -EINVAL)
			return rc;
	}
	return -EINVAL;
}
