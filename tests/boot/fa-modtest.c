// SPDX-License-Identifier: GPL-2.0
/*
 * fa-modtest: run-time tests of mod_faultaround, run as root in the guest
 * with the module loaded.  One "PASS <name>" or "FAIL <name>: <why>" line
 * per test; the exit status is the number of failures.
 *
 *   fa-modtest [-m max_order] [-k module.ko] [test...]
 *
 * Tests: ab errors mapping three handed listing exit stress unload failed
 * dupfail threads stall adaptive baselines (default: all) and lockdown
 * (only when named: it raises the guest's lockdown for good).  "stress" unloads the module
 * while faults are in flight, "unload" under slab fault injection,
 * "adaptive" switches the kernel's adaptive policy through the module
 * and the sysctl, with faults in flight; they load it again from -k.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse-stall.h"
#include "lab.h"
#include "vmstat.h"
#include "xorshift.h"

#define DIR_		"/sys/kernel/debug/faultaround/"
#define SYSCTL_ADAPTIVE	"/proc/sys/vm/fault_around_adaptive"
#define NPAGES		4096UL

static unsigned int max_order = 9;
static const char *module = "/lib/mod_faultaround.ko";

/* Write @len bytes of @s to @path in one write(); 0 or the errno. */
static int put(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, len) < 0)
		err = errno;
	close(fd);
	return err;
}

static int cmd(const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return put(DIR_ "vma", buf, strlen(buf));
}

/* The whole of a file, NUL-terminated, in a static buffer. */
static const char *slurp(const char *path)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);
	ssize_t n = 0, r;

	buf[0] = '\0';
	if (fd < 0)
		return buf;
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	buf[n] = '\0';
	close(fd);
	return buf;
}

static long stat_of(const char *key)
{
	const char *s = slurp(DIR_ "stats"), *p = s;
	size_t k = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == ' ')
			return atol(p + k + 1);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

static int set_order(unsigned int o)
{
	char s[16];

	snprintf(s, sizeof(s), "%u\n", o);
	return put(ORDER_FILE, s, strlen(s));
}

static int make_file(const char *path, size_t pages)
{
	char *buf = malloc(page_size);
	size_t i;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	memset(buf, 7, page_size);
	for (i = 0; i < pages; i++)
		if (write(fd, buf, page_size) != page_size)
			return -1;
	free(buf);
	return fd;
}

/* This thread's minor faults so far. */
static long thread_minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

/*
 * The start of a count: after fork() the first write to a stack page is
 * a copy-on-write fault, and getrusage() takes it after its snapshot, when
 * it writes its buffer; so it is called once before.
 */
static long minflt_start(void)
{
	thread_minflt();
	return thread_minflt();
}

/* Read a byte of every @stride-th page of @p's @pages: the minor faults. */
static long read_every(const char *p, size_t pages, size_t stride)
{
	volatile char sink = 0;	/* its page written before the count */
	long before;
	size_t i;

	before = minflt_start();
	for (i = 0; i < pages; i += stride)
		sink = p[i * page_size];
	(void)sink;
	return thread_minflt() - before;
}

static long read_pages(const char *p, size_t pages)
{
	return read_every(p, pages, 1);
}

/* Read each of @pages pages of @p once, in a shuffled order: the faults. */
static long read_shuffled(const char *p, size_t pages)
{
	size_t *order = malloc(pages * sizeof(*order)), i, j, k;
	unsigned int s = 2463534242u;
	volatile char sink = 0;
	long before, faults;

	if (!order)
		return -1;
	for (i = 0; i < pages; i++)
		order[i] = i;
	for (i = pages - 1; i > 0; i--) {
		j = next_rand(&s) % (i + 1);
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	before = minflt_start();
	for (i = 0; i < pages; i++)
		sink = p[order[i] * page_size];
	(void)sink;
	faults = thread_minflt() - before;
	free(order);
	return faults;
}

/* The hits column of the override that starts at @p. */
static long hits_of(const char *p)
{
	char key[64];
	const char *s = slurp(DIR_ "vma"), *line;
	long pid, order, hits;

	snprintf(key, sizeof(key), " %lx-", (unsigned long)p);
	line = strstr(s, key);
	while (line && line > s && line[-1] != '\n')
		line--;
	if (!line || sscanf(line, "%ld %*s %ld %ld", &pid, &order, &hits) != 3)
		return -1;
	return hits;
}

/* Two mappings of one file, order 0 and 4, with the global order at 2. */
static void test_ab(void)
{
	/* Two opens: test_mapping() has VMAs of one. */
	int fd = make_file("/tmp/fa-ab", NPAGES), fd2 = open("/tmp/fa-ab", O_RDONLY);
	char *a = map_aligned(fd, NPAGES * page_size);
	char *b = map_aligned(fd2, NPAGES * page_size);
	long fa, fb, ha, hb, o0, o4, hits, calls, mapped;

	cmd("clear\n");
	set_order(2);
	/* The code that runs after the reset, faulted in before it. */
	read_pages(a, 0);
	hits_of(a);
	stat_of("hits");
	if (!a || !b || cmd("%d %p 0\n", getpid(), a) ||
	    cmd("%d %p 4\n", getpid(), b + 5 * page_size) ||
	    put(DIR_ "stats", "0\n", 2)) {
		result(false, "ab", "setup failed: %s", strerror(errno));
		return;
	}
	fa = read_pages(a, NPAGES);
	fb = read_pages(b, NPAGES);
	ha = hits_of(a);
	hb = hits_of(b);
	o0 = stat_of("order0");
	o4 = stat_of("order4");
	hits = stat_of("hits");
	calls = stat_of("fault_around");
	mapped = stat_of("fault_around_mapped");
	result(fa == (long)NPAGES, "ab mapping A order 0",
	       "%ld faults, expected %lu", fa, NPAGES);
	result(fb == (long)(NPAGES >> 4), "ab mapping B order 4",
	       "%ld faults, expected %lu", fb, NPAGES >> 4);
	result(ha == fa && hb == fb, "ab hits",
	       "vma hits A %ld B %ld, faults A %ld B %ld", ha, hb, fa, fb);
	result(o0 == fa && o4 == fb && hits == fa + fb, "ab stats",
	       "order0 %ld order4 %ld hits %ld, faults A %ld B %ld", o0, o4,
	       hits, fa, fb);
	/* Only B faults around: each fault maps its own page and 15 more. */
	result(calls == fb && mapped == (long)NPAGES - fb, "ab stats vmstat",
	       "fault_around %ld fault_around_mapped %ld, expected %ld and %ld",
	       calls, mapped, fb, (long)NPAGES - fb);
	cmd("clear\n");
	set_order(4);
	munmap(a, NPAGES * page_size);
	munmap(b, NPAGES * page_size);
	close(fd);
	close(fd2);
}

/* A refused write: the errno wanted, and the listing byte-identical. */
static void expect_err(const char *name, int err, int want, const char *before)
{
	const char *after = slurp(DIR_ "vma");

	result(err == want && !strcmp(before, after), name,
	       "got %s, expected %s%s", err ? strerror(err) : "success",
	       strerror(want), strcmp(before, after) ? "; vma changed" : "");
}

/*
 * A set on @map, a mapping that never faults around, is EINVAL with the
 * listing unchanged; @why says why there is no such mapping to try.
 */
static void expect_never(const char *name, char *map, const char *why,
			 const char *before)
{
	if (map == MAP_FAILED)
		result(false, name, "%s", why);
	else
		expect_err(name, cmd("%d %p 1\n", getpid(), map), EINVAL,
			   before);
}

/* Drop capability @cap from this (forked) process. */
static void drop_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	syscall(SYS_capget, &h, d);
	d[0].effective &= ~(1U << cap);
	d[0].permitted &= ~(1U << cap);
	syscall(SYS_capset, &h, d);
}

/* Run @fn in a child and return what it returns (an errno). */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid)
		_exit(fn(arg));
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

static int as_nobody(void *arg)
{
	if (setgid(65534) || setuid(65534))
		return 254;
	return cmd("%d %p 1\n", getppid(), arg);
}

static int without_ptrace(void *arg)
{
	drop_cap(CAP_SYS_PTRACE);
	return cmd("%d %p 1\n", *(pid_t *)arg, (void *)0x400000);
}

static int without_admin(void *arg)
{
	drop_cap(CAP_SYS_ADMIN);
	return cmd("%d %p 1\n", getppid(), arg);
}

/*
 * @s written to @path at @off: by pwrite(), or with @seek by lseek() and
 * write().  0 or the errno.
 */
static int put_at(const char *path, const char *s, off_t off, bool seek)
{
	int fd = open(path, O_RDWR), err = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	if (seek)
		n = lseek(fd, off, SEEK_SET) == off ? write(fd, s, strlen(s)) : -2;
	else
		n = pwrite(fd, s, strlen(s), off);
	if (n == -2)
		err = 255;	/* no such offset: not what is tested */
	else if (n < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * @n separate VMAs of one file mapping, one page each at odd page
 * offsets, every other page of a PROT_NONE mapping made readable.
 */
static char *file_vmas(int fd, int n)
{
	char *p = mmap(NULL, 2 * n * page_size, PROT_NONE, MAP_SHARED, fd, 0);
	int i;

	if (p == MAP_FAILED)
		return NULL;
	for (i = 0; i < n; i++)
		if (mprotect(p + (2 * i + 1) * page_size, page_size, PROT_READ))
			return NULL;
	return p;
}

/*
 * A page of a memfd that userfaultfd watches for minor faults, which
 * never fault around (uffd_disable_fault_around()); MAP_FAILED if the
 * kernel refuses it.  The userfaultfd stays open until exit, and with it
 * the registration.
 */
static char *uffd_minor_page(void)
{
	struct uffdio_api api = {
		.api = UFFD_API, .features = UFFD_FEATURE_MINOR_SHMEM,
	};
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MINOR };
	int fd = memfd_create("fa-uffd", MFD_CLOEXEC), uffd = -1;
	char *p = MAP_FAILED;

	if (fd < 0 || ftruncate(fd, page_size))
		goto out;
	p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (p == MAP_FAILED || uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		goto fail;
	reg.range.start = (unsigned long)p;
	reg.range.len = page_size;
	if (!ioctl(uffd, UFFDIO_REGISTER, &reg))
		goto out;
fail:
	if (uffd >= 0)
		close(uffd);
	if (p != MAP_FAILED)
		munmap(p, page_size);
	p = MAP_FAILED;
out:
	if (fd >= 0)
		close(fd);
	return p;
}

static void test_errors(void)
{
	static char big[65536], before[65536];
	int fd = make_file("/tmp/fa-errors", 2 * 1025 + 2), i, err = 0, zfd;
	char name[64], *three, *many, *anon, *zero, *uffd;
	pid_t gone, victim;

	cmd("clear\n");
	/* Three pages with a hole: VMA, gap, VMA. */
	three = mmap(NULL, 3 * page_size, PROT_READ, MAP_SHARED, fd, 0);
	anon = mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	/* A file VMA whose vm_ops has no ->map_pages(): /dev/zero, private. */
	zfd = open("/dev/zero", O_RDONLY);
	zero = zfd < 0 ? MAP_FAILED :
	       mmap(NULL, page_size, PROT_READ, MAP_PRIVATE, zfd, 0);
	uffd = uffd_minor_page();
	munmap(three + page_size, page_size);
	/* One good override, so that "unchanged" means something. */
	cmd("%d %p 3\n", getpid(), three);
	snprintf(before, sizeof(before), "%s", slurp(DIR_ "vma"));
	if (!strchr(before, '\n')) {
		result(false, "errors", "no override to start from");
		return;
	}

	/* The grammar of module.rst, one rule each (KUnit has them all). */
	expect_err("errors malformed 'abc'", cmd("abc\n"), EINVAL, before);
	expect_err("errors malformed '1 2'", cmd("1 2\n"), EINVAL, before);
	expect_err("errors empty write", put(DIR_ "vma", "", 0), EINVAL, before);
	expect_err("errors embedded newline",
		   cmd("%d\n %p 1\n", getpid(), three), EINVAL, before);
	expect_err("errors octal address",
		   cmd("%d 0%lo 1\n", getpid(), (unsigned long)three), EINVAL,
		   before);
	expect_err("errors leading +", cmd("+%d %p 1\n", getpid(), three),
		   EINVAL, before);
	expect_err("errors trailing blank", cmd("%d %p 1 \n", getpid(), three),
		   EINVAL, before);
	snprintf(big, sizeof(big), "%d %p 1\n", getpid(), three);
	/* seq_file files refuse pwrite(); a write after a seek is ours. */
	expect_err("errors pwrite at offset 100",
		   put_at(DIR_ "vma", big, 100, false), ESPIPE, before);
	expect_err("errors write at offset 1 after lseek",
		   put_at(DIR_ "vma", big, 1, true), EINVAL, before);
	/* 35 characters: one more than kstrtouint_from_user() reads. */
	expect_err("errors stats 35-character 0...01",
		   put(DIR_ "stats", "00000000000000000000000000000000001", 35),
		   EINVAL, before);
	expect_err("errors stats '1'", put(DIR_ "stats", "1\n", 2), EINVAL,
		   before);
	expect_err("errors order 'x'", put(DIR_ "order", "x\n", 2), EINVAL,
		   before);
	expect_err("errors no such task", cmd("999999 %p 1\n", three), ESRCH,
		   before);
	gone = fork();
	if (!gone)
		_exit(0);
	waitpid(gone, NULL, 0);
	expect_err("errors exited pid", cmd("%d %p 1\n", gone, three), ESRCH,
		   before);
	expect_err("errors pid beyond PID_MAX_LIMIT",
		   cmd("2147483647 %p 1\n", three), EINVAL, before);
	expect_err("errors gap between VMAs",
		   cmd("%d %p 1\n", getpid(), three + page_size), ENOENT, before);
	expect_err("errors anonymous mapping",
		   cmd("%d %p 1\n", getpid(), anon), EINVAL, before);
	expect_never("errors file without ->map_pages (/dev/zero, private)",
		     zero, "cannot map /dev/zero", before);
	expect_never("errors mapping userfaultfd watches (minor faults)",
		     uffd, "cannot register a memfd for minor faults", before);
	expect_err("errors kernel address",
		   cmd("%d 0xffffffff81000000 1\n", getpid()), ENOENT, before);
	expect_err("errors order too large",
		   cmd("%d %p %u\n", getpid(), three, max_order + 1), EINVAL,
		   before);
	memset(big, '1', sizeof(big));
	expect_err("errors 64KiB input", put(DIR_ "vma", big, sizeof(big)),
		   EINVAL, before);
	snprintf(big, sizeof(big), "%d %p", getpid(), three + 2 * page_size);
	err = put(DIR_ "vma", big, strlen(big));
	expect_err("errors write in two pieces", err ? err : put(DIR_ "vma", " 1\n", 3),
		   EINVAL, before);
	expect_err("errors default without override",
		   cmd("%d %p default\n", getpid(), three + 2 * page_size),
		   ENOENT, before);
	expect_err("errors without root", in_child(as_nobody, three), EACCES,
		   before);
	expect_err("errors without CAP_SYS_ADMIN",
		   in_child(without_admin, three), EPERM, before);
	victim = fork();
	if (!victim) {
		if (setgid(65534) || setuid(65534))
			_exit(1);
		pause();
		_exit(0);
	}
	usleep(100000);
	/* The victim's copies of this process's VMAs keep their overrides. */
	snprintf(before, sizeof(before), "%s", slurp(DIR_ "vma"));
	expect_err("errors may not ptrace", in_child(without_ptrace, &victim),
		   EPERM, before);
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);

	/* The limit: 1024 overrides, then -ENOSPC. */
	cmd("clear\n");
	err = 0;
	many = file_vmas(fd, 1025);
	for (i = 0; i < 1024 && many && !err; i++)
		err = cmd("%d %p 1\n", getpid(), many + (2 * i + 1) * page_size);
	snprintf(name, sizeof(name), "errors limit (%d accepted)", i);
	if (err || !many) {
		result(false, name, "override %d failed: %s", i, strerror(err));
	} else {
		snprintf(before, sizeof(before), "%s", slurp(DIR_ "vma"));
		expect_err(name, cmd("%d %p 1\n", getpid(),
				     many + 2049 * page_size), ENOSPC, before);
	}
	cmd("clear\n");
	result(slurp(DIR_ "vma")[0] == '\0', "errors clear", "vma not empty");
	munmap(many, 2 * 1025 * page_size);
	munmap(three, 3 * page_size);
	munmap(anon, page_size);
	if (zero != MAP_FAILED)
		munmap(zero, page_size);
	if (zfd >= 0)
		close(zfd);
	close(fd);
}

/*
 * The rest of the line of the override listed for @pid at [@p, @p +
 * @len), or NULL if there is none, or more than one.
 */
static const char *listed(pid_t pid, const char *p, size_t len)
{
	char key[80];
	const char *s = slurp(DIR_ "vma"), *line, *found = NULL;

	snprintf(key, sizeof(key), "%d %lx-%lx ", pid, (unsigned long)p,
		 (unsigned long)p + len);
	for (line = s; *line; line++) {
		if (!strncmp(line, key, strlen(key))) {
			if (found)
				return NULL;
			found = line + strlen(key);
		}
		line = strchr(line, '\n');
		if (!line)
			break;
	}
	return found;
}

/* @p's listed order for @pid is @order (-1: not listed). */
static bool listed_order(pid_t pid, const char *p, size_t len, int order)
{
	const char *o = listed(pid, p, len);

	return order < 0 ? !o : o && atoi(o) == order;
}

/*
 * Three VMAs of one open file take three orders: override, override,
 * global.  A fork()ed child's copies keep the overrides, as they keep
 * madvise() hints, listed under its pid; its writes are its own.
 */
static void test_three(void)
{
	int fd = make_file("/tmp/fa-three", NPAGES), pipefd[2], status;
	size_t len = NPAGES * page_size;
	char *a = map_aligned(fd, len), *b = map_aligned(fd, len);
	char *c = map_aligned(fd, len);
	long fa, fb, fc, got[4];
	pid_t pid;

	cmd("clear\n");
	set_order(2);
	if (!a || !b || !c || cmd("%d %p 0\n", getpid(), a) ||
	    cmd("%d %p 4\n", getpid(), b) || pipe(pipefd)) {
		result(false, "three", "setup failed: %s", strerror(errno));
		return;
	}
	fa = read_pages(a, NPAGES);
	fb = read_pages(b, NPAGES);
	fc = read_pages(c, NPAGES);
	result(fa == (long)NPAGES && fb == (long)(NPAGES >> 4) &&
	       fc == (long)(NPAGES >> 2),
	       "three VMAs of one open file: orders 0, 4 and the global 2",
	       "%ld, %ld and %ld faults, expected %lu, %lu and %lu", fa, fb,
	       fc, NPAGES, NPAGES >> 4, NPAGES >> 2);
	result(listed_order(getpid(), a, len, 0) &&
	       listed_order(getpid(), b, len, 4) &&
	       listed_order(getpid(), c, len, -1),
	       "three listed: A 0, B 4, C none", "vma: %s", slurp(DIR_ "vma"));

	madvise(a, len, MADV_DONTNEED);
	madvise(b, len, MADV_DONTNEED);
	madvise(c, len, MADV_DONTNEED);
	pid = fork();
	if (!pid) {
		got[0] = read_pages(a, NPAGES);
		got[1] = read_pages(b, NPAGES);
		got[2] = listed_order(getpid(), a, len, 0) &&
			 listed_order(getpid(), b, len, 4) &&
			 listed_order(getpid(), c, len, -1);
		/* The child's own write: its A only. */
		madvise(a, len, MADV_DONTNEED);
		got[3] = cmd("%d %p 4\n", getpid(), a) ? -1 :
			 read_pages(a, NPAGES);
		_exit(write(pipefd[1], got, sizeof(got)) != sizeof(got));
	}
	if (read(pipefd[0], got, sizeof(got)) != sizeof(got))
		got[0] = -1;
	waitpid(pid, &status, 0);
	result(got[0] == (long)NPAGES && got[1] == (long)(NPAGES >> 4),
	       "three fork: the child's copies keep orders 0 and 4",
	       "%ld and %ld faults, expected %lu and %lu", got[0], got[1],
	       NPAGES, NPAGES >> 4);
	result(got[2] == 1, "three fork: listed under the child's pid",
	       "the child did not find A 0, B 4, C none");
	fa = read_pages(a, NPAGES);
	result(got[3] == (long)(NPAGES >> 4) && fa == (long)NPAGES &&
	       listed_order(getpid(), a, len, 0) &&
	       listed_order(pid, a, len, -1),
	       "three fork: the child's write is its own",
	       "child's A %ld faults (expected %lu), parent's %ld (expected %lu); vma: %s",
	       got[3], NPAGES >> 4, fa, NPAGES, slurp(DIR_ "vma"));
	cmd("clear\n");
	set_order(4);
	munmap(a, len);
	munmap(b, len);
	munmap(c, len);
	close(pipefd[0]);
	close(pipefd[1]);
	close(fd);
}

/*
 * An override belongs to its VMA: it follows it through mremap() and a
 * VMA split, and goes with munmap(); a new mapping at the same address
 * inherits nothing.
 */
static void test_mapping(void)
{
	int a = make_file("/tmp/fa-map-a", NPAGES);
	int b = make_file("/tmp/fa-map-b", NPAGES);
	size_t len = NPAGES * page_size;
	char *p = map_aligned(a, len), *q, *where, key[64];
	long faults;

	cmd("clear\n");
	set_order(4);
	if (!p || cmd("%d %p 0\n", getpid(), p)) {
		result(false, "mapping", "setup failed: %s", strerror(errno));
		return;
	}
	/* Split: the second half gains PROT_EXEC, a VMA of its own. */
	mprotect(p + len / 2, len / 2, PROT_READ | PROT_EXEC);
	faults = read_pages(p, NPAGES);
	result(faults == (long)NPAGES, "mapping split keeps the override",
	       "%ld faults, expected %lu (order 0 on both halves)", faults,
	       NPAGES);
	mprotect(p + len / 2, len / 2, PROT_READ);

	/* mremap() to a 2 MiB-aligned place: the override follows. */
	where = map_aligned(b, len);
	munmap(where, len);
	madvise(p, len, MADV_DONTNEED);
	q = mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, where);
	faults = q == MAP_FAILED ? -1 : read_pages(q, NPAGES);
	result(faults == (long)NPAGES, "mapping mremap keeps the override",
	       "%ld faults, expected %lu (order 0)", faults, NPAGES);
	snprintf(key, sizeof(key), " %lx-%lx 0 ", (unsigned long)q,
		 (unsigned long)q + len);
	result(strstr(slurp(DIR_ "vma"), key) != NULL,
	       "mapping mremap listed at the new address", "vma: %s",
	       slurp(DIR_ "vma"));

	/* munmap(), then another file at the same address: no override. */
	munmap(q, len);
	result(slurp(DIR_ "vma")[0] == '\0', "mapping munmap removes the override",
	       "vma still lists: %s", slurp(DIR_ "vma"));
	p = mmap(q, len, PROT_READ, MAP_SHARED | MAP_FIXED, b, 0);
	faults = p == MAP_FAILED ? -1 : read_pages(p, NPAGES);
	result(faults == (long)(NPAGES >> 4),
	       "mapping new file at the same address",
	       "%ld faults, expected %lu (order 4)", faults, NPAGES >> 4);
	munmap(p, len);

	/* The same file again, from the same open file: the override went. */
	p = map_aligned(a, len);
	if (!p || cmd("%d %p 0\n", getpid(), p)) {
		result(false, "mapping", "setup failed: %s", strerror(errno));
		return;
	}
	munmap(p, len);
	p = mmap(p, len, PROT_READ, MAP_SHARED | MAP_FIXED, a, 0);
	faults = p == MAP_FAILED ? -1 : read_pages(p, NPAGES);
	result(faults == (long)(NPAGES >> 4),
	       "mapping same file mapped again",
	       "%ld faults, expected %lu (order 4)", faults, NPAGES >> 4);

	/* MAP_FIXED over an overridden mapping replaces it: no override. */
	if (cmd("%d %p 0\n", getpid(), p))
		result(false, "mapping", "setup failed: %s", strerror(errno));
	p = mmap(p, len, PROT_READ, MAP_SHARED | MAP_FIXED, a, 0);
	result(slurp(DIR_ "vma")[0] == '\0', "mapping MAP_FIXED over it",
	       "vma still lists: %s", slurp(DIR_ "vma"));
	munmap(p, len);
	cmd("clear\n");

	/*
	 * mremap() of half of a VMA splits it and moves one half: both
	 * halves keep the override.  Split first, one override per half,
	 * merged back: the VMA the kernel keeps keeps its own.
	 */
	p = map_aligned(a, 8 * page_size);
	mprotect(p + 4 * page_size, 4 * page_size, PROT_NONE);
	if (!p || cmd("%d %p 0\n", getpid(), p) ||
	    cmd("%d %p 0\n", getpid(), p + 4 * page_size)) {
		result(false, "mapping half", "setup failed: %s", strerror(errno));
		return;
	}
	mprotect(p + 4 * page_size, 4 * page_size, PROT_READ);
	where = map_aligned(b, 4 * page_size);
	munmap(where, 4 * page_size);
	q = mremap(p + 4 * page_size, 4 * page_size, 4 * page_size,
		   MREMAP_MAYMOVE | MREMAP_FIXED, where);
	faults = q == MAP_FAILED ? -1 : read_pages(p, 4) + read_pages(q, 4);
	result(faults == 8, "mapping mremap of half a VMA keeps both overrides",
	       "%ld faults, expected 8 (order 0 on both halves)", faults);
	munmap(p, 4 * page_size);
	munmap(q, 4 * page_size);
	cmd("clear\n");
	close(a);
	close(b);
}

/* A descriptor opened by root, then used by uid 65534: every access fails. */
static void test_handed(void)
{
	static const char *const files[] = { "vma", "stats", "order", "policy" };
	int fd = make_file("/tmp/fa-handed", 16), fds[4], i, status;
	char *p = mmap(NULL, 16 * page_size, PROT_READ, MAP_SHARED, fd, 0);
	char before[4096], order_before[32], path[64];
	pid_t pid;

	cmd("clear\n");
	cmd("%d %p 2\n", getpid(), p);
	snprintf(before, sizeof(before), "%s", slurp(DIR_ "vma"));
	snprintf(order_before, sizeof(order_before), "%s", slurp(DIR_ "order"));
	/*
	 * Root reads one byte of each, so that seq_file holds the rest in
	 * its buffer: the child's read() must be checked even so.
	 */
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), DIR_ "%s", files[i]);
		fds[i] = open(path, O_RDWR);
		if (read(fds[i], path, 1) != 1)
			result(false, "handed", "cannot read %s", files[i]);
	}
	pid = fork();
	if (!pid) {
		/* Each refused access sets one bit of the exit status. */
		static const char *const writes[] = {
			"clear\n", "0\n", "0\n", "adaptive\n",
		};
		char line[128], buf[64];
		int bits = 0;

		if (setgid(65534) || setuid(65534))
			_exit(255);
		snprintf(line, sizeof(line), "%d %p 0\n", getppid(), p);
		for (i = 0; i < 4; i++) {
			bits |= (write(fds[i], writes[i], strlen(writes[i])) < 0 &&
				 errno == EPERM) << (2 * i);
			bits |= (read(fds[i], buf, sizeof(buf)) < 0 &&
				 errno == EPERM) << (2 * i + 1);
			/* seq_lseek() would show the file again. */
			bits |= (lseek(fds[i], 0, SEEK_SET) < 0 &&
				 errno == EPERM) << (10 + i);
		}
		bits |= (write(fds[0], line, strlen(line)) < 0 &&
			 errno == EPERM) << 8;
		snprintf(line, sizeof(line), "%d %p default\n", getppid(), p);
		bits |= (write(fds[0], line, strlen(line)) < 0 &&
			 errno == EPERM) << 9;
		_exit(bits == 0x3fff ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	result(WIFEXITED(status) && !WEXITSTATUS(status),
	       "handed fd: every command, read and lseek refused (EPERM)",
	       "child status %d", status);
	result(!strcmp(before, slurp(DIR_ "vma")) &&
	       !strcmp(order_before, slurp(DIR_ "order")) &&
	       !strcmp(slurp(DIR_ "policy"), "off\n"),
	       "handed fd: nothing changed", "vma %s, order %s, policy %s",
	       slurp(DIR_ "vma"), slurp(DIR_ "order"), slurp(DIR_ "policy"));
	for (i = 0; i < 4; i++)
		close(fds[i]);
	cmd("clear\n");
	munmap(p, 16 * page_size);
	close(fd);
}

/* The owner of an override exits: it is gone, and its pid inherits nothing. */
static void test_exit(void)
{
	int fd = make_file("/tmp/fa-exit", NPAGES), pipefd[2], go[2], status, i;
	char *p = NULL, c, max_was[32];
	long faults = -1;
	pid_t pid;
	FILE *f;

	cmd("clear\n");
	set_order(4);
	/* pipefd: child to parent; go: parent to child. */
	if (pipe(pipefd) || pipe(go))
		return;
	/* Get past the reserved pids, so that pid_max can make one recur. */
	do {
		pid = fork();
		if (!pid)
			_exit(0);
		waitpid(pid, NULL, 0);
	} while (pid > 0 && pid < 310);
	pid = fork();
	if (!pid) {
		p = map_aligned(fd, NPAGES * page_size);
		if (write(pipefd[1], &p, sizeof(p)) != sizeof(p) ||
		    read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(pipefd[0], &p, sizeof(p)) != sizeof(p) ||
	    cmd("%d %p 0\n", pid, p)) {
		result(false, "exit", "setup failed");
		return;
	}
	result(strstr(slurp(DIR_ "vma"), " 0 ") != NULL, "exit override listed",
	       "vma: %s", slurp(DIR_ "vma"));
	if (write(go[1], "x", 1) != 1)
		return;
	waitpid(pid, NULL, 0);
	result(slurp(DIR_ "vma")[0] == '\0', "exit override gone",
	       "vma still lists: %s", slurp(DIR_ "vma"));

	/*
	 * A new process with the same pid, the same mapping at the same place:
	 * with pid_max just above it, pids wrap around to it quickly.
	 */
	snprintf(max_was, sizeof(max_was), "%s", slurp("/proc/sys/kernel/pid_max"));
	f = fopen("/proc/sys/kernel/pid_max", "w");
	if (!f) {
		result(false, "exit pid reuse", "cannot set pid_max");
		return;
	}
	fprintf(f, "%d", pid + 1);
	fclose(f);
	for (i = 0; i < 2000; i++) {
		pid_t q = fork();

		if (!q)
			_exit(0);
		waitpid(q, NULL, 0);
		/* The next fork gets pid once its predecessor is taken. */
		if (q == pid - 1)
			break;
	}
	if (pipe(pipefd))
		return;
	if (!fork()) {
		long n = -1;

		if (getpid() == pid && mmap(p, NPAGES * page_size, PROT_READ,
					   MAP_SHARED | MAP_FIXED, fd, 0) == p)
			n = read_pages(p, NPAGES);
		if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(getpid() == pid ? 0 : 2);
	}
	if (read(pipefd[0], &faults, sizeof(faults)) != sizeof(faults))
		faults = -1;
	wait(&status);
	f = fopen("/proc/sys/kernel/pid_max", "w");
	if (f) {
		fputs(max_was, f);
		fclose(f);
	}
	result(WIFEXITED(status) && !WEXITSTATUS(status) &&
	       faults == (long)(NPAGES >> 4), "exit pid reuse",
	       "new process with pid %d: %ld faults, expected %lu (order 4)",
	       pid, faults, NPAGES >> 4);
	close(fd);
}

/* Load the module again from -k: 0 or the errno. */
static int reload(void)
{
	int mfd = open(module, O_RDONLY), err;

	err = mfd < 0 || syscall(SYS_finit_module, mfd, "", 0) ? errno : 0;
	if (mfd >= 0)
		close(mfd);
	return err;
}

/*
 * After an unload: a new mapping of @fd faults at the global order 4 (a
 * policy left registered would call freed code).  Returns the mapping.
 */
static char *expect_no_policy(int fd, const char *name)
{
	char *q = map_aligned(fd, NPAGES * page_size);
	long faults = q ? read_pages(q, NPAGES) : -1;

	result(faults == (long)(NPAGES >> 4), name,
	       "%ld faults, expected %lu (the global order 4)", faults,
	       NPAGES >> 4);
	return q;
}

struct stress {
	char *p;
	volatile bool stop;
	long rounds;
};

static void *stress_fault(void *arg)
{
	struct stress *st = arg;

	while (!st->stop) {
		madvise(st->p, NPAGES * page_size, MADV_DONTNEED);
		read_pages(st->p, NPAGES);
		__atomic_add_fetch(&st->rounds, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * Unload the module (unless @err) while @st's two threads @t fault, then
 * stop them: 0 or the errno.
 */
static int unload_under(struct stress *st, pthread_t *t, int err)
{
	if (!err && syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK))
		err = errno;
	usleep(200000);
	st->stop = true;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return err;
}

/* Overrides change, then the module goes away, under two faulting threads. */
static void test_stress(void)
{
	int fd = make_file("/tmp/fa-stress", NPAGES), i, err = 0;
	struct stress st = { .p = map_aligned(fd, NPAGES * page_size) };
	pthread_t t[2];

	pthread_create(&t[0], NULL, stress_fault, &st);
	pthread_create(&t[1], NULL, stress_fault, &st);
	for (i = 0; i < 200 && !err; i++) {
		err = cmd("%d %p %d\n", getpid(), st.p, i % (max_order + 1));
		if (!err && i % 3 == 0)
			err = cmd("%d %p default\n", getpid(), st.p);
		if (!err && i % 7 == 0)
			err = cmd("clear\n");
	}
	if (!err)
		err = cmd("%d %p 2\n", getpid(), st.p);
	err = unload_under(&st, t, err);
	result(!err && st.rounds > 0, "stress unload under faults",
	       "%s after %d commands, %ld rounds", err ? strerror(err) : "ok",
	       i, st.rounds);
	err = reload();
	result(!err, "stress reload", "%s: %s", module, strerror(err));
	close(fd);
}

#define FAILSLAB "/sys/kernel/debug/failslab/"

static int failslab(const char *knob, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FAILSLAB "%s", knob);
	return put(path, val, strlen(val));
}

/* The child: every slab allocation it makes fails; then rmmod. */
static int unload_failing(void *arg __attribute__((unused)))
{
	if (put("/proc/self/make-it-fail", "1", 1))
		return 254;
	return syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK) ?
		errno : 0;
}

/*
 * Unload with an override, while every allocation of the unloading task
 * fails: unload must not allocate, and must leave no policy behind (a
 * fault would call freed module code).
 */
static void test_unload(void)
{
	int fd = make_file("/tmp/fa-unload", NPAGES), err;
	char *p = map_aligned(fd, NPAGES * page_size), *q;

	set_order(4);
	if (access(FAILSLAB "probability", W_OK)) {
		result(false, "unload under failslab", "no " FAILSLAB);
		return;
	}
	if (!p || cmd("%d %p 0\n", getpid(), p)) {
		result(false, "unload", "setup failed: %s", strerror(errno));
		return;
	}
	err = failslab("task-filter", "Y") || failslab("ignore-gfp-wait", "N") ||
	      failslab("verbose", "0") || failslab("interval", "1") ||
	      failslab("times", "-1") || failslab("probability", "100");
	err = err ? 253 : in_child(unload_failing, NULL);
	failslab("probability", "0");
	result(!err, "unload under failslab", "rmmod: %s", strerror(err));
	/* Another file mapping, so that no page is cached in page tables. */
	q = expect_no_policy(fd, "unload leaves no policy");
	err = reload();
	if (!err)
		err = cmd("%d %p 1\n", getpid(), q);
	result(!err, "unload then reload and override", "%s", strerror(err));
	cmd("clear\n");
	munmap(p, NPAGES * page_size);
	munmap(q, NPAGES * page_size);
	close(fd);
}

/* The policy file's content, without its newline. */
static const char *policy_now(void)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "%s", slurp(DIR_ "policy"));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int set_policy(const char *s)
{
	return put(DIR_ "policy", s, strlen(s));
}

/*
 * Map and fault @n one-page mappings of @fd, into @maps if not NULL;
 * how many it mapped.
 */
static long map_one_page_each(int fd, long n, char **maps)
{
	char *m;
	long i;

	for (i = 0; fd >= 0 && i < n; i++) {
		/* Pages 0, 2, 4...: never adjacent, so never merged. */
		m = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd,
			 2 * i * page_size);
		if (m == MAP_FAILED)
			break;
		if (maps)
			maps[i] = m;
		read_pages(m, 1);
	}
	return i;
}

/* Switches of the kernel's policy, on and off. */
#define FLIPS	40

struct flipper {
	long flips, errors;
	struct stress *st;	/* the faults it switches under */
};

/*
 * FLIPS switches at least, and on until the faulting threads have done
 * two rounds (a switch takes far less than a round on the debug kernel),
 * 1000 times FLIPS at most.
 */
static void *flip_policy(void *arg)
{
	struct flipper *f = arg;

	for (; (f->flips < FLIPS ||
		__atomic_load_n(&f->st->rounds, __ATOMIC_RELAXED) < 2) &&
	       f->flips < 1000 * FLIPS; f->flips++) {
		const char *v = f->flips & 1 ? "0\n" : "1\n";

		/* The module's file and the sysctl in turn. */
		if (f->flips & 2)
			f->errors += !!put(SYSCTL_ADAPTIVE, v, 2);
		else
			f->errors += !!set_policy(v[0] == '1' ? "adaptive\n" : "off\n");
	}
	return NULL;
}

/* The sysctl's value: 0, 1, or -1 if it cannot be read. */
static int sysctl_adaptive(void)
{
	const char *s = slurp(SYSCTL_ADAPTIVE);

	return s[0] == '0' || s[0] == '1' ? s[0] - '0' : -1;
}

/*
 * Pages fault-around maps ahead (fault_around_mapped) while reading one
 * page per page table of a fresh mapping of @fd, of @pages pages.
 */
static long mapped_ahead_sparse(int fd, size_t pages)
{
	char *q = map_aligned(fd, pages * page_size);
	int vfd = open("/proc/vmstat", O_RDONLY);
	struct fa_counters a, b;
	long faults;

	fa_read_counters(vfd, &a);
	faults = q ? read_every(q, pages, 1UL << max_order) : -1;
	fa_read_counters(vfd, &b);
	if (q)
		munmap(q, pages * page_size);
	close(vfd);
	return faults < 0 || a.mapped < 0 ? -1 : b.mapped - a.mapped;
}

/*
 * The kernel's adaptive policy (vm.fault_around_adaptive) through the
 * module's policy file and the sysctl: both switch and read the one
 * policy, refuse junk without switching it, and the policy does what the
 * kernel's KUnit suite says on real faults, within the global order: a
 * reader in order climbs to it, a sparse reader maps (almost) nothing
 * ahead, an override still wins.  Then (for the debug kernel's checkers
 * in boot-debug) more mappings than any table would hold, switching
 * while two threads fault, and unloading the module with the policy on,
 * which leaves the kernel's policy as it is.  Expectations come from the
 * page-table geometry (-m, log2 of PTRS_PER_PTE).
 */
static void test_adaptive(void)
{
	size_t sparse_pages = 8UL << max_order;
	int fd = make_file("/tmp/fa-adaptive", NPAGES), err;
	int sfd = make_file("/tmp/fa-adaptive-sparse", sparse_pages);
	char *p = map_aligned(fd, NPAGES * page_size), *q, **many;
	long faults, off_ahead, on_ahead, many_n = 5000, i;
	struct stress st = { 0 };
	struct flipper fl = { .st = &st };
	pthread_t t[3];

	cmd("clear\n");
	set_order(4);
	result(!strcmp(policy_now(), "off") && sysctl_adaptive() == 0,
	       "adaptive policy off at load", "policy reads '%s', sysctl %d",
	       policy_now(), sysctl_adaptive());
	off_ahead = mapped_ahead_sparse(sfd, sparse_pages);
	err = set_policy("adaptive\n");
	result(!err && !strcmp(policy_now(), "adaptive") && sysctl_adaptive() == 1,
	       "adaptive policy on, the sysctl agrees", "%s, policy reads '%s', sysctl %d",
	       strerror(err), policy_now(), sysctl_adaptive());
	err = set_policy("sometimes\n");
	result(err == EINVAL && !strcmp(policy_now(), "adaptive"),
	       "adaptive policy refuses junk", "%s, policy reads '%s'",
	       strerror(err), policy_now());
	err = put(SYSCTL_ADAPTIVE, "2\n", 2);
	result(err == EINVAL && sysctl_adaptive() == 1,
	       "adaptive sysctl refuses 2", "%s, sysctl %d", strerror(err),
	       sysctl_adaptive());

	/* In order: up one order a fault from 2 to the global order 4. */
	faults = p ? read_pages(p, NPAGES) : -1;
	result(faults > 0 && faults <= (long)((NPAGES >> 4) + 4),
	       "adaptive sequential read climbs to the global order",
	       "%ld faults for %lu pages, want at most %lu", faults, NPAGES,
	       (NPAGES >> 4) + 4);
	munmap(p, NPAGES * page_size);

	/* One page per page table: down to one page a fault. */
	on_ahead = mapped_ahead_sparse(sfd, sparse_pages);
	result(off_ahead > 0 && on_ahead >= 0 && on_ahead * 4 <= off_ahead,
	       "adaptive sparse read maps a quarter or less ahead",
	       "%ld pages mapped ahead with the policy on, %ld off", on_ahead,
	       off_ahead);

	/*
	 * Every page once, in a shuffled order: far apart, but next to pages
	 * mapped before ever more often, which climbs the window.  Order 0
	 * faults once a page; the window at the global order does not come
	 * down to it.
	 */
	p = map_aligned(fd, NPAGES * page_size);
	faults = p ? read_shuffled(p, NPAGES) : -1;
	result(faults > 0 && faults <= (long)(NPAGES / 2),
	       "adaptive random read of every page climbs",
	       "%ld faults for %lu pages, want at most %lu", faults, NPAGES,
	       NPAGES / 2);
	munmap(p, NPAGES * page_size);

	/* An override wins: order 0, one fault per page. */
	p = map_aligned(fd, NPAGES * page_size);
	err = p ? cmd("%d %p 0\n", getpid(), p) : EINVAL;
	faults = err ? -1 : read_pages(p, NPAGES);
	result(faults == (long)NPAGES, "adaptive: an override wins",
	       "%ld faults, want %lu (order 0)", faults, NPAGES);
	cmd("clear\n");
	munmap(p, NPAGES * page_size);

	/* More mappings than any per-mapping table holds: nothing to hold. */
	many = calloc(many_n, sizeof(*many));
	close(fd);
	fd = make_file("/tmp/fa-adaptive", 2 * many_n);
	i = many ? map_one_page_each(fd, many_n, many) : 0;
	result(i == many_n, "adaptive: 5000 mappings faulted",
	       "%ld of %ld mapped", i, many_n);
	while (i-- > 0)
		munmap(many[i], page_size);
	free(many);
	close(fd);
	fd = make_file("/tmp/fa-adaptive", NPAGES);

	/* Switching, through both doors, while two threads fault. */
	st.p = map_aligned(fd, NPAGES * page_size);
	pthread_create(&t[0], NULL, stress_fault, &st);
	pthread_create(&t[1], NULL, stress_fault, &st);
	pthread_create(&t[2], NULL, flip_policy, &fl);
	pthread_join(t[2], NULL);
	err = put(SYSCTL_ADAPTIVE, "1\n", 2);
	result(!err && !fl.errors && st.rounds > 0 &&
	       !strcmp(policy_now(), "adaptive"),
	       "adaptive switched under faults",
	       "%s; %ld of %ld switches failed, %ld fault rounds, policy '%s'",
	       strerror(err), fl.errors, fl.flips, st.rounds, policy_now());

	/* Unload with the policy on and the faults still running. */
	usleep(100000);
	err = unload_under(&st, t, 0);
	result(!err && st.rounds > 0 && sysctl_adaptive() == 1,
	       "adaptive unload under faults leaves the kernel's policy on",
	       "%s, %ld rounds, sysctl %d", strerror(err), st.rounds,
	       sysctl_adaptive());
	q = map_aligned(fd, NPAGES * page_size);
	faults = q ? read_pages(q, NPAGES) : -1;
	result(faults > 0 && faults <= (long)((NPAGES >> 4) + 4),
	       "adaptive after unload: faults still climb",
	       "%ld faults for %lu pages", faults, NPAGES);
	err = reload();
	result(!err && !strcmp(policy_now(), "adaptive"),
	       "adaptive reload reads the kernel's policy", "%s, policy reads '%s'",
	       strerror(err), policy_now());
	err = put(SYSCTL_ADAPTIVE, "0\n", 2);
	result(!err && !strcmp(policy_now(), "off"), "adaptive off through the sysctl",
	       "%s, policy reads '%s'", strerror(err), policy_now());
	munmap(q, NPAGES * page_size);
	munmap(st.p, NPAGES * page_size);
	close(fd);
	close(sfd);
}

/*
 * The module's baselines for the adaptive policy (make bench
 * POLICY=adaptive): madvise, one page a fault under MADV_RANDOM and the
 * global order otherwise; ramp, readahead's ramp per open file.  Either
 * turns the kernel's policy off; unload takes it away.
 */
static void test_baselines(void)
{
	int fd = make_file("/tmp/fa-baselines", NPAGES), err;
	size_t len = NPAGES * page_size;
	char *p = map_aligned(fd, len);
	long faults;

	set_order(4);
	err = set_policy("adaptive\n") ?: set_policy("madvise\n");
	result(!err && !strcmp(policy_now(), "madvise") && sysctl_adaptive() == 0,
	       "baseline madvise on, the kernel's policy off",
	       "%s, policy reads '%s', sysctl %d", strerror(err), policy_now(),
	       sysctl_adaptive());
	err = p && madvise(p, len, MADV_RANDOM) ? errno : 0;
	faults = p && !err ? read_pages(p, NPAGES) : -1;
	result(faults == (long)NPAGES, "baseline madvise: MADV_RANDOM, one page a fault",
	       "%s, %ld faults, want %lu", strerror(err), faults, NPAGES);
	munmap(p, len);
	p = map_aligned(fd, len);
	faults = p ? read_pages(p, NPAGES) : -1;
	result(faults == (long)(NPAGES >> 4), "baseline madvise: no hint, the global order",
	       "%ld faults, want %lu", faults, NPAGES >> 4);
	munmap(p, len);

	/* 4 pages, 8, then the global order's 16. */
	err = set_policy("ramp\n");
	p = map_aligned(fd, len);
	faults = !err && p ? read_pages(p, NPAGES) : -1;
	result(faults > 0 && faults <= (long)((NPAGES >> 4) + 2),
	       "baseline ramp: a reader in order ramps to the global order",
	       "%s, %ld faults for %lu pages, want at most %lu", strerror(err),
	       faults, NPAGES, (NPAGES >> 4) + 2);
	munmap(p, len);
	err = set_policy("rampant\n");
	result(err == EINVAL && !strcmp(policy_now(), "ramp"),
	       "baseline: a policy of no such name is refused",
	       "%s, policy reads '%s'", strerror(err), policy_now());

	/* Unload with a baseline on: its hook goes, the order is global. */
	err = syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK) ? errno : 0;
	p = map_aligned(fd, len);
	faults = !err && p ? read_pages(p, NPAGES) : -1;
	result(faults == (long)(NPAGES >> 4) && sysctl_adaptive() == 0,
	       "baseline unloaded: the global order again",
	       "%s, %ld faults, want %lu", strerror(err), faults, NPAGES >> 4);
	munmap(p, len);
	err = reload();
	result(!err && !strcmp(policy_now(), "off"), "baseline: a reload starts off",
	       "%s, policy reads '%s'", strerror(err), policy_now());
	close(fd);
}

/* read() of @path: 0 or the errno, and the text in @buf. */
static int read_err(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY), err = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		err = errno;
	buf[n < 0 ? 0 : n] = '\0';
	close(fd);
	return err;
}

/* The listing, as this process reads it: 1 if refused with EPERM. */
static int listings_refused(void *arg __attribute__((unused)))
{
	char buf[4096];

	drop_cap(CAP_SYS_PTRACE);
	return read_err(DIR_ "vma", buf, sizeof(buf)) == EPERM;
}

/* True if every line of @s is of process @pid. */
static bool only_of(const char *s, long pid)
{
	const char *l;
	long lpid;

	for (l = s; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "")
		if (sscanf(l, "%ld", &lpid) != 1 || lpid != pid)
			return false;
	return true;
}

/*
 * In a child pid namespace (as its init): 0 if the listing reads and
 * lists nothing of the processes outside it, else 1.  Its own process
 * (pid 1 there) inherited the test's VMAs, overrides included, so vma
 * must list them.
 */
static int listings_in_child_ns(void *arg __attribute__((unused)))
{
	char vma[4096];
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWPID))
		return 128;
	pid = fork();
	if (!pid)
		_exit(read_err(DIR_ "vma", vma, sizeof(vma)) || !vma[0] ||
		      !only_of(vma, 1));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 129;
	return WEXITSTATUS(status);
}

/*
 * The listing's rule: CAP_SYS_PTRACE besides CAP_SYS_ADMIN, and only the
 * processes in the reader's pid namespace.
 */
static void test_listing(void)
{
	int fd = make_file("/tmp/fa-listing", 64);
	char *p = mmap(NULL, 64 * page_size, PROT_READ, MAP_SHARED, fd, 0);
	int err, got;

	cmd("clear\n");
	err = cmd("%d %p 2\n", getpid(), p);
	result(!err && hits_of(p) >= 0, "listing: lists this process to root",
	       "%s; vma '%s'", strerror(err), slurp(DIR_ "vma"));
	got = in_child(listings_refused, NULL);
	result(got == 1, "listing: refused without CAP_SYS_PTRACE (EPERM)",
	       "refused: %s", got ? "yes" : "no");
	got = in_child(listings_in_child_ns, NULL);
	if (got > 1)
		result(false, "listing", "no child pid namespace (%d)", got);
	else
		result(!got, "listing: lists nothing outside a child pid namespace",
		       "listed or failed");
	cmd("clear\n");
	munmap(p, 64 * page_size);
	close(fd);
}

/* The statistics the module counts itself (not the kernel's vmstat). */
static void own_stats(char *buf, size_t len)
{
	const char *s = slurp(DIR_ "stats"), *l;
	size_t n = 0;

	buf[0] = '\0';
	for (l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, "fault_around", 12) && n < len)
			n += snprintf(buf + n, len - n, "%.*s\n",
				      (int)strcspn(l, "\n"), l);
}

/* The child: first writes, every slab allocation failing half the time. */
static int failing_sets(void *arg)
{
	int i;

	if (put("/proc/self/make-it-fail", "1", 1))
		return 254;
	for (i = 0; i < 20; i++)
		if (!cmd("%d %p 3\n", getppid(), arg)) {
			/*
			 * clear must not fail, and its buffer is a slab
			 * object; opening make-it-fail allocates one too.
			 */
			for (i = 0; put("/proc/self/make-it-fail", "0", 1); i++)
				if (i == 1000)
					return 254;
			return cmd("clear\n") ? 253 : 255;
		}
	return 0;
}

/*
 * First writes that fail under slab fault injection, with faults in
 * flight: none may move the statistics (a policy registered for a
 * moment would count those faults).  A round where a write succeeded
 * moved them rightly, and is not counted.
 */
static void test_failed_set(void)
{
	int fd = make_file("/tmp/fa-failed", NPAGES), round, clean = 0, moved = 0;
	struct stress st = { .p = map_aligned(fd, NPAGES * page_size) };
	char before[4096], after[4096];
	pthread_t t;

	cmd("clear\n");
	if (failslab("task-filter", "Y") || failslab("ignore-gfp-wait", "N") ||
	    failslab("verbose", "0") || failslab("interval", "1") ||
	    failslab("times", "-1") || failslab("probability", "50")) {
		result(false, "failed first writes", "no " FAILSLAB);
		return;
	}
	pthread_create(&t, NULL, stress_fault, &st);
	for (round = 0; round < 20; round++) {
		int got;

		own_stats(before, sizeof(before));
		got = in_child(failing_sets, st.p);
		own_stats(after, sizeof(after));
		if (got == 255)
			continue;
		if (got) {
			moved = -got;
			break;
		}
		clean++;
		if (strcmp(before, after)) {
			moved++;
			break;
		}
	}
	failslab("probability", "0");
	st.stop = true;
	pthread_join(t, NULL);
	if (moved < 0)
		result(false, "failed first writes", "child failed (%d)", -moved);
	else
		result(clean && !moved, "failed first writes change no statistics",
		       "%d of %d rounds of 20 failed writes moved them; before:\n%s\nafter:\n%s",
		       moved, clean, before, after);
	cmd("clear\n");
	munmap(st.p, NPAGES * page_size);
	close(fd);
}

#define LOCKDOWN "/sys/kernel/security/lockdown"
#define SYSCTL_BYTES "/proc/sys/vm/fault_around_bytes"

/*
 * Lockdown raised while a file is open: its writes are refused (debugfs
 * checks only at open), and nothing changes.  Loads the module itself,
 * and leaves the guest locked down: init runs it last.
 */
/*
 * The child: split its copy of an overridden VMA (order 0) 60 times while
 * half of its kmalloc-64 allocations (the module's copies) fail, and
 * merge it back.  Bits: 1 a split failed, which the module must never
 * make it do; 2 both halves kept the override; 8 a half lost it and
 * overrides_uncopied counted it; 4 a half lost it uncounted, or another
 * error.
 */
static int failing_splits(void *arg)
{
	int fail = open("/proc/self/make-it-fail", O_WRONLY), bits = 0, i, r;
	size_t half = NPAGES / 2 * page_size;
	long lost, faults;
	char *p = arg;

	if (fail < 0)
		return 254;
	for (i = 0; i < 60; i++) {
		lost = stat_of("overrides_uncopied");
		/* Only the split fails: the rest here allocates too. */
		if (pwrite(fail, "1", 1, 0) != 1)
			return 254;
		r = mprotect(p + half, half, PROT_READ | PROT_EXEC);
		if (pwrite(fail, "0", 1, 0) != 1)
			return 254;
		if (r) {
			bits |= errno == ENOMEM ? 1 : 4;
			continue;
		}
		madvise(p, 2 * half, MADV_DONTNEED);
		faults = read_pages(p, NPAGES);
		if (faults == (long)NPAGES)
			bits |= 2;
		else if (stat_of("overrides_uncopied") == lost + 1)
			bits |= 8;
		else
			bits |= 4;
		mprotect(p + half, half, PROT_READ);
		/* A half that lost it: the override again, on the whole. */
		cmd("%d %p 0\n", getpid(), p);
	}
	return bits;
}

/*
 * A VMA copy never fails for the module: with its copies failing, a
 * split succeeds and the half that could not get the override is
 * counted.
 */
static void test_dupfail(void)
{
	int fd = make_file("/tmp/fa-dupfail", NPAGES), got;
	char *p = map_aligned(fd, NPAGES * page_size);

	cmd("clear\n");
	set_order(4);
	/* struct mfa_override is 48 bytes on 64-bit: kmalloc-64. */
	if (!p || cmd("%d %p 0\n", getpid(), p) ||
	    put("/sys/kernel/slab/kmalloc-64/failslab", "1", 1) ||
	    failslab("cache-filter", "Y") ||
	    failslab("task-filter", "Y") || failslab("ignore-gfp-wait", "N") ||
	    failslab("verbose", "0") || failslab("interval", "1") ||
	    failslab("times", "-1") || failslab("probability", "50")) {
		result(false, "dupfail", "setup failed: %s", strerror(errno));
		return;
	}
	got = in_child(failing_splits, p);
	failslab("probability", "0");
	failslab("cache-filter", "N");
	put("/sys/kernel/slab/kmalloc-64/failslab", "0", 1);
	result(got == (2 | 8),
	       "dupfail: with its copies failing, splits succeed and the half without the override is counted",
	       "%s%s%s%s(status %d)", got & 1 ? "a split failed (ENOMEM); " : "",
	       got & 2 ? "" : "none kept the override; ",
	       got & 8 ? "" : "none lost it; ",
	       got & 4 ? "a half lost it uncounted, or another errno; " : "",
	       got);
	cmd("clear\n");
	munmap(p, NPAGES * page_size);
	close(fd);
}

struct share {
	const char *p;
	size_t pages;
	long faults;
};

static void *read_share(void *arg)
{
	struct share *s = arg;

	s->faults = read_pages(s->p, s->pages);
	return NULL;
}

/*
 * 1, 2 and 8 threads read one mapping at once with the kernel's adaptive
 * policy on, each its own contiguous share in order: one state for all
 * of them (the open file's), which still maps around (fewer faults than
 * pages), under the debug kernel's checkers.
 */
static void test_threads(void)
{
	static const int counts[] = { 1, 2, 8 };
	int fd = make_file("/tmp/fa-threads", NPAGES), i, j, n;
	size_t len = NPAGES * page_size;
	struct share sh[8];
	pthread_t t[8];
	char name[96];
	long total;
	char *p;

	cmd("clear\n");
	if (set_policy("adaptive\n")) {
		result(false, "threads", "policy: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 3; i++) {
		n = counts[i];
		p = map_aligned(fd, len);
		for (j = 0; p && j < n; j++) {
			sh[j] = (struct share){ p + j * len / n, NPAGES / n, -1 };
			pthread_create(&t[j], NULL, read_share, &sh[j]);
		}
		for (total = 0, j = 0; p && j < n; j++) {
			pthread_join(t[j], NULL);
			total += sh[j].faults;
		}
		snprintf(name, sizeof(name),
			 "threads: %d on one adaptive mapping, maps around", n);
		result(p && total > 0 && total < (long)NPAGES, name,
		       "%ld faults for %lu pages", total, NPAGES);
		if (p)
			munmap(p, len);
	}
	set_policy("off\n");
	close(fd);
}

#define STALL_DIR	"/tmp/fa-stall"

/* Wait up to @ms for child @pid: its wait status, or -1 if it still runs. */
static int wait_ms(pid_t pid, int ms)
{
	int status;

	for (; ms > 0; ms -= 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	return -1;
}

static void *read_own_mem(void *map)
{
	char c;
	int fd = open("/proc/self/mem", O_RDONLY);

	return (void *)(long)pread(fd, &c, 1, (off_t)(unsigned long)map);
}

/*
 * The target: a thread reads its own memory over a mapping of the
 * stalling FUSE file, which holds its mmap lock; then the main thread
 * sends the address and queues for the lock for writing, so that every
 * later reader of this mm waits too.
 */
static void stall_target(int out)
{
	int fd = open(STALL_DIR "/f", O_RDONLY);
	char *map = fd < 0 ? MAP_FAILED :
		mmap(NULL, page_size, PROT_READ, MAP_PRIVATE, fd, 0);
	pthread_t t;

	if (map == MAP_FAILED)
		_exit(1);
	pthread_create(&t, NULL, read_own_mem, map);
	usleep(200000);
	if (write(out, &map, sizeof(map)) != sizeof(map))
		_exit(1);
	usleep(200000);
	mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	_exit(0);
}

/* A set and its removal on a mapping of this (child) process. */
static int set_own(void *arg __attribute__((unused)))
{
	int fd = make_file("/tmp/fa-stall-own", 16), err;
	char *p = fd < 0 ? MAP_FAILED :
		mmap(NULL, 16 * page_size, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return 253;
	err = cmd("%d %p 2\n", getpid(), p);
	return err ? err : cmd("%d %p default\n", getpid(), p);
}

/*
 * A target that stalls its own mmap lock (the FUSE read above) stalls a
 * write about it, and nothing else: another process's set and removal
 * complete meanwhile, and the stalled write dies when killed.  Each wait
 * is bounded: a write stuck behind the stalled one fails the test
 * instead of hanging it, and killing the server frees them all.
 */
static void test_stall(void)
{
	pid_t server, target = -1, stalled = -1, other = -1;
	int pipefd[2] = { -1, -1 }, status;
	char *map = NULL;

	server = fuse_stall_mount(STALL_DIR);
	if (server < 0) {
		result(false, "stall", "FUSE mount: %s", strerror(errno));
		return;
	}
	if (pipe(pipefd) == 0)
		target = fork();
	if (target == 0) {
		close(pipefd[0]);
		stall_target(pipefd[1]);
	}
	close(pipefd[1]);
	if (target < 0 || read(pipefd[0], &map, sizeof(map)) != sizeof(map)) {
		result(false, "stall", "no target");
		goto out;
	}
	usleep(400000);
	stalled = fork();
	if (stalled == 0)
		_exit(cmd("%d %p 2\n", target, map));
	/* Else the target's lock was not stalled and nothing is tested. */
	status = wait_ms(stalled, 1000);
	result(status == -1, "stall: a write about a stalled target waits",
	       "it ended (status %#x)", status);
	other = fork();
	if (other == 0)
		_exit(set_own(NULL));
	status = wait_ms(other, 5000);
	result(status != -1 && WIFEXITED(status) && !WEXITSTATUS(status),
	       "stall: another process's set and removal complete meanwhile",
	       status == -1 ? "still waiting after 5 s" : "status %#x", status);
	if (status != -1)
		other = -1;
	kill(stalled, SIGKILL);
	status = wait_ms(stalled, 5000);
	result(status != -1 && WIFSIGNALED(status),
	       "stall: the stalled write dies when killed",
	       status == -1 ? "still waiting 5 s after SIGKILL" : "status %#x",
	       status);
	if (status != -1)
		stalled = -1;
out:
	fuse_stall_unmount(STALL_DIR, server);
	if (target > 0) {
		kill(target, SIGKILL);
		waitpid(target, NULL, 0);
	}
	if (stalled > 0)
		waitpid(stalled, NULL, 0);
	if (other > 0)
		waitpid(other, NULL, 0);
	close(pipefd[0]);
	cmd("clear\n");
}

static void test_lockdown(void)
{
	char before[4096];
	int fd, err;

	err = reload();
	if (err && err != EEXIST) {
		result(false, "lockdown", "%s: %s", module, strerror(err));
		return;
	}
	fd = open(DIR_ "order", O_RDWR);
	/* debugfs opens nothing writable once locked down: read the sysctl. */
	snprintf(before, sizeof(before), "%s", slurp(SYSCTL_BYTES));
	if (fd < 0 || put(LOCKDOWN, "integrity", 9)) {
		result(false, "lockdown", "cannot open order or raise %s: %s",
		       LOCKDOWN, strerror(errno));
		return;
	}
	err = write(fd, "1\n", 2) < 0 ? errno : 0;
	result(err == EPERM && !strcmp(before, slurp(SYSCTL_BYTES)),
	       "lockdown raised after open: writes refused (EPERM), order kept",
	       "write: %s; fault_around_bytes %s, was %s",
	       err ? strerror(err) : "accepted", slurp(SYSCTL_BYTES), before);
	close(fd);
	err = syscall(SYS_delete_module, "mod_faultaround", O_NONBLOCK) ?
		errno : 0;
	result(!err, "lockdown: unload", "%s", strerror(err));
}

static const struct {
	const char *name;
	void (*fn)(void);
	bool named;	/* only when named on the command line */
} tests[] = {
	{ "ab", test_ab, false },
	{ "errors", test_errors, false },
	{ "mapping", test_mapping, false },
	{ "three", test_three, false },
	{ "handed", test_handed, false },
	{ "listing", test_listing, false },
	{ "exit", test_exit, false },
	{ "stress", test_stress, false },
	{ "unload", test_unload, false },
	{ "failed", test_failed_set, false },
	{ "dupfail", test_dupfail, false },
	{ "threads", test_threads, false },
	{ "stall", test_stall, false },
	{ "adaptive", test_adaptive, false },
	{ "baselines", test_baselines, false },
	{ "lockdown", test_lockdown, true },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int opt, a, ran = 0;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "m:k:")) != -1) {
		if (opt == 'm') {
			if (parse_order(optarg, &max_order))
				return 2;
		} else if (opt == 'k')
			module = optarg;
		else
			return 2;
	}
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		bool want = optind == argc && !tests[i].named;

		for (a = optind; a < argc; a++)
			want |= !strcmp(argv[a], tests[i].name);
		if (want) {
			time_t start = time(NULL);

			tests[i].fn();
			ran++;
			/* On stderr, the guest's console: where the time goes. */
			fprintf(stderr, "time: fa-modtest %s %llds\n",
				tests[i].name, (long long)(time(NULL) - start));
		}
	}
	if (!ran)
		printf("FAIL setup: no such test\n");
	return ran ? failures : 1;
}
