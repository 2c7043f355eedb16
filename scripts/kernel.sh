#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: kernel.sh normal|debug
# Build the x86_64 boot lab kernel (bzImage and modules) in
# build/out/qemu-<variant>: allnoconfig + Kconfig.snippets fragments.
. "$(dirname "$0")/lib.sh"
require_tree

variant=${1:?usage: kernel.sh normal|debug}
frags=("$TOP/Kconfig.snippets/qemu.config")
case $variant in
normal) ;;
debug)	frags+=("$TOP/Kconfig.snippets/qemu-debug.config") ;;
*)	die "unknown variant $variant" ;;
esac
out=$BUILD/out/qemu-$variant
mkdir -p "$out"

(cd "$TREE" && ARCH=x86_64 scripts/kconfig/merge_config.sh -n -O "$out" \
	"${frags[@]}") > "$out/merge.log" 2>&1 || { cat "$out/merge.log"; die "merge_config failed"; }
# merge_config only warns when a requested option did not stick.
if grep -A3 "Value requested for" "$out/merge.log"; then
	die "$variant config: requested options are missing (see above)"
fi
log "building $variant kernel in $out"
make -s -C "$TREE" O="$out" ARCH=x86_64 -j"$JOBS" bzImage modules
echo "$out/arch/x86/boot/bzImage"
