// SPDX-License-Identifier: GPL-2.0
/*
 * fa-folios: the page cache's folio sizes for a file, so that a bench row
 * says what it ran on.  Maps the file with readahead off (MADV_RANDOM),
 * reads a byte of each page that is in the page cache (mincore()), which
 * reads nothing from disk, and walks /proc/self/pagemap and
 * /proc/kpageflags: a compound head starts a folio whose tails follow it
 * in the file.  Run it after the measured runs; it needs root (the PFNs).
 *
 *   fa-folios <file>
 *
 * Prints one line: "folios: <order>:<pages> ..." with the cached pages
 * of the file in folios of each order, ascending, then "uncached:<pages>"
 * for the others.  Exit status 0, or 1 with a message on stderr.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PM_PRESENT	(1ULL << 63)
#define PM_PFN		((1ULL << 55) - 1)
#define KPF_HEAD	(1ULL << 15)
#define KPF_TAIL	(1ULL << 16)
#define MAX_ORDER	20

static int die(const char *what, const char *path)
{
	fprintf(stderr, "fa-folios: %s %s: %m\n", what, path);
	return 1;
}

/* The flags of frame @pfn, or 0 where they cannot be read. */
static uint64_t kflags(int fd, uint64_t pfn)
{
	uint64_t f;

	if (pread(fd, &f, sizeof(f), pfn * sizeof(f)) != sizeof(f))
		return 0;
	return f;
}

int main(int argc, char **argv)
{
	unsigned long pages[MAX_ORDER + 1] = { 0 }, uncached = 0;
	long page = sysconf(_SC_PAGESIZE);
	size_t n, i, len;
	int fd, pm, kpf, o;
	unsigned char *in;
	volatile char *p;
	uint64_t *pfn;
	struct stat st;

	if (argc != 2) {
		fprintf(stderr, "usage: fa-folios <file>\n");
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return die("cannot open", argv[1]);
	n = (st.st_size + page - 1) / page;
	if (!n) {
		printf("folios: uncached:0\n");
		return 0;
	}
	len = n * page;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	pfn = calloc(n, sizeof(*pfn));
	in = malloc(n);
	if (p == MAP_FAILED || !pfn || !in ||
	    madvise((void *)p, len, MADV_RANDOM) || mincore((void *)p, len, in))
		return die("cannot map", argv[1]);
	pm = open("/proc/self/pagemap", O_RDONLY);
	kpf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kpf < 0)
		return die("cannot open", pm < 0 ? "/proc/self/pagemap" :
			   "/proc/kpageflags");
	for (i = 0; i < n; i++)
		if (in[i] & 1)
			(void)p[i * page];
	if (pread(pm, pfn, n * sizeof(*pfn), (uintptr_t)p / page * sizeof(*pfn)) !=
	    (ssize_t)(n * sizeof(*pfn)))
		return die("cannot read", "/proc/self/pagemap");
	for (i = 0; i < n; ) {
		uint64_t f, head = pfn[i] & PM_PFN;
		size_t k = 1;

		if (!(pfn[i] & PM_PRESENT) || !head) {
			uncached++;
			i++;
			continue;
		}
		f = kflags(kpf, head);
		/* A tail first: the folio began before the file's page 0 here. */
		if (f & KPF_HEAD || f & KPF_TAIL)
			while (i + k < n && (pfn[i + k] & PM_PRESENT) &&
			       (pfn[i + k] & PM_PFN) == head + k &&
			       kflags(kpf, head + k) & KPF_TAIL)
				k++;
		/* The order of the folio: its pages seen here, rounded up. */
		for (o = 0; o < MAX_ORDER && (1UL << o) < k; o++)
			;
		pages[o] += k;
		i += k;
	}
	printf("folios:");
	for (o = 0; o <= MAX_ORDER; o++)
		if (pages[o])
			printf(" %d:%lu", o, pages[o]);
	printf(" uncached:%lu\n", uncached);
	return 0;
}
