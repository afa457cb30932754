// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: the integrity submodule (IMA/EVM-style measurement, appraisal
 * and HMAC of security xattrs), from userspace.
 *
 * The fixtures come from the host (scripts/integrity-fixtures.sh): an ext4
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
 *   type, and not a file of another.
 * If integrity is not in the chain, or the fixture disk is not there,
 * every result fails (ktap_block).
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

#include "ktap.h"
#include "guest_util.h"

#define SFS "/sys/kernel/security/stacker/integrity/"
#define LIST SFS "ascii_runtime_measurements"
#define ETC "/etc/integrity/"
#define MNT "/mnt/integrity"
#define DISK "/dev/vda"
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

/* Writes `len` bytes to `path`, creating or emptying it; 0 or -1. */
static int put_file(const char *path, const void *data, size_t len, mode_t mode)
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

	if (read_whole(MNT "/MANIFEST.sha256", &text) < 0)
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

/* ---- The checks. ---- */

static char *policy_text;

static void setup(void)
{
	char chain[256];
	struct stat st;

	read_value("/sys/kernel/security/stacker/chain", chain, sizeof(chain));
	chain[strcspn(chain, "\n")] = '\0';
	errno = 0;
	ktap_result(strstr(chain, "integrity") && stat(SFS "policy", &st) == 0,
		    "integrity_in_chain", "chain is '%s'; " SFS "policy: %s", chain,
		    errno ? strerror(errno) : "not looked for");
	if (!strstr(chain, "integrity"))
		ktap_block("integrity is not in this boot's chain");
	mkdir("/mnt", 0755);
	mkdir(MNT, 0755);
	if (stat(DISK, &st))
		ktap_result(0, "fixture_disk_mounted", DISK " is missing (boottest.py --disk IMG)");
	else
		EXPECT_OK("fixture_disk_mounted", mount(DISK, MNT, "ext4", 0, NULL));
	ktap_result(read_manifest() > 10, "fixture_manifest_read",
		    MNT "/MANIFEST.sha256 gave %d entries", n_manifest);
	if (n_manifest <= 10)
		ktap_block("the fixture disk did not mount or has no manifest");
}

static void caps_and_policy(void)
{
	char *back, want[4096], *line, *save, *copy;
	long len;
	int rc;

	rc = write_without_cap_errno(SFS "policy", "measure\n", 8, CAP_MAC_ADMIN);
	ktap_result(rc == EPERM, "policy_write_without_cap_mac_admin_eperm",
		    "uid 0 without CAP_MAC_ADMIN: %d, expected EPERM", rc);
	rc = write_as_uid1000_errno(SFS "policy", "measure\n");
	ktap_result(rc == EPERM, "policy_write_as_uid1000_eperm", "got %d, expected EPERM", rc);
	rc = write_without_cap_errno(SFS "evm_key", "0123456789abcdef0123456789abcdef", 32,
				     CAP_MAC_ADMIN);
	ktap_result(rc == EPERM, "evm_key_write_without_cap_mac_admin_eperm",
		    "got %d, expected EPERM", rc);
	rc = write_without_cap_errno(SFS "keys", "x", 1, CAP_MAC_ADMIN);
	ktap_result(rc == EPERM, "keys_write_without_cap_mac_admin_eperm",
		    "got %d, expected EPERM", rc);

	len = read_whole(ETC "test.policy", &policy_text);
	ktap_result(len > 0, "policy_file_present", ETC "test.policy: %s", strerror(errno));
	if (len <= 0) {
		free(policy_text);
		policy_text = strdup("");
		len = 0;
	}
	EXPECT_OK("policy_loaded", write_bytes(SFS "policy", policy_text, len));
	/* The read-back: the rules of test.policy, without comments. */
	want[0] = '\0';
	copy = strdup(policy_text);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && line[0] != '\0' &&
		    strlen(want) + strlen(line) + 2 < sizeof(want)) {
			strcat(want, line);
			strcat(want, "\n");
		}
	free(copy);
	back = NULL;
	ktap_result(read_whole(SFS "policy", &back) >= 0 && !strcmp(back, want), "policy_reads_back",
		    "read '%s', expected '%s'", back ? back : "(unreadable)", want);
	free(back);
}

static void bad_keys(void)
{
	char *cert;
	long len = read_whole(ETC "cert1.der", &cert), before = keys_count();
	unsigned char junk[600];
	uint64_t seed = 0x243f6a8885a308d3ull;
	size_t i;
	int e;

	ktap_result(len > 100 && before == 0, "certificate_present_and_no_keys",
		    ETC "cert1.der: %ld bytes; keys %ld", len, before);
	if (len < 0) {
		cert = strdup("");
		len = 0;
	}
	for (i = 0; i < sizeof(junk); i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		junk[i] = (unsigned char)seed;
	}
	errno = 0;
	e = write_bytes(SFS "keys", junk, sizeof(junk)) < 0 ? errno : 0;
	ktap_result(e == EBADMSG || e == EINVAL, "random_key_refused",
		    "expected EBADMSG or EINVAL, got %s", e ? strerror(e) : "success");
	errno = 0;
	e = write_bytes(SFS "keys", cert, len / 2) < 0 ? errno : 0;
	ktap_result(e == EBADMSG || e == EINVAL, "truncated_certificate_refused",
		    "expected EBADMSG or EINVAL, got %s", e ? strerror(e) : "success");
	ktap_result(keys_count() == before, "refused_keys_not_counted", "keys %ld -> %ld",
		    before, keys_count());
	ktap_result(klog_has("integrity: key rejected"), "key_refusal_logged",
		    "no 'integrity: key rejected' line");
	EXPECT_OK("certificate_loaded", write_bytes(SFS "keys", cert, len));
	ktap_result(keys_count() == before + 1 && status_count("keys") == before + 1,
		    "loaded_key_counted", "keys %ld, status keys %ld, expected %ld",
		    keys_count(), status_count("keys"), before + 1);
	free(cert);
}

/* The measurement list, checked against the host's digests. */
static void measurements(void)
{
	char digest[65] = "", m1copy_digest[65] = "", hex[65] = "";
	const char *want;
	long before;
	int fd;

	ktap_result(read_list() > 0 && list_malformed == 0 &&
			    !strcmp(entries[0].path, "boot_aggregate") &&
			    !strcmp(entries[0].digest, "0000000000000000000000000000000000000000"
						       "000000000000000000000000"),
		    "list_starts_with_boot_aggregate",
		    "%d entries, %d malformed lines, first '%s' sha256:%s", n_entries,
		    list_malformed, n_entries ? entries[0].path : "", n_entries ? entries[0].digest : "");

	ktap_result(read_errno(MNT "/data/m1") == 0 && read_list() > 0 &&
			    entries_of(MNT "/data/m1", digest) == 1 &&
			    (want = manifest_digest(MNT "/data/m1")) && !strcmp(digest, want),
		    "read_file_measured_with_host_digest", "entries %d, digest %s, host %s",
		    entries_of(MNT "/data/m1", digest), digest,
		    manifest_digest(MNT "/data/m1") ?: "(none)");
	before = status_count("measurements");
	read_errno(MNT "/data/m1");
	read_list();
	ktap_result(entries_of(MNT "/data/m1", NULL) == 1 && status_count("measurements") == before,
		    "read_twice_measured_once", "%d entries, measurements %ld -> %ld",
		    entries_of(MNT "/data/m1", NULL), before, status_count("measurements"));
	ktap_result(status_count("measurements") == n_entries, "status_counts_the_entries",
		    "status says %ld, the list has %d", status_count("measurements"), n_entries);
	/* Not selected: root owns the manifest; the rule says fowner=1002. */
	read_errno(MNT "/MANIFEST.sha256");
	read_list();
	ktap_result(entries_of(MNT "/MANIFEST.sha256", NULL) == 0, "unselected_file_not_measured",
		    "%d entries", entries_of(MNT "/MANIFEST.sha256", NULL));

	{
		struct stat st;

		ktap_result(stat(LIST, &st) == 0 && (st.st_mode & 0777) == 0440,
			    "list_readable_by_root_only", "mode %o", (unsigned)(st.st_mode & 0777));
	}
	/* The same contents at the same path again: no second entry. */
	if (put_file("/tmp/dedup", "one\n", 4, 0644) || chown("/tmp/dedup", 1002, 1002) ||
	    read_errno("/tmp/dedup") || put_file("/tmp/dedup", "two\n", 4, 0644) ||
	    read_errno("/tmp/dedup") || put_file("/tmp/dedup", "one\n", 4, 0644) ||
	    read_errno("/tmp/dedup")) {
		ktap_result(0, "same_contents_measured_once", "/tmp/dedup: %s", strerror(errno));
	} else {
		read_list();
		ktap_result(entries_of("/tmp/dedup", NULL) == 2, "same_contents_measured_once",
			    "%d entries for one, two, one", entries_of("/tmp/dedup", NULL));
	}
	/* A copy on tmpfs, given to 1002: measured; rewritten: measured again. */
	if (copy_file(MNT "/data/m1", "/tmp/m1copy") || chown("/tmp/m1copy", 1002, 1002)) {
		ktap_result(0, "tmpfs_copy_measured", "copying m1 to /tmp: %s", strerror(errno));
	} else {
		read_errno("/tmp/m1copy");
		read_list();
		ktap_result(entries_of("/tmp/m1copy", m1copy_digest) == 1 &&
				    !strcmp(m1copy_digest, manifest_digest(MNT "/data/m1") ?: ""),
			    "tmpfs_copy_measured", "%d entries, digest %s", entries_of("/tmp/m1copy", NULL),
			    m1copy_digest);
	}
	fd = open("/tmp/m1copy", O_WRONLY | O_APPEND);
	if (fd < 0 || write(fd, "more\n", 5) != 5 || close(fd) || file_sha256("/tmp/m1copy", hex)) {
		ktap_result(0, "tmpfs_rewrite_measured_again", "rewriting /tmp/m1copy: %s",
			    strerror(errno));
	} else {
		read_errno("/tmp/m1copy");
		read_list();
		ktap_result(entries_of("/tmp/m1copy", digest) == 2 && !strcmp(digest, hex),
			    "tmpfs_rewrite_measured_again",
			    "%d entries, last sha256:%s, busybox says %s", entries_of("/tmp/m1copy", NULL),
			    digest, hex);
	}

	/* The same on the ext4 mount (a snapshot: the image never changes). */
	if (put_file(MNT "/data/rw", "first\n", 6, 0644) || chown(MNT "/data/rw", 1002, 1002) ||
	    read_errno(MNT "/data/rw") ||
	    put_file(MNT "/data/rw", "second\n", 7, 0644) || file_sha256(MNT "/data/rw", hex)) {
		ktap_result(0, "ext4_rewrite_measured_again", "writing " MNT "/data/rw: %s",
			    strerror(errno));
	} else {
		read_errno(MNT "/data/rw");
		read_list();
		ktap_result(entries_of(MNT "/data/rw", digest) == 2 && !strcmp(digest, hex),
			    "ext4_rewrite_measured_again", "%d entries, last sha256:%s, busybox says %s",
			    entries_of(MNT "/data/rw", NULL), digest, hex);
	}
	read_errno(MNT "/data/m2");
	read_list();
	ktap_result(entries_of(MNT "/data/m2", digest) == 1 &&
			    !strcmp(digest, manifest_digest(MNT "/data/m2") ?: ""),
		    "second_file_measured_with_host_digest", "%d entries, digest %s",
		    entries_of(MNT "/data/m2", NULL), digest);
}

/* Every template hash and the aggregate, recomputed with busybox sha1sum. */
static void recompute(void)
{
	static unsigned char data[1024];
	char *list1 = NULL, *list2 = NULL, agg_text[128] = "", hex[65] = "";
	unsigned char agg[40] = { 0 };
	int i, bad = -1, tries, same = 0;
	size_t len;

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
	read_list();
	for (i = 0; i < n_entries && bad < 0; i++) {
		len = template_data(&entries[i], data);
		if (busybox_digest("sha1sum", data, len, hex) || strcmp(hex, entries[i].template_hash))
			bad = i;
	}
	ktap_result(n_entries > 5 && bad < 0, "template_hashes_recomputed",
		    "%d entries; entry %d (%s): template hash %s, busybox sha1sum %s", n_entries, bad,
		    bad >= 0 ? entries[bad].path : "", bad >= 0 ? entries[bad].template_hash : "", hex);
	for (i = 0; i < n_entries; i++) {
		hex_to_bytes(entries[i].template_hash, agg + 20, 20);
		if (busybox_digest("sha1sum", agg, 40, hex))
			break;
		hex_to_bytes(hex, agg, 20);
	}
	snprintf((char *)data, sizeof(data), "sha1:%s\n", hex);
	ktap_result(same && i == n_entries && !strcmp(agg_text, (char *)data),
		    "aggregate_recomputed", "aggregate file '%.*s', recomputed '%.*s'%s",
		    (int)strcspn(agg_text, "\n"), agg_text, (int)strcspn((char *)data, "\n"),
		    (char *)data, same ? "" : " (the list kept changing)");
}

/* expect_exec NAME PATH WANT: execve gives `want` (0: runs and exits 0). */
static void expect_exec(const char *name, const char *path, int want)
{
	char out[256];
	int code, e = exec_errno(path, &code, out, sizeof(out));

	if (want == 0)
		ktap_result(e == 0 && code == 0 && strstr(out, "integrity fixture: ran"), name,
			    "execve: %s, exit %d, output '%.*s'", e ? strerror(e) : "ok", code,
			    (int)strcspn(out, "\n"), out);
	else
		ktap_result(e == want, name, "execve: expected %s, got %s (exit %d)",
			    strerror(want), e < 0 ? "test failure" : e ? strerror(e) : "success",
			    code);
}

/* expect_open NAME PATH WANT: opening and reading gives `want`. */
static void expect_open(const char *name, const char *path, int want)
{
	int e = read_errno(path);

	ktap_result(e == want, name, "open: expected %s, got %s", want ? strerror(want) : "success",
		    e ? strerror(e) : "success");
}

/* Appraisal, before the EVM key: what security.ima alone decides. */
static void appraisal(void)
{
	long denials = status_count("appraisal_denials");
	char digest[65] = "";
	const char *want;
	const char *const run[] = { MNT "/hashed/ok", MNT "/hashed/tampered", MNT "/hashed/nohash",
				    MNT "/signed/good", MNT "/signed/hashonly",
				    MNT "/signed/badsig" };
	size_t i;
	int ok = 1;

	expect_exec("hashed_ok_runs", MNT "/hashed/ok", 0);
	expect_exec("hashed_tampered_eacces", MNT "/hashed/tampered", EACCES);
	ktap_result(klog_has("integrity: appraise: denied BPRM_CHECK of " MNT "/hashed/tampered"),
		    "denial_logged_with_path", "no 'appraise: denied BPRM_CHECK of %s' line",
		    MNT "/hashed/tampered");
	expect_exec("hashed_nohash_eacces", MNT "/hashed/nohash", EACCES);
	expect_exec("signed_good_runs", MNT "/signed/good", 0);
	expect_exec("signed_hashonly_eacces", MNT "/signed/hashonly", EACCES);
	expect_exec("signed_badsig_eacces", MNT "/signed/badsig", EACCES);
	expect_exec("signed_unknown_key_eacces", MNT "/signed/unknownkey", EACCES);
	expect_exec("refused_file_stays_refused", MNT "/hashed/tampered", EACCES);
	ktap_result(klog_has("signed/badsig (pid") &&
		    klog_has("the signature in security.ima does not verify"),
		    "bad_signature_reason_logged", "no 'signature ... does not verify' line");
	ktap_result(klog_has("no key is loaded with the key id of the signature"),
		    "missing_key_reason_logged", "no 'no key is loaded with the key id' line");
	/* No MMAP_CHECK rule yet: mapping it executable is not appraised. */
	ktap_result(mmap_errno(MNT "/hashed/nohash", PROT_READ | PROT_EXEC) == 0,
		    "mmap_exec_not_appraised_without_rule", "mmap PROT_EXEC: %s",
		    strerror(mmap_errno(MNT "/hashed/nohash", PROT_READ | PROT_EXEC)));
	ktap_result(status_count("appraisal_denials") >= denials + 6, "appraisal_denials_counted",
		    "appraisal_denials %ld -> %ld, expected at least 6 more", denials,
		    status_count("appraisal_denials"));
	/* Every executed file is measured, refused or not, with the host's digest. */
	read_list();
	for (i = 0; i < sizeof(run) / sizeof(run[0]); i++) {
		want = manifest_digest(run[i]);
		if (entries_of(run[i], digest) != 1 || !want || strcmp(digest, want)) {
			ok = 0;
			break;
		}
	}
	ktap_result(ok, "executed_files_measured_with_host_digests",
		    "%s: %d entries, sha256:%s, host %s", i < 6 ? run[i] : "",
		    i < 6 ? entries_of(run[i], NULL) : 0, digest, i < 6 ? manifest_digest(run[i]) : "");
}

/*
 * A refusal for want of a key is not kept: once cert2 is loaded, the file
 * signed by key 2 runs.
 */
static void key_added_later(void)
{
	char *cert;
	long len = read_whole(ETC "cert2.der", &cert);

	EXPECT_OK("second_certificate_loaded", len > 0 ? write_bytes(SFS "keys", cert, len) : -1);
	expect_exec("unknown_key_runs_once_its_key_is_loaded", MNT "/signed/unknownkey", 0);
	expect_exec("bad_signature_still_refused", MNT "/signed/badsig", EACCES);
	if (len > 0)
		free(cert);
}

/*
 * Concurrent first opens of one file measure it once: CHILDREN processes
 * wait on a pipe, then all read a fresh 4 MiB file (fowner 1002, selected
 * by FILE_CHECK MAY_READ) at once. On one vCPU the race is narrow; the
 * boot that runs this uses several (test.sh).
 */
#define CHILDREN 4
static void concurrent_first_opens(void)
{
	static char block[1 << 16];
	int go[2], fd, i, ok = 1, status;
	pid_t pids[CHILDREN];
	char byte;

	memset(block, 'c', sizeof(block));
	fd = open("/tmp/concurrent", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (i = 0; fd >= 0 && i < 64; i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			ok = 0;
	if (fd < 0 || close(fd) || chown("/tmp/concurrent", 1002, 1002) || pipe(go)) {
		ktap_result(0, "concurrent_opens_measured_once", "setup: %s", strerror(errno));
		return;
	}
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
	for (i = 0; i < CHILDREN; i++)
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			ok = 0;
	read_list();
	ktap_result(ok && entries_of("/tmp/concurrent", NULL) == 1,
		    "concurrent_opens_measured_once", "children ok %d, %d entries for /tmp/concurrent",
		    ok, entries_of("/tmp/concurrent", NULL));
}

/* A malformed security.ima on tmpfs files an appraise rule selects. */
static void malformed_ima(void)
{
	static const unsigned char bad[] = { 0x04, 0x04, 0xab, 0xcd }; /* digest cut short */
	int rc1, rc2;

	rc1 = copy_file(MNT "/hashed/ok", "/tmp/badima") || chown("/tmp/badima", 1000, 1000) ||
	      setxattr("/tmp/badima", "security.ima", bad, sizeof(bad), 0);
	rc2 = put_file("/tmp/badima_data", "data\n", 5, 0644) ||
	      chown("/tmp/badima_data", 1003, 1003) ||
	      setxattr("/tmp/badima_data", "security.ima", bad, sizeof(bad), 0);
	if (rc1 || rc2) {
		ktap_skip("malformed_ima_exec_eacces", "setting the malformed security.ima failed");
		ktap_skip("malformed_ima_open_eacces", "setting the malformed security.ima failed");
		return;
	}
	expect_exec("malformed_ima_exec_eacces", "/tmp/badima", EACCES);
	expect_open("malformed_ima_open_eacces", "/tmp/badima_data", EACCES);
}

/* The EVM HMAC key and what it requires. */
static void evm(void)
{
	char key[64];
	int fd = open(ETC "evm.key", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, key, sizeof(key));
	long denials;

	if (fd >= 0)
		close(fd);
	ktap_result(n == 32, "evm_key_file_present", ETC "evm.key: %zd bytes", n);
	/* Before the key, only security.ima counts: the forged label is not seen. */
	expect_open("meta_forged_opens_before_evm_key", MNT "/meta/forged", 0);
	EXPECT_ERRNO("evm_key_short_einval", write_bytes(SFS "evm_key", key, 31), EINVAL);
	EXPECT_ERRNO("evm_key_long_einval", write_bytes(SFS "evm_key", key, n > 32 ? n : 33),
		     EINVAL);
	EXPECT_OK("evm_key_loaded", write_bytes(SFS "evm_key", key, 32));
	EXPECT_ERRNO("evm_key_second_load_ebusy", write_bytes(SFS "evm_key", key, 32), EBUSY);

	denials = status_count("evm_denials");
	expect_open("meta_intact_opens", MNT "/meta/intact", 0);
	expect_open("meta_forged_label_eacces", MNT "/meta/forged", EACCES);
	expect_open("meta_noevm_eacces", MNT "/meta/noevm", EACCES);
	expect_open("meta_badevm_eacces", MNT "/meta/badevm", EACCES);
	ktap_result(status_count("evm_denials") >= denials + 3, "evm_denials_counted",
		    "evm_denials %ld -> %ld", denials, status_count("evm_denials"));
	ktap_result(klog_has("integrity: appraise: denied FILE_CHECK of " MNT "/meta/forged"),
		    "evm_denial_logged", "no 'denied FILE_CHECK of " MNT "/meta/forged' line");
	/* The appraised executables carry good HMACs: still allowed, still refused. */
	expect_exec("hashed_ok_runs_with_evm_key", MNT "/hashed/ok", 0);
	expect_exec("signed_good_runs_with_evm_key", MNT "/signed/good", 0);
	expect_exec("signed_badsig_eacces_with_evm_key", MNT "/signed/badsig", EACCES);
}

/* Malformed policies: EINVAL, a log line, the old policy still decides. */
static void bad_policies(void)
{
	static char many[8192];
	long loads = status_count("policy_loads");
	int i;

	EXPECT_ERRNO("policy_unknown_action_einval",
		     write_value(SFS "policy", "measure func=BPRM_CHECK\nfrobnicate func=BPRM_CHECK\n"),
		     EINVAL);
	ktap_result(klog_has("integrity: policy rejected: line 2 col 1: ") &&
			    klog_has("previous policy kept"),
		    "policy_rejection_logged_with_line_and_col",
		    "no 'integrity: policy rejected: line 2 col 1: ... previous policy kept' line");
	EXPECT_ERRNO("policy_bad_func_einval", write_value(SFS "policy", "measure func=NO_SUCH_CHECK\n"),
		     EINVAL);
	EXPECT_ERRNO("policy_bad_mask_einval", write_value(SFS "policy", "measure mask=MAY_FLY\n"),
		     EINVAL);
	EXPECT_ERRNO("policy_bad_uid_einval", write_value(SFS "policy", "appraise fowner=-1x\n"),
		     EINVAL);
	EXPECT_ERRNO("policy_imasig_on_measure_einval",
		     write_value(SFS "policy", "measure func=BPRM_CHECK appraise_type=imasig\n"),
		     EINVAL);
	many[0] = '\0';
	for (i = 0; i < 65; i++)
		strcat(many, "dont_measure func=FIRMWARE_CHECK\n");
	EXPECT_ERRNO("policy_too_many_rules_einval", write_value(SFS "policy", many), EINVAL);
	ktap_result(status_count("policy_loads") == loads, "refused_policies_not_loaded",
		    "policy_loads %ld -> %ld", loads, status_count("policy_loads"));
	expect_exec("old_policy_still_refuses_tampered", MNT "/hashed/tampered", EACCES);
	/* A file never seen before, so that no cached result answers. */
	if (copy_file(MNT "/hashed/ok", "/tmp/unhashed") || chown("/tmp/unhashed", 1000, 1000))
		ktap_result(0, "old_policy_still_appraises_new_file", "copy: %s", strerror(errno));
	else
		expect_exec("old_policy_still_appraises_new_file", "/tmp/unhashed", EACCES);
}

/*
 * MMAP_CHECK: an executable mapping is appraised, a readable one is not.
 * MODULE_CHECK: the kernel reads the file; it is measured, then refused.
 */
static void mmap_and_module_check(void)
{
	char text[4096], digest[65] = "", hex[65] = "";
	int fd;
	long rc;

	snprintf(text, sizeof(text),
		 "measure func=MODULE_CHECK\nappraise func=MMAP_CHECK fowner=1000\n%s",
		 policy_text ?: "");
	EXPECT_OK("mmap_and_module_policy_loaded", write_value(SFS "policy", text));
	ktap_result(mmap_errno(MNT "/hashed/ok", PROT_READ | PROT_EXEC) == 0,
		    "mmap_exec_of_hashed_ok_allowed", "mmap PROT_EXEC: %s",
		    strerror(mmap_errno(MNT "/hashed/ok", PROT_READ | PROT_EXEC)));
	ktap_result(mmap_errno(MNT "/hashed/nohash", PROT_READ | PROT_EXEC) == EACCES,
		    "mmap_exec_of_nohash_eacces", "mmap PROT_EXEC: expected EACCES, got %s",
		    strerror(mmap_errno(MNT "/hashed/nohash", PROT_READ | PROT_EXEC)));
	ktap_result(mmap_errno(MNT "/hashed/nohash", PROT_READ) == 0,
		    "mmap_read_of_nohash_allowed", "mmap PROT_READ: %s",
		    strerror(mmap_errno(MNT "/hashed/nohash", PROT_READ)));
	/* Made executable later, it was never appraised: refused, as IMA. */
	ktap_result(mprotect_errno(MNT "/hashed/ok") == EPERM,
		    "mprotect_exec_of_appraised_file_eperm", "mprotect: expected EPERM, got %s",
		    strerror(mprotect_errno(MNT "/hashed/ok")));
	ktap_result(mprotect_errno(MNT "/data/m1") == 0, "mprotect_exec_of_unselected_file_allowed",
		    "mprotect: %s", strerror(mprotect_errno(MNT "/data/m1")));
	/* A file mapped shared and writable could change after the check. */
	{
		int wfd = open(MNT "/hashed/ok", O_RDWR);
		void *w = wfd < 0 ? MAP_FAILED :
			  mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, wfd, 0);

		ktap_result(w != MAP_FAILED &&
			    mmap_errno(MNT "/hashed/ok", PROT_READ | PROT_EXEC) == EACCES,
			    "mmap_exec_of_writably_mapped_file_eacces",
			    "writable mapping %s; mmap PROT_EXEC: %s",
			    w == MAP_FAILED ? strerror(errno) : "made",
			    strerror(mmap_errno(MNT "/hashed/ok", PROT_READ | PROT_EXEC)));
		if (w != MAP_FAILED)
			munmap(w, 4096);
		if (wfd >= 0)
			close(wfd);
		ktap_result(mmap_errno(MNT "/hashed/ok", PROT_READ | PROT_EXEC) == 0,
			    "mmap_exec_allowed_again_after_unmap", "mmap PROT_EXEC: %s",
			    strerror(mmap_errno(MNT "/hashed/ok", PROT_READ | PROT_EXEC)));
	}
	snprintf(text, sizeof(text), "not a kernel module, pid %d\n", getpid());
	if (put_file("/tmp/notamodule", text, strlen(text), 0644) ||
	    file_sha256("/tmp/notamodule", hex) || (fd = open("/tmp/notamodule", O_RDONLY)) < 0) {
		ktap_result(0, "finit_module_of_non_module_fails", "/tmp/notamodule: %s",
			    strerror(errno));
		ktap_result(0, "module_read_measured", "no file");
		return;
	}
	errno = 0;
	rc = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (rc == -1 && errno == ENOSYS) {
		ktap_skip("finit_module_of_non_module_fails", "no finit_module (CONFIG_MODULES=n)");
		ktap_skip("module_read_measured", "no finit_module (CONFIG_MODULES=n)");
		return;
	}
	ktap_result(rc < 0, "finit_module_of_non_module_fails", "finit_module succeeded");
	read_list();
	ktap_result(entries_of("/tmp/notamodule", digest) == 1 && !strcmp(digest, hex),
		    "module_read_measured", "%d entries, sha256:%s, busybox %s",
		    entries_of("/tmp/notamodule", NULL), digest, hex);
	/*
	 * init_module(2) loads from memory: nothing to appraise. Refused when
	 * the policy appraises modules; without such a rule it reaches the
	 * module loader, which finds no module (ENOEXEC or EINVAL).
	 */
	errno = 0;
	rc = syscall(SYS_init_module, text, strlen(text), "");
	ktap_result(rc < 0 && errno != EACCES, "init_module_reaches_loader_without_rule",
		    "init_module: %s", rc < 0 ? strerror(errno) : "succeeded");
	snprintf(text, sizeof(text), "appraise func=MODULE_CHECK\n%s", policy_text ?: "");
	EXPECT_OK("module_appraise_policy_loaded", write_value(SFS "policy", text));
	errno = 0;
	rc = syscall(SYS_init_module, text, strlen(text), "");
	ktap_result(rc < 0 && errno == EACCES, "init_module_refused_when_modules_appraised",
		    "init_module: expected EACCES, got %s", rc < 0 ? strerror(errno) : "success");
	EXPECT_OK("module_appraise_policy_removed", write_value(SFS "policy", policy_text ?: ""));
}

/*
 * obj_type=: with mlte in the chain (and its test policy loaded, which
 * mlte_test loads again), a rule selects files by their mlte type:
 * /meta/intact is secret_t; the manifest has no label.
 */
/*
 * Stacked with mlte, both keep inode state in the one inode blob: the
 * layout gives each a slot of its own, side by side, with no overlap.
 */
static void inode_slots(void)
{
	char layout[2048], name[32], kind[16], *line;
	long off, size, i_off = -1, i_size = 0, m_off = -1, m_size = 0;

	if (read_value("/sys/kernel/security/stacker/layout", layout, sizeof(layout))) {
		ktap_result(0, "inode_slots_shared_and_disjoint", "layout: %s", strerror(errno));
		return;
	}
	for (line = strtok(layout, "\n"); line; line = strtok(NULL, "\n")) {
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
	ktap_result(i_off >= 0 && m_off >= 0 && i_size >= 16 && m_size > 0 &&
		    (i_off + i_size <= m_off || m_off + m_size <= i_off),
		    "inode_slots_shared_and_disjoint",
		    "integrity inode %ld+%ld, mlte inode %ld+%ld", i_off, i_size, m_off, m_size);
}

static void obj_type(void)
{
	char chain[256], text[4096], digest[65] = "", *bin = NULL;
	const char *want = manifest_digest(MNT "/meta/intact");
	long len;

	read_value("/sys/kernel/security/stacker/chain", chain, sizeof(chain));
	if (!strstr(chain, "mlte")) {
		ktap_skip("obj_type_selects_labelled_file", "mlte is not in this boot's chain");
		ktap_skip("obj_type_skips_other_types", "mlte is not in this boot's chain");
		ktap_skip("inode_slots_shared_and_disjoint", "mlte is not in this boot's chain");
		return;
	}
	inode_slots();
	len = read_whole("/etc/mlte/test.bin", &bin);
	snprintf(text, sizeof(text), "measure func=FILE_CHECK mask=MAY_READ obj_type=secret_t\n%s",
		 policy_text ?: "");
	if (len <= 0 || write_bytes("/sys/kernel/security/stacker/mlte/policy", bin, len) != len ||
	    write_value(SFS "policy", text) < 0) {
		ktap_result(0, "obj_type_selects_labelled_file", "loading the policies: %s",
			    strerror(errno));
		ktap_result(0, "obj_type_skips_other_types", "loading the policies: %s",
			    strerror(errno));
		free(bin);
		return;
	}
	free(bin);
	read_errno(MNT "/meta/intact");
	read_errno(MNT "/MANIFEST.sha256");
	read_list();
	ktap_result(entries_of(MNT "/meta/intact", digest) == 1 && want && !strcmp(digest, want),
		    "obj_type_selects_labelled_file", "%d entries, sha256:%s, host %s",
		    entries_of(MNT "/meta/intact", NULL), digest, want ?: "(none)");
	ktap_result(entries_of(MNT "/MANIFEST.sha256", NULL) == 0, "obj_type_skips_other_types",
		    "%d entries", entries_of(MNT "/MANIFEST.sha256", NULL));
}

int main(void)
{
	ktap_plan("integrity", 93);
	check_init_succeeded();
	setup();
	caps_and_policy();
	bad_keys();
	measurements();
	appraisal();
	concurrent_first_opens();
	malformed_ima();
	evm();
	bad_policies();
	mmap_and_module_check();
	key_added_later();
	obj_type();
	recompute();
	/* Leave no rules behind for the programs that run after this one. */
	write_value(SFS "policy", "# integrity_test is done\n");
	free(policy_text);
	return ktap_exit();
}
