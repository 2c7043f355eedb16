#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build each patch of the series on its own (x86_64, -Werror), so that the
# series stays bisectable: mm/memory.o plus every C file the patch touches.
# Usage: bisect.sh [<tip commit>]  (default: the tree's HEAD)
. "$(dirname "$0")/lib.sh"
require_tree

n=0
for c in $(series_commits "${1:-HEAD}"); do
	n=$((n + 1))
	objs=$( (echo mm/memory.o; touched_objects "$c^" "$c") | grep -v '^arch/' | sort -u)
	log "patch $n: $(git -C "$TREE" log -1 --format=%s "$c")"
	log "  building: $(echo $objs)"
	"$TOP/scripts/build-objs.sh" "$c" KCFLAGS=-Werror -- $objs ||
		die "patch $n does not build on its own: $(git -C "$TREE" log -1 --format=%s "$c")"
done
[ $n -gt 0 ] || die "no patches applied on $BASE_TAG"
echo "bisect: all $n patches build on their own"
