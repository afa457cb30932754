/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the in-guest tests share for stacker's securityfs files.
 */
#ifndef STACKER_SECURITYFS_UTIL_H
#define STACKER_SECURITYFS_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Opens `path` for writing as root, then, in a child that became uid and
 * gid 1000 (and so lost every capability, CAP_MAC_ADMIN included), writes
 * `data` through the already-open descriptor. Returns the errno the child
 * saw (0 if the write succeeded), or -1 if the test itself failed.
 */
static inline int write_as_uid1000_errno(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY);
	int status;
	pid_t pid;

	if (fd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(255);
		_exit(write(fd, data, strlen(data)) < 0 ? errno : 0);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif /* STACKER_SECURITYFS_UTIL_H */
