// SPDX-License-Identifier: GPL-2.0
/*
 * fa-bench: one run of one fault-around workload.  The driver
 * (tests/bench/sweep.sh) sets the order between runs.
 *
 *   fa-bench -w seq|rand|sparse|exec [-t threads] [-m MiB] [-s seed]
 *            [-d dir] [-n starts]
 *   fa-bench -H n [-d dir]
 *
 * Prints one line: "<minor faults> <major faults> <elapsed ns> <pages>
 * <mapped> <fa calls> <fa mapped>".  The faults are those of the workers'
 * loops (getrusage(RUSAGE_THREAD)), after the file has been put in the
 * page cache; the time spans creating the workers to joining them;
 * <pages> is the pages touched (for exec, the starts); <mapped> the pages
 * the mapping has in the end (its Rss in /proc/self/smaps: the touched
 * ones plus what fault-around added; 0 for exec).  <fa calls> and <fa
 * mapped> are the deltas of /proc/vmstat's fault_around and
 * fault_around_mapped over the same span, system-wide (-1 on a kernel
 * without them); the program's own code is mapped before, so that only
 * the workload's faults count.  For exec, the threads share the starts, and the faults
 * are those of the children.
 *
 * -H n holds n one-page file mappings, prints "<pid> <address>" for each
 * and waits to be killed: the other mappings that the module-cost runs
 * of sweep.sh give overrides to.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../boot/vmstat.h"

#define PMD_SPAN	(2UL << 20)

static long page_size;
static size_t npages;
/* Work items: pages (seq, rand), page tables (sparse) or starts (exec). */
static size_t nwork;
static char *map;
static unsigned int nthreads = 1;
static unsigned int seed = 1;
static enum { SEQ, RAND, SPARSE, EXEC } workload = SEQ;
static size_t *perm;		/* rand: page visiting order */
static long *thread_minflt, *thread_majflt;	/* per worker */

static void die(const char *what)
{
	fprintf(stderr, "fa-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift32: a small PRNG whose sequence is fixed by the seed. */
static unsigned int next_rand(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* exec: start this binary as a no-op child, @n times in a row. */
static void run_exec(size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			execl("/proc/self/exe", "fa-bench", "-w", "noop", NULL);
			_exit(127);
		}
		if (waitpid(pid, NULL, 0) < 0)
			die("waitpid");
	}
}

static void *worker(void *arg)
{
	size_t id = (size_t)arg, i, from, to;
	volatile unsigned long sink = 0;
	struct rusage before, after;

	/* Each thread does its own contiguous share of the work. */
	from = nwork * id / nthreads;
	to = nwork * (id + 1) / nthreads;
	if (workload == EXEC) {	/* the children's faults are counted in main() */
		run_exec(to - from);
		return NULL;
	}
	/* Count this thread's loop only, not its creation. */
	getrusage(RUSAGE_THREAD, &before);
	for (i = from; i < to; i++) {
		size_t page;

		if (workload == SPARSE)
			page = i * (PMD_SPAN / page_size);
		else
			page = workload == RAND ? perm[i] : i;
		sink += *(volatile unsigned long *)(map + page * page_size);
	}
	getrusage(RUSAGE_THREAD, &after);
	thread_minflt[id] = after.ru_minflt - before.ru_minflt;
	thread_majflt[id] = after.ru_majflt - before.ru_majflt;
	return NULL;
}

/* @a's growth to @b, or -1 where the kernel has no such counter. */
static void print_counters(const struct fa_counters *a,
			   const struct fa_counters *b)
{
	printf(" %lld %lld\n", a->calls < 0 ? -1 : b->calls - a->calls,
	       a->mapped < 0 ? -1 : b->mapped - a->mapped);
}

/* The Rss of the mapping at @addr, in pages, from /proc/self/smaps. */
static long mapped_pages(const void *addr)
{
	unsigned long start, end, kb;
	char line[512], perms[5];
	int found = 0;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		die("/proc/self/smaps");
	while (fgets(line, sizeof(line), f)) {
		/* A VMA's header line: "start-end perms offset dev inode path". */
		if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) == 3)
			found = start == (unsigned long)addr;
		else if (found && sscanf(line, "Rss: %lu kB", &kb) == 1)
			break;
	}
	fclose(f);
	if (!found) {
		errno = ENOENT;
		die("no Rss for the mapping in /proc/self/smaps");
	}
	return kb * 1024 / page_size;
}

/*
 * -H: n one-page mappings of pages 0, 2, 4, ... of the file: never
 * adjacent in the file, so they never merge, and mod_faultaround's
 * overrides, which are for pages of a file, are n different ones.
 */
static void __attribute__((noreturn)) hold(unsigned int n, int fd)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		void *p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd,
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
 * Map a file of @mib MiB read-only, every page in the page cache (the
 * only pages fault-around maps); with @held, hold that many mappings of
 * one page instead.
 */
static void map_file(const char *dir, size_t mib, unsigned int held)
{
	char path[256];
	size_t i;
	int fd;

	npages = held ? 2 * held : mib * (1UL << 20) / page_size;
	snprintf(path, sizeof(path), "%s/fa-bench.%d", dir, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	unlink(path);
	if (ftruncate(fd, npages * page_size))
		die("ftruncate");
	if (held)
		hold(held, fd);
	/* Fill the page cache through a writable mapping, then map it read-only. */
	map = mmap(NULL, npages * page_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	for (i = 0; i < npages; i++)
		map[i * page_size] = 1;
	munmap(map, npages * page_size);
	map = mmap(NULL, npages * page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");

	/* rand visits every page once, in an order fixed by the seed. */
	if (workload == RAND) {
		unsigned int s = seed;

		perm = malloc(npages * sizeof(*perm));
		for (i = 0; i < npages; i++)
			perm[i] = i;
		for (i = npages - 1; i > 0; i--) {
			size_t j = next_rand(&s) % (i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
	}
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp", *w = "seq";
	unsigned int starts = 50, held = 0, i;
	size_t mib = 64;
	struct rusage before, after;
	struct fa_counters fa_before, fa_after;
	int vmstat = open("/proc/vmstat", O_RDONLY);
	unsigned long long t0, t1;
	pthread_t *tids;
	int opt;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "w:t:m:s:d:n:H:")) != -1) {
		switch (opt) {
		case 'w': w = optarg; break;
		case 't': nthreads = atoi(optarg); break;
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'd': dir = optarg; break;
		case 'n': starts = atoi(optarg); break;
		case 'H': held = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: fa-bench -w seq|rand|sparse|exec [-t threads] [-m MiB] [-s seed] [-d dir] [-n starts]\n"
				"       fa-bench -H mappings [-d dir]\n");
			return 2;
		}
	}
	if (!strcmp(w, "noop"))
		return 0;	/* the program that "exec" starts */
	if (!strcmp(w, "seq"))
		workload = SEQ;
	else if (!strcmp(w, "rand"))
		workload = RAND;
	else if (!strcmp(w, "sparse"))
		workload = SPARSE;
	else if (!strcmp(w, "exec"))
		workload = EXEC;
	else {
		fprintf(stderr, "fa-bench: unknown workload %s\n", w);
		return 2;
	}
	if (!nthreads || nthreads > 256) {
		fprintf(stderr, "fa-bench: threads must be 1..256\n");
		return 2;
	}

	/*
	 * Map all of this program now: the counters are system-wide, and a
	 * page of its code first run in the measured span (thread creation,
	 * the worker) would fault around too.  Needs root; without, the
	 * counters may include a few such faults.
	 */
	if (!mlockall(MCL_CURRENT))
		munlockall();

	if (workload == EXEC) {
		nwork = starts;
	} else {
		map_file(dir, mib, held);
		nwork = workload == SPARSE ?
			(npages * page_size + PMD_SPAN - 1) / PMD_SPAN : npages;
	}
	tids = calloc(nthreads, sizeof(*tids));
	thread_minflt = calloc(nthreads, sizeof(*thread_minflt));
	thread_majflt = calloc(nthreads, sizeof(*thread_majflt));
	fa_read_counters(vmstat, &fa_before);
	getrusage(RUSAGE_CHILDREN, &before);
	t0 = now_ns();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&tids[i], NULL, worker, (void *)(size_t)i))
			die("pthread_create");
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	t1 = now_ns();
	fa_read_counters(vmstat, &fa_after);
	if (workload == EXEC) {
		getrusage(RUSAGE_CHILDREN, &after);
		printf("%ld %ld %llu %zu 0", after.ru_minflt - before.ru_minflt,
		       after.ru_majflt - before.ru_majflt, t1 - t0, nwork);
		print_counters(&fa_before, &fa_after);
		return 0;
	}
	memset(&after, 0, sizeof(after));
	for (i = 0; i < nthreads; i++) {
		after.ru_minflt += thread_minflt[i];
		after.ru_majflt += thread_majflt[i];
	}
	printf("%ld %ld %llu %zu %ld", after.ru_minflt, after.ru_majflt,
	       t1 - t0, nwork, mapped_pages(map));
	print_counters(&fa_before, &fa_after);
	return 0;
}
