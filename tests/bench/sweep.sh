#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fault-around sweep: every workload, thread count and order, R times,
# with the orders interleaved (rotated each repetition) so that drift does
# not favour one of them.  Runs in the QEMU guest (busybox sh) and natively
# as root.  Prints CSV on stdout, a progress line per run on stderr.
#
#   sweep.sh [-o "0 1 3 4 5 8"] [-r 5] [-t "1 2"] [-w "seq rand sparse exec"]
#            [-m MiB] [-b fa-bench] [-d tmpdir]

orders="0 1 3 4 5 8" reps=5 threads=1 workloads="seq rand sparse exec"
mib=64 bench=fa-bench dir=/tmp
while getopts o:r:t:w:m:b:d: opt; do
	case $opt in
	o) orders=$OPTARG ;; r) reps=$OPTARG ;; t) threads=$OPTARG ;;
	w) workloads=$OPTARG ;; m) mib=$OPTARG ;; b) bench=$OPTARG ;;
	d) dir=$OPTARG ;; *) exit 2 ;;
	esac
done

dbg=/sys/kernel/debug
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
if [ -w $dbg/fault_around_order ]; then
	knob=order
	saved=$(cat $dbg/fault_around_order)
elif [ -w $dbg/fault_around_bytes ]; then
	knob=bytes	# an unpatched kernel: orders become bytes
	saved=$(cat $dbg/fault_around_bytes)
else
	echo "sweep: no fault_around knob in $dbg (mount debugfs, run as root)" >&2
	exit 1
fi

set_order() {
	if [ $knob = order ]; then
		echo "$1" > $dbg/fault_around_order
	else
		echo $((page << $1)) > $dbg/fault_around_bytes
	fi
}

n_orders=$(echo $orders | wc -w)
total=$(( $(echo $workloads | wc -w) * $(echo $threads | wc -w) * n_orders * reps ))
echo "workload,threads,order,rep,minflt,majflt,ns,pages"
run=0
for w in $workloads; do
	for t in $threads; do
		rep=1
		while [ $rep -le "$reps" ]; do
			# Rotate the order list by the repetition number.
			rot=$(echo $orders | awk -v r=$rep '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
			for o in $rot; do
				run=$((run + 1))
				set_order "$o" || { echo "sweep: cannot set order $o" >&2; exit 1; }
				out=$($bench -w "$w" -t "$t" -m "$mib" -s "$rep" -d "$dir") ||
					{ echo "sweep: fa-bench failed" >&2; exit 1; }
				set -- $out
				echo "$w,$t,$o,$rep,$1,$2,$3,$4"
				echo "[$run/$total] $w threads=$t order=$o rep=$rep: $1 minor faults, $(($3 / 1000)) us" >&2
			done
			rep=$((rep + 1))
		done
	done
done
if [ $knob = order ]; then echo "$saved" > $dbg/fault_around_order
else echo "$saved" > $dbg/fault_around_bytes; fi
