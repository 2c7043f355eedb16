#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series, upstream and lab-only
# parts (or the files given): any error, warning or check fails.
. "$(dirname "$0")/lib.sh"
require_tree

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
