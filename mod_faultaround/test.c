// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "faultaround": the grammar, one case per rule, the
 * override table, and the adaptive policy's step against a model of what
 * fault-around maps.  A module of its own, mod_faultaround_test, which the
 * boot lab loads on purpose; it calls mod_faultaround's functions
 * through the EXPORTED_FOR_KUNIT_TESTING namespace.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/pgtable.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "faultaround.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct parse_case {
	const char *in;
	const char *why;	/* NULL: accepted; else a part of the reason */
	enum fa_cmd_type type;
	pid_t pid;
	unsigned long addr;
	unsigned int order;
};

/* Each rejected row breaks exactly one rule of module.rst's grammar. */
static const struct parse_case parse_cases[] = {
	{ "clear",			NULL, FA_CMD_CLEAR },
	{ "clear\n",			NULL, FA_CMD_CLEAR },
	{ "1 0x1000 4",			NULL, FA_CMD_SET, 1, 0x1000, 4 },
	{ "42 4096 0\n",		NULL, FA_CMD_SET, 42, 4096, 0 },
	{ "7 \t 0xAbC000\t3",		NULL, FA_CMD_SET, 7, 0xabc000, 3 },
	{ "3 0 default",		NULL, FA_CMD_DEFAULT, 3, 0 },
	/* One optional newline, at the end; no other control character. */
	{ "",				"empty" },
	{ "\n",				"empty" },
	{ "clear\n\n",			"control" },
	{ "5\n 0x1000 4",		"control" },
	{ "5 0x1000\r 4",		"control" },
	/* Blanks only between fields. */
	{ " clear",			"blank" },
	{ "1 0x1000 4 ",		"blank" },
	{ "1 0x1000 4\t\n",		"blank" },
	/* "clear" alone, or exactly three fields. */
	{ "clear all",			"three fields" },
	{ "1 0x1000",			"three fields" },
	{ "1 0x1000 4 5",		"more than three" },
	/* Decimal: digits only, no sign, no leading zero. */
	{ "+1 0x1000 4",		"digit" },
	{ "-1 0x1000 4",		"digit" },
	{ "x 0x1000 4",			"digit" },
	{ "01 0x1000 4",		"starts with 0" },
	{ "1 +4096 4",			"digit" },
	{ "1 0400000 4",		"starts with 0" },
	{ "1 0x1000 04",		"starts with 0" },
	{ "1 0x1000 4x",		"digit" },
	{ "1 0x1000 Default",		"digit" },
	/* A pid in (0, PID_MAX_LIMIT]. */
	{ "0 0x1000 4",			"pid" },
	{ "99999999 0x1000 4",		"pid" },
	/* Hexadecimal: "0x" (lower case) and at least one digit. */
	{ "1 0x 4",			"no digits after 0x" },
	{ "1 0X1000 4",			"digit" },
	{ "1 0xg 4",			"hexadecimal digit" },
	{ "1 0x+1000 4",		"hexadecimal digit" },
};

static unsigned int max_order(void)
{
	return ilog2(PTRS_PER_PTE);
}

static void expect_parse(struct kunit *test, const struct parse_case *c,
			 size_t len)
{
	const char *why = NULL;
	struct fa_cmd cmd = {};
	int err = fa_parse_cmd(c->in, len, max_order(), &cmd, &why);

	if (c->why) {
		KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "input '%s'", c->in);
		KUNIT_EXPECT_NOT_NULL_MSG(test, why, "input '%s'", c->in);
		if (why)
			KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, c->why),
						  "input '%s': '%s', not '%s'",
						  c->in, why, c->why);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "input '%s': %s", c->in, why);
	KUNIT_EXPECT_EQ_MSG(test, cmd.type, c->type, "input '%s'", c->in);
	if (c->type == FA_CMD_CLEAR)
		return;
	KUNIT_EXPECT_EQ(test, cmd.pid, c->pid);
	KUNIT_EXPECT_EQ(test, cmd.addr, c->addr);
	if (c->type == FA_CMD_SET)
		KUNIT_EXPECT_EQ(test, cmd.order, c->order);
}

static void parse_rules(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++)
		expect_parse(test, &parse_cases[i], strlen(parse_cases[i].in));
}

/* Limits that depend on the machine: orders, unsigned long, length. */
static void parse_limits(struct kunit *test)
{
	char in[FA_CMD_MAX_LEN + 8], big[32];
	struct parse_case c = { .in = in };

	snprintf(in, sizeof(in), "1 0x1000 %u", max_order());
	c.type = FA_CMD_SET;
	c.pid = 1;
	c.addr = 0x1000;
	c.order = max_order();
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "1 0x1000 %u", max_order() + 1);
	c.why = "larger than allowed";
	expect_parse(test, &c, strlen(in));

	/* The largest pid, and one more. */
	snprintf(in, sizeof(in), "%d 0x1000 4", (int)PID_MAX_LIMIT);
	c.why = NULL;
	c.pid = PID_MAX_LIMIT;
	c.order = 4;
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "%d 0x1000 4", (int)PID_MAX_LIMIT + 1);
	c.why = "pid";
	expect_parse(test, &c, strlen(in));
	c.pid = 1;

	/* ULONG_MAX with one more digit, in decimal and in hexadecimal. */
	snprintf(big, sizeof(big), "%lu0", ULONG_MAX);
	snprintf(in, sizeof(in), "1 %s 4", big);
	c.why = "too large";
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "1 0x%lx0 4", ULONG_MAX);
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "1 0x%lx 4", ULONG_MAX);
	c.why = NULL;
	c.addr = ULONG_MAX;
	c.order = 4;
	expect_parse(test, &c, strlen(in));

	/* FA_CMD_MAX_LEN bytes are a command; one more is not. */
	memset(in, '\t', sizeof(in));
	in[sizeof(in) - 1] = '\0';	/* for the messages' %s */
	memcpy(in, "1 0x1000", 8);
	in[FA_CMD_MAX_LEN - 1] = '4';
	c.why = NULL;
	c.addr = 0x1000;
	c.order = 4;
	expect_parse(test, &c, FA_CMD_MAX_LEN);
	c.why = "longer";
	in[FA_CMD_MAX_LEN] = '4';
	expect_parse(test, &c, FA_CMD_MAX_LEN + 1);

	/* A NUL inside is a control character, not an end. */
	c.in = "1 0x1000\0 4";
	c.why = "control";
	expect_parse(test, &c, 11);
}

/* "order" and "stats": the same decimal numbers, and a maximum. */
static void parse_uint(struct kunit *test)
{
	static const struct { const char *in; int err; unsigned int val; } cases[] = {
		{ "0", 0, 0 }, { "0\n", 0, 0 }, { "5", 0, 5 }, { "9", 0, 9 },
		{ "10", -EINVAL }, { "00", -EINVAL }, { "+1", -EINVAL },
		{ "1 ", -EINVAL }, { "", -EINVAL }, { "1\n\n", -EINVAL },
		{ "0x1", -EINVAL },
	};
	unsigned int i, val;
	const char *why;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		val = 99;
		KUNIT_EXPECT_EQ_MSG(test, fa_parse_uint(cases[i].in,
							strlen(cases[i].in), 9,
							&val, &why),
				    cases[i].err, "input '%s'", cases[i].in);
		if (!cases[i].err)
			KUNIT_EXPECT_EQ(test, val, cases[i].val);
	}
}

/*
 * VMAs that the overrides only compare: a private table of the test's, so
 * that the module's own is never touched.
 */
static struct vm_area_struct *vmas(struct kunit *test, unsigned int n)
{
	struct vm_area_struct *v = kunit_kcalloc(test, n, sizeof(*v), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	return v;
}

static struct fa_overrides *table(struct kunit *test)
{
	struct fa_overrides *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	fa_ovs_init(t);
	return t;
}

/*
 * Set @order on @vma in @t within the limits: 0, or -ENOSPC with @t as it
 * was.  The override it replaced is freed.
 */
static int set_within(struct kunit *test, struct fa_overrides *t,
		      const struct vm_area_struct *vma, unsigned int order,
		      unsigned int writes, unsigned int limit)
{
	struct fa_override *ov = fa_ov_alloc(vma, order, GFP_KERNEL), *old;

	KUNIT_ASSERT_NOT_NULL(test, ov);
	old = fa_ovs_set(t, ov, writes, limit);
	if (IS_ERR(old)) {
		fa_ov_free(ov);
		return PTR_ERR(old);
	}
	if (old)
		fa_ov_put(old);
	return 0;
}

static void set(struct kunit *test, struct fa_overrides *t,
		const struct vm_area_struct *vma, unsigned int order)
{
	KUNIT_ASSERT_EQ(test, set_within(test, t, vma, order, UINT_MAX,
					 UINT_MAX), 0);
}

/* The order of @vma's override in @t, or -1 if it has none. */
static int order_of(struct fa_overrides *t, const struct vm_area_struct *vma)
{
	struct fa_override *ov;
	int order;

	rcu_read_lock();
	ov = fa_ovs_find(t, vma);
	order = ov ? ov->o->order : -1;
	rcu_read_unlock();
	return order;
}

/* Empty the table, and wait for its overrides to be freed. */
static void done(struct fa_overrides *t)
{
	fa_ovs_clear(t);
	rcu_barrier();
}

/* One override per VMA: a write replaces it, and no other VMA has it. */
static void ovs_set_replaces(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 3);
	struct fa_overrides *t = table(test);

	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), -1);
	set(test, t, &v[0], 0);
	set(test, t, &v[1], 4);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 4);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[2]), -1);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	set(test, t, &v[0], 2);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 2);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 4);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	done(t);
	KUNIT_EXPECT_EQ(test, t->nr, 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), -1);
}

/*
 * A copy (split, move, fork) shares its original's order and counter, and
 * outlives it; a VMA without an override copies none.
 */
static void ovs_dup_follows(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 4);
	struct fa_overrides *t = table(test);
	struct fa_override *a, *b;

	set(test, t, &v[0], 3);
	fa_ovs_dup(t, &v[0], &v[1], UINT_MAX, GFP_KERNEL);
	fa_ovs_dup(t, &v[2], &v[3], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 3);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[3]), -1);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	rcu_read_lock();
	a = fa_ovs_find(t, &v[0]);
	b = fa_ovs_find(t, &v[1]);
	KUNIT_EXPECT_TRUE(test, a && b && a != b && a->o == b->o &&
			  refcount_read(&a->o->ref) == 2);
	rcu_read_unlock();
	/* A write to the copy is its own: the original keeps its order. */
	set(test, t, &v[1], 1);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 3);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 1);
	KUNIT_EXPECT_TRUE(test, fa_ovs_remove(t, &v[0]));
	KUNIT_EXPECT_FALSE(test, fa_ovs_remove(t, &v[0]));
	fa_ovs_dup(t, &v[0], &v[2], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[2]), -1);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 1);
	KUNIT_EXPECT_EQ(test, t->nr, 1);
	done(t);
}

/* The original goes first: its copy keeps the order. */
static void ovs_copy_outlives(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 2);
	struct fa_overrides *t = table(test);

	set(test, t, &v[0], 5);
	fa_ovs_dup(t, &v[0], &v[1], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, fa_ovs_remove(t, &v[0]));
	rcu_barrier();	/* the original freed: its share of the order too */
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 5);
	done(t);
}

/*
 * Copies stop at the limit, counted, and never fail; writes are counted
 * once however many VMAs share them, until the last goes.
 */
static void ovs_copy_limit(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 4);
	struct fa_overrides *t = table(test);

	set(test, t, &v[0], 2);
	fa_ovs_dup(t, &v[0], &v[1], 2, GFP_KERNEL);
	fa_ovs_dup(t, &v[0], &v[2], 2, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 2);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[2]), -1);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	KUNIT_EXPECT_EQ(test, t->uncopied, 1);
	KUNIT_EXPECT_EQ(test, t->writes, 1);
	set(test, t, &v[3], 1);
	KUNIT_EXPECT_EQ(test, t->writes, 2);
	KUNIT_EXPECT_TRUE(test, fa_ovs_remove(t, &v[0]));
	KUNIT_EXPECT_EQ(test, t->writes, 2);
	KUNIT_EXPECT_TRUE(test, fa_ovs_remove(t, &v[1]));
	KUNIT_EXPECT_EQ(test, t->writes, 1);
	/* A write that replaces a VMA's own override: still one. */
	set(test, t, &v[3], 5);
	KUNIT_EXPECT_EQ(test, t->writes, 1);
	/* At either limit a new one is refused; replacing one is not. */
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 1, 1, UINT_MAX), -ENOSPC);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 1, UINT_MAX, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), -1);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[3], 0, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[3]), 0);
	KUNIT_EXPECT_EQ(test, t->nr, 1);
	/* Replacing a shared one adds a write: refused at the limit. */
	fa_ovs_dup(t, &v[3], &v[0], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 3, 1, UINT_MAX), -ENOSPC);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 0);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 3, 2, UINT_MAX), 0);
	KUNIT_EXPECT_EQ(test, t->writes, 2);
	done(t);
	KUNIT_EXPECT_EQ(test, t->writes, 0);
}

/* More VMAs than buckets: each finds its own, removals leave the rest. */
static void ovs_many(struct kunit *test)
{
	const unsigned int n = 3 << FA_OV_HASH_BITS;
	struct vm_area_struct *v = vmas(test, n);
	struct fa_overrides *t = table(test);
	unsigned int i, wrong = 0;

	for (i = 0; i < n; i++)
		set(test, t, &v[i], i % FA_NR_ORDERS);
	for (i = 0; i < n; i += 2)
		KUNIT_EXPECT_TRUE(test, fa_ovs_remove(t, &v[i]));
	for (i = 0; i < n; i++)
		wrong += order_of(t, &v[i]) != (i % 2 ? (int)(i % FA_NR_ORDERS) : -1);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, t->nr, n / 2);
	done(t);
	KUNIT_EXPECT_EQ(test, t->nr, 0);
}

/* parse_policy: exactly "off" and "adaptive", one optional newline. */
static void parse_policy(struct kunit *test)
{
	static const struct {
		const char *in;
		int err;
		bool adaptive;
	} cases[] = {
		{ "off", 0, false }, { "off\n", 0, false },
		{ "adaptive", 0, true }, { "adaptive\n", 0, true },
		{ "", -EINVAL }, { "on", -EINVAL }, { "Adaptive", -EINVAL },
		{ " off", -EINVAL }, { "off\n\n", -EINVAL }, { "adaptiv", -EINVAL },
		{ "adaptive off", -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool adaptive = !cases[i].adaptive;
		const char *why = NULL;
		int err = fa_parse_policy(cases[i].in, strlen(cases[i].in),
					  &adaptive, &why);

		KUNIT_EXPECT_EQ_MSG(test, err, cases[i].err, "'%s'", cases[i].in);
		if (!err)
			KUNIT_EXPECT_EQ_MSG(test, adaptive, cases[i].adaptive,
					    "'%s'", cases[i].in);
		else
			KUNIT_EXPECT_NOT_NULL_MSG(test, why, "'%s'", cases[i].in);
	}
}

/*
 * A mapping of @n pages, page-table aligned, under the adaptive policy:
 * a touch of an unmapped page faults, and the fault maps the aligned
 * window of the order the policy returns, within the mapping, of the
 * pages in the page cache (@cached NULL: all of them).  What the kernel
 * does; the model knows nothing of how the policy decides.
 */
struct fa_model {
	struct fa_adapt_state *s;
	unsigned long base, n, *mapped, faults, pages;
	const unsigned long *cached;
	unsigned int max_seen, ra_order;
	unsigned long max_marked;
};

static void fa_model_init(struct kunit *test, struct fa_model *m,
			  unsigned long n)
{
	unsigned int shift = 12;

	m->s = kunit_kzalloc(test, struct_size(m->s, blocks,
					       BITS_TO_LONGS(1U << shift)),
			     GFP_KERNEL);
	m->mapped = kunit_kcalloc(test, BITS_TO_LONGS(n), sizeof(long),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->s);
	KUNIT_ASSERT_NOT_NULL(test, m->mapped);
	fa_adapt_state_init(m->s, shift, fa_adapt_min_order(n));
	/* Somewhere above 0, on a page-table boundary, as make bench maps. */
	m->base = 16 * PTRS_PER_PTE;
	m->n = n;
	m->faults = 0;
	m->pages = 0;
	m->cached = NULL;
	m->max_seen = 0;
	m->ra_order = fa_adapt_max_order();
	m->max_marked = 0;
}

/* A new mapping of the same pages: new state, nothing mapped. */
static void fa_model_remap(struct fa_model *m)
{
	fa_adapt_state_init(m->s, m->s->shift, m->s->min_order);
	bitmap_zero(m->mapped, m->n);
}

static void fa_model_touch(struct fa_model *m, unsigned long p, bool major)
{
	unsigned long first, i, bits = bitmap_weight(m->s->blocks, 1U << m->s->shift);
	unsigned int order;

	if (test_bit(p, m->mapped))
		return;
	m->faults++;
	order = fa_adapt_step(m->s, m->base + p, major, m->ra_order);
	/* O(1): a fault marks at most the 8 blocks of the largest window. */
	m->max_marked = max(m->max_marked,
			    bitmap_weight(m->s->blocks, 1U << m->s->shift) - bits);
	m->max_seen = max(m->max_seen, order);
	first = p >> order << order;
	for (i = first; i < first + (1UL << order) && i < m->n; i++) {
		if (i != p && m->cached && !test_bit(i, m->cached))
			continue;
		if (!__test_and_set_bit(i, m->mapped))
			m->pages++;
	}
}

/* Reading a file in order: the order climbs to the largest and stays. */
static void adapt_sequential(struct kunit *test)
{
	unsigned int max = fa_adapt_max_order();
	unsigned long n = 4 * PTRS_PER_PTE, p;
	struct fa_model m;

	fa_model_init(test, &m, n);
	for (p = 0; p < n; p++)
		fa_model_touch(&m, p, false);
	KUNIT_EXPECT_EQ(test, m.max_seen, max);
	KUNIT_EXPECT_EQ(test, m.s->order, max);
	KUNIT_EXPECT_EQ(test, m.pages, n);
	KUNIT_EXPECT_LE(test, m.max_marked, 8);
	/* The ramp: at most two faults per order below the largest. */
	KUNIT_EXPECT_LE(test, m.faults, (n >> max) + 2 * (max + 1));
}

/*
 * make bench's sparse: each pass maps the file afresh and reads one page
 * per page table.  Nothing is read near another read: at most 1.25 pages
 * mapped per page read (the adaptive issue's bound), and order 0 soon.
 */
static void adapt_sparse(struct kunit *test)
{
	unsigned long tables = 16, pass, t;
	struct fa_model m;

	fa_model_init(test, &m, tables * PTRS_PER_PTE);
	for (pass = 0; pass < 4; pass++) {
		fa_model_remap(&m);
		for (t = 0; t < tables; t++)
			fa_model_touch(&m, t * PTRS_PER_PTE, false);
		KUNIT_EXPECT_EQ(test, m.s->order, 0);
	}
	KUNIT_EXPECT_EQ(test, m.faults, 4 * tables);
	KUNIT_EXPECT_LE(test, 4 * m.pages, 5 * m.faults);
}

/*
 * Reading every page of a file in a random order: whatever is mapped
 * ahead is read in the end.  The order must climb, and the faults fall
 * well below order 0's one per page.
 */
static void adapt_random_dense(struct kunit *test)
{
	unsigned long n = 4 * PTRS_PER_PTE, *order, i, j;
	struct rnd_state rnd;
	struct fa_model m;

	fa_model_init(test, &m, n);
	order = kunit_kmalloc_array(test, n, sizeof(*order), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, order);
	for (i = 0; i < n; i++)
		order[i] = i;
	prandom_seed_state(&rnd, 42);
	for (i = n - 1; i > 0; i--) {
		j = prandom_u32_state(&rnd) % (i + 1);
		swap(order[i], order[j]);
	}
	for (i = 0; i < n; i++)
		fa_model_touch(&m, order[i], false);
	KUNIT_EXPECT_EQ(test, m.pages, n);
	KUNIT_EXPECT_GT(test, m.max_seen, min(FA_ADAPT_START_ORDER,
					      fa_adapt_max_order()));
	KUNIT_EXPECT_LT_MSG(test, 2 * m.faults, n, "%lu faults for %lu pages",
			    m.faults, n);
}

/*
 * A cold file read in order: readahead has only the next 2^k pages in the
 * page cache.  A window larger than what is cached leaves pages unmapped
 * that the next fault finds: the order must come down to what readahead
 * gives, not stay at the largest.
 */
static void adapt_cold_readahead(struct kunit *test)
{
	unsigned int max = fa_adapt_max_order(), ra;
	unsigned long n = 4 * PTRS_PER_PTE, *cached, p, q;
	struct fa_model m;

	if (max < 2)
		kunit_skip(test, "the largest order is %u: no room below it", max);
	ra = max - 2;
	fa_model_init(test, &m, n);
	cached = kunit_kcalloc(test, BITS_TO_LONGS(n), sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cached);
	m.cached = cached;
	m.ra_order = ra - 1;
	for (p = 0; p < n; p++) {
		unsigned long from = p >> ra << ra;
		bool major = !test_bit(p, cached);

		/* A major fault reads the aligned 2^ra pages around it. */
		for (q = from; major && q < from + (1UL << ra); q++)
			__set_bit(q, cached);
		fa_model_touch(&m, p, major);
	}
	KUNIT_EXPECT_EQ(test, m.pages, n);
	KUNIT_EXPECT_TRUE(test, m.s->cold);
	KUNIT_EXPECT_LE_MSG(test, m.max_seen, ra - 1, "readahead order %u", ra);
}

/*
 * The rules of Documentation/adaptive.rst, one fault each, from the
 * start order: the first fault keeps it; a fault just after the last
 * one's window is near (up); the same page again moves nothing (a
 * retried fault); a fault in the last one's window is unfilled (down); a
 * fault far from anything is far (down).
 */
static void adapt_rules(struct kunit *test)
{
	unsigned int max = fa_adapt_max_order(), start = min(FA_ADAPT_START_ORDER, max);
	unsigned long base = 16 * PTRS_PER_PTE, w = 1UL << start, far;
	struct fa_model m;

	if (start < 1 || fa_adapt_max_order() < start + 1)
		kunit_skip(test, "the largest order %u leaves no room around %u",
			   fa_adapt_max_order(), start);
	fa_model_init(test, &m, 64 * PTRS_PER_PTE);
	far = base + 8 * PTRS_PER_PTE;
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, base, false, max), start);
	KUNIT_EXPECT_EQ(test, m.s->hits + m.s->misses + m.s->unfilled, 0);
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, base + w, false, max), start + 1);
	KUNIT_EXPECT_EQ(test, m.s->hits, 1);
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, base + w, false, max), start + 1);
	KUNIT_EXPECT_EQ(test, m.s->hits + m.s->misses + m.s->unfilled, 1);
	/* base + w's window at start + 1 holds base + w + 1. */
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, base + w + 1, false, max), start);
	KUNIT_EXPECT_EQ(test, m.s->unfilled, 1);
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, far, false, max), start - 1);
	KUNIT_EXPECT_EQ(test, m.s->misses, 1);
	/* A major fault: never above the readahead order again. */
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, far + w, true, 0), 0);
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, far + 2 * w, false, 0), 0);
	KUNIT_EXPECT_TRUE(test, m.s->cold);
}

/*
 * Whatever the faults, the order stays within 0 and the largest, and a
 * fault sets at most 8 bits of the bitmap.
 */
static void adapt_bounded(struct kunit *test)
{
	unsigned int max = fa_adapt_max_order(), o, i, bits, was = 0;
	struct fa_model m;
	struct rnd_state rnd;

	fa_model_init(test, &m, 64 * PTRS_PER_PTE);
	prandom_seed_state(&rnd, 7);
	for (i = 0; i < 10000; i++) {
		o = fa_adapt_step(m.s, prandom_u32_state(&rnd) % (64 * PTRS_PER_PTE),
				  false, max);
		KUNIT_ASSERT_LE(test, o, max);
		bits = bitmap_weight(m.s->blocks, 1U << m.s->shift);
		KUNIT_ASSERT_LE(test, bits - was, 8);
		was = bits;
	}
}

/*
 * Faults far apart (an odd stride of more than two blocks) in a mapping
 * smaller than a page table map exactly 32KiB (a page, with pages of
 * 32KiB or more), while the state steps down to 0: the floor is on the
 * window.  A retried fault keeps it; a cold mapping's readahead cap
 * wins over it.  The same faults in a mapping of a page table map down
 * to one page.
 */
static void adapt_small_far(struct kunit *test)
{
	unsigned long small = PTRS_PER_PTE / 2, p = 0, i, page = 0;
	unsigned long stride = (3UL << fa_adapt_block_shift()) | 1;
	unsigned int max = fa_adapt_max_order(), o, least = UINT_MAX;
	unsigned int least_s = UINT_MAX;
	/* 32KiB in pages, within the largest window: at least a page. */
	unsigned long want = clamp(SZ_32K >> PAGE_SHIFT, 1UL, 1UL << max);
	struct fa_model m;

	if (small < 8 * stride)
		kunit_skip(test, "%lu PTEs: no room for far faults",
			   (unsigned long)PTRS_PER_PTE);
	fa_model_init(test, &m, small);
	for (i = 0; i < small / stride; i++, p += stride) {
		page = m.base + p;
		o = fa_adapt_step(m.s, page, false, max);
		least = min(least, o);
		least_s = min(least_s, m.s->order);
	}
	KUNIT_EXPECT_EQ(test, 1UL << least, want);
	KUNIT_EXPECT_EQ(test, least_s, 0);
	KUNIT_EXPECT_EQ(test, 1UL << fa_adapt_step(m.s, page, false, max), want);
	KUNIT_EXPECT_EQ(test, fa_adapt_step(m.s, page + 2 * stride, true, 0), 0);

	fa_model_init(test, &m, PTRS_PER_PTE);
	least = UINT_MAX;
	for (i = 0, p = 0; i < small / stride; i++, p += 2 * stride)
		least = min(least, fa_adapt_step(m.s, m.base + p, false, max));
	KUNIT_EXPECT_EQ(test, least, 0);
}

/* Read in order, a mapping smaller than a page table still climbs to the top. */
static void adapt_small_sequential(struct kunit *test)
{
	unsigned long small = PTRS_PER_PTE / 2, p;
	struct fa_model m;

	fa_model_init(test, &m, small);
	for (p = 0; p < small; p++)
		fa_model_touch(&m, p, false);
	KUNIT_EXPECT_EQ(test, m.pages, small);
	KUNIT_EXPECT_EQ(test, m.max_seen, fa_adapt_max_order());
}

/*
 * The smallest bitmap the module allocates, with the word after it set
 * as a neighbour's memory may be: a fault in a page table that no window
 * covered must see none of it.  On 32-bit ARM (512 PTEs) the bitmap was
 * one 32-bit long while a page table's blocks are 64 bits, and this
 * fault counted as a revisit from the word past the object.
 */
static void adapt_bitmap_bounds(struct kunit *test)
{
	unsigned int shift = fa_adapt_bitmap_shift(1);
	unsigned long words = BITS_TO_LONGS(1UL << shift);
	unsigned long page = 16 * PTRS_PER_PTE;
	struct fa_adapt_state *s;

	s = kunit_kzalloc(test, struct_size(s, blocks, words + 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	fa_adapt_state_init(s, shift, 0);
	s->blocks[words] = ~0UL;
	/* A fault eight page tables away, that marked nothing. */
	s->last = page + 8 * PTRS_PER_PTE + 1;
	fa_adapt_step(s, page, false, fa_adapt_max_order());
	KUNIT_EXPECT_EQ(test, s->revisits, 0);
	KUNIT_EXPECT_EQ(test, s->misses, 1);
	KUNIT_EXPECT_EQ(test, s->blocks[words], ~0UL);
	/* Larger mappings get a bit per block, up to the limit. */
	KUNIT_EXPECT_EQ(test, 1UL << fa_adapt_bitmap_shift(2 * FA_ADAPT_MAX_BITS <<
							   fa_adapt_block_shift()),
			FA_ADAPT_MAX_BITS);
}

/*
 * Tasks faulting one mapping in turn, each taking a major fault now and
 * then: up to FA_ADAPT_TASKS of them, each is told of its own major
 * faults exactly (v2 kept one task, and told two alternating threads of
 * none); with more, never of a major fault it did not take.
 */
static void adapt_task_major(struct kunit *test)
{
	unsigned long task[FA_ADAPT_TASKS] = { 0 }, me;
	unsigned int majflt[FA_ADAPT_TASKS] = { 0 }, maj[FA_ADAPT_TASKS + 1] = { 0 };
	unsigned int last[FA_ADAPT_TASKS + 1], n, t, round, told, wrong;
	struct rnd_state rnd;
	bool got, took, changed;

	prandom_seed_state(&rnd, 7);
	for (n = 1; n <= FA_ADAPT_TASKS + 1; n++) {
		memset(task, 0, sizeof(task));
		told = 0;
		wrong = 0;
		for (t = 0; t < n; t++)
			last[t] = UINT_MAX;	/* not seen yet */
		for (round = 0; round < 64; round++) {
			for (t = 0; t < n; t++) {
				/* Distinct, as task_struct pointers are. */
				me = 0x1000UL * (t + 1);
				took = prandom_u32_state(&rnd) % 4 == 0;
				maj[t] += took;
				got = fa_adapt_task_major(task, majflt, me, maj[t]);
				changed = last[t] != maj[t];
				if (got && !changed)
					wrong++;
				if (n <= FA_ADAPT_TASKS && last[t] != UINT_MAX &&
				    got != changed)
					wrong++;
				told += got;
				last[t] = maj[t];
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "%u tasks", n);
		if (n <= FA_ADAPT_TASKS)
			KUNIT_EXPECT_GT_MSG(test, told, 0, "%u tasks", n);
	}
}

static struct kunit_case faultaround_cases[] = {
	KUNIT_CASE(parse_rules),
	KUNIT_CASE(parse_limits),
	KUNIT_CASE(parse_uint),
	KUNIT_CASE(ovs_set_replaces),
	KUNIT_CASE(ovs_dup_follows),
	KUNIT_CASE(ovs_copy_outlives),
	KUNIT_CASE(ovs_copy_limit),
	KUNIT_CASE(ovs_many),
	KUNIT_CASE(parse_policy),
	KUNIT_CASE(adapt_rules),
	KUNIT_CASE(adapt_sequential),
	KUNIT_CASE(adapt_sparse),
	KUNIT_CASE(adapt_random_dense),
	KUNIT_CASE(adapt_cold_readahead),
	KUNIT_CASE(adapt_bounded),
	KUNIT_CASE(adapt_small_far),
	KUNIT_CASE(adapt_small_sequential),
	KUNIT_CASE(adapt_bitmap_bounds),
	KUNIT_CASE(adapt_task_major),
	{}
};

static struct kunit_suite faultaround_suite = {
	.name = "faultaround",
	.test_cases = faultaround_cases,
};

kunit_test_suite(faultaround_suite);

MODULE_DESCRIPTION("KUnit tests for mod_faultaround");
MODULE_LICENSE("GPL");
