#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: ccache-test.sh
# The lab's compiler masquerade (deps.sh's, scripts/ccache-cc, first in
# lib.sh's PATH), with a cache in a temporary directory: gcc is the
# masquerade's; a C file compiled again in another directory is a cache
# hit; an assembler file that .incbin's a file whose content differs
# there is not, and its object holds that content.  Seconds, no kernel
# tree, build/ untouched.  A PASS or FAIL line per step, then
# "N passed, N failed"; the exit status fails on any FAIL.
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
export O=$tmp/build
. "$(dirname "$0")/../../scripts/lib.sh"
export CCACHE_DIR=$tmp/ccache CCACHE_BASEDIR=$tmp
"$TOP/scripts/deps.sh" > /dev/null || die "deps.sh failed"

passed=0 failed=0
# verdict <what> <command...>
verdict() {
	local what=$1
	shift
	if "$@"; then echo "PASS $what"; passed=$((passed + 1))
	else echo "FAIL $what"; failed=$((failed + 1)); fi
}
hits() { ccache --print-stats | awk '$1 == "direct_cache_hit" { print $2 }'; }

verdict "gcc is the masquerade's: $(command -v gcc)" \
	[ "$(command -v gcc)" = "$BUILD/deps/cc/gcc" ]

# As kbuild compiles: -MMD through -Wp, paths relative to the directory.
for d in a b; do
	mkdir "$tmp/$d"
	echo 'int f(void) { return 42; }' > "$tmp/$d/f.c"
	printf '.section .rodata\n.incbin "blob"\n' > "$tmp/$d/x.S"
	echo "content of $d" > "$tmp/$d/blob"
	(cd "$tmp/$d" && gcc -Wp,-MMD,f.d -c -o f.o f.c && gcc -Wp,-MMD,x.d -c -o x.o x.S) ||
		die "compiling in $d failed"
	[ "$d" = b ] || before=$(hits)
done
verdict "the C file compiled in a second directory is a cache hit ($before, then $(hits) direct hits)" \
	[ "$(hits)" = $((before + 1)) ]
verdict "the .incbin object of the second directory holds its own file, not the first's" \
	grep -qF "content of b" "$tmp/b/x.o"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
