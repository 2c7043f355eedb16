/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit cases for the grammar of what the files accept (parse.c), one
 * case per rule.  Included by test.c, the suite's one module, as DAMON's
 * unit tests are by their files.
 */
#ifndef _MFA_PARSE_KUNIT_H
#define _MFA_PARSE_KUNIT_H

struct parse_case {
	const char *in;
	const char *why;	/* NULL: accepted; else a part of the reason */
	enum mfa_cmd_type type;
	pid_t pid;
	unsigned long addr;
	unsigned int order;
};

/* Each rejected row breaks exactly one rule of module.rst's grammar. */
static const struct parse_case parse_cases[] = {
	{ "clear",			NULL, MFA_CMD_CLEAR },
	{ "clear\n",			NULL, MFA_CMD_CLEAR },
	{ "1 0x1000 4",			NULL, MFA_CMD_SET, 1, 0x1000, 4 },
	{ "42 4096 0\n",		NULL, MFA_CMD_SET, 42, 4096, 0 },
	{ "7 \t 0xAbC000\t3",		NULL, MFA_CMD_SET, 7, 0xabc000, 3 },
	{ "3 0 default",		NULL, MFA_CMD_DEFAULT, 3, 0 },
	/* One optional newline, at the end; no other control character. */
	{ "",				"empty" },
	{ "\n",				"empty" },
	{ "clear\n\n",			"control" },
	{ "5\n 0x1000 4",		"control" },
	{ "5 0x1000\r 4",		"control" },
	/* Blanks only between fields. */
	{ " clear",			"blank" },
	{ "1 0x1000 4 ",		"blank" },
	{ "1 0x1000 4\t\n",		"blank" },
	/* "clear" alone, or exactly three fields. */
	{ "clear all",			"three fields" },
	{ "1 0x1000",			"three fields" },
	{ "1 0x1000 4 5",		"more than three" },
	/* Decimal: digits only, no sign, no leading zero. */
	{ "+1 0x1000 4",		"digit" },
	{ "-1 0x1000 4",		"digit" },
	{ "x 0x1000 4",			"digit" },
	{ "01 0x1000 4",		"starts with 0" },
	{ "1 +4096 4",			"digit" },
	{ "1 0400000 4",		"starts with 0" },
	{ "1 0x1000 04",		"starts with 0" },
	{ "1 0x1000 4x",		"digit" },
	{ "1 0x1000 Default",		"digit" },
	/* A pid in (0, PID_MAX_LIMIT]. */
	{ "0 0x1000 4",			"pid" },
	{ "99999999 0x1000 4",		"pid" },
	/* Hexadecimal: "0x" (lower case) and at least one digit. */
	{ "1 0x 4",			"no digits after 0x" },
	{ "1 0X1000 4",			"digit" },
	{ "1 0xg 4",			"hexadecimal digit" },
	{ "1 0x+1000 4",		"hexadecimal digit" },
};

static unsigned int max_order(void)
{
	return ilog2(PTRS_PER_PTE);
}

static void expect_parse(struct kunit *test, const struct parse_case *c,
			 size_t len)
{
	const char *why = NULL;
	struct mfa_cmd cmd = {};
	int err = mfa_parse_cmd(c->in, len, max_order(), &cmd, &why);

	if (c->why) {
		KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "input '%s'", c->in);
		KUNIT_EXPECT_NOT_NULL_MSG(test, why, "input '%s'", c->in);
		if (why)
			KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, c->why),
						  "input '%s': '%s', not '%s'",
						  c->in, why, c->why);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "input '%s': %s", c->in, why);
	KUNIT_EXPECT_EQ_MSG(test, cmd.type, c->type, "input '%s'", c->in);
	if (c->type == MFA_CMD_CLEAR)
		return;
	KUNIT_EXPECT_EQ(test, cmd.pid, c->pid);
	KUNIT_EXPECT_EQ(test, cmd.addr, c->addr);
	if (c->type == MFA_CMD_SET)
		KUNIT_EXPECT_EQ(test, cmd.order, c->order);
}

static void parse_rules(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parse_cases); i++)
		expect_parse(test, &parse_cases[i], strlen(parse_cases[i].in));
}

/* Limits that depend on the machine: orders, unsigned long, length. */
static void parse_limits(struct kunit *test)
{
	char in[MFA_CMD_MAX_LEN + 8], big[32];
	struct parse_case c = { .in = in };

	snprintf(in, sizeof(in), "1 0x1000 %u", max_order());
	c.type = MFA_CMD_SET;
	c.pid = 1;
	c.addr = 0x1000;
	c.order = max_order();
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "1 0x1000 %u", max_order() + 1);
	c.why = "larger than allowed";
	expect_parse(test, &c, strlen(in));

	/* The largest pid, and one more. */
	snprintf(in, sizeof(in), "%d 0x1000 4", (int)PID_MAX_LIMIT);
	c.why = NULL;
	c.pid = PID_MAX_LIMIT;
	c.order = 4;
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "%d 0x1000 4", (int)PID_MAX_LIMIT + 1);
	c.why = "pid";
	expect_parse(test, &c, strlen(in));
	c.pid = 1;

	/* ULONG_MAX with one more digit, in decimal and in hexadecimal. */
	snprintf(big, sizeof(big), "%lu0", ULONG_MAX);
	snprintf(in, sizeof(in), "1 %s 4", big);
	c.why = "too large";
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "1 0x%lx0 4", ULONG_MAX);
	expect_parse(test, &c, strlen(in));
	snprintf(in, sizeof(in), "1 0x%lx 4", ULONG_MAX);
	c.why = NULL;
	c.addr = ULONG_MAX;
	c.order = 4;
	expect_parse(test, &c, strlen(in));

	/* MFA_CMD_MAX_LEN bytes are a command; one more is not. */
	memset(in, '\t', sizeof(in));
	in[sizeof(in) - 1] = '\0';	/* for the messages' %s */
	memcpy(in, "1 0x1000", 8);
	in[MFA_CMD_MAX_LEN - 1] = '4';
	c.why = NULL;
	c.addr = 0x1000;
	c.order = 4;
	expect_parse(test, &c, MFA_CMD_MAX_LEN);
	c.why = "longer";
	in[MFA_CMD_MAX_LEN] = '4';
	expect_parse(test, &c, MFA_CMD_MAX_LEN + 1);

	/* A NUL inside is a control character, not an end. */
	c.in = "1 0x1000\0 4";
	c.why = "control";
	expect_parse(test, &c, 11);
}

/* "order" and "stats": the same decimal numbers, and a maximum. */
static void parse_uint(struct kunit *test)
{
	static const struct { const char *in; int err; unsigned int val; } cases[] = {
		{ "0", 0, 0 }, { "0\n", 0, 0 }, { "5", 0, 5 }, { "9", 0, 9 },
		{ "10", -EINVAL }, { "00", -EINVAL }, { "+1", -EINVAL },
		{ "1 ", -EINVAL }, { "", -EINVAL }, { "1\n\n", -EINVAL },
		{ "0x1", -EINVAL },
	};
	unsigned int i, val;
	const char *why;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		val = 99;
		KUNIT_EXPECT_EQ_MSG(test, mfa_parse_uint(cases[i].in,
							 strlen(cases[i].in), 9,
							&val, &why),
				    cases[i].err, "input '%s'", cases[i].in);
		if (!cases[i].err)
			KUNIT_EXPECT_EQ(test, val, cases[i].val);
	}
}

/* parse_policy: exactly one of the names, one optional newline. */
static void parse_policy(struct kunit *test)
{
	static const struct {
		const char *in;
		int err;
		enum mfa_policy policy;
	} cases[] = {
		{ "off", 0, MFA_POLICY_OFF }, { "off\n", 0, MFA_POLICY_OFF },
		{ "adaptive", 0, MFA_POLICY_ADAPTIVE },
		{ "adaptive\n", 0, MFA_POLICY_ADAPTIVE },
		{ "madvise\n", 0, MFA_POLICY_MADVISE },
		{ "ramp", 0, MFA_POLICY_RAMP },
		{ "", -EINVAL }, { "on", -EINVAL }, { "Adaptive", -EINVAL },
		{ " off", -EINVAL }, { "off\n\n", -EINVAL }, { "adaptiv", -EINVAL },
		{ "adaptive off", -EINVAL }, { "ramps", -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		enum mfa_policy policy = MFA_POLICY_RAMP + 1;
		const char *why = NULL;
		int err = mfa_parse_policy(cases[i].in, strlen(cases[i].in),
					  &policy, &why);

		KUNIT_EXPECT_EQ_MSG(test, err, cases[i].err, "'%s'", cases[i].in);
		if (!err)
			KUNIT_EXPECT_EQ_MSG(test, policy, cases[i].policy,
					    "'%s'", cases[i].in);
		else
			KUNIT_EXPECT_NOT_NULL_MSG(test, why, "'%s'", cases[i].in);
	}
}

#endif /* _MFA_PARSE_KUNIT_H */
