/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit cases for the overrides' hash (table.c).  Included by test.c,
 * the suite's one module, as DAMON's unit tests are by their files.
 */
#ifndef _MFA_TABLE_KUNIT_H
#define _MFA_TABLE_KUNIT_H

/*
 * VMAs that the overrides only compare: a private table of the test's, so
 * that the module's own is never touched.
 */
static struct vm_area_struct *vmas(struct kunit *test, unsigned int n)
{
	struct vm_area_struct *v = kunit_kcalloc(test, n, sizeof(*v), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	return v;
}

static struct mfa_overrides *table(struct kunit *test)
{
	struct mfa_overrides *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	mfa_ovs_init(t);
	return t;
}

/*
 * Set @order on @vma in @t within the limits: 0, or -ENOSPC with @t as it
 * was.  The override it replaced is freed.
 */
static int set_within(struct kunit *test, struct mfa_overrides *t,
		      const struct vm_area_struct *vma, unsigned int order,
		      unsigned int writes)
{
	struct mfa_override *ov = mfa_ov_alloc(vma, order, GFP_KERNEL), *old;

	KUNIT_ASSERT_NOT_NULL(test, ov);
	old = mfa_ovs_set(t, ov, writes);
	if (IS_ERR(old)) {
		mfa_ov_free(ov);
		return PTR_ERR(old);
	}
	if (old)
		mfa_ov_put(old);
	return 0;
}

static void set(struct kunit *test, struct mfa_overrides *t,
		const struct vm_area_struct *vma, unsigned int order)
{
	KUNIT_ASSERT_EQ(test, set_within(test, t, vma, order, UINT_MAX), 0);
}

/* The order of @vma's override in @t, or -1 if it has none. */
static int order_of(struct mfa_overrides *t, const struct vm_area_struct *vma)
{
	struct mfa_override *ov;
	int order;

	rcu_read_lock();
	ov = mfa_ovs_find(t, vma);
	order = ov ? ov->o->order : -1;
	rcu_read_unlock();
	return order;
}

/* Empty the table, and wait for its overrides to be freed. */
static void done(struct mfa_overrides *t)
{
	mfa_ovs_clear(t);
	rcu_barrier();
}

/* One override per VMA: a write replaces it, and no other VMA has it. */
static void ovs_set_replaces(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 3);
	struct mfa_overrides *t = table(test);

	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), -1);
	set(test, t, &v[0], 0);
	set(test, t, &v[1], 4);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 4);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[2]), -1);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	set(test, t, &v[0], 2);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 2);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 4);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	done(t);
	KUNIT_EXPECT_EQ(test, t->nr, 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), -1);
}

/*
 * A copy (split, move, fork) shares its original's order and counter, and
 * outlives it; a VMA without an override copies none.
 */
static void ovs_dup_follows(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 4);
	struct mfa_overrides *t = table(test);
	struct mfa_override *a, *b;

	set(test, t, &v[0], 3);
	mfa_ovs_dup(t, &v[0], &v[1], UINT_MAX, GFP_KERNEL);
	mfa_ovs_dup(t, &v[2], &v[3], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 3);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[3]), -1);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	rcu_read_lock();
	a = mfa_ovs_find(t, &v[0]);
	b = mfa_ovs_find(t, &v[1]);
	KUNIT_EXPECT_TRUE(test, a && b && a != b && a->o == b->o &&
			  refcount_read(&a->o->ref) == 2);
	rcu_read_unlock();
	/* A write to the copy is its own: the original keeps its order. */
	set(test, t, &v[1], 1);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 3);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 1);
	KUNIT_EXPECT_TRUE(test, mfa_ovs_remove(t, &v[0]));
	KUNIT_EXPECT_FALSE(test, mfa_ovs_remove(t, &v[0]));
	mfa_ovs_dup(t, &v[0], &v[2], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[2]), -1);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 1);
	KUNIT_EXPECT_EQ(test, t->nr, 1);
	done(t);
}

/* The original goes first: its copy keeps the order. */
static void ovs_copy_outlives(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 2);
	struct mfa_overrides *t = table(test);

	set(test, t, &v[0], 5);
	mfa_ovs_dup(t, &v[0], &v[1], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, mfa_ovs_remove(t, &v[0]));
	rcu_barrier();	/* the original freed: its share of the order too */
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 5);
	done(t);
}

/*
 * Copies stop at the limit, counted, and never fail; writes are counted
 * once however many VMAs share them, until the last goes.
 */
static void ovs_copy_limit(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 4);
	struct mfa_overrides *t = table(test);

	set(test, t, &v[0], 2);
	mfa_ovs_dup(t, &v[0], &v[1], 2, GFP_KERNEL);
	mfa_ovs_dup(t, &v[0], &v[2], 2, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[1]), 2);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[2]), -1);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	KUNIT_EXPECT_EQ(test, t->uncopied, 1);
	KUNIT_EXPECT_EQ(test, t->writes, 1);
	set(test, t, &v[3], 1);
	KUNIT_EXPECT_EQ(test, t->writes, 2);
	KUNIT_EXPECT_TRUE(test, mfa_ovs_remove(t, &v[0]));
	KUNIT_EXPECT_EQ(test, t->writes, 2);
	KUNIT_EXPECT_TRUE(test, mfa_ovs_remove(t, &v[1]));
	KUNIT_EXPECT_EQ(test, t->writes, 1);
	/* A write that replaces a VMA's own override: still one. */
	set(test, t, &v[3], 5);
	KUNIT_EXPECT_EQ(test, t->writes, 1);
	/* At the limit a new one is refused; replacing one is not. */
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 1, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), -1);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[3], 0, 1), 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[3]), 0);
	KUNIT_EXPECT_EQ(test, t->nr, 1);
	/* Replacing a shared one adds a write: refused at the limit. */
	mfa_ovs_dup(t, &v[3], &v[0], UINT_MAX, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 3, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[0]), 0);
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[0], 3, 2), 0);
	KUNIT_EXPECT_EQ(test, t->writes, 2);
	done(t);
	KUNIT_EXPECT_EQ(test, t->writes, 0);
}

/*
 * Copies at their limit leave the writes their room: a user who forks an
 * overridden VMA cannot make root's next write fail.
 */
static void ovs_copies_leave_room(struct kunit *test)
{
	struct vm_area_struct *v = vmas(test, 4);
	struct mfa_overrides *t = table(test);

	set(test, t, &v[0], 2);
	mfa_ovs_dup(t, &v[0], &v[1], 2, GFP_KERNEL);
	mfa_ovs_dup(t, &v[0], &v[2], 2, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, t->uncopied, 1);
	/* Two overrides, one write: a second write is within two. */
	KUNIT_EXPECT_EQ(test, set_within(test, t, &v[3], 4, 2), 0);
	KUNIT_EXPECT_EQ(test, order_of(t, &v[3]), 4);
	KUNIT_EXPECT_EQ(test, t->nr, 3);
	done(t);
}

/* More VMAs than buckets: each finds its own, removals leave the rest. */
static void ovs_many(struct kunit *test)
{
	const unsigned int n = 3 << MFA_OV_HASH_BITS;
	struct vm_area_struct *v = vmas(test, n);
	struct mfa_overrides *t = table(test);
	unsigned int i, wrong = 0;

	for (i = 0; i < n; i++)
		set(test, t, &v[i], i % MFA_NR_ORDERS);
	for (i = 0; i < n; i += 2)
		KUNIT_EXPECT_TRUE(test, mfa_ovs_remove(t, &v[i]));
	for (i = 0; i < n; i++)
		wrong += order_of(t, &v[i]) != (i % 2 ? (int)(i % MFA_NR_ORDERS) : -1);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, t->nr, n / 2);
	done(t);
	KUNIT_EXPECT_EQ(test, t->nr, 0);
}

#endif /* _MFA_TABLE_KUNIT_H */
