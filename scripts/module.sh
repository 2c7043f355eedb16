#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: module.sh <variant> [make target...]  (a kernel.sh variant)
# Build mod_faultaround (or run its Makefile targets: check, style,
# coccicheck) against a boot lab kernel.  Each kernel gets its own copy of
# the sources under build/mod/<variant>, since kbuild writes next to them.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: module.sh <kernel.sh variant> [target...]}
shift
kdir=$BUILD/out$BASE_SUFFIX/qemu-$variant
out=$BUILD/mod$BASE_SUFFIX/$variant
guest=$(guest_of "$variant")
"$TOP/scripts/qemu/kernel.sh" "$variant" >/dev/null
module_sources "$out/src"
# Without the caller's MAKEFLAGS: "make bench O=<dir>" passes O= down
# there, and kbuild would take <dir> for the kernel's build directory.
MAKEFLAGS= make -s -C "$out/src" KDIR="$kdir" ARCH="$(guest_field "$guest" 1)" \
	CROSS_COMPILE="$(guest_field "$guest" 2)" "${@:-modules}"
[ $# -eq 0 ] || exit 0
# The lab kernels check module signatures (lockdown selects
# CONFIG_MODULE_SIG) and refuse unsigned modules when locked down: sign
# with the kernel's build key, as dkms signs with a MOK on a distribution.
if grep -q '^CONFIG_MODULE_SIG=y' "$kdir/.config"; then
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kdir/.config")
	for ko in "$out"/src/*.ko; do
		tail -c 28 "$ko" | grep -q '~Module signature appended~' ||
			"$kdir/scripts/sign-file" "$hash" "$kdir/certs/signing_key.pem" \
				"$kdir/certs/signing_key.x509" "$ko"
	done
fi
echo "$out/src/mod_faultaround.ko"
