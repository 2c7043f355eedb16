#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: initramfs.sh <variant> [bench]  (a kernel.sh variant)
# Build the guest's initramfs for a lab kernel: busybox-static, our init,
# the static test and benchmark programs, the series' kselftest, and the
# sweep, built for the guest's architecture (lib.sh's GUESTS), and the
# module with its KUnit suite when module.sh built them.  Only the x86_64
# guests have the module's test program, fa-modtest.  Without "bench",
# a second archive holds the kselftest's ext4 image.  With "bench",
# print the bench's initramfs instead: the same with a second archive
# appended (the kernel unpacks both) that holds what only make bench
# needs: fa-bench linked dynamically with its ld.so and libc, an ext4
# image of BENCH_IMAGE_MIB (default 128) MiB, and with BENCH_FIO=1 (make
# bench's fio rows; an x86_64 guest only) Debian's fio and its libraries,
# some 85 MB that the other workloads' guests need not hold, and with
# BENCH_BUILD=1 (the build rows; x86_64) scripts/bench/toolchain.sh's image.
. "$(dirname "$0")/../lib.sh"

variant=${1:?usage: initramfs.sh <kernel.sh variant> [bench]}
kout=$BUILD/out$BASE_SUFFIX/qemu-$variant
out=$BUILD/boot$BASE_SUFFIX/$variant
mkdir -p "$out"
[ -x "$kout/usr/gen_init_cpio" ] || die "build the $variant kernel first (scripts/qemu/kernel.sh $variant)"

# C programs and scripts, the tests' and the bench's guest side: the
# scripts are init's bench and demo modes, which need the module and
# fa-bench.
guest=$(guest_of "$variant")
cross=$(guest_field "$guest" 2)
cc=${cross}gcc busybox=$(busybox_of "$guest")
progs=(tests/boot/fa-test tests/boot/fa-modtest scripts/bench/guest/fa-bench
	scripts/bench/guest/fa-folios)
# sweep.sh, the scripts it sources, loop-mount.sh
guest_scripts=("$TOP"/scripts/bench/guest/*.sh)
guest_scripts=("${guest_scripts[@]#"$TOP"/}")
scripts=("${guest_scripts[@]}" tests/boot/demo.sh)
if [ "$guest" != x86_64 ]; then
	"$TOP/scripts/deps.sh" "$(guest_field "$guest" 4)"
	progs=(tests/boot/fa-test scripts/bench/guest/fa-bench scripts/bench/guest/fa-folios)
	scripts=("${guest_scripts[@]}")
fi
rm -f "$out"/fa-*
for prog in "${progs[@]}"; do
	# shellcheck disable=SC2086 # LAB_CFLAGS is words
	$cc -static $LAB_CFLAGS -o "$out/${prog##*/}" "$TOP/$prog.c"
done
# The series' kselftest, from the patched tree (the harness is the tree's
# too; it has an unused parameter, hence -Wno-unused-parameter; on
# 32-bit its ASSERT_*() of pointers cast them to intmax_t, hence
# -Wno-pointer-to-int-cast; and GCC takes a local of its TEST_F() wrapper
# for one that setjmp() can clobber, hence -Wno-clobbered: the upstream
# Makefile has no -Wextra).  Without it, init reports a FAIL for it; the
# other modes do not need it.
# Where it uses selftests/mm's vm_util.c, that is built as upstream
# builds it (-Wall), against the tree's UAPI headers (make headers).
kselftest=$TREE/tools/testing/selftests/mm/fault_around.c
rm -f "$out/fault_around" "$out/vm_util.o"
if [ -f "$kselftest" ]; then
	kself_inc=(-isystem "$kout/usr/include" -I"${kselftest%/mm/*}")
	if grep -q '^#include "vm_util.h"' "$kselftest"; then
		[ -f "$kout/usr/include/linux/fs.h" ] ||
			make -s -C "$TREE" O="$kout" ARCH="$(guest_field "$guest" 1)" headers
		$cc -O2 -Wall "${kself_inc[@]}" -c -o "$out/vm_util.o" \
			"${kselftest%/*}/vm_util.c"
	fi
	$cc -static -O2 -Wall -Wextra -Wno-unused-parameter -Wno-pointer-to-int-cast \
		-Wno-clobbered -Werror "${kself_inc[@]}" \
		-o "$out/fault_around" "$kselftest" \
		$([ ! -f "$out/vm_util.o" ] || echo "$out/vm_util.o")
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
file /init $TOP/scripts/qemu/init 0755 0 0
LIST
for prog in "${progs[@]}"; do
	echo "file /bin/${prog##*/} $out/${prog##*/} 0755 0 0"
done >> "$out/initramfs.list"
for script in "${scripts[@]}"; do
	echo "file /bin/${script##*/} $TOP/$script 0755 0 0"
done >> "$out/initramfs.list"
[ ! -f "$out/fault_around" ] ||
	echo "file /bin/fault_around $out/fault_around 0755 0 0" >> "$out/initramfs.list"
# mod_faultaround and its KUnit module, when scripts/module.sh has built
# them for this kernel.
for ko in mod_faultaround mod_faultaround_test; do
	mod=$BUILD/mod$BASE_SUFFIX/$variant/src/$ko.ko
	[ ! -f "$mod" ] || echo "file /lib/$ko.ko $mod 0644 0 0" >> "$out/initramfs.list"
done
"$kout/usr/gen_init_cpio" "$out/initramfs.list" | gzip -n -1 > "$out/initramfs-base.cpio.gz"
if [ "${2:-}" != bench ]; then
	# The kselftest's ext4 (init mounts it): its folio tests' file, 4
	# folios of at most 2MiB, and room; not in the bench's archive,
	# whose guests it would take memory from.  4KiB blocks, not the
	# small profile's 1KiB: ext4's largest folio is 2048 blocks, and
	# the tests' folios are 2MiB.
	lab_ext4_image "$out/ext4-test.img" 32 -b 4096
	{ cat "$out/initramfs-base.cpio.gz"
	  echo "file /ext4-test.img $out/ext4-test.img 0644 0 0" |
		"$kout/usr/gen_init_cpio" - | gzip -n -1; } > "$out/initramfs.cpio.gz"
	echo "$out/initramfs.cpio.gz"
	exit 0
fi

# dynexec's program: a start-up as people run them, ld.so and libc read
# from the page cache.  They are Debian's glibc: the host's, at the paths
# the program names, or for a foreign guest the cross package's
# (/usr/<triplet>/lib), in the guest's /lib, where its ld.so looks.
# shellcheck disable=SC2086 # LAB_CFLAGS is words
$cc $LAB_CFLAGS -o "$out/fa-bench-dyn" "$TOP/scripts/bench/guest/fa-bench.c"
# host_libs <program>: "<guest path> <host path>" of each library it
# loads, and of its ld.so, where the host has them.
host_libs() {
	ldd "$1" | awk '$2 == "=>" && $3 ~ /^\// { print $3, $3 } $1 ~ /^\// { print $1, $1 }'
}
if [ -z "$cross" ]; then
	libs=$(host_libs "$out/fa-bench-dyn")
else
	sysroot=/usr/${cross%-}/lib
	libs=$(readelf -l "$out/fa-bench-dyn" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p' |
		while read -r interp; do echo "$interp $sysroot/${interp##*/}"; done
	       readelf -d "$out/fa-bench-dyn" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' |
		while read -r lib; do echo "/lib/$lib $sysroot/$lib"; done)
fi
[ -n "$libs" ] || die "found no libraries for fa-bench-dyn"
fio=
if [ "${BENCH_FIO:-0}" = 1 ]; then
	[ -z "$cross" ] || die "BENCH_FIO=1: fio for the x86_64 guest only"
	fio=$(command -v fio) || die "no fio (scripts/deps.sh installs it)"
	libs=$(printf '%s\n' "$libs" "$(host_libs "$fio")" | sort -u)
fi
# The @ext4 workloads' file system: room for the default file (1/16 of
# the guest's 1 GiB) and more.
lab_ext4_image "$out/ext4.img" "${BENCH_IMAGE_MIB:-128}"
rm -f "$out/toolchain.img"
if [ "${BENCH_BUILD:-0}" = 1 ]; then
	[ -z "$cross" ] || die "BENCH_BUILD=1: the build rows are the x86_64 guest's"
	"$TOP/scripts/bench/toolchain.sh" "$variant" "$out/toolchain.img"
fi
{
	echo "file /bin/fa-bench-dyn $out/fa-bench-dyn 0755 0 0"
	echo "file /ext4.img $out/ext4.img 0644 0 0"
	[ -z "$fio" ] || echo "file /bin/fio $fio 0755 0 0"
	[ -z "$fio" ] || echo "file /bin/fio-own.awk $TOP/scripts/bench/guest/fio-own.awk 0644 0 0"
	[ ! -f "$out/toolchain.img" ] || echo "file /toolchain.img $out/toolchain.img 0644 0 0"
	while read -r lib host; do
		[ -f "$host" ] || die "no $host for the guest's $lib"
		d=$(dirname "$lib")
		while [ "$d" != / ]; do echo "dir $d 0755 0 0"; d=$(dirname "$d"); done
	done <<< "$libs" | sort -u
	while read -r lib host; do echo "file $lib $(readlink -f "$host") 0755 0 0"; done <<< "$libs"
} > "$out/initramfs-bench.list"
{ cat "$out/initramfs-base.cpio.gz"; "$kout/usr/gen_init_cpio" "$out/initramfs-bench.list" | gzip -n -1; } \
	> "$out/initramfs-bench.cpio.gz"
echo "$out/initramfs-bench.cpio.gz"
