/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mapping that starts on a page-table boundary, for the boot lab's
 * tests (lab.h) and fa-bench: one way to place it, so that fault counts
 * do not depend on where ASLR puts a mapping.
 */
#ifndef FA_SPAN_H
#define FA_SPAN_H

#include <stddef.h>
#include <sys/mman.h>

/*
 * Map @len bytes of @fd (or anonymous memory, @fd -1 with MAP_ANONYMOUS
 * in @flags) at a multiple of @span: reserve a span more, map over the
 * aligned part and give back the slack on both sides, so that
 * munmap(result, @len) frees it all (a 32-bit loop runs out of address
 * space otherwise).  NULL on failure, with nothing left mapped.
 */
static char *map_at_span(size_t len, size_t span, int prot, int flags, int fd)
{
	char *res = mmap(NULL, len + span, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *p;

	if (res == MAP_FAILED)
		return NULL;
	p = (char *)(((unsigned long)res + span - 1) & ~(span - 1));
	if (p > res)
		munmap(res, p - res);
	munmap(p + len, res + span - p);
	if (mmap(p, len, prot, flags | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(p, len);
		return NULL;
	}
	return p;
}

#endif
