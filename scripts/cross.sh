#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print and check CONFIG_FAULT_AROUND_ORDER for each architecture config the
# series cares about, and cross-compile the objects it touches there.
. "$(dirname "$0")/lib.sh"
require_tree

# and compile mod_faultaround's objects (its KUnit suite too) where the
# last column says so: 32-bit and arm64 with the distributions' defconfigs,
# beside the boot lab's small ones.
# name       ARCH     CROSS_COMPILE           defconfig             page size option  expected  module
configs="
x86_64       x86      -                       x86_64_defconfig      -                 4         -
arm          arm      arm-linux-gnueabihf-    multi_v7_defconfig    -                 4         yes
pseries      powerpc  powerpc64le-linux-gnu-  pseries_le_defconfig  -                 0         -
arm64-4k     arm64    aarch64-linux-gnu-      defconfig             ARM64_4K_PAGES    4         yes
arm64-16k    arm64    aarch64-linux-gnu-      defconfig             ARM64_16K_PAGES   2         -
arm64-64k    arm64    aarch64-linux-gnu-      defconfig             ARM64_64K_PAGES   0         yes
"
only=${CROSS_ONLY:-}
fail=0
touched=$( (echo mm/memory.o; touched_objects "$BASE_TAG" HEAD) | sort -u)

while read -r name arch cross defconfig pages expected module; do
	[ -n "$name" ] || continue
	[ -z "$only" ] || [[ " $only " == *" $name "* ]] || continue
	out=$BUILD/out$BASE_SUFFIX/cross-$name
	mk=(make -s -C "$TREE" O="$out" ARCH="$arch")
	[ "$cross" = - ] || mk+=(CROSS_COMPILE="$cross")
	mkdir -p "$out"
	"${mk[@]}" "$defconfig" >/dev/null
	[ "$pages" = - ] || "$TREE/scripts/config" --file "$out/.config" -e "$pages"
	"${mk[@]}" olddefconfig >/dev/null
	got=$(sed -n 's/^CONFIG_FAULT_AROUND_ORDER=//p' "$out/.config")
	what=$defconfig${pages/#-/}
	[ "$pages" = - ] || what="$defconfig+$pages"
	if [ "$got" = "$expected" ]; then
		printf '%-10s %-27s CONFIG_FAULT_AROUND_ORDER=%s (expected %s) ok\n' \
			"$name" "$what" "$got" "$expected"
	else
		printf '%-10s %-27s CONFIG_FAULT_AROUND_ORDER=%s (expected %s) FAIL\n' \
			"$name" "$what" "${got:-unset}" "$expected"
		fail=1
	fi
	[ "$arch" = x86 ] && continue	# bisect.sh builds the x86_64 objects
	# Compile the KUnit suite into mm/memory.o too, so that 32-bit and
	# 64KiB-page type mistakes show up; the order printed above is kept.
	"$TREE/scripts/config" --file "$out/.config" -e KUNIT -e DEBUG_FS \
		-e FAULT_AROUND_KUNIT_TEST
	"${mk[@]}" olddefconfig >/dev/null
	objs=$(echo "$touched" | awk -v a="arch/$arch/" \
		'index($0, "arch/") != 1 || index($0, a) == 1')
	log "$name: building $(echo $objs)"
	"${mk[@]}" -j"$JOBS" KCFLAGS=-Werror $objs || { echo "$name: build FAILED"; fail=1; }
	[ "$module" = yes ] || continue
	src=$BUILD/mod$BASE_SUFFIX/cross-$name
	module_sources "$src"
	# Kbuild's lists may continue over lines ending in a backslash.
	mobjs=$(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}' "$src/Kbuild" |
		sed -n 's/^mod_faultaround\(_test\)\?-y := //p')
	log "$name: building mod_faultaround: $(echo $mobjs)"
	"${mk[@]}" -j"$JOBS" modules_prepare &&
		"${mk[@]}" -j"$JOBS" M="$src" KCFLAGS=-Werror $mobjs ||
		{ echo "$name: mod_faultaround build FAILED"; fail=1; }
done <<< "$configs"
exit $fail
