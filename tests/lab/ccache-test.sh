#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: ccache-test.sh
# The lab's compiler masquerade (deps.sh's, scripts/ccache-cc, first in
# lib.sh's PATH), with a cache in a temporary directory and no ccache
# settings of the caller's: gcc is the masquerade's; a C file compiled
# with kbuild's -Wp,-MMD is not preprocessed (depend mode), and compiled
# again in another directory it is a hit, but not in another namespace;
# an assembler file and a C file that .incbin a file whose content
# differs there are not: their objects hold that content.  Seconds, no
# kernel tree, build/ untouched.  A PASS or FAIL line per step, then
# "N passed, N failed"; the exit status fails on any FAIL.
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
export O=$tmp/build
for v in $(env | sed -n 's/^\(CCACHE_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
. "$(dirname "$0")/../../scripts/lib.sh"
export CCACHE_DIR=$tmp/ccache CCACHE_BASEDIR=$tmp CCACHE_CONFIGPATH=/dev/null
"$TOP/scripts/deps.sh" > /dev/null || die "deps.sh failed"
. "$TOP/tests/lab/verdict.sh"

stat_of() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
# compile <dir> <file>: as kbuild does, -MMD through -Wp, relative paths.
compile() { (cd "$tmp/$1" && gcc -Wp,-MMD,"$2.d" -c -o "${2%.*}.o" "$2") || die "compiling $1/$2 failed"; }

[ "$(command -v gcc)" = "$BUILD/deps/cc/gcc" ]
verdict $? "gcc is the masquerade's: $(command -v gcc)"
for d in a b c; do
	mkdir "$tmp/$d"
	echo 'int f(void) { return 42; }' > "$tmp/$d/f.c"
	printf '.section .rodata\n.incbin "blob"\n' > "$tmp/$d/x.S"
	printf 'asm(".section .rodata\\n.incbin \\"blob\\"\\n.previous");\n' > "$tmp/$d/y.c"
	echo "content of $d" > "$tmp/$d/blob"
done
compile a f.c
[ "$(stat_of preprocessed_cache_miss)" = 0 ]
verdict $? "the C file is not preprocessed: depend mode ($(stat_of preprocessed_cache_miss) preprocessed misses)"
hits=$(stat_of direct_cache_hit)
compile b f.c
[ "$(stat_of direct_cache_hit)" = $((hits + 1)) ]
verdict $? "compiled in a second directory it is a hit ($hits, then $(stat_of direct_cache_hit) direct hits)"
echo other > "$BUILD/deps/cc/namespace"
compile c f.c
[ "$(stat_of direct_cache_hit)" = $((hits + 1)) ]
verdict $? "in another namespace it is not ($(stat_of direct_cache_hit) direct hits)"
for f in x.S y.c; do
	compile a $f
	compile b $f
	grep -qF "content of b" "$tmp/b/${f%.*}.o"
	verdict $? "$f's .incbin object of the second directory holds its own file, not the first's"
done

verdict_end
