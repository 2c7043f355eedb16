// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "faultaround": the grammar, one case per rule
 * (tests/parse-kunit.h), the overrides' hash (tests/table-kunit.h), and
 * the adaptive policy's step against a model of what fault-around maps
 * and its table of state (tests/adapt-kunit.h).  A module of its own,
 * mod_faultaround_test, which the boot lab loads on purpose; it calls
 * mod_faultaround's functions through the EXPORTED_FOR_KUNIT_TESTING
 * namespace.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pgtable.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "faultaround.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#include "tests/parse-kunit.h"
#include "tests/table-kunit.h"
#include "tests/adapt-kunit.h"

static struct kunit_case faultaround_cases[] = {
	KUNIT_CASE(parse_rules),
	KUNIT_CASE(parse_limits),
	KUNIT_CASE(parse_uint),
	KUNIT_CASE(ovs_set_replaces),
	KUNIT_CASE(ovs_dup_follows),
	KUNIT_CASE(ovs_copy_outlives),
	KUNIT_CASE(ovs_copy_limit),
	KUNIT_CASE(ovs_many),
	KUNIT_CASE(parse_policy),
	KUNIT_CASE(adapt_rules),
	KUNIT_CASE(adapt_sequential),
	KUNIT_CASE(adapt_sparse),
	KUNIT_CASE(adapt_random_dense),
	KUNIT_CASE(adapt_cold_readahead),
	KUNIT_CASE(adapt_bounded),
	KUNIT_CASE(adapt_small_far),
	KUNIT_CASE(adapt_small_sequential),
	KUNIT_CASE(adapt_bitmap_bounds),
	KUNIT_CASE(adapt_task_major),
	KUNIT_CASE(adapt_table_get_forget),
	KUNIT_CASE(adapt_table_limit),
	KUNIT_CASE(adapt_table_evict),
	{}
};

static struct kunit_suite faultaround_suite = {
	.name = "faultaround",
	.test_cases = faultaround_cases,
};

kunit_test_suite(faultaround_suite);

MODULE_DESCRIPTION("KUnit tests for mod_faultaround");
MODULE_LICENSE("GPL");
