// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: SMP stress. Hook storms on every CPU while every submodule
 * that has a policy has it reloaded in a loop, and no decision may come
 * from a mix of two policies.
 *
 * Run with "stacker.chain=integrity,mlte,capstack,denyname" on a 4-vCPU
 * guest of the test kernel (DEBUG_ATOMIC_SLEEP, PROVE_RCU, PROVE_LOCKING,
 * DEBUG_LIST: boottest.py fails the boot on any splat). For STORM_SECONDS
 * of guest time:
 *
 * - one writer per submodule loads its two policies, A and B, in turn,
 *   each in one write: capstack's and integrity's policy text, mlte's
 *   compiled policy (/etc/mlte/stress_{a,b}.bin, from
 *   tests/guest/mlte/stress_{a,b}.policy) and denyname's name;
 * - a reader reads capstack's, integrity's and denyname's policy back and
 *   checks that every read is one whole policy, A or B, as the kernel
 *   printed it after a quiet load of each;
 * - four hook workers, one pinned to each CPU, make the calls whose
 *   decisions the two policies fix:
 *   - root: fork+exec, setuid(0), a raw socket, open, setxattr (all
 *     allowed by both), and opens of the name denyname denies in A and of
 *     the one it denies in B;
 *   - system_u:system_r:user_t:s0 (mlte): read of a public_t file (allowed by both), read
 *     of a system_u:object_r:stress_t:s1 file (denied by both, for different reasons, so
 *     that a decision mixing the two would allow it), write of it (A
 *     allows, B denies) and a relabel (denied by both);
 *   - uid 1000 with CAP_NET_RAW and CAP_NET_BIND_SERVICE kept from before
 *     the first capstack policy (capstack): a raw socket (denied by both),
 *     a bind to port 80 (A denies, B allows);
 *   - uid 4244 (integrity): an open of its own file, which has no
 *     security.ima (appraised, so denied, by both: by fowner in A, by uid
 *     in B; a half-built rule list, or A's first rule with B's second,
 *     would allow it), of a root-owned one (allowed by both) and of a
 *     4246-owned one (A allows, B denies).
 *
 * A decision that is neither A's nor B's is counted wrong and fails the
 * test; the decisions on which A and B differ must each have been seen
 * both ways, or the reloads did not reach the hooks under load.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "guest_util.h"

#define STORM_SECONDS 60
#define SFS "/sys/kernel/security/stacker/"
#define CAPSTACK_POLICY SFS "capstack/policy"
#define INTEGRITY_POLICY SFS "integrity/policy"
#define DENYNAME_NAME SFS "denyname/name"
#define MLTE_POLICY SFS "mlte/policy"
#define MLTE_STATUS SFS "mlte/status"
#define DIR "/tmp/storm"

/* A submodule's two policies: what is written, and what reads back. */
struct policy_pair {
	const char *name, *path;
	char *text[2];		/* A, B: what a writer writes */
	long len[2];
	char *shown[2];		/* what the file reads after a load; NULL: not read */
};

enum { CAPSTACK, INTEGRITY, DENYNAME, MLTE, SUBMODULES };
static struct policy_pair pairs[SUBMODULES];

/* A decision and the one(s) the two policies give. */
enum expect { BOTH_ALLOW, BOTH_DENY, A_DENIES_B_ALLOWS, A_ALLOWS_B_DENIES };
enum probe {
	ROOT_EXEC, ROOT_SETUID, ROOT_RAW_SOCKET, ROOT_OPEN, ROOT_SETXATTR,
	DENYNAME_A, DENYNAME_B,
	MLTE_READ_PUBLIC, MLTE_READ_UP, MLTE_WRITE_UP, MLTE_RELABEL,
	CAP_RAW_SOCKET, CAP_BIND_80,
	IMA_OWN_FILE, IMA_ROOT_FILE, IMA_OTHER_FILE,
	PROBES
};

static const struct {
	const char *name;
	enum expect expect;
	int denial;	/* the errno of a denial */
} probes[PROBES] = {
	[ROOT_EXEC] = { "root_fork_exec", BOTH_ALLOW, 0 },
	[ROOT_SETUID] = { "root_setuid_0", BOTH_ALLOW, 0 },
	[ROOT_RAW_SOCKET] = { "root_raw_socket", BOTH_ALLOW, 0 },
	[ROOT_OPEN] = { "root_open", BOTH_ALLOW, 0 },
	[ROOT_SETXATTR] = { "root_setxattr", BOTH_ALLOW, 0 },
	[DENYNAME_A] = { "denyname_open_stormA", A_DENIES_B_ALLOWS, EACCES },
	[DENYNAME_B] = { "denyname_open_stormB", A_ALLOWS_B_DENIES, EACCES },
	[MLTE_READ_PUBLIC] = { "mlte_user_reads_public", BOTH_ALLOW, 0 },
	[MLTE_READ_UP] = { "mlte_user_reads_up", BOTH_DENY, EACCES },
	[MLTE_WRITE_UP] = { "mlte_user_writes_up", A_ALLOWS_B_DENIES, EACCES },
	[MLTE_RELABEL] = { "mlte_user_relabels", BOTH_DENY, EACCES },
	[CAP_RAW_SOCKET] = { "capstack_uid1000_raw_socket", BOTH_DENY, EPERM },
	[CAP_BIND_80] = { "capstack_uid1000_bind_80", A_DENIES_B_ALLOWS, EACCES },
	[IMA_OWN_FILE] = { "integrity_uid4244_opens_own", BOTH_DENY, EACCES },
	[IMA_ROOT_FILE] = { "integrity_uid4244_opens_roots", BOTH_ALLOW, 0 },
	[IMA_OTHER_FILE] = { "integrity_uid4244_opens_4246s", A_ALLOWS_B_DENIES, EACCES },
};

/* In shared memory: what every worker saw. */
struct tally {
	int storm_ran;	/* the storm ran to its end, after a good setup */
	long loads[SUBMODULES], load_errors[SUBMODULES];
	long reads, torn_reads;
	long allowed[PROBES], denied[PROBES], wrong[PROBES];
	int wrong_errno[PROBES];
};
static struct tally *tally;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % 4, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Records one decision: `rc` < 0 with errno, or success. */
static void decided(enum probe p, long rc, int err)
{
	int denied = rc < 0;

	if (denied && err != probes[p].denial) {
		/* Not a denial of this submodule: an error of the test. */
		tally->wrong[p]++;
		tally->wrong_errno[p] = err;
		return;
	}
	if (denied)
		tally->denied[p]++;
	else
		tally->allowed[p]++;
	if ((probes[p].expect == BOTH_ALLOW && denied) ||
	    (probes[p].expect == BOTH_DENY && !denied)) {
		tally->wrong[p]++;
		tally->wrong_errno[p] = err;
	}
}

static long open_close(const char *path, int flags)
{
	int fd = open(path, flags);

	return fd < 0 ? -1 : close(fd);
}

#define DECIDE(p, call)                                                     \
	do {                                                                \
		long __rc = (call);                                         \
		decided(p, __rc, errno);                                    \
	} while (0)

/* ---- The policies. ---- */

static void make_policies(void)
{
	struct policy_pair *c = &pairs[CAPSTACK], *i = &pairs[INTEGRITY];
	struct policy_pair *d = &pairs[DENYNAME], *m = &pairs[MLTE];
	size_t n = 0, size = 65536;
	int k;

	c->name = "capstack";
	c->path = CAPSTACK_POLICY;
	c->text[0] = malloc(size);
	n += snprintf(c->text[0] + n, size - n,
		      "mode enforcing\ndeny CAP_NET_RAW uid 1000-60000\n"
		      "deny CAP_NET_BIND_SERVICE uid 1000-60000\n");
	/* A large one, 64 rules in all (capstack's most): its load takes
	 * long enough to overlap the hooks. */
	for (k = 0; k < 62; k++)
		n += snprintf(c->text[0] + n, size - n,
			      "only CAP_NET_BIND_SERVICE,CAP_SYS_TIME exec storm%d\n", k);
	c->text[1] = strdup("mode enforcing\ndeny CAP_NET_RAW uid 1000-60000\n");

	i->name = "integrity";
	i->path = INTEGRITY_POLICY;
	i->text[0] = strdup("dont_appraise uid=0\n"
			    "appraise func=FILE_CHECK fowner=4244\n"
			    "appraise func=FILE_CHECK fowner=4245\n");
	i->text[1] = strdup("dont_appraise fowner=0\n"
			    "appraise func=FILE_CHECK uid=4244\n");

	d->name = "denyname";
	d->path = DENYNAME_NAME;
	d->text[0] = strdup("stormA");
	d->text[1] = strdup("stormB");

	m->name = "mlte";
	m->path = MLTE_POLICY;
	m->len[0] = read_whole("/etc/mlte/stress_a.bin", &m->text[0]);
	m->len[1] = read_whole("/etc/mlte/stress_b.bin", &m->text[1]);
	for (k = 0; k < 3; k++) {
		pairs[k].len[0] = strlen(pairs[k].text[0]);
		pairs[k].len[1] = strlen(pairs[k].text[1]);
	}
}

static int load(struct policy_pair *p, int which)
{
	return write_bytes(p->path, p->text[which], p->len[which]) == p->len[which];
}

/* Loads A and B once each, quietly, and keeps what each reads back as. */
static int learn_shown(struct policy_pair *p)
{
	int which;

	for (which = 0; which < 2; which++) {
		if (!load(p, which) || read_whole(p->path, &p->shown[which]) <= 0)
			return 0;
	}
	return strcmp(p->shown[0], p->shown[1]) != 0;
}

static void writer(int s, double end)
{
	int which = 0;

	while (now() < end) {
		if (load(&pairs[s], which))
			tally->loads[s]++;
		else
			tally->load_errors[s]++;
		which ^= 1;
	}
	/* End on A, the policy the checks after the storm expect. */
	load(&pairs[s], 0);
}

static void reader(double end)
{
	int s = 0;

	while (now() < end) {
		struct policy_pair *p = &pairs[s];
		char *text;

		s = (s + 1) % SUBMODULES;
		if (!p->shown[0])
			continue;
		if (read_whole(p->path, &text) < 0) {
			tally->torn_reads++;
			continue;
		}
		tally->reads++;
		if (strcmp(text, p->shown[0]) && strcmp(text, p->shown[1]) &&
		    tally->torn_reads++ == 0)
			printf("# %s: a read that is neither policy: %.80s\n", p->name, text);
		free(text);
	}
}

/* ---- The hook workers. ---- */

static void root_worker(double end)
{
	while (now() < end) {
		int status, fd;
		pid_t pid = fork();

		if (pid == 0) {
			execl("/bin/busybox", "true", (char *)NULL);
			_exit(errno);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
			decided(ROOT_EXEC, -1, -1);
		else if (WEXITSTATUS(status))
			decided(ROOT_EXEC, -1, WEXITSTATUS(status));
		else
			decided(ROOT_EXEC, 0, 0);
		DECIDE(ROOT_SETUID, setuid(0));
		fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
		decided(ROOT_RAW_SOCKET, fd, errno);
		if (fd >= 0)
			close(fd);
		DECIDE(ROOT_OPEN, open_close(DIR "/root_file", O_RDONLY));
		DECIDE(ROOT_SETXATTR, setxattr(DIR "/root_file", "user.storm", "1", 1, 0));
		DECIDE(DENYNAME_A, open_close(DIR "/stormA", O_RDONLY));
		DECIDE(DENYNAME_B, open_close(DIR "/stormB", O_RDONLY));
	}
}

static void mlte_worker(double end)
{
	/* One context per process: this one, forked, becomes user_t. */
	if (write_value(ATTR, "mlte:system_u:system_r:user_t:s0") < 0) {
		printf("# mlte worker: cannot enter system_u:system_r:user_t:s0: %s\n", strerror(errno));
		decided(MLTE_READ_PUBLIC, -1, -1);
		return;
	}
	while (now() < end) {
		DECIDE(MLTE_READ_PUBLIC, open_close(DIR "/public", O_RDONLY));
		DECIDE(MLTE_READ_UP, open_close(DIR "/stress", O_RDONLY));
		DECIDE(MLTE_WRITE_UP, open_close(DIR "/stress", O_WRONLY));
		DECIDE(MLTE_RELABEL, setxattr(DIR "/public", MLTE_XATTR, "system_u:object_r:stress_t:s0",
					      strlen("system_u:object_r:stress_t:s0"), 0));
	}
}

/* Becomes uid 1000 keeping its capabilities, before any capstack policy. */
static int become_uid1000_with_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP) ||
	    setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000) ||
	    syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective = d[0].permitted;
	d[1].effective = d[1].permitted;
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static void capstack_worker(double end)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(80) };

	while (now() < end) {
		int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), one = 1;

		decided(CAP_RAW_SOCKET, fd, errno);
		if (fd >= 0)
			close(fd);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0) {
			decided(CAP_BIND_80, -1, -errno);
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		DECIDE(CAP_BIND_80, bind(fd, (struct sockaddr *)&a, sizeof(a)));
		close(fd);
	}
}

static void integrity_worker(double end)
{
	if (setresgid(4244, 4244, 4244) || setresuid(4244, 4244, 4244)) {
		decided(IMA_OWN_FILE, -1, -1);
		return;
	}
	while (now() < end) {
		DECIDE(IMA_OWN_FILE, open_close(DIR "/own4244", O_RDONLY));
		DECIDE(IMA_ROOT_FILE, open_close(DIR "/root_file", O_RDONLY));
		DECIDE(IMA_OTHER_FILE, open_close(DIR "/own4246", O_RDONLY));
	}
}

/* ---- Setup and the results. ---- */

static int owned_file(const char *path, uid_t uid, const char *label)
{
	if (make_file(path) || chmod(path, 0666) || chown(path, uid, uid))
		return -1;
	return label ? mlte_set_label(path, label) : 0;
}

static int setup_files(void)
{
	mkdir(DIR, 0755);
	return owned_file(DIR "/root_file", 0, NULL) || owned_file(DIR "/stormA", 0, NULL) ||
	       owned_file(DIR "/stormB", 0, NULL) || owned_file(DIR "/own4244", 4244, NULL) ||
	       owned_file(DIR "/own4246", 4246, NULL) ||
	       owned_file(DIR "/public", 0, "system_u:object_r:public_t:s0") ||
	       owned_file(DIR "/stress", 0, "system_u:object_r:stress_t:s1") ? -1 : 0;
}

/*
 * The tallies, in memory that every test's process shares (the harness
 * runs each TEST in a child of its own; the storm's results are read by
 * the tests after it), and the policies, made before any test.
 */
static void __attribute__((constructor)) set_up_tally_and_policies(void)
{
	make_policies();
	tally = mmap(NULL, sizeof(*tally), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (tally == MAP_FAILED)
		tally = NULL;
	else
		memset(tally, 0, sizeof(*tally));
}

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

/* The storm: STORM_SECONDS, past the harness's default timeout. */
FIXTURE(storm) {};

FIXTURE_SETUP(storm)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_NE(NULL, tally) TH_LOG("no shared memory for the tallies");
}

FIXTURE_TEARDOWN(storm)
{
	/* Nothing left behind for later programs. */
	write_value(CAPSTACK_POLICY, "");
	write_value(INTEGRITY_POLICY, "");
	write_value(DENYNAME_NAME, "\n");
}

TEST_F_TIMEOUT(storm, runs, 6 * STORM_SECONDS)
{
	enum { WORKERS = SUBMODULES + 1 + 4 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ready[2], i, status, s;
	pid_t capstack_pid;
	double end;
	char c;

	ASSERT_LE(4, cpus) TH_LOG("%ld CPUs online, the storm needs 4", cpus);
	ASSERT_TRUE(pairs[MLTE].len[0] > 0 && pairs[MLTE].len[1] > 0)
		TH_LOG("/etc/mlte/stress_{a,b}.bin: %s", strerror(errno));

	/* The uid 1000 worker changes ids before any capstack rule exists. */
	ASSERT_EQ(0, errno_of(write_value(CAPSTACK_POLICY, "")));
	ASSERT_EQ(0, pipe(ready));
	capstack_pid = fork();
	ASSERT_LE(0, capstack_pid);
	if (capstack_pid == 0) {
		if (become_uid1000_with_caps())
			_exit(1);
		if (read(ready[0], &c, 1) != 1 || read(ready[0], &end, sizeof(end)) != sizeof(end))
			_exit(1);
		pin(0);
		capstack_worker(end);
		_exit(0);
	}
	close(ready[0]);

	ASSERT_TRUE(load(&pairs[MLTE], 0)) TH_LOG("mlte's policy A: %s", strerror(errno));
	ASSERT_EQ(0, setup_files()) TH_LOG("the files under " DIR ": %s", strerror(errno));
	for (s = 0; s < SUBMODULES; s++) {
		struct policy_pair *pair = &pairs[s];

		/* mlte's policy file shows a summary, the same for both. */
		if (s != MLTE)
			ASSERT_TRUE(learn_shown(pair))
				TH_LOG("%s: a policy was refused, or A and B read back the same",
				       pair->name);
		ASSERT_TRUE(load(pair, 0)) TH_LOG("%s: A refused", pair->name);
	}

	end = now() + STORM_SECONDS;
	for (i = 0; i < WORKERS - 1; i++) {
		if (fork() == 0) {
			pin(i);
			if (i < SUBMODULES)
				writer(i, end);
			else if (i == SUBMODULES)
				reader(end);
			else if (i == SUBMODULES + 1)
				root_worker(end);
			else if (i == SUBMODULES + 2)
				mlte_worker(end);
			else
				integrity_worker(end);
			_exit(0);
		}
	}
	/* Started last, so that its failure to start cannot hang the rest. */
	EXPECT_EQ(1, write(ready[1], "g", 1));
	EXPECT_EQ((ssize_t)sizeof(end), write(ready[1], &end, sizeof(end)));
	close(ready[1]);
	for (i = 0; i < WORKERS; i++)
		wait(&status);
	ASSERT_LE(end, now());
	tally->storm_ran = 1;
	printf("# %d s on %ld CPUs\n", STORM_SECONDS, cpus);
}

/* After storm.runs: tests run in the order of their fixtures, then of their declaration. */
TEST_F(storm, every_read_one_whole_policy)
{
	ASSERT_TRUE(tally->storm_ran) TH_LOG("the storm did not run");
	printf("# %ld reads of the policies, %ld not one whole policy\n", tally->reads,
	       tally->torn_reads);
	EXPECT_LT(10, tally->reads);
	EXPECT_EQ(0, tally->torn_reads);
}

/* Each submodule's reloads: many, none refused. */
FIXTURE(reloads) {};
FIXTURE_VARIANT(reloads) { int submodule; };
FIXTURE_VARIANT_ADD(reloads, capstack) { .submodule = CAPSTACK };
FIXTURE_VARIANT_ADD(reloads, integrity) { .submodule = INTEGRITY };
FIXTURE_VARIANT_ADD(reloads, denyname) { .submodule = DENYNAME };
FIXTURE_VARIANT_ADD(reloads, mlte) { .submodule = MLTE };

FIXTURE_SETUP(reloads)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(tally && tally->storm_ran) TH_LOG("the storm did not run");
}

FIXTURE_TEARDOWN(reloads)
{
}

TEST_F(reloads, every_load_accepted)
{
	int s = variant->submodule;

	printf("# %s: %ld loads, %ld refused\n", pairs[s].name,
	       tally->loads[s], tally->load_errors[s]);
	EXPECT_LT(10, tally->loads[s]);
	EXPECT_EQ(0, tally->load_errors[s]);
}

/*
 * Each probe's decisions: where A and B agree, all as they say; where
 * they differ, none wrong and both outcomes seen.
 */
FIXTURE(decisions) {};
FIXTURE_VARIANT(decisions) { enum probe probe; };
#define PROBE(p, name) FIXTURE_VARIANT_ADD(decisions, name) { .probe = p }
PROBE(ROOT_EXEC, root_fork_exec);
PROBE(ROOT_SETUID, root_setuid_0);
PROBE(ROOT_RAW_SOCKET, root_raw_socket);
PROBE(ROOT_OPEN, root_open);
PROBE(ROOT_SETXATTR, root_setxattr);
PROBE(DENYNAME_A, denyname_open_stormA);
PROBE(DENYNAME_B, denyname_open_stormB);
PROBE(MLTE_READ_PUBLIC, mlte_user_reads_public);
PROBE(MLTE_READ_UP, mlte_user_reads_up);
PROBE(MLTE_WRITE_UP, mlte_user_writes_up);
PROBE(MLTE_RELABEL, mlte_user_relabels);
PROBE(CAP_RAW_SOCKET, capstack_uid1000_raw_socket);
PROBE(CAP_BIND_80, capstack_uid1000_bind_80);
PROBE(IMA_OWN_FILE, integrity_uid4244_opens_own);
PROBE(IMA_ROOT_FILE, integrity_uid4244_opens_roots);
PROBE(IMA_OTHER_FILE, integrity_uid4244_opens_4246s);

FIXTURE_SETUP(decisions)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(tally && tally->storm_ran) TH_LOG("the storm did not run");
}

FIXTURE_TEARDOWN(decisions)
{
}

TEST_F(decisions, as_a_or_b_says)
{
	enum probe p = variant->probe;

	printf("# %s: %ld allowed, %ld denied, %ld wrong\n", probes[p].name, tally->allowed[p],
	       tally->denied[p], tally->wrong[p]);
	EXPECT_EQ(0, tally->wrong[p])
		TH_LOG("%s: %ld decisions neither A's nor B's (last errno %d)", probes[p].name,
		       tally->wrong[p], tally->wrong_errno[p]);
	if (probes[p].expect == A_ALLOWS_B_DENIES || probes[p].expect == A_DENIES_B_ALLOWS) {
		EXPECT_LT(0, tally->allowed[p]) TH_LOG("A and B differ: never allowed");
		EXPECT_LT(0, tally->denied[p]) TH_LOG("A and B differ: never denied");
	} else {
		EXPECT_LT(10, tally->allowed[p] + tally->denied[p]);
	}
}

TEST_HARNESS_MAIN
