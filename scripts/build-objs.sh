#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: build-objs.sh <commit> [make args...] -- <objects...>
# Check out <commit> in a scratch worktree and build the given objects with
# the small x86_64 check config, so checks never disturb the main tree.
. "$(dirname "$0")/lib.sh"
require_tree

commit=$1; shift
args=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
shift
SRC=$BUILD/check-src
OUT=$BUILD/out/check

[ -d "$SRC" ] || git -C "$TREE" worktree add -q --detach "$SRC" "$commit"
git -C "$SRC" checkout -q --detach "$commit"
mkdir -p "$OUT"
make -s -C "$SRC" O="$OUT" \
	KCONFIG_ALLCONFIG="$TOP/Kconfig.snippets/check.config" allnoconfig
objs=()
for o in "$@"; do
	[ -f "$SRC/${o%.o}.c" ] && objs+=("$o")
done
[ ${#objs[@]} -eq 0 ] && exit 0
# Checkers given in args (C=2) must see only the objects, not the tools.
make -s -C "$SRC" O="$OUT" -j"$JOBS" prepare
make -s -C "$SRC" O="$OUT" -j"$JOBS" "${args[@]}" "${objs[@]}"
