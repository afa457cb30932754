// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: the stacker LSM initialized, is active, lists its chain, and
 * the denyname submodule's rule is enforced by the kernel through file_open
 * and inode_permission, as seen from userspace. If stacker did not
 * initialize (its "status" file is not "ok"), every test fails: the LSM
 * list names stacker even then.
 *
 * Each test starts with no rule (the fixture clears it, before and after)
 * and sets the one it needs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest_util.h"

#define SECFS "/sys/kernel/security"
#define RULE SECFS "/stacker/denyname/name"

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

FIXTURE(denyname) {};

/* The files, made while no rule is in force. */
FIXTURE_SETUP(denyname)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_ERRNO(0, write_value(RULE, "\n"));
	ASSERT_EQ(0, make_file("/tmp/secret") || make_file("/tmp/public") ||
			     (mkdir("/tmp/vault", 0755) && errno != EEXIST) ||
			     make_file("/tmp/vault/inside"))
		TH_LOG("fixture setup failed: %s", strerror(errno));
}

FIXTURE_TEARDOWN(denyname)
{
	write_value(RULE, "\n");
}

/* The rule as it reads back, without its newline. */
static const char *rule(void)
{
	static char buf[512];

	if (read_value(RULE, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "(unreadable: %s)", strerror(errno));
	return buf;
}

TEST_F(denyname, lsm_list_has_stacker)
{
	char buf[512];

	ASSERT_EQ(0, read_value(SECFS "/lsm", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "stacker"))
		TH_LOG(SECFS "/lsm is '%s'", buf);
}

TEST_F(denyname, chain_starts_with_denyname)
{
	char buf[512];

	ASSERT_EQ(0, read_value(SECFS "/stacker/chain", buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "denyname\n", 9))
		TH_LOG("chain is '%s'", buf);
}

TEST_F(denyname, set_rule_secret)
{
	EXPECT_ERRNO(0, write_value(RULE, "secret\n"));
}

TEST_F(denyname, rule_reads_back)
{
	ASSERT_ERRNO(0, write_value(RULE, "secret\n"));
	EXPECT_STREQ("secret\\n", escaped(rule()));
}

TEST_F(denyname, open_other_name_allowed)
{
	ASSERT_ERRNO(0, write_value(RULE, "secret\n"));
	EXPECT_EQ(0, open_errno("/tmp/public"))
		TH_LOG("open(/tmp/public): %s", strerror(open_errno("/tmp/public")));
}

TEST_F(denyname, open_denied_name_eacces)
{
	ASSERT_ERRNO(0, write_value(RULE, "secret\n"));
	EXPECT_EQ(EACCES, open_errno("/tmp/secret"))
		TH_LOG("open(/tmp/secret): expected EACCES, got %s",
		       errno_text(open_errno("/tmp/secret")));
}

/* A bad name is refused and the rule stays. */
TEST_F(denyname, slash_in_name_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(RULE, "a/b\n"));
}

TEST_F(denyname, dotdot_name_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(RULE, "..\n"));
}

TEST_F(denyname, bad_write_keeps_rule)
{
	ASSERT_ERRNO(0, write_value(RULE, "secret\n"));
	ASSERT_ERRNO(EINVAL, write_value(RULE, "a/b\n"));
	ASSERT_ERRNO(EINVAL, write_value(RULE, "..\n"));
	EXPECT_STREQ("secret\\n", escaped(rule()));
}

/* A writer without CAP_MAC_ADMIN gets EPERM, even with an open fd. */
TEST_F(denyname, unprivileged_write_eperm)
{
	int err = write_as_uid1000_errno(RULE, "evil\n");

	EXPECT_EQ(EPERM, err)
		TH_LOG("the uid 1000 child saw %s", err < 0 ? "setup failure" : errno_text(err));
}

/* inode_permission: a directory with the name cannot be searched. */
TEST_F(denyname, set_rule_vault)
{
	EXPECT_ERRNO(0, write_value(RULE, "vault\n"));
}

TEST_F(denyname, search_denied_dir_eacces)
{
	struct stat st;

	ASSERT_ERRNO(0, write_value(RULE, "vault\n"));
	EXPECT_ERRNO(EACCES, stat("/tmp/vault/inside", &st));
}

TEST_F(denyname, stat_of_denied_dir_itself_allowed)
{
	struct stat st;

	ASSERT_ERRNO(0, write_value(RULE, "vault\n"));
	EXPECT_ERRNO(0, stat("/tmp/vault", &st));
}

/* Clearing the rule allows everything again. */
TEST_F(denyname, cleared_rule_allows_open)
{
	ASSERT_ERRNO(0, write_value(RULE, "secret\n"));
	ASSERT_EQ(EACCES, open_errno("/tmp/secret"));
	ASSERT_ERRNO(0, write_value(RULE, "\n"));
	EXPECT_EQ(0, open_errno("/tmp/secret"))
		TH_LOG("open(/tmp/secret) after clearing: %s",
		       strerror(open_errno("/tmp/secret")));
}

TEST_HARNESS_MAIN
