// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: the rules of a write to a stacker securityfs file, from
 * userspace, on whichever writable file the boot has: capstack's policy
 * (behind stacker or as its own LSM) or denyname's rule.
 *
 * - A value is one write() at offset 0. The file offset then moves past
 *   it, and a second write() on the same descriptor is refused with EINVAL
 *   and a log line: it never replaces the first value, and no fragment of
 *   it is in force.
 * - Whatever a read shows can be written back, also when it is longer than
 *   a page (capstack: a 64-rule policy); a write over the file's limit gets
 *   EFBIG and changes nothing.
 * - Both the process that opened the file and the one that writes need
 *   CAP_MAC_ADMIN (EPERM otherwise), so a privileged process handed a
 *   descriptor cannot be used as a deputy.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define SECFS "/sys/kernel/security/"

static const char *path, *status_path;
static int is_policy;

/* A first and a second value, and what a read shows after the first. */
static const char *first, *second, *first_shown;

static int set_mac_admin_effective(int on)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned int bit = 1u << (CAP_MAC_ADMIN - 32);

	if (syscall(SYS_capget, &h, d))
		return -1;
	if (on)
		d[1].effective |= bit;
	else
		d[1].effective &= ~bit;
	return syscall(SYS_capset, &h, d);
}

static char *read_all(const char *p, size_t *len)
{
	static char buf[1 << 17];
	int fd = open(p, O_RDONLY);
	ssize_t n;

	*len = 0;
	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf + *len, sizeof(buf) - 1 - *len)) > 0)
		*len += n;
	close(fd);
	buf[*len] = '\0';
	return buf;
}

/* The longest policy: 64 rules, each with every capability but one. */
static char *largest_policy(size_t *len)
{
	static const char *const caps =
		"CAP_DAC_OVERRIDE,CAP_DAC_READ_SEARCH,CAP_FOWNER,CAP_FSETID,"
		"CAP_KILL,CAP_SETGID,CAP_SETUID,CAP_SETPCAP,CAP_LINUX_IMMUTABLE,"
		"CAP_NET_BIND_SERVICE,CAP_NET_BROADCAST,CAP_NET_ADMIN,CAP_NET_RAW,"
		"CAP_IPC_LOCK,CAP_IPC_OWNER,CAP_SYS_MODULE,CAP_SYS_RAWIO,"
		"CAP_SYS_CHROOT,CAP_SYS_PTRACE,CAP_SYS_PACCT,CAP_SYS_ADMIN,"
		"CAP_SYS_BOOT,CAP_SYS_NICE,CAP_SYS_RESOURCE,CAP_SYS_TIME,"
		"CAP_SYS_TTY_CONFIG,CAP_MKNOD,CAP_LEASE,CAP_AUDIT_WRITE,"
		"CAP_AUDIT_CONTROL,CAP_SETFCAP,CAP_MAC_OVERRIDE,CAP_MAC_ADMIN,"
		"CAP_SYSLOG,CAP_WAKE_ALARM,CAP_BLOCK_SUSPEND,CAP_AUDIT_READ,"
		"CAP_PERFMON,CAP_BPF,CAP_CHECKPOINT_RESTORE";
	static char text[65536];
	size_t n = 0;
	int i;

	n += snprintf(text + n, sizeof(text) - n, "mode permissive\n");
	for (i = 0; i < 64; i++)
		n += snprintf(text + n, sizeof(text) - n, "only %s exec label%026d\n", caps, i);
	*len = n;
	return text;
}

int main(void)
{
	char buf[4096], after[4096], status[256];
	size_t len, back_len;
	long rc;
	int fd, e;

	if (access(SECFS "stacker/capstack/policy", F_OK) == 0) {
		path = SECFS "stacker/capstack/policy";
		status_path = SECFS "stacker/status";
		is_policy = 1;
	} else if (access(SECFS "capstack/policy", F_OK) == 0) {
		path = SECFS "capstack/policy";
		status_path = SECFS "capstack/status";
		is_policy = 1;
	} else {
		path = SECFS "stacker/denyname/name";
		status_path = SECFS "stacker/status";
	}
	if (is_policy) {
		first = "mode permissive\n";
		second = "deny CAP_CHOWN uid 4242\n";
		first_shown = "mode permissive\n";
	} else {
		first = "alpha\n";
		second = "beta\n";
		first_shown = "alpha\n";
	}
	ktap_plan("securityfs", 15);
	printf("# file: %s\n", path);

	read_value(status_path, status, sizeof(status));
	ktap_result(!strcmp(status, "ok\n"), "init_succeeded", "%s is '%s'", status_path, status);
	if (strcmp(status, "ok\n"))
		ktap_block("the LSM did not initialize");

	/* Two writes on one descriptor. */
	fd = open(path, O_WRONLY);
	rc = fd < 0 ? -1 : write(fd, first, strlen(first));
	ktap_result(rc == (long)strlen(first), "first_write_accepted", "write returned %ld (%s)",
		    rc, strerror(errno));
	ktap_result(fd >= 0 && lseek(fd, 0, SEEK_CUR) == (off_t)strlen(first),
		    "file_offset_moves_past_the_value", "offset is %ld",
		    fd < 0 ? -1L : (long)lseek(fd, 0, SEEK_CUR));
	rc = fd < 0 ? -1 : write(fd, second, strlen(second));
	e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	EXPECT_ERRNO("second_write_on_same_fd_einval", rc, EINVAL);
	read_value(path, buf, sizeof(buf));
	ktap_result(!strcmp(buf, first_shown), "first_value_in_force_nothing_of_the_second",
		    "the file reads '%s', expected '%s'", buf, first_shown);
	ktap_result(klog_has("write at offset ") && klog_has("refused: a value is one write() at offset 0"),
		    "second_write_logged", "no 'write at offset N refused' line in the log");

	/* An explicit offset is refused too. */
	fd = open(path, O_WRONLY);
	rc = fd < 0 ? -1 : pwrite(fd, second, strlen(second), 3);
	e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	EXPECT_ERRNO("pwrite_at_nonzero_offset_einval", rc, EINVAL);

	/*
	 * A policy cut inside a line (the first piece of a write in pieces)
	 * is refused whole: "uid 4242" cut to "uid 4" must not load.
	 */
	if (is_policy) {
		read_value(path, buf, sizeof(buf));
		rc = write_value(path, "mode enforcing\ndeny CAP_CHOWN uid 4");
		e = errno;
		read_value(path, after, sizeof(after));
		errno = e;
		ktap_result(rc < 0 && e == EINVAL && !strcmp(buf, after) &&
				    klog_has("the last line does not end with a newline"),
			    "policy_cut_mid_line_refused", "write returned %ld (%s); before '%.40s', after '%.40s'",
			    rc, strerror(e), buf, after);
	} else {
		ktap_skip("policy_cut_mid_line_refused", "denyname's rule is one name");
	}

	/* Reopening gives a fresh value. */
	EXPECT_OK("reopen_and_write_again", write_value(path, second));

	/* The largest value reads back and writes back; one over the limit is EFBIG. */
	if (is_policy) {
		char *text = largest_policy(&len), *back;

		rc = write_value(path, text);
		ktap_result(rc == (long)len && len > 4096, "largest_policy_one_write",
			    "writing %zu bytes returned %ld (%s)", len, rc, strerror(errno));
		back = read_all(path, &back_len);
		ktap_result(back && back_len == len && !memcmp(back, text, len),
			    "largest_policy_reads_back_and_writes_back", "read back %zu bytes of %zu",
			    back_len, len);
		if (back)
			write_value(path, back);
	} else {
		ktap_skip("largest_policy_one_write", "denyname's rule is one name");
		ktap_skip("largest_policy_reads_back_and_writes_back", "denyname's rule is one name");
	}
	{
		/* Over the limit: 4096 bytes for denyname, about 45 KiB for a policy. */
		static char big[200000];
		size_t n = is_policy ? sizeof(big) - 1 : 5000;

		memset(big, '#', n);
		big[n] = '\0';
		read_value(path, buf, sizeof(buf));
		rc = write_value(path, big);
		e = errno;
		read_value(path, after, sizeof(after));
		errno = e;
		EXPECT_ERRNO("over_the_limit_efbig", rc, EFBIG);
		ktap_result(!strcmp(buf, after), "over_the_limit_changes_nothing",
			    "before '%.40s', after '%.40s'", buf, after);
	}
	read_value(path, buf, sizeof(buf));
	printf("# now: %.60s\n", buf);

	/*
	 * The opener lacks CAP_MAC_ADMIN, the writer has it: drop it from the
	 * effective set, open, raise it again (it stays permitted), write.
	 */
	write_value(path, first);
	fd = -1;
	if (set_mac_admin_effective(0) == 0) {
		fd = open(path, O_WRONLY);
		set_mac_admin_effective(1);
	}
	rc = fd < 0 ? -2 : write(fd, second, strlen(second));
	e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	if (rc == -2)
		ktap_result(0, "opener_without_cap_mac_admin_eperm", "setup failed: %s", strerror(e));
	else
		EXPECT_ERRNO("opener_without_cap_mac_admin_eperm", rc, EPERM);
	read_value(path, buf, sizeof(buf));
	ktap_result(!strcmp(buf, first_shown) &&
			    klog_has("the process that opened it lacks CAP_MAC_ADMIN"),
		    "deputy_write_changed_nothing_and_was_logged", "the file reads '%s'", buf);

	/* Leave the boot as it was. */
	write_value(path, is_policy ? "" : "\n");
	return ktap_exit();
}
