// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: after the other programs of a boot, asks kmemleak for a scan
 * (CONFIG_DEBUG_KMEMLEAK, the debug kernel of `make test-debug`) and fails
 * on any unreferenced object whose allocation backtrace is in stacker
 * (stacker_*, its Rust crate, the integrity glue). Leaks elsewhere in the
 * kernel are listed, as comments, not counted. Skipped without kmemleak.
 * The scans of the debug kernel under TCG are slow: the test may take up
 * to SCAN_TIMEOUT seconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "guest_util.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"
#define SCAN_TIMEOUT 600

FIXTURE(kmemleak) {};

FIXTURE_SETUP(kmemleak)
{
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (access(KMEMLEAK, R_OK))
		SKIP(return, "no " KMEMLEAK " (not the debug kernel)");
}

FIXTURE_TEARDOWN(kmemleak)
{
}

TEST_F_TIMEOUT(kmemleak, no_stacker_leaks, SCAN_TIMEOUT)
{
	char *report = NULL, *obj, *next;
	int ours = 0, others = 0;

	/*
	 * kmemleak reports an object only once it is 5 s old (MSECS_MIN_AGE,
	 * mm/kmemleak.c): wait that long, so that what the program just before
	 * leaked (fault_injection_test's last error paths) is seen. Then two
	 * scans: an object is reported once it stayed unreferenced.
	 */
	sleep(6);
	write_value(KMEMLEAK, "scan");
	sleep(1);
	write_value(KMEMLEAK, "scan");
	ASSERT_LE(0, read_whole(KMEMLEAK, &report))
		TH_LOG(KMEMLEAK ": %s", strerror(errno));
	for (obj = strstr(report, "unreferenced object"); obj; obj = next) {
		next = strstr(obj + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		if (strstr(obj, "stacker") || strstr(obj, "integrity") || strstr(obj, "mlte") ||
		    strstr(obj, "capstack")) {
			ours++;
			printf("# %s\n", obj);
		} else {
			others++;
		}
	}
	if (others)
		printf("# %d leak reports outside stacker (not counted)\n", others);
	EXPECT_EQ(0, ours)
		TH_LOG("%d leak reports in stacker (above)", ours);
	free(report);
}

TEST_HARNESS_MAIN
