/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark programs (bench.c, appraise.c) share: the clock they
 * time with and how they give up.
 */
#ifndef STACKER_BENCH_UTIL_H
#define STACKER_BENCH_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Nanoseconds of CLOCK_MONOTONIC (guest instructions under -icount). */
static inline uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Reports workload `name` as failed at `what`, with errno, and exits. */
static inline void fail(const char *name, const char *what)
{
	printf("BENCH-FAIL %s %s: %s\n", name, what, strerror(errno));
	fflush(stdout);
	exit(1);
}

#endif /* STACKER_BENCH_UTIL_H */
