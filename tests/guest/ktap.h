/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal KTAP output for the in-guest test programs.
 *
 * Each program prints a plan ("1..N") and one "ok"/"not ok" line per test.
 * The boot-test harness (tests/qemu/boottest.py) reads these lines from the
 * serial console; a missing or failed line fails the run.
 */
#ifndef STACKER_KTAP_H
#define STACKER_KTAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int ktap_count, ktap_failed;

static inline void ktap_plan(const char *suite, int n)
{
	printf("KTAP version 1\n# suite: %s\n1..%d\n", suite, n);
	fflush(stdout);
}

static inline void ktap_result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	ktap_count++;
	if (!ok)
		ktap_failed++;
	printf("%sok %d %s", ok ? "" : "not ", ktap_count, name);
	if (!ok && fmt) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
}

/* The result of a call that should succeed: rc >= 0. */
#define EXPECT_OK(name, rc)                                                  \
	do {                                                                 \
		long __rc = (rc);                                            \
		int __e = errno;                                             \
		ktap_result(__rc >= 0, name, "expected success, got %s",    \
			    strerror(__e));                                  \
	} while (0)

/* The result of a call that should fail with errno `err`. */
#define EXPECT_ERRNO(name, rc, err)                                          \
	do {                                                                 \
		long __rc = (rc);                                            \
		int __e = errno;                                             \
		ktap_result(__rc < 0 && __e == (err), name,                  \
			    "expected %s, got %s", strerror(err),            \
			    __rc < 0 ? strerror(__e) : "success");           \
	} while (0)

static inline int ktap_exit(void)
{
	printf("# %d passed, %d failed\n", ktap_count - ktap_failed, ktap_failed);
	fflush(stdout);
	return ktap_failed ? 1 : 0;
}

#endif /* STACKER_KTAP_H */
