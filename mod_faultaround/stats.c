// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of the fault path, per CPU, so that the faults this
 * module exists to measure do not bounce a shared cache line.
 */
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "faultaround.h"

/* syncp also covers each override's hits. */
struct mfa_pcpu {
	u64_stats_t hits, decided[MFA_NR_ORDERS];
	struct u64_stats_sync syncp;
};

static DEFINE_PER_CPU(struct mfa_pcpu, mfa_pcpu);

/* Before the policy can run: the seqcounts of 32-bit SMP kernels. */
void mfa_stats_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(&mfa_pcpu, cpu)->syncp);
}

/*
 * A fault decided @order, by the override that shares @o if not NULL:
 * under the RCU read lock that keeps @o alive.
 */
void mfa_stats_count(struct mfa_order *o, unsigned int order)
{
	struct mfa_pcpu *s = get_cpu_ptr(&mfa_pcpu);

	u64_stats_update_begin(&s->syncp);
	if (o) {
		u64_stats_inc(&s->hits);
		u64_stats_inc(this_cpu_ptr(o->hits));
	}
	u64_stats_inc(&s->decided[min(order, MFA_NR_ORDERS - 1U)]);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(&mfa_pcpu);
}

/* @o's hits, summed over the CPUs. */
u64 mfa_hits_of(const struct mfa_order *o)
{
	unsigned int start;
	u64 sum = 0, v;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct mfa_pcpu *s = per_cpu_ptr(&mfa_pcpu, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v = u64_stats_read(per_cpu_ptr(o->hits, cpu));
		} while (u64_stats_fetch_retry(&s->syncp, start));
		sum += v;
	}
	return sum;
}

/* The statistics since load, summed over the CPUs. */
void mfa_stats_read(struct mfa_stats *st)
{
	unsigned int start, o;
	struct mfa_stats v;
	int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct mfa_pcpu *s = per_cpu_ptr(&mfa_pcpu, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v.hits = u64_stats_read(&s->hits);
			for (o = 0; o < MFA_NR_ORDERS; o++)
				v.decided[o] = u64_stats_read(&s->decided[o]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		st->hits += v.hits;
		for (o = 0; o < MFA_NR_ORDERS; o++)
			st->decided[o] += v.decided[o];
	}
	st->misses = -st->hits;
	for (o = 0; o < MFA_NR_ORDERS; o++)
		st->misses += st->decided[o];
}
