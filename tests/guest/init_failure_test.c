// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what a failed stacker init leaves behind, from userspace.
 *
 * Run in boots with "stacker.fail_init=" (CONFIG_SECURITY_STACKER_TEST_FAIL_INIT),
 * which makes the check of the kernel structures ("core") or one
 * submodule's init fail on purpose; with "lsm=capstack" and
 * "stacker.fail_init=capstack", capstack's own LSM fails. Then, in the
 * LSM's directory (stacker's, or capstack's own):
 * - /sys/kernel/security/stacker/status says "failed: " and why;
 * - it is the only file in /sys/kernel/security/stacker/: no policy or rule
 *   file that would accept what nothing enforces, and no submodule files
 *   that would touch state that was never initialised;
 * - the boot log says why, and that no hook was registered (there is no
 *   "registered N of M hooks" line).
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

FIXTURE_SETUP(init_failure)
{
	self->what = cmdline_value("stacker.fail_init");
	self->direct = access(SECFS "stacker", F_OK) != 0;
	self->dir = self->direct ? SECFS "capstack/" : SECFS "stacker/";
	ASSERT_NE(NULL, self->what)
		TH_LOG("no stacker.fail_init= on the command line: this program is for "
		       "the boots with it");
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

TEST_HARNESS_MAIN
