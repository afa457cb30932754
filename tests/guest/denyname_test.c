// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: the stacker LSM initialized, is active, lists its chain, and
 * the denyname submodule's rule is enforced by the kernel through file_open
 * and inode_permission, as seen from userspace. If stacker did not
 * initialize (its "status" file is not "ok"), every later check fails: the
 * LSM list names stacker even then.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define SECFS "/sys/kernel/security"
#define RULE SECFS "/stacker/denyname/name"

int main(void)
{
	char buf[512];
	int fd, err;
	struct stat st;

	ktap_plan("denyname", 15);

	/* Without a successful init, every later check fails. */
	check_init_succeeded();

	ktap_result(read_value(SECFS "/lsm", buf, sizeof(buf)) == 0 &&
			    strstr(buf, "stacker") != NULL,
		    "lsm_list_has_stacker", "/sys/kernel/security/lsm is '%s'", buf);
	ktap_result(read_value(SECFS "/stacker/chain", buf, sizeof(buf)) == 0 &&
			    strncmp(buf, "denyname\n", 9) == 0,
		    "chain_starts_with_denyname", "chain is '%s'", buf);

	/* Fixtures, made before any rule exists. */
	if (make_file("/tmp/secret") || make_file("/tmp/public") ||
	    mkdir("/tmp/vault", 0755) || make_file("/tmp/vault/inside")) {
		printf("# fixture setup failed: %s\n", strerror(errno));
		return 1;
	}

	EXPECT_OK("set_rule_secret", write_value(RULE, "secret\n"));
	read_value(RULE, buf, sizeof(buf));
	ktap_result(strcmp(buf, "secret\n") == 0, "rule_reads_back", "rule is '%s'", buf);

	fd = open("/tmp/public", O_RDONLY);
	EXPECT_OK("open_other_name_allowed", fd);
	if (fd >= 0)
		close(fd);
	fd = open("/tmp/secret", O_RDONLY);
	EXPECT_ERRNO("open_denied_name_eacces", fd, EACCES);
	if (fd >= 0)
		close(fd);

	/* A bad name is refused and the rule stays. */
	EXPECT_ERRNO("slash_in_name_einval", write_value(RULE, "a/b\n"), EINVAL);
	EXPECT_ERRNO("dotdot_name_einval", write_value(RULE, "..\n"), EINVAL);
	read_value(RULE, buf, sizeof(buf));
	ktap_result(strcmp(buf, "secret\n") == 0, "bad_write_keeps_rule", "rule is '%s'", buf);

	/* A writer without CAP_MAC_ADMIN gets EPERM, even with an open fd. */
	err = write_as_uid1000_errno(RULE, "evil\n");
	ktap_result(err == EPERM, "unprivileged_write_eperm", "child saw %s",
		    err < 0 ? "setup failure" : strerror(err));

	/* inode_permission: a directory with the name cannot be searched. */
	EXPECT_OK("set_rule_vault", write_value(RULE, "vault\n"));
	EXPECT_ERRNO("search_denied_dir_eacces", stat("/tmp/vault/inside", &st), EACCES);
	EXPECT_OK("stat_of_denied_dir_itself_allowed", stat("/tmp/vault", &st));

	/* Clearing the rule allows everything again. */
	write_value(RULE, "\n");
	fd = open("/tmp/secret", O_RDONLY);
	EXPECT_OK("cleared_rule_allows_open", fd);
	if (fd >= 0)
		close(fd);

	return ktap_exit();
}
