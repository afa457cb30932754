// SPDX-License-Identifier: GPL-2.0
/*
 * timeit NAME CMD [ARGS...]: runs CMD once, requires it to succeed, and
 * prints "BENCH NAME <ns> ns/op" (instructions under -icount shift=0).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t t;
	int status;
	pid_t pid;

	if (argc < 3)
		return 2;
	t = now();
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		printf("BENCH-FAIL %s command failed (status %d)\n", argv[1], status);
		return 1;
	}
	printf("BENCH %s %llu ns/op\n", argv[1], (unsigned long long)(now() - t));
	return 0;
}
