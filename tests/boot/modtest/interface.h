/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-modtest's tests of the module's interface: ab (two mappings,
 * their orders and counts), errors (every refused input leaves all as
 * it was), handed (a descriptor root opened, used by another user) and
 * listing (who may see whose overrides).
 * Static functions, in fa-modtest.c's one translation unit.
 */
#ifndef FA_MODTEST_INTERFACE_H
#define FA_MODTEST_INTERFACE_H

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

#endif /* FA_MODTEST_INTERFACE_H */
