/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bits of /proc/<pid>/pagemap entries and of /proc/kpageflags that the
 * lab's programs read (Documentation/admin-guide/mm/pagemap.rst).
 */
#ifndef FA_PAGEMAP_H
#define FA_PAGEMAP_H

#define PM_PRESENT	(1ULL << 63)
#define PM_PFN		((1ULL << 55) - 1)
#define KPF_HEAD	(1ULL << 15)	/* KPF_COMPOUND_HEAD */
#define KPF_TAIL	(1ULL << 16)	/* KPF_COMPOUND_TAIL */

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

/*
 * Read the /proc/self/pagemap entries of @n pages of @page_size bytes at
 * @addr into @ent, through a descriptor opened here (one opened before a
 * fork() reads the parent's page table): 0, or -1 with errno set.
 */
static inline int pagemap_read(const void *addr, size_t n, long page_size,
			       uint64_t *ent)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	ssize_t len = n * sizeof(*ent), got;

	if (pm < 0)
		return -1;
	got = pread(pm, ent, len, (uintptr_t)addr / page_size * sizeof(*ent));
	close(pm);
	return got == len ? 0 : -1;
}

#endif
