// SPDX-License-Identifier: GPL-2.0
/*
 * The equivalence test of mlte against SELinux itself, on the same kernel
 * (boot "selinux-equivalence": lsm=selinux,stacker, chain mlte, both
 * permissive). For each policy of /etc/mlte/equivalence (random policies
 * in the subset, tests/mlte/equivalence.py, each compiled by checkpolicy
 * and by mlte-policy from one policy.conf), both are loaded, then both are
 * asked, for every pair of the policy's contexts and every class of
 * mlte's, which permissions the source has on the target: SELinux through
 * /sys/fs/selinux/access (class and permission values from
 * /sys/fs/selinux/class), mlte through its access file. Every permission
 * mlte has must be decided alike, its grant audited alike (auditallow),
 * its denial audited alike (dontaudit), and the source's domain be
 * permissive in both or in neither (the answer's flags); the access
 * questions are asked again with every boolean flipped and committed in
 * both. Then, for every pair of contexts as the old and new label, with a
 * task context picked from the list by the pair, and every class, whether
 * the relabel passes the validatetrans statements: SELinux through
 * /sys/fs/selinux/validatetrans and mlte through its validatetrans file,
 * both writes that succeed or get EPERM. Then, for the same pairs and
 * classes, the contexts of new objects: create (type_transition,
 * role_transition, range_transition), create with a name the policy's
 * name-based type_transitions give and with one they do not, relabel
 * (type_change) and member (type_member) must give the same context, or
 * both the same error. Last, the labels of files: proc, tmpfs, devpts and
 * ramfs are mounted afresh (the policy's fs_use_trans, genfscon rules or
 * none decide them, as each file system is set up under the policy in
 * force), files and directories are made in those that take them, and
 * every path's label must read the same from security.selinux and
 * security.mlte (lgetxattr: SELinux's and mlte's inode_getsecurity).
 *
 * With more than CLASSES_PER_PAIR classes, each pair of contexts is asked
 * about CLASSES_PER_PAIR of them, a window that moves with the pair
 * (class_asked()), so every class is asked about many pairs and the boot
 * stays within its time.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <sys/mount.h>
#include <time.h>
#include <sys/xattr.h>
#include "guest_util.h"

#define SELINUXFS "/sys/fs/selinux"
#define MLTE "/sys/kernel/security/stacker/mlte/"
#define DIR_EQ "/etc/mlte/equivalence"
#define MAX_CONTEXTS 64
#define MAX_CLASSES 32
#define CLASSES_PER_PAIR 6
#define MAX_PERMS 32
#define CONTEXT_MAX 96
#define MAX_NAMES 8
#define NAME_MAX_LEN 64
/* A name no policy's type_transition gives. */
#define UNUSED_NAME "not a used#name"

struct class {
	char name[32];
	char perms[MAX_PERMS][32];
	int count;
	int index;		/* SELinux's value of the class */
	int bit[MAX_PERMS];	/* SELinux's bit of each permission */
};

static struct class classes[MAX_CLASSES];
static int class_count;

/*
 * Whether class `c` is asked about for the pair (`s`, `t`) of `n`
 * contexts: every class when there are at most CLASSES_PER_PAIR, else the
 * CLASSES_PER_PAIR from the pair's place on (cyclically).
 */
static int class_asked(int s, int t, int n, int c)
{
	int first;

	if (class_count <= CLASSES_PER_PAIR)
		return 1;
	first = (s * n + t) % class_count;
	return (c - first + class_count) % class_count < CLASSES_PER_PAIR;
}

/* Reads DIR_EQ/classes: "CLASS PERM..." a line, mlte's bit order. */
static int read_classes(void)
{
	FILE *f = fopen(DIR_EQ "/classes", "r");
	char line[1024];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct class *c = &classes[class_count];
		char *word = strtok(line, " \n");

		if (!word)
			continue;
		/* More classes than this test holds: refuse, not ask fewer. */
		if (class_count == MAX_CLASSES) {
			fclose(f);
			errno = E2BIG;
			return -1;
		}
		snprintf(c->name, sizeof(c->name), "%s", word);
		while ((word = strtok(NULL, " \n")) && c->count < MAX_PERMS)
			snprintf(c->perms[c->count++], sizeof(c->perms[0]), "%s", word);
		class_count++;
	}
	fclose(f);
	return class_count ? 0 : -1;
}

static int read_int(const char *path)
{
	char buf[32];

	if (read_value(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/* SELinux's values of mlte's classes and permissions, after a load. */
static int selinux_values(void)
{
	char path[256];
	int i, p;

	for (i = 0; i < class_count; i++) {
		struct class *c = &classes[i];

		snprintf(path, sizeof(path), SELINUXFS "/class/%.31s/index", c->name);
		c->index = read_int(path);
		if (c->index <= 0)
			return -1;
		for (p = 0; p < c->count; p++) {
			snprintf(path, sizeof(path), SELINUXFS "/class/%.31s/perms/%.31s", c->name,
				 c->perms[p]);
			c->bit[p] = read_int(path) - 1;
			if (c->bit[p] < 0)
				return -1;
		}
	}
	return 0;
}

/* An access file's answer: "ALLOWED DECIDED AUDITALLOW AUDITDENY SEQNO FLAGS". */
struct answer {
	unsigned int allowed, auditallow, auditdeny, flags;
};

/* SELinux's AVD_FLAGS_PERMISSIVE. */
#define AVD_FLAGS_PERMISSIVE 0x0001

/* Writes `q` to transaction file `path` and reads the answer. */
static int ask(const char *path, const char *q, struct answer *a)
{
	unsigned int decided, seqno;
	char answer[256];
	int fd = open(path, O_RDWR);
	long n = -1;

	if (fd < 0)
		return -1;
	if (write(fd, q, strlen(q)) == (ssize_t)strlen(q))
		n = read(fd, answer, sizeof(answer) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	answer[n] = '\0';
	return sscanf(answer, "%x %x %x %x %u %x", &a->allowed, &decided, &a->auditallow,
		      &a->auditdeny, &seqno, &a->flags) == 6 ? 0 : -1;
}

/* A write of `q` to validatetrans file `path`: 0 (valid), or the errno. */
static int validatetrans(const char *path, const char *q)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, q, strlen(q)) != (ssize_t)strlen(q))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/*
 * Flips every boolean of policy `seed` (DIR_EQ/SEED.booleans) in both:
 * SELinux's booleans/NAME ("CUR PENDING") and mlte's booleans file
 * ("NAME CUR PENDING" lines) must agree before and after, the pending
 * values set and committed. How many were flipped.
 */
static int flip_booleans(struct __test_metadata *_metadata, int seed)
{
	char path[256], name[64], value[32], listing[4096], want[128];
	int flipped = 0, cur, pending;
	FILE *f;

	snprintf(path, sizeof(path), DIR_EQ "/%d.booleans", seed);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s", name) == 1) {
		snprintf(path, sizeof(path), SELINUXFS "/booleans/%s", name);
		EXPECT_EQ(0, read_value(path, value, sizeof(value))) TH_LOG("%s", path);
		EXPECT_EQ(2, sscanf(value, "%d %d", &cur, &pending)) TH_LOG("%s: '%s'", path, value);
		EXPECT_EQ(0, read_value(MLTE "booleans", listing, sizeof(listing)));
		snprintf(want, sizeof(want), "%s %d %d\n", name, cur, pending);
		EXPECT_NE(NULL, strstr(listing, want))
			TH_LOG("mlte's booleans lack '%s': '%s'", name, listing);
		EXPECT_EQ(0, write_value(path, cur ? "0" : "1") < 0) TH_LOG("%s", path);
		snprintf(want, sizeof(want), "%s %d", name, !cur);
		EXPECT_EQ(0, write_value(MLTE "booleans", want) < 0) TH_LOG("mlte: %s", want);
		flipped++;
	}
	fclose(f);
	EXPECT_EQ(0, write_value(SELINUXFS "/commit_pending_bools", "1") < 0);
	EXPECT_EQ(0, write_value(MLTE "commit_pending_bools", "1") < 0);
	return flipped;
}

static int load(const char *file, const char *into)
{
	char *data;
	long len = read_whole(file, &data);
	long n;

	if (len <= 0)
		return -1;
	n = write_bytes(into, data, len);
	free(data);
	return n == len ? 0 : -1;
}

static void encode_name(const char *name, char *out)
{
	for (; *name; name++) {
		if (*name == ' ')
			*out++ = '+';
		else if (isalnum((unsigned char)*name))
			*out++ = *name;
		else
			out += sprintf(out, "%%%02x", (unsigned char)*name);
	}
	*out = '\0';
}

static int read_contexts(const char *file, char ctx[][CONTEXT_MAX])
{
	FILE *f = fopen(file, "r");
	int n = 0;

	if (!f)
		return -1;
	while (n < MAX_CONTEXTS && fgets(ctx[n], CONTEXT_MAX, f)) {
		ctx[n][strcspn(ctx[n], "\n")] = '\0';
		if (ctx[n][0])
			n++;
	}
	fclose(f);
	return n;
}

/* Reads `file`'s lines (names of new objects), percent-encoded as
 * libselinux encodes them for selinuxfs's create: a space as '+', every
 * byte but letters and digits as %XX. */
static int read_names(const char *file, char names[][3 * NAME_MAX_LEN])
{
	char line[NAME_MAX_LEN];
	FILE *f = fopen(file, "r");
	int n = 0;

	if (!f)
		return -1;
	while (n < MAX_NAMES - 1 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			encode_name(line, names[n++]);
	}
	fclose(f);
	encode_name(UNUSED_NAME, names[n]);
	return n;
}

/*
 * Writes `q` to transaction file `path` and reads the answer, a context
 * and its NUL, into `answer`: its length, or -errno.
 */
static long ask_context(const char *path, const char *q, char *answer, size_t size)
{
	int fd = open(path, O_RDWR);
	long n = -1;

	if (fd < 0)
		return -errno;
	if (write(fd, q, strlen(q)) == (ssize_t)strlen(q))
		n = read(fd, answer, size - 1);
	n = n < 0 ? -errno : n;
	close(fd);
	if (n >= 0)
		answer[n] = '\0';
	return n;
}

FIXTURE(equivalence) {};

FIXTURE_SETUP(equivalence)
{
	if (!class_count)
		ASSERT_EQ(0, read_classes()) TH_LOG(DIR_EQ "/classes: %s", strerror(errno));
	if (mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL) && errno != EBUSY)
		ASSERT_EQ(0, errno) TH_LOG("mounting selinuxfs");
	/* Both permissive, so that this task keeps running whatever the
	 * random policies say about it. */
	ASSERT_ERRNO(0, write_value(MLTE "enforce", "0"));
}

FIXTURE_TEARDOWN(equivalence) {}

/*
 * Asks `file` (create, relabel or member) of both SELinux and mlte the
 * question `scon tcon CLASS[ name]` (SELinux's class value, mlte's class
 * name); 0 when they answer alike (into `answer`), else logs and 1.
 */
static int new_context_differs(struct __test_metadata *_metadata, int seed, const char *file,
			       const char *scon, const char *tcon, const struct class *c,
			       const char *name, char *answer)
{
	char q[2 * CONTEXT_MAX + 3 * NAME_MAX_LEN + 64], path[128], ml[256];
	long a, b;

	snprintf(q, sizeof(q), "%s %s %d%s%s", scon, tcon, c->index, name ? " " : "",
		 name ? name : "");
	snprintf(path, sizeof(path), SELINUXFS "/%s", file);
	a = ask_context(path, q, answer, 256);
	snprintf(q, sizeof(q), "%s %s %s%s%s", scon, tcon, c->name, name ? " " : "",
		 name ? name : "");
	snprintf(path, sizeof(path), MLTE "%s", file);
	b = ask_context(path, q, ml, sizeof(ml));
	if (a == b && (a < 0 || !strcmp(answer, ml)))
		return 0;
	TH_LOG("policy %d: %s %s: SELinux %s, mlte %s", seed, file, q,
	       a < 0 ? strerror((int)-a) : answer, b < 0 ? strerror((int)-b) : ml);
	return 1;
}

/*
 * Compares the contexts of new objects of policy `seed`, loaded in both:
 * for every (scon, tcon, class), create; and in turn, one of create with
 * a name the policy uses, create with a name it does not, relabel and
 * member (all four for every triple would make the boot too long).
 */
static void compare_new_contexts(struct __test_metadata *_metadata, int seed,
				 char ctx[][CONTEXT_MAX], int n)
{
	static const char *const kinds[] = { "create", "create", "relabel", "member" };
	static char names[MAX_NAMES][3 * NAME_MAX_LEN];
	char path[256], plain[256], other[256];
	long queries[4] = { 0 }, creates = 0, by_name = 0, differences = 0;
	int used, s, t, c;

	snprintf(path, sizeof(path), DIR_EQ "/%d.names", seed);
	used = read_names(path, names);
	ASSERT_LT(0, used) TH_LOG("%s: %s", path, strerror(errno));
	for (s = 0; s < n; s++)
		for (t = 0; t < n; t++)
			for (c = 0; c < class_count; c++) {
				const struct class *k = &classes[c];
				int turn = (s * n + t + c) % 4;
				/* 0: a name the policy uses, in turn; 1: one it
				 * does not (names[used]). */
				const char *name = turn == 0 ? names[(s * n + t) / 4 % used] :
					turn == 1 ? names[used] : NULL;
				int d;

				if (!class_asked(s, t, n, c))
					continue;
				d = new_context_differs(_metadata, seed, "create", ctx[s], ctx[t], k,
							NULL, plain);
				d += new_context_differs(_metadata, seed, kinds[turn], ctx[s], ctx[t],
							 k, name, other);
				creates++;
				queries[turn]++;
				differences += d;
				by_name += turn == 0 && !d && strcmp(plain, other);
				ASSERT_GT(10, differences) TH_LOG("policy %d: too many differences", seed);
			}
	TH_LOG("figure: policy %d: new-context queries to each: %ld create, %ld create with a "
	       "name the policy uses (%ld answers given by a name-based rule), %ld with one it "
	       "does not, %ld relabel, %ld member; %ld differences",
	       seed, creates, queries[0], by_name, queries[1], queries[2], queries[3],
	       differences);
	EXPECT_LT(0, queries[3]);
	EXPECT_EQ(0, differences);
}

#define FS_DIR "/tmp/equivalence-fs"

/* What both say `path`'s label is: 0 when alike, else logs and 1. */
static int label_differs(struct __test_metadata *_metadata, int seed, const char *path,
			 long *same)
{
	char se[256] = "", ml[256] = "";
	ssize_t a = lgetxattr(path, "security.selinux", se, sizeof(se) - 1);
	int ea = a < 0 ? errno : 0;
	ssize_t b = lgetxattr(path, "security.mlte", ml, sizeof(ml) - 1);
	int eb = b < 0 ? errno : 0;

	/* SELinux's value ends with its NUL, mlte's does not. */
	if (a > 0 && se[a - 1] == '\0')
		a--;
	if (a == b && ea == eb && (a < 0 || !memcmp(se, ml, a))) {
		*same += a > 0;
		return 0;
	}
	TH_LOG("policy %d: %s: SELinux's label '%.*s' (%s), mlte's '%.*s' (%s)", seed, path,
	       (int)(a > 0 ? a : 0), se, strerror(ea), (int)(b > 0 ? b : 0), ml, strerror(eb));
	return 1;
}

/*
 * Mounts proc, tmpfs, devpts and ramfs afresh under the policy just loaded
 * into both, makes a file and a directory in tmpfs and ramfs, and compares
 * the labels of the paths below.
 */
static void compare_labels(struct __test_metadata *_metadata, int seed)
{
	static const char *const mounts[][3] = {
		{ "proc", "proc", NULL },
		{ "tmpfs", "tmpfs", NULL },
		{ "devpts", "devpts", "newinstance" },
		{ "ramfs", "ramfs", NULL },
	};
	static const char *const paths[] = {
		"proc", "proc/sys", "proc/sys/kernel", "proc/sys/kernel/hostname",
		"proc/sys/kernel/random", "proc/sys/kernel/random/uuid", "proc/sysvipc",
		"proc/sysvipc/msg", "proc/sysrq-trigger", "proc/net", "proc/kmsg", "proc/kallsyms",
		"proc/meminfo", "proc/self", "proc/thread-self", "proc/1", "proc/1/status",
		"proc/1/net", "proc/1/net/dev", "proc/1/net/unix", "proc/self/net",
		"tmpfs", "tmpfs/f", "tmpfs/d", "devpts", "ramfs", "ramfs/f",
		"ramfs/d",
	};
	/*
	 * Not devpts/ptmx: SELinux labels a character device with its class,
	 * chr_file, which mlte does not have yet (its file class stands for
	 * every non-directory), so a type_transition on file differs.
	 */
	char path[128];
	long same = 0, differences = 0;
	size_t i;

	mkdir(FS_DIR, 0755);
	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		snprintf(path, sizeof(path), FS_DIR "/%s", mounts[i][0]);
		mkdir(path, 0755);
		ASSERT_EQ(0, mount(mounts[i][1], path, mounts[i][1], 0, mounts[i][2]))
			TH_LOG("policy %d: mounting %s: %s", seed, mounts[i][1], strerror(errno));
	}
	for (i = 0; i < 2; i++) {
		const char *fs = i ? "ramfs" : "tmpfs";

		snprintf(path, sizeof(path), FS_DIR "/%s/f", fs);
		EXPECT_EQ(0, make_file(path)) TH_LOG("%s: %s", path, strerror(errno));
		snprintf(path, sizeof(path), FS_DIR "/%s/d", fs);
		EXPECT_EQ(0, mkdir(path, 0755)) TH_LOG("%s: %s", path, strerror(errno));
	}
	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		snprintf(path, sizeof(path), FS_DIR "/%s", paths[i]);
		differences += label_differs(_metadata, seed, path, &same);
	}
	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		snprintf(path, sizeof(path), FS_DIR "/%s", mounts[i][0]);
		EXPECT_EQ(0, umount(path)) TH_LOG("%s: %s", path, strerror(errno));
	}
	TH_LOG("figure: policy %d: %zu paths on fresh proc, tmpfs, devpts and ramfs mounts, "
	       "%ld labelled alike, %ld differences", seed, ARRAY_SIZE(paths), same, differences);
	EXPECT_LT((long)ARRAY_SIZE(paths) / 2, same);
	EXPECT_EQ(0, differences);
}

/* Loads policy `seed` into both and compares every decision. */
static void compare(struct __test_metadata *_metadata, int seed)
{
	static char ctx[MAX_CONTEXTS][CONTEXT_MAX];
	long queries = 0, compared = 0, allowed_both = 0, quiet_both = 0, differences = 0;
	long auditallow_both = 0, permissive_both = 0, transitions = 0, refused_both = 0;
	char path[256], q[3 * CONTEXT_MAX + 64];
	int n, s, t, c, p, round, flipped = 0;

	snprintf(path, sizeof(path), DIR_EQ "/%d.contexts", seed);
	n = read_contexts(path, ctx);
	ASSERT_LT(0, n) TH_LOG("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), DIR_EQ "/%d.selinux", seed);
	ASSERT_EQ(0, load(path, SELINUXFS "/load")) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0, read_int(SELINUXFS "/enforce")) TH_LOG("SELinux must stay permissive");
	ASSERT_EQ(0, selinux_values()) TH_LOG("policy %d: SELinux lacks a class of mlte's", seed);
	snprintf(path, sizeof(path), DIR_EQ "/%d.mlte", seed);
	ASSERT_EQ(0, load(path, MLTE "policy")) TH_LOG("%s: %s", path, strerror(errno));
	for (round = 0; round < 2; round++) {
		/* Round 1: every boolean flipped in both, and committed. */
		if (round == 1) {
			flipped = flip_booleans(_metadata, seed);
			ASSERT_LT(0, flipped) TH_LOG("policy %d: no boolean flipped", seed);
		}
	for (s = 0; s < n; s++)
		for (t = 0; t < n; t++)
			for (c = 0; c < class_count; c++) {
				struct answer se, ml;
				int se_permissive, ml_permissive;

				if (!class_asked(s, t, n, c))
					continue;
				/* The same contexts, whole, to both. */
				snprintf(q, sizeof(q), "%.95s %.95s %d", ctx[s], ctx[t], classes[c].index);
				ASSERT_EQ(0, ask(SELINUXFS "/access", q, &se)) TH_LOG("SELinux: %s", q);
				snprintf(q, sizeof(q), "%.95s %.95s %.31s", ctx[s], ctx[t], classes[c].name);
				ASSERT_EQ(0, ask(MLTE "access", q, &ml)) TH_LOG("mlte: %s", q);
				queries++;
				se_permissive = !!(se.flags & AVD_FLAGS_PERMISSIVE);
				ml_permissive = !!(ml.flags & AVD_FLAGS_PERMISSIVE);
				permissive_both += se_permissive && ml_permissive;
				if (se_permissive != ml_permissive && differences++ < 10)
					TH_LOG("policy %d: %s %s %s: SELinux's flags %x, mlte's %x", seed,
					       ctx[s], ctx[t], classes[c].name, se.flags, ml.flags);
				for (p = 0; p < classes[c].count; p++) {
					unsigned int se_bit = 1u << classes[c].bit[p], ml_bit = 1u << p;
					int a = !!(se.allowed & se_bit);
					int b = !!(ml.allowed & ml_bit);
					int x = !!(se.auditdeny & se_bit);
					int y = !!(ml.auditdeny & ml_bit);
					int u = !!(se.auditallow & se_bit);
					int v = !!(ml.auditallow & ml_bit);

					compared++;
					allowed_both += a && b;
					quiet_both += !x && !y;
					auditallow_both += u && v;
					if (u != v && differences++ < 10)
						TH_LOG("policy %d: %s %s %s %s: SELinux %s, mlte %s a grant",
						       seed, ctx[s], ctx[t], classes[c].name,
						       classes[c].perms[p], u ? "audits" : "does not audit",
						       v ? "audits" : "does not audit");
					if (a != b && differences++ < 10)
						TH_LOG("policy %d: %s %s %s %s: SELinux %s, mlte %s", seed,
						       ctx[s], ctx[t], classes[c].name, classes[c].perms[p],
						       a ? "allows" : "denies", b ? "allows" : "denies");
					if (x != y && differences++ < 10)
						TH_LOG("policy %d: %s %s %s %s: SELinux %s, mlte %s a denial",
						       seed, ctx[s], ctx[t], classes[c].name,
						       classes[c].perms[p], x ? "audits" : "does not audit",
						       y ? "audits" : "does not audit");
				}
			}
	}
	for (s = 0; s < n; s++)
		for (t = 0; t < n; t++)
			for (c = 0; c < class_count; c++) {
				const char *task = ctx[(s * 7 + t * 3) % n];
				int se, ml;

				if (!class_asked(s, t, n, c))
					continue;
				snprintf(q, sizeof(q), "%.95s %.95s %d %.95s", ctx[s], ctx[t],
					 classes[c].index, task);
				se = validatetrans(SELINUXFS "/validatetrans", q);
				snprintf(q, sizeof(q), "%.95s %.95s %.31s %.95s", ctx[s], ctx[t],
					 classes[c].name, task);
				ml = validatetrans(MLTE "validatetrans", q);
				ASSERT_TRUE(se == 0 || se == EPERM) TH_LOG("SELinux: %s: %s", q, strerror(se));
				ASSERT_TRUE(ml == 0 || ml == EPERM) TH_LOG("mlte: %s: %s", q, strerror(ml));
				transitions++;
				refused_both += se && ml;
				if (se != ml && differences++ < 10)
					TH_LOG("policy %d: validatetrans %s: SELinux %s, mlte %s", seed, q,
					       se ? "refuses" : "allows", ml ? "refuses" : "allows");
			}
	TH_LOG("figure: policy %d: %ld validatetrans questions to each, %ld refused by both",
	       seed, transitions, refused_both);
	TH_LOG("figure: policy %d: access asked with the booleans as declared, then with all %d "
	       "flipped and committed in both", seed, flipped);
	TH_LOG("figure: policy %d: %d contexts, %ld (scon, tcon, class) queries to each, "
	       "%ld permissions compared (allowed, auditallow, auditdeny), %ld allowed by both, "
	       "%ld auditallow in both, %ld dontaudit in both, %ld queries of a permissive "
	       "domain in both, %ld differences",
	       seed, n, queries, compared, allowed_both, auditallow_both, quiet_both,
	       permissive_both, differences);
	EXPECT_LT(0, allowed_both);
	EXPECT_LT(0, quiet_both);
	EXPECT_LT(0, auditallow_both);
	EXPECT_LT(0, permissive_both);
	EXPECT_LT(0, refused_both);
	EXPECT_LT(refused_both, transitions);
	EXPECT_LT(allowed_both, compared);
	EXPECT_EQ(0, differences);
	compare_new_contexts(_metadata, seed, ctx, n);
	compare_labels(_metadata, seed);
}

/* The seeds scripts/mkinitramfs.sh compiles, one test each. */
#define POLICY(n) TEST_F_TIMEOUT(equivalence, policy_##n, 600) { compare(_metadata, n); }
POLICY(1)
POLICY(2)
POLICY(3)
POLICY(4)
POLICY(5)
POLICY(6)

/* /proc/meminfo's MemAvailable, in KiB; -1 if it cannot be read. */
static long mem_available_kib(void)
{
	char *info, *at;
	long kib = -1;

	if (read_whole("/proc/meminfo", &info) <= 0)
		return -1;
	at = strstr(info, "MemAvailable:");
	if (at)
		kib = strtol(at + strlen("MemAvailable:"), NULL, 10);
	free(info);
	return kib;
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/*
 * Loads compiled policy `file` into `into` and logs its size, the load's
 * wall-clock time (TCG: not comparable to hardware, only between the two)
 * and how much less memory is available after it (the previous policy is
 * freed by the load; rough, whatever else the kernel did meanwhile).
 */
static void load_and_measure(struct __test_metadata *_metadata, const char *who, const char *file,
			     const char *into)
{
	long size, before, after, start, took;
	char *data;

	size = read_whole(file, &data);
	ASSERT_LT(0, size) TH_LOG("%s: %s", file, strerror(errno));
	before = mem_available_kib();
	start = now_us();
	ASSERT_EQ(size, write_bytes(into, data, size)) TH_LOG("%s: loading %s: %s", who, file,
							      strerror(errno));
	took = now_us() - start;
	after = mem_available_kib();
	free(data);
	TH_LOG("figure: scale policy, %s: %ld bytes compiled, loaded in %ld us, %ld KiB less "
	       "memory available after the load", who, size, took, before - after);
}

/*
 * The scale policy (scripts/mkinitramfs.sh: the SELinux policy's source
 * with 5,000 more types and 100,000 allow rules), compiled by checkpolicy
 * and by mlte-policy, loaded into each with its size, load time and memory
 * logged; then both asked about every class for the type pairs of its
 * first 100 generated rules (each of which grants something): every
 * permission the same.
 */
TEST_F_TIMEOUT(equivalence, scale_policy_in_both, 900)
{
	char pairs[100][2][NAME_MAX_LEN], q[3 * CONTEXT_MAX + 64];
	long queries = 0, compared = 0, allowed_both = 0, differences = 0;
	FILE *f = fopen(DIR_EQ "/scale.pairs", "r");
	int n = 0, i, c, p;

	ASSERT_NE(NULL, f) TH_LOG(DIR_EQ "/scale.pairs: %s", strerror(errno));
	while (n < 100 && fscanf(f, "%63s %63s", pairs[n][0], pairs[n][1]) == 2)
		n++;
	fclose(f);
	ASSERT_EQ(100, n);
	load_and_measure(_metadata, "SELinux", DIR_EQ "/scale.selinux", SELINUXFS "/load");
	ASSERT_EQ(0, selinux_values()) TH_LOG("SELinux lacks a class of mlte's");
	load_and_measure(_metadata, "mlte", DIR_EQ "/scale.mlte", MLTE "policy");
	for (i = 0; i < n; i++)
		for (c = 0; c < class_count; c++) {
			struct answer se, ml;

			snprintf(q, sizeof(q), "system_u:object_r:%.63s:s0 system_u:object_r:%.63s:s0 %d",
				 pairs[i][0], pairs[i][1], classes[c].index);
			ASSERT_EQ(0, ask(SELINUXFS "/access", q, &se)) TH_LOG("SELinux: %s", q);
			snprintf(q, sizeof(q), "system_u:object_r:%.63s:s0 system_u:object_r:%.63s:s0 %.31s",
				 pairs[i][0], pairs[i][1], classes[c].name);
			ASSERT_EQ(0, ask(MLTE "access", q, &ml)) TH_LOG("mlte: %s", q);
			queries++;
			for (p = 0; p < classes[c].count; p++) {
				int a = !!(se.allowed & (1u << classes[c].bit[p]));
				int b = !!(ml.allowed & (1u << p));

				compared++;
				allowed_both += a && b;
				if (a != b && differences++ < 10)
					TH_LOG("scale: %s %s %s %s: SELinux %s, mlte %s", pairs[i][0],
					       pairs[i][1], classes[c].name, classes[c].perms[p],
					       a ? "allows" : "denies", b ? "allows" : "denies");
			}
		}
	TH_LOG("figure: scale policy: %ld (scon, tcon, class) queries to each over %d generated "
	       "pairs, %ld permissions compared, %ld allowed by both, %ld differences",
	       queries, n, compared, allowed_both, differences);
	/* Each pair has at least its own rule's permissions. */
	EXPECT_LE(n, allowed_both);
	EXPECT_EQ(0, differences);
}

TEST_HARNESS_MAIN
