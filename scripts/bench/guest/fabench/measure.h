/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-bench's common parts: dying with a message, the clock, the
 * workloads' geometry (touches, strides, chunks), their mappings, and
 * what a run measures of them (Rss from smaps, young pages, a page read).
 * Static functions, in fa-bench.c's one translation unit.
 */
#ifndef FA_BENCH_MEASURE_H
#define FA_BENCH_MEASURE_H

/* The bytes one page table maps: -P's @ptes, or a page of pointers. */
static size_t pt_span_of(size_t ptes)
{
	return (ptes ? ptes : page_size / sizeof(void *)) * page_size;
}

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

#endif /* FA_BENCH_MEASURE_H */
