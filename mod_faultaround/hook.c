// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's policy hook, registered while something of the module uses
 * it: the overrides, while there are any, with ->vma_free() and
 * ->vma_dup() to follow their VMAs; a baseline alone without them, so that
 * freeing and copying a VMA then calls nothing of the module.  An idle
 * module costs the fault path nothing.  It knows none of its users, nor
 * the policies, which main.c hands it at load, so that the module's files
 * depend on one another one way only.
 */
#include <kunit/visibility.h>
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/printk.h>

#include "faultaround.h"

static const struct fault_around_policy *mfa_hook_policy[MFA_HOOK_NR] __ro_after_init;
static DEFINE_MUTEX(mfa_hook_lock);
static unsigned int mfa_hook_users[MFA_HOOK_NR];
static const struct fault_around_policy *mfa_hook_now;

/*
 * At load (__init), before any user: the policy of each use, the
 * overrides' with the VMA callbacks, the baselines' without.
 */
void __init mfa_hook_init(const struct fault_around_policy *vmas,
			  const struct fault_around_policy *order)
{
	mfa_hook_policy[MFA_HOOK_VMAS] = vmas;
	mfa_hook_policy[MFA_HOOK_ORDER] = order;
}

/*
 * Register the policy the users need: with the VMA callbacks if an
 * override's user is there, else the order alone, else none.  The kernel
 * takes one policy at a time, so a change unregisters the old one first
 * (waiting for its faults): another module may take the hook meanwhile.
 */
static int mfa_hook_update(void)
{
	const struct fault_around_policy *want = NULL;
	int err;

	lockdep_assert_held(&mfa_hook_lock);
	if (mfa_hook_users[MFA_HOOK_VMAS])
		want = mfa_hook_policy[MFA_HOOK_VMAS];
	else if (mfa_hook_users[MFA_HOOK_ORDER])
		want = mfa_hook_policy[MFA_HOOK_ORDER];
	if (want == mfa_hook_now)
		return 0;
	if (mfa_hook_now)
		fault_around_unregister_policy(mfa_hook_now);
	mfa_hook_now = NULL;
	if (!want)
		return 0;
	err = fault_around_register_policy(want);
	if (!err)
		mfa_hook_now = want;
	return err;
}

/* Use the hook for @use; -EBUSY if another module's policy holds it. */
int mfa_hook_get(enum mfa_hook_use use)
{
	int err;

	if (WARN_ON_ONCE(!mfa_hook_policy[use]))	/* mfa_hook_init() first */
		return -EINVAL;
	mutex_lock(&mfa_hook_lock);
	mfa_hook_users[use]++;
	err = mfa_hook_update();
	if (err) {
		mfa_hook_users[use]--;
		/* The other users' policy back, if another module let it be. */
		if (mfa_hook_update())
			pr_warn("mod_faultaround: its baselines lost the policy hook to another module\n");
	}
	mutex_unlock(&mfa_hook_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_hook_get);

/* Stop using it for @use: the last user unregisters it. */
void mfa_hook_put(enum mfa_hook_use use)
{
	mutex_lock(&mfa_hook_lock);
	if (!WARN_ON_ONCE(!mfa_hook_users[use])) {
		mfa_hook_users[use]--;
		if (mfa_hook_update())
			pr_warn("mod_faultaround: its baselines lost the policy hook to another module\n");
	}
	mutex_unlock(&mfa_hook_lock);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_hook_put);

/* The policy registered now (NULL: none), for the KUnit suite. */
const struct fault_around_policy *mfa_hook_registered(void)
{
	const struct fault_around_policy *p;

	mutex_lock(&mfa_hook_lock);
	p = mfa_hook_now;
	mutex_unlock(&mfa_hook_lock);
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_hook_registered);
