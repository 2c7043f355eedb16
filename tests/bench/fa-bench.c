// SPDX-License-Identifier: GPL-2.0
/*
 * fa-bench: one run of one fault-around workload.  The driver
 * (tests/bench/sweep.sh) sets the order between runs.
 *
 *   fa-bench -w seq|rand|sparse|exec [-t threads] [-m MiB] [-s seed]
 *            [-d dir] [-n starts]
 *
 * Prints one line: "<minor faults> <major faults> <elapsed ns> <pages>".
 * The faults are those of the workers' loops (getrusage(RUSAGE_THREAD)),
 * after the file has been put in the page cache; the time spans creating
 * the workers to joining them.  For exec, the faults of the children.
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

#define PMD_SPAN	(2UL << 20)

static long page_size;
static size_t npages;
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

static void *worker(void *arg)
{
	size_t id = (size_t)arg, i, from, to;
	volatile unsigned long sink = 0;
	struct rusage before, after;

	/* Each thread reads its own contiguous share of the work. */
	from = npages * id / nthreads;
	to = npages * (id + 1) / nthreads;
	/* Count this thread's loop only, not its creation. */
	getrusage(RUSAGE_THREAD, &before);
	for (i = from; i < to; i++) {
		size_t page;

		if (workload == SPARSE) {
			page = i * (PMD_SPAN / page_size);
			if (page >= npages)
				break;
		} else {
			page = workload == RAND ? perm[i] : i;
		}
		sink += *(volatile unsigned long *)(map + page * page_size);
	}
	getrusage(RUSAGE_THREAD, &after);
	thread_minflt[id] = after.ru_minflt - before.ru_minflt;
	thread_majflt[id] = after.ru_majflt - before.ru_majflt;
	return NULL;
}

static void run_exec(unsigned int starts, const char *self)
{
	unsigned int i;

	for (i = 0; i < starts; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			execl(self, self, "-w", "noop", NULL);
			_exit(127);
		}
		if (waitpid(pid, NULL, 0) < 0)
			die("waitpid");
	}
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp", *w = "seq";
	unsigned int starts = 50, i;
	size_t mib = 64;
	struct rusage before, after;
	unsigned long long t0, t1;
	pthread_t *tids;
	int opt, fd;
	char path[256];

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "w:t:m:s:d:n:")) != -1) {
		switch (opt) {
		case 'w': w = optarg; break;
		case 't': nthreads = atoi(optarg); break;
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'd': dir = optarg; break;
		case 'n': starts = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: fa-bench -w seq|rand|sparse|exec [-t threads] [-m MiB] [-s seed] [-d dir] [-n starts]\n");
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

	if (workload == EXEC) {
		getrusage(RUSAGE_CHILDREN, &before);
		t0 = now_ns();
		run_exec(starts, "/proc/self/exe");
		t1 = now_ns();
		getrusage(RUSAGE_CHILDREN, &after);
		printf("%ld %ld %llu %u\n", after.ru_minflt - before.ru_minflt,
		       after.ru_majflt - before.ru_majflt, t1 - t0, starts);
		return 0;
	}

	npages = mib * (1UL << 20) / page_size;
	snprintf(path, sizeof(path), "%s/fa-bench.%d", dir, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(path);
	unlink(path);
	if (ftruncate(fd, npages * page_size))
		die("ftruncate");
	/* Put every page in the page cache: fault-around maps only those. */
	map = mmap(NULL, npages * page_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");
	for (i = 0; i < npages; i++)
		map[(size_t)i * page_size] = 1;
	munmap(map, npages * page_size);
	map = mmap(NULL, npages * page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap");

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

	tids = calloc(nthreads, sizeof(*tids));
	thread_minflt = calloc(nthreads, sizeof(*thread_minflt));
	thread_majflt = calloc(nthreads, sizeof(*thread_majflt));
	t0 = now_ns();
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&tids[i], NULL, worker, (void *)(size_t)i))
			die("pthread_create");
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	t1 = now_ns();
	memset(&after, 0, sizeof(after));
	for (i = 0; i < nthreads; i++) {
		after.ru_minflt += thread_minflt[i];
		after.ru_majflt += thread_majflt[i];
	}
	printf("%ld %ld %llu %zu\n", after.ru_minflt, after.ru_majflt, t1 - t0,
	       workload == SPARSE ? (npages * page_size + PMD_SPAN - 1) / PMD_SPAN
				  : npages);
	return 0;
}
