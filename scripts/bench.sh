#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the patched lab kernel under QEMU, run the fault-around
# sweep (tests/bench/sweep.sh) in the guest, and report it.
#
# Settings (make variables or environment):
#   ORDERS="0 1 3 4 5 8"  REPS=5  THREADS="1 2"  MIB=64
#   WORKLOADS="seq rand sparse exec"
#   CLOCK=icount (guest time counts instructions) or CLOCK=wall
#   AB=1 also builds the unpatched base kernel and compares the two
. "$(dirname "$0")/lib.sh"

ORDERS=${ORDERS:-0 1 3 4 5 8}
REPS=${REPS:-5}
THREADS=${THREADS:-1 2}
MIB=${MIB:-64}
WORKLOADS=${WORKLOADS:-seq rand sparse exec}
CLOCK=${CLOCK:-icount}
out=$BUILD/bench
mkdir -p "$out"

case $CLOCK in
icount)	export QEMU_OPTS="-icount shift=0,sleep=off"
	clock_note="QEMU -icount: guest time is a function of instructions executed, not host load" ;;
wall)	export QEMU_OPTS=""
	clock_note="wall clock under QEMU TCG: host load adds noise" ;;
*)	die "CLOCK must be icount or wall" ;;
esac
echo "$clock_note" >&2

csv_list() { echo "$*" | tr ' ' ,; }
sweep() {	# sweep <variant>: boot it, leave the runs in $out/runs-<variant>.csv
	local variant=$1 kernel initrd
	kernel=$("$TOP/scripts/kernel.sh" "$variant" | tail -n1)
	initrd=$("$TOP/scripts/initramfs.sh" "$variant" | tail -n1)
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600} "$TOP/scripts/qemu-run.sh" "$kernel" "$initrd" \
		"bench-$variant" fa.mode=bench fa.orders="$(csv_list $ORDERS)" \
		fa.reps="$REPS" fa.threads="$(csv_list $THREADS)" \
		fa.workloads="$(csv_list $WORKLOADS)" fa.mib="$MIB" >&2
	# The guest's progress lines are on the console; show them.
	grep -a '^\[[0-9]*/[0-9]*\]' "$BUILD/boot/bench-$variant.console.log" >&2 || true
	tr -d '\r' < "$BUILD/boot/bench-$variant.result.log" |
		grep -E '^(workload,|[a-z]+,[0-9]+,)' > "$out/runs-$variant.csv"
}

sweep normal
sets=("patched=$out/runs-normal.csv")
if [ "${AB:-0}" = 1 ]; then
	sweep base
	sets+=("base=$out/runs-base.csv")
fi
# Debian's python3, which has python3-scipy (not a pyenv one on PATH).
/usr/bin/python3 "$TOP/scripts/bench-report.py" --out "$out" \
	--meta "kernel=$(make -s -C "$TREE" kernelversion)" \
	--meta "base=$BASE_VERSION" \
	--meta "config=Kconfig.snippets/qemu.config" \
	--meta "qemu=$(cat "$BUILD/boot/accel") ${QEMU_OPTS:-}" \
	--meta "clock=$CLOCK" --meta "guest_cpus=2" --meta "file_mib=$MIB" \
	--meta "reps=$REPS" "${sets[@]}" | tee "$out/report.txt"
echo "raw runs and plots: $out/results.csv $out/results.json $out/*.png" >&2
