# SPDX-License-Identifier: GPL-2.0
# Sourced by the lab's own tests (tests/lab/*-test.sh): a PASS or FAIL
# line per check, then "N passed, N failed".  Sourced after lib.sh, whose
# set -e it turns off: a failed check must not end the test.
set +e
passed=0 failed=0
verdict() {	# verdict <0: ok> <what> [<output to show on failure>]
	if [ "$1" = 0 ]; then
		echo "PASS $2"; passed=$((passed + 1))
	else
		echo "FAIL $2"; [ -z "${3:-}" ] || sed 's/^/    /' <<< "$3"; failed=$((failed + 1))
	fi
}
# verdict_end: the count; its status fails on any FAIL.
verdict_end() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}
