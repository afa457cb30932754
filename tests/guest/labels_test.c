// SPDX-License-Identifier: GPL-2.0
/*
 * Labels as secids (stacker/core/lsm_prop.rs, linux/patches/0009): the
 * kernel's own users of struct lsm_prop see each label-bearing submodule's
 * label.
 *
 * - Audit: a userspace AVC message (AUDIT_USER_AVC, which the kernel logs
 *   even with auditing off, through printk when no auditd listens) carries
 *   the sender's context as audit_log_task_context() writes it: "subj=" when
 *   one LSM gives contexts to audit, else "subj=?" and an
 *   AUDIT_MAC_TASK_CONTEXTS (1420) record with "subj_NAME=" for each. Each
 *   stacker submodule's entry of lsm_get_self_attr(2), NAME:VALUE, must be
 *   in that record as subj_NAME=VALUE, or be the "subj=" itself. A system
 *   call audited by a rule (as "auditctl -a always,exit -F pid=PID") names
 *   a file in its PATH record with mlte's label of it, "obj=" or
 *   "obj_mlte=". And Debian's auditctl adds rules that name mlte's types
 *   (subj_type=, obj_type=), which match as SELinux's do.
 * - SCM_SECURITY: a Unix datagram carries its sender's label (the chain's
 *   primary label: the first label-bearing submodule, mlte in these boots)
 *   when stacker is the first LSM with labels; checked against the
 *   sender's own entry.
 *
 * mlte's test policy is loaded first if no policy is (so the boots can run
 * this before the programs that load theirs).
 */
#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/un.h>

#include "guest_util.h"
#include "audit_util.h"

#define MLTE "/sys/kernel/security/stacker/mlte/"
#define POLICY_BIN "/etc/mlte/test.bin"
/* The test policy with public_t renamed shared_t. */
#define RENAMED_BIN "/etc/mlte/renamed.bin"
#define AUDITCTL "/sbin/auditctl"
#define LSM_ID_SELINUX 101
#define LSM_ID_APPARMOR 104
/* include/linux/socket.h (not in glibc's headers). */
#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03
#endif

/* stacker's entries of lsm_get_self_attr(2): NAME and VALUE. */
struct label {
	char name[32];
	char value[256];
};

/* Fills `out` with stacker's entries of the current attribute; how many. */
static int stacker_labels(struct label *out, int max)
{
	char buf[4096];
	uint32_t size = sizeof(buf);
	int n = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, buf, &size, 0);
	struct lsm_ctx *ctx = (struct lsm_ctx *)buf;
	int found = 0;

	for (int i = 0; i < n; i++) {
		const char *colon = memchr(ctx->ctx, ':', ctx->ctx_len);

		if (ctx->id == LSM_ID_STACKER && colon && found < max) {
			struct label *l = &out[found++];
			size_t nl = colon - (const char *)ctx->ctx;

			snprintf(l->name, sizeof(l->name), "%.*s", (int)nl, ctx->ctx);
			snprintf(l->value, sizeof(l->value), "%s", colon + 1);
		}
		ctx = (struct lsm_ctx *)((char *)ctx + ctx->len);
	}
	return found;
}

/*
 * Field `n` (from 0: user, role, type) of the context `ctx`, USER:ROLE:
 * TYPE:RANGE, into `out`; empty if it has fewer fields.
 */
static void context_field(const char *ctx, int n, char *out, size_t size)
{
	size_t len;

	for (; n > 0 && ctx; n--) {
		ctx = strchr(ctx, ':');
		if (ctx)
			ctx++;
	}
	len = ctx ? strcspn(ctx, ":") : 0;
	snprintf(out, size, "%.*s", (int)len, ctx ? ctx : "");
}

/* Whether LSM `name` is active (/sys/kernel/security/lsm). */
static int lsm_active(const char *name)
{
	char buf[512], *tok, *save;

	if (read_value("/sys/kernel/security/lsm", buf, sizeof(buf)))
		return 0;
	for (tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save))
		if (!strcmp(tok, name))
			return 1;
	return 0;
}

/* Loads compiled mlte policy `path`; 0 or -1. */
static int load_policy(const char *path)
{
	char *policy = NULL;
	long len = read_whole(path, &policy);
	long n = len > 0 ? write_bytes(MLTE "policy", policy, len) : -1;

	free(policy);
	return n == len ? 0 : -1;
}

/* Loads mlte's test policy unless a policy is loaded. */
static void load_mlte_policy(void)
{
	char buf[512], *p;

	if (read_value(MLTE "status", buf, sizeof(buf)))
		return;	/* mlte is not in the chain */
	p = strstr(buf, "loads ");
	if (p && atol(p + 6) > 0)
		return;
	load_policy(POLICY_BIN);
}

/*
 * kauditd prints a record only within printk_ratelimit() (10 a burst);
 * the tests read several, so the limit is off while they run.
 */
#define PRINTK_RATELIMIT "/proc/sys/kernel/printk_ratelimit"

FIXTURE(labels) {
	struct label labels[4];
	int n;
	char ratelimit[32];
};

FIXTURE_SETUP(labels)
{
	load_mlte_policy();
	self->n = stacker_labels(self->labels, 4);
	ASSERT_EQ(0, read_value(PRINTK_RATELIMIT, self->ratelimit, sizeof(self->ratelimit)));
	ASSERT_EQ(1, write_value(PRINTK_RATELIMIT, "0"));
}

FIXTURE_TEARDOWN(labels)
{
	write_value(PRINTK_RATELIMIT, self->ratelimit);
}

/* Each stacker label is in the audit record of a message from this task. */
TEST_F(labels, audit_records_carry_each_label)
{
	char marker[64], record[4096], serial[64], aux[4096], want[320];
	int others = lsm_active("selinux") + lsm_active("apparmor") + lsm_active("smack");

	ASSERT_LT(0, self->n) TH_LOG("no stacker submodule gave a label");
	snprintf(marker, sizeof(marker), "stacker-labels-%ld", (long)getpid());
	ASSERT_EQ(0, audit_user_avc(marker));
	ASSERT_EQ(0, find_audit_record(marker, NULL, 0, record, sizeof(record)))
		TH_LOG("no audit record with %s in the kernel log", marker);
	TH_LOG("%s", record);
	if (self->n + others == 1) {
		/* One LSM gives contexts to audit: the plain subj=. */
		snprintf(want, sizeof(want), " subj=%s ", self->labels[0].value);
		EXPECT_NE(NULL, strstr(record, want)) TH_LOG("want '%s'", want);
		return;
	}
	ASSERT_NE(NULL, strstr(record, " subj=? ")) TH_LOG("several LSMs, no subj=?");
	ASSERT_EQ(0, audit_serial(record, serial, sizeof(serial)));
	ASSERT_EQ(0, find_audit_record(NULL, serial, AUDIT_MAC_TASK_CONTEXTS, aux, sizeof(aux)))
		TH_LOG("no AUDIT_MAC_TASK_CONTEXTS record for %s", serial);
	TH_LOG("%s", aux);
	for (int i = 0; i < self->n; i++) {
		const char *at;
		size_t len;

		snprintf(want, sizeof(want), "subj_%s=%s", self->labels[i].name,
			 self->labels[i].value);
		at = strstr(aux, want);
		len = strlen(want);
		EXPECT_TRUE(at && (at[len] == ' ' || at[len] == '\n' || at[len] == '\0'))
			TH_LOG("want '%s'", want);
	}
	if (lsm_active("selinux"))
		EXPECT_NE(NULL, strstr(aux, "subj_selinux="));
	if (lsm_active("apparmor"))
		EXPECT_NE(NULL, strstr(aux, "subj_apparmor="));
}

/*
 * mlte's label of a file is in the PATH record of a system call that names
 * it: "obj=" alone, or "obj=?" and an AUDIT_MAC_OBJ_CONTEXTS record with
 * obj_mlte=, as SELinux's is with obj_selinux=. The label is the file's
 * security.mlte as getxattr(2) reads it.
 */
TEST_F(labels, audit_records_carry_an_objects_label)
{
	const char *file = "/tmp/labels_obj";
	char label[256], needle[64], record[4096], serial[64], aux[4096], want[320];
	int others = lsm_active("selinux") + lsm_active("smack") + (self->n > 1);
	int go[2], status;
	ssize_t n;
	pid_t child;

	if (access(MLTE "status", F_OK))
		SKIP(return, "mlte is not in the chain");
	ASSERT_EQ(0, make_file(file));
	n = getxattr(file, MLTE_XATTR, label, sizeof(label) - 1);
	ASSERT_LT(0, n) TH_LOG("no security.mlte: %s", strerror(errno));
	label[n] = '\0';
	ASSERT_EQ(0, audit_set_enabled(1));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		char c;
		int fd;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		fd = open(file, O_RDONLY);
		_exit(fd < 0 ? 1 : 0);
	}
	close(go[0]);
	EXPECT_EQ(0, audit_pid_rule(AUDIT_ADD_RULE, child));
	EXPECT_EQ(1, write(go[1], "x", 1));
	close(go[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, audit_pid_rule(AUDIT_DEL_RULE, child));
	EXPECT_EQ(0, audit_set_enabled(0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(needle, sizeof(needle), "name=\"%s\"", file);
	ASSERT_EQ(0, find_audit_record(needle, NULL, AUDIT_PATH, record, sizeof(record)))
		TH_LOG("no PATH record for %s", file);
	TH_LOG("%s", record);
	if (others == 0) {
		snprintf(want, sizeof(want), " obj=%s ", label);
		EXPECT_NE(NULL, strstr(record, want)) TH_LOG("want '%s'", want);
		return;
	}
	ASSERT_NE(NULL, strstr(record, " obj=? ")) TH_LOG("several LSMs, no obj=?");
	ASSERT_EQ(0, audit_serial(record, serial, sizeof(serial)));
	ASSERT_EQ(0, find_audit_record(NULL, serial, AUDIT_MAC_OBJ_CONTEXTS, aux, sizeof(aux)))
		TH_LOG("no AUDIT_MAC_OBJ_CONTEXTS record for %s", serial);
	TH_LOG("%s", aux);
	snprintf(want, sizeof(want), "obj_mlte=%s", label);
	EXPECT_NE(NULL, strstr(aux, want)) TH_LOG("want '%s'", want);
	/* "obj_NAME=?" is an LSM that failed to give a context. */
	EXPECT_EQ(NULL, strstr(aux, "=?")) TH_LOG("an LSM gave no object context");
}

/* Runs auditctl with `args` (NULL-terminated); its exit status, or -1. */
static int auditctl(const char *const *args)
{
	const char *argv[16] = { AUDITCTL };
	int status, i;
	pid_t pid;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execv(AUDITCTL, (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Debian's auditctl names mlte's types in rules, as it names SELinux's:
 * "-F subj_type=TYPE" and "-F obj_type=TYPE" match the subject's and the
 * file's type, "!=" the other way. The first rule of the exit list that
 * matches a system call makes its record, so each "!=" rule comes before
 * the "=" rule of the same system call: a "!=" that matched would take
 * the record. A type the policy does not declare is refused (the kernel
 * keeps the rule, warns, and it matches nothing).
 */
TEST_F(labels, auditctl_rules_name_mlte_types)
{
	const char *file = "/tmp/labels_rules";
	char subj[128], obj[128], pid[16], subj_eq[160], subj_ne[160], obj_eq[160], obj_ne[160];
	char label[256], role[128], user[128], subj_role[160], obj_user[160];
	char record[4096], needle[64];
	int go[2], status;
	pid_t child;
	ssize_t n;

	if (access(MLTE "status", F_OK))
		SKIP(return, "mlte is not in the chain");
	if (lsm_active("selinux") || lsm_active("apparmor") || lsm_active("smack"))
		SKIP(return, "another LSM makes the audit rules");
	ASSERT_EQ(0, access(AUDITCTL, X_OK));
	ASSERT_LT(0, self->n);
	ASSERT_STREQ("mlte", self->labels[0].name);
	/* Contexts are USER:ROLE:TYPE:RANGE: the type is the third field. */
	context_field(self->labels[0].value, 2, subj, sizeof(subj));
	context_field(self->labels[0].value, 1, role, sizeof(role));
	ASSERT_EQ(0, make_file(file));
	n = getxattr(file, MLTE_XATTR, label, sizeof(label) - 1);
	ASSERT_LT(0, n);
	label[n] = '\0';
	context_field(label, 2, obj, sizeof(obj));
	context_field(label, 0, user, sizeof(user));
	ASSERT_NE(0, obj[0]) TH_LOG("not a whole context: %s", label);
	snprintf(subj_role, sizeof(subj_role), "subj_role=%s", role);
	snprintf(obj_user, sizeof(obj_user), "obj_user=%s", user);
	snprintf(subj_eq, sizeof(subj_eq), "subj_type=%s", subj);
	snprintf(subj_ne, sizeof(subj_ne), "subj_type!=%s", subj);
	snprintf(obj_eq, sizeof(obj_eq), "obj_type=%s", obj);
	snprintf(obj_ne, sizeof(obj_ne), "obj_type!=%s", obj);

	ASSERT_EQ(0, auditctl((const char *[]){ "-e", "1", NULL }));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		char c, v[8];

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		close(open(file, O_RDONLY));
		getxattr(file, "user.stacker", v, sizeof(v));
		lgetxattr(file, "user.stacker", v, sizeof(v));
		_exit(0);
	}
	close(go[0]);
	snprintf(pid, sizeof(pid), "pid=%d", child);
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "openat", "-F", pid, "-F", "subj_type=no_such_type_t", "-k", "stk_unknown",
		  NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "openat", "-F", pid, "-F", subj_ne, "-k", "stk_subj_ne", NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "openat", "-F", pid, "-F", subj_eq, "-k", "stk_subj_eq", NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "getxattr", "-F", pid, "-F", obj_ne, "-k", "stk_obj_ne", NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "getxattr", "-F", pid, "-F", obj_eq, "-k", "stk_obj_eq", NULL }));
	/* The subject's role and the object's user, in one rule. */
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "lgetxattr", "-F", pid, "-F", "subj_role=no_such_r", "-k", "stk_no_role",
		  NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "lgetxattr", "-F", pid, "-F", subj_role, "-F", obj_user, "-k", "stk_roles",
		  NULL }));
	EXPECT_EQ(1, write(go[1], "x", 1));
	close(go[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, auditctl((const char *[]){ "-D", NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-e", "0", NULL }));
	/* auditfilter's warning when the LSM refuses the field (EINVAL). */
	EXPECT_NE(NULL, strstr(klog_read(), "audit rule for LSM 'no_such_type_t' is invalid"))
		TH_LOG("the unknown type was not refused");
	snprintf(needle, sizeof(needle), " pid=%d ", child);
	EXPECT_EQ(0, find_audit_record("key=\"stk_subj_eq\"", NULL, AUDIT_SYSCALL, record,
				       sizeof(record)))
		TH_LOG("no record for %s", subj_eq);
	EXPECT_NE(NULL, strstr(record, needle)) TH_LOG("%s", record);
	EXPECT_EQ(0, find_audit_record("key=\"stk_obj_eq\"", NULL, AUDIT_SYSCALL, record,
				       sizeof(record)))
		TH_LOG("no record for %s", obj_eq);
	/*
	 * The child's records are printed in order, and its last one was:
	 * the other rules matched nothing.
	 */
	EXPECT_TRUE(audit_record_absent("key=\"stk_subj_ne\"", AUDIT_SYSCALL))
		TH_LOG("%s matched", subj_ne);
	EXPECT_TRUE(audit_record_absent("key=\"stk_obj_ne\"", AUDIT_SYSCALL))
		TH_LOG("%s matched", obj_ne);
	EXPECT_TRUE(audit_record_absent("key=\"stk_unknown\"", AUDIT_SYSCALL))
		TH_LOG("a rule on an unknown type matched");
	EXPECT_EQ(0, find_audit_record("key=\"stk_roles\"", NULL, AUDIT_SYSCALL, record,
				       sizeof(record)))
		TH_LOG("no record for %s %s", subj_role, obj_user);
	EXPECT_TRUE(audit_record_absent("key=\"stk_no_role\"", AUDIT_SYSCALL))
		TH_LOG("a rule on an unknown role matched");
}

/*
 * A rule on a type the policy in force lacks matches nothing; once a
 * policy that declares it is loaded, it matches a file of that type, as
 * SELinux remakes its rules after a load (audit_update_lsm_rules()).
 */
TEST_F(labels, a_load_remakes_audit_rules)
{
	const char *file = "/tmp/labels_reload";
	char pid[16], record[4096];
	int go[2], status;
	pid_t child;

	if (access(MLTE "status", F_OK))
		SKIP(return, "mlte is not in the chain");
	if (lsm_active("selinux") || lsm_active("apparmor") || lsm_active("smack"))
		SKIP(return, "another LSM makes the audit rules");
	ASSERT_EQ(0, make_file(file));
	ASSERT_EQ(0, auditctl((const char *[]){ "-e", "1", NULL }));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		close(open(file, O_RDONLY));
		_exit(0);
	}
	close(go[0]);
	snprintf(pid, sizeof(pid), "pid=%d", child);
	/* shared_t is not in the test policy: kept, and invalid. */
	EXPECT_EQ(0, auditctl((const char *[]){ "-a", "always,exit", "-F", "arch=b64", "-S",
		  "openat", "-F", pid, "-F", "obj_type=shared_t", "-k", "stk_reload", NULL }));
	/* The renamed policy declares shared_t; the file gets it. */
	EXPECT_EQ(0, load_policy(RENAMED_BIN));
	EXPECT_EQ(0, mlte_set_label(file, "system_u:object_r:shared_t:s0"));
	EXPECT_EQ(1, write(go[1], "x", 1));
	close(go[1]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, auditctl((const char *[]){ "-D", NULL }));
	EXPECT_EQ(0, auditctl((const char *[]){ "-e", "0", NULL }));
	EXPECT_EQ(0, load_policy(POLICY_BIN));
	EXPECT_EQ(0, find_audit_record("key=\"stk_reload\"", NULL, AUDIT_SYSCALL, record,
				       sizeof(record)))
		TH_LOG("the rule on obj_type=shared_t did not match after the load");
}

/* A Unix datagram's SCM_SECURITY is its sender's primary label. */
TEST_F(labels, scm_security_is_the_senders_primary_label)
{
	int sv[2], one = 1;
	char data = 'x', cbuf[CMSG_SPACE(512)];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;

	ASSERT_LT(0, self->n) TH_LOG("no stacker submodule gave a label");
	if (lsm_active("selinux") || lsm_active("apparmor") || lsm_active("smack"))
		SKIP(return, "a bare secid is another LSM's (stacker answers none then)");
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	ASSERT_EQ(0, setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one)));
	ASSERT_EQ(1, send(sv[0], &data, 1, 0));
	ASSERT_EQ(1, recvmsg(sv[1], &msg, 0));
	c = CMSG_FIRSTHDR(&msg);
	while (c && !(c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_SECURITY))
		c = CMSG_NXTHDR(&msg, c);
	ASSERT_NE(NULL, c) TH_LOG("no SCM_SECURITY");
	/* The text and its NUL, as SELinux's. */
	EXPECT_EQ(strlen(self->labels[0].value) + 1, c->cmsg_len - CMSG_LEN(0));
	EXPECT_STREQ(self->labels[0].value, (char *)CMSG_DATA(c));
	close(sv[0]);
	close(sv[1]);
}

TEST_HARNESS_MAIN
