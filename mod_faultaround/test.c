// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "faultaround": the grammar, one case per rule
 * (tests/parse-kunit.h), the overrides' hash (tests/table-kunit.h) and the
 * ramp baseline's step (tests/ramp-kunit.h).
 * The adaptive policy is the kernel's, tested by its own suite
 * (fault_around).  A module of its own,
 * mod_faultaround_test, which the boot lab loads on purpose; it calls
 * mod_faultaround's functions through the EXPORTED_FOR_KUNIT_TESTING
 * namespace.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "faultaround.h"

/*
 * MODULE_IMPORT_NS()'s expansion: it takes a string since 6.13, a bare
 * name before, and this builds on both.
 */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");

#include "tests/parse-kunit.h"
#include "tests/table-kunit.h"
#include "tests/ramp-kunit.h"

static struct kunit_case faultaround_cases[] = {
	KUNIT_CASE(parse_rules),
	KUNIT_CASE(parse_limits),
	KUNIT_CASE(parse_uint),
	KUNIT_CASE(ovs_set_replaces),
	KUNIT_CASE(ovs_dup_follows),
	KUNIT_CASE(ovs_copy_outlives),
	KUNIT_CASE(ovs_copy_limit),
	KUNIT_CASE(ovs_copies_leave_room),
	KUNIT_CASE(ovs_many),
	KUNIT_CASE(parse_policy),
	KUNIT_CASE(ramp_in_order),
	KUNIT_CASE(ramp_far_and_retry),
	{}
};

static struct kunit_suite faultaround_suite = {
	.name = "faultaround",
	.test_cases = faultaround_cases,
};

kunit_test_suite(faultaround_suite);

MODULE_DESCRIPTION("KUnit tests for mod_faultaround");
MODULE_LICENSE("GPL");
