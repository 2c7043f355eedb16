#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: kernel.sh normal|debug|kcsan|release|base|release-kunit-m|base-kunit-m|release-p<N>|<guest>
# Build a boot lab kernel in build/out/qemu-<variant>: allnoconfig +
# Kconfig.snippets fragments; print the path of its image.  The named
# variants are x86_64 (bzImage and modules); a <guest> of lib.sh's
# GUESTS (arm64-64k, arm64-4k, ppc64le-64k, ppc64le-4k, arm) is the normal
# config for that guest: arm64-64k and arm are make test's (the kselftest,
# the built-in KUnit suite and the module's), and all of them run make
# bench ARCH=arm64|powerpc|arm.
# "release" is the normal config without KUnit, "base" the same on the
# unpatched base: the pair that make bench AB=1 compares.  The -kunit-m
# pair has CONFIG_KUNIT=m (make bench AB=1 KUNIT=m): the fault path must
# not depend on it.  release-p<N> is the release config on the tree with
# only the first N upstream patches (make bench AB=1 AB_PATCHES=M-N).
. "$(dirname "$0")/../lib.sh"
require_tree

variant=${1:?usage: kernel.sh normal|debug|kcsan|release|base|release-kunit-m|base-kunit-m|release-p<N>|<guest>}
guest=$(guest_of "$variant")
src=$TREE
arch=$(guest_field "$guest" 1) cross=$(guest_field "$guest" 2) image=$(guest_field "$guest" 3)
# modules: Module.symvers, which mod_faultaround builds against.
targets=("$(basename "$image")" modules)
[ "$variant" != x86_64 ] || die "the x86_64 guest's kernels are normal, debug, release..."
frags=("$TOP/Kconfig.snippets/qemu.config" "$TOP/Kconfig.snippets/qemu-$arch.config")
[ "$guest" = "$arch" ] || frags+=("$TOP/Kconfig.snippets/qemu-$guest.config")
case $variant in
normal|"$guest") ;;
debug)	frags+=("$TOP/Kconfig.snippets/qemu-debug.config") ;;
kcsan)	frags+=("$TOP/Kconfig.snippets/qemu-kcsan.config") ;;
release|base|release-p[0-9]*) frags+=("$TOP/Kconfig.snippets/release.config") ;;
release-kunit-m|base-kunit-m) frags+=("$TOP/Kconfig.snippets/kunit-m.config") ;;
*)	die "unknown variant $variant" ;;
esac
if [[ $variant == base* ]]; then
	src=$BUILD/base-src$BASE_SUFFIX
	worktree_at "$src" "$BASE_TAG"
elif [[ $variant == release-p* ]]; then
	n=${variant#release-p}
	[[ $n =~ ^[0-9]+$ ]] || die "unknown variant $variant"
	src=$BUILD/src-p$n$BASE_SUFFIX
	worktree_at "$src" "$(series_commit "$n")"
fi
out=$BUILD/out$BASE_SUFFIX/qemu-$variant
mkdir -p "$out"

# Nothing to do when the fragments and the source are what they were.
stamp=$( (cat "${frags[@]}"; git -C "$src" rev-parse HEAD;
	git -C "$src" status --porcelain -uno) | sha256sum | cut -d' ' -f1)
if [ -f "$out/$image" ] && [ "$(cat "$out/.faultaround-stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$out/$image"
	exit 0
fi
rm -f "$out/.faultaround-stamp"

(cd "$src" && ARCH=$arch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -n -O "$out" \
	"${frags[@]}") > "$out/merge.log" 2>&1 || { cat "$out/merge.log"; die "merge_config failed"; }
# merge_config only warns when a requested option did not stick.  Expected
# losses: the KUnit options without KUnit, the series' options on the base.
case $variant in
release|release-p*) expected=KUNIT ;;
base)	expected='KUNIT|FAULT_AROUND' ;;
# KUNIT=m cannot build the suite, which is built into mm/memory.c.
release-kunit-m) expected=FAULT_AROUND_KUNIT_TEST ;;
base-kunit-m) expected=FAULT_AROUND ;;
*)	expected='^$' ;;
esac
missing=$(grep "Value requested for" "$out/merge.log" | grep -Ev "$expected" || true)
[ -z "$missing" ] || die "$variant config: requested options are missing:
$missing"
log "building $variant kernel in $out"
make -s -C "$src" O="$out" ARCH=$arch CROSS_COMPILE=$cross -j"$JOBS" "${targets[@]}"
echo "$stamp" > "$out/.faultaround-stamp"
echo "$out/$image"
