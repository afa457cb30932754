/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal KTAP output for the in-guest test programs.
 *
 * Each program prints a plan ("1..N") and one "ok"/"not ok" line per test,
 * or "ok N name # SKIP reason" for a test that cannot run in this boot (a
 * skip counts in the plan). The boot-test harness (tests/qemu/boottest.py)
 * reads these lines from the guest's serial port; a missing or failed line
 * fails the run, and a skip is reported as a skip, not a pass.
 *
 * ktap_block(reason) makes every later result fail with that reason: for a
 * precondition (stacker initialized) without which the later checks would
 * pass for the wrong reason.
 */
#ifndef STACKER_KTAP_H
#define STACKER_KTAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int ktap_count, ktap_failed, ktap_skipped;
static const char *ktap_blocker;

static inline void ktap_plan(const char *suite, int n)
{
	printf("KTAP version 1\n# suite: %s\n1..%d\n", suite, n);
	fflush(stdout);
}

static inline void ktap_result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	ktap_count++;
	if (ktap_blocker) {
		ktap_failed++;
		printf("not ok %d %s # %s\n", ktap_count, name, ktap_blocker);
		fflush(stdout);
		return;
	}
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

/* A test that cannot run here: "ok N name # SKIP reason" (fails if blocked). */
static inline void ktap_skip(const char *name, const char *reason)
{
	if (ktap_blocker) {
		ktap_result(0, name, NULL);
		return;
	}
	ktap_count++;
	ktap_skipped++;
	printf("ok %d %s # SKIP %s\n", ktap_count, name, reason);
	fflush(stdout);
}

/* From now on every result fails with `reason` (a string that lives on). */
static inline void ktap_block(const char *reason)
{
	ktap_blocker = reason;
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
	printf("# %d passed, %d failed, %d skipped\n",
	       ktap_count - ktap_failed - ktap_skipped, ktap_failed, ktap_skipped);
	fflush(stdout);
	return ktap_failed ? 1 : 0;
}

#endif /* STACKER_KTAP_H */
