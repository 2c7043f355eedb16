// SPDX-License-Identifier: GPL-2.0
/*
 * Two simple per-mapping baselines that the kernel's adaptive policy is
 * judged against (make bench POLICY=adaptive), through the policy hook:
 *   madvise  the window a madvise() hint alone picks: one page under
 *            MADV_RANDOM, the kernel's order otherwise (MADV_SEQUENTIAL
 *            too: that order is the most fault-around maps, as it is for
 *            the kernel's policy)
 *   ramp     readahead's ramp (get_next_ra_size()) per open file: a fault
 *            within two windows of the file's last fault multiplies the
 *            window by 4 below a sixteenth of the kernel's order and by 2
 *            above, up to that order; any other starts again at 4 pages
 * Lab only.  The ramp's states sit in a fixed table indexed by a hash of
 * the struct file pointer: nothing is allocated on the fault path; a
 * collision, or a freed file's pointer reused, costs a state; the pointer
 * is never followed.
 */
#include <kunit/visibility.h>
#include <linux/hash.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "faultaround.h"

#define MFA_RAMP_BITS	10
#define MFA_RAMP_START	2	/* 4 pages: the kernel policy's start too */

/* A file's ramp: its order plus one (low byte), its last fault's index. */
struct mfa_ramp {
	unsigned long file;	/* the key, a struct file pointer */
	u64 state;
};

static struct mfa_ramp mfa_ramps[1 << MFA_RAMP_BITS];
static enum mfa_policy mfa_baseline_now;	/* MFA_POLICY_OFF: none */
static DEFINE_MUTEX(mfa_baseline_lock);

/**
 * mfa_ramp_step - the ramp's order after a fault
 * @state: the file's ramp state, 0 before its first fault
 * @index: the faulting page's index in the file
 * @max: the most it may map: the kernel's order
 *
 * Return: the order for this fault, at most @max.
 */
unsigned int mfa_ramp_step(u64 state, pgoff_t index, unsigned int max)
{
	unsigned int order = state & 0xff;
	u32 d = (u32)index - (u32)(state >> 32);

	if (!order--)
		return min(MFA_RAMP_START, max);
	if (!d)		/* the same page: a retry says nothing */
		return min(order, max);
	if (d < 2U << order || -d < 2U << order)
		return min(order + (order + 4 < max ? 2 : 1), max);
	return min(MFA_RAMP_START, max);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ramp_step);

/* The ramp state after a fault at @index mapped at @order. */
u64 mfa_ramp_state(unsigned int order, pgoff_t index)
{
	return (u64)(u32)index << 32 | (order + 1);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ramp_state);

static unsigned int mfa_ramp(struct vm_area_struct *vma, unsigned long address,
			     unsigned int max)
{
	unsigned long file = (unsigned long)vma->vm_file;
	struct mfa_ramp *r = &mfa_ramps[hash_long(file, MFA_RAMP_BITS)];
	pgoff_t index = linear_page_index(vma, address);
	bool mine = READ_ONCE(r->file) == file;
	u64 state = mine ? READ_ONCE(r->state) : 0;
	unsigned int order = mfa_ramp_step(state, index, max);
	u64 next = mfa_ramp_state(order, index);

	/*
	 * Racy, as the kernel's own state: a race loses a step.  Each word
	 * is stored only when it changes (the file's, once; the state, not
	 * on a retry), as the kernel's policy stores its state.
	 */
	if (!mine)
		WRITE_ONCE(r->file, file);
	if (next != state)
		WRITE_ONCE(r->state, next);
	return order;
}

/* From the policy hook, under RCU: the baseline's order, else @order. */
unsigned int mfa_baseline_order(struct vm_area_struct *vma,
				unsigned long address, unsigned int order)
{
	/* Acquire: a ramp published after its table was cleared. */
	switch (smp_load_acquire(&mfa_baseline_now)) {
	case MFA_POLICY_MADVISE:
		return vma->vm_flags & VM_RAND_READ ? 0 : order;
	case MFA_POLICY_RAMP:
		return vma->vm_file ? mfa_ramp(vma, address, order) : order;
	default:
		return order;
	}
}

/* The baseline in use, or MFA_POLICY_OFF. */
enum mfa_policy mfa_baseline(void)
{
	return READ_ONCE(mfa_baseline_now);
}

/*
 * Switch to @policy: the kernel's adaptive policy (ADAPTIVE), a baseline
 * (MADVISE or RAMP: the kernel's policy off, the hook held while one is
 * in use), or neither (OFF).  One writer at a time, so that the two never
 * run together.  The ramp starts from an empty table, cleared while no
 * fault can be in it.  On an error nothing changed.
 */
int mfa_baseline_set(enum mfa_policy policy)
{
	bool use = policy == MFA_POLICY_MADVISE || policy == MFA_POLICY_RAMP;
	int err = 0;

	mutex_lock(&mfa_baseline_lock);
	if (use && mfa_baseline_now == MFA_POLICY_OFF)
		err = mfa_hook_get();
	if (!err) {
		bool had = mfa_baseline_now != MFA_POLICY_OFF;

		WRITE_ONCE(mfa_baseline_now, MFA_POLICY_OFF);
		fault_around_set_adaptive(policy == MFA_POLICY_ADAPTIVE);
		if (policy == MFA_POLICY_RAMP) {
			synchronize_rcu();	/* no fault left in the table */
			memset(mfa_ramps, 0, sizeof(mfa_ramps));
		}
		if (use) {
			/* Release: the cleared table before the ramp reads it. */
			smp_store_release(&mfa_baseline_now, policy);
		} else if (had) {
			mfa_hook_put();
		}
	}
	mutex_unlock(&mfa_baseline_lock);
	return err;
}

/* At unload: a baseline ends; the kernel's policy stays as it is. */
void mfa_baseline_exit(void)
{
	mutex_lock(&mfa_baseline_lock);
	if (mfa_baseline_now != MFA_POLICY_OFF) {
		WRITE_ONCE(mfa_baseline_now, MFA_POLICY_OFF);
		mfa_hook_put();
	}
	mutex_unlock(&mfa_baseline_lock);
}
