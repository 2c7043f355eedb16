/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hook.c registers what its users need: a baseline alone gets the order
 * without ->vma_free() and ->vma_dup(), so that freeing and copying VMAs
 * calls nothing of the module; overrides get both; the last user
 * unregisters it.  It uses the module's own hook, so it skips while
 * anything else of the module uses it.
 */
#ifndef _MFA_HOOK_KUNIT_H
#define _MFA_HOOK_KUNIT_H

static void hook_put_order(void *unused)
{
	mfa_hook_put(MFA_HOOK_ORDER);
}

/* Registered: the order, and the VMA callbacks if @vmas, else neither. */
static void expect_policy(struct kunit *test, bool vmas)
{
	const struct fault_around_policy *p = mfa_hook_registered();

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_NOT_NULL(test, p->order);
	KUNIT_EXPECT_EQ(test, !!p->vma_free, vmas);
	KUNIT_EXPECT_EQ(test, !!p->vma_dup, vmas);
}

static void hook_follows_users(struct kunit *test)
{
	if (mfa_hook_registered())
		kunit_skip(test, "mod_faultaround's hook is in use");
	KUNIT_ASSERT_EQ(test, mfa_hook_get(MFA_HOOK_ORDER), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hook_put_order, NULL), 0);
	expect_policy(test, false);

	KUNIT_ASSERT_EQ(test, mfa_hook_get(MFA_HOOK_VMAS), 0);
	expect_policy(test, true);
	/* A second baseline's use changes nothing while overrides hold it. */
	KUNIT_ASSERT_EQ(test, mfa_hook_get(MFA_HOOK_ORDER), 0);
	mfa_hook_put(MFA_HOOK_ORDER);
	expect_policy(test, true);
	mfa_hook_put(MFA_HOOK_VMAS);
	expect_policy(test, false);

	kunit_release_action(test, hook_put_order, NULL);
	KUNIT_EXPECT_NULL(test, mfa_hook_registered());
}

#endif /* _MFA_HOOK_KUNIT_H */
