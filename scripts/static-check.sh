#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: static-check.sh sparse|coccicheck
# Run a static checker on every object the series touches, at the base and
# at the tip, and fail on any finding the base does not already have.
. "$(dirname "$0")/lib.sh"
require_tree

checker=${1:?usage: static-check.sh sparse|coccicheck}
case $checker in
sparse)		args=(C=2) ;;
coccicheck)	args=(C=2 CHECK="$BUILD/check-src/scripts/coccicheck" MODE=report) ;;
*)		die "unknown checker $checker" ;;
esac

objs=$( (echo mm/memory.o; touched_objects "$BASE_TAG" HEAD) | grep -v '^arch/' | sort -u)
out=$BUILD/$checker
mkdir -p "$out"
for rev in base tip; do
	commit=$(git -C "$TREE" rev-parse "$([ $rev = base ] && echo "$BASE_TAG" || echo HEAD)")
	log "$checker at $rev: $(echo $objs)"
	"$TOP/scripts/build-objs.sh" "$commit" "${args[@]}" -- $objs \
		> "$out/$rev.raw" 2>&1 || { cat "$out/$rev.raw" >&2; die "build failed at $rev"; }
	grep -E '^[^ ]+:[0-9]+:' "$out/$rev.raw" | sed "s|$BUILD/check-src/||" > "$out/$rev.txt" || true
done
new_findings "$out/base.txt" "$out/tip.txt" > "$out/new.txt"
echo "$checker: $(wc -l < "$out/base.txt") findings at base, $(wc -l < "$out/tip.txt") at tip, $(wc -l < "$out/new.txt") new"
if [ -s "$out/new.txt" ]; then
	cat "$out/new.txt"
	exit 1
fi
