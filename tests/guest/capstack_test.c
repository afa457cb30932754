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
 *
 * Each test starts and ends with an empty policy (the fixture's setup and
 * teardown), loads the one it checks, and runs its control in the same
 * boot: the controls are tests of their own ("control_*").
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

/*
 * EXPECT_STATUS(want, call): the exit status of `call` (run() and the
 * like) is `want`; a failure shows both as text.
 */
#define EXPECT_STATUS(want, call)                                             \
	do {                                                                  \
		int __st;                                                     \
		EXPECT_EQ(want, __st = (call))                                \
			TH_LOG("expected %s, got %s", status_text(want),      \
			       status_text(__st));                            \
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

/*
 * The fixture files: a labelled copy of the helper, a setuid-root copy,
 * a copy with a label longer than any label, a labelled "#!" script run
 * by the helper, and an unlabelled one run by the labelled copy. Each
 * test starts with an empty policy, and leaves one.
 */
FIXTURE(capstack)
{
	char old_overcommit[16];	/* to restore, if a test changed it */
};

FIXTURE_SETUP(capstack)
{
	char long_label[41];

	policy_path = access("/sys/kernel/security/stacker/capstack/policy", F_OK) == 0 ?
			      "/sys/kernel/security/stacker/capstack/policy" :
			      "/sys/kernel/security/capstack/policy";
	memset(long_label, 'a', 40);
	long_label[40] = '\0';
	ASSERT_EQ(0, copy(HELPER, "/tmp/websvc", 0755) ||
			     setxattr("/tmp/websvc", "security.capstack", "websvc", 6, 0) ||
			     copy(HELPER, "/tmp/suid", 04755) || make_file("/tmp/chown-target") ||
			     copy(HELPER, "/tmp/longlabel", 0755) ||
			     setxattr("/tmp/longlabel", "security.capstack", long_label, 40, 0) ||
			     make_script("/tmp/labelled.sh", "#!" HELPER " script\n") ||
			     setxattr("/tmp/labelled.sh", "security.capstack", "websvc", 6, 0) ||
			     make_script("/tmp/by-websvc.sh", "#!/tmp/websvc script\n"))
		TH_LOG("fixture setup failed: %s", strerror(errno));
	ASSERT_ERRNO(0, write_value(policy_path, ""))
		TH_LOG("emptying %s", policy_path);
}

FIXTURE_TEARDOWN(capstack)
{
	write_value(policy_path, "");
	if (self->old_overcommit[0])
		write_value(OVERCOMMIT, self->old_overcommit);
}

/* Loads `policy`, which the test needs. */
#define ASSERT_LOADED(policy) ASSERT_ERRNO(0, write_value(policy_path, policy))

#define UID_RULE "deny CAP_NET_RAW uid 1000-60000\n"

/* uid rules: ordinary users lose CAP_NET_RAW, root keeps it. */
TEST_F(capstack, load_uid_policy)
{
	TH_LOG("policy file: %s", policy_path);
	EXPECT_ERRNO(0, write_value(policy_path, UID_RULE));
}

TEST_F(capstack, root_raw_socket_allowed)
{
	ASSERT_LOADED(UID_RULE);
	EXPECT_STATUS(0, run(HELPER, "rawsock", NULL));
}

/*
 * Becoming uid 1000 under the rule drops CAP_NET_RAW from the kept sets
 * (task_fix_setuid), so the capability module already says no.
 */
TEST_F(capstack, uid1000_raw_socket_eperm)
{
	ASSERT_LOADED(UID_RULE);
	EXPECT_STATUS(EPERM, run(HELPER, "user", "1000", "rawsock", NULL));
}

/* A uid 1000 process from before the rule still holds the bit: capstack denies. */
TEST_F(capstack, uid1000_from_before_rule_raw_socket_eperm)
{
	EXPECT_STATUS(EPERM, uid1000_before_policy_rawsock(UID_RULE));
}

TEST_F(capstack, denial_logged_with_rule)
{
	uid1000_before_policy_rawsock(UID_RULE);
	EXPECT_TRUE(klog_line_has("capstack: denied CAP_NET_RAW to pid ",
				  " (capstack_test): policy line 1"))
		TH_LOG("no kernel log line with both 'capstack: denied CAP_NET_RAW to pid ' "
		       "and ' (capstack_test): policy line 1'");
}

/* Narrowing survives the exec of a setuid-root binary. */
TEST_F(capstack, uid1000_setuid_root_exec_still_eperm)
{
	ASSERT_LOADED(UID_RULE);
	EXPECT_STATUS(EPERM, run(HELPER, "user", "1000", "exec", "/tmp/suid", "rawsock", NULL));
}

TEST_F(capstack, clear_policy)
{
	ASSERT_LOADED(UID_RULE);
	EXPECT_ERRNO(0, write_value(policy_path, ""));
}

TEST_F(capstack, control_uid1000_raw_socket_without_rule)
{
	EXPECT_STATUS(0, run(HELPER, "user", "1000", "rawsock", NULL));
}

TEST_F(capstack, control_setuid_root_exec_without_rule)
{
	EXPECT_STATUS(0, run(HELPER, "user", "1000", "exec", "/tmp/suid", "rawsock", NULL));
}

/* Controls for the labelled binary: without a policy it may do all. */
TEST_F(capstack, control_websvc_raw_socket_without_policy)
{
	EXPECT_STATUS(0, run("/tmp/websvc", "rawsock", NULL));
}

TEST_F(capstack, control_root_chown_without_rule)
{
	EXPECT_STATUS(0, run(HELPER, "chown", NULL));
}

TEST_F(capstack, control_capset_regain_without_rule)
{
	EXPECT_STATUS(0, run(HELPER, "regain", NULL));
}

/* A labelled binary keeps only its one capability, even as root. */
#define EXEC_RULE "only CAP_NET_BIND_SERVICE exec websvc\n"

TEST_F(capstack, load_exec_policy)
{
	EXPECT_ERRNO(0, write_value(policy_path, EXEC_RULE));
}

TEST_F(capstack, websvc_bind80_allowed)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(0, run("/tmp/websvc", "bind80", NULL));
}

TEST_F(capstack, websvc_raw_socket_eperm)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(EPERM, run("/tmp/websvc", "rawsock", NULL));
}

TEST_F(capstack, websvc_chown_eperm)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(EPERM, run("/tmp/websvc", "chown", NULL));
}

TEST_F(capstack, websvc_capset_cannot_regain)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(EPERM, run("/tmp/websvc", "regain", NULL));
}

TEST_F(capstack, websvc_then_setuid_root_exec_still_narrowed)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(EPERM, run("/tmp/websvc", "exec", "/tmp/suid", "rawsock", NULL));
}

TEST_F(capstack, control_unlabelled_root_raw_socket)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(0, run(HELPER, "rawsock", NULL));
}

/*
 * "#!" scripts: the script's own label counts (bprm_creds_for_exec runs
 * once, with the script), not its interpreter's.
 */
TEST_F(capstack, labelled_script_raw_socket_eperm)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(EPERM, run("/tmp/labelled.sh", "rawsock", NULL));
}

TEST_F(capstack, script_by_labelled_interpreter_raw_socket_allowed)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(0, run("/tmp/by-websvc.sh", "rawsock", NULL));
}

/*
 * A label that cannot be read fails closed when there are exec rules: a
 * 40-byte value is longer than any label (ERANGE).
 */
TEST_F(capstack, unreadable_label_exec_eacces)
{
	ASSERT_LOADED(EXEC_RULE);
	EXPECT_STATUS(EXEC_FAILED(EACCES), run("/tmp/longlabel", NULL));
}

TEST_F(capstack, unreadable_label_logged)
{
	ASSERT_LOADED(EXEC_RULE);
	run("/tmp/longlabel", NULL);
	if (!klog_line_has("capstack: exec of 'longlabel' (inode ",
			   "denied: cannot read security.capstack (error -34)")) {
		/*
		 * The line goes through printk_ratelimit() (10 lines per
		 * 5 s, kernel-wide), which this program's earlier denials
		 * may have used up ("stacker: N callbacks suppressed"):
		 * once more in a new window.
		 */
		sleep(6);
		run("/tmp/longlabel", NULL);
	}
	EXPECT_TRUE(klog_line_has("capstack: exec of 'longlabel' (inode ",
				  "denied: cannot read security.capstack (error -34)"))
		TH_LOG("no kernel log line naming 'longlabel' and error -34");
}

TEST_F(capstack, load_policy_without_exec_rules)
{
	EXPECT_ERRNO(0, write_value(policy_path, UID_RULE));
}

TEST_F(capstack, control_unreadable_label_runs_without_exec_rules)
{
	ASSERT_LOADED(UID_RULE);
	EXPECT_STATUS(0, run("/tmp/longlabel", NULL));
}

/*
 * A denied capability is denied everywhere: also where the kernel reads
 * the capability sets instead of asking capable() (mapping page 0 takes
 * CAP_SYS_RAWIO in cap_mmap_addr), for a freshly exec'd process (its sets
 * lack it) and for one forked before the rule (capstack's mmap_addr hook).
 */
#define RAWIO_RULE "deny CAP_SYS_RAWIO all\n"

TEST_F(capstack, control_mmap0_without_rule)
{
	EXPECT_STATUS(0, run(HELPER, "mmap0", NULL));
}

TEST_F(capstack, control_rawio_in_sets_without_rule)
{
	EXPECT_STATUS(IN_EFF_AND_PRM, run(HELPER, "capsets", "17", NULL));
}

TEST_F(capstack, control_forked_mmap0_without_rule)
{
	EXPECT_STATUS(0, forked_before_policy("", op_mmap0));
}

/*
 * An id change without an exec: setresuid() with the capabilities kept
 * (SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP) keeps the sets, but not
 * what a uid rule takes from the new uid.
 */
TEST_F(capstack, control_setuid_keepcaps_keeps_net_raw)
{
	EXPECT_STATUS(IN_EFF_AND_PRM, run(HELPER, "user", "4242", "capsets", "13", NULL));
}

TEST_F(capstack, setuid_keepcaps_drops_net_raw_of_new_uid)
{
	ASSERT_LOADED("deny CAP_NET_RAW uid 4242\n");
	EXPECT_STATUS(IN_NEITHER, run(HELPER, "user", "4242", "capsets", "13", NULL));
}

TEST_F(capstack, load_rawio_policy)
{
	EXPECT_ERRNO(0, write_value(policy_path, RAWIO_RULE));
}

TEST_F(capstack, exec_mmap0_eperm)
{
	ASSERT_LOADED(RAWIO_RULE);
	EXPECT_STATUS(EPERM, run(HELPER, "mmap0", NULL));
}

TEST_F(capstack, exec_drops_rawio_from_sets)
{
	ASSERT_LOADED(RAWIO_RULE);
	EXPECT_STATUS(IN_NEITHER, run(HELPER, "capsets", "17", NULL));
}

TEST_F(capstack, forked_before_rule_mmap0_eperm)
{
	EXPECT_STATUS(EPERM, forked_before_policy(RAWIO_RULE, op_mmap0));
}

TEST_F(capstack, mmap0_denial_logged)
{
	forked_before_policy(RAWIO_RULE, op_mmap0);
	EXPECT_TRUE(klog_line_has("capstack: denied CAP_SYS_RAWIO to pid ",
				  " (capstack_test): policy line 1"))
		TH_LOG("no kernel log line with 'capstack: denied CAP_SYS_RAWIO to pid ' and "
		       "' (capstack_test): policy line 1'");
}

/* Permissive mode: logged, allowed, and the sets keep it. */
#define PERMISSIVE_RAWIO_RULE "mode permissive\ndeny CAP_SYS_RAWIO all\n"

TEST_F(capstack, load_permissive_rawio_policy)
{
	EXPECT_ERRNO(0, write_value(policy_path, PERMISSIVE_RAWIO_RULE));
}

TEST_F(capstack, permissive_mmap0_allowed)
{
	ASSERT_LOADED(PERMISSIVE_RAWIO_RULE);
	EXPECT_STATUS(0, run(HELPER, "mmap0", NULL));
}

TEST_F(capstack, permissive_keeps_rawio_in_sets)
{
	ASSERT_LOADED(PERMISSIVE_RAWIO_RULE);
	EXPECT_STATUS(IN_EFF_AND_PRM, run(HELPER, "capsets", "17", NULL));
}

/*
 * The CAP_SYS_ADMIN memory reserve (vm_enough_memory), with
 * vm.overcommit_memory=2 (the fixture restores the old value).
 */
static int strict_overcommit(FIXTURE_DATA(capstack) *self)
{
	char old[16];

	if (read_value(OVERCOMMIT, old, sizeof(old)) || write_value(OVERCOMMIT, "2") < 0)
		return 0;
	snprintf(self->old_overcommit, sizeof(self->old_overcommit), "%s", old);
	return 1;
}

TEST_F(capstack, control_admin_reserve_without_rule)
{
	if (!strict_overcommit(self))
		SKIP(return, "no writable " OVERCOMMIT " (CONFIG_PROC_SYSCTL)");
	EXPECT_STATUS(0, forked_before_policy("", op_commit_into_admin_reserve));
}

TEST_F(capstack, forked_admin_reserve_enomem)
{
	if (!strict_overcommit(self))
		SKIP(return, "no writable " OVERCOMMIT " (CONFIG_PROC_SYSCTL)");
	EXPECT_STATUS(ENOMEM, forked_before_policy("deny CAP_SYS_ADMIN all\n",
						   op_commit_into_admin_reserve));
}

/* Permissive mode logs but allows. */
#define PERMISSIVE_RULE "mode permissive\ndeny CAP_CHOWN all\n"

TEST_F(capstack, load_permissive_policy)
{
	EXPECT_ERRNO(0, write_value(policy_path, PERMISSIVE_RULE));
}

TEST_F(capstack, permissive_allows)
{
	ASSERT_LOADED(PERMISSIVE_RULE);
	EXPECT_STATUS(0, run(HELPER, "chown", NULL));
}

/*
 * capstack's log lines are rate limited (printk_ratelimit(): 10 lines per
 * 5 s, shared by the whole kernel) and the tests before logged several:
 * wait for a new window so that the line checked cannot be dropped.
 */
TEST_F(capstack, permissive_logs)
{
	sleep(6);
	ASSERT_LOADED(PERMISSIVE_RULE);
	run(HELPER, "chown", NULL);
	EXPECT_TRUE(klog_has("would deny (permissive) CAP_CHOWN"))
		TH_LOG("no 'would deny (permissive) CAP_CHOWN' in the log");
}

/* A malformed policy is refused, with its line; the old one holds. */
#define MALFORMED "deny CAP_NET_RAW all\nfrobnicate\n"

TEST_F(capstack, malformed_policy_einval)
{
	ASSERT_LOADED("deny CAP_CHOWN all\n");
	EXPECT_ERRNO(EINVAL, write_value(policy_path, MALFORMED));
}

TEST_F(capstack, malformed_policy_keeps_old_rules)
{
	char before[4096], after[4096];

	ASSERT_LOADED("deny CAP_CHOWN all\n");
	read_value(policy_path, before, sizeof(before));
	write_value(policy_path, MALFORMED);
	read_value(policy_path, after, sizeof(after));
	EXPECT_TRUE(klog_has("policy rejected: line 2:"))
		TH_LOG("no 'policy rejected: line 2:' line in the log");
	EXPECT_STREQ(escaped(before), escaped(after));
	EXPECT_STREQ("mode enforcing\\ndeny CAP_CHOWN all\\n", escaped(before));
	EXPECT_STATUS(EPERM, run(HELPER, "chown", NULL));
	EXPECT_STATUS(0, run(HELPER, "rawsock", NULL));
}

/* Only CAP_MAC_ADMIN may write the policy. */
TEST_F(capstack, non_root_writer_eperm)
{
	EXPECT_STATUS(EPERM, write_as_uid1000_errno(policy_path, "deny all all\n"));
}

TEST_HARNESS_MAIN
