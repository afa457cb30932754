// SPDX-License-Identifier: GPL-2.0
/*
 * open_errno PATH r|w: opens PATH for reading or for writing and exits with
 * the errno of open(2), 0 on success (2 for a usage error is never an
 * errno of open here: ENOENT is, so usage errors exit 200). For the tests
 * that run a program in another domain (coexist_test: a SELinux domain, an
 * AppArmor profile) and look at what it may open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 3 || (strcmp(argv[2], "r") && strcmp(argv[2], "w"))) {
		fprintf(stderr, "usage: open_errno PATH r|w\n");
		return 200;
	}
	fd = open(argv[1], argv[2][0] == 'r' ? O_RDONLY : O_WRONLY);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}
