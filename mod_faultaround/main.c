// SPDX-License-Identifier: GPL-2.0
/*
 * mod_faultaround: try fault-around orders per mapping on a running kernel.
 * This file loads and unloads it; faultaround.h says where the rest is.
 *
 * /sys/kernel/debug/faultaround/
 *   order  the global fault-around order (the kernel's own knob)
 *   vma    per-mapping overrides: "<pid> <address> <order>", "<pid>
 *          <address> default", "clear"; reading lists them
 *   stats  faults decided per order, override hits and misses, and the
 *          kernel's fault_around counters since load; "0" resets
 *   policy "off" or "adaptive": the kernel's adaptive policy
 *          (vm.fault_around_adaptive), switched and read; "madvise" or
 *          "ramp": a baseline of the module's instead (baseline.c)
 *
 * See Documentation/module.rst in the faultaround project.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/security.h>

#include "faultaround.h"

static int __init mfa_init(void)
{
	/*
	 * debugfs is the whole interface: without it, refuse to load and say
	 * why, rather than load and do nothing.
	 */
	if (!debugfs_initialized()) {
		pr_err("debugfs is off (its debugfs= parameter, or not built): not loading\n");
		return -ENODEV;
	}
	/* Locked down, debugfs opens no file that can be written. */
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		pr_err("debugfs is locked down (lockdown=): not loading; vm.fault_around_bytes sets the size\n");
		return -EPERM;
	}
	mfa_stats_init();
	mfa_hook_init(&mfa_policy);
	mfa_overrides_init();
	return mfa_iface_init();
}

static void __exit mfa_exit(void)
{
	/* No new requests: removal waits for the ones in progress. */
	mfa_iface_exit();
	mfa_baseline_exit();
	/*
	 * The kernel's adaptive policy stays as it is: it runs no code of
	 * this module, and vm.fault_around_adaptive shows it.
	 */
	mfa_overrides_exit();
}

module_init(mfa_init);
module_exit(mfa_exit);

MODULE_DESCRIPTION("Per-mapping fault-around orders and statistics, through debugfs");
MODULE_LICENSE("GPL");
