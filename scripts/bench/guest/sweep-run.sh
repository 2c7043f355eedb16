#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by sweep.sh: run1(), one run measured, and what it needs.
#
# fio-read and fio-randread (-F: fio, the Debian package's) run fio with
# ioengine=mmap, rw=read or randread, a page per read, one job per task
# (-T: 1 and N jobs) over the whole file, under fa-bench -w run, which
# measures it as it does exec.  Their rows add fio's own minf and majf,
# summed over the jobs (prog_minflt, prog_majflt; -1 elsewhere), to be
# held against fa-bench's count of the children's faults.  @ext4-cold
# drops the file before the timed part (fa-bench -c), never fio itself
# (invalidate=0: its drop would be timed, and once per job).  Not @huge:
# a PMD-mapped file takes far fewer faults than a window's count.  The
# figure is fio's own I/O time: each job's read latency (its JSON's
# lat_ns, mean x N, faults included), summed over the jobs; the whole of
# fio's life, its start-up included, is the row's fixed_ns.  start-fio
# starts fio --version 20 times (-F): a start-up with fio's 64 shared
# libraries, where dynexec has ld.so and libc.
#
# -p runs each fa-bench under perf stat -e <events> (natively: make bench
# NATIVE=1) and adds a column perf:<event> per event: its count over the
# whole process and its children (program start, setup, the timed work,
# teardown and exit: not the timed region alone), a clock's (task-clock)
# in ns, or what perf printed instead (<not supported>, <not counted>).

run=0
# -p: perf stat around each run, in the C locale (its decimal point).
wrap=
[ -z "$perf" ] || wrap="env LC_ALL=C perf stat -x, -o $counts -e $perf --"
# perf_counts: the -p events' counts from perf stat's file, in -p's
# order: an event that perf prints once per PMU (a hybrid CPU's) summed.
perf_counts() {
	awk -F, -v want="$perf" '
	/^#/ || NF < 3 { next }
	{	e = $3; sub(/:.*/, "", e)		# task-clock:u
		if (split(e, p, "/") == 3) e = p[2]	# cpu_core/cycles/
		if ($1 ~ /^[0-9.]+$/) n[e] += $2 == "msec" ? $1 * 1e6 : $1
		else if (!(e in s)) s[e] = $1 }	# <not supported>
	END {	k = split(want, w, ",")
		for (i = 1; i <= k; i++) {
			e = w[i]; sub(/:.*/, "", e)
			v = e in s ? s[e] : "<not counted>"
			printf ",%s", e in n ? sprintf("%.0f", n[e]) : v
		}
		print "" }' "$counts"
}
# in_cgroup <command...>: run it in hotcold's cgroup.
# shellcheck disable=SC2016 # $$, $0 and $@ are the inner shell's
in_cgroup() { sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"; }
# fio_run <workload> <jobs> <file> <state>: fa-bench's line for one fio
# run, then fio's own minor and major faults summed over its jobs (its
# JSON's per-job minf and majf: fio-own.awk).  With one job its ns is
# fio's own I/O time and its fixed_ns the whole of fio's life; with more,
# the reverse: under -icount the vCPUs take turns, and a job's latencies
# absorb the others' slices (and natively, with more jobs than CPUs,
# their waits), so summed they are no figure.
fio_run() {
	local rw=${1%@*} json=$dir/fa-fio.json line cold= own jobs=$2
	rw=${rw#fio-}
	[ "$4" != ext4-cold ] || cold="-c -f $3"
	rm -f "$json"
	# shellcheck disable=SC2086 # $wrap and $cold are words or empty
	line=$($wrap $bench -w run -n $(( (mib << 20) / page * $2 )) $cold -- \
		"$fio" --name=fa --filename="$3" --ioengine=mmap --rw="$rw" \
		--bs="$page" --numjobs="$2" --size="${mib}M" --invalidate=0 \
		--output-format=json --output="$json") || return
	own=$(awk -v jobs="$2" -f "$here/fio-own.awk" "$json") || return
	# shellcheck disable=SC2086 # both are words
	set -- $line $own
	if [ "$jobs" = 1 ]; then
		echo "$1 $2 ${12} $4 $5 $6 $7 $3 0 ${10} ${11} ${13} ${14}"
	else
		echo "$1 $2 $3 $4 $5 $6 $7 ${12} 0 ${10} ${11} ${13} ${14}"
	fi
}
# run1 <setup> <workload> <workers> <order> <rep>: one CSV line.
run1() {
	run=$((run + 1))
	set_order "$4" || die "cannot set order $4"
	state=tmpfs x=
	case $2 in *@*) state=${2#*@} ;; esac
	case $2 in
	dynexec) x="-x $dyn" ;;
	dynexec@*) x="-x $(state_dir "$state")/fa-dyn/${dyn##*/} -L $(state_dir "$state")/fa-dyn" ;;
	esac
	[ "${2%@*}" != mixed ] || x="-g $(state_dir $state)/fa-mixed.file"
	case $state in ext4-cold|ext4-sparse) x="$x -c" ;; esac
	fa_w=${2%@*}
	[ "$2" != sparse-1g ] || state=ext4 fa_w=sparse x="-c"
	# A new mapping each pass: the hot set is reused across mappings.
	[ "$fa_w" != hot-reuse ] || x="$x -p 4"
	runner=
	if [ "${2%@*}" = hotcold ] || [ "${2%@*}" = hotscan ]; then
		max=$((limit << 20))
		[ "$state" != unlimited ] || max=max
		state=ext4 x="-c -g $(state_dir ext4)/fa-hot.file -G $cg" runner=in_cgroup
		echo "$max" > "$cg/memory.max" || die "cannot set $cg/memory.max to $max"
	fi
	# After every x= above: the madvise baseline's hints (fa-bench -A).
	[ "$1" != madvise ] || x="$x -A"
	file=$(read_file "$2") own="-1 -1"
	if [ "${2%%-*}" = fio ]; then
		out=$(fio_run "$2" "$3" "$file" "$state") || die "fio $2 failed"
		own=
	elif [ "$2" = start-fio ]; then
		# shellcheck disable=SC2086 # $wrap is words or empty
		out=$($wrap $bench -w run -n 20 -p 20 -- "$fio" --version) ||
			die "fio --version failed"
	elif [ "$2" = build ] || [ "$2" = rebuild ]; then
		n=1	# their pages: the programs linked
		[ "$2" = rebuild ] || n=3
		# shellcheck disable=SC2086 # $wrap is words or empty
		out=$($wrap $bench -w run -n $n -- \
			/bin/busybox chroot "$(toolchain)" /bin/sh "/$2.sh" /fa-out) ||
			die "$2 failed"
	else
		# shellcheck disable=SC2086 # $runner, $wrap, $ptes and $x are words or empty
		out=$($runner $wrap $bench -w "$fa_w" -t "$3" -f "$file" \
			-s "$5" $x $ptes) ||
			die "fa-bench -w $2 failed${perf:+ (under perf stat)}"
	fi
	pc=
	[ -z "$perf" ] || pc=$(perf_counts) || die "cannot read perf stat's $counts"
	# hotcold's second line: name=value, in fa-bench -E's order.
	[ -z "$limit" ] || pc="$pc,$(echo "$out" | sed -n '2{s/[a-z_]*=//g; s/ /,/g; p}')"
	# shellcheck disable=SC2086 # $own is two words or none
	set -- "$@" $(echo "$out" | sed -n 1p) $own
	echo "$2,$3,$4,$1,$5,$6,$7,$8,$9,${10},${11},${12},${13},${14},${15},${16},${17},${18}$pc"
	# The guest clock's ns: under -icount, instructions (bench.sh says so).
	[ "$1" = warmup ] ||	# not a run of the total
		echo "[$run/$total] $2 workers=$3 order=$4 $1 rep=$5: $6 minor faults, clock $8 ns" >&2
}
