/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-modtest's tests of the policies: adaptive (the kernel's, switched
 * with faults in flight) and baselines (the module's madvise and ramp).
 * Static functions, in fa-modtest.c's one translation unit.
 */
#ifndef FA_MODTEST_POLICIES_H
#define FA_MODTEST_POLICIES_H

/*
 * Map and fault @n one-page mappings of @fd, into @maps if not NULL;
 * how many it mapped.
 */
static long map_one_page_each(int fd, long n, char **maps)
{
	char *m;
	long i;

	for (i = 0; fd >= 0 && i < n; i++) {
		/* Pages 0, 2, 4...: never adjacent, so never merged. */
		m = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd,
			 2 * i * page_size);
		if (m == MAP_FAILED)
			break;
		if (maps)
			maps[i] = m;
		read_pages(m, 1);
	}
	return i;
}

/* Switches of the kernel's policy, on and off. */
#define FLIPS	40

struct flipper {
	long flips, errors;
	struct stress *st;	/* the faults it switches under */
};

/*
 * FLIPS switches at least, and on until the faulting threads have done
 * two rounds (a switch takes far less than a round on the debug kernel),
 * 1000 times FLIPS at most.
 */
static void *flip_policy(void *arg)
{
	struct flipper *f = arg;

	for (; (f->flips < FLIPS ||
		__atomic_load_n(&f->st->rounds, __ATOMIC_RELAXED) < 2) &&
	       f->flips < 1000 * FLIPS; f->flips++) {
		const char *v = f->flips & 1 ? "0\n" : "1\n";

		/* The module's file and the sysctl in turn. */
		if (f->flips & 2)
			f->errors += !!put(SYSCTL_ADAPTIVE, v, 2);
		else
			f->errors += !!set_policy(v[0] == '1' ? "adaptive\n" : "off\n");
	}
	return NULL;
}

/*
 * Pages fault-around maps ahead (fault_around_mapped) while reading one
 * page per page table of a fresh mapping of @fd, of @pages pages.
 */
static long mapped_ahead_sparse(int fd, size_t pages)
{
	char *q = map_aligned(fd, pages * page_size);
	int vfd = open("/proc/vmstat", O_RDONLY);
	struct fa_counters a, b;
	long faults;

	fa_read_counters(vfd, &a);
	faults = q ? read_every(q, pages, 1UL << max_order) : -1;
	fa_read_counters(vfd, &b);
	if (q)
		munmap(q, pages * page_size);
	close(vfd);
	return faults < 0 || a.mapped < 0 ? -1 : b.mapped - a.mapped;
}

/*
 * The kernel's adaptive policy (vm.fault_around_adaptive) through the
 * module's policy file and the sysctl: both switch and read the one
 * policy, refuse junk without switching it, and the policy does what the
 * kernel's KUnit suite says on real faults, within the global order: a
 * reader in order climbs to it, a sparse reader maps (almost) nothing
 * ahead, an override still wins.  Then (for the debug kernel's checkers
 * in boot-debug) more mappings than any table would hold, switching
 * while two threads fault, and unloading the module with the policy on,
 * which leaves the kernel's policy as it is.  Expectations come from the
 * page-table geometry (-m, log2 of PTRS_PER_PTE).
 */
static void test_adaptive(void)
{
	size_t sparse_pages = 8UL << max_order;
	int fd = make_file("/tmp/fa-adaptive", NPAGES), err;
	int sfd = make_file("/tmp/fa-adaptive-sparse", sparse_pages);
	char *p = map_aligned(fd, NPAGES * page_size), *q, **many;
	long faults, off_ahead, on_ahead, many_n = 5000, i;
	struct stress st = { 0 };
	struct flipper fl = { .st = &st };
	pthread_t t[3];

	cmd("clear\n");
	set_order(4);
	result(!strcmp(policy_now(), "off") && sysctl_adaptive() == 0,
	       "adaptive policy off at load", "policy reads '%s', sysctl %d",
	       policy_now(), sysctl_adaptive());
	off_ahead = mapped_ahead_sparse(sfd, sparse_pages);
	err = set_policy("adaptive\n");
	result(!err && !strcmp(policy_now(), "adaptive") && sysctl_adaptive() == 1,
	       "adaptive policy on, the sysctl agrees", "%s, policy reads '%s', sysctl %d",
	       strerror(err), policy_now(), sysctl_adaptive());
	err = set_policy("sometimes\n");
	result(err == EINVAL && !strcmp(policy_now(), "adaptive"),
	       "adaptive policy refuses junk", "%s, policy reads '%s'",
	       strerror(err), policy_now());
	err = put(SYSCTL_ADAPTIVE, "2\n", 2);
	result(err == EINVAL && sysctl_adaptive() == 1,
	       "adaptive sysctl refuses 2", "%s, sysctl %d", strerror(err),
	       sysctl_adaptive());

	/* In order: up one order a fault from 2 to the global order 4. */
	faults = p ? read_pages(p, NPAGES) : -1;
	result(faults > 0 && faults <= (long)((NPAGES >> 4) + 4),
	       "adaptive sequential read climbs to the global order",
	       "%ld faults for %lu pages, want at most %lu", faults, NPAGES,
	       (NPAGES >> 4) + 4);
	munmap(p, NPAGES * page_size);

	/* One page per page table: down to one page a fault. */
	on_ahead = mapped_ahead_sparse(sfd, sparse_pages);
	result(off_ahead > 0 && on_ahead >= 0 && on_ahead * 4 <= off_ahead,
	       "adaptive sparse read maps a quarter or less ahead",
	       "%ld pages mapped ahead with the policy on, %ld off", on_ahead,
	       off_ahead);

	/*
	 * Every page once, in a shuffled order: far apart, but next to pages
	 * mapped before ever more often, which climbs the window.  Order 0
	 * faults once a page; the window at the global order does not come
	 * down to it.
	 */
	p = map_aligned(fd, NPAGES * page_size);
	faults = p ? read_shuffled(p, NPAGES) : -1;
	result(faults > 0 && faults <= (long)(NPAGES / 2),
	       "adaptive random read of every page climbs",
	       "%ld faults for %lu pages, want at most %lu", faults, NPAGES,
	       NPAGES / 2);
	munmap(p, NPAGES * page_size);

	/* An override wins: order 0, one fault per page. */
	p = map_aligned(fd, NPAGES * page_size);
	err = p ? cmd("%d %p 0\n", getpid(), p) : EINVAL;
	faults = err ? -1 : read_pages(p, NPAGES);
	result(faults == (long)NPAGES, "adaptive: an override wins",
	       "%ld faults, want %lu (order 0)", faults, NPAGES);
	cmd("clear\n");
	munmap(p, NPAGES * page_size);

	/* More mappings than any per-mapping table holds: nothing to hold. */
	many = calloc(many_n, sizeof(*many));
	close(fd);
	fd = make_file("/tmp/fa-adaptive", 2 * many_n);
	i = many ? map_one_page_each(fd, many_n, many) : 0;
	result(i == many_n, "adaptive: 5000 mappings faulted",
	       "%ld of %ld mapped", i, many_n);
	while (i-- > 0)
		munmap(many[i], page_size);
	free(many);
	close(fd);
	fd = make_file("/tmp/fa-adaptive", NPAGES);

	/* Switching, through both doors, while two threads fault. */
	st.p = map_aligned(fd, NPAGES * page_size);
	pthread_create(&t[0], NULL, stress_fault, &st);
	pthread_create(&t[1], NULL, stress_fault, &st);
	pthread_create(&t[2], NULL, flip_policy, &fl);
	pthread_join(t[2], NULL);
	err = put(SYSCTL_ADAPTIVE, "1\n", 2);
	result(!err && !fl.errors && st.rounds > 0 &&
	       !strcmp(policy_now(), "adaptive"),
	       "adaptive switched under faults",
	       "%s; %ld of %ld switches failed, %ld fault rounds, policy '%s'",
	       strerror(err), fl.errors, fl.flips, st.rounds, policy_now());

	/* Unload with the policy on and the faults still running. */
	usleep(100000);
	err = unload_under(&st, t, 0);
	result(!err && st.rounds > 0 && sysctl_adaptive() == 1,
	       "adaptive unload under faults leaves the kernel's policy on",
	       "%s, %ld rounds, sysctl %d", strerror(err), st.rounds,
	       sysctl_adaptive());
	q = map_aligned(fd, NPAGES * page_size);
	faults = q ? read_pages(q, NPAGES) : -1;
	result(faults > 0 && faults <= (long)((NPAGES >> 4) + 4),
	       "adaptive after unload: faults still climb",
	       "%ld faults for %lu pages", faults, NPAGES);
	err = reload();
	result(!err && !strcmp(policy_now(), "adaptive"),
	       "adaptive reload reads the kernel's policy", "%s, policy reads '%s'",
	       strerror(err), policy_now());
	err = put(SYSCTL_ADAPTIVE, "0\n", 2);
	result(!err && !strcmp(policy_now(), "off"), "adaptive off through the sysctl",
	       "%s, policy reads '%s'", strerror(err), policy_now());
	munmap(q, NPAGES * page_size);
	munmap(st.p, NPAGES * page_size);
	close(fd);
	close(sfd);
}

/*
 * The module's baselines for the adaptive policy (make bench
 * POLICY=adaptive): madvise, one page a fault under MADV_RANDOM and the
 * global order otherwise; ramp, readahead's ramp per open file.  Either
 * turns the kernel's policy off; unload takes it away.
 */
static void test_baselines(void)
{
	int fd = make_file("/tmp/fa-baselines", NPAGES), err;
	size_t len = NPAGES * page_size;
	char *p = map_aligned(fd, len);
	long faults;

	set_order(4);
	err = set_policy("adaptive\n") ?: set_policy("madvise\n");
	result(!err && !strcmp(policy_now(), "madvise") && sysctl_adaptive() == 0,
	       "baseline madvise on, the kernel's policy off",
	       "%s, policy reads '%s', sysctl %d", strerror(err), policy_now(),
	       sysctl_adaptive());
	err = p && madvise(p, len, MADV_RANDOM) ? errno : 0;
	faults = p && !err ? read_pages(p, NPAGES) : -1;
	result(faults == (long)NPAGES, "baseline madvise: MADV_RANDOM, one page a fault",
	       "%s, %ld faults, want %lu", strerror(err), faults, NPAGES);
	munmap(p, len);
	p = map_aligned(fd, len);
	faults = p ? read_pages(p, NPAGES) : -1;
	result(faults == (long)(NPAGES >> 4), "baseline madvise: no hint, the global order",
	       "%ld faults, want %lu", faults, NPAGES >> 4);
	munmap(p, len);

	/* 4 pages, 8, then the global order's 16. */
	err = set_policy("ramp\n");
	p = map_aligned(fd, len);
	faults = !err && p ? read_pages(p, NPAGES) : -1;
	result(faults > 0 && faults <= (long)((NPAGES >> 4) + 2),
	       "baseline ramp: a reader in order ramps to the global order",
	       "%s, %ld faults for %lu pages, want at most %lu", strerror(err),
	       faults, NPAGES, (NPAGES >> 4) + 2);
	munmap(p, len);
	err = set_policy("rampant\n");
	result(err == EINVAL && !strcmp(policy_now(), "ramp"),
	       "baseline: a policy of no such name is refused",
	       "%s, policy reads '%s'", strerror(err), policy_now());

	/* Unload with a baseline on: its hook goes, the order is global. */
	err = syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK) ? errno : 0;
	p = map_aligned(fd, len);
	faults = !err && p ? read_pages(p, NPAGES) : -1;
	result(faults == (long)(NPAGES >> 4) && sysctl_adaptive() == 0,
	       "baseline unloaded: the global order again",
	       "%s, %ld faults, want %lu", strerror(err), faults, NPAGES >> 4);
	munmap(p, len);
	err = reload();
	result(!err && !strcmp(policy_now(), "off"), "baseline: a reload starts off",
	       "%s, policy reads '%s'", strerror(err), policy_now());
	close(fd);
}

#endif /* FA_MODTEST_POLICIES_H */
