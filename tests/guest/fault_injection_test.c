// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: fault injection on the allocations that stacker and its
 * submodules make, or that the LSM core makes for them (their blobs), on
 * every path userspace can reach: policy loads and reads through
 * securityfs, mlte's labels and contexts, integrity's measurements,
 * appraisal, keys and HMAC key, and the blobs of creds, tasks, files,
 * inodes, sockets, IPC objects and superblocks.
 *
 * It uses the kernel's systematic per-task fault injection
 * (Documentation/fault-injection/fault-injection.rst): for each operation
 * and N = 1, 2, ..., it writes N to /proc/thread-self/fail-nth, runs the
 * operation (one system call), reads fail-nth back (0: the Nth injection
 * point of the call failed) and disarms it, until an attempt completes
 * without consuming its fault. failslab and fail_page_alloc are set up to
 * fail sleeping allocations too (ignore-gfp-wait=N) and page allocations of
 * any order (min-order=0), but not user pages (ignore-gfp-highmem=Y);
 * their probability stays 0, so that only fail-nth injects anything (it is
 * checked before probability and task-filter in lib/fault-inject.c's
 * should_fail_ex(), so task-filter and make-it-fail play no part).
 *
 * Every attempt with an injected fault must end in success (a fallback) or
 * in ENOMEM -- or in the one other outcome an operation documents (exec:
 * killed by SIGSEGV after the point of no return; sockets: the socket
 * layer's ENFILE/ENOBUFS) -- and leave the state it found: a failed policy
 * load leaves the old policy in force (read back, and deciding), a failed
 * relabel the old label, a failed context write the old context, a failed
 * measured open or exec a consistent measurement list with the file
 * measured once by the next access, a failed appraisal no denial (counted
 * or cached), a failed key load no key, a failed read a read that then
 * returns the whole value. A kernel report fails the boot (boottest.py);
 * in the debug run (make test-debug), kmemleak_check runs after this
 * program and fails on a leak in stacker.
 *
 * Each test prints how many allocations it failed; the last one prints
 * the table and the total ("allocations failed").
 *
 * Submodules not in the boot's chain are skipped, as are the integrity
 * checks that need the fixture disk (boottest.py --disk) when it is not
 * there. With stacker_fault_verbose=N on the kernel command line, failslab
 * and fail_page_alloc log each injected failure (N >= 2: with a
 * backtrace), and this program prints each attempt's outcome; with 2, a
 * failed check prints the backtrace of its injected failure from the
 * kernel log, with 3 every injected failure does.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "guest_util.h"

#define SFS "/sys/kernel/security/stacker/"
#define CAPSTACK_POLICY SFS "capstack/policy"
#define MLTE SFS "mlte/"
#define INTEGRITY SFS "integrity/"
#define DENYNAME SFS "denyname/name"
#define DEBUGFS "/sys/kernel/debug"
#define WORK "/tmp/fault"

/* The integrity fixtures (scripts/integrity-fixtures.py, mkinitramfs.sh). */
#define ETC "/etc/integrity/"

/* The mlte policies (tests/guest/mlte/fault-*.policy): B has no IPC for init_t. */
#define MLTE_A "/etc/mlte/fault-a.bin"
#define MLTE_B "/etc/mlte/fault-b.bin"

/* The rule the fault test adds to integrity's test policy. */
#define MEASURE_4242 "measure func=FILE_CHECK mask=MAY_READ fowner=4242\n"
#define UID_MEASURED 4242

/* Attempts per operation before the test gives up: far more than any needs. */
#define MAX_FAULTS 5000
/* Seconds per test: the loops run under TCG, on the debug kernel too. */
#define TIMEOUT 1800
/* A child's exit status when its own setup failed. */
#define SETUP_FAILED 250

/* ---- Counts, shared by the test processes (the harness forks each). ---- */

struct op_count {
	char op[48];
	int injected;	/* faults injected: allocations failed */
	int enomem;	/* attempts that then failed with ENOMEM */
	int other;	/* that failed with the operation's other outcome */
	int completed;	/* that succeeded all the same (a fallback) */
};

static struct {
	int n;
	struct op_count op[48];
} *totals;

static void __attribute__((constructor)) map_totals(void)
{
	void *p = mmap(NULL, sizeof(*totals), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	totals = p == MAP_FAILED ? NULL : p;
}

static struct op_count *count_of(const char *op)
{
	int i;

	if (!totals)
		return NULL;
	for (i = 0; i < totals->n; i++)
		if (!strcmp(totals->op[i].op, op))
			return &totals->op[i];
	if (totals->n == (int)ARRAY_SIZE(totals->op))
		return NULL;
	snprintf(totals->op[i].op, sizeof(totals->op[i].op), "%s", op);
	totals->n++;
	return &totals->op[i];
}

/* ---- The fault loop. ---- */

/* This task's /proc/thread-self/fail-nth, opened by the fixture. */
static int fail_nth = -1;
/* failslab's and fail_page_alloc's verbose (stacker_fault_verbose=). */
static int verbose;

struct faults {
	const char *op;
	/* Outcomes besides ENOMEM a failed attempt may have (errno, or -SIG). */
	int also[4];
	/* The operation can be done once only: its first success ends it. */
	bool once;
	int n;		/* this attempt's fault: the Nth injection point */
	int hit;	/* whether it was injected */
	int err;	/* the outcome: 0, an errno, or -SIGNAL when killed */
	int attempts;
	bool started;	/* whether this loop made an attempt yet */
};

#define FAULTS(name, ...) { .op = (name), .also = { __VA_ARGS__ } }
/*
 * An operation that can succeed once only (the HMAC key, a signing key).
 * Its loop starts at the write's second injection point: the first is the
 * krealloc() of the securityfs copy of the value (securityfs.rs), which
 * kvrealloc() retries with kvmalloc() when it fails -- and a single fault
 * is spent -- so the write would complete and use up the one load. (That
 * copy's own ENOMEM path is out of reach of one fault.) A later attempt
 * that completes in spite of its fault ends the loop too.
 */
#define FAULTS_ONCE(name, ...) \
	{ .op = (name), .also = { __VA_ARGS__ }, .once = true, .n = 1 }

/*
 * The other outcomes of the kernel's own code on an allocation failure:
 * - an exec whose argument page could not be had is E2BIG (fs/exec.c,
 *   copy_strings()), one whose program headers could not be read ENOEXEC
 *   (fs/binfmt_elf.c, load_elf_binary()); one that fails after the point
 *   of no return is killed with SIGSEGV (bprm_execve());
 * - tmpfs gives ENOSPC when a new inode (with its blobs) could not be
 *   allocated (mm/shmem.c, __shmem_get_inode());
 * - the socket layer gives ENFILE when a socket could not be allocated
 *   (net/socket.c, __sock_create()), inet ENOBUFS for its sock
 *   (net/ipv4/af_inet.c, inet_create());
 * - the RSA code reports an allocation failure of its payload check as
 *   EINVAL (crypto/rsa.c, _rsa_enc() returns -EINVAL for any failure of
 *   rsa_check_payload(), -ENOMEM included), which a certificate's
 *   self-signature check meets when a key is added.
 */
#define EXEC_OUTCOMES E2BIG, ENOEXEC, -SIGSEGV
#define TMPFS_OUTCOMES ENOSPC
#define SOCKET_OUTCOMES ENFILE, ENOBUFS
#define RSA_OUTCOMES EINVAL

/* "ENOMEM", "EACCES", ..., or "killed by SIGSEGV", for messages. */
static const char *outcome(int err)
{
	static char buf[64];

	if (!err)
		return "success";
	if (err < 0)
		snprintf(buf, sizeof(buf), "killed by signal %d", -err);
	else
		snprintf(buf, sizeof(buf), "%s (%d)", strerror(err), err);
	return buf;
}

/* Writes `n` to fail-nth `fd`: its Nth injection point from now on fails. */
static int arm_fd(int fd, int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return write(fd, buf, len) == len ? 0 : -1;
}

/* Whether the fault armed at `path` (a fail-nth file) was injected; -1. */
static int injected_at(const char *path)
{
	char buf[16];

	if (read_value(path, buf, sizeof(buf)) || !buf[0])
		return -1;
	return strtoul(buf, NULL, 10) == 0;
}

/* The next attempt, or false when the last one consumed no fault. */
static bool fault_next(struct __test_metadata *_metadata, struct faults *f)
{
	if (f->started && (!f->hit || (f->once && !f->err))) {
		if (f->hit)
			ksft_print_msg("%s: the one load completed in spite of fault %d: the points after it are out of reach in this boot\n",
				       f->op, f->n);
		return false;
	}
	f->n++;
	f->hit = 0;
	f->started = true;
	ASSERT_LT(f->n, MAX_FAULTS) {
		TH_LOG("%s: still consuming injected faults after %d attempts", f->op, f->n);
	}
	return true;
}

/* Starts the loop of `f` over, for another object, its counts kept. */
static void fault_restart(struct faults *f)
{
	f->n = 0;
	f->hit = 0;
	f->started = false;
}

/* Arms this task's fault for the attempt. */
static void fault_arm(struct __test_metadata *_metadata, struct faults *f)
{
	ASSERT_EQ(0, arm_fd(fail_nth, f->n)) {
		TH_LOG("writing fail-nth: %s", strerror(errno));
	}
}

/*
 * With stacker_fault_verbose=2, the kernel log from the last injected
 * failure on (its backtrace): where the fault of a failed check was.
 */
static void log_last_injection(void)
{
	static const char marker[] = "FAULT_INJECTION: forcing a failure.";
	const char *log = klog_read(), *last = NULL, *p, *end;

	if (verbose < 2)
		return;
	fflush(stdout);
	for (p = log; (p = strstr(p, marker)); p += sizeof(marker) - 1)
		last = p;
	for (p = last; p && *p; p = end + (*end == '\n')) {
		end = p + strcspn(p, "\n");
		fprintf(stderr, "# kernel: %.*s\n", (int)(end - p), p);
	}
}

/*
 * Records an attempt whose fault was (`hit`) or was not injected and that
 * ended in `err`: without a fault the operation must succeed; with one it
 * may fail only with ENOMEM or one of `also`.
 */
static void fault_record(struct __test_metadata *_metadata, struct faults *f, int hit, int err)
{
	struct op_count *c = count_of(f->op);
	bool allowed = err == ENOMEM;
	int i;

	ASSERT_LE(0, hit) {
		TH_LOG("%s: reading fail-nth back failed", f->op);
	}
	ASSERT_NE(NULL, c);
	f->hit = hit;
	f->err = err;
	f->attempts++;
	if (verbose)
		TH_LOG("%s: fault %d %s: %s", f->op, f->n, hit ? "injected" : "not reached",
		       outcome(err));
	if (!hit) {
		if (err)
			log_last_injection();
		ASSERT_EQ(0, err) {
			TH_LOG("%s: %s without an injected fault (attempt %d)", f->op,
			       outcome(err), f->n);
		}
		return;
	}
	c->injected++;
	if (verbose >= 3)
		log_last_injection();
	for (i = 0; i < (int)ARRAY_SIZE(f->also); i++)
		allowed |= f->also[i] && f->also[i] == err;
	if (err && !allowed)
		log_last_injection();
	ASSERT_TRUE(!err || allowed) {
		TH_LOG("%s: injection point %d failed and the operation gave %s, expected success or ENOMEM%s",
		       f->op, f->n, outcome(err), f->also[0] ? " (or its other outcome)" : "");
	}
	if (!err)
		c->completed++;
	else if (err == ENOMEM)
		c->enomem++;
	else
		c->other++;
}

/* Disarms this task's fault and records the attempt that ended in `err`. */
static void fault_disarm(struct __test_metadata *_metadata, struct faults *f, int err)
{
	char buf[16] = "";
	ssize_t n = pread(fail_nth, buf, sizeof(buf) - 1, 0);
	int hit = n > 0 ? strtoul(buf, NULL, 10) == 0 : -1;

	ASSERT_EQ(1, write(fail_nth, "0", 1));
	fault_record(_metadata, f, hit, err);
}

/* Prints what the loop of `f` injected. */
static void fault_report(struct __test_metadata *_metadata, const struct faults *f)
{
	struct op_count *c = count_of(f->op);

	ASSERT_NE(NULL, c);
	ksft_print_msg("%s: %d allocations failed (%d ENOMEM, %d other outcome, %d completed anyway) in %d attempts\n",
		       c->op, c->injected, c->enomem, c->other, c->completed, f->attempts);
}

/* ---- Helpers. ---- */

/* A counter line "KEY N" of a status file; -1 if there is none. */
static long counter(const char *path, const char *key)
{
	char buf[1024], *p;
	size_t len = strlen(key);

	if (read_value(path, buf, sizeof(buf)))
		return -1;
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

/* The current mlte context of this task, "" if unreadable. */
static const char *context(void)
{
	static char buf[256];

	if (read_value(ATTR, buf, sizeof(buf)))
		buf[0] = '\0';
	return buf;
}

/*
 * A tiny static x86-64 ELF executable at `path` that exits 0, with `tag`
 * after its code, so that every tag is a file of its own digest.
 */
static int put_elf(const char *path, unsigned int tag)
{
	static const unsigned char code[] = {
		0xb8, 0x3c, 0x00, 0x00, 0x00,	/* mov $60, %eax (exit) */
		0x31, 0xff,			/* xor %edi, %edi */
		0x0f, 0x05,			/* syscall */
	};
	const uint64_t base = 0x400000;
	unsigned char image[sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) + sizeof(code) + sizeof(tag)];
	Elf64_Ehdr eh = { .e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
				       ELFDATA2LSB, EV_CURRENT, ELFOSABI_SYSV } };
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_align = 0x1000 };

	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = base + sizeof(eh) + sizeof(ph);
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	ph.p_vaddr = ph.p_paddr = base;
	ph.p_filesz = ph.p_memsz = sizeof(image);
	memcpy(image, &eh, sizeof(eh));
	memcpy(image + sizeof(eh), &ph, sizeof(ph));
	memcpy(image + sizeof(eh) + sizeof(ph), code, sizeof(code));
	memcpy(image + sizeof(eh) + sizeof(ph) + sizeof(code), &tag, sizeof(tag));
	unlink(path);
	return put_file(path, image, sizeof(image), 0755);
}

/*
 * Executes `path` in a child whose own fault `n` is armed just before
 * execve (so `n` = 0 runs it without a fault). Returns the outcome: 0 when
 * it ran and exited 0, the errno of execve, -SIGNAL when it was killed, or
 * SETUP_FAILED; *hit says whether the child's fault was injected, read
 * from its /proc/PID/fail-nth while it is a zombie.
 */
static int exec_armed(const char *path, int n, int *hit)
{
	char fail[64];
	siginfo_t si;
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };
		int null = open("/dev/null", O_WRONLY);
		int fd = open("/proc/thread-self/fail-nth", O_WRONLY | O_CLOEXEC);

		if (null < 0 || fd < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(SETUP_FAILED);
		if (n && arm_fd(fd, n))
			_exit(SETUP_FAILED);
		execve(path, argv, envp);
		_exit(errno < SETUP_FAILED ? errno : SETUP_FAILED);
	}
	*hit = -1;
	if (pid < 0 || waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
		return SETUP_FAILED;
	snprintf(fail, sizeof(fail), "/proc/%d/fail-nth", pid);
	*hit = n ? injected_at(fail) : 0;
	if (waitpid(pid, &status, 0) != pid)
		return SETUP_FAILED;
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The measurement count, and the aggregate into `agg` (64 bytes). */
static long measurements(char *agg)
{
	if (agg && read_value(INTEGRITY "aggregate", agg, 64))
		agg[0] = '\0';
	return counter(INTEGRITY "status", "measurements");
}

/*
 * Whether the measurement list is consistent: as many lines as the count
 * says, each a whole entry, no two with one template hash (the list keeps
 * one entry per contents and path).
 */
static bool list_consistent(struct __test_metadata *_metadata)
{
	char *text, *line, *save, hashes[512][41];
	long count = measurements(NULL), lines = 0;
	int i;

	if (read_whole(INTEGRITY "ascii_runtime_measurements", &text) < 0)
		return false;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char hash[41], digest[65];

		if (sscanf(line, "10 %40[0-9a-f] ima-ng sha256:%64[0-9a-f] ", hash, digest) != 2 ||
		    strlen(hash) != 40 || strlen(digest) != 64) {
			TH_LOG("malformed measurement: '%s'", line);
			free(text);
			return false;
		}
		for (i = 0; i < lines && i < (int)ARRAY_SIZE(hashes); i++) {
			if (!strcmp(hashes[i], hash)) {
				TH_LOG("template hash %s listed twice", hash);
				free(text);
				return false;
			}
		}
		if (lines < (long)ARRAY_SIZE(hashes))
			strcpy(hashes[lines], hash);
		lines++;
	}
	free(text);
	if (lines != count)
		TH_LOG("%ld lines in the list, status counts %ld", lines, count);
	return lines == count;
}

/* Loads integrity's test policy, plus `extra`; 0 or the errno. */
static int load_integrity_policy(const char *extra)
{
	char *text, *both;
	long len = read_whole(ETC "test.policy", &text), rc;

	if (len < 0)
		return errno;
	if (asprintf(&both, "%s%s", text, extra) < 0) {
		free(text);
		return ENOMEM;
	}
	rc = write_value(INTEGRITY "policy", both);
	free(text);
	free(both);
	return errno_of(rc);
}

/* Whether integrity's policy in force has the rule MEASURE_4242. */
static bool measures_4242(void)
{
	char *text;
	bool has;

	if (read_whole(INTEGRITY "policy", &text) < 0)
		return false;
	has = strstr(text, MEASURE_4242) != NULL;
	free(text);
	return has;
}

/* Rewrites `path` with contents of its own and gives it to UID_MEASURED. */
static int new_version(const char *path, int version)
{
	char data[64];
	int len = snprintf(data, sizeof(data), "fault injection: version %d\n", version);

	if (put_file(path, data, len, 0644))
		return -1;
	return chown(path, UID_MEASURED, UID_MEASURED);
}

/* Loads the key that signed the fixtures unless it is; whether it is. */
static bool signing_key_loaded(void)
{
	char *cert;
	long len;
	int err;

	len = read_whole(ETC "cert1.der", &cert);
	if (len < 0)
		return false;
	err = errno_of(write_bytes(INTEGRITY "keys", cert, len));
	free(cert);
	return !err || err == EEXIST;
}

/* Loads the EVM HMAC key of the fixtures unless one is; whether one is. */
static bool evm_key_loaded(void)
{
	char buf[64], key[64];
	long len;
	int fd;

	if (!read_value(INTEGRITY "evm_key", buf, sizeof(buf)) && !strcmp(buf, "1\n"))
		return true;
	fd = open(ETC "evm.key", O_RDONLY);
	if (fd < 0)
		return false;
	len = read(fd, key, sizeof(key));
	close(fd);
	return len == 32 && write_bytes(INTEGRITY "evm_key", key, 32) == 32;
}

/* ---- Setup. ---- */

/* Sets a debugfs fault-injection attribute; 0 or -1. */
static int set_attr(const char *attr, const char *value)
{
	char path[128], back[32];

	snprintf(path, sizeof(path), DEBUGFS "/%s", attr);
	if (write_value(path, value) < 0 || read_value(path, back, sizeof(back)))
		return -1;
	return strncmp(back, value, strlen(value)) ? -1 : 0;
}

static void configure_faults(struct __test_metadata *_metadata)
{
	static const struct {
		const char *attr, *value;
	} attrs[] = {
		/* Fail sleeping allocations (GFP_KERNEL) too. */
		{ "failslab/ignore-gfp-wait", "N" },
		{ "fail_page_alloc/ignore-gfp-wait", "N" },
		/* Pages of any order (vmalloc's are order 0), not user pages. */
		{ "fail_page_alloc/min-order", "0" },
		{ "fail_page_alloc/ignore-gfp-highmem", "Y" },
	};
	char cmdline[1024], *p, level[8];
	struct stat st;
	size_t i;

	if (stat(DEBUGFS "/failslab", &st))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	ASSERT_EQ(0, stat(DEBUGFS "/failslab", &st)) {
		TH_LOG(DEBUGFS "/failslab: %s (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)",
		       strerror(errno));
	}
	ASSERT_EQ(0, stat(DEBUGFS "/fail_page_alloc", &st));
	ASSERT_EQ(0, access("/proc/thread-self/fail-nth", W_OK));
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		const char *attr = attrs[i].attr, *value = attrs[i].value;

		ASSERT_EQ(0, set_attr(attr, value)) {
			TH_LOG("setting %s to %s failed", attr, value);
		}
	}
	p = read_value("/proc/cmdline", cmdline, sizeof(cmdline)) ? NULL :
		strstr(cmdline, "stacker_fault_verbose=");
	if (p)
		verbose = atoi(p + strlen("stacker_fault_verbose="));
	snprintf(level, sizeof(level), "%d", verbose);
	ASSERT_EQ(0, set_attr("failslab/verbose", level));
	ASSERT_EQ(0, set_attr("fail_page_alloc/verbose", level));
}

FIXTURE(fault) {};

FIXTURE_SETUP(fault)
{
	ASSERT_INIT_SUCCEEDED(STACKER_STATUS);
	configure_faults(_metadata);
	fail_nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fail_nth);
	mkdir(WORK, 0755);
}

FIXTURE_TEARDOWN(fault)
{
	if (fail_nth >= 0)
		close(fail_nth);
}

#define NEEDS(name) do { \
	char __chain[256]; \
	if (!chain_has(name, __chain, sizeof(__chain))) \
		SKIP(return, name " is not in this boot's chain"); \
} while (0)

/* ---- capstack. ---- */

/* Two policies: each takes a capability from every process. */
static const char cap_a[] = "deny CAP_MKNOD all\n";
static const char cap_b[] = "deny CAP_SYS_NICE all\n";

/* mknod of a character device: 0, or the errno (EPERM: CAP_MKNOD taken). */
static int mknod_errno(void)
{
	int err = mknod(WORK "/null", S_IFCHR | 0600, makedev(1, 3)) ? errno : 0;

	unlink(WORK "/null");
	return err;
}

/* Loading a policy: a failed load leaves the old one, read back and deciding. */
TEST_F_TIMEOUT(fault, capstack_policy_load, TIMEOUT)
{
	struct faults f = FAULTS("capstack_policy_load");
	char *want_a = NULL, *want_b = NULL, *now;
	int fd, err;

	NEEDS("capstack");
	/* The texts as the kernel prints them back (canonical form). */
	ASSERT_EQ((long)strlen(cap_b), write_value(CAPSTACK_POLICY, cap_b));
	ASSERT_LE(0, read_whole(CAPSTACK_POLICY, &want_b));
	ASSERT_EQ(0, mknod_errno());
	ASSERT_EQ((long)strlen(cap_a), write_value(CAPSTACK_POLICY, cap_a));
	ASSERT_LE(0, read_whole(CAPSTACK_POLICY, &want_a));
	ASSERT_STRNE(want_a, want_b);
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ((long)strlen(cap_a), write_value(CAPSTACK_POLICY, cap_a));
		ASSERT_EQ(EPERM, mknod_errno());
		fd = open(CAPSTACK_POLICY, O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, cap_b, strlen(cap_b)));
		fault_disarm(_metadata, &f, err);
		close(fd);
		ASSERT_LE(0, read_whole(CAPSTACK_POLICY, &now));
		EXPECT_STREQ(err ? want_a : want_b, now);
		EXPECT_EQ(err ? EPERM : 0, mknod_errno());
		free(now);
	}
	fault_report(_metadata, &f);
	write_value(CAPSTACK_POLICY, "\n");
	free(want_a);
	free(want_b);
}

/* ---- mlte. ---- */

/* Loads the compiled mlte policy at `path`; 0 or the errno. */
static int load_mlte(const char *path)
{
	char *policy;
	long len = read_whole(path, &policy), rc;

	if (len < 0)
		return errno;
	rc = write_bytes(MLTE "policy", policy, len);
	free(policy);
	return rc == len ? 0 : rc < 0 ? errno : EIO;
}

/* Loads policy A unless a policy is loaded; whether one is. */
static bool mlte_policy_loaded(void)
{
	char buf[64];

	if (read_value(MLTE "policy", buf, sizeof(buf)))
		return false;
	return strcmp(buf, "none\n") || !load_mlte(MLTE_A);
}

/* Whether this task may create a message queue: 0 or the errno. */
static int msgget_errno(void)
{
	int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);

	if (id < 0)
		return errno;
	msgctl(id, IPC_RMID, NULL);
	return 0;
}

/*
 * Loading a compiled policy, B over A. A failed load keeps A: its load
 * count, and its decisions (init_t may create a message queue; under B it
 * may not).
 */
TEST_F_TIMEOUT(fault, mlte_policy_load, TIMEOUT)
{
	struct faults f = FAULTS("mlte_policy_load");
	long b_len, loads;
	int fd, err;
	char *b;

	NEEDS("mlte");
	b_len = read_whole(MLTE_B, &b);
	ASSERT_LT(0, b_len);
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, load_mlte(MLTE_A));
		ASSERT_EQ(0, msgget_errno());
		loads = counter(MLTE "status", "loads");
		fd = open(MLTE "policy", O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, b, b_len));
		fault_disarm(_metadata, &f, err);
		close(fd);
		EXPECT_EQ(loads + !err, counter(MLTE "status", "loads"));
		EXPECT_EQ(err ? 0 : EACCES, msgget_errno());
	}
	fault_report(_metadata, &f);
	EXPECT_EQ(0, load_mlte(MLTE_A));
	free(b);
}

/* Relabelling: a failed setxattr leaves the old label in the inode's blob. */
TEST_F_TIMEOUT(fault, mlte_relabel, TIMEOUT)
{
	struct faults f = FAULTS("mlte_relabel");
	static const char to[] = "system_u:object_r:secret_t:s0";
	int err;

	NEEDS("mlte");
	ASSERT_TRUE(mlte_policy_loaded());
	ASSERT_EQ(0, make_file(WORK "/relabel"));
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, mlte_set_label(WORK "/relabel", "system_u:object_r:public_t:s0"));
		ASSERT_STREQ("system_u:object_r:public_t:s0", mlte_label_of(WORK "/relabel"));
		fault_arm(_metadata, &f);
		err = errno_of(setxattr(WORK "/relabel", MLTE_XATTR, to, strlen(to), 0));
		fault_disarm(_metadata, &f, err);
		EXPECT_STREQ(err ? "system_u:object_r:public_t:s0" : to, mlte_label_of(WORK "/relabel"));
	}
	fault_report(_metadata, &f);
}

/* Reading a label (inode_getsecurity builds the value). */
TEST_F_TIMEOUT(fault, mlte_getxattr, TIMEOUT)
{
	struct faults f = FAULTS("mlte_getxattr");
	char buf[256];
	ssize_t n;

	NEEDS("mlte");
	ASSERT_TRUE(mlte_policy_loaded());
	ASSERT_EQ(0, make_file(WORK "/label"));
	ASSERT_EQ(0, mlte_set_label(WORK "/label", "system_u:object_r:public_t:s1:c0"));
	while (fault_next(_metadata, &f)) {
		memset(buf, 0, sizeof(buf));
		fault_arm(_metadata, &f);
		n = getxattr(WORK "/label", MLTE_XATTR, buf, sizeof(buf) - 1);
		fault_disarm(_metadata, &f, errno_of(n));
		if (n >= 0)
			EXPECT_STREQ("system_u:object_r:public_t:s1:c0", buf);
	}
	fault_report(_metadata, &f);
	EXPECT_STREQ("system_u:object_r:public_t:s1:c0", mlte_label_of(WORK "/label"));
}

/* Sets this task's context to system_u:system_r:init_t:s0, without a fault. */
static int reset_context(void)
{
	return write_value(ATTR, "mlte:system_u:system_r:init_t:s0") < 0 ? errno : 0;
}

/* Writing /proc/self/attr/current: a failed write keeps the old context. */
TEST_F_TIMEOUT(fault, mlte_attr_current_write, TIMEOUT)
{
	struct faults f = FAULTS("mlte_attr_current_write");
	static const char to[] = "mlte:system_u:system_r:init_t:s1";
	int fd, err;

	NEEDS("mlte");
	ASSERT_TRUE(mlte_policy_loaded());
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, reset_context());
		ASSERT_STREQ("system_u:system_r:init_t:s0", context());
		fd = open(ATTR, O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, to, strlen(to)));
		fault_disarm(_metadata, &f, err);
		close(fd);
		EXPECT_STREQ(err ? "system_u:system_r:init_t:s0" : "system_u:system_r:init_t:s1", context());
	}
	fault_report(_metadata, &f);
	EXPECT_EQ(0, reset_context());
}

/* Reading /proc/self/attr/current (getprocattr builds the value). */
TEST_F_TIMEOUT(fault, mlte_attr_current_read, TIMEOUT)
{
	struct faults f = FAULTS("mlte_attr_current_read");
	char buf[256];
	ssize_t n;
	int fd;

	NEEDS("mlte");
	ASSERT_TRUE(mlte_policy_loaded());
	ASSERT_EQ(0, reset_context());
	while (fault_next(_metadata, &f)) {
		memset(buf, 0, sizeof(buf));
		fd = open(ATTR, O_RDONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		n = read(fd, buf, sizeof(buf) - 1);
		fault_disarm(_metadata, &f, errno_of(n));
		close(fd);
		if (n >= 0)
			EXPECT_STREQ("system_u:system_r:init_t:s0", buf);
	}
	fault_report(_metadata, &f);
}

/* lsm_set_self_attr(2): a failed call keeps the old context. */
TEST_F_TIMEOUT(fault, mlte_lsm_set_self_attr, TIMEOUT)
{
	struct faults f = FAULTS("mlte_lsm_set_self_attr");
	static const char to[] = "mlte:system_u:system_r:init_t:s1";
	union {
		struct lsm_ctx ctx;
		char bytes[256];
	} u;
	uint32_t size = sizeof(u.ctx) + sizeof(to);
	int err;

	NEEDS("mlte");
	ASSERT_TRUE(mlte_policy_loaded());
	memset(&u, 0, sizeof(u));
	u.ctx.id = LSM_ID_STACKER;
	u.ctx.len = size;
	u.ctx.ctx_len = sizeof(to);
	memcpy(u.ctx.ctx, to, sizeof(to));
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, reset_context());
		fault_arm(_metadata, &f);
		err = errno_of(syscall(SYS_lsm_set_self_attr, LSM_ATTR_CURRENT, &u.ctx, size, 0));
		fault_disarm(_metadata, &f, err);
		EXPECT_STREQ(err ? "system_u:system_r:init_t:s0" : "system_u:system_r:init_t:s1", context());
	}
	fault_report(_metadata, &f);
	EXPECT_EQ(0, reset_context());
}

/* lsm_get_self_attr(2) (getselfattr builds the value). */
TEST_F_TIMEOUT(fault, mlte_lsm_get_self_attr, TIMEOUT)
{
	struct faults f = FAULTS("mlte_lsm_get_self_attr");
	static const char want[] = "mlte:system_u:system_r:init_t:s0";
	union {
		struct lsm_ctx ctx;
		char bytes[1024];
	} u;
	uint32_t size;
	long rc;

	NEEDS("mlte");
	ASSERT_TRUE(mlte_policy_loaded());
	ASSERT_EQ(0, reset_context());
	while (fault_next(_metadata, &f)) {
		memset(&u, 0, sizeof(u));
		size = sizeof(u);
		fault_arm(_metadata, &f);
		rc = syscall(SYS_lsm_get_self_attr, LSM_ATTR_CURRENT, &u.ctx, &size, 0);
		fault_disarm(_metadata, &f, errno_of(rc));
		if (rc >= 0) {
			/* Stacker is the only LSM with the attribute: one entry. */
			EXPECT_EQ(1, rc);
			EXPECT_EQ((uint64_t)LSM_ID_STACKER, u.ctx.id);
			EXPECT_EQ(sizeof(want), u.ctx.ctx_len);
			EXPECT_EQ(0, memcmp(u.ctx.ctx, want, sizeof(want)));
		}
	}
	fault_report(_metadata, &f);
}

/* ---- integrity. ---- */

/*
 * Loading a policy: B is integrity's test policy A plus MEASURE_4242. A
 * failed load keeps A: read back, its load count, and its decision (a file
 * of uid 4242 read is not measured).
 */
TEST_F_TIMEOUT(fault, integrity_policy_load, TIMEOUT)
{
	struct faults f = FAULTS("integrity_policy_load");
	char *want_a = NULL, *want_b, *now, *b, *a;
	long loads, before;
	int fd, err;

	NEEDS("integrity");
	ASSERT_LE(0, read_whole(ETC "test.policy", &a));
	ASSERT_LT(0, asprintf(&b, "%s%s", a, MEASURE_4242));
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, load_integrity_policy(""));
		if (!want_a) {
			ASSERT_LE(0, read_whole(INTEGRITY "policy", &want_a));
			ASSERT_LT(0, asprintf(&want_b, "%s%s", want_a, MEASURE_4242));
		}
		loads = counter(INTEGRITY "status", "policy_loads");
		fd = open(INTEGRITY "policy", O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, b, strlen(b)));
		fault_disarm(_metadata, &f, err);
		close(fd);
		ASSERT_LE(0, read_whole(INTEGRITY "policy", &now));
		EXPECT_STREQ(err ? want_a : want_b, now);
		free(now);
		EXPECT_EQ(loads + !err, counter(INTEGRITY "status", "policy_loads"));
		/* The decision: is a file of uid 4242 measured when read? */
		ASSERT_EQ(0, new_version(WORK "/decision", f.n));
		before = measurements(NULL);
		ASSERT_EQ(0, open_errno(WORK "/decision"));
		EXPECT_EQ(before + !err, measurements(NULL));
	}
	fault_report(_metadata, &f);
	free(a);
	free(b);
	free(want_a);
	free(want_b);
}

/*
 * A measured open: a file of uid 4242 with new contents each time. A
 * failed open leaves a consistent list (the aggregate moves with the
 * count) and the file not cached as measured: the next open measures it,
 * once in all.
 */
TEST_F_TIMEOUT(fault, integrity_measured_open, TIMEOUT)
{
	struct faults f = FAULTS("integrity_measured_open");
	char agg0[64], agg1[64];
	long before, after;
	int fd, err;

	NEEDS("integrity");
	if (!measures_4242())
		ASSERT_EQ(0, load_integrity_policy(MEASURE_4242));
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, new_version(WORK "/measured", f.n));
		before = measurements(agg0);
		fault_arm(_metadata, &f);
		fd = open(WORK "/measured", O_RDONLY);
		err = errno_of(fd);
		fault_disarm(_metadata, &f, err);
		if (fd >= 0)
			close(fd);
		after = measurements(agg1);
		EXPECT_TRUE(after == before || after == before + 1);
		EXPECT_EQ(after == before, !strcmp(agg0, agg1));
		if (err) {
			EXPECT_EQ(0, open_errno(WORK "/measured"));
			after = measurements(NULL);
		}
		EXPECT_EQ(before + 1, after);
		EXPECT_TRUE(list_consistent(_metadata));
	}
	fault_report(_metadata, &f);
}

/*
 * A measured exec (integrity's test policy measures every exec) of a tiny
 * executable with new contents each time, the fault armed in the child
 * just before execve: the exec fails with ENOMEM, or its child is killed
 * with SIGSEGV when the fault comes after the point of no return (the
 * kernel's rule, bprm_execve()). Either way the list stays consistent and
 * the next exec runs, the file measured once in all.
 */
TEST_F_TIMEOUT(fault, integrity_measured_exec, TIMEOUT)
{
	struct faults f = FAULTS("integrity_measured_exec", EXEC_OUTCOMES);
	long before, after;
	int err, hit;

	NEEDS("integrity");
	ASSERT_EQ(0, load_integrity_policy(MEASURE_4242));
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, put_elf(WORK "/exec", f.n));
		before = measurements(NULL);
		err = exec_armed(WORK "/exec", f.n, &hit);
		ASSERT_NE(SETUP_FAILED, err);
		fault_record(_metadata, &f, hit, err);
		after = measurements(NULL);
		EXPECT_TRUE(after == before || after == before + 1);
		if (err) {
			EXPECT_EQ(0, exec_armed(WORK "/exec", 0, &hit));
			after = measurements(NULL);
		}
		EXPECT_EQ(before + 1, after);
		EXPECT_TRUE(list_consistent(_metadata));
	}
	fault_report(_metadata, &f);
}

/* Adding a signature key: a failed load adds no key (a retry is no EEXIST). */
/*
 * Adding a signing key: a failed load adds no key, so that loading the
 * certificate again is no EEXIST. A certificate loads once: an attempt
 * that completes in spite of its fault moves on to the next certificate
 * (the fixtures' spare ones, then their second, then their first, which
 * integrity_appraised_exec_signature needs).
 */
TEST_F_TIMEOUT(fault, integrity_key_load, TIMEOUT)
{
	static const char *const certs[] = {
		ETC "cert3.der", ETC "cert4.der", ETC "cert5.der", ETC "cert6.der",
		ETC "cert7.der", ETC "cert8.der", ETC "cert2.der", ETC "cert1.der",
	};
	struct faults f = FAULTS_ONCE("integrity_key_load", RSA_OUTCOMES);
	size_t used = 0;
	long len, keys;
	int fd, err;
	char *cert;

	NEEDS("integrity");
	if (counter(INTEGRITY "status", "keys") > 0)
		SKIP(return, "a key is loaded already");
	f.once = false;
	while (used < ARRAY_SIZE(certs) && fault_next(_metadata, &f)) {
		len = read_whole(certs[used], &cert);
		ASSERT_LT(0, len);
		keys = counter(INTEGRITY "status", "keys");
		fd = open(INTEGRITY "keys", O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, cert, len));
		fault_disarm(_metadata, &f, err);
		close(fd);
		free(cert);
		EXPECT_EQ(keys + !err, counter(INTEGRITY "status", "keys"));
		if (!err)
			used++;
	}
	if (f.hit && !f.err)
		ksft_print_msg("%s: every certificate loaded in spite of a fault; stopped at fault %d\n",
			       f.op, f.n);
	fault_report(_metadata, &f);
}

/*
 * An appraised exec from the fixture disk, with what is known of the file
 * forgotten before each attempt (a chmod to its own mode): an allocation
 * failure while appraising is ENOMEM, never a denial (none is counted) nor
 * a cached verdict (the next exec runs).
 */
static void appraised_exec(struct __test_metadata *_metadata, struct faults *f,
			   const char *path)
{
	long denials;
	struct stat st;
	int err, hit;

	if (!measures_4242())
		ASSERT_EQ(0, load_integrity_policy(MEASURE_4242));
	ASSERT_EQ(0, stat(path, &st));
	while (fault_next(_metadata, f)) {
		ASSERT_EQ(0, chmod(path, st.st_mode & 07777));
		denials = counter(INTEGRITY "status", "appraisal_denials");
		err = exec_armed(path, f->n, &hit);
		ASSERT_NE(SETUP_FAILED, err);
		fault_record(_metadata, f, hit, err);
		EXPECT_EQ(denials, counter(INTEGRITY "status", "appraisal_denials"));
		if (err)
			EXPECT_EQ(0, exec_armed(path, 0, &hit));
	}
	fault_report(_metadata, f);
}

TEST_F_TIMEOUT(fault, integrity_appraised_exec_hash, TIMEOUT)
{
	struct faults f = FAULTS("integrity_appraised_exec_hash", EXEC_OUTCOMES);

	NEEDS("integrity");
	NEEDS_FIXTURE_DISK();
	appraised_exec(_metadata, &f, FIXTURE_MNT "/hashed/ok");
}

TEST_F_TIMEOUT(fault, integrity_appraised_exec_signature, TIMEOUT)
{
	struct faults f = FAULTS("integrity_appraised_exec_signature", EXEC_OUTCOMES);

	NEEDS("integrity");
	NEEDS_FIXTURE_DISK();
	ASSERT_TRUE(signing_key_loaded());
	appraised_exec(_metadata, &f, FIXTURE_MNT "/signed/good");
}

/* Loading the HMAC key: a failed load leaves none, and may be retried. */
TEST_F_TIMEOUT(fault, integrity_evm_key, TIMEOUT)
{
	struct faults f = FAULTS_ONCE("integrity_evm_key");
	char key[64], now[16];
	long len;
	int fd, err;

	NEEDS("integrity");
	ASSERT_EQ(0, read_value(INTEGRITY "evm_key", now, sizeof(now)));
	if (strcmp(now, "0\n"))
		SKIP(return, "an HMAC key is loaded already");
	fd = open(ETC "evm.key", O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, key, sizeof(key));
	close(fd);
	ASSERT_EQ(32, len);
	while (fault_next(_metadata, &f)) {
		fd = open(INTEGRITY "evm_key", O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, key, 32));
		fault_disarm(_metadata, &f, err);
		close(fd);
		ASSERT_EQ(0, read_value(INTEGRITY "evm_key", now, sizeof(now)));
		EXPECT_STREQ(err ? "0\n" : "1\n", now);
	}
	fault_report(_metadata, &f);
}

/*
 * An open that checks security.evm (and appraises): an allocation failure
 * is ENOMEM, never a denial nor a cached verdict.
 */
TEST_F_TIMEOUT(fault, integrity_evm_open, TIMEOUT)
{
	struct faults f = FAULTS("integrity_evm_open");
	static const char path[] = FIXTURE_MNT "/meta/intact";
	long appraisal, evm;
	struct stat st;
	int fd, err;

	NEEDS("integrity");
	NEEDS_FIXTURE_DISK();
	ASSERT_TRUE(evm_key_loaded());
	ASSERT_EQ(0, stat(path, &st));
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(0, chmod(path, st.st_mode & 07777));
		appraisal = counter(INTEGRITY "status", "appraisal_denials");
		evm = counter(INTEGRITY "status", "evm_denials");
		fault_arm(_metadata, &f);
		fd = open(path, O_RDONLY);
		err = errno_of(fd);
		fault_disarm(_metadata, &f, err);
		if (fd >= 0)
			close(fd);
		EXPECT_EQ(appraisal, counter(INTEGRITY "status", "appraisal_denials"));
		EXPECT_EQ(evm, counter(INTEGRITY "status", "evm_denials"));
		if (err)
			EXPECT_EQ(0, open_errno(path));
	}
	fault_report(_metadata, &f);
}

/* ---- Blobs: cred and task (fork), file, inode, sock, IPC, superblock. ---- */

/* fork: the child gets its blobs and its parent's context. */
TEST_F_TIMEOUT(fault, blob_fork, TIMEOUT)
{
	struct faults f = FAULTS("blob_fork");
	char parent[256];
	int status;
	pid_t pid;

	snprintf(parent, sizeof(parent), "%s", context());
	while (fault_next(_metadata, &f)) {
		fault_arm(_metadata, &f);
		pid = fork();
		if (pid == 0)
			_exit(strcmp(context(), parent) ? 1 : 0);
		fault_disarm(_metadata, &f, errno_of(pid));
		if (pid > 0) {
			ASSERT_EQ(pid, waitpid(pid, &status, 0));
			EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
				TH_LOG("the child's context is not '%s'", parent);
			}
		}
		EXPECT_STREQ(parent, context());
	}
	fault_report(_metadata, &f);
}

/* open: the file blob (and mlte's open check). */
TEST_F_TIMEOUT(fault, blob_open, TIMEOUT)
{
	struct faults f = FAULTS("blob_open");
	int fd;

	ASSERT_EQ(0, make_file(WORK "/plain"));
	while (fault_next(_metadata, &f)) {
		fault_arm(_metadata, &f);
		fd = open(WORK "/plain", O_RDONLY);
		fault_disarm(_metadata, &f, errno_of(fd));
		if (fd >= 0)
			close(fd);
	}
	fault_report(_metadata, &f);
}

/*
 * Creating a file: the inode blob and the new file's label (its xattr
 * from inode_init_security). A failed create leaves no file; a created one
 * has the label a create without a fault gives.
 */
TEST_F_TIMEOUT(fault, blob_create, TIMEOUT)
{
	struct faults f = FAULTS("blob_create", TMPFS_OUTCOMES);
	char want[256];
	struct stat st;
	int fd;

	unlink(WORK "/reference");
	ASSERT_EQ(0, make_file(WORK "/reference"));
	snprintf(want, sizeof(want), "%s", mlte_label_of(WORK "/reference"));
	while (fault_next(_metadata, &f)) {
		unlink(WORK "/new");
		fault_arm(_metadata, &f);
		fd = open(WORK "/new", O_CREAT | O_EXCL | O_WRONLY, 0644);
		fault_disarm(_metadata, &f, errno_of(fd));
		if (fd >= 0) {
			close(fd);
			EXPECT_STREQ(want, mlte_label_of(WORK "/new"));
		} else {
			EXPECT_EQ(-1, stat(WORK "/new", &st));
		}
	}
	fault_report(_metadata, &f);
}

TEST_F_TIMEOUT(fault, blob_mkdir, TIMEOUT)
{
	struct faults f = FAULTS("blob_mkdir", TMPFS_OUTCOMES);
	char want[256];
	struct stat st;
	int err;

	rmdir(WORK "/reference-dir");
	ASSERT_EQ(0, mkdir(WORK "/reference-dir", 0755));
	snprintf(want, sizeof(want), "%s", mlte_label_of(WORK "/reference-dir"));
	while (fault_next(_metadata, &f)) {
		rmdir(WORK "/new-dir");
		fault_arm(_metadata, &f);
		err = errno_of(mkdir(WORK "/new-dir", 0755));
		fault_disarm(_metadata, &f, err);
		if (!err) {
			EXPECT_STREQ(want, mlte_label_of(WORK "/new-dir"));
		} else {
			EXPECT_EQ(-1, stat(WORK "/new-dir", &st));
		}
	}
	fault_report(_metadata, &f);
}

/* Sockets: the sock blob (and mlte's create and post-create hooks). */
TEST_F_TIMEOUT(fault, blob_socket, TIMEOUT)
{
	static const int kinds[][2] = {
		{ AF_UNIX, SOCK_STREAM }, { AF_UNIX, SOCK_DGRAM }, { AF_INET, SOCK_DGRAM },
	};
	struct faults f = FAULTS("blob_socket", SOCKET_OUTCOMES);
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		fault_restart(&f);
		while (fault_next(_metadata, &f)) {
			fault_arm(_metadata, &f);
			fd = socket(kinds[i][0], kinds[i][1], 0);
			fault_disarm(_metadata, &f, errno_of(fd));
			if (fd >= 0)
				close(fd);
		}
	}
	fault_report(_metadata, &f);
}

TEST_F_TIMEOUT(fault, blob_socketpair, TIMEOUT)
{
	struct faults f = FAULTS("blob_socketpair", SOCKET_OUTCOMES);
	char buf[8];
	int sv[2], err;

	while (fault_next(_metadata, &f)) {
		fault_arm(_metadata, &f);
		err = errno_of(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
		fault_disarm(_metadata, &f, err);
		if (err)
			continue;
		EXPECT_EQ(4, write(sv[0], "ping", 4));
		EXPECT_EQ(4, read(sv[1], buf, sizeof(buf)));
		close(sv[0]);
		close(sv[1]);
	}
	fault_report(_metadata, &f);
}

/* The number of lines of a /proc/sysvipc table, its header excluded. */
static int ipc_objects(const char *table)
{
	char *text, *p;
	int lines = -1;

	if (read_whole(table, &text) < 0)
		return -1;
	for (p = text; (p = strchr(p, '\n')); p++)
		lines++;
	free(text);
	return lines;
}

/*
 * SysV IPC: the ipc blob of a new queue, semaphore set and segment (whose
 * file is a tmpfs inode). A failed create leaves no object behind.
 */
static void ipc_create(struct __test_metadata *_metadata, struct faults *f, const char *table)
{
	int id, before;

	while (fault_next(_metadata, f)) {
		before = ipc_objects(table);
		ASSERT_LE(0, before);
		fault_arm(_metadata, f);
		if (strstr(table, "msg"))
			id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
		else if (strstr(table, "sem"))
			id = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
		else
			id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
		fault_disarm(_metadata, f, errno_of(id));
		EXPECT_EQ(before + (id >= 0), ipc_objects(table));
		if (id < 0)
			continue;
		if (strstr(table, "msg"))
			msgctl(id, IPC_RMID, NULL);
		else if (strstr(table, "sem"))
			semctl(id, 0, IPC_RMID);
		else
			shmctl(id, IPC_RMID, NULL);
	}
	fault_report(_metadata, f);
}

TEST_F_TIMEOUT(fault, blob_msgget, TIMEOUT)
{
	struct faults f = FAULTS("blob_msgget");

	ipc_create(_metadata, &f, "/proc/sysvipc/msg");
}

TEST_F_TIMEOUT(fault, blob_semget, TIMEOUT)
{
	struct faults f = FAULTS("blob_semget");

	ipc_create(_metadata, &f, "/proc/sysvipc/sem");
}

TEST_F_TIMEOUT(fault, blob_shmget, TIMEOUT)
{
	struct faults f = FAULTS("blob_shmget", TMPFS_OUTCOMES);

	ipc_create(_metadata, &f, "/proc/sysvipc/shm");
}

/* A message: a failed msgsnd queues nothing. */
TEST_F_TIMEOUT(fault, blob_msg, TIMEOUT)
{
	struct faults f = FAULTS("blob_msg");
	struct {
		long type;
		char text[16];
	} msg = { 1, "fault" };
	struct msqid_ds ds;
	int id, err;

	id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	ASSERT_LE(0, id);
	while (fault_next(_metadata, &f)) {
		fault_arm(_metadata, &f);
		err = errno_of(msgsnd(id, &msg, sizeof(msg.text), IPC_NOWAIT));
		fault_disarm(_metadata, &f, err);
		ASSERT_EQ(0, msgctl(id, IPC_STAT, &ds));
		EXPECT_EQ((msgqnum_t)!err, ds.msg_qnum);
		if (!err)
			EXPECT_EQ((ssize_t)sizeof(msg.text),
				  msgrcv(id, &msg, sizeof(msg.text), 0, IPC_NOWAIT));
	}
	msgctl(id, IPC_RMID, NULL);
	fault_report(_metadata, &f);
}

/* Whether `dir` is a mount point in this namespace. */
static bool mounted_at(const char *dir)
{
	char *text, want[256];
	bool found;

	if (read_whole("/proc/self/mountinfo", &text) < 0)
		return false;
	snprintf(want, sizeof(want), " %s ", dir);
	found = strstr(text, want) != NULL;
	free(text);
	return found;
}

/* mount: the superblock blob (and mlte's mount check, the root's label). */
TEST_F_TIMEOUT(fault, blob_mount, TIMEOUT)
{
	struct faults f = FAULTS("blob_mount", TMPFS_OUTCOMES);
	int err;

	mkdir(WORK "/mnt", 0755);
	ASSERT_FALSE(mounted_at(WORK "/mnt"));
	while (fault_next(_metadata, &f)) {
		fault_arm(_metadata, &f);
		err = errno_of(mount("fault", WORK "/mnt", "tmpfs", 0, "size=64k"));
		fault_disarm(_metadata, &f, err);
		EXPECT_EQ(!err, mounted_at(WORK "/mnt"));
		if (!err)
			ASSERT_EQ(0, umount(WORK "/mnt"));
	}
	fault_report(_metadata, &f);
}

/* ---- securityfs reads: every file of stacker and its submodules. ---- */

static char big[1 << 20];

/* Reads `path` under fault injection, counted in `f`. */
static void read_file_faulted(struct __test_metadata *_metadata, struct faults *f,
			      const char *path, bool stable)
{
	char *want;
	long want_len = read_whole(path, &want), n;
	int fd, err;

	ASSERT_LE(0, want_len) {
		TH_LOG("%s: %s", path, strerror(errno));
	}
	fault_restart(f);
	while (fault_next(_metadata, f)) {
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, f);
		n = read(fd, big, sizeof(big));
		err = errno_of(n);
		fault_disarm(_metadata, f, err);
		/* A failed read leaves nothing half made: the next one is whole. */
		if (err)
			n = read(fd, big, sizeof(big));
		close(fd);
		ASSERT_LE(0, n) {
			TH_LOG("%s: the read after an injected fault failed: %s", path,
			       strerror(errno));
		}
		if (stable) {
			EXPECT_TRUE(n == want_len && !memcmp(big, want, n)) {
				TH_LOG("%s: read %ld bytes, '%.*s', expected '%s'", path, n,
				       (int)(n > 200 ? 200 : n), big, want);
			}
		}
	}
	free(want);
}

/* Calls `f` for each regular file under `dir`. */
static void each_file(struct __test_metadata *_metadata, const char *dir,
		      void (*f)(struct __test_metadata *, const char *, void *), void *arg)
{
	char path[512];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);

	ASSERT_NE(NULL, d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			each_file(_metadata, path, f, arg);
		else if (S_ISREG(st.st_mode))
			f(_metadata, path, arg);
	}
	closedir(d);
}

static void read_one(struct __test_metadata *_metadata, const char *path, void *arg)
{
	/* The hook statistics change with every call; the rest stands still. */
	bool stable = !strstr(path, "/stats");

	read_file_faulted(_metadata, arg, path, stable);
}

TEST_F_TIMEOUT(fault, securityfs_reads, TIMEOUT)
{
	struct faults f = FAULTS("securityfs_reads");

	memset(big, 0, sizeof(big));
	each_file(_metadata, SFS, read_one, &f);
	fault_report(_metadata, &f);
}

/* ---- denyname. ---- */

/* Setting the rule: a failed write keeps the old one. */
TEST_F_TIMEOUT(fault, denyname_rule, TIMEOUT)
{
	struct faults f = FAULTS("denyname_rule");
	char now[64];
	int fd, err;

	NEEDS("denyname");
	while (fault_next(_metadata, &f)) {
		ASSERT_EQ(6, write_value(DENYNAME, "first\n"));
		fd = open(DENYNAME, O_WRONLY);
		ASSERT_LE(0, fd);
		fault_arm(_metadata, &f);
		err = errno_of(write(fd, "second\n", 7));
		fault_disarm(_metadata, &f, err);
		close(fd);
		ASSERT_EQ(0, read_value(DENYNAME, now, sizeof(now)));
		EXPECT_STREQ(err ? "first\n" : "second\n", now);
	}
	fault_report(_metadata, &f);
	write_value(DENYNAME, "\n");
}

/* ---- The total. ---- */

TEST_F(fault, totals)
{
	int i, total = 0, enomem = 0, other = 0, completed = 0;

	ASSERT_NE(NULL, totals);
	for (i = 0; i < totals->n; i++) {
		total += totals->op[i].injected;
		enomem += totals->op[i].enomem;
		other += totals->op[i].other;
		completed += totals->op[i].completed;
	}
	ksft_print_msg("%-40s %9s %7s %6s %10s\n", "operation", "injected", "ENOMEM", "other",
		       "completed");
	for (i = 0; i < totals->n; i++)
		ksft_print_msg("%-40s %9d %7d %6d %10d\n", totals->op[i].op,
			       totals->op[i].injected, totals->op[i].enomem, totals->op[i].other,
			       totals->op[i].completed);
	ksft_print_msg("total: %d allocations failed in %d operations (%d ENOMEM, %d other outcome, %d completed anyway)\n",
		       total, totals->n, enomem, other, completed);
	EXPECT_LT(0, total);
}

TEST_HARNESS_MAIN
