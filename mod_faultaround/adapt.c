// SPDX-License-Identifier: GPL-2.0
/*
 * The adaptive policy: an order for each mapping from what its own faults
 * show, with its state kept per VMA and dropped with the VMA.
 *
 * A fault that fault-around could have saved is one next to an earlier
 * fault of the mapping: the order goes up one.  A fault with nothing
 * faulted next to it goes down one: pages mapped around it would likely
 * go unread.  A fault in the window of the fault before it goes down one
 * too: that window was not all in the page cache (readahead sets the pace
 * there).  "Next to" is the blocks of pages just before and after the
 * fault's window, a bit per block in a small bitmap per mapping.
 * Documentation/adaptive.rst gives the reasons and the measurements.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/string_helpers.h>

#include "faultaround.h"

/*
 * One mapping's state; the decision's part is struct mfa_adapt_state.
 * Ordered by who writes it, for 64-bit and 64-byte lines (x86_64, arm64;
 * mfa_adapt_init() checks it): the first line is what every lookup in the
 * bucket reads, and a fault writes it only when its VMA moved; the task
 * slots change when the tasks faulting do, or at a major fault; only the
 * state and @seen are written by most faults, and @seen at most once a
 * tick.
 */
struct mfa_adapt {
	struct mfa_vnode vn;			/* keyed by its VMA */
	unsigned long start, end;		/* the VMA at its last fault */
	struct pid *pid;			/* the process, for the listing */
	char comm[TASK_COMM_LEN];
	struct rcu_head rcu;
	/* A slot per faulting task, by hash: the task (compared only)... */
	unsigned long task[MFA_ADAPT_TASKS];
	unsigned int majflt[MFA_ADAPT_TASKS];	/* ...and its maj_flt */
	unsigned long seen;			/* jiffies at the last fault */
	struct mfa_adapt_state s;		/* last: its bitmap follows */
};

static DEFINE_PER_CPU(unsigned long, mfa_adapt_untracked);
static DEFINE_PER_CPU(unsigned long, mfa_adapt_evicted);
/* The module's table; the KUnit suite makes its own. */
static struct mfa_adapt_table mfa_adapt_table;

static bool mfa_adapt_on;
/* Serializes switching the policy on and off. */
static DEFINE_MUTEX(mfa_adapt_lock);

static struct hlist_head *mfa_adapt_bucket(struct mfa_adapt_table *t,
					   const struct vm_area_struct *vma)
{
	return &t->hash[hash_ptr(vma, MFA_ADAPT_HASH_BITS)];
}

static spinlock_t *mfa_adapt_lock_of(struct mfa_adapt_table *t,
				     const struct hlist_head *head)
{
	return &t->locks[(head - t->hash) % MFA_ADAPT_LOCKS];
}

/**
 * mfa_adapt_block_shift - the pages per bit of a mapping's bitmap, as a shift
 *
 * A 64th of a page table, or a page with fewer than 64 PTEs: the largest
 * window the policy picks (mfa_adapt_max_order()) then spans at most 8
 * bits, so a fault sets at most 8.
 *
 * Return: the shift.
 */
unsigned int mfa_adapt_block_shift(void)
{
	unsigned int ptes = ilog2(PTRS_PER_PTE);

	return ptes > 6 ? ptes - 6 : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_block_shift);

/**
 * mfa_adapt_max_order - the largest order the policy picks
 *
 * An eighth of a page table (order 6 with 512 PTEs): in make bench, seq,
 * rand and mmap-pread-seq were within 0.7% of their best (order 9) there,
 * mmap-pread-rand within 1.1%, and a larger window costs the most when a
 * mapping's access changes.
 *
 * Return: the order.
 */
unsigned int mfa_adapt_max_order(void)
{
	unsigned int ptes = ilog2(PTRS_PER_PTE);

	return ptes > 3 ? ptes - 3 : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_max_order);

/**
 * mfa_adapt_min_order - the least order a mapping's faults use
 * @pages: the mapping's size, in pages
 *
 * The order of MFA_ADAPT_SMALL_MIN (32KiB) in pages for a mapping smaller
 * than a page table; 0 for a page table or more, or with pages of 32KiB
 * or more.  Program start-up maps small files, and its faults
 * land far from each other, as a sparse reader's do, yet it was best at
 * order 3 in make bench (exec): stepping down cost it 7% there.  What a
 * window wastes in a small mapping is bounded by the mapping; a sparse
 * reader of a page table or more still goes down to 0.
 *
 * Return: the order, at most mfa_adapt_max_order().
 */
unsigned int mfa_adapt_min_order(unsigned long pages)
{
	if (pages >= PTRS_PER_PTE || PAGE_SIZE >= MFA_ADAPT_SMALL_MIN)
		return 0;
	return min_t(unsigned int, ilog2(MFA_ADAPT_SMALL_MIN / PAGE_SIZE),
		     mfa_adapt_max_order());
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_min_order);

/**
 * mfa_adapt_state_init - a new mapping's state
 * @s: the state, with room for 2^@shift bits after it
 * @shift: its bitmap's size
 * @min_order: the least order its faults use (mfa_adapt_min_order())
 *
 * It starts at order 2 (or the largest, if less): a mapping's first
 * faults tell nothing yet, and in make bench a 4-page window was the best
 * or near it for program start-up (exec, dynexec).
 */
void mfa_adapt_state_init(struct mfa_adapt_state *s, unsigned int shift,
			  unsigned int min_order)
{
	memset(s, 0, sizeof(*s));
	s->order = min(MFA_ADAPT_START_ORDER, mfa_adapt_max_order());
	s->shift = shift;
	s->min_order = min_order;
	bitmap_zero(s->blocks, 1U << shift);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_state_init);

/*
 * Block @block's bit: the low bits of its number, so that a run of
 * consecutive blocks as long as the bitmap never shares a bit.
 */
static unsigned long *mfa_adapt_bit(struct mfa_adapt_state *s,
				    unsigned long block, unsigned long *mask)
{
	unsigned long bit = block & ((1UL << s->shift) - 1);

	*mask = BIT_MASK(bit);
	return &s->blocks[BIT_WORD(bit)];
}

/* Was block @block faulted (or a block that shares its bit)? */
static bool mfa_adapt_test(struct mfa_adapt_state *s, unsigned long block)
{
	unsigned long mask, *word = mfa_adapt_bit(s, block, &mask);

	return READ_ONCE(*word) & mask;
}

static void mfa_adapt_mark(struct mfa_adapt_state *s, unsigned long block)
{
	unsigned long mask, *word = mfa_adapt_bit(s, block, &mask);

	/* A plain OR: two faults that race lose a bit, not the state. */
	if (!(READ_ONCE(*word) & mask))
		WRITE_ONCE(*word, READ_ONCE(*word) | mask);
}

/*
 * Did an earlier fault's window cover a block of @page's page table?  Its
 * blocks are 64 bits (32 on ppc64 radix) aligned in the bitmap, which
 * mfa_adapt_bitmap_shift() makes at least that long: one word to look at
 * on 64-bit, two on 32-bit.
 */
static bool mfa_adapt_region_seen(struct mfa_adapt_state *s, unsigned long page)
{
	unsigned int span = ilog2(PTRS_PER_PTE) - mfa_adapt_block_shift();
	unsigned long first = ((page >> ilog2(PTRS_PER_PTE)) << span) &
			      ((1UL << s->shift) - 1);

	return find_next_bit(s->blocks, first + (1UL << span), first) <
	       first + (1UL << span);
}

/*
 * The order a fault maps at, from the state's @order (at most @hi): the
 * floor of a small mapping raises the window, never the state.
 */
static unsigned int mfa_adapt_window(const struct mfa_adapt_state *s,
				     unsigned int order, unsigned int hi)
{
	return max(order, min(s->min_order, hi));
}

/**
 * mfa_adapt_step - the order for one fault, and what it teaches
 * @s: the mapping's state
 * @page: the fault's virtual page number (address >> PAGE_SHIFT)
 * @major: the faulting task took a major fault since its last fault here
 * @ra_order: the largest order while the mapping is read from disk
 *
 * O(1): a compare, a look at one word of the bitmap, and at most 8 bits
 * set (the largest window, mfa_adapt_max_order(), over blocks
 * of mfa_adapt_block_shift(); fewer with fewer than 64 PTEs).  Concurrent
 * faults of one mapping may race on @s; each field stays valid, and the
 * worst outcome is a step lost.  The counters are statistics and a
 * threshold: a lost increment is harmless, hence data_race().
 *
 * Return: the order of this fault's window: the new order, raised to
 * @s->min_order (within @ra_order once a major fault was seen), at most
 * mfa_adapt_max_order().
 */
unsigned int mfa_adapt_step(struct mfa_adapt_state *s, unsigned long page,
			    bool major, unsigned int ra_order)
{
	unsigned int bs = mfa_adapt_block_shift(), was = READ_ONCE(s->order);
	unsigned int order = was, win;
	unsigned long last = READ_ONCE(s->last), first, end, b;
	unsigned int hi = mfa_adapt_max_order();
	bool near;

	if (major && !s->cold)
		WRITE_ONCE(s->cold, true);
	/*
	 * Read from disk, readahead decides what is in the page cache: a
	 * window larger than half its read-around walks slots it has not
	 * filled (mmap-pread-rand@ext4-cold: +13% at order 6 over 3).
	 */
	if (READ_ONCE(s->cold))
		hi = min(hi, ra_order);
	if (!last) {
		/* The mapping's first fault: nothing to judge yet. */
	} else if (last - 1 == page) {
		/*
		 * The same page again: the retry of a fault that waited for
		 * I/O (VM_FAULT_RETRY), or a page unmapped since.  No step.
		 */
		return mfa_adapt_window(s, min(order, hi), hi);
	} else if ((last - 1) >> order == page >> order) {
		/* The last fault's window left this page unmapped. */
		data_race(s->unfilled++);
		order = order ? order - 1 : 0;
	} else {
		first = page >> order << order;
		end = first + (1UL << order);
		near = (first && mfa_adapt_test(s, (first - 1) >> bs)) ||
		       mfa_adapt_test(s, end >> bs);
		if (!near && mfa_adapt_region_seen(s, page) &&
		    /* Racy: a revisit lost only delays the threshold. */
		    data_race(++s->revisits) > MFA_ADAPT_DENSE) {
			/*
			 * Long after its first faults, the mapping still
			 * faults in page tables it has faulted in: all of it
			 * is being read, at random (mmap-pread-rand).
			 */
			near = true;
		}
		if (near) {
			/* Statistics, racy: a lost increment is harmless. */
			data_race(s->hits++);
			order = order + 1;
		} else {
			data_race(s->misses++);	/* as hits */
			order = order ? order - 1 : 0;
		}
	}
	order = min(order, hi);
	/* Only what changed: other threads' faults read this line too. */
	if (order != was)
		WRITE_ONCE(s->order, order);
	WRITE_ONCE(s->last, page + 1);
	/*
	 * Mark what is mapped: a reader in order faults next just after the
	 * raised window, and must find its block marked where blocks are
	 * smaller than the window.
	 */
	win = mfa_adapt_window(s, order, hi);
	first = page >> win << win;
	for (b = first >> bs; b <= (first + (1UL << win) - 1) >> bs; b++)
		mfa_adapt_mark(s, b);
	return win;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_step);

/**
 * mfa_adapt_ra_order - the largest order for a mapping read from disk
 * @file: the mapped file
 *
 * Half of @file's readahead size (ra_pages): a major fault reads that much
 * around the page, and a larger window walks slots it left empty.  Order
 * 4 with 4KiB pages and the default 128KiB.
 *
 * Return: the order.
 */
unsigned int mfa_adapt_ra_order(const struct file *file)
{
	unsigned long ra = READ_ONCE(file->f_ra.ra_pages);

	return ra > 2 ? ilog2(ra) - 1 : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_ra_order);

/**
 * mfa_adapt_bitmap_shift - the size of a mapping's bitmap, as a shift
 * @pages: the mapping's size, in pages
 *
 * A bit per block of the mapping, within MFA_ADAPT_MAX_BITS, and never
 * fewer than a long's bits or one page table's blocks: that is what
 * mfa_adapt_region_seen() reads at once (64 bits, more than a long on
 * 32-bit).
 *
 * Return: the shift.
 */
unsigned int mfa_adapt_bitmap_shift(unsigned long pages)
{
	unsigned long least = max_t(unsigned long, BITS_PER_LONG,
				    PTRS_PER_PTE >> mfa_adapt_block_shift());

	return order_base_2(clamp(pages >> mfa_adapt_block_shift(), least,
				  (unsigned long)MFA_ADAPT_MAX_BITS));
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_bitmap_shift);

static struct mfa_adapt *mfa_adapt_find(struct mfa_adapt_table *t,
					const struct vm_area_struct *vma)
{
	struct mfa_vnode *n = mfa_vnode_find(mfa_adapt_bucket(t, vma), vma);

	return n ? container_of(n, struct mfa_adapt, vn) : NULL;
}

static void mfa_adapt_free_rcu(struct rcu_head *rcu)
{
	struct mfa_adapt *a = container_of(rcu, struct mfa_adapt, rcu);

	put_pid(a->pid);
	kfree(a);
}

/* Take @a out of its bucket (locked) and free it after a grace period. */
static void mfa_adapt_unhash(struct mfa_adapt_table *t, struct mfa_adapt *a)
{
	hlist_del_rcu(&a->vn.node);
	atomic_dec(&t->nr);
	call_rcu(&a->rcu, mfa_adapt_free_rcu);
}

/*
 * No fault of @a's mapping for @t->idle.  Out of the range, not
 * time_after(): with 32-bit jiffies, state idle for 2^31 ticks (25 days
 * at HZ=1000) would look young again.
 */
static bool mfa_adapt_idle(const struct mfa_adapt_table *t,
			   const struct mfa_adapt *a)
{
	unsigned long seen = READ_ONCE(a->seen);

	return !time_in_range(jiffies, seen, seen + t->idle);
}

/* Did the last search from @b find nothing that is idle by now? */
static bool mfa_adapt_none_idle(const struct mfa_adapt_table *t,
				unsigned int b)
{
	unsigned long at = READ_ONCE(t->idle_at[b]);

	/* A range again: a hint older than 2^31 ticks must not hold. */
	return time_in_range_open(jiffies, at - t->idle - 1, at);
}

/*
 * The table is full: free the state of a mapping that has been idle for
 * @t->idle, from bucket @b or the next ones (four buckets hold 16
 * mappings on average when full), so that mappings faulted once and left
 * cannot keep the policy from everyone else's.  Lockless until one is
 * found; a search that finds none leaves the time the first of them
 * goes idle in @t->idle_at[@b].  Return: whether one was freed.
 */
static bool mfa_adapt_evict(struct mfa_adapt_table *t, unsigned int b)
{
	unsigned long at = jiffies + t->idle + 1;
	struct hlist_head *h;
	struct mfa_adapt *a;
	unsigned int i;
	bool freed;

	for (i = 0; i < MFA_ADAPT_EVICT_BUCKETS; i++) {
		h = &t->hash[(b + i) % ARRAY_SIZE(t->hash)];
		hlist_for_each_entry_rcu(a, h, vn.node) {
			if (mfa_adapt_idle(t, a))
				break;
			if (time_before(READ_ONCE(a->seen) + t->idle + 1, at))
				at = READ_ONCE(a->seen) + t->idle + 1;
		}
		if (!a)
			continue;
		freed = false;
		spin_lock(mfa_adapt_lock_of(t, h));
		/* Again under the lock: it may be gone, or faulted since. */
		hlist_for_each_entry(a, h, vn.node) {
			if (mfa_adapt_idle(t, a)) {
				mfa_adapt_unhash(t, a);
				freed = true;
				break;
			}
		}
		spin_unlock(mfa_adapt_lock_of(t, h));
		if (freed) {
			this_cpu_inc(*t->evicted);
			return true;
		}
	}
	WRITE_ONCE(t->idle_at[b], at);
	return false;
}

/*
 * The task that a fault of current's is labelled with: a vfork child
 * runs in its parent's mm until it execs, so it is the parent's, unless
 * the parent is not in this mm (CLONE_PARENT, or it exited).
 */
static struct task_struct *mfa_adapt_owner(void)
{
	return in_vfork(current) ? rcu_dereference(current->real_parent) :
				   current;
}

/**
 * mfa_adapt_get - @vma's state in @t, new if it has none
 * @t: the table
 * @vma: the VMA: the key, and its size
 *
 * Context: under rcu_read_lock(), which keeps the state alive; no
 * sleeping (the fault path holds the mmap or VMA lock too).
 *
 * Return: the state, or NULL (counted in @t->untracked) if @t is at its
 * limit with nothing idle in the VMA's bucket or the next ones, or there
 * is no memory: the fault then keeps the global order.
 */
struct mfa_adapt *mfa_adapt_get(struct mfa_adapt_table *t,
				struct vm_area_struct *vma)
{
	struct hlist_head *head = mfa_adapt_bucket(t, vma);
	struct mfa_adapt *a = mfa_adapt_find(t, vma), *old;
	struct task_struct *owner;
	unsigned int shift;

	if (a)
		return a;
	/*
	 * Read first: a full table with nothing idle near this bucket must
	 * not cost a fault an atomic or an allocation.
	 */
	if (atomic_read(&t->nr) >= t->limit &&
	    mfa_adapt_none_idle(t, head - t->hash))
		goto full;
	shift = mfa_adapt_bitmap_shift(vma_pages(vma));
	a = kmalloc(struct_size(a, s.blocks, BITS_TO_LONGS(1U << shift)),
		    GFP_NOWAIT | __GFP_NOWARN);
	if (!a)
		goto full;
	/*
	 * Room is made only for state that exists: the one freed leaves
	 * the count where this one's increment took it from.
	 */
	if (atomic_inc_return(&t->nr) > t->limit &&
	    !mfa_adapt_evict(t, head - t->hash)) {
		atomic_dec(&t->nr);
		kfree(a);
		goto full;
	}
	memset(a, 0, offsetof(struct mfa_adapt, s));
	a->vn.vma = vma;
	a->start = vma->vm_start;
	a->end = vma->vm_end;
	owner = mfa_adapt_owner();
	/* NULL if it is exiting: the state is then not listed. */
	a->pid = get_task_pid(owner, PIDTYPE_TGID);
	get_task_comm(a->comm, owner);
	a->seen = jiffies;
	mfa_adapt_state_init(&a->s, shift, mfa_adapt_min_order(vma_pages(vma)));
	spin_lock(mfa_adapt_lock_of(t, head));
	/* Another thread's first fault of this VMA may have won. */
	old = mfa_adapt_find(t, vma);
	if (!old)
		hlist_add_head_rcu(&a->vn.node, head);
	spin_unlock(mfa_adapt_lock_of(t, head));
	if (old) {
		atomic_dec(&t->nr);
		put_pid(a->pid);
		kfree(a);
		return old;
	}
	return a;
full:
	this_cpu_inc(*t->untracked);
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_get);

/**
 * mfa_adapt_task_major - a major fault of this task since its last here?
 * @task: a mapping's MFA_ADAPT_TASKS task slots (compared only)
 * @majflt: their tasks' maj_flt at their last fault
 * @me: the faulting task
 * @maj: its maj_flt now (a change is what counts: 32 bits will do)
 *
 * Then the mapping is read from disk.  A slot per task, so that threads
 * faulting in turn each keep theirs (v2 kept one, and saw none of their
 * major faults); written only when its task or that task's maj_flt
 * changed.  A task without a slot takes a free one, else the one its
 * hash picks: up to MFA_ADAPT_TASKS tasks are told exactly; beyond, tasks
 * that take each other's slot see no major fault while they alternate,
 * and a race between two of them may see one, which applies the cap
 * early.
 *
 * Return: whether @me's maj_flt changed since its slot was written.
 */
bool mfa_adapt_task_major(unsigned long *task, unsigned int *majflt,
			  unsigned long me, unsigned int maj)
{
	unsigned int i, slot = hash_long(me, MFA_ADAPT_TASK_BITS);

	for (i = 0; i < MFA_ADAPT_TASKS; i++) {
		if (READ_ONCE(task[i]) != me)
			continue;
		if (READ_ONCE(majflt[i]) == maj)
			return false;
		WRITE_ONCE(majflt[i], maj);
		return true;
	}
	for (i = 0; i < MFA_ADAPT_TASKS; i++) {
		if (!READ_ONCE(task[i])) {
			slot = i;
			break;
		}
	}
	WRITE_ONCE(task[slot], me);
	WRITE_ONCE(majflt[slot], maj);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_task_major);

/**
 * mfa_adapt_order - the adaptive policy's order for a fault
 * @vma: the VMA
 * @address: the faulting address
 * @order: the global order, for a fault that it cannot track
 *
 * Called by the policy callback under RCU, after the overrides.
 *
 * Return: the order, or @order if the policy is off.
 */
unsigned int mfa_adapt_order(struct vm_area_struct *vma, unsigned long address,
			     unsigned int order)
{
	unsigned long now;
	struct mfa_adapt *a;
	bool major;

	if (!READ_ONCE(mfa_adapt_on))
		return order;
	/*
	 * Another process's access (ptrace, /proc/pid/mem, process_vm_readv)
	 * neither starts state, which would bear its name, nor moves it.
	 */
	if (current->mm != vma->vm_mm) {
		a = mfa_adapt_find(&mfa_adapt_table, vma);
		return a ? mfa_adapt_window(&a->s, READ_ONCE(a->s.order),
					   mfa_adapt_max_order()) : order;
	}
	a = mfa_adapt_get(&mfa_adapt_table, vma);
	if (!a)
		return order;
	/* Each only when it changed: see struct mfa_adapt. */
	if (READ_ONCE(a->start) != vma->vm_start)
		WRITE_ONCE(a->start, vma->vm_start);
	if (READ_ONCE(a->end) != vma->vm_end)
		WRITE_ONCE(a->end, vma->vm_end);
	now = jiffies;
	if (READ_ONCE(a->seen) != now)	/* a tick's faults write it once */
		WRITE_ONCE(a->seen, now);
	major = mfa_adapt_task_major(a->task, a->majflt, (unsigned long)current,
				     current->maj_flt);
	return mfa_adapt_step(&a->s, address >> PAGE_SHIFT, major,
			     mfa_adapt_ra_order(vma->vm_file));
}

/**
 * mfa_adapt_forget - drop the state of @vma from @t, if it has one
 * @t: the table
 * @vma: the VMA, only compared
 *
 * Under RCU; the state is freed after a grace period.
 */
void mfa_adapt_forget(struct mfa_adapt_table *t,
		      const struct vm_area_struct *vma)
{
	struct hlist_head *head = mfa_adapt_bucket(t, vma);
	struct mfa_adapt *a;

	/* Most VMAs have no state: one lockless look turns them away. */
	if (!mfa_adapt_find(t, vma))
		return;
	spin_lock(mfa_adapt_lock_of(t, head));
	a = mfa_adapt_find(t, vma);
	if (a)
		mfa_adapt_unhash(t, a);
	spin_unlock(mfa_adapt_lock_of(t, head));
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_forget);

/**
 * mfa_adapt_vma_free - forget a VMA that the kernel frees
 * @vma: the VMA
 *
 * The policy's ->vma_free(): from vm_area_free(), under RCU.
 */
void mfa_adapt_vma_free(struct vm_area_struct *vma)
{
	mfa_adapt_forget(&mfa_adapt_table, vma);
}

/**
 * mfa_adapt_table_clear - free every mapping's state in @t
 * @t: the table
 *
 * No fault may add any meanwhile; the states are freed after a grace
 * period (rcu_barrier() waits for them).
 */
void mfa_adapt_table_clear(struct mfa_adapt_table *t)
{
	struct hlist_node *tmp;
	struct mfa_adapt *a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->hash); i++) {
		spin_lock(mfa_adapt_lock_of(t, &t->hash[i]));
		hlist_for_each_entry_safe(a, tmp, &t->hash[i], vn.node)
			mfa_adapt_unhash(t, a);
		spin_unlock(mfa_adapt_lock_of(t, &t->hash[i]));
	}
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_table_clear);

/**
 * mfa_adapt_set - switch the adaptive policy on or off
 * @on: on
 * @why: set to the reason, on error
 *
 * Off frees every mapping's state.  Switching while faults run is safe:
 * a fault sees the policy on or off, and none adds state once it is off.
 *
 * Return: 0, or -EBUSY (another module's policy is registered).
 */
int mfa_adapt_set(bool on, const char **why)
{
	int err = 0;

	mutex_lock(&mfa_adapt_lock);
	if (on == mfa_adapt_on)
		goto out;
	if (on) {
		err = mfa_hook_get();
		if (err) {
			*why = "another fault-around policy is registered";
			goto out;
		}
		WRITE_ONCE(mfa_adapt_on, true);
		goto out;
	}
	WRITE_ONCE(mfa_adapt_on, false);
	/* The faults that saw it on: after them, nothing adds state. */
	synchronize_rcu();
	mfa_adapt_table_clear(&mfa_adapt_table);
	mfa_hook_put();
out:
	mutex_unlock(&mfa_adapt_lock);
	return err;
}

/* Whether the adaptive policy is on. */
bool mfa_adapt_enabled(void)
{
	return READ_ONCE(mfa_adapt_on);
}

/**
 * mfa_adapt_show - list the mappings the policy tracks, one per line
 * @m: where to
 *
 * "<pid> <comm> <start>-<end> order <order> faults <n> near <n> far <n>
 * unfilled <n>": the process (its pid in the reader's namespace, and its
 * name with blanks, newlines and backslashes in octal), the VMA at its
 * last fault, the order the next fault starts from, and the faults that
 * moved it: up (near), down (far, unfilled), faults their sum (neither
 * the first fault nor a retried one moves it).
 */
void mfa_adapt_show(struct seq_file *m)
{
	struct mfa_adapt *a;
	unsigned int i;

	rcu_read_lock();
	for (i = 0; i < ARRAY_SIZE(mfa_adapt_table.hash); i++) {
		hlist_for_each_entry_rcu(a, &mfa_adapt_table.hash[i], vn.node) {
			unsigned long hits = READ_ONCE(a->s.hits);
			unsigned long misses = READ_ONCE(a->s.misses);
			unsigned long unfilled = READ_ONCE(a->s.unfilled);
			pid_t nr = pid_vnr(a->pid);

			/* Not in the reader's pid namespace: not its business. */
			if (!nr)
				continue;
			seq_printf(m, "%d ", nr);
			/* A name may hold blanks and newlines: one line each. */
			seq_escape_str(m, a->comm, ESCAPE_OCTAL, " \t\n\\");
			seq_printf(m, " %lx-%lx order %u faults %lu near %lu far %lu unfilled %lu\n",
				   READ_ONCE(a->start), READ_ONCE(a->end),
				   READ_ONCE(a->s.order), hits + misses + unfilled,
				   hits, misses, unfilled);
		}
	}
	rcu_read_unlock();
}

/**
 * mfa_adapt_table_counts - how many mappings @t tracks, the faults of
 * untracked ones, and the idle mappings' state freed for others
 * @t: the table
 * @tracked: the mappings tracked
 * @untracked: the faults of mappings left untracked
 * @evicted: the idle mappings' state freed
 */
void mfa_adapt_table_counts(struct mfa_adapt_table *t, unsigned int *tracked,
			    unsigned long *untracked, unsigned long *evicted)
{
	unsigned long sum = 0, ev = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		sum += *per_cpu_ptr(t->untracked, cpu);
		ev += *per_cpu_ptr(t->evicted, cpu);
	}
	*untracked = sum;
	*evicted = ev;
	*tracked = atomic_read(&t->nr);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_table_counts);

/* The module's table's counts, for stats. */
void mfa_adapt_counts(unsigned int *tracked, unsigned long *untracked,
		      unsigned long *evicted)
{
	mfa_adapt_table_counts(&mfa_adapt_table, tracked, untracked, evicted);
}

/**
 * mfa_adapt_table_init - an empty table
 * @t: the table
 * @limit: the mappings it tracks at most
 * @idle: how long a mapping without a fault is idle, in jiffies
 * @untracked: per CPU, the faults of mappings it could not track
 * @evicted: per CPU, the idle mappings' state it freed for others
 */
void mfa_adapt_table_init(struct mfa_adapt_table *t, unsigned int limit,
			  unsigned long idle, unsigned long __percpu *untracked,
			  unsigned long __percpu *evicted)
{
	unsigned int i;

	t->limit = limit;
	t->idle = idle;
	t->untracked = untracked;
	t->evicted = evicted;
	for (i = 0; i < ARRAY_SIZE(t->hash); i++) {
		INIT_HLIST_HEAD(&t->hash[i]);
		t->idle_at[i] = 0;
	}
	for (i = 0; i < ARRAY_SIZE(t->locks); i++)
		spin_lock_init(&t->locks[i]);
	atomic_set(&t->nr, 0);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_adapt_table_init);

/* Before the policy can run. */
void mfa_adapt_init(void)
{
	/*
	 * Lookups read one line that faults write only when the VMA moved:
	 * the layout struct mfa_adapt is written for.
	 */
	if (IS_ENABLED(CONFIG_64BIT) && SMP_CACHE_BYTES == 64) {
		BUILD_BUG_ON((offsetofend(struct mfa_adapt, comm) - 1) / 64 !=
			     offsetof(struct mfa_adapt, vn) / 64);
		BUILD_BUG_ON(offsetof(struct mfa_adapt, task) / 64 ==
			     offsetof(struct mfa_adapt, vn) / 64);
	}

	mfa_adapt_table_init(&mfa_adapt_table, MFA_ADAPT_MAX_MAPPINGS,
			     MFA_ADAPT_IDLE, &mfa_adapt_untracked,
			     &mfa_adapt_evicted);
}

/**
 * mfa_adapt_exit - for unload: off, and nothing left that runs module code
 */
void mfa_adapt_exit(void)
{
	const char *why;

	mfa_adapt_set(false, &why);
	rcu_barrier();
}
