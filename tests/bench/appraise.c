// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest benchmark of file measurement and appraisal: what IMA, or the
 * integrity submodule, costs per open and per exec of a file it has
 * already measured and appraised, and what the first measurement of a
 * new version of a file costs per MiB.
 *
 * The files live in DIR (/tmp/appraise, tmpfs), are owned by FOWNER and
 * carry security.ima = 0x04 0x04 <SHA-256 of the contents> (evmctl
 * ima_hash's format), so that the policy `policy` prints selects them and
 * nothing else; every variant gets the same files and xattrs, whether a
 * policy is loaded or not (the baseline has none).
 *
 * Usage:
 *   appraise prepare   create the files (as root, before any policy)
 *   appraise policy    print the measure/appraise policy, which IMA's
 *                      policy file and the integrity submodule's both
 *                      take (tests/bench/setup/appraisal.sh loads it)
 *   appraise [-q]      run the workloads (-q: few iterations); output as
 *                      bench.c's, "BENCH <name> <value> <unit>"
 *
 * Under QEMU with -icount shift=0 the guest clock counts instructions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define DIR "/tmp/appraise"
/* The owner of the bench's files, which the policy's rules name. */
#define FOWNER 4242
#define MIB (1 << 20)

/* What the workloads open: 4 KiB. */
#define READ_FILE DIR "/read"
/* What they execute: a copy of /bench/nop. */
#define EXEC_FILE DIR "/exec"
/* What they rewrite and measure again: 1 MiB and 4 MiB. */
#define M1_FILE DIR "/m1"
#define M4_FILE DIR "/m4"
/* Files whose security.ima is another file's digest (setup's check). */
#define BAD_READ_FILE DIR "/bad-read"
#define BAD_EXEC_FILE DIR "/bad-exec"

static int quick;
static char buf[MIB];


static long iters(long n)
{
	return quick ? (n / 100 > 2 ? n / 100 : 2) : n;
}

/* The byte at offset i of every generated file: not all zero, repeatable. */
static char pattern(long i)
{
	return (char)(i * 31 + (i >> 12));
}

/* Writes `size` bytes of the pattern over `path` (creating it, 0644) from
 * offset 0, in place: the file keeps its inode, and its size if it had it. */
static void write_pattern(const char *name, const char *path, long size)
{
	long off, i, n;
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		fail(name, "open for writing");
	for (off = 0; off < size; off += n) {
		n = size - off < MIB ? size - off : MIB;
		for (i = 0; i < n; i++)
			buf[i] = pattern(off + i);
		if (pwrite(fd, buf, n, off) != n)
			fail(name, "write");
	}
	if (close(fd))
		fail(name, "close");
}

/* Copies `from` to `to`, mode 0755. */
static void copy(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		fail("prepare", "open the file to copy");
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0)
		fail("prepare", "create the copy");
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			fail("prepare", "write the copy");
	if (n < 0 || close(in) || close(out))
		fail("prepare", "copy");
}

/* The SHA-256 of `path`, from busybox sha256sum, into `digest`. */
static void sha256(const char *path, unsigned char digest[32])
{
	char hex[65] = "";
	unsigned int byte;
	int fds[2], status, i;
	ssize_t n = 0, r;
	pid_t pid;

	if (pipe(fds))
		fail("prepare", "pipe");
	pid = fork();
	if (pid < 0)
		fail("prepare", "fork");
	if (pid == 0) {
		dup2(fds[1], 1);
		execl("/bin/busybox", "sha256sum", path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (n < 64 && (r = read(fds[0], hex + n, 64 - n)) > 0)
		n += r;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || status || n != 64)
		fail("prepare", "sha256sum");
	for (i = 0; i < 32; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
			fail("prepare", "sha256sum's output");
		digest[i] = (unsigned char)byte;
	}
}

/* Gives `path` security.ima for the contents of `of` (evmctl ima_hash:
 * IMA_XATTR_DIGEST_NG, HASH_ALGO_SHA256, the digest), and FOWNER. */
static void label(const char *path, const char *of)
{
	unsigned char xattr[2 + 32] = { 0x04, 0x04 };

	sha256(of, xattr + 2);
	if (setxattr(path, "security.ima", xattr, sizeof(xattr), 0))
		fail("prepare", "setxattr security.ima");
	if (chown(path, FOWNER, FOWNER))
		fail("prepare", "chown");
}

static void prepare(void)
{
	if (mkdir(DIR, 0755) && errno != EEXIST)
		fail("prepare", "mkdir " DIR);
	write_pattern("prepare", READ_FILE, 4096);
	copy("/bench/nop", EXEC_FILE);
	write_pattern("prepare", M1_FILE, MIB);
	write_pattern("prepare", M4_FILE, 4 * MIB);
	/* Not READ_FILE's contents: one byte shorter. */
	write_pattern("prepare", BAD_READ_FILE, 4095);
	copy("/bench/nop", BAD_EXEC_FILE);
	label(READ_FILE, READ_FILE);
	label(EXEC_FILE, EXEC_FILE);
	label(M1_FILE, M1_FILE);
	label(M4_FILE, M4_FILE);
	label(BAD_READ_FILE, READ_FILE);
	label(BAD_EXEC_FILE, READ_FILE);
}

/*
 * Measure and appraise what FOWNER's files are opened for reading and
 * executed as: IMA's policy language, which the integrity submodule's
 * mirrors (modules/integrity/rules.rs). IMA's mask= is an exact match of
 * the open's MAY_ bits, the submodule's a subset: the same for the bench's
 * read-only opens and execs. Opens for writing are neither measured nor
 * appraised (the submodule never looks at them; mask=MAY_READ keeps IMA
 * from appraising them too).
 */
static void policy(void)
{
	printf("measure func=FILE_CHECK mask=MAY_READ fowner=%d\n"
	       "appraise func=FILE_CHECK mask=MAY_READ fowner=%d\n"
	       "measure func=BPRM_CHECK mask=MAY_EXEC fowner=%d\n"
	       "appraise func=BPRM_CHECK mask=MAY_EXEC fowner=%d\n",
	       FOWNER, FOWNER, FOWNER, FOWNER);
}

static void report(const char *name, double value, const char *unit)
{
	printf("BENCH %s %.1f %s\n", name, value, unit);
	fflush(stdout);
}

/* open + read 4 KiB + close. */
static void open_read(const char *name, const char *path)
{
	static char page[4096];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail(name, "open");
	if (read(fd, page, sizeof(page)) != sizeof(page))
		fail(name, "read");
	close(fd);
}

/* open + read + close of a file already measured and appraised. */
static void bench_measured_open_read(void)
{
	long i, n = iters(20000);
	uint64_t t;

	open_read("measured_open_read", READ_FILE); /* measured from here on */
	t = now();
	for (i = 0; i < n; i++)
		open_read("measured_open_read", READ_FILE);
	report("measured_open_read", (double)(now() - t) / n, "ns/op");
}

static void fork_exec(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		fail("measured_fork_exec", "fork");
	if (pid == 0) {
		execl(path, "nop", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || status)
		fail("measured_fork_exec", "exec or wait");
}

/* fork + exec of a static binary already measured and appraised (as
 * bench.c's fork_exec, another copy of the same program). */
static void bench_measured_fork_exec(void)
{
	long i, n = iters(150);
	uint64_t t;

	fork_exec(EXEC_FILE);
	t = now();
	for (i = 0; i < n; i++)
		fork_exec(EXEC_FILE);
	report("measured_fork_exec", (double)(now() - t) / n, "ns/op");
}

/* open + close; its instructions. */
static uint64_t timed_open(const char *name, const char *path)
{
	uint64_t t = now();
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail(name, "open");
	close(fd);
	return now() - t;
}

/*
 * The first measurement of a new version: the file is rewritten in place
 * with the same bytes (a new version to the kernel; security.ima still
 * holds), then opened twice. The first open measures and appraises it
 * again, the second finds it measured; their difference, per MiB, is what
 * measuring and appraising costs (without a policy: about 0).
 */
static void bench_first_measure(const char *name, const char *path, long mib)
{
	long i, n = iters(16 / mib > 2 ? 16 / mib : 2);
	int64_t sum = 0;

	for (i = 0; i < n; i++) {
		write_pattern(name, path, mib * MIB);
		sum += (int64_t)timed_open(name, path);
		sum -= (int64_t)timed_open(name, path);
	}
	report(name, (double)sum / n / mib, "ns/MiB");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "prepare")) {
		prepare();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "policy")) {
		policy();
		return 0;
	}
	quick = argc > 1 && !strcmp(argv[1], "-q");
	bench_measured_open_read();
	bench_measured_fork_exec();
	bench_first_measure("first_measure_1m", M1_FILE, 1);
	bench_first_measure("first_measure_4m", M4_FILE, 4);
	return 0;
}
