// SPDX-License-Identifier: GPL-2.0
/*
 * The fault path: the policy callback that the kernel calls on each read
 * fault that could fault around, and the statistics it keeps per CPU.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "faultaround.h"

/*
 * Per CPU, so that the faults this module exists to measure do not
 * bounce a shared cache line.  syncp also covers each override's hits.
 */
struct fa_pcpu {
	u64_stats_t hits, decided[FA_NR_ORDERS];
	struct u64_stats_sync syncp;
};

static DEFINE_PER_CPU(struct fa_pcpu, fa_pcpu);

/*
 * Called by the fault path under RCU; must not sleep.  With no override
 * and the adaptive policy off (a failed first write, say) a fault counts
 * nothing.  Most faults are of VMAs without an override: a bucket of the
 * hash turns them away, and they cost one counter (and the adaptive
 * policy's step, when it is on).  An override wins over the adaptive
 * policy.
 */
static unsigned int fa_policy_order(struct vm_area_struct *vma,
				    unsigned long address, unsigned int order)
{
	struct fa_override *ov = NULL;
	struct fa_pcpu *s;

	if (READ_ONCE(fa_ovs.nr))
		ov = fa_ovs_find(&fa_ovs, vma);
	else if (!fa_adapt_enabled())
		return order;
	if (ov)
		order = ov->o->order;
	else
		order = fa_adapt_order(vma, address, order);

	s = get_cpu_ptr(&fa_pcpu);
	u64_stats_update_begin(&s->syncp);
	if (ov) {
		u64_stats_inc(&s->hits);
		u64_stats_inc(this_cpu_ptr(ov->o->hits));
	}
	u64_stats_inc(&s->decided[min(order, FA_NR_ORDERS - 1U)]);
	u64_stats_update_end(&s->syncp);
	put_cpu_ptr(&fa_pcpu);
	return order;
}

/* Under RCU, from vm_area_free() and remove_vma(). */
static void fa_policy_vma_free(struct vm_area_struct *vma)
{
	fa_overrides_vma_free(vma);
	fa_adapt_vma_free(vma);
}

static const struct fault_around_policy fa_policy = {
	.order = fa_policy_order,
	.vma_free = fa_policy_vma_free,
	.vma_dup = fa_overrides_vma_dup,
};

/* Before the policy can run: the seqcounts of 32-bit SMP kernels. */
void fa_policy_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(&fa_pcpu, cpu)->syncp);
}

/*
 * The policy is registered while something uses it: the overrides (while
 * there are any) and the adaptive policy (while it is on).  An idle
 * module costs the fault path nothing.
 */
static DEFINE_MUTEX(fa_policy_lock);
static unsigned int fa_policy_users;

/* Use the policy: registers it for the first user; -EBUSY if another is. */
int fa_policy_get(void)
{
	int err = 0;

	mutex_lock(&fa_policy_lock);
	if (!fa_policy_users)
		err = fault_around_register_policy(&fa_policy);
	if (!err)
		fa_policy_users++;
	mutex_unlock(&fa_policy_lock);
	return err;
}

/* Stop using it: the last user unregisters it, waiting for the faults. */
void fa_policy_put(void)
{
	mutex_lock(&fa_policy_lock);
	if (!WARN_ON_ONCE(!fa_policy_users) && !--fa_policy_users)
		fault_around_unregister_policy(&fa_policy);
	mutex_unlock(&fa_policy_lock);
}

/* @o's hits, summed over the CPUs. */
u64 fa_hits_of(const struct fa_order *o)
{
	unsigned int start;
	u64 sum = 0, v;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct fa_pcpu *s = per_cpu_ptr(&fa_pcpu, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v = u64_stats_read(per_cpu_ptr(o->hits, cpu));
		} while (u64_stats_fetch_retry(&s->syncp, start));
		sum += v;
	}
	return sum;
}

/* The statistics since load, summed over the CPUs. */
void fa_stats_read(struct fa_stats *st)
{
	unsigned int start, o;
	struct fa_stats v;
	int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct fa_pcpu *s = per_cpu_ptr(&fa_pcpu, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			v.hits = u64_stats_read(&s->hits);
			for (o = 0; o < FA_NR_ORDERS; o++)
				v.decided[o] = u64_stats_read(&s->decided[o]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		st->hits += v.hits;
		for (o = 0; o < FA_NR_ORDERS; o++)
			st->decided[o] += v.decided[o];
	}
	st->misses = -st->hits;
	for (o = 0; o < FA_NR_ORDERS; o++)
		st->misses += st->decided[o];
}
