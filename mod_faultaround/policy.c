// SPDX-License-Identifier: GPL-2.0
/*
 * The fault path: the policy that the kernel calls on each read fault
 * that could fault around, and on each VMA it copies and frees: the
 * overrides and the baselines; hook.c registers it while either is in use.
 */
#include <linux/mm.h>

#include "faultaround.h"

/*
 * Called by the fault path under RCU; must not sleep.  @order is the
 * kernel's (the global order, or its adaptive policy's), which a baseline
 * (baseline.c) may change and an override replaces.  With no override
 * left (a race with the last removal) a fault counts nothing.  Most faults
 * are of VMAs without an override: a bucket of the hash turns them away,
 * and they cost one counter.
 */
static unsigned int mfa_policy_order(struct vm_area_struct *vma,
				     unsigned long address, unsigned int order)
{
	struct mfa_override *ov;

	order = mfa_baseline_order(vma, address, order);
	if (!mfa_overrides_nr())
		return order;
	ov = mfa_overrides_find(vma);
	if (ov)
		order = ov->o->order;
	mfa_stats_count(ov ? ov->o : NULL, order);
	return order;
}

const struct fault_around_policy mfa_policy = {
	.order = mfa_policy_order,
	.vma_free = mfa_overrides_vma_free,
	.vma_dup = mfa_overrides_vma_dup,
};
