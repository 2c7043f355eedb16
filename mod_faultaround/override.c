// SPDX-License-Identifier: GPL-2.0
/*
 * The overrides: set, remove and list them.  Each belongs to one VMA, as
 * an madvise() hint does: the kernel tells the policy of each VMA it
 * copies (a split, mremap()'s move, fork()) and frees, and the override
 * follows the copies and goes with the VMA.  Removing all of them
 * allocates nothing, so unload cannot fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>
#include <linux/userfaultfd_k.h>
#include <linux/workqueue.h>

#include "faultaround.h"

static struct mfa_overrides mfa_ovs;
/*
 * Serializes getting and putting the hook (a static-key flip).  Never held
 * across a target's mmap lock, which the target can hold for as long as it
 * likes (a read of its own /proc/self/mem over a FUSE file it never
 * answers): one stalled target must not stall every other write.
 */
static DEFINE_MUTEX(mfa_lock);
/* The overrides use the hook (mfa_hook_get()) while there are any. */
static bool mfa_registered;
/* Sets between taking the hook and publishing their override. */
static unsigned int mfa_setting;

/* Under mfa_lock: no override left or coming, so no use of the hook. */
static void mfa_unregister_if_idle(void)
{
	lockdep_assert_held(&mfa_lock);
	if (mfa_registered && !mfa_setting && !READ_ONCE(mfa_ovs.nr)) {
		mfa_hook_put();
		mfa_registered = false;
	}
}

/*
 * Hold the hook for a set, before its mmap lock: registered first, as
 * nothing is published yet, so that a fault sees no override, and counts
 * nothing, until there is one.
 */
static int mfa_set_begin(const char **why)
{
	int err = mutex_lock_killable(&mfa_lock);

	if (err)
		return err;
	if (!mfa_registered) {
		err = mfa_hook_get();
		if (err) {
			*why = "another fault-around policy is registered";
			goto out;
		}
		mfa_registered = true;
	}
	mfa_setting++;
out:
	mutex_unlock(&mfa_lock);
	return err;
}

/* The end of a set or a removal: the hook goes with the last override. */
static void mfa_write_end(bool setting)
{
	/* No holder of mfa_lock waits on a target: no need to be killable. */
	mutex_lock(&mfa_lock);
	mfa_setting -= setting;
	mfa_unregister_if_idle();
	mutex_unlock(&mfa_lock);
}

/* The last override went with its VMA, in a hook that cannot sleep. */
static void mfa_idle_fn(struct work_struct *work)
{
	mutex_lock(&mfa_lock);
	mfa_unregister_if_idle();
	mutex_unlock(&mfa_lock);
}

static DECLARE_WORK(mfa_idle_work, mfa_idle_fn);

/* How many overrides there are: read without a lock. */
unsigned int mfa_overrides_nr(void)
{
	return READ_ONCE(mfa_ovs.nr);
}

/* The override of @vma, or NULL; under RCU, from the fault path. */
struct mfa_override *mfa_overrides_find(const struct vm_area_struct *vma)
{
	return mfa_ovs_find(&mfa_ovs, vma);
}

/**
 * mfa_overrides_vma_free - drop the override of a VMA that the kernel frees
 * @vma: the VMA
 *
 * From the policy's ->vma_free(), under RCU.
 */
void mfa_overrides_vma_free(struct vm_area_struct *vma)
{
	if (READ_ONCE(mfa_ovs.nr) && mfa_ovs_remove(&mfa_ovs, vma) &&
	    !READ_ONCE(mfa_ovs.nr))
		schedule_work(&mfa_idle_work);
}

/**
 * mfa_overrides_vma_dup - copy the override of a VMA that the kernel copies
 * @orig: the VMA
 * @new: its copy
 *
 * From the policy's ->vma_dup(), under RCU and the mmap lock: no sleeping.
 * Never fails the copy: MFA_MAX_COPIES bounds the memory, not a cgroup's
 * limit, which a charge that cannot wait would fail at (a page-cache
 * heavy cgroup sits there), failing a fork() or an mremap().
 *
 * Return: 0.
 */
int mfa_overrides_vma_dup(const struct vm_area_struct *orig,
			  struct vm_area_struct *new)
{
	if (READ_ONCE(mfa_ovs.nr))
		mfa_ovs_dup(&mfa_ovs, orig, new, MFA_MAX_COPIES,
			    GFP_NOWAIT | __GFP_NOWARN);
	return 0;
}

/* The copies of overridden VMAs not made since load. */
unsigned long mfa_overrides_uncopied(void)
{
	return READ_ONCE(mfa_ovs.uncopied);
}

/* A file VMA that faults around, or why not. */
static int mfa_vma_usable(struct vm_area_struct *vma, const char **why)
{
	if (!vma) {
		*why = "no mapping at that address";
		return -ENOENT;
	}
	if (!vma->vm_file) {
		*why = "the mapping has no file, so it never faults around";
		return -EINVAL;
	}
	if (!vma->vm_ops || !vma->vm_ops->map_pages) {
		/* Accepted, it would never apply: say so instead. */
		*why = "the mapping's file has no ->map_pages(), so it never faults around";
		return -EINVAL;
	}
	if (uffd_disable_fault_around(vma)) {
		*why = "userfaultfd watches the mapping, so it never faults around";
		return -EINVAL;
	}
	return 0;
}

/**
 * mfa_set - give the VMA at @addr in @mm the order @order
 * @mm: the process's mm, which the caller holds (mmget())
 * @addr: an address in the VMA, tagged or not
 * @order: the order
 * @why: set to the reason, on some errors
 *
 * Replaces the VMA's override if it has one.  The VMAs it is later split,
 * moved or forked into keep it; a VMA the kernel merges it with takes the
 * override of the one the kernel keeps.  A VMA that userfaultfd comes to
 * watch later keeps its override, which then decides nothing: the kernel
 * does not fault around there.
 *
 * Return: 0, or -ENOENT (no VMA at @addr), -EINVAL (no file behind it, one
 * without ->map_pages(), or one userfaultfd watches so that it never
 * faults around), -ENOSPC, -EBUSY (another policy is registered), -ENOMEM
 * or -EINTR; on error nothing changed.
 */
int mfa_set(struct mm_struct *mm, unsigned long addr, unsigned int order,
	    const char **why)
{
	struct mfa_override *ov, *old = NULL;
	struct vm_area_struct *vma;
	int err;

	ov = mfa_ov_alloc(NULL, order, GFP_KERNEL_ACCOUNT);
	if (!ov)
		return -ENOMEM;
	err = mfa_set_begin(why);
	if (err)
		goto free;
	/*
	 * Copies of VMAs take the mmap lock for writing, and so do frees of
	 * the VMAs that vma_lookup() can find.
	 */
	err = mmap_read_lock_killable(mm);
	if (err)
		goto out;
	/* A tagged pointer (arm64's top byte, x86's LAM) names its VMA too. */
	addr = untagged_addr_remote(mm, addr);
	vma = vma_lookup(mm, addr);
	err = mfa_vma_usable(vma, why);
	if (!err) {
		ov->vn.vma = vma;
		old = mfa_ovs_set(&mfa_ovs, ov, MFA_MAX_OVERRIDES);
		if (IS_ERR(old)) {
			*why = "there are the overrides of "
			       __stringify(MFA_MAX_OVERRIDES) " writes already";
			err = PTR_ERR(old);
			old = NULL;
		} else {
			ov = NULL;
		}
	}
	mmap_read_unlock(mm);
	if (old)
		mfa_ov_put(old);
out:
	mfa_write_end(true);
free:
	if (ov)
		mfa_ov_free(ov);
	return err;
}

/**
 * mfa_default - remove the override of the VMA at @addr in @mm
 * @mm: the process's mm, which the caller holds
 * @addr: an address in the VMA
 * @why: set to the reason, on some errors
 *
 * Return: 0, or -ENOENT (no mapping, or no override there) or -EINTR; on
 * error nothing changed.
 */
int mfa_default(struct mm_struct *mm, unsigned long addr, const char **why)
{
	struct vm_area_struct *vma;
	int err = 0;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	vma = vma_lookup(mm, untagged_addr_remote(mm, addr));
	if (!vma) {
		*why = "no mapping at that address";
		err = -ENOENT;
	} else if (!mfa_ovs_remove(&mfa_ovs, vma)) {
		*why = "no override at that address";
		err = -ENOENT;
	}
	mmap_read_unlock(mm);
	if (!err)
		mfa_write_end(false);
	return err;
}

/**
 * mfa_clear - remove every override
 *
 * Allocates nothing, so it cannot fail: unload relies on that.
 */
void mfa_clear(void)
{
	mutex_lock(&mfa_lock);
	mfa_ovs_clear(&mfa_ovs);
	mfa_unregister_if_idle();
	mutex_unlock(&mfa_lock);
}

/* An mm with overrides, and the pid it is listed under. */
struct mfa_mm_pid {
	struct mm_struct *mm;
	pid_t nr;
};

static int mfa_mm_cmp(const void *a, const void *b)
{
	const struct mm_struct *x = ((const struct mfa_mm_pid *)a)->mm;
	const struct mm_struct *y = ((const struct mfa_mm_pid *)b)->mm;

	return x < y ? -1 : x > y;
}

/*
 * The mms of the overrides into @mms, each with a reference (mmgrab()),
 * sorted and without duplicates; how many.  @mms has room for
 * MFA_MAX_HASHED, as many as the hash ever holds.
 */
static int mfa_mms(struct mfa_mm_pid *mms)
{
	struct mfa_override *ov;
	int n = 0, i, j, b;

	spin_lock(&mfa_ovs.lock);
	for (b = 0; b < ARRAY_SIZE(mfa_ovs.hash); b++) {
		hlist_for_each_entry(ov, &mfa_ovs.hash[b], vn.node) {
			if (WARN_ON_ONCE(n == MFA_MAX_HASHED))
				break;
			/*
			 * Its VMA lives while it is hashed, and so its mm;
			 * fork() sets a copy's after the copy is hashed.
			 */
			mms[n].mm = data_race(ov->vn.vma->vm_mm);
			mmgrab(mms[n++].mm);
		}
	}
	spin_unlock(&mfa_ovs.lock);
	sort(mms, n, sizeof(*mms), mfa_mm_cmp, NULL);
	for (i = 0, j = 0; i < n; i++) {
		if (j && mms[j - 1].mm == mms[i].mm) {
			mmdrop(mms[i].mm);
			continue;
		}
		mms[j].mm = mms[i].mm;
		mms[j++].nr = 0;
	}
	return j;
}

/*
 * The pid, in the reader's namespace, of each of the @n mms' process: a
 * thread group whose live thread has it, not a vfork() child or a kernel
 * thread that borrows it; 0 if none.  One walk over the reader's pids,
 * one RCU section each with a resched point between, as /proc's readdir
 * walks them: for_each_process() in one section held off grace periods
 * and the CPU for as long as the process list is.
 */
static void mfa_pids(struct mfa_mm_pid *mms, int n)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct mfa_mm_pid key, *found;
	struct task_struct *p, *t;
	struct pid *pid;
	int nr;

	for (nr = 1; ; nr++) {
		rcu_read_lock();
		pid = find_ge_pid(nr, ns);
		if (!pid) {
			rcu_read_unlock();
			break;
		}
		nr = pid_nr_ns(pid, ns);
		p = pid_task(pid, PIDTYPE_TGID);
		if (p && !(p->flags & PF_KTHREAD) && !in_vfork(p)) {
			/* A leader that exited before its threads has no mm. */
			key.mm = NULL;
			for_each_thread(p, t) {
				key.mm = READ_ONCE(t->mm);
				if (key.mm)
					break;
			}
			found = key.mm ? bsearch(&key, mms, n, sizeof(*mms),
						 mfa_mm_cmp) : NULL;
			if (found && !found->nr)
				found->nr = nr;
		}
		rcu_read_unlock();
		cond_resched();
	}
}

/* List the overrides of @mm's VMAs, as the process @nr. */
static void mfa_show_mm(struct seq_file *m, struct mm_struct *mm, pid_t nr)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;
	struct mfa_override *ov;

	if (!mmget_not_zero(mm))
		return;
	if (!mmap_read_lock_killable(mm)) {
		for_each_vma(vmi, vma) {
			rcu_read_lock();
			ov = mfa_ovs_find(&mfa_ovs, vma);
			if (ov)
				seq_printf(m, "%d %lx-%lx %u %llu %lx-%lx\n", nr,
					   vma->vm_start, vma->vm_end,
					   ov->o->order, mfa_hits_of(ov->o),
					   vma->vm_pgoff,
					   vma->vm_pgoff + vma_pages(vma));
			rcu_read_unlock();
		}
		mmap_read_unlock(mm);
	}
	mmput(mm);
}

/**
 * mfa_show - list the overrides, one per line
 * @m: where to
 *
 * "<pid> <start>-<end> <order> <hits> <first page>-<page after last>":
 * the process (its pid in the reader's namespace; one outside it is not
 * listed), its VMA, the order, the faults it decided (with those of the
 * VMAs it was split, moved or forked into, which share them), and the
 * page offsets in the file that the VMA maps.  A VMA being copied by
 * fork() may be missing from a read that runs beside it.  Costs
 * O(overrides log overrides + processes log mms + the mms' VMAs), and
 * an mmap lock per mm, outside the module's locks.
 *
 * Return: 0, or -ENOMEM.
 */
int mfa_show(struct seq_file *m)
{
	struct mfa_mm_pid *mms;
	int n, i;

	if (!READ_ONCE(mfa_ovs.nr))
		return 0;
	mms = kvmalloc_array(MFA_MAX_HASHED, sizeof(*mms), GFP_KERNEL);
	if (!mms)
		return -ENOMEM;
	n = mfa_mms(mms);
	mfa_pids(mms, n);
	for (i = 0; i < n; i++) {
		cond_resched();
		if (mms[i].nr && !fatal_signal_pending(current))
			mfa_show_mm(m, mms[i].mm, mms[i].nr);
		mmdrop(mms[i].mm);
	}
	kvfree(mms);
	return 0;
}

void mfa_overrides_init(void)
{
	mfa_ovs_init(&mfa_ovs);
}

/**
 * mfa_overrides_exit - remove every override, for unload
 *
 * Once the overrides' registration goes, no hook runs, so none can
 * schedule the work or free an override after this.
 */
void mfa_overrides_exit(void)
{
	mfa_clear();
	cancel_work_sync(&mfa_idle_work);
	/* The removed overrides' RCU callbacks. */
	rcu_barrier();
}
