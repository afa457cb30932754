// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what the booted chain registered, seen from userspace.
 *
 * Works for any chain of the compiled-in submodules: it reads the chain
 * from /sys/kernel/security/stacker/chain and /proc/cmdline, and checks
 * - that stacker initialized (the "status" file reads "ok"); if not, every
 *   test fails;
 * - that exactly the hooks the chain's submodules implement are registered
 *   (the "hooks" file, and the boot log's "registered N hooks"), in chain
 *   order; the hooks of each submodule come from its source
 *   (hook_names.h, made by scripts/gen-hook-names.py);
 * - that the dispatch tier is the one the chain calls for (the "dispatch"
 *   file and the boot log): "single NAME" for one submodule, "straight-line"
 *   for the compile-time default chain (STACKER_DEFAULT_CHAIN in
 *   hook_names.h), even when stacker.chain= names it, "positions" for any
 *   other chain of at most STACKER_POSITIONS submodules, "loop" for a
 *   longer one or with stacker.dispatch=loop, "none" for the empty chain;
 * - that the layout gives each submodule with inode state its own,
 *   non-overlapping slot (skipped unless the chain has two xattrlock
 *   copies to compare; the slot of each copy is checked with one);
 * - that names given in stacker.chain= that are repeated are reported in
 *   the boot log and left out, the others kept in order, and that a value
 *   with an unknown name is refused as a whole, keeping the default chain
 *   (skipped without stacker.chain= on the command line).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <unistd.h>

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

/* `s` without its trailing newline, for messages (changes `s`). */
static const char *chomp(char *s)
{
	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* Prints `text` as TAP comment lines under `title`, for a failed check. */
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
/* Whether `param` names a submodule that is not compiled in. */
static int names_any_unknown(const char *param)
{
	char copy[512], avail[1024], *q, *save, *a, *save2, acopy[1024];
	int unknown = 0;

	if (read_value(STACKER "available", avail, sizeof(avail)))
		return 0;
	snprintf(copy, sizeof(copy), "%s", param);
	for (q = strtok_r(copy, ", ", &save); q; q = strtok_r(NULL, ", ", &save)) {
		int known = 0;

		snprintf(acopy, sizeof(acopy), "%s", avail);
		for (a = strtok_r(acopy, " \n", &save2); a; a = strtok_r(NULL, " \n", &save2))
			known |= !strcmp(a, q);
		unknown |= !known;
	}
	return unknown;
}

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

/* The chain this boot has, and what the other files should say about it. */
FIXTURE(chain)
{
	char chain[MAX][64];
	int n;
	/* The expected "hooks" file, and how many hooks it lists. */
	char expect[8192];
	int registered;
	/* The expected dispatch tier. */
	char tier_want[96];
};

FIXTURE_SETUP(chain)
{
	char *buf, *p, *save, chain_csv[MAX * 65];
	const char *dispatch_param = cmdline_value("stacker.dispatch");
	int i, h;

	/* Without a successful init, every test fails. */
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);

	buf = slurp(STACKER "chain");
	for (p = strtok_r(buf, "\n", &save); p && self->n < MAX; p = strtok_r(NULL, "\n", &save))
		snprintf(self->chain[self->n++], sizeof(self->chain[0]), "%s", p);

	/* Expected "hooks" file: every hook some submodule implements. */
	self->expect[0] = '\0';
	for (h = 0; all_hooks[h]; h++) {
		int any = 0;

		for (i = 0; i < self->n; i++) {
			if (!has(hooks_of(self->chain[i]), all_hooks[h]))
				continue;
			if (!any)
				strcat(self->expect, all_hooks[h]);
			strcat(self->expect, " ");
			strcat(self->expect, self->chain[i]);
			any = 1;
		}
		if (any) {
			strcat(self->expect, "\n");
			self->registered++;
		}
	}

	/*
	 * The dispatch tier. The compile-time default chain, with or without
	 * stacker.chain= naming it, is straight-line unless it has one
	 * submodule.
	 */
	chain_csv[0] = '\0';
	for (i = 0; i < self->n; i++) {
		if (i)
			strcat(chain_csv, ",");
		strcat(chain_csv, self->chain[i]);
	}
	if (self->n == 0)
		snprintf(self->tier_want, sizeof(self->tier_want), "none");
	else if (dispatch_param && !strcmp(dispatch_param, "loop"))
		snprintf(self->tier_want, sizeof(self->tier_want), "loop");
	else if (self->n == 1)
		snprintf(self->tier_want, sizeof(self->tier_want), "single %s", self->chain[0]);
	else if (!strcmp(chain_csv, STACKER_DEFAULT_CHAIN))
		snprintf(self->tier_want, sizeof(self->tier_want), "straight-line");
	else if (self->n <= STACKER_POSITIONS)
		snprintf(self->tier_want, sizeof(self->tier_want), "positions");
	else
		snprintf(self->tier_want, sizeof(self->tier_want), "loop");
}

FIXTURE_TEARDOWN(chain)
{
}

TEST_F(chain, hooks_are_those_of_the_chain)
{
	const char *buf = slurp(STACKER "hooks");

	if (strcmp(buf, self->expect)) {
		print_commented("hooks file:", buf);
		print_commented("expected:", self->expect);
	}
	EXPECT_EQ(0, strcmp(buf, self->expect))
		TH_LOG("the hooks file differs from what the chain implements (above)");
}

TEST_F(chain, dispatch_tier_fits_the_chain)
{
	EXPECT_STREQ(self->tier_want, chomp(slurp(STACKER "dispatch")));
}

/* The boot log: "stacker: registered N hooks, dispatch: TIER". */
TEST_F(chain, boot_log_counts_registered_hooks)
{
	const char *at = strstr(klog_read(), "stacker: registered ");
	char logged_tier[96] = "";
	int logged_registered = -1;

	if (at)
		sscanf(at, "stacker: registered %d hooks, dispatch: %95[^\n]", &logged_registered,
		       logged_tier);
	EXPECT_NE(NULL, at)
		TH_LOG("no 'stacker: registered ' line in the boot log");
	EXPECT_EQ(self->registered, logged_registered);
	EXPECT_STREQ(self->tier_want, logged_tier);
}

/*
 * stacker.chain=: repeated names are reported and left out; the chain is
 * the other names, in their order. A value with an unknown name is refused.
 */
TEST_F(chain, bad_chain_names_logged_and_ignored)
{
	const char *chain_param = cmdline_value("stacker.chain");
	char copy[512], *q, *s2, line[256];
	const char *kept_names[64], *log;
	int kept = 0, k, n = self->n;

	if (!chain_param)
		SKIP(return, "no stacker.chain= on the command line");
	log = klog_read();
	if (names_any_unknown(chain_param)) {
		/*
		 * Fail safe: a value naming any unknown submodule (a typo such
		 * as "mlte,capstak") is refused as a whole, so that no boot runs
		 * without the submodule it misspells: the compiled-in default
		 * chain stays, with an error in the log.
		 */
		char csv[MAX * 65] = "", status[512];

		for (k = 0; k < n; k++) {
			if (k)
				strcat(csv, ",");
			strcat(csv, self->chain[k]);
		}
		EXPECT_STREQ(STACKER_DEFAULT_CHAIN, csv)
			TH_LOG("stacker.chain=%s: not the default chain", chain_param);
		/* status says so. */
		EXPECT_ERRNO(0, read_value(STACKER "status", status, sizeof(status)));
		EXPECT_STREQ(STACKER_STATUS_CHAIN_REFUSED, status);
		EXPECT_NE(NULL, strstr(log, "stacker.chain: names an unknown submodule; "
					    "refused, keeping the default chain"))
			TH_LOG("stacker.chain=%s: no 'refused, keeping the default chain' line in the log",
			       chain_param);
		return;
	}
	snprintf(copy, sizeof(copy), "%s", chain_param);
	for (q = strtok_r(copy, ",", &s2); q; q = strtok_r(NULL, ",", &s2)) {
		int in_chain = 0, taken = 0;

		for (k = 0; k < n; k++)
			in_chain |= !strcmp(self->chain[k], q);
		for (k = 0; k < kept; k++)
			taken |= !strcmp(kept_names[k], q);
		if (!in_chain) {
			snprintf(line, sizeof(line),
				 "stacker.chain: ignoring '%s': unknown submodule", q);
		} else if (taken) {
			snprintf(line, sizeof(line), "stacker.chain: ignoring '%s': repeated", q);
		} else {
			/* Kept: it must be the next one in the chain. */
			EXPECT_STREQ(q, kept < n ? self->chain[kept] : "(none)")
				TH_LOG("stacker.chain=%s: chain entry %d", chain_param, kept);
			if (kept < 64)
				kept_names[kept++] = q;
			continue;
		}
		EXPECT_NE(NULL, strstr(log, line))
			TH_LOG("missing log line: %s", line);
	}
	EXPECT_EQ(kept, n)
		TH_LOG("stacker.chain=%s names %d submodules to keep, the chain has %d",
		       chain_param, kept, n);
}

/* The xattrlock copies in the chain: the submodules with inode state. */
static int locks_in(const FIXTURE_DATA(chain) *self)
{
	int i, locks = 0;

	for (i = 0; i < self->n; i++)
		if (!strncmp(self->chain[i], "xattrlock", 9))
			locks++;
	return locks;
}

/*
 * Layout: the inode slots of the chain are disjoint (needs two
 * submodules with inode state, the xattrlock copies, to mean
 * anything), and each xattrlock copy has one.
 */
TEST_F(chain, inode_slots_disjoint)
{
	const char *buf = slurp(STACKER "layout");
	int locks = locks_in(self), m = 0, disjoint = 1, i, j;
	char copy[65536], *p, *save, name[64], kind[32];
	long lo[MAX], hi[MAX], off, size;

	if (locks < 2)
		SKIP(return, "%d submodules with inode state (xattrlock*) in the chain, needs 2",
		     locks);
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
	if (!disjoint || m < locks)
		print_commented("layout:", buf);
	EXPECT_TRUE(disjoint)
		TH_LOG("inode slots overlap (layout above)");
	EXPECT_LE(locks, m)
		TH_LOG("%d inode slots in the layout, %d xattrlock copies", m, locks);
}

TEST_F(chain, each_lock_has_an_inode_slot)
{
	const char *buf = slurp(STACKER "layout");
	int i;

	if (locks_in(self) < 1)
		SKIP(return, "no xattrlock copy in the chain");
	for (i = 0; i < self->n; i++) {
		if (strncmp(self->chain[i], "xattrlock", 9) || has_inode_slot(buf, self->chain[i]))
			continue;
		print_commented("layout:", buf);
		EXPECT_TRUE(has_inode_slot(buf, self->chain[i]))
			TH_LOG("no inode slot for %s in the layout (above)", self->chain[i]);
	}
}

TEST_HARNESS_MAIN
