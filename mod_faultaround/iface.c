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
#ifdef MFA_HAVE_EXEC_STATE
#include <linux/sched/exec_state.h>
#endif
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

static struct dentry *mfa_dir;

/* What "stats" subtracts: the statistics at load or at the last reset. */
static DEFINE_MUTEX(mfa_base_lock);
static struct mfa_stats mfa_base;
static unsigned long mfa_vm_base[2];

static unsigned int mfa_max_order(void)
{
	return ilog2(PTRS_PER_PTE);
}

/* Refuse a request with @err, saying why in the kernel log. */
static int mfa_refuse(const struct file *file, int err, const char *why)
{
	pr_info_ratelimited("%pD: %s (%pe)\n", file, why, ERR_PTR(err));
	return err;
}

/*
 * The rule, for every read and every write of every file: CAP_SYS_ADMIN,
 * both in the credentials that opened the file and in the caller's, so
 * that a descriptor handed to another process gives it nothing.  A
 * command that names a process needs, besides, the right to ptrace it
 * (mfa_may_trace()), again in both.
 */
static int mfa_check_admin(const struct file *file)
{
	if (file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN) &&
	    capable(CAP_SYS_ADMIN))
		return 0;
	return mfa_refuse(file, -EPERM,
			 "CAP_SYS_ADMIN is needed, by the opener and the caller");
}

/* @cap in @ns: in the credentials that opened @file, or the caller's. */
static bool mfa_ns_capable(const struct file *file, bool opener,
			   struct user_namespace *ns, int cap)
{
	return opener ? file_ns_capable(file, ns, cap) : ns_capable(ns, cap);
}

/*
 * The namespace whose CAP_SYS_PTRACE a tracer needs because @task is not
 * dumpable by its owner, or NULL when it is.  Under @task's
 * exec_update_lock, which an exec takes to change either.  Since 7.3 the
 * task keeps its dumpability (task_exec_state); before, the mm did.
 */
static struct user_namespace *mfa_undumpable_ns(struct task_struct *task,
						struct mm_struct *mm)
{
#ifdef MFA_HAVE_EXEC_STATE
	const struct task_exec_state *es;
	struct user_namespace *ns;

	rcu_read_lock();
	es = rcu_dereference(task->exec_state);
	ns = READ_ONCE(es->dumpable) == TASK_DUMPABLE_OWNER ? NULL : es->user_ns;
	rcu_read_unlock();
	return ns;
#else
	return get_dumpable(mm) == SUID_DUMP_USER ? NULL : mm->user_ns;
#endif
}

/*
 * May these credentials attach to @task with ptrace, by its real ids?
 * The uid/gid, capability and dumpable rules of __ptrace_may_access(),
 * which modules cannot call; LSM ptrace hooks do not apply.
 */
static bool mfa_may_trace(const struct file *file, bool opener,
			  struct task_struct *task, struct mm_struct *mm)
{
	const struct cred *cred = opener ? file->f_cred : current_cred();
	const struct cred *tcred;
	struct user_namespace *ns;
	bool ok;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->uid, tcred->euid) &&
	      uid_eq(cred->uid, tcred->suid) &&
	      uid_eq(cred->uid, tcred->uid) &&
	      gid_eq(cred->gid, tcred->egid) &&
	      gid_eq(cred->gid, tcred->sgid) &&
	      gid_eq(cred->gid, tcred->gid)) ||
	     mfa_ns_capable(file, opener, tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	/*
	 * Dumpability after the credentials, as __ptrace_may_access() reads
	 * them: pairs with the write barrier in commit_creds().
	 */
	smp_rmb();
	ns = ok ? mfa_undumpable_ns(task, mm) : NULL;
	if (ns)
		ok = mfa_ns_capable(file, opener, ns, CAP_SYS_PTRACE);
	return ok;
}

/*
 * @pid's mm (mmget()), if both credentials may trace it; or NULL.  Under
 * the task's exec_update_lock, as
 * mm_access() does, so that an exec cannot swap the mm and the
 * credentials between the check and the get.
 */
static struct mm_struct *mfa_get_mm(struct file *file, pid_t nr, int *err,
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
	} else if (!mfa_may_trace(file, true, task, mm) ||
		   !mfa_may_trace(file, false, task, mm)) {
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
static int mfa_write_begin(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos, char *buf)
{
	int err = mfa_check_admin(file);

	if (err)
		return err;
	/*
	 * debugfs checks lockdown at open only: a descriptor opened before
	 * it was raised must not write after.
	 */
	err = security_locked_down(LOCKDOWN_DEBUGFS);
	if (err)
		return mfa_refuse(file, err, "debugfs is locked down");
	if (*ppos)
		return mfa_refuse(file, -EINVAL, "a write at a non-zero offset");
	if (len > MFA_CMD_MAX_LEN)
		return mfa_refuse(file, -EINVAL, "longer than a command can be");
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	return 0;
}

static ssize_t mfa_vma_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	const char *why = "out of memory";
	char buf[MFA_CMD_MAX_LEN];
	struct mm_struct *mm;
	struct mfa_cmd cmd;
	int err;

	err = mfa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	err = mfa_parse_cmd(buf, len, mfa_max_order(), &cmd, &why);
	if (err)
		return mfa_refuse(file, err, why);
	if (cmd.type == MFA_CMD_CLEAR) {
		mfa_clear();
		return len;
	}
	mm = mfa_get_mm(file, cmd.pid, &err, &why);
	if (!mm)
		return err == -EINTR ? err : mfa_refuse(file, err, why);
	if (cmd.type == MFA_CMD_SET)
		err = mfa_set(mm, cmd.addr, cmd.order, &why);
	else
		err = mfa_default(mm, cmd.addr, &why);
	mmput(mm);
	if (err == -EINTR)
		return err;
	return err ? mfa_refuse(file, err, why) : len;
}

/*
 * The listings show other processes' mappings, as /proc/<pid>/maps shows
 * each one's to those who may ptrace it: besides the rule, the reader
 * needs CAP_SYS_PTRACE over every process, in both credentials.  Both
 * list only the processes in the reader's pid namespace.
 */
static int mfa_check_list(const struct file *file)
{
	int err = mfa_check_admin(file);

	if (err)
		return err;
	if (file_ns_capable(file, &init_user_ns, CAP_SYS_PTRACE) &&
	    capable(CAP_SYS_PTRACE))
		return 0;
	return mfa_refuse(file, -EPERM,
			 "a listing needs CAP_SYS_PTRACE, by the opener and the caller");
}

/* The data the listings are created with: their reads take its rule. */
static char mfa_listing;

/*
 * Every read and seek is checked, not only the read that fills
 * seq_file's buffer: a descriptor handed over after a short read must
 * not read the rest, nor make seq_lseek() show the file again.
 */
static int mfa_check_read(const struct file *file)
{
	if (file_inode(file)->i_private == &mfa_listing)
		return mfa_check_list(file);
	return mfa_check_admin(file);
}

static ssize_t mfa_read(struct file *file, char __user *buf, size_t len,
			loff_t *ppos)
{
	int err = mfa_check_read(file);

	return err ? err : seq_read(file, buf, len, ppos);
}

static loff_t mfa_llseek(struct file *file, loff_t off, int whence)
{
	int err = mfa_check_read(file);

	return err ? err : seq_lseek(file, off, whence);
}

static int mfa_vma_show(struct seq_file *m, void *v)
{
	return mfa_show(m);
}

/*
 * A reader's buffer has room for every line at once: seq_file runs the
 * show again to grow it.  A writer's needs none.
 */
static int mfa_vma_open(struct inode *inode, struct file *file)
{
	size_t size = (mfa_overrides_nr() + 1) * MFA_SHOW_LINE_MAX;

	if (!(file->f_mode & FMODE_READ))
		return single_open(file, mfa_vma_show, NULL);
	return single_open_size(file, mfa_vma_show, NULL,
				max_t(size_t, size, PAGE_SIZE));
}

static const struct file_operations mfa_vma_fops = {
	.owner = THIS_MODULE,
	.open = mfa_vma_open,
	.read = mfa_read,
	.write = mfa_vma_write,
	.llseek = mfa_llseek,
	.release = single_release,
};

/*
 * The kernel counts what fault-around maps (/proc/vmstat); the stats show
 * its counters since the last reset instead of counting again here.
 */
static int mfa_vm_read(unsigned long val[2])
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

static int mfa_stats_show(struct seq_file *m, void *v)
{
	unsigned long vm[2];
	struct mfa_stats st;
	unsigned int o;
	int err;

	mfa_stats_read(&st);
	err = mfa_vm_read(vm);
	mutex_lock(&mfa_base_lock);
	seq_printf(m, "hits %llu\nmisses %llu\n", st.hits - mfa_base.hits,
		   st.misses - mfa_base.misses);
	for (o = 0; o <= mfa_max_order(); o++)
		seq_printf(m, "order%u %llu\n", o,
			   st.decided[o] - mfa_base.decided[o]);
	if (!err)
		seq_printf(m, "fault_around %lu\nfault_around_mapped %lu\n",
			   vm[0] - mfa_vm_base[0], vm[1] - mfa_vm_base[1]);
	mutex_unlock(&mfa_base_lock);
	seq_printf(m, "overrides_uncopied %lu\n", mfa_overrides_uncopied());
	return 0;
}

static int mfa_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, mfa_stats_show, NULL);
}

/* Make the current statistics the base: what "0" does, and load. */
static int mfa_stats_reset(void)
{
	unsigned long vm[2];
	struct mfa_stats st;
	int err;

	err = mfa_vm_read(vm);
	if (err && err != -EOPNOTSUPP)
		return err;
	mfa_stats_read(&st);
	mutex_lock(&mfa_base_lock);
	mfa_base = st;
	if (!err)
		memcpy(mfa_vm_base, vm, sizeof(vm));
	mutex_unlock(&mfa_base_lock);
	return 0;
}

static ssize_t mfa_stats_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char buf[MFA_CMD_MAX_LEN];
	const char *why;
	unsigned int val;
	int err;

	err = mfa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	/* Only "0": reset. */
	err = mfa_parse_uint(buf, len, 0, &val, &why);
	if (err)
		return mfa_refuse(file, err, why);
	err = mfa_stats_reset();
	return err ? err : len;
}

static const struct file_operations mfa_stats_fops = {
	.owner = THIS_MODULE,
	.open = mfa_stats_open,
	.read = mfa_read,
	.write = mfa_stats_write,
	.llseek = mfa_llseek,
	.release = single_release,
};

static int mfa_policy_show(struct seq_file *m, void *v)
{
	enum mfa_policy p = mfa_baseline();
	bool adaptive = fault_around_adaptive_enabled();

	/* The sysctl can turn the kernel's policy on under a baseline. */
	if (p == MFA_POLICY_OFF && adaptive)
		p = MFA_POLICY_ADAPTIVE;
	seq_printf(m, "%s%s\n", mfa_policy_names[p],
		   p != MFA_POLICY_ADAPTIVE && adaptive ?
		   " (and vm.fault_around_adaptive=1: the baseline caps at its order)" : "");
	return 0;
}

static int mfa_policy_open(struct inode *inode, struct file *file)
{
	return single_open(file, mfa_policy_show, NULL);
}

static ssize_t mfa_policy_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char buf[MFA_CMD_MAX_LEN];
	enum mfa_policy policy;
	const char *why;
	int err;

	err = mfa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	err = mfa_parse_policy(buf, len, &policy, &why);
	if (err)
		return mfa_refuse(file, err, why);
	err = mfa_baseline_set(policy);
	if (err)
		return mfa_refuse(file, err, "the policy hook is taken by another module");
	return len;
}

static const struct file_operations mfa_policy_fops = {
	.owner = THIS_MODULE,
	.open = mfa_policy_open,
	.read = mfa_read,
	.write = mfa_policy_write,
	.llseek = mfa_llseek,
	.release = single_release,
};

static int mfa_order_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", fault_around_get_order());
	return 0;
}

static int mfa_order_open(struct inode *inode, struct file *file)
{
	return single_open(file, mfa_order_show, NULL);
}

/* The range and error of /sys/kernel/debug/fault_around_order, our grammar. */
static ssize_t mfa_order_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char buf[MFA_CMD_MAX_LEN];
	unsigned int order;
	const char *why;
	int err;

	err = mfa_write_begin(file, ubuf, len, ppos, buf);
	if (err)
		return err;
	err = mfa_parse_uint(buf, len, mfa_max_order(), &order, &why);
	if (!err && fault_around_module_set_order(order) < 0) {
		why = "the kernel refused the order";
		err = -EINVAL;
	}
	return err ? mfa_refuse(file, err, why) : len;
}

static const struct file_operations mfa_order_fops = {
	.owner = THIS_MODULE,
	.open = mfa_order_open,
	.read = mfa_read,
	.write = mfa_order_write,
	.llseek = mfa_llseek,
	.release = single_release,
};

/**
 * mfa_iface_init - create /sys/kernel/debug/faultaround/
 *
 * Return: 0 or an errno.
 */
int mfa_iface_init(void)
{
	int err = mfa_stats_reset();

	if (err)
		return err;
	mfa_dir = debugfs_create_dir("faultaround", NULL);
	if (IS_ERR(mfa_dir))
		return PTR_ERR(mfa_dir);
	debugfs_create_file("order", 0600, mfa_dir, NULL, &mfa_order_fops);
	debugfs_create_file("vma", 0600, mfa_dir, &mfa_listing, &mfa_vma_fops);
	debugfs_create_file("stats", 0600, mfa_dir, NULL, &mfa_stats_fops);
	debugfs_create_file("policy", 0600, mfa_dir, NULL, &mfa_policy_fops);
	return 0;
}

/**
 * mfa_iface_exit - remove the files, waiting for the calls in progress
 */
void mfa_iface_exit(void)
{
	debugfs_remove_recursive(mfa_dir);
}
