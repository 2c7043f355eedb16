/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mod_faultaround internals: the command parser and the override table,
 * kept apart from the debugfs and policy code so that KUnit tests them.
 */
#ifndef _FAULTAROUND_H
#define _FAULTAROUND_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/types.h>

/* The longest command "vma" accepts: "<pid> 0x<16 digits> <order>\n". */
#define FA_CMD_MAX_LEN		64
/* How many overrides may exist at once (-ENOSPC beyond). */
#define FA_MAX_OVERRIDES	1024

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
		 struct fa_cmd *cmd);

struct mm_struct;

/* One override: faults in [start, end) of @mm use @order. */
struct fa_override {
	struct mm_struct *mm;	/* the key; mmgrab()ed by main.c */
	pid_t pid;		/* for display only */
	unsigned long start, end;
	unsigned int order;
	atomic_long_t hits;
	struct list_head dead;	/* on a list of removed overrides */
	struct rcu_head rcu;	/* freed after a grace period ... */
	struct llist_node free;	/* ... then in process context (mmdrop) */
};

/*
 * The table is an array sorted by (mm, start), with no two overrides of
 * one mm overlapping.  It is replaced, never changed in place, so that the
 * fault path reads it under RCU alone; the caller serializes updates and
 * frees what they return after a grace period.
 */
struct fa_table {
	struct rcu_head rcu;
	unsigned int nr;
	struct fa_override *ov[];
};

struct fa_override *fa_table_lookup(const struct fa_table *t,
				    const struct mm_struct *mm,
				    unsigned long addr);
struct fa_table *fa_table_set(const struct fa_table *t,
			      struct fa_override *ov, unsigned int limit,
			      struct list_head *dead);
struct fa_table *fa_table_remove(const struct fa_table *t,
				 bool (*match)(struct fa_override *ov,
					       void *arg),
				 void *arg, struct list_head *dead);

#endif /* _FAULTAROUND_H */
