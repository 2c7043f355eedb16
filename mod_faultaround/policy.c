// SPDX-License-Identifier: GPL-2.0
/*
 * The fault path: the policy that the kernel calls on each read fault
 * that could fault around, and on each VMA it copies and frees.  It asks
 * the overrides, then the adaptive policy; hook.c registers it.
 */
#include <linux/mm.h>

#include "faultaround.h"

/*
 * Called by the fault path under RCU; must not sleep.  With no override
 * and the adaptive policy off (a failed first write, say) a fault counts
 * nothing.  Most faults are of VMAs without an override: a bucket of the
 * hash turns them away, and they cost one counter (and the adaptive
 * policy's step, when it is on).  An override wins over the adaptive
 * policy.
 */
static unsigned int mfa_policy_order(struct vm_area_struct *vma,
				     unsigned long address, unsigned int order)
{
	struct mfa_override *ov = NULL;

	if (mfa_overrides_nr())
		ov = mfa_overrides_find(vma);
	else if (!mfa_adapt_enabled())
		return order;
	if (ov)
		order = ov->o->order;
	else
		order = mfa_adapt_order(vma, address, order);
	mfa_stats_count(ov ? ov->o : NULL, order);
	return order;
}

/* Under RCU, from vm_area_free() and remove_vma(). */
static void mfa_policy_vma_free(struct vm_area_struct *vma)
{
	mfa_overrides_vma_free(vma);
	mfa_adapt_vma_free(vma);
}

const struct fault_around_policy mfa_policy = {
	.order = mfa_policy_order,
	.vma_free = mfa_policy_vma_free,
	.vma_dup = mfa_overrides_vma_dup,
};
