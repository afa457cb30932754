// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: stacker next to a major LSM, SELinux or AppArmor, in the order
 * lsm= gives (before or after stacker), each one enforcing a policy of its
 * own at the same time:
 *
 *   - SELinux: the bench's MLS policy (tests/bench/selinux, compiled for
 *     this kernel by scripts/selinux-policy.sh into /etc/selinux/policy),
 *     loaded through selinuxfs and enforcing. A child that enters
 *     system_u:system_r:bench_t:s1:c0,c1 through attr/exec may read a root_t file of the
 *     initramfs and may not write it (TE has no write, MLS no write down):
 *     EACCES, and an "avc:  denied" record.
 *   - AppArmor: a profile (tests/guest/coexist/apparmor.profile, loaded by
 *     Debian's apparmor_parser in the guest) that lets a child read
 *     /tmp/aa_public and nothing else of /tmp. The child enters it through
 *     attr/apparmor/exec ("exec stacker_coexist").
 *   - stacker, chain denyname,mlte (and probe, in the AppArmor boots): mlte
 *     with its demo policy (init_t may not read secret_t) and denyname with
 *     a name rule, both denying.
 *
 * And each one's process attributes are reachable: its entry in
 * lsm_get_self_attr(2) (by LSM id, with and without LSM_FLAG_SINGLE), in
 * the LSM order, with one entry for each of stacker's submodules that has
 * a label (mlte's, probe's); /proc/self/attr/current is the first LSM's (the LSM core
 * asks only the first LSM that has the hook); AppArmor's own directory
 * /proc/self/attr/apparmor; stacker's /proc/self/attr/stacker/mlte/ (and
 * probe/); and writes to attr/exec reach SELinux through
 * stacker when stacker is first and no submodule takes "exec".
 *
 * The boot's lsm= says which LSM is there and in which order; the tests of
 * an LSM that is not in the list are skipped (each boot runs one).
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "guest_util.h"

#ifndef LSM_ID_SELINUX
#define LSM_ID_SELINUX 101
#define LSM_ID_APPARMOR 104
#endif
#define LSM_ATTR_EXEC 101
#define LSM_FLAG_SINGLE 1

#define SELINUXFS "/sys/fs/selinux"
#define SELINUX_POLICY "/etc/selinux/policy"
/* The domain of the SELinux children, as the kernel writes it back. */
#define BENCH_CONTEXT "system_u:system_r:bench_t:s1:c0,c1"
/* /init's SELinux context: the initial SID "kernel" of the policy. */
#define KERNEL_CONTEXT "system_u:system_r:kernel_t:s0-s2:c0.c3"
#define APPARMOR_PROFILE "/etc/apparmor/stacker_coexist"
#define MLTE_POLICY "/etc/mlte/demo.bin"
#define MLTE_DIR "/sys/kernel/security/stacker/mlte"
#define DENYNAME_RULE "/sys/kernel/security/stacker/denyname/name"
/* Where each LSM's setup is remembered across the harness's forks. */
#define SETUP_DONE "/tmp/coexist-setup-done"

/* The position of `name` in the LSM list (/sys/kernel/security/lsm), or -1. */
static int lsm_position(const char *name)
{
	char list[512], *p, *tok;
	int i = 0;

	if (read_value("/sys/kernel/security/lsm", list, sizeof(list)))
		return -1;
	for (tok = strtok_r(list, ",\n", &p); tok; tok = strtok_r(NULL, ",\n", &p), i++)
		if (!strcmp(tok, name))
			return i;
	return -1;
}

/* The major LSM of this boot ("selinux" or "apparmor"), or NULL. */
static const char *other_lsm(void)
{
	if (lsm_position("selinux") >= 0)
		return "selinux";
	if (lsm_position("apparmor") >= 0)
		return "apparmor";
	return NULL;
}

/* Whether the other LSM comes before stacker in the LSM order. */
static int other_is_first(void)
{
	return lsm_position(other_lsm()) < lsm_position("stacker");
}

/*
 * Whether the kernel log shows `needle` within about 2 s: an LSM's denial
 * is an audit record, which the kernel's audit thread prints to the log
 * (no audit daemon runs) after the denied call has returned.
 */
static int klog_shows(const char *needle)
{
	int i;

	for (i = 0; i < 40; i++) {
		if (klog_has(needle))
			return 1;
		usleep(50000);
	}
	return 0;
}

/* Runs `argv` in a child; returns its exit status, or -1. */
static int run(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int load_selinux(void)
{
	char *policy;
	long len = read_whole(SELINUX_POLICY, &policy);

	if (len <= 0)
		return -1;
	if (mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL) && errno != EBUSY)
		return -1;
	/* selinuxfs takes a policy in one write at offset 0. */
	if (write_bytes(SELINUXFS "/load", policy, len) != len)
		return -1;
	free(policy);
	return write_value(SELINUXFS "/enforce", "1") < 0 ? -1 : 0;
}

static int load_apparmor(void)
{
	char *argv[] = { "/sbin/apparmor_parser", "--replace", "--skip-cache",
			 APPARMOR_PROFILE, NULL };

	return run(argv) == 0 ? 0 : -1;
}

/*
 * Loads each policy once per boot (the harness forks every test; the
 * policies stay in the kernel): the other LSM's, mlte's, and the files
 * the tests open.
 */
static int setup(void)
{
	const char *other = other_lsm();

	if (!access(SETUP_DONE, F_OK))
		return 0;
	if (!other)
		return -1;
	if (!strcmp(other, "selinux") ? load_selinux() : load_apparmor())
		return -1;
	{
		char *policy;
		long len = read_whole(MLTE_POLICY, &policy);

		if (len <= 0 || write_bytes(MLTE_DIR "/policy", policy, len) != len)
			return -1;
		free(policy);
	}
	if (put_file("/tmp/aa_public", "public\n", 7, 0644) ||
	    put_file("/tmp/aa_secret", "secret\n", 7, 0644) ||
	    put_file("/tmp/mlte_secret", "secret\n", 7, 0644) ||
	    put_file("/tmp/denied_by_name", "x\n", 2, 0644) ||
	    mlte_set_label("/tmp/mlte_secret", "system_u:object_r:secret_t:s0"))
		return -1;
	return make_file(SETUP_DONE);
}

#define SETUP() ASSERT_EQ(0, setup()) TH_LOG("loading the policies failed: %s", strerror(errno))

/*
 * Runs /helpers/open_errno PATH MODE in a child that first writes `attr`
 * to `attr_file` (the domain or profile its exec enters). Returns the
 * child's exit status (open's errno), or -1.
 */
static int open_in(const char *attr_file, const char *attr, const char *path, const char *mode)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (write_value(attr_file, attr) < 0)
			_exit(201);
		execl("/helpers/open_errno", "open_errno", path, mode, (char *)NULL);
		_exit(202);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The entries of lsm_get_self_attr(2) for `attr`. */
struct entries {
	union {
		struct lsm_ctx ctx;
		uint8_t bytes[4096];
	} u;
	uint32_t size;
	long count;
};

static void get_self_attr(struct entries *e, unsigned int attr, uint64_t single_id)
{
	memset(e, 0, sizeof(*e));
	e->size = sizeof(e->u);
	e->u.ctx.id = single_id;
	e->count = syscall(SYS_lsm_get_self_attr, attr, &e->u.ctx, &e->size,
			   single_id ? LSM_FLAG_SINGLE : 0);
}

/* Entry `i` of `e`, or NULL. */
static struct lsm_ctx *entry(struct entries *e, long i)
{
	uint8_t *p = e->u.bytes;

	for (; i > 0; i--) {
		struct lsm_ctx *c = (struct lsm_ctx *)p;

		if (c->len < sizeof(*c) || p + c->len > e->u.bytes + e->size)
			return NULL;
		p += c->len;
	}
	if (p + sizeof(struct lsm_ctx) > e->u.bytes + e->size)
		return NULL;
	return (struct lsm_ctx *)p;
}

/* The index of the entry of LSM `id` in `e`, or -1. */
static long index_of(struct entries *e, uint64_t id)
{
	long i;

	for (i = 0; i < e->count; i++) {
		struct lsm_ctx *c = entry(e, i);

		if (c && c->id == id)
			return i;
	}
	return -1;
}

static uint64_t other_id(void)
{
	return !strcmp(other_lsm(), "selinux") ? LSM_ID_SELINUX : LSM_ID_APPARMOR;
}

/* What the other LSM shows as /init's current attribute. */
static const char *other_current(void)
{
	return !strcmp(other_lsm(), "selinux") ? KERNEL_CONTEXT : "unconfined";
}

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

/* Both LSMs are in the list, in the order lsm= gives. */
TEST(lsm_order_is_lsm_parameter)
{
	char *lsm = cmdline_value("lsm");
	const char *other = other_lsm();

	ASSERT_NE(NULL, lsm);
	ASSERT_NE(NULL, other) TH_LOG("neither selinux nor apparmor is in the LSM list");
	ASSERT_LE(0, lsm_position("stacker"));
	EXPECT_EQ(strstr(lsm, other) < strstr(lsm, "stacker"), other_is_first())
		TH_LOG("lsm=%s", lsm);
	free(lsm);
}

/* SELinux's policy is in force: its denial happens, its allow too. */
TEST(selinux_denies)
{
	if (!other_lsm() || strcmp(other_lsm(), "selinux"))
		SKIP(return, "SELinux is not in this boot's LSM list");
	SETUP();
	{
		char v[8];

		ASSERT_EQ(0, read_value(SELINUXFS "/enforce", v, sizeof(v)));
		ASSERT_STREQ("1", v);
	}
	/* Read down into the initramfs (system_u:object_r:root_t:s0): allowed. */
	EXPECT_EQ(0, open_in("/proc/self/attr/exec", BENCH_CONTEXT, MLTE_POLICY, "r"));
	/* Write it: no TE allow, and no write down. */
	EXPECT_EQ(EACCES, open_in("/proc/self/attr/exec", BENCH_CONTEXT, MLTE_POLICY, "w"));
	EXPECT_TRUE(klog_shows("avc:  denied  { write }"));
	EXPECT_TRUE(klog_shows("scontext=" BENCH_CONTEXT));
}

/* AppArmor's profile is in force: what it allows, and its denial. */
TEST(apparmor_denies)
{
	const char *exec = "/proc/self/attr/apparmor/exec";

	if (!other_lsm() || strcmp(other_lsm(), "apparmor"))
		SKIP(return, "AppArmor is not in this boot's LSM list");
	SETUP();
	EXPECT_EQ(0, open_in(exec, "exec stacker_coexist", "/tmp/aa_public", "r"));
	EXPECT_EQ(EACCES, open_in(exec, "exec stacker_coexist", "/tmp/aa_secret", "r"));
	EXPECT_TRUE(klog_shows("apparmor=\"DENIED\""));
	EXPECT_TRUE(klog_shows("name=\"/tmp/aa_secret\""));
	/* Unconfined, the same open succeeds: the profile denied it. */
	EXPECT_ERRNO(0, open("/tmp/aa_secret", O_RDONLY));
}

/* stacker's submodules deny at the same time: mlte and denyname. */
TEST(stacker_denies)
{
	SETUP();
	EXPECT_ERRNO(EACCES, open("/tmp/mlte_secret", O_RDONLY));
	EXPECT_ERRNO(0, open("/tmp/aa_public", O_RDONLY));
	ASSERT_ERRNO(0, write_value(DENYNAME_RULE, "denied_by_name"));
	EXPECT_ERRNO(EACCES, open("/tmp/denied_by_name", O_RDONLY));
	write_value(DENYNAME_RULE, "\n");
	EXPECT_ERRNO(0, open("/tmp/denied_by_name", O_RDONLY));
}

/* lsm_get_self_attr(2): both LSMs' entries, in the LSM order. */
TEST(get_self_attr_has_both)
{
	struct entries e;
	long mine, theirs;
	struct lsm_ctx *c;
	char v[256];

	SETUP();
	get_self_attr(&e, LSM_ATTR_CURRENT, 0);
	ASSERT_LE(2, e.count) TH_LOG("lsm_get_self_attr: %ld (%s)", e.count, strerror(errno));
	mine = index_of(&e, LSM_ID_STACKER);
	theirs = index_of(&e, other_id());
	ASSERT_LE(0, mine);
	ASSERT_LE(0, theirs);
	EXPECT_EQ(other_is_first(), theirs < mine);
	c = entry(&e, mine);
	EXPECT_STREQ("mlte:system_u:system_r:init_t:s0", (char *)c->ctx);
	c = entry(&e, theirs);
	EXPECT_STREQ(other_current(), (char *)c->ctx);
	/*
	 * A second label-bearing submodule has an entry of its own, after
	 * mlte's (chain order), under the same LSM id, told apart by its name.
	 */
	if (chain_has("probe", v, sizeof(v))) {
		EXPECT_EQ(3, e.count);
		c = entry(&e, mine + 1);
		ASSERT_NE(NULL, c);
		EXPECT_EQ((uint64_t)LSM_ID_STACKER, c->id);
		EXPECT_EQ(0, strncmp((char *)c->ctx, "probe:", 6)) TH_LOG("'%s'", (char *)c->ctx);
	} else {
		EXPECT_EQ(2, e.count);
	}
}

/* Too small a buffer: E2BIG, and the size all the entries need. */
TEST(get_self_attr_too_small)
{
	struct entries e;
	uint32_t need, size = 1;
	long rc;

	SETUP();
	get_self_attr(&e, LSM_ATTR_CURRENT, 0);
	ASSERT_LE(2, e.count);
	need = e.size;
	rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &e.u.ctx, &size, 0);
	EXPECT_EQ(-1, rc);
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(need, size);
	/* Room for the first entry only. */
	size = entry(&e, 0)->len;
	rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &e.u.ctx, &size, 0);
	EXPECT_EQ(-1, rc);
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(need, size);
}

/* LSM_FLAG_SINGLE reaches each one by its id. */
TEST(get_self_attr_single)
{
	struct entries e;

	SETUP();
	get_self_attr(&e, LSM_ATTR_CURRENT, LSM_ID_STACKER);
	ASSERT_EQ(1, e.count) TH_LOG("%s", strerror(errno));
	EXPECT_EQ((uint64_t)LSM_ID_STACKER, e.u.ctx.id);
	EXPECT_STREQ("mlte:system_u:system_r:init_t:s0", (char *)e.u.ctx.ctx);
	get_self_attr(&e, LSM_ATTR_CURRENT, other_id());
	ASSERT_EQ(1, e.count) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(other_id(), e.u.ctx.id);
	EXPECT_STREQ(other_current(), (char *)e.u.ctx.ctx);
}

/* What each one reads back, it takes back (lsm_set_self_attr(2)). */
TEST(set_self_attr_takes_what_get_gave)
{
	struct entries e;
	struct lsm_ctx *c;
	long i;

	SETUP();
	get_self_attr(&e, LSM_ATTR_CURRENT, 0);
	ASSERT_LE(2, e.count);
	for (i = 0; i < e.count; i++) {
		c = entry(&e, i);
		ASSERT_NE(NULL, c);
		/* AppArmor takes no "unconfined" for current (it is no profile). */
		if (c->id == LSM_ID_APPARMOR)
			continue;
		EXPECT_ERRNO(0, syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, c, c->len, 0))
			TH_LOG("LSM %llu, '%s'", (unsigned long long)c->id, (char *)c->ctx);
	}
}

/* /proc/self/attr/current: the first LSM's value (the core asks one LSM). */
TEST(proc_attr_current_is_the_first_lsm)
{
	char v[256];

	SETUP();
	ASSERT_EQ(0, read_value("/proc/self/attr/current", v, sizeof(v)));
	v[strcspn(v, "\n")] = '\0';
	EXPECT_STREQ(other_is_first() ? other_current() : "system_u:system_r:init_t:s0", v);
}

/*
 * stacker's own directory: attr/stacker/mlte/ answers for mlte alone, in
 * either order, with mlte's context as it is (no "mlte:" prefix), and takes
 * it back; it lists the chain's label-bearing submodules, in chain order.
 */
TEST(proc_attr_stacker_dir)
{
	char v[256], dirs[256], owners[256];

	SETUP();
	ASSERT_EQ(0, attr_dirs(dirs, sizeof(dirs))) TH_LOG("%s", strerror(errno));
	chain_attr_owners(owners, sizeof(owners));
	EXPECT_STREQ(owners, dirs);
	EXPECT_EQ(0, strncmp(dirs, "mlte\n", 5)) TH_LOG("'%s'", dirs);
	ASSERT_EQ(0, read_value("/proc/self/attr/stacker/mlte/current", v, sizeof(v)))
		TH_LOG("%s", strerror(errno));
	EXPECT_STREQ("system_u:system_r:init_t:s0", v);
	EXPECT_ERRNO(0, write_value("/proc/self/attr/stacker/mlte/current", v));
	EXPECT_ERRNO(EINVAL, write_value("/proc/self/attr/stacker/mlte/current",
					 "mlte:system_u:system_r:init_t:s0"));
	/* Another LSM's attribute is not reached through stacker's directory. */
	EXPECT_ERRNO(EINVAL, read_value("/proc/self/attr/stacker/mlte/exec", v, sizeof(v)));
	EXPECT_ERRNO(ENOENT, open("/proc/self/attr/stacker/selinux", O_RDONLY));
	EXPECT_ERRNO(ENOENT, open("/proc/self/attr/stacker/apparmor", O_RDONLY));
	/* The first LSM still answers attr/current. */
	ASSERT_EQ(0, read_value("/proc/self/attr/current", v, sizeof(v)));
	v[strcspn(v, "\n")] = '\0';
	EXPECT_STREQ(other_is_first() ? other_current() : "system_u:system_r:init_t:s0", v);
}

/* AppArmor's own directory answers for AppArmor, in either order. */
TEST(proc_attr_apparmor_dir)
{
	char v[256];

	if (!other_lsm() || strcmp(other_lsm(), "apparmor"))
		SKIP(return, "AppArmor is not in this boot's LSM list");
	SETUP();
	ASSERT_EQ(0, read_value("/proc/self/attr/apparmor/current", v, sizeof(v)));
	v[strcspn(v, "\n")] = '\0';
	EXPECT_STREQ("unconfined", v);
}

/*
 * attr/exec reaches SELinux in either order: stacker, when first, finds
 * no submodule that takes "exec" and hands the write to the LSMs after it.
 * What was written reads back, from both interfaces.
 */
TEST(selinux_exec_attribute_through_stacker)
{
	struct entries e;
	char v[256];
	int status;
	pid_t pid;

	if (!other_lsm() || strcmp(other_lsm(), "selinux"))
		SKIP(return, "SELinux is not in this boot's LSM list");
	SETUP();
	pid = fork();
	if (pid == 0) {
		if (write_value("/proc/self/attr/exec", BENCH_CONTEXT) < 0)
			_exit(1);
		if (read_value("/proc/self/attr/exec", v, sizeof(v)) || strcmp(v, BENCH_CONTEXT))
			_exit(2);
		get_self_attr(&e, LSM_ATTR_EXEC, LSM_ID_SELINUX);
		if (e.count != 1 || strcmp((char *)e.u.ctx.ctx, BENCH_CONTEXT))
			_exit(3);
		_exit(0);
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
