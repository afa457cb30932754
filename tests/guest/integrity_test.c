// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: the integrity submodule (IMA/EVM-style measurement, appraisal
 * and HMAC of security xattrs), from userspace.
 *
 * The fixtures come from the host (scripts/integrity-fixtures.py): an ext4
 * image on /dev/vda (boottest.py --disk), mounted here at /mnt/integrity,
 * whose files carry security.ima, security.mlte and security.evm made with
 * evmctl and integrity-hmac, and whose /MANIFEST.sha256 is the host's
 * sha256sum of every file; and, in the initramfs, /etc/integrity/: the
 * signing certificates (cert1.der, loaded; cert2.der, never loaded), the
 * EVM HMAC key (evm.key) and the policy (test.policy).
 *
 * It checks:
 * - writes need CAP_MAC_ADMIN (EPERM without it, as uid 0 and as uid 1000);
 * - the policy loads and reads back; malformed policies (unknown action,
 *   bad func, too many rules, ...) get EINVAL and a log line with the line
 *   and column, and the old policy keeps deciding;
 * - bad certificates (random bytes, truncated DER) are refused and the
 *   key count stays; the good one is counted;
 * - the measurement list: boot_aggregate first; the files measured carry
 *   the host's digests; a file read twice is one entry; a file rewritten
 *   (tmpfs and ext4) is measured again with its new digest; each entry's
 *   template hash and the aggregate are recomputed here with busybox
 *   sha1sum, independently of the kernel;
 * - appraisal at exec: /hashed/ok and /signed/good run; a tampered file,
 *   one without security.ima, one with a hash where a signature is
 *   required, a bad signature and an unknown key's signature get EACCES,
 *   with a log line that says why and counters; a malformed security.ima
 *   is EACCES; once the unknown key is loaded, its file runs;
 * - concurrent first opens of a file add one measurement;
 * - the EVM HMAC: once the key is loaded, /meta/intact opens, and a label
 *   changed offline, a missing and a malformed security.evm get EACCES;
 *   the key is 32 bytes (EINVAL) and loads once (EBUSY);
 * - MMAP_CHECK: with a rule, an executable mapping of a file without
 *   security.ima is EACCES (a readable one is not; without the rule,
 *   neither is), and mprotect(PROT_EXEC) of a file it selects is EPERM;
 * - MODULE_CHECK: finit_module of a file that is not a module fails, and
 *   the file is in the measurement list;
 * - obj_type= (with mlte in the chain): a rule selects a file by its mlte
 *   type, and not a file of another;
 * - a firmware read in pieces (request_partial_firmware_into_buf, through
 *   lib/test_firmware.c) is appraised on the whole file, as IMA's
 *   ima_read_file(): a tampered or unhashed file is refused and counted;
 * - an overlayfs copy-up leaves an HMAC in security.evm behind and copies
 *   a portable signature and security.ima (as EVM).
 * If integrity is not in the chain, or the fixture disk is not there,
 * every test fails (the fixture's setup asserts both).
 *
 * The tests run in the order they are written, each in a process of its
 * own, and share the kernel's state, which only grows: the measurement
 * list, the keys, the EVM key. So a test may depend on the ones before
 * it: "certificate_loaded" loads the key the appraisal tests need,
 * "evm_key_loaded" the HMAC key, the measurement tests count the entries
 * of files nothing read before. When the program ends it leaves a policy
 * without rules, for the programs after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest_util.h"

#define SFS "/sys/kernel/security/stacker/integrity/"
#define LIST SFS "ascii_runtime_measurements"
#define ETC "/etc/integrity/"
#define CAP_MAC_ADMIN 33

/* ---- Small helpers. ---- */

/* A counter of integrity/status ("measurements", "keys", ...); -1 if none. */
static long status_count(const char *key)
{
	char buf[512], want[64], *p;

	snprintf(want, sizeof(want), "%s ", key);
	if (read_value(SFS "status", buf, sizeof(buf)))
		return -1;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, want, strlen(want)))
			return strtol(p + strlen(want), NULL, 10);
	return -1;
}

/* The number in integrity/keys; -1 if unreadable. */
static long keys_count(void)
{
	char buf[32];

	return read_value(SFS "keys", buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 10);
}

/*
 * The hex digest busybox's `tool` (sha1sum, sha256sum) prints for `len`
 * bytes of `data`, into `hex` (at least 65 bytes): a computation
 * independent of the kernel's. 0 or -1.
 */
static int busybox_digest(const char *tool, const void *data, size_t len, char *hex)
{
	static const char tmp[] = "/tmp/integrity_test.digest";
	char cmd[128];
	FILE *p;
	int ok;

	if (put_file(tmp, data, len, 0600))
		return -1;
	snprintf(cmd, sizeof(cmd), "/bin/busybox %s %s", tool, tmp);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	ok = fscanf(p, "%64[0-9a-f]", hex) == 1;
	return pclose(p) == 0 && ok ? 0 : -1;
}

/* The sha256 hex of the file `path`, by busybox; 0 or -1. */
static int file_sha256(const char *path, char *hex)
{
	char *data;
	long len = read_whole(path, &data);
	int rc;

	if (len < 0)
		return -1;
	rc = busybox_digest("sha256sum", data, len, hex);
	free(data);
	return rc;
}

/* Copies `from` to `to` (mode 0755); 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	char *data;
	long len = read_whole(from, &data);
	int rc;

	if (len < 0)
		return -1;
	rc = put_file(to, data, len, 0755);
	free(data);
	return rc;
}

/* Opens and reads `path` to its end, as root; 0 or the errno. */
static int read_errno(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0 ? errno : 0;
}

/*
 * Executes `path` in a child, its output on a pipe. Returns the errno of
 * execve (0 when it ran); *exit_code gets the program's exit status (-1 if
 * it did not exit) and `out` (size `size`) its output.
 */
static int exec_errno(const char *path, int *exit_code, char *out, size_t size)
{
	int outp[2], errp[2], status, e = 0;
	ssize_t n, got = 0;
	pid_t pid;

	*exit_code = -1;
	out[0] = '\0';
	if (pipe(outp) || pipe2(errp, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(outp[1], 1);
		close(outp[0]);
		close(errp[0]);
		execl(path, path, (char *)NULL);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(254);
		_exit(255);
	}
	close(outp[1]);
	close(errp[1]);
	while (got < (ssize_t)size - 1 && (n = read(outp[0], out + got, size - 1 - got)) > 0)
		got += n;
	out[got > 0 ? got : 0] = '\0';
	if (read(errp[0], &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(outp[0]);
	close(errp[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	if (!e && WIFEXITED(status))
		*exit_code = WEXITSTATUS(status);
	return e;
}

/* Maps `path` with `prot` (MAP_PRIVATE), as root; 0 or the errno. */
static int mmap_errno(const char *path, int prot)
{
	int fd = open(path, O_RDONLY), e = 0;
	void *p;

	if (fd < 0)
		return errno;
	p = mmap(NULL, 4096, prot, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		e = errno;
	else
		munmap(p, 4096);
	close(fd);
	return e;
}

/* Maps `path` readable, then mprotect()s it executable; 0 or the errno. */
static int mprotect_errno(const char *path)
{
	int fd = open(path, O_RDONLY), e = 0;
	void *p;

	if (fd < 0)
		return errno;
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		e = errno;
	} else {
		if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
			e = errno;
		munmap(p, 4096);
	}
	close(fd);
	return e;
}

/* ---- The measurement list. ---- */

struct entry {
	char template_hash[41];
	char digest[65];
	char path[512];       /* as printed (escaped) */
	unsigned char raw[512]; /* unescaped */
	size_t raw_len;
};

#define MAX_ENTRIES 1024
static struct entry entries[MAX_ENTRIES];
static int n_entries;
static int list_malformed; /* lines that were not "10 HASH ima-ng sha256:HEX PATH" */

static int unhex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Reads and parses the list; the number of entries, or -1. */
static int read_list(void)
{
	char *text, *line, *save, *p;
	long len = read_whole(LIST, &text);
	struct entry *e;

	n_entries = 0;
	list_malformed = 0;
	if (len < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (n_entries == MAX_ENTRIES)
			break;
		e = &entries[n_entries];
		if (sscanf(line, "10 %40[0-9a-f] ima-ng sha256:%64[0-9a-f] %511s", e->template_hash,
			   e->digest, e->path) != 3 ||
		    strlen(e->template_hash) != 40 || strlen(e->digest) != 64) {
			list_malformed++;
			continue;
		}
		e->raw_len = 0;
		for (p = e->path; *p && e->raw_len < sizeof(e->raw); p++) {
			if (p[0] == '\\' && p[1] == 'x' && unhex(p[2]) >= 0 && unhex(p[3]) >= 0) {
				e->raw[e->raw_len++] = unhex(p[2]) * 16 + unhex(p[3]);
				p += 3;
			} else {
				e->raw[e->raw_len++] = *p;
			}
		}
		n_entries++;
	}
	free(text);
	return n_entries;
}

/* How many entries have the path `path`; the digest of the last in `digest`. */
static int entries_of(const char *path, char *digest)
{
	int i, n = 0;

	for (i = 0; i < n_entries; i++) {
		if (strcmp(entries[i].path, path))
			continue;
		n++;
		if (digest)
			strcpy(digest, entries[i].digest);
	}
	return n;
}

/* Decodes 2n hex digits into n bytes. */
static void hex_to_bytes(const char *hex, unsigned char *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = unhex(hex[2 * i]) * 16 + unhex(hex[2 * i + 1]);
}

/* The ima-ng template data of `e`, as IMA hashes it; its length. */
static size_t template_data(const struct entry *e, unsigned char *out)
{
	uint32_t d_len = 40, n_len = e->raw_len + 1;
	size_t off = 0;

	memcpy(out + off, &d_len, 4); /* little-endian: x86 */
	off += 4;
	memcpy(out + off, "sha256:", 8);
	off += 8;
	hex_to_bytes(e->digest, out + off, 32);
	off += 32;
	memcpy(out + off, &n_len, 4);
	off += 4;
	memcpy(out + off, e->raw, e->raw_len);
	off += e->raw_len;
	out[off++] = '\0';
	return off;
}

/* ---- The manifest of the fixture image. ---- */

#define MAX_MANIFEST 64
static struct {
	char digest[65];
	char path[256];
} manifest[MAX_MANIFEST];
static int n_manifest;

static int read_manifest(void)
{
	char *text, *line, *save;

	n_manifest = 0;
	if (read_whole(FIXTURE_MNT "/MANIFEST.sha256", &text) < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line && n_manifest < MAX_MANIFEST;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%64[0-9a-f] %255s", manifest[n_manifest].digest,
			   manifest[n_manifest].path) == 2)
			n_manifest++;
	free(text);
	return n_manifest;
}

/* The host's digest of `path` (a guest path); NULL if not in the manifest. */
static const char *manifest_digest(const char *path)
{
	int i;

	for (i = 0; i < n_manifest; i++)
		if (!strcmp(manifest[i].path, path))
			return manifest[i].digest;
	return NULL;
}

/* ---- The preconditions. ---- */

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

TEST(integrity_in_chain)
{
	char chain[256];
	struct stat st;

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	EXPECT_TRUE(chain_has("integrity", chain, sizeof(chain)))
		TH_LOG("chain is '%s'", chain);
	EXPECT_ERRNO(0, stat(SFS "policy", &st));
}

TEST(fixture_disk_mounted)
{
	char chain[256];

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(chain_has("integrity", chain, sizeof(chain)))
		TH_LOG("integrity is not in this boot's chain '%s'", chain);
	EXPECT_EQ(0, access(FIXTURE_DISK, F_OK))
		TH_LOG(FIXTURE_DISK " is missing (boottest.py --disk IMG)");
	EXPECT_ERRNO(0, mount_fixture_disk());
}

TEST(fixture_manifest_read)
{
	char chain[256];

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(chain_has("integrity", chain, sizeof(chain)))
		TH_LOG("integrity is not in this boot's chain '%s'", chain);
	mount_fixture_disk();
	EXPECT_LT(10, read_manifest())
		TH_LOG(FIXTURE_MNT "/MANIFEST.sha256 gave %d entries", n_manifest);
}

/* test.policy, for the tests that load it (empty if it cannot be read). */
static char *policy_text;

/*
 * integrity in the chain, the fixture disk and its manifest: without them
 * every test fails.
 */
FIXTURE(integrity) {};

FIXTURE_SETUP(integrity)
{
	char chain[256];

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(chain_has("integrity", chain, sizeof(chain)))
		TH_LOG("integrity is not in this boot's chain '%s'", chain);
	ASSERT_ERRNO(0, mount_fixture_disk())
		TH_LOG("the fixture disk " FIXTURE_DISK " is not mounted");
	ASSERT_LT(10, read_manifest())
		TH_LOG("the fixture disk has no manifest");
	if (read_whole(ETC "test.policy", &policy_text) < 0)
		policy_text = strdup("");
}

FIXTURE_TEARDOWN(integrity)
{
	free(policy_text);
	policy_text = NULL;
}

/* The test's errno `err` is `want` (0: success); shows both as text. */
#define EXPECT_ERR(want, err)                                                 \
	do {                                                                  \
		int __err;                                                    \
		EXPECT_EQ(want, __err = (err))                                \
			TH_LOG("expected %s, got %s", errno_text(want),       \
			       __err < 0 ? "test failure" : errno_text(__err)); \
	} while (0)

/* ---- Writes need CAP_MAC_ADMIN; the policy. ---- */

TEST_F(integrity, policy_write_without_cap_mac_admin_eperm)
{
	EXPECT_ERR(EPERM, write_without_cap_errno(SFS "policy", "measure\n", 8, CAP_MAC_ADMIN));
}

TEST_F(integrity, policy_write_as_uid1000_eperm)
{
	EXPECT_ERR(EPERM, write_as_uid1000_errno(SFS "policy", "measure\n"));
}

TEST_F(integrity, evm_key_write_without_cap_mac_admin_eperm)
{
	EXPECT_ERR(EPERM, write_without_cap_errno(SFS "evm_key", "0123456789abcdef0123456789abcdef",
						  32, CAP_MAC_ADMIN));
}

TEST_F(integrity, keys_write_without_cap_mac_admin_eperm)
{
	EXPECT_ERR(EPERM, write_without_cap_errno(SFS "keys", "x", 1, CAP_MAC_ADMIN));
}

TEST_F(integrity, policy_file_present)
{
	char *text = NULL;

	EXPECT_LT(0, read_whole(ETC "test.policy", &text))
		TH_LOG(ETC "test.policy: %s", strerror(errno));
	free(text);
}

TEST_F(integrity, policy_loaded)
{
	EXPECT_ERRNO(0, write_value(SFS "policy", policy_text));
}

/* The read-back: the rules of test.policy, without comments. */
TEST_F(integrity, policy_reads_back)
{
	char want[4096] = "", *back = NULL, *line, *save, *copy = strdup(policy_text);

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && line[0] != '\0' &&
		    strlen(want) + strlen(line) + 2 < sizeof(want)) {
			strcat(want, line);
			strcat(want, "\n");
		}
	free(copy);
	ASSERT_LE(0, read_whole(SFS "policy", &back))
		TH_LOG(SFS "policy: %s", strerror(errno));
	EXPECT_STREQ(escaped(want), escaped(back));
	free(back);
}

/* ---- Keys: bad ones are refused and not counted, the good one is. ---- */

/* The test's certificate `name` (in ETC), in `cert`; its length. */
static long read_cert(struct __test_metadata *_metadata, const char *name, char **cert)
{
	char path[128];
	long len;

	snprintf(path, sizeof(path), ETC "%s", name);
	len = read_whole(path, cert);
	ASSERT_LT(100, len)
		TH_LOG("%s: %s", path, len < 0 ? strerror(errno) : "too short");
	return len;
}

TEST_F(integrity, certificate_present_and_no_keys)
{
	char *cert = NULL;

	EXPECT_LT(100, read_whole(ETC "cert1.der", &cert))
		TH_LOG(ETC "cert1.der: %s", strerror(errno));
	EXPECT_EQ(0, keys_count());
	free(cert);
}

/* 600 random bytes written as a key: the write's result. */
static long write_random_key(void)
{
	unsigned char junk[600];
	uint64_t seed = 0x243f6a8885a308d3ull;
	size_t i;

	for (i = 0; i < sizeof(junk); i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		junk[i] = (unsigned char)seed;
	}
	return write_bytes(SFS "keys", junk, sizeof(junk));
}

TEST_F(integrity, random_key_refused)
{
	int e = errno_of(write_random_key());

	EXPECT_TRUE(e == EBADMSG || e == EINVAL)
		TH_LOG("expected EBADMSG or EINVAL, got %s", errno_text(e));
}

TEST_F(integrity, truncated_certificate_refused)
{
	char *cert;
	long len = read_cert(_metadata, "cert1.der", &cert);
	int e = errno_of(write_bytes(SFS "keys", cert, len / 2));

	EXPECT_TRUE(e == EBADMSG || e == EINVAL)
		TH_LOG("expected EBADMSG or EINVAL, got %s", errno_text(e));
	free(cert);
}

TEST_F(integrity, refused_keys_not_counted)
{
	char *cert;
	long len = read_cert(_metadata, "cert1.der", &cert), before = keys_count();

	write_random_key();
	write_bytes(SFS "keys", cert, len / 2);
	EXPECT_EQ(before, keys_count());
	free(cert);
}

TEST_F(integrity, key_refusal_logged)
{
	EXPECT_TRUE(klog_has("integrity: key rejected"))
		TH_LOG("no 'integrity: key rejected' line");
}

TEST_F(integrity, certificate_loaded)
{
	char *cert;
	long len = read_cert(_metadata, "cert1.der", &cert);

	EXPECT_ERRNO(0, write_bytes(SFS "keys", cert, len));
	free(cert);
}

TEST_F(integrity, loaded_key_counted)
{
	EXPECT_EQ(1, keys_count());
	EXPECT_EQ(1, status_count("keys"));
}

/* ---- The measurement list, checked against the host's digests. ---- */

TEST_F(integrity, list_starts_with_boot_aggregate)
{
	ASSERT_LT(0, read_list());
	EXPECT_EQ(0, list_malformed)
		TH_LOG("%d malformed lines in the list", list_malformed);
	EXPECT_STREQ("boot_aggregate", entries[0].path);
	EXPECT_STREQ("0000000000000000000000000000000000000000000000000000000000000000",
		     entries[0].digest);
}

/* Reads `path`, and checks that it has one entry, with the host's digest. */
static void expect_measured_once(struct __test_metadata *_metadata, const char *path)
{
	char digest[65] = "";
	const char *want = manifest_digest(path);

	EXPECT_EQ(0, read_errno(path))
		TH_LOG("reading %s", path);
	read_list();
	EXPECT_EQ(1, entries_of(path, digest))
		TH_LOG("entries of %s", path);
	ASSERT_NE(NULL, want)
		TH_LOG("%s is not in the manifest", path);
	EXPECT_STREQ(want, digest)
		TH_LOG("the digest of %s, host's first", path);
}

TEST_F(integrity, read_file_measured_with_host_digest)
{
	expect_measured_once(_metadata, FIXTURE_MNT "/data/m1");
}

TEST_F(integrity, read_twice_measured_once)
{
	long before;

	read_errno(FIXTURE_MNT "/data/m1");
	before = status_count("measurements");
	read_errno(FIXTURE_MNT "/data/m1");
	read_list();
	EXPECT_EQ(1, entries_of(FIXTURE_MNT "/data/m1", NULL));
	EXPECT_EQ(before, status_count("measurements"));
}

TEST_F(integrity, status_counts_the_entries)
{
	read_list();
	EXPECT_EQ(n_entries, status_count("measurements"))
		TH_LOG("the list has %d entries", n_entries);
}

/* Not selected: root owns the manifest; the rule says fowner=1002. */
TEST_F(integrity, unselected_file_not_measured)
{
	read_errno(FIXTURE_MNT "/MANIFEST.sha256");
	read_list();
	EXPECT_EQ(0, entries_of(FIXTURE_MNT "/MANIFEST.sha256", NULL));
}

TEST_F(integrity, list_readable_by_root_only)
{
	struct stat st;

	ASSERT_ERRNO(0, stat(LIST, &st));
	EXPECT_EQ(0440U, st.st_mode & 0777)
		TH_LOG("mode %o", (unsigned int)(st.st_mode & 0777));
}

/* The same contents at the same path again: no second entry. */
TEST_F(integrity, same_contents_measured_once)
{
	ASSERT_EQ(0, put_file("/tmp/dedup", "one\n", 4, 0644) || chown("/tmp/dedup", 1002, 1002) ||
			     read_errno("/tmp/dedup") || put_file("/tmp/dedup", "two\n", 4, 0644) ||
			     read_errno("/tmp/dedup") || put_file("/tmp/dedup", "one\n", 4, 0644) ||
			     read_errno("/tmp/dedup"))
		TH_LOG("/tmp/dedup: %s", strerror(errno));
	read_list();
	EXPECT_EQ(2, entries_of("/tmp/dedup", NULL))
		TH_LOG("entries for one, two, one");
}

/* A copy on tmpfs, given to 1002: measured; rewritten: measured again. */
TEST_F(integrity, tmpfs_copy_measured)
{
	char digest[65] = "";

	ASSERT_EQ(0, copy_file(FIXTURE_MNT "/data/m1", "/tmp/m1copy") || chown("/tmp/m1copy", 1002, 1002))
		TH_LOG("copying m1 to /tmp: %s", strerror(errno));
	read_errno("/tmp/m1copy");
	read_list();
	EXPECT_EQ(1, entries_of("/tmp/m1copy", digest));
	EXPECT_STREQ(manifest_digest(FIXTURE_MNT "/data/m1") ?: "", digest);
}

TEST_F(integrity, tmpfs_rewrite_measured_again)
{
	char digest[65] = "", hex[65] = "";
	int fd;

	read_list();
	ASSERT_EQ(1, entries_of("/tmp/m1copy", NULL))
		TH_LOG("tmpfs_copy_measured did not leave one measurement of /tmp/m1copy");
	fd = open("/tmp/m1copy", O_WRONLY | O_APPEND);
	ASSERT_EQ(0, fd < 0 || write(fd, "more\n", 5) != 5 || close(fd) ||
			     file_sha256("/tmp/m1copy", hex))
		TH_LOG("rewriting /tmp/m1copy: %s", strerror(errno));
	read_errno("/tmp/m1copy");
	read_list();
	EXPECT_EQ(2, entries_of("/tmp/m1copy", digest));
	EXPECT_STREQ(hex, digest)
		TH_LOG("the last digest, busybox's first");
}

/* The same on the ext4 mount (a snapshot: the image never changes). */
TEST_F(integrity, ext4_rewrite_measured_again)
{
	char digest[65] = "", hex[65] = "";

	ASSERT_EQ(0, put_file(FIXTURE_MNT "/data/rw", "first\n", 6, 0644) ||
			     chown(FIXTURE_MNT "/data/rw", 1002, 1002) || read_errno(FIXTURE_MNT "/data/rw") ||
			     put_file(FIXTURE_MNT "/data/rw", "second\n", 7, 0644) ||
			     file_sha256(FIXTURE_MNT "/data/rw", hex))
		TH_LOG("writing " FIXTURE_MNT "/data/rw: %s", strerror(errno));
	read_errno(FIXTURE_MNT "/data/rw");
	read_list();
	EXPECT_EQ(2, entries_of(FIXTURE_MNT "/data/rw", digest));
	EXPECT_STREQ(hex, digest)
		TH_LOG("the last digest, busybox's first");
}

TEST_F(integrity, second_file_measured_with_host_digest)
{
	expect_measured_once(_metadata, FIXTURE_MNT "/data/m2");
}

/* ---- Appraisal, before the EVM key: what security.ima alone decides. ---- */

/* execve of `path` gives `want`; 0: it runs, exits 0 and says so. */
static void expect_exec(struct __test_metadata *_metadata, const char *path, int want)
{
	char out[256];
	int code, e = exec_errno(path, &code, out, sizeof(out));

	if (want) {
		EXPECT_EQ(want, e)
			TH_LOG("execve %s: expected %s, got %s (exit %d)", path, strerror(want),
			       e < 0 ? "test failure" : errno_text(e), code);
		return;
	}
	EXPECT_EQ(0, e)
		TH_LOG("execve %s: %s", path, e < 0 ? "test failure" : errno_text(e));
	EXPECT_EQ(0, code)
		TH_LOG("%s exited with %d", path, code);
	EXPECT_NE(NULL, strstr(out, "integrity fixture: ran"))
		TH_LOG("%s printed '%.*s'", path, (int)strcspn(out, "\n"), out);
}

/* Opening and reading `path` gives `want`. */
static void expect_open(struct __test_metadata *_metadata, const char *path, int want)
{
	int e = read_errno(path);

	EXPECT_EQ(want, e)
		TH_LOG("open %s: expected %s, got %s", path, errno_text(want), errno_text(e));
}

TEST_F(integrity, hashed_ok_runs)
{
	expect_exec(_metadata, FIXTURE_MNT "/hashed/ok", 0);
}

TEST_F(integrity, hashed_tampered_eacces)
{
	expect_exec(_metadata, FIXTURE_MNT "/hashed/tampered", EACCES);
}

TEST_F(integrity, denial_logged_with_path)
{
	EXPECT_TRUE(klog_has("integrity: appraise: denied BPRM_CHECK of " FIXTURE_MNT "/hashed/tampered"))
		TH_LOG("no 'appraise: denied BPRM_CHECK of " FIXTURE_MNT "/hashed/tampered' line");
}

TEST_F(integrity, hashed_nohash_eacces)
{
	expect_exec(_metadata, FIXTURE_MNT "/hashed/nohash", EACCES);
}

TEST_F(integrity, signed_good_runs)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/good", 0);
}

TEST_F(integrity, signed_hashonly_eacces)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/hashonly", EACCES);
}

TEST_F(integrity, signed_badsig_eacces)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/badsig", EACCES);
}

TEST_F(integrity, signed_unknown_key_eacces)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/unknownkey", EACCES);
}

TEST_F(integrity, refused_file_stays_refused)
{
	expect_exec(_metadata, FIXTURE_MNT "/hashed/tampered", EACCES);
}

TEST_F(integrity, bad_signature_reason_logged)
{
	EXPECT_TRUE(klog_has("signed/badsig (pid") &&
		    klog_has("the signature in security.ima does not verify"))
		TH_LOG("no 'signature ... does not verify' line");
}

TEST_F(integrity, missing_key_reason_logged)
{
	EXPECT_TRUE(klog_has("no key is loaded with the key id of the signature"))
		TH_LOG("no 'no key is loaded with the key id' line");
}

/* No MMAP_CHECK rule yet: mapping it executable is not appraised. */
TEST_F(integrity, mmap_exec_not_appraised_without_rule)
{
	EXPECT_ERR(0, mmap_errno(FIXTURE_MNT "/hashed/nohash", PROT_READ | PROT_EXEC));
}

/* The executables of the appraisal tests above, refused or not, in order. */
static const char *const appraised[] = {
	FIXTURE_MNT "/hashed/ok", FIXTURE_MNT "/hashed/tampered", FIXTURE_MNT "/hashed/nohash",
	FIXTURE_MNT "/signed/good", FIXTURE_MNT "/signed/hashonly", FIXTURE_MNT "/signed/badsig",
	FIXTURE_MNT "/signed/unknownkey", FIXTURE_MNT "/hashed/tampered",
};

/* They run again: six of them are refused, again, and counted. */
TEST_F(integrity, appraisal_denials_counted)
{
	long denials = status_count("appraisal_denials");
	char out[256];
	size_t i;
	int code;

	for (i = 0; i < ARRAY_SIZE(appraised); i++)
		exec_errno(appraised[i], &code, out, sizeof(out));
	EXPECT_LE(denials + 6, status_count("appraisal_denials"))
		TH_LOG("appraisal_denials went from %ld, expected at least 6 more", denials);
}

/* Every executed file is measured, refused or not, with the host's digest. */
TEST_F(integrity, executed_files_measured_with_host_digests)
{
	char digest[65] = "";
	size_t i;

	read_list();
	/* The six that hashed_ok_runs to signed_badsig_eacces ran. */
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(1, entries_of(appraised[i], digest))
			TH_LOG("entries of %s", appraised[i]);
		EXPECT_STREQ(manifest_digest(appraised[i]) ?: "(none)", digest)
			TH_LOG("the digest of %s, host's first", appraised[i]);
	}
}

/*
 * Concurrent first opens of one file measure it once: CHILDREN processes
 * wait on a pipe, then all read a fresh 4 MiB file (fowner 1002, selected
 * by FILE_CHECK MAY_READ) at once. On one vCPU the race is narrow; the
 * boot that runs this uses several (test.sh).
 */
#define CHILDREN 4
TEST_F(integrity, concurrent_opens_measured_once)
{
	static char block[1 << 16];
	int go[2], fd, i, status;
	pid_t pids[CHILDREN];
	char byte;

	memset(block, 'c', sizeof(block));
	fd = open("/tmp/concurrent", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd)
		TH_LOG("/tmp/concurrent: %s", strerror(errno));
	for (i = 0; i < 64; i++)
		ASSERT_EQ((ssize_t)sizeof(block), write(fd, block, sizeof(block)));
	ASSERT_EQ(0, close(fd) || chown("/tmp/concurrent", 1002, 1002) || pipe(go))
		TH_LOG("setup: %s", strerror(errno));
	for (i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			close(go[1]);
			if (read(go[0], &byte, 1) != 0)
				_exit(2);
			fd = open("/tmp/concurrent", O_RDONLY);
			_exit(fd < 0 ? 1 : 0);
		}
	}
	close(go[0]);
	close(go[1]); /* every child wakes up at once */
	for (i = 0; i < CHILDREN; i++) {
		ASSERT_LT(0, pids[i]);
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("child %d: status %#x", i, status);
	}
	read_list();
	EXPECT_EQ(1, entries_of("/tmp/concurrent", NULL));
}

/* A malformed security.ima on tmpfs files an appraise rule selects. */
static const unsigned char bad_ima[] = { 0x04, 0x04, 0xab, 0xcd }; /* digest cut short */

TEST_F(integrity, malformed_ima_exec_eacces)
{
	if (copy_file(FIXTURE_MNT "/hashed/ok", "/tmp/badima") || chown("/tmp/badima", 1000, 1000) ||
	    setxattr("/tmp/badima", "security.ima", bad_ima, sizeof(bad_ima), 0))
		SKIP(return, "setting the malformed security.ima failed: %s", strerror(errno));
	expect_exec(_metadata, "/tmp/badima", EACCES);
}

TEST_F(integrity, malformed_ima_open_eacces)
{
	if (put_file("/tmp/badima_data", "data\n", 5, 0644) ||
	    chown("/tmp/badima_data", 1003, 1003) ||
	    setxattr("/tmp/badima_data", "security.ima", bad_ima, sizeof(bad_ima), 0))
		SKIP(return, "setting the malformed security.ima failed: %s", strerror(errno));
	expect_open(_metadata, "/tmp/badima_data", EACCES);
}

/* ---- The EVM HMAC key and what it requires. ---- */

/* The 32-byte key from ETC "evm.key", in `key` (64 bytes); its length. */
static ssize_t read_evm_key(char *key)
{
	int fd = open(ETC "evm.key", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, key, 64);

	if (fd >= 0)
		close(fd);
	return n;
}

TEST_F(integrity, evm_key_file_present)
{
	char key[64];

	EXPECT_EQ(32, read_evm_key(key))
		TH_LOG(ETC "evm.key: %s", strerror(errno));
}

/* Before the key, only security.ima counts: the forged label is not seen. */
TEST_F(integrity, meta_forged_opens_before_evm_key)
{
	expect_open(_metadata, FIXTURE_MNT "/meta/forged", 0);
}

TEST_F(integrity, evm_key_short_einval)
{
	char key[64];

	ASSERT_EQ(32, read_evm_key(key));
	EXPECT_ERRNO(EINVAL, write_bytes(SFS "evm_key", key, 31));
}

TEST_F(integrity, evm_key_long_einval)
{
	char key[64] = "";

	ASSERT_EQ(32, read_evm_key(key));
	EXPECT_ERRNO(EINVAL, write_bytes(SFS "evm_key", key, 33));
}

TEST_F(integrity, evm_key_loaded)
{
	char key[64];

	ASSERT_EQ(32, read_evm_key(key));
	EXPECT_ERRNO(0, write_bytes(SFS "evm_key", key, 32));
}

TEST_F(integrity, evm_key_second_load_ebusy)
{
	char key[64];

	ASSERT_EQ(32, read_evm_key(key));
	EXPECT_ERRNO(EBUSY, write_bytes(SFS "evm_key", key, 32));
}

TEST_F(integrity, meta_intact_opens)
{
	expect_open(_metadata, FIXTURE_MNT "/meta/intact", 0);
}

TEST_F(integrity, meta_forged_label_eacces)
{
	expect_open(_metadata, FIXTURE_MNT "/meta/forged", EACCES);
}

TEST_F(integrity, meta_noevm_eacces)
{
	expect_open(_metadata, FIXTURE_MNT "/meta/noevm", EACCES);
}

TEST_F(integrity, meta_badevm_eacces)
{
	expect_open(_metadata, FIXTURE_MNT "/meta/badevm", EACCES);
}

/*
 * /mlte/unreadable's xattr block is corrupted (scripts/integrity-fixtures.py):
 * its security.evm cannot be read. Refused, for that reason, not as an
 * HMAC that does not verify; and not cached (every open reads again).
 */
TEST_F(integrity, meta_unreadable_eacces_and_says_why)
{
	static const char path[] = FIXTURE_MNT "/mlte/unreadable";

	expect_open(_metadata, path, EACCES);
	expect_open(_metadata, path, EACCES);
	EXPECT_TRUE(klog_has("of " FIXTURE_MNT "/mlte/unreadable (pid") &&
		    klog_has("security.evm or a value it covers could not be read"))
		TH_LOG("no 'could not be read' reason for " FIXTURE_MNT "/mlte/unreadable");
}

TEST_F(integrity, evm_denials_counted)
{
	long denials = status_count("evm_denials");

	read_errno(FIXTURE_MNT "/meta/intact");
	read_errno(FIXTURE_MNT "/meta/forged");
	read_errno(FIXTURE_MNT "/meta/noevm");
	read_errno(FIXTURE_MNT "/meta/badevm");
	EXPECT_LE(denials + 3, status_count("evm_denials"))
		TH_LOG("evm_denials went from %ld, expected at least 3 more", denials);
}

TEST_F(integrity, evm_denial_logged)
{
	EXPECT_TRUE(klog_has("integrity: appraise: denied FILE_CHECK of " FIXTURE_MNT "/meta/forged"))
		TH_LOG("no 'denied FILE_CHECK of " FIXTURE_MNT "/meta/forged' line");
}

/* The appraised executables carry good HMACs: still allowed, still refused. */
TEST_F(integrity, hashed_ok_runs_with_evm_key)
{
	expect_exec(_metadata, FIXTURE_MNT "/hashed/ok", 0);
}

TEST_F(integrity, signed_good_runs_with_evm_key)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/good", 0);
}

TEST_F(integrity, signed_badsig_eacces_with_evm_key)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/badsig", EACCES);
}

/* ---- Malformed policies: EINVAL, a log line, the old policy decides. ---- */

TEST_F(integrity, policy_unknown_action_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(SFS "policy", "measure func=BPRM_CHECK\n"
						       "frobnicate func=BPRM_CHECK\n"));
}

TEST_F(integrity, policy_rejection_logged_with_line_and_col)
{
	EXPECT_TRUE(klog_has("integrity: policy rejected: line 2 col 1: ") &&
		    klog_has("previous policy kept"))
		TH_LOG("no 'integrity: policy rejected: line 2 col 1: ... previous policy kept' line");
}

TEST_F(integrity, policy_bad_func_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(SFS "policy", "measure func=NO_SUCH_CHECK\n"));
}

TEST_F(integrity, policy_bad_mask_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(SFS "policy", "measure mask=MAY_FLY\n"));
}

TEST_F(integrity, policy_bad_uid_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(SFS "policy", "appraise fowner=-1x\n"));
}

TEST_F(integrity, policy_imasig_on_measure_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(SFS "policy",
					 "measure func=BPRM_CHECK appraise_type=imasig\n"));
}

/* 65 rules: one more than a policy may have. */
static long write_too_many_rules(void)
{
	static char many[8192];
	int i;

	many[0] = '\0';
	for (i = 0; i < 65; i++)
		strcat(many, "dont_measure func=FIRMWARE_CHECK\n");
	return write_value(SFS "policy", many);
}

TEST_F(integrity, policy_too_many_rules_einval)
{
	EXPECT_ERRNO(EINVAL, write_too_many_rules());
}

TEST_F(integrity, refused_policies_not_loaded)
{
	long loads = status_count("policy_loads");

	write_value(SFS "policy", "measure func=BPRM_CHECK\nfrobnicate func=BPRM_CHECK\n");
	write_value(SFS "policy", "measure func=NO_SUCH_CHECK\n");
	write_value(SFS "policy", "measure mask=MAY_FLY\n");
	write_value(SFS "policy", "appraise fowner=-1x\n");
	write_value(SFS "policy", "measure func=BPRM_CHECK appraise_type=imasig\n");
	write_too_many_rules();
	EXPECT_EQ(loads, status_count("policy_loads"));
}

TEST_F(integrity, old_policy_still_refuses_tampered)
{
	expect_exec(_metadata, FIXTURE_MNT "/hashed/tampered", EACCES);
}

/* A file never seen before, so that no cached result answers. */
TEST_F(integrity, old_policy_still_appraises_new_file)
{
	ASSERT_EQ(0, copy_file(FIXTURE_MNT "/hashed/ok", "/tmp/unhashed") ||
			     chown("/tmp/unhashed", 1000, 1000))
		TH_LOG("copy: %s", strerror(errno));
	expect_exec(_metadata, "/tmp/unhashed", EACCES);
}

/*
 * ---- MMAP_CHECK: an executable mapping is appraised, a readable one is
 * not. MODULE_CHECK: the kernel reads the file; it is measured, then
 * refused. ----
 */

/* test.policy with `rules` before its own. */
static long load_with(const char *rules)
{
	char text[4096];

	snprintf(text, sizeof(text), "%s%s", rules, policy_text);
	return write_value(SFS "policy", text);
}

#define MMAP_AND_MODULE_RULES "measure func=MODULE_CHECK\nappraise func=MMAP_CHECK fowner=1000\n"

TEST_F(integrity, mmap_and_module_policy_loaded)
{
	EXPECT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
}

TEST_F(integrity, mmap_exec_of_hashed_ok_allowed)
{
	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	EXPECT_ERR(0, mmap_errno(FIXTURE_MNT "/hashed/ok", PROT_READ | PROT_EXEC));
}

TEST_F(integrity, mmap_exec_of_nohash_eacces)
{
	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	EXPECT_ERR(EACCES, mmap_errno(FIXTURE_MNT "/hashed/nohash", PROT_READ | PROT_EXEC));
}

TEST_F(integrity, mmap_read_of_nohash_allowed)
{
	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	EXPECT_ERR(0, mmap_errno(FIXTURE_MNT "/hashed/nohash", PROT_READ));
}

/* Made executable later, it was never appraised: refused, as IMA. */
TEST_F(integrity, mprotect_exec_of_appraised_file_eperm)
{
	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	EXPECT_ERR(EPERM, mprotect_errno(FIXTURE_MNT "/hashed/ok"));
}

TEST_F(integrity, mprotect_exec_of_unselected_file_allowed)
{
	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	EXPECT_ERR(0, mprotect_errno(FIXTURE_MNT "/data/m1"));
}

/* A file mapped shared and writable could change after the check. */
TEST_F(integrity, mmap_exec_of_writably_mapped_file_eacces)
{
	int fd;
	void *w;

	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	fd = open(FIXTURE_MNT "/hashed/ok", O_RDWR);
	ASSERT_LE(0, fd)
		TH_LOG(FIXTURE_MNT "/hashed/ok: %s", strerror(errno));
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, w)
		TH_LOG("the writable mapping: %s", strerror(errno));
	EXPECT_ERR(EACCES, mmap_errno(FIXTURE_MNT "/hashed/ok", PROT_READ | PROT_EXEC));
	munmap(w, 4096);
	close(fd);
}

TEST_F(integrity, mmap_exec_allowed_again_after_unmap)
{
	int fd;
	void *w;

	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	fd = open(FIXTURE_MNT "/hashed/ok", O_RDWR);
	ASSERT_LE(0, fd)
		TH_LOG(FIXTURE_MNT "/hashed/ok: %s", strerror(errno));
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, w)
		TH_LOG("the writable mapping: %s", strerror(errno));
	munmap(w, 4096);
	close(fd);
	EXPECT_ERR(0, mmap_errno(FIXTURE_MNT "/hashed/ok", PROT_READ | PROT_EXEC));
}

/* "not a kernel module" in /tmp/notamodule, and its sha256 (busybox's). */
static void not_a_module(struct __test_metadata *_metadata, char *hex)
{
	static const char text[] = "not a kernel module\n";

	ASSERT_EQ(0, put_file("/tmp/notamodule", text, strlen(text), 0644) ||
			     file_sha256("/tmp/notamodule", hex))
		TH_LOG("/tmp/notamodule: %s", strerror(errno));
}

/* finit_module(2) of /tmp/notamodule: its result; errno as it left it. */
static long finit_not_a_module(void)
{
	int fd = open("/tmp/notamodule", O_RDONLY), e;
	long rc;

	if (fd < 0)
		return -1;
	errno = 0;
	rc = syscall(SYS_finit_module, fd, "", 0);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

TEST_F(integrity, finit_module_of_non_module_fails)
{
	char hex[65];
	long rc;

	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	not_a_module(_metadata, hex);
	rc = finit_not_a_module();
	if (rc == -1 && errno == ENOSYS)
		SKIP(return, "no finit_module (CONFIG_MODULES=n)");
	EXPECT_GT(0, rc)
		TH_LOG("finit_module succeeded");
}

TEST_F(integrity, module_read_measured)
{
	char hex[65] = "", digest[65] = "";

	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	not_a_module(_metadata, hex);
	if (finit_not_a_module() == -1 && errno == ENOSYS)
		SKIP(return, "no finit_module (CONFIG_MODULES=n)");
	read_list();
	EXPECT_EQ(1, entries_of("/tmp/notamodule", digest));
	EXPECT_STREQ(hex, digest)
		TH_LOG("the digest of /tmp/notamodule, busybox's first");
}

/*
 * init_module(2) loads from memory: nothing to appraise. Refused when the
 * policy appraises modules; without such a rule it reaches the module
 * loader, which finds no module (ENOEXEC or EINVAL).
 */
static long init_not_a_module(void)
{
	/* Longer than an ELF header: a shorter one is refused before the hook. */
	char image[256];

	memset(image, '#', sizeof(image));
	memcpy(image, "not a kernel module", 19);
	errno = 0;
	return syscall(SYS_init_module, image, sizeof(image), "");
}

TEST_F(integrity, init_module_reaches_loader_without_rule)
{
	long rc;

	ASSERT_ERRNO(0, load_with(MMAP_AND_MODULE_RULES));
	rc = init_not_a_module();
	EXPECT_TRUE(rc < 0 && errno != EACCES)
		TH_LOG("init_module: %s", rc < 0 ? strerror(errno) : "succeeded");
}

#define MODULE_APPRAISE_RULE "appraise func=MODULE_CHECK\n"

TEST_F(integrity, module_appraise_policy_loaded)
{
	EXPECT_ERRNO(0, load_with(MODULE_APPRAISE_RULE));
}

TEST_F(integrity, init_module_refused_when_modules_appraised)
{
	ASSERT_ERRNO(0, load_with(MODULE_APPRAISE_RULE));
	EXPECT_ERRNO(EACCES, init_not_a_module());
}

TEST_F(integrity, module_appraise_policy_removed)
{
	ASSERT_ERRNO(0, load_with(MODULE_APPRAISE_RULE));
	EXPECT_ERRNO(0, write_value(SFS "policy", policy_text));
}

/*
 * ---- A refusal for want of a key is not kept: once cert2 is loaded, the
 * file signed by key 2 runs. ----
 */

TEST_F(integrity, second_certificate_loaded)
{
	char *cert;
	long len = read_cert(_metadata, "cert2.der", &cert);

	EXPECT_ERRNO(0, write_bytes(SFS "keys", cert, len));
	free(cert);
}

TEST_F(integrity, unknown_key_runs_once_its_key_is_loaded)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/unknownkey", 0);
}

TEST_F(integrity, bad_signature_still_refused)
{
	expect_exec(_metadata, FIXTURE_MNT "/signed/badsig", EACCES);
}

/*
 * ---- obj_type=: with mlte in the chain (and its test policy loaded,
 * which mlte_test loads again), a rule selects files by their mlte type:
 * /meta/intact is secret_t; the manifest has no label. ----
 */

/* mlte's test policy, and a rule that measures what is secret_t. */
static void load_obj_type_policies(struct __test_metadata *_metadata)
{
	char *bin = NULL;
	long len = read_whole("/etc/mlte/test.bin", &bin);

	ASSERT_LT(0, len)
		TH_LOG("/etc/mlte/test.bin: %s", strerror(errno));
	ASSERT_EQ(len, write_bytes("/sys/kernel/security/stacker/mlte/policy", bin, len))
		TH_LOG("loading mlte's policy: %s", strerror(errno));
	free(bin);
	ASSERT_ERRNO(0, load_with("measure func=FILE_CHECK mask=MAY_READ obj_type=secret_t\n"));
}

TEST_F(integrity, obj_type_selects_labelled_file)
{
	char chain[256];
	const char *want = manifest_digest(FIXTURE_MNT "/meta/intact");
	char digest[65] = "";

	if (!chain_has("mlte", chain, sizeof(chain)))
		SKIP(return, "mlte is not in this boot's chain");
	load_obj_type_policies(_metadata);
	read_errno(FIXTURE_MNT "/meta/intact");
	read_list();
	EXPECT_EQ(1, entries_of(FIXTURE_MNT "/meta/intact", digest));
	EXPECT_STREQ(want ?: "(none)", digest)
		TH_LOG("the digest of " FIXTURE_MNT "/meta/intact, host's first");
}

TEST_F(integrity, obj_type_skips_other_types)
{
	char chain[256];

	if (!chain_has("mlte", chain, sizeof(chain)))
		SKIP(return, "mlte is not in this boot's chain");
	load_obj_type_policies(_metadata);
	read_errno(FIXTURE_MNT "/MANIFEST.sha256");
	read_list();
	EXPECT_EQ(0, entries_of(FIXTURE_MNT "/MANIFEST.sha256", NULL));
}

/*
 * The fixture disk's /mlte files: mlte reads a label on disk when a lookup
 * first reaches the file (labelled: secret_t, measured), and a label it
 * cannot read (unreadable: its xattr block is corrupted) makes the type
 * unknown, which a measure rule with obj_type= selects: an unreadable
 * label never exempts a file. (Opening it may still be refused: its
 * security.evm cannot be read either.)
 */
TEST_F(integrity, obj_type_reads_disk_labels_and_fails_closed)
{
	static const char labelled[] = FIXTURE_MNT "/mlte/labelled";
	static const char unreadable[] = FIXTURE_MNT "/mlte/unreadable";
	static const char plain[] = FIXTURE_MNT "/mlte/plain";
	char chain[256];

	if (!chain_has("mlte", chain, sizeof(chain)))
		SKIP(return, "mlte is not in this boot's chain");
	load_obj_type_policies(_metadata);
	read_errno(labelled);
	read_errno(unreadable);
	read_errno(plain);
	read_list();
	EXPECT_EQ(1, entries_of(labelled, NULL));
	EXPECT_EQ(1, entries_of(unreadable, NULL))
		TH_LOG("a file whose label cannot be read was not measured");
	EXPECT_EQ(0, entries_of(plain, NULL));
}

/*
 * Stacked with mlte, both keep inode state in the one inode blob: the
 * layout gives each a slot of its own, side by side, with no overlap.
 */
TEST_F(integrity, inode_slots_shared_and_disjoint)
{
	char layout[2048], name[32], kind[16], *line, *save, chain[256];
	long off, size, i_off = -1, i_size = 0, m_off = -1, m_size = 0;

	if (!chain_has("mlte", chain, sizeof(chain)))
		SKIP(return, "mlte is not in this boot's chain");
	ASSERT_ERRNO(0, read_value("/sys/kernel/security/stacker/layout", layout, sizeof(layout)));
	for (line = strtok_r(layout, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31s %15s %ld %ld", name, kind, &off, &size) != 4 ||
		    strcmp(kind, "inode"))
			continue;
		if (!strcmp(name, "integrity")) {
			i_off = off;
			i_size = size;
		} else if (!strcmp(name, "mlte")) {
			m_off = off;
			m_size = size;
		}
	}
	EXPECT_TRUE(i_off >= 0 && m_off >= 0 && i_size >= 16 && m_size > 0 &&
		    (i_off + i_size <= m_off || m_off + m_size <= i_off))
		TH_LOG("integrity inode %ld+%ld, mlte inode %ld+%ld", i_off, i_size, m_off, m_size);
}

/*
 * ---- A firmware read in pieces (request_partial_firmware_into_buf(),
 * through lib/test_firmware.c) is appraised on the whole file. ----
 */

#define TEST_FW "/sys/devices/virtual/misc/test_firmware/"
#define FW_PATH "/sys/module/firmware_class/parameters/path"

/*
 * Whether test_firmware's request threads ("test_firmware-N") have exited,
 * waiting up to 5 s. A thread signals its completion, which ends the
 * trigger's write, and only then clears its request's task field: a
 * release before it exits frees the requests under that store (a write
 * to a vfree()d page, seen in CI on a 2-CPU boot).
 */
static bool firmware_threads_gone(void)
{
	for (int tries = 0; tries < 500; tries++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		bool found = false;

		if (!d)
			return false;
		while (!found && (e = readdir(d))) {
			char path[300], comm[32] = "";

			if (e->d_name[0] < '0' || e->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
			found = !read_value(path, comm, sizeof(comm)) &&
				!strncmp(comm, "test_firmware-", 14);
		}
		closedir(d);
		if (!found)
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * Reads 4 bytes at offset 1 of FIXTURE_MNT/hashed/NAME as firmware, in a
 * read in pieces: what test_firmware's test_result reads (0, or the
 * loader's error; after a refusal the loader goes on to its other
 * directories, so that is ENOENT, not EACCES), or 1000 if test_firmware
 * could not be driven.
 */
static int partial_firmware_read(const char *name)
{
	static const char *const config[][2] = {
		{ "reset", "1" }, { "config_num_requests", "1" }, { "config_into_buf", "1" },
		{ "config_partial", "1" }, { "config_buf_size", "4" },
		{ "config_file_offset", "1" }, { "config_name", NULL },
		{ "trigger_batched_requests", "1" },
	};
	char path[128], result[32] = "";

	if (write_value(FW_PATH, FIXTURE_MNT "/hashed") < 0)
		return 1000;
	for (size_t i = 0; i < ARRAY_SIZE(config); i++) {
		snprintf(path, sizeof(path), TEST_FW "%s", config[i][0]);
		if (write_value(path, config[i][1] ? config[i][1] : name) < 0)
			return 1000;
	}
	if (read_value(TEST_FW "test_result", result, sizeof(result)) ||
	    !firmware_threads_gone())
		return 1000;
	write_value(TEST_FW "release_all_firmware", "1");
	return atoi(result);
}

#define FIRMWARE_APPRAISE_RULE "appraise func=FIRMWARE_CHECK fowner=1000\n"

TEST_F(integrity, partial_firmware_read_appraised_on_the_whole_file)
{
	long denials;

	ASSERT_ERRNO(0, load_with(FIRMWARE_APPRAISE_RULE));
	denials = status_count("appraisal_denials");
	EXPECT_EQ(0, partial_firmware_read("ok"));
	EXPECT_EQ(denials, status_count("appraisal_denials"));
	EXPECT_NE(0, partial_firmware_read("tampered"));
	EXPECT_NE(0, partial_firmware_read("nohash"));
	EXPECT_EQ(denials + 2, status_count("appraisal_denials"))
		TH_LOG("appraisal_denials went from %ld", denials);
	EXPECT_NE(NULL, strstr(klog_read(), "denied FIRMWARE_CHECK of " FIXTURE_MNT "/hashed/tampered"))
		TH_LOG("no log line for the refusal");
	/* Without the rule, the same read is not appraised. */
	ASSERT_ERRNO(0, write_value(SFS "policy", policy_text));
	EXPECT_EQ(0, partial_firmware_read("tampered"));
	EXPECT_EQ(denials + 2, status_count("appraisal_denials"));
}

/* ---- overlayfs copy-up, as EVM's evm_inode_copy_up_xattr(). ---- */

/* security.evm holding a portable signature (type 5; not verified here). */
static const unsigned char evm_portable[] = { 0x05, 2, 4, 1, 2, 3, 4, 0, 1, 9 };

/*
 * The lower files: "hmac" with security.ima (a digest) and an HMAC in
 * security.evm, "portable" with a portable signature in security.evm.
 */
static int fill_evm_lower(const char *lower)
{
	unsigned char ima[34] = { 0x04, 0x04 }, hmac[33] = { 0x02 };
	char path[256];

	snprintf(path, sizeof(path), "%s/hmac", lower);
	if (make_file(path) || setxattr(path, "security.ima", ima, sizeof(ima), 0) ||
	    setxattr(path, "security.evm", hmac, sizeof(hmac), 0))
		return -1;
	snprintf(path, sizeof(path), "%s/portable", lower);
	if (make_file(path))
		return -1;
	return setxattr(path, "security.evm", evm_portable, sizeof(evm_portable), 0);
}

/*
 * A copy-up (a chmod through the overlay) leaves an HMAC in security.evm
 * behind, since it is bound to the lower inode, and copies security.ima;
 * a portable signature, bound to no inode, is copied.
 */
TEST_F(integrity, copy_up_leaves_an_evm_hmac_behind)
{
	unsigned char buf[64];

	ASSERT_ERRNO(0, mount_overlay("/tmp/ov_evm", fill_evm_lower));
	EXPECT_ERRNO(0, chmod("/tmp/ov_evm/merged/hmac", 0600));
	EXPECT_ERRNO(0, chmod("/tmp/ov_evm/merged/portable", 0600));
	EXPECT_ERRNO(ENODATA, getxattr("/tmp/ov_evm/upper/hmac", "security.evm", buf, sizeof(buf)));
	EXPECT_EQ(34, getxattr("/tmp/ov_evm/upper/hmac", "security.ima", buf, sizeof(buf)))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ((ssize_t)sizeof(evm_portable),
		  getxattr("/tmp/ov_evm/upper/portable", "security.evm", buf, sizeof(buf)))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, memcmp(buf, evm_portable, sizeof(evm_portable)));
	/* The lower file keeps its HMAC. */
	EXPECT_EQ(33, getxattr("/tmp/ov_evm/lower/hmac", "security.evm", buf, sizeof(buf)));
	umount_overlay("/tmp/ov_evm");
}

/* ---- Every template hash and the aggregate, recomputed with busybox. ---- */

/* busybox runs once per entry: slow on the debug kernel. */
#define RECOMPUTE_TIMEOUT 300

TEST_F_TIMEOUT(integrity, template_hashes_recomputed, RECOMPUTE_TIMEOUT)
{
	static unsigned char data[1024];
	char hex[65] = "";
	int i;

	read_list();
	EXPECT_LT(5, n_entries);
	for (i = 0; i < n_entries; i++) {
		size_t len = template_data(&entries[i], data);

		ASSERT_EQ(0, busybox_digest("sha1sum", data, len, hex))
			TH_LOG("busybox sha1sum failed");
		EXPECT_STREQ(entries[i].template_hash, hex)
			TH_LOG("entry %d (%s): template hash, busybox sha1sum", i,
			       entries[i].path);
	}
}

TEST_F_TIMEOUT(integrity, aggregate_recomputed, RECOMPUTE_TIMEOUT)
{
	char *list1 = NULL, *list2 = NULL, agg_text[128] = "", hex[65] = "", want[128];
	unsigned char agg[40] = { 0 };
	int i, tries, same = 0;

	/* A list and an aggregate of the same moment: nothing runs between. */
	for (tries = 0; tries < 3 && !same; tries++) {
		free(list1);
		free(list2);
		list1 = list2 = NULL;
		read_whole(LIST, &list1);
		read_value(SFS "aggregate", agg_text, sizeof(agg_text));
		read_whole(LIST, &list2);
		same = list1 && list2 && !strcmp(list1, list2);
	}
	free(list1);
	free(list2);
	ASSERT_TRUE(same)
		TH_LOG("the list kept changing");
	read_list();
	for (i = 0; i < n_entries; i++) {
		hex_to_bytes(entries[i].template_hash, agg + 20, 20);
		ASSERT_EQ(0, busybox_digest("sha1sum", agg, 40, hex))
			TH_LOG("busybox sha1sum failed");
		hex_to_bytes(hex, agg, 20);
	}
	snprintf(want, sizeof(want), "sha1:%s\n", hex);
	EXPECT_STREQ(escaped(want), escaped(agg_text))
		TH_LOG("the aggregate, recomputed first");
}

/* Leave no rules behind for the programs that run after this one. */
static void leave_no_rules(void)
{
	write_value(SFS "policy", "# integrity_test is done\n");
}

int main(int argc, char **argv)
{
	atexit(leave_no_rules);
	return test_harness_run(argc, argv);
}
