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
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define STACKER "/sys/kernel/security/stacker/"
#define MAX 3

static char chain[MAX][32];
static int n;

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

/* open() of `path`: 0 or the errno. */
static int open_errno(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

int main(void)
{
	char buf[512], *p, *save;
	long before[MAX][2], after[MAX][2];
	int fd, i, err, ok, denier, last;
	ssize_t len;

	ktap_plan("stack", 7);

	fd = open(STACKER "chain", O_RDONLY);
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[len > 0 ? len : 0] = '\0';
	for (p = strtok_r(buf, "\n", &save); p && n < MAX; p = strtok_r(NULL, "\n", &save))
		snprintf(chain[n++], sizeof(chain[0]), "%s", p);
	printf("# chain:");
	for (i = 0; i < n; i++)
		printf(" %s", chain[i]);
	printf("\n");
	/* Every check below needs at least one copy (n == 0 fails them all). */
	ok = n >= 1;
	for (i = 0; i < n; i++)
		ok &= !strncmp(chain[i], "xattrlock", 9);
	ktap_result(ok, "chain_is_xattrlock_copies", "chain has %d entries", n);
	last = n > 0 ? n - 1 : 0;

	if (make_file("/tmp/all") || make_file("/tmp/one")) {
		printf("# fixture setup failed: %s\n", strerror(errno));
		return 1;
	}
	EXPECT_OK("unlocked_file_opens", open_errno("/tmp/all") ? -1 : 0);

	/* Lock /tmp/all through every copy. */
	ok = n >= 1;
	for (i = 0; i < n; i++)
		if (setxattr("/tmp/all", attr_of(chain[i]), "locked", 6, 0)) {
			printf("# setxattr %s: %s\n", attr_of(chain[i]), strerror(errno));
			ok = 0;
		}
	ktap_result(ok, "lock_through_every_copy", NULL);

	/* The first copy in the chain reports the denial... */
	for (i = 0; i < n; i++)
		open_stats(chain[i], &before[i][0], &before[i][1]);
	err = open_errno("/tmp/all");
	for (i = 0; i < n; i++)
		open_stats(chain[i], &after[i][0], &after[i][1]);
	ktap_result(n >= 1 && err == copy_errno(chain[0]), "first_in_chain_decides",
		    "expected %s, got %s", strerror(copy_errno(chain[0])),
		    err ? strerror(err) : "success");

	/*
	 * ...and the later ones were not called. Between the snapshots the
	 * test made n stats opens (allowed) and the denied open. For the
	 * first copy that is n + 1 calls, one a denial; for each later copy
	 * only the stats opens that happened after it was read: it misses
	 * the denied open.
	 */
	denier = 0;
	ok = n >= 1;
	for (i = 0; i < n; i++) {
		long calls = after[i][0] - before[i][0];
		long denials = after[i][1] - before[i][1];
		long want_calls = n + (i == denier ? 1 : 0);
		long want_denials = i == denier ? 1 : 0;

		printf("# %s: %ld calls, %ld denials (expected %ld, %ld)\n", chain[i],
		       calls, denials, want_calls, want_denials);
		if (calls != want_calls || denials != want_denials)
			ok = 0;
	}
	ktap_result(ok, "later_copies_not_called_after_denial", NULL);

	/* Each copy's lock is its own: lock /tmp/one through the last only. */
	setxattr("/tmp/one", attr_of(chain[last]), "locked", 6, 0);
	err = open_errno("/tmp/one");
	ktap_result(n >= 1 && err == copy_errno(chain[last]), "lock_of_one_copy_only",
		    "expected %s, got %s", strerror(copy_errno(chain[last])),
		    err ? strerror(err) : "success");

	/* Unlock the first copy on /tmp/all: the next copy now answers. */
	removexattr("/tmp/all", attr_of(chain[0]));
	err = open_errno("/tmp/all");
	{
		int want = n > 1 ? copy_errno(chain[1]) : 0;

		ktap_result(n >= 1 && err == want, "unlocking_one_copy_leaves_the_others",
			    "expected %s, got %s", want ? strerror(want) : "success",
			    err ? strerror(err) : "success");
	}
	return ktap_exit();
}
