// SPDX-License-Identifier: GPL-2.0
/*
 * mod_faultaround: try fault-around orders per mapping on a running kernel.
 *
 * /sys/kernel/debug/faultaround/
 *   order  the global fault-around order (the kernel's own knob)
 *   vma    per-VMA overrides: "<pid> <address> <order>", "<pid> <address>
 *          default", "clear"; reading lists "pid start-end order hits"
 *   stats  faults decided per order, override hits and misses, and the
 *          kernel's fault_around counters since load; "0" resets
 *
 * See Documentation/module.rst in the faultaround project.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/llist.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>

#include "faultaround.h"

#ifndef CONFIG_FAULT_AROUND_ORDER
#error "mod_faultaround needs the faultaround patch series (CONFIG_FAULT_AROUND_ORDER)"
#endif
/* The hook comes from the lab part of the series, which is never sent. */
#ifndef HAVE_FAULT_AROUND_POLICY
#error "mod_faultaround needs the faultaround lab patch (patches/lab/)"
#endif

/* Orders are below BITS_PER_LONG; the kernel rejects more. */
#define FA_NR_ORDERS	BITS_PER_LONG

static struct fa_table __rcu *fa_table;
/* Serializes table updates and (un)registration of the policy. */
static DEFINE_MUTEX(fa_lock);
static bool fa_registered;
static struct dentry *fa_dir;

static atomic_long_t fa_decided[FA_NR_ORDERS];
static atomic_long_t fa_hits, fa_misses;
/* /proc/vmstat's fault_around and fault_around_mapped at the last reset. */
static unsigned long fa_vm_base[2];

static unsigned int fa_max_order(void)
{
	return ilog2(PTRS_PER_PTE);
}

/* The policy: called by the fault path under RCU; must not sleep. */
static unsigned int fa_policy_order(struct vm_area_struct *vma,
				    unsigned long address, unsigned int order)
{
	struct fa_override *ov;

	ov = fa_table_lookup(rcu_dereference(fa_table), vma->vm_mm, address);
	if (ov) {
		atomic_long_inc(&ov->hits);
		atomic_long_inc(&fa_hits);
		order = ov->order;
	} else {
		atomic_long_inc(&fa_misses);
	}
	atomic_long_inc(&fa_decided[min(order, FA_NR_ORDERS - 1U)]);
	return order;
}

static const struct fault_around_policy fa_policy = {
	.order = fa_policy_order,
};

static void fa_prune_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fa_prune_work, fa_prune_fn);

/*
 * Removed overrides are freed without waiting in the writer: an RCU
 * callback hands them to a work item, because __mmdrop() must not run in
 * softirq context.  A write then costs no grace period, which matters to
 * a script that sets hundreds of overrides.
 */
static LLIST_HEAD(fa_free_list);

static void fa_free_fn(struct work_struct *work)
{
	struct fa_override *ov, *tmp;

	llist_for_each_entry_safe(ov, tmp, llist_del_all(&fa_free_list), free) {
		mmdrop(ov->mm);
		kfree(ov);
	}
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
		fault_around_unregister_policy(&fa_policy);
		fa_registered = false;
	}
	if (new)
		schedule_delayed_work(&fa_prune_work, HZ);
	if (old)
		kfree_rcu(old, rcu);
	list_for_each_entry_safe(ov, tmp, dead, dead)
		call_rcu(&ov->rcu, fa_free_rcu);
}

static struct fa_table *fa_current(void)
{
	return rcu_dereference_protected(fa_table, lockdep_is_held(&fa_lock));
}

static bool fa_match_exited(struct fa_override *ov, void *arg)
{
	return !atomic_read(&ov->mm->mm_users);
}

static bool fa_match_all(struct fa_override *ov, void *arg)
{
	return true;
}

struct fa_where {
	struct mm_struct *mm;
	unsigned long addr;
};

static bool fa_match_addr(struct fa_override *ov, void *arg)
{
	struct fa_where *w = arg;

	return ov->mm == w->mm && w->addr >= ov->start && w->addr < ov->end;
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

/* Overrides belong to an mm: drop those whose mm has exited. */
static void fa_prune_locked(void)
{
	fa_remove_locked(fa_match_exited, NULL);
}

static void fa_prune_fn(struct work_struct *work)
{
	mutex_lock(&fa_lock);
	fa_prune_locked();
	if (fa_current())
		schedule_delayed_work(&fa_prune_work, HZ);
	mutex_unlock(&fa_lock);
}

/*
 * May the caller trace @task?  The uid/gid and capability rules of
 * ptrace_may_access(), which modules cannot call; LSM hooks do not apply.
 */
static bool fa_may_trace(struct task_struct *task, struct mm_struct *mm)
{
	const struct cred *cred = current_cred(), *tcred;
	bool ok;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->uid, tcred->euid) &&
	      uid_eq(cred->uid, tcred->suid) &&
	      uid_eq(cred->uid, tcred->uid) &&
	      gid_eq(cred->gid, tcred->egid) &&
	      gid_eq(cred->gid, tcred->sgid) &&
	      gid_eq(cred->gid, tcred->gid)) ||
	     ns_capable(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	if (ok && get_dumpable(mm) != SUID_DUMP_USER)
		ok = ns_capable(mm->user_ns, CAP_SYS_PTRACE);
	return ok;
}

/* Find @pid's mm, checked for ptrace access; NULL and *err on failure. */
static struct mm_struct *fa_get_mm(pid_t pid, int *err)
{
	struct task_struct *task;
	struct mm_struct *mm;
	struct pid *p;

	p = find_get_pid(pid);
	task = p ? get_pid_task(p, PIDTYPE_PID) : NULL;
	put_pid(p);
	if (!task) {
		*err = -ESRCH;
		return NULL;
	}
	mm = get_task_mm(task);
	if (!mm) {
		*err = -ESRCH;	/* a kernel thread, or exiting */
	} else if (!fa_may_trace(task, mm)) {
		mmput(mm);
		mm = NULL;
		*err = -EPERM;
	}
	put_task_struct(task);
	return mm;
}

static int fa_set(const struct fa_cmd *cmd)
{
	struct vm_area_struct *vma;
	struct fa_override *ov;
	struct fa_table *new;
	struct mm_struct *mm;
	LIST_HEAD(dead);
	int err = 0;

	mm = fa_get_mm(cmd->pid, &err);
	if (!mm)
		return err;
	ov = kzalloc(sizeof(*ov), GFP_KERNEL);
	if (!ov) {
		mmput(mm);
		return -ENOMEM;
	}
	mmap_read_lock(mm);
	vma = vma_lookup(mm, cmd->addr);
	if (vma) {
		ov->start = vma->vm_start;
		ov->end = vma->vm_end;
	}
	mmap_read_unlock(mm);
	if (!vma) {
		err = -ENOENT;
		goto out;
	}
	ov->mm = mm;
	ov->pid = cmd->pid;
	ov->order = cmd->order;

	mutex_lock(&fa_lock);
	fa_prune_locked();
	if (!fa_registered) {
		err = fault_around_register_policy(&fa_policy);
		if (err) {
			mutex_unlock(&fa_lock);
			goto out;
		}
		fa_registered = true;
	}
	new = fa_table_set(fa_current(), ov, FA_MAX_OVERRIDES, &dead);
	if (IS_ERR(new)) {
		err = PTR_ERR(new);
		/* Keep the policy only if overrides remain. */
		if (!fa_current()) {
			fault_around_unregister_policy(&fa_policy);
			fa_registered = false;
		}
		mutex_unlock(&fa_lock);
		goto out;
	}
	mmgrab(mm);	/* the override keys on the mm, not on the pid */
	fa_replace(new, &dead);
	mutex_unlock(&fa_lock);
	ov = NULL;
out:
	kfree(ov);
	mmput(mm);
	return err;
}

static int fa_default(const struct fa_cmd *cmd)
{
	struct fa_where w = { .addr = cmd->addr };
	int err = 0;

	w.mm = fa_get_mm(cmd->pid, &err);
	if (!w.mm)
		return err;
	mutex_lock(&fa_lock);
	err = fa_remove_locked(fa_match_addr, &w);
	mutex_unlock(&fa_lock);
	mmput(w.mm);
	return err;
}

static ssize_t fa_vma_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[FA_CMD_MAX_LEN];
	struct fa_cmd cmd;
	int err;

	/* One command per write(); reject before taking any lock. */
	if (!len || len > FA_CMD_MAX_LEN)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	err = fa_parse_cmd(buf, len, fa_max_order(), &cmd);
	if (err)
		return err;

	switch (cmd.type) {
	case FA_CMD_SET:
		err = fa_set(&cmd);
		break;
	case FA_CMD_DEFAULT:
		err = fa_default(&cmd);
		break;
	case FA_CMD_CLEAR:
		mutex_lock(&fa_lock);
		err = fa_remove_locked(fa_match_all, NULL);
		mutex_unlock(&fa_lock);
		if (err == -ENOENT)
			err = 0;	/* clearing nothing is fine */
		break;
	}
	return err ? err : len;
}

static int fa_vma_show(struct seq_file *m, void *v)
{
	struct fa_table *t;
	unsigned int i;

	mutex_lock(&fa_lock);
	fa_prune_locked();
	t = fa_current();
	for (i = 0; t && i < t->nr; i++)
		seq_printf(m, "%d %lx-%lx %u %ld\n", t->ov[i]->pid,
			   t->ov[i]->start, t->ov[i]->end, t->ov[i]->order,
			   atomic_long_read(&t->ov[i]->hits));
	mutex_unlock(&fa_lock);
	return 0;
}

static int fa_vma_open(struct inode *inode, struct file *file)
{
	return single_open(file, fa_vma_show, NULL);
}

static const struct file_operations fa_vma_fops = {
	.owner = THIS_MODULE,
	.open = fa_vma_open,
	.read = seq_read,
	.write = fa_vma_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * The kernel counts what fault-around maps (/proc/vmstat); the stats show
 * its counters since the last reset instead of counting again here.
 */
static int fa_vm_read(unsigned long val[2])
{
#ifdef CONFIG_VM_EVENT_COUNTERS
	unsigned long *ev = kmalloc_array(NR_VM_EVENT_ITEMS, sizeof(*ev),
					  GFP_KERNEL);

	if (!ev)
		return -ENOMEM;
	all_vm_events(ev);
	val[0] = ev[FAULT_AROUND];
	val[1] = ev[FAULT_AROUND_MAPPED];
	kfree(ev);
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

static int fa_stats_show(struct seq_file *m, void *v)
{
	unsigned long vm[2];
	unsigned int o;

	seq_printf(m, "hits %ld\nmisses %ld\n", atomic_long_read(&fa_hits),
		   atomic_long_read(&fa_misses));
	for (o = 0; o <= fa_max_order(); o++)
		seq_printf(m, "order%u %ld\n", o,
			   atomic_long_read(&fa_decided[o]));
	if (!fa_vm_read(vm)) {
		mutex_lock(&fa_lock);
		seq_printf(m, "fault_around %lu\nfault_around_mapped %lu\n",
			   vm[0] - fa_vm_base[0], vm[1] - fa_vm_base[1]);
		mutex_unlock(&fa_lock);
	}
	return 0;
}

static int fa_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, fa_stats_show, NULL);
}

static ssize_t fa_stats_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	unsigned long vm[2];
	unsigned int val, o;
	int err;

	err = kstrtouint_from_user(ubuf, len, 10, &val);
	if (err)
		return err;
	if (val)
		return -EINVAL;	/* only "0": reset */
	err = fa_vm_read(vm);
	if (err && err != -EOPNOTSUPP)
		return err;
	if (!err) {
		mutex_lock(&fa_lock);
		memcpy(fa_vm_base, vm, sizeof(vm));
		mutex_unlock(&fa_lock);
	}
	atomic_long_set(&fa_hits, 0);
	atomic_long_set(&fa_misses, 0);
	for (o = 0; o < FA_NR_ORDERS; o++)
		atomic_long_set(&fa_decided[o], 0);
	return len;
}

static const struct file_operations fa_stats_fops = {
	.owner = THIS_MODULE,
	.open = fa_stats_open,
	.read = seq_read,
	.write = fa_stats_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int fa_order_get(void *data, u64 *val)
{
	*val = fault_around_get_order();
	return 0;
}

/* The semantics and errors of /sys/kernel/debug/fault_around_order. */
static int fa_order_set(void *data, u64 val)
{
	if (val > fa_max_order())
		return -EINVAL;
	return fault_around_module_set_order(val) < 0 ? -EINVAL : 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(fa_order_fops, fa_order_get, fa_order_set, "%llu\n");

static int __init fa_init(void)
{
	unsigned long vm[2];

	if (!fa_vm_read(vm))
		memcpy(fa_vm_base, vm, sizeof(vm));
	fa_dir = debugfs_create_dir("faultaround", NULL);
	if (IS_ERR(fa_dir))
		return PTR_ERR(fa_dir);
	debugfs_create_file_unsafe("order", 0600, fa_dir, NULL, &fa_order_fops);
	debugfs_create_file("vma", 0600, fa_dir, NULL, &fa_vma_fops);
	debugfs_create_file("stats", 0600, fa_dir, NULL, &fa_stats_fops);
	return 0;
}

static void __exit fa_exit(void)
{
	/* No new commands: removal waits for the ones in progress. */
	debugfs_remove_recursive(fa_dir);
	mutex_lock(&fa_lock);
	fa_remove_locked(fa_match_all, NULL);	/* unregisters, drains */
	mutex_unlock(&fa_lock);
	cancel_delayed_work_sync(&fa_prune_work);
	/* The callbacks of the last removals, then the work they queued. */
	rcu_barrier();
	flush_work(&fa_free_work);
}

module_init(fa_init);
module_exit(fa_exit);

MODULE_DESCRIPTION("Per-VMA fault-around orders and statistics, through debugfs");
MODULE_LICENSE("GPL");
