#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build each patch of the series on its own (x86_64, -Werror), so that the
# series stays bisectable: of mm/memory.o and the objects the series
# touches, each one the patch can change (its C file, a file its last
# build depended on, or a Kconfig or Makefile); all of them at the first.
# Usage: bisect.sh [<tip commit>]  (default: the tree's HEAD)
. "$(dirname "$0")/lib.sh"
require_tree

tip=${1:-HEAD}
out=$BUILD/out$BASE_SUFFIX/check
src=$BUILD/check-src$BASE_SUFFIX
candidates=$( (echo mm/memory.o; touched_objects "$BASE_TAG" "$tip") | grep -v '^arch/' | sort -u)

# can_change <object> <files the patch touches>: kbuild's record of the
# object's last build (.<object>.cmd) lists every file it read.
can_change() {
	local cmd deps
	cmd=$out/$(dirname "$1")/.$(basename "$1").cmd
	[ -f "$cmd" ] || return 0
	grep -qxF "${1%.o}.c" <<< "$2" && return 0
	# kbuild's own files (tools/ is user space, built by its Makefiles).
	grep -E '(^|/)(Kconfig[^/]*|Makefile|Kbuild)$' <<< "$2" | grep -qv '^tools/' &&
		return 0
	# Absolute, or relative to $out where ccache's depend mode wrote them.
	deps=$(sed -n '/^deps_/,/^$/{s/^ *//;s/ *\\$//;p}' "$cmd" |
		sed "s|^.*/$(basename "$src")/||")
	grep -qxFf <(echo "$2") <<< "$deps"
}

n=0
for c in $(series_commits "$tip"); do
	n=$((n + 1))
	files=$(git -C "$TREE" diff --name-only "$c^" "$c")
	objs=
	for o in $candidates; do
		[ $n -gt 1 ] && ! can_change "$o" "$files" || objs+=" $o"
	done
	log "patch $n: $(git -C "$TREE" log -1 --format=%s "$c")"
	if [ -z "$objs" ]; then
		log "  nothing to build on x86_64: it changes no input of$(printf ' %s' $candidates)"
		continue
	fi
	log "  building:$objs"
	"$TOP/scripts/build-objs.sh" "$c" KCFLAGS=-Werror -- $objs ||
		die "patch $n does not build on its own: $(git -C "$TREE" log -1 --format=%s "$c")"
done
[ $n -gt 0 ] || die "no patches applied on $BASE_TAG"
echo "bisect: all $n patches build on their own"
