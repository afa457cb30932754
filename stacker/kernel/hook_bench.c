// SPDX-License-Identifier: GPL-2.0
/*
 * stacker - per-hook microbenchmark, for benchmark kernels only
 * (CONFIG_SECURITY_STACKER_HOOK_BENCH).
 *
 * Syscall-level figures move by a few percent with memory layout alone, so
 * `make bench` also measures the hooks themselves, in the kernel: writing a
 * count N to /sys/kernel/security/stacker_hook_bench calls each measured
 * security_*() function N times, and reading the file gives, per hook,
 *
 *   HOOKBENCH <hook> <instructions per call> <median per call>
 *
 * The file is created at late_initcall time directly under securityfs, not
 * in stacker's directory, so that it exists whatever "lsm=" says: the
 * baseline (lsm=capability) is measured by the very same code.
 *
 * Method. Under QEMU with -icount shift=0 the guest clock advances one
 * nanosecond per instruction, so ktime_get_ns() deltas count instructions.
 * Each hook runs in rounds of one empty batch (HB_BATCH calls of a function
 * that does nothing) and one hook batch (HB_BATCH calls of the hook through
 * the same indirect call). The figure is
 *
 *   (min over hook batches - min over empty batches) / HB_BATCH
 *
 * so the loop, the indirect call and the clock reads cancel out. An
 * interrupt (the timer tick, RCU callbacks run on its way out) only ever
 * adds instructions to the batch it lands in; the minimum drops those
 * batches, which makes two boots of one image give the same figure. The
 * median (over the first HB_SAMPLES hook batches, less the empty minimum)
 * is reported next to it: a median far above the minimum means the hook's
 * cost is not constant.
 *
 * The hooks, with the objects they are called on:
 *   capable          security_capable(current_cred(), &init_user_ns,
 *                    CAP_CHOWN, CAP_OPT_NOAUDIT) (root holds CAP_CHOWN and
 *                    the benchmark's capstack policy does not deny it)
 *   file_open        security_file_open() on HB_FILE, opened once
 *   inode_permission security_inode_permission(inode of HB_FILE, MAY_READ)
 *   cred_prepare     prepare_creds() + abort_creds(): 7.3 has no separate
 *                    security_cred_prepare(), so this figure includes the
 *                    cred and blob allocation and free, the same code in
 *                    every variant (only the LSM hooks differ). The cred is
 *                    marked non_rcu, so it is freed at once (with the
 *                    cred_free hooks) and not from an RCU callback that the
 *                    minimum would leave out.
 *
 * Every call's result is checked: a call that fails makes the write fail
 * with its error, and nothing is reported.
 */

#define pr_fmt(fmt) "stacker_hook_bench: " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>

#define HB_BATCH	64		/* calls per batch */
#define HB_MAX_CALLS	10000000u	/* largest N a write may ask for */
#define HB_SAMPLES	4096		/* hook batches kept for the median */
#define HB_FILE		"/bench/run.sh"	/* a file of the bench initramfs */

struct hb_ctx {
	struct file *file;
};

struct hb_hook {
	const char *name;
	int (*call)(struct hb_ctx *ctx);
};

static DEFINE_MUTEX(hb_lock);
static char hb_out[512];	/* the last successful run's report */
static size_t hb_out_len;

/* The empty call: the same indirect call as a hook, doing nothing. */
static noinline int hb_empty(struct hb_ctx *ctx)
{
	barrier();
	return 0;
}

static noinline int hb_capable(struct hb_ctx *ctx)
{
	return security_capable(current_cred(), &init_user_ns, CAP_CHOWN,
				CAP_OPT_NOAUDIT);
}

static noinline int hb_file_open(struct hb_ctx *ctx)
{
	return security_file_open(ctx->file);
}

static noinline int hb_inode_permission(struct hb_ctx *ctx)
{
	return security_inode_permission(file_inode(ctx->file), MAY_READ);
}

static noinline int hb_cred_prepare(struct hb_ctx *ctx)
{
	struct cred *new = prepare_creds();

	if (!new)
		return -ENOMEM;
	new->non_rcu = 1;	/* never published: free it at once */
	abort_creds(new);
	return 0;
}

static const struct hb_hook hb_hooks[] = {
	{ "capable", hb_capable },
	{ "file_open", hb_file_open },
	{ "inode_permission", hb_inode_permission },
	{ "cred_prepare", hb_cred_prepare },
};

/* Times HB_BATCH calls of @call into *@ns; returns the first error. */
static int hb_batch(int (*call)(struct hb_ctx *), struct hb_ctx *ctx, u64 *ns)
{
	u64 start;
	int i, err = 0;

	start = ktime_get_ns();
	for (i = 0; i < HB_BATCH; i++) {
		err = call(ctx);
		if (unlikely(err))
			break;
	}
	*ns = ktime_get_ns() - start;
	return err;
}

static int hb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Appends "<sign><int>.<tenth>" of @delta / HB_BATCH to hb_out. */
static void hb_put_per_call(s64 delta)
{
	u64 tenths = div_u64((u64)abs(delta) * 10 + HB_BATCH / 2, HB_BATCH);

	hb_out_len += scnprintf(hb_out + hb_out_len, sizeof(hb_out) - hb_out_len,
				" %s%llu.%llu", delta < 0 ? "-" : "",
				div_u64(tenths, 10), tenths % 10);
}

/*
 * Measures one hook over @rounds rounds and appends its line to hb_out.
 * @samples has room for min(@rounds, HB_SAMPLES) values.
 */
static int hb_measure(const struct hb_hook *hook, struct hb_ctx *ctx,
		      unsigned int rounds, u64 *samples)
{
	u64 empty_min = U64_MAX, hook_min = U64_MAX, ns;
	unsigned int r, kept = 0;
	int err;

	for (r = 0; r < rounds; r++) {
		hb_batch(hb_empty, ctx, &ns);
		empty_min = min(empty_min, ns);
		err = hb_batch(hook->call, ctx, &ns);
		if (err) {
			pr_warn("%s failed with error %d\n", hook->name, err);
			return err;
		}
		hook_min = min(hook_min, ns);
		if (kept < HB_SAMPLES)
			samples[kept++] = ns;
		cond_resched();
	}
	sort(samples, kept, sizeof(*samples), hb_cmp_u64, NULL);
	hb_out_len += scnprintf(hb_out + hb_out_len, sizeof(hb_out) - hb_out_len,
				"HOOKBENCH %s", hook->name);
	hb_put_per_call((s64)(hook_min - empty_min));
	hb_put_per_call((s64)(samples[kept / 2] - empty_min));
	hb_out_len += scnprintf(hb_out + hb_out_len, sizeof(hb_out) - hb_out_len,
				"\n");
	return 0;
}

/* Runs every hook @calls times (rounded up to whole batches). */
static int hb_run(unsigned int calls)
{
	unsigned int rounds = DIV_ROUND_UP(calls, HB_BATCH);
	struct hb_ctx ctx;
	u64 *samples;
	int i, err = 0;

	samples = kvmalloc_array(min(rounds, HB_SAMPLES), sizeof(*samples),
				 GFP_KERNEL);
	if (!samples)
		return -ENOMEM;
	ctx.file = filp_open(HB_FILE, O_RDONLY, 0);
	if (IS_ERR(ctx.file)) {
		err = PTR_ERR(ctx.file);
		pr_warn("cannot open %s: error %d\n", HB_FILE, err);
		goto out_free;
	}
	hb_out_len = 0;
	for (i = 0; i < ARRAY_SIZE(hb_hooks) && !err; i++)
		err = hb_measure(&hb_hooks[i], &ctx, rounds, samples);
	if (err)
		hb_out_len = 0;	/* no figures from a failed run */
	filp_close(ctx.file, NULL);
out_free:
	kvfree(samples);
	return err;
}

/*
 * The count must come in one write at offset 0: "N" or "N\n". Rejected
 * writes are logged, rate-limited (a writer may loop).
 */
static ssize_t hb_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	char buf[16];
	unsigned int calls;
	int err;

	if (*ppos != 0) {
		pr_warn_ratelimited("write at offset %lld: write the count in one write at offset 0\n",
				    *ppos);
		return -EINVAL;
	}
	if (count == 0 || count >= sizeof(buf)) {
		pr_warn_ratelimited("write of %zu bytes: write a decimal count of 1..%u\n",
				    count, HB_MAX_CALLS);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	err = kstrtouint(buf, 10, &calls);
	if (err == -ERANGE || (!err && (calls == 0 || calls > HB_MAX_CALLS))) {
		pr_warn_ratelimited("the count is outside 1..%u\n", HB_MAX_CALLS);
		return -EINVAL;
	}
	if (err) {
		pr_warn_ratelimited("not a decimal count (digits and an optional newline)\n");
		return -EINVAL;
	}
	mutex_lock(&hb_lock);
	err = hb_run(calls);
	mutex_unlock(&hb_lock);
	if (err)
		return err;
	*ppos += count;
	return count;
}

static ssize_t hb_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&hb_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, hb_out, hb_out_len);
	mutex_unlock(&hb_lock);
	return ret;
}

static const struct file_operations hb_fops = {
	.read = hb_read,
	.write = hb_write,
	.llseek = default_llseek,
};

static int __init hb_init(void)
{
	struct dentry *d;

	d = securityfs_create_file("stacker_hook_bench", 0600, NULL, NULL,
				   &hb_fops);
	if (IS_ERR(d)) {
		pr_warn("cannot create the securityfs file: error %ld\n",
			PTR_ERR(d));
		return PTR_ERR(d);
	}
	return 0;
}
late_initcall(hb_init);
