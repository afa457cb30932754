// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what the booted chain registered, seen from userspace.
 *
 * Works for any chain of the compiled-in submodules: it reads the chain
 * from /sys/kernel/security/stacker/chain and /proc/cmdline, and checks
 * - that stacker initialized (the "status" file reads "ok"); if not, every
 *   later check fails;
 * - that exactly the hooks the chain's submodules implement are registered
 *   (the "hooks" file, and the boot log's "registered N of M hooks" with M
 *   the number of hooks in all_hooks), in chain order;
 * - that the single-module fast path's static key is on, for the chain's
 *   only submodule, exactly when it should be (the "fastpath" file);
 * - that the layout gives each submodule with inode state its own,
 *   non-overlapping slot (skipped unless the chain has two xattrlock
 *   copies to compare; the slot of each copy is checked with one);
 * - that names given in stacker.chain= that are unknown or repeated are
 *   reported in the boot log and left out, the others kept in order
 *   (skipped without stacker.chain= on the command line).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define STACKER "/sys/kernel/security/stacker/"
#define MAX 16

/* Hooks of each compiled-in submodule, in the order of stacker/hook.rs. */
static const char *const denyname_hooks[] = { "file_open", "inode_permission", NULL };
static const char *const capstack_hooks[] = {
	"mmap_addr", "cred_prepare", "cred_transfer", "bprm_creds_for_exec",
	"bprm_creds_from_file", "capable", "capset", "task_fix_setuid",
	"task_fix_setgid", "vm_enough_memory", NULL
};
static const char *const xattrlock_hooks[] = {
	"file_open", "inode_unlink", "inode_rename", "inode_setxattr",
	"inode_removexattr", NULL
};
/* Every hook, in the order of stacker/hook.rs (the "hooks" file order). */
static const char *const all_hooks[] = {
	"file_open", "file_permission", "mmap_file", "mmap_addr",
	"file_mprotect", "file_alloc_security", "file_free_security",
	"inode_permission", "inode_create", "inode_unlink", "inode_rename",
	"inode_link", "inode_mkdir", "inode_rmdir", "inode_setxattr",
	"inode_removexattr", "inode_init_security", "inode_alloc_security",
	"inode_free_security", "inode_free_security_rcu", "d_instantiate",
	"cred_alloc_blank", "cred_prepare", "cred_transfer", "cred_free",
	"bprm_creds_for_exec", "bprm_creds_from_file", "bprm_check_security",
	"bprm_committed_creds", "capable", "capset", "ptrace_access_check",
	"task_alloc", "task_free", "task_kill", "task_fix_setuid",
	"task_fix_setgid", "socket_create",
	"socket_connect", "ipc_permission", "getprocattr", "setprocattr",
	"vm_enough_memory", NULL
};

static const char *const *hooks_of(const char *module)
{
	if (!strcmp(module, "denyname"))
		return denyname_hooks;
	if (!strncmp(module, "xattrlock", 9))
		return xattrlock_hooks;
	if (!strcmp(module, "capstack"))
		return capstack_hooks;
	return NULL;
}

static int has(const char *const *list, const char *hook)
{
	for (; list && *list; list++)
		if (!strcmp(*list, hook))
			return 1;
	return 0;
}

static char *slurp(const char *path)
{
	static char bufs[4][65536];
	static int next;
	char *buf = bufs[next++ % 4];
	int fd = open(path, O_RDONLY);
	ssize_t n, total = 0;

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	while ((n = read(fd, buf + total, 65535 - total)) > 0)
		total += n;
	buf[total] = '\0';
	close(fd);
	return buf;
}

/* The value of `key=` on the kernel command line, or NULL. */
static const char *cmdline_value(const char *key)
{
	static char line[4096];
	char *p, *tok;
	size_t klen = strlen(key);

	strncpy(line, slurp("/proc/cmdline"), sizeof(line) - 1);
	for (tok = strtok_r(line, " \n", &p); tok; tok = strtok_r(NULL, " \n", &p))
		if (!strncmp(tok, key, klen) && tok[klen] == '=')
			return strdup(tok + klen + 1);
	return NULL;
}

/* `s` without its trailing newline, for messages (changes `s`). */
static const char *chomp(char *s)
{
	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* Prints `text` as KTAP comment lines under `title`, for a failed check. */
static void print_commented(const char *title, const char *text)
{
	const char *p = text, *end;

	printf("# %s\n", title);
	for (; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		printf("#   %.*s\n", (int)(end - p), p);
	}
}

/* Whether `layout` has an inode slot of `name` with a non-zero size. */
static int has_inode_slot(const char *layout, const char *name)
{
	char copy[65536], *p, *save, mod[64], kind[32];
	long off, size;

	snprintf(copy, sizeof(copy), "%s", layout);
	for (p = strtok_r(copy, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		if (sscanf(p, "%63s %31s %ld %ld", mod, kind, &off, &size) == 4 &&
		    !strcmp(mod, name) && !strcmp(kind, "inode") && size > 0)
			return 1;
	return 0;
}

int main(void)
{
	char chain[MAX][64], expect[8192], fast_want[96], why[128];
	int n = 0, i, h, ok, locks = 0, hooks_total = 0;
	int logged_registered = -1, logged_total = -1;
	char *buf, *p, *save;
	const char *fast_param = cmdline_value("stacker.fastpath");
	const char *chain_param = cmdline_value("stacker.chain");
	const char *log, *at;
	int registered = 0;

	ktap_plan("chain", 7);

	/* Without a successful init, every later check fails. */
	check_init_succeeded();

	buf = slurp(STACKER "chain");
	for (p = strtok_r(buf, "\n", &save); p && n < MAX; p = strtok_r(NULL, "\n", &save))
		snprintf(chain[n++], sizeof(chain[0]), "%s", p);
	printf("# chain has %d submodules\n", n);

	/* Expected "hooks" file: every hook some submodule implements. */
	expect[0] = '\0';
	for (h = 0; all_hooks[h]; h++) {
		int any = 0;

		for (i = 0; i < n; i++) {
			if (!has(hooks_of(chain[i]), all_hooks[h]))
				continue;
			if (!any)
				strcat(expect, all_hooks[h]);
			strcat(expect, " ");
			strcat(expect, chain[i]);
			any = 1;
		}
		if (any) {
			strcat(expect, "\n");
			registered++;
		}
	}
	hooks_total = h;
	buf = slurp(STACKER "hooks");
	ok = !strcmp(buf, expect);
	if (!ok) {
		print_commented("hooks file:", buf);
		print_commented("expected:", expect);
	}
	ktap_result(ok, "hooks_are_those_of_the_chain", "the hooks file differs (above)");

	/*
	 * The fast path: "1 NAME" when the static key of submodule NAME is
	 * on, which must be exactly when NAME is the chain's only submodule
	 * and stacker.fastpath=0 was not given; "0" otherwise.
	 */
	if (n == 1 && !(fast_param && fast_param[0] == '0'))
		snprintf(fast_want, sizeof(fast_want), "1 %s\n", chain[0]);
	else
		snprintf(fast_want, sizeof(fast_want), "0\n");
	buf = slurp(STACKER "fastpath");
	ok = !strcmp(buf, fast_want);
	ktap_result(ok, "fastpath_iff_single_module", "fastpath is '%s', expected '%s'",
		    chomp(buf), chomp(fast_want));

	/* The boot log: "stacker: registered N of M hooks". */
	log = klog_read();
	at = strstr(log, "stacker: registered ");
	if (at)
		sscanf(at, "stacker: registered %d of %d hooks", &logged_registered,
		       &logged_total);
	ktap_result(logged_registered == registered && logged_total == hooks_total,
		    "boot_log_counts_registered_hooks",
		    "expected 'registered %d of %d hooks' in the boot log, got %s%d of %d",
		    registered, hooks_total, at ? "" : "no such line: ", logged_registered,
		    logged_total);

	/*
	 * stacker.chain=: unknown and repeated names are reported and left
	 * out; the chain is the other names, in their order.
	 */
	if (!chain_param) {
		ktap_skip("bad_chain_names_logged_and_ignored",
			  "no stacker.chain= on the command line");
	} else {
		char copy[512], *q, *s2, line[256];
		const char *kept_names[64];
		int kept = 0, k;

		ok = 1;
		snprintf(copy, sizeof(copy), "%s", chain_param);
		for (q = strtok_r(copy, ",", &s2); q; q = strtok_r(NULL, ",", &s2)) {
			int in_chain = 0, taken = 0;

			for (k = 0; k < n; k++)
				in_chain |= !strcmp(chain[k], q);
			for (k = 0; k < kept; k++)
				taken |= !strcmp(kept_names[k], q);
			if (!in_chain)
				snprintf(line, sizeof(line),
					 "stacker.chain: ignoring '%s': unknown submodule", q);
			else if (taken)
				snprintf(line, sizeof(line),
					 "stacker.chain: ignoring '%s': repeated", q);
			else {
				/* Kept: it must be the next one in the chain. */
				if (kept >= n || strcmp(chain[kept], q)) {
					printf("# chain entry %d is '%s', expected '%s'\n", kept,
					       kept < n ? chain[kept] : "(none)", q);
					ok = 0;
				}
				if (kept < 64)
					kept_names[kept++] = q;
				continue;
			}
			if (!strstr(log, line)) {
				printf("# missing log line: %s\n", line);
				ok = 0;
			}
		}
		if (kept != n) {
			printf("# the chain has %d submodules, stacker.chain= names %d\n", n,
			       kept);
			ok = 0;
		}
		ktap_result(ok, "bad_chain_names_logged_and_ignored",
			    "stacker.chain=%s and the chain or boot log disagree (above)",
			    chain_param);
	}

	/*
	 * Layout: the inode slots of the chain are disjoint (needs two
	 * submodules with inode state, the xattrlock copies, to mean
	 * anything), and each xattrlock copy has one.
	 */
	for (i = 0; i < n; i++)
		if (!strncmp(chain[i], "xattrlock", 9))
			locks++;
	buf = slurp(STACKER "layout");
	if (locks < 2) {
		snprintf(why, sizeof(why),
			 "%d submodules with inode state (xattrlock*) in the chain, needs 2",
			 locks);
		ktap_skip("inode_slots_disjoint", why);
	} else {
		char copy[65536];
		long lo[MAX], hi[MAX];
		int m = 0, disjoint = 1, j;
		char name[64], kind[32];
		long off, size;

		snprintf(copy, sizeof(copy), "%s", buf);
		for (p = strtok_r(copy, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
			if (sscanf(p, "%63s %31s %ld %ld", name, kind, &off, &size) != 4)
				continue;
			if (strcmp(name, "stacker") && !strcmp(kind, "inode") && m < MAX) {
				lo[m] = off;
				hi[m++] = off + size;
			}
		}
		for (i = 0; i < m; i++)
			for (j = i + 1; j < m; j++)
				if (lo[i] < hi[j] && lo[j] < hi[i])
					disjoint = 0;
		if (m < locks)
			printf("# %d inode slots in the layout, %d xattrlock copies\n", m, locks);
		if (!disjoint || m < locks)
			print_commented("layout:", buf);
		ktap_result(disjoint && m >= locks, "inode_slots_disjoint",
			    "%s", disjoint ? "too few inode slots" : "inode slots overlap");
	}
	if (locks < 1) {
		ktap_skip("each_lock_has_an_inode_slot", "no xattrlock copy in the chain");
	} else {
		ok = 1;
		for (i = 0; i < n; i++)
			if (!strncmp(chain[i], "xattrlock", 9) && !has_inode_slot(buf, chain[i])) {
				printf("# no inode slot for %s\n", chain[i]);
				ok = 0;
			}
		if (!ok)
			print_commented("layout:", buf);
		ktap_result(ok, "each_lock_has_an_inode_slot", "a copy has no inode slot");
	}
	return ktap_exit();
}
