// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest benchmark: lmbench-style micro-operations and a few macro
 * workloads, timed with CLOCK_MONOTONIC.
 *
 * Under QEMU with -icount shift=0 the guest clock advances one nanosecond
 * per guest instruction, so every figure here is an instruction count.
 *
 * Output, one line per workload:
 *   BENCH <name> <value> <unit>
 * and, when an operation fails (which would make its figure meaningless):
 *   BENCH-FAIL <name> <what>
 * after which the program exits with 1.
 *
 * Usage: bench [-q]    (-q: quick, few iterations, for the test suite)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

static int quick;


static void report(const char *name, uint64_t ns, uint64_t iters)
{
	printf("BENCH %s %.1f ns/op\n", name, (double)ns / iters);
	fflush(stdout);
}

static long iters(long n)
{
	return quick ? (n / 100 > 10 ? n / 100 : 10) : n;
}

static void bench_null(void)
{
	long i, n = iters(50000);
	uint64_t t = now();

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	report("null_syscall", now() - t, n);
}

/*
 * Whether the timer tick has run since *last (CLOCK_MONOTONIC_COARSE only
 * moves at ticks); updates *last.
 */
static int ticked(struct timespec *last)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	if (ts.tv_sec == last->tv_sec && ts.tv_nsec == last->tv_nsec)
		return 0;
	*last = ts;
	return 1;
}

static void setuid_or_fail(void)
{
	if (setuid(0))
		fail("setuid", "setuid(0)");
}

/*
 * setuid(0) as root: a capability check (capable(CAP_SETUID)) and a new
 * set of credentials (cred_prepare, cred_free) per call, the hooks capstack
 * implements.
 *
 * The old creds are freed by RCU callbacks that the timer tick runs, in
 * batches, so a window that starts or ends at another point between two
 * ticks holds more or fewer of those frees: the figure moved by up to 6%
 * with the tick's phase alone. So the window is whole tick periods: it
 * starts just after a tick, after one period of setuid calls whose frees
 * the first tick inside runs (as the calls of the last period are freed
 * after it), and ends at the first tick after n calls (seen within 16
 * calls).
 */
static void bench_setuid(void)
{
	long i, j, n = iters(20000);
	struct timespec last = { 0 };
	uint64_t t;

	ticked(&last);
	while (!ticked(&last))
		;
	while (!ticked(&last))
		setuid_or_fail();
	t = now();
	for (i = 0; i < n; i++)
		setuid_or_fail();
	/* To the next tick, looking at the clock every 16 calls only. */
	ticked(&last);
	while (!ticked(&last))
		for (j = 0; j < 16; j++, i++)
			setuid_or_fail();
	report("setuid", now() - t, i);
}

static void bench_stat(void)
{
	long i, n = iters(20000);
	struct stat st;
	uint64_t t;

	if (close(open("/tmp/bench-stat", O_CREAT | O_WRONLY, 0644)))
		fail("stat", "create");
	t = now();
	for (i = 0; i < n; i++)
		if (stat("/tmp/bench-stat", &st))
			fail("stat", "stat");
	report("stat", now() - t, n);
}

static void bench_open_close(void)
{
	long i, n = iters(20000);
	uint64_t t = now();
	int fd;

	for (i = 0; i < n; i++) {
		fd = open("/tmp/bench-stat", O_RDONLY);
		if (fd < 0)
			fail("open_close", "open");
		close(fd);
	}
	report("open_close", now() - t, n);
}

static void bench_create_delete(void)
{
	long i, n = iters(5000);
	uint64_t t = now();
	int fd;

	for (i = 0; i < n; i++) {
		fd = open("/tmp/bench-create", O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			fail("create_delete", "create");
		close(fd);
		if (unlink("/tmp/bench-create"))
			fail("create_delete", "unlink");
	}
	report("create_delete", now() - t, n);
}

static void bench_unix_socket(void)
{
	long i, n = iters(10000);
	uint64_t t = now();
	int fd;

	for (i = 0; i < n; i++) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			fail("unix_socket", "socket");
		close(fd);
	}
	report("unix_socket", now() - t, n);
}

static void bench_fork_exit(void)
{
	long i, n = iters(300);
	uint64_t t = now();
	int status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork_exit", "fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || status)
			fail("fork_exit", "wait");
	}
	report("fork_exit", now() - t, n);
}

static void bench_fork_exec(void)
{
	long i, n = iters(150);
	uint64_t t = now();
	int status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork_exec", "fork");
		if (pid == 0) {
			execl("/bench/nop", "nop", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || status)
			fail("fork_exec", "exec or wait");
	}
	report("fork_exec", now() - t, n);
}

static void bench_pipe_roundtrip(void)
{
	long i, n = iters(5000);
	int to_child[2], to_parent[2], status;
	char c = 'x';
	uint64_t t;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent))
		fail("pipe_roundtrip", "pipe");
	pid = fork();
	if (pid < 0)
		fail("pipe_roundtrip", "fork");
	if (pid == 0) {
		for (i = 0; i < n; i++)
			if (read(to_child[0], &c, 1) != 1 || write(to_parent[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	t = now();
	for (i = 0; i < n; i++)
		if (write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1)
			fail("pipe_roundtrip", "read/write");
	report("pipe_roundtrip", now() - t, n);
	waitpid(pid, &status, 0);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

/* Streams `total` bytes from a child to the parent over fd pair `s`. */
static void stream(const char *name, int rd, int wr, long total)
{
	static char buf[65536];
	long got = 0;
	int status;
	ssize_t r;
	uint64_t t;
	pid_t pid = fork();

	if (pid < 0)
		fail(name, "fork");
	if (pid == 0) {
		long sent = 0;

		close(rd);
		while (sent < total) {
			r = write(wr, buf, sizeof(buf));
			if (r <= 0)
				_exit(1);
			sent += r;
		}
		_exit(0);
	}
	close(wr);
	t = now();
	while (got < total) {
		r = read(rd, buf, sizeof(buf));
		if (r <= 0)
			fail(name, "read");
		got += r;
	}
	/* Bandwidth as instructions (ns) per KiB moved. */
	report(name, now() - t, got / 1024);
	waitpid(pid, &status, 0);
	close(rd);
}

static void bench_unix_bandwidth(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		fail("unix_bandwidth", "socketpair");
	stream("unix_bandwidth", sv[0], sv[1], quick ? 1 << 20 : 16 << 20);
}

static void bench_tcp_bandwidth(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0), c, s;

	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		fail("tcp_bandwidth", "listen");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)))
		fail("tcp_bandwidth", "connect");
	s = accept(l, NULL, NULL);
	if (s < 0)
		fail("tcp_bandwidth", "accept");
	close(l);
	stream("tcp_bandwidth", s, c, quick ? 1 << 20 : 16 << 20);
}

int main(int argc, char **argv)
{
	quick = argc > 1 && !strcmp(argv[1], "-q");
	bench_null();
	bench_setuid();
	bench_stat();
	bench_open_close();
	bench_create_delete();
	bench_unix_socket();
	bench_fork_exit();
	bench_fork_exec();
	bench_pipe_roundtrip();
	bench_unix_bandwidth();
	bench_tcp_bandwidth();
	return 0;
}
