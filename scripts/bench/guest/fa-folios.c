// SPDX-License-Identifier: GPL-2.0
/*
 * fa-folios: the page cache's folio sizes for a file, so that a bench row
 * says what it ran on.  Maps the file with readahead off (MADV_RANDOM,
 * which also keeps the unmap from marking the pages accessed), reads a
 * byte of each page that is in the page cache (mincore()), which reads
 * nothing from disk, and finds each page's frame in /proc/self/pagemap:
 * a folio's order is that of its head's run of tail frames in
 * /proc/kpageflags, whether or not the file covers all of it (a folio
 * across the end of a tmpfs file).  Run it after the measured runs; it
 * needs root (the PFNs).
 *
 *   fa-folios <file>...
 *
 * Prints one line: "folios: <order>:<pages> ..." with the cached pages
 * of the files (summed: a program and its libraries) in folios of each
 * order, ascending, then "uncached:<pages>"
 * for the others, and "unknown:<pages>" for those whose flags could not
 * be read, if any.  Exit status 0, or 1 with a message on stderr.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pagemap.h"

#define MAX_ORDER	20

static int die(const char *what, const char *path)
{
	fprintf(stderr, "fa-folios: %s %s: %m\n", what, path);
	return 1;
}

/* The flags of frame @pfn in *@f: 0, or -1 where they cannot be read. */
static int kflags(int fd, uint64_t pfn, uint64_t *f)
{
	return pread(fd, f, sizeof(*f), pfn * sizeof(*f)) == sizeof(*f) ? 0 : -1;
}

/* The order of the folio whose head is frame @head: its tails counted. */
static int folio_order(int fd, uint64_t head)
{
	uint64_t f, n = 1;
	int o = 0;

	while (n < (1ULL << MAX_ORDER) && !kflags(fd, head + n, &f) &&
	       f & KPF_TAIL && !(f & KPF_HEAD))
		n++;
	while ((1ULL << o) < n)
		o++;
	return o;
}

static unsigned long pages[MAX_ORDER + 1], uncached, unknown;

/* Add the folio sizes of @path's cached pages to the counts; 0 or 1. */
static int count(const char *path, int kpf, long page)
{
	size_t n, i, len;
	int fd, o;
	unsigned char *in;
	volatile char *p;
	uint64_t *pfn;
	struct stat st;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return die("cannot open", path);
	n = (st.st_size + page - 1) / page;
	if (!n)
		return close(fd);
	len = n * page;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	pfn = calloc(n, sizeof(*pfn));
	in = malloc(n);
	if (p == MAP_FAILED || !pfn || !in ||
	    madvise((void *)p, len, MADV_RANDOM) || mincore((void *)p, len, in))
		return die("cannot map", path);
	for (i = 0; i < n; i++)
		if (in[i] & 1)
			(void)p[i * page];
	if (pagemap_read((void *)p, n, page, pfn))
		return die("cannot read", "/proc/self/pagemap");
	for (i = 0; i < n; ) {
		uint64_t f, head = pfn[i] & PM_PFN;
		size_t k = 1;

		if (!(pfn[i] & PM_PRESENT) || !head) {
			uncached++;
			i++;
			continue;
		}
		if (kflags(kpf, head, &f)) {
			unknown++;
			i++;
			continue;
		}
		o = f & KPF_HEAD ? folio_order(kpf, head) : 0;
		/* The folio's pages in the file: page-cache folios are aligned. */
		while (i + k < n && k < (1UL << o) && (pfn[i + k] & PM_PRESENT) &&
		       (pfn[i + k] & PM_PFN) == head + k)
			k++;
		pages[o] += k;
		i += k;
	}
	munmap((void *)p, len);
	free(pfn);
	free(in);
	return close(fd);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	int i, kpf, o;

	if (argc < 2) {
		fprintf(stderr, "usage: fa-folios <file>...\n");
		return 1;
	}
	kpf = open("/proc/kpageflags", O_RDONLY);
	if (kpf < 0)
		return die("cannot open", "/proc/kpageflags");
	for (i = 1; i < argc; i++)
		if (count(argv[i], kpf, page))
			return 1;
	printf("folios:");
	for (o = 0; o <= MAX_ORDER; o++)
		if (pages[o])
			printf(" %d:%lu", o, pages[o]);
	printf(" uncached:%lu", uncached);
	if (unknown)
		printf(" unknown:%lu", unknown);
	printf("\n");
	return 0;
}
