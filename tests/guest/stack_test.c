// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: stacked copies of the xattrlock example submodule.
 *
 * Each copy locks a file when its own xattr (user.xattrlock,
 * user.xattrlock_b, user.xattrlock_c) is set to "locked", and then denies
 * opening it with its own errno (EACCES, EPERM, EROFS). Whatever the order
 * of the chain (read from /sys/kernel/security/stacker/chain), this checks:
 * - a file locked by every copy is denied with the errno of the first copy
 *   in the chain: order decides which denial is reported;
 * - the copies after the one that denied were not called (their file_open
 *   call counts in /sys/kernel/security/stacker/stats did not move);
 * - each copy's lock lives in its own slot of the inode blob: locking or
 *   unlocking through one copy's xattr changes only that copy's answer.
 * Every test needs at least one copy in the chain: with none, or with
 * another submodule in it, every test fails. Each test locks files of its
 * own, in a new directory.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest_util.h"

#define STACKER "/sys/kernel/security/stacker/"
#define MAX 3

static int copy_errno(const char *name)
{
	if (!strcmp(name, "xattrlock"))
		return EACCES;
	if (!strcmp(name, "xattrlock_b"))
		return EPERM;
	return EROFS;
}

static const char *attr_of(const char *name)
{
	static char attr[128];

	snprintf(attr, sizeof(attr), "user.%s", name);
	return attr;
}

/* file_open calls and denials of `name`, from the stats file. */
static void open_stats(const char *name, long *calls, long *denials)
{
	static char buf[65536];
	char line[128], *p, *save;
	int fd = open(STACKER "stats", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	*calls = *denials = -1;
	if (fd >= 0)
		close(fd);
	if (len < 0)
		return;
	buf[len] = '\0';
	snprintf(line, sizeof(line), "%s file_open ", name);
	for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		if (!strncmp(p, line, strlen(line)))
			sscanf(p + strlen(line), "%ld %ld", calls, denials);
}

/* The chain; 0, or -1 if it has more than MAX entries. */
static int read_chain(char chain[MAX][32], int *n)
{
	char buf[512], *p, *save;

	*n = 0;
	if (read_value(STACKER "chain", buf, sizeof(buf)))
		return -1;
	for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		if (*n == MAX)
			return -1;
		snprintf(chain[(*n)++], sizeof(chain[0]), "%s", p);
	}
	return 0;
}

/* Whether the chain is one or more xattrlock copies, and nothing else. */
static int only_locks(char chain[MAX][32], int n)
{
	int i, ok = n >= 1;

	for (i = 0; i < n; i++)
		ok &= !strncmp(chain[i], "xattrlock", 9);
	return ok;
}

TEST(chain_is_xattrlock_copies)
{
	char chain[MAX][32], shown[MAX * 33] = "";
	int n, i;

	ASSERT_EQ(0, read_chain(chain, &n))
		TH_LOG(STACKER "chain: unreadable, or more than %d entries", MAX);
	for (i = 0; i < n; i++)
		strcat(strcat(shown, " "), chain[i]);
	EXPECT_TRUE(only_locks(chain, n))
		TH_LOG("the chain has %d entries:%s", n, shown);
}

/* The chain, and two new files: "all" and "one", in a directory of their own. */
FIXTURE(stack)
{
	char chain[MAX][32];
	int n;
	char dir[32], all[64], one[64];
};

FIXTURE_SETUP(stack)
{
	ASSERT_EQ(0, read_chain(self->chain, &self->n));
	ASSERT_TRUE(only_locks(self->chain, self->n))
		TH_LOG("the chain is not one or more xattrlock copies");
	snprintf(self->dir, sizeof(self->dir), "/tmp/stack.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->all, sizeof(self->all), "%s/all", self->dir);
	snprintf(self->one, sizeof(self->one), "%s/one", self->dir);
	ASSERT_EQ(0, make_file(self->all) || make_file(self->one))
		TH_LOG("fixture setup failed: %s", strerror(errno));
}

FIXTURE_TEARDOWN(stack)
{
}

/* Locks `path` through every copy of the chain. */
static int lock_through_every_copy(FIXTURE_DATA(stack) *self, const char *path)
{
	int i;

	for (i = 0; i < self->n; i++)
		if (setxattr(path, attr_of(self->chain[i]), "locked", 6, 0))
			return -1;
	return 0;
}

TEST_F(stack, unlocked_file_opens)
{
	EXPECT_EQ(0, open_errno(self->all))
		TH_LOG("open(%s): %s", self->all, strerror(open_errno(self->all)));
}

TEST_F(stack, lock_through_every_copy)
{
	int i, err;

	for (i = 0; i < self->n; i++) {
		err = errno_of(setxattr(self->all, attr_of(self->chain[i]), "locked", 6, 0));
		EXPECT_EQ(0, err)
			TH_LOG("setxattr %s: %s", attr_of(self->chain[i]), strerror(err));
	}
}

/* The first copy in the chain reports the denial... */
TEST_F(stack, first_in_chain_decides)
{
	int want = copy_errno(self->chain[0]), err;

	ASSERT_EQ(0, lock_through_every_copy(self, self->all));
	err = open_errno(self->all);
	EXPECT_EQ(want, err)
		TH_LOG("expected %s, got %s", strerror(want), errno_text(err));
}

/*
 * ...and the later ones were not called. Between the snapshots the test
 * makes n stats opens (allowed) and the denied open. For the first copy
 * that is n + 1 calls, one a denial; for each later copy only the stats
 * opens that happened after it was read: it misses the denied open.
 *
 * The counts are system-wide, so an open by another task in the window
 * (rare: a kernel thread) adds a call to every copy. Such noise only ever
 * adds, and a copy called after the denial would be off by one in every
 * round: the round is made again, up to five times, until it is exact.
 */
static int count_calls(FIXTURE_DATA(stack) *self, long calls[MAX], long denials[MAX])
{
	long before[MAX][2], after[MAX][2];
	int n = self->n, i, exact = 1;

	for (i = 0; i < n; i++)
		open_stats(self->chain[i], &before[i][0], &before[i][1]);
	open_errno(self->all);
	for (i = 0; i < n; i++)
		open_stats(self->chain[i], &after[i][0], &after[i][1]);
	for (i = 0; i < n; i++) {
		calls[i] = after[i][0] - before[i][0];
		denials[i] = after[i][1] - before[i][1];
		exact &= calls[i] == n + (i == 0) && denials[i] == (i == 0);
	}
	return exact;
}

TEST_F(stack, later_copies_not_called_after_denial)
{
	long calls[MAX], denials[MAX];
	int n = self->n, denier = 0, i, round = 0;

	ASSERT_EQ(0, lock_through_every_copy(self, self->all));
	while (!count_calls(self, calls, denials) && ++round < 5)
		;
	for (i = 0; i < n; i++) {
		EXPECT_EQ(n + (i == denier ? 1 : 0), calls[i])
			TH_LOG("%s: file_open calls", self->chain[i]);
		EXPECT_EQ(i == denier ? 1 : 0, denials[i])
			TH_LOG("%s: file_open denials", self->chain[i]);
	}
}

/* Each copy's lock is its own: lock "one" through the last only. */
TEST_F(stack, lock_of_one_copy_only)
{
	const char *last = self->chain[self->n - 1];
	int want = copy_errno(last), err;

	ASSERT_ERRNO(0, setxattr(self->one, attr_of(last), "locked", 6, 0));
	err = open_errno(self->one);
	EXPECT_EQ(want, err)
		TH_LOG("locked by %s only: expected %s, got %s", last, strerror(want),
		       errno_text(err));
}

/* Unlock the first copy on "all": the next copy now answers. */
TEST_F(stack, unlocking_one_copy_leaves_the_others)
{
	int want = self->n > 1 ? copy_errno(self->chain[1]) : 0, err;

	ASSERT_EQ(0, lock_through_every_copy(self, self->all));
	ASSERT_ERRNO(0, removexattr(self->all, attr_of(self->chain[0])));
	err = open_errno(self->all);
	EXPECT_EQ(want, err)
		TH_LOG("unlocked by %s: expected %s, got %s", self->chain[0], errno_text(want),
		       errno_text(err));
}

TEST_HARNESS_MAIN
