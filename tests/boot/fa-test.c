// SPDX-License-Identifier: GPL-2.0
/*
 * fa-test: run-time tests of the fault-around knobs, run as root inside
 * the QEMU guest.  Each test prints one line, "PASS <name>" or
 * "FAIL <name>: <why>"; the exit status is the number of failures.
 *
 *   fa-test [-m max_order] [-D default_order] [-d dir] [test...]
 *
 * Tests: defaults trace valid invalid stress (default: all).  The knobs
 * are the debugfs files and vm.fault_around_bytes, which must agree.
 * trace reads a file at the order in effect and checks the
 * mm_filemap_map_pages events against /proc/vmstat's fault_around
 * counters and the file's pages.
 *
 * What one fault maps at each order, fault_around_bytes against every
 * order, and EINVAL above the largest order are the kselftest's
 * (tools/testing/selftests/mm/fault_around.c), which the guest runs too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "vmstat.h"

#define BYTES_FILE	"/sys/kernel/debug/fault_around_bytes"
#define SYSCTL_FILE	"/proc/sys/vm/fault_around_bytes"
#define EVENT_DIR	"/sys/kernel/tracing/events/filemap/mm_filemap_map_pages"
#define TRACE_FILE	"/sys/kernel/tracing/trace"

static unsigned int max_order = 9;	/* ilog2(PTRS_PER_PTE), x86_64 4K */
static unsigned int default_order = 4;	/* CONFIG_FAULT_AROUND_ORDER, x86_64 */
static const char *dir = "/tmp";

/* Write @s (exactly its bytes) to @path; return 0 or the errno. */
static int write_knob(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		err = errno;
	else if ((size_t)n != strlen(s))
		err = -1;	/* short write: should not happen */
	close(fd);
	return err;
}

/* Read an unsigned value from @path; -1 on error. */
static long long read_knob(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;
	char *end;
	long long v;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	v = strtoll(buf, &end, 10);
	if (end == buf || (*end && *end != '\n'))
		return -1;
	return v;
}

static int set_order(unsigned int order)
{
	char s[16];

	snprintf(s, sizeof(s), "%u\n", order);
	return write_knob(ORDER_FILE, s);
}

static void test_defaults(void)
{
	long long order = read_knob(ORDER_FILE);
	long long bytes = read_knob(BYTES_FILE);
	long long sysctl = read_knob(SYSCTL_FILE);
	long long want = (long long)page_size << default_order;

	result(order == default_order && bytes == want && sysctl == want,
	       "defaults", "order %lld bytes %lld sysctl %lld, expected %u and %lld",
	       order, bytes, sysctl, default_order, want);
}

/*
 * bytes -> order, with values that are not a power of two, written to the
 * debugfs file and to the sysctl in turn: all three knobs must agree.
 */
static void test_valid(void)
{
	const char *const files[] = { BYTES_FILE, SYSCTL_FILE };
	unsigned int o;
	bool ok = true;
	char why[200] = "";

	for (o = 0; o <= max_order && ok; o++) {
		long long exact = (long long)page_size << o;
		long long inputs[] = { exact, exact + 1, 2 * exact - 1 };
		unsigned int i;

		for (i = 0; i < 3 && ok; i++) {
			char s[32];
			const char *file = files[(o + i) % 2];
			long long order, bytes, sysctl;

			/* 2*exact - 1 of the largest order is out of range. */
			if (o == max_order && i == 2)
				continue;
			snprintf(s, sizeof(s), "%lld\n", inputs[i]);
			if (write_knob(file, s)) {
				snprintf(why, sizeof(why), "%s %lld rejected",
					 file, inputs[i]);
				ok = false;
				break;
			}
			order = read_knob(ORDER_FILE);
			bytes = read_knob(BYTES_FILE);
			sysctl = read_knob(SYSCTL_FILE);
			if (order != o || bytes != exact || sysctl != exact) {
				snprintf(why, sizeof(why),
					 "wrote %s %lld, read order %lld bytes %lld sysctl %lld, expected %u and %lld",
					 file, inputs[i], order, bytes, sysctl,
					 o, exact);
				ok = false;
			}
		}
	}
	/* 0 means order 0, through either file. */
	for (o = 0; o < 2 && ok; o++) {
		set_order(3);
		if (write_knob(files[o], "0\n") || read_knob(ORDER_FILE) != 0) {
			snprintf(why, sizeof(why), "%s 0 did not give order 0",
				 files[o]);
			ok = false;
		}
	}
	result(ok, "valid", "%s", why);
}

static void test_invalid(void)
{
	char big_bytes[32];
	struct { const char *file, *input; } cases[] = {
		{ ORDER_FILE, "-1\n" },
		{ ORDER_FILE, "4294967296\n" },
		{ ORDER_FILE, "18446744073709551615\n" },
		{ ORDER_FILE, "99999999999999999999999\n" },
		{ ORDER_FILE, "abc\n" },
		{ ORDER_FILE, "" },
		{ ORDER_FILE, "\n" },
		{ ORDER_FILE, "3x\n" },
		{ ORDER_FILE, "3 4\n" },
		{ BYTES_FILE, "-1\n" },
		{ BYTES_FILE, big_bytes },
		{ BYTES_FILE, "18446744073709551615\n" },
		{ BYTES_FILE, "99999999999999999999999\n" },
		{ BYTES_FILE, "abc\n" },
		{ BYTES_FILE, "" },
		{ BYTES_FILE, "65536x\n" },
		{ BYTES_FILE, "4096 8192\n" },
		{ SYSCTL_FILE, "-1\n" },
		{ SYSCTL_FILE, big_bytes },
		{ SYSCTL_FILE, "18446744073709551616\n" },
		{ SYSCTL_FILE, "99999999999999999999999\n" },
		{ SYSCTL_FILE, "abc\n" },
		{ SYSCTL_FILE, "\n" },
		{ SYSCTL_FILE, "65536x\n" },
		{ SYSCTL_FILE, "64K\n" },
	};
	unsigned int i;

	/* One byte more than a page table's worth of pages. */
	snprintf(big_bytes, sizeof(big_bytes), "%ld\n",
		 (page_size << max_order) + page_size);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[96], shown[40];
		long long order, bytes, sysctl;
		int err;
		size_t n;

		set_order(3);
		err = write_knob(cases[i].file, cases[i].input);
		order = read_knob(ORDER_FILE);
		bytes = read_knob(BYTES_FILE);
		sysctl = read_knob(SYSCTL_FILE);
		snprintf(shown, sizeof(shown), "%s", cases[i].input);
		n = strlen(shown);
		if (n > 1 && shown[n - 1] == '\n')
			shown[n - 1] = '\0';
		else if (n == 1 && shown[0] == '\n')
			strcpy(shown, "\\n");
		snprintf(name, sizeof(name), "invalid %s%s '%s'",
			 !strcmp(cases[i].file, SYSCTL_FILE) ? "vm." : "",
			 strrchr(cases[i].file, '/') + 1, shown);
		/* The sysctl's errno is EINVAL; debugfs may say ERANGE. */
		result(err > 0 && (err == EINVAL || strcmp(cases[i].file, SYSCTL_FILE)) &&
		       order == 3 && bytes == page_size << 3 && sysctl == bytes, name,
		       "write gave %s, then order %lld bytes %lld sysctl %lld",
		       err > 0 ? strerror(err) : "success", order, bytes, sysctl);
	}
}

/* A file of @pages pages, all in the page cache. */
static int make_file(const char *name, size_t pages)
{
	char path[256], *buf;
	size_t i;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	buf = malloc(page_size);
	for (i = 0; i < pages; i++) {
		memset(buf, (int)(i & 0xff), page_size);
		if (write(fd, buf, page_size) != page_size) {
			close(fd);
			free(buf);
			return -1;
		}
	}
	free(buf);
	return fd;
}

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

/* Read one byte every @stride bytes of a fresh mapping; return faults. */
static long count_faults(int fd, size_t len, size_t stride, bool *data_ok)
{
	char *p = map_aligned(fd, len);
	volatile char sink;
	long before, after;
	size_t off;

	if (!p)
		return -1;
	*data_ok = true;
	before = minor_faults();
	for (off = 0; off < len; off += stride) {
		sink = p[off];
		if (sink != (char)((off / page_size) & 0xff))
			*data_ok = false;
	}
	after = minor_faults();
	munmap(p, len);
	return after - before;
}

struct traced {
	unsigned long events, mapped, foreign;
	char first[512];	/* the first event, for the docs */
};

/*
 * Sum the mm_filemap_map_pages events in the trace; count those that are
 * not for inode @ino as foreign.
 */
static bool read_trace(unsigned long ino, struct traced *t)
{
	FILE *f = fopen(TRACE_FILE, "r");
	char line[512];
	unsigned long e_ino, e_mapped;
	const char *p;

	if (!f)
		return false;
	memset(t, 0, sizeof(*t));
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "mm_filemap_map_pages: ");
		if (!p)
			continue;
		if (!t->events++)
			snprintf(t->first, sizeof(t->first), "%s", line);
		if (sscanf(strstr(p, " ino=") ?: "", " ino=%lx", &e_ino) != 1 ||
		    sscanf(strstr(p, " mapped=") ?: "", " mapped=%lu",
			   &e_mapped) != 1) {
			t->foreign++;
			continue;
		}
		t->mapped += e_mapped;
		if (e_ino != ino)
			t->foreign++;
	}
	fclose(f);
	return true;
}

/*
 * Read every page of a file once, with the event on: every fault-around
 * is traced, for this file;
 * the events and their pages mapped equal the counters' deltas, and with
 * the mapping aligned to whole windows, faults plus pages mapped around
 * are the file's pages.
 */
static void test_trace(void)
{
	long long order = read_knob(ORDER_FILE);
	size_t pages = 256, len = pages * page_size;
	struct fa_counters a, b;
	struct traced t;
	struct stat st;
	long faults;
	bool data_ok;
	char why[800] = "";
	int fd, vm;

	fd = make_file("trace", pages);
	vm = open("/proc/vmstat", O_RDONLY);
	if (fd < 0 || vm < 0 || fstat(fd, &st) || order < 0) {
		result(false, "trace", "setup: %s", strerror(errno));
		goto out;
	}
	/* Once without the event: the code on this path is faulted in. */
	count_faults(fd, len, page_size, &data_ok);
	if (!fa_read_counters(vm, &a) ||
	    close(open(TRACE_FILE, O_WRONLY | O_TRUNC)) ||
	    write_knob(EVENT_DIR "/enable", "1")) {
		result(false, "trace", "no fault_around counters or event: %s",
		       strerror(errno));
		goto out;
	}
	fa_read_counters(vm, &a);
	faults = count_faults(fd, len, page_size, &data_ok);
	fa_read_counters(vm, &b);
	write_knob(EVENT_DIR "/enable", "0");
	if (!read_trace(st.st_ino, &t)) {
		result(false, "trace", "cannot read %s: %s", TRACE_FILE,
		       strerror(errno));
		goto out;
	}
	if ((long long)t.events != b.calls - a.calls ||
	    (long long)t.mapped != b.mapped - a.mapped)
		snprintf(why, sizeof(why),
			 "traced %lu events mapping %lu pages, vmstat counted %lld and %lld",
			 t.events, t.mapped, b.calls - a.calls,
			 b.mapped - a.mapped);
	else if (t.foreign)
		snprintf(why, sizeof(why),
			 "%lu of %lu events not for this file; first: %s",
			 t.foreign, t.events, t.first);
	else if (order && (t.events != (unsigned long)faults ||
			   faults + t.mapped != pages))
		snprintf(why, sizeof(why),
			 "order %lld: %ld faults, %lu traced, %lu pages mapped around, for %zu pages",
			 order, faults, t.events, t.mapped, pages);
	else if (!order && (t.events || faults != (long)pages))
		snprintf(why, sizeof(why),
			 "order 0: %lu events traced, %ld faults for %zu pages",
			 t.events, faults, pages);
	else if (!data_ok)
		snprintf(why, sizeof(why), "wrong data read");
	result(!why[0], "trace", "%s", why);
	if (!why[0] && t.events)
		printf("INFO trace: %s", t.first);
out:
	if (vm >= 0)
		close(vm);
	if (fd >= 0)
		close(fd);
}

struct stress {
	int fd;
	size_t len;
	volatile bool stop;
	long bad_reads, bad_data, faults;
};

static void *stress_faulter(void *arg)
{
	struct stress *st = arg;

	while (!st->stop) {
		bool data_ok;
		long n = count_faults(st->fd, st->len, page_size, &data_ok);

		if (n < 0 || !data_ok)
			st->bad_data++;
		else
			st->faults += n;
	}
	return NULL;
}

static void *stress_reader(void *arg)
{
	struct stress *st = arg;

	while (!st->stop) {
		long long o = read_knob(ORDER_FILE);
		long long b = read_knob(BYTES_FILE);
		long long c = read_knob(SYSCTL_FILE);

		if (o < 0 || o > max_order)
			st->bad_reads++;
		if (b < page_size || b > page_size << max_order || (b & (b - 1)))
			st->bad_reads++;
		if (c < page_size || c > page_size << max_order || (c & (c - 1)))
			st->bad_reads++;
	}
	return NULL;
}

static void test_stress(void)
{
	/* The largest order and one more, a page table and a page more. */
	char top[16], above[16], table[32], over[32];
	const char *const inputs[] = {
		"0\n", "1\n", "4\n", top, above, "-1\n", "3x\n", "\n",
		"99999999999999999999999\n",
	};
	const char *const byte_inputs[] = {
		"0\n", "4096\n", "65536\n", "20000\n", table, over,
		"abc\n", "18446744073709551615\n",
	};
	struct stress st = { .len = 4096 * page_size };
	pthread_t t[3];
	time_t end = time(NULL) + 5;
	unsigned int i, writes = 0;

	snprintf(top, sizeof(top), "%u\n", max_order);
	snprintf(above, sizeof(above), "%u\n", max_order + 1);
	snprintf(table, sizeof(table), "%ld\n", page_size << max_order);
	snprintf(over, sizeof(over), "%ld\n", (page_size << max_order) + page_size);
	st.fd = make_file("fa-stress", 4096);
	if (st.fd < 0) {
		result(false, "stress", "cannot create the file");
		return;
	}
	pthread_create(&t[0], NULL, stress_faulter, &st);
	pthread_create(&t[1], NULL, stress_faulter, &st);
	pthread_create(&t[2], NULL, stress_reader, &st);
	srand(42);
	while (time(NULL) < end) {
		for (i = 0; i < 64; i++, writes++) {
			if (rand() & 1)
				write_knob(ORDER_FILE,
					   inputs[rand() % (sizeof(inputs) / sizeof(inputs[0]))]);
			else
				write_knob(rand() & 1 ? BYTES_FILE : SYSCTL_FILE,
					   byte_inputs[rand() % (sizeof(byte_inputs) / sizeof(byte_inputs[0]))]);
		}
	}
	st.stop = true;
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	close(st.fd);
	set_order(default_order);
	result(!st.bad_reads && !st.bad_data && st.faults > 0, "stress",
	       "%ld invalid values read, %ld bad mappings, %ld faults, %u writes",
	       st.bad_reads, st.bad_data, st.faults, writes);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "defaults", test_defaults },
	{ "trace", test_trace },
	{ "valid", test_valid },
	{ "invalid", test_invalid },
	{ "stress", test_stress },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int opt, ran = 0;
	long long saved;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "m:D:d:")) != -1) {
		switch (opt) {
		case 'm':
			if (parse_order(optarg, &max_order))
				return 2;
			break;
		case 'D':
			if (parse_order(optarg, &default_order))
				return 2;
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-m max_order] [-D default_order] [-d dir] [test...]\n",
				argv[0]);
			return 2;
		}
	}
	saved = read_knob(ORDER_FILE);
	if (saved < 0) {
		printf("FAIL setup: cannot read %s: %s\n", ORDER_FILE,
		       strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		int a;
		bool want = optind == argc;

		for (a = optind; a < argc; a++)
			want |= !strcmp(argv[a], tests[i].name);
		if (!want)
			continue;
		tests[i].fn();
		ran++;
	}
	set_order(saved);
	if (!ran) {
		printf("FAIL setup: no such test\n");
		return 1;
	}
	return failures;
}
