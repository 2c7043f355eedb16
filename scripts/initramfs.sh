#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: initramfs.sh <variant>  (a kernel.sh variant)
# Build the guest's initramfs for a lab kernel: busybox-static, our init,
# the static test and benchmark programs, the series' kselftest, and the
# sweep.  The arm64 guest gets the kselftest and fa-test (no module, no
# benchmark).
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: initramfs.sh <kernel.sh variant>}
kout=$BUILD/out/qemu-$variant
out=$BUILD/boot/$variant
mkdir -p "$out"
[ -x "$kout/usr/gen_init_cpio" ] || die "build the $variant kernel first (scripts/kernel.sh $variant)"

# C programs and scripts from tests/: the scripts are init's bench and
# demo modes, which need the module and fa-bench.
cc=gcc busybox=/bin/busybox
progs=(boot/fa-test boot/fa-modtest bench/fa-bench) scripts=(bench/sweep.sh boot/demo.sh)
if [ "$(guest_of "$variant")" = arm64-64k ]; then
	"$TOP/scripts/deps.sh" arm64
	cc=aarch64-linux-gnu-gcc busybox=$BUSYBOX_ARM64 progs=(boot/fa-test) scripts=()
fi
rm -f "$out"/fa-*
for prog in "${progs[@]}"; do
	$cc -static -O2 -Wall -Wextra -Werror -pthread -o "$out/${prog#*/}" \
		"$TOP/tests/$prog.c"
done
# The series' kselftest, from the patched tree (the harness is the tree's
# too; it has an unused parameter, hence -Wno-unused-parameter).  Without
# it, init reports a FAIL for it; the other modes do not need it.
kselftest=$TREE/tools/testing/selftests/mm/fault_around.c
rm -f "$out/fault_around"
if [ -f "$kselftest" ]; then
	$cc -static -O2 -Wall -Wextra -Wno-unused-parameter -Werror \
		-o "$out/fault_around" "$kselftest"
else
	log "warning: no $kselftest; the boot test will fail"
fi

cat > "$out/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /bin 0755 0 0
dir /lib 0755 0 0
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
file /bin/busybox $busybox 0755 0 0
file /init $TOP/tests/boot/init 0755 0 0
LIST
for prog in "${progs[@]}"; do
	echo "file /bin/${prog#*/} $out/${prog#*/} 0755 0 0"
done >> "$out/initramfs.list"
for script in "${scripts[@]}"; do
	echo "file /bin/${script#*/} $TOP/tests/$script 0755 0 0"
done >> "$out/initramfs.list"
[ ! -f "$out/fault_around" ] ||
	echo "file /bin/fault_around $out/fault_around 0755 0 0" >> "$out/initramfs.list"
# mod_faultaround and its KUnit module, when scripts/module.sh has built
# them for this kernel.
for ko in mod_faultaround mod_faultaround_test; do
	mod=$BUILD/mod/$variant/src/$ko.ko
	[ ! -f "$mod" ] || echo "file /lib/$ko.ko $mod 0644 0 0" >> "$out/initramfs.list"
done
"$kout/usr/gen_init_cpio" "$out/initramfs.list" | gzip -n -1 > "$out/initramfs.cpio.gz"
echo "$out/initramfs.cpio.gz"
