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
	kthread_complete_and_exit(&s->done, 0);
}

static void mmput_action(void *mm)
{
	mmput(mm);
}

static struct set_thread *set_thread_new(struct kunit *test)
{
	struct set_thread *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, s->mm);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, mmput_action,
							s->mm), 0);
	init_completion(&s->done);
	return s;
}

static bool set_thread_start(struct set_thread *s, const char *name)
{
	return !IS_ERR(kthread_run(set_thread_fn, s, "%s", name));
}

/*
 * One set waits for a target's mmap lock, held here as a stalled target
 * would hold it (a read of its own /proc/self/mem over a FUSE file it never
 * answers); a set on another mm must still complete.  Unlike the other
 * cases, this one uses the module's own lock and hook: the sets take the
 * hook and give it back, as any write does (the policy registered for up
 * to 5 s); with another policy registered they fail at once, and the case
 * skips.  Nothing asserts while the lock is held.
 */
static void set_not_stalled_by_other_target(struct kunit *test)
{
	struct set_thread *stalled = set_thread_new(test);
	struct set_thread *other = set_thread_new(test);
	unsigned long until = jiffies + 10 * HZ;
	bool started, completed = false;

	mmap_write_lock(stalled->mm);
	if (!set_thread_start(stalled, "mfa-stalled")) {
		mmap_write_unlock(stalled->mm);
		KUNIT_FAIL(test, "cannot start a thread");
		return;
	}
	while (!mmap_lock_is_contended(stalled->mm) &&
	       !completion_done(&stalled->done) && time_before(jiffies, until))
		msleep(20);
	if (completion_done(&stalled->done)) {
		mmap_write_unlock(stalled->mm);
		KUNIT_ASSERT_EQ(test, stalled->err, -EBUSY);
		kunit_skip(test, "another fault-around policy holds the hook");
	}
	KUNIT_EXPECT_TRUE_MSG(test, mmap_lock_is_contended(stalled->mm),
			      "the set never waited for the target's lock");

	started = set_thread_start(other, "mfa-other");
	if (started)
		completed = wait_for_completion_timeout(&other->done, 5 * HZ);
	mmap_write_unlock(stalled->mm);
	KUNIT_EXPECT_TRUE(test, started);
	KUNIT_EXPECT_TRUE_MSG(test, completed,
			      "a set on another mm waited for the stalled target");

	if (started) {
		wait_for_completion(&other->done);
		KUNIT_EXPECT_EQ(test, other->err, -ENOENT);
	}
	wait_for_completion(&stalled->done);
	KUNIT_EXPECT_EQ(test, stalled->err, -ENOENT);
}

#endif /* _MFA_OVERRIDE_KUNIT_H */
