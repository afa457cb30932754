// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: the mlte submodule (labels, type enforcement, MLS), with the
 * policy tests/guest/mlte/test.policy, compiled into /etc/mlte/test.bin.
 *
 * The test runs as init_t (the policy's "sid kernel"), loads the policy,
 * labels files with setxattr(security.mlte), and runs children in the test
 * domains: a child sets its level through /proc/self/attr/current (as
 * init_t, which may), then executes a copy of this program labelled
 * user_exec_t or nonet_exec_t, which the policy's type_transition moves
 * into user_t or nonet_t. The copy runs one operation ("--child OP ARG")
 * and exits with its errno (0 on success), which the parent checks:
 * - type enforcement: user_t reads public_t, EACCES on secret_t;
 * - Bell-LaPadula: s1 cannot read s2 nor write s0 (but reads s0, writes
 *   s2); categories: s1:c0,c1 reads s1:c0, not s1:c2;
 * - exec moves the task into its domain: /proc/self/attr/current and
 *   lsm_get_self_attr show it;
 * - a file user_t creates in a tmp_t directory is user_tmp_t (getxattr);
 * - socket create is denied to nonet_t, connect to user_t;
 * - permissive mode allows, counts and logs ("permissive=1");
 * - malformed, truncated and random compiled policies are refused with
 *   EINVAL and the old policy keeps deciding;
 * - with capstack in the chain (either order), its denial happens too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/msg.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"

#define MLTE "/sys/kernel/security/stacker/mlte/"
#define POLICY_BIN "/etc/mlte/test.bin"
#define DIR "/tmp/mlte"
#define XATTR "security.mlte"

/* A child's exit status when something other than the operation failed. */
#define SETUP_FAILED 250

/* A counter of MLTE "status" ("denials", "loads"); -1 if unreadable. */
static long status_count(const char *key)
{
	char buf[256], *p;

	if (read_value(MLTE "status", buf, sizeof(buf)) || !(p = strstr(buf, key)))
		return -1;
	return strtol(p + strlen(key), NULL, 10);
}

/* The security.mlte label of `path` ("" if none). */
static const char *label_of(const char *path)
{
	static char buf[256];
	ssize_t n = getxattr(path, XATTR, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static int set_label(const char *path, const char *ctx)
{
	return setxattr(path, XATTR, ctx, strlen(ctx), 0);
}

/* ---- The child side: one operation, its errno as the exit status. ---- */

static int child_op(const char *op, const char *arg)
{
	char buf[512];
	int fd;

	if (!strcmp(op, "read") || !strcmp(op, "write")) {
		fd = open(arg, !strcmp(op, "read") ? O_RDONLY : O_WRONLY);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "trunc")) {
		fd = open(arg, O_WRONLY | O_TRUNC);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "create")) {
		fd = open(arg, O_CREAT | O_WRONLY | O_EXCL, 0644);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "relabel"))
		return set_label(arg, "public_t:s0") ? errno : 0;
	if (!strcmp(op, "socket")) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "connect")) {
		struct sockaddr_un a = { .sun_family = AF_UNIX };

		strcpy(a.sun_path, DIR "/no-such-socket");
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			return SETUP_FAILED;
		return connect(fd, (struct sockaddr *)&a, sizeof(a)) ? errno : 0;
	}
	if (!strcmp(op, "atsecure"))
		return getauxval(AT_SECURE) == 1 ? 0 : 1;
	if (!strcmp(op, "msgget")) {
		int id = msgget(IPC_PRIVATE, 0600 | IPC_CREAT);

		return id < 0 ? errno : (msgctl(id, IPC_RMID, NULL), 0);
	}
	if (!strcmp(op, "attr")) {
		/* Exit 0 if both interfaces show exactly `arg`. */
		union {
			struct lsm_ctx ctx;
			char bytes[512];
		} u;
		uint32_t size = sizeof(u);
		long rc;

		if (read_value(ATTR, buf, sizeof(buf)) || strcmp(buf, arg))
			return 1;
		memset(&u, 0, sizeof(u));
		rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &u.ctx, &size, 0);
		snprintf(buf, sizeof(buf), "mlte:%s", arg);
		if (rc < 1 || u.ctx.id != LSM_ID_STACKER || u.ctx.ctx_len != strlen(buf) + 1 ||
		    memcmp(u.ctx.ctx, buf, u.ctx.ctx_len))
			return 2;
		return 0;
	}
	return SETUP_FAILED;
}

/* ---- The parent side. ---- */

/*
 * Runs `op arg` in a child at context init_t:`level`, through `exec` (a
 * copy of this program whose label enters the test domain). Returns the
 * child's exit status (the operation's errno), or -1.
 */
static int as_flags(const char *level, int nnp, const char *exec, const char *op,
		    const char *arg)
{
	char ctx[128];
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		snprintf(ctx, sizeof(ctx), "mlte:init_t:%s", level);
		if (write_value(ATTR, ctx) < 0)
			_exit(SETUP_FAILED - 1);
		if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(SETUP_FAILED - 3);
		execl(exec, "mlte_test", "--child", op, arg, (char *)NULL);
		/* The exec's own errno, when it was refused. */
		_exit(errno < SETUP_FAILED - 3 ? errno : SETUP_FAILED - 2);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int as(const char *level, const char *exec, const char *op, const char *arg)
{
	return as_flags(level, 0, exec, op, arg);
}

#define USER DIR "/user_exec"
#define NONET DIR "/nonet_exec"

/* A result: the child's errno `got` is `want` (0: success). */
static void expect(const char *name, int got, int want)
{
	ktap_result(got == want, name, "expected %s, got %s (%d)",
		    want ? strerror(want) : "success",
		    got < 0 ? "test failure" : got ? strerror(got) : "success", got);
}

/* Copies this program to `path` and labels it `ctx`. */
static int copy_self(const char *path, const char *ctx)
{
	char *data;
	long len = read_whole("/proc/self/exe", &data);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0755);

	if (len < 0 || fd < 0 || write(fd, data, len) != len || close(fd))
		return -1;
	free(data);
	return set_label(path, ctx);
}

static const char *const files[][2] = {
	{ DIR "/public", "public_t:s0" },
	{ DIR "/secret", "secret_t:s0" },
	{ DIR "/public_s2", "public_t:s2" },
	{ DIR "/public_s1c0", "public_t:s1:c0" },
	{ DIR "/public_s1c2", "public_t:s1:c2" },
	{ DIR "/tmpdir", "tmp_t:s0" },
};

static void setup(void)
{
	int ok = 1;
	size_t i;

	mkdir(DIR, 0755);
	mkdir(DIR "/tmpdir", 0777);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (strcmp(files[i][0], DIR "/tmpdir"))
			ok &= make_file(files[i][0]) == 0 && chmod(files[i][0], 0666) == 0;
		ok &= set_label(files[i][0], files[i][1]) == 0;
		ok &= !strcmp(label_of(files[i][0]), files[i][1]);
	}
	ok &= copy_self(USER, "user_exec_t:s0") == 0;
	ok &= copy_self(NONET, "nonet_exec_t:s0") == 0;
	ktap_result(ok, "labels_set_and_read_back", "setxattr/getxattr of the test files: %s",
		    strerror(errno));
}

static void bad_policies(const char *good, long len)
{
	long loads = status_count("loads ");
	char *bad = malloc(len);
	long i;
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	memcpy(bad, good, len);
	bad[4] = 9; /* the version */
	EXPECT_ERRNO("malformed_policy_einval", write_bytes(MLTE "policy", bad, len), EINVAL);
	ktap_result(klog_has("mlte: policy rejected: byte 4: unknown version"),
		    "malformed_policy_logged_with_byte", "no 'policy rejected: byte 4' line");
	EXPECT_ERRNO("truncated_policy_einval", write_bytes(MLTE "policy", good, len / 2),
		     EINVAL);
	for (i = 0; i < len; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		bad[i] = (char)seed;
	}
	EXPECT_ERRNO("random_policy_einval", write_bytes(MLTE "policy", bad, len), EINVAL);
	ktap_result(status_count("loads ") == loads, "refused_policies_not_loaded",
		    "loads went from %ld to %ld", loads, status_count("loads "));
	expect("old_policy_still_denies_secret", as("s0", USER, "read", DIR "/secret"), EACCES);
	expect("old_policy_still_allows_public", as("s0", USER, "read", DIR "/public"), 0);
	free(bad);
}

/*
 * The blob layout of this chain (printed for the docs), and mlte's slots:
 * a label (3 x 4 bytes, padded to 16, + 16 x 8 = 144 bytes) in the inode, cred, sock and
 * IPC blobs, and, with capstack, capstack's cred slot apart from mlte's.
 */
static void layout(void)
{
	char buf[2048], *line, *save;
	long mlte_cred = -1, cap_cred = -1, off, size, slots = 0;
	char name[32], kind[32];

	read_value("/sys/kernel/security/stacker/layout", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		printf("# layout: %s\n", line);
		if (sscanf(line, "%31s %31s %ld %ld", name, kind, &off, &size) != 4)
			continue;
		if (!strcmp(name, "mlte") && size == 144 &&
		    (!strcmp(kind, "inode") || !strcmp(kind, "cred") || !strcmp(kind, "sock") ||
		     !strcmp(kind, "ipc")))
			slots++;
		if (!strcmp(name, "mlte") && !strcmp(kind, "cred"))
			mlte_cred = off;
		if (!strcmp(name, "capstack") && !strcmp(kind, "cred"))
			cap_cred = off;
	}
	ktap_result(slots == 4, "mlte_has_a_label_slot_in_four_blobs",
		    "%ld of inode, cred, sock and ipc with a 144-byte mlte slot", slots);
	if (cap_cred < 0) {
		ktap_skip("capstack_and_mlte_cred_slots_apart", "capstack is not in this chain");
		return;
	}
	ktap_result(cap_cred + 16 <= mlte_cred || mlte_cred + 144 <= cap_cred,
		    "capstack_and_mlte_cred_slots_apart", "capstack at %ld, mlte at %ld",
		    cap_cred, mlte_cred);
}

static void capstack_too(void)
{
	char chain[256];

	read_value("/sys/kernel/security/stacker/chain", chain, sizeof(chain));
	if (!strstr(chain, "capstack")) {
		ktap_skip("capstack_policy_loaded", "capstack is not in this boot's chain");
		ktap_skip("capstack_denies_mknod_with_mlte", "capstack is not in this boot's chain");
		ktap_skip("mlte_denies_secret_with_capstack", "capstack is not in this boot's chain");
		return;
	}
	EXPECT_OK("capstack_policy_loaded",
		  write_value("/sys/kernel/security/stacker/capstack/policy",
			      "deny CAP_MKNOD all\n"));
	unlink(DIR "/null");
	EXPECT_ERRNO("capstack_denies_mknod_with_mlte",
		     mknod(DIR "/null", S_IFCHR | 0600, makedev(1, 3)), EPERM);
	expect("mlte_denies_secret_with_capstack", as("s0", USER, "read", DIR "/secret"),
	       EACCES);
	write_value("/sys/kernel/security/stacker/capstack/policy", "\n");
}

int main(int argc, char **argv)
{
	char buf[256], *policy;
	long len, before;
	int rc;

	if (argc == 4 && !strcmp(argv[1], "--child"))
		return child_op(argv[2], argv[3]);

	ktap_plan("mlte", 51);
	check_init_succeeded();
	read_value("/sys/kernel/security/stacker/chain", buf, sizeof(buf));
	ktap_result(strstr(buf, "mlte") != NULL, "mlte_in_chain", "chain is '%s'", buf);
	if (!strstr(buf, "mlte"))
		ktap_block("mlte is not in this boot's chain");
	layout();

	len = read_whole(POLICY_BIN, &policy);
	ktap_result(len > 0, "policy_file_present", POLICY_BIN ": %s", strerror(errno));
	rc = write_as_uid1000_errno(MLTE "policy", "x");
	ktap_result(rc == EPERM, "policy_write_needs_cap_mac_admin",
		    "a write without CAP_MAC_ADMIN gave %d, expected EPERM", rc);
	EXPECT_OK("policy_loaded", write_bytes(MLTE "policy", policy, len));
	ktap_result(read_value(ATTR, buf, sizeof(buf)) == 0 && !strcmp(buf, "init_t:s0"),
		    "init_runs_in_sid_kernel", ATTR " reads '%s'", buf);

	setup();
	expect("user_reads_public", as("s0", USER, "read", DIR "/public"), 0);
	expect("user_cannot_read_secret", as("s0", USER, "read", DIR "/secret"), EACCES);
	expect("s1_cannot_read_s2", as("s1", USER, "read", DIR "/public_s2"), EACCES);
	expect("s1_cannot_write_s0", as("s1", USER, "write", DIR "/public"), EACCES);
	expect("s1_reads_s0", as("s1", USER, "read", DIR "/public"), 0);
	expect("truncating_is_writing", as("s0", USER, "trunc", DIR "/public"), 0);
	expect("s1_writes_s2", as("s1", USER, "write", DIR "/public_s2"), 0);
	expect("s1_c0c1_reads_s1_c0", as("s1:c0,c1", USER, "read", DIR "/public_s1c0"), 0);
	expect("s1_c0c1_cannot_read_s1_c2", as("s1:c0,c1", USER, "read", DIR "/public_s1c2"),
	       EACCES);
	expect("exec_enters_user_t", as("s1:c0,c1", USER, "attr", "user_t:s1:c0,c1"), 0);
	expect("exec_enters_nonet_t", as("s0", NONET, "attr", "nonet_t:s0"), 0);
	expect("domain_change_is_a_secure_exec", as("s0", USER, "atsecure", "-"), 0);
	expect("no_new_privs_blocks_domain_change", as_flags("s0", 1, USER, "attr", "user_t:s0"),
	       EPERM);

	expect("user_creates_in_tmp_dir", as("s0", USER, "create", DIR "/tmpdir/new"), 0);
	ktap_result(!strcmp(label_of(DIR "/tmpdir/new"), "user_tmp_t:s0"),
		    "new_file_gets_transition_label", "label is '%s'",
		    label_of(DIR "/tmpdir/new"));
	make_file(DIR "/plain");
	ktap_result(!strcmp(label_of(DIR "/plain"), "file_t:s0"),
		    "new_file_gets_parent_type", "label is '%s'", label_of(DIR "/plain"));
	expect("user_cannot_create_outside_tmp", as("s0", USER, "create", DIR "/other"),
	       EACCES);

	expect("user_cannot_relabel", as("s0", USER, "relabel", DIR "/secret"), EACCES);
	EXPECT_ERRNO("invalid_label_einval", set_label(DIR "/plain", "bogus_t:s0"), EINVAL);
	EXPECT_ERRNO("label_with_undeclared_level_einval",
		     set_label(DIR "/plain", "public_t:s3"), EINVAL);
	ktap_result(!strcmp(label_of(DIR "/plain"), "file_t:s0"),
		    "refused_label_keeps_the_old", "label is '%s'", label_of(DIR "/plain"));

	expect("nonet_cannot_create_socket", as("s0", NONET, "socket", "-"), EACCES);
	expect("user_creates_socket", as("s0", USER, "socket", "-"), 0);
	expect("user_cannot_connect", as("s0", USER, "connect", "-"), EACCES);
	expect("init_connects", child_op("connect", "-"), ENOENT);
	expect("nonet_cannot_create_ipc", as("s0", NONET, "msgget", "-"), EACCES);
	expect("user_creates_ipc", as("s0", USER, "msgget", "-"), 0);

	before = status_count("denials ");
	EXPECT_OK("permissive_mode_set", write_value(MLTE "enforce", "0"));
	expect("permissive_allows_secret", as("s0", USER, "read", DIR "/secret"), 0);
	ktap_result(status_count("denials ") > before, "permissive_counts_the_denial",
		    "denials %ld -> %ld", before, status_count("denials "));
	ktap_result(klog_has("permissive=1") && klog_has("tcontext=secret_t:s0 tclass=file"),
		    "permissive_logs_avc_line", "no avc line with permissive=1 for secret_t");
	EXPECT_OK("enforcing_mode_set", write_value(MLTE "enforce", "1"));

	bad_policies(policy, len);
	capstack_too();
	free(policy);
	return ktap_exit();
}
