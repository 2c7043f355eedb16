#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A worked example of mod_faultaround, run in the guest by init with
# fa.mode=demo.  Documentation/module.rst's worked example quotes part of its output.
run() { echo "# $*"; sh -c "$*" 2>&1; }
cd /sys/kernel/debug/faultaround || exit 1
sleep 1000 & pid=$!
sleep 1
addr=0x$(head -n1 /proc/$pid/maps | cut -d- -f1)
echo "# pid=$pid addr=$addr    (a sleeping busybox; addr is its first mapping)"
run "cat order"
run "echo $pid $addr 0 > vma"
run "cat vma"
run "echo 0 > stats; cat /proc/$pid/status > /dev/null; cat stats | head -n 4"
run "echo $pid 0x1000 4 > vma"
run "echo $pid $addr 12 > vma"
run "echo 999999 $addr 4 > vma"
run "echo $pid 0400000 4 > vma"
run "dmesg | grep mod_faultaround: | tail -n 4"
run "echo $pid $addr default > vma; cat vma"
run "echo $pid $addr 2 > vma; kill $pid; sleep 2; cat vma"
