/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the in-guest test programs share: small files, securityfs
 * values, the kernel log.
 */
#ifndef STACKER_GUEST_UTIL_H
#define STACKER_GUEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reads `path` into `buf` as a string (empty on error); 0 or -1. */
static inline int read_value(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n < 0 ? -1 : 0;
}

/* Writes `value` to `path` in one write(); its result, errno kept. */
static inline long write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	long n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, value, strlen(value));
	e = errno;
	close(fd);
	errno = e;
	return n;
}

/* Creates (or empties) the regular file `path`; 0 or -1. */
static inline int make_file(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	return fd < 0 ? -1 : close(fd);
}

/* Whether the kernel log contains `needle`. */
static inline int klog_has(const char *needle)
{
	static char log[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	log[n > 0 ? n : 0] = '\0';
	return strstr(log, needle) != NULL;
}

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

#endif /* STACKER_GUEST_UTIL_H */
