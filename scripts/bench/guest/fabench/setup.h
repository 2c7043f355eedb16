/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-bench's inputs, checked and opened before any worker starts: the
 * workload's name, run's program, the file (-f) and the second one (-g),
 * and the sizes each workload needs.  A bad input is an exit code of 2
 * with a message, before anything is measured.
 * Static functions, in fa-bench.c's one translation unit.
 */
#ifndef FA_BENCH_SETUP_H
#define FA_BENCH_SETUP_H

/* -f: the file, dropped first with -c; the page table's span from -P. */
static int open_file(const char *file, int cold)
{
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
	return -1;
}

/* -g: mixed's sparse file, or hotcold's hot one; their sizes. */
static int open_file2(const char *file2, int cold)
{
	struct stat st;

	fd2 = file2 ? open(file2, O_RDONLY) : -1;
	if (fd2 < 0 || fstat(fd2, &st))
		die(file2 ? file2 : "mixed and hotcold need -g <file>");
	errno = cold ? posix_fadvise(fd2, 0, 0, POSIX_FADV_DONTNEED) : 0;
	if (errno)
		die("posix_fadvise");
	if (is_hotcold()) {
		file2_size = st.st_size / page_size * page_size;
		if (!file2_size || nworkers != 1 || passes != 1) {
			fprintf(stderr, "fa-bench: hotcold and hotscan are one worker and one pass, and their -g file a page or more\n");
			return 2;
		}
		return -1;
	}
	file2_size = st.st_size / pt_span * pt_span;
	if (!file2_size) {
		fprintf(stderr, "fa-bench: mixed's -g file must be one page table (%zu bytes) or more\n",
			pt_span);
		return 2;
	}
	passes2 = (SPARSE_TOUCHES + file2_size / pt_span - 1) /
		  (file2_size / pt_span);
	nworkers = 2;
	return -1;
}

/*
 * prepare: the workload w ready to run with these options: -1, or the
 * exit code when it cannot.
 */
static int prepare(const char *w, const char *file, const char *file2,
		   size_t ptes, int cold, int n_given, char **args)
{
	unsigned int i;
	int ret;

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
	/* -P: a page of pointers is wrong on ppc64 (sweep.sh finds it). */
	pt_span = pt_span_of(ptes);
	if (workload == RUN) {
		run_argv = args;
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
		ret = open_file(file, cold);
		if (ret >= 0)
			return ret;
	}
	if (workload == SPARSE && passes == 1)
		passes = (SPARSE_TOUCHES + file_size / pt_span - 1) /
			 (file_size / pt_span);
	if (workload == MIXED || is_hotcold()) {
		ret = open_file2(file2, cold);
		if (ret >= 0)
			return ret;
	}
	if (is_hotcold()) {
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
	     workload == SEQSPARSESEQ || workload == HOTREUSE) && npages < 4) {
		fprintf(stderr, "fa-bench: %s needs a file of 4 pages or more\n",
			names[workload]);
		return 2;
	}
	return -1;
}

#endif /* FA_BENCH_SETUP_H */
