/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the in-guest test programs share: small files, securityfs
 * values, the kernel command line and log, the init status check, and
 * assertions on errno for kselftest_harness.h (the kernel tree's
 * tools/testing/selftests, which scripts/mkinitramfs.sh builds against).
 */
#ifndef STACKER_GUEST_UTIL_H
#define STACKER_GUEST_UTIL_H

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define STACKER_STATUS "/sys/kernel/security/stacker/status"

/*
 * A POSIX ACL in its xattr form, "u::rw-,u:1000:r--,g::r--,m::r--,o::r--"
 * (include/uapi/linux/posix_acl_xattr.h: version 2, then tag, perm, id),
 * with an entry that the mode bits cannot hold, so that the file system
 * keeps it.
 */
#define ACL_XATTR "system.posix_acl_access"
static const uint32_t extended_acl[] __attribute__((unused)) = {
	2,
	0x01 | (6 << 16), (uint32_t)-1,	/* ACL_USER_OBJ, rw- */
	0x02 | (4 << 16), 1000,		/* ACL_USER 1000, r-- */
	0x04 | (4 << 16), (uint32_t)-1,	/* ACL_GROUP_OBJ, r-- */
	0x10 | (4 << 16), (uint32_t)-1,	/* ACL_MASK, r-- */
	0x20 | (4 << 16), (uint32_t)-1,	/* ACL_OTHER, r-- */
};

/* mlte's label of a file. */
#define MLTE_XATTR "security.mlte"

/* The process attribute both LSM interfaces show. */
#define ATTR "/proc/self/attr/current"

/* The LSM syscalls (include/uapi/linux/lsm.h): stacker's id, the attribute. */
#define LSM_ID_STACKER 114
#define LSM_ATTR_CURRENT 100
#ifndef SYS_lsm_get_self_attr
#define SYS_lsm_get_self_attr 459
#define SYS_lsm_set_self_attr 460
#endif

/* As include/uapi/linux/lsm.h. */
struct lsm_ctx {
	uint64_t id;
	uint64_t flags;
	uint64_t len;
	uint64_t ctx_len;
	uint8_t ctx[];
};

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

/* Writes `len` bytes to `path` in one write(); its result, errno kept. */
static inline long write_bytes(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY);
	long n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, data, len);
	e = errno;
	close(fd);
	errno = e;
	return n;
}

/*
 * Reads the whole file `path` (any size; securityfs files included, read
 * to the end) into a malloc'd, NUL-terminated buffer; its length, or -1.
 */
static inline long read_whole(const char *path, char **out)
{
	int fd = open(path, O_RDONLY);
	long len = 0, cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1), *bigger;

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return -1;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += n;
		if (len == cap) {
			bigger = realloc(buf, (cap *= 2) + 1);
			if (!bigger) {
				n = -1;
				break;
			}
			buf = bigger;
		}
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	return len;
}

/* Writes the string `value` to `path` in one write(), as write_bytes(). */
static inline long write_value(const char *path, const char *value)
{
	return write_bytes(path, value, strlen(value));
}

/* open() of `path` for reading, as this process: 0, or the errno. */
static inline int open_errno(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Creates (or empties) the regular file `path`; 0 or -1. */
static inline int make_file(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	return fd < 0 ? -1 : close(fd);
}

/* Writes `len` bytes to `path`, creating or emptying it; 0 or -1. */
static inline int put_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);

	if (fd < 0)
		return -1;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/*
 * Whether submodule `name` is in the active chain: a line of
 * /sys/kernel/security/stacker/chain (one name per line). `chain` gets
 * the file's text, for the message.
 */
static inline int chain_has(const char *name, char *chain, size_t size)
{
	size_t len = strlen(name);
	const char *p;

	if (read_value("/sys/kernel/security/stacker/chain", chain, size))
		return 0;
	for (p = chain; (p = strstr(p, name)); p += len)
		if ((p == chain || p[-1] == '\n') && p[len] == '\n')
			return 1;
	return 0;
}

/*
 * The directories of /proc/self/attr/stacker/, in the order readdir gives
 * them, one per line in `out` (as the chain file lists names); 0, or -1
 * with errno.
 */
static inline int attr_dirs(char *out, size_t size)
{
	DIR *d = opendir("/proc/self/attr/stacker");
	struct dirent *e;
	size_t used = 0;
	int n;

	out[0] = '\0';
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n = snprintf(out + used, size - used, "%s\n", e->d_name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += n;
	}
	closedir(d);
	return 0;
}

/*
 * What attr_dirs() must give: the submodules of the active chain that
 * have process attributes (mlte and the probes), in chain order, one per
 * line; "" when stacker did not start.
 */
static inline void chain_attr_owners(char *out, size_t size)
{
	static const char *const owners[] = { "mlte", "probe", "probe_b", "probe_c" };
	char chain[512], *name, *save = NULL;
	size_t used = 0, i;
	int n;

	out[0] = '\0';
	if (read_value("/sys/kernel/security/stacker/chain", chain, sizeof(chain)))
		return;
	for (name = strtok_r(chain, "\n", &save); name; name = strtok_r(NULL, "\n", &save))
		for (i = 0; i < sizeof(owners) / sizeof(owners[0]); i++)
			if (!strcmp(name, owners[i])) {
				n = snprintf(out + used, size - used, "%s\n", name);
				if (n > 0 && (size_t)n < size - used)
					used += n;
			}
}

/* mlte's label of `path`, its security.mlte xattr ("" if none). */
static inline const char *mlte_label_of(const char *path)
{
	static char buf[256];
	ssize_t n = getxattr(path, MLTE_XATTR, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Sets mlte's label of `path` to `ctx`; 0, or -1 with errno. */
static inline int mlte_set_label(const char *path, const char *ctx)
{
	return setxattr(path, MLTE_XATTR, ctx, strlen(ctx), 0);
}

/*
 * An overlayfs on DIR/merged (CONFIG_OVERLAY_FS), over DIR/lower and
 * DIR/upper, all on a tmpfs of its own mounted on DIR; `fill` makes the
 * lower files first (given DIR/lower). A change through DIR/merged to a
 * lower file copies it up to DIR/upper, asking the LSMs about each of its
 * xattrs (security_inode_copy_up_xattr()). 0, or -1 (errno).
 */
static inline int mount_overlay(const char *dir, int (*fill)(const char *lower))
{
	static const char *const subdirs[] = { "lower", "upper", "work", "merged" };
	char path[256], opts[1024];

	mkdir(dir, 0755);
	if (mount("none", dir, "tmpfs", 0, NULL))
		return -1;
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, subdirs[i]);
		if (mkdir(path, 0755))
			return -1;
	}
	snprintf(path, sizeof(path), "%s/lower", dir);
	if (fill(path))
		return -1;
	snprintf(opts, sizeof(opts), "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work",
		 dir, dir, dir);
	snprintf(path, sizeof(path), "%s/merged", dir);
	return mount("overlay", path, "overlay", 0, opts);
}

/* Unmounts what mount_overlay() mounted on DIR. */
static inline void umount_overlay(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/merged", dir);
	umount(path);
	umount(dir);
}

/*
 * The integrity fixture disk (scripts/integrity-fixtures.py, attached by
 * boottest.py --disk) and where the programs mount it.
 */
#define FIXTURE_DISK "/dev/vda"
#define FIXTURE_MNT "/mnt/integrity"

/* Mounts the fixture disk at FIXTURE_MNT unless it is; 0, or -1 (errno). */
static inline int mount_fixture_disk(void)
{
	struct stat st;

	mkdir("/mnt", 0755);
	mkdir(FIXTURE_MNT, 0755);
	if (!stat(FIXTURE_MNT "/MANIFEST.sha256", &st))
		return 0;
	if (stat(FIXTURE_DISK, &st))
		return -1;
	return mount(FIXTURE_DISK, FIXTURE_MNT, "ext4", 0, NULL);
}

/*
 * NEEDS_FIXTURE_DISK(): in a TEST, skips it in a boot without the fixture
 * disk, and mounts the disk (a failed mount fails the test).
 */
#define NEEDS_FIXTURE_DISK() do { \
	if (access(FIXTURE_DISK, F_OK)) \
		SKIP(return, "no fixture disk in this boot (boottest.py --disk)"); \
	ASSERT_ERRNO(0, mount_fixture_disk()); \
} while (0)

/*
 * The whole kernel log buffer as a string (empty if it cannot be read),
 * sized from the kernel's buffer so that early boot lines are not cut off.
 * Valid until the next call.
 */
static inline const char *klog_read(void)
{
	static char *log;
	static int cap;
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	int n;

	if (size < (1 << 17))
		size = 1 << 17;
	if (size + 1 > cap) {
		free(log);
		log = malloc(size + 1);
		cap = log ? size + 1 : 0;
		if (!log)
			return "";
	}
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	log[n > 0 ? n : 0] = '\0';
	return log;
}

/* Whether the kernel log contains `needle`. */
static inline int klog_has(const char *needle)
{
	return strstr(klog_read(), needle) != NULL;
}

/* "success" for 0, else the text of errno `e`: for messages. */
static inline const char *errno_text(int e)
{
	return e ? strerror(e) : "success";
}

/*
 * The errno of a call that returned `rc`, 0 if it succeeded (rc >= 0):
 * errno_of(open(...)). The call is made before errno is read.
 */
static inline int errno_of(long rc)
{
	return rc < 0 ? errno : 0;
}

/*
 * `s` with each newline shown as a backslash and an 'n', and each
 * backslash doubled, cut to 1000 bytes: for EXPECT_STREQ() and messages
 * on values that end in a newline, so that a message stays on its line.
 * One of four buffers, reused in turn.
 */
static inline const char *escaped(const char *s)
{
	static char bufs[4][1001];
	static int next;
	char *out = bufs[next++ % 4];
	size_t n = 0;

	for (; *s && n < sizeof(bufs[0]) - 2; s++) {
		if (*s == '\n' || *s == '\\') {
			out[n++] = '\\';
			out[n++] = *s == '\n' ? 'n' : '\\';
		} else {
			out[n++] = *s;
		}
	}
	out[n] = '\0';
	return out;
}

/*
 * EXPECT_ERRNO(err, call): `call` fails with errno `err`, or succeeds if
 * `err` is 0. A failure prints the call with the errno expected and the
 * one seen ("Expected EACCES (13) == errno_of(open(...)) (0)"); as with
 * EXPECT_EQ(), a TH_LOG() may follow. ASSERT_ERRNO() ends the test.
 */
#define EXPECT_ERRNO(err, call) EXPECT_EQ(err, errno_of(call))
#define ASSERT_ERRNO(err, call) ASSERT_EQ(err, errno_of(call))

/*
 * Whether the LSM status file `path` reads exactly "ok\n" ("failed:
 * REASON\n" after a failed init); `shown` gets what it reads, for the
 * message.
 */
/*
 * stacker's status when stacker.chain= was refused (an unknown name) and
 * the chain in force started whole.
 */
#define STACKER_STATUS_CHAIN_REFUSED                                           \
	"degraded: the rest of the chain enforces; left out:\n"                \
	"  stacker.chain= (refused: see the boot log; an earlier or the default chain runs)\n"

static inline int status_is_ok(const char *path, char *shown, size_t size)
{
	char status[256];

	if (read_value(path, status, sizeof(status))) {
		snprintf(shown, size, "unreadable: %s", strerror(errno));
		return 0;
	}
	snprintf(shown, size, "'%.*s'", (int)strcspn(status, "\n"), status);
	/* A refused stacker.chain= alone: the chain that runs started whole. */
	return !strcmp(status, "ok\n") || !strcmp(status, STACKER_STATUS_CHAIN_REFUSED);
}

/*
 * ASSERT_INIT_SUCCEEDED(path): the LSM initialized, its status file
 * (STACKER_STATUS, or capstack's as an LSM of its own) reads "ok". A
 * program that tests a running stacker has it as a TEST of its own,
 * "init_succeeded", and as the first statement of every FIXTURE_SETUP
 * and of every other TEST: with the LSM not initialized the checks would
 * pass or fail for the wrong reason, so then every one of them fails.
 */
#define ASSERT_INIT_SUCCEEDED(path)                                          \
	do {                                                                 \
		char __shown[300];                                           \
		ASSERT_TRUE(status_is_ok(path, __shown, sizeof(__shown)))    \
			TH_LOG("%s is %s, expected 'ok'", path, __shown);    \
	} while (0)

/*
 * The value of `key=` on the kernel command line (a malloc'd string; the
 * last one, as the kernel's parsing leaves it), or NULL if it is not there.
 */
static inline char *cmdline_value(const char *key)
{
	char line[4096], *p, *tok, *value = NULL;
	size_t klen = strlen(key);

	read_value("/proc/cmdline", line, sizeof(line));
	for (tok = strtok_r(line, " \n", &p); tok; tok = strtok_r(NULL, " \n", &p)) {
		if (strncmp(tok, key, klen) || tok[klen] != '=')
			continue;
		free(value);
		value = strdup(tok + klen + 1);
	}
	return value;
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

/*
 * Opens `path` for writing as root, then, in a child that stays uid 0 but
 * drops capability `cap` (e.g. 33, CAP_MAC_ADMIN) from its effective and
 * permitted sets, writes `len` bytes of `data` in one write(). Returns the
 * errno the child saw (0 if the write succeeded), or -1 if the test itself
 * failed.
 */
static inline int write_without_cap_errno(const char *path, const void *data, size_t len, int cap)
{
	/* As <linux/capability.h>, version 3: two 32-bit words per set. */
	struct {
		uint32_t version;
		int pid;
	} hdr = { 0x20080522, 0 };
	struct {
		uint32_t effective, permitted, inheritable;
	} caps[2];
	int fd = open(path, O_WRONLY);
	int status;
	pid_t pid;

	if (fd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (syscall(SYS_capget, &hdr, caps))
			_exit(255);
		caps[cap / 32].effective &= ~(1u << (cap % 32));
		caps[cap / 32].permitted &= ~(1u << (cap % 32));
		if (syscall(SYS_capset, &hdr, caps))
			_exit(255);
		_exit(write(fd, data, len) < 0 ? errno : 0);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -1;
	return WEXITSTATUS(status);
}

#endif /* STACKER_GUEST_UTIL_H */
