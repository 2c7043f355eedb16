#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: run-checks.sh <make target>... [--beside <make target>...]
# Run each check (a make target), keep going after a failure, log each one
# under build/logs/, and end with a summary: each check's verdict, then
# from the logs, each line naming its target: the fault_around KUnit
# suite's and kselftest's PASS/FAIL lines, the sysctl's (in the main
# boot, at boot with sysctl.vm.fault_around_bytes=, with debugfs closed),
# the module load and sysctl boots' verdicts; then "N passed, N failed".
# With --beside, the two lists run at the same time, each in its order
# (make test: the kernel builds and boots in one, the checks that mostly
# keep one core busy in the other, so that the second core is not idle).
# Checks of the two lists must not share a build directory.
. "$(dirname "$0")/lib.sh"

logs=$BUILD/logs$BASE_SUFFIX
mkdir -p "$logs"
lanes=("") all=()
for t in "$@"; do
	if [ "$t" = --beside ]; then
		lanes+=("")
	else
		lanes[${#lanes[@]} - 1]+=" $t"
		all+=("$t")
	fi
done
# One list (an empty --beside one aside): its output live, as before.
nonempty=0
for lane in "${lanes[@]}"; do [ -z "$lane" ] || nonempty=$((nonempty + 1)); done
[ "$nonempty" -gt 1 ] || lanes=(" ${all[*]}")

# cpu_ticks <pid>: the CPU time (user and system, clock ticks) of the
# process's waited-for children so far (proc(5), cutime and cstime).
cpu_ticks() {
	awk '{ print $16 + $17 }' "/proc/$1/stat"
}
hz=$(getconf CLK_TCK)

# run_lane <n> <targets>: each check's verdict, time and CPU time, a line
# each, to $logs/.lane-<n>; progress on stderr.  The CPU time is what a
# make test budget is spent in: two lanes share two cores.
run_lane() {
	local t start cpu verdict me=$BASHPID out=$logs/.lane-$1
	: > "$out"
	for t in $2; do
		log "check $t (log: $logs/$t.log)"
		start=$SECONDS cpu=$(cpu_ticks "$me")
		if [ ${#lanes[@]} -eq 1 ]; then
			make --no-print-directory -C "$TOP" "$t" 2>&1 | tee "$logs/$t.log"
		else
			make --no-print-directory -C "$TOP" "$t" > "$logs/$t.log" 2>&1
		fi && verdict=PASS || verdict=FAIL
		[ ${#lanes[@]} -eq 1 ] || log "check $t: $verdict ($((SECONDS - start))s)"
		printf '%s %s %d %d\n' $verdict "$t" $((SECONDS - start)) \
			$((($(cpu_ticks "$me") - cpu) / hz)) >> "$out"
	done
}

rm -f "$logs"/.lane-*
# Checks beside each other build from the same trees: none may re-apply
# patches/ under the other (tree.sh refuses for the trees of this build
# directory; a test's own trees elsewhere, apt-test's, are not frozen).
[ ${#lanes[@]} -eq 1 ] || export FAULTAROUND_TREE_FROZEN=$BUILD
pids=() n=0
for lane in "${lanes[@]}"; do
	n=$((n + 1))
	[ -n "$lane" ] || continue
	run_lane $n "$lane" &
	pids+=($!)
done
# A lane that died leaves its checks without a verdict: FAIL below.
for p in "${pids[@]}"; do wait "$p" || true; done

passed=0 failed=0 summary=()
for t in "${all[@]}"; do
	verdict='' secs=0 cpu=0
	read -r verdict _ secs cpu < <(cat "$logs"/.lane-* | awk -v t="$t" '$2 == t { print; exit }') || true
	verdict=${verdict:-FAIL}
	if [ "$verdict" = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		# Run beside others, a failed check's log was not shown: its end.
		[ ${#lanes[@]} -eq 1 ] || {
			echo "== $t failed; the end of $logs/$t.log:"
			tail -n 40 "$logs/$t.log" 2>/dev/null || echo "(no log: it did not run)"
		}
	fi
	summary+=("$(printf '%-5s %-16s %5ds %6ds CPU' "$verdict" "$t" "$secs" "${cpu:-0}")")
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
for t in "${all[@]}"; do
	{
		grep -hE '^(PASS|FAIL) (kunit|kselftest) fault_around|^boot-[^ ]*-(modload|sysctl)-[^ ]*: (PASS|FAIL)|^(PASS|FAIL) sysctl\.vm\.fault_around_bytes=[^ ]*:|^(PASS|FAIL) vm\.fault_around_bytes with debugfs closed' "$logs/$t.log" || true
		sysctl_summary "$logs/$t.log"
	} | sed "s/^/$t: /"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
