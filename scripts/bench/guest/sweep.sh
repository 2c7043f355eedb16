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
# A workload (fa-bench -w) reads a file in the page-cache state after its
# "@": @tmpfs (the default: warm, all of it in the page cache), @huge
# (tmpfs huge=always: large folios), @huge-within (huge=within_size),
# @ext4 (warm, ext4 on a loop device over the -e image, as its writes
# left it), @ext4-ra (the same file dropped and read with dd bs=1M once
# before the workload's runs: readahead's folios, warm), @ext4-cold (the
# same with the file's pages dropped
# before each run, fa-bench -c: major faults, readahead), @ext4-sparse
# (vm-scalability's cases as written: a sparse file, holes only, on the
# same ext4, dropped before each run, so that every run's first reader
# fills the page cache with zeroed pages through readahead, as the
# case's fresh file does).  dynexec starts -x (make bench: fa-bench
# built dynamically), its ld.so and libraries from the initramfs;
# dynexec@<state> starts copies of all three on that state's file
# system (fa-bench -L), and @ext4-ra reads each as it reads the file.
# What the system cannot run (no -x, no -e, no huge tmpfs) is left out,
# with a message.
#
# Where the kernel's knob cannot be written (debugfs locked or not
# mounted, not root), the sweep measures the current setting only, says
# so, and reports its order, or -1 where it cannot be read.
#
# mixed reads the file in order in one thread while another does
# sparse's passes over a second file, of sparse's size.
#
# The adaptive policy's v4 held-out workloads (streams3, hot-skew,
# smallfiles, seq-sparse-seq) are fa-bench's, over the usual file.
# The adaptive policy's held-out workloads (fa-bench: seq-interleaved,
# always 2 threads, hot-reuse, manymaps-seq, seq-then-sparse,
# sparse-then-seq) read the usual file; sparse-1g is sparse's reader
# over a sparse file of 1 GiB on the ext4 image (-e), one page per page
# table, dropped before each run: more than a per-mapping state's reach.
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
# hotcold (fa-bench -w hotcold) reads a stream, the file, in order in 16
# chunks, and after each chunk as many random pages of a hot file, a
# quarter of its size, as it has; both on ext4 (-e), dropped before each
# run; hotscan reads one stream page in 4.  They run in the cgroup v2
# memory cgroup fa-bench, whose memory.max is -M MiB (auto: half the
# file, below the two files' pages) or, for <workload>@unlimited, max.  Its rows add fa-bench's second line: the fates
# of the pages it read, and the reclaim counts of /proc/vmstat and of the
# cgroup (fa-bench -E names them).
#
# page_fault2, page_fault3 and page_fault4 (will-it-scale's cases, as
# their names describe them) are processes like mmap-pread's, 1 and N:
# 2 and 3 write (controls: a write fault never faults around), 4 reads a
# private mapping.  page_fault3 writes its file, so it runs on tmpfs only.
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
# build and rebuild (-B: scripts/bench/toolchain.sh's image, x86_64) run
# Debian's gcc in a chroot of that image on a loop device, warm: build
# compiles and links three of the Linux build's host programs with
# kbuild's commands, rebuild links scripts/kconfig/conf from its objects
# (the seed's "Linux build" and "rebuild" in miniature).  One untimed run
# of each first, so that every timed run finds its files cached.
#
# After each workload's runs, a line "sweep: folios <workload>: <order>:
# <pages> ... uncached:<pages>" gives the folio sizes its file is cached
# in (fa-folios, beside -b's fa-bench: the page cache's state the runs
# left, not a copy: it maps every cached page of the file once).
#
# -p runs each fa-bench under perf stat -e <events> (natively: make bench
# NATIVE=1) and adds a column perf:<event> per event: its count over the
# whole process and its children (program start, setup, the timed work,
# teardown and exit: not the timed region alone), a clock's (task-clock)
# in ns, or what perf printed instead (<not supported>, <not counted>).

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
here=$(dirname "$0")	# fio-own.awk's directory too
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
mounts="$dir/fa-huge $dir/fa-huge-within $dir/fa-ext4"	# state_dir's
holder= held=$dir/fa-held.$$ counts=$dir/fa-perf.$$ cg=
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

# state_dir <state>: where the file of that page-cache state is, set up
# on first use; fails where the system cannot have it.
state_dir() {
	case $1 in
	tmpfs)	[ "$(stat -f -c %T "$dir")" = tmpfs ] || return
		echo "$dir" ;;
	huge|huge-within)
		local m=$dir/fa-$1 opt=always
		[ "$1" = huge ] || opt=within_size
		mkdir -p "$m"
		grep -q " $m " /proc/mounts ||
			mount -t tmpfs -o huge=$opt,size=$((mib + ${sparse_mib:-0} + 4))m "fa-$1" "$m" ||
			return
		echo "$m" ;;
	ext4|ext4-cold|ext4-sparse|ext4-ra)
		[ -n "$image" ] || return
		mkdir -p "$dir/fa-ext4"
		grep -q " $dir/fa-ext4 " /proc/mounts ||
			"$here/loop-mount.sh" "$image" "$dir/fa-ext4" || return
		echo "$dir/fa-ext4" ;;
	*)	return 1 ;;
	esac
}
# toolchain: the -B image's root, mounted read-only with a tmpfs for the
# outputs, on first use; fails without -B or root.
toolchain() {
	local root=$dir/fa-tc
	[ -n "$tc_img" ] || return
	if ! grep -q " $root " /proc/mounts; then
		mkdir -p "$root" && "$here/loop-mount.sh" "$tc_img" "$root" -r &&
			mount -t tmpfs -o size=64m fa-out "$root/fa-out" || return
	fi
	echo "$root"
}
# cgroup: hotcold's memory cgroup, made on first use; fails where the
# kernel has no cgroup v2 memory controller or this is not root.
cgroup() {
	local root=/sys/fs/cgroup
	if [ -z "$cg" ]; then
		# Mounted only where nothing is (the guest): never over a host's.
		grep -q "^[^ ]* $root " /proc/mounts ||
			mount -t cgroup2 none $root 2>/dev/null
		grep -q "^[^ ]* $root cgroup2 " /proc/mounts || return
		grep -qw memory $root/cgroup.controllers 2>/dev/null || return
		echo +memory > $root/cgroup.subtree_control 2>/dev/null &&
			mkdir -p $root/fa-bench || return
		cg=$root/fa-bench
	fi
	echo "$cg"
}
# sparse reads one page per page table: where the file is smaller than
# one (64KiB pages: 512MiB), sparse gets a file of one page table.
span_mib=$(( (page * pt_ptes) >> 20 ))
sparse_mib=
[ "$mib" -ge "$span_mib" ] || sparse_mib=$span_mib
# file_of <workload> <dir>: the file it reads; file_mib <file>: its size.
file_of() {
	case $1 in
	*@ext4-sparse) echo "$2/fa-hole.file"; return ;;
	sparse-1g) echo "$2/fa-hole-1g.file"; return ;;
	esac
	if [ "${1%@*}" = sparse ] && [ -n "$sparse_mib" ]; then
		echo "$2/fa-sparse.file"
	else
		echo "$2/fa-bench.file"
	fi
}
# read_file <workload>: its file (exec's and anon's only for its size).
read_file() {
	local s=tmpfs
	case $1 in *@*) s=${1#*@} ;; esac
	case ${1%@*} in hotcold|hotscan|sparse-1g) s=ext4 ;; esac
	file_of "$1" "$(state_dir "$s")"
}
file_mib() {
	case $1 in
	*/fa-hole-1g.file) echo 1024 ;;
	*/fa-hot.file) echo $((mib / 4)) ;;
	*/fa-sparse.file) echo "$sparse_mib" ;;
	*/fa-mixed.file) echo "${sparse_mib:-$mib}" ;;
	*) echo "$mib" ;;
	esac
}
# dyn_copy <dir>: -x's program, its libraries and its ld.so (named ld.so,
# as fa-bench -L runs it) copied to dir, once; the list is the one the
# program's ld.so prints, ldd's way (busybox has no ldd).
dyn_copy() {
	[ ! -f "$1/ld.so" ] || return 0
	mkdir -p "$1" && cp "$dyn" "$1/" || return
	LD_TRACE_LOADED_OBJECTS=1 "$dyn" |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1, "ld.so" }' |
		while read -r lib as; do cp "$lib" "$1/${as:-${lib##*/}}" || exit; done &&
		[ -f "$1/ld.so" ]
}
# cached_files <workload>: the files its runs read from the page cache,
# as fa-folios and @ext4-ra read them: dynexec@<state>'s copies, or the
# file.
cached_files() {
	case $1 in
	dynexec@*) echo "$(state_dir "${1#*@}")"/fa-dyn/* ;;
	*)	read_file "$1" ;;
	esac
}
# make_file <file>: made once, of file_mib's size: written (all of it
# in the page cache), or for a hole file (@ext4-sparse, sparse-1g) a
# sparse one, holes only.
make_file() {
	[ ! -f "$1" ] || return 0
	if is_hole "$1"; then
		truncate -s "$(file_mib "$1")M" "$1"
	else
		$bench -C -f "$1" -m "$(file_mib "$1")"
	fi
}
# is_hole <file>: a file of holes only (@ext4-sparse's, sparse-1g's).
is_hole() { case $1 in */fa-hole*.file) return 0 ;; esac; return 1; }
# Each workload's page-cache state ready, its file written once; what
# cannot run here is left out.
kept=
for w in $workloads; do
	state=tmpfs
	case $w in *@*) state=${w#*@} ;; esac
	case ${w%@*} in
	exec) ok=1 ;;	# anon too needs the file: its size
	hotcold|hotscan)
		if [ -z "$limit" ]; then
			ok="no memory.max (-M)"
		elif ! d=$(state_dir ext4 2>/dev/null); then
			ok="no ext4 here (-e and root)"
		elif ! cgroup > /dev/null; then
			ok="no cgroup v2 memory controller here (CONFIG_MEMCG, root)"
		else
			for f in "$d/fa-bench.file" "$d/fa-hot.file"; do
				make_file "$f" ||
					die "cannot write $f (the ext4 image holds the file and a quarter more, and its metadata)"
			done
			ok=1
		fi ;;
	dynexec)
		if [ -z "$dyn" ]; then
			ok="no dynamic program (-x)"
		elif [ "$w" = dynexec ]; then
			ok=1
		elif [ "$state" = ext4-cold ] || [ "$state" = ext4-sparse ]; then
			ok="fa-bench -c drops no program: not @$state"
		elif ! d=$(state_dir "$state" 2>/dev/null); then
			ok="no $state here (tmpfs needs -d on a tmpfs, ext4 -e and root, huge and huge-within a THP kernel and root)"
		else
			dyn_copy "$d/fa-dyn" || die "cannot copy $dyn and its libraries to $d/fa-dyn"
			ok=1
		fi ;;
	start-fio) [ -n "$fio" ] && ok=1 || ok="no fio (-F)" ;;
	sparse-1g)
		if ! d=$(state_dir ext4 2>/dev/null); then
			ok="no ext4 here (-e and root)"
		else
			make_file "$d/fa-hole-1g.file" || die "cannot make $d/fa-hole-1g.file"
			ok=1
		fi ;;
	build|rebuild)
		if ! tc=$(toolchain 2>/dev/null); then
			ok="no toolchain image (-B) or not root"
		elif ! $bench -w run -n 1 -- /bin/busybox chroot "$tc" /bin/sh "/$w.sh" /fa-out > /dev/null; then
			die "$w in $tc_img fails"
		else
			ok=1
		fi ;;
	*)	# What a missing program or the state rules out, if anything.
		case ${w%@*}:$state:${fio:+fio} in
		fio-*:*:) why="no fio (-F)" ;;
		fio-read:huge*:*|fio-randread:huge*:*)
			why="fio's cross-check counts PTE faults: not @huge" ;;
		fio-read:ext4-sparse:*|fio-randread:ext4-sparse:*)
			why="fio drops its file for @ext4-cold only" ;;
		fio-read:*|fio-randread:*) why= ;;
		fio-*)	why="the fio rows are fio-read and fio-randread" ;;
		# Its writes would leave the file dirty, and a cold run's drop
		# would then keep it.
		page_fault3:tmpfs:*) why= ;;
		page_fault3:*)	why="page_fault3 writes its file: tmpfs only" ;;
		*)	why= ;;
		esac
		if [ -n "$why" ]; then
			ok=$why
		elif d=$(state_dir "$state") 2>/dev/null; then
			f=$(file_of "$w" "$d")
			if [ "$f" = "$d/fa-sparse.file" ] && [ $((sparse_mib * 3)) -gt "$mem" ]; then
				ok="its file, a page table, is $sparse_mib MiB: more than a third of the memory"
			# A hole file takes no blocks.
			elif [ ! -f "$f" ] && ! is_hole "$f" &&
			     [ "$(df -P -k "$d" | awk 'NR == 2 { print $4 }')" -lt \
				$(($(file_mib "$f") * 1024)) ]; then
				ok="its file, $(file_mib "$f") MiB, does not fit in $d"
			else
				for f in $f $([ "${w%@*}" != mixed ] || echo "$d/fa-mixed.file"); do
					make_file "$f" || die "cannot write $f"
				done
				# The first shared writes of the file cost more
				# than the later ones (0.79 and 1.27 of the next in
				# two smoke boots): one untimed run first.
				[ "${w%@*}" != page_fault3 ] ||
					$bench -w page_fault3 -f "$f" > /dev/null ||
					die "cannot warm page_fault3 up"
				ok=1
			fi
		else
			ok="no $state here (tmpfs needs -d on a tmpfs, ext4 -e and root, huge and huge-within a THP kernel and root)"
		fi ;;
	esac
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
	echo "[$run/$total] $2 workers=$3 order=$4 $1 rep=$5: $6 minor faults, clock $8 ns" >&2
}

echo "workload,threads,order,setup,rep,minflt,majflt,ns,pages,mapped,fa_calls,fa_mapped,fixed_ns,teardown_ns,distinct,unread,prog_minflt,prog_majflt$(
	[ -z "$perf" ] || echo ",$perf" | sed 's/,/,perf:/g')$(
	[ -z "$limit" ] || $bench -E | tr ' ' ,| sed 's/^/,/')"
folios=${bench%fa-bench}fa-folios
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
