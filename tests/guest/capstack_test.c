// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: capstack, from userspace.
 *
 * Runs behind stacker (stacker.chain=...capstack...) or as its own LSM
 * (lsm=capstack): it uses whichever policy file exists. Every check runs
 * /helpers/capstack_helper (or a copy of it), or a child forked before the
 * policy was loaded, and looks at the errno it reports; each denial is
 * paired with a control run without the rule, so the denial is known to
 * come from capstack.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <linux/securebits.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define HELPER "/helpers/capstack_helper"
#define OVERCOMMIT "/proc/sys/vm/overcommit_memory"

/* The exit status of a child whose execv() failed with errno E (E < 30). */
#define EXEC_FAILED(e) (220 + (e))

/* The helper's "capsets" answers: the capability in CapEff, in CapPrm. */
#define IN_EFF_AND_PRM 103
#define IN_NEITHER 100

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
		_exit(errno > 0 && errno < 30 ? EXEC_FAILED(errno) : 250);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Forks a child that waits, then writes `policy` to the policy file and
 * lets the child run `op()`: so the child's credentials (and capability
 * sets) date from before the policy. Returns the child's exit status (the
 * errno of `op`), or -1 if the test itself failed.
 */
static int forked_before_policy(const char *policy, int (*op)(void))
{
	int go[2], status, loaded;
	char c = 'g';
	pid_t pid;

	if (pipe(go))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1 || c != 'g')
			_exit(251);
		_exit(op());
	}
	close(go[0]);
	if (pid < 0) {
		close(go[1]);
		return -1;
	}
	loaded = write_value(policy_path, policy) >= 0;
	c = loaded ? 'g' : 'x';
	if (write(go[1], &c, 1) != 1)
		loaded = 0;
	close(go[1]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || !loaded)
		return -1;
	return WEXITSTATUS(status);
}

/*
 * A child that became uid/gid 1000 with its capabilities kept
 * (SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP) before `policy` was loaded
 * opens a raw socket after it: its sets still hold CAP_NET_RAW, so only
 * capstack's capable hook can say no (and log it). Returns the errno the
 * child saw (0 for success), or -1 if the test itself failed.
 */
static int uid1000_before_policy_rawsock(const char *policy)
{
	int ready[2], go[2], status, loaded;
	char c = 'g';
	pid_t pid;

	/* No rule yet while the child changes its ids. */
	if (write_value(policy_path, "") < 0 || pipe(ready) || pipe(go))
		return -1;
	pid = fork();
	if (pid == 0) {
		int fd;

		if (prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP) ||
		    setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(252);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1 || c != 'g')
			_exit(251);
		fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
		if (fd < 0)
			_exit(errno);
		close(fd);
		_exit(0);
	}
	if (pid < 0 || read(ready[0], &c, 1) != 1)
		return -1;
	loaded = write_value(policy_path, policy) >= 0;
	c = loaded ? 'g' : 'x';
	if (write(go[1], &c, 1) != 1)
		loaded = 0;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || !loaded)
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

/* Writes a file with `text`, mode 0755; 0 or -1. */
static int make_script(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n = (ssize_t)strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, n) != n) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* An exit status as text: "success", an errno name, or the code. */
static const char *status_text(int st)
{
	static char buf[4][64];
	static int next;
	char *b = buf[next++ % 4];

	if (st == 0)
		return "success";
	if (st == IN_EFF_AND_PRM)
		return "in CapEff and CapPrm";
	if (st == IN_NEITHER)
		return "in neither CapEff nor CapPrm";
	if (st > 100 && st < 104)
		return st == 101 ? "in CapEff only" : "in CapPrm only";
	if (st > 0 && st < 100)
		return strerror(st);
	if (st > EXEC_FAILED(0) && st < EXEC_FAILED(30)) {
		snprintf(b, 64, "exec failed: %s", strerror(st - EXEC_FAILED(0)));
		return b;
	}
	snprintf(b, 64, "helper status %d", st);
	return b;
}

#define EXPECT_STATUS(name, st, want)                                          \
	do {                                                                   \
		int __st = (st);                                               \
		ktap_result(__st == (want), name, "expected %s, got %s",       \
			    status_text(want), status_text(__st));             \
	} while (0)

/* Whether one line of the kernel log contains both `a` and `b`. */
static int klog_line_has(const char *a, const char *b)
{
	const char *p = klog_read(), *end;
	char line[1024];

	for (; *p; p = *end ? end + 1 : end) {
		size_t len;

		end = p + strcspn(p, "\n");
		len = (size_t)(end - p) < sizeof(line) - 1 ? (size_t)(end - p) : sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		if (strstr(line, a) && strstr(line, b))
			return 1;
	}
	return 0;
}

/* The C library's view of page 0, for a forked child. */
static int op_mmap0(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, 4096);
	return 0;
}

/* A number from /proc/meminfo ("CommitLimit:"), in kB; -1 if absent. */
static long meminfo_kb(const char *field)
{
	char line[256];
	long value = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)))
			sscanf(line + strlen(field), "%ld", &value);
	fclose(f);
	return value;
}

static long value_of(const char *path)
{
	char buf[64];

	if (read_value(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * With vm.overcommit_memory=2, maps (without touching) an amount of
 * accountable memory that fits only if the CAP_SYS_ADMIN reserve may be
 * used: the commit limit minus what is committed minus half the reserve.
 * Half the reserve on either side is the margin for what the kernel's
 * counters and this process's own use move meanwhile. 0 or the errno;
 * 209 when the numbers cannot be read or leave no room.
 */
static int op_commit_into_admin_reserve(void)
{
	long limit = meminfo_kb("CommitLimit:");
	long committed = meminfo_kb("Committed_AS:");
	long reserve = value_of("/proc/sys/vm/admin_reserve_kbytes");
	long size_kb = limit - committed - reserve / 2;
	void *p;

	if (limit < 0 || committed < 0 || reserve < 2048 || size_kb < 4096)
		return 209;
	p = mmap(NULL, (size_t)size_kb * 1024, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return errno;
	munmap(p, (size_t)size_kb * 1024);
	return 0;
}

/* The admin-reserve checks, with vm.overcommit_memory=2 around them. */
static void test_admin_reserve(void)
{
	char old[16];

	if (read_value(OVERCOMMIT, old, sizeof(old)) || write_value(OVERCOMMIT, "2") < 0) {
		ktap_skip("control_admin_reserve_without_rule",
			  "no writable " OVERCOMMIT " (CONFIG_PROC_SYSCTL)");
		ktap_skip("forked_admin_reserve_enomem",
			  "no writable " OVERCOMMIT " (CONFIG_PROC_SYSCTL)");
		return;
	}
	EXPECT_STATUS("control_admin_reserve_without_rule",
		      forked_before_policy("", op_commit_into_admin_reserve), 0);
	EXPECT_STATUS("forked_admin_reserve_enomem",
		      forked_before_policy("deny CAP_SYS_ADMIN all\n",
					   op_commit_into_admin_reserve),
		      ENOMEM);
	write_value(policy_path, "");
	write_value(OVERCOMMIT, old);
}

int main(void)
{
	char before[4096], after[4096];
	char long_label[41];
	int err;

	policy_path = access("/sys/kernel/security/stacker/capstack/policy", F_OK) == 0 ?
			      "/sys/kernel/security/stacker/capstack/policy" :
			      "/sys/kernel/security/capstack/policy";
	ktap_plan("capstack", 46);
	printf("# policy file: %s\n", policy_path);

	/*
	 * Fixtures: a labelled copy of the helper, a setuid-root copy, a copy
	 * with a label longer than any label, a labelled "#!" script run by
	 * the helper, and an unlabelled one run by the labelled copy.
	 */
	memset(long_label, 'a', 40);
	long_label[40] = '\0';
	if (copy(HELPER, "/tmp/websvc", 0755) ||
	    setxattr("/tmp/websvc", "security.capstack", "websvc", 6, 0) ||
	    copy(HELPER, "/tmp/suid", 04755) || make_file("/tmp/chown-target") ||
	    copy(HELPER, "/tmp/longlabel", 0755) ||
	    setxattr("/tmp/longlabel", "security.capstack", long_label, 40, 0) ||
	    make_script("/tmp/labelled.sh", "#!" HELPER " script\n") ||
	    setxattr("/tmp/labelled.sh", "security.capstack", "websvc", 6, 0) ||
	    make_script("/tmp/by-websvc.sh", "#!/tmp/websvc script\n")) {
		printf("# fixture setup failed: %s\n", strerror(errno));
		return 1;
	}
	write_value(policy_path, "");

	/* uid rules: ordinary users lose CAP_NET_RAW, root keeps it. */
	EXPECT_OK("load_uid_policy", write_value(policy_path, "deny CAP_NET_RAW uid 1000-60000\n"));
	EXPECT_STATUS("root_raw_socket_allowed", run(HELPER, "rawsock", NULL), 0);
	/*
	 * Becoming uid 1000 under the rule drops CAP_NET_RAW from the kept
	 * sets (task_fix_setuid), so the capability module already says no.
	 */
	EXPECT_STATUS("uid1000_raw_socket_eperm", run(HELPER, "user", "1000", "rawsock", NULL), EPERM);
	/* A uid 1000 process from before the rule still holds the bit: capstack denies. */
	EXPECT_STATUS("uid1000_from_before_rule_raw_socket_eperm",
		      uid1000_before_policy_rawsock("deny CAP_NET_RAW uid 1000-60000\n"), EPERM);
	ktap_result(klog_line_has("capstack: denied CAP_NET_RAW to pid ",
				  " (capstack_test): policy line 1"),
		    "denial_logged_with_rule",
		    "no kernel log line with both 'capstack: denied CAP_NET_RAW to pid ' and "
		    "' (capstack_test): policy line 1'");
	/* Narrowing survives the exec of a setuid-root binary. */
	EXPECT_STATUS("uid1000_setuid_root_exec_still_eperm",
		      run(HELPER, "user", "1000", "exec", "/tmp/suid", "rawsock", NULL), EPERM);
	EXPECT_OK("clear_policy", write_value(policy_path, ""));
	EXPECT_STATUS("control_uid1000_raw_socket_without_rule",
		      run(HELPER, "user", "1000", "rawsock", NULL), 0);
	EXPECT_STATUS("control_setuid_root_exec_without_rule",
		      run(HELPER, "user", "1000", "exec", "/tmp/suid", "rawsock", NULL), 0);

	/* Controls for the labelled binary: without a policy it may do all. */
	EXPECT_STATUS("control_websvc_raw_socket_without_policy", run("/tmp/websvc", "rawsock", NULL), 0);
	EXPECT_STATUS("control_root_chown_without_rule", run(HELPER, "chown", NULL), 0);
	EXPECT_STATUS("control_capset_regain_without_rule", run(HELPER, "regain", NULL), 0);

	/* A labelled binary keeps only its one capability, even as root. */
	EXPECT_OK("load_exec_policy", write_value(policy_path, "only CAP_NET_BIND_SERVICE exec websvc\n"));
	EXPECT_STATUS("websvc_bind80_allowed", run("/tmp/websvc", "bind80", NULL), 0);
	EXPECT_STATUS("websvc_raw_socket_eperm", run("/tmp/websvc", "rawsock", NULL), EPERM);
	EXPECT_STATUS("websvc_chown_eperm", run("/tmp/websvc", "chown", NULL), EPERM);
	EXPECT_STATUS("websvc_capset_cannot_regain", run("/tmp/websvc", "regain", NULL), EPERM);
	EXPECT_STATUS("websvc_then_setuid_root_exec_still_narrowed",
		      run("/tmp/websvc", "exec", "/tmp/suid", "rawsock", NULL), EPERM);
	EXPECT_STATUS("control_unlabelled_root_raw_socket", run(HELPER, "rawsock", NULL), 0);

	/*
	 * "#!" scripts: the script's own label counts (bprm_creds_for_exec
	 * runs once, with the script), not its interpreter's.
	 */
	EXPECT_STATUS("labelled_script_raw_socket_eperm",
		      run("/tmp/labelled.sh", "rawsock", NULL), EPERM);
	EXPECT_STATUS("script_by_labelled_interpreter_raw_socket_allowed",
		      run("/tmp/by-websvc.sh", "rawsock", NULL), 0);

	/*
	 * A label that cannot be read fails closed when there are exec rules:
	 * a 40-byte value is longer than any label (ERANGE).
	 */
	EXPECT_STATUS("unreadable_label_exec_eacces", run("/tmp/longlabel", NULL),
		      EXEC_FAILED(EACCES));
	ktap_result(klog_line_has("capstack: exec of 'longlabel' (inode ",
				  "denied: cannot read security.capstack (error -34)"),
		    "unreadable_label_logged",
		    "no kernel log line naming 'longlabel' and error -34");
	EXPECT_OK("load_policy_without_exec_rules", write_value(policy_path, "deny CAP_NET_RAW uid 1000-60000\n"));
	EXPECT_STATUS("control_unreadable_label_runs_without_exec_rules",
		      run("/tmp/longlabel", NULL), 0);

	/*
	 * A denied capability is denied everywhere: also where the kernel
	 * reads the capability sets instead of asking capable() (mapping
	 * page 0 takes CAP_SYS_RAWIO in cap_mmap_addr), for a freshly
	 * exec'd process (its sets lack it) and for one forked before the
	 * rule (capstack's mmap_addr hook).
	 */
	write_value(policy_path, "");
	EXPECT_STATUS("control_mmap0_without_rule", run(HELPER, "mmap0", NULL), 0);
	EXPECT_STATUS("control_rawio_in_sets_without_rule", run(HELPER, "capsets", "17", NULL),
		      IN_EFF_AND_PRM);
	EXPECT_STATUS("control_forked_mmap0_without_rule", forked_before_policy("", op_mmap0), 0);
	/*
	 * An id change without an exec: setresuid() with the capabilities
	 * kept (SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP) keeps the sets,
	 * but not what a uid rule takes from the new uid.
	 */
	EXPECT_STATUS("control_setuid_keepcaps_keeps_net_raw",
		      run(HELPER, "user", "4242", "capsets", "13", NULL), IN_EFF_AND_PRM);
	write_value(policy_path, "deny CAP_NET_RAW uid 4242\n");
	EXPECT_STATUS("setuid_keepcaps_drops_net_raw_of_new_uid",
		      run(HELPER, "user", "4242", "capsets", "13", NULL), IN_NEITHER);
	write_value(policy_path, "");
	EXPECT_OK("load_rawio_policy", write_value(policy_path, "deny CAP_SYS_RAWIO all\n"));
	EXPECT_STATUS("exec_mmap0_eperm", run(HELPER, "mmap0", NULL), EPERM);
	EXPECT_STATUS("exec_drops_rawio_from_sets", run(HELPER, "capsets", "17", NULL), IN_NEITHER);
	write_value(policy_path, "");
	EXPECT_STATUS("forked_before_rule_mmap0_eperm",
		      forked_before_policy("deny CAP_SYS_RAWIO all\n", op_mmap0), EPERM);
	ktap_result(klog_line_has("capstack: denied CAP_SYS_RAWIO to pid ",
				  " (capstack_test): policy line 1"),
		    "mmap0_denial_logged",
		    "no kernel log line with 'capstack: denied CAP_SYS_RAWIO to pid ' and "
		    "' (capstack_test): policy line 1'");
	/* Permissive mode: logged, allowed, and the sets keep it. */
	EXPECT_OK("load_permissive_rawio_policy",
		  write_value(policy_path, "mode permissive\ndeny CAP_SYS_RAWIO all\n"));
	EXPECT_STATUS("permissive_mmap0_allowed", run(HELPER, "mmap0", NULL), 0);
	EXPECT_STATUS("permissive_keeps_rawio_in_sets", run(HELPER, "capsets", "17", NULL),
		      IN_EFF_AND_PRM);
	write_value(policy_path, "");

	/* The CAP_SYS_ADMIN memory reserve (vm_enough_memory). */
	test_admin_reserve();

	/*
	 * Permissive mode logs but allows. capstack's log lines are rate
	 * limited (printk_ratelimit(): 10 lines per 5 s, shared by the whole
	 * kernel) and the checks above logged several: wait for a new window
	 * so that the line checked below cannot be dropped.
	 */
	sleep(6);
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
