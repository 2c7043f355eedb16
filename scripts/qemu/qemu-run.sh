#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: qemu-run.sh <image> <initramfs> <name> [kernel args...]
# Boot a lab kernel that kernel.sh built (its guest, lib.sh's GUESTS,
# follows from the image's build/out/qemu-<variant>/) under QEMU and
# return its verdict as the exit status.  The console goes to
# build/boot/<name>.console.log, the guest's results (a second serial
# port, or a virtio or hypervisor console) to
# build/boot/<name>.result.log.  Any kernel splat on the console fails
# the run, even if every test passed.  QEMU_OPTS adds QEMU options (make
# bench uses it for -icount), QEMU_MEM sets the guest's memory, QEMU_CPU
# the arm64 guest's CPU model (cortex-a57 by default, which has no
# hardware Access flag; max has one).
. "$(dirname "$0")/../lib.sh"

kernel=${1:?usage: qemu-run.sh <image> <initramfs> <name> [args]}
initrd=${2:?}; name=${3:?}; shift 3
[[ $kernel =~ /out(-[0-9.]+)?/qemu-([^/]+)/ ]] ||
	die "$kernel: not a kernel.sh image (build/out/qemu-<variant>/...)"
guest=$(guest_of "${BASH_REMATCH[2]}")
arch=$(guest_field "$guest" 1)
logs=$BUILD/boot$BASE_SUFFIX
mkdir -p "$logs"
TIMEOUT=${QEMU_TIMEOUT:-600}
SPLAT='WARNING:|BUG:|KASAN:|UBSAN:|Oops|Call Trace:|Kernel panic|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|kmemleak: [0-9]+ new suspected'

# splats <console log>: its splat lines; of KCSAN's reports only those in
# our code (kcsan_reports): the rest of the kernel's are not ours to judge.
splats() {
	grep -nE "$SPLAT" "$1" | grep -v 'BUG: KCSAN: ' || true
	kcsan_reports "$1" | sed -n 's/^ours /KCSAN: /p'
}

boot() {	# boot <accel> <timeout> <console log> <result log> [args...]
	local accel=$1 limit=$2 console=$3 result=$4 machine cpus=2
	shift 4
	: > "$console"; : > "$result"
	case $arch in
	arm64|arm)
		# QEMU's virt machine.  arm64: the kselftest's file is two page
		# tables, 1GiB with 64KiB pages, and it wants twice that free.
		# arm: cortex-a15 has LPAE; one CPU, because with two, 2 of 4
		# boots under -icount hung before the clocksource switch.
		if [ "$arch" = arm64 ]; then
			machine=(qemu-system-aarch64 -cpu "${QEMU_CPU:-cortex-a57}" -m "${QEMU_MEM:-3G}")
		else
			machine=(qemu-system-arm -cpu cortex-a15 -m "${QEMU_MEM:-1G}")
			cpus=1
		fi
		machine+=(-M virt -serial file:"$console" -device virtio-serial-device
			-chardev file,id=result,path="$result"
			-device virtconsole,chardev=result)
		set -- console=ttyAMA0 fa.result=hvc0 "$@" ;;
	powerpc)
		# pseries: the console and the results on virtio consoles
		# (hvc0, hvc1).  A tty on the hypervisor's console (spapr-vty)
		# stalled for seconds per line under -icount, and the bench
		# waited on it.  The cost: kernel messages from before virtio
		# probes are not on the console.  ioeventfd=off: the guest
		# spins until QEMU takes its output, so QEMU takes it at the
		# kick, not later in its main loop (a boot hung there once).
		machine=(qemu-system-ppc64 -M pseries -cpu power9 -m "${QEMU_MEM:-1G}"
			-device virtio-serial-pci,ioeventfd=off
			-chardev file,id=console,path="$console"
			-device virtconsole,chardev=console
			-chardev file,id=result,path="$result"
			-device virtconsole,chardev=result)
		set -- console=hvc0 fa.result=hvc1 "$@" ;;
	*)
		machine=(qemu-system-x86_64 -cpu max -m "${QEMU_MEM:-1G}"
			-serial file:"$console" -serial file:"$result")
		set -- console=ttyS0 "$@" ;;
	esac
	# kunit.autorun=1: allnoconfig turns CONFIG_KUNIT_AUTORUN_ENABLED
	# off (7.3); 6.12, which runs the tests anyway, ignores it.
	timeout --foreground -k 5 "$limit" "${machine[@]}" \
		-accel "$accel" -smp "$cpus" -nodefaults -display none \
		-no-reboot -kernel "$kernel" -initrd "$initrd" ${QEMU_OPTS:-} \
		-append "panic=-1 oops=panic panic_on_warn=1 kunit.autorun=1 $*"
}

# early_panic <console log>: the kernel panicked in start_kernel(), before
# it ran /init, where no code of the series runs.  7.3 under TCG with
# KASAN does so at times (a wild access in handle_edge_irq() during
# identify_cpu(), on a busy host): such a boot is booted again, once.
early_panic() {
	grep -q '^Kernel panic' "$1" && grep -q ' start_kernel+' "$1" &&
		! grep -q 'Run /init as init process' "$1"
}

# The KVM probe's boot: a guest with fa.probe=1 must reach userspace
# under KVM within 30 s (on some hosts KVM hangs).  kvm_probe runs it
# without the caller's QEMU_OPTS.
probe_boot() {
	boot kvm 30 "$logs/probe.console.log" \
		"$logs/probe.result.log" fa.probe=1 >/dev/null 2>&1 &&
		grep -q 'RESULT: PROBE' "$logs/probe.result.log"
}

# TCG for arm64, powerpc and -icount (no probe, cache untouched), else
# KVM if the probe, cached in build/boot/accel, says it works: see lib.sh.
acc=$(qemu_accel "$arch" "${QEMU_OPTS:-}" \
	accel_cached "$logs/accel" kvm_probe /dev/kvm probe_boot)
console=$logs/$name.console.log
result=$logs/$name.result.log
echo "$acc" > "$logs/$name.accel"	# for reports: what this boot used
log "booting $name under QEMU ($acc, timeout ${TIMEOUT}s)"
start=$SECONDS
boot "$acc" "$TIMEOUT" "$console" "$result" "$@" && rc=0 || rc=$?
if ! grep -q 'RESULT: PASS' "$result" && early_panic "$console"; then
	cp "$console" "$logs/$name.early-panic.console.log"
	log "$name: panic in start_kernel() before /init, no code of the series run ($logs/$name.early-panic.console.log): booting again, once"
	start=$SECONDS
	boot "$acc" "$TIMEOUT" "$console" "$result" "$@" && rc=0 || rc=$?
fi
tr -d '\r' < "$result" | grep -E '^(PASS|FAIL|RESULT)' || true
verdict=ok
if [ $rc -eq 124 ]; then
	verdict="timed out after ${TIMEOUT}s"
elif [ $rc -ne 0 ]; then
	verdict="QEMU exited with $rc"
elif ! grep -q 'RESULT: PASS' "$result"; then
	verdict="tests failed"
elif splats "$console" | grep -q .; then
	verdict="kernel splat on the console:"
	splats "$console" | sed -n 1,5p
fi
if [ "$verdict" != ok ]; then
	echo "$name: FAIL: $verdict (full log: $console); console tail:"
	# Indented: make test's summary must not read it as results.
	tail -n 40 "$console" | tr -d '\r' | sed 's/^/  | /'
	exit 1
fi
echo "$name: PASS ($((SECONDS - start))s, $acc)"
