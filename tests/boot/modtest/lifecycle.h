/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-modtest's tests of an override's life: three (VMAs of one
 * open file), mapping (split, mremap, munmap, MAP_FIXED), exit (the
 * process gone, its pid reused), stress (unload under faults) and
 * unload (under slab fault injection).
 * Static functions, in fa-modtest.c's one translation unit.
 */
#ifndef FA_MODTEST_LIFECYCLE_H
#define FA_MODTEST_LIFECYCLE_H

/* @p's listed order for @pid is @order (-1: not listed). */
static bool listed_order(pid_t pid, const char *p, size_t len, int order)
{
	const char *o = listed(pid, p, len);

	return order < 0 ? !o : o && atoi(o) == order;
}

/*
 * Three VMAs of one open file take three orders: override, override,
 * global.  A fork()ed child's copies keep the overrides, as they keep
 * madvise() hints, listed under its pid; its writes are its own.
 */
static void test_three(void)
{
	int fd = make_file("/tmp/fa-three", NPAGES), pipefd[2], status;
	size_t len = NPAGES * page_size;
	char *a = map_aligned(fd, len), *b = map_aligned(fd, len);
	char *c = map_aligned(fd, len);
	long fa, fb, fc, got[4];
	pid_t pid;

	cmd("clear\n");
	set_order(2);
	if (!a || !b || !c || cmd("%d %p 0\n", getpid(), a) ||
	    cmd("%d %p 4\n", getpid(), b) || pipe(pipefd)) {
		result(false, "three", "setup failed: %s", strerror(errno));
		return;
	}
	fa = read_pages(a, NPAGES);
	fb = read_pages(b, NPAGES);
	fc = read_pages(c, NPAGES);
	result(fa == (long)NPAGES && fb == (long)(NPAGES >> 4) &&
	       fc == (long)(NPAGES >> 2),
	       "three VMAs of one open file: orders 0, 4 and the global 2",
	       "%ld, %ld and %ld faults, expected %lu, %lu and %lu", fa, fb,
	       fc, NPAGES, NPAGES >> 4, NPAGES >> 2);
	result(listed_order(getpid(), a, len, 0) &&
	       listed_order(getpid(), b, len, 4) &&
	       listed_order(getpid(), c, len, -1),
	       "three listed: A 0, B 4, C none", "vma: %s", slurp(DIR_ "vma"));

	madvise(a, len, MADV_DONTNEED);
	madvise(b, len, MADV_DONTNEED);
	madvise(c, len, MADV_DONTNEED);
	pid = fork();
	if (!pid) {
		got[0] = read_pages(a, NPAGES);
		got[1] = read_pages(b, NPAGES);
		got[2] = listed_order(getpid(), a, len, 0) &&
			 listed_order(getpid(), b, len, 4) &&
			 listed_order(getpid(), c, len, -1);
		/* The child's own write: its A only. */
		madvise(a, len, MADV_DONTNEED);
		got[3] = cmd("%d %p 4\n", getpid(), a) ? -1 :
			 read_pages(a, NPAGES);
		_exit(write(pipefd[1], got, sizeof(got)) != sizeof(got));
	}
	if (read(pipefd[0], got, sizeof(got)) != sizeof(got))
		got[0] = -1;
	waitpid(pid, &status, 0);
	result(got[0] == (long)NPAGES && got[1] == (long)(NPAGES >> 4),
	       "three fork: the child's copies keep orders 0 and 4",
	       "%ld and %ld faults, expected %lu and %lu", got[0], got[1],
	       NPAGES, NPAGES >> 4);
	result(got[2] == 1, "three fork: listed under the child's pid",
	       "the child did not find A 0, B 4, C none");
	fa = read_pages(a, NPAGES);
	result(got[3] == (long)(NPAGES >> 4) && fa == (long)NPAGES &&
	       listed_order(getpid(), a, len, 0) &&
	       listed_order(pid, a, len, -1),
	       "three fork: the child's write is its own",
	       "child's A %ld faults (expected %lu), parent's %ld (expected %lu); vma: %s",
	       got[3], NPAGES >> 4, fa, NPAGES, slurp(DIR_ "vma"));
	cmd("clear\n");
	set_order(4);
	munmap(a, len);
	munmap(b, len);
	munmap(c, len);
	close(pipefd[0]);
	close(pipefd[1]);
	close(fd);
}

/*
 * An override belongs to its VMA: it follows it through mremap() and a
 * VMA split, and goes with munmap(); a new mapping at the same address
 * inherits nothing.
 */
static void test_mapping(void)
{
	int a = make_file("/tmp/fa-map-a", NPAGES);
	int b = make_file("/tmp/fa-map-b", NPAGES);
	size_t len = NPAGES * page_size;
	char *p = map_aligned(a, len), *q, *where, key[64];
	long faults;

	cmd("clear\n");
	set_order(4);
	if (!p || cmd("%d %p 0\n", getpid(), p)) {
		result(false, "mapping", "setup failed: %s", strerror(errno));
		return;
	}
	/* Split: the second half gains PROT_EXEC, a VMA of its own. */
	mprotect(p + len / 2, len / 2, PROT_READ | PROT_EXEC);
	faults = read_pages(p, NPAGES);
	result(faults == (long)NPAGES, "mapping split keeps the override",
	       "%ld faults, expected %lu (order 0 on both halves)", faults,
	       NPAGES);
	mprotect(p + len / 2, len / 2, PROT_READ);

	/* mremap() to a 2 MiB-aligned place: the override follows. */
	where = map_aligned(b, len);
	munmap(where, len);
	madvise(p, len, MADV_DONTNEED);
	q = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, where);
	faults = q == MAP_FAILED ? -1 : read_pages(q, NPAGES);
	result(faults == (long)NPAGES, "mapping mremap keeps the override",
	       "%ld faults, expected %lu (order 0)", faults, NPAGES);
	snprintf(key, sizeof(key), " %lx-%lx 0 ", (unsigned long)q,
		 (unsigned long)q + len);
	result(strstr(slurp(DIR_ "vma"), key) != NULL,
	       "mapping mremap listed at the new address", "vma: %s",
	       slurp(DIR_ "vma"));

	/* munmap(), then another file at the same address: no override. */
	munmap(q, len);
	result(slurp(DIR_ "vma")[0] == '\0', "mapping munmap removes the override",
	       "vma still lists: %s", slurp(DIR_ "vma"));
	p = mmap(q, len, PROT_READ, MAP_SHARED | MAP_FIXED, b, 0);
	faults = p == MAP_FAILED ? -1 : read_pages(p, NPAGES);
	result(faults == (long)(NPAGES >> 4),
	       "mapping new file at the same address",
	       "%ld faults, expected %lu (order 4)", faults, NPAGES >> 4);
	munmap(p, len);

	/* The same file again, from the same open file: the override went. */
	p = map_aligned(a, len);
	if (!p || cmd("%d %p 0\n", getpid(), p)) {
		result(false, "mapping", "setup failed: %s", strerror(errno));
		return;
	}
	munmap(p, len);
	p = mmap(p, len, PROT_READ, MAP_SHARED | MAP_FIXED, a, 0);
	faults = p == MAP_FAILED ? -1 : read_pages(p, NPAGES);
	result(faults == (long)(NPAGES >> 4),
	       "mapping same file mapped again",
	       "%ld faults, expected %lu (order 4)", faults, NPAGES >> 4);

	/* MAP_FIXED over an overridden mapping replaces it: no override. */
	if (cmd("%d %p 0\n", getpid(), p))
		result(false, "mapping", "setup failed: %s", strerror(errno));
	p = mmap(p, len, PROT_READ, MAP_SHARED | MAP_FIXED, a, 0);
	result(slurp(DIR_ "vma")[0] == '\0', "mapping MAP_FIXED over it",
	       "vma still lists: %s", slurp(DIR_ "vma"));
	munmap(p, len);
	cmd("clear\n");

	/*
	 * mremap() of half of a VMA splits it and moves one half: both
	 * halves keep the override.  Split first, one override per half,
	 * merged back: the VMA the kernel keeps keeps its own.
	 */
	p = map_aligned(a, 8 * page_size);
	mprotect(p + 4 * page_size, 4 * page_size, PROT_NONE);
	if (!p || cmd("%d %p 0\n", getpid(), p) ||
	    cmd("%d %p 0\n", getpid(), p + 4 * page_size)) {
		result(false, "mapping half", "setup failed: %s", strerror(errno));
		return;
	}
	mprotect(p + 4 * page_size, 4 * page_size, PROT_READ);
	where = map_aligned(b, 4 * page_size);
	munmap(where, 4 * page_size);
	q = mremap(p + 4 * page_size, 4 * page_size, 4 * page_size,
		   MREMAP_MAYMOVE | MREMAP_FIXED, where);
	faults = q == MAP_FAILED ? -1 : read_pages(p, 4) + read_pages(q, 4);
	result(faults == 8, "mapping mremap of half a VMA keeps both overrides",
	       "%ld faults, expected 8 (order 0 on both halves)", faults);
	munmap(p, 4 * page_size);
	munmap(q, 4 * page_size);
	cmd("clear\n");
	close(a);
	close(b);
}

/* The owner of an override exits: it is gone, and its pid inherits nothing. */
static void test_exit(void)
{
	int fd = make_file("/tmp/fa-exit", NPAGES), pipefd[2], go[2], status, i;
	char *p = NULL, c, max_was[32];
	long faults = -1;
	pid_t pid;
	FILE *f;

	cmd("clear\n");
	set_order(4);
	/* pipefd: child to parent; go: parent to child. */
	if (pipe(pipefd) || pipe(go))
		return;
	/* Get past the reserved pids, so that pid_max can make one recur. */
	do {
		pid = fork();
		if (!pid)
			_exit(0);
		waitpid(pid, NULL, 0);
	} while (pid > 0 && pid < 310);
	pid = fork();
	if (!pid) {
		p = map_aligned(fd, NPAGES * page_size);
		if (write(pipefd[1], &p, sizeof(p)) != sizeof(p) ||
		    read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(pipefd[0], &p, sizeof(p)) != sizeof(p) ||
	    cmd("%d %p 0\n", pid, p)) {
		result(false, "exit", "setup failed");
		return;
	}
	result(strstr(slurp(DIR_ "vma"), " 0 ") != NULL, "exit override listed",
	       "vma: %s", slurp(DIR_ "vma"));
	if (write(go[1], "x", 1) != 1)
		return;
	waitpid(pid, NULL, 0);
	result(slurp(DIR_ "vma")[0] == '\0', "exit override gone",
	       "vma still lists: %s", slurp(DIR_ "vma"));

	/*
	 * A new process with the same pid, the same mapping at the same place:
	 * with pid_max just above it, pids wrap around to it quickly.
	 */
	snprintf(max_was, sizeof(max_was), "%s", slurp("/proc/sys/kernel/pid_max"));
	f = fopen("/proc/sys/kernel/pid_max", "w");
	if (!f) {
		result(false, "exit pid reuse", "cannot set pid_max");
		return;
	}
	fprintf(f, "%d", pid + 1);
	fclose(f);
	for (i = 0; i < 2000; i++) {
		pid_t q = fork();

		if (!q)
			_exit(0);
		waitpid(q, NULL, 0);
		/* The next fork gets pid once its predecessor is taken. */
		if (q == pid - 1)
			break;
	}
	if (pipe(pipefd))
		return;
	if (!fork()) {
		long n = -1;

		if (getpid() == pid && mmap(p, NPAGES * page_size, PROT_READ,
					   MAP_SHARED | MAP_FIXED, fd, 0) == p)
			n = read_pages(p, NPAGES);
		if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(getpid() == pid ? 0 : 2);
	}
	if (read(pipefd[0], &faults, sizeof(faults)) != sizeof(faults))
		faults = -1;
	wait(&status);
	f = fopen("/proc/sys/kernel/pid_max", "w");
	if (f) {
		fputs(max_was, f);
		fclose(f);
	}
	result(WIFEXITED(status) && !WEXITSTATUS(status) &&
	       faults == (long)(NPAGES >> 4), "exit pid reuse",
	       "new process with pid %d: %ld faults, expected %lu (order 4)",
	       pid, faults, NPAGES >> 4);
	close(fd);
}

/*
 * After an unload: a new mapping of @fd faults at the global order 4 (a
 * policy left registered would call freed code).  Returns the mapping.
 */
static char *expect_no_policy(int fd, const char *name)
{
	char *q = map_aligned(fd, NPAGES * page_size);
	long faults = q ? read_pages(q, NPAGES) : -1;

	result(faults == (long)(NPAGES >> 4), name,
	       "%ld faults, expected %lu (the global order 4)", faults,
	       NPAGES >> 4);
	return q;
}

/* Overrides change, then the module goes away, under two faulting threads. */
static void test_stress(void)
{
	int fd = make_file("/tmp/fa-stress", NPAGES), i, err = 0;
	struct stress st = { .p = map_aligned(fd, NPAGES * page_size) };
	pthread_t t[2];

	pthread_create(&t[0], NULL, stress_fault, &st);
	pthread_create(&t[1], NULL, stress_fault, &st);
	for (i = 0; i < 200 && !err; i++) {
		err = cmd("%d %p %d\n", getpid(), st.p, i % (max_order + 1));
		if (!err && i % 3 == 0)
			err = cmd("%d %p default\n", getpid(), st.p);
		if (!err && i % 7 == 0)
			err = cmd("clear\n");
	}
	if (!err)
		err = cmd("%d %p 2\n", getpid(), st.p);
	err = unload_under(&st, t, err);
	result(!err && st.rounds > 0, "stress unload under faults",
	       "%s after %d commands, %ld rounds", err ? strerror(err) : "ok",
	       i, st.rounds);
	err = reload();
	result(!err, "stress reload", "%s: %s", module, strerror(err));
	close(fd);
}

/* The child: every slab allocation it makes fails; then rmmod. */
static int unload_failing(void *arg __attribute__((unused)))
{
	if (put("/proc/self/make-it-fail", "1", 1))
		return 254;
	return syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK) ?
		errno : 0;
}

/*
 * Unload with an override, while every allocation of the unloading task
 * fails: unload must not allocate, and must leave no policy behind (a
 * fault would call freed module code).
 */
static void test_unload(void)
{
	int fd = make_file("/tmp/fa-unload", NPAGES), err;
	char *p = map_aligned(fd, NPAGES * page_size), *q;

	set_order(4);
	if (access(FAILSLAB "probability", W_OK)) {
		result(false, "unload under failslab", "no " FAILSLAB);
		return;
	}
	if (!p || cmd("%d %p 0\n", getpid(), p)) {
		result(false, "unload", "setup failed: %s", strerror(errno));
		return;
	}
	err = failslab("task-filter", "Y") || failslab("ignore-gfp-wait", "N") ||
	      failslab("verbose", "0") || failslab("interval", "1") ||
	      failslab("times", "-1") || failslab("probability", "100");
	err = err ? 253 : in_child(unload_failing, NULL);
	failslab("probability", "0");
	result(!err, "unload under failslab", "rmmod: %s", strerror(err));
	/* Another file mapping, so that no page is cached in page tables. */
	q = expect_no_policy(fd, "unload leaves no policy");
	err = reload();
	if (!err)
		err = cmd("%d %p 1\n", getpid(), q);
	result(!err, "unload then reload and override", "%s", strerror(err));
	cmd("clear\n");
	munmap(p, NPAGES * page_size);
	munmap(q, NPAGES * page_size);
	close(fd);
}

#endif /* FA_MODTEST_LIFECYCLE_H */
