#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prove from the object code that the per-VMA fault-around policy hook and
# the kernel's adaptive policy cost nothing while off: in the x86_64
# mm/memory.o, no call to either (nor, on 7.3, to vm.fault_around_bound's
# finish_fault_bounded()) is reachable from handle_mm_fault() with their
# static keys disabled, and none from vm_area_free() or vm_area_dup()
# (mm/vma_init.o on 7.3; kernel/fork.o, and remove_vma() in mm/vma.o,
# on 6.12).  Built twice, CONFIG_KUNIT=n and =m: a
# test option must not change the fault path (in v5, VISIBLE_IF_KUNIT made
# the helpers global).
# Usage: fastpath-check.sh  (FASTPATH_KUNIT="n m" picks the variants)
. "$(dirname "$0")/lib.sh"
require_tree

# The hook's functions and the adaptive policy's: none may be called on the
# fast path.
FORBIDDEN='^(fault_around|should_fault_around|fault_around_call_policy|fault_around_policy_order|fault_around_adaptive)$'
KEY=fault_around_policy_key
KEYS=$KEY,fault_around_adaptive_key
START=handle_mm_fault
# The same key guards the policy's ->vma_free() and ->vma_dup() where VMAs
# are freed and copied.
FREE_FORBIDDEN='^fault_around_policy_vma_free$'
DUP_FORBIDDEN='^fault_around_policy_vma_dup$'

# FASTPATH_REV checks another commit, e.g. one that breaks the hook on purpose.
commit=$(git -C "$TREE" rev-parse "${FASTPATH_REV:-HEAD}")
fail=0 summary=()

# vm.fault_around_bound (7.3's patch 16): its copy of finish_fault() only
# behind its key, so that a read fault runs finish_fault() while it is off.
memory_c=$(git -C "$TREE" show "$commit:mm/memory.c")
bounded=0
if grep -q 'fault_around_bound_key' <<< "$memory_c"; then
	grep -q '^static noinline vm_fault_t finish_fault_bounded(' <<< "$memory_c" ||
		die "mm/memory.c has fault_around_bound_key but no finish_fault_bounded(): the check must follow it"
	KEYS=$KEYS,fault_around_bound_key
	FORBIDDEN=${FORBIDDEN%')$'}'|finish_fault_bounded|fault_around_bound_folio)$'
	bounded=1
fi
# A GCC clone of any of them (.isra.0, .constprop.0, .part.0) too.
FORBIDDEN=${FORBIDDEN%'$'}'(\.[a-z]+\.[0-9]+)*$'

# Where the base frees and copies VMAs: "<object> <function>" lines.
if git -C "$TREE" show "$commit:mm/vma_init.c" 2>/dev/null |
   grep -q '^struct vm_area_struct \*vm_area_dup('; then
	VMA_FUNCS="mm/vma_init.o vm_area_free
mm/vma_init.o vm_area_dup"
else
	VMA_FUNCS="kernel/fork.o vm_area_free
kernel/fork.o vm_area_dup
mm/vma.o remove_vma"
fi
VMA_OBJS=$(awk '{ print $1 }' <<< "$VMA_FUNCS" | sort -u | tr '\n' ' ')

# build <commit> <out>: the objects of <commit> with <out>/allconfig.
build() {
	OBJS_OUT=$2 OBJS_CONFIG=$2/allconfig "$TOP/scripts/build-objs.sh" "$1" -- mm/memory.o $VMA_OBJS
}

# vma_checks <out>: no policy call from the VMA free and copy paths.
vma_checks() {
	local obj fn
	while read -r obj fn; do
		[ -f "$1/$obj" ] || die "no $1/$obj"
		"$TOP/scripts/fastpath-check.py" "$1/$obj" "$fn" "$KEY" \
			"$([ "$fn" = vm_area_dup ] && echo "$DUP_FORBIDDEN" || echo "$FREE_FORBIDDEN")" || return
	done <<< "$VMA_FUNCS"
}

for kunit in ${FASTPATH_KUNIT:-n m}; do
	out=$BUILD/out$BASE_SUFFIX/fastpath-kunit-$kunit
	mkdir -p "$out"
	# KCONFIG_ALLCONFIG takes one file: the fragment plus this variant.
	if [ "$kunit" = n ]; then want='# CONFIG_KUNIT is not set'; else want=CONFIG_KUNIT=$kunit; fi
	{ cat "$TOP/Kconfig.snippets/fastpath.config"; echo "$want"; } > "$out/allconfig"
	log "CONFIG_KUNIT=$kunit: building mm/memory.o $VMA_OBJS in $out"
	build "$commit" "$out"
	# Kconfig silently drops what it cannot set: check that it took.
	for opt in "$want" CONFIG_JUMP_LABEL=y CONFIG_64BIT=y; do
		grep -qxF "$opt" "$out/.config" ||
			die "$out/.config lacks '$opt'; see Kconfig.snippets/fastpath.config"
	done
	[ -f "$out/mm/memory.o" ] || die "no $out/mm/memory.o"
	echo "== CONFIG_KUNIT=$kunit"
	if "$TOP/scripts/fastpath-check.py" "$out/mm/memory.o" "$START" "$KEYS" "$FORBIDDEN" &&
	   vma_checks "$out"; then
		summary+=("PASS CONFIG_KUNIT=$kunit")
	else
		summary+=("FAIL CONFIG_KUNIT=$kunit")
		fail=1
	fi
done

# control <name> <sed expression> <callee>: the same check on a scratch
# commit (never a branch) whose mm/memory.c the expression breaks must
# report a call to <callee>, or it proves nothing.
control() {
	local src blob index tree rev res out=$BUILD/out$BASE_SUFFIX/fastpath-kunit-n
	src=$(git -C "$TREE" show "$commit:mm/memory.c")
	res=$(sed "$2" <<< "$src")
	[ "$res" != "$src" ] || die "control $1: the expression changed nothing in mm/memory.c"
	blob=$(git -C "$TREE" hash-object -w --stdin <<< "$res")
	index=$(mktemp)
	GIT_INDEX_FILE=$index git -C "$TREE" read-tree "$commit"
	GIT_INDEX_FILE=$index git -C "$TREE" update-index --cacheinfo "100644,$blob,mm/memory.c"
	tree=$(GIT_INDEX_FILE=$index git -C "$TREE" write-tree)
	rm -f "$index"
	rev=$(git -C "$TREE" commit-tree "$tree" -p "$commit" -m "fastpath control: $1")
	log "control: $1, CONFIG_KUNIT=n"
	build "$rev" "$out"
	echo "== control: $1"
	res=$("$TOP/scripts/fastpath-check.py" "$out/mm/memory.o" "$START" "$KEYS" "$FORBIDDEN" || true)
	echo "$res"
	if grep -q "^FAIL: call to $3 " <<< "$res"; then
		summary+=("control '$1' FAILS as it must")
	else
		summary+=("control '$1' PASSED: the check cannot see it")
		fail=1
	fi
}

if [ -z "${FASTPATH_REV:-}" ]; then
	inline='static __always_inline vm_fault_t fault_around('
	control "fault_around() out of line" \
		"s/^${inline%(}(/static noinline vm_fault_t fault_around(/" fault_around
	# The key stays, guarding something else; the policy's call does not.
	# The order is a pointer on 7.3 (patch 16) and a value on 6.12.
	control "adaptive policy outside its key" \
		's/^\tif (\(\*\?\)order \&\& static_branch_unlikely(\&fault_around_adaptive_key))$/&\n\t\t(\1order)++;\n\tif (\1order)/' \
		fault_around_adaptive
	[ $bounded = 0 ] || control "bounded finish_fault() outside its key" \
		's/^\t\tret |= finish_fault(vmf);$/\t\tret |= finish_fault_bounded(vmf, order);/' \
		finish_fault_bounded
fi
line=$(printf '%s, ' "${summary[@]}")
echo "== fastpath: ${line%, }"
exit $fail
