// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: every hook of the hook table reached from userspace, and the
 * special combining rules seen through their syscalls.
 *
 * Runs with the probe submodules in the chain (modules/probe: they
 * implement every hook and change nothing) and statistics built in.
 * - the hooks file lists every hook (90 or more);
 * - it makes system calls that reach each hook, then checks in
 *   /sys/kernel/security/stacker/stats that "probe" was called for every
 *   hook. The four kernel_*_file and kernel_*_data hooks have no caller in
 *   the test kernel (no modules, firmware loader or kexec): SKIP;
 * - the special rules, answered by "probe" only (probe_b and probe_c, if
 *   in the chain, decline):
 *   - inode_init_security: a new file has security.probe_init = "1";
 *   - inode_getsecurity: security.probe reads "probe" from any inode; other
 *     security.* names fall through to the file system;
 *   - inode_listsecurity: listxattr(2) lists security.probe;
 *   - task_prctl: prctl(PR_PROBE, n) returns n + 1, and other options still
 *     reach the kernel's prctl;
 *   - getprocattr/setprocattr: /proc/self/attr/current, routed by "probe:";
 *     a bad value fails and the old value stays;
 *   - getselfattr/setselfattr: lsm_get_self_attr(2) answers "probe:N" under
 *     stacker's LSM id, and lsm_set_self_attr(2) routes "probe:N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ktap.h"
#include "guest_util.h"
#include "hook_names.h"

#define STATS "/sys/kernel/security/stacker/stats"
#define HOOKS "/sys/kernel/security/stacker/hooks"
#define PR_PROBE 0x50524f42
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_add_key
#define SYS_add_key 248
#endif
#ifndef SYS_keyctl
#define SYS_keyctl 250
#endif
#define KEYCTL_SESSION_TO_PARENT 18
#define KEY_SPEC_PROCESS_KEYRING -2

/* Hooks no system call reaches in the test kernel. */
static const char *const unreachable[] = {
	"kernel_read_file", "kernel_post_read_file", "kernel_load_data",
	"kernel_post_load_data", NULL,
};

static char stats[1 << 16];

static int is_unreachable(const char *hook)
{
	for (int i = 0; unreachable[i]; i++)
		if (!strcmp(unreachable[i], hook))
			return 1;
	return 0;
}

/* Calls of `hook` in submodule "probe", from the stats file read last. */
static long calls(const char *hook)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), "probe %s ", hook);
	for (p = stats; (p = strstr(p, pat)); p++)
		if (p == stats || p[-1] == '\n')
			return atol(p + strlen(pat));
	return 0;
}

static void read_stats(void)
{
	int fd = open(STATS, O_RDONLY);
	ssize_t n, total = 0;

	stats[0] = '\0';
	if (fd < 0)
		return;
	while ((n = read(fd, stats + total, sizeof(stats) - 1 - total)) > 0)
		total += n;
	stats[total] = '\0';
	close(fd);
}

/* Runs `fn` in a child and waits for it. */
static void in_child(void (*fn)(void))
{
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void traceme(void)
{
	ptrace(PTRACE_TRACEME, 0, NULL, NULL);
}

static void session_to_parent(void)
{
	syscall(SYS_keyctl, KEYCTL_SESSION_TO_PARENT);
}

/* Changing ids (the same ids again change nothing and call no hook). */
static void change_ids(void)
{
	setresgid(1, 1, 1);
	setresuid(1, 1, 1);
}

/* Files, inodes, xattrs, mappings. */
static void file_ops(void)
{
	char buf[256];
	struct stat st;
	struct statfs sfs;
	struct flock lk = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
	int fd, n;
	void *map;

	mkdir("/tmp/p", 0755);
	fd = open("/tmp/p/f", O_CREAT | O_RDWR, 0644);
	if (fd >= 0) {
		write(fd, "data", 4);
		ioctl(fd, FIONREAD, &n);
		fcntl(fd, F_GETFL);
		flock(fd, LOCK_SH);
		fcntl(fd, F_SETLK, &lk);
		ftruncate(fd, 4);
		map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (map != MAP_FAILED) {
			mprotect(map, 4096, PROT_NONE);
			munmap(map, 4096);
		}
		close(fd);
	}
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map != MAP_FAILED)
		munmap(map, 4096);
	chmod("/tmp/p/f", 0600);
	stat("/tmp/p/f", &st);
	statfs("/tmp/p", &sfs);
	setxattr("/tmp/p/f", "user.probe", "1", 1, 0);
	getxattr("/tmp/p/f", "user.probe", buf, sizeof(buf));
	listxattr("/tmp/p/f", buf, sizeof(buf));
	removexattr("/tmp/p/f", "user.probe");
	symlink("/tmp/p/f", "/tmp/p/l");
	readlink("/tmp/p/l", buf, sizeof(buf));
	stat("/tmp/p/l", &st);
	mknod("/tmp/p/fifo", S_IFIFO | 0600, 0);
	link("/tmp/p/f", "/tmp/p/g");
	rename("/tmp/p/g", "/tmp/p/h");
	unlink("/tmp/p/h");
	mkdir("/tmp/p/d", 0755);
	rmdir("/tmp/p/d");
}

/* Superblocks and mounts. */
static void mount_ops(void)
{
	mkdir("/tmp/m1", 0755);
	mkdir("/tmp/m2", 0755);
	if (mount("none", "/tmp/m1", "tmpfs", 0, NULL) == 0) {
		/* move_mount(2): mount(MS_MOVE) has no LSM hook. */
		if (syscall(SYS_move_mount, AT_FDCWD, "/tmp/m1", AT_FDCWD, "/tmp/m2", 0) == 0)
			umount("/tmp/m2");
		else
			umount("/tmp/m1");
	}
}

/* Exec, creds, tasks. */
static void task_ops(void)
{
	struct sched_param sp = { 0 };
	char path[64], buf[64];
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	if (pid > 0) {
		kill(pid, 0);
		setpgid(pid, pid);
		getpgid(pid);
		getsid(pid);
		setpriority(PRIO_PROCESS, pid, 1);
		sched_setscheduler(pid, SCHED_OTHER, &sp);
		snprintf(path, sizeof(path), "/proc/%d/exe", pid);
		readlink(path, buf, sizeof(buf));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	in_child(traceme);
	in_child(session_to_parent);
	in_child(change_ids);
	{
		struct { uint32_t version; int pid; } hdr = { 0x20080522, 0 };
		struct { uint32_t eff, perm, inh; } data[2];

		if (syscall(SYS_capget, &hdr, data) == 0)
			syscall(SYS_capset, &hdr, data);
	}
	syscall(SYS_add_key, "user", "probe", "x", 1, KEY_SPEC_PROCESS_KEYRING);
}

/* Sockets. */
static void socket_ops(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX, .sun_path = "/tmp/p/sock" };
	int srv, cli, conn, pair[2];
	char c = 'x', cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;

	srv = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(srv, (struct sockaddr *)&a, sizeof(a));
	listen(srv, 1);
	cli = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(cli, (struct sockaddr *)&a, sizeof(a));
	conn = accept(srv, NULL, NULL);
	/* Pass a descriptor: file_receive on the other end. */
	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &srv, sizeof(int));
	sendmsg(cli, &mh, 0);
	mh.msg_controllen = sizeof(cbuf);
	if (recvmsg(conn, &mh, 0) == 1 && (cm = CMSG_FIRSTHDR(&mh))) {
		int got;

		memcpy(&got, CMSG_DATA(cm), sizeof(int));
		close(got);
	}
	close(conn);
	close(cli);
	close(srv);
	unlink("/tmp/p/sock");
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) == 0) {
		send(pair[0], &c, 1, 0);
		close(pair[0]);
		close(pair[1]);
	}
}

/* System V IPC. */
static void ipc_ops(void)
{
	struct { long mtype; char text[4]; } msg = { 1, "abc" };
	int q, s, m;

	q = msgget(0x5052, IPC_CREAT | 0600);
	msgget(0x5052, 0600);
	msgsnd(q, &msg, sizeof(msg.text), 0);
	msgrcv(q, &msg, sizeof(msg.text), 0, 0);
	msgctl(q, IPC_RMID, NULL);
	m = shmget(0x5053, 4096, IPC_CREAT | 0600);
	shmget(0x5053, 4096, 0600);
	shmctl(m, IPC_RMID, NULL);
	s = semget(0x5054, 1, IPC_CREAT | 0600);
	semget(0x5054, 1, 0600);
	semctl(s, 0, IPC_RMID);
}

/*
 * The special rules; the LSM syscalls too if `selfattr` (11 results, or 18
 * with them).
 */
static void special_rules(int selfattr)
{
	char buf[256];
	ssize_t n;
	long rc;
	union {
		struct lsm_ctx ctx;
		char bytes[512];
	} u;
	uint32_t size;

	unlink("/tmp/p/x");
	make_file("/tmp/p/x");
	n = getxattr("/tmp/p/x", "security.probe_init", buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	ktap_result(n == 1 && buf[0] == '1', "init_security_xattr_stored",
		    "getxattr(security.probe_init) of a new file gave %zd '%s' (%s)", n, buf,
		    n < 0 ? strerror(errno) : "");
	n = getxattr("/tmp/p/x", "security.probe", buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	ktap_result(n == 5 && !memcmp(buf, "probe", 5), "getsecurity_answers_security_probe",
		    "getxattr(security.probe) gave %zd '%s' (%s)", n, buf,
		    n < 0 ? strerror(errno) : "");
	n = getxattr("/tmp/p/x", "security.other", buf, sizeof(buf));
	EXPECT_ERRNO("getsecurity_other_names_reach_the_file_system", n, ENODATA);
	n = listxattr("/tmp/p/x", buf, sizeof(buf));
	ktap_result(n > 0 && memmem(buf, n, "security.probe", 15) != NULL,
		    "listsecurity_lists_security_probe", "listxattr gave %zd bytes", n);

	rc = prctl(PR_PROBE, 41, 0, 0, 0);
	ktap_result(rc == 42, "prctl_answered_by_probe", "prctl(PR_PROBE, 41) = %ld (%s)", rc,
		    rc < 0 ? strerror(errno) : "");
	rc = prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	rc = rc == 0 ? prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) : rc;
	ktap_result(rc == 1, "prctl_other_options_reach_the_kernel",
		    "PR_GET_DUMPABLE gave %ld", rc);

	EXPECT_OK("setprocattr_routed_to_probe", write_value(ATTR, "probe:7"));
	ktap_result(read_value(ATTR, buf, sizeof(buf)) == 0 && !strcmp(buf, "7"),
		    "getprocattr_answered_by_probe", "%s reads '%s'", ATTR, buf);
	EXPECT_ERRNO("setprocattr_bad_value_einval", write_value(ATTR, "probe:x7"), EINVAL);
	ktap_result(read_value(ATTR, buf, sizeof(buf)) == 0 && !strcmp(buf, "7"),
		    "setprocattr_bad_value_keeps_the_old", "%s reads '%s'", ATTR, buf);
	/*
	 * An attribute no submodule answers is forwarded to the LSMs after
	 * stacker, never to a submodule running as an LSM of its own (the
	 * probe-with-own-lsm boot has probe_b after stacker): EINVAL, and the
	 * kernel still runs.
	 */
	EXPECT_ERRNO("getprocattr_unclaimed_einval",
		     read_value("/proc/self/attr/exec", buf, sizeof(buf)), EINVAL);
	if (!selfattr)
		return;

	memset(&u, 0, sizeof(u));
	size = sizeof(u);
	rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &u.ctx, &size, 0);
	ktap_result(rc >= 1 && u.ctx.id == LSM_ID_STACKER && u.ctx.ctx_len == 8 &&
			    !memcmp(u.ctx.ctx, "probe:7", 8),
		    "getselfattr_names_probe_under_stackers_id",
		    "rc %ld (%s), id %llu, ctx_len %llu, '%.*s'", rc, rc < 0 ? strerror(errno) : "",
		    (unsigned long long)u.ctx.id, (unsigned long long)u.ctx.ctx_len,
		    (int)(u.ctx.ctx_len < 64 ? u.ctx.ctx_len : 64), u.ctx.ctx);
	size = sizeof(struct lsm_ctx) + 2;
	rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &u.ctx, &size, 0);
	ktap_result(rc < 0 && errno == E2BIG && size == sizeof(struct lsm_ctx) + 8,
		    "getselfattr_too_small_e2big_with_size", "rc %ld (%s), size %u", rc,
		    rc < 0 ? strerror(errno) : "", size);

	memset(&u, 0, sizeof(u));
	u.ctx.id = LSM_ID_STACKER;
	u.ctx.ctx_len = 8;
	u.ctx.len = sizeof(struct lsm_ctx) + 8;
	memcpy(u.ctx.ctx, "probe:9", 8);
	rc = syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, &u.ctx, u.ctx.len, 0);
	EXPECT_OK("setselfattr_routed_to_probe", rc);
	ktap_result(read_value(ATTR, buf, sizeof(buf)) == 0 && !strcmp(buf, "9"),
		    "setselfattr_took_effect", "%s reads '%s'", ATTR, buf);
	memcpy(u.ctx.ctx, "nosuch1", 8);
	rc = syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, &u.ctx, u.ctx.len, 0);
	EXPECT_ERRNO("setselfattr_without_a_submodule_einval", rc, EINVAL);
	memcpy(u.ctx.ctx, "probe:q", 8);
	rc = syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, &u.ctx, u.ctx.len, 0);
	EXPECT_ERRNO("setselfattr_bad_value_einval", rc, EINVAL);
	ktap_result(read_value(ATTR, buf, sizeof(buf)) == 0 && !strcmp(buf, "9"),
		    "setselfattr_bad_value_keeps_the_old", "%s reads '%s'", ATTR, buf);
}

/*
 * probe, probe_b and probe_c as LSMs of their own (lsm=probe,probe_b,probe_c;
 * own_lsm.c): the same entry points answer the special rules, except the LSM
 * syscalls, which answer under stacker's id and so are not registered.
 * probe must come first: the LSM core asks only the first LSM for
 * /proc/self/attr/current.
 */
static int own_lsm_main(void)
{
	static const char *const names[] = { "probe", "probe_b", "probe_c" };
	char buf[256], path[128];

	ktap_plan("probe-own-lsm", 4 + 3 + 11);
	read_value("/sys/kernel/security/lsm", buf, sizeof(buf));
	for (int i = 0; i < 3; i++) {
		char list[258], want[32], shown[64];

		/* Whole names only: ",probe," is not ",probe_b,". */
		snprintf(list, sizeof(list), ",%s,", buf);
		snprintf(want, sizeof(want), ",%s,", names[i]);
		snprintf(shown, sizeof(shown), "lsm_list_has_%s", names[i]);
		ktap_result(strstr(list, want) != NULL, shown, "/sys/kernel/security/lsm is '%s'", buf);
	}
	ktap_result(strstr(buf, "stacker") == NULL, "stacker_not_active", "lsm is '%s'", buf);
	for (int i = 0; i < 3; i++) {
		char shown[64];

		snprintf(path, sizeof(path), "/sys/kernel/security/%s/status", names[i]);
		snprintf(shown, sizeof(shown), "%s_status_ok", names[i]);
		read_value(path, buf, sizeof(buf));
		ktap_result(!strcmp(buf, "ok\n"), shown, "%s is '%s'", path, buf);
	}
	mkdir("/tmp/p", 0755);
	special_rules(0);
	return ktap_exit();
}

int main(void)
{
	static char hooks[1 << 16];
	int n_hooks = 0, listed = 0, fd;
	ssize_t n;

	if (access("/sys/kernel/security/stacker/status", F_OK) &&
	    !access("/sys/kernel/security/probe/status", F_OK))
		return own_lsm_main();

	while (all_hooks[n_hooks])
		n_hooks++;
	ktap_plan("probe", 1 + 1 + n_hooks + 18);

	check_init_succeeded();

	fd = open(HOOKS, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, hooks, sizeof(hooks) - 1);
	if (fd >= 0)
		close(fd);
	hooks[n > 0 ? n : 0] = '\0';
	for (char *p = hooks; (p = strchr(p, '\n')); p++)
		listed++;
	ktap_result(listed >= 90 && listed == n_hooks, "hooks_file_lists_every_hook",
		    "%d hooks listed, the table has %d", listed, n_hooks);

	file_ops();
	mount_ops();
	task_ops();
	socket_ops();
	ipc_ops();
	special_rules(1);
	/* RCU callbacks and deferred frees (task, cred, inode, superblock). */
	sync();
	sleep(1);

	read_stats();
	for (int i = 0; all_hooks[i]; i++) {
		char name[96];
		long c = calls(all_hooks[i]);

		snprintf(name, sizeof(name), "reached_%s", all_hooks[i]);
		if (is_unreachable(all_hooks[i]) && c == 0) {
			ktap_skip(name, "no caller in the test kernel");
			continue;
		}
		ktap_result(c > 0, name, "probe was never called for %s", all_hooks[i]);
	}
	return ktap_exit();
}
