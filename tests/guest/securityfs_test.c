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
 * If the LSM did not initialize, every test fails. Each test leaves the
 * file as the boot had it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest_util.h"

#define SECFS "/sys/kernel/security/"

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

/* The file this boot has, and the values the tests write to it. */
FIXTURE(securityfs)
{
	const char *path, *status_path;
	int is_policy;
	/* A first and a second value, and what a read shows after the first. */
	const char *first, *second, *first_shown;
};

static void choose_file(FIXTURE_DATA(securityfs) *self)
{
	if (access(SECFS "stacker/capstack/policy", F_OK) == 0) {
		self->path = SECFS "stacker/capstack/policy";
		self->status_path = SECFS "stacker/status";
		self->is_policy = 1;
	} else if (access(SECFS "capstack/policy", F_OK) == 0) {
		self->path = SECFS "capstack/policy";
		self->status_path = SECFS "capstack/status";
		self->is_policy = 1;
	} else {
		self->path = SECFS "stacker/denyname/name";
		self->status_path = SECFS "stacker/status";
	}
	if (self->is_policy) {
		self->first = "mode permissive\n";
		self->second = "deny CAP_CHOWN uid 4242\n";
		self->first_shown = "mode permissive\n";
	} else {
		self->first = "alpha\n";
		self->second = "beta\n";
		self->first_shown = "alpha\n";
	}
}

TEST(init_succeeded)
{
	FIXTURE_DATA(securityfs) file = { 0 };

	choose_file(&file);
	TH_LOG("file: %s", file.path);
	ASSERT_INIT_SUCCEEDED(file.status_path);
}

FIXTURE_SETUP(securityfs)
{
	choose_file(self);
	ASSERT_INIT_SUCCEEDED(self->status_path);
}

/* Leave the boot as it was. */
FIXTURE_TEARDOWN(securityfs)
{
	write_value(self->path, self->is_policy ? "" : "\n");
}

/* What the file reads now, for a comparison. */
static const char *now(FIXTURE_DATA(securityfs) *self)
{
	static char bufs[2][4096];
	static int next;
	char *buf = bufs[next++ % 2];

	if (read_value(self->path, buf, sizeof(bufs[0])))
		snprintf(buf, sizeof(bufs[0]), "(unreadable: %s)", strerror(errno));
	return buf;
}

/*
 * Two writes on one descriptor: the first value (which must be accepted
 * whole), then the second. Returns the errno of the second (0 if it
 * succeeded); `offset` gets the file offset between the two.
 */
static int two_writes(struct __test_metadata *_metadata, FIXTURE_DATA(securityfs) *self,
		      off_t *offset)
{
	int fd = open(self->path, O_WRONLY), err;

	ASSERT_LE(0, fd)
		TH_LOG("open(%s): %s", self->path, strerror(errno));
	ASSERT_EQ((long)strlen(self->first), (long)write(fd, self->first, strlen(self->first)))
		TH_LOG("the first write: %s", strerror(errno));
	if (offset)
		*offset = lseek(fd, 0, SEEK_CUR);
	err = errno_of(write(fd, self->second, strlen(self->second)));
	close(fd);
	return err;
}

TEST_F(securityfs, first_write_accepted)
{
	int fd = open(self->path, O_WRONLY);
	long rc;

	ASSERT_LE(0, fd)
		TH_LOG("open(%s): %s", self->path, strerror(errno));
	rc = write(fd, self->first, strlen(self->first));
	EXPECT_EQ((long)strlen(self->first), rc)
		TH_LOG("write returned %ld (%s)", rc, errno_text(errno_of(rc)));
	close(fd);
}

TEST_F(securityfs, file_offset_moves_past_the_value)
{
	off_t offset = -1;

	two_writes(_metadata, self, &offset);
	EXPECT_EQ((long)strlen(self->first), (long)offset);
}

TEST_F(securityfs, second_write_on_same_fd_einval)
{
	int err = two_writes(_metadata, self, NULL);

	EXPECT_EQ(EINVAL, err)
		TH_LOG("second write: expected EINVAL, got %s", errno_text(err));
}

TEST_F(securityfs, first_value_in_force_nothing_of_the_second)
{
	two_writes(_metadata, self, NULL);
	EXPECT_STREQ(escaped(self->first_shown), escaped(now(self)));
}

TEST_F(securityfs, second_write_logged)
{
	two_writes(_metadata, self, NULL);
	EXPECT_TRUE(klog_has("write at offset ") &&
		    klog_has("refused: a value is one write() at offset 0"))
		TH_LOG("no 'write at offset N refused' line in the log");
}

/* An explicit offset is refused too. */
TEST_F(securityfs, pwrite_at_nonzero_offset_einval)
{
	int fd = open(self->path, O_WRONLY);

	ASSERT_LE(0, fd)
		TH_LOG("open(%s): %s", self->path, strerror(errno));
	EXPECT_ERRNO(EINVAL, pwrite(fd, self->second, strlen(self->second), 3));
	close(fd);
}

/*
 * A policy cut inside a line (the first piece of a write in pieces)
 * is refused whole: "uid 4242" cut to "uid 4" must not load.
 */
TEST_F(securityfs, policy_cut_mid_line_refused)
{
	char before[4096];
	int err;

	if (!self->is_policy)
		SKIP(return, "denyname's rule is one name");
	snprintf(before, sizeof(before), "%s", now(self));
	err = errno_of(write_value(self->path, "mode enforcing\ndeny CAP_CHOWN uid 4"));
	EXPECT_EQ(EINVAL, err)
		TH_LOG("write: expected EINVAL, got %s", errno_text(err));
	EXPECT_STREQ(escaped(before), escaped(now(self)));
	EXPECT_TRUE(klog_has("the last line does not end with a newline"))
		TH_LOG("no 'the last line does not end with a newline' line in the log");
}

/* Reopening gives a fresh value. */
TEST_F(securityfs, reopen_and_write_again)
{
	two_writes(_metadata, self, NULL);
	EXPECT_ERRNO(0, write_value(self->path, self->second));
}

/* The largest value reads back and writes back. */
TEST_F(securityfs, largest_policy_one_write)
{
	size_t len;
	char *text = largest_policy(&len);
	long rc;

	if (!self->is_policy)
		SKIP(return, "denyname's rule is one name");
	EXPECT_LT(4096, (long)len);
	rc = write_value(self->path, text);
	EXPECT_EQ((long)len, rc)
		TH_LOG("writing %zu bytes returned %ld (%s)", len, rc, errno_text(errno_of(rc)));
}

TEST_F(securityfs, largest_policy_reads_back_and_writes_back)
{
	size_t len, back_len;
	char *text = largest_policy(&len), *back;

	if (!self->is_policy)
		SKIP(return, "denyname's rule is one name");
	ASSERT_EQ((long)len, write_value(self->path, text));
	back = read_all(self->path, &back_len);
	ASSERT_NE(NULL, back)
		TH_LOG("reading %s: %s", self->path, strerror(errno));
	EXPECT_EQ(len, back_len);
	EXPECT_EQ(0, memcmp(back, text, len < back_len ? len : back_len))
		TH_LOG("the policy read back differs from the one written");
	EXPECT_EQ((long)back_len, write_value(self->path, back))
		TH_LOG("writing back what was read: %s", strerror(errno));
}

/* A write over the limit: 4096 bytes for denyname, about 45 KiB for a policy. */
static long write_over_the_limit(FIXTURE_DATA(securityfs) *self)
{
	static char big[200000];
	size_t n = self->is_policy ? sizeof(big) - 1 : 5000;

	memset(big, '#', n);
	big[n] = '\0';
	return write_value(self->path, big);
}

TEST_F(securityfs, over_the_limit_efbig)
{
	EXPECT_ERRNO(EFBIG, write_over_the_limit(self));
}

TEST_F(securityfs, over_the_limit_changes_nothing)
{
	char before[4096];

	ASSERT_ERRNO(0, write_value(self->path, self->first));
	snprintf(before, sizeof(before), "%s", now(self));
	write_over_the_limit(self);
	EXPECT_STREQ(escaped(before), escaped(now(self)));
}

/*
 * The opener lacks CAP_MAC_ADMIN, the writer has it: drop it from the
 * effective set, open, raise it again (it stays permitted), write. The
 * errno of the write.
 */
static int deputy_write(struct __test_metadata *_metadata, FIXTURE_DATA(securityfs) *self)
{
	int fd, err;

	ASSERT_ERRNO(0, write_value(self->path, self->first));
	ASSERT_EQ(0, set_mac_admin_effective(0))
		TH_LOG("dropping CAP_MAC_ADMIN: %s", strerror(errno));
	fd = open(self->path, O_WRONLY);
	err = errno;
	ASSERT_EQ(0, set_mac_admin_effective(1))
		TH_LOG("raising CAP_MAC_ADMIN: %s", strerror(errno));
	ASSERT_LE(0, fd)
		TH_LOG("open(%s) without CAP_MAC_ADMIN: %s", self->path, strerror(err));
	err = errno_of(write(fd, self->second, strlen(self->second)));
	close(fd);
	return err;
}

TEST_F(securityfs, opener_without_cap_mac_admin_eperm)
{
	int err = deputy_write(_metadata, self);

	EXPECT_EQ(EPERM, err)
		TH_LOG("write: expected EPERM, got %s", errno_text(err));
}

TEST_F(securityfs, deputy_write_changed_nothing_and_was_logged)
{
	deputy_write(_metadata, self);
	EXPECT_STREQ(escaped(self->first_shown), escaped(now(self)));
	EXPECT_TRUE(klog_has("the process that opened it lacks CAP_MAC_ADMIN"))
		TH_LOG("no 'the process that opened it lacks CAP_MAC_ADMIN' line in the log");
}

TEST_HARNESS_MAIN
