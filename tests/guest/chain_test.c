// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what the booted chain registered, seen from userspace.
 *
 * Works for any chain of the compiled-in submodules: it reads the chain
 * from /sys/kernel/security/stacker/chain and /proc/cmdline, and checks
 * - that exactly the hooks the chain's submodules implement are registered
 *   (the "hooks" file and the boot log's count), in chain order;
 * - that the single-module fast path is on exactly when it should be;
 * - that the layout gives each submodule with inode state its own,
 *   non-overlapping, aligned slot;
 * - that names given in stacker.chain= that are unknown or repeated are
 *   reported in the boot log and left out.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <unistd.h>

#include "ktap.h"

#define STACKER "/sys/kernel/security/stacker/"
#define MAX 16

/* Hooks of each compiled-in submodule, in the order of stacker/hook.rs. */
static const char *const denyname_hooks[] = { "file_open", "inode_permission", NULL };
static const char *const capstack_hooks[] = {
	"cred_prepare", "cred_transfer", "bprm_creds_for_exec", "capable",
	"capset", NULL
};
static const char *const xattrlock_hooks[] = {
	"file_open", "inode_unlink", "inode_rename", "inode_setxattr",
	"inode_removexattr", NULL
};
/* Every hook, in the order of stacker/hook.rs (the "hooks" file order). */
static const char *const all_hooks[] = {
	"file_open", "file_permission", "mmap_file", "file_mprotect",
	"file_alloc_security", "file_free_security", "inode_permission",
	"inode_create", "inode_unlink", "inode_rename", "inode_link",
	"inode_mkdir", "inode_rmdir", "inode_setxattr", "inode_removexattr",
	"inode_init_security", "inode_alloc_security", "inode_free_security",
	"d_instantiate", "cred_alloc_blank", "cred_prepare", "cred_transfer",
	"cred_free", "bprm_creds_for_exec", "bprm_check_security",
	"bprm_committed_creds", "capable", "capset", "ptrace_access_check",
	"task_alloc", "task_free", "task_kill", "socket_create",
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
			return tok + klen + 1;
	return NULL;
}

int main(void)
{
	char chain[MAX][64], expect[8192], log[65536 * 2];
	int n = 0, i, h, fast_expected, loglen, ok;
	char *buf = slurp(STACKER "chain"), *p, *save;
	const char *fast_param = cmdline_value("stacker.fastpath");
	const char *chain_param = cmdline_value("stacker.chain");
	int registered = 0;

	ktap_plan("chain", 6);

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
	buf = slurp(STACKER "hooks");
	ktap_result(!strcmp(buf, expect), "hooks_are_those_of_the_chain",
		    "got:\n%s# expected:\n%s", buf, expect);

	fast_expected = n == 1 && !(fast_param && fast_param[0] == '0');
	buf = slurp(STACKER "fastpath");
	ktap_result(atoi(buf) == fast_expected, "fastpath_iff_single_module",
		    "fastpath is %s, expected %d", buf, fast_expected);

	/* The boot log. */
	loglen = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	log[loglen > 0 ? loglen : 0] = '\0';
	snprintf(expect, sizeof(expect), "registered %d of 38 hooks", registered);
	ktap_result(strstr(log, expect) != NULL, "boot_log_counts_registered_hooks",
		    "no '%s' in the boot log", expect);

	/* Rejected names of stacker.chain= are reported. */
	ok = 1;
	if (chain_param) {
		char copy[512], *q, *s2;
		int seen[MAX] = { 0 };

		snprintf(copy, sizeof(copy), "%s", chain_param);
		for (q = strtok_r(copy, ",", &s2); q; q = strtok_r(NULL, ",", &s2)) {
			int known = 0, k;
			char line[256];

			for (k = 0; k < n; k++) {
				if (!strcmp(chain[k], q)) {
					known = 1;
					if (seen[k]++) {
						snprintf(line, sizeof(line),
							 "stacker.chain: ignoring '%s': repeated", q);
						if (!strstr(log, line)) {
							printf("# missing log line: %s\n", line);
							ok = 0;
						}
					}
				}
			}
			if (!known) {
				snprintf(line, sizeof(line),
					 "stacker.chain: ignoring '%s': unknown submodule", q);
				if (!strstr(log, line)) {
					printf("# missing log line: %s\n", line);
					ok = 0;
				}
			}
		}
	}
	ktap_result(ok, "bad_chain_names_logged_and_ignored", NULL);

	/* Layout: inode slots of the chain are disjoint and aligned. */
	buf = slurp(STACKER "layout");
	{
		long lo[MAX], hi[MAX];
		int m = 0, disjoint = 1, j;
		char name[64], kind[32];
		long off, size;

		for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
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
		ktap_result(disjoint, "inode_slots_disjoint", "layout:\n%s", buf);
		buf = slurp(STACKER "layout");
		ok = 1;
		for (i = 0; i < n; i++)
			if (!strncmp(chain[i], "xattrlock", 9)) {
				snprintf(expect, sizeof(expect), "%s inode ", chain[i]);
				if (!strstr(buf, expect))
					ok = 0;
			}
		ktap_result(ok, "each_lock_has_an_inode_slot", "layout:\n%s", buf);
	}
	return ktap_exit();
}
