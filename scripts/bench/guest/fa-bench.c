// SPDX-License-Identifier: GPL-2.0
/*
 * fa-bench: one run of one fault-around workload.  The driver
 * (scripts/bench/guest/sweep.sh) sets the order between runs.  Built
 * with lib.sh's LAB_CFLAGS, whose -I names tests/include/.
 *
 *   fa-bench -C -f file -m MiB     create the file, all of it in the page cache
 *   fa-bench -w workload -f file [-c] [-t workers] [-s seed] [-P ptes]
 *            [-p passes] [-n starts] [-x program [-L dir]] [-g file] [-G cgroup] [-A]
 *   fa-bench -w run -n pages [-p starts] [-c -f file] -- program [argument...]
 *   fa-bench -H n [-d dir]
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

static void wait_all(void)
{
	int ret = pthread_barrier_wait(&sh->bar);

	if (ret && ret != PTHREAD_BARRIER_SERIAL_THREAD) {
		errno = ret;
		die("pthread_barrier_wait");
	}
}

/* stride64k's stride in pages: one page at least (256KiB pages). */
static size_t stride64k(void)
{
	return STRIDE_BYTES > page_size ? STRIDE_BYTES / page_size : 1;
}

/* smallfiles' chunks: the whole ones of the file. */
static size_t small_chunks(void)
{
	return npages / SMALL_PAGES;
}

/* The reads of one page in STRIDE_PAGES over @pages. */
static size_t sparse_reads(size_t pages)
{
	return (pages + STRIDE_PAGES - 1) / STRIDE_PAGES;
}

/* The pages a pass reads (or, for vmas, the page pairs), summed over the
 * workers where each reads its share. */
static size_t touches(void)
{
	switch (workload) {
	case SPARSE:
		return file_size / pt_span;
	case VMAS:
		return npages / 2;
	case SEQSPARSE:
		return npages / 2 + sparse_reads(npages - npages / 2);
	case SPARSESEQ:
		return sparse_reads(npages / 2) + npages - npages / 2;
	case STRIDE64K:
		return (npages + stride64k() - 1) / stride64k();
	case SEQSPARSESEQ:
		return npages / 3 + sparse_reads(npages / 3) +
		       npages - 2 * (npages / 3);
	case SMALLFILES:
		return small_chunks() * SMALL_PAGES;
	default:
		return npages;
	}
}

/* Workloads whose workers are processes, each mapping the whole file. */
static int own_maps(void)
{
	return workload == PREAD_SEQ || workload == PREAD_RAND ||
	       workload == PF2 || workload == PF3 || workload == PF4;
}

/* The will-it-scale cases that write: no fault-around, nothing read. */
static int writes_file(void)
{
	return workload == PF2 || workload == PF3;
}

/* mmap() at a page-table boundary (span.h), or die. */
static char *map_aligned(size_t len, int prot, int flags, int file)
{
	char *p = map_at_span(len, pt_span, prot, flags, file);

	if (!p)
		die("mmap");
	return p;
}

/*
 * -A: the madvise() hint each mapping's reader would give (the madvise
 * baseline, make bench POLICY=adaptive): MADV_SEQUENTIAL for the readers
 * in order, MADV_RANDOM for the random and sparse ones, none where the
 * pattern changes or no hint fits.
 */
static int advise;

static int hint(enum workload w)
{
	switch (w) {
	case SEQ: case PREAD_SEQ: case XREAD: case INTERLEAVE: case MANYMAPS:
	case MIXED:	/* its mapping of the file is the reader in order */
		return MADV_SEQUENTIAL;
	case RAND: case PREAD_RAND: case SPARSE: case HOTREUSE: case HOTSKEW:
		return MADV_RANDOM;
	default:
		return MADV_NORMAL;
	}
}

static void advise_map(char *p, size_t len, int advice)
{
	if (advise && advice != MADV_NORMAL && madvise(p, len, advice))
		die("madvise");
}

static char *map_work(void)
{
	char *p;

	if (writes_file())
		return map_aligned(file_size, PROT_READ | PROT_WRITE,
				   workload == PF3 ? MAP_SHARED : MAP_PRIVATE, fd);
	if (workload == PF4)
		return map_aligned(file_size, PROT_READ, MAP_PRIVATE, fd);
	if (workload != ANON) {
		p = map_aligned(file_size, PROT_READ, MAP_SHARED, fd);
		advise_map(p, file_size, hint(workload));
		return p;
	}
	p = map_aligned(file_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1);
	/* Page faults, one per page, as the file workloads have. */
	madvise(p, file_size, MADV_NOHUGEPAGE);
	return p;
}

/* A field (Rss, Referenced) of the mapping at @addr, in pages, from
 * /proc/self/smaps. */
static long smaps_pages(const void *addr, const char *field)
{
	unsigned long start, end, kb = 0;
	char line[512], perms[5], key[32];
	size_t n = strlen(field);
	int found = 0;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		die("/proc/self/smaps");
	while (fgets(line, sizeof(line), f)) {
		/* A VMA's header line: "start-end perms offset dev inode path". */
		if (sscanf(line, "%lx-%lx %4s", &start, &end, perms) == 3)
			found = start == (unsigned long)addr;
		else if (found && !strncmp(line, field, n) && line[n] == ':' &&
			 sscanf(line, "%31s %lu kB", key, &kb) == 2)
			break;
	}
	fclose(f);
	if (!found) {
		errno = ENOENT;
		die("no such mapping in /proc/self/smaps");
	}
	return kb * 1024 / page_size;
}

static long mapped_pages(const void *addr)
{
	return smaps_pages(addr, "Rss");
}

/*
 * -R: one read fault on a mapping of the (cached) file, and how many of
 * the pages it mapped are young: "<Rss pages> <Referenced pages>".
 * Fault-around maps the others young, except where the architecture
 * wants them old (arch_wants_old_prefaulted_pte(): arm64 with a hardware
 * Access flag), which make bench PRESSURE=1 reports.  smaps counts a
 * page's PG_referenced too, which writing the file set: clear_refs
 * clears both, and the fault that counts comes after it.
 */
static int young_probe(void)
{
	volatile char *p = map_aligned(file_size, PROT_READ, MAP_SHARED, fd);
	int refs = open("/proc/self/clear_refs", O_WRONLY);

	(void)p[0];
	if (refs < 0 || write(refs, "1", 1) != 1)
		die("/proc/self/clear_refs");
	close(refs);
	/* The PTEs are old now: zapping them marks no page accessed. */
	if (madvise((void *)p, file_size, MADV_DONTNEED))
		die("madvise");
	(void)p[0];
	printf("%ld %ld\n", mapped_pages((const void *)p),
	       smaps_pages((const void *)p, "Referenced"));
	return 0;
}

static unsigned long read_page(const char *p)
{
	const unsigned long *w = (const unsigned long *)p;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < page_size / sizeof(*w); i++)
		sum += w[i];
	return sum;
}

/* hotcold or hotscan: a stream, a hot file and their pages' fates. */
static int is_hotcold(void)
{
	return workload == HOTCOLD || workload == HOTSCAN;
}

/* The stream pages between two of its reads, plus one. */
static size_t hot_stride(void)
{
	return workload == HOTSCAN ? SCAN_STRIDE : 1;
}

/* Workloads whose faults are their children's: they start programs. */
static int spawns(void)
{
	return workload == EXEC || workload == DYNEXEC || workload == RUN;
}

/* Whether this workload counts the pages it reads (see account()). */
static int counts_reads(void)
{
	return workload != ANON && !spawns() && workload != MIXED &&
	       workload != VMAS && !writes_file();
}

/*
 * @n zeroed bytes, written now: memory first written in the measured
 * phases would add faults of its own to the workers' counts.
 */
static void *prefaulted(size_t n)
{
	void *p = malloc(n);

	if (!p)
		die("malloc");
	return memset(p, 0, n);
}

/* The /proc/self/pagemap entries of @n pages at @addr, or die. */
static uint64_t *pagemap(const char *addr, size_t n)
{
	uint64_t *ent = malloc(n * sizeof(*ent));

	if (!ent || pagemap_read(addr, n, page_size, ent))
		die("/proc/self/pagemap");
	return ent;
}

/*
 * After a pass over @map of @n pages: add the distinct pages read to
 * @distinct, and to @unread those mapped but never read (present in the
 * page table: fault-around mapped them).  Clears @marks for the next pass.
 */
static void account(const char *map, size_t n, unsigned char *marks,
		    long *distinct, long *unread)
{
	uint64_t *ent = pagemap(map, n);
	size_t i;

	for (i = 0; i < n; i++) {
		if (marks[i])
			(*distinct)++;
		else if (ent[i] & PM_PRESENT)
			(*unread)++;
	}
	free(ent);
	memset(marks, 0, n);
}

/*
 * hotcold's view of one file's pages: whether its last read of a page
 * found or made it mapped (@mine), and at which frame (@pfn: 0 without
 * CAP_SYS_ADMIN, which then cannot tell a page mapped again from one that
 * stayed mapped).
 */
struct fate {
	const char *map;
	size_t n;
	unsigned char *mine;
	uint64_t *pfn;
};

static int pagemap_fd = -1;
static struct fate cold_fate, hot_fate;

static uint64_t pagemap_entry(const char *addr)
{
	uint64_t e;

	if (pread(pagemap_fd, &e, sizeof(e),
		  (unsigned long)addr / page_size * sizeof(e)) != sizeof(e))
		die("pread /proc/self/pagemap");
	return e;
}

/*
 * Read page @i of @f, first looking it up in the page table: mapped though
 * this process did not map it since (not read, or at another frame since),
 * fault-around mapped it and this read uses it (a hit); not mapped though
 * it was, reclaim unmapped it after it was read.
 */
static unsigned long fate_read(struct fate *f, size_t i)
{
	const char *p = f->map + i * page_size;
	uint64_t e = pagemap_entry(p);
	unsigned long sum;

	if (e & PM_PRESENT) {
		sh->no_pfn |= !(e & PM_PFN);
		if (!f->mine[i] || (e & PM_PFN) != f->pfn[i])
			sh->hits++;
	} else if (f->mine[i]) {
		sh->reclaimed_read++;
	}
	sum = read_page(p);
	/* Always a second lookup: the same cost at every order. */
	e = pagemap_entry(p);
	f->mine[i] = 1;
	f->pfn[i] = e & PM_PFN;
	return sum;
}

/*
 * At the end: the pages of @f read at least once, and those mapped
 * without this process's read of what is mapped there now (fault-around
 * mapped them and nothing read them since).
 */
static void fate_end(struct fate *f, long *distinct, long *unread)
{
	uint64_t *ent = pagemap(f->map, f->n);
	size_t i;

	for (i = 0; i < f->n; i++) {
		*distinct += f->mine[i];
		if ((ent[i] & PM_PRESENT) &&
		    (!f->mine[i] || (ent[i] & PM_PFN) != f->pfn[i]))
			(*unread)++;
	}
	free(ent);
}

static void fate_init(struct fate *f, size_t n)
{
	f->n = n;
	f->mine = prefaulted(n);
	f->pfn = prefaulted(n * sizeof(*f->pfn));
}

/*
 * hotcold, hotscan: HOT_ROUNDS times, read the next chunk of the stream
 * (the -f file) in order, every page (hotcold) or one in SCAN_STRIDE
 * (hotscan), then as many pages of the hot file (-g) as it has, at random
 * (with repeats).  Under a memory.max below the two, the stream pushes
 * the hot set out; hotscan's pages between its reads, which fault-around
 * maps and nobody reads, have young PTEs that look referenced to reclaim.
 */
static void hotcold(void)
{
	size_t stride = hot_stride();
	size_t hot_pages = hot_fate.n, r, i, from, to;
	unsigned int s = seed * 7919 + 1;
	volatile unsigned long sink = 0;

	for (r = 0; r < HOT_ROUNDS; r++) {
		from = npages * r / HOT_ROUNDS;
		to = npages * (r + 1) / HOT_ROUNDS;
		/* The multiples of the stride in [from, to), each once. */
		from = (from + stride - 1) / stride * stride;
		for (i = from; i < to; i += stride)
			sink += fate_read(&cold_fate, i);
		for (i = 0; i < hot_pages; i++)
			sink += fate_read(&hot_fate, next_rand(&s) % hot_pages);
	}
}

/*
 * hotcold's reclaim counts: system-wide from /proc/vmstat, the run's
 * cgroup's from its memory.stat, memory.events and memory.pressure (PSI:
 * microseconds of stall, by the guest's clock).  Each sums the keys it
 * names.
 */
enum { VMSTAT, MEMSTAT, MEMEVENTS, MEMPSI };
/* Or'ed into an event's file: it counts at unmap, so read it after that. */
#define AT_UNMAP	0x100
static const char *const event_files[] = {
	"/proc/vmstat", "memory.stat", "memory.events", "memory.pressure",
};
static const struct event {
	const char *name;
	int file;
	const char *keys;	/* '|' between the keys summed */
} events[] = {
	{ "pgscan", VMSTAT, "pgscan_kswapd|pgscan_direct|pgscan_khugepaged" },
	{ "pgsteal", VMSTAT, "pgsteal_kswapd|pgsteal_direct|pgsteal_khugepaged" },
	{ "pgactivate", VMSTAT, "pgactivate" },
	{ "pgdeactivate", VMSTAT, "pgdeactivate" },
	{ "workingset_refault_file", VMSTAT, "workingset_refault_file" },
	{ "workingset_activate_file", VMSTAT, "workingset_activate_file" },
	{ "slabs_scanned", VMSTAT, "slabs_scanned" },
	{ "allocstall", VMSTAT, "allocstall_dma|allocstall_dma32|allocstall_normal|allocstall_movable|allocstall_device" },
	{ "pgmajfault", VMSTAT, "pgmajfault" },
	/* Lab patch 0001's: file PTEs still old at unmap (-1 without it). */
	{ "pgunmap_file_old", VMSTAT | AT_UNMAP, "pgunmap_file_old" },
	{ "memcg_pgscan", MEMSTAT, "pgscan" },
	{ "memcg_pgsteal", MEMSTAT, "pgsteal" },
	{ "memcg_pgactivate", MEMSTAT, "pgactivate" },
	{ "memcg_pgdeactivate", MEMSTAT, "pgdeactivate" },
	{ "memcg_workingset_refault_file", MEMSTAT, "workingset_refault_file" },
	{ "memcg_workingset_activate_file", MEMSTAT, "workingset_activate_file" },
	{ "memcg_max", MEMEVENTS, "max" },
	{ "memcg_oom", MEMEVENTS, "oom" },
	{ "psi_some_us", MEMPSI, "some" },
	{ "psi_full_us", MEMPSI, "full" },
};
#define NR_EVENTS	(sizeof(events) / sizeof(events[0]))

static int key_in(const char *key, const char *keys)
{
	size_t n = strlen(key);

	for (;;) {
		if (!strncmp(keys, key, n) && (keys[n] == '|' || !keys[n]))
			return 1;
		keys = strchr(keys, '|');
		if (!keys)
			return 0;
		keys++;
	}
}

/* Each event's count now: -1 where its file or its keys are missing. */
static void read_events(long long *v)
{
	char path[512], line[256], key[64];
	unsigned int f, e;

	for (e = 0; e < NR_EVENTS; e++)
		v[e] = -1;
	for (f = 0; f < sizeof(event_files) / sizeof(event_files[0]); f++) {
		FILE *in;

		if (f == VMSTAT)
			snprintf(path, sizeof(path), "%s", event_files[f]);
		else if (cgroup)
			snprintf(path, sizeof(path), "%s/%s", cgroup, event_files[f]);
		else
			continue;
		in = fopen(path, "r");
		if (!in)
			continue;
		while (fgets(line, sizeof(line), in)) {
			const char *t = strstr(line, "total=");
			long long n;

			if (sscanf(line, "%63s %lld", key, &n) != 2 &&
			    !(f == MEMPSI && t && sscanf(t, "total=%lld", &n) == 1))
				continue;
			/* A key the kernel lacks leaves its event at -1. */
			for (e = 0; e < NR_EVENTS; e++)
				if ((events[e].file & ~AT_UNMAP) == (int)f &&
				    key_in(key, events[e].keys))
					v[e] = (v[e] < 0 ? 0 : v[e]) + n;
		}
		fclose(in);
	}
}

/* @n starts of @argv in turn; @quiet: its stdout to /dev/null. */
static void spawn_starts(size_t n, char **argv, int quiet)
{
	posix_spawn_file_actions_t fa;
	size_t i;
	int err;

	err = posix_spawn_file_actions_init(&fa);
	if (!err && quiet)
		err = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
						       "/dev/null", O_WRONLY, 0);
	if (err) {
		errno = err;
		die("posix_spawn_file_actions");
	}
	for (i = 0; i < n; i++) {
		pid_t pid;
		int status;

		err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environment);

		if (err) {
			errno = err;
			die(argv[0]);
		}
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "fa-bench: %s failed (status %#x)\n",
				argv[0], status);
			exit(1);
		}
	}
	posix_spawn_file_actions_destroy(&fa);
}

/* sparse's touches: one page per page table of the @fd mapping of @len. */
static unsigned long sparse_pass(int file, size_t len)
{
	size_t i, ptes = pt_span / page_size;
	unsigned long sum = 0;
	char *map = map_aligned(len, PROT_READ, MAP_SHARED, file);

	advise_map(map, len, MADV_RANDOM);

	for (i = 0; i < len / pt_span; i++)
		sum += read_page(map + i * ptes * page_size);
	munmap(map, len);
	return sum;
}

/* One worker's share of one pass over @map. */
/* vmas: one two-page mapping of the file at page @pg, its life. */
static unsigned long small_vma(size_t pg)
{
	char *p = mmap(NULL, 2 * page_size, PROT_READ, MAP_SHARED, fd,
		       pg * page_size);
	unsigned long v;

	if (p == MAP_FAILED)
		die("mmap");
	v = read_page(p);
	if (mprotect(p + page_size, page_size, PROT_NONE))
		die("mprotect");
	if (munmap(p, 2 * page_size))
		die("munmap");
	return v;
}

/*
 * manymaps-seq's setup: MANY_MAPS one-page mappings of @path, each of
 * its own open file (so that neither a per-VMA nor a per-file table
 * holds them all) and read once, kept to the end; every other page, so
 * that no two merge (a file under 2 * MANY_MAPS pages maps some twice).
 */
static void many_maps(const char *path)
{
	volatile unsigned long sink = 0;
	size_t k;

	if (npages < 2) {
		fprintf(stderr, "fa-bench: manymaps-seq needs a file of 2 pages or more\n");
		exit(2);
	}
	for (k = 0; k < MANY_MAPS; k++) {
		off_t pg = k * 2 % (npages - npages % 2);
		int f = open(path, O_RDONLY);
		char *p = f < 0 ? MAP_FAILED :
			  mmap(NULL, page_size, PROT_READ, MAP_SHARED, f,
			       pg * page_size);

		if (p == MAP_FAILED)
			die(path);
		close(f);
		sink += read_page(p);
	}
	(void)sink;
}

/*
 * The held-out workloads' i-th read: its page.  @s: hot-reuse's random
 * state.
 */
static size_t held_page(size_t i, unsigned int *s)
{
	size_t half = npages / 2, nsparse = sparse_reads(half);

	switch (workload) {
	case HOTREUSE:	/* the second quarter */
		return npages / 4 + next_rand(s) % (npages / 4);
	case SEQSPARSE:
		return i < half ? i : half + (i - half) * STRIDE_PAGES;
	case SPARSESEQ:
		return i < nsparse ? i * STRIDE_PAGES : half + (i - nsparse);
	case STRIDE64K:
		return i * stride64k();
	case STREAMS3: {
		size_t third = npages / 3;

		return i < 3 * third ? i % 3 * third + i / 3 : i;
	}
	case HOTSKEW: {
		size_t q = npages / 4, a = next_rand(s) % q;

		return q + a * (next_rand(s) % q) / q;
	}
	case SEQSPARSESEQ: {
		size_t third = npages / 3, ns = sparse_reads(third);

		if (i < third)
			return i;
		if (i < third + ns)
			return third + (i - third) * STRIDE_PAGES;
		return 2 * third + (i - third - ns);
	}
	default:
		return i;
	}
}

/* smallfiles: chunk @c, opened, mapped and read whole; its reads marked. */
static unsigned long small_file(size_t c, unsigned char *mk)
{
	size_t len = SMALL_PAGES * page_size, i;
	unsigned long sink = 0;
	int cfd = open(file_path, O_RDONLY);
	char *p;

	if (cfd < 0)
		die(file_path);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, cfd, c * len);
	if (p == MAP_FAILED)
		die("mmap");
	close(cfd);	/* the mapping keeps the file */
	for (i = 0; i < SMALL_PAGES; i++) {
		sink += read_page(p + i * page_size);
		mk[c * SMALL_PAGES + i] = 1;
	}
	chunk_maps[c] = p;
	return sink;
}

static void work(unsigned int id, char *map)
{
	size_t i, from, to, ptes = pt_span / page_size;
	unsigned int s = seed * 7919 + id + 1;	/* never 0 */
	volatile unsigned long sink = 0;
	/* Every page for each worker, in a mapping of its own or not. */
	int own = own_maps() || workload == XREAD;
	size_t nwork = workload == EXEC || workload == DYNEXEC ? starts :
		       workload == RUN ? 1 : touches();
	unsigned char *mk = seen;

	from = own ? 0 : nwork * id / nworkers;
	to = own ? nwork : nwork * (id + 1) / nworkers;
	if (workload == MIXED) {
		/* Worker 0 reads the file in order, worker 1 is sparse. */
		for (i = 0; !id && i < npages; i++)
			sink += read_page(map + i * page_size);
		for (i = 0; id && i < passes2; i++)
			sink += sparse_pass(fd2, file2_size);
		return;
	}
	if (is_hotcold()) {
		hotcold();
		return;
	}
	if (workload == SMALLFILES) {
		size_t c, n = small_chunks();

		for (c = n * id / nworkers; c < n * (id + 1) / nworkers; c++)
			sink += small_file(c, mk);
		return;
	}
	if (workload == INTERLEAVE) {
		/* The chunks in order, each to whichever thread asks first. */
		size_t c, n = (npages + CHUNK_PAGES - 1) / CHUNK_PAGES;

		while ((c = __atomic_fetch_add(&sh->next_chunk, 1,
					       __ATOMIC_RELAXED)) < n)
			for (i = c * CHUNK_PAGES; i < npages &&
			     i < (c + 1) * CHUNK_PAGES; i++) {
				sink += read_page(map + i * page_size);
				mk[i] = 1;
			}
		return;
	}
	for (i = from; i < to; i++) {
		size_t pg;

		switch (workload) {
		case SEQ:
		case PREAD_SEQ:
		case PF4:
		case XREAD:
			sink += read_page(map + i * page_size);
			mk[i] = 1;
			break;
		case RAND:
			pg = next_rand(&s) % npages;
			sink += read_page(map + pg * page_size);
			mk[pg] = 1;
			break;
		case MANYMAPS:
		case HOTREUSE:
		case SEQSPARSE:
		case SPARSESEQ:
		case STRIDE64K:
		case STREAMS3:
		case HOTSKEW:
		case SEQSPARSESEQ:
			pg = held_page(i, &s);
			sink += read_page(map + pg * page_size);
			mk[pg] = 1;
			break;
		case PREAD_RAND: {
			const unsigned long *w = (const unsigned long *)map;
			size_t k, words = file_size / sizeof(*w);

			/*
			 * RAND_WORDS random words per page of the file: every
			 * page is read (one is missed with odds e^-64), as with
			 * usemem's page's worth, at an eighth of its loads
			 * (each a slow TLB miss under TCG).
			 */
			for (k = 0; k < RAND_WORDS; k++) {
				pg = next_rand(&s) % words;
				sink += w[pg];
				mk[pg * sizeof(*w) / page_size] = 1;
			}
			break;
		}
		case SPARSE:
			sink += read_page(map + i * ptes * page_size);
			mk[i * ptes] = 1;
			break;
		case ANON:
		case PF2:
		case PF3:
			map[i * page_size] = 1;
			break;
		case EXEC:
		case DYNEXEC: {
			char *argv[] = { (char *)program, "-w", "noop", NULL };
			char *via[] = { loader, "--library-path", libdir,
					(char *)program, "-w", "noop", NULL };

			spawn_starts(to - from, loader ? via : argv, 0);
			return;
		}
		case RUN:
			spawn_starts(1, run_argv, 1);
			return;
		case VMAS:
			sink += small_vma(2 * i);
			break;
		case INTERLEAVE:	/* above */
		case SMALLFILES:
		case MIXED:
		case HOTCOLD:
		case HOTSCAN:
			break;
		}
	}
}

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
		"       fa-bench -H mappings [-d dir]\n");
	return 2;
}

int main(int argc, char **argv, char **envp)
{
	unsigned long long t0, t_ready, work_ns = 0, down_ns = 0, t, fixed;
	const char *dir = "/tmp", *w = NULL, *file = NULL, *file2 = NULL;
	struct fa_counters fa_before, fa_after;
	long long ev_before[NR_EVENTS], ev_after[NR_EVENTS], ev_unmapped[NR_EVENTS];
	int vmstat;
	long minflt = 0, majflt = 0, mapped = 0, distinct = 0, unread = 0;
	unsigned int held = 0, i, pass;
	struct rusage ca, cb;
	int opt, do_create = 0, cold = 0, procs, n_given = 0;
	size_t mib = 0, ptes = 0, pages;
	pthread_t *tids;
	pid_t *pids;

	environment = envp;
	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "ACcw:t:f:m:s:P:p:n:x:L:H:d:g:G:ER")) != -1) {
		switch (opt) {
		case 'A': advise = 1; break;
		case 'C': do_create = 1; break;
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
		pt_span = (ptes ? ptes : page_size / sizeof(void *)) * page_size;
		return young_probe();
	}
	vmstat = open("/proc/vmstat", O_RDONLY);
	if (held)
		hold(held, dir);
	if (do_create)
		return file && mib ? create(file, mib) : usage();
	if (!w)
		return usage();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(w, names[i]))
			break;
	if (i == sizeof(names) / sizeof(names[0])) {
		fprintf(stderr, "fa-bench: unknown workload %s\n", w);
		return 2;
	}
	workload = i;
	if (!nworkers || nworkers > MAX_WORKERS || !passes) {
		fprintf(stderr, "fa-bench: workers must be 1..%d, passes 1 or more\n",
			MAX_WORKERS);
		return 2;
	}
	/* By default a page table holds a page of pointers (not on ppc64). */
	pt_span = (ptes ? ptes : page_size / sizeof(void *)) * page_size;
	if (workload == RUN) {
		run_argv = argv + optind;
		if (!*run_argv || nworkers != 1 || !n_given) {
			fprintf(stderr, "fa-bench: run is one worker, -n pages and a program\n");
			return 2;
		}
		/* -c -f: the program's file cold, as -c does for ours. */
		fd = file ? open(file, O_RDONLY) : -1;
		errno = 0;
		if (cold && (fd < 0 || (errno = posix_fadvise(fd, 0, 0,
						POSIX_FADV_DONTNEED))))
			die(file ? file : "-c needs -f <file>");
	} else if (!spawns()) {
		struct stat st;

		if (!file)
			return usage();
		/* page_fault3 writes the file through its shared mapping. */
		fd = open(file, workload == PF3 ? O_RDWR : O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			die(file);
		file_size = st.st_size / page_size * page_size;
		errno = cold ? posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) : 0;
		if (errno)
			die("posix_fadvise");
		npages = file_size / page_size;
		if (workload == SPARSE && file_size < pt_span) {
			fprintf(stderr, "fa-bench: sparse needs a file of one page table (%zu bytes) or more\n",
				pt_span);
			return 2;
		}
	}
	if (workload == SPARSE && passes == 1)
		passes = (SPARSE_TOUCHES + file_size / pt_span - 1) /
			 (file_size / pt_span);
	if (workload == MIXED || is_hotcold()) {
		struct stat st;

		fd2 = file2 ? open(file2, O_RDONLY) : -1;
		if (fd2 < 0 || fstat(fd2, &st))
			die(file2 ? file2 : "mixed and hotcold need -g <file>");
		errno = cold ? posix_fadvise(fd2, 0, 0, POSIX_FADV_DONTNEED) : 0;
		if (errno)
			die("posix_fadvise");
	}
	if (is_hotcold()) {
		struct stat st;

		fstat(fd2, &st);
		file2_size = st.st_size / page_size * page_size;
		if (!file2_size || nworkers != 1 || passes != 1) {
			fprintf(stderr, "fa-bench: hotcold and hotscan are one worker and one pass, and their -g file a page or more\n");
			return 2;
		}
		pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
		if (pagemap_fd < 0)
			die("/proc/self/pagemap");
		fate_init(&cold_fate, npages);
		fate_init(&hot_fate, file2_size / page_size);
	} else if (counts_reads()) {
		seen = prefaulted(npages);
	}
	if (workload == MANYMAPS)
		many_maps(file);
	if (workload == SMALLFILES) {
		if (!small_chunks()) {
			fprintf(stderr, "fa-bench: smallfiles needs a file of %d pages or more\n",
				SMALL_PAGES);
			return 2;
		}
		chunk_maps = calloc(small_chunks(), sizeof(*chunk_maps));
		if (!chunk_maps)
			die("calloc");
	}
	if ((workload == HOTSKEW || workload == STREAMS3 ||
	     workload == SEQSPARSESEQ) && npages < 4) {
		fprintf(stderr, "fa-bench: %s needs a file of 4 pages or more\n",
			names[workload]);
		return 2;
	}
	if (workload == HOTREUSE && npages < 4) {
		fprintf(stderr, "fa-bench: hot-reuse needs a file of 4 pages or more\n");
		return 2;
	}
	if (workload == MIXED) {
		struct stat st;

		fstat(fd2, &st);
		file2_size = st.st_size / pt_span * pt_span;
		if (!file2_size) {
			fprintf(stderr, "fa-bench: mixed's -g file must be one page table (%zu bytes) or more\n",
				pt_span);
			return 2;
		}
		passes2 = (SPARSE_TOUCHES + file2_size / pt_span - 1) /
			  (file2_size / pt_span);
		nworkers = 2;
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	{
		pthread_barrierattr_t attr;

		pthread_barrierattr_init(&attr);
		pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
		if (pthread_barrier_init(&sh->bar, &attr, nworkers + 1))
			die("pthread_barrier_init");
	}
	/*
	 * Map all of this program now: the counters are system-wide, and a
	 * page of its code first run in the measured phases would fault
	 * around too.  Needs root; without, the counters may include a few
	 * such faults.  The processes do it again: fork() copies no PTEs of
	 * file mappings.
	 */
	if (!mlockall(MCL_CURRENT))
		munlockall();

	tids = calloc(nworkers, sizeof(*tids));
	pids = calloc(nworkers, sizeof(*pids));
	procs = own_maps();
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
	getrusage(RUSAGE_CHILDREN, &ca);
	if (is_hotcold())
		read_events(ev_before);
	fa_read_counters(vmstat, &fa_before);
	for (pass = 0; pass < passes; pass++) {
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
		work_ns += span();
		/* Before the lookups below allocate: the work's counts only. */
		if (is_hotcold())
			read_events(ev_after);
		if (main_map)
			mapped += mapped_pages(main_map);
		if (is_hotcold()) {
			mapped += mapped_pages(hot_map);
			fate_end(&cold_fate, &distinct, &unread);
			fate_end(&hot_fate, &distinct, &unread);
		} else if (workload == SMALLFILES) {
			/* Its Rss: the pages present, as pagemap shows them. */
			long d0 = distinct, u0 = unread;
			size_t c;

			for (c = 0; c < small_chunks(); c++)
				account(chunk_maps[c], SMALL_PAGES,
					seen + c * SMALL_PAGES, &distinct, &unread);
			mapped += distinct - d0 + unread - u0;
		} else if (seen && !procs) {
			account(main_map, npages, seen, &distinct, &unread);
		}
		wait_all();	/* teardown */
		if (workload == SMALLFILES) {
			size_t c;

			t = now_ns();
			for (c = 0; c < small_chunks(); c++)
				munmap(chunk_maps[c], SMALL_PAGES * page_size);
			down_ns += now_ns() - t;
		}
		if (main_map) {
			t = now_ns();
			munmap(main_map, file_size);
			if (hot_map)
				munmap(hot_map, file2_size);
			down_ns += now_ns() - t;
		}
		if (is_hotcold())
			read_events(ev_unmapped);
		wait_all();	/* torn down */
		if (procs)
			down_ns += span();
	}
	fa_read_counters(vmstat, &fa_after);
	getrusage(RUSAGE_CHILDREN, &cb);
	fixed = t_ready - t0;
	t = now_ns();
	for (i = 0; i < nworkers; i++) {
		if (!procs)
			pthread_join(tids[i], NULL);
		else if (waitpid(pids[i], NULL, 0) < 0)
			die("waitpid");
	}
	fixed += now_ns() - t;

	if (spawns()) {
		minflt = cb.ru_minflt - ca.ru_minflt;
		majflt = cb.ru_majflt - ca.ru_majflt;
		pages = starts;	/* run: its -n, the pages it reads */
	} else {
		for (i = 0; i < nworkers; i++) {
			minflt += sh->minflt[i];
			majflt += sh->majflt[i];
			mapped += sh->rss[i];
			distinct += sh->distinct[i];
			unread += sh->unread[i];
		}
		pages = passes * (procs || workload == XREAD ?
				  nworkers * npages : touches());
		if (workload == MIXED) {
			pages = npages + passes2 * (file2_size / pt_span);
			mapped = 0;
		}
		if (is_hotcold())
			pages = (npages + hot_stride() - 1) / hot_stride() +
				HOT_ROUNDS * (file2_size / page_size);
	}
	if (!counts_reads())
		distinct = unread = -1;
	/* hotcold's fates need the frames (CAP_SYS_ADMIN): not measured. */
	if (sh->no_pfn)
		sh->hits = sh->reclaimed_read = unread = -1;
	printf("%ld %ld %llu %zu %ld %lld %lld %llu %llu %ld %ld\n", minflt,
	       majflt, work_ns + down_ns, pages, mapped,
	       fa_before.calls < 0 ? -1 : fa_after.calls - fa_before.calls,
	       fa_before.mapped < 0 ? -1 : fa_after.mapped - fa_before.mapped,
	       fixed, down_ns, distinct, unread);
	if (is_hotcold()) {
		/* Its second line: the fates of the pages and the counts. */
		printf("hits=%ld reclaimed_read=%ld", sh->hits, sh->reclaimed_read);
		for (i = 0; i < NR_EVENTS; i++) {
			long long *end = events[i].file & AT_UNMAP ? ev_unmapped : ev_after;

			printf(" %s=%lld", events[i].name,
			       ev_before[i] < 0 || end[i] < 0 ? -1 :
			       end[i] - ev_before[i]);
		}
		printf("\n");
	}
	return 0;
}
