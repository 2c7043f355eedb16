#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: run-checks.sh <make target>...
# Run each check (a make target), keep going after a failure, log each one
# under build/logs/, and end with a summary: each check's verdict, then
# from the logs, each line naming its target: the fault_around KUnit
# suite's and kselftest's PASS/FAIL lines, the sysctl's (in the main
# boot, at boot with sysctl.vm.fault_around_bytes=, with debugfs closed)
# and the module load boots' verdicts; then "N passed, N failed".
. "$(dirname "$0")/lib.sh"

logs=$BUILD/logs$BASE_SUFFIX
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
# The sysctl in a main boot (fa-test's valid and invalid vm.* cases), as
# one line: set and read back, bad values refused with the value kept.
sysctl_summary() {
	local pass fail
	pass=$(grep -cE '^PASS (valid|invalid vm\.)' "$1") || true
	fail=$(grep -cE '^FAIL (valid|invalid vm\.)' "$1") || true
	[ $((pass + fail)) -gt 0 ] || return 0
	echo "$([ "$fail" = 0 ] && echo PASS || echo FAIL) vm.fault_around_bytes:" \
		"$pass of $((pass + fail)) checks (set and read back beside" \
		"debugfs; bad values refused, the value kept)"
}
for t in "$@"; do
	{
		grep -hE '^(PASS|FAIL) (kunit|kselftest) fault_around|^boot-[^ ]*-modload-[^ ]*: (PASS|FAIL)|^(PASS|FAIL) sysctl\.vm\.fault_around_bytes=[^ ]*:|^(PASS|FAIL) vm\.fault_around_bytes with debugfs closed' "$logs/$t.log" || true
		sysctl_summary "$logs/$t.log"
	} | sed "s/^/$t: /"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
