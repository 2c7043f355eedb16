/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The series' fault-around counters, read by fa-test and fa-bench: one
 * parser, so that both read /proc/vmstat the same way.
 */
#ifndef FA_VMSTAT_H
#define FA_VMSTAT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct fa_counters {
	long long calls;	/* fault_around */
	long long mapped;	/* fault_around_mapped */
};

/*
 * Read the counters from @fd, open on /proc/vmstat, with pread() into a
 * static buffer: a second read allocates nothing and runs no new code, so
 * it adds no fault of its own between two readings.  False, with both
 * -1, on a kernel without them.
 */
static inline bool fa_read_counters(int fd, struct fa_counters *c)
{
	static char buf[16384];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *p;

	c->calls = c->mapped = -1;
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (sscanf(p, "fault_around %lld", &c->calls) != 1)
			sscanf(p, "fault_around_mapped %lld", &c->mapped);
	}
	return c->calls >= 0 && c->mapped >= 0;
}

#endif /* FA_VMSTAT_H */
