// SPDX-License-Identifier: GPL-2.0
/*
 * fa-bench: one run of one fault-around workload.  The driver
 * (scripts/bench/guest/sweep.sh) sets the order between runs.  Built
 * with lib.sh's LAB_CFLAGS, whose -I names tests/include/; its parts are
 * in fabench/, a header of static functions each, in this one file's
 * order (one translation unit: the same code as one file).
 *
 *   fa-bench -C -f file -m MiB     create the file, all of it in the page cache
 *   fa-bench -w workload -f file [-c] [-t workers] [-s seed] [-P ptes]
 *            [-p passes] [-n starts] [-x program [-L dir]] [-g file] [-G cgroup] [-A]
 *   fa-bench -w run -n pages [-p starts] [-c -f file] -- program [argument...]
 *   fa-bench -H n [-d dir]
 *   fa-bench -S -m MiB             hold shared anonymous memory (run.h)
 *   fa-bench -R -f file [-P ptes]  one fault: pages mapped, pages young
 *   fa-bench -E                    the names of hotcold's second line
 *
 * Workloads (reading a page reads every word of it, as vm-scalability's
 * usemem --readonly does; every mapping starts on a page-table boundary,
 * so that the windows do not depend on where ASLR puts it):
 *   seq             threads share one mapping of the file, each reads its
 *                   contiguous share of the pages in order
 *   rand            the same, but each reads its share of the file's page
 *                   count at random over the whole file (with repeats, so
 *                   that it faults less than seq: about 1 - 1/e of the
 *                   pages are read)
 *   sparse          -p passes (by default enough for 512 touches) of: map,
 *                   read one page per page table (-P PTEs), unmap
 *   mmap-pread-seq, mmap-pread-rand
 *                   vm-scalability's cases: each worker is a process that
 *                   maps the whole file and reads all of it in order, or
 *                   (rand) words at random offsets, as usemem --random
 *                   does, 64 per page of the file: every page is read
 *   anon            no order applies: threads write one word per page of their
 *                   share of an anonymous mapping, which no order touches
 *   exec            the threads start a static no-op (this program) -n
 *                   (20) times in all, with posix_spawn (no copy-on-write)
 *   dynexec         the same with -x, a dynamically linked program: its
 *                   ld.so and libc come from the page cache; with -L, all
 *                   three from dir: dir/ld.so runs the program, its
 *                   libraries from dir (--library-path), so that every
 *                   page of the start-up is read from dir's file system
 *   mixed           two threads of one process at once: one reads the
 *                   file in order (seq), the other does sparse's passes
 *                   over the -g file; no one order suits both
 *   hotcold         one thread, HOT_ROUNDS times: read the next chunk of
 *                   the file (the stream) in order, then as many pages of
 *                   the -g file (the hot set) as it has, at random; with
 *                   -G, in that cgroup (make bench PRESSURE=1)
 *   hotscan         the same, but reading one stream page in SCAN_STRIDE:
 *                   a scan that reads part of what it passes, so that
 *                   fault-around maps stream pages nobody reads
 *   vmas            the life of many small mappings, for what a policy's
 *                   VMA hooks cost (make bench MODCOST=1): the threads
 *                   share the file's page pairs; for each, map the two
 *                   pages, read the first (a fault), split the mapping
 *                   with mprotect() (a VMA copy) and unmap it (two frees)
 *   mmap-xread-seq-mt
 *                   vm-scalability's case: threads share one mapping of
 *                   the file, and each reads all of it in order
 *   seq-interleaved, hot-reuse, manymaps-seq, seq-then-sparse,
 *   sparse-then-seq
 *                   the adaptive policy's held-out workloads (issue 29:
 *                   written before any of its constants is tuned):
 *                   seq-interleaved, threads share one mapping and read
 *                   it in order in CHUNK_PAGES chunks, each chunk to
 *                   whichever thread asks first (two threads: the
 *                   mapping read in order, by both); hot-reuse reads as many
 *                   pages as the file has at random in its second
 *                   quarter (a hot set, each page read about 4 times);
 *                   manymaps-seq first maps MANY_MAPS one-page mappings
 *                   of the file, each of its own open(), and reads each
 *                   (untimed), then reads
 *                   the file in order; seq-then-sparse reads the first
 *                   half in order and then one page in STRIDE_PAGES of
 *                   the second, in one mapping, and sparse-then-seq the
 *                   reverse (the first half sparse)
 *   stride64k       large folios' held-out reader (issue 45, written
 *                   before any bound is tuned): threads share one mapping
 *                   and read one page per STRIDE_BYTES of the file, in
 *                   order, each its contiguous share: as dense as the
 *                   default window, sparser than a large folio (with
 *                   64KiB pages, every page: seq's reads); no madvise()
 *                   hint fits it (-A)
 *   streams3, hot-skew, seq-sparse-seq, smallfiles
 *                   the adaptive policy's v4 held-out workloads (issue
 *                   47: written before its design): streams3, one thread
 *                   reads three streams in one mapping in turn, a page of
 *                   each third of the file at a time; hot-skew reads as
 *                   many pages as the file has in its second quarter, as
 *                   hot-reuse, but skewed (the product of two uniform
 *                   draws: low offsets far more often); seq-sparse-seq
 *                   reads the first third in order, one page in
 *                   STRIDE_PAGES of the second, the last third in order,
 *                   in one mapping; smallfiles reads the file as
 *                   SMALL_PAGES-page files would be read whole, each
 *                   chunk its own open() and mmap(), all kept mapped
 *                   until the pass ends (threads: each its share of the
 *                   chunks)
 *   page_fault2, page_fault3, page_fault4
 *                   after will-it-scale's cases of those names, written
 *                   here: each worker is a process that maps the whole
 *                   file (one file for all, where will-it-scale gives each
 *                   task its own) and touches every page: page_fault2
 *                   writes a byte of each in a private mapping (copy on
 *                   write), page_fault3 in a shared one, page_fault4 reads
 *                   a private one.  Write faults never fault around: 2
 *                   and 3 are controls
 *   run             a program nobody here wrote (sweep.sh's fio, build
 *                   and start-up rows), started -p times (once), each
 *                   waited for, measured as exec is, its stdout to
 *                   /dev/null (the line below is ours); -n gives the
 *                   pages it reads (or its starts), for the report's
 *                   per-page figures, and -c -f drops that file from the
 *                   cache
 *
 * -c starts cold: the file's pages are dropped from the page cache first
 * (POSIX_FADV_DONTNEED, on a clean file), so that its faults are major
 * and readahead decides what is read.  Not drop_caches: that marks the
 * dirty tmpfs folios of every other file (the programs in the initramfs,
 * the other workloads' files) PG_reclaim, which 6.12 reads as
 * PG_readahead, and fault-around skips such folios until a fault clears
 * the flag.
 *
 * Prints one line: "<minor faults> <major faults> <ns> <pages> <mapped>
 * <fa calls> <fa mapped> <fixed ns> <teardown ns> <distinct> <unread>",
 * and for hotcold a second one of name=value pairs (-E names them).
 * - The faults are the workers' (getrusage(RUSAGE_THREAD) around their
 *   loops), or for exec the children's.
 * - <ns> is CLOCK_MONOTONIC over the measured phases: the loops, and the
 *   unmapping after them (<teardown ns> is that part), with all workers
 *   started before and waiting on a barrier.  <fixed ns> is what is left
 *   out: starting the workers and joining them.
 * - <pages> is the pages read or written (exec: the starts); <mapped>
 *   the Rss of the measured mappings (/proc/self/smaps) at the end of
 *   each pass, summed: the pages read plus what fault-around added
 *   (exec, dynexec, mixed, vmas: 0, none; the counters tell).
 * - <distinct> is the distinct pages read, summed over passes, and
 *   <unread> the pages of the measured mappings that were mapped at the
 *   end of a pass but never read in it (/proc/self/pagemap), summed: what
 *   fault-around mapped for nothing (-1 for anon, exec, dynexec, mixed,
 *   vmas, run, page_fault2 and page_fault3).
 * - hotcold and hotscan look each page up in the page table before they
 *   read it.  fa mapped counts mapping events (a page mapped ahead twice
 *   counts twice), and so do the fates: "hits" are reads that found their
 *   page mapped though this process's last read had not mapped it there
 *   (never read, or read at another frame): fault-around mapped it and
 *   this read used it; "reclaimed_read" reads of pages it had read whose
 *   mapping reclaim took since.  Their <unread> are the pages mapped at
 *   the end that no read used, so fa mapped - hits were never used, and
 *   fa mapped - hits - unread were unmapped (reclaimed) before a use.
 *   This needs the frames, which pagemap shows with CAP_SYS_ADMIN only:
 *   without, hits, reclaimed_read and unread are -1.  A page unmapped and
 *   mapped ahead again at the same frame reads as never unmapped, and the
 *   counters are system-wide (the guest runs nothing else).  The rest of
 *   the second line are the deltas of /proc/vmstat's reclaim counters
 *   (pgscan, pgsteal and allocstall: global reclaim only) and of the -G
 *   cgroup's memory.stat, memory.events and memory.pressure (PSI totals,
 *   us), read right after the work, but pgunmap_file_old after the
 *   unmap, which it counts.  The lookups cost the same at every
 *   order: two pagemap reads a page read.
 * - <fa calls> and <fa mapped> are the deltas of /proc/vmstat's
 *   fault_around and fault_around_mapped over the measured phases,
 *   system-wide (-1 on a kernel without them).  The workers' own code is
 *   mapped before (mlockall), so that only the workload's faults count.
 *
 * -H n holds n one-page file mappings, prints "<pid> <address>" for each
 * and waits to be killed: the other mappings that the module-cost runs
 * of sweep.sh give overrides to.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pagemap.h"
#include "span.h"
#include "vmstat.h"
#include "xorshift.h"

#define MAX_WORKERS	256
#define SPARSE_TOUCHES	512	/* sparse's default: about as many touches */
#define RAND_WORDS	64	/* mmap-pread-rand's random reads per page */
#define HOT_ROUNDS	16	/* hotcold: stream chunks, a hot round after each */
#define SCAN_STRIDE	4	/* hotscan reads one stream page in 4 */
#define CHUNK_PAGES	32	/* seq-interleaved's chunk */
#define STRIDE_PAGES	32	/* the sparse half of seq-then-sparse */
#define MANY_MAPS	5000	/* manymaps-seq: more than a per-mapping table */
#define STRIDE_BYTES	65536	/* stride64k's stride, whatever the page */
#define SMALL_PAGES	16	/* smallfiles' "file": 64KiB with 4KiB pages */

enum workload { SEQ, RAND, SPARSE, PREAD_SEQ, PREAD_RAND, ANON, EXEC, DYNEXEC,
		MIXED, HOTCOLD, HOTSCAN, VMAS, RUN, PF2, PF3, PF4, XREAD,
		INTERLEAVE, HOTREUSE, MANYMAPS, SEQSPARSE, SPARSESEQ, STRIDE64K,
		STREAMS3, HOTSKEW, SEQSPARSESEQ, SMALLFILES };
static const char *const names[] = {
	"seq", "rand", "sparse", "mmap-pread-seq", "mmap-pread-rand", "anon",
	"exec", "dynexec", "mixed", "hotcold", "hotscan", "vmas", "run",
	"page_fault2", "page_fault3", "page_fault4", "mmap-xread-seq-mt",
	"seq-interleaved", "hot-reuse", "manymaps-seq", "seq-then-sparse",
	"sparse-then-seq", "stride64k", "streams3", "hot-skew", "seq-sparse-seq",
	"smallfiles",
};

static enum workload workload;
static const char *file_path;	/* smallfiles opens it once a chunk */
static char **chunk_maps;	/* smallfiles' mappings, until the pass ends */
static long page_size;
static size_t pt_span;		/* bytes one page table maps */
static size_t npages, file_size;
static int fd = -1;
/* mixed's sparse part: its file, its size, and its passes. */
static int fd2 = -1;
static size_t file2_size, passes2;
static unsigned int nworkers = 1, passes = 1, seed = 1;
/* The pages read in this pass: a byte each, per worker with own maps. */
static unsigned char *seen;
/* hotcold: its hot file's mapping, and where the cgroup's files are. */
static char *hot_map;
static const char *cgroup;
static size_t starts = 20;
static const char *program = "/proc/self/exe";
static char *libdir, *loader;	/* dynexec -L: dir, and dir/ld.so */
static char **run_argv;		/* run's program and its arguments */
static char **environment;

/* What the workers report, in memory that the processes share too. */
static struct shared {
	pthread_barrier_t bar;
	long minflt[MAX_WORKERS], majflt[MAX_WORKERS], rss[MAX_WORKERS];
	long distinct[MAX_WORKERS], unread[MAX_WORKERS];
	/* hotcold's fates of the pages it found mapped, see hotcold(). */
	long hits, reclaimed_read;
	int no_pfn;	/* pagemap hid the frames: the fates cannot be told */
	/* The phase's span by the workers' clocks, not by main's wake-up. */
	unsigned long long from[MAX_WORKERS], to[MAX_WORKERS];
	size_t next_chunk;	/* seq-interleaved: the next chunk to read */
} *sh;

#include "fabench/measure.h"
#include "fabench/fates.h"
#include "fabench/patterns.h"
#include "fabench/run.h"
#include "fabench/setup.h"
#include "fabench/phases.h"

int main(int argc, char **argv, char **envp)
{
	const char *dir = "/tmp", *w = NULL, *file = NULL, *file2 = NULL;
	struct totals t = { 0 };
	unsigned int held = 0, i;
	int opt, do_create = 0, do_shmem = 0, cold = 0, n_given = 0, vmstat, ret;
	size_t mib = 0, ptes = 0;

	environment = envp;
	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "ACcSw:t:f:m:s:P:p:n:x:L:H:d:g:G:ER")) != -1) {
		switch (opt) {
		case 'A': advise = 1; break;
		case 'C': do_create = 1; break;
		case 'S': do_shmem = 1; break;
		case 'c': cold = 1; break;
		case 'w': w = optarg; break;
		case 't': nworkers = atoi(optarg); break;
		case 'f': file = file_path = optarg; break;
		case 'm': mib = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'P': ptes = strtoul(optarg, NULL, 0); break;
		case 'p': passes = atoi(optarg); break;
		case 'n': starts = strtoul(optarg, NULL, 0); n_given = 1; break;
		case 'x': program = optarg; break;
		case 'L':
			libdir = optarg;
			if (asprintf(&loader, "%s/ld.so", libdir) < 0)
				die("asprintf");
			break;
		case 'H': held = atoi(optarg); break;
		case 'd': dir = optarg; break;
		case 'g': file2 = optarg; break;
		case 'G': cgroup = optarg; break;
		case 'R': w = "probe"; break;
		case 'E':	/* the names of hotcold's second line */
			printf("hits reclaimed_read");
			for (i = 0; i < NR_EVENTS; i++)
				printf(" %s", events[i].name);
			printf("\n");
			return 0;
		default: return usage();
		}
	}
	if (w && !strcmp(w, "noop"))
		return 0;	/* the program that exec starts */
	if (w && !strcmp(w, "probe")) {
		struct stat st;

		fd = file ? open(file, O_RDONLY) : -1;
		if (fd < 0 || fstat(fd, &st))
			die(file ? file : "-R needs -f <file>");
		file_size = st.st_size / page_size * page_size;
		pt_span = pt_span_of(ptes);
		return young_probe();
	}
	vmstat = open("/proc/vmstat", O_RDONLY);
	if (held)
		hold(held, dir);
	if (do_create)
		return file && mib ? create(file, mib) : usage();
	if (do_shmem) {
		if (!mib)
			return usage();
		hold_shmem(mib);
	}
	if (!w)
		return usage();
	ret = prepare(w, file, file2, ptes, cold, n_given, argv + optind);
	if (ret >= 0)
		return ret;
	setup_shared();
	run_workers(vmstat, &t);
	tally(&t);
	print_totals(&t);
	return 0;
}
