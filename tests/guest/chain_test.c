// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what the booted chain registered, seen from userspace.
 *
 * Works for any chain of the compiled-in submodules: it reads the chain
 * from /sys/kernel/security/stacker/chain and /proc/cmdline, and checks
 * - that stacker initialized (the "status" file reads "ok"); if not, every
 *   later check fails;
 * - that exactly the hooks the chain's submodules implement are registered
 *   (the "hooks" file, and the boot log's "registered N hooks"), in chain
 *   order; the hooks of each submodule come from its source
 *   (hook_names.h, made by scripts/gen-hook-names.py);
 * - that the dispatch tier is the one the chain calls for (the "dispatch"
 *   file and the boot log): "single NAME" for one submodule, "straight-line"
 *   for the compile-time default chain (STACKER_DEFAULT_CHAIN in
 *   hook_names.h), even when stacker.chain= names it, "loop" for any other
 *   chain or with
 *   stacker.dispatch=loop, "none" for the empty chain;
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
#include "hook_names.h"

#define STACKER "/sys/kernel/security/stacker/"
#define MAX 16

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

/*
 * Whether `param` (stacker.chain='s value) names at least one submodule
 * and none that this kernel has (/sys/kernel/security/stacker/available).
 */
static int names_none_available(const char *param)
{
	char copy[512], avail[1024], *q, *save, *a, *save2, acopy[1024];
	int named = 0, known = 0;

	if (read_value(STACKER "available", avail, sizeof(avail)))
		return 0;
	snprintf(copy, sizeof(copy), "%s", param);
	for (q = strtok_r(copy, ", ", &save); q; q = strtok_r(NULL, ", ", &save)) {
		named++;
		snprintf(acopy, sizeof(acopy), "%s", avail);
		for (a = strtok_r(acopy, " \n", &save2); a; a = strtok_r(NULL, " \n", &save2))
			known |= !strcmp(a, q);
	}
	return named > 0 && !known;
}

int main(void)
{
	char chain[MAX][64], chain_csv[MAX * 65], expect[8192], tier_want[96], logged_tier[96] = "", why[128];
	int n = 0, i, h, ok, locks = 0;
	int logged_registered = -1;
	char *buf, *p, *save;
	const char *dispatch_param = cmdline_value("stacker.dispatch");
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
	buf = slurp(STACKER "hooks");
	ok = !strcmp(buf, expect);
	if (!ok) {
		print_commented("hooks file:", buf);
		print_commented("expected:", expect);
	}
	ktap_result(ok, "hooks_are_those_of_the_chain", "the hooks file differs (above)");

	/*
	 * The dispatch tier. The compile-time default chain, with or without
	 * stacker.chain= naming it, is straight-line unless it has one
	 * submodule.
	 */
	chain_csv[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(chain_csv, ",");
		strcat(chain_csv, chain[i]);
	}
	if (n == 0)
		snprintf(tier_want, sizeof(tier_want), "none");
	else if (dispatch_param && !strcmp(dispatch_param, "loop"))
		snprintf(tier_want, sizeof(tier_want), "loop");
	else if (n == 1)
		snprintf(tier_want, sizeof(tier_want), "single %s", chain[0]);
	else if (!strcmp(chain_csv, STACKER_DEFAULT_CHAIN))
		snprintf(tier_want, sizeof(tier_want), "straight-line");
	else
		snprintf(tier_want, sizeof(tier_want), "loop");
	buf = slurp(STACKER "dispatch");
	ok = !strcmp(chomp(buf), tier_want);
	ktap_result(ok, "dispatch_tier_fits_the_chain", "dispatch is '%s', expected '%s'",
		    buf, tier_want);

	/* The boot log: "stacker: registered N hooks, dispatch: TIER". */
	log = klog_read();
	at = strstr(log, "stacker: registered ");
	if (at)
		sscanf(at, "stacker: registered %d hooks, dispatch: %95[^\n]", &logged_registered,
		       logged_tier);
	ktap_result(logged_registered == registered && !strcmp(logged_tier, tier_want),
		    "boot_log_counts_registered_hooks",
		    "expected 'registered %d hooks, dispatch: %s' in the boot log, got %s%d, '%s'",
		    registered, tier_want, at ? "" : "no such line: ", logged_registered,
		    logged_tier);

	/*
	 * stacker.chain=: unknown and repeated names are reported and left
	 * out; the chain is the other names, in their order.
	 */
	if (!chain_param) {
		ktap_skip("bad_chain_names_logged_and_ignored",
			  "no stacker.chain= on the command line");
	} else if (names_none_available(chain_param)) {
		/*
		 * Fail safe: a value naming only unknown submodules keeps the
		 * compiled-in default chain (never empty in the test kernel),
		 * with an error in the log.
		 */
		ktap_result(n > 0 && strstr(log, "stacker.chain: names no known submodule; "
					    "keeping the default chain"),
			    "bad_chain_names_logged_and_ignored",
			    "stacker.chain=%s: chain of %d submodules, error line %s", chain_param,
			    n, strstr(log, "names no known submodule") ? "logged" : "missing");
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
