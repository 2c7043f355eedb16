// SPDX-License-Identifier: GPL-2.0
/*
 * The grammar of what the module's files accept, exactly as
 * Documentation/module.rst gives it.  A write is parsed whole before
 * anything is looked up or locked, so a malformed one changes nothing.
 */
#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "faultaround.h"

#define MFA_MAX_TOKENS	3

static bool mfa_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A decimal number: digits only, no sign, no leading zero (so that
 * nobody mistakes "010" for octal).
 */
static int mfa_decimal(const char *s, unsigned long *val, const char **why)
{
	const char *p;

	for (p = s; *p; p++) {
		if (!isdigit(*p)) {
			*why = "a number has a character that is not a digit";
			return -EINVAL;
		}
	}
	if (s[0] == '0' && s[1]) {
		*why = "a decimal number starts with 0";
		return -EINVAL;
	}
	if (kstrtoul(s, 10, val)) {
		*why = "a number is too large";
		return -EINVAL;
	}
	return 0;
}

/* An address: decimal, or "0x" and hexadecimal digits. */
static int mfa_address(const char *s, unsigned long *val, const char **why)
{
	const char *p;

	if (s[0] != '0' || s[1] != 'x')
		return mfa_decimal(s, val, why);
	if (!s[2]) {
		*why = "an address has no digits after 0x";
		return -EINVAL;
	}
	for (p = s + 2; *p; p++) {
		if (!isxdigit(*p)) {
			*why = "an address has a character that is not a hexadecimal digit";
			return -EINVAL;
		}
	}
	if (kstrtoul(s + 2, 16, val)) {
		*why = "an address is too large";
		return -EINVAL;
	}
	return 0;
}

/*
 * Copy @buf (at most MFA_CMD_MAX_LEN bytes; @copy has room for one more)
 * to @copy as a string without its one optional trailing newline,
 * refusing what no command contains: NUL bytes, other control characters
 * (newlines among them), leading or trailing blanks.
 */
static int mfa_line(const char *buf, size_t len, char *copy, const char **why)
{
	size_t i;

	if (len > MFA_CMD_MAX_LEN) {
		*why = "longer than a command can be";
		return -EINVAL;
	}
	if (len && buf[len - 1] == '\n')
		len--;
	if (!len) {
		*why = "empty";
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (buf[i] != '\t' && iscntrl(buf[i])) {
			*why = "a control character (a newline not at the end, or a NUL)";
			return -EINVAL;
		}
	}
	if (mfa_blank(buf[0]) || mfa_blank(buf[len - 1])) {
		*why = "a blank at the start or the end";
		return -EINVAL;
	}
	memcpy(copy, buf, len);
	copy[len] = '\0';
	return 0;
}

/**
 * mfa_parse_cmd - parse one command written to "vma"
 * @buf: the command; need not be NUL-terminated
 * @len: its length
 * @max_order: the largest order accepted
 * @cmd: the parsed command
 * @why: set to the rule that a rejected command breaks
 *
 * Accepts "clear", "<pid> <address> <order>" and "<pid> <address> default",
 * with one optional trailing newline.  Fields are separated by spaces or
 * tabs, with nothing before the first or after the last.  The pid is a
 * positive decimal number, the address decimal or 0x and hexadecimal, the
 * order decimal; no decimal number has a leading zero.
 *
 * Return: 0, or -EINVAL for anything else.
 */
int mfa_parse_cmd(const char *buf, size_t len, unsigned int max_order,
		  struct mfa_cmd *cmd, const char **why)
{
	char copy[MFA_CMD_MAX_LEN + 1], *tok[MFA_MAX_TOKENS], *s = copy, *t;
	unsigned long val;
	int n = 0, err;

	err = mfa_line(buf, len, copy, why);
	if (err)
		return err;
	while ((t = strsep(&s, " \t"))) {
		if (!*t)
			continue;
		if (n == MFA_MAX_TOKENS) {
			*why = "more than three fields";
			return -EINVAL;
		}
		tok[n++] = t;
	}
	if (n == 1 && !strcmp(tok[0], "clear")) {
		cmd->type = MFA_CMD_CLEAR;
		return 0;
	}
	if (n != 3) {
		*why = "not 'clear', nor three fields";
		return -EINVAL;
	}
	err = mfa_decimal(tok[0], &val, why);
	if (err)
		return err;
	if (!val || val > PID_MAX_LIMIT) {
		*why = "a pid is 0 or larger than PID_MAX_LIMIT";
		return -EINVAL;
	}
	cmd->pid = val;
	err = mfa_address(tok[1], &cmd->addr, why);
	if (err)
		return err;
	if (!strcmp(tok[2], "default")) {
		cmd->type = MFA_CMD_DEFAULT;
		return 0;
	}
	err = mfa_parse_uint(tok[2], strlen(tok[2]), max_order, &cmd->order,
			     why);
	if (err)
		return err;
	cmd->type = MFA_CMD_SET;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_parse_cmd);

/**
 * mfa_parse_uint - parse a decimal number no larger than @max
 * @buf: the number, with one optional trailing newline
 * @len: its length
 * @max: the largest number accepted
 * @val: the number
 * @why: set to the rule that a rejected number breaks
 *
 * The same decimal numbers as mfa_parse_cmd(): for "order" and "stats".
 *
 * Return: 0, or -EINVAL.
 */
int mfa_parse_uint(const char *buf, size_t len, unsigned int max,
		   unsigned int *val, const char **why)
{
	char copy[MFA_CMD_MAX_LEN + 1];
	unsigned long v;
	int err;

	err = mfa_line(buf, len, copy, why);
	if (err)
		return err;
	err = mfa_decimal(copy, &v, why);
	if (err)
		return err;
	if (v > max) {
		*why = "a number is larger than allowed (for an order: a page table)";
		return -EINVAL;
	}
	*val = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_parse_uint);

const char *const mfa_policy_names[] = {
	[MFA_POLICY_OFF] = "off",
	[MFA_POLICY_ADAPTIVE] = "adaptive",
	[MFA_POLICY_MADVISE] = "madvise",
	[MFA_POLICY_RAMP] = "ramp",
};
EXPORT_SYMBOL_IF_KUNIT(mfa_policy_names);

/**
 * mfa_parse_policy - parse what is written to "policy"
 * @buf: a name of mfa_policy_names, with one optional trailing newline
 * @len: its length
 * @policy: set to the policy named
 * @why: set to the rule that a rejected write breaks
 *
 * Return: 0, or -EINVAL for anything else.
 */
int mfa_parse_policy(const char *buf, size_t len, enum mfa_policy *policy,
		     const char **why)
{
	char copy[MFA_CMD_MAX_LEN + 1];
	int err, i;

	err = mfa_line(buf, len, copy, why);
	if (err)
		return err;
	i = match_string(mfa_policy_names, ARRAY_SIZE(mfa_policy_names), copy);
	if (i >= 0) {
		*policy = i;
		return 0;
	}
	*why = "a policy is 'off', 'adaptive', 'madvise' or 'ramp'";
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(mfa_parse_policy);
