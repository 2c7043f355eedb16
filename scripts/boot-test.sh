#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: boot-test.sh normal|debug
# Build the lab kernel, mod_faultaround and the initramfs, boot it, and run
# the runtime suite.
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: boot-test.sh normal|debug}
kernel=$("$TOP/scripts/kernel.sh" "$variant" | tail -n1)
"$TOP/scripts/module.sh" "$variant" >/dev/null
initrd=$("$TOP/scripts/initramfs.sh" "$variant" | tail -n1)
# The debug kernel (KASAN, lockdep) runs the suite in about 6-9 min under
# TCG, mostly mod_faultaround's 1024-override limit test.
[ "$variant" = debug ] && export QEMU_TIMEOUT=${QEMU_TIMEOUT:-1500}
# ilog2(PTRS_PER_PTE) on x86_64 with 4KiB pages.
"$TOP/scripts/qemu-run.sh" "$kernel" "$initrd" "boot-$variant" fa.max_order=9
