#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of mod_faultaround through its own Makefile, against the
# normal lab kernel: checkpatch --strict (style), sparse (check) and
# coccicheck.  Any finding fails; so does linking an MMU notifier call.
. "$(dirname "$0")/lib.sh"

fail=0
for target in style check coccicheck; do
	extra=()
	[ "$target" != check ] || extra=(CHECK="$("$TOP/scripts/sparse.sh")")
	out=$("$TOP/scripts/module.sh" normal "$target" "${extra[@]}" 2>&1) || { echo "$out"; fail=1; }
	if grep -m1 'specified, but .* not available' <<< "$out"; then
		echo "module $target: FAIL: the checker did not run"
		fail=1
		continue
	fi
	findings=$(echo "$out" | grep -E '^[^ ]+:[0-9]+:' || true)
	if [ -n "$findings" ]; then
		echo "$findings"
		echo "module $target: FAIL"
		fail=1
	else
		echo "module $target: clean"
	fi
done
# The overrides follow their VMA through the lab hook's ->vma_dup() and
# ->vma_free(): the module must not need MMU notifiers (v2's, whose
# SRCU-deferred free could run after unload, needed CONFIG_MMU_NOTIFIER).
ko=$("$TOP/scripts/module.sh" normal)
late=$(nm -u "$ko" | awk '$2 ~ /mmu_notifier/ { print $2 }')
if [ -n "$late" ]; then
	echo "module notifier: FAIL: links $(echo $late)"
	fail=1
else
	echo "module notifier: links no MMU notifier call"
fi
exit $fail
