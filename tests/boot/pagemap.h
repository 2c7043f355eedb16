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

#endif
