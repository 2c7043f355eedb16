/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mod_faultaround's internals.  Who owns what:
 *   main.c      load and unload
 *   iface.c     the debugfs files, and who may use them
 *   override.c  the overrides: set, remove, list, follow their VMA
 *   policy.c    the fault path: the policy callback and its statistics
 *   adapt.c     the adaptive policy: an order per mapping, its state
 *   table.c     the hash of overrides by VMA that the fault path searches
 *   parse.c     the grammar of what the files accept
 * The KUnit suite, test.c with tests/<unit>-kunit.h, is a module of its
 * own (mod_faultaround_test).
 */
#ifndef _FAULTAROUND_H
#define _FAULTAROUND_H

#include <linux/mm.h>

#ifndef CONFIG_FAULT_AROUND_ORDER
#error "mod_faultaround needs the faultaround patch series (CONFIG_FAULT_AROUND_ORDER)"
#endif
/*
 * The hook comes from the lab part of the series, which is never sent;
 * version 2 tells the policy of copied VMAs, which the overrides follow.
 */
#if !defined(HAVE_FAULT_AROUND_POLICY) || HAVE_FAULT_AROUND_POLICY < 2
#error "mod_faultaround needs the faultaround lab patch (patches/lab/) with ->vma_dup()"
#endif

#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>

/* The longest command "vma" accepts: "<pid> 0x<16 digits> <order>\n". */
#define FA_CMD_MAX_LEN		64
/*
 * How many writes' overrides may exist at once (-ENOSPC beyond), and how
 * many overrides with the copies of split, moved and forked VMAs: a copy
 * beyond that, or without memory, is not made (its VMA keeps the global
 * order, and stats counts it), so that no process can grow the hash that
 * every fault reads, and no split, mremap() or fork() fails for it.
 */
#define FA_MAX_OVERRIDES	1024
#define FA_MAX_COPIES		4096	/* four per write on average */
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

/*
 * A node of a hash keyed by VMA: the overrides (table.c) and the adaptive
 * policy's state (adapt.c).
 */
struct fa_vnode {
	struct hlist_node node;
	const struct vm_area_struct *vma;	/* the key */
};

struct fa_vnode *fa_vnode_find(const struct hlist_head *head,
			       const struct vm_area_struct *vma);

/*
 * What one write set: shared by the VMA it was set on and the VMAs that
 * VMA is split, moved or forked into, which count its hits together.
 */
struct fa_order {
	refcount_t ref;			/* the overrides that share it */
	unsigned int hashed;		/* of them in the hash, under its lock */
	unsigned int order;
	u64_stats_t __percpu *hits;	/* under policy.c's per-CPU syncp */
};

/* One VMA's override: freed after a grace period, when its VMA goes. */
struct fa_override {
	struct fa_vnode vn;
	struct fa_order *o;
	struct rcu_head rcu;
};

#define FA_OV_HASH_BITS		10	/* 4 overrides a bucket at most, on average */

/*
 * The overrides, by VMA.  Lookups take RCU alone; insertions and removals
 * take @lock, which a fault never does.  An instance of its own for the
 * KUnit suite, so that it never touches the module's.
 */
struct fa_overrides {
	struct hlist_head hash[1 << FA_OV_HASH_BITS];
	spinlock_t lock;	/* insertions and removals */
	/* Written under @lock, read with READ_ONCE(): */
	unsigned int nr;	/* overrides */
	unsigned int writes;	/* fa_orders with an override in the hash */
	unsigned long uncopied;	/* copies not made */
};

void fa_ovs_init(struct fa_overrides *t);
struct fa_override *fa_ovs_find(const struct fa_overrides *t,
				const struct vm_area_struct *vma);
struct fa_override *fa_ovs_set(struct fa_overrides *t, struct fa_override *ov,
			       unsigned int writes, unsigned int limit);
void fa_ovs_dup(struct fa_overrides *t, const struct vm_area_struct *orig,
		const struct vm_area_struct *new, unsigned int limit, gfp_t gfp);
bool fa_ovs_remove(struct fa_overrides *t, const struct vm_area_struct *vma);
void fa_ovs_clear(struct fa_overrides *t);
struct fa_override *fa_ov_alloc(const struct vm_area_struct *vma,
				unsigned int order, gfp_t gfp);
void fa_ov_free(struct fa_override *ov);
void fa_ov_put(struct fa_override *ov);

/* override.c */
extern struct fa_overrides fa_ovs;
int fa_set(struct mm_struct *mm, unsigned long addr, unsigned int order,
	   const char **why);
int fa_default(struct mm_struct *mm, unsigned long addr, const char **why);
void fa_clear(void);
struct seq_file;
int fa_show(struct seq_file *m);
/* The longest line fa_show() prints. */
#define FA_SHOW_LINE_MAX	112
unsigned long fa_overrides_uncopied(void);
void fa_overrides_vma_free(struct vm_area_struct *vma);
int fa_overrides_vma_dup(const struct vm_area_struct *orig,
			 struct vm_area_struct *new);
void fa_overrides_init(void);
void fa_overrides_exit(void);

/* policy.c */
void fa_policy_init(void);
int fa_policy_get(void);
void fa_policy_put(void);
u64 fa_hits_of(const struct fa_order *o);

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
