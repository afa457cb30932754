// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what a failed init leaves behind, from userspace.
 *
 * Run in boots with "stacker.fail_init=" (CONFIG_SECURITY_STACKER_TEST_FAIL_INIT),
 * which makes the check of the kernel structures ("core") or one
 * submodule's init fail on purpose; with "lsm=capstack" and
 * "stacker.fail_init=capstack", capstack's own LSM fails.
 *
 * When the LSM itself failed (stacker's core, or capstack's own LSM), in
 * its directory:
 * - /sys/kernel/security/stacker/status says "failed: " and why;
 * - it is the only file in /sys/kernel/security/stacker/: no policy or rule
 *   file that would accept what nothing enforces, and no submodule files
 *   that would touch state that was never initialised;
 * - the boot log says why, and that no hook was registered (there is no
 *   "registered N of M hooks" line).
 *
 * When one submodule of stacker's chain failed, or is an LSM of its own
 * too (lsm=capstack,stacker with capstack in the chain: the conflict
 * boot), the failure stays local:
 * - status says "degraded: ", and names the submodule left out and why;
 * - the chain is the others, which register their hooks and still deny
 *   (denyname's rule refuses an open);
 * - the failed submodule has no files (no policy nothing would enforce);
 * - the boot log says what was left out.
 * Without "stacker.fail_init=" on the command line every test fails.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "guest_util.h"

#define SECFS "/sys/kernel/security/"

/* The LSM whose init failed: stacker, or capstack as an LSM of its own. */
FIXTURE(init_failure)
{
	const char *what;	/* stacker.fail_init= */
	int direct;		/* capstack's own LSM */
	const char *dir;	/* its securityfs directory */
};

/*
 * The conflict boots: capstack both in stacker's chain and an LSM of its
 * own, both LSMs up. CONFLICT_OWN_FIRST: lsm=capstack,stacker, capstack's
 * own LSM initialised first and stacker runs without it;
 * CONFLICT_STACKER_FIRST: lsm=stacker,capstack, stacker runs it and the
 * own LSM gave way.
 */
enum { NO_CONFLICT, CONFLICT_OWN_FIRST, CONFLICT_STACKER_FIRST };

static int conflict_boot(void)
{
	char status[64];

	if (cmdline_value("stacker.fail_init") || access(SECFS "capstack/status", F_OK) ||
	    read_value(SECFS "stacker/status", status, sizeof(status)))
		return NO_CONFLICT;
	return strcmp(status, "ok\n") ? CONFLICT_OWN_FIRST : CONFLICT_STACKER_FIRST;
}

FIXTURE_SETUP(init_failure)
{
	if (conflict_boot())
		SKIP(return, "nothing failed whole: the submodule_failure tests");
	self->what = cmdline_value("stacker.fail_init");
	self->direct = access(SECFS "stacker", F_OK) != 0;
	self->dir = self->direct ? SECFS "capstack/" : SECFS "stacker/";
	ASSERT_NE(NULL, self->what)
		TH_LOG("no stacker.fail_init= on the command line: this program is for "
		       "the boots with it");
	if (!self->direct && strcmp(self->what, "core"))
		SKIP(return, "a submodule of stacker's chain failed: the submodule_failure tests");
}

FIXTURE_TEARDOWN(init_failure)
{
}

TEST_F(init_failure, status_says_failed_and_why)
{
	char status[256], want[256], path[256];

	snprintf(path, sizeof(path), "%sstatus", self->dir);
	read_value(path, status, sizeof(status));
	if (!strcmp(self->what, "core"))
		snprintf(want, sizeof(want), "failed: layout check: ");
	else
		snprintf(want, sizeof(want), "failed: submodule %s init: error -19", self->what);
	EXPECT_EQ(0, strncmp(status, want, strlen(want)))
		TH_LOG("%s is '%s', expected it to start with '%s'", path, escaped(status), want);
}

TEST_F(init_failure, status_is_the_only_file)
{
	char files[1024] = "";
	struct dirent *de;
	int only_status = 1, n = 0;
	DIR *d = opendir(self->dir);

	ASSERT_NE(NULL, d)
		TH_LOG("opendir(%s): %s", self->dir, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		strncat(files, de->d_name, sizeof(files) - strlen(files) - 2);
		strcat(files, " ");
		if (strcmp(de->d_name, "status"))
			only_status = 0;
	}
	closedir(d);
	EXPECT_TRUE(n == 1 && only_status)
		TH_LOG("%s holds: %s", self->dir, files);
}

TEST_F(init_failure, no_policy_file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", self->dir,
		 self->direct ? "policy" : "capstack/policy");
	EXPECT_ERRNO(ENOENT, access(path, F_OK))
		TH_LOG("%s", path);
}

TEST_F(init_failure, no_rule_file)
{
	if (self->direct)
		SKIP(return, "capstack's own LSM has no rule file");
	EXPECT_ERRNO(ENOENT, access(SECFS "stacker/denyname/name", F_OK));
}

TEST_F(init_failure, boot_log_says_why_and_that_nothing_is_enforced)
{
	const char *want = self->direct ? "stacker: capstack: init failed: " :
					  "stacker: init failed: ";

	EXPECT_TRUE(klog_has(want))
		TH_LOG("no '%s' line in the log", want);
	EXPECT_TRUE(klog_has("no hook registered, nothing is enforced"))
		TH_LOG("no 'no hook registered, nothing is enforced' line in the log");
}

TEST_F(init_failure, no_hook_registered)
{
	const char *line = self->direct ? "capstack: initialized as its own LSM" :
					  "stacker: registered ";

	EXPECT_FALSE(klog_has(line))
		TH_LOG("the boot log says the LSM registered its hooks: '%s'", line);
}

/*
 * One submodule of stacker's chain failed (stacker.fail_init=NAME) or
 * conflicts (it is an LSM of its own too): the rest of the chain runs.
 */
FIXTURE(submodule_failure)
{
	const char *what;	/* the submodule left out */
	char reason[160];	/* why, as status and the log say */
	int conflict;
};

FIXTURE_SETUP(submodule_failure)
{
	const char *fail = cmdline_value("stacker.fail_init");

	self->conflict = conflict_boot() == CONFLICT_OWN_FIRST;
	if (conflict_boot() == CONFLICT_STACKER_FIRST)
		SKIP(return, "stacker left nothing out: the own_lsm_gave_way tests");
	if (self->conflict) {
		self->what = "capstack";
		snprintf(self->reason, sizeof(self->reason),
			 "submodule capstack is both in stacker's chain and an LSM of its own: "
			 "error -16");
	} else {
		ASSERT_NE(NULL, fail)
			TH_LOG("no stacker.fail_init= on the command line: this program is for "
			       "the boots with it");
		if (access(SECFS "stacker", F_OK) || !strcmp(fail, "core"))
			SKIP(return, "not a submodule of stacker's chain that failed");
		self->what = fail;
		snprintf(self->reason, sizeof(self->reason), "submodule %s init: error -19", fail);
	}
}

FIXTURE_TEARDOWN(submodule_failure)
{
	write_value(SECFS "stacker/denyname/name", "\n");
}

TEST_F(submodule_failure, own_lsm_still_runs)
{
	char status[64];

	if (!self->conflict)
		SKIP(return, "no own LSM in this boot");
	ASSERT_ERRNO(0, read_value(SECFS "capstack/status", status, sizeof(status)));
	EXPECT_STREQ("ok\n", status);
}

TEST_F(submodule_failure, status_says_degraded_and_what_is_left_out)
{
	char status[512], want[256];

	ASSERT_ERRNO(0, read_value(SECFS "stacker/status", status, sizeof(status)));
	EXPECT_EQ(0, strncmp(status, "degraded: ", 10))
		TH_LOG("status is '%s'", escaped(status));
	snprintf(want, sizeof(want), "\n  %s\n", self->reason);
	EXPECT_NE(NULL, strstr(status, want))
		TH_LOG("status '%s' does not name '%s'", escaped(status), escaped(want));
}

TEST_F(submodule_failure, chain_is_the_others)
{
	char chain[256], line[80];

	ASSERT_ERRNO(0, read_value(SECFS "stacker/chain", chain, sizeof(chain)));
	snprintf(line, sizeof(line), "%s\n", self->what);
	EXPECT_EQ(NULL, strstr(chain, line))
		TH_LOG("the chain '%s' still has %s", escaped(chain), self->what);
	EXPECT_NE(NULL, strstr(chain, "denyname\n"))
		TH_LOG("the chain '%s' lost denyname", escaped(chain));
}

TEST_F(submodule_failure, the_others_still_deny)
{
	ASSERT_EQ(0, make_file("/tmp/left_out_secret"));
	ASSERT_ERRNO(0, write_value(SECFS "stacker/denyname/name", "left_out_secret\n"));
	EXPECT_EQ(EACCES, open_errno("/tmp/left_out_secret"));
	ASSERT_ERRNO(0, write_value(SECFS "stacker/denyname/name", "\n"));
	EXPECT_EQ(0, open_errno("/tmp/left_out_secret"));
}

TEST_F(submodule_failure, failed_submodule_has_no_files)
{
	char path[256];

	snprintf(path, sizeof(path), SECFS "stacker/%s", self->what);
	EXPECT_ERRNO(ENOENT, access(path, F_OK))
		TH_LOG("%s", path);
}

TEST_F(submodule_failure, boot_log_says_what_is_left_out)
{
	char line[256];

	snprintf(line, sizeof(line), "stacker: %s; left out of the chain, which runs without it",
		 self->reason);
	EXPECT_TRUE(klog_has(line))
		TH_LOG("no '%s' line in the log", line);
	EXPECT_TRUE(klog_has("stacker: registered "))
		TH_LOG("stacker registered no hook");
}

/*
 * lsm=stacker,capstack with capstack in the chain: stacker initialised
 * first and runs capstack; capstack's own LSM refuses to start.
 */
FIXTURE(own_lsm_gave_way)
{
};

FIXTURE_SETUP(own_lsm_gave_way)
{
	if (conflict_boot() != CONFLICT_STACKER_FIRST)
		SKIP(return, "not the boot where stacker initialised first");
}

FIXTURE_TEARDOWN(own_lsm_gave_way)
{
}

TEST_F(own_lsm_gave_way, own_status_says_why)
{
	char status[256];

	ASSERT_ERRNO(0, read_value(SECFS "capstack/status", status, sizeof(status)));
	EXPECT_STREQ("failed: submodule capstack is both in stacker's chain and an LSM of its "
		     "own: error -16\n", status);
}

TEST_F(own_lsm_gave_way, stacker_runs_capstack)
{
	char chain[256];

	ASSERT_ERRNO(0, read_value(SECFS "stacker/chain", chain, sizeof(chain)));
	EXPECT_NE(NULL, strstr(chain, "capstack\n"))
		TH_LOG("stacker's chain '%s' lost capstack", escaped(chain));
	EXPECT_EQ(0, access(SECFS "stacker/capstack/policy", F_OK));
}

TEST_F(own_lsm_gave_way, own_lsm_has_only_status)
{
	EXPECT_ERRNO(ENOENT, access(SECFS "capstack/policy", F_OK));
}

TEST_HARNESS_MAIN
