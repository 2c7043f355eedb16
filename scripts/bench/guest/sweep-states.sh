#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sourced by sweep.sh: the page-cache states a workload reads its file in,
# the files, and admit(), which says whether a workload can run here.
#
# A workload (fa-bench -w) reads a file in the page-cache state after its
# "@": @tmpfs (the default: warm, all of it in the page cache), @huge
# (tmpfs huge=always: large folios), @huge-within (huge=within_size),
# @ext4 (warm, ext4 on a loop device over the -e image, as its writes
# left it), @ext4-ra (the same file dropped and read with dd bs=1M once
# before the workload's runs: readahead's folios, warm), @ext4-cold (the
# same with the file's pages dropped before each run, fa-bench -c: major
# faults, readahead), @ext4-sparse (vm-scalability's cases as written: a
# sparse file, holes only, on the same ext4, dropped before each run, so
# that every run's first reader fills the page cache with zeroed pages
# through readahead, as the case's fresh file does), @shmem-<N>k (shared
# anonymous memory of the file's size in folios of N KiB: see
# shmem_hold()).  dynexec starts -x (make bench: fa-bench built
# dynamically), its ld.so and libraries from the initramfs;
# dynexec@<state> starts copies of all three on that state's file system
# (fa-bench -L), and @ext4-ra reads each as it reads the file.  What the
# system cannot run (no -x, no -e, no huge tmpfs, no such mTHP size) is
# left out, with a message.
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
# build and rebuild (-B: scripts/bench/toolchain.sh's image, x86_64) run
# Debian's gcc in a chroot of that image on a loop device, warm: build
# compiles and links three of the Linux build's host programs with
# kbuild's commands, rebuild links scripts/kconfig/conf from its objects
# (the seed's "Linux build" and "rebuild" in miniature).  One untimed run
# of each first, so that every timed run finds its files cached.

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
	shmem-*)	# the holder's path: the state's file itself (file_of)
		shmem_hold "${1#shmem-}" ;;
	*)	return 1 ;;
	esac
}
# shmem_hold <N>k: the /proc/<pid>/map_files/ path of a holder (fa-bench
# -S) of the file's size of shared anonymous memory, written while N KiB
# is the only shmem mTHP size allowed (hugepages-<N>kB/shmem_enabled,
# which anonymous shared memory follows and tmpfs mounts do not), the
# sizes set back as soon as it is written; started on first use (from a
# subshell too: its files say it runs).  A reader maps the same pages
# through the path: the holder's shmem file, whose mappings are anonymous
# shared memory too.  Fails without that size or root.  restore() stops
# the holders, and sets the sizes back if a sweep stopped in between.
shmem_hold() {
	local out path mthp=/sys/kernel/mm/transparent_hugepage c

	out=$(shmem_file "hold-$1")
	path=$out.path
	if [ ! -s "$path" ]; then
		[ -w "$mthp/hugepages-${1%k}kB/shmem_enabled" ] || return
		for c in "$mthp"/hugepages-*kB/shmem_enabled; do
			echo "$c $(sed 's/.*\[\(.*\)\].*/\1/' "$c")"
		done > "$(shmem_file saved)"
		for c in "$mthp"/hugepages-*kB/shmem_enabled; do
			echo never > "$c" || return
		done
		echo always > "$mthp/hugepages-${1%k}kB/shmem_enabled" || return
		$bench -S -m "$mib" > "$path" &
		echo $! > "$out"	# before the wait: restore() kills it
		while [ ! -s "$path" ]; do
			kill -0 "$(cat "$out")" 2>/dev/null || break
			sleep 1
		done
		shmem_sizes_back
		[ -s "$path" ] || return
	fi
	cat "$path"
}
# shmem_expect <N>k: the folio order a holder of N KiB folios has.
shmem_expect() {
	local n=$(( ${1%k} * 1024 / page )) o=0

	while [ $((1 << o)) -lt "$n" ]; do o=$((o + 1)); done
	echo "$o"
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
	*@shmem-*) echo "$2"; return ;;
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
# admit <workload>: its page-cache state ready and its file written once;
# sets ok to 1, or to why it cannot run here.
admit() {
	local w=$1

	state=tmpfs
	case $w in *@*) state=${w#*@} ;; esac
	case $state in shmem-*) admit_shmem "$w"; return ;; esac
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
			ok="no $state here (tmpfs needs -d on a tmpfs, ext4 -e and root, huge and huge-within a THP kernel and root, shmem-<size> that shmem mTHP size and root)"
		fi ;;
	esac
}
# admit_shmem <workload>@shmem-<N>k: a reader of the one file, of the
# sparse size or less, whose holder's folios are all N KiB.
admit_shmem() {
	local name=${1%@*} size=${1#*@shmem-} want got pages

	case $name in
	seq|rand|sparse|mmap-pread-*|mmap-xread-seq-mt|page_fault4|stride64k|hot-reuse|hot-skew|streams3|seq-*|sparse-then-seq|manymaps-seq|smallfiles) ;;
	*)	ok="@shmem-$size is one file of shared memory, for a reader of it: not $name"
		return ;;
	esac
	if [ "$name" = sparse ] && [ -n "$sparse_mib" ]; then
		ok="sparse's file, a page table, is $sparse_mib MiB: more than the holder's $mib MiB"
	elif ! d=$(state_dir "shmem-$size" 2>/dev/null); then
		ok="no shmem-$size here (the shmem mTHP size hugepages-${size%k}kB and root)"
	else
		want=$(shmem_expect "$size")
		got=$(${bench%fa-bench}fa-folios "$d") || die "cannot read $d's folios"
		# All of it at that order: "folios: <order>:<pages> uncached:0".
		pages=${got#"folios: $want:"}
		pages=${pages%" uncached:0"}
		case $pages in
		""|*[!0-9]*) ok="its holder's folios are not all of order $want ($got): shmem_enabled deny or force, or no memory for them" ;;
		*)	ok=1 ;;
		esac
	fi
}
