#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the patched lab kernel under QEMU, several times, run
# the fault-around sweep (scripts/bench/guest/sweep.sh) in each boot, and report
# them (scripts/bench/bench-report.py).
#
# Settings (make variables or environment):
#   ORDERS=all (0 to a page table) or a list; REPS=3 (per boot); BOOTS=3;
#   PAR=<boots at once> (the host's CPUs under CLOCK=icount, else 1)
#   WORKLOADS="seq rand sparse mmap-pread-seq ..." (see WORKLOADS below;
#          name@state picks a page-cache state, see sweep-states.sh)
#          WORKLOADS=heldout: the adaptive policy's held-out workloads;
#          heldout4: its version 4's (with seq at 1 and 2 threads)
#          (POLICY=adaptive runs them by default, beside the others).
#          WORKLOADS=public: the programs and cases nobody here wrote
#          (fio, a build with gcc, vm-scalability, will-it-scale), with
#          TASKS="1 2 4" unless set.
#          fio-read, fio-randread and start-fio are not in the default:
#          naming one puts fio in the guest (x86_64); nor are build and
#          rebuild, which put scripts/bench/toolchain.sh's image there (x86_64
#          guests only); see sweep-states.sh
#   THREADS=1 (thread workloads), TASKS="1 2" (mmap-pread-*, fio-*), MIB=<MiB>
#          (by default sweep.sh picks TASKS and MIB: 1 and the guest's
#          CPUs, 1/16 of its memory on x86_64, 60 on the others; the
#          report says which)
#   CLOCK=icount (the figure counts guest instructions) or CLOCK=wall
#   MODCOST=1 also measures mod_faultaround (not loaded, idle, 256
#          overrides); x86_64 only
#   AB=1 compares the patched kernel with the unpatched base, both built
#        without KUnit (kernel.sh release and base), into build/bench-ab/;
#        with KUNIT=m, both with CONFIG_KUNIT=m instead (release-kunit-m,
#        base-kunit-m), into build/bench-ab-kunit-m/.  The boots
#        alternate; its defaults are ORDERS=4 REPS=10 BOOTS=3.
#        AB_PATCHES=M-N instead compares upstream patches 1..N with
#        1..M-1 (kernel.sh release-pN, release-p<M-1>), into
#        build/bench-ab-pM-N/: what patches M to N cost on their own
#   AA=1 boots the same kernel (the normal lab one) as both sides of an
#        A/B, labels A and B, boots alternating, into build/bench-aa/:
#        the report's header gives each verdict type's false-positive
#        rate (a true null throughout).  Its defaults are ORDERS="0 2 4 6"
#        REPS=5 BOOTS=3 (per side): several orders, so that the order
#        verdicts (best, recommended, the marks against order 0) can be
#        compared between A and B too; about 2,400 runs, under 30 min
#   NATIVE=1 runs the sweep on the running kernel instead, as root, into
#        build/bench-native/: every order if its knob can be written,
#        else the current setting only (the report says which); each run
#        under perf stat (PERF_EVENTS) where that works here, else the
#        report says why not; with POLICY=adaptive (a kernel with
#        patch 14), the kernel's policy too, into build/bench-native-adaptive/;
#        with FOLIOS=1, -folios appended (build/bench-native-folios/)
#   PRESSURE=1 runs the readers under memory pressure instead: hotcold
#        (a hot set re-read, a cold stream that pushes it out, on ext4)
#        and hotscan (the same reading one stream page in 4) in a cgroup
#        v2 memory.max below their pages, and the same without the limit
#        (<workload>@unlimited), every order, into
#        build/bench-pressure/ (or build/bench-pressure-<guest>/ with
#        GUEST= or ARCH=), reported by scripts/bench/pressure-report.py: the
#        reclaim counts per order, and what fault-around saves against
#        what reclaim costs; LIMIT=<MiB> sets memory.max (sweep.sh -M;
#        by default half the file);
#        with GUEST=arm64-*, CPU=max boots QEMU's max CPU, whose hardware
#        Access flag makes the prefaulted PTEs old (into
#        build/bench-pressure-<guest>-max/): the contrast with
#        cortex-a57's young ones; with POLICY=adaptive, the kernel's
#        adaptive policy beside the orders, into
#        build/bench-pressure[-<guest>]-adaptive/: the report holds its
#        refaults, activations and faults against the default order's;
#        with BOUND=1, each order also with vm.fault_around_bound=1
#        (into build/bench-pressure[-<guest>]-bound/): the report
#        judges large-folios.rst's goal 4 where the bound maps less
#   FOLIOS=1 the large-folio dimension: seq, rand, sparse and
#        mmap-pread-* on ext4 cached by a sequential read (@ext4-ra),
#        ext4 cold, and tmpfs huge=never, within_size and always, every
#        order, into build/bench-folios/ (bench-folios-<guest>/): each
#        table's "per fault" row is what one fault maps, the header
#        gives the folio sizes of each workload's file; with
#        WORKLOADS=heldout, large-folios.rst's held-out workloads, and
#        WORKLOADS=public, the public rows on ext4 (held out too), and
#        WORKLOADS=mthp, the same readers in shared anonymous memory at
#        the shmem mTHP sizes 16k, 64k and 256k (@shmem-<size>);
#        with BOUND=1, each order also with vm.fault_around_bound=1 in
#        the same boots (sweep.sh -c), into build/bench-folios-bound/,
#        and scripts/bench/bound-report.py's comparison in bound.txt
#   POSTED=1 sweeps the upstream patches alone, as make send posts them:
#        no lab patch and no KUnit (kernel.sh release-p<N>, N the last
#        upstream patch), into build/bench-posted/ (x86_64 only); the
#        numbers a cover letter may quote
#   REPORT=1 boots nothing: it reports the runs kept in the mode's
#        directory again, with this commit's report (the header names
#        both commits); not with NATIVE=1
#   QUICK=1 a smoke sweep (orders 0-4, 1 boot, 16 MiB) into
#           build/bench-quick/, which fails unless the results have the
#           expected shape (scripts/bench/bench-shape.py)
#   CAP=<order> with POLICY=adaptive: the policies run at that global
#        order, their cap (9: uncapped with 4KiB pages), into
#        build/bench-adaptive-cap<order>/ (build/bench-<guest>-adaptive-cap<order>/)
#   POLICY=adaptive adds the kernel's adaptive policy
#        (vm.fault_around_adaptive, capped by the default order) as a
#        column (each repetition's shuffled orders get one adaptive run),
#        on x86_64 mod_faultaround's two baselines beside it (columns
#        madvise and ramp: the madvise() hint alone, readahead's ramp per
#        open file, under the same cap), and the mixed and held-out
#        workloads, into build/bench-adaptive/ (build/bench-<guest>-adaptive/
#        on another guest, without the baselines)
#   ARCH=arm64|powerpc|arm runs the sweep on that architecture's guests
#        (lib.sh's GUESTS: 4KiB and 64KiB pages; arm: 4KiB only), one
#        after the other, each into build/bench-<guest>/, with a 60 MiB
#        file;
#        GUEST=<guest> picks one (make bench GUEST=arm64-64k): arm64-4k,
#        arm64-64k (virt, cortex-a57, 3 GiB), ppc64le-4k, ppc64le-64k
#        (pseries, power9, hash MMU: orders 0-8 with 64KiB pages), arm
#        (ARMv7 LPAE, cortex-a15, one CPU, so one task); always TCG;
#        QUICK, AB, AA, NATIVE, POSTED and the module are x86_64's
. "$(dirname "$0")/../lib.sh"

# What this invocation asks for, checked: the guest(s), the mode, the
# workloads, orders and repetitions, and the output directory ($out).
. "$(dirname "$0")/modes.sh"
mkdir -p "$out"
if [ "${REPORT:-0}" = 1 ]; then
	[ "${NATIVE:-0}" = 0 ] || die "REPORT=1: not with NATIVE=1"
else
	rm -f "$out"/runs-*.csv "$out"/*.png "$out"/*.dat "$out"/runs-commit
fi
[ "${NATIVE:-0}" != 1 ] || CLOCK=native

case $CLOCK in
icount)	export QEMU_OPTS="-icount shift=0,sleep=off"
	clock_note="QEMU -icount: the figure counts guest instructions (1 per virtual ns), not time" ;;
wall)	export QEMU_OPTS=""
	clock_note="wall clock under QEMU: host load adds noise; the accelerator (KVM or TCG) is chosen at boot and named in the report" ;;
native)	clock_note="native: CLOCK_MONOTONIC on the running kernel ($(uname -r))" ;;
*)	die "CLOCK must be icount or wall" ;;
esac
echo "$clock_note" >&2
commit=$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
	commit=$commit-dirty

sizes= default_order= knob= perf_meta= folios=()
declare -A initrds kernels
# Boots at once: one TCG guest with -icount keeps one core busy (its
# vCPUs run in one thread), so two halve the sweep.  QEMU promises -icount
# only "a degree of" determinism (host-timed events land at host-dependent
# counts), so the A/A (AA=1) runs at the same PAR: its false-positive
# rates are the design's.  A wall clock has the host's load in it: one.
PAR=${PAR:-$(nproc)}
[ "$CLOCK" = icount ] || PAR=1
[ "$PAR" -ge 1 ] 2>/dev/null || die "PAR=$PAR: a number of boots at once, at least 1"
csv_list() { echo "$*" | tr ' ' ,; }
# progress <boots before> <boots>: the guest's progress lines with an ETA
# by the host's clock (the guest's runs on instructions), and the guest
# clock's figure in its unit.  The ETA counts rounds of PAR boots, which
# run at once (native: one).
progress() {
	local line n total eta unit=ns par=${PAR:-1}
	[ "$CLOCK" != icount ] || unit=insn
	while IFS= read -r line; do
		[[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] || continue
		n=$(( $1 / par * BASH_REMATCH[2] + BASH_REMATCH[1] ))
		total=$(( ($2 + par - 1) / par * BASH_REMATCH[2] ))
		eta=$(( (SECONDS - bench_start) * (total - n) / n ))
		[[ $line =~ ^(.*)\ clock\ ([0-9]+)\ ns$ ]] &&
			line="${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $unit ($CLOCK)"
		printf '%s (boot %d/%d, ETA %dm%02ds)\n' "$line" $(( $1 + 1 )) "$2" \
			$((eta / 60)) $((eta % 60)) >&2
	done
}
# keep_sizes <sweep stderr>: the first sweep's sizes and default order,
# and its workloads' folio sizes (a --meta each).
keep_sizes() {
	local line
	[ -z "$sizes" ] || return 0
	sizes=$(sed -n 's/^sweep: \(file .*\)/\1/p' "$1")
	default_order=$(sed -n 's/.*default order \(-\{0,1\}[0-9]*\).*/\1/p' "$1")
	while read -r line; do
		folios+=(--meta "folios ${line%%: *}=${line#*: } (order:pages, boot 1, after the runs)")
	done < <(sed -n 's/^sweep: folios //p' "$1")
}
# variant_flags <variant>: "<modcost> <baselines>", its boots' module runs.
variant_flags() {
	local modcost=$MODCOST baselines=${BASELINES:-1}
	# The adaptive policy's baselines are mod_faultaround's (sweep.sh -y).
	# Not under PRESSURE=1: its report judges the policy against orders.
	[ "$POLICY" = adaptive ] && [ "${PRESSURE:-0}" = 0 ] || baselines=0
	# The module needs the lab patch, which base and release-p<N> lack.
	# With CONFIG_KUNIT=m the module, whose KUnit suite is built in,
	# needs kunit.ko, which the initramfs does not carry.
	case $1 in base*|release-p*|*-kunit-m) modcost=0 baselines=0 ;; esac
	echo "$modcost $baselines"
}
# prepare <variant>: its kernel, module and initramfs, once for the whole
# bench and before any boot (boots run at once must not build).
prepare() {
	[ -z "${kernels[$1]:-}" ] || return 0
	kernels[$1]=$("$TOP/scripts/qemu/kernel.sh" "$1" | tail -n1)
	[ "$(variant_flags "$1")" = "0 0" ] || "$TOP/scripts/module.sh" "$1" >&2
	initrds[$1]=$(BENCH_FIO=$fio_rows BENCH_BUILD=$build_rows \
		"$TOP/scripts/qemu/initramfs.sh" "$1" bench | tail -n1)
}
# boots: sweep() each line "<variant> <name> <boots before> <boots>" of
# stdin (not a pipe: it sets globals), PAR at a time, after prepare() of
# each variant; then the first boot's sizes and the accelerator.
boots() {
	local jobs=() j v n b t first= running=0
	mapfile -t jobs
	for j in "${jobs[@]}"; do
		read -r v n b t <<< "$j"
		prepare "$v"
		first=${first:-$n}
	done
	bench_start=$SECONDS	# the ETA: the boots', not the builds'
	# Each boot in a process group of its own (set -m), so that a failed
	# one takes the others, QEMU and all, with it: none of them may
	# write its runs into a rerun's directory later.
	set -m
	for j in "${jobs[@]}"; do
		read -r v n b t <<< "$j"
		sweep "$v" "$n" "$b" "$t" &
		running=$((running + 1))
		[ "$running" -lt "$PAR" ] || { boot_done; running=$((running - 1)); }
	done
	while [ "$running" -gt 0 ]; do
		boot_done
		running=$((running - 1))
	done
	set +m
	keep_sizes "$out/sweep-$first.log"
	accel=$(cat "$out/accel")
}
# boot_done: wait for whichever boot ends first; a failure ends them all.
boot_done() {
	wait -n && return
	kill -- $(jobs -p | sed 's/^/-/') 2>/dev/null
	die "a bench boot failed (its console: $BUILD/boot$BASE_SUFFIX/); the others were stopped"
}
# sweep <variant> <name> <boots before> <boots>: boot it, leave the runs
# in $out/runs-<name>.csv
sweep() {
	local variant=$1 name=$2 kernel=${kernels[$1]} initrd=${initrds[$1]}
	local console qemu modcost baselines
	read -r modcost baselines <<< "$(variant_flags "$variant")"
	console=$BUILD/boot$BASE_SUFFIX/bench-$name.console.log
	rm -f "$console"
	# Under -icount sleep=off an idle guest's clock jumps to its next
	# timer, seconds at times (the console's "Long readout interval"
	# lines), between runs: RCU would report each jump as a stall.
	QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600} "$TOP/scripts/qemu/qemu-run.sh" "$kernel" "$initrd" \
		"bench-$name" rcupdate.rcu_cpu_stall_suppress=1 fa.mode=bench fa.orders="$(csv_list $ORDERS)" \
		fa.reps="$REPS" fa.threads="$(csv_list $THREADS)" fa.tasks="$(csv_list $TASKS)" \
		fa.workloads="$(csv_list $WORKLOADS)" fa.mib="$MIB" \
		fa.modcost="$modcost" fa.policy="$POLICY" fa.baselines="$baselines" \
		${limit:+fa.limit=$limit} ${CAP:+fa.cap=$CAP} fa.bound="${BOUND:-0}" >&2 &
	qemu=$!
	# The guest's progress lines are on its console: follow them live.
	tail -n +1 -F --pid=$qemu "$console" 2>/dev/null |
		sed -u -n 's/\r$//; /^\[[0-9]*\/[0-9]*\]/p; /^sweep: /p' |
		tee >(grep '^sweep: ' >&2) | progress "$3" "$4" ||
		true	# tail fails if the log was missing at first; it waited
	wait $qemu || die "the bench guest failed (see $console)"
	accel=$(cat "$BUILD/boot$BASE_SUFFIX/bench-$name.accel")	# what qemu-run.sh used
	echo "$accel" > "$out/accel"	# for REPORT=1
	echo "$commit" > "$out/runs-commit"
	tr -d '\r' < "$console" > "$out/sweep-$name.log"
	tr -d '\r' < "$BUILD/boot$BASE_SUFFIX/bench-$name.result.log" |
		grep -E '^(workload,|[a-z@0-9_-]+,[0-9]+,)' > "$out/runs-$name.csv"
}

# What perf stat counts in each native run: the whole fa-bench process.
PERF_EVENTS=task-clock,page-faults,instructions,cycles,dTLB-load-misses
# perf_check <dir>: whether perf stat counts here (deps.sh installs
# perf), tried on true, its output in <dir>/perf-probe.txt.  perf_meta:
# why not, or that perf fell back to user space only.
perf_check() {
	local probe=$1/perf-probe.txt err
	"$TOP/scripts/deps.sh" perf >&2 || true	# it says why not
	if ! command -v perf >/dev/null; then
		perf_meta="not available (no perf command: deps.sh perf installs linux-perf, as root)"
		return 1
	fi
	if ! err=$(LC_ALL=C perf stat -x, -o "$probe" -e "$PERF_EVENTS" -- true 2>&1); then
		err=$(sed -n '/^Error:$/d; s/^[^ ]*: line [0-9]*: //; /[^[:space:]]/{p;q}' <<< "$err")
		perf_meta="not available (perf stat failed: ${err:-no message})"
		return 1
	fi
	if ! grep -q '^[0-9]' "$probe"; then
		perf_meta="not available (perf stat counted none of $PERF_EVENTS)"
		return 1
	fi
	! awk -F, '!/^#/ && $3 ~ /:u$/ { f = 1 } END { exit !f }' "$probe" ||
		perf_meta="user space only: perf fell back to :u events (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid), not root)"
}

# native: the same sweep on the running kernel, with the programs built
# here and, as root, an ext4 image for the @ext4 workloads.
native() {
	local bin=$out/bin perf=() tmp
	mkdir -p "$bin"
	# shellcheck disable=SC2086 # LAB_CFLAGS is words
	gcc -static $LAB_CFLAGS -o "$bin/fa-bench" "$TOP/scripts/bench/guest/fa-bench.c"
	# shellcheck disable=SC2086
	gcc $LAB_CFLAGS -o "$bin/fa-folios" "$TOP/scripts/bench/guest/fa-folios.c"
	# shellcheck disable=SC2086
	gcc $LAB_CFLAGS -o "$bin/fa-bench-dyn" "$TOP/scripts/bench/guest/fa-bench.c"
	[ "$(id -u)" = 0 ] || log "not root: the order cannot be set and ext4 and huge tmpfs cannot be mounted"
	# The ext4 image holds the file: memory/16, as sweep.sh picks it.
	[ "$MIB" != auto ] ||
		MIB=$(awk '/^MemTotal:/ { print int($2 / 1024 / 16 / 2) * 2 }' /proc/meminfo)
	lab_ext4_image "$bin/ext4.img" $((MIB + MIB / 8 + 32))
	tmp=$(mktemp -d -p /dev/shm)	# sweep.sh empties it on exit
	if perf_check "$bin"; then
		perf=(-p "$PERF_EVENTS")
		log "perf stat -e $PERF_EVENTS around each run${perf_meta:+ ($perf_meta)}"
	else
		log "perf stat: $perf_meta"
	fi
	sh "$TOP/scripts/bench/guest/sweep.sh" -o "$ORDERS" -r "$REPS" -t "$THREADS" -T "$TASKS" \
		-w "$WORKLOADS" -m "$MIB" -b "$bin/fa-bench" -x "$bin/fa-bench-dyn" \
		-e "$bin/ext4.img" -d "$tmp" "${perf[@]}" ${fio_path:+-F "$fio_path"} \
		$([ "$POLICY" = off ] || echo -a) \
		> "$out/runs-native.csv" 2> >(tee "$out/sweep-native.log" |
			tee >(grep --line-buffered '^sweep: ' >&2) | progress 0 1) ||
		die "the native sweep failed (see $out/sweep-native.log)"
	rmdir "$tmp"
	wait	# for the log
	keep_sizes "$out/sweep-native.log"
	accel="none (native)"
	# A knob that cannot be read: seq's faults still show the window.
	knob=$(sed -n 's/^sweep: \(the fault-around knob .*\)/\1/p' "$out/sweep-native.log")
	[ -n "$knob" ] || return 0
	set -- $(awk -F, '$1 == "seq" && $2 == 1 && $6 > 0 {
		p = $9 / $6; o = 0; while (2 ^ (o + 1) <= p) o++
		printf "%.1f %d", p, o; exit }' "$out/runs-native.csv")
	[ $# = 2 ] || return 0
	knob="$knob; seq maps $1 pages per fault: order $2 in effect"
	[ "$default_order" != -1 ] || default_order=$2
}

# kept_runs <name>: REPORT=1's sizes, accelerator and runs' commit, from
# the first boot's files in $out (runs from before bench.sh kept accel and
# runs-commit: the boot's file, the report).
kept_runs() {
	keep_sizes "$out/sweep-$1-b1.log"
	accel=$(cat "$out/accel" 2>/dev/null || cat "$BUILD/boot$BASE_SUFFIX/bench-$1-b1.accel")
	runs_commit=$(cat "$out/runs-commit" 2>/dev/null ||
		sed -n 's/^  commit: //p' "$out/report.txt" | head -n1)
}

bench_start=$SECONDS
aa=() runs_commit=
if [ "${AB:-0}" = 1 ] || [ "${AA:-0}" = 1 ]; then
	# Both with the same KUnit setting: off, or =m with KUNIT=m.  The
	# boots alternate, so that drift cannot favour one kernel.
	suffix=
	[ "${KUNIT:-n}" != m ] || suffix=-kunit-m
	ab_new=${ab_new:-release$suffix} ab_old=${ab_old:-base$suffix}
	names=("$ab_new" "$ab_old") labels=(patched base)
	if [ "${AA:-0}" = 1 ]; then	# one kernel, both sides
		ab_new=$variant ab_old=$variant aa=(--aa)
		# The report pools its false positives with the earlier A/As'.
		for d in "$TOP"/Documentation/results/aa-*/; do
			[ ! -f "$d/results.json" ] || aa+=(--pool "$d")
		done
		names=("$variant-A" "$variant-B") labels=(A B)
	fi
	new= old=
	if [ "${REPORT:-0}" = 1 ]; then
		# The kept runs of both sides, reported again.
		BOOTS=$(ls "$out"/runs-"${names[0]}"-b*.csv 2>/dev/null | wc -l)
		[ "$BOOTS" -gt 0 ] || die "REPORT=1: no runs-${names[0]}-b*.csv in $out"
		kept_runs "${names[0]}"
	else
		boots < <(for boot in $(seq "$BOOTS"); do
			echo "$ab_new ${names[0]}-b$boot $((2 * boot - 2)) $((2 * BOOTS))"
			echo "$ab_old ${names[1]}-b$boot $((2 * boot - 1)) $((2 * BOOTS))"
		done)
	fi
	for boot in $(seq "$BOOTS"); do
		new=$new${new:+,}$out/runs-${names[0]}-b$boot.csv
		old=$old${old:+,}$out/runs-${names[1]}-b$boot.csv
	done
	sets=("${labels[0]}=$new" "${labels[1]}=$old")
	variants="$ab_new (${labels[0]}), $ab_old (${labels[1]}), $BOOTS boots each"
elif [ "${NATIVE:-0}" = 1 ]; then
	native
	sets=("patched=$out/runs-native.csv")
	variants="none (the running kernel)"
elif [ "${REPORT:-0}" = 1 ]; then
	runs=$(ls "$out"/runs-"$variant"-b*.csv 2>/dev/null | sort -V | paste -sd,)
	[ -n "$runs" ] || die "REPORT=1: no runs-$variant-b*.csv in $out"
	kept_runs "$variant"
	sets=("patched=$runs")
	variants="$variant, $(tr , '\n' <<< "$runs" | wc -l) boots"
else
	runs=
	boots < <(for boot in $(seq "$BOOTS"); do
		echo "$variant $variant-b$boot $((boot - 1)) $BOOTS"
	done)
	for boot in $(seq "$BOOTS"); do
		runs=$runs${runs:+,}$out/runs-$variant-b$boot.csv
	done
	sets=("patched=$runs")
	variants="$variant, $BOOTS boots"
fi
kernel=$(uname -r)
[ "${NATIVE:-0}" = 1 ] || kernel=$(make -s -C "$TREE" kernelversion)
report=bench-report.py
[ "${PRESSURE:-0}" != 1 ] || report=pressure-report.py
python3 "$TOP/scripts/bench/$report" --out "$out" \
	--meta "kernel=$kernel" \
	--meta "base=$(git -C "$TREE" config faultaround.base || echo "$BASE_VERSION")" \
	--meta "config=scripts/qemu/kernel.sh $variants" ${QEMU_CPU:+--meta "cpu=$QEMU_CPU"} \
	--meta "qemu=$accel ${QEMU_OPTS:-}" \
	--meta "clock=$CLOCK" --meta "default_order=$default_order" \
	--meta "commit=$commit" ${runs_commit:+--meta "runs=the boots ran at $runs_commit"} \
	--meta "sweep=$sizes" ${knob:+--meta "knob=$knob"} \
	${perf_meta:+--meta "perf=$perf_meta"} "${folios[@]}" "${aa[@]}" "${sets[@]}" |
	tee "$out/report.txt"
# BOUND=1: the same runs, bound against whole.
[ "${BOUND:-0}" = 0 ] || [ "${FOLIOS:-0}" = 0 ] ||
	python3 "$TOP/scripts/bench/bound-report.py" --out "$out" \
		--meta "kernel=$kernel" --meta "qemu=$accel ${QEMU_OPTS:-}" \
		--meta "clock=$CLOCK" --meta "default_order=$default_order" \
		--meta "commit=$commit" ${runs_commit:+--meta "runs=the boots ran at $runs_commit"} \
		--meta "sweep=$sizes" "${folios[@]}" "${sets[0]#*=}" | tee "$out/bound.txt"
echo "raw runs and plots: $out/results.csv $out/results.json $out/*.png" >&2
[ "${QUICK:-0}" != 1 ] || python3 "$TOP/scripts/bench/bench-shape.py" "$out/results.csv"
