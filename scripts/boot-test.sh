#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: boot-test.sh normal|debug|kcsan|arm64-64k
# Build the lab kernel, mod_faultaround (x86_64) and the initramfs, boot
# it, and run the runtime suite: the kselftest, fa-test, the built-in KUnit
# suite on the guest's geometry (lib.sh), and on x86_64 the module's tests.
# On x86_64, boot it with debugfs=off and with lockdown=integrity, where
# mod_faultaround must refuse to load and vm.fault_around_bytes must still
# work.  Then boot it with sysctl.vm.fault_around_bytes= four times: a
# valid value, one above a page table, one that is not a number, and 0
# (debug, kcsan: the valid value only).  The kcsan kernel's boots fail on
# a KCSAN report in mod_faultaround or fault-around's code; the others'
# are counted and listed, not judged.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: boot-test.sh normal|debug|kcsan|arm64-64k}
guest=$(guest_of "$variant")
case $variant in
normal|debug|kcsan|arm64-64k) ;;
*) die "unknown variant $variant" ;;
esac
geo=$(geometry "$guest") || die "no geometry for $guest in lib.sh"
read -r page_size ptes <<< "$geo"
# Every lab kernel has THP (make bench's large folios need it on x86_64):
# no kselftest test may skip.
module=1 skips=
[ "$guest" = x86_64 ] || module=0

kernel=$("$TOP/scripts/kernel.sh" "$variant" | tail -n1)
[ $module = 0 ] || "$TOP/scripts/module.sh" "$variant" >/dev/null
initrd=$("$TOP/scripts/initramfs.sh" "$variant" | tail -n1)
# The debug kernel (KASAN, lockdep) runs the suite in about 1 min under
# TCG here (58 s); the limit leaves room for a slower or busier host.
case $variant in debug|kcsan) export QEMU_TIMEOUT=${QEMU_TIMEOUT:-1500} ;; esac
max_order=0
while [ $((1 << (max_order + 1))) -le "$ptes" ]; do max_order=$((max_order + 1)); done
default_order=$(sed -n 's/^CONFIG_FAULT_AROUND_ORDER=//p' "$BUILD/out/qemu-$variant/.config")
[ -n "$default_order" ] || die "no CONFIG_FAULT_AROUND_ORDER in the $variant kernel's .config"
fail=0
"$TOP/scripts/qemu-run.sh" "$kernel" "$initrd" "boot-$variant" \
	fa.page_size="$page_size" fa.ptes="$ptes" fa.max_order=$max_order \
	fa.default_order="$default_order" fa.module=$module fa.skips="$skips" ||
	fail=1

if [ $module = 1 ]; then
	for want in off lockdown; do
		case $want in
		off) param=debugfs=off ;;
		lockdown) param=lockdown=integrity ;;
		esac
		QEMU_TIMEOUT=300 "$TOP/scripts/qemu-run.sh" "$kernel" "$initrd" \
			"boot-$variant-modload-$want" kunit.enable=0 \
			fa.mode=modload fa.want=$want fa.page_size="$page_size" \
			"$param" || fail=1
	done
fi

# sysctl.vm.fault_around_bytes= <bytes> <order> <set|invalid>: 25 pages
# round down to 16 (order 4); twice a page table is refused, as is a
# value with a suffix, and the default stays; 0 turns fault-around off.
# The debug kernel, whose boots are slow, takes the first only.
sysctls="$((25 * page_size))		4		set
$((2 * ptes * page_size))	$default_order	invalid
64K				$default_order	invalid
0				0		set"
case $variant in debug|kcsan) sysctls=$(head -n1 <<< "$sysctls") ;; esac
while read -r value want msg; do
	QEMU_TIMEOUT=300 "$TOP/scripts/qemu-run.sh" "$kernel" "$initrd" \
		"boot-$variant-sysctl-$value" kunit.enable=0 fa.mode=sysctl \
		sysctl.vm.fault_around_bytes="$value" fa.want="$want" \
		fa.msg="$msg" || fail=1
done <<< "$sysctls"

# kcsan_reports <console log...>: a line per KCSAN report, "ours <title>"
# if it names mod_faultaround or a fault_around function, else "other".
kcsan_reports() {
	awk '/BUG: KCSAN: / { t = $0; sub(/.*BUG: KCSAN: /, "", t)
			      o = t ~ /mod_faultaround|fault_around/; next }
	     t != "" && /====================/ { print (o ? "ours " : "other ") t; t = ""; next }
	     t != "" && /mod_faultaround|fault_around/ { o = 1 }
	     END { if (t != "") print (o ? "ours " : "other ") t }' "$@"
}
if [ "$variant" = kcsan ]; then
	reports=$(kcsan_reports "$BUILD"/boot/boot-kcsan*.console.log)
	ours=$(grep -c '^ours ' <<< "$reports" || true)
	other=$(grep -c '^other ' <<< "$reports" || true)
	[ -z "$reports" ] || sed 's/^/  KCSAN: /' <<< "$reports"
	if ! grep -q 'kcsan: selftest: \([0-9][0-9]*\)/\1 tests passed' "$BUILD/boot/boot-kcsan.console.log"; then
		echo "boot-kcsan: FAIL KCSAN: its selftest did not pass at boot: KCSAN did not run"
		fail=1
	elif [ "$ours" -gt 0 ]; then
		echo "boot-kcsan: FAIL KCSAN: $ours report(s) in mod_faultaround or fault-around's code ($other elsewhere)"
		fail=1
	else
		echo "boot-kcsan: PASS KCSAN: no report in mod_faultaround or fault-around's code ($other elsewhere, not judged)"
	fi
fi
exit $fail
