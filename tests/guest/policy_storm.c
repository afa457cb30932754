// SPDX-License-Identifier: GPL-2.0
/*
 * Boot test: capstack's policy read and reloaded in a storm on 4 vCPUs.
 *
 * Run with "stacker.chain=capstack" on a 4-vCPU guest of the debug test
 * kernel (DEBUG_ATOMIC_SLEEP, PROVE_RCU, PROVE_LOCKING). For STORM_SECONDS,
 * pinned one or more per CPU:
 * - writers load two policies in turn, a large one (64 rules) and a small
 *   one, each in one write;
 * - readers read the policy file and check that every read is one whole
 *   canonical policy, the old or the new, never a mix;
 * - hook workers call the hooks capstack implements (capable through
 *   setuid(0) and raw sockets, exec, capset) and check that the decision
 *   is the one both policies agree on (root is restricted by neither).
 * The boot-test harness fails the boot on any kernel splat ("sleeping
 * function called from invalid context", "suspicious RCU usage", ...).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"

#define POLICY "/sys/kernel/security/stacker/capstack/policy"
#define STORM_SECONDS 20
#define WRITERS 2
#define READERS 3
#define HOOKERS 3

struct counts {
	long writes, write_errors;
	long reads, torn_reads;
	long decisions, wrong_decisions;
};

static struct counts *shared;	/* one per worker, in shared memory */
static char policy_big[65536], policy_small[256];

static void make_policies(void)
{
	size_t n = 0;
	int i;

	n += snprintf(policy_big + n, sizeof(policy_big) - n, "mode enforcing\n");
	for (i = 0; i < 64; i++)
		n += snprintf(policy_big + n, sizeof(policy_big) - n,
			      "only CAP_NET_BIND_SERVICE,CAP_SYS_TIME exec storm%d\n", i);
	snprintf(policy_small, sizeof(policy_small),
		 "mode permissive\ndeny CAP_NET_RAW uid 4243\n");
}

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

static void writer(struct counts *c, double end)
{
	int i = 0;

	while (now() < end) {
		const char *p = (i++ & 1) ? policy_small : policy_big;

		if (write_value(POLICY, p) == (long)strlen(p))
			c->writes++;
		else
			c->write_errors++;
	}
}

static void reader(struct counts *c, double end)
{
	static char buf[sizeof(policy_big) + 1];

	while (now() < end) {
		int fd = open(POLICY, O_RDONLY);
		ssize_t n, len = 0;

		if (fd < 0) {
			c->torn_reads++;
			continue;
		}
		/* One read returns the whole value; keep reading to EOF. */
		while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
			len += n;
		close(fd);
		buf[len] = '\0';
		c->reads++;
		if (strcmp(buf, policy_big) && strcmp(buf, policy_small)) {
			if (c->torn_reads++ == 0)
				printf("# torn read (%zd bytes): %.80s\n", len, buf);
		}
	}
}

/* Decisions both policies agree on: root keeps CAP_SETUID and CAP_NET_RAW. */
static void hooker(struct counts *c, double end)
{
	while (now() < end) {
		int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
		pid_t pid;
		int status;

		c->decisions += 2;
		if (fd < 0)
			c->wrong_decisions++;
		else
			close(fd);
		if (setuid(0))
			c->wrong_decisions++;
		pid = fork();
		if (pid == 0) {
			execl("/bin/busybox", "true", (char *)NULL);
			_exit(127);
		}
		c->decisions++;
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			c->wrong_decisions++;
	}
}

/* The storm runs for STORM_SECONDS: past the harness's default timeout. */
FIXTURE(storm) {};

FIXTURE_SETUP(storm)
{
}

FIXTURE_TEARDOWN(storm)
{
}

TEST_F_TIMEOUT(storm, policy_storm, 6 * STORM_SECONDS)
{
	int workers = WRITERS + READERS + HOOKERS, i, status;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct counts total = { 0 };
	double end;

	make_policies();
	EXPECT_LE(4, cpus)
		TH_LOG("four_cpus_online: %ld CPUs online", cpus);
	EXPECT_ERRNO(0, write_value(POLICY, policy_big))
		TH_LOG("initial_policy_loaded");

	shared = mmap(NULL, workers * sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	memset(shared, 0, workers * sizeof(*shared));
	end = now() + STORM_SECONDS;
	for (i = 0; i < workers; i++) {
		if (fork() == 0) {
			pin(i);
			if (i < WRITERS)
				writer(&shared[i], end);
			else if (i < WRITERS + READERS)
				reader(&shared[i], end);
			else
				hooker(&shared[i], end);
			_exit(0);
		}
	}
	for (i = 0; i < workers; i++)
		wait(&status);
	for (i = 0; i < workers; i++) {
		total.writes += shared[i].writes;
		total.write_errors += shared[i].write_errors;
		total.reads += shared[i].reads;
		total.torn_reads += shared[i].torn_reads;
		total.decisions += shared[i].decisions;
		total.wrong_decisions += shared[i].wrong_decisions;
	}
	printf("# %d s: %ld policy loads, %ld reads, %ld hook decisions\n", STORM_SECONDS,
	       total.writes, total.reads, total.decisions);
	EXPECT_TRUE(total.writes > 100 && total.write_errors == 0)
		TH_LOG("every_reload_accepted: %ld loads, %ld refused", total.writes,
		       total.write_errors);
	EXPECT_TRUE(total.reads > 100 && total.torn_reads == 0)
		TH_LOG("every_read_one_whole_policy: %ld reads, %ld not one whole policy",
		       total.reads, total.torn_reads);
	EXPECT_TRUE(total.decisions > 100 && total.wrong_decisions == 0)
		TH_LOG("every_decision_as_both_policies_say: %ld decisions, %ld wrong",
		       total.decisions, total.wrong_decisions);
	write_value(POLICY, "");
}

TEST_HARNESS_MAIN
