/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ramp baseline's step (baseline.c), in pages as readahead's
 * get_next_ra_size() says it: x4 below a sixteenth of the most, x2 above.
 */
#ifndef _MFA_RAMP_KUNIT_H
#define _MFA_RAMP_KUNIT_H

/* The window after one of @pages pages, at most @most pages. */
static unsigned long ramp_next_pages(unsigned long pages, unsigned long most)
{
	return min(pages < most / 16 ? 4 * pages : 2 * pages, most);
}

/*
 * A reader in order, forwards or backwards (each fault just past the last
 * window), ramps as readahead does up to the most and stays; the first
 * fault maps 4 pages, or the most if less.
 */
static void ramp_in_order(struct kunit *test)
{
	unsigned int max, order, i;
	int dir;

	for (max = 0; max < MFA_NR_ORDERS; max++) {
		for (dir = -1; dir <= 1; dir += 2) {
			unsigned long most = 1UL << max, want = min(4UL, most);
			pgoff_t index = 1UL << 30;
			u64 state = 0;

			for (i = 0; i < 2 * MFA_NR_ORDERS; i++) {
				order = mfa_ramp_step(state, index, max);
				KUNIT_EXPECT_EQ_MSG(test, 1UL << order, want,
						    "max %u fault %u dir %d", max, i, dir);
				state = mfa_ramp_state(order, index);
				index += dir * (long)(1UL << order);
				want = ramp_next_pages(1UL << order, most);
			}
		}
	}
}

/*
 * Far from the last fault, back to 4 pages: less than two windows away
 * (either way) is near, two windows is far.  The same page again (a retry)
 * keeps the order, below the most as at it.  Indices compare in 32 bits,
 * across 2^32.
 */
static void ramp_far_and_retry(struct kunit *test)
{
	unsigned int max = ilog2(PTRS_PER_PTE), order = 0, i;
	pgoff_t index = (pgoff_t)U32_MAX - 3;
	u64 state = 0;

	KUNIT_ASSERT_GE(test, max, 3U);
	for (i = 0; i < 2 * MFA_NR_ORDERS && order < max; i++) {
		order = mfa_ramp_step(state, index, max);
		state = mfa_ramp_state(order, index);
		if (order < max)	/* a retry below the most: kept */
			KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index, max), order);
		index += 1UL << order;
	}
	KUNIT_ASSERT_EQ(test, order, max);
	index -= 1UL << order;	/* the last fault's page */
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index, max), max);
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index + (2UL << max) - 1,
					    max), max);
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index - (2UL << max) + 1,
					    max), max);
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index + (2UL << max), max),
			2);
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index - (2UL << max), max),
			2);
}

#endif /* _MFA_RAMP_KUNIT_H */
