/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A FUSE file system whose one file is never read: the server answers
 * what opening and mapping the file need and leaves every FUSE_READ
 * unanswered.  A read of /proc/<pid>/mem over a mapping of that file
 * then holds the process's mmap lock for as long as the server lives,
 * as any unprivileged process that serves FUSE can (no retry without
 * the lock on that path: remote access faults without a way to drop
 * it).  Killing the server aborts the connection and frees the reader.
 */
#ifndef FA_FUSE_STALL_H
#define FA_FUSE_STALL_H

#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUSE_STALL_NODE		2
#define FUSE_STALL_SIZE		(1UL << 20)

/* A reply: the header, then @len bytes of @body unless it is an error. */
static void fuse_stall_reply(int fd, uint64_t unique, int error,
			     const void *body, size_t len)
{
	struct fuse_out_header h = {
		.len = sizeof(h) + (error ? 0 : len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ &h, sizeof(h) },
		{ (void *)body, error ? 0 : len },
	};

	if (writev(fd, iov, 2) < 0)
		_exit(1);
}

static void fuse_stall_attr(struct fuse_attr *a, uint64_t node)
{
	memset(a, 0, sizeof(*a));
	a->ino = node;
	a->nlink = 1;
	if (node == FUSE_ROOT_ID) {
		a->mode = S_IFDIR | 0755;
	} else {
		a->mode = S_IFREG | 0444;
		a->size = FUSE_STALL_SIZE;
		a->blocks = FUSE_STALL_SIZE / 512;
	}
}

/* The server's loop: it ends when the connection does. */
static void fuse_stall_serve(int fd)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536];
	struct fuse_in_header *in = (struct fuse_in_header *)buf;

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < (ssize_t)sizeof(*in))
			_exit(0);
		switch (in->opcode) {
		case FUSE_INIT: {
			struct fuse_init_out out = {
				.major = FUSE_KERNEL_VERSION,
				.minor = FUSE_KERNEL_MINOR_VERSION,
				.max_write = 4096,
				.max_background = 1,
			};

			fuse_stall_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out out = {
				.nodeid = FUSE_STALL_NODE,
				.entry_valid = 3600,
				.attr_valid = 3600,
			};

			if (strcmp(buf + sizeof(*in), "f")) {
				fuse_stall_reply(fd, in->unique, -ENOENT, NULL, 0);
				break;
			}
			fuse_stall_attr(&out.attr, FUSE_STALL_NODE);
			fuse_stall_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out out = { .attr_valid = 3600 };

			fuse_stall_attr(&out.attr, in->nodeid);
			fuse_stall_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_OPEN: {
			struct fuse_open_out out = { 0 };

			fuse_stall_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_READ:		/* never answered: the point */
		case FUSE_FORGET:	/* these two take no answer */
		case FUSE_BATCH_FORGET:
			break;
		default:
			fuse_stall_reply(fd, in->unique, -ENOSYS, NULL, 0);
		}
	}
}

/*
 * Mount the file system on @dir (made if need be) with its server in a
 * child; the pid of the server, or -1 with errno set.
 */
static pid_t fuse_stall_mount(const char *dir)
{
	char opts[128];
	pid_t pid;
	int fd;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (mount("fa-stall", dir, "fuse", MS_NOSUID | MS_NODEV, opts)) {
		close(fd);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		fuse_stall_serve(fd);
	/* The server holds the only descriptor: its death aborts the connection. */
	close(fd);
	if (pid < 0)
		umount2(dir, MNT_DETACH);
	return pid;
}

/* Kill the server (which frees every stalled reader) and unmount. */
static void fuse_stall_unmount(const char *dir, pid_t server)
{
	kill(server, SIGKILL);
	waitpid(server, NULL, 0);
	umount2(dir, MNT_DETACH);
}

#endif /* FA_FUSE_STALL_H */
