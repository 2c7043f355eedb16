#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fault-around sweep: every workload, thread count and order, R times,
# with the orders interleaved (rotated each repetition) so that drift does
# not favour one of them.  Runs in the QEMU guest (busybox sh) and natively
# as root.  Prints CSV on stdout, a progress line per run on stderr.
#
#   sweep.sh [-o "0 1 3 4 5 8"] [-r 5] [-t "1 2"] [-w "seq rand sparse exec"]
#            [-m MiB] [-b fa-bench] [-d tmpdir] [-k mod_faultaround.ko]
#
# By default the file is 1/16 of the memory (a multiple of 2 MiB, so that
# sparse touches whole page tables) and the thread counts are the powers
# of two below the number of CPUs, and that number.
#
# -k adds the module-cost runs, at the kernel's default order: the module
# not loaded (setup mod-off), loaded with no override (mod-idle), and
# loaded with 256 overrides on another process's mappings (mod-256),
# interleaved the same way.  The order runs have setup "sweep".

orders="0 1 3 4 5 8" reps=5 threads=auto workloads="seq rand sparse exec"
mib=auto bench=fa-bench dir=/tmp ko=
while getopts o:r:t:w:m:b:d:k: opt; do
	case $opt in
	o) orders=$OPTARG ;; r) reps=$OPTARG ;; t) threads=$OPTARG ;;
	w) workloads=$OPTARG ;; m) mib=$OPTARG ;; b) bench=$OPTARG ;;
	d) dir=$OPTARG ;; k) ko=$OPTARG ;; *) exit 2 ;;
	esac
done

die() { echo "sweep: $*" >&2; exit 1; }
mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
[ "$mib" != auto ] || mib=$((mem / 16 / 2 * 2))
if [ "$threads" = auto ]; then
	cpus=$(grep -c '^processor' /proc/cpuinfo) threads= t=1
	while [ $t -lt "$cpus" ]; do threads="$threads $t" t=$((t * 2)); done
	threads=$(echo $threads "$cpus")
fi
dbg=/sys/kernel/debug
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
if [ -w $dbg/fault_around_order ]; then
	knob=order
	saved=$(cat $dbg/fault_around_order)
elif [ -w $dbg/fault_around_bytes ]; then
	knob=bytes	# an unpatched kernel: orders become bytes
	saved=$(cat $dbg/fault_around_bytes)
	[ -z "$ko" ] || die "-k needs the patched kernel (no fault_around_order)"
else
	die "no fault_around knob in $dbg (mount debugfs, run as root)"
fi
[ -z "$ko" ] || [ -r "$ko" ] || die "no module $ko"
[ -z "$ko" ] || ! grep -q '^mod_faultaround ' /proc/modules ||
	die "unload mod_faultaround first: the runs without it need that"

set_order() {
	if [ $knob = order ]; then
		echo "$1" > $dbg/fault_around_order
	else
		echo $((page << $1)) > $dbg/fault_around_bytes
	fi
}
# On any exit: the order as it was, no module, no holder.
holder= held=$dir/fa-held.$$
restore() {
	if [ -n "$holder" ]; then kill "$holder"; wait "$holder"; fi
	rm -f "$held"
	[ -z "$ko" ] || ! grep -q '^mod_faultaround ' /proc/modules ||
		rmmod mod_faultaround
	if [ $knob = order ]; then echo "$saved" > $dbg/fault_around_order
	else echo "$saved" > $dbg/fault_around_bytes; fi
}
trap restore EXIT
trap 'exit 1' INT TERM

# rotate <rep> <list>: the list rotated left by rep - 1.
rotate() {
	echo "$2" | awk -v r="$1" '{
		for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }'
}

# setup mod-off|mod-idle|mod-256: put the module in that state.
setup() {
	loaded=$(grep -c '^mod_faultaround ' /proc/modules)
	if [ "$1" = mod-off ]; then
		[ "$loaded" = 0 ] || rmmod mod_faultaround
		return
	fi
	[ "$loaded" = 1 ] || insmod "$ko" || return
	echo clear > $dbg/faultaround/vma || return
	[ "$1" = mod-256 ] || return 0
	if [ -z "$holder" ]; then
		: > "$held"	# exists before the loop below reads it
		$bench -H 256 -d "$dir" > "$held" & holder=$!
		while [ "$(wc -l < "$held")" -lt 256 ]; do
			kill -0 "$holder" || return
			sleep 1
		done
	fi
	while read -r pid addr; do
		echo "$pid $addr 0" > $dbg/faultaround/vma || return
	done < "$held"
}

n_orders=$(echo $orders | wc -w)
per_rep=$n_orders
[ -z "$ko" ] || per_rep=$((n_orders + 3))
total=$(( $(echo $workloads | wc -w) * $(echo $threads | wc -w) * per_rep * reps ))
# make bench puts this line in its report.
echo "sweep: file $mib MiB (memory $mem MiB), threads $threads, $reps repetitions, $total runs" >&2
run=0
# run1 <setup> <workload> <threads> <order> <rep>: one CSV line.
run1() {
	run=$((run + 1))
	set_order "$4" || die "cannot set order $4"
	out=$($bench -w "$2" -t "$3" -m "$mib" -s "$5" -d "$dir") ||
		die "fa-bench failed"
	set -- "$@" $out
	echo "$2,$3,$4,$1,$5,$6,$7,$8,$9,${10},${11},${12}"
	echo "[$run/$total] $2 threads=$3 order=$4 $1 rep=$5: $6 minor faults, $(($8 / 1000)) us" >&2
}

echo "workload,threads,order,setup,rep,minflt,majflt,ns,pages,mapped,fa_calls,fa_mapped"
for w in $workloads; do
	for t in $threads; do
		rep=1
		while [ $rep -le "$reps" ]; do
			for o in $(rotate $rep "$orders"); do
				run1 sweep "$w" "$t" "$o" $rep
			done
			rep=$((rep + 1))
		done
		rep=1
		while [ -n "$ko" ] && [ $rep -le "$reps" ]; do
			for s in $(rotate $rep "mod-off mod-idle mod-256"); do
				setup $s || die "cannot set up $s"
				run1 $s "$w" "$t" "$saved" $rep
			done
			rep=$((rep + 1))
		done
	done
done
