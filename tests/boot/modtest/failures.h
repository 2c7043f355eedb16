/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-modtest's tests of failures and contention: failed (sets that
 * fail under slab fault injection move nothing), dupfail (VMA copies
 * that fail), threads (threads of one mapping under the adaptive
 * policy), stall (a target that holds its mmap lock stalls no one else)
 * and lockdown (only when named).
 * Static functions, in fa-modtest.c's one translation unit.
 */
#ifndef FA_MODTEST_FAILURES_H
#define FA_MODTEST_FAILURES_H

/* The statistics the module counts itself (not the kernel's vmstat). */
static void own_stats(char *buf, size_t len)
{
	const char *s = slurp(DIR_ "stats"), *l;
	size_t n = 0;

	buf[0] = '\0';
	for (l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, "fault_around", 12) && n < len)
			n += snprintf(buf + n, len - n, "%.*s\n",
				      (int)strcspn(l, "\n"), l);
}

/* The child: first writes, every slab allocation failing half the time. */
static int failing_sets(void *arg)
{
	int i;

	if (put("/proc/self/make-it-fail", "1", 1))
		return 254;
	for (i = 0; i < 20; i++)
		if (!cmd("%d %p 3\n", getppid(), arg)) {
			/*
			 * clear must not fail, and its buffer is a slab
			 * object; opening make-it-fail allocates one too.
			 */
			for (i = 0; put("/proc/self/make-it-fail", "0", 1); i++)
				if (i == 1000)
					return 254;
			return cmd("clear\n") ? 253 : 255;
		}
	return 0;
}

/*
 * First writes that fail under slab fault injection, with faults in
 * flight: none may move the statistics (a policy registered for a
 * moment would count those faults).  A round where a write succeeded
 * moved them rightly, and is not counted.
 */
static void test_failed_set(void)
{
	int fd = make_file("/tmp/fa-failed", NPAGES), round, clean = 0, moved = 0;
	struct stress st = { .p = map_aligned(fd, NPAGES * page_size) };
	char before[4096], after[4096];
	pthread_t t;

	cmd("clear\n");
	if (failslab("task-filter", "Y") || failslab("ignore-gfp-wait", "N") ||
	    failslab("verbose", "0") || failslab("interval", "1") ||
	    failslab("times", "-1") || failslab("probability", "50")) {
		result(false, "failed first writes", "no " FAILSLAB);
		return;
	}
	pthread_create(&t, NULL, stress_fault, &st);
	for (round = 0; round < 20; round++) {
		int got;

		own_stats(before, sizeof(before));
		got = in_child(failing_sets, st.p);
		own_stats(after, sizeof(after));
		if (got == 255)
			continue;
		if (got) {
			moved = -got;
			break;
		}
		clean++;
		if (strcmp(before, after)) {
			moved++;
			break;
		}
	}
	failslab("probability", "0");
	st.stop = true;
	pthread_join(t, NULL);
	if (moved < 0)
		result(false, "failed first writes", "child failed (%d)", -moved);
	else
		result(clean && !moved, "failed first writes change no statistics",
		       "%d of %d rounds of 20 failed writes moved them; before:\n%s\nafter:\n%s",
		       moved, clean, before, after);
	cmd("clear\n");
	munmap(st.p, NPAGES * page_size);
	close(fd);
}

#define LOCKDOWN "/sys/kernel/security/lockdown"
#define SYSCTL_BYTES "/proc/sys/vm/fault_around_bytes"

/*
 * Lockdown raised while a file is open: its writes are refused (debugfs
 * checks only at open), and nothing changes.  Loads the module itself,
 * and leaves the guest locked down: init runs it last.
 */
/*
 * The child: split its copy of an overridden VMA (order 0) 60 times while
 * half of its kmalloc-64 allocations (the module's copies) fail, and
 * merge it back.  Bits: 1 a split failed, which the module must never
 * make it do; 2 both halves kept the override; 8 a half lost it and
 * overrides_uncopied counted it; 4 a half lost it uncounted, or another
 * error.
 */
static int failing_splits(void *arg)
{
	int fail = open("/proc/self/make-it-fail", O_WRONLY), bits = 0, i, r;
	size_t half = NPAGES / 2 * page_size;
	long lost, faults;
	char *p = arg;

	if (fail < 0)
		return 254;
	for (i = 0; i < 60; i++) {
		lost = stat_of("overrides_uncopied");
		/* Only the split fails: the rest here allocates too. */
		if (pwrite(fail, "1", 1, 0) != 1)
			return 254;
		r = mprotect(p + half, half, PROT_READ | PROT_EXEC);
		if (pwrite(fail, "0", 1, 0) != 1)
			return 254;
		if (r) {
			bits |= errno == ENOMEM ? 1 : 4;
			continue;
		}
		madvise(p, 2 * half, MADV_DONTNEED);
		faults = read_pages(p, NPAGES);
		if (faults == (long)NPAGES)
			bits |= 2;
		else if (stat_of("overrides_uncopied") == lost + 1)
			bits |= 8;
		else
			bits |= 4;
		mprotect(p + half, half, PROT_READ);
		/* A half that lost it: the override again, on the whole. */
		cmd("%d %p 0\n", getpid(), p);
	}
	return bits;
}

/*
 * A VMA copy never fails for the module: with its copies failing, a
 * split succeeds and the half that could not get the override is
 * counted.
 */
static void test_dupfail(void)
{
	int fd = make_file("/tmp/fa-dupfail", NPAGES), got;
	char *p = map_aligned(fd, NPAGES * page_size);

	cmd("clear\n");
	set_order(4);
	/* struct mfa_override is 48 bytes on 64-bit: kmalloc-64. */
	if (!p || cmd("%d %p 0\n", getpid(), p) ||
	    put("/sys/kernel/slab/kmalloc-64/failslab", "1", 1) ||
	    failslab("cache-filter", "Y") ||
	    failslab("task-filter", "Y") || failslab("ignore-gfp-wait", "N") ||
	    failslab("verbose", "0") || failslab("interval", "1") ||
	    failslab("times", "-1") || failslab("probability", "50")) {
		result(false, "dupfail", "setup failed: %s", strerror(errno));
		return;
	}
	got = in_child(failing_splits, p);
	failslab("probability", "0");
	failslab("cache-filter", "N");
	put("/sys/kernel/slab/kmalloc-64/failslab", "0", 1);
	result(got == (2 | 8),
	       "dupfail: with its copies failing, splits succeed and the half without the override is counted",
	       "%s%s%s%s(status %d)", got & 1 ? "a split failed (ENOMEM); " : "",
	       got & 2 ? "" : "none kept the override; ",
	       got & 8 ? "" : "none lost it; ",
	       got & 4 ? "a half lost it uncounted, or another errno; " : "",
	       got);
	cmd("clear\n");
	munmap(p, NPAGES * page_size);
	close(fd);
}

struct share {
	const char *p;
	size_t pages;
	long faults;
};

static void *read_share(void *arg)
{
	struct share *s = arg;

	s->faults = read_pages(s->p, s->pages);
	return NULL;
}

/*
 * 1, 2 and 8 threads read one mapping at once with the kernel's adaptive
 * policy on, each its own contiguous share in order: one state for all
 * of them (the open file's), which still maps around (fewer faults than
 * pages), under the debug kernel's checkers.
 */
static void test_threads(void)
{
	static const int counts[] = { 1, 2, 8 };
	int fd = make_file("/tmp/fa-threads", NPAGES), i, j, n;
	size_t len = NPAGES * page_size;
	struct share sh[8];
	pthread_t t[8];
	char name[96];
	long total;
	char *p;

	cmd("clear\n");
	if (set_policy("adaptive\n")) {
		result(false, "threads", "policy: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 3; i++) {
		n = counts[i];
		p = map_aligned(fd, len);
		for (j = 0; p && j < n; j++) {
			sh[j] = (struct share){ p + j * len / n, NPAGES / n, -1 };
			pthread_create(&t[j], NULL, read_share, &sh[j]);
		}
		for (total = 0, j = 0; p && j < n; j++) {
			pthread_join(t[j], NULL);
			total += sh[j].faults;
		}
		snprintf(name, sizeof(name),
			 "threads: %d on one adaptive mapping, maps around", n);
		result(p && total > 0 && total < (long)NPAGES, name,
		       "%ld faults for %lu pages", total, NPAGES);
		if (p)
			munmap(p, len);
	}
	set_policy("off\n");
	close(fd);
}

#define STALL_DIR	"/tmp/fa-stall"

/* Wait up to @ms for child @pid: its wait status, or -1 if it still runs. */
static int wait_ms(pid_t pid, int ms)
{
	int status;

	for (; ms > 0; ms -= 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	return -1;
}

static void *read_own_mem(void *map)
{
	char c;
	int fd = open("/proc/self/mem", O_RDONLY);

	return (void *)(long)pread(fd, &c, 1, (off_t)(unsigned long)map);
}

/*
 * The target: a thread reads its own memory over a mapping of the
 * stalling FUSE file, which holds its mmap lock; then the main thread
 * sends the address and queues for the lock for writing, so that every
 * later reader of this mm waits too.
 */
static void stall_target(int out)
{
	int fd = open(STALL_DIR "/f", O_RDONLY);
	char *map = fd < 0 ? MAP_FAILED :
		mmap(NULL, page_size, PROT_READ, MAP_PRIVATE, fd, 0);
	pthread_t t;

	if (map == MAP_FAILED)
		_exit(1);
	pthread_create(&t, NULL, read_own_mem, map);
	usleep(200000);
	if (write(out, &map, sizeof(map)) != sizeof(map))
		_exit(1);
	usleep(200000);
	mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	_exit(0);
}

/* A set and its removal on a mapping of this (child) process. */
static int set_own(void *arg __attribute__((unused)))
{
	int fd = make_file("/tmp/fa-stall-own", 16), err;
	char *p = fd < 0 ? MAP_FAILED :
		mmap(NULL, 16 * page_size, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return 253;
	err = cmd("%d %p 2\n", getpid(), p);
	return err ? err : cmd("%d %p default\n", getpid(), p);
}

/*
 * A target that stalls its own mmap lock (the FUSE read above) stalls a
 * write about it, and nothing else: another process's set and removal
 * complete meanwhile, and the stalled write dies when killed.  Each wait
 * is bounded: a write stuck behind the stalled one fails the test
 * instead of hanging it, and killing the server frees them all.
 */
static void test_stall(void)
{
	pid_t server, target = -1, stalled = -1, other = -1;
	int pipefd[2] = { -1, -1 }, status;
	char *map = NULL;

	server = fuse_stall_mount(STALL_DIR);
	if (server < 0) {
		result(false, "stall", "FUSE mount: %s", strerror(errno));
		return;
	}
	if (pipe(pipefd) == 0)
		target = fork();
	if (target == 0) {
		close(pipefd[0]);
		stall_target(pipefd[1]);
	}
	close(pipefd[1]);
	if (target < 0 || read(pipefd[0], &map, sizeof(map)) != sizeof(map)) {
		result(false, "stall", "no target");
		goto out;
	}
	usleep(400000);
	stalled = fork();
	if (stalled == 0)
		_exit(cmd("%d %p 2\n", target, map));
	/* Else the target's lock was not stalled and nothing is tested. */
	status = wait_ms(stalled, 1000);
	result(status == -1, "stall: a write about a stalled target waits",
	       "it ended (status %#x)", status);
	other = fork();
	if (other == 0)
		_exit(set_own(NULL));
	status = wait_ms(other, 5000);
	result(status != -1 && WIFEXITED(status) && !WEXITSTATUS(status),
	       "stall: another process's set and removal complete meanwhile",
	       status == -1 ? "still waiting after 5 s" : "status %#x", status);
	if (status != -1)
		other = -1;
	kill(stalled, SIGKILL);
	status = wait_ms(stalled, 5000);
	result(status != -1 && WIFSIGNALED(status),
	       "stall: the stalled write dies when killed",
	       status == -1 ? "still waiting 5 s after SIGKILL" : "status %#x",
	       status);
	if (status != -1)
		stalled = -1;
out:
	fuse_stall_unmount(STALL_DIR, server);
	if (target > 0) {
		kill(target, SIGKILL);
		waitpid(target, NULL, 0);
	}
	if (stalled > 0)
		waitpid(stalled, NULL, 0);
	if (other > 0)
		waitpid(other, NULL, 0);
	close(pipefd[0]);
	cmd("clear\n");
}

static void test_lockdown(void)
{
	char before[4096];
	int fd, err;

	err = reload();
	if (err && err != EEXIST) {
		result(false, "lockdown", "%s: %s", module, strerror(err));
		return;
	}
	fd = open(DIR_ "order", O_RDWR);
	/* debugfs opens nothing writable once locked down: read the sysctl. */
	snprintf(before, sizeof(before), "%s", slurp(SYSCTL_BYTES));
	if (fd < 0 || put(LOCKDOWN, "integrity", 9)) {
		result(false, "lockdown", "cannot open order or raise %s: %s",
		       LOCKDOWN, strerror(errno));
		return;
	}
	err = write(fd, "1\n", 2) < 0 ? errno : 0;
	result(err == EPERM && !strcmp(before, slurp(SYSCTL_BYTES)),
	       "lockdown raised after open: writes refused (EPERM), order kept",
	       "write: %s; fault_around_bytes %s, was %s",
	       err ? strerror(err) : "accepted", slurp(SYSCTL_BYTES), before);
	close(fd);
	err = syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK) ?
		errno : 0;
	result(!err, "lockdown: unload", "%s", strerror(err));
}

#endif /* FA_MODTEST_FAILURES_H */
