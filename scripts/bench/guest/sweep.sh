#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fault-around sweep: every workload, worker count and order, R times,
# with the orders in a new random order each repetition, so that neither
# drift nor what ran just before favours one of them.  Runs in the QEMU
# guest (busybox sh) and natively as root.  Prints CSV on stdout, a
# progress line per run on stderr.
#
#   sweep.sh [-o "0 1 2 ..."|all] [-r 3] [-t "1"] [-T "1 2"] [-w "seq rand ..."]
#            [-m MiB] [-b fa-bench] [-x dynamic program] [-e ext4 image]
#            [-d tmpdir] [-k mod_faultaround.ko] [-a mod_faultaround.ko]
#            [-p task-clock,page-faults,...] [-M MiB|auto] [-F fio]
#            [-B toolchain image]
#
# -o all (the default) is every order the kernel accepts, 0 to a page
# table.  By default the file is 1/16 of the memory (a multiple of 2 MiB);
# sparse's is one page table where that is more (64KiB pages: 512 MiB).
# -t are the thread counts of the thread workloads (1), -T the worker
# counts of those that run per CPU: mmap-pread-*'s processes,
# mmap-xread-seq-mt's threads, fio's jobs and page_fault*'s processes (by
# default the powers of two below the number of CPUs, and that number: 1
# and N, as vm-scalability runs them).
#
# Where the kernel's knob cannot be written (debugfs locked or not
# mounted, not root), the sweep measures the current setting only, says
# so, and reports its order, or -1 where it cannot be read.
#
# -a adds a run of the kernel's adaptive policy (vm.fault_around_adaptive,
# setup adaptive, at the kernel's default order, its cap, or -u's) to each
# repetition's shuffled orders; with -y <module>, mod_faultaround's two
# baselines too (its policy file): madvise, each mapping with its reader's
# madvise() hint (fa-bench -A; none for programs), and ramp, readahead's
# ramp per open file, both capped by the same order.
#
# -k adds the module-cost runs, at the kernel's default order: the module
# not loaded (setup mod-off), loaded with no override (mod-idle), and
# loaded with 256 overrides on another process's mappings (mod-256),
# interleaved the same way.
# -c adds each order again with vm.fault_around_bound=1 (setup bound) to
# each repetition's shuffled orders: the window as the most a read fault
# maps, against 0 (setup sweep, the whole large folio), in the same boot.
# The order runs have setup "sweep".  Each repetition runs the default
# order a second time (setup placebo) among them, where it is one of -o's:
# two arms that differ in nothing, whose difference the report tests
# once, overall (the placebo arm; it replaced the anon control).
#
# After each workload's runs, a line "sweep: folios <workload>: <order>:
# <pages> ... uncached:<pages>" gives the folio sizes its file is cached
# in (fa-folios, beside -b's fa-bench: the page cache's state the runs
# left, not a copy: it maps every cached page of the file once).
#
# The page-cache states, their files and what each workload needs to run
# here: sweep-states.sh; how one run is measured (fa-bench, fio, perf
# stat): sweep-run.sh.  Both are sourced from this one's directory.

orders=all reps=3 threads=1 tasks=auto ptes=
workloads="seq rand sparse mmap-pread-seq mmap-pread-rand anon exec dynexec"
mib=auto bench=fa-bench dyn= image= dir=/tmp ko= adaptive= perf= limit= fio= tc_img=
bko= cap= bound=
while getopts o:r:t:T:w:m:b:x:e:d:k:ap:M:F:B:y:u:c opt; do
	case $opt in
	o) orders=$OPTARG ;; r) reps=$OPTARG ;; t) threads=$OPTARG ;;
	T) tasks=$OPTARG ;;
	w) workloads=$OPTARG ;; m) mib=$OPTARG ;; b) bench=$OPTARG ;;
	x) dyn=$OPTARG ;; e) image=$OPTARG ;; d) dir=$OPTARG ;;
	k) ko=$OPTARG ;; a) adaptive=1 ;; p) perf=$OPTARG ;;
	M) limit=$OPTARG ;; F) fio=$OPTARG ;; B) tc_img=$OPTARG ;;
	y) bko=$OPTARG ;; u) cap=$OPTARG ;; c) bound=1 ;; *) exit 2 ;;
	esac
done

die() { echo "sweep: $*" >&2; exit 1; }
here=$(dirname "$0")	# the sourced scripts', loop-mount.sh's and fio-own.awk's
mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
[ "$mib" != auto ] || mib=$((mem / 16 / 2 * 2))
[ "$limit" != auto ] || limit=$((mib / 2))
if [ "$tasks" = auto ]; then
	cpus=$(grep -c '^processor' /proc/cpuinfo) tasks= t=1
	while [ $t -lt "$cpus" ]; do tasks="$tasks $t" t=$((t * 2)); done
	tasks=$(echo $tasks "$cpus")
fi
# workers <workload>: its thread or task counts.
workers() {
	case $1 in
	mmap-pread-*|mmap-xread-*|fio-*|page_fault*) echo "$tasks" ;;
	hotcold*|hotscan*) echo 1 ;;	# one reader: its fates are one process's
	build|rebuild|start-fio) echo 1 ;;	# one program at a time
	seq-interleaved*) echo 2 ;;	# two threads, by its definition
	# one reader: the pattern changes over time, not across threads
	seq-then-sparse*|sparse-then-seq*) echo 1 ;;
	*) echo "$threads" ;;
	esac
}
dbg=/sys/kernel/debug
# The page size from the kernel itself: busybox has no getconf.
page=$(awk '/^KernelPageSize:/ { print $2 * 1024; exit }' /proc/self/smaps)
pt_ptes=$((page / 8))	# fa-bench's guess without -P: a page of pointers
# The knob, and the order now.  Writing back what it reads proves that it
# can be written (a locked-down debugfs fails the write, not the test -w).
knob=none saved= current=-1
if saved=$(cat $dbg/fault_around_order 2>/dev/null); then
	current=$saved
	! echo "$saved" 2>/dev/null > $dbg/fault_around_order || knob=order
elif saved=$(cat $dbg/fault_around_bytes 2>/dev/null); then
	current=0	# an unpatched kernel: orders become bytes
	while [ $((page << current)) -lt "$saved" ]; do current=$((current + 1)); done
	! echo "$saved" 2>/dev/null > $dbg/fault_around_bytes || knob=bytes
fi
[ -z "$adaptive" ] || [ -w /proc/sys/vm/fault_around_adaptive ] ||
	die "-a needs the patched kernel's vm.fault_around_adaptive"
# -c: the order runs with the bound at 0 whatever the kernel's default,
# set back on exit.
saved_bound=
if [ -n "$bound" ]; then
	saved_bound=$(cat /proc/sys/vm/fault_around_bound 2>/dev/null) &&
		echo 0 > /proc/sys/vm/fault_around_bound ||
		die "-c needs the patched kernel's vm.fault_around_bound, writable"
fi
[ -z "$bko" ] || { [ -n "$adaptive" ] && [ -r "$bko" ]; } ||
	die "-y needs -a and a module to load, not '$bko'"
for m in $ko $bko; do
	[ $knob = order ] ||
		die "-k needs the patched kernel's fault_around_order, writable"
	[ -r "$m" ] || die "no module $m"
	! grep -q '^mod_faultaround ' /proc/modules ||
		die "unload mod_faultaround first: the runs without it need that"
done

set_order() {
	case $knob in
	order)	echo "$1" 2>/dev/null > $dbg/fault_around_order ;;
	bytes)	echo $((page << $1)) 2>/dev/null > $dbg/fault_around_bytes ;;
	none)	[ "$1" = "$current" ] ;;
	esac
}
if [ $knob = none ]; then
	[ "$current" = -1 ] && what="cannot be read either" || what="reads order $current"
	echo "sweep: the fault-around knob cannot be written here (debugfs locked down or not mounted, or not root) and $what: measuring the current setting only" >&2
	orders=$current
else
	# The kernel refuses an order above a page table: the largest it
	# takes is the page table's size for sparse and the alignment, also
	# when ORDERS names a few (a guess from the page size is wrong on
	# pseries, 256 or 32 PTEs with 64KiB pages).  orders=all: all of them.
	max=0
	while set_order $((max + 1)); do max=$((max + 1)); done
	pt_ptes=$((1 << max)) ptes="-P $((1 << max))"
	if [ "$orders" = all ]; then
		orders=0
		while [ "${orders##* }" -lt "$max" ]; do orders="$orders $(( ${orders##* } + 1 ))"; done
	fi
fi

# On any exit: the order as it was, no module, no holder, no file.
mounts="$dir/fa-huge $dir/fa-huge-within $dir/fa-ext4"	# sweep-states.sh's
holder= held=$dir/fa-held.$$ counts=$dir/fa-perf.$$ cg=
# shmem_file <name>: the file of that name of sweep-states.sh's
# shmem_hold(), in -d.
shmem_file() { echo "$dir/fa-shmem-$1.$$"; }
# shmem_sizes_back: the shmem mTHP sizes as shmem_hold() found them.
shmem_sizes_back() {
	local f v saved

	saved=$(shmem_file saved)
	[ -f "$saved" ] || return 0
	while read -r f v; do echo "$v" > "$f"; done < "$saved"
	rm -f "$saved"
}
restore() {
	if [ -n "$holder" ]; then kill "$holder"; wait "$holder"; fi
	rm -f "$held" "$counts" "$dir/fa-fio.json" "$dir/fa-bench.file" "$dir/fa-sparse.file" "$dir/fa-mixed.file" \
		"$dir/fa-probe.file"
	[ ! -d "$cg" ] || rmdir "$cg"
	# The toolchain's read-only image: nothing of ours to remove there.
	for m in $mounts "$dir/fa-tc/fa-out" "$dir/fa-tc"; do
		dev=$(awk -v m="$m" '$2 == m { print $1 }' /proc/mounts)
		[ -n "$dev" ] || continue
		[ "${m#"$dir/fa-tc"}" != "$m" ] ||
			rm -f "$m/fa-bench.file" "$m/fa-hot.file" "$m/fa-hole.file" "$m/fa-hole-1g.file"
		umount "$m"
		case $dev in /dev/loop*) losetup -d "$dev" ;; esac
	done
	rmdir $mounts "$dir/fa-tc" 2>/dev/null || true
	# @shmem-<N>k's holders, and the shmem mTHP sizes if a sweep
	# stopped before it set them back.
	for f in $(shmem_file 'hold-*'); do
		[ -f "$f" ] || continue
		kill "$(cat "$f")" 2>/dev/null
		rm -f "$f" "$f.path"
	done
	shmem_sizes_back
	[ -z "$adaptive" ] || echo 0 > /proc/sys/vm/fault_around_adaptive
	[ -z "$saved_bound" ] || echo "$saved_bound" > /proc/sys/vm/fault_around_bound
	[ -z "$ko$bko" ] || ! grep -q '^mod_faultaround ' /proc/modules ||
		rmmod mod_faultaround
	case $knob in
	order)	echo "$saved" > $dbg/fault_around_order ;;
	bytes)	echo "$saved" > $dbg/fault_around_bytes ;;
	esac
}
trap restore EXIT
trap 'exit 1' INT TERM

# -M: whether fault-around maps its pages young here, from one fault at
# order 4 (or the largest) on a cached file: with a hardware Access flag
# arm64 maps them old (arch_wants_old_prefaulted_pte()).  The report says.
young=
if [ -n "$limit" ] && [ $knob = order ]; then
	po=4
	[ "$max" -ge 4 ] || po=$max
	f=$dir/fa-probe.file
	$bench -C -f "$f" -m 2 &&	# order 4 is 1MiB at most (64KiB pages)
		set_order $po && set -- $($bench -R -f "$f" $ptes) && [ $# = 2 ] ||
		die "cannot probe the prefaulted PTEs"
	rm -f "$f"
	set_order "$saved" || die "cannot set the order back to $saved"
	state=young
	[ "$2" -gt 1 ] || state=old
	young=", prefaulted PTEs $state ($2 of $1 pages referenced after one fault at order $po)"
fi

# shuffle <list>: the list in a random order.
shuffle() { echo "$1" | tr ' ' '\n' | shuf | tr '\n' ' '; }

# setup mod-off|mod-idle|mod-256: put the module in that
# state.
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

# policy off|adaptive: the kernel's adaptive policy, as a user switches
# it; madvise|ramp: mod_faultaround's baseline (-y), loaded on first use.
policy() {
	local on=0

	case $1 in
	off|adaptive)
		[ "$1" = off ] || on=1
		echo $on > /proc/sys/vm/fault_around_adaptive || return
		[ $on = 1 ] || ! grep -q '^mod_faultaround ' /proc/modules ||
			echo off > $dbg/faultaround/policy ;;
	*)	grep -q '^mod_faultaround ' /proc/modules || insmod "$bko" || return
		echo "$1" > $dbg/faultaround/policy ;;
	esac
}

. "$here/sweep-states.sh"
kept=
for w in $workloads; do
	admit "$w"
	if [ "$ok" = 1 ]; then kept="$kept $w"; else echo "sweep: $w left out: $ok" >&2; fi
done
workloads=$kept
# -M's columns are hotcold's and hotscan's only.
[ -z "$limit" ] || [ "$(echo $workloads | tr ' ' '\n' | grep -Evc '^(hotcold|hotscan)')" = 0 ] ||
	die "-M: hotcold and hotscan only, not: $workloads"
sync	# the ext4 file clean on its device: a cold run drops and reads it
n_orders=$(echo $orders | wc -w)
tokens=$orders
case " $orders " in *" $current "*) tokens="$tokens placebo" ;; esac
[ -z "$adaptive" ] || tokens="$tokens adaptive"
[ -z "$bko" ] || tokens="$tokens madvise ramp"
[ -z "$bound" ] || tokens="$tokens $(for o in $orders; do printf 'bound:%s ' "$o"; done)"
per_rep=$(echo $tokens | wc -w)
mod_setups="mod-off mod-idle mod-256"
[ -z "$ko" ] || per_rep=$((per_rep + $(echo $mod_setups | wc -w)))
total=0
for w in $workloads; do
	total=$((total + $(workers "$w" | wc -w) * per_rep * reps))
done
# What the states read from: the ext4 loop device's readahead, which caps
# its folios, and the huge= of the -d directory's mount (@tmpfs).
ra= dev=$(awk -v m="$dir/fa-ext4" '$2 == m { print $1 }' /proc/mounts)
[ -z "$dev" ] || ra=$(cat "/sys/block/${dev#/dev/}/queue/read_ahead_kb")
huge=$(awk -v d="$dir/" '{ p = $2 == "/" ? "/" : $2 "/" }
	index(d, p) == 1 && length(p) > n { n = length(p); o = $3 "," $4 }
	END { print o }' /proc/mounts | tr , '\n' | sed -n 's/^huge=//p')
# make bench puts this line in its report.
echo "sweep: file $mib MiB${sparse_mib:+ (sparse's $sparse_mib MiB, one page table)}${limit:+, hotcold's hot file $((mib / 4)) MiB and memory.max $limit MiB$young} (memory $mem MiB, page $page bytes${ra:+, ext4 readahead $ra KiB}, $dir huge=${huge:-never}), default order $current, orders $orders${bound:+ (each also with vm.fault_around_bound=1)}, threads $threads, tasks $tasks, $reps repetitions, $total runs" >&2
. "$here/sweep-run.sh"

echo "workload,threads,order,setup,rep,minflt,majflt,ns,pages,mapped,fa_calls,fa_mapped,fixed_ns,teardown_ns,distinct,unread,prog_minflt,prog_majflt$(
	[ -z "$perf" ] || echo ",$perf" | sed 's/,/,perf:/g')$(
	[ -z "$limit" ] || $bench -E | tr ' ' ,| sed 's/^/,/')"
folios=${bench%fa-bench}fa-folios
# One untimed run first, once the first workload's file is as its runs
# find it: a boot's first run tore down some 10.8 M instructions dearer
# than the others of its cell (bench-1d37159: run 1 of each of the 3
# boots, 2.6 times the cell's median teardown).
warm=
for w in $workloads; do
	# @ext4-ra: the file as a sequential read(2) of 1MiB at a time leaves
	# it in the page cache (readahead's folios), before the first run;
	# dd, not cat: busybox's cat copies with sendfile(), GNU's advises
	# POSIX_FADV_SEQUENTIAL first.
	for g in $(cached_files "$w"); do
		[ "${w#*@}" != ext4-ra ] ||
			$bench -w run -n 1 -c -f "$g" -- /bin/dd if="$g" of=/dev/null bs=1M \
				> /dev/null 2>&1 || die "cannot read $g for $w"
	done
	if [ -z "$warm" ]; then
		set -- $(workers "$w")
		run1 warmup "$w" "$1" "$current" 0 > /dev/null
		run=0 warm=1
	fi
	for t in $(workers "$w"); do
		rep=1
		while [ $rep -le "$reps" ]; do
			for o in $(shuffle "$tokens"); do
				case $o in
				bound:*)
					echo 1 > /proc/sys/vm/fault_around_bound ||
						die "cannot set vm.fault_around_bound"
					run1 bound "$w" "$t" "${o#bound:}" $rep
					echo 0 > /proc/sys/vm/fault_around_bound ||
						die "cannot clear vm.fault_around_bound"
					continue ;;
				placebo)
					run1 placebo "$w" "$t" "$current" $rep
					continue ;;
				adaptive|madvise|ramp) ;;
				*)	run1 sweep "$w" "$t" "$o" $rep
					continue ;;
				esac
				policy $o || die "cannot switch the $o policy on"
				run1 $o "$w" "$t" "${cap:-$saved}" $rep
				policy off || die "cannot switch the $o policy off"
			done
			rep=$((rep + 1))
		done
		rep=1
		while [ -n "$ko" ] && [ $rep -le "$reps" ]; do
			for s in $(shuffle "$mod_setups"); do
				setup $s || die "cannot set up $s"
				run1 $s "$w" "$t" "$saved" $rep
			done
			rep=$((rep + 1))
		done
		# The next order runs are without the module: not beside
		# mod-256's overrides.
		[ -z "$ko" ] || setup mod-off || die "cannot unload the module"
	done
	# What the runs read: the page cache's folio sizes after them.
	case $w in
	exec|dynexec|anon|anon@*|build|rebuild|start-fio) ;;
	*)	# shellcheck disable=SC2046 # a path a word
		if out=$($folios $(cached_files "$w") 2>&1); then
			echo "sweep: folios $w: ${out#folios: }" >&2
		else
			echo "sweep: folios $w: unavailable: $out" >&2
		fi ;;
	esac
done
