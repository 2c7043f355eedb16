#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: run-checks.sh <make target>...
# Run each check (a make target), keep going after a failure, log each one
# under build/logs/, and end with a summary: each check's verdict, then
# the fault_around KUnit suite's and kselftest's PASS/FAIL lines and the
# boot parameter and module load boots' verdicts from the logs, each
# naming its target, then "N passed, N failed".
. "$(dirname "$0")/lib.sh"

logs=$BUILD/logs
mkdir -p "$logs"
passed=0 failed=0 summary=()
for t in "$@"; do
	log "check $t (log: $logs/$t.log)"
	start=$SECONDS
	if make --no-print-directory -C "$TOP" "$t" 2>&1 | tee "$logs/$t.log"; then
		passed=$((passed + 1)) verdict=PASS
	else
		failed=$((failed + 1)) verdict=FAIL
	fi
	summary+=("$(printf '%-5s %-14s %4ds' $verdict "$t" $((SECONDS - start)))")
done
echo
echo "== summary"
printf '%s\n' "${summary[@]}"
for t in "$@"; do
	grep -hE '^(PASS|FAIL) (kunit|kselftest) fault_around|^boot-.*-(param|modload)-.*: (PASS|FAIL)' "$logs/$t.log" |
		sed "s/^/$t: /" || true
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
