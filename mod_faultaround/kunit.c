// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "faultaround" for the module's parser and override table.
 * It runs when the module is loaded on a kernel with KUnit.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>

#include "faultaround.h"

struct parse_case {
	const char *in;
	int err;
	enum fa_cmd_type type;
	pid_t pid;
	unsigned long addr;
	unsigned int order;
};

static const struct parse_case parse_cases[] = {
	{ "clear",			0, FA_CMD_CLEAR },
	{ "clear\n",			0, FA_CMD_CLEAR },
	{ "1 0x1000 4",			0, FA_CMD_SET, 1, 0x1000, 4 },
	{ "42 4096 0\n",		0, FA_CMD_SET, 42, 4096, 0 },
	{ "7  0x7f0000000000\t9",	0, FA_CMD_SET, 7, 0x7f0000000000UL, 9 },
	{ "3 0x2000 default",		0, FA_CMD_DEFAULT, 3, 0x2000 },
	{ "",				-EINVAL },
	{ "\n",				-EINVAL },
	{ "clear all",			-EINVAL },
	{ "1 0x1000",			-EINVAL },
	{ "1 0x1000 4 5",		-EINVAL },
	{ "0 0x1000 4",			-EINVAL },
	{ "-1 0x1000 4",		-EINVAL },
	{ "99999999999 0x1000 4",	-EINVAL },
	{ "x 0x1000 4",			-EINVAL },
	{ "1 zz 4",			-EINVAL },
	{ "1 0x1000 10",		-EINVAL },
	{ "1 0x1000 -1",		-EINVAL },
	{ "1 0x1000 4x",		-EINVAL },
	{ "1 0x1000 Default",		-EINVAL },
	{ "1 0x10000000000000000 4",	-EINVAL },
};

static void parse_table(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++) {
		const struct parse_case *c = &parse_cases[i];
		struct fa_cmd cmd = {};
		int err = fa_parse_cmd(c->in, strlen(c->in), 9, &cmd);

		KUNIT_EXPECT_EQ_MSG(test, err, c->err, "input '%s'", c->in);
		if (err || c->err)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, cmd.type, c->type, "input '%s'", c->in);
		if (c->type == FA_CMD_CLEAR)
			continue;
		KUNIT_EXPECT_EQ(test, cmd.pid, c->pid);
		KUNIT_EXPECT_EQ(test, cmd.addr, c->addr);
		if (c->type == FA_CMD_SET)
			KUNIT_EXPECT_EQ(test, cmd.order, c->order);
	}
}

static void parse_rejects_long_and_nul(struct kunit *test)
{
	char buf[FA_CMD_MAX_LEN + 8];
	struct fa_cmd cmd;

	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "1 0x1000 4", 10);
	KUNIT_EXPECT_EQ(test, fa_parse_cmd(buf, FA_CMD_MAX_LEN, 9, &cmd), 0);
	KUNIT_EXPECT_EQ(test, fa_parse_cmd(buf, FA_CMD_MAX_LEN + 1, 9, &cmd),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fa_parse_cmd("1 0x1000\0 4", 11, 9, &cmd),
			-EINVAL);
}

/* Fake mms: the table only compares their addresses. */
#define MM(n)	((struct mm_struct *)(0x1000UL * (n)))

static struct fa_override *mk(struct kunit *test, int mm, unsigned long start,
			      unsigned long end, unsigned int order)
{
	struct fa_override *ov = kunit_kzalloc(test, sizeof(*ov), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ov);
	ov->mm = MM(mm);
	ov->start = start;
	ov->end = end;
	ov->order = order;
	return ov;
}

static struct fa_table *set(struct kunit *test, struct fa_table *t,
			    struct fa_override *ov, struct list_head *dead)
{
	struct fa_table *new = fa_table_set(t, ov, FA_MAX_OVERRIDES, dead);

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(new));
	kfree(t);
	return new;
}

static void table_lookup(struct kunit *test)
{
	struct fa_override *a = mk(test, 1, 0x1000, 0x5000, 0);
	struct fa_override *b = mk(test, 1, 0x8000, 0x9000, 4);
	struct fa_override *c = mk(test, 2, 0x1000, 0x5000, 2);
	struct fa_table *t = NULL;
	LIST_HEAD(dead);

	KUNIT_EXPECT_NULL(test, fa_table_lookup(NULL, MM(1), 0x1000));
	t = set(test, t, b, &dead);
	t = set(test, t, c, &dead);
	t = set(test, t, a, &dead);
	KUNIT_EXPECT_EQ(test, t->nr, 3);
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(1), 0x1000), a);
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(1), 0x4fff), a);
	KUNIT_EXPECT_NULL(test, fa_table_lookup(t, MM(1), 0x5000));
	KUNIT_EXPECT_NULL(test, fa_table_lookup(t, MM(1), 0x0fff));
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(1), 0x8000), b);
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(2), 0x2000), c);
	KUNIT_EXPECT_NULL(test, fa_table_lookup(t, MM(3), 0x2000));
	KUNIT_EXPECT_TRUE(test, list_empty(&dead));
	kfree(t);
}

/* A new override replaces those of its mm that it overlaps, only those. */
static void table_replaces_overlap(struct kunit *test)
{
	struct fa_override *a = mk(test, 1, 0x1000, 0x5000, 0);
	struct fa_override *other = mk(test, 2, 0x1000, 0x5000, 3);
	struct fa_override *b = mk(test, 1, 0x3000, 0x9000, 4);
	struct fa_table *t = NULL;
	LIST_HEAD(dead);

	t = set(test, t, a, &dead);
	t = set(test, t, other, &dead);
	t = set(test, t, b, &dead);
	KUNIT_EXPECT_EQ(test, t->nr, 2);
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(1), 0x1000), NULL);
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(1), 0x3000), b);
	KUNIT_EXPECT_PTR_EQ(test, fa_table_lookup(t, MM(2), 0x1000), other);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&dead, struct fa_override,
						   dead), a);
	kfree(t);
}

static void table_limit(struct kunit *test)
{
	struct fa_table *t = NULL, *new;
	LIST_HEAD(dead);
	int i;

	for (i = 0; i < 4; i++) {
		new = fa_table_set(t, mk(test, 1, 0x1000 * (2 * i + 1),
					 0x1000 * (2 * i + 2), 1), 4, &dead);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(new));
		kfree(t);
		t = new;
	}
	new = fa_table_set(t, mk(test, 1, 0x100000, 0x101000, 1), 4, &dead);
	KUNIT_EXPECT_EQ(test, PTR_ERR(new), -ENOSPC);
	KUNIT_EXPECT_EQ(test, t->nr, 4);
	/* Replacing one at the limit is fine. */
	new = fa_table_set(t, mk(test, 1, 0x1000, 0x2000, 5), 4, &dead);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(new));
	KUNIT_EXPECT_EQ(test, new->nr, 4);
	KUNIT_EXPECT_EQ(test, fa_table_lookup(new, MM(1), 0x1000)->order, 5);
	kfree(t);
	kfree(new);
}

static bool match_mm(struct fa_override *ov, void *arg)
{
	return ov->mm == arg;
}

static void table_remove(struct kunit *test)
{
	struct fa_table *t = NULL, *new;
	LIST_HEAD(dead);
	int n = 0;
	struct fa_override *ov;

	t = set(test, t, mk(test, 1, 0x1000, 0x2000, 1), &dead);
	t = set(test, t, mk(test, 2, 0x1000, 0x2000, 1), &dead);
	t = set(test, t, mk(test, 1, 0x3000, 0x4000, 1), &dead);

	new = fa_table_remove(t, match_mm, MM(3), &dead);
	KUNIT_EXPECT_EQ(test, PTR_ERR(new), -ENOENT);
	KUNIT_EXPECT_TRUE(test, list_empty(&dead));

	new = fa_table_remove(t, match_mm, MM(1), &dead);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(new));
	KUNIT_EXPECT_EQ(test, new->nr, 1);
	KUNIT_EXPECT_NOT_NULL(test, fa_table_lookup(new, MM(2), 0x1000));
	list_for_each_entry(ov, &dead, dead)
		n++;
	KUNIT_EXPECT_EQ(test, n, 2);
	kfree(t);

	/* Removing the last one leaves no table at all. */
	t = fa_table_remove(new, match_mm, MM(2), &dead);
	KUNIT_EXPECT_NULL(test, t);
	kfree(new);
}

static void table_many_sorted(struct kunit *test)
{
	struct fa_table *t = NULL;
	LIST_HEAD(dead);
	int i;

	/* Insert 300 in a scrambled order; every one must be found. */
	for (i = 0; i < 300; i++) {
		int k = (i * 7919) % 300;

		t = set(test, t, mk(test, 1 + k % 5, 0x10000 * (k + 1),
				    0x10000 * (k + 1) + 0x8000, k % 10), &dead);
	}
	KUNIT_ASSERT_EQ(test, t->nr, 300);
	for (i = 0; i < 300; i++) {
		unsigned long base = 0x10000UL * (i + 1);
		struct fa_override *ov;

		ov = fa_table_lookup(t, MM(1 + i % 5), base + 0x7fff);
		KUNIT_ASSERT_NOT_NULL(test, ov);
		KUNIT_EXPECT_EQ(test, ov->order, i % 10);
		ov = fa_table_lookup(t, MM(1 + i % 5), base + 0x8000);
		KUNIT_EXPECT_NULL(test, ov);
	}
	kfree(t);
}

static struct kunit_case faultaround_cases[] = {
	KUNIT_CASE(parse_table),
	KUNIT_CASE(parse_rejects_long_and_nul),
	KUNIT_CASE(table_lookup),
	KUNIT_CASE(table_replaces_overlap),
	KUNIT_CASE(table_limit),
	KUNIT_CASE(table_remove),
	KUNIT_CASE(table_many_sorted),
	{}
};

static struct kunit_suite faultaround_suite = {
	.name = "faultaround",
	.test_cases = faultaround_cases,
};

kunit_test_suite(faultaround_suite);
