// SPDX-License-Identifier: GPL-2.0
/*
 * The override table: a sorted array, replaced as a whole on every change
 * so that the fault path can binary-search it under RCU without a lock.
 */
#include <linux/err.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "faultaround.h"

/* Order overrides by mm, then by address; an address inside one is equal. */
static int fa_cmp(const struct mm_struct *mm, unsigned long addr,
		  const struct fa_override *ov)
{
	if (mm != ov->mm)
		return (unsigned long)mm < (unsigned long)ov->mm ? -1 : 1;
	if (addr < ov->start)
		return -1;
	return addr >= ov->end ? 1 : 0;
}

/**
 * fa_table_lookup - the override of @mm that covers @addr
 * @t: the table, or NULL when there is none
 * @mm: the faulting mm
 * @addr: the faulting address
 *
 * Does not sleep and takes no lock: O(log n) comparisons.
 *
 * Return: the override, or NULL.
 */
struct fa_override *fa_table_lookup(const struct fa_table *t,
				    const struct mm_struct *mm,
				    unsigned long addr)
{
	unsigned int lo = 0, hi = t ? t->nr : 0;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = fa_cmp(mm, addr, t->ov[mid]);

		if (!c)
			return t->ov[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool fa_overlaps(const struct fa_override *a,
			const struct fa_override *b)
{
	return a->mm == b->mm && a->start < b->end && b->start < a->end;
}

static struct fa_table *fa_table_alloc(unsigned int nr)
{
	struct fa_table *t;

	if (!nr)
		return NULL;	/* an empty table is no table */
	t = kmalloc(struct_size(t, ov, nr), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->nr = nr;
	return t;
}

/**
 * fa_table_set - a copy of @t with @ov in it
 * @t: the current table, or NULL
 * @ov: the new override
 * @limit: the most overrides the new table may hold
 * @dead: where the overrides that @ov replaces (same mm, overlapping
 *	range) are added
 *
 * Return: the new table, or ERR_PTR(-ENOSPC) beyond @limit or
 * ERR_PTR(-ENOMEM), in which case @dead is untouched.
 */
struct fa_table *fa_table_set(const struct fa_table *t,
			      struct fa_override *ov, unsigned int limit,
			      struct list_head *dead)
{
	unsigned int i, j = 0, kept = 0, nr = t ? t->nr : 0;
	struct fa_table *new;
	bool placed = false;

	for (i = 0; i < nr; i++)
		kept += !fa_overlaps(t->ov[i], ov);
	if (kept + 1 > limit)
		return ERR_PTR(-ENOSPC);
	new = fa_table_alloc(kept + 1);
	if (IS_ERR(new))
		return new;

	for (i = 0; i < nr; i++) {
		struct fa_override *o = t->ov[i];

		if (fa_overlaps(o, ov)) {
			list_add_tail(&o->dead, dead);
			continue;
		}
		if (!placed && fa_cmp(ov->mm, ov->start, o) < 0) {
			new->ov[j++] = ov;
			placed = true;
		}
		new->ov[j++] = o;
	}
	if (!placed)
		new->ov[j++] = ov;
	return new;
}

/**
 * fa_table_remove - a copy of @t without the overrides @match selects
 * @t: the current table, or NULL
 * @match: selects the overrides to remove
 * @arg: passed to @match
 * @dead: where the removed overrides are added
 *
 * Return: the new table (NULL if empty), ERR_PTR(-ENOENT) if @match
 * selected nothing, or ERR_PTR(-ENOMEM); on error @dead is untouched.
 */
struct fa_table *fa_table_remove(const struct fa_table *t,
				 bool (*match)(struct fa_override *ov,
					       void *arg),
				 void *arg, struct list_head *dead)
{
	unsigned int i, j = 0, nr = t ? t->nr : 0;
	struct fa_table *new;
	LIST_HEAD(removed);

	/*
	 * One pass, into a table of the old size: @match may look at state
	 * that changes under us (an mm exiting), so it is asked only once.
	 */
	new = fa_table_alloc(nr);
	if (!new)
		return ERR_PTR(-ENOENT);
	if (IS_ERR(new))
		return new;
	for (i = 0; i < nr; i++) {
		if (match(t->ov[i], arg))
			list_add_tail(&t->ov[i]->dead, &removed);
		else
			new->ov[j++] = t->ov[i];
	}
	if (j == nr) {
		kfree(new);
		return ERR_PTR(-ENOENT);
	}
	list_splice_tail(&removed, dead);
	new->nr = j;
	if (!j) {
		kfree(new);
		return NULL;
	}
	return new;
}
