/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-bench's hotcold and hotscan (make bench PRESSURE=1): the fates of
 * the pages they read, from pagemap and kpageflags, and the reclaim
 * counts of /proc/vmstat and the cgroup.
 * Static functions, in fa-bench.c's one translation unit.
 */
#ifndef FA_BENCH_FATES_H
#define FA_BENCH_FATES_H

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

#endif /* FA_BENCH_FATES_H */
