#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: kernel.sh normal|debug|base
# Build the x86_64 boot lab kernel (bzImage and modules) in
# build/out/qemu-<variant>: allnoconfig + Kconfig.snippets fragments.
# "base" is the normal config on the unpatched base (for make bench AB=1).
. "$(dirname "$0")/lib.sh"
require_tree

variant=${1:?usage: kernel.sh normal|debug|base}
frags=("$TOP/Kconfig.snippets/qemu.config")
src=$TREE
case $variant in
normal) ;;
debug)	frags+=("$TOP/Kconfig.snippets/qemu-debug.config") ;;
base)	src=$BUILD/base-src
	[ -d "$src" ] || git -C "$TREE" worktree add -q --detach "$src" "$BASE_TAG" ;;
*)	die "unknown variant $variant" ;;
esac
out=$BUILD/out/qemu-$variant
mkdir -p "$out"

# Nothing to do when the fragments and the source are what they were.
stamp=$( (cat "${frags[@]}"; git -C "$src" rev-parse HEAD;
	git -C "$src" status --porcelain -uno) | sha256sum | cut -d' ' -f1)
if [ -f "$out/arch/x86/boot/bzImage" ] && [ "$(cat "$out/.faultaround-stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$out/arch/x86/boot/bzImage"
	exit 0
fi
rm -f "$out/.faultaround-stamp"

(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -n -O "$out" \
	"${frags[@]}") > "$out/merge.log" 2>&1 || { cat "$out/merge.log"; die "merge_config failed"; }
# merge_config only warns when a requested option did not stick; the base
# tree has none of the series' options.
missing=$(grep "Value requested for" "$out/merge.log" || true)
[ "$variant" != base ] || missing=$(echo "$missing" | grep -v FAULT_AROUND || true)
[ -z "$missing" ] || die "$variant config: requested options are missing:
$missing"
log "building $variant kernel in $out"
make -s -C "$src" O="$out" ARCH=x86_64 -j"$JOBS" bzImage modules
echo "$stamp" > "$out/.faultaround-stamp"
echo "$out/arch/x86/boot/bzImage"
