/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the boot lab's guest test programs: the PASS/FAIL
 * lines (printf-checked), an aligned file mapping and the parsing of an
 * order option.  Each program is one static binary, so these are static
 * functions in a header.
 */
#ifndef FA_LAB_H
#define FA_LAB_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "span.h"

#define ORDER_FILE	"/sys/kernel/debug/fault_around_order"
#define PMD_SPAN	(2UL << 20)

static long page_size;
static int failures;

/* One line per test: "PASS <name>" or "FAIL <name>: <why>". */
static void result(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
	} else {
		printf("FAIL %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		failures++;
	}
	fflush(stdout);
}

/*
 * Map @len bytes of @fd read-only at a 2MiB-aligned address: a page
 * table's span with 4KiB pages, so that on x86_64 every fault-around
 * window is whole and fault counts are exact.  (With 64KiB pages a table
 * spans 512MiB; only fa-test's stress, which counts no windows, runs
 * there.)
 */
static char *map_aligned(int fd, size_t len)
{
	return map_at_span(len, PMD_SPAN, PROT_READ, MAP_SHARED, fd);
}

/* An order given on the command line: a whole decimal number below 64. */
static int parse_order(const char *s, unsigned int *order)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v >= 64) {
		fprintf(stderr, "bad order '%s'\n", s);
		return -1;
	}
	*order = v;
	return 0;
}

#endif /* FA_LAB_H */
