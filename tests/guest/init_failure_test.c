// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: what a failed stacker init leaves behind, from userspace.
 *
 * Run in boots with "stacker.fail_init=" (CONFIG_SECURITY_STACKER_TEST_FAIL_INIT),
 * which makes the check of the kernel structures ("core") or one
 * submodule's init fail on purpose; with "lsm=capstack" and
 * "stacker.fail_init=capstack", capstack's own LSM fails. Then, in the
 * LSM's directory (stacker's, or capstack's own):
 * - /sys/kernel/security/stacker/status says "failed: " and why;
 * - it is the only file in /sys/kernel/security/stacker/: no policy or rule
 *   file that would accept what nothing enforces, and no submodule files
 *   that would touch state that was never initialised;
 * - the boot log says why, and that no hook was registered (there is no
 *   "registered N of M hooks" line).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define SECFS "/sys/kernel/security/"

/* The value of `key=` on the kernel command line ("" if absent). */
static const char *cmdline_value(const char *key)
{
	static char line[4096], value[256];
	char *p, *tok;
	size_t klen = strlen(key);

	read_value("/proc/cmdline", line, sizeof(line));
	value[0] = '\0';
	for (tok = strtok_r(line, " \n", &p); tok; tok = strtok_r(NULL, " \n", &p))
		if (!strncmp(tok, key, klen) && tok[klen] == '=')
			snprintf(value, sizeof(value), "%s", tok + klen + 1);
	return value;
}

int main(void)
{
	char status[256], want[256], files[1024] = "", path[256];
	const char *what = cmdline_value("stacker.fail_init");
	int direct = access(SECFS "stacker", F_OK) != 0;
	const char *dir = direct ? SECFS "capstack/" : SECFS "stacker/";
	const char *lsm = direct ? "capstack" : "stacker";
	struct dirent *de;
	int only_status = 1, n = 0;
	DIR *d;

	ktap_plan("init_failure", 6);
	printf("# %s, stacker.fail_init=%s\n", dir, what);
	if (!*what) {
		ktap_block("no stacker.fail_init= on the command line");
		printf("# this program is for boots with stacker.fail_init=\n");
	}

	snprintf(path, sizeof(path), "%sstatus", dir);
	read_value(path, status, sizeof(status));
	if (!strcmp(what, "core"))
		snprintf(want, sizeof(want), "failed: layout check: ");
	else
		snprintf(want, sizeof(want), "failed: submodule %s init: error -19", what);
	ktap_result(!strncmp(status, want, strlen(want)), "status_says_failed_and_why",
		    "status is '%s', expected it to start with '%s'", status, want);

	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		strncat(files, de->d_name, sizeof(files) - strlen(files) - 2);
		strcat(files, " ");
		if (strcmp(de->d_name, "status"))
			only_status = 0;
	}
	if (d)
		closedir(d);
	ktap_result(d && n == 1 && only_status, "status_is_the_only_file",
		    "the directory holds: %s", files);
	snprintf(path, sizeof(path), "%s%s", dir, direct ? "policy" : "capstack/policy");
	ktap_result(access(path, F_OK) < 0 && errno == ENOENT, "no_policy_file",
		    "%s exists", path);
	if (direct)
		ktap_skip("no_rule_file", "capstack's own LSM has no rule file");
	else
		ktap_result(access(SECFS "stacker/denyname/name", F_OK) < 0 && errno == ENOENT,
			    "no_rule_file", "the denyname rule file exists");
	snprintf(want, sizeof(want), "%s: init failed: ", direct ? "stacker: capstack" : "stacker");
	ktap_result(klog_has(want) && klog_has("no hook registered, nothing is enforced"),
		    "boot_log_says_why_and_that_nothing_is_enforced",
		    "no '%s... nothing is enforced' line", want);
	ktap_result(!klog_has(direct ? "capstack: initialized as its own LSM" : "stacker: registered "),
		    "no_hook_registered", "the boot log says %s registered its hooks", lsm);
	return ktap_exit();
}
