// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: after the other programs of a boot, asks kmemleak for a scan
 * (CONFIG_DEBUG_KMEMLEAK, the debug kernel of `make test-debug`) and fails
 * on any unreferenced object whose allocation backtrace is in stacker
 * (stacker_*, its Rust crate, the integrity glue). Leaks elsewhere in the
 * kernel are listed, as comments, not counted. Skipped without kmemleak.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

int main(void)
{
	char *report = NULL, *obj, *next;
	long len;
	int ours = 0, others = 0;

	ktap_plan("kmemleak_check", 1);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (access(KMEMLEAK, R_OK)) {
		ktap_skip("no_stacker_leaks", "no " KMEMLEAK " (not the debug kernel)");
		return ktap_exit();
	}
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
	len = read_whole(KMEMLEAK, &report);
	if (len < 0) {
		ktap_result(0, "no_stacker_leaks", KMEMLEAK ": %s", strerror(errno));
		return ktap_exit();
	}
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
	ktap_result(ours == 0, "no_stacker_leaks", "%d leak reports in stacker (above)", ours);
	free(report);
	return ktap_exit();
}
