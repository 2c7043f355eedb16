#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test the upstream workflow without sending anything: `make series` is
# idempotent, the pre-send gate passes on patches/, and it refuses a copy
# of the series with a deliberately broken patch, naming that patch.
. "$(dirname "$0")/lib.sh"
require_tree

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cp -a "$TOP/patches" "$tmp/before"
"$TOP/scripts/series.sh" >/dev/null
if diff -r "$tmp/before" "$TOP/patches"; then
	echo "PASS series: make series leaves patches/ byte-identical"
else
	echo "FAIL series: make series changed patches/ (diff above)"
	fail=1
fi

# The per-patch builds of the gate are the bisect check's; skip them here.
export GATE_BUILT=1
if "$TOP/scripts/send.sh" > "$tmp/send.log" 2>&1; then
	echo "PASS send: the gate passes and the dry run is clean"
	grep -c '^== ' "$tmp/send.log" | sed 's/^/      messages: /'
else
	cat "$tmp/send.log"
	echo "FAIL send: make send refused patches/"
	fail=1
fi

# A missing Signed-off-by is a checkpatch error; the gate must name 0003.
cp -a "$TOP/patches" "$tmp/broken"
broken=$(ls "$tmp"/broken/0003-*.patch)
sed -i '/^Signed-off-by: /d' "$broken"
if PATCHES=$tmp/broken "$TOP/scripts/send.sh" > "$tmp/broken.log" 2>&1; then
	echo "FAIL gate: make send accepted a patch without Signed-off-by"
	fail=1
elif grep -q "FAIL  $(basename "$broken")" "$tmp/broken.log" &&
     grep -q 'refusing to send' "$tmp/broken.log"; then
	echo "PASS gate: make send refused $(basename "$broken")"
else
	cat "$tmp/broken.log"
	echo "FAIL gate: make send failed without naming $(basename "$broken")"
	fail=1
fi
exit $fail
