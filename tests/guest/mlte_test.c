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
 * - one named "public" there is public_t (a name-based type_transition);
 * - socket create is denied to nonet_t, connect to user_t;
 * - permissive mode allows, counts and logs ("permissive=1");
 * - malformed, truncated and random compiled policies are refused with
 *   EINVAL and the old policy keeps deciding;
 * - with capstack in the chain (either order), its denial happens too.
 * If stacker did not initialize, or mlte is not in the chain, every test
 * fails. The tests after "policy_loaded" load the policy and label the
 * files each time, in their fixture.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/klog.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"

#define MLTE "/sys/kernel/security/stacker/mlte/"
#define POLICY_BIN "/etc/mlte/test.bin"
/* The test policy with public_t renamed shared_t and init_t moved last. */
#define RENAMED_BIN "/etc/mlte/renamed.bin"
/* The test policy with 5,000 more types and 100,000 rules among them. */
#define SCALE_BIN "/etc/mlte/scale.bin"
/* The test policy with a permissive domain and an auditallow rule. */
#define AUDITED_BIN "/etc/mlte/audited.bin"
/* The test policy with a boolean. */
#define BOOLEAN_BIN "/etc/mlte/boolean.bin"
#define DIR "/tmp/mlte"

/* A child's exit status when something other than the operation failed. */
#define SETUP_FAILED 250

/* A counter of MLTE "status" ("denials ", "loads ", "label_read_errors "); -1 if none. */
static long status_count(const char *key)
{
	char buf[256], *p;

	if (read_value(MLTE "status", buf, sizeof(buf)) || !(p = strstr(buf, key)))
		return -1;
	return strtol(p + strlen(key), NULL, 10);
}

/* ---- The child side: one operation, its errno as the exit status. ---- */

static int child_op(const char *op, const char *arg)
{
	char buf[512];
	int fd, rc;

	if (!strcmp(op, "read") || !strcmp(op, "write")) {
		fd = open(arg, !strcmp(op, "read") ? O_RDONLY : O_WRONLY);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "trunc")) {
		fd = open(arg, O_WRONLY | O_TRUNC);
		return fd < 0 ? errno : (close(fd), 0);
	}
	/* O_APPEND asks for MAY_APPEND, with no MAY_WRITE when read-only. */
	if (!strcmp(op, "append") || !strcmp(op, "read_append")) {
		fd = open(arg, (op[0] == 'r' ? O_RDONLY : O_WRONLY) | O_APPEND);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "unappend")) {
		/* Opened to append, then O_APPEND taken off: fcntl's errno. */
		fd = open(arg, O_WRONLY | O_APPEND);
		if (fd < 0)
			return SETUP_FAILED;
		rc = fcntl(fd, F_SETFL, 0) ? errno : 0;
		close(fd);
		return rc;
	}
	if (!strcmp(op, "create")) {
		fd = open(arg, O_CREAT | O_WRONLY | O_EXCL, 0644);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "setacl") || !strcmp(op, "create_setacl")) {
		if (op[0] == 'c') {
			fd = open(arg, O_CREAT | O_WRONLY | O_EXCL, 0644);
			if (fd < 0)
				return SETUP_FAILED;
			close(fd);
		}
		return setxattr(arg, ACL_XATTR, extended_acl, sizeof(extended_acl), 0) ? errno : 0;
	}
	if (!strcmp(op, "getacl"))
		return getxattr(arg, ACL_XATTR, buf, sizeof(buf)) < 0 ? errno : 0;
	if (!strcmp(op, "removeacl"))
		return removexattr(arg, ACL_XATTR) ? errno : 0;
	if (!strcmp(op, "relabel"))
		return mlte_set_label(arg, "system_u:object_r:public_t:s0") ? errno : 0;
	if (!strcmp(op, "socket")) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		return fd < 0 ? errno : (close(fd), 0);
	}
	if (!strcmp(op, "connect") || !strcmp(op, "sendto")) {
		/*
		 * To the abstract address `arg` after its '@' (a stream
		 * connect, or a datagram), or connecting to a path that does
		 * not exist.
		 */
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		socklen_t len = sizeof(a);
		int dgram = op[0] == 's';

		if (arg[0] == '@') {
			strncpy(a.sun_path + 1, arg + 1, sizeof(a.sun_path) - 2);
			len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(arg + 1);
		} else {
			strcpy(a.sun_path, DIR "/no-such-socket");
		}
		fd = socket(AF_UNIX, dgram ? SOCK_DGRAM : SOCK_STREAM, 0);
		if (fd < 0)
			return SETUP_FAILED;
		if (dgram)
			rc = sendto(fd, "m", 1, 0, (struct sockaddr *)&a, len) < 0 ? errno : 0;
		else
			rc = connect(fd, (struct sockaddr *)&a, len) ? errno : 0;
		close(fd);
		return rc;
	}
	if (!strcmp(op, "ioctl")) {
		/*
		 * TCGETS: decided as `ioctl` (FIONREAD would be `getattr`, as
		 * SELinux's selinux_file_ioctl()); a regular file answers
		 * ENOTTY when it is allowed.
		 */
		struct termios t;

		fd = open(arg, O_RDONLY);
		if (fd < 0)
			return SETUP_FAILED;
		rc = ioctl(fd, TCGETS, &t) ? errno : 0;
		close(fd);
		return rc;
	}
	if (!strcmp(op, "ioctl32")) {
		/* The same from a 32-bit program (compat_sys_ioctl). */
		execl("/helpers/ioctl32", "ioctl32", arg, (char *)NULL);
		return SETUP_FAILED;
	}
	if (!strcmp(op, "atsecure"))
		return getauxval(AT_SECURE) == 1 ? 0 : 1;
	if (!strcmp(op, "msgget")) {
		int id = msgget(IPC_PRIVATE, 0600 | IPC_CREAT);

		return id < 0 ? errno : (msgctl(id, IPC_RMID, NULL), 0);
	}
	if (!strcmp(op, "msgsend")) {
		/* A message through a queue of one's own: msgsnd's errno, then msgrcv's. */
		struct {
			long mtype;
			char text[8];
		} msg = { 1, "mlte" };
		int id = msgget(IPC_PRIVATE, 0600 | IPC_CREAT), rc;

		if (id < 0)
			return SETUP_FAILED;
		rc = msgsnd(id, &msg, sizeof(msg.text), IPC_NOWAIT) ? errno : 0;
		if (!rc && msgrcv(id, &msg, sizeof(msg.text), 0, IPC_NOWAIT) < 0)
			rc = errno;
		msgctl(id, IPC_RMID, NULL);
		return rc;
	}
	if (!strcmp(op, "semop") || !strcmp(op, "semctl")) {
		/*
		 * A semaphore set of one's own: "wait" waits for zero (which it
		 * is), "alter" adds one; semctl's "get" is GETVAL, "set" SETVAL.
		 */
		struct sembuf sop = { 0, !strcmp(arg, "alter"), IPC_NOWAIT };
		union {
			int val;
			struct semid_ds *buf;
		} one = { .val = 1 };
		int id = semget(IPC_PRIVATE, 1, 0600 | IPC_CREAT), rc;

		if (id < 0)
			return SETUP_FAILED;
		if (op[3] == 'o')
			rc = semop(id, &sop, 1) ? errno : 0;
		else if (!strcmp(arg, "get"))
			rc = semctl(id, 0, GETVAL) < 0 ? errno : 0;
		else
			rc = semctl(id, 0, SETVAL, one) ? errno : 0;
		semctl(id, 0, IPC_RMID);
		return rc;
	}
	if (!strcmp(op, "shmat")) {
		/* A segment of one's own, attached "ro" (SHM_RDONLY) or "rw". */
		int id = shmget(IPC_PRIVATE, 4096, 0600 | IPC_CREAT), rc;
		void *at;

		if (id < 0)
			return SETUP_FAILED;
		at = shmat(id, NULL, !strcmp(arg, "ro") ? SHM_RDONLY : 0);
		rc = at == (void *)-1 ? errno : (shmdt(at), 0);
		shmctl(id, IPC_RMID, NULL);
		return rc;
	}
	if (!strcmp(op, "ipcinfo")) {
		struct msginfo info;

		return msgctl(0, IPC_INFO, (struct msqid_ds *)&info) < 0 ? errno : 0;
	}
	if (!strncmp(op, "map_", 4)) {
		/*
		 * A mapping of `arg`: "map_rx" read and execute, "map_wx" also
		 * written (private), "map_private_write" and "map_shared_write"
		 * read and write, opened O_RDWR | O_APPEND (open asks read and
		 * append, no write).
		 */
		int exec = op[5] == 'x', shared = !strncmp(op, "map_shared_write", 16);
		int type = !strcmp(op, "map_shared_write_validate") ? MAP_SHARED_VALIDATE :
			   shared ? MAP_SHARED : MAP_PRIVATE;
		int prot = PROT_READ | (exec ? PROT_EXEC : 0) | (op[4] != 'r' ? PROT_WRITE : 0);
		void *at;

		fd = open(arg, exec ? O_RDONLY : O_RDWR | O_APPEND);
		if (fd < 0)
			return SETUP_FAILED;
		at = mmap(NULL, 4096, prot, type, fd, 0);
		rc = at == MAP_FAILED ? errno : (munmap(at, 4096), 0);
		close(fd);
		return rc;
	}
	if (!strcmp(op, "mprotect_stack") || !strcmp(op, "mprotect_heap")) {
		/*
		 * A page of the stack, or of the brk heap, made executable. The
		 * break is first moved to a page boundary, so that the heap's
		 * area ends at it (SELinux's test: within start_brk and brk).
		 */
		long page = sysconf(_SC_PAGESIZE);
		char here, *p = &here;

		if (op[9] == 'h') {
			uintptr_t brk = (uintptr_t)sbrk(0);

			if (sbrk((page - brk % page) % page) == (void *)-1 ||
			    (p = sbrk(page)) == (void *)-1)
				return SETUP_FAILED;
		}
		p = (char *)((uintptr_t)p & ~(uintptr_t)(page - 1));
		return mprotect(p, page, PROT_READ | PROT_WRITE | PROT_EXEC) ? errno : 0;
	}
	if (!strcmp(op, "readfd")) {
		/* A read through descriptor `arg`, inherited from init_t. */
		char byte;

		return read(atoi(arg), &byte, 1) < 0 ? errno : 0;
	}
	if (!strcmp(op, "signull"))
		return kill(getpid(), 0) ? errno : 0;
	if (!strcmp(op, "readlink"))
		return readlink(arg, buf, sizeof(buf)) < 0 ? errno : 0;
	if (!strcmp(op, "rename")) {
		snprintf(buf, sizeof(buf), "%s2", arg);
		return rename(arg, buf) ? errno : 0;
	}
	if (!strcmp(op, "mount"))
		return mount("none", arg, "tmpfs", 0, "") ? errno : 0;
	if (!strcmp(op, "umount"))
		return umount2(arg, 0) ? errno : 0;
	if (!strcmp(op, "fsmount")) {
		/* The new mount API: fsopen, create, fsmount, move_mount. */
		int fs = fsopen("tmpfs", FSOPEN_CLOEXEC), mnt;

		if (fs < 0 || fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
			return 200 + errno;
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
		if (mnt < 0)
			return 200 + errno;
		rc = move_mount(mnt, "", AT_FDCWD, arg, MOVE_MOUNT_F_EMPTY_PATH) ? errno : 0;
		close(mnt);
		close(fs);
		return rc;
	}
	if (!strcmp(op, "nice"))
		/* Lowering one's nice value needs CAP_SYS_NICE (can_nice()). */
		return setpriority(PRIO_PROCESS, 0, -5) ? errno : 0;
	if (!strcmp(op, "setenforce"))
		/* The mode, written through a descriptor of one's own. */
		return write_value(MLTE "enforce", arg) < 0 ? errno : 0;
	if (!strcmp(op, "load")) {
		char *policy;
		long len = read_whole(POLICY_BIN, &policy);

		if (len < 0)
			return SETUP_FAILED;
		return write_bytes(MLTE "policy", policy, len) < 0 ? errno : 0;
	}
	if (!strcmp(op, "setcon"))
		/* A new context for oneself (attr/current). */
		return write_value(ATTR, arg) < 0 ? errno : 0;
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
		snprintf(ctx, sizeof(ctx), "mlte:system_u:system_r:init_t:%s", level);
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

/* Copies this program to `path` and labels it `ctx`. */
static int copy_self(const char *path, const char *ctx)
{
	char *data;
	long len = read_whole("/proc/self/exe", &data);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0755);

	if (len < 0 || fd < 0 || write(fd, data, len) != len || close(fd))
		return -1;
	free(data);
	return mlte_set_label(path, ctx);
}

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

TEST(mlte_in_chain)
{
	char chain[256];

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	EXPECT_TRUE(chain_has("mlte", chain, sizeof(chain)))
		TH_LOG("chain is '%s'", escaped(chain));
}

/* Before the policy: mlte in the chain, nothing else. */
FIXTURE(mlte) {};

FIXTURE_SETUP(mlte)
{
	char chain[256];

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(chain_has("mlte", chain, sizeof(chain)))
		TH_LOG("mlte is not in this boot's chain '%s'", escaped(chain));
}

FIXTURE_TEARDOWN(mlte)
{
}

/*
 * The blob layout of this chain (printed for the docs), and mlte's slots:
 * a label (the 4-byte SID of the object's context) in the cred and IPC
 * blobs, in the sock blob with its socket's class (8 bytes), and in the
 * inode blob with the SID of the inode's maker and a socket's class (12
 * bytes), and, with capstack, capstack's cred slot apart from mlte's.
 * The cred offsets of mlte and capstack (-1 if absent).
 */
/* The size of mlte's label: a SID. */
#define MLTE_LABEL_SIZE 4
/* An inode's: its label, its maker's SID and a socket's class. */
#define MLTE_INODE_SIZE 12
/* A sock's and a System V IPC object's: its label and its class. */
#define MLTE_CLASSED_SIZE 8

static long label_slots(long *mlte_cred, long *cap_cred, int print)
{
	char buf[2048], *line, *save;
	long off, size, slots = 0;
	char name[32], kind[32];

	*mlte_cred = *cap_cred = -1;
	read_value("/sys/kernel/security/stacker/layout", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (print)
			printf("# layout: %s\n", line);
		if (sscanf(line, "%31s %31s %ld %ld", name, kind, &off, &size) != 4)
			continue;
		if (!strcmp(name, "mlte") && size == MLTE_LABEL_SIZE &&
		    (!strcmp(kind, "cred") || !strcmp(kind, "msg_msg")))
			slots++;
		if (!strcmp(name, "mlte") && size == MLTE_CLASSED_SIZE &&
		    (!strcmp(kind, "sock") || !strcmp(kind, "ipc")))
			slots++;
		if (!strcmp(name, "mlte") && size == MLTE_INODE_SIZE && !strcmp(kind, "inode"))
			slots++;
		if (!strcmp(name, "mlte") && !strcmp(kind, "cred"))
			*mlte_cred = off;
		if (!strcmp(name, "capstack") && !strcmp(kind, "cred"))
			*cap_cred = off;
	}
	return slots;
}

TEST_F(mlte, mlte_has_a_label_slot_in_five_blobs)
{
	long mlte_cred, cap_cred;

	EXPECT_EQ(5, label_slots(&mlte_cred, &cap_cred, 1))
		TH_LOG("expected a %d-byte mlte slot in each of cred and msg_msg, %d in each of sock and ipc, %d in inode",
		       MLTE_LABEL_SIZE, MLTE_CLASSED_SIZE, MLTE_INODE_SIZE);
}

TEST_F(mlte, capstack_and_mlte_cred_slots_apart)
{
	long mlte_cred, cap_cred;

	label_slots(&mlte_cred, &cap_cred, 0);
	if (cap_cred < 0)
		SKIP(return, "capstack is not in this chain");
	EXPECT_TRUE(cap_cred + 16 <= mlte_cred || mlte_cred + MLTE_LABEL_SIZE <= cap_cred)
		TH_LOG("capstack at %ld, mlte at %ld", cap_cred, mlte_cred);
}

TEST_F(mlte, policy_file_present)
{
	char *policy = NULL;

	EXPECT_LT(0, read_whole(POLICY_BIN, &policy))
		TH_LOG(POLICY_BIN ": %s", strerror(errno));
	free(policy);
}

TEST_F(mlte, policy_write_needs_cap_mac_admin)
{
	int rc = write_as_uid1000_errno(MLTE "policy", "x");

	EXPECT_EQ(EPERM, rc)
		TH_LOG("a write without CAP_MAC_ADMIN: %s",
		       rc < 0 ? "setup failure" : errno_text(rc));
}

TEST_F(mlte, policy_loaded)
{
	char *policy = NULL;
	long len = read_whole(POLICY_BIN, &policy);

	ASSERT_LT(0, len)
		TH_LOG(POLICY_BIN ": %s", strerror(errno));
	EXPECT_ERRNO(0, write_bytes(MLTE "policy", policy, len));
	free(policy);
}

static const char *const files[][2] = {
	{ DIR "/public", "system_u:object_r:public_t:s0" },
	{ DIR "/secret", "system_u:object_r:secret_t:s0" },
	{ DIR "/log", "system_u:object_r:log_t:s0" },
	{ DIR "/public_s2", "system_u:object_r:public_t:s2" },
	{ DIR "/public_s1c0", "system_u:object_r:public_t:s1:c0" },
	{ DIR "/public_s1c2", "system_u:object_r:public_t:s1:c2" },
	{ DIR "/tmpdir", "system_u:object_r:tmp_t:s0" },
};

/*
 * With the policy loaded: the test files, labelled, and the two labelled
 * copies of this program that enter the test domains.
 */
FIXTURE(loaded)
{
	char *policy;
	long len;
	int capstack_policy;	/* a test loaded capstack's: clear it */
};

FIXTURE_SETUP(loaded)
{
	char chain[256];
	size_t i;

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_TRUE(chain_has("mlte", chain, sizeof(chain)))
		TH_LOG("mlte is not in this boot's chain '%s'", escaped(chain));
	self->len = read_whole(POLICY_BIN, &self->policy);
	ASSERT_LT(0, self->len)
		TH_LOG(POLICY_BIN ": %s", strerror(errno));
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", self->policy, self->len));

	mkdir(DIR, 0755);
	mkdir(DIR "/tmpdir", 0777);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		if (strcmp(files[i][0], DIR "/tmpdir"))
			ASSERT_EQ(0, make_file(files[i][0]) || chmod(files[i][0], 0666))
				TH_LOG("%s: %s", files[i][0], strerror(errno));
		ASSERT_ERRNO(0, mlte_set_label(files[i][0], files[i][1]))
			TH_LOG("%s: %s", files[i][0], files[i][1]);
	}
	if (strcmp(mlte_label_of(USER), "system_u:object_r:user_exec_t:s0"))
		ASSERT_EQ(0, copy_self(USER, "system_u:object_r:user_exec_t:s0"))
			TH_LOG(USER ": %s", strerror(errno));
	if (strcmp(mlte_label_of(NONET), "system_u:object_r:nonet_exec_t:s0"))
		ASSERT_EQ(0, copy_self(NONET, "system_u:object_r:nonet_exec_t:s0"))
			TH_LOG(NONET ": %s", strerror(errno));
}

FIXTURE_TEARDOWN(loaded)
{
	write_value(MLTE "enforce", "1");
	if (self->capstack_policy)
		write_value("/sys/kernel/security/stacker/capstack/policy", "\n");
	free(self->policy);
}

TEST_F(loaded, init_runs_in_sid_kernel)
{
	char buf[256] = "";

	EXPECT_ERRNO(0, read_value(ATTR, buf, sizeof(buf)));
	EXPECT_STREQ("system_u:system_r:init_t:s0", buf);
}

TEST_F(loaded, labels_set_and_read_back)
{
	size_t i;

	/* Each file has a label of its own, which the message shows. */
	for (i = 0; i < ARRAY_SIZE(files); i++)
		EXPECT_STREQ(files[i][1], mlte_label_of(files[i][0]));
	EXPECT_STREQ("system_u:object_r:user_exec_t:s0", mlte_label_of(USER));
	EXPECT_STREQ("system_u:object_r:nonet_exec_t:s0", mlte_label_of(NONET));
}

/* Type enforcement and MLS, from the test domains. */
TEST_F(loaded, user_reads_public)
{
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/public"));
}

TEST_F(loaded, user_cannot_read_secret)
{
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
}

TEST_F(loaded, s1_cannot_read_s2)
{
	EXPECT_EQ(EACCES, as("s1", USER, "read", DIR "/public_s2"));
}

TEST_F(loaded, s1_cannot_write_s0)
{
	EXPECT_EQ(EACCES, as("s1", USER, "write", DIR "/public"));
}

TEST_F(loaded, s1_reads_s0)
{
	EXPECT_EQ(0, as("s1", USER, "read", DIR "/public"));
}

TEST_F(loaded, truncating_is_writing)
{
	EXPECT_EQ(0, as("s0", USER, "trunc", DIR "/public"));
}

/*
 * user_t may append to log_t files but not write them: taking O_APPEND off
 * an open file (fcntl F_SETFL) needs `write`, as SELinux's
 * selinux_file_fcntl(). init_t may.
 */
TEST_F(loaded, taking_append_mode_off_needs_write)
{
	EXPECT_EQ(EACCES, as("s0", USER, "unappend", DIR "/log"));
	EXPECT_EQ(0, child_op("unappend", DIR "/log"));
}

/*
 * Appending is `append`, which user_t lacks on public_t though it may read
 * and write it: as SELinux's file_mask_to_av(), also for a read-only open
 * with O_APPEND (MAY_READ | MAY_APPEND, no MAY_WRITE).
 */
TEST_F(loaded, appending_needs_append)
{
	EXPECT_EQ(EACCES, as("s0", USER, "append", DIR "/public"));
	EXPECT_EQ(EACCES, as("s0", USER, "read_append", DIR "/public"));
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/public"));
}

TEST_F(loaded, s1_writes_s2)
{
	EXPECT_EQ(0, as("s1", USER, "write", DIR "/public_s2"));
}

TEST_F(loaded, s1_c0c1_reads_s1_c0)
{
	EXPECT_EQ(0, as("s1:c0,c1", USER, "read", DIR "/public_s1c0"));
}

TEST_F(loaded, s1_c0c1_cannot_read_s1_c2)
{
	EXPECT_EQ(EACCES, as("s1:c0,c1", USER, "read", DIR "/public_s1c2"));
}

/*
 * file ioctl: user_t may open public_t but not ioctl it; it may ioctl
 * file_t (the file then answers ENOTTY: not a terminal). A 32-bit
 * program's ioctl (file_ioctl_compat) is checked the same.
 */
TEST_F(loaded, user_cannot_ioctl_public)
{
	EXPECT_EQ(EACCES, as("s0", USER, "ioctl", DIR "/public"));
	EXPECT_EQ(ENOTTY, as("s0", USER, "ioctl", "/helpers/ioctl32"));
}

TEST_F(loaded, user_cannot_ioctl_public_from_32_bit)
{
	EXPECT_EQ(EACCES, as("s0", USER, "ioctl32", DIR "/public"));
}

TEST_F(loaded, user_ioctls_file_t_from_32_bit)
{
	EXPECT_EQ(ENOTTY, as("s0", USER, "ioctl32", "/helpers/ioctl32"));
}

/*
 * POSIX ACLs (inode_set_acl, _get_acl, _remove_acl), which the xattr hooks
 * never see: as SELinux, setting or removing one is setattr, reading one
 * getattr. user_t has no setattr on public_t and nothing on secret_t; it
 * has setattr on the files it creates (user_tmp_t).
 */
TEST_F(loaded, user_cannot_set_acl_of_public)
{
	EXPECT_EQ(EACCES, as("s0", USER, "setacl", DIR "/public"));
}

TEST_F(loaded, user_sets_acl_of_own_file)
{
	unlink(DIR "/tmpdir/acl");
	EXPECT_EQ(0, as("s0", USER, "create_setacl", DIR "/tmpdir/acl"));
	/* And reads it back (getattr), and removes it (setattr). */
	EXPECT_EQ(0, as("s0", USER, "getacl", DIR "/tmpdir/acl"));
	EXPECT_EQ(0, as("s0", USER, "removeacl", DIR "/tmpdir/acl"));
}

TEST_F(loaded, user_cannot_read_acl_of_secret)
{
	EXPECT_EQ(EACCES, as("s0", USER, "getacl", DIR "/secret"));
	/* public_t it may getattr: the file system's own answer, no ACL. */
	EXPECT_EQ(ENODATA, as("s0", USER, "getacl", DIR "/public"));
}

TEST_F(loaded, user_cannot_remove_acl_of_public)
{
	ASSERT_ERRNO(0, setxattr(DIR "/public", ACL_XATTR, extended_acl, sizeof(extended_acl), 0));
	EXPECT_EQ(EACCES, as("s0", USER, "removeacl", DIR "/public"));
	EXPECT_ERRNO(0, removexattr(DIR "/public", ACL_XATTR));
}

/* exec moves the task into its domain (exit 1: attr/current, 2: lsm_get_self_attr). */
TEST_F(loaded, exec_enters_user_t)
{
	EXPECT_EQ(0, as("s1:c0,c1", USER, "attr", "system_u:system_r:user_t:s1:c0,c1"));
}

TEST_F(loaded, exec_enters_nonet_t)
{
	EXPECT_EQ(0, as("s0", NONET, "attr", "system_u:system_r:nonet_t:s0"));
}

/*
 * A domain change asks for AT_SECURE unless the policy grants process
 * noatsecure (selinux_bprm_creds_for_exec()): init_t has it on nonet_t,
 * not on user_t. Before, every change was secure.
 */
TEST_F(loaded, domain_change_is_a_secure_exec_without_noatsecure)
{
	EXPECT_EQ(0, as("s0", USER, "atsecure", "-"));
	EXPECT_EQ(1, as("s0", NONET, "atsecure", "-"));
}

/*
 * Under no_new_privs, as SELinux's check_nnp_nosuid(): the exec of
 * user_exec_t, whose transition the policy does not allow under NNP, runs
 * the program in the old domain (init_t, which may execute it without a
 * transition), not EPERM; the policy's `process2 nnp_transition` (under
 * `policycap nnp_nosuid_transition`) lets the exec of nonet_exec_t enter
 * nonet_t. Before, both were EPERM, which broke NoNewPrivileges=yes
 * services.
 */
TEST_F(loaded, no_new_privs_falls_back_to_the_old_domain)
{
	EXPECT_EQ(0, as_flags("s0", 1, USER, "attr", "system_u:system_r:init_t:s0"));
	EXPECT_EQ(0, as_flags("s0", 1, NONET, "attr", "system_u:system_r:nonet_t:s0"));
}

/* New files: the type_transition in tmp_t, the parent's type elsewhere. */
TEST_F(loaded, user_creates_in_tmp_dir)
{
	unlink(DIR "/tmpdir/new");
	EXPECT_EQ(0, as("s0", USER, "create", DIR "/tmpdir/new"));
}

TEST_F(loaded, new_file_gets_transition_label)
{
	unlink(DIR "/tmpdir/new");
	ASSERT_EQ(0, as("s0", USER, "create", DIR "/tmpdir/new"));
	EXPECT_STREQ("system_u:object_r:user_tmp_t:s0", mlte_label_of(DIR "/tmpdir/new"));
}

/* A new file of the name a name-based type_transition gives: its type. */
TEST_F(loaded, new_file_gets_the_name_based_transition_label)
{
	unlink(DIR "/tmpdir/public");
	ASSERT_EQ(0, as("s0", USER, "create", DIR "/tmpdir/public"));
	EXPECT_STREQ("system_u:object_r:public_t:s0", mlte_label_of(DIR "/tmpdir/public"));
	unlink(DIR "/tmpdir/publi");
	ASSERT_EQ(0, as("s0", USER, "create", DIR "/tmpdir/publi"));
	EXPECT_STREQ("system_u:object_r:user_tmp_t:s0", mlte_label_of(DIR "/tmpdir/publi"));
}

/* A new file, made by init_t, with the label of the parent's type. */
static void new_plain_file(struct __test_metadata *_metadata)
{
	unlink(DIR "/plain");
	ASSERT_EQ(0, make_file(DIR "/plain"))
		TH_LOG(DIR "/plain: %s", strerror(errno));
}

TEST_F(loaded, new_file_gets_parent_type)
{
	new_plain_file(_metadata);
	EXPECT_STREQ("system_u:object_r:file_t:s0", mlte_label_of(DIR "/plain"));
}

TEST_F(loaded, user_cannot_create_outside_tmp)
{
	unlink(DIR "/other");
	EXPECT_EQ(EACCES, as("s0", USER, "create", DIR "/other"));
}

/* Labels: only what the policy allows, only labels it knows. */
TEST_F(loaded, user_cannot_relabel)
{
	/*
	 * EPERM: the capability module's CAP_SYS_ADMIN test of a security.*
	 * xattr comes first, and the policy does not give user_t sys_admin
	 * (relabelfrom, which it has not either, is asked after).
	 */
	EXPECT_EQ(EPERM, as("s0", USER, "relabel", DIR "/secret"));
	/*
	 * nonet_t has CAP_SYS_ADMIN by the policy, not relabelfrom (public_t:
	 * its denials on secret_t are the dontaudit test's).
	 */
	EXPECT_EQ(EACCES, as("s0", NONET, "relabel", DIR "/public"));
}

TEST_F(loaded, invalid_label_einval)
{
	new_plain_file(_metadata);
	EXPECT_ERRNO(EINVAL, mlte_set_label(DIR "/plain", "system_u:object_r:bogus_t:s0"));
	/* The old TYPE:LEVEL form, and contexts the policy finds invalid: a
	 * domain's role with a file type, a range above system_u's. */
	EXPECT_ERRNO(EINVAL, mlte_set_label(DIR "/plain", "public_t:s0"));
	EXPECT_ERRNO(EINVAL, mlte_set_label(DIR "/plain", "system_u:system_r:public_t:s0"));
	EXPECT_ERRNO(EINVAL, mlte_set_label(DIR "/plain", "system_u:system_r:user_t:s0-s1:c0-s0"));
}

TEST_F(loaded, label_with_undeclared_level_einval)
{
	new_plain_file(_metadata);
	EXPECT_ERRNO(EINVAL, mlte_set_label(DIR "/plain", "system_u:object_r:public_t:s3"));
}

TEST_F(loaded, refused_label_keeps_the_old)
{
	new_plain_file(_metadata);
	mlte_set_label(DIR "/plain", "system_u:object_r:bogus_t:s0");
	mlte_set_label(DIR "/plain", "system_u:object_r:public_t:s3");
	EXPECT_STREQ("system_u:object_r:file_t:s0", mlte_label_of(DIR "/plain"));
}

/*
 * The fixture disk's /mlte files (scripts/integrity-fixtures.py), each
 * first reached by a lookup with the policy loaded, so that mlte reads its
 * label in d_instantiate, where the dentry does not have the inode yet.
 * user_t may read file_t (the unlabelled /mlte/plain) and not secret_t.
 * SKIP in the boots without the disk.
 */
#define ON_DISK(name) FIXTURE_MNT "/mlte/" name

TEST_F(loaded, label_on_disk_read_at_lookup)
{
	NEEDS_FIXTURE_DISK();
	EXPECT_EQ(0, as("s0", USER, "read", ON_DISK("plain")));
	EXPECT_EQ(EACCES, as("s0", USER, "read", ON_DISK("labelled")))
		TH_LOG("user_t read a secret_t file: its label was not read");
	EXPECT_STREQ("system_u:object_r:secret_t:s0", mlte_label_of(ON_DISK("labelled")));
}

/*
 * A label that cannot be read is decided as `sid unlabeled`, never as `sid
 * file`: /mlte/unreadable's label is in an xattr block whose checksum is
 * broken, so ext4 refuses every read of it (EFSBADCRC). The failure is not
 * cached: the next access reads again, and each failure is counted in
 * mlte/status.
 */
TEST_F(loaded, unreadable_label_decided_as_unlabeled)
{
	long before;
	int round;

	NEEDS_FIXTURE_DISK();
	for (round = 0; round < 2; round++) {
		before = status_count("label_read_errors ");
		EXPECT_EQ(EACCES, as("s0", USER, "read", ON_DISK("unreadable")))
			TH_LOG("round %d: user_t's read of a file whose label cannot be read", round);
		EXPECT_LE(0, before)
			TH_LOG("mlte/status has no label_read_errors");
		EXPECT_LT(before, status_count("label_read_errors "))
			TH_LOG("round %d: the label read did not fail", round);
	}
	/* getxattr shows the file system's answer, not the stand-in. */
	EXPECT_ERRNO(EBADMSG, getxattr(ON_DISK("unreadable"), MLTE_XATTR, NULL, 0));
}

/* Sockets and IPC. */
TEST_F(loaded, nonet_cannot_create_socket)
{
	EXPECT_EQ(EACCES, as("s0", NONET, "socket", "-"));
}

TEST_F(loaded, user_creates_socket)
{
	EXPECT_EQ(0, as("s0", USER, "socket", "-"));
}

/* A Unix socket of init_t's at abstract address `name`, listening. */
static int abstract_socket(int type, const char *name)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
	int fd = socket(AF_UNIX, type, 0);

	strncpy(a.sun_path + 1, name, sizeof(a.sun_path) - 2);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) ||
	    (type == SOCK_STREAM && listen(fd, 8))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/*
 * Unix sockets, abstract ones too, as SELinux's hooks: connecting needs
 * `connectto` on the listener (selinux_socket_unix_stream_connect()),
 * a datagram `sendto` on the receiver (selinux_socket_unix_may_send()).
 * user_t may connect and write its own sockets but has neither on init_t's;
 * init_t has both. Before, both went through on user_t's own permissions.
 */
TEST_F(loaded, unix_connect_needs_connectto_and_a_datagram_sendto)
{
	int stream = abstract_socket(SOCK_STREAM, "mlte-test-stream");
	int dgram = abstract_socket(SOCK_DGRAM, "mlte-test-dgram");

	ASSERT_LE(0, stream) TH_LOG("listening: %s", strerror(errno));
	ASSERT_LE(0, dgram) TH_LOG("binding: %s", strerror(errno));
	EXPECT_EQ(EACCES, as("s0", USER, "connect", "@mlte-test-stream"));
	EXPECT_EQ(EACCES, as("s0", USER, "sendto", "@mlte-test-dgram"));
	EXPECT_EQ(0, child_op("connect", "@mlte-test-stream"));
	EXPECT_EQ(0, child_op("sendto", "@mlte-test-dgram"));
	close(stream);
	close(dgram);
}

TEST_F(loaded, init_connects)
{
	EXPECT_EQ(ENOENT, child_op("connect", "-"));
}

TEST_F(loaded, nonet_cannot_create_ipc)
{
	EXPECT_EQ(EACCES, as("s0", NONET, "msgget", "-"));
}

TEST_F(loaded, user_creates_ipc)
{
	EXPECT_EQ(0, as("s0", USER, "msgget", "-"));
}

/*
 * A message is labelled when sent (user_t's are public_t, by a
 * type_transition on msg) and must be let into the queue: with no `msgq
 * enqueue` from public_t, user_t's message is refused, though user_t may
 * write to its queue and send public_t messages. init_t's messages are
 * init_t's, which may be queued.
 */
TEST_F(loaded, a_message_needs_enqueue_from_its_own_type)
{
	EXPECT_EQ(EACCES, as("s0", USER, "msgsend", "-"));
	EXPECT_EQ(0, child_op("msgsend", "-"));
}

/*
 * semop and shmat ask `read`, and `write` when they alter or attach for
 * writing, beyond ipcperms()' unix_read and unix_write: nonet_t has
 * those, `read`, and no `write`. So does semctl: GETVAL reads, SETVAL
 * writes.
 */
TEST_F(loaded, semop_shmat_and_semctl_ask_read_and_write)
{
	EXPECT_EQ(0, as("s0", NONET, "semop", "wait"));
	EXPECT_EQ(EACCES, as("s0", NONET, "semop", "alter"));
	EXPECT_EQ(0, as("s0", NONET, "shmat", "ro"));
	EXPECT_EQ(EACCES, as("s0", NONET, "shmat", "rw"));
	EXPECT_EQ(0, as("s0", NONET, "semctl", "get"));
	EXPECT_EQ(EACCES, as("s0", NONET, "semctl", "set"));
	EXPECT_EQ(0, as("s0", USER, "semop", "alter"));
	EXPECT_EQ(0, as("s0", USER, "shmat", "rw"));
	EXPECT_EQ(0, as("s0", USER, "semctl", "set"));
}

/* IPC_INFO is about no queue: `system ipc_info`, as in SELinux. */
TEST_F(loaded, ipc_info_needs_system_ipc_info)
{
	EXPECT_EQ(EACCES, as("s0", USER, "ipcinfo", "-"));
	EXPECT_EQ(0, child_op("ipcinfo", "-"));
}

/* Permissive mode (the fixture sets enforcing mode again). */
/*
 * W^X, as SELinux's file_map_prot_check() and selinux_file_mprotect():
 * user_t may map its own program for reading and executing, but not also
 * writable (a private W+X mapping needs process execmem). nonet_t has
 * execmem, so it may, but it may not make its stack (execstack) or its
 * heap (execheap) executable. init_t may do all. Before, user_t's W+X
 * mapping of an executable file and nonet_t's mprotect()s (which asked
 * execmem only) went through.
 */
TEST_F(loaded, write_and_execute_need_execmem_execstack_execheap)
{
	EXPECT_EQ(0, as("s0", USER, "map_rx", USER));
	EXPECT_EQ(EACCES, as("s0", USER, "map_wx", USER));
	EXPECT_EQ(0, as("s0", NONET, "map_wx", NONET));
	EXPECT_EQ(EACCES, as("s0", NONET, "mprotect_stack", ""));
	EXPECT_EQ(EACCES, as("s0", NONET, "mprotect_heap", ""));
	EXPECT_EQ(0, child_op("map_wx", USER));
	EXPECT_EQ(0, child_op("mprotect_stack", ""));
	EXPECT_EQ(0, child_op("mprotect_heap", ""));
}

/*
 * A shared writable mapping writes the file: it needs `write`, which
 * user_t lacks on log_t though it may read and append (file_map_prot_to_av()).
 * A private one writes no file. Before, append without write was a way to
 * overwrite the file through a shared mapping.
 */
TEST_F(loaded, a_shared_writable_mapping_needs_write)
{
	EXPECT_EQ(EACCES, as("s0", USER, "map_shared_write", DIR "/log"));
	/* MAP_SHARED_VALIDATE too (stricter than SELinux, which lets it by). */
	EXPECT_EQ(EACCES, as("s0", USER, "map_shared_write_validate", DIR "/log"));
	EXPECT_EQ(0, as("s0", USER, "map_private_write", DIR "/log"));
	EXPECT_EQ(0, child_op("map_shared_write", DIR "/log"));
}

/*
 * Runs `op` at `level` in `exec`'s domain on a descriptor init_t opened
 * (at s0) on `path`.
 */
static int on_inherited_fd(const char *level, const char *exec, const char *op,
			   const char *path)
{
	char number[16];
	int fd = open(path, O_RDONLY), rc;

	if (fd < 0)
		return -1;
	snprintf(number, sizeof(number), "%d", fd);
	rc = as(level, exec, op, number);
	close(fd);
	return rc;
}

/*
 * A descriptor is decided again when another domain uses it, as SELinux's
 * selinux_file_permission(): after the exec into user_t, a read through
 * init_t's descriptor of secret_t is refused (user_t may not read
 * secret_t), one of public_t is not; and using a descriptor another
 * context opened is `fd use`, which the policy lets nonet_t have only on
 * descriptors opened at its own level: at s1, it may not read through
 * init_t's s0 descriptor of a file it may read. Before, the open's
 * decision held for every later holder.
 */
TEST_F(loaded, an_inherited_descriptor_is_decided_again_with_fd_use)
{
	unlink(DIR "/inherited");
	ASSERT_EQ(0, make_file(DIR "/inherited")) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(EACCES, on_inherited_fd("s0", USER, "readfd", DIR "/secret"));
	EXPECT_EQ(0, on_inherited_fd("s0", USER, "readfd", DIR "/public"));
	EXPECT_EQ(0, on_inherited_fd("s0", NONET, "readfd", DIR "/inherited"));
	EXPECT_EQ(EACCES, on_inherited_fd("s1", NONET, "readfd", DIR "/inherited"));
	EXPECT_EQ(0, on_inherited_fd("s1", USER, "readfd", DIR "/inherited"));
}

/*
 * The smaller checks: kill(self, 0) is `signull` (which the test domains
 * lack: they have `signal`), reading a symlink `lnk_file read`, renaming
 * a directory `dir rename` on it. user_t may add and remove names in
 * tmp_t, but not rename a secret_t directory there. Before, all three went
 * through.
 */
TEST_F(loaded, signull_symlinks_and_directory_renames)
{
	const char *secret = "system_u:object_r:secret_t:s0";

	EXPECT_EQ(EACCES, as("s0", USER, "signull", ""));
	unlink(DIR "/secretlink");
	ASSERT_EQ(0, symlink("public", DIR "/secretlink"));
	ASSERT_EQ(0, lsetxattr(DIR "/secretlink", "security.mlte", secret, strlen(secret), 0))
		TH_LOG("%s", strerror(errno));
	EXPECT_EQ(EACCES, as("s0", USER, "readlink", DIR "/secretlink"));
	EXPECT_EQ(0, child_op("readlink", DIR "/secretlink"));
	rmdir(DIR "/tmpdir/sdir");
	rmdir(DIR "/tmpdir/sdir2");
	ASSERT_EQ(0, mkdir(DIR "/tmpdir/sdir", 0777));
	ASSERT_ERRNO(0, mlte_set_label(DIR "/tmpdir/sdir", secret));
	EXPECT_EQ(EACCES, as("s0", USER, "rename", DIR "/tmpdir/sdir"));
	EXPECT_EQ(0, child_op("rename", DIR "/tmpdir/sdir"));
	rmdir(DIR "/tmpdir/sdir2");
}

/*
 * Mounts, as SELinux's hooks: mount(2) asks `mounton` on the mount point
 * and `filesystem mount` on the new file system's context, the new mount
 * API's move_mount(2) `mounton` too, umount(2) `filesystem unmount`.
 * nonet_t (with CAP_SYS_ADMIN) may mount on tmp_t directories and mount
 * file_t file systems, not unmount them, and may not mount on secret_t.
 * Before, mount(2) asked `filesystem mount` on the mount point (so nonet_t
 * could not mount on tmp_t), and move_mount and umount asked nothing.
 */
TEST_F(loaded, mounts_ask_mounton_and_the_file_systems_context)
{
	mkdir(DIR "/secretdir", 0755);
	ASSERT_ERRNO(0, mlte_set_label(DIR "/secretdir", "system_u:object_r:secret_t:s0"));
	EXPECT_EQ(0, as("s0", NONET, "mount", DIR "/tmpdir"));
	EXPECT_EQ(EACCES, as("s0", NONET, "umount", DIR "/tmpdir"));
	EXPECT_EQ(0, umount2(DIR "/tmpdir", MNT_DETACH)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(EACCES, as("s0", NONET, "mount", DIR "/secretdir"));
	EXPECT_EQ(EACCES, as("s0", NONET, "fsmount", DIR "/secretdir"));
	EXPECT_EQ(0, as("s0", NONET, "fsmount", DIR "/tmpdir"));
	EXPECT_EQ(0, umount2(DIR "/tmpdir", MNT_DETACH)) TH_LOG("%s", strerror(errno));
	umount2(DIR "/secretdir", MNT_DETACH);
}

/*
 * Confined root: the test domains run as uid 0, yet a capability is only
 * theirs when the policy grants it (SELinux's `capability` class):
 * user_t may lower its nice value (CAP_SYS_NICE), nonet_t may not. The
 * next test shows the policy interface asking the policy too. Before,
 * both did what root does.
 */
TEST_F(loaded, confined_root_has_only_the_capabilities_the_policy_grants)
{
	EXPECT_EQ(0, as("s0", USER, "nice", ""));
	EXPECT_EQ(EACCES, as("s0", NONET, "nice", ""));
}

/*
 * The policy interface asks the policy (`security` on sid security): a
 * root task in user_t, which has CAP_MAC_ADMIN by the policy, still cannot
 * switch mlte to permissive or load a policy; one in nonet_t does not even
 * pass the CAP_MAC_ADMIN test. Before, both could (seen in the guest).
 */
TEST_F(loaded, confined_root_cannot_change_the_mode_or_the_policy)
{
	char mode[8];

	EXPECT_EQ(EACCES, as("s0", USER, "setenforce", "0"));
	EXPECT_EQ(EPERM, as("s0", NONET, "setenforce", "0"));
	EXPECT_EQ(EACCES, as("s0", USER, "load", ""));
	EXPECT_EQ(EPERM, as("s0", NONET, "load", ""));
	EXPECT_EQ(0, read_value(MLTE "enforce", mode, sizeof(mode)));
	EXPECT_STREQ("1\n", mode) TH_LOG("the mode changed");
	/* Writing the mode in force changes nothing, and is not refused. */
	EXPECT_EQ(0, as("s0", USER, "setenforce", "1"));
}

/*
 * attr/current asks setcurrent of the task on itself, then dyntransition
 * from its context to the new one, which an mlsconstrain keeps from going
 * up a level: user_t (both) moves down, never up nor into init_t; nonet_t
 * (refpolicy's setcurrent on itself, no dyntransition) moves nowhere.
 * Before, setcurrent from the old context to the new was the only check,
 * so nonet_t reached any level.
 */
TEST_F(loaded, confined_root_cannot_change_its_own_level)
{
	EXPECT_EQ(0, as("s1", USER, "setcon", "system_u:system_r:user_t:s0"));
	EXPECT_EQ(EACCES, as("s0", USER, "setcon", "system_u:system_r:user_t:s2"));
	EXPECT_EQ(EACCES, as("s0", USER, "setcon", "system_u:system_r:init_t:s0"));
	EXPECT_EQ(EACCES, as("s0", NONET, "setcon", "system_u:system_r:nonet_t:s2"));
	EXPECT_EQ(EACCES, as("s1", NONET, "setcon", "system_u:system_r:nonet_t:s0"));
}

TEST_F(loaded, permissive_mode_set)
{
	EXPECT_ERRNO(0, write_value(MLTE "enforce", "0"));
}

TEST_F(loaded, permissive_allows_secret)
{
	ASSERT_ERRNO(0, write_value(MLTE "enforce", "0"));
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/secret"));
}

TEST_F(loaded, permissive_counts_the_denial)
{
	long before = status_count("denials ");

	ASSERT_ERRNO(0, write_value(MLTE "enforce", "0"));
	as("s0", USER, "read", DIR "/secret");
	EXPECT_LT(before, status_count("denials "));
}

/*
 * Denial lines share one rate limit (50 per 5 s, lsm.c), which the tests
 * before may have used up: the denial is made again, once a second, until
 * its line shows, for up to two windows.
 */
TEST_F(loaded, permissive_logs_avc_line)
{
	int tries = 0;

	ASSERT_ERRNO(0, write_value(MLTE "enforce", "0"));
	do {
		if (tries)
			sleep(1);
		as("s0", USER, "read", DIR "/secret");
	} while (!(klog_has("permissive=1") && klog_has("tcontext=system_u:object_r:secret_t:s0 tclass=file")) &&
		 ++tries < 11);
	EXPECT_LT(tries, 11)
		TH_LOG("no avc line with permissive=1 for secret_t");
}

/*
 * A dontaudit rule: nonet_t's read of secret_t is denied and counted, but
 * logs no line, while user_t's same denial does (made after it, until its
 * line shows past the shared rate limit).
 */
TEST_F(loaded, dontaudit_denies_without_a_line)
{
	int tries = 0;

	do {
		if (tries)
			sleep(1);
		EXPECT_EQ(EACCES, as("s0", NONET, "read", DIR "/secret"));
		as("s0", USER, "read", DIR "/secret");
	} while (!klog_has("scontext=system_u:system_r:user_t:s0 tcontext=system_u:object_r:secret_t:s0 tclass=file") && ++tries < 11);
	ASSERT_LT(tries, 11) TH_LOG("no avc line for user_t's denial");
	EXPECT_FALSE(klog_has("scontext=system_u:system_r:nonet_t:s0 tcontext=system_u:object_r:secret_t:s0 tclass=file"))
		TH_LOG("a dontaudit denial was logged");
}

TEST_F(loaded, enforcing_mode_set)
{
	ASSERT_ERRNO(0, write_value(MLTE "enforce", "0"));
	EXPECT_ERRNO(0, write_value(MLTE "enforce", "1"));
}

/* Malformed, truncated and random compiled policies: EINVAL. */
static long write_malformed(FIXTURE_DATA(loaded) *self)
{
	char bad[self->len];

	memcpy(bad, self->policy, self->len);
	bad[4] = 99; /* the version */
	return write_bytes(MLTE "policy", bad, self->len);
}

static long write_truncated(FIXTURE_DATA(loaded) *self)
{
	return write_bytes(MLTE "policy", self->policy, self->len / 2);
}

static long write_random(FIXTURE_DATA(loaded) *self)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char bad[self->len];
	long i;

	for (i = 0; i < self->len; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		bad[i] = (char)seed;
	}
	return write_bytes(MLTE "policy", bad, self->len);
}

static void write_bad_policies(FIXTURE_DATA(loaded) *self)
{
	write_malformed(self);
	write_truncated(self);
	write_random(self);
}

TEST_F(loaded, malformed_policy_einval)
{
	EXPECT_ERRNO(EINVAL, write_malformed(self));
}

TEST_F(loaded, malformed_policy_logged_with_byte)
{
	write_malformed(self);
	EXPECT_TRUE(klog_has("mlte: policy rejected: byte 4: unknown version"))
		TH_LOG("no 'policy rejected: byte 4' line");
}

TEST_F(loaded, truncated_policy_einval)
{
	EXPECT_ERRNO(EINVAL, write_truncated(self));
}

TEST_F(loaded, random_policy_einval)
{
	EXPECT_ERRNO(EINVAL, write_random(self));
}

TEST_F(loaded, refused_policies_not_loaded)
{
	long loads = status_count("loads ");

	write_bad_policies(self);
	EXPECT_EQ(loads, status_count("loads "));
}

TEST_F(loaded, old_policy_still_denies_secret)
{
	write_bad_policies(self);
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
}

TEST_F(loaded, old_policy_still_allows_public)
{
	write_bad_policies(self);
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/public"));
}

/*
 * A reload may rename, reorder and drop types. A label whose type the new
 * policy lacks is decided as sid unlabeled, and its text is kept (as
 * SELinux keeps an invalidated context's); the old policy brings it back.
 */
TEST_F(loaded, reload_renaming_types_decides_lost_ones_as_unlabeled)
{
	char *renamed = NULL, buf[256] = "";
	long len = read_whole(RENAMED_BIN, &renamed);

	ASSERT_LT(0, len)
		TH_LOG(RENAMED_BIN ": %s", strerror(errno));
	ASSERT_EQ(0, as("s0", USER, "read", DIR "/public"));
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", renamed, len));
	free(renamed);
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/public"))
		TH_LOG("public_t is gone: the file is unlabeled_t to user_t");
	EXPECT_STREQ("system_u:object_r:public_t:s0", mlte_label_of(DIR "/public"));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
	EXPECT_ERRNO(0, read_value(ATTR, buf, sizeof(buf)));
	EXPECT_STREQ("system_u:system_r:init_t:s0", buf);
	EXPECT_STREQ("system_u:object_r:user_exec_t:s0", mlte_label_of(USER));
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", self->policy, self->len));
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/public"))
		TH_LOG("the old policy reads public_t again");
}

/*
 * A permissive domain and an auditallow rule (/etc/mlte/audited.bin: the
 * test policy with "permissive nonet_t;" and "auditallow user_t public_t :
 * file read;"), while enforcing: nonet_t's socket, denied by the test
 * policy, goes ahead with a "permissive=1" line; user_t's read of public_t
 * is logged as "granted". Each line is made again, once a second, past the
 * shared rate limit.
 */
TEST_F(loaded, permissive_domain_and_auditallow)
{
	char *audited = NULL;
	long len = read_whole(AUDITED_BIN, &audited);
	int tries = 0;

	ASSERT_LT(0, len)
		TH_LOG(AUDITED_BIN ": %s", strerror(errno));
	ASSERT_EQ(EACCES, as("s0", NONET, "socket", "-"));
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", audited, len));
	free(audited);
	do {
		if (tries)
			sleep(1);
		EXPECT_EQ(0, as("s0", NONET, "socket", "-"))
			TH_LOG("a permissive domain's denial goes ahead");
	} while (!(klog_has("scontext=system_u:system_r:nonet_t:s0") &&
		   klog_has("tclass=unix_stream_socket permissive=1")) && ++tries < 11);
	EXPECT_LT(tries, 11) TH_LOG("no permissive=1 line for nonet_t's socket");
	tries = 0;
	do {
		if (tries)
			sleep(1);
		EXPECT_EQ(0, as("s0", USER, "read", DIR "/public"));
	} while (!klog_has("avc: granted { read } for") && ++tries < 11);
	EXPECT_LT(tries, 11) TH_LOG("no granted line for user_t's read of public_t");
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"))
		TH_LOG("user_t is not permissive");
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", self->policy, self->len));
	EXPECT_EQ(EACCES, as("s0", NONET, "socket", "-"));
}

/*
 * A boolean (/etc/mlte/boolean.bin: the test policy with "if
 * (user_reads_secret) { allow user_t secret_t : file { read open getattr
 * }; }", the boolean false): user_t's read of secret_t follows it through
 * mlte/booleans and mlte/commit_pending_bools, and not before the commit.
 */
TEST_F(loaded, a_boolean_switches_a_conditional_allow)
{
	char *policy = NULL, listing[256] = "";
	long len = read_whole(BOOLEAN_BIN, &policy);

	ASSERT_LT(0, len)
		TH_LOG(BOOLEAN_BIN ": %s", strerror(errno));
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", policy, len));
	free(policy);
	EXPECT_ERRNO(0, read_value(MLTE "booleans", listing, sizeof(listing)));
	EXPECT_STREQ("user_reads_secret 0 0\n", listing);
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
	ASSERT_ERRNO(0, write_value(MLTE "booleans", "user_reads_secret 1"));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret")) TH_LOG("pending only");
	ASSERT_ERRNO(0, write_value(MLTE "commit_pending_bools", "1"));
	EXPECT_ERRNO(0, read_value(MLTE "booleans", listing, sizeof(listing)));
	EXPECT_STREQ("user_reads_secret 1 1\n", listing);
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/secret"));
	EXPECT_EQ(-1, write_value(MLTE "booleans", "no_such_bool 1"));
	EXPECT_EQ(ENOENT, errno);
	ASSERT_ERRNO(0, write_value(MLTE "booleans", "user_reads_secret 0"));
	ASSERT_ERRNO(0, write_value(MLTE "commit_pending_bools", "1"));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", self->policy, self->len));
}

TEST_F(loaded, a_policy_of_5000_more_types_loads_and_decides)
{
	char *scale = NULL, summary[256] = "";
	long len = read_whole(SCALE_BIN, &scale);
	struct timespec t0, t1;

	ASSERT_LT(0, len)
		TH_LOG(SCALE_BIN ": %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", scale, len));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(scale);
	TH_LOG("figure: a compiled policy of %ld bytes (5013 types, ~100,000 rules) "
	       "loaded in %ld us", len,
	       (t1.tv_sec - t0.tv_sec) * 1000000 + (t1.tv_nsec - t0.tv_nsec) / 1000);
	EXPECT_ERRNO(0, read_value(MLTE "policy", summary, sizeof(summary)));
	EXPECT_EQ(0, strncmp("loaded: 5013 types, ", summary, 20))
		TH_LOG("summary: %s", summary);
	ASSERT_EQ(0, make_file(DIR "/scaled") || make_file(DIR "/scaled_other"));
	ASSERT_ERRNO(0, mlte_set_label(DIR "/scaled", "system_u:object_r:scale_42_t:s0"));
	ASSERT_ERRNO(0, mlte_set_label(DIR "/scaled_other", "system_u:object_r:scale_43_t:s0"));
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/scaled"));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/scaled_other"));
	/* The base policy's decisions are the same. */
	EXPECT_EQ(0, as("s0", USER, "read", DIR "/public"));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
	EXPECT_EQ(EACCES, as("s1", USER, "write", DIR "/public"));
	/* Back to the test policy: the new types read as unlabeled. */
	ASSERT_ERRNO(0, write_bytes(MLTE "policy", self->policy, self->len));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/scaled"));
	EXPECT_STREQ("system_u:object_r:scale_42_t:s0", mlte_label_of(DIR "/scaled"));
	unlink(DIR "/scaled");
	unlink(DIR "/scaled_other");
}

/*
 * Asks mlte's transaction file `name` (access, create, context) the `len`
 * bytes of `q` on one open file and reads the answer into `out`: its
 * length, or -1 with errno.
 */
static long ask(const char *name, const char *q, size_t len, char *out, size_t size)
{
	char path[128];
	long n = -1;
	int fd, e;

	snprintf(path, sizeof(path), MLTE "%s", name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -1;
	if (write(fd, q, len) == (ssize_t)len)
		n = read(fd, out, size - 1);
	e = errno;
	close(fd);
	errno = e;
	if (n >= 0)
		out[n] = '\0';
	return n;
}

/* ask() with the string `q`. */
static long ask_str(const char *name, const char *q, char *out, size_t size)
{
	return ask(name, q, strlen(q), out, size);
}

/* The file permission bits of modules/mlte/classes.rs (FILE_PERMS). */
#define FILE_READ 0x2
#define FILE_WRITE 0x4
#define FILE_OPEN 0x800

/*
 * mlte/access answers what the hooks decide: for each level of user_t and
 * each test file, the allowed vector predicts whether an open for reading
 * or writing succeeds, and the open agrees.
 */
TEST_F(loaded, access_answers_as_the_hooks_decide)
{
	static const char *const levels[] = { "s0", "s1", "s2" };
	static const char *const ops[] = { "read", "write" };
	char q[256], answer[256];
	size_t l, f, o;
	int checked = 0, denied = 0;

	for (l = 0; l < ARRAY_SIZE(levels); l++)
		for (f = 0; f < ARRAY_SIZE(files); f++) {
			unsigned int allowed, decided, auditallow, auditdeny, flags;
			unsigned long seqno;

			if (!strcmp(files[f][0], DIR "/tmpdir"))
				continue;
			snprintf(q, sizeof(q), "system_u:system_r:user_t:%s %s file", levels[l], files[f][1]);
			ASSERT_LT(0, ask("access", q, strlen(q), answer, sizeof(answer)))
				TH_LOG("%s: %s", q, strerror(errno));
			ASSERT_EQ(6, sscanf(answer, "%x %x %x %x %lu %x", &allowed, &decided,
					    &auditallow, &auditdeny, &seqno, &flags))
				TH_LOG("%s: '%s'", q, answer);
			EXPECT_EQ(0xffffffffu, decided);
			EXPECT_EQ(0u, auditallow);
			EXPECT_EQ(0u, flags);
			for (o = 0; o < ARRAY_SIZE(ops); o++) {
				unsigned int need = FILE_OPEN | (o ? FILE_WRITE : FILE_READ);
				int want = (allowed & need) == need ? 0 : EACCES;

				EXPECT_EQ(want, as(levels[l], USER, ops[o], files[f][0]))
					TH_LOG("%s: %s says %#x, the hooks differ on %s", q, answer,
					       allowed, ops[o]);
				checked++;
				denied += want != 0;
			}
		}
	TH_LOG("%d opens checked against mlte/access, %d of them denied", checked, denied);
	EXPECT_LT(0, denied);
	EXPECT_LT(denied, checked);
}

TEST_F(loaded, create_and_context_answer)
{
	char answer[256];
	static const char canon[] = "system_u:system_r:user_t:s1:c0.c2";
	static const char unsorted[] = "system_u:system_r:user_t:s1:c2,c0,c1";

	ASSERT_LT(0, ask_str("create", "system_u:system_r:user_t:s1 system_u:object_r:tmp_t:s0 file", answer, sizeof(answer)))
		TH_LOG("create: %s", strerror(errno));
	EXPECT_STREQ("system_u:object_r:user_tmp_t:s1", answer);
	ASSERT_LT(0, ask_str("create", "system_u:system_r:init_t:s0 system_u:object_r:user_exec_t:s0 process", answer, sizeof(answer)));
	EXPECT_STREQ("system_u:system_r:user_t:s0", answer);
	ASSERT_LT(0, ask_str("create", "system_u:system_r:user_t:s2 system_u:object_r:public_t:s0 file\n", answer, sizeof(answer)));
	EXPECT_STREQ("system_u:object_r:public_t:s2", answer);
	/* The canonical form, with its NUL, as selinuxfs's context file. */
	EXPECT_EQ((long)sizeof(canon),
		  ask("context", unsorted, sizeof(unsorted), answer, sizeof(answer)))
		TH_LOG("the question with its NUL, as libselinux writes it");
	EXPECT_STREQ(canon, answer);
	/* A range: shown as SELinux shows it, the high level only when it
	 * differs; a new file gets the creator's low level. */
	ASSERT_LT(0, ask_str("context", "system_u:system_r:user_t:s0-s2:c2,c1,c0", answer,
			     sizeof(answer)));
	EXPECT_STREQ("system_u:system_r:user_t:s0-s2:c0.c2", answer);
	ASSERT_LT(0, ask_str("context", "system_u:object_r:public_t:s1:c0-s1:c0", answer,
			     sizeof(answer)));
	EXPECT_STREQ("system_u:object_r:public_t:s1:c0", answer);
	ASSERT_LT(0, ask_str("create", "system_u:system_r:user_t:s0-s2:c0.c2 system_u:object_r:tmp_t:s0 file",
			     answer, sizeof(answer)));
	EXPECT_STREQ("system_u:object_r:user_tmp_t:s0", answer);
}

TEST_F(loaded, bad_questions_get_einval_and_one_question_per_open)
{
	static const char question[] = "system_u:system_r:user_t:s0 system_u:object_r:public_t:s0 file\n";
	char answer[256];
	int fd;

	EXPECT_EQ(-1, ask_str("access", "system_u:object_r:nobody_t:s0 system_u:object_r:public_t:s0 file", answer, sizeof(answer)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ask_str("access", "system_u:system_r:user_t:s0 system_u:object_r:public_t:s0 nosuchclass", answer, sizeof(answer)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ask_str("access", "system_u:system_r:user_t:s0 system_u:object_r:public_t:s0", answer, sizeof(answer)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ask_str("context", "system_u:system_r:user_t:s0:c9", answer, sizeof(answer)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ask_str("context", "user_t:s0", answer, sizeof(answer)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ask_str("create", "system_u:system_r:user_t:s0 system_u:object_r:tmp_t:s0 file\x01", answer, sizeof(answer)));
	EXPECT_EQ(EINVAL, errno);
	/* A second question on one open file is refused; so is a question
	 * after a read. */
	fd = open(MLTE "access", O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_EQ((ssize_t)strlen(question), write(fd, question, strlen(question)));
	EXPECT_EQ(-1, write(fd, question, strlen(question)));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_LT(0, read(fd, answer, sizeof(answer)))
		TH_LOG("the first question's answer stays");
	close(fd);
	fd = open(MLTE "access", O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, read(fd, answer, sizeof(answer)));
	EXPECT_EQ(-1, write(fd, question, strlen(question)));
	EXPECT_EQ(EBUSY, errno);
	close(fd);
}

/*
 * mls and policyvers, as selinuxfs's: "1" (mlte always has levels), and
 * the version of the compiled form the kernel loads, the one in the test
 * policy's header (bytes 4 to 7, little-endian), both without a newline.
 */
TEST_F(loaded, mls_and_policyvers)
{
	char buf[32] = "";
	unsigned int version;

	ASSERT_GE(self->len, 8);
	version = (unsigned char)self->policy[4] | (unsigned char)self->policy[5] << 8 |
		  (unsigned char)self->policy[6] << 16 | (unsigned int)(unsigned char)self->policy[7] << 24;
	EXPECT_ERRNO(0, read_value(MLTE "mls", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	EXPECT_ERRNO(0, read_value(MLTE "policyvers", buf, sizeof(buf)));
	EXPECT_EQ(version, strtoul(buf, NULL, 10)) TH_LOG("policyvers '%s'", buf);
	EXPECT_EQ(-1, write_value(MLTE "mls", "0"));
}

/* With capstack in the chain (either order), its denial happens too. */
static int chain_has_capstack(void)
{
	char chain[256];

	return read_value("/sys/kernel/security/stacker/chain", chain, sizeof(chain)) == 0 &&
	       strstr(chain, "capstack");
}

/* Loads capstack's policy: no CAP_MKNOD for anyone. */
static long load_capstack_policy(FIXTURE_DATA(loaded) *self)
{
	self->capstack_policy = 1;
	return write_value("/sys/kernel/security/stacker/capstack/policy", "deny CAP_MKNOD all\n");
}

TEST_F(loaded, capstack_policy_loaded)
{
	if (!chain_has_capstack())
		SKIP(return, "capstack is not in this boot's chain");
	EXPECT_ERRNO(0, load_capstack_policy(self));
}

TEST_F(loaded, capstack_denies_mknod_with_mlte)
{
	if (!chain_has_capstack())
		SKIP(return, "capstack is not in this boot's chain");
	ASSERT_ERRNO(0, load_capstack_policy(self));
	unlink(DIR "/null");
	EXPECT_ERRNO(EPERM, mknod(DIR "/null", S_IFCHR | 0600, makedev(1, 3)));
}

TEST_F(loaded, mlte_denies_secret_with_capstack)
{
	if (!chain_has_capstack())
		SKIP(return, "capstack is not in this boot's chain");
	ASSERT_ERRNO(0, load_capstack_policy(self));
	EXPECT_EQ(EACCES, as("s0", USER, "read", DIR "/secret"));
}

int main(int argc, char **argv)
{
	/* A labelled copy of this program, run by as(): one operation. */
	if (argc == 4 && !strcmp(argv[1], "--child"))
		return child_op(argv[2], argv[3]);
	return test_harness_run(argc, argv);
}
