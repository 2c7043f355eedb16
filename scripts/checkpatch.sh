#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every patch of the series, upstream and lab-only
# parts (or the files given): any error, warning or check fails.
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is checked here
# instead: every file a patch creates must fall under a directory that a
# MAINTAINERS F: line names, so that no patch adds a redundant F: line.
. "$(dirname "$0")/lib.sh"
require_tree

# The new files of patch $1 that no F: directory of MAINTAINERS covers.
uncovered() {
	local f d
	for f in $(sed -n 's|^+++ b/||p' "$1" | sort -u); do
		grep -q "^--- /dev/null" <(grep -B1 -F "+++ b/$f" "$1") || continue
		d=$f covered=0
		while [[ $d == */* ]]; do
			d=${d%/*}
			if grep -qxF "F:	$d/" "$TREE/MAINTAINERS"; then
				covered=1
				break
			fi
		done
		grep -qxF "F:	$f" "$TREE/MAINTAINERS" && covered=1
		[ $covered = 1 ] || echo "$f"
	done
}

files=("$@")
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(series_patches; lab_patches)
[ ${#files[@]} -gt 0 ] || die "no patches in ${PATCHES#"$TOP"/}/"
fail=0
for p in "${files[@]}"; do
	name=$(basename "$p")
	[[ $p != */lab/* ]] || name=lab/$name
	new=$(uncovered "$p")
	if res=$(cd "$TREE" && ./scripts/checkpatch.pl --strict --terse --showfile \
			--ignore FILE_PATH_CHANGES "$p" 2>&1) && [ -z "$new" ]; then
		printf 'ok    %s\n' "$name"
	else
		printf 'FAIL  %s\n%s\n' "$name" "$res"
		[ -z "$new" ] || printf '%s: no MAINTAINERS F: line covers it\n' $new
		fail=1
	fi
done
# What a reviewer reads first stays short (issue 44): the cover letter at
# most 120 lines, each upstream changelog at most 60 (Subject to ---);
# the method and tables belong in the lab's docs.
cover=$PATCHES/cover-letter.txt
if [ $# = 0 ] && [ -f "$cover" ]; then
	n=$(wc -l < "$cover")
	if [ "$n" -le 120 ]; then
		printf 'ok    %s: %d lines\n' "${cover#"$TOP"/}" "$n"
	else
		printf 'FAIL  %s: %d lines, more than 120\n' "${cover#"$TOP"/}" "$n"
		fail=1
	fi
	for p in $(series_patches); do
		n=$(awk '/^Subject:/ { s = 1; next } s && /^---$/ { print c; exit } s { c++ }' "$p")
		[ "${n:-0}" -le 60 ] && continue
		printf 'FAIL  %s: changelog of %d lines, more than 60\n' "$(basename "$p")" "$n"
		fail=1
	done
fi
exit $fail
