/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-bench's workers and their passes (threads, or processes for the
 * mmap-pread cases), -H's held mappings, -C's file and the usage line.
 * Static functions, in fa-bench.c's one translation unit.
 */
#ifndef FA_BENCH_RUN_H
#define FA_BENCH_RUN_H

/*
 * A worker: the passes, in step with main() through the barrier.  The
 * mmap-pread workers map their own copy; the others use main's.
 */
static void worker(unsigned int id, char **shared_map)
{
	int own = own_maps();
	struct rusage a, b;
	unsigned int pass;
	char *map = NULL;

	/* A process of its own: fork() left it main's copy, write-protected. */
	if (own)
		seen = prefaulted(npages);
	wait_all();		/* ready */
	for (pass = 0; pass < passes; pass++) {
		if (own)
			map = map_work();
		wait_all();	/* start */
		getrusage(RUSAGE_THREAD, &a);
		sh->from[id] = now_ns();
		work(id, own ? map : *shared_map);
		sh->to[id] = now_ns();
		getrusage(RUSAGE_THREAD, &b);
		sh->minflt[id] += b.ru_minflt - a.ru_minflt;
		sh->majflt[id] += b.ru_majflt - a.ru_majflt;
		wait_all();	/* done */
		if (own) {
			sh->rss[id] += mapped_pages(map);
			account(map, npages, seen, &sh->distinct[id],
				&sh->unread[id]);
		}
		wait_all();	/* teardown */
		if (own) {
			sh->from[id] = now_ns();
			munmap(map, file_size);
			sh->to[id] = now_ns();
		}
		wait_all();	/* torn down */
	}
}

static char *main_map;

/* A worker process that fails would leave the others on the barrier. */
static void on_child(int sig)
{
	siginfo_t info = { 0 };

	(void)sig;
	if (!waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) &&
	    info.si_pid && (info.si_code != CLD_EXITED || info.si_status)) {
		static const char msg[] = "fa-bench: a worker process failed\n";

		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(1);
		_exit(1);
	}
}

/* From the first worker's start to the last one's end. */
static unsigned long long span(void)
{
	unsigned long long from = sh->from[0], to = sh->to[0];
	unsigned int i;

	for (i = 1; i < nworkers; i++) {
		from = sh->from[i] < from ? sh->from[i] : from;
		to = sh->to[i] > to ? sh->to[i] : to;
	}
	return to - from;
}

static void *thread_fn(void *arg)
{
	worker((unsigned int)(size_t)arg, &main_map);
	return NULL;
}

/*
 * -H: n one-page mappings of pages 0, 2, 4, ... of a new file: never
 * adjacent in the file, so they never merge: n VMAs, for n of
 * mod_faultaround's overrides, which are per VMA.
 */
static void __attribute__((noreturn)) hold(unsigned int n, const char *dir)
{
	char path[256];
	unsigned int i;
	int hfd;

	snprintf(path, sizeof(path), "%s/fa-held.%d", dir, getpid());
	hfd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (hfd < 0)
		die(path);
	unlink(path);
	if (ftruncate(hfd, 2 * (off_t)n * page_size))
		die("ftruncate");
	for (i = 0; i < n; i++) {
		void *p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, hfd,
			       2 * (off_t)i * page_size);

		if (p == MAP_FAILED)
			die("mmap");
		printf("%d %p\n", getpid(), p);
	}
	fflush(stdout);
	for (;;)
		pause();
}

/*
 * -S -m MiB: shared anonymous memory, every page written, so that shmem
 * allocates it in the folio sizes its mTHP controls allow
 * (/sys/kernel/mm/transparent_hugepage/hugepages-*kB/shmem_enabled, which
 * anonymous shared memory follows, tmpfs mounts not); held until killed.
 * Prints the mapping's /proc/<pid>/map_files/ path, through which the
 * workloads map the same pages: an unlinked shmem file, whose mappings
 * are anonymous shared memory too (sweep-states.sh's @shmem-<N>k).
 */
static void __attribute__((noreturn)) hold_shmem(size_t mib)
{
	size_t len = mib << 20, i;
	char *p;

	pt_span = pt_span_of(0);
	p = map_aligned(len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1);
	for (i = 0; i < len; i += page_size)
		p[i] = 1;
	printf("/proc/%d/map_files/%lx-%lx\n", getpid(), (unsigned long)p,
	       (unsigned long)(p + len));
	fflush(stdout);
	for (;;)
		pause();
}

/* -C: write the file, so that all of it is in the page cache. */
static int create(const char *path, size_t mib)
{
	static char buf[1 << 16];
	size_t done;
	int cfd;

	memset(buf, 1, sizeof(buf));
	cfd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (cfd < 0)
		die(path);
	for (done = 0; done < mib << 20; done += sizeof(buf))
		if (write(cfd, buf, sizeof(buf)) != sizeof(buf))
			die("write");
	if (close(cfd))
		die("close");
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: fa-bench -C -f file -m MiB\n"
		"       fa-bench -w workload -f file [-c] [-t workers] [-s seed] [-P ptes] [-p passes] [-n starts] [-x program [-L dir]] [-g file] [-G cgroup] [-A]\n"
		"       fa-bench -w run -n pages [-p starts] [-c -f file] -- program [argument...]\n"
		"       fa-bench -H mappings [-d dir]\n"
		"       fa-bench -S -m MiB\n");
	return 2;
}

#endif /* FA_BENCH_RUN_H */
