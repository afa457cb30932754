// SPDX-License-Identifier: GPL-2.0
/*
 * One workload of bench.c, for a profile boot (scripts/profile.sh): ten
 * untimed rounds, then N rounds between two marker system calls, sync()
 * before and fdatasync(-1) after, where the TCG profiler
 * (tests/bench/tcg/profile_plugin.c) starts and stops counting.
 *
 * Usage: profile WORKLOAD N   (create_delete, unix_socket, stat,
 *                              open_close, fork_exec)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* One round of @op; 0 on success. */
static int round_of(const char *op)
{
	struct stat st;
	int fd, status;
	pid_t pid;

	if (!strcmp(op, "create_delete")) {
		fd = open("/tmp/bench-create", O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			return -1;
		close(fd);
		return unlink("/tmp/bench-create");
	}
	if (!strcmp(op, "unix_socket")) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		return close(fd);
	}
	if (!strcmp(op, "stat"))
		return stat("/bench/run.sh", &st);
	if (!strcmp(op, "open_close")) {
		fd = open("/bench/run.sh", O_RDONLY);
		if (fd < 0)
			return -1;
		return close(fd);
	}
	if (!strcmp(op, "fork_exec")) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0) {
			execl("/bench/nop", "nop", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || status)
			return -1;
		return 0;
	}
	fprintf(stderr, "profile: no workload %s\n", op);
	exit(2);
}

int main(int argc, char **argv)
{
	long i, n;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: profile WORKLOAD N\n");
		return 2;
	}
	for (i = 0; i < 10; i++)
		if (round_of(argv[1])) {
			perror(argv[1]);
			return 1;
		}
	sync();
	for (i = 0; i < n; i++)
		if (round_of(argv[1])) {
			perror(argv[1]);
			return 1;
		}
	fdatasync(-1);
	printf("PROFILE-DONE %s %ld\n", argv[1], n);
	return 0;
}
