// SPDX-License-Identifier: GPL-2.0
/*
 * setxattr PATH NAME VALUE: sets an extended attribute (the guest's busybox
 * has no setfattr). Exits with the errno of setxattr(2), 0 on success.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: setxattr PATH NAME VALUE\n");
		return 2;
	}
	if (setxattr(argv[1], argv[2], argv[3], strlen(argv[3]), 0) != 0) {
		fprintf(stderr, "setxattr %s %s: %s\n", argv[1], argv[2], strerror(errno));
		return errno;
	}
	return 0;
}
