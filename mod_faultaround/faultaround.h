/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mod_faultaround's internals.  Who owns what:
 *   main.c      load and unload
 *   iface.c     the debugfs files, and who may use them
 *   override.c  the overrides: set, remove, follow their mapping, free
 *   policy.c    the fault path: the policy callback and its statistics
 *   adapt.c     the adaptive policy: an order per mapping, its state
 *   table.c     the sorted table that the fault path searches
 *   parse.c     the grammar of what the files accept
 * The KUnit suite, test.c, is a module of its own (mod_faultaround_test).
 */
#ifndef _FAULTAROUND_H
#define _FAULTAROUND_H

#include <linux/mm.h>

#ifndef CONFIG_FAULT_AROUND_ORDER
#error "mod_faultaround needs the faultaround patch series (CONFIG_FAULT_AROUND_ORDER)"
#endif
/* The hook comes from the lab part of the series, which is never sent. */
#ifndef HAVE_FAULT_AROUND_POLICY
#error "mod_faultaround needs the faultaround lab patch (patches/lab/)"
#endif
/* Overrides follow their mapping through MMU notifiers (KVM selects them). */
#ifndef CONFIG_MMU_NOTIFIER
#error "mod_faultaround needs CONFIG_MMU_NOTIFIER"
#endif

#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/log2.h>
#include <linux/mmu_notifier.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>

/* The longest command "vma" accepts: "<pid> 0x<16 digits> <order>\n". */
#define FA_CMD_MAX_LEN		64
/* How many overrides may exist at once (-ENOSPC beyond). */
#define FA_MAX_OVERRIDES	1024
/* Every order that fits in a page table, on any page-table geometry. */
#define FA_NR_ORDERS		(ilog2(MAX_PTRS_PER_PTE) + 1)

enum fa_cmd_type {
	FA_CMD_SET,		/* <pid> <address> <order> */
	FA_CMD_DEFAULT,		/* <pid> <address> default */
	FA_CMD_CLEAR,		/* clear */
};

struct fa_cmd {
	enum fa_cmd_type type;
	pid_t pid;
	unsigned long addr;
	unsigned int order;
};

int fa_parse_cmd(const char *buf, size_t len, unsigned int max_order,
		 struct fa_cmd *cmd, const char **why);
int fa_parse_uint(const char *buf, size_t len, unsigned int max,
		  unsigned int *val, const char **why);
int fa_parse_policy(const char *buf, size_t len, bool *adaptive,
		    const char **why);

struct file;
struct mm_struct;
struct mmu_notifier;

/* What an override applies to: pages [start, end) of @file in @mm. */
struct fa_key {
	const struct mm_struct *mm;
	const struct file *file;
	pgoff_t start, end;
};

/*
 * One override.  It holds a reference on the file and on the mm's
 * notifier, so neither pointer in its key can be reused while it exists.
 */
/* An mm's MMU notifier, shared by its overrides (override.c). */
struct fa_mn {
	struct mmu_notifier mn;
	struct list_head node;		/* on fa_mns, under fa_mn_lock */
	unsigned int users;		/* overrides, under fa_mn_lock */
	bool unregistering;		/* the last user is gone */
};

struct fa_override {
	struct fa_key key;
	unsigned int order;
	bool gone;		/* its mapping is gone; no fault uses it */
	struct pid *pid;	/* for display only */
	struct file *file;
	struct fa_mn *mn;	/* its mm's notifier */
	u64_stats_t __percpu *hits;	/* under policy.c's per-CPU syncp */
	struct list_head dead;	/* on a list of removed overrides */
	struct rcu_head rcu;	/* freed after a grace period ... */
	struct llist_node free;	/* ... then in process context */
};

/*
 * The table is an array of slots sorted by key, with no two keys of one
 * mm and file overlapping.  The keys sit in the array, so that a lookup
 * follows one pointer, at the end.  It is replaced, never changed in
 * place, so that the fault path reads it under RCU alone; the caller
 * serializes updates and frees what they return after a grace period.
 */
struct fa_slot {
	struct fa_key key;
	struct fa_override *ov;
};

struct fa_table {
	struct rcu_head rcu;
	unsigned int nr;
	/*
	 * A bit per hash of each mm in the table: most faults are of an mm
	 * without overrides, and one test of this word turns them away.
	 */
	unsigned long mms;
	struct fa_slot slot[];
};

/* @mm's bit in fa_table.mms. */
static inline unsigned long fa_mm_bit(const struct mm_struct *mm)
{
	return BIT(hash_ptr(mm, ilog2(BITS_PER_LONG)));
}

struct fa_override *fa_table_lookup(const struct fa_table *t,
				    const struct mm_struct *mm,
				    const struct file *file, pgoff_t pgoff);
void fa_table_mm(const struct fa_table *t, const struct mm_struct *mm,
		 unsigned int *first, unsigned int *last);
unsigned int fa_table_find(const struct fa_table *t, unsigned int first,
			   unsigned int last, const struct file *file,
			   pgoff_t pgoff);
void fa_table_keep(const struct fa_table *t, unsigned int first,
		   unsigned int last, const struct file *file, pgoff_t pgoff,
		   unsigned long vm_start, unsigned long vm_end,
		   unsigned long start, unsigned long end, unsigned long *seen);
struct fa_table *fa_table_set(const struct fa_table *t,
			      struct fa_override *ov, unsigned int limit,
			      struct list_head *dead);
struct fa_table *fa_table_remove(const struct fa_table *t,
				 bool (*match)(struct fa_override *ov,
					       void *arg),
				 void *arg, struct list_head *dead);

/* override.c */
extern struct fa_table __rcu *fa_table;
int fa_set(struct mm_struct *mm, struct pid *pid, unsigned long addr,
	   unsigned int order, const char **why);
int fa_default(struct mm_struct *mm, unsigned long addr, const char **why);
void fa_clear(void);
struct seq_file;
void fa_show(struct seq_file *m);
void fa_overrides_exit(void);

/* policy.c */
void fa_policy_init(void);
int fa_policy_get(void);
void fa_policy_put(void);
u64 fa_hits_of(const struct fa_override *ov);

/* misses: the faults decided less the hits. */
struct fa_stats {
	u64 hits, misses, decided[FA_NR_ORDERS];
};

void fa_stats_read(struct fa_stats *s);

/* adapt.c: the limits, documented in Documentation/adaptive.rst */
#define FA_ADAPT_MAX_MAPPINGS	4096	/* tracked at once; more keep the global order */
#define FA_ADAPT_IDLE		HZ	/* no fault for that long: freed for another when full */
#define FA_ADAPT_EVICT_BUCKETS	4	/* buckets searched for an idle mapping */
#define FA_ADAPT_TASK_BITS	2
#define FA_ADAPT_TASKS		BIT(FA_ADAPT_TASK_BITS)	/* slots for major faults */
#define FA_ADAPT_MAX_BITS	4096	/* a mapping's bitmap: 512 bytes at most */
#define FA_ADAPT_HASH_BITS	10	/* 1024 buckets of mappings */
#define FA_ADAPT_LOCKS		64	/* locks for their insertions and removals */
#define FA_ADAPT_START_ORDER	2U	/* a new mapping's order */
#define FA_ADAPT_DENSE		64	/* revisits before they count as near */
#define FA_ADAPT_SMALL_MIN	SZ_32K	/* the least a fault maps in a small mapping */

/*
 * What the policy decides from, per mapping: the order now, the last
 * fault, the faults that moved the order, and a bit per block of pages
 * (fa_adapt_block_shift()) that a fault's window covered, the block's
 * number modulo 2^shift.
 */
struct fa_adapt_state {
	unsigned long last;		/* the last fault's page + 1; 0: none */
	unsigned int order, shift;
	unsigned int min_order;		/* the least a fault uses: fa_adapt_min_order() */
	bool cold;			/* a major fault seen: readahead's pace */
	unsigned long hits, misses, unfilled, revisits;
	unsigned long blocks[];
};

unsigned int fa_adapt_block_shift(void);
unsigned int fa_adapt_max_order(void);
unsigned int fa_adapt_min_order(unsigned long pages);
unsigned int fa_adapt_bitmap_shift(unsigned long pages);
void fa_adapt_state_init(struct fa_adapt_state *s, unsigned int shift,
			 unsigned int min_order);
unsigned int fa_adapt_step(struct fa_adapt_state *s, unsigned long page,
			   bool major, unsigned int ra_order);
unsigned int fa_adapt_ra_order(const struct file *file);
bool fa_adapt_task_major(unsigned long *task, unsigned int *majflt,
			 unsigned long me, unsigned int maj);
unsigned int fa_adapt_order(struct vm_area_struct *vma, unsigned long address,
			    unsigned int order);
void fa_adapt_vma_free(struct vm_area_struct *vma);
int fa_adapt_set(bool on, const char **why);
bool fa_adapt_enabled(void);
void fa_adapt_show(struct seq_file *m);
void fa_adapt_counts(unsigned int *tracked, unsigned long *untracked,
		     unsigned long *evicted);
void fa_adapt_init(void);
void fa_adapt_exit(void);

/* iface.c */
int fa_iface_init(void);
void fa_iface_exit(void);

#endif /* _FAULTAROUND_H */
