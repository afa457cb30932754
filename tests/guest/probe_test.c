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
 *   hook (the kernel_*_file and kernel_*_data hooks: finit_module(2) and
 *   init_module(2) of something that is not a module); the few that no
 *   system call reaches in the test kernel: SKIP;
 * - the special rules, answered by "probe" only (probe_b and probe_c, if
 *   in the chain, decline):
 *   - inode_init_security: a new file has security.probe_init = "1";
 *   - inode_getsecurity: security.probe reads "probe" from any inode; other
 *     security.* names fall through to the file system;
 *   - inode_listsecurity: listxattr(2) lists security.probe;
 *   - task_prctl: prctl(PR_PROBE, n) returns n + 1, and other options still
 *     reach the kernel's prctl;
 *   - socket_getpeersec_stream: SO_PEERSEC of a socketpair reads "probe",
 *     ERANGE with the length when the buffer is too small;
 *   - inode_xattr_skipcap: uid 1000 sets and removes security.probe_skipcap
 *     on its file without CAP_SYS_ADMIN, and not another security.* name;
 *   - inode_copy_up_xattr: an overlayfs copy-up leaves user.probe_discard
 *     behind and copies the file's other xattrs;
 *   - mount options (sb_eat_lsm_opts, fs_context_parse_param,
 *     sb_set_mnt_opts): tmpfs mounts with probe_opt=N in mount(2)'s data
 *     (quoted or not) or from fsconfig(2), which tmpfs alone would refuse,
 *     and prctl(PR_PROBE_MOUNT_OPT) then gives N; probe_opt=x fails the
 *     mount (EINVAL);
 *   - getprocattr/setprocattr: /proc/self/attr/current, routed by "probe:";
 *     a bad value fails and the old value stays;
 *   - getselfattr/setselfattr: lsm_get_self_attr(2) answers "probe:N" under
 *     stacker's LSM id, and lsm_set_self_attr(2) routes "probe:N";
 *   - /proc/PID/attr/stacker/: a directory per label-bearing submodule of
 *     the chain, in order; probe/current reads "N" and takes "N" back.
 * If stacker did not initialize, every test fails.
 *
 * With probe, probe_b and probe_c as LSMs of their own instead
 * (lsm=probe,probe_b,probe_c), it checks that they are active, and the
 * special rules but the LSM syscalls: main() runs the tests that apply
 * to the boot (the "own_lsm" and "special_rules" fixtures there, every
 * other one behind stacker).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <time.h>

#include "guest_util.h"
#include "audit_util.h"
#include "hook_names.h"

#define STATS "/sys/kernel/security/stacker/stats"
#define HOOKS "/sys/kernel/security/stacker/hooks"
#define PR_PROBE 0x50524f42
#define PR_PROBE_MOUNT_OPT 0x50524f4d
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#define PROBE_FSCONFIG_SET_STRING 1
#define PROBE_FSCONFIG_CMD_CREATE 6
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

/*
 * Hooks no system call reaches in the test kernel (cred_getlsmprop: 7.3
 * has no caller of security_cred_getlsmprop(); audit_rule_known: only an
 * LSM's policy load calls it, SELinux's or mlte's, which these boots do
 * not run: labels_test shows it).
 */
/*
 * fs_context_dup: only btrfs and NFS copy a mount's context;
 * fs_context_submount: automounts (NFS, FUSE, AFS, SMB, tracefs);
 * sb_mnt_opts_compat: NFS; none is in the test kernel.
 */
static const char *const unreachable[] = {
	"cred_getlsmprop", "audit_rule_known", "fs_context_dup",
	"fs_context_submount", "sb_mnt_opts_compat", NULL,
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
	gid_t none[1] = { 1 };

	setgroups(1, none);
	setresgid(1, 1, 1);
	setresuid(1, 1, 1);
}

/*
 * Runs the 32-bit helper's ioctl on `path` (compat_sys_ioctl: only
 * file_ioctl_compat); its exit status, or -1.
 */
static int run_ioctl32(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/helpers/ioctl32", "ioctl32", path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* SIGIO: F_SETOWN (file_set_fowner), then I/O that sends it (file_send_sigiotask). */
static void sigio_ops(void)
{
	int p[2];

	if (pipe(p))
		return;
	signal(SIGIO, SIG_IGN);
	fcntl(p[0], F_SETOWN, getpid());
	fcntl(p[0], F_SETFL, O_ASYNC);
	write(p[1], "x", 1);
	close(p[0]);
	close(p[1]);
}

/*
 * A POSIX ACL set, read and removed (tmpfs with CONFIG_TMPFS_POSIX_ACL):
 * inode_set_acl, inode_post_set_acl, inode_get_acl, inode_remove_acl,
 * inode_post_remove_acl.
 */
static void acl_ops(const char *path)
{
	char buf[256];

	setxattr(path, ACL_XATTR, extended_acl, sizeof(extended_acl), 0);
	getxattr(path, ACL_XATTR, buf, sizeof(buf));
	removexattr(path, ACL_XATTR);
}

/* chroot(2), in a child: path_chroot. */
static void chroot_to_tmp(void)
{
	chroot("/tmp");
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
		run_ioctl32("/tmp/p/f");
		sigio_ops();
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
	/* A regular file by mknod(2): path_post_mknod. */
	mknod("/tmp/p/reg", S_IFREG | 0600, 0);
	unlink("/tmp/p/reg");
	/* By path, not by fd: path_truncate, path_chown. */
	truncate("/tmp/p/f", 4);
	chown("/tmp/p/f", 0, 0);
	in_child(chroot_to_tmp);
	link("/tmp/p/f", "/tmp/p/g");
	rename("/tmp/p/g", "/tmp/p/h");
	unlink("/tmp/p/h");
	mkdir("/tmp/p/d", 0755);
	rmdir("/tmp/p/d");
	fd = open("/tmp/p", O_TMPFILE | O_RDWR, 0600);
	if (fd >= 0)
		close(fd);
	acl_ops("/tmp/p/f");
	/* A /proc/PID inode, labelled as its task (task_to_inode). */
	stat("/proc/self/status", &st);
}

/*
 * The lower file of the overlay tests: "f", with user.probe_discard (which
 * probe discards on a copy-up) and user.kept. 0, or -1 (errno).
 */
static int fill_lower(const char *lower)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/f", lower);
	if (make_file(path))
		return -1;
	if (setxattr(path, "user.probe_discard", "1", 1, 0))
		return -1;
	return setxattr(path, "user.kept", "1", 1, 0);
}

/*
 * The kernel reading a file (finit_module(2): kernel_read_file, then
 * kernel_post_read_file with the whole file) and loading from memory
 * (init_module(2): kernel_load_data, kernel_post_load_data); neither is a
 * module, so the loader refuses both after the hooks.
 */
static void kernel_read_ops(void)
{
	char image[64] = "not a kernel module";
	int fd = open("/tmp/p/f", O_RDONLY);

	if (fd >= 0) {
		syscall(SYS_finit_module, fd, "", 0);
		close(fd);
	}
	syscall(SYS_init_module, image, sizeof(image), "");
}

/*
 * A tmpfs mounted on `dir` with mount(2)'s data `data`: 0, or the errno.
 * Unmounted again.
 */
static int mount_tmpfs_with(const char *dir, const char *data)
{
	int err = 0;

	mkdir(dir, 0755);
	if (mount("none", dir, "tmpfs", 0, data))
		err = errno;
	else
		umount(dir);
	return err;
}

/*
 * A tmpfs superblock made through fsopen(2) and fsconfig(2) with the
 * string parameter `key`=`value`: 0, or the errno of the first call that
 * failed.
 */
static int fsconfig_tmpfs_with(const char *key, const char *value)
{
	int fd = syscall(SYS_fsopen, "tmpfs", 0);
	int err = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_fsconfig, fd, PROBE_FSCONFIG_SET_STRING, key, value, 0) ||
	    syscall(SYS_fsconfig, fd, PROBE_FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		err = errno;
	close(fd);
	return err;
}

/* Superblocks and mounts. */
static void mount_ops(void)
{
	/* Mount options: sb_eat_lsm_opts, fs_context_parse_param,
	 * sb_set_mnt_opts, sb_free_mnt_opts.
	 */
	mount_tmpfs_with("/tmp/m_opt", "size=1m,probe_opt=3");
	fsconfig_tmpfs_with("probe_opt", "4");
	/* An overlayfs copy-up (chmod through it): inode_copy_up_xattr. */
	if (mount_overlay("/tmp/ov_ops", fill_lower) == 0)
		chmod("/tmp/ov_ops/merged/f", 0600);
	umount_overlay("/tmp/ov_ops");

	mkdir("/tmp/m1", 0755);
	mkdir("/tmp/m2", 0755);
	if (mount("none", "/tmp/m1", "tmpfs", 0, NULL) == 0) {
		mount("none", "/tmp/m1", NULL, MS_REMOUNT, "size=1m");
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
		sched_getscheduler(pid);
		/* IOPRIO_WHO_PROCESS; class best effort (2), level 4. */
		syscall(SYS_ioprio_set, 1, pid, (2 << 13) | 4);
		syscall(SYS_ioprio_get, 1, pid);
		{
			struct rlimit rl;

			prlimit(pid, RLIMIT_NOFILE, NULL, &rl);
			if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
				setrlimit(RLIMIT_NOFILE, &rl);
		}
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
	/* The kernel log (SYSLOG_ACTION_SIZE_BUFFER) and the clock, set to itself. */
	klogctl(10, NULL, 0);
	{
		struct timespec now;

		if (clock_gettime(CLOCK_REALTIME, &now) == 0)
			clock_settime(CLOCK_REALTIME, &now);
	}
}

/* A request to the kernel on a netlink socket (netlink_send): a dump of the links. */
static void netlink_ops(void)
{
	struct {
		struct nlmsghdr h;
		struct rtgenmsg g;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETLINK,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.g = { .rtgen_family = AF_UNSPEC },
	};
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);

	if (fd < 0)
		return;
	send(fd, &req, sizeof(req), 0);
	close(fd);
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
	{
		struct sockaddr_un who;
		socklen_t len = sizeof(who);
		int v = 1;

		getsockname(cli, (struct sockaddr *)&who, &len);
		len = sizeof(who);
		getpeername(cli, (struct sockaddr *)&who, &len);
		len = sizeof(v);
		getsockopt(cli, SOL_SOCKET, SO_TYPE, &v, &len);
		setsockopt(cli, SOL_SOCKET, SO_PASSCRED, &v, sizeof(v));
	}
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
	shutdown(cli, SHUT_WR);
	close(conn);
	close(cli);
	close(srv);
	unlink("/tmp/p/sock");
	netlink_ops();
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) == 0) {
		send(pair[0], &c, 1, 0);
		close(pair[0]);
		close(pair[1]);
	}
}

/*
 * A TCP connection on the loopback interface, brought up first: the
 * accepted socket is cloned from the listener in softirq context
 * (sk_clone_security, inet_csk_clone) and the connecting side sees the
 * connection established (inet_conn_established).
 */
static void tcp_ops(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct ifreq ifr = { .ifr_name = "lo" };
	socklen_t len = sizeof(a);
	int srv, cli, conn, ctl;

	ctl = socket(AF_INET, SOCK_DGRAM, 0);
	if (ctl >= 0 && ioctl(ctl, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(ctl, SIOCSIFFLAGS, &ifr);
	}
	if (ctl >= 0)
		close(ctl);
	srv = socket(AF_INET, SOCK_STREAM, 0);
	if (srv < 0)
		return;
	if (bind(srv, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(srv, 1) == 0 &&
	    getsockname(srv, (struct sockaddr *)&a, &len) == 0) {
		cli = socket(AF_INET, SOCK_STREAM, 0);
		if (cli >= 0 && connect(cli, (struct sockaddr *)&a, sizeof(a)) == 0) {
			conn = accept(srv, NULL, NULL);
			if (conn >= 0)
				close(conn);
		}
		if (cli >= 0)
			close(cli);
	}
	close(srv);
}

/* System V IPC. */
static void ipc_ops(void)
{
	struct { long mtype; char text[4]; } msg = { 1, "abc" };
	struct sembuf op = { .sem_num = 0, .sem_op = 1, .sem_flg = IPC_NOWAIT };
	int q, s, m;
	void *addr;
	/* Room for struct msginfo, shminfo or seminfo. */
	static long info[64];

	q = msgget(0x5052, IPC_CREAT | 0600);
	msgget(0x5052, 0600);
	msgsnd(q, &msg, sizeof(msg.text), 0);
	msgrcv(q, &msg, sizeof(msg.text), 0, 0);
	msgctl(q, IPC_RMID, NULL);
	m = shmget(0x5053, 4096, IPC_CREAT | 0600);
	shmget(0x5053, 4096, 0600);
	addr = shmat(m, NULL, SHM_RDONLY);
	if (addr != (void *)-1)
		shmdt(addr);
	shmctl(m, IPC_RMID, NULL);
	s = semget(0x5054, 1, IPC_CREAT | 0600);
	semget(0x5054, 1, 0600);
	semop(s, &op, 1);
	semctl(s, 0, IPC_RMID);
	/* The commands about all objects: the *ctl hooks without one. */
	msgctl(0, IPC_INFO, (struct msqid_ds *)&info);
	shmctl(0, IPC_INFO, (struct shmid_ds *)&info);
	semctl(0, 0, IPC_INFO, &info);
}

/*
 * Whether probe runs as LSMs of its own (lsm=probe,probe_b,probe_c;
 * own_lsm.c), not behind stacker.
 */
static int own_lsm(void)
{
	return access(STACKER_STATUS, F_OK) && !access("/sys/kernel/security/probe/status", F_OK);
}

TEST(init_succeeded)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
}

TEST(hooks_file_lists_every_hook)
{
	static char hooks[1 << 16];
	int n_hooks = 0, listed = 0;

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	while (all_hooks[n_hooks])
		n_hooks++;
	ASSERT_EQ(0, read_value(HOOKS, hooks, sizeof(hooks)));
	for (char *p = hooks; (p = strchr(p, '\n')); p++)
		listed++;
	EXPECT_LE(90, listed);
	EXPECT_EQ(n_hooks, listed)
		TH_LOG("%d hooks listed, the table has %d", listed, n_hooks);
}

/*
 * probe, probe_b and probe_c as LSMs of their own: the same entry points
 * answer the special rules, except the LSM syscalls, which answer under
 * stacker's id and so are not registered. probe must come first: the LSM
 * core asks only the first LSM for /proc/self/attr/current.
 */
FIXTURE(own_lsm) {};

FIXTURE_SETUP(own_lsm)
{
}

FIXTURE_TEARDOWN(own_lsm)
{
}

/* Whether /sys/kernel/security/lsm names `name` (a whole name: not "probe_b" for "probe"). */
static void expect_listed(struct __test_metadata *_metadata, const char *name)
{
	char buf[256], list[258], want[32];

	ASSERT_EQ(0, read_value("/sys/kernel/security/lsm", buf, sizeof(buf)));
	snprintf(list, sizeof(list), ",%s,", buf);
	snprintf(want, sizeof(want), ",%s,", name);
	EXPECT_NE(NULL, strstr(list, want))
		TH_LOG("/sys/kernel/security/lsm is '%s'", buf);
}

/* Whether the status file of `name`, an LSM of its own, reads "ok". */
static void expect_status_ok(struct __test_metadata *_metadata, const char *name)
{
	char path[128], shown[300];

	snprintf(path, sizeof(path), "/sys/kernel/security/%s/status", name);
	EXPECT_TRUE(status_is_ok(path, shown, sizeof(shown)))
		TH_LOG("%s is %s", path, shown);
}

TEST_F(own_lsm, lsm_list_has_probe)
{
	expect_listed(_metadata, "probe");
}

TEST_F(own_lsm, lsm_list_has_probe_b)
{
	expect_listed(_metadata, "probe_b");
}

TEST_F(own_lsm, lsm_list_has_probe_c)
{
	expect_listed(_metadata, "probe_c");
}

TEST_F(own_lsm, stacker_not_active)
{
	char buf[256];

	ASSERT_EQ(0, read_value("/sys/kernel/security/lsm", buf, sizeof(buf)));
	EXPECT_EQ(NULL, strstr(buf, "stacker"))
		TH_LOG("lsm is '%s'", buf);
}

TEST_F(own_lsm, probe_status_ok)
{
	expect_status_ok(_metadata, "probe");
}

TEST_F(own_lsm, probe_b_status_ok)
{
	expect_status_ok(_metadata, "probe_b");
}

TEST_F(own_lsm, probe_c_status_ok)
{
	expect_status_ok(_metadata, "probe_c");
}

/*
 * The special rules, answered by "probe" only, behind stacker or as an
 * LSM of its own; the file they look at is new in each test.
 */
FIXTURE(special_rules)
{
	char file[64];
};

FIXTURE_SETUP(special_rules)
{
	if (!own_lsm())
		ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	mkdir("/tmp/p", 0755);
	snprintf(self->file, sizeof(self->file), "/tmp/p/special.XXXXXX");
	ASSERT_LE(0, mkstemp(self->file))
		TH_LOG("mkstemp: %s", strerror(errno));
}

FIXTURE_TEARDOWN(special_rules)
{
	unlink(self->file);
}

/* getxattr(2) of the fixture's file as a string: its length, or -1. */
static ssize_t get_string(const char *file, const char *name, char *buf, size_t size)
{
	ssize_t n = getxattr(file, name, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return n;
}

TEST_F(special_rules, init_security_xattr_stored)
{
	char buf[256];
	ssize_t n = get_string(self->file, "security.probe_init", buf, sizeof(buf));

	EXPECT_EQ(1, n)
		TH_LOG("getxattr(security.probe_init) of a new file: %s", errno_text(errno_of(n)));
	EXPECT_STREQ("1", buf);
}

TEST_F(special_rules, getsecurity_answers_security_probe)
{
	char buf[256];
	ssize_t n = get_string(self->file, "security.probe", buf, sizeof(buf));

	EXPECT_EQ(5, n)
		TH_LOG("getxattr(security.probe): %s", errno_text(errno_of(n)));
	EXPECT_STREQ("probe", buf);
}

TEST_F(special_rules, getsecurity_other_names_reach_the_file_system)
{
	char buf[256];

	EXPECT_ERRNO(ENODATA, getxattr(self->file, "security.other", buf, sizeof(buf)));
}

TEST_F(special_rules, listsecurity_lists_security_probe)
{
	char buf[256];
	ssize_t n = listxattr(self->file, buf, sizeof(buf));

	ASSERT_LT(0, n)
		TH_LOG("listxattr: %s", errno_text(errno_of(n)));
	EXPECT_NE(NULL, memmem(buf, n, "security.probe", 15))
		TH_LOG("listxattr gave %zd bytes without security.probe", n);
}

TEST_F(special_rules, prctl_answered_by_probe)
{
	long rc = prctl(PR_PROBE, 41, 0, 0, 0);

	EXPECT_EQ(42, rc)
		TH_LOG("prctl(PR_PROBE, 41): %s", errno_text(errno_of(rc)));
}

TEST_F(special_rules, prctl_other_options_reach_the_kernel)
{
	ASSERT_ERRNO(0, prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
	EXPECT_EQ(1, prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
}

/*
 * socket_getpeersec_stream: getsockopt(SO_PEERSEC) of a stream socket
 * gives probe's peer label, "probe", and its length; a buffer too small
 * gives ERANGE and the length needed.
 */
TEST_F(special_rules, peersec_stream_answered_by_probe)
{
	char label[64] = "";
	socklen_t len = sizeof(label);
	int sv[2];

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) TH_LOG("%s", strerror(errno));
	EXPECT_ERRNO(0, getsockopt(sv[0], SOL_SOCKET, SO_PEERSEC, label, &len));
	EXPECT_EQ(5U, len);
	EXPECT_EQ(0, memcmp(label, "probe", 5)) TH_LOG("'%.*s'", (int)len, label);
	len = 2;
	EXPECT_ERRNO(ERANGE, getsockopt(sv[1], SOL_SOCKET, SO_PEERSEC, label, &len));
	EXPECT_EQ(5U, len);
	close(sv[0]);
	close(sv[1]);
}

/*
 * inode_xattr_skipcap: probe checks security.probe_skipcap itself, so a
 * task without CAP_SYS_ADMIN sets and removes it on its own file; any
 * other security.* name keeps the capability check (EPERM).
 */
TEST_F(special_rules, skipcap_skips_the_capability_check_for_probe_s_xattr)
{
	int status;
	pid_t pid;

	ASSERT_EQ(0, chown(self->file, 1000, 1000)) TH_LOG("%s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(10);
		if (setxattr(self->file, "security.probe_skipcap", "1", 1, 0))
			_exit(11);
		if (removexattr(self->file, "security.probe_skipcap"))
			_exit(12);
		if (!setxattr(self->file, "security.probe_other", "1", 1, 0) || errno != EPERM)
			_exit(13);
		if (!removexattr(self->file, "security.probe_init") || errno != EPERM)
			_exit(14);
		_exit(0);
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* 11, 12: the check was kept; 13, 14: it was skipped for all. */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * inode_copy_up_xattr: probe discards user.probe_discard when overlayfs
 * copies a file up (a chmod through the overlay); the file's other xattr
 * is copied, and the copy is in the upper layer with its new mode.
 */
TEST_F(special_rules, copy_up_leaves_probe_s_xattr_behind)
{
	char buf[8];
	struct stat st;

	ASSERT_ERRNO(0, mount_overlay("/tmp/ov_rule", fill_lower));
	EXPECT_ERRNO(0, chmod("/tmp/ov_rule/merged/f", 0600));
	ASSERT_ERRNO(0, stat("/tmp/ov_rule/upper/f", &st)) TH_LOG("no copy-up");
	EXPECT_EQ(0600U, st.st_mode & 07777);
	EXPECT_ERRNO(ENODATA, getxattr("/tmp/ov_rule/upper/f", "user.probe_discard", buf, sizeof(buf)));
	EXPECT_EQ(1, getxattr("/tmp/ov_rule/upper/f", "user.kept", buf, sizeof(buf)))
		TH_LOG("%s", strerror(errno));
	/* The lower file is as it was. */
	EXPECT_EQ(1, getxattr("/tmp/ov_rule/lower/f", "user.probe_discard", buf, sizeof(buf)));
	umount_overlay("/tmp/ov_rule");
}

/*
 * Mount options: probe takes probe_opt=N out of mount(2)'s data (tmpfs
 * would refuse it as unknown), and gets it back when the superblock is set
 * up; so with fsconfig(2). A value in double quotes loses them; an invalid
 * value fails the mount.
 */
TEST_F(special_rules, mount_option_taken_by_probe)
{
	EXPECT_EQ(0, mount_tmpfs_with("/tmp/m_rule", "size=1m,probe_opt=42,mode=0700"));
	EXPECT_EQ(42, prctl(PR_PROBE_MOUNT_OPT, 0, 0, 0, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, mount_tmpfs_with("/tmp/m_rule", "probe_opt=\"43\""));
	EXPECT_EQ(43, prctl(PR_PROBE_MOUNT_OPT, 0, 0, 0, 0));
	EXPECT_EQ(0, fsconfig_tmpfs_with("probe_opt", "44"));
	EXPECT_EQ(44, prctl(PR_PROBE_MOUNT_OPT, 0, 0, 0, 0));
}

TEST_F(special_rules, mount_option_invalid_fails_the_mount)
{
	EXPECT_EQ(0, mount_tmpfs_with("/tmp/m_rule", "probe_opt=45"));
	EXPECT_EQ(EINVAL, mount_tmpfs_with("/tmp/m_rule", "size=1m,probe_opt=4x"));
	EXPECT_EQ(EINVAL, fsconfig_tmpfs_with("probe_opt", ""));
	/* No superblock was set up with them. */
	EXPECT_EQ(45, prctl(PR_PROBE_MOUNT_OPT, 0, 0, 0, 0));
	/* Options no submodule takes still reach tmpfs, which judges them. */
	EXPECT_EQ(EINVAL, mount_tmpfs_with("/tmp/m_rule", "no_such_option=1"));
}

/* The attribute as /proc/self/attr/current reads it. */
static const char *attr_now(void)
{
	static char buf[256];

	if (read_value(ATTR, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "(unreadable: %s)", strerror(errno));
	return buf;
}

TEST_F(special_rules, setprocattr_routed_to_probe)
{
	EXPECT_ERRNO(0, write_value(ATTR, "probe:7"));
}

TEST_F(special_rules, getprocattr_answered_by_probe)
{
	ASSERT_ERRNO(0, write_value(ATTR, "probe:7"));
	EXPECT_STREQ("7", attr_now());
}

TEST_F(special_rules, setprocattr_bad_value_einval)
{
	EXPECT_ERRNO(EINVAL, write_value(ATTR, "probe:x7"));
}

TEST_F(special_rules, setprocattr_bad_value_keeps_the_old)
{
	ASSERT_ERRNO(0, write_value(ATTR, "probe:7"));
	write_value(ATTR, "probe:x7");
	EXPECT_STREQ("7", attr_now());
}

/*
 * An attribute no submodule answers is forwarded to the LSMs after
 * stacker, never to a submodule running as an LSM of its own (the
 * probe-with-own-lsm boot has probe_b after stacker): EINVAL, and the
 * kernel still runs.
 */
TEST_F(special_rules, getprocattr_unclaimed_einval)
{
	char buf[256];

	EXPECT_ERRNO(EINVAL, read_value("/proc/self/attr/exec", buf, sizeof(buf)));
}

/*
 * /proc/PID/attr/stacker/NAME/: one directory for each submodule of the
 * chain that has process attributes, in chain order, answered by that
 * submodule alone, value unchanged (no "probe:" prefix), so what it reads
 * it writes back.
 */
#define PROBE_ATTR "/proc/self/attr/stacker/probe/current"

TEST_F(special_rules, attr_stacker_lists_the_chain_s_label_bearers)
{
	char dirs[256], owners[256];

	ASSERT_EQ(0, attr_dirs(dirs, sizeof(dirs)))
		TH_LOG("/proc/self/attr/stacker: %s", strerror(errno));
	chain_attr_owners(owners, sizeof(owners));
	EXPECT_STREQ(owners, dirs);
	/* Behind stacker there is at least probe. */
	if (!own_lsm())
		EXPECT_NE(NULL, strstr(dirs, "probe\n"));
}

TEST_F(special_rules, attr_stacker_dir_reads_back_what_it_writes)
{
	char v[64];

	if (own_lsm())
		SKIP(return, "stacker did not start: attr/stacker/ is empty");
	ASSERT_ERRNO(0, write_value(PROBE_ATTR, "7"));
	ASSERT_EQ(0, read_value(PROBE_ATTR, v, sizeof(v))) TH_LOG("%s", strerror(errno));
	EXPECT_STREQ("7", v);
	/* The same label as through attr/current, which probe answers. */
	EXPECT_STREQ("7", attr_now());
	ASSERT_ERRNO(0, write_value(PROBE_ATTR, v));
	/* The whole value goes to probe: a prefix is part of it, and bad. */
	EXPECT_ERRNO(EINVAL, write_value(PROBE_ATTR, "probe:8"));
	EXPECT_ERRNO(EINVAL, write_value(PROBE_ATTR, "x8"));
	ASSERT_EQ(0, read_value(PROBE_ATTR, v, sizeof(v)));
	EXPECT_STREQ("7", v);
	/* An attribute probe does not have: its EINVAL, nobody else asked. */
	EXPECT_ERRNO(EINVAL, read_value("/proc/self/attr/stacker/probe/exec", v, sizeof(v)));
}

TEST_F(special_rules, attr_stacker_other_submodules_answer_for_themselves)
{
	char v[64];

	if (own_lsm())
		SKIP(return, "stacker did not start: attr/stacker/ is empty");
	ASSERT_ERRNO(0, write_value(PROBE_ATTR, "7"));
	/* probe_b and probe_c, in the chain, have no label: EINVAL, not probe's. */
	if (chain_has("probe_b", v, sizeof(v)))
		EXPECT_ERRNO(EINVAL, read_value("/proc/self/attr/stacker/probe_b/current",
						v, sizeof(v)));
	/* No directory for a submodule outside the chain or without labels. */
	EXPECT_ERRNO(ENOENT, open("/proc/self/attr/stacker/mlte", O_RDONLY));
	EXPECT_ERRNO(ENOENT, open("/proc/self/attr/stacker/xattrlock", O_RDONLY));
	EXPECT_ERRNO(ENOENT, open("/proc/self/attr/stacker/probe/nosuch", O_RDONLY));
	EXPECT_ERRNO(ENOENT, open("/proc/self/attr/stacker/..probe", O_RDONLY));
}

TEST_F(special_rules, attr_stacker_of_another_task)
{
	char path[64], v[64];
	pid_t pid;
	int status;

	if (own_lsm())
		SKIP(return, "stacker did not start: attr/stacker/ is empty");
	ASSERT_ERRNO(0, write_value(PROBE_ATTR, "7"));
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	ASSERT_LT(0, pid);
	snprintf(path, sizeof(path), "/proc/%d/attr/stacker/probe/current", pid);
	/* Readable, and per thread as well. */
	EXPECT_EQ(0, read_value(path, v, sizeof(v))) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_STREQ("7", v);
	snprintf(path, sizeof(path), "/proc/self/task/%d/attr/stacker/probe/current",
		 getpid());
	EXPECT_EQ(0, read_value(path, v, sizeof(v))) TH_LOG("%s: %s", path, strerror(errno));
	/* Not writable by another task (not the opener, fs/proc/base.c): the value stays. */
	snprintf(path, sizeof(path), "/proc/%d/attr/stacker/probe/current", pid);
	EXPECT_ERRNO(EPERM, write_value(path, "9"));
	EXPECT_STREQ("7", attr_now());
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
}

/* The LSM syscalls, behind stacker only. */
FIXTURE(selfattr)
{
	union {
		struct lsm_ctx ctx;
		char bytes[512];
	} u;
};

FIXTURE_SETUP(selfattr)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_ERRNO(0, write_value(ATTR, "probe:7"));
}

FIXTURE_TEARDOWN(selfattr)
{
}

TEST_F(selfattr, getselfattr_names_probe_under_stackers_id)
{
	uint32_t size = sizeof(self->u);
	long rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &self->u.ctx, &size, 0);

	ASSERT_LE(1, rc)
		TH_LOG("lsm_get_self_attr: %s", errno_text(errno_of(rc)));
	EXPECT_EQ((uint64_t)LSM_ID_STACKER, self->u.ctx.id);
	ASSERT_EQ(8ULL, (unsigned long long)self->u.ctx.ctx_len);
	EXPECT_EQ(0, memcmp(self->u.ctx.ctx, "probe:7", 8))
		TH_LOG("the context is '%.8s'", self->u.ctx.ctx);
}

TEST_F(selfattr, getselfattr_too_small_e2big_with_size)
{
	uint32_t size = sizeof(struct lsm_ctx) + 2;

	EXPECT_ERRNO(E2BIG, syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &self->u.ctx,
				    &size, 0));
	EXPECT_EQ(sizeof(struct lsm_ctx) + 8, size);
}

/* lsm_set_self_attr(2) with the 8-byte context `ctx` under stacker's id. */
static long set_self_attr(FIXTURE_DATA(selfattr) *self, const char ctx[8])
{
	self->u.ctx.id = LSM_ID_STACKER;
	self->u.ctx.ctx_len = 8;
	self->u.ctx.len = sizeof(struct lsm_ctx) + 8;
	memcpy(self->u.ctx.ctx, ctx, 8);
	return syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, &self->u.ctx, self->u.ctx.len, 0);
}

TEST_F(selfattr, setselfattr_routed_to_probe)
{
	EXPECT_ERRNO(0, set_self_attr(self, "probe:9"));
}

TEST_F(selfattr, setselfattr_took_effect)
{
	ASSERT_ERRNO(0, set_self_attr(self, "probe:9"));
	EXPECT_STREQ("9", attr_now());
}

TEST_F(selfattr, setselfattr_without_a_submodule_einval)
{
	EXPECT_ERRNO(EINVAL, set_self_attr(self, "nosuch1"));
}

TEST_F(selfattr, setselfattr_bad_value_einval)
{
	EXPECT_ERRNO(EINVAL, set_self_attr(self, "probe:q"));
}

TEST_F(selfattr, setselfattr_bad_value_keeps_the_old)
{
	ASSERT_ERRNO(0, set_self_attr(self, "probe:9"));
	set_self_attr(self, "nosuch1");
	set_self_attr(self, "probe:q");
	EXPECT_STREQ("9", attr_now());
}

/*
 * System calls that reach the special rules' hooks, without checking
 * what they answer (the tests above do).
 */
static void special_ops(void)
{
	union {
		struct lsm_ctx ctx;
		char bytes[512];
	} u;
	uint32_t size = sizeof(u);
	char buf[256];

	unlink("/tmp/p/x");
	make_file("/tmp/p/x");
	getxattr("/tmp/p/x", "security.probe", buf, sizeof(buf));
	listxattr("/tmp/p/x", buf, sizeof(buf));
	prctl(PR_PROBE, 41, 0, 0, 0);
	write_value(ATTR, "probe:7");
	read_value(ATTR, buf, sizeof(buf));
	syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &u.ctx, &size, 0);
	memset(&u, 0, sizeof(u));
	u.ctx.id = LSM_ID_STACKER;
	u.ctx.ctx_len = 8;
	u.ctx.len = sizeof(struct lsm_ctx) + 8;
	memcpy(u.ctx.ctx, "probe:9", 8);
	syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, &u.ctx, u.ctx.len, 0);
}

/*
 * System calls that reach the hooks of labels as secids: an audit record
 * of this task (current_getlsmprop_subj, lsmprop_to_secctx,
 * release_secctx); a child whose every system call a rule audits, which
 * opens a file, asks an IPC object and signals itself (inode_, ipc_ and
 * task_getlsmprop_obj), under a second rule on probe's label too
 * (audit_rule_init, _match, _free); a Unix datagram with SO_PASSSEC
 * (socket_getpeersec_dgram, secid_to_secctx).
 */
static void label_ops(void)
{
	int sv[2], go[2], one = 1, status;
	char data = 'x', cbuf[CMSG_SPACE(256)];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	pid_t child;

	audit_user_avc("probe_test");
	if (!audit_set_enabled(1) && !pipe(go)) {
		child = fork();
		if (child == 0) {
			char c;
			int q;

			close(go[1]);
			if (read(go[0], &c, 1) == 1) {
				close(open("/tmp/p/x", O_RDONLY));
				q = msgget(IPC_PRIVATE, 0600);
				if (q >= 0) {
					struct msqid_ds ds;

					msgctl(q, IPC_STAT, &ds);
					msgctl(q, IPC_RMID, NULL);
				}
				kill(getpid(), 0);
			}
			_exit(0);
		}
		close(go[0]);
		if (child > 0) {
			/* First: the exit list's first matching rule ends it. */
			audit_pid_subj_type_rule(AUDIT_ADD_RULE, child, "9");
			audit_pid_rule(AUDIT_ADD_RULE, child);
			if (write(go[1], "x", 1) != 1)
				kill(child, SIGKILL);
			waitpid(child, &status, 0);
			audit_pid_rule(AUDIT_DEL_RULE, child);
			audit_pid_subj_type_rule(AUDIT_DEL_RULE, child, "9");
		}
		close(go[1]);
		audit_set_enabled(0);
	}
	if (!socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
		setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one));
		if (send(sv[0], &data, 1, 0) == 1)
			recvmsg(sv[1], &msg, 0);
		close(sv[0]);
		close(sv[1]);
	}
}

/* Made once the system calls of every hook have been made. */
#define REACHED "/tmp/probe_test.reached"

/* One test per hook of the table: was "probe" called for it? */
FIXTURE(hook) {};

FIXTURE_VARIANT(hook)
{
	const char *name;
};

#define HOOK_VARIANT(hook_name) \
	FIXTURE_VARIANT_ADD(hook, hook_name) { .name = #hook_name };
STACKER_FOR_EACH_HOOK(HOOK_VARIANT)

/* The first one makes the system calls that reach every hook. */
FIXTURE_SETUP(hook)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	if (access(REACHED, F_OK)) {
		file_ops();
		kernel_read_ops();
		mount_ops();
		task_ops();
		socket_ops();
		tcp_ops();
		ipc_ops();
		special_ops();
		label_ops();
		/* RCU callbacks and deferred frees (task, cred, inode, superblock). */
		sync();
		sleep(1);
		ASSERT_EQ(0, make_file(REACHED));
	}
	read_stats();
}

FIXTURE_TEARDOWN(hook)
{
}

TEST_F(hook, reached)
{
	long c = calls(variant->name);

	if (is_unreachable(variant->name) && c == 0)
		SKIP(return, "no caller in the test kernel");
	EXPECT_LT(0, c)
		TH_LOG("probe was never called for %s", variant->name);
}

/*
 * A 32-bit task's ioctl reaches the chain as file_ioctl_compat, and only
 * as that: the kernel's compat_sys_ioctl never calls file_ioctl.
 */
TEST(compat_ioctl_reaches_the_chain)
{
	long compat, native;

	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	ASSERT_EQ(0, make_file("/tmp/compat_ioctl"));
	read_stats();
	compat = calls("file_ioctl_compat");
	native = calls("file_ioctl");
	/* ENOTTY: TCGETS got past the hooks to a file that is no terminal. */
	ASSERT_EQ(ENOTTY, run_ioctl32("/tmp/compat_ioctl"))
		TH_LOG("the 32-bit helper failed: is the kernel built with CONFIG_IA32_EMULATION?");
	read_stats();
	EXPECT_EQ(compat + 1, calls("file_ioctl_compat"));
	EXPECT_EQ(native, calls("file_ioctl"));
}

/* The tests that apply to this boot, unless the command line names some. */
int main(int argc, char **argv)
{
	char *own_lsm_tests[] = { argv[0], "-f", "own_lsm", "-f", "special_rules", NULL };
	char *stacker_tests[] = { argv[0], "-F", "own_lsm", NULL };

	if (argc > 1)
		return test_harness_run(argc, argv);
	if (own_lsm())
		return test_harness_run(5, own_lsm_tests);
	return test_harness_run(3, stacker_tests);
}
