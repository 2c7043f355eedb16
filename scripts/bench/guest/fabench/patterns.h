/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-bench's other workloads' parts: program starts (exec, dynexec,
 * run), sparse passes, small mappings, the held-out patterns, and
 * work(), which each worker runs for each pass.
 * Static functions, in fa-bench.c's one translation unit.
 */
#ifndef FA_BENCH_PATTERNS_H
#define FA_BENCH_PATTERNS_H

/* @n starts of @argv in turn; @quiet: its stdout to /dev/null. */
static void spawn_starts(size_t n, char **argv, int quiet)
{
	posix_spawn_file_actions_t fa;
	size_t i;
	int err;

	err = posix_spawn_file_actions_init(&fa);
	if (!err && quiet)
		err = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
						       "/dev/null", O_WRONLY, 0);
	if (err) {
		errno = err;
		die("posix_spawn_file_actions");
	}
	for (i = 0; i < n; i++) {
		pid_t pid;
		int status;

		err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environment);

		if (err) {
			errno = err;
			die(argv[0]);
		}
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "fa-bench: %s failed (status %#x)\n",
				argv[0], status);
			exit(1);
		}
	}
	posix_spawn_file_actions_destroy(&fa);
}

/* sparse's touches: one page per page table of the @fd mapping of @len. */
static unsigned long sparse_pass(int file, size_t len)
{
	size_t i, ptes = pt_span / page_size;
	unsigned long sum = 0;
	char *map = map_aligned(len, PROT_READ, MAP_SHARED, file);

	advise_map(map, len, MADV_RANDOM);

	for (i = 0; i < len / pt_span; i++)
		sum += read_page(map + i * ptes * page_size);
	munmap(map, len);
	return sum;
}

/* One worker's share of one pass over @map. */
/* vmas: one two-page mapping of the file at page @pg, its life. */
static unsigned long small_vma(size_t pg)
{
	char *p = mmap(NULL, 2 * page_size, PROT_READ, MAP_SHARED, fd,
		       pg * page_size);
	unsigned long v;

	if (p == MAP_FAILED)
		die("mmap");
	v = read_page(p);
	if (mprotect(p + page_size, page_size, PROT_NONE))
		die("mprotect");
	if (munmap(p, 2 * page_size))
		die("munmap");
	return v;
}

/*
 * manymaps-seq's setup: MANY_MAPS one-page mappings of @path, each of
 * its own open file (so that neither a per-VMA nor a per-file table
 * holds them all) and read once, kept to the end; every other page, so
 * that no two merge (a file under 2 * MANY_MAPS pages maps some twice).
 */
static void many_maps(const char *path)
{
	volatile unsigned long sink = 0;
	size_t k;

	if (npages < 2) {
		fprintf(stderr, "fa-bench: manymaps-seq needs a file of 2 pages or more\n");
		exit(2);
	}
	for (k = 0; k < MANY_MAPS; k++) {
		off_t pg = k * 2 % (npages - npages % 2);
		int f = open(path, O_RDONLY);
		char *p = f < 0 ? MAP_FAILED :
			  mmap(NULL, page_size, PROT_READ, MAP_SHARED, f,
			       pg * page_size);

		if (p == MAP_FAILED)
			die(path);
		close(f);
		sink += read_page(p);
	}
	(void)sink;
}

/*
 * The held-out workloads' i-th read: its page.  @s: hot-reuse's random
 * state.
 */
static size_t held_page(size_t i, unsigned int *s)
{
	size_t half = npages / 2, nsparse = sparse_reads(half);

	switch (workload) {
	case HOTREUSE:	/* the second quarter */
		return npages / 4 + next_rand(s) % (npages / 4);
	case SEQSPARSE:
		return i < half ? i : half + (i - half) * STRIDE_PAGES;
	case SPARSESEQ:
		return i < nsparse ? i * STRIDE_PAGES : half + (i - nsparse);
	case STRIDE64K:
		return i * stride64k();
	case STREAMS3: {
		size_t third = npages / 3;

		return i < 3 * third ? i % 3 * third + i / 3 : i;
	}
	case HOTSKEW: {
		size_t q = npages / 4, a = next_rand(s) % q;

		return q + a * (next_rand(s) % q) / q;
	}
	case SEQSPARSESEQ: {
		size_t third = npages / 3, ns = sparse_reads(third);

		if (i < third)
			return i;
		if (i < third + ns)
			return third + (i - third) * STRIDE_PAGES;
		return 2 * third + (i - third - ns);
	}
	default:
		return i;
	}
}

/* smallfiles: chunk @c, opened, mapped and read whole; its reads marked. */
static unsigned long small_file(size_t c, unsigned char *mk)
{
	size_t len = SMALL_PAGES * page_size, i;
	unsigned long sink = 0;
	int cfd = open(file_path, O_RDONLY);
	char *p;

	if (cfd < 0)
		die(file_path);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, cfd, c * len);
	if (p == MAP_FAILED)
		die("mmap");
	close(cfd);	/* the mapping keeps the file */
	for (i = 0; i < SMALL_PAGES; i++) {
		sink += read_page(p + i * page_size);
		mk[c * SMALL_PAGES + i] = 1;
	}
	chunk_maps[c] = p;
	return sink;
}

static void work(unsigned int id, char *map)
{
	size_t i, from, to, ptes = pt_span / page_size;
	unsigned int s = seed * 7919 + id + 1;	/* never 0 */
	volatile unsigned long sink = 0;
	/* Every page for each worker, in a mapping of its own or not. */
	int own = own_maps() || workload == XREAD;
	size_t nwork = workload == EXEC || workload == DYNEXEC ? starts :
		       workload == RUN ? 1 : touches();
	unsigned char *mk = seen;

	from = own ? 0 : nwork * id / nworkers;
	to = own ? nwork : nwork * (id + 1) / nworkers;
	if (workload == MIXED) {
		/* Worker 0 reads the file in order, worker 1 is sparse. */
		for (i = 0; !id && i < npages; i++)
			sink += read_page(map + i * page_size);
		for (i = 0; id && i < passes2; i++)
			sink += sparse_pass(fd2, file2_size);
		return;
	}
	if (is_hotcold()) {
		hotcold();
		return;
	}
	if (workload == SMALLFILES) {
		size_t c, n = small_chunks();

		for (c = n * id / nworkers; c < n * (id + 1) / nworkers; c++)
			sink += small_file(c, mk);
		return;
	}
	if (workload == INTERLEAVE) {
		/* The chunks in order, each to whichever thread asks first. */
		size_t c, n = (npages + CHUNK_PAGES - 1) / CHUNK_PAGES;

		while ((c = __atomic_fetch_add(&sh->next_chunk, 1,
					       __ATOMIC_RELAXED)) < n)
			for (i = c * CHUNK_PAGES; i < npages &&
			     i < (c + 1) * CHUNK_PAGES; i++) {
				sink += read_page(map + i * page_size);
				mk[i] = 1;
			}
		return;
	}
	for (i = from; i < to; i++) {
		size_t pg;

		switch (workload) {
		case SEQ:
		case PREAD_SEQ:
		case PF4:
		case XREAD:
			sink += read_page(map + i * page_size);
			mk[i] = 1;
			break;
		case RAND:
			pg = next_rand(&s) % npages;
			sink += read_page(map + pg * page_size);
			mk[pg] = 1;
			break;
		case MANYMAPS:
		case HOTREUSE:
		case SEQSPARSE:
		case SPARSESEQ:
		case STRIDE64K:
		case STREAMS3:
		case HOTSKEW:
		case SEQSPARSESEQ:
			pg = held_page(i, &s);
			sink += read_page(map + pg * page_size);
			mk[pg] = 1;
			break;
		case PREAD_RAND: {
			const unsigned long *w = (const unsigned long *)map;
			size_t k, words = file_size / sizeof(*w);

			/*
			 * RAND_WORDS random words per page of the file: every
			 * page is read (one is missed with odds e^-64), as with
			 * usemem's page's worth, at an eighth of its loads
			 * (each a slow TLB miss under TCG).
			 */
			for (k = 0; k < RAND_WORDS; k++) {
				pg = next_rand(&s) % words;
				sink += w[pg];
				mk[pg * sizeof(*w) / page_size] = 1;
			}
			break;
		}
		case SPARSE:
			sink += read_page(map + i * ptes * page_size);
			mk[i * ptes] = 1;
			break;
		case ANON:
		case PF2:
		case PF3:
			map[i * page_size] = 1;
			break;
		case EXEC:
		case DYNEXEC: {
			char *argv[] = { (char *)program, "-w", "noop", NULL };
			char *via[] = { loader, "--library-path", libdir,
					(char *)program, "-w", "noop", NULL };

			spawn_starts(to - from, loader ? via : argv, 0);
			return;
		}
		case RUN:
			spawn_starts(1, run_argv, 1);
			return;
		case VMAS:
			sink += small_vma(2 * i);
			break;
		case INTERLEAVE:	/* above */
		case SMALLFILES:
		case MIXED:
		case HOTCOLD:
		case HOTSCAN:
			break;
		}
	}
}

#endif /* FA_BENCH_PATTERNS_H */
