/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit case for the writes' locking (override.c): a target that holds its
 * mmap lock stalls the writes that name it, and no other.  Included by
 * test.c.
 */
#ifndef _MFA_OVERRIDE_KUNIT_H
#define _MFA_OVERRIDE_KUNIT_H

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mmap_lock.h>
#include <linux/sched/mm.h>

/* A set, on an mm of its own, made by a thread of its own. */
struct set_thread {
	struct mm_struct *mm;
	struct completion done;
	int err;
};

static int set_thread_fn(void *data)
{
	struct set_thread *s = data;
	const char *why = NULL;

	/* No VMA in the mm: -ENOENT once its mmap lock is had. */
	s->err = mfa_set(s->mm, PAGE_SIZE, 1, &why);
	complete(&s->done);
	return 0;
}

static struct set_thread *set_thread_new(struct kunit *test)
{
	struct set_thread *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, s->mm);
	init_completion(&s->done);
	return s;
}

static void set_thread_start(struct kunit *test, struct set_thread *s,
			     const char *name)
{
	KUNIT_ASSERT_FALSE(test, IS_ERR(kthread_run(set_thread_fn, s, "%s",
						     name)));
}

/*
 * One set waits for a target's mmap lock, held here as a stalled target
 * would hold it (a read of its own /proc/self/mem over a FUSE file it never
 * answers); a set on another mm must still complete.  The module's hook is
 * taken and given back by the sets, as by any write; with another policy
 * registered they fail at once, and the case skips.
 */
static void set_not_stalled_by_other_target(struct kunit *test)
{
	struct set_thread *stalled = set_thread_new(test);
	struct set_thread *other = set_thread_new(test);
	unsigned long until = jiffies + 10 * HZ;
	bool completed;

	mmap_write_lock(stalled->mm);
	set_thread_start(test, stalled, "mfa-stalled");
	while (!mmap_lock_is_contended(stalled->mm) &&
	       !completion_done(&stalled->done) && time_before(jiffies, until))
		msleep(10);
	if (completion_done(&stalled->done)) {
		mmap_write_unlock(stalled->mm);
		mmput(stalled->mm);
		KUNIT_ASSERT_EQ(test, stalled->err, -EBUSY);
		kunit_skip(test, "another fault-around policy holds the hook");
	}
	KUNIT_EXPECT_TRUE_MSG(test, mmap_lock_is_contended(stalled->mm),
			      "the set never waited for the target's lock");

	set_thread_start(test, other, "mfa-other");
	completed = wait_for_completion_timeout(&other->done, 5 * HZ);
	mmap_write_unlock(stalled->mm);
	KUNIT_EXPECT_TRUE_MSG(test, completed,
			      "a set on another mm waited for the stalled target");

	wait_for_completion(&other->done);
	wait_for_completion(&stalled->done);
	KUNIT_EXPECT_EQ(test, other->err, -ENOENT);
	KUNIT_EXPECT_EQ(test, stalled->err, -ENOENT);
	mmput(other->mm);
	mmput(stalled->mm);
}

#endif /* _MFA_OVERRIDE_KUNIT_H */
