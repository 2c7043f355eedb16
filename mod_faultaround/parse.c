// SPDX-License-Identifier: GPL-2.0
/*
 * The "vma" command parser.  It sees the whole command before anything
 * is looked up or locked, so a malformed write changes nothing.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "faultaround.h"

#define FA_MAX_TOKENS	4

/* Split @s in place on spaces and tabs; return the number of tokens. */
static int fa_split(char *s, char **tok)
{
	int n = 0;
	char *t;

	while ((t = strsep(&s, " \t"))) {
		if (!*t)
			continue;
		if (n == FA_MAX_TOKENS)
			return -EINVAL;
		tok[n++] = t;
	}
	return n;
}

/**
 * fa_parse_cmd - parse one command written to "vma"
 * @buf: the command; need not be NUL-terminated
 * @len: its length, at most FA_CMD_MAX_LEN
 * @max_order: the largest order accepted
 * @cmd: the parsed command
 *
 * Accepts "clear", "<pid> <address> <order>" and "<pid> <address> default",
 * with one optional trailing newline.  The pid is a positive decimal
 * number, the address is decimal or 0x-prefixed hexadecimal, the order is
 * decimal.
 *
 * Return: 0, or -EINVAL for anything else.
 */
int fa_parse_cmd(const char *buf, size_t len, unsigned int max_order,
		 struct fa_cmd *cmd)
{
	char copy[FA_CMD_MAX_LEN + 1], *tok[FA_MAX_TOKENS];
	int n, pid;

	if (!len || len > FA_CMD_MAX_LEN || memchr(buf, '\0', len))
		return -EINVAL;
	memcpy(copy, buf, len);
	copy[len] = '\0';
	if (copy[len - 1] == '\n')
		copy[len - 1] = '\0';

	n = fa_split(copy, tok);
	if (n == 1 && !strcmp(tok[0], "clear")) {
		cmd->type = FA_CMD_CLEAR;
		return 0;
	}
	if (n != 3)
		return -EINVAL;
	if (kstrtoint(tok[0], 10, &pid) || pid <= 0)
		return -EINVAL;
	if (kstrtoul(tok[1], 0, &cmd->addr))
		return -EINVAL;
	cmd->pid = pid;
	if (!strcmp(tok[2], "default")) {
		cmd->type = FA_CMD_DEFAULT;
		return 0;
	}
	if (kstrtouint(tok[2], 10, &cmd->order) || cmd->order > max_order)
		return -EINVAL;
	cmd->type = FA_CMD_SET;
	return 0;
}
