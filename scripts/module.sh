#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: module.sh <variant> [make target...]  (a kernel.sh variant)
# Build mod_faultaround (or run its Makefile targets: check, style,
# coccicheck) against a boot lab kernel.  Each kernel gets its own copy of
# the sources under build/mod/<variant>, since kbuild writes next to them.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: module.sh <kernel.sh variant> [target...]}
shift
kdir=$BUILD/out/qemu-$variant
out=$BUILD/mod/$variant
"$TOP/scripts/kernel.sh" "$variant" >/dev/null
mkdir -p "$out"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*' \
	--exclude='*.mod*' --exclude='modules.order' --exclude='Module.symvers' \
	"$TOP/mod_faultaround/" "$out/src/"
make -s -C "$out/src" KDIR="$kdir" "${@:-modules}"
[ $# -gt 0 ] || echo "$out/src/mod_faultaround.ko"
