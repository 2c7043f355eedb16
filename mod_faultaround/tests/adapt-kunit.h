/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit cases for the adaptive policy's step (adapt.c), against a model
 * of what fault-around maps.  Included by test.c, the suite's one
 * module, as DAMON's unit tests are by their files.
 */
#ifndef _FA_ADAPT_KUNIT_H
#define _FA_ADAPT_KUNIT_H

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

#endif /* _FA_ADAPT_KUNIT_H */
