#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of mod_faultaround through its own Makefile, against the
# normal lab kernel: checkpatch --strict (style), sparse (check) and
# coccicheck.  Any finding fails.
. "$(dirname "$0")/lib.sh"

fail=0
for target in style check coccicheck; do
	out=$("$TOP/scripts/module.sh" normal "$target" 2>&1) || { echo "$out"; fail=1; }
	findings=$(echo "$out" | grep -E '^[^ ]+:[0-9]+:' || true)
	if [ -n "$findings" ]; then
		echo "$findings"
		echo "module $target: FAIL"
		fail=1
	else
		echo "module $target: clean"
	fi
done
exit $fail
