#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: initramfs.sh <variant>  (a kernel.sh variant)
# Build the guest's initramfs for a lab kernel: busybox-static, our init,
# the static test and benchmark programs, and the sweep.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: initramfs.sh <kernel.sh variant>}
kout=$BUILD/out/qemu-$variant
out=$BUILD/boot/$variant
mkdir -p "$out"
[ -x "$kout/usr/gen_init_cpio" ] || die "build the $variant kernel first (make kernel)"

for prog in boot/fa-test boot/fa-modtest bench/fa-bench; do
	gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$out/${prog#*/}" \
		"$TOP/tests/$prog.c"
done

cat > "$out/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /bin 0755 0 0
dir /lib 0755 0 0
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
file /bin/busybox /bin/busybox 0755 0 0
file /init $TOP/tests/boot/init 0755 0 0
file /bin/fa-test $out/fa-test 0755 0 0
file /bin/fa-modtest $out/fa-modtest 0755 0 0
file /bin/fa-bench $out/fa-bench 0755 0 0
file /bin/sweep.sh $TOP/tests/bench/sweep.sh 0755 0 0
file /bin/demo.sh $TOP/tests/boot/demo.sh 0755 0 0
LIST
# mod_faultaround, when scripts/module.sh has built it for this kernel.
mod=$BUILD/mod/$variant/src/mod_faultaround.ko
[ ! -f "$mod" ] || echo "file /lib/mod_faultaround.ko $mod 0644 0 0" >> "$out/initramfs.list"
"$kout/usr/gen_init_cpio" "$out/initramfs.list" | gzip -n -1 > "$out/initramfs.cpio.gz"
echo "$out/initramfs.cpio.gz"
