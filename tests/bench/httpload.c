// SPDX-License-Identifier: GPL-2.0
/*
 * Loopback HTTP load, as the seed's ApacheBench run: N sequential GET
 * requests to 127.0.0.1:PORT/PATH, each on a new connection; checks every
 * response is "200" and prints the cost per request.
 *
 * Usage: httpload PORT PATH N
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	char req[256], buf[8192], rest[8192];
	long i, n, bytes = 0;
	uint64_t t;

	if (argc != 4)
		return 2;
	a.sin_port = htons(atoi(argv[1]));
	n = atol(argv[3]);
	snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: localhost\r\n\r\n", argv[2]);
	t = now();
	for (i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		ssize_t r, total = 0;

		if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
		    write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
			printf("BENCH-FAIL http_load connect/send: %s\n", strerror(errno));
			return 1;
		}
		/* The status line arrives in the first read on loopback. */
		r = read(fd, buf, sizeof(buf));
		total = r > 0 ? r : 0;
		while ((r = read(fd, rest, sizeof(rest))) > 0)
			total += r;
		close(fd);
		if (total < 12 || strncmp(buf + 9, "200", 3)) {
			printf("BENCH-FAIL http_load response: got %zd bytes\n", total);
			return 1;
		}
		bytes += total;
	}
	printf("BENCH http_load %.1f ns/op\n", (double)(now() - t) / n);
	return 0;
}
