// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for scripts/profile.sh: counts the guest kernel's
 * instructions per translation block between two marker system calls.
 *
 * Counting starts the first time a block at start=ADDR runs (the entry of
 * __x64_sys_sync) and stops when a block at stop=ADDR runs (the entry of
 * __x64_sys_fdatasync); the profile workload (tests/bench/profile.c)
 * makes those calls around its timed rounds. At exit, out=FILE gets one
 * line per block that ran while counting: "ADDR EXECUTIONS INSNS" (hex
 * address, decimal counts), after a "# start N" line (how many times the
 * start marker ran: 0 means nothing was counted). Only kernel addresses
 * are instrumented. One vCPU (-smp 1): the counters are not atomic.
 *
 * Debian's QEMU ships no plugin header: the few functions of QEMU's
 * plugin API used here are declared below, as its API (version 2 and
 * later) defines them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb)(unsigned int vcpu, void *udata);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *udata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, vcpu_udata_cb cb,
					  enum qemu_plugin_cb_flags flags, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *udata);

EXPORT int qemu_plugin_version = 2;

#define KERNEL_BASE 0xffff800000000000ull
#define BUCKETS (1u << 20)

struct block {
	uint64_t addr, insns, runs;
	struct block *next;
};

static struct block *table[BUCKETS];
static uint64_t start_addr, stop_addr, starts;
static bool counting, started;
static const char *out_path;

/* The block at @addr of @insns instructions (one per pair, made once). */
static struct block *block_of(uint64_t addr, uint64_t insns)
{
	size_t h = (addr * 0x9e3779b97f4a7c15ull) >> 44;
	struct block *b;

	for (b = table[h]; b; b = b->next)
		if (b->addr == addr && b->insns == insns)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b) {
		fprintf(stderr, "profile_plugin: out of memory\n");
		exit(1);
	}
	b->addr = addr;
	b->insns = insns;
	b->next = table[h];
	table[h] = b;
	return b;
}

static void on_run(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	(void)vcpu;
	if (b->addr == start_addr) {
		starts++;
		if (!started)
			counting = started = true;
		return;
	}
	if (b->addr == stop_addr) {
		counting = false;
		return;
	}
	if (counting)
		b->runs++;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t addr = qemu_plugin_tb_vaddr(tb);

	(void)id;
	if (addr < KERNEL_BASE)
		return;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_run, QEMU_PLUGIN_CB_NO_REGS,
					     block_of(addr, qemu_plugin_tb_n_insns(tb)));
}

static void write_profile(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;
	size_t i;

	(void)id;
	(void)udata;
	if (!f) {
		perror(out_path);
		return;
	}
	fprintf(f, "# start %llu\n", (unsigned long long)starts);
	for (i = 0; i < BUCKETS; i++)
		for (b = table[i]; b; b = b->next)
			if (b->runs)
				fprintf(f, "%llx %llu %llu\n", (unsigned long long)b->addr,
					(unsigned long long)b->runs,
					(unsigned long long)b->insns);
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
			       char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "start=", 6))
			start_addr = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "stop=", 5))
			stop_addr = strtoull(argv[i] + 5, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	}
	if (!start_addr || !stop_addr || !out_path) {
		fprintf(stderr, "profile_plugin: give start=ADDR,stop=ADDR,out=FILE\n");
		return 1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_profile, NULL);
	return 0;
}
