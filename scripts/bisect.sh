#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build each patch of the series on its own (x86_64, -Werror), so that the
# series stays bisectable.  The objects: mm/memory.o, those of every C
# file the series touches and those of the patch's own, outside arch/
# (cross.sh builds those); at each patch, each one the patch can change:
# its C file, or a file its last build read (kbuild's .<object>.cmd);
# all of them at the first patch, and at one that changes what those
# lists do not record (kbuild's files, a Kconfig file, what generates
# headers).
# Usage: bisect.sh [<tip commit>]  (default: the tree's HEAD)
. "$(dirname "$0")/lib.sh"
require_tree

tip=${1:-HEAD}
out=$BUILD/out$BASE_SUFFIX/check
src=$BUILD/check-src$BASE_SUFFIX
series_objs=$(touched_objects "$BASE_TAG" "$tip")

# rebuild_all <files>: the patch changes the build itself (tools/ is user
# space, built by its own Makefiles).
rebuild_all() {
	grep -qP '^(?!tools/|Documentation/)(scripts/|(.*/)?(Kconfig|Makefile|Kbuild)[^/]*$|.*asm-offsets|kernel/bounds\.c$|.*\.tbl$)' <<< "$1"
}

# deps_of <object>: the source files its last build read, relative to the
# source tree (kbuild writes them absolute, or relative to $out with ../
# as the #include had it).
deps_of() {
	local deps
	deps=$(sed -n '/^deps_/,/^$/{/^deps_/d;s/^ *//;s/ *\\$//;/^\$(/d;/^$/d;p}' \
		"$out/$(dirname "$1")/.$(basename "$1").cmd")
	# shellcheck disable=SC2086 # one path a word
	(cd "$out" && realpath -m --relative-to="$src" -- $deps)
}

n=0
for c in $(series_commits "$tip"); do
	n=$((n + 1))
	files=$(git -C "$TREE" diff --name-only "$c^" "$c")
	objs=$( (echo mm/memory.o; echo "$series_objs"; touched_objects "$c^" "$c") |
		grep -v '^arch/' | sort -u)
	all=0
	[ $n -gt 1 ] && ! rebuild_all "$files" || all=1
	build=
	for o in $objs; do
		if [ $all = 1 ] || [ ! -f "$out/$(dirname "$o")/.$(basename "$o").cmd" ] ||
		   grep -qxF "${o%.o}.c" <<< "$files"; then
			build+=" $o"
			continue
		fi
		deps=$(deps_of "$o")
		! grep -qxFf <(echo "$files") <<< "$deps" || build+=" $o"
	done
	log "patch $n: $(git -C "$TREE" log -1 --format=%s "$c")"
	if [ -z "$build" ]; then
		log "  nothing to build on x86_64: it changes no input of$(printf ' %s' $objs)"
		continue
	fi
	log "  building:$build"
	# shellcheck disable=SC2086 # one object a word
	"$TOP/scripts/build-objs.sh" "$c" KCFLAGS=-Werror -- $build ||
		die "patch $n does not build on its own: $(git -C "$TREE" log -1 --format=%s "$c")"
done
[ $n -gt 0 ] || die "no patches applied on $BASE_TAG"
echo "bisect: all $n patches build on their own"
