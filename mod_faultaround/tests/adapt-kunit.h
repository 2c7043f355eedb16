/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit cases for the adaptive policy (adapt.c): its step, against a
 * model of what fault-around maps, and its table of state.  Included by test.c, the suite's one
 * module, as DAMON's unit tests are by their files.
 */
#ifndef _MFA_ADAPT_KUNIT_H
#define _MFA_ADAPT_KUNIT_H

/*
 * A mapping of @n pages, page-table aligned, under the adaptive policy:
 * a touch of an unmapped page faults, and the fault maps the aligned
 * window of the order the policy returns, within the mapping, of the
 * pages in the page cache (@cached NULL: all of them).  What the kernel
 * does; the model knows nothing of how the policy decides.
 */
struct mfa_model {
	struct mfa_adapt_state *s;
	unsigned long base, n, *mapped, faults, pages;
	const unsigned long *cached;
	unsigned int max_seen, ra_order;
	unsigned long max_marked;
};

static void mfa_model_init(struct kunit *test, struct mfa_model *m,
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
	mfa_adapt_state_init(m->s, shift, mfa_adapt_min_order(n));
	/* Somewhere above 0, on a page-table boundary, as make bench maps. */
	m->base = 16 * PTRS_PER_PTE;
	m->n = n;
	m->faults = 0;
	m->pages = 0;
	m->cached = NULL;
	m->max_seen = 0;
	m->ra_order = mfa_adapt_max_order();
	m->max_marked = 0;
}

/* A new mapping of the same pages: new state, nothing mapped. */
static void mfa_model_remap(struct mfa_model *m)
{
	mfa_adapt_state_init(m->s, m->s->shift, m->s->min_order);
	bitmap_zero(m->mapped, m->n);
}

static void mfa_model_touch(struct mfa_model *m, unsigned long p, bool major)
{
	unsigned long first, i, bits = bitmap_weight(m->s->blocks, 1U << m->s->shift);
	unsigned int order;

	if (test_bit(p, m->mapped))
		return;
	m->faults++;
	order = mfa_adapt_step(m->s, m->base + p, major, m->ra_order);
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
	unsigned int max = mfa_adapt_max_order();
	unsigned long n = 4 * PTRS_PER_PTE, p;
	struct mfa_model m;

	mfa_model_init(test, &m, n);
	for (p = 0; p < n; p++)
		mfa_model_touch(&m, p, false);
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
	struct mfa_model m;

	mfa_model_init(test, &m, tables * PTRS_PER_PTE);
	for (pass = 0; pass < 4; pass++) {
		mfa_model_remap(&m);
		for (t = 0; t < tables; t++)
			mfa_model_touch(&m, t * PTRS_PER_PTE, false);
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
	struct mfa_model m;

	mfa_model_init(test, &m, n);
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
		mfa_model_touch(&m, order[i], false);
	KUNIT_EXPECT_EQ(test, m.pages, n);
	KUNIT_EXPECT_GT(test, m.max_seen, min(MFA_ADAPT_START_ORDER,
					      mfa_adapt_max_order()));
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
	unsigned int max = mfa_adapt_max_order(), ra;
	unsigned long n = 4 * PTRS_PER_PTE, *cached, p, q;
	struct mfa_model m;

	if (max < 2)
		kunit_skip(test, "the largest order is %u: no room below it", max);
	ra = max - 2;
	mfa_model_init(test, &m, n);
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
		mfa_model_touch(&m, p, major);
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
	unsigned int max = mfa_adapt_max_order(), start = min(MFA_ADAPT_START_ORDER, max);
	unsigned long base = 16 * PTRS_PER_PTE, w = 1UL << start, far;
	struct mfa_model m;

	if (start < 1 || mfa_adapt_max_order() < start + 1)
		kunit_skip(test, "the largest order %u leaves no room around %u",
			   mfa_adapt_max_order(), start);
	mfa_model_init(test, &m, 64 * PTRS_PER_PTE);
	far = base + 8 * PTRS_PER_PTE;
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, base, false, max), start);
	KUNIT_EXPECT_EQ(test, m.s->hits + m.s->misses + m.s->unfilled, 0);
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, base + w, false, max), start + 1);
	KUNIT_EXPECT_EQ(test, m.s->hits, 1);
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, base + w, false, max), start + 1);
	KUNIT_EXPECT_EQ(test, m.s->hits + m.s->misses + m.s->unfilled, 1);
	/* base + w's window at start + 1 holds base + w + 1. */
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, base + w + 1, false, max), start);
	KUNIT_EXPECT_EQ(test, m.s->unfilled, 1);
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, far, false, max), start - 1);
	KUNIT_EXPECT_EQ(test, m.s->misses, 1);
	/* A major fault: never above the readahead order again. */
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, far + w, true, 0), 0);
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, far + 2 * w, false, 0), 0);
	KUNIT_EXPECT_TRUE(test, m.s->cold);
}

/*
 * Whatever the faults, the order stays within 0 and the largest, and a
 * fault sets at most 8 bits of the bitmap.
 */
static void adapt_bounded(struct kunit *test)
{
	unsigned int max = mfa_adapt_max_order(), o, i, bits, was = 0;
	struct mfa_model m;
	struct rnd_state rnd;

	mfa_model_init(test, &m, 64 * PTRS_PER_PTE);
	prandom_seed_state(&rnd, 7);
	for (i = 0; i < 10000; i++) {
		o = mfa_adapt_step(m.s, prandom_u32_state(&rnd) % (64 * PTRS_PER_PTE),
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
	unsigned long stride = (3UL << mfa_adapt_block_shift()) | 1;
	unsigned int max = mfa_adapt_max_order(), o, least = UINT_MAX;
	unsigned int least_s = UINT_MAX;
	/* 32KiB in pages, within the largest window: at least a page. */
	unsigned long want = clamp(SZ_32K >> PAGE_SHIFT, 1UL, 1UL << max);
	struct mfa_model m;

	if (small < 8 * stride)
		kunit_skip(test, "%lu PTEs: no room for far faults",
			   (unsigned long)PTRS_PER_PTE);
	mfa_model_init(test, &m, small);
	for (i = 0; i < small / stride; i++, p += stride) {
		page = m.base + p;
		o = mfa_adapt_step(m.s, page, false, max);
		least = min(least, o);
		least_s = min(least_s, m.s->order);
	}
	KUNIT_EXPECT_EQ(test, 1UL << least, want);
	KUNIT_EXPECT_EQ(test, least_s, 0);
	KUNIT_EXPECT_EQ(test, 1UL << mfa_adapt_step(m.s, page, false, max), want);
	KUNIT_EXPECT_EQ(test, mfa_adapt_step(m.s, page + 2 * stride, true, 0), 0);

	mfa_model_init(test, &m, PTRS_PER_PTE);
	least = UINT_MAX;
	for (i = 0, p = 0; i < small / stride; i++, p += 2 * stride)
		least = min(least, mfa_adapt_step(m.s, m.base + p, false, max));
	KUNIT_EXPECT_EQ(test, least, 0);
}

/* Read in order, a mapping smaller than a page table still climbs to the top. */
static void adapt_small_sequential(struct kunit *test)
{
	unsigned long small = PTRS_PER_PTE / 2, p;
	struct mfa_model m;

	mfa_model_init(test, &m, small);
	for (p = 0; p < small; p++)
		mfa_model_touch(&m, p, false);
	KUNIT_EXPECT_EQ(test, m.pages, small);
	KUNIT_EXPECT_EQ(test, m.max_seen, mfa_adapt_max_order());
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
	unsigned int shift = mfa_adapt_bitmap_shift(1);
	unsigned long words = BITS_TO_LONGS(1UL << shift);
	unsigned long page = 16 * PTRS_PER_PTE;
	struct mfa_adapt_state *s;

	s = kunit_kzalloc(test, struct_size(s, blocks, words + 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	mfa_adapt_state_init(s, shift, 0);
	s->blocks[words] = ~0UL;
	/* A fault eight page tables away, that marked nothing. */
	s->last = page + 8 * PTRS_PER_PTE + 1;
	mfa_adapt_step(s, page, false, mfa_adapt_max_order());
	KUNIT_EXPECT_EQ(test, s->revisits, 0);
	KUNIT_EXPECT_EQ(test, s->misses, 1);
	KUNIT_EXPECT_EQ(test, s->blocks[words], ~0UL);
	/* Larger mappings get a bit per block, up to the limit. */
	KUNIT_EXPECT_EQ(test, 1UL << mfa_adapt_bitmap_shift(2 * MFA_ADAPT_MAX_BITS <<
							   mfa_adapt_block_shift()),
			MFA_ADAPT_MAX_BITS);
}

/*
 * Tasks faulting one mapping in turn, each taking a major fault now and
 * then: up to MFA_ADAPT_TASKS of them, each is told of its own major
 * faults exactly (v2 kept one task, and told two alternating threads of
 * none); with more, never of a major fault it did not take.
 */
static void adapt_task_major(struct kunit *test)
{
	unsigned long task[MFA_ADAPT_TASKS] = { 0 }, me;
	unsigned int majflt[MFA_ADAPT_TASKS] = { 0 }, maj[MFA_ADAPT_TASKS + 1] = { 0 };
	unsigned int last[MFA_ADAPT_TASKS + 1], n, t, round, told, wrong;
	struct rnd_state rnd;
	bool got, took, changed;

	prandom_seed_state(&rnd, 7);
	for (n = 1; n <= MFA_ADAPT_TASKS + 1; n++) {
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
				got = mfa_adapt_task_major(task, majflt, me, maj[t]);
				changed = last[t] != maj[t];
				if (got && !changed)
					wrong++;
				if (n <= MFA_ADAPT_TASKS && last[t] != UINT_MAX &&
				    got != changed)
					wrong++;
				told += got;
				last[t] = maj[t];
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, wrong, 0, "%u tasks", n);
		if (n <= MFA_ADAPT_TASKS)
			KUNIT_EXPECT_GT_MSG(test, told, 0, "%u tasks", n);
	}
}

KUNIT_DEFINE_ACTION_WRAPPER(mfa_test_vfree, vfree, const void *);

/* After the test: the table's state, then its counters and itself. */
static void adapt_table_free(void *data)
{
	struct mfa_adapt_table *t = data;

	mfa_adapt_table_clear(t);
	free_percpu(t->untracked);
	free_percpu(t->evicted);
	kvfree(t);
}

/*
 * A table of the adaptive policy's state, a private one of the test's
 * (never the module's): its mappings' VMAs are only compared and sized.
 */
static struct mfa_adapt_table *adapt_table(struct kunit *test,
					   unsigned int limit,
					   unsigned long idle)
{
	struct mfa_adapt_table *t = kvzalloc(sizeof(*t), GFP_KERNEL);
	unsigned long __percpu *untracked, *evicted;
	bool ok;

	KUNIT_ASSERT_NOT_NULL(test, t);
	untracked = alloc_percpu(unsigned long);
	evicted = alloc_percpu(unsigned long);
	ok = untracked && evicted;
	mfa_adapt_table_init(t, limit, idle, untracked, evicted);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, adapt_table_free, t), 0);
	KUNIT_ASSERT_TRUE(test, ok);
	return t;
}

/* @n mappings of 16 pages (no file: the table never looks). */
static struct vm_area_struct *adapt_vmas(struct kunit *test, unsigned int n)
{
	struct vm_area_struct *v = vzalloc(array_size(n, sizeof(*v)));
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mfa_test_vfree, v), 0);
	for (i = 0; i < n; i++) {
		v[i].vm_start = (16UL + 32 * i) << PAGE_SHIFT;
		v[i].vm_end = v[i].vm_start + (16UL << PAGE_SHIFT);
	}
	return v;
}

/*
 * mfa_adapt_get() under RCU, as the fault path calls it; the state is
 * only compared after, so KUnit's checks (which allocate) run outside.
 */
static struct mfa_adapt *adapt_get(struct mfa_adapt_table *t,
				   struct vm_area_struct *vma)
{
	struct mfa_adapt *a;

	rcu_read_lock();
	a = mfa_adapt_get(t, vma);
	rcu_read_unlock();
	return a;
}

struct adapt_counts {
	unsigned int tracked;
	unsigned long untracked, evicted;
};

static struct adapt_counts adapt_counts(struct mfa_adapt_table *t)
{
	struct adapt_counts c;

	mfa_adapt_table_counts(t, &c.tracked, &c.untracked, &c.evicted);
	return c;
}

/* More VMAs than the table has buckets: two in every bucket, and one. */
#define ADAPT_MANY	((2U << MFA_ADAPT_HASH_BITS) + 1)

/*
 * A mapping's state is found again, one per VMA, with more VMAs than
 * buckets; forgetting a VMA drops its state only, and a VMA without
 * state is turned away.
 */
static void adapt_table_get_forget(struct kunit *test)
{
	unsigned int i, n = ADAPT_MANY, missing = 0, wrong = 0;
	struct vm_area_struct *v = adapt_vmas(test, n);
	struct mfa_adapt_table *t = adapt_table(test, n, 3600 * HZ);
	struct mfa_adapt **a = kunit_kcalloc(test, n, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	for (i = 0; i < n; i++)
		a[i] = adapt_get(t, &v[i]);
	/* GFP_NOWAIT may fail under memory pressure: not what is tested. */
	for (i = 0; i < n; i++)
		missing += !a[i];
	if (missing)
		kunit_skip(test, "%u of %u states not allocated", missing, n);
	for (i = 0; i < n; i++)
		wrong += adapt_get(t, &v[i]) != a[i];
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, n);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).untracked, 0);

	rcu_read_lock();
	mfa_adapt_forget(t, &v[0]);
	mfa_adapt_forget(t, &v[0]);	/* no state now: nothing */
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, n - 1);
	for (i = 1; i < n; i++)
		wrong += adapt_get(t, &v[i]) != a[i];
	KUNIT_EXPECT_EQ(test, wrong, 0);
	/* New state for the VMA forgotten. */
	KUNIT_EXPECT_NOT_NULL(test, adapt_get(t, &v[0]));
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, n);

	mfa_adapt_table_clear(t);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, 0);
}

#define ADAPT_LIMIT	4

/*
 * At the limit, with nothing idle, a new mapping gets no state (and its
 * faults are counted), while the tracked ones keep theirs; a VMA freed
 * makes room.
 */
static void adapt_table_limit(struct kunit *test)
{
	struct vm_area_struct *v = adapt_vmas(test, ADAPT_LIMIT + 1);
	struct mfa_adapt_table *t = adapt_table(test, ADAPT_LIMIT, 3600 * HZ);
	struct mfa_adapt *a[ADAPT_LIMIT];
	unsigned int i;

	for (i = 0; i < ADAPT_LIMIT; i++) {
		a[i] = adapt_get(t, &v[i]);
		KUNIT_EXPECT_NOT_NULL(test, a[i]);
	}
	KUNIT_EXPECT_NULL(test, adapt_get(t, &v[ADAPT_LIMIT]));
	KUNIT_EXPECT_NULL(test, adapt_get(t, &v[ADAPT_LIMIT]));
	KUNIT_EXPECT_EQ(test, adapt_counts(t).untracked, 2);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).evicted, 0);
	for (i = 0; i < ADAPT_LIMIT; i++)
		KUNIT_EXPECT_PTR_EQ(test, adapt_get(t, &v[i]), a[i]);
	rcu_read_lock();
	mfa_adapt_forget(t, &v[1]);
	rcu_read_unlock();
	KUNIT_EXPECT_NOT_NULL(test, adapt_get(t, &v[ADAPT_LIMIT]));
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, ADAPT_LIMIT);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).untracked, 2);
}

/*
 * A full table frees the state of a mapping idle for the table's idle
 * time, in the new mapping's bucket or the next ones, so that mappings
 * faulted once and left cannot keep the policy from another process's:
 * three VMAs of one bucket, a table of two.
 */
static void adapt_table_evict(struct kunit *test)
{
	unsigned int i, b, n = ADAPT_MANY, same[3];
	struct vm_area_struct *v = adapt_vmas(test, n);
	struct mfa_adapt_table *t = adapt_table(test, 2, 1);
	unsigned int (*seen)[3];
	struct mfa_adapt *a2;
	unsigned long start;
	u8 *k;

	/*
	 * Three of 2 x 1024 + 1 VMAs in 1024 buckets share one (the
	 * pigeonholes), by the hash adapt.c keys its buckets with: a change
	 * there fails this case rather than passing it.
	 */
	seen = kunit_kcalloc(test, 1 << MFA_ADAPT_HASH_BITS, sizeof(*seen),
			     GFP_KERNEL);
	k = kunit_kcalloc(test, 1 << MFA_ADAPT_HASH_BITS, sizeof(*k),
			  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_NOT_NULL(test, k);
	for (i = 0; i < n; i++) {
		b = hash_ptr(&v[i], MFA_ADAPT_HASH_BITS);
		seen[b][k[b]++] = i;
		if (k[b] == 3)
			break;
	}
	KUNIT_ASSERT_LT(test, i, n);
	memcpy(same, seen[b], sizeof(same));

	KUNIT_EXPECT_NOT_NULL(test, adapt_get(t, &v[same[0]]));
	KUNIT_EXPECT_NOT_NULL(test, adapt_get(t, &v[same[1]]));
	/* Idle: no fault for more than a tick. */
	start = jiffies;
	while (time_before_eq(jiffies, start + 2))
		schedule_timeout_uninterruptible(1);
	a2 = adapt_get(t, &v[same[2]]);
	KUNIT_EXPECT_NOT_NULL(test, a2);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).evicted, 1);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, 2);
	KUNIT_EXPECT_EQ(test, adapt_counts(t).untracked, 0);
	/* One of the two idle ones went, the new one stayed. */
	rcu_read_lock();
	mfa_adapt_forget(t, &v[same[0]]);
	mfa_adapt_forget(t, &v[same[1]]);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, adapt_counts(t).tracked, 1);
	KUNIT_EXPECT_PTR_EQ(test, adapt_get(t, &v[same[2]]), a2);
}

#endif /* _MFA_ADAPT_KUNIT_H */
