// SPDX-License-Identifier: GPL-2.0
/*
 * fa-modtest: run-time tests of mod_faultaround, run as root in the guest
 * with the module loaded.  One "PASS <name>" or "FAIL <name>: <why>" line
 * per test; the exit status is the number of failures.
 *
 *   fa-modtest [-m max_order] [-k module.ko] [test...]
 *
 * Tests: ab errors mapping three handed listing exit stress unload failed
 * dupfail threads stall adaptive baselines (default: all) and lockdown
 * (only when named: it raises the guest's lockdown for good).  "stress" unloads the module
 * while faults are in flight, "unload" under slab fault injection,
 * "adaptive" switches the kernel's adaptive policy through the module
 * and the sysctl, with faults in flight; they load it again from -k.
 * The tests are in modtest/, a header a group, with the helpers they
 * share in modtest/util.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse-stall.h"
#include "lab.h"
#include "vmstat.h"
#include "xorshift.h"

#define DIR_		"/sys/kernel/debug/faultaround/"
#define SYSCTL_ADAPTIVE	"/proc/sys/vm/fault_around_adaptive"
#define NPAGES		4096UL

static unsigned int max_order = 9;
static const char *module = "/lib/mod_faultaround.ko";

#include "modtest/util.h"
#include "modtest/interface.h"
#include "modtest/lifecycle.h"
#include "modtest/policies.h"
#include "modtest/failures.h"

static const struct {
	const char *name;
	void (*fn)(void);
	bool named;	/* only when named on the command line */
} tests[] = {
	{ "ab", test_ab, false },
	{ "errors", test_errors, false },
	{ "mapping", test_mapping, false },
	{ "three", test_three, false },
	{ "handed", test_handed, false },
	{ "listing", test_listing, false },
	{ "exit", test_exit, false },
	{ "stress", test_stress, false },
	{ "unload", test_unload, false },
	{ "failed", test_failed_set, false },
	{ "dupfail", test_dupfail, false },
	{ "threads", test_threads, false },
	{ "stall", test_stall, false },
	{ "adaptive", test_adaptive, false },
	{ "baselines", test_baselines, false },
	{ "lockdown", test_lockdown, true },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int opt, a, ran = 0;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "m:k:")) != -1) {
		if (opt == 'm') {
			if (parse_order(optarg, &max_order))
				return 2;
		} else if (opt == 'k')
			module = optarg;
		else
			return 2;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		bool want = optind == argc && !tests[i].named;

		for (a = optind; a < argc; a++)
			want |= !strcmp(argv[a], tests[i].name);
		if (want) {
			time_t start = time(NULL);

			tests[i].fn();
			ran++;
			/* On stderr, the guest's console: where the time goes. */
			fprintf(stderr, "time: fa-modtest %s %llds\n",
				tests[i].name, (long long)(time(NULL) - start));
		}
	}
	if (!ran)
		printf("FAIL setup: no such test\n");
	return ran ? failures : 1;
}
