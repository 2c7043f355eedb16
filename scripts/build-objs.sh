#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: build-objs.sh <commit> [make args...] -- <objects...>
# Check out <commit> in a scratch worktree and build the given objects with
# the small x86_64 check config, so checks never disturb the main tree.
# OBJS_OUT and OBJS_CONFIG (a KCONFIG_ALLCONFIG file) select another output
# directory and config, for checks that need their own (fastpath-check.sh).
. "$(dirname "$0")/lib.sh"
require_tree

commit=$1; shift
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
shift
SRC=$BUILD/check-src$BASE_SUFFIX
OUT=${OBJS_OUT:-$BUILD/out$BASE_SUFFIX/check}
CONFIG=${OBJS_CONFIG:-$TOP/Kconfig.snippets/check.config}

worktree_at "$SRC" "$commit"
mkdir -p "$OUT"
# allnoconfig again only when the fragment or a Kconfig file differs from
# the last time: a bisect step that touches neither keeps its config
# (prepare still runs syncconfig when kbuild sees a reason).
stamp=$( (cat "$CONFIG"; git -C "$SRC" ls-files -s -- ':(glob)**/Kconfig*') |
	sha256sum | cut -d' ' -f1)
if [ ! -f "$OUT/.config" ] || [ "$(cat "$OUT/.config-stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -f "$OUT/.config-stamp"
	make -s -C "$SRC" O="$OUT" KCONFIG_ALLCONFIG="$CONFIG" allnoconfig
	echo "$stamp" > "$OUT/.config-stamp"
fi
objs=()
for o in "$@"; do
	[ -f "$SRC/${o%.o}.c" ] && objs+=("$o")
done
[ ${#objs[@]} -eq 0 ] && exit 0
# Rebuild the objects so that a checker (C=1) sees them, and only them:
# C=2 would also check every file of the prepare stage again.
make -s -C "$SRC" O="$OUT" -j"$JOBS" prepare
for o in "${objs[@]}"; do rm -f "$OUT/$o"; done
make -s -C "$SRC" O="$OUT" -j"$JOBS" "${args[@]}" "${objs[@]}"
