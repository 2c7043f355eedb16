#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by bench.sh: make bench's variables (bench.sh's header says what
# each does) checked against each other, the workload sets, and what the
# mode implies: the guest(s), the orders, repetitions and boots, and the
# output directory $out.  A bad combination dies here, before a build.

# The guest(s): make bench ARCH= runs itself once per guest.  ARCH is
# ours from here: kernel.sh passes each build its own.
arch=${ARCH:-x86_64}
unset ARCH
if [ -z "${GUEST:-}" ]; then
	guests=$(awk -v a="$arch" '$2 == a { print $1 }' <<< "$GUESTS")
	[ -n "$guests" ] || die "ARCH=$arch: no guest of that architecture (lib.sh's GUESTS)"
	if [ "$(wc -w <<< "$guests")" -gt 1 ]; then
		for g in $guests; do GUEST=$g "$0" || exit; done
		exit 0
	fi
	GUEST=$guests
fi
guest_field "$GUEST" 1 >/dev/null
variant=normal
POLICY=${POLICY:-off}
[ -z "${CAP:-}" ] || { [ "$POLICY" = adaptive ] && [[ $CAP =~ ^[0-9]+$ ]] &&
	[ "${PRESSURE:-0}${NATIVE:-0}${QUICK:-0}" = 000 ]; } ||
	die "CAP=$CAP: an order, with POLICY=adaptive (not PRESSURE=1, NATIVE=1 or QUICK=1)"
case $POLICY in
off) ;;
adaptive) [ "${AB:-0}${AA:-0}" = 00 ] || die "POLICY=adaptive: not with AB=1 or AA=1" ;;
*) die "POLICY must be off or adaptive, not '$POLICY'" ;;
esac
case ${FOLIOS:-0} in 0|1) ;; *) die "FOLIOS must be 0 or 1, not '$FOLIOS'" ;; esac
case ${BOUND:-0} in
0) ;;
1) [ "${FOLIOS:-0}" = 1 ] || [ "${PRESSURE:-0}" = 1 ] ||
	die "BOUND=1: with FOLIOS=1 or PRESSURE=1"
   [ "$POLICY" = off ] && [ "${NATIVE:-0}" = 0 ] ||
	die "BOUND=1: not with POLICY=adaptive or NATIVE=1" ;;
*) die "BOUND must be 0 or 1, not '$BOUND'" ;;
esac
[ "${FOLIOS:-0}" = 0 ] ||
	[ "${QUICK:-0}${AB:-0}${AA:-0}${POSTED:-0}${PRESSURE:-0}" = 00000 ] ||
	die "FOLIOS=1: not with QUICK=1, AB=1, AA=1, POSTED=1 or PRESSURE=1"
if [ "${PRESSURE:-0}" = 1 ]; then
	[ "${QUICK:-0}${AB:-0}${AA:-0}${NATIVE:-0}" = 0000 ] ||
		die "PRESSURE=1: not with QUICK=1, AB=1, AA=1 or NATIVE=1"
elif [ -n "${CPU:-}" ]; then
	die "CPU=$CPU: PRESSURE=1's only"
fi
if [ "$GUEST" != x86_64 ]; then
	[ "${QUICK:-0}${AB:-0}${AA:-0}${NATIVE:-0}${POSTED:-0}" = 00000 ] ||
		die "QUICK=1, AB=1, AA=1, NATIVE=1 and POSTED=1 are x86_64's: not with GUEST=$GUEST"
	variant=$GUEST MIB=${MIB:-60} MODCOST=0 BASELINES=0	# the module is x86_64's
fi

# The adaptive policy's held-out workloads (issue 29), written with its
# goals (scripts/bench/benchreport/data.py) before any constant is tuned.
WORKLOADS_HELDOUT="sparse-1g seq-interleaved hot-reuse manymaps-seq
seq-then-sparse sparse-then-seq"
# Its version 4's (issue 47; Documentation/adaptive.rst), written with
# their goals before any change to it: WORKLOADS=heldout4.
WORKLOADS_HELDOUT4="streams3 hot-skew smallfiles seq-sparse-seq"
# WORKLOADS=public: the programs and cases nobody here wrote, with 1, 2
# (the guest's vCPUs) and 4 tasks where they run per CPU.
WORKLOADS_PUBLIC="fio-read fio-randread start-fio build rebuild
mmap-pread-seq@ext4-sparse mmap-pread-rand@ext4-sparse mmap-xread-seq-mt
page_fault2 page_fault3 page_fault4"
# FOLIOS=1: the tuning workloads of Documentation/large-folios.rst.
WORKLOADS_FOLIOS=$(for s in ext4-ra ext4-cold tmpfs huge-within huge; do
	printf '%s@%s ' seq "$s" rand "$s" sparse "$s" mmap-pread-seq "$s" mmap-pread-rand "$s"
done)
# FOLIOS=1 WORKLOADS=heldout: its held-out workloads, never tuned on.
WORKLOADS_FOLIOS_HELDOUT="stride64k@ext4-ra hot-reuse@huge-within
seq-interleaved@ext4-ra dynexec@ext4-ra"
# FOLIOS=1 WORKLOADS=public: the public rows on ext4, as held out: in
# readahead's folios, vm-scalability's cases as written (@ext4-sparse),
# and the build rows, whose toolchain image is ext4 too.
WORKLOADS_FOLIOS_PUBLIC="fio-read@ext4-ra fio-randread@ext4-ra
mmap-xread-seq-mt@ext4-ra page_fault4@ext4-ra mmap-pread-seq@ext4-sparse
mmap-pread-rand@ext4-sparse build rebuild"
# FOLIOS=1 WORKLOADS=mthp: the readers in shared anonymous memory, at
# shmem mTHP sizes below, at and above the default 64KiB window.
WORKLOADS_FOLIOS_MTHP=$(for s in shmem-16k shmem-64k shmem-256k; do
	printf '%s@%s ' seq "$s" rand "$s" sparse "$s" mmap-pread-seq "$s" mmap-pread-rand "$s"
done)
[ "${FOLIOS:-0}" = 0 ] || WORKLOADS=${WORKLOADS:-$WORKLOADS_FOLIOS}
WORKLOADS_ALL="seq rand sparse mmap-pread-seq mmap-pread-rand mmap-pread-seq@ext4
mmap-pread-rand@ext4 mmap-pread-seq@ext4-cold mmap-pread-rand@ext4-cold
mmap-pread-seq@huge exec dynexec"
if [ "${QUICK:-0}" = 1 ]; then
	# Consecutive orders: the shape check wants every step to halve.
	ORDERS=${ORDERS:-0 1 2 3 4} REPS=${REPS:-3} MIB=${MIB:-16} BOOTS=${BOOTS:-1}
	WORKLOADS=${WORKLOADS:-seq sparse mmap-pread-seq anon}
	out=$BUILD/bench-quick
elif [ "${NATIVE:-0}" = 1 ]; then
	out=$BUILD/bench-native BOOTS=1
	[ "$POLICY" = off ] || out=$out-adaptive
	[ "${FOLIOS:-0}" = 0 ] || out=$out-folios
elif [ "${AA:-0}" = 1 ]; then
	[ "${AB:-0}" != 1 ] || die "AA=1 and AB=1: one or the other"
	out=$BUILD/bench-aa
	# Orders besides the default: the order verdicts get an A/A too.
	ORDERS=${ORDERS:-0 2 4 6} REPS=${REPS:-5}
elif [ "${AB:-0}" = 1 ]; then
	out=$BUILD/bench-ab	# not over make bench's own results
	[ "${KUNIT:-n}" != m ] || out=$BUILD/bench-ab-kunit-m
	if [ -n "${AB_PATCHES:-}" ]; then
		[[ $AB_PATCHES =~ ^([1-9][0-9]*)-([1-9][0-9]*)$ ]] &&
			[ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
			die "AB_PATCHES must be M-N with 1 <= M <= N, not '$AB_PATCHES'"
		[ "${KUNIT:-n}" != m ] || die "AB_PATCHES compares release kernels: no KUNIT=m"
		ab_new=release-p${BASH_REMATCH[2]}
		ab_old=release-p$((BASH_REMATCH[1] - 1))
		out=$BUILD/bench-ab-p$AB_PATCHES
	fi
	# The A/B is at the default order; its precision comes from BOOTS.
	ORDERS=${ORDERS:-4} REPS=${REPS:-10}
elif [ "${PRESSURE:-0}" = 1 ]; then
	out=$BUILD/bench-pressure
	[ "$GUEST" = x86_64 ] || out=$out-$GUEST
	[ "$POLICY" = off ] || out=$out-adaptive
	[ "${BOUND:-0}" = 0 ] || out=$out-bound
	if [ -n "${CPU:-}" ]; then
		[[ $GUEST == arm64-* ]] || die "CPU=$CPU: the arm64 guests' only"
		export QEMU_CPU=$CPU
		out=$out-$CPU
	fi
	WORKLOADS=${WORKLOADS:-hotcold hotcold@unlimited hotscan hotscan@unlimited}
elif [ "${FOLIOS:-0}" = 1 ]; then
	out=$BUILD/bench-folios
	[ "$GUEST" = x86_64 ] || out=$out-$GUEST
	[ "${BOUND:-0}" = 0 ] || out=$out-bound
	[ "$POLICY" = off ] || out=$out-adaptive
elif [ "${POSTED:-0}" = 1 ]; then
	[ "${AB:-0}${AA:-0}${NATIVE:-0}${PRESSURE:-0}$POLICY" = 0000off ] ||
		die "POSTED=1: not with AB=1, AA=1, NATIVE=1, PRESSURE=1 or POLICY="
	upstream=$(series_patches | wc -l)
	variant=release-p$upstream
	out=$BUILD/bench-posted
elif [ "$POLICY" = adaptive ]; then
	out=$BUILD/bench-adaptive
	# Every goal on every workload, public and held-out, in the same boots
	# (the public programs are x86_64's guest's only).
	public=$WORKLOADS_PUBLIC
	[ "$GUEST" = x86_64 ] || out=$BUILD/bench-$GUEST-adaptive public=
	# CAP=<order>: the policies' cap, the global order set for their runs.
	[ -z "${CAP:-}" ] || out=$out-cap$CAP
	WORKLOADS=${WORKLOADS:-$WORKLOADS_ALL mixed $WORKLOADS_HELDOUT $public}
elif [ "$GUEST" = x86_64 ]; then
	out=$BUILD/bench
else
	out=$BUILD/bench-$GUEST
fi
# BASE=6.12: the backport's runs beside the main base's (build/bench-6.12...).
out=$out$BASE_SUFFIX
ORDERS=${ORDERS:-all}
REPS=${REPS:-3}
BOOTS=${BOOTS:-3}
THREADS=${THREADS:-1}
TASKS=${TASKS:-auto}
MIB=${MIB:-auto}
if [ "${WORKLOADS:-}" = public ] && [ "${FOLIOS:-0}" = 1 ]; then
	WORKLOADS=$WORKLOADS_FOLIOS_PUBLIC out=$out-public
elif [ "${WORKLOADS:-}" = public ]; then
	WORKLOADS=$WORKLOADS_PUBLIC
	[ "$TASKS" != auto ] || TASKS="1 2 4"
elif [ "${WORKLOADS:-}" = mthp ]; then
	[ "${FOLIOS:-0}" = 1 ] || die "WORKLOADS=mthp: with FOLIOS=1"
	WORKLOADS=$WORKLOADS_FOLIOS_MTHP out=$out-mthp
elif [ "${WORKLOADS:-}" = heldout ] && [ "${FOLIOS:-0}" = 1 ]; then
	WORKLOADS=$WORKLOADS_FOLIOS_HELDOUT out=$out-heldout
elif [ "${WORKLOADS:-}" = heldout ]; then
	WORKLOADS=$WORKLOADS_HELDOUT
elif [ "${WORKLOADS:-}" = heldout4 ]; then
	WORKLOADS="$WORKLOADS_HELDOUT4 seq hot-reuse mmap-pread-seq"
	[ "$THREADS" != 1 ] || THREADS="1 2"
fi
WORKLOADS=$(echo ${WORKLOADS:-$WORKLOADS_ALL})
# The fio rows (sweep.sh -F) and the build rows (-B): the guest's
# initramfs carries fio, or the toolchain image, only for them; natively,
# the host's fio, and no build rows.
fio_rows=0 fio_path= build_rows=0
case " $WORKLOADS " in *" fio-"*|*" start-fio "*) fio_rows=1 fio_path=$(command -v fio || true) ;; esac
case " $WORKLOADS " in *" build "*|*" rebuild "*) build_rows=1 ;; esac
CLOCK=${CLOCK:-icount}
MODCOST=${MODCOST:-0}
limit=
[ "${PRESSURE:-0}" != 1 ] || limit=${LIMIT:-auto}
