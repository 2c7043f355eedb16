#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: boot-test.sh normal|debug|kcsan|arm64-64k|arm
# Build the lab kernel, mod_faultaround and the initramfs, boot it, and
# run the runtime suite: the kselftest, fa-test, the built-in KUnit suite
# on the guest's geometry (lib.sh), and the module's KUnit suite; on
# x86_64 also the module's run-time tests (fa-modtest).
# On x86_64, boot it with debugfs=off and with lockdown=integrity, where
# mod_faultaround must refuse to load and vm.fault_around_bytes must still
# work.  Then boot it with sysctl.vm.fault_around_bytes= four times: a
# valid value, one above a page table, one that is not a number, and 0
# (debug, kcsan: the valid value only).  The kcsan kernel's boots fail on
# a KCSAN report in mod_faultaround or fault-around's code (qemu-run.sh);
# here, unless KCSAN's selftest passed, and the others are listed.
. "$(dirname "$0")/../lib.sh"

variant=${1:?usage: boot-test.sh normal|debug|kcsan|arm64-64k|arm}
guest=$(guest_of "$variant")
case $variant in
normal|debug|kcsan|arm64-64k|arm) ;;
*) die "unknown variant $variant" ;;
esac
geo=$(geometry "$guest") || die "no geometry for $guest in lib.sh"
read -r page_size ptes <<< "$geo"
# Every lab kernel has THP (make bench's large folios need it on x86_64):
# no kselftest test may skip.
# The other guests' geometries (64KiB pages, 32-bit longs) are where the
# module's arithmetic can go wrong: its KUnit suite runs there too, but
# not fa-modtest, which is built for x86_64 alone.
module=1 skips=
[ "$guest" = x86_64 ] || module=kunit

kernel=$("$TOP/scripts/qemu/kernel.sh" "$variant" | tail -n1)
"$TOP/scripts/module.sh" "$variant" >/dev/null
initrd=$("$TOP/scripts/qemu/initramfs.sh" "$variant" | tail -n1)
# The sanitizer kernels: the debug one (KASAN, lockdep) runs the suite in
# under 2 min under TCG here, kcsan's too; the limit leaves room for a
# slower or busier host, and their sysctl boots are one.
# The module load and sysctl boots: 300 s unless QEMU_TIMEOUT says.
short_timeout=${QEMU_TIMEOUT:-300}
slow=0
case $variant in debug|kcsan) slow=1 ;; esac
[ $slow = 0 ] || export QEMU_TIMEOUT=${QEMU_TIMEOUT:-1500}
max_order=0
while [ $((1 << (max_order + 1))) -le "$ptes" ]; do max_order=$((max_order + 1)); done
default_order=$(sed -n 's/^CONFIG_FAULT_AROUND_ORDER=//p' "$BUILD/out$BASE_SUFFIX/qemu-$variant/.config")
[ -n "$default_order" ] || die "no CONFIG_FAULT_AROUND_ORDER in the $variant kernel's .config"
fail=0
"$TOP/scripts/qemu/qemu-run.sh" "$kernel" "$initrd" "boot-$variant" \
	fa.page_size="$page_size" fa.ptes="$ptes" fa.max_order=$max_order \
	fa.default_order="$default_order" fa.module=$module fa.skips="$skips" ||
	fail=1

if [ $module = 1 ]; then
	for want in off lockdown; do
		case $want in
		off) param=debugfs=off ;;
		lockdown) param=lockdown=integrity ;;
		esac
		QEMU_TIMEOUT=$short_timeout "$TOP/scripts/qemu/qemu-run.sh" "$kernel" "$initrd" \
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
[ $slow = 0 ] || sysctls=$(head -n1 <<< "$sysctls")
while read -r value want msg; do
	QEMU_TIMEOUT=$short_timeout "$TOP/scripts/qemu/qemu-run.sh" "$kernel" "$initrd" \
		"boot-$variant-sysctl-$value" kunit.enable=0 fa.mode=sysctl \
		sysctl.vm.fault_around_bytes="$value" fa.want="$want" \
		fa.msg="$msg" || fail=1
done <<< "$sysctls"

if [ "$variant" = kcsan ]; then
	reports=$(kcsan_reports "$BUILD"/boot$BASE_SUFFIX/boot-kcsan*.console.log)
	other=$(grep -c '^other ' <<< "$reports" || true)
	[ -z "$reports" ] || sed 's/^/  KCSAN: /' <<< "$reports"
	if ! grep -q 'kcsan: selftest: \([0-9][0-9]*\)/\1 tests passed' "$BUILD/boot$BASE_SUFFIX/boot-kcsan.console.log"; then
		echo "boot-kcsan: FAIL KCSAN: its selftest did not pass at boot: KCSAN did not run"
		fail=1
	else
		echo "boot-kcsan: KCSAN ran: $other report(s) outside our code, not judged"
	fi
fi
exit $fail
