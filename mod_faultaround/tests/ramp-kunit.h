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
 * Far from the last fault, back to 4 pages; the same page again (a
 * retry) keeps the order; indices compare in 32 bits across 2^32.
 */
static void ramp_far_and_retry(struct kunit *test)
{
	unsigned int max = ilog2(PTRS_PER_PTE), top;
	pgoff_t index = (pgoff_t)U32_MAX - 3;
	u64 state = 0;

	KUNIT_ASSERT_GE(test, max, 3U);
	/* Up to the most, across the 32-bit wrap. */
	for (top = 0; top < max; ) {
		top = mfa_ramp_step(state, index, max);
		state = mfa_ramp_state(top, index);
		index += 1UL << top;
	}
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index - (1UL << top), max),
			max);
	KUNIT_EXPECT_EQ(test, mfa_ramp_step(state, index + (4UL << max), max), 2);
}

#endif /* _MFA_RAMP_KUNIT_H */
