// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl32 PATH: opens PATH read-only and runs ioctl(TCGETS) on it (a
 * command the LSMs decide as `ioctl`, which a regular file answers with
 * ENOTTY when it is allowed), as a
 * 32-bit (i386) program, so that the kernel takes compat_sys_ioctl, which
 * calls security_file_ioctl_compat and never security_file_ioctl.
 * Built static with gcc -m32 (scripts/mkinitramfs.sh). Exits with the
 * errno of open(2) plus 100 if the open fails, the errno of ioctl(2) if the
 * ioctl fails, and 0 if both succeed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct termios t;
	int fd;

	if (sizeof(long) != 4) {
		fprintf(stderr, "ioctl32: not built as a 32-bit program\n");
		return 99;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: ioctl32 PATH\n");
		return 98;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "ioctl32: open %s: %s\n", argv[1], strerror(errno));
		return 100 + errno;
	}
	if (ioctl(fd, TCGETS, &t) != 0) {
		fprintf(stderr, "ioctl32: ioctl %s: %s\n", argv[1], strerror(errno));
		return errno;
	}
	close(fd);
	return 0;
}
