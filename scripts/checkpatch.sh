#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series, upstream and lab-only
# parts (or the files given): any error, warning or check fails.
. "$(dirname "$0")/lib.sh"
require_tree
# checkpatch runs scripts/spdxcheck.py with python3, which needs Debian's
# python3-ply: a python3 of pyenv's, first on PATH, fails and skips the
# SPDX check with only a traceback.
export PATH=/usr/bin:$PATH

files=("$@")
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(series_patches; lab_patches)
[ ${#files[@]} -gt 0 ] || die "no patches in $TOP/patches"
fail=0
for p in "${files[@]}"; do
	name=$(basename "$p")
	[[ $p != */lab/* ]] || name=lab/$name
	if res=$(cd "$TREE" && ./scripts/checkpatch.pl --strict --terse --showfile "$p" 2>&1); then
		printf 'ok    %s\n' "$name"
	else
		printf 'FAIL  %s\n%s\n' "$name" "$res"
		fail=1
	fi
done
exit $fail
