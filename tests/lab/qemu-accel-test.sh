#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: qemu-accel-test.sh
# The boot lab's accelerator choice: scripts/lib.sh's qemu_accel,
# accel_cached and kvm_probe, chained as qemu-run.sh chains them, with a
# fake probe or a fake KVM boot and a cache in a temporary directory: no
# QEMU, no kernel tree, build/ untouched.  A PASS or FAIL line per step,
# then "N passed, N failed"; the exit status fails on any FAIL.
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
# lib.sh makes $BUILD: a throwaway one here (the test needs none).
export O=$tmp/build
. "$(dirname "$0")/../../scripts/lib.sh"

# The fakes count their calls in a file: qemu_accel runs them in $(...).
calls=$tmp/calls
fake_probe() { echo >> "$calls"; echo "$1"; }
# The fake boot also notes a QEMU_OPTS that reached it (kvm_probe's boot
# must not get the caller's).
fake_boot() {
	echo >> "$calls"
	[ -z "${QEMU_OPTS:-}" ] || echo "$QEMU_OPTS" >> "$tmp/leaked"
	[ "$1" = ok ]
}
touch "$tmp/kvm"	# a writable "KVM device"; $tmp/none/kvm is none

# One step a line: name | guest | QEMU_OPTS | cache before | probe | want |
# probe calls | cache after.
# cache before: - none, . as the step above left it, or its content
#   (empty: an empty file).
# probe: kvm, tcg, junk: what a fake probe says.  boot-ok, boot-fails:
#   kvm_probe with a writable device and a fake boot that succeeds or
#   fails; no-kvm: kvm_probe with no device (the boot would succeed).
# want: kvm, tcg, or error (qemu_accel fails).
# probe calls: how many times the fake probe or the fake boot ran.
# cache after: - none, = untouched (same file, mtime and content), or its
#   content.
steps="
plain, probe kvm                 | x86_64 |                                 | -     | kvm        | kvm   | 1 | kvm
plain, probe tcg                 | x86_64 |                                 | -     | tcg        | tcg   | 1 | tcg
other options, probe kvm         | x86_64 | -rtc clock=vm -smp 1            | -     | kvm        | kvm   | 1 | kvm
-icount shift=0,sleep=off (bench)| x86_64 | -icount shift=0,sleep=off       | -     | kvm        | tcg   | 0 | -
-icount 0                        | x86_64 | -icount 0                       | -     | kvm        | tcg   | 0 | -
-icount shift=auto               | x86_64 | -icount shift=auto              | -     | kvm        | tcg   | 0 | -
--icount after other options     | x86_64 | -m 2G  --icount shift=7,align=on| -     | kvm        | tcg   | 0 | -
arm64, probe kvm                 | arm64  |                                 | -     | kvm        | tcg   | 0 | -
arm64, -icount                   | arm64  | -icount shift=0,sleep=off       | -     | kvm        | tcg   | 0 | -
arm64, cached kvm                | arm64  |                                 | kvm   | kvm        | tcg   | 0 | =
powerpc, probe kvm               | powerpc|                                 | -     | kvm        | tcg   | 0 | -
arm, probe kvm                   | arm    |                                 | -     | kvm        | tcg   | 0 | -
cached kvm                       | x86_64 |                                 | kvm   | tcg        | kvm   | 0 | =
cached tcg                       | x86_64 |                                 | tcg   | kvm        | tcg   | 0 | =
plain, probe kvm                 | x86_64 |                                 | -     | kvm        | kvm   | 1 | kvm
  then -icount, cached kvm       | x86_64 | -icount shift=0,sleep=off       | .     | kvm        | tcg   | 0 | =
  then plain again               | x86_64 |                                 | .     | tcg        | kvm   | 0 | =
-icount first                    | x86_64 | -icount shift=0,sleep=off       | -     | tcg        | tcg   | 0 | -
  then plain: still probes       | x86_64 |                                 | .     | kvm        | kvm   | 1 | kvm
-icount, cached tcg              | x86_64 | -icount 0                       | tcg   | kvm        | tcg   | 0 | =
empty cache: probes again        | x86_64 |                                 | empty | kvm        | kvm   | 1 | kvm
junk cache: probes again         | x86_64 |                                 | junk  | kvm        | kvm   | 1 | kvm
probe says junk: nothing cached  | x86_64 |                                 | -     | junk       | error | 1 | -
unknown guest                    | riscv  |                                 | -     | kvm        | error | 0 | -
KVM device, guest boots          | x86_64 |                                 | -     | boot-ok    | kvm   | 1 | kvm
KVM device, other options        | x86_64 | -rtc clock=vm                   | -     | boot-ok    | kvm   | 1 | kvm
KVM device, guest fails          | x86_64 |                                 | -     | boot-fails | tcg   | 1 | tcg
no writable KVM device: no boot  | x86_64 |                                 | -     | no-kvm     | tcg   | 0 | tcg
KVM device, -icount: no boot     | x86_64 | -icount shift=0,sleep=off       | -     | boot-ok    | tcg   | 0 | -
"

# printf, not echo: echo would take a field like -e or -n as its option.
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s\n' "${s%"${s##*[![:space:]]}"}"; }
# The cache's identity and content, to tell an untouched cache.
state() {
	if [ -e "$cache" ]; then stat -c '%i %.9Y' "$cache"; cat "$cache"; else echo none; fi
}

dir=$tmp/boot cache=$tmp/boot/accel passed=0 failed=0
while IFS='|' read -r name guest opts before probe want ncalls after; do
	[ -n "$(trim "$name")" ] || continue
	name=$(trim "$name") guest=$(trim "$guest") opts=$(trim "$opts")
	before=$(trim "$before") probe=$(trim "$probe") want=$(trim "$want")
	ncalls=$(trim "$ncalls") after=$(trim "$after")
	if [ "$before" != . ]; then
		rm -rf "$dir"; mkdir "$dir"
		case $before in
		-) ;;
		empty) : > "$cache" ;;
		*) echo "$before" > "$cache" ;;
		esac
	fi
	case $probe in
	kvm|tcg|junk) cmd=(fake_probe "$probe") ;;
	boot-ok) cmd=(kvm_probe "$tmp/kvm" fake_boot ok) ;;
	boot-fails) cmd=(kvm_probe "$tmp/kvm" fake_boot fail) ;;
	no-kvm) cmd=(kvm_probe "$tmp/none/kvm" fake_boot ok) ;;
	*) die "bad probe '$probe' in step '$name'" ;;
	esac
	: > "$calls"; rm -f "$tmp/leaked"
	old=$(state)
	# As qemu-run.sh runs it: QEMU_OPTS in the environment too.
	got=$(QEMU_OPTS=$opts qemu_accel "$guest" "$opts" accel_cached "$cache" \
		"${cmd[@]}" 2> "$tmp/err") || got=error
	n=$(wc -l < "$calls")
	problems=()
	[ "$got" = "$want" ] || problems+=("got '$got', want $want")
	[ "$n" -eq "$ncalls" ] || problems+=("probe ran $n times, want $ncalls")
	[ ! -e "$tmp/leaked" ] ||
		problems+=("the probe boot got QEMU_OPTS '$(cat "$tmp/leaked")'")
	case $after in
	-) [ ! -e "$cache" ] || problems+=("cache written: $(cat "$cache")") ;;
	=) [ "$(state)" = "$old" ] || problems+=("cache changed") ;;
	*) [ "$(cat "$cache" 2>/dev/null)" = "$after" ] ||
		problems+=("cache '$(cat "$cache" 2>/dev/null)', want $after") ;;
	esac
	# Nothing but the cache: a rename leaves no temporary file behind.
	extra=$(find "$dir" -mindepth 1 ! -path "$cache")
	[ -z "$extra" ] || problems+=("left in the cache directory: $extra")
	desc="$guest${opts:+ \"$opts\"} -> $got (probe $probe, calls $n)"
	if [ ${#problems[@]} -eq 0 ]; then
		passed=$((passed + 1))
		echo "PASS accel $name: $desc"
	else
		failed=$((failed + 1))
		why=$(printf '%s; ' "${problems[@]}")
		echo "FAIL accel $name: $desc: ${why%; }"
		sed 's/^/  | /' "$tmp/err"
	fi
done <<< "$steps"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
