/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fa-modtest's helpers: the module's files, the fault counts, a child
 * process, and loading, unloading and policy switching that several
 * groups of tests share.
 * Static functions, in fa-modtest.c's one translation unit.
 */
#ifndef FA_MODTEST_UTIL_H
#define FA_MODTEST_UTIL_H

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

/* Load the module again from -k: 0 or the errno. */
static int reload(void)
{
	int mfd = open(module, O_RDONLY), err;

	err = mfd < 0 || syscall(SYS_finit_module, mfd, "", 0) ? errno : 0;
	if (mfd >= 0)
		close(mfd);
	return err;
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

#define FAILSLAB "/sys/kernel/debug/failslab/"

static int failslab(const char *knob, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FAILSLAB "%s", knob);
	return put(path, val, strlen(val));
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

/* The sysctl's value: 0, 1, or -1 if it cannot be read. */
static int sysctl_adaptive(void)
{
	const char *s = slurp(SYSCTL_ADAPTIVE);

	return s[0] == '0' || s[0] == '1' ? s[0] - '0' : -1;
}

#endif /* FA_MODTEST_UTIL_H */
