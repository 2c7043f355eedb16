// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs files under /sys/kernel/debug/faultaround/, and the one
 * rule for who may use them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/rwsem.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <linux/vmstat.h>

#include "faultaround.h"

static struct dentry *fa_dir;

/* What "stats" subtracts: the statistics at load or at the last reset. */
static DEFINE_MUTEX(fa_base_lock);
static struct fa_stats fa_base;
static unsigned long fa_vm_base[2];

static unsigned int fa_max_order(void)
{
	return ilog2(PTRS_PER_PTE);
}

/* Refuse a request with @err, saying why in the kernel log. */
static int fa_refuse(const struct file *file, int err, const char *why)
{
	pr_info_ratelimited("%pD: %s (%pe)\n", file, why, ERR_PTR(err));
	return err;
}

/*
 * The rule, for every read and every write of every file: CAP_SYS_ADMIN,
 * both in the credentials that opened the file and in the caller's, so
 * that a descriptor handed to another process gives it nothing.  A
 * command that names a process needs, besides, the right to ptrace it
 * (fa_may_trace()), again in both.
 */
static int fa_check_admin(const struct file *file)
{
	if (file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN) &&
	    capable(CAP_SYS_ADMIN))
		return 0;
	return fa_refuse(file, -EPERM,
			 "CAP_SYS_ADMIN is needed, by the opener and the caller");
}

/* @cap in @ns: in the credentials that opened @file, or the caller's. */
static bool fa_ns_capable(const struct file *file, bool opener,
			  struct user_namespace *ns, int cap)
{
	return opener ? file_ns_capable(file, ns, cap) : ns_capable(ns, cap);
}

/*
 * May these credentials attach to @task with ptrace, by its real ids?
 * The uid/gid, capability and dumpable rules of __ptrace_may_access(),
 * which modules cannot call; LSM ptrace hooks do not apply.
 */
static bool fa_may_trace(const struct file *file, bool opener,
			 struct task_struct *task, struct mm_struct *mm)
{
	const struct cred *cred = opener ? file->f_cred : current_cred();
	const struct cred *tcred;
	bool ok;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->uid, tcred->euid) &&
	      uid_eq(cred->uid, tcred->suid) &&
	      uid_eq(cred->uid, tcred->uid) &&
	      gid_eq(cred->gid, tcred->egid) &&
	      gid_eq(cred->gid, tcred->sgid) &&
	      gid_eq(cred->gid, tcred->gid)) ||
	     fa_ns_capable(file, opener, tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	/*
	 * Dumpability after the credentials, as __ptrace_may_access() reads
	 * them: pairs with the write barrier in commit_creds().
	 */
	smp_rmb();
	if (ok && get_dumpable(mm) != SUID_DUMP_USER)
		ok = fa_ns_capable(file, opener, mm->user_ns, CAP_SYS_PTRACE);
	return ok;
}

/*
 * @pid's mm (mmget()), if both credentials may trace it; or NULL.  Under
 * the task's exec_update_lock, as
 * mm_access() does, so that an exec cannot swap the mm and the
 * credentials between the check and the get.
 */
static struct mm_struct *fa_get_mm(struct file *file, pid_t nr, int *err,
				   const char **why)
{
	struct task_struct *task;
	struct mm_struct *mm = NULL;
	struct pid *pid;

	pid = find_get_pid(nr);
	task = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	if (!task) {
		put_pid(pid);
		*why = "no such process";
		*err = -ESRCH;
		return NULL;
	}
	*err = down_read_killable(&task->signal->exec_update_lock);
	if (*err)
		goto out;
	mm = get_task_mm(task);
	if (!mm) {
		*why = "the process has no mm (a kernel thread, or exiting)";
		*err = -ESRCH;
	} else if (!fa_may_trace(file, true, task, mm) ||
		   !fa_may_trace(file, false, task, mm)) {
		mmput(mm);
		mm = NULL;
		*why = "the opener or the caller may not ptrace the process";
		*err = -EPERM;
	}
	up_read(&task->signal->exec_update_lock);
out:
	put_task_struct(task);
	put_pid(pid);
	return mm;
}

/*
 * The checks every write makes first: the rule, one write per request at
 * offset 0 (a pwrite() elsewhere is refused, not ignored), the length.
 */
static int fa_write_begin(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos, char *buf)
{
	int err = fa_check_admin(file);

	if (err)
		return err;
	/*
	 * debugfs checks lockdown at open only: a descriptor opened before
	 * it was raised must not write after.
	 */
	err = security_locked_down(LOCKDOWN_DEBUGFS);
	if (err)
		return fa_refuse(file, err, "debugfs is locked down");
	if (*ppos)
		return fa_refuse(file, -EINVAL, "a write at a non-zero offset");
	if (len > FA_CMD_MAX_LEN)
		return fa_refuse(file, -EINVAL, "longer than a command can be");
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	return 0;
}

static ssize_t fa_vma_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	const char *why = "out of memory";
	char buf[FA_CMD_MAX_LEN];
	struct mm_struct *mm;
	struct fa_cmd cmd;
	int err;

	err = fa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	err = fa_parse_cmd(buf, len, fa_max_order(), &cmd, &why);
	if (err)
		return fa_refuse(file, err, why);
	if (cmd.type == FA_CMD_CLEAR) {
		fa_clear();
		return len;
	}
	mm = fa_get_mm(file, cmd.pid, &err, &why);
	if (!mm)
		return err == -EINTR ? err : fa_refuse(file, err, why);
	if (cmd.type == FA_CMD_SET)
		err = fa_set(mm, cmd.addr, cmd.order, &why);
	else
		err = fa_default(mm, cmd.addr, &why);
	mmput(mm);
	if (err == -EINTR)
		return err;
	return err ? fa_refuse(file, err, why) : len;
}

/*
 * The listings show other processes' mappings, as /proc/<pid>/maps shows
 * each one's to those who may ptrace it: besides the rule, the reader
 * needs CAP_SYS_PTRACE over every process, in both credentials.  Both
 * list only the processes in the reader's pid namespace.
 */
static int fa_check_list(const struct file *file)
{
	int err = fa_check_admin(file);

	if (err)
		return err;
	if (file_ns_capable(file, &init_user_ns, CAP_SYS_PTRACE) &&
	    capable(CAP_SYS_PTRACE))
		return 0;
	return fa_refuse(file, -EPERM,
			 "a listing needs CAP_SYS_PTRACE, by the opener and the caller");
}

/* The data the listings are created with: their reads take its rule. */
static char fa_listing;

/*
 * Every read and seek is checked, not only the read that fills
 * seq_file's buffer: a descriptor handed over after a short read must
 * not read the rest, nor make seq_lseek() show the file again.
 */
static int fa_check_read(const struct file *file)
{
	if (file_inode(file)->i_private == &fa_listing)
		return fa_check_list(file);
	return fa_check_admin(file);
}

static ssize_t fa_read(struct file *file, char __user *buf, size_t len,
		       loff_t *ppos)
{
	int err = fa_check_read(file);

	return err ? err : seq_read(file, buf, len, ppos);
}

static loff_t fa_llseek(struct file *file, loff_t off, int whence)
{
	int err = fa_check_read(file);

	return err ? err : seq_lseek(file, off, whence);
}

static int fa_vma_show(struct seq_file *m, void *v)
{
	return fa_show(m);
}

/*
 * A reader's buffer has room for every line at once: seq_file runs the
 * show again to grow it.  A writer's needs none.
 */
static int fa_vma_open(struct inode *inode, struct file *file)
{
	size_t size = (READ_ONCE(fa_ovs.nr) + 1) * FA_SHOW_LINE_MAX;

	if (!(file->f_mode & FMODE_READ))
		return single_open(file, fa_vma_show, NULL);
	return single_open_size(file, fa_vma_show, NULL,
				max_t(size_t, size, PAGE_SIZE));
}

static const struct file_operations fa_vma_fops = {
	.owner = THIS_MODULE,
	.open = fa_vma_open,
	.read = fa_read,
	.write = fa_vma_write,
	.llseek = fa_llseek,
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
	unsigned long vm[2], untracked, evicted;
	unsigned int tracked;
	struct fa_stats st;
	unsigned int o;
	int err;

	fa_stats_read(&st);
	err = fa_vm_read(vm);
	mutex_lock(&fa_base_lock);
	seq_printf(m, "hits %llu\nmisses %llu\n", st.hits - fa_base.hits,
		   st.misses - fa_base.misses);
	for (o = 0; o <= fa_max_order(); o++)
		seq_printf(m, "order%u %llu\n", o,
			   st.decided[o] - fa_base.decided[o]);
	if (!err)
		seq_printf(m, "fault_around %lu\nfault_around_mapped %lu\n",
			   vm[0] - fa_vm_base[0], vm[1] - fa_vm_base[1]);
	mutex_unlock(&fa_base_lock);
	fa_adapt_counts(&tracked, &untracked, &evicted);
	seq_printf(m, "adaptive_mappings %u\n", tracked);
	seq_printf(m, "adaptive_limit %u\n", FA_ADAPT_MAX_MAPPINGS);
	seq_printf(m, "adaptive_untracked %lu\n", untracked);
	seq_printf(m, "adaptive_evicted %lu\n", evicted);
	seq_printf(m, "overrides_uncopied %lu\n", fa_overrides_uncopied());
	return 0;
}

static int fa_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, fa_stats_show, NULL);
}

/* Make the current statistics the base: what "0" does, and load. */
static int fa_stats_reset(void)
{
	unsigned long vm[2];
	struct fa_stats st;
	int err;

	err = fa_vm_read(vm);
	if (err && err != -EOPNOTSUPP)
		return err;
	fa_stats_read(&st);
	mutex_lock(&fa_base_lock);
	fa_base = st;
	if (!err)
		memcpy(fa_vm_base, vm, sizeof(vm));
	mutex_unlock(&fa_base_lock);
	return 0;
}

static ssize_t fa_stats_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char buf[FA_CMD_MAX_LEN];
	const char *why;
	unsigned int val;
	int err;

	err = fa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	/* Only "0": reset. */
	err = fa_parse_uint(buf, len, 0, &val, &why);
	if (err)
		return fa_refuse(file, err, why);
	err = fa_stats_reset();
	return err ? err : len;
}

static const struct file_operations fa_stats_fops = {
	.owner = THIS_MODULE,
	.open = fa_stats_open,
	.read = fa_read,
	.write = fa_stats_write,
	.llseek = fa_llseek,
	.release = single_release,
};

static int fa_policy_show(struct seq_file *m, void *v)
{
	seq_puts(m, fa_adapt_enabled() ? "adaptive\n" : "off\n");
	return 0;
}

static int fa_policy_open(struct inode *inode, struct file *file)
{
	return single_open(file, fa_policy_show, NULL);
}

static ssize_t fa_policy_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char buf[FA_CMD_MAX_LEN];
	bool adaptive;
	const char *why;
	int err;

	err = fa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	err = fa_parse_policy(buf, len, &adaptive, &why);
	if (!err)
		err = fa_adapt_set(adaptive, &why);
	return err ? fa_refuse(file, err, why) : len;
}

static const struct file_operations fa_policy_fops = {
	.owner = THIS_MODULE,
	.open = fa_policy_open,
	.read = fa_read,
	.write = fa_policy_write,
	.llseek = fa_llseek,
	.release = single_release,
};

static int fa_adaptive_show(struct seq_file *m, void *v)
{
	fa_adapt_show(m);
	return 0;
}

static int fa_adaptive_open(struct inode *inode, struct file *file)
{
	return single_open(file, fa_adaptive_show, NULL);
}

static const struct file_operations fa_adaptive_fops = {
	.owner = THIS_MODULE,
	.open = fa_adaptive_open,
	.read = fa_read,
	.llseek = fa_llseek,
	.release = single_release,
};

static int fa_order_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", fault_around_get_order());
	return 0;
}

static int fa_order_open(struct inode *inode, struct file *file)
{
	return single_open(file, fa_order_show, NULL);
}

/* The range and error of /sys/kernel/debug/fault_around_order, our grammar. */
static ssize_t fa_order_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	char buf[FA_CMD_MAX_LEN];
	unsigned int order;
	const char *why;
	int err;

	err = fa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	err = fa_parse_uint(buf, len, fa_max_order(), &order, &why);
	if (!err && fault_around_module_set_order(order) < 0) {
		why = "the kernel refused the order";
		err = -EINVAL;
	}
	return err ? fa_refuse(file, err, why) : len;
}

static const struct file_operations fa_order_fops = {
	.owner = THIS_MODULE,
	.open = fa_order_open,
	.read = fa_read,
	.write = fa_order_write,
	.llseek = fa_llseek,
	.release = single_release,
};

/**
 * fa_iface_init - create /sys/kernel/debug/faultaround/
 *
 * Return: 0 or an errno.
 */
int fa_iface_init(void)
{
	int err = fa_stats_reset();

	if (err)
		return err;
	fa_dir = debugfs_create_dir("faultaround", NULL);
	if (IS_ERR(fa_dir))
		return PTR_ERR(fa_dir);
	debugfs_create_file("order", 0600, fa_dir, NULL, &fa_order_fops);
	debugfs_create_file("vma", 0600, fa_dir, &fa_listing, &fa_vma_fops);
	debugfs_create_file("stats", 0600, fa_dir, NULL, &fa_stats_fops);
	debugfs_create_file("policy", 0600, fa_dir, NULL, &fa_policy_fops);
	debugfs_create_file("adaptive", 0400, fa_dir, &fa_listing,
			    &fa_adaptive_fops);
	return 0;
}

/**
 * fa_iface_exit - remove the files, waiting for the calls in progress
 */
void fa_iface_exit(void)
{
	debugfs_remove_recursive(fa_dir);
}
