// SPDX-License-Identifier: GPL-2.0
/*
 * The overrides by VMA: a hash that the fault path searches under RCU
 * alone, with one lock for what changes it, which only writes, VMA copies
 * and the frees of VMAs that have an override take.  The module keeps
 * one (override.c); the KUnit suite makes its own.
 */
#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "faultaround.h"

/**
 * mfa_vnode_find - the node of @vma in a bucket
 * @head: the bucket
 * @vma: the key, only compared
 *
 * Under RCU or the lock that the bucket's insertions take.
 *
 * Return: the node, or NULL.
 */
struct mfa_vnode *mfa_vnode_find(const struct hlist_head *head,
				 const struct vm_area_struct *vma)
{
	struct mfa_vnode *n;

	hlist_for_each_entry_rcu(n, head, node)
		if (n->vma == vma)
			return n;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_vnode_find);

static unsigned int mfa_ovs_index(const struct vm_area_struct *vma)
{
	return hash_ptr(vma, MFA_OV_HASH_BITS);
}

void mfa_ovs_init(struct mfa_overrides *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->hash); i++)
		INIT_HLIST_HEAD(&t->hash[i]);
	spin_lock_init(&t->lock);
	t->nr = 0;
	t->writes = 0;
	t->uncopied = 0;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ovs_init);

/**
 * mfa_ovs_find - the override of @vma
 * @t: the overrides
 * @vma: the VMA, only compared
 *
 * Under RCU or @t->lock.
 *
 * Return: the override, or NULL.
 */
struct mfa_override *mfa_ovs_find(const struct mfa_overrides *t,
				  const struct vm_area_struct *vma)
{
	struct mfa_vnode *n = mfa_vnode_find(&t->hash[mfa_ovs_index(vma)], vma);

	return n ? container_of(n, struct mfa_override, vn) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ovs_find);

/**
 * mfa_ov_alloc - a new override of @vma, with an mfa_order of its own
 * @vma: the VMA, only compared
 * @order: the order
 * @gfp: the allocations' flags
 *
 * Return: the override, or NULL without memory.
 */
struct mfa_override *mfa_ov_alloc(const struct vm_area_struct *vma,
				  unsigned int order, gfp_t gfp)
{
	struct mfa_override *ov = kzalloc_obj(*ov, gfp);

	if (!ov)
		return NULL;
	ov->o = kzalloc_obj(*ov->o, gfp);
	if (ov->o)
		ov->o->hits = alloc_percpu_gfp(u64_stats_t, gfp);
	if (!ov->o || !ov->o->hits) {
		kfree(ov->o);
		kfree(ov);
		return NULL;
	}
	refcount_set(&ov->o->ref, 1);
	ov->o->order = order;
	ov->vn.vma = vma;
	return ov;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ov_alloc);

/**
 * mfa_ov_free - free an override that no lookup can see
 * @ov: the override
 *
 * Drops its share of the mfa_order, which the last one frees.  Any context.
 */
void mfa_ov_free(struct mfa_override *ov)
{
	if (refcount_dec_and_test(&ov->o->ref)) {
		free_percpu(ov->o->hits);
		kfree(ov->o);
	}
	kfree(ov);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ov_free);

static void mfa_ov_free_rcu(struct rcu_head *rcu)
{
	mfa_ov_free(container_of(rcu, struct mfa_override, rcu));
}

/**
 * mfa_ov_put - free an override taken out of its hash, after a grace period
 * @ov: the override
 *
 * Any context; a module that calls it waits with rcu_barrier() at unload.
 */
void mfa_ov_put(struct mfa_override *ov)
{
	call_rcu(&ov->rcu, mfa_ov_free_rcu);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ov_put);

/* Under @t->lock: take @ov out. */
static void mfa_ovs_unhash(struct mfa_overrides *t, struct mfa_override *ov)
{
	lockdep_assert_held(&t->lock);
	hlist_del_rcu(&ov->vn.node);
	WRITE_ONCE(t->nr, t->nr - 1);
	if (!--ov->o->hashed)
		WRITE_ONCE(t->writes, t->writes - 1);
}

/* Under @t->lock: put @ov in. */
static void mfa_ovs_hash(struct mfa_overrides *t, struct mfa_override *ov)
{
	lockdep_assert_held(&t->lock);
	hlist_add_head_rcu(&ov->vn.node, &t->hash[mfa_ovs_index(ov->vn.vma)]);
	WRITE_ONCE(t->nr, t->nr + 1);
	if (!ov->o->hashed++)
		WRITE_ONCE(t->writes, t->writes + 1);
}

/**
 * mfa_ovs_set - give @ov's VMA the override @ov
 * @t: the overrides
 * @ov: the new override (mfa_ov_alloc())
 * @writes: the most writes' overrides @t may hold
 *
 * A write that replaces its VMA's override is refused only if that one
 * was shared with copies, as it then adds a write.  Copies are not
 * counted: mfa_ovs_dup() stops at a limit of its own.
 *
 * Return: the override of that VMA that @ov replaces, for mfa_ov_put(),
 * NULL, or ERR_PTR(-ENOSPC) at a limit, when nothing changed.
 */
struct mfa_override *mfa_ovs_set(struct mfa_overrides *t, struct mfa_override *ov,
				 unsigned int writes)
{
	struct mfa_override *old;

	spin_lock(&t->lock);
	old = mfa_ovs_find(t, ov->vn.vma);
	if ((!old || old->o->hashed > 1) && t->writes >= writes) {
		spin_unlock(&t->lock);
		return ERR_PTR(-ENOSPC);
	}
	if (old)
		mfa_ovs_unhash(t, old);
	mfa_ovs_hash(t, ov);
	spin_unlock(&t->lock);
	return old;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ovs_set);

/**
 * mfa_ovs_dup - give @new, a copy of @orig, the override of @orig
 * @t: the overrides
 * @orig: the VMA copied, only compared
 * @new: its copy, only compared
 * @limit: the most overrides @t may hold
 * @gfp: the allocation's flags
 *
 * The copy shares @orig's mfa_order: the same order, its hits counted
 * together.  At @limit, or without memory, it gets none, and
 * @t->uncopied counts it.
 */
void mfa_ovs_dup(struct mfa_overrides *t, const struct vm_area_struct *orig,
		 const struct vm_area_struct *new, unsigned int limit, gfp_t gfp)
{
	struct mfa_override *ov, *from;

	/* Most VMAs copied have none: one lockless look turns them away. */
	rcu_read_lock();
	from = mfa_ovs_find(t, orig);
	rcu_read_unlock();
	if (!from)
		return;
	ov = READ_ONCE(t->nr) < limit ? kzalloc_obj(*ov, gfp) : NULL;
	spin_lock(&t->lock);
	/* Removed meanwhile: the copy has none either. */
	from = mfa_ovs_find(t, orig);
	if (from && (!ov || t->nr >= limit)) {
		WRITE_ONCE(t->uncopied, t->uncopied + 1);
	} else if (from) {
		ov->vn.vma = new;
		refcount_inc(&from->o->ref);
		ov->o = from->o;
		mfa_ovs_hash(t, ov);
		ov = NULL;
	}
	spin_unlock(&t->lock);
	kfree(ov);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ovs_dup);

/**
 * mfa_ovs_remove - remove the override of @vma
 * @t: the overrides
 * @vma: the VMA, only compared
 *
 * Return: whether it had one; it is freed after a grace period.
 */
bool mfa_ovs_remove(struct mfa_overrides *t, const struct vm_area_struct *vma)
{
	struct mfa_override *ov;

	/* Most VMAs freed have none: one lockless look turns them away. */
	rcu_read_lock();
	ov = mfa_ovs_find(t, vma);
	rcu_read_unlock();
	if (!ov)
		return false;
	spin_lock(&t->lock);
	ov = mfa_ovs_find(t, vma);
	if (ov)
		mfa_ovs_unhash(t, ov);
	spin_unlock(&t->lock);
	if (ov)
		mfa_ov_put(ov);
	return ov;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ovs_remove);

/**
 * mfa_ovs_clear - remove every override
 * @t: the overrides
 *
 * Allocates nothing, so it cannot fail: unload relies on that.
 */
void mfa_ovs_clear(struct mfa_overrides *t)
{
	struct mfa_override *ov;
	struct hlist_node *tmp;
	unsigned int i;

	spin_lock(&t->lock);
	for (i = 0; i < ARRAY_SIZE(t->hash); i++) {
		hlist_for_each_entry_safe(ov, tmp, &t->hash[i], vn.node) {
			mfa_ovs_unhash(t, ov);
			mfa_ov_put(ov);
		}
	}
	spin_unlock(&t->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mfa_ovs_clear);
