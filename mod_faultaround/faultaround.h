/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mod_faultaround's internals.  Who owns what:
 *   main.c      load and unload
 *   iface.c     the debugfs files, and who may use them
 *   policy.c    the fault path: the policy the kernel calls
 *   override.c  the overrides: set, remove, list, follow their VMA
 *   baseline.c  the madvise and ramp baselines, the "policy" file's own
 *   hook.c      the kernel's hook, registered while anything uses it
 *   stats.c     the fault path's statistics, per CPU
 *   table.c     the hash of overrides by VMA that the fault path searches
 *   parse.c     the grammar of what the files accept
 * Each file uses only those listed below it.
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
 * version 2 tells the policy of copied VMAs, which the overrides follow,
 * and 3 exports the switch of the kernel's adaptive policy.
 */
#if !defined(HAVE_FAULT_AROUND_POLICY) || HAVE_FAULT_AROUND_POLICY < 3
#error "mod_faultaround needs the lab patch (patches/lab/) with fault_around_set_adaptive()"
#endif

#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>

/* The longest command "vma" accepts: "<pid> 0x<16 digits> <order>\n". */
/* Newer kernels' typed allocator, which 6.12 lacks. */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), GFP)
#endif

#define MFA_CMD_MAX_LEN		64
/*
 * How many writes' overrides may exist at once (-ENOSPC beyond), and how
 * many overrides a copy of a split, moved or forked VMA may join: a copy
 * beyond that, or without memory, is not made (its VMA keeps the global
 * order, and stats counts it), so that no process can grow the hash that
 * every fault reads, and no split, mremap() or fork() fails for it.
 * Copies never take a write's room: a user who forks an overridden VMA
 * cannot make root's next write fail.
 */
#define MFA_MAX_OVERRIDES	1024
#define MFA_MAX_COPIES		4096	/* four per write on average */
/* The most overrides the hash holds: the copies' limit, then the writes. */
#define MFA_MAX_HASHED		(MFA_MAX_COPIES + MFA_MAX_OVERRIDES)
/* Every order that fits in a page table, on any page-table geometry. */
#define MFA_NR_ORDERS		(ilog2(MAX_PTRS_PER_PTE) + 1)

enum mfa_cmd_type {
	MFA_CMD_SET,		/* <pid> <address> <order> */
	MFA_CMD_DEFAULT,		/* <pid> <address> default */
	MFA_CMD_CLEAR,		/* clear */
};

struct mfa_cmd {
	enum mfa_cmd_type type;
	pid_t pid;
	unsigned long addr;
	unsigned int order;
};

int mfa_parse_cmd(const char *buf, size_t len, unsigned int max_order,
		  struct mfa_cmd *cmd, const char **why);
int mfa_parse_uint(const char *buf, size_t len, unsigned int max,
		   unsigned int *val, const char **why);
/* What "policy" selects: the kernel's policy, or a baseline (baseline.c). */
enum mfa_policy {
	MFA_POLICY_OFF,		/* the global order */
	MFA_POLICY_ADAPTIVE,	/* the kernel's vm.fault_around_adaptive */
	MFA_POLICY_MADVISE,	/* the madvise() hint alone */
	MFA_POLICY_RAMP,	/* readahead's ramp per open file */
};

extern const char *const mfa_policy_names[];
int mfa_parse_policy(const char *buf, size_t len, enum mfa_policy *policy,
		     const char **why);

/* A node of a hash keyed by VMA: the overrides' (table.c). */
struct mfa_vnode {
	struct hlist_node node;
	const struct vm_area_struct *vma;	/* the key */
};

struct mfa_vnode *mfa_vnode_find(const struct hlist_head *head,
				 const struct vm_area_struct *vma);

/*
 * What one write set: shared by the VMA it was set on and the VMAs that
 * VMA is split, moved or forked into, which count its hits together.
 */
struct mfa_order {
	refcount_t ref;			/* the overrides that share it */
	unsigned int hashed;		/* of them in the hash, under its lock */
	unsigned int order;
	u64_stats_t __percpu *hits;	/* under stats.c's per-CPU syncp */
};

/* One VMA's override: freed after a grace period, when its VMA goes. */
struct mfa_override {
	struct mfa_vnode vn;
	struct mfa_order *o;
	struct rcu_head rcu;
};

#define MFA_OV_HASH_BITS		10	/* 5 overrides a bucket at most, on average */

/*
 * The overrides, by VMA.  Lookups take RCU alone; insertions and removals
 * take @lock, which a fault never does.  An instance of its own for the
 * KUnit suite, so that it never touches the module's.
 */
struct mfa_overrides {
	struct hlist_head hash[1 << MFA_OV_HASH_BITS];
	/* A line of its own: writes here must not evict a fault's bucket. */
	spinlock_t lock ____cacheline_aligned_in_smp;	/* insertions and removals */
	/* Written under @lock, read with READ_ONCE(): */
	unsigned int nr;	/* overrides */
	unsigned int writes;	/* mfa_orders with an override in the hash */
	unsigned long uncopied;	/* copies not made */
};

void mfa_ovs_init(struct mfa_overrides *t);
struct mfa_override *mfa_ovs_find(const struct mfa_overrides *t,
				  const struct vm_area_struct *vma);
struct mfa_override *mfa_ovs_set(struct mfa_overrides *t, struct mfa_override *ov,
				 unsigned int writes);
void mfa_ovs_dup(struct mfa_overrides *t, const struct vm_area_struct *orig,
		 const struct vm_area_struct *new, unsigned int limit, gfp_t gfp);
bool mfa_ovs_remove(struct mfa_overrides *t, const struct vm_area_struct *vma);
void mfa_ovs_clear(struct mfa_overrides *t);
struct mfa_override *mfa_ov_alloc(const struct vm_area_struct *vma,
				  unsigned int order, gfp_t gfp);
void mfa_ov_free(struct mfa_override *ov);
void mfa_ov_put(struct mfa_override *ov);

/* baseline.c */
unsigned int mfa_ramp_step(u64 state, pgoff_t index, unsigned int max);
u64 mfa_ramp_state(unsigned int order, pgoff_t index);
unsigned int mfa_baseline_order(struct vm_area_struct *vma,
				unsigned long address, unsigned int order);
enum mfa_policy mfa_baseline(void);
int mfa_baseline_set(enum mfa_policy policy);
void mfa_baseline_exit(void);

/* override.c */
unsigned int mfa_overrides_nr(void);
struct mfa_override *mfa_overrides_find(const struct vm_area_struct *vma);
int mfa_set(struct mm_struct *mm, unsigned long addr, unsigned int order,
	    const char **why);
int mfa_default(struct mm_struct *mm, unsigned long addr, const char **why);
void mfa_clear(void);
struct seq_file;
int mfa_show(struct seq_file *m);
/* The longest line mfa_show() prints. */
#define MFA_SHOW_LINE_MAX	112
unsigned long mfa_overrides_uncopied(void);
void mfa_overrides_vma_free(struct vm_area_struct *vma);
int mfa_overrides_vma_dup(const struct vm_area_struct *orig,
			  struct vm_area_struct *new);
void mfa_overrides_init(void);
void mfa_overrides_exit(void);

/* policy.c */
extern const struct fault_around_policy mfa_policy;

/* hook.c */
void mfa_hook_init(const struct fault_around_policy *policy);
int mfa_hook_get(void);
void mfa_hook_put(void);

/* stats.c */
void mfa_stats_init(void);
void mfa_stats_count(struct mfa_order *o, unsigned int order);
u64 mfa_hits_of(const struct mfa_order *o);

/* misses: the faults decided less the hits. */
struct mfa_stats {
	u64 hits, misses, decided[MFA_NR_ORDERS];
};

void mfa_stats_read(struct mfa_stats *s);

/* iface.c */
int mfa_iface_init(void);
void mfa_iface_exit(void);

#endif /* _FAULTAROUND_H */
