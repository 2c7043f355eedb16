// SPDX-License-Identifier: GPL-2.0
/*
 * The override table: a sorted array of keys, replaced as a whole on
 * every change, so that the fault path can binary-search it under RCU
 * without a lock.
 */
#include <kunit/visibility.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "faultaround.h"

/*
 * Where the point (@mm, @file, @pgoff) lies relative to key @k: -1 before
 * it, 0 inside it, 1 after it.  Keys sort by mm, then file, then range.
 */
static int fa_cmp(const struct mm_struct *mm, const struct file *file,
		  pgoff_t pgoff, const struct fa_key *k)
{
	if (mm != k->mm)
		return (unsigned long)mm < (unsigned long)k->mm ? -1 : 1;
	if (file != k->file)
		return (unsigned long)file < (unsigned long)k->file ? -1 : 1;
	if (pgoff < k->start)
		return -1;
	return pgoff >= k->end ? 1 : 0;
}

/* Fill in fa_table.mms once the slots are final. */
static struct fa_table *fa_table_done(struct fa_table *t)
{
	unsigned int i;

	t->mms = 0;
	for (i = 0; i < t->nr; i++)
		t->mms |= fa_mm_bit(t->slot[i].key.mm);
	return t;
}

/* The first slot in [lo, hi) that does not lie wholly before the point. */
static unsigned int fa_lower(const struct fa_table *t, unsigned int lo,
			     unsigned int hi, const struct mm_struct *mm,
			     const struct file *file, pgoff_t pgoff)
{
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (fa_cmp(mm, file, pgoff, &t->slot[mid].key) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * fa_table_lookup - the override for page @pgoff of @file in @mm
 * @t: the table, or NULL when there is none
 * @mm: the faulting mm
 * @file: the file of the faulting VMA
 * @pgoff: the faulting page's offset in @file
 *
 * Does not sleep and takes no lock.  A fault of an mm without overrides
 * usually stops at one test of @t->mms; else O(log n) comparisons of keys
 * in the array, and one pointer followed.
 *
 * Return: the override, or NULL.
 */
struct fa_override *fa_table_lookup(const struct fa_table *t,
				    const struct mm_struct *mm,
				    const struct file *file, pgoff_t pgoff)
{
	unsigned int i, nr = t ? t->nr : 0;

	if (!nr || !(t->mms & fa_mm_bit(mm)))
		return NULL;
	i = fa_lower(t, 0, nr, mm, file, pgoff);
	if (i < nr && !fa_cmp(mm, file, pgoff, &t->slot[i].key))
		return t->slot[i].ov;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(fa_table_lookup);

/**
 * fa_table_mm - the slots of @mm
 * @t: the table, or NULL
 * @mm: the mm
 * @first: set to the index of its first slot
 * @last: set to the index after its last slot
 */
void fa_table_mm(const struct fa_table *t, const struct mm_struct *mm,
		 unsigned int *first, unsigned int *last)
{
	unsigned int lo = 0, hi = t ? t->nr : 0;

	/* The point (mm, NULL, 0) comes before every key of @mm. */
	*first = fa_lower(t, lo, hi, mm, NULL, 0);
	for (lo = *first; lo < hi; ) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (t->slot[mid].key.mm == mm)
			lo = mid + 1;
		else
			hi = mid;
	}
	*last = lo;
}
EXPORT_SYMBOL_IF_KUNIT(fa_table_mm);

/**
 * fa_table_find - the first slot of one mm that may cover @pgoff of @file
 * @t: the table
 * @first: the mm's first slot (fa_table_mm())
 * @last: the slot after its last
 * @file: the file
 * @pgoff: a page offset in @file
 *
 * The slots from the one returned on, while their key is for @file, are
 * those that end after @pgoff, in order.
 *
 * Return: an index in [@first, @last].
 */
unsigned int fa_table_find(const struct fa_table *t, unsigned int first,
			   unsigned int last, const struct file *file,
			   pgoff_t pgoff)
{
	if (first == last)
		return first;
	return fa_lower(t, first, last, t->slot[first].key.mm, file, pgoff);
}
EXPORT_SYMBOL_IF_KUNIT(fa_table_find);

/* Mark in @seen the slots of [first, last) for @file that cover [s, e). */
static void fa_mark(const struct fa_table *t, unsigned int first,
		    unsigned int last, const struct file *file, pgoff_t s,
		    pgoff_t e, unsigned long *seen)
{
	unsigned int i;

	for (i = fa_table_find(t, first, last, file, s);
	     i < last && t->slot[i].key.file == file && t->slot[i].key.start < e;
	     i++)
		__set_bit(i - first, seen);
}

/**
 * fa_table_keep - mark the slots a VMA keeps alive after an unmap
 * @t: the table
 * @first: the mm's first slot (fa_table_mm())
 * @last: the slot after its last
 * @file: the VMA's file
 * @pgoff: its first page's offset in @file
 * @vm_start: its start
 * @vm_end: its end
 * @start: the unmapped range's start
 * @end: its end; @start == @end for no range
 *
 * Sets bit i - @first in @seen for each slot i whose pages the VMA still
 * maps outside [@start, @end).  Only that part counts: mremap() unmaps a
 * range of a VMA before it splits it, and munmap() only after.
 */
void fa_table_keep(const struct fa_table *t, unsigned int first,
		   unsigned int last, const struct file *file, pgoff_t pgoff,
		   unsigned long vm_start, unsigned long vm_end,
		   unsigned long start, unsigned long end, unsigned long *seen)
{
	unsigned long lo = vm_start, hi = vm_end;

	if (start < end && start < vm_end && vm_start < end) {
		/* The part below the range, then the part above it. */
		if (vm_start < start)
			fa_mark(t, first, last, file, pgoff,
				pgoff + ((start - vm_start) >> PAGE_SHIFT), seen);
		if (end >= vm_end)
			return;
		lo = end;
	}
	fa_mark(t, first, last, file, pgoff + ((lo - vm_start) >> PAGE_SHIFT),
		pgoff + ((hi - vm_start) >> PAGE_SHIFT), seen);
}
EXPORT_SYMBOL_IF_KUNIT(fa_table_keep);

static bool fa_overlaps(const struct fa_key *a, const struct fa_key *b)
{
	return a->mm == b->mm && a->file == b->file &&
	       a->start < b->end && b->start < a->end;
}

static struct fa_table *fa_table_alloc(unsigned int nr)
{
	struct fa_table *t;

	if (!nr)
		return NULL;	/* an empty table is no table */
	t = kmalloc(struct_size(t, slot, nr), GFP_KERNEL);
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
 * @dead: where the overrides that leave the table are added: those that
 *	@ov overlaps (same mm and file), and those whose mapping is gone
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
		kept += !fa_overlaps(&t->slot[i].key, &ov->key) &&
			!READ_ONCE(t->slot[i].ov->gone);
	if (kept + 1 > limit)
		return ERR_PTR(-ENOSPC);
	new = fa_table_alloc(kept + 1);
	if (IS_ERR(new))
		return new;

	for (i = 0; i < nr; i++) {
		const struct fa_slot *s = &t->slot[i];

		if (fa_overlaps(&s->key, &ov->key) || READ_ONCE(s->ov->gone)) {
			list_add_tail(&s->ov->dead, dead);
			continue;
		}
		if (!placed && fa_cmp(ov->key.mm, ov->key.file, ov->key.start,
				      &s->key) < 0) {
			new->slot[j].key = ov->key;
			new->slot[j++].ov = ov;
			placed = true;
		}
		new->slot[j++] = *s;
	}
	if (!placed) {
		new->slot[j].key = ov->key;
		new->slot[j++].ov = ov;
	}
	/* Fewer than counted if a mapping went meanwhile: gone stays set. */
	new->nr = j;
	return fa_table_done(new);
}
EXPORT_SYMBOL_IF_KUNIT(fa_table_set);

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
	 * that changes under us (a mapping going), so it is asked only once.
	 */
	new = fa_table_alloc(nr);
	if (!new)
		return ERR_PTR(-ENOENT);
	if (IS_ERR(new))
		return new;
	for (i = 0; i < nr; i++) {
		if (match(t->slot[i].ov, arg))
			list_add_tail(&t->slot[i].ov->dead, &removed);
		else
			new->slot[j++] = t->slot[i];
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
	return fa_table_done(new);
}
EXPORT_SYMBOL_IF_KUNIT(fa_table_remove);
