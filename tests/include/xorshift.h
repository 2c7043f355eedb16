/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xorshift32: a small PRNG whose sequence is fixed by the seed, for
 * fa-bench's random readers and the boot lab's shuffled one.
 */
#ifndef FA_XORSHIFT_H
#define FA_XORSHIFT_H

/* The next number after *@s (never 0 if the seed is not). */
static inline unsigned int next_rand(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

#endif
