// SPDX-License-Identifier: GPL-2.0
/*
 * The overrides: set, remove and list them, follow each one's mapping
 * through mremap() and VMA splits, drop it when the mapping goes, and
 * free it.  Removing all of them allocates nothing, so unload cannot fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <linux/workqueue.h>

#include "faultaround.h"

struct fa_table __rcu *fa_table;
/* Serializes table updates and (un)registration of the policy. */
static DEFINE_MUTEX(fa_lock);
/* The overrides use the policy (fa_policy_get()) while there are any. */
static bool fa_registered;

static struct fa_table *fa_current(void)
{
	return rcu_dereference_protected(fa_table, lockdep_is_held(&fa_lock));
}

static void fa_mn_put(struct fa_mn *m);

/* Free an override that no fault and no notifier can see any more. */
static void fa_free_now(struct fa_override *ov)
{
	if (ov->file)
		fput(ov->file);
	if (ov->mn)
		fa_mn_put(ov->mn);
	put_pid(ov->pid);
	free_percpu(ov->hits);
	kfree(ov);
}

/*
 * Removed overrides are freed without waiting in the writer: an RCU
 * callback hands them to a work item, because fput() and
 * fa_mn_put() want process context.  A write then costs no grace
 * period, which matters to a script that sets hundreds of overrides.
 */
static LLIST_HEAD(fa_free_list);

static void fa_free_fn(struct work_struct *work)
{
	struct fa_override *ov, *tmp;

	llist_for_each_entry_safe(ov, tmp, llist_del_all(&fa_free_list), free)
		fa_free_now(ov);
}

static DECLARE_WORK(fa_free_work, fa_free_fn);

static void fa_free_rcu(struct rcu_head *rcu)
{
	struct fa_override *ov = container_of(rcu, struct fa_override, rcu);

	if (llist_add(&ov->free, &fa_free_list))
		schedule_work(&fa_free_work);
}

/*
 * Install @new (NULL when empty) in place of the current table, then free
 * the old one and @dead once no fault can see them.  The policy stays
 * registered only while overrides exist, so an idle module costs nothing.
 */
static void fa_replace(struct fa_table *new, struct list_head *dead)
{
	struct fa_override *ov, *tmp;
	struct fa_table *old;

	lockdep_assert_held(&fa_lock);
	old = rcu_replace_pointer(fa_table, new, lockdep_is_held(&fa_lock));
	if (!new && fa_registered) {
		fa_policy_put();
		fa_registered = false;
	}
	if (old)
		kfree_rcu(old, rcu);
	list_for_each_entry_safe(ov, tmp, dead, dead)
		call_rcu(&ov->rcu, fa_free_rcu);
}

/* Remove the overrides @match selects; -ENOENT if there are none. */
static int fa_remove_locked(bool (*match)(struct fa_override *, void *),
			    void *arg)
{
	struct fa_table *new;
	LIST_HEAD(dead);

	new = fa_table_remove(fa_current(), match, arg, &dead);
	if (IS_ERR(new))
		return PTR_ERR(new);
	fa_replace(new, &dead);
	return 0;
}

static bool fa_match_gone(struct fa_override *ov, void *arg)
{
	return READ_ONCE(ov->gone);
}

/* Take the overrides whose mapping went out of the table. */
static void fa_prune_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fa_prune_work, fa_prune_fn);

static void fa_prune_fn(struct work_struct *work)
{
	int err;

	mutex_lock(&fa_lock);
	err = fa_remove_locked(fa_match_gone, NULL);
	mutex_unlock(&fa_lock);
	/* Faults already ignore them: on -ENOMEM, try again later. */
	if (err == -ENOMEM)
		schedule_delayed_work(&fa_prune_work, HZ);
}

/* Mark @ov's mapping gone; true if it was not marked yet. */
static bool fa_mark_gone(struct fa_override *ov)
{
	if (READ_ONCE(ov->gone))
		return false;
	WRITE_ONCE(ov->gone, true);
	return true;
}

/*
 * After an unmap of [@start, @end) in @mm (or, with @start == @end,
 * whenever), mark the overrides whose mapping is gone.  A mapping is
 * still there while some VMA maps some of its pages outside the range:
 * munmap() takes its VMAs out of the tree before it calls the notifiers,
 * mremap() inserts the new VMA before it moves the page tables, and
 * mmap(MAP_FIXED) replaces the VMAs of the range it unmaps.  The caller
 * holds the mmap lock, so that the VMAs do not change under us.  One
 * walk over the mm's VMAs.
 */
static void fa_mm_check(struct mm_struct *mm, unsigned long start,
			unsigned long end)
{
	VMA_ITERATOR(vmi, mm, 0);
	DECLARE_BITMAP(seen, FA_MAX_OVERRIDES);
	unsigned int first, last, i;
	struct vm_area_struct *vma;
	const struct fa_table *t;
	bool prune = false;

	mmap_assert_locked(mm);
	rcu_read_lock();
	t = rcu_dereference(fa_table);
	fa_table_mm(t, mm, &first, &last);
	/* fa_table_set() never makes a table larger than that. */
	if (first == last || WARN_ON_ONCE(last - first > FA_MAX_OVERRIDES))
		goto out;

	bitmap_zero(seen, last - first);
	for_each_vma(vmi, vma)
		if (vma->vm_file)
			fa_table_keep(t, first, last, vma->vm_file,
				      vma->vm_pgoff, vma->vm_start,
				      vma->vm_end, start, end, seen);
	for (i = first; i < last; i++)
		if (!test_bit(i - first, seen))
			prune |= fa_mark_gone(t->slot[i].ov);
	if (prune)
		mod_delayed_work(system_wq, &fa_prune_work, 0);
out:
	rcu_read_unlock();
}

static int fa_mn_invalidate_range_start(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	/* munmap(), mremap() and MAP_FIXED; not reclaim, migration etc. */
	if (range->event == MMU_NOTIFY_UNMAP)
		fa_mm_check(range->mm, range->start, range->end);
	return 0;
}

/* The mm is going: so are its overrides, without a poll. */
static void fa_mn_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	unsigned int first, last, i;
	const struct fa_table *t;
	bool prune = false;

	/* The last override went: a newer one may have its own notifier. */
	if (READ_ONCE(container_of(mn, struct fa_mn, mn)->unregistering))
		return;
	rcu_read_lock();
	t = rcu_dereference(fa_table);
	fa_table_mm(t, mm, &first, &last);
	for (i = first; i < last; i++)
		prune |= fa_mark_gone(t->slot[i].ov);
	if (prune)
		mod_delayed_work(system_wq, &fa_prune_work, 0);
	rcu_read_unlock();
}

static const struct mmu_notifier_ops fa_mn_ops = {
	.release = fa_mn_release,
	.invalidate_range_start = fa_mn_invalidate_range_start,
};

/*
 * One notifier per mm with overrides, shared by them and counted here:
 * the last put unregisters it, which waits for its callbacks, and frees
 * it.  mmu_notifier_put() would free it from an SRCU callback, through
 * ->free_notifier(): module code that could run after unload.
 */
static LIST_HEAD(fa_mns);
static DEFINE_MUTEX(fa_mn_lock);	/* nests inside the mmap lock */

/* @mm's notifier, registered if new; the caller holds the mmap lock. */
static struct fa_mn *fa_mn_get(struct mm_struct *mm)
{
	struct fa_mn *m;
	int err;

	mmap_assert_write_locked(mm);
	mutex_lock(&fa_mn_lock);
	list_for_each_entry(m, &fa_mns, node) {
		if (m->mn.mm == mm) {
			m->users++;
			goto out;
		}
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		m = ERR_PTR(-ENOMEM);
		goto out;
	}
	m->mn.ops = &fa_mn_ops;
	m->users = 1;
	err = __mmu_notifier_register(&m->mn, mm);
	if (err) {
		kfree(m);
		m = ERR_PTR(err);
		goto out;
	}
	list_add(&m->node, &fa_mns);
out:
	mutex_unlock(&fa_mn_lock);
	return m;
}

/* Drop a user of @m; the last one unregisters and frees it. */
static void fa_mn_put(struct fa_mn *m)
{
	bool last;

	mutex_lock(&fa_mn_lock);
	last = !--m->users;
	if (last)
		list_del(&m->node);
	mutex_unlock(&fa_mn_lock);
	if (!last)
		return;
	/* Unregistering calls ->release(), for an mm that is not going. */
	WRITE_ONCE(m->unregistering, true);
	mmu_notifier_unregister(&m->mn, m->mn.mm);
	kfree(m);
}

/**
 * fa_set - give the mapping at @addr in @mm the order @order
 * @mm: the process's mm, which the caller holds (mmget())
 * @pid: the process, for the listing; the override takes a reference
 * @addr: an address in the mapping
 * @order: the order
 * @why: set to the reason, on some errors
 *
 * The override covers the pages of the file that the VMA at @addr maps,
 * and replaces the overrides of this mm that cover any of them.
 *
 * Return: 0, or -ENOENT (no VMA at @addr), -EINVAL (no file behind it, or
 * one without ->map_pages()), -ENOSPC, -EBUSY (another policy is
 * registered), -ENOMEM or -EINTR; on error nothing changed.
 */
int fa_set(struct mm_struct *mm, struct pid *pid, unsigned long addr,
	   unsigned int order, const char **why)
{
	struct vm_area_struct *vma;
	struct fa_override *ov;
	struct fa_table *new;
	LIST_HEAD(dead);
	int err = 0;

	ov = kzalloc(sizeof(*ov), GFP_KERNEL);
	if (!ov)
		return -ENOMEM;
	ov->hits = alloc_percpu(u64_stats_t);
	if (!ov->hits) {
		err = -ENOMEM;
		goto out;
	}
	/* Look first: the notifier costs a lock of everything, once per mm. */
	if (mmap_write_lock_killable(mm)) {
		err = -EINTR;
		goto out;
	}
	vma = vma_lookup(mm, addr);
	if (!vma) {
		*why = "no mapping at that address";
		err = -ENOENT;
	} else if (!vma->vm_file) {
		*why = "the mapping has no file, so it never faults around";
		err = -EINVAL;
	} else if (!vma->vm_ops || !vma->vm_ops->map_pages) {
		/* Accepted, it would never apply: say so instead. */
		*why = "the mapping's file has no ->map_pages(), so it never faults around";
		err = -EINVAL;
	} else {
		ov->key.mm = mm;
		ov->key.file = vma->vm_file;
		ov->key.start = vma->vm_pgoff;
		ov->key.end = vma->vm_pgoff + vma_pages(vma);
		ov->file = get_file(vma->vm_file);
		ov->mn = fa_mn_get(mm);
		if (IS_ERR(ov->mn)) {
			err = PTR_ERR(ov->mn);
			ov->mn = NULL;
		}
	}
	mmap_write_unlock(mm);
	if (err)
		goto out;
	ov->order = order;
	ov->pid = get_pid(pid);

	mutex_lock(&fa_lock);
	new = fa_table_set(fa_current(), ov, FA_MAX_OVERRIDES, &dead);
	if (IS_ERR(new)) {
		err = PTR_ERR(new);
		if (err == -ENOSPC)
			*why = "there are " __stringify(FA_MAX_OVERRIDES) " overrides already";
		goto out_unlock;
	}
	/*
	 * The policy last, once nothing else can fail: faults that a failed
	 * first write let through it would move the statistics.
	 */
	if (!fa_registered) {
		err = fa_policy_get();
		if (err) {
			*why = "another fault-around policy is registered";
			kfree(new);	/* never published; @dead stays in use */
			goto out_unlock;
		}
		fa_registered = true;
	}
	fa_replace(new, &dead);
out_unlock:
	mutex_unlock(&fa_lock);
	if (!err) {
		/*
		 * An unmap since the lookup above did not see @ov: look now.
		 * If the mapping went meanwhile, the write still succeeds and
		 * the override is gone at once.  Killed, skip: the next unmap
		 * or the exit looks.
		 */
		if (!mmap_read_lock_killable(mm)) {
			fa_mm_check(mm, 0, 0);
			mmap_read_unlock(mm);
		}
		return 0;
	}
out:
	fa_free_now(ov);
	return err;
}

struct fa_where {
	const struct mm_struct *mm;
	const struct file *file;
	pgoff_t pgoff;
};

static bool fa_match_where(struct fa_override *ov, void *arg)
{
	const struct fa_where *w = arg;

	return ov->key.mm == w->mm && ov->key.file == w->file &&
	       w->pgoff >= ov->key.start && w->pgoff < ov->key.end;
}

/**
 * fa_default - remove the override of the page mapped at @addr in @mm
 * @mm: the process's mm, which the caller holds
 * @addr: an address in the mapping
 * @why: set to the reason, on some errors
 *
 * Return: 0, or -ENOENT (no mapping, or no override there), -ENOMEM or
 * -EINTR; on error nothing changed.
 */
int fa_default(struct mm_struct *mm, unsigned long addr, const char **why)
{
	struct fa_where w = { .mm = mm };
	struct vm_area_struct *vma;
	int err;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = vma_lookup(mm, addr);
	if (vma) {
		/* Only compared, never followed: no reference needed. */
		w.file = vma->vm_file;
		w.pgoff = linear_page_index(vma, addr);
	}
	mmap_read_unlock(mm);
	if (!vma || !w.file) {
		*why = "no file mapping at that address";
		return -ENOENT;
	}
	mutex_lock(&fa_lock);
	err = fa_remove_locked(fa_match_where, &w);
	mutex_unlock(&fa_lock);
	if (err == -ENOENT)
		*why = "no override at that address";
	return err;
}

/**
 * fa_clear - remove every override
 *
 * Allocates nothing (call_rcu(), and kfree_rcu() with an rcu_head), so it
 * cannot fail: unload relies on that.
 */
void fa_clear(void)
{
	struct fa_table *t;
	LIST_HEAD(dead);
	unsigned int i;

	mutex_lock(&fa_lock);
	t = fa_current();
	for (i = 0; t && i < t->nr; i++)
		list_add_tail(&t->slot[i].ov->dead, &dead);
	fa_replace(NULL, &dead);
	mutex_unlock(&fa_lock);
}

/* Where @ov's mm maps its pages now: the lowest and highest address. */
static void fa_span(const struct fa_override *ov, unsigned long *lo,
		    unsigned long *hi)
{
	VMA_ITERATOR(vmi, (struct mm_struct *)ov->key.mm, 0);
	struct mm_struct *mm = (struct mm_struct *)ov->key.mm;
	struct vm_area_struct *vma;

	*lo = 0;
	*hi = 0;
	/* The notifier holds the mm_struct; its address space may be gone. */
	if (!mmget_not_zero(mm))
		return;
	if (!mmap_read_lock_killable(mm)) {
		for_each_vma(vmi, vma) {
			pgoff_t s = max(ov->key.start, vma->vm_pgoff);
			pgoff_t e = min(ov->key.end,
					vma->vm_pgoff + vma_pages(vma));

			if (vma->vm_file != ov->key.file || s >= e)
				continue;
			if (!*hi)
				*lo = vma->vm_start +
				      ((s - vma->vm_pgoff) << PAGE_SHIFT);
			*hi = vma->vm_start + ((e - vma->vm_pgoff) << PAGE_SHIFT);
		}
		mmap_read_unlock(mm);
	}
	mmput(mm);
}

/**
 * fa_show - list the overrides, one per line
 * @m: where to
 *
 * "<pid> <start>-<end> <order> <hits> <first page>-<page after last>":
 * the process's pid in the reader's namespace (a process outside it is
 * not listed), the addresses where the process maps the override's pages
 * now (0-0 if nowhere), and the page offsets in its file that the
 * override covers.
 */
void fa_show(struct seq_file *m)
{
	const struct fa_table *t;
	unsigned long lo, hi;
	unsigned int i;

	mutex_lock(&fa_lock);
	t = fa_current();
	for (i = 0; t && i < t->nr; i++) {
		const struct fa_override *ov = t->slot[i].ov;
		pid_t nr = pid_vnr(ov->pid);

		/* Up to 1024 mmap locks: under KCSAN, 21 s stalled RCU. */
		cond_resched();
		/*
		 * Not in the reader's pid namespace, or exited (its number
		 * may be another process's now): not listed.
		 */
		if (READ_ONCE(ov->gone) || !nr ||
		    !pid_has_task(ov->pid, PIDTYPE_TGID))
			continue;
		fa_span(ov, &lo, &hi);
		seq_printf(m, "%d %lx-%lx %u %llu %lx-%lx\n", nr, lo, hi,
			   ov->order, fa_hits_of(ov), ov->key.start,
			   ov->key.end);
	}
	mutex_unlock(&fa_lock);
}

/**
 * fa_overrides_exit - remove every override, for unload
 *
 * fa_clear() allocates nothing, so nothing can keep the policy registered;
 * then wait until no fault, notifier or work item can run module code.
 */
void fa_overrides_exit(void)
{
	fa_clear();
	/* The removed overrides: their RCU callbacks, then their work. */
	rcu_barrier();
	flush_work(&fa_free_work);
	/*
	 * Every notifier is unregistered and freed: fa_mn_put() waited for
	 * its callbacks, and left none to run later.
	 */
	cancel_delayed_work_sync(&fa_prune_work);
}
