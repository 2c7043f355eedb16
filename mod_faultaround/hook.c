// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's policy hook, registered while something of the module uses
 * it: the overrides, while there are any, and a baseline in use.  An idle
 * module costs the fault path nothing.  It knows none
 * of its users, nor the policy, which main.c hands it at load, so that
 * the module's files depend on one another one way only.
 */
#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/mutex.h>

#include "faultaround.h"

static const struct fault_around_policy *mfa_hook_policy __ro_after_init;
static DEFINE_MUTEX(mfa_hook_lock);
static unsigned int mfa_hook_users;

/* At load (__init), before any user: the policy to register. */
void __init mfa_hook_init(const struct fault_around_policy *policy)
{
	mfa_hook_policy = policy;
}

/* Use the hook: registers it for the first user; -EBUSY if another is. */
int mfa_hook_get(void)
{
	int err = 0;

	if (WARN_ON_ONCE(!mfa_hook_policy))	/* mfa_hook_init() first */
		return -EINVAL;
	mutex_lock(&mfa_hook_lock);
	if (!mfa_hook_users)
		err = fault_around_register_policy(mfa_hook_policy);
	if (!err)
		mfa_hook_users++;
	mutex_unlock(&mfa_hook_lock);
	return err;
}

/* Stop using it: the last user unregisters it, waiting for the faults. */
void mfa_hook_put(void)
{
	mutex_lock(&mfa_hook_lock);
	if (!WARN_ON_ONCE(!mfa_hook_users) && !--mfa_hook_users)
		fault_around_unregister_policy(mfa_hook_policy);
	mutex_unlock(&mfa_hook_lock);
}
