/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-bench's measured phases: the workers started, each pass's work and
 * teardown timed and counted, the workers joined; then the counts summed
 * and printed, the line sweep-run.sh reads.
 * Static functions, in fa-bench.c's one translation unit.
 */
#ifndef FA_BENCH_PHASES_H
#define FA_BENCH_PHASES_H

/* What one run measured. */
struct totals {
	unsigned long long work_ns, down_ns, fixed;
	long minflt, majflt, mapped, distinct, unread;
	size_t pages;
	struct fa_counters fa_before, fa_after;
	long long ev_before[NR_EVENTS], ev_after[NR_EVENTS];
	long long ev_unmapped[NR_EVENTS];
	struct rusage ca, cb;
};

/* The shared block and its barrier, and this program mapped. */
static void setup_shared(void)
{
	pthread_barrierattr_t attr;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	pthread_barrierattr_init(&attr);
	pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	if (pthread_barrier_init(&sh->bar, &attr, nworkers + 1))
		die("pthread_barrier_init");
	/*
	 * Map all of this program now: the counters are system-wide, and a
	 * page of its code first run in the measured phases would fault
	 * around too.  Needs root; without, the counters may include a few
	 * such faults.  The processes do it again: fork() copies no PTEs of
	 * file mappings.
	 */
	if (!mlockall(MCL_CURRENT))
		munlockall();
}

/* One pass: the work, what it mapped and read, and its teardown. */
static void one_pass(int procs, struct totals *t)
{
	unsigned long long t0;

	if (!procs && !spawns() && workload != SMALLFILES)
		main_map = map_work();
	if (is_hotcold()) {
		hot_map = map_aligned(file2_size, PROT_READ, MAP_SHARED, fd2);
		cold_fate.map = main_map;
		hot_fate.map = hot_map;
	}
	sh->next_chunk = 0;	/* before the start: the workers wait */
	wait_all();	/* start */
	wait_all();	/* done */
	t->work_ns += span();
	/* Before the lookups below allocate: the work's counts only. */
	if (is_hotcold())
		read_events(t->ev_after);
	if (main_map)
		t->mapped += mapped_pages(main_map);
	if (is_hotcold()) {
		t->mapped += mapped_pages(hot_map);
		fate_end(&cold_fate, &t->distinct, &t->unread);
		fate_end(&hot_fate, &t->distinct, &t->unread);
	} else if (workload == SMALLFILES) {
		/* Its Rss: the pages present, as pagemap shows them. */
		long d0 = t->distinct, u0 = t->unread;
		size_t c;

		for (c = 0; c < small_chunks(); c++)
			account(chunk_maps[c], SMALL_PAGES,
				seen + c * SMALL_PAGES, &t->distinct, &t->unread);
		t->mapped += t->distinct - d0 + t->unread - u0;
	} else if (seen && !procs) {
		account(main_map, npages, seen, &t->distinct, &t->unread);
	}
	wait_all();	/* teardown */
	if (workload == SMALLFILES) {
		size_t c;

		t0 = now_ns();
		for (c = 0; c < small_chunks(); c++)
			munmap(chunk_maps[c], SMALL_PAGES * page_size);
		t->down_ns += now_ns() - t0;
	}
	if (main_map) {
		t0 = now_ns();
		munmap(main_map, file_size);
		if (hot_map)
			munmap(hot_map, file2_size);
		t->down_ns += now_ns() - t0;
	}
	if (is_hotcold())
		read_events(t->ev_unmapped);
	wait_all();	/* torn down */
	if (procs)
		t->down_ns += span();
}

/* The workers started, every pass run and the workers joined. */
static void run_workers(int vmstat, struct totals *t)
{
	unsigned long long t0, t_ready, t1;
	pthread_t *tids = calloc(nworkers, sizeof(*tids));
	pid_t *pids = calloc(nworkers, sizeof(*pids));
	int procs = own_maps();
	unsigned int i, pass;

	if (!tids || !pids)
		die("calloc");
	if (procs)
		signal(SIGCHLD, on_child);
	t0 = now_ns();
	for (i = 0; i < nworkers; i++) {
		if (!procs) {
			if (pthread_create(&tids[i], NULL, thread_fn,
					   (void *)(size_t)i))
				die("pthread_create");
			continue;
		}
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (!pids[i]) {
			if (!mlockall(MCL_CURRENT))
				munlockall();
			worker(i, NULL);
			_exit(0);
		}
	}
	wait_all();		/* ready: all started */
	t_ready = now_ns();
	getrusage(RUSAGE_CHILDREN, &t->ca);
	if (is_hotcold())
		read_events(t->ev_before);
	fa_read_counters(vmstat, &t->fa_before);
	for (pass = 0; pass < passes; pass++)
		one_pass(procs, t);
	fa_read_counters(vmstat, &t->fa_after);
	getrusage(RUSAGE_CHILDREN, &t->cb);
	t->fixed = t_ready - t0;
	t1 = now_ns();
	for (i = 0; i < nworkers; i++) {
		if (!procs)
			pthread_join(tids[i], NULL);
		else if (waitpid(pids[i], NULL, 0) < 0)
			die("waitpid");
	}
	t->fixed += now_ns() - t1;
}

/* The workers' counts summed, and the pages the workload reads. */
static void tally(struct totals *t)
{
	unsigned int i;

	if (spawns()) {
		t->minflt = t->cb.ru_minflt - t->ca.ru_minflt;
		t->majflt = t->cb.ru_majflt - t->ca.ru_majflt;
		t->pages = starts;	/* run: its -n, the pages it reads */
	} else {
		for (i = 0; i < nworkers; i++) {
			t->minflt += sh->minflt[i];
			t->majflt += sh->majflt[i];
			t->mapped += sh->rss[i];
			t->distinct += sh->distinct[i];
			t->unread += sh->unread[i];
		}
		t->pages = passes * (own_maps() || workload == XREAD ?
				     nworkers * npages : touches());
		if (workload == MIXED) {
			t->pages = npages + passes2 * (file2_size / pt_span);
			t->mapped = 0;
		}
		if (is_hotcold())
			t->pages = (npages + hot_stride() - 1) / hot_stride() +
				   HOT_ROUNDS * (file2_size / page_size);
	}
	if (!counts_reads())
		t->distinct = t->unread = -1;
	/* hotcold's fates need the frames (CAP_SYS_ADMIN): not measured. */
	if (sh->no_pfn)
		sh->hits = sh->reclaimed_read = t->unread = -1;
}

/* The line sweep-run.sh reads, and hotcold's second one. */
static void print_totals(const struct totals *t)
{
	unsigned int i;

	printf("%ld %ld %llu %zu %ld %lld %lld %llu %llu %ld %ld\n", t->minflt,
	       t->majflt, t->work_ns + t->down_ns, t->pages, t->mapped,
	       t->fa_before.calls < 0 ? -1 : t->fa_after.calls - t->fa_before.calls,
	       t->fa_before.mapped < 0 ? -1 :
	       t->fa_after.mapped - t->fa_before.mapped,
	       t->fixed, t->down_ns, t->distinct, t->unread);
	if (!is_hotcold())
		return;
	/* Its second line: the fates of the pages and the counts. */
	printf("hits=%ld reclaimed_read=%ld", sh->hits, sh->reclaimed_read);
	for (i = 0; i < NR_EVENTS; i++) {
		const long long *end = events[i].file & AT_UNMAP ?
				       t->ev_unmapped : t->ev_after;

		printf(" %s=%lld", events[i].name,
		       t->ev_before[i] < 0 || end[i] < 0 ? -1 :
		       end[i] - t->ev_before[i]);
	}
	printf("\n");
}

#endif /* FA_BENCH_PHASES_H */
