#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of mod_faultaround through its own Makefile, against the
# normal lab kernel: checkpatch --strict (style), sparse (check) and
# coccicheck.  Any finding fails; so does linking the notifier calls
# whose free can run after unload.
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
# The SRCU-deferred free runs module code after unload: never link it.
ko=$("$TOP/scripts/module.sh" normal)
late=$(nm -u "$ko" | awk '$2 ~ /^mmu_notifier_(put|get_locked)$/ { print $2 }')
if [ -n "$late" ]; then
	echo "module notifier: FAIL: links $(echo $late), whose free can run after unload"
	fail=1
else
	echo "module notifier: registered and unregistered, freed by the module"
fi
exit $fail
