#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: static-check.sh sparse|coccicheck
# Run a static checker on every object the series touches and fail on any
# finding the series adds.  sparse runs at the base and at the tip, and the
# findings are compared; coccicheck takes minutes per run on mm/memory.c, so
# it runs at the tip only and counts the findings on lines the series adds.
. "$(dirname "$0")/lib.sh"
require_tree

checker=${1:?usage: static-check.sh sparse|coccicheck}
case $checker in
sparse)		args=(C=1 CHECK="$("$TOP/scripts/sparse.sh")") revs="base tip" ;;
coccicheck)	args=(C=1 CHECK="$BUILD/check-src$BASE_SUFFIX/scripts/coccicheck" MODE=report)
		revs=tip ;;
*)		die "unknown checker $checker" ;;
esac

objs=$( (echo mm/memory.o; touched_objects "$BASE_TAG" HEAD) | grep -v '^arch/' | sort -u)
out=$BUILD/$checker$BASE_SUFFIX
mkdir -p "$out"
for rev in $revs; do
	commit=$(git -C "$TREE" rev-parse "$([ $rev = base ] && echo "$BASE_TAG" || echo HEAD)")
	log "$checker at $rev: $(echo $objs)"
	"$TOP/scripts/build-objs.sh" "$commit" "${args[@]}" -- $objs \
		> "$out/$rev.raw" 2>&1 || { cat "$out/$rev.raw" >&2; die "build failed at $rev"; }
	# kbuild skips a checker it finds wanting, with only a warning.
	! grep -m1 'specified, but .* not available' "$out/$rev.raw" >&2 ||
		die "$checker did not run at $rev"
	grep -E '^[^ ]+:[0-9]+:' "$out/$rev.raw" | sed "s|$BUILD/check-src$BASE_SUFFIX/||" > "$out/$rev.txt" || true
done
if [ "$revs" != tip ]; then
	new_findings "$out/base.txt" "$out/tip.txt" > "$out/new.txt"
	echo "$checker: $(wc -l < "$out/base.txt") findings at base, $(wc -l < "$out/tip.txt") at tip, $(wc -l < "$out/new.txt") new"
else
	findings_on_added_lines "$out/tip.txt" > "$out/new.txt"
	echo "$checker: $(wc -l < "$out/tip.txt") findings at tip, $(wc -l < "$out/new.txt") on lines the series adds"
fi
if [ -s "$out/new.txt" ]; then
	cat "$out/new.txt"
	exit 1
fi
