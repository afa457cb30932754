// SPDX-License-Identifier: GPL-2.0
/*
 * Helper for capstack_test: runs a list of steps and exits with the errno
 * of the last one (0 for success), or 200+ when a setup step failed.
 *
 *   user N        become uid/gid N, keeping the effective capabilities
 *                 (SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP)
 *   exec PATH ... execute PATH with the remaining steps as its arguments
 *   rawsock       socket(AF_INET, SOCK_RAW, IPPROTO_ICMP)   CAP_NET_RAW
 *   bind80        bind a TCP socket to port 80         CAP_NET_BIND_SERVICE
 *   chown         chown /tmp/chown-target to 1:1              CAP_CHOWN
 *   regain        drop CAP_NET_RAW from the effective set, then raise it
 *                 again with capset
 *   mmap0         map page 0: mmap(0, 4096, PROT_READ, MAP_FIXED |
 *                 MAP_PRIVATE | MAP_ANONYMOUS)   CAP_SYS_RAWIO (below
 *                 vm.mmap_min_addr)
 *   capsets N     exit 100 + 1 if capability N is in CapEff of
 *                 /proc/self/status, + 2 if in CapPrm (not an errno)
 *   script PATH   ignored: what the kernel passes after the interpreter
 *                 when a "#!/helpers/capstack_helper script" file is run
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ret(int rc)
{
	return rc < 0 ? errno : 0;
}

static int op_rawsock(void)
{
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int op_bind80(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(80) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), rc;

	if (fd < 0)
		return 200;
	rc = ret(bind(fd, (struct sockaddr *)&a, sizeof(a)));
	close(fd);
	return rc;
}

static int capget_now(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return syscall(SYS_capget, &h, d);
}

static int capset_now(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };

	return syscall(SYS_capset, &h, d);
}

static int op_regain(void)
{
	struct __user_cap_data_struct d[2];

	if (capget_now(d))
		return 201;
	d[0].effective &= ~(1u << CAP_NET_RAW);
	if (capset_now(d))
		return 202;
	d[0].effective |= 1u << CAP_NET_RAW;
	return ret(capset_now(d));
}

static int op_mmap0(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, 4096);
	return 0;
}

/* Capability set FIELD ("CapEff:") of /proc/self/status; -1 if unreadable. */
static int cap_in_status(const char *field, int cap)
{
	char line[256];
	unsigned long long set;
	FILE *f = fopen("/proc/self/status", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field)) &&
		    sscanf(line + strlen(field), "%llx", &set) == 1)
			found = (set >> cap) & 1;
	fclose(f);
	return found;
}

static int op_capsets(const char *arg)
{
	int cap = atoi(arg);
	int eff = cap_in_status("CapEff:", cap), prm = cap_in_status("CapPrm:", cap);

	if (eff < 0 || prm < 0)
		return 207;
	return 100 + eff + 2 * prm;
}

static int op_user(const char *arg)
{
	int id = atoi(arg);

	if (prctl(PR_SET_SECUREBITS, SECBIT_KEEP_CAPS | SECBIT_NO_SETUID_FIXUP))
		return 203;
	if (setresgid(id, id, id) || setresuid(id, id, id))
		return 204;
	return 0;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "user") && i + 1 < argc) {
			rc = op_user(argv[++i]);
			if (rc)
				return rc;
		} else if (!strcmp(argv[i], "exec") && i + 1 < argc) {
			execv(argv[i + 1], argv + i + 1);
			return 205;
		} else if (!strcmp(argv[i], "rawsock")) {
			rc = op_rawsock();
		} else if (!strcmp(argv[i], "bind80")) {
			rc = op_bind80();
		} else if (!strcmp(argv[i], "chown")) {
			rc = ret(chown("/tmp/chown-target", 1, 1));
		} else if (!strcmp(argv[i], "regain")) {
			rc = op_regain();
		} else if (!strcmp(argv[i], "mmap0")) {
			rc = op_mmap0();
		} else if (!strcmp(argv[i], "capsets") && i + 1 < argc) {
			rc = op_capsets(argv[++i]);
		} else if (!strcmp(argv[i], "script") && i + 1 < argc) {
			i++;
		} else {
			fprintf(stderr, "capstack_helper: unknown step %s\n", argv[i]);
			return 206;
		}
	}
	return rc;
}
