#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the patched lab kernel under QEMU, run the fault-around
# sweep (tests/bench/sweep.sh) in the guest, and report it.
#
# Settings (make variables or environment):
#   ORDERS="0 1 3 4 5 8"  REPS=5  WORKLOADS="seq rand sparse exec"
#   THREADS="1 2"  MIB=62  (by default sweep.sh picks them: the guest's
#                          CPUs, 1/16 of its memory; the report says which)
#   CLOCK=icount (guest time counts instructions) or CLOCK=wall
#   MODCOST=1 also measures mod_faultaround (not loaded, idle, 256 overrides)
#   AB=1 compares the patched kernel with the unpatched base, both built
#        without KUnit (kernel.sh release and base), into build/bench-ab/;
#        with KUNIT=m, both with CONFIG_KUNIT=m instead (release-kunit-m,
#        base-kunit-m), into build/bench-ab-kunit-m/.  BOOTS=3 boots of
#        each, alternately; its defaults are ORDERS=4 REPS=10 MODCOST=0.
#        AB_PATCHES=M-N instead compares upstream patches 1..N with
#        1..M-1 (kernel.sh release-pN, release-p<M-1>), into
#        build/bench-ab-pM-N/: what patches M to N cost on their own
#   QUICK=1 a smoke sweep (orders 0-4, 3 repetitions, 16 MiB) into
#           build/bench-quick/, which fails unless the results have the
#           expected shape (scripts/bench-shape.py)
. "$(dirname "$0")/lib.sh"

if [ "${QUICK:-0}" = 1 ]; then
	# Consecutive orders: the shape check wants every step to halve.
	ORDERS=${ORDERS:-0 1 2 3 4} REPS=${REPS:-3} MIB=${MIB:-16}
	out=$BUILD/bench-quick
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
	ORDERS=${ORDERS:-4} REPS=${REPS:-10} MODCOST=${MODCOST:-0}
else
	out=$BUILD/bench
fi
ORDERS=${ORDERS:-0 1 3 4 5 8}
REPS=${REPS:-5}
THREADS=${THREADS:-auto}
MIB=${MIB:-auto}
WORKLOADS=${WORKLOADS:-seq rand sparse exec}
CLOCK=${CLOCK:-icount}
MODCOST=${MODCOST:-1}
mkdir -p "$out"

case $CLOCK in
icount)	export QEMU_OPTS="-icount shift=0,sleep=off"
	clock_note="QEMU -icount: guest time is a function of instructions executed, not host load" ;;
wall)	export QEMU_OPTS=""
	clock_note="wall clock under QEMU TCG: host load adds noise" ;;
*)	die "CLOCK must be icount or wall" ;;
esac
echo "$clock_note" >&2

sizes=
csv_list() { echo "$*" | tr ' ' ,; }
# sweep <variant> [<name>]: boot it, leave the runs in $out/runs-<name>.csv
sweep() {
	local variant=$1 name=${2:-$1} kernel initrd console qemu modcost=$MODCOST
	# The module needs the lab patch, which base and release-p<N> lack.
	# With CONFIG_KUNIT=m the module, whose KUnit suite is built in,
	# needs kunit.ko, which the initramfs does not carry.
	case $variant in base*|release-p*|*-kunit-m) modcost=0 ;; esac
	kernel=$("$TOP/scripts/kernel.sh" "$variant" | tail -n1)
	[ "$modcost" != 1 ] || "$TOP/scripts/module.sh" "$variant" >&2
	initrd=$("$TOP/scripts/initramfs.sh" "$variant" | tail -n1)
	console=$BUILD/boot/bench-$name.console.log
	rm -f "$console"
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600} "$TOP/scripts/qemu-run.sh" "$kernel" "$initrd" \
		"bench-$name" fa.mode=bench fa.orders="$(csv_list $ORDERS)" \
		fa.reps="$REPS" fa.threads="$(csv_list $THREADS)" \
		fa.workloads="$(csv_list $WORKLOADS)" fa.mib="$MIB" \
		fa.modcost="$modcost" >&2 &
	qemu=$!
	# The guest's progress lines are on its console: follow them live.
	tail -n +1 -F --pid=$qemu "$console" 2>/dev/null |
		sed -u -n 's/\r$//; /^\[[0-9]*\/[0-9]*\]/p' >&2 ||
		true	# tail fails if the log was missing at first; it waited
	wait $qemu || die "the bench guest failed (see $console)"
	accel=$(cat "$BUILD/boot/bench-$name.accel")	# what qemu-run.sh used
	# The sizes of the first sweep: the base one runs no module-cost runs.
	[ -n "$sizes" ] ||
		sizes=$(tr -d '\r' < "$console" | sed -n 's/^sweep: \(file .*\)/\1/p')
	tr -d '\r' < "$BUILD/boot/bench-$name.result.log" |
		grep -E '^(workload,|[a-z]+,[0-9]+,)' > "$out/runs-$name.csv"
}

if [ "${AB:-0}" = 1 ]; then
	# Both with the same KUnit setting: off, or =m with KUNIT=m.  The
	# boots alternate, so that drift cannot favour one kernel.
	suffix=
	[ "${KUNIT:-n}" != m ] || suffix=-kunit-m
	ab_new=${ab_new:-release$suffix} ab_old=${ab_old:-base$suffix}
	patched= base=
	for boot in $(seq "${BOOTS:-3}"); do
		sweep "$ab_new" "$ab_new-b$boot"
		sweep "$ab_old" "$ab_old-b$boot"
		patched=$patched${patched:+,}$out/runs-$ab_new-b$boot.csv
		base=$base${base:+,}$out/runs-$ab_old-b$boot.csv
	done
	sets=("patched=$patched" "base=$base")
	variants="$ab_new (patched), $ab_old (base), ${BOOTS:-3} boots each"
else
	sweep normal
	sets=("patched=$out/runs-normal.csv")
	variants=normal
fi
python3 "$TOP/scripts/bench-report.py" --out "$out" \
	--meta "kernel=$(make -s -C "$TREE" kernelversion)" \
	--meta "base=$BASE_VERSION" \
	--meta "config=scripts/kernel.sh $variants" \
	--meta "qemu=$accel ${QEMU_OPTS:-}" \
	--meta "clock=$CLOCK" --meta "sweep=$sizes" "${sets[@]}" |
	tee "$out/report.txt"
echo "raw runs and plots: $out/results.csv $out/results.json $out/*.png" >&2
[ "${QUICK:-0}" != 1 ] || python3 "$TOP/scripts/bench-shape.py" "$out/results.csv"
