// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: capstack, from userspace.
 *
 * Runs behind stacker (stacker.chain=...capstack...) or as its own LSM
 * (lsm=capstack): it uses whichever policy file exists. Every check runs
 * /helpers/capstack_helper (or a copy of it) and looks at the errno it
 * reports; each denial is paired with a control run without the rule,
 * so the denial is known to come from capstack.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define HELPER "/helpers/capstack_helper"

static const char *policy_path;

/* Runs PATH with the given steps; returns its exit status (-1 if killed). */
static int run(const char *path, ...)
{
	const char *argv[16] = { path };
	int n = 1, status;
	va_list ap;
	pid_t pid;

	va_start(ap, path);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		execv(path, (char **)argv);
		_exit(250);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int copy(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	close(out);
	return chmod(to, mode);
}

/* An exit status as text: "success", an errno name, or the code. */
static const char *status_text(int st)
{
	static char buf[64];

	if (st == 0)
		return "success";
	if (st > 0 && st < 200)
		return strerror(st);
	snprintf(buf, sizeof(buf), "helper status %d", st);
	return buf;
}

#define EXPECT_STATUS(name, st, want)                                          \
	do {                                                                   \
		int __st = (st);                                               \
		ktap_result(__st == (want), name, "expected %s, got %s",       \
			    status_text(want), status_text(__st));             \
	} while (0)

int main(void)
{
	char before[4096], after[4096];
	int err;

	policy_path = access("/sys/kernel/security/stacker/capstack/policy", F_OK) == 0 ?
			      "/sys/kernel/security/stacker/capstack/policy" :
			      "/sys/kernel/security/capstack/policy";
	ktap_plan("capstack", 21);
	printf("# policy file: %s\n", policy_path);

	/* Fixtures: a labelled copy of the helper and a setuid-root copy. */
	if (copy(HELPER, "/tmp/websvc", 0755) ||
	    setxattr("/tmp/websvc", "security.capstack", "websvc", 6, 0) ||
	    copy(HELPER, "/tmp/suid", 04755) || make_file("/tmp/chown-target")) {
		printf("# fixture setup failed: %s\n", strerror(errno));
		return 1;
	}

	/* uid rules: ordinary users lose CAP_NET_RAW, root keeps it. */
	EXPECT_OK("load_uid_policy", write_value(policy_path, "deny CAP_NET_RAW uid 1000-60000\n"));
	EXPECT_STATUS("root_raw_socket_allowed", run(HELPER, "rawsock", NULL), 0);
	EXPECT_STATUS("uid1000_raw_socket_eperm", run(HELPER, "user", "1000", "rawsock", NULL), EPERM);
	ktap_result(klog_has("capstack: denied CAP_NET_RAW to pid ") &&
			    klog_has(" (capstack_helper): policy line 1"),
		    "denial_logged_with_rule",
		    "no 'capstack: denied CAP_NET_RAW to pid N (capstack_helper): policy line 1' in the log");
	/* Narrowing survives the exec of a setuid-root binary. */
	EXPECT_STATUS("uid1000_setuid_root_exec_still_eperm",
		      run(HELPER, "user", "1000", "exec", "/tmp/suid", "rawsock", NULL), EPERM);
	EXPECT_OK("clear_policy", write_value(policy_path, ""));
	EXPECT_STATUS("control_uid1000_raw_socket_without_rule",
		      run(HELPER, "user", "1000", "rawsock", NULL), 0);
	EXPECT_STATUS("control_setuid_root_exec_without_rule",
		      run(HELPER, "user", "1000", "exec", "/tmp/suid", "rawsock", NULL), 0);

	/* A labelled binary keeps only its one capability, even as root. */
	EXPECT_OK("load_exec_policy", write_value(policy_path, "only CAP_NET_BIND_SERVICE exec websvc\n"));
	EXPECT_STATUS("websvc_bind80_allowed", run("/tmp/websvc", "bind80", NULL), 0);
	EXPECT_STATUS("websvc_raw_socket_eperm", run("/tmp/websvc", "rawsock", NULL), EPERM);
	EXPECT_STATUS("websvc_chown_eperm", run("/tmp/websvc", "chown", NULL), EPERM);
	EXPECT_STATUS("websvc_capset_cannot_regain", run("/tmp/websvc", "regain", NULL), EPERM);
	EXPECT_STATUS("websvc_then_setuid_root_exec_still_narrowed",
		      run("/tmp/websvc", "exec", "/tmp/suid", "rawsock", NULL), EPERM);
	EXPECT_STATUS("control_unlabelled_root_raw_socket", run(HELPER, "rawsock", NULL), 0);

	/* Permissive mode logs but allows. */
	EXPECT_OK("load_permissive_policy", write_value(policy_path, "mode permissive\ndeny CAP_CHOWN all\n"));
	EXPECT_STATUS("permissive_allows", run(HELPER, "chown", NULL), 0);
	ktap_result(klog_has("would deny (permissive) CAP_CHOWN"), "permissive_logs",
		    "no 'would deny (permissive) CAP_CHOWN' in the log");

	/* A malformed policy is refused, with its line; the old one holds. */
	write_value(policy_path, "deny CAP_CHOWN all\n");
	read_value(policy_path, before, sizeof(before));
	EXPECT_ERRNO("malformed_policy_einval", write_value(policy_path, "deny CAP_NET_RAW all\nfrobnicate\n"), EINVAL);
	read_value(policy_path, after, sizeof(after));
	ktap_result(klog_has("policy rejected: line 2:") && !strcmp(before, after) &&
			    !strcmp(before, "mode enforcing\ndeny CAP_CHOWN all\n") &&
			    run(HELPER, "chown", NULL) == EPERM && run(HELPER, "rawsock", NULL) == 0,
		    "malformed_policy_keeps_old_rules", "before '%s' after '%s'", before, after);

	/* Only CAP_MAC_ADMIN may write the policy. */
	err = write_as_uid1000_errno(policy_path, "deny all all\n");
	ktap_result(err == EPERM, "non_root_writer_eperm", "child saw %s",
		    err < 0 ? "setup failure" : status_text(err));

	write_value(policy_path, "");
	return ktap_exit();
}
