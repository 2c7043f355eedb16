#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: loop-mount-test.sh
# The guest's loop-mount.sh (init's ext4 directory, sweep-states.sh's @ext4
# states) with fake losetup and mount first in PATH, which log their
# arguments: it attaches the free device and mounts it, read-only with
# -r; a failed mount detaches the device again; a failed attach mounts
# nothing.  Seconds, no root, no QEMU.  A PASS or FAIL line per step,
# then "N passed, N failed"; the exit status fails on any FAIL.
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
export O=$tmp/build
. "$(dirname "$0")/../../scripts/lib.sh"
. "$TOP/tests/lab/verdict.sh"
mkdir "$tmp/bin"
# losetup -f prints the free device; FAIL_<tool>=1 makes that tool fail.
cat > "$tmp/bin/losetup" <<'STUB'
#!/bin/sh
echo "losetup $*" >> "$LOG"
[ -z "$FAIL_LOSETUP" ] || exit 1
[ "$1" != -f ] || echo /dev/loop7
STUB
cat > "$tmp/bin/mount" <<'STUB'
#!/bin/sh
echo "mount $*" >> "$LOG"
[ -z "$FAIL_MOUNT" ]
STUB
chmod +x "$tmp/bin/losetup" "$tmp/bin/mount"
export LOG=$tmp/log
# run [<VAR=1>] [-r]: loop-mount.sh's status, its calls in $LOG.
run() {
	: > "$LOG"
	env ${1:+"$1"} PATH="$tmp/bin:$PATH" \
		sh "$TOP/scripts/bench/guest/loop-mount.sh" img dir ${2:-}
}

run; rc=$?
want='losetup -f
losetup /dev/loop7 img
mount -t ext4 /dev/loop7 dir'
[ $rc = 0 ] && [ "$(cat "$LOG")" = "$want" ]
verdict $? "attaches the free device and mounts it" "$(cat "$LOG")"
run "" -r; rc=$?
want='losetup -f
losetup -r /dev/loop7 img
mount -t ext4 -o ro /dev/loop7 dir'
[ $rc = 0 ] && [ "$(cat "$LOG")" = "$want" ]
verdict $? "-r: read-only device and mount" "$(cat "$LOG")"
run FAIL_MOUNT=1; rc=$?
[ $rc != 0 ] && [ "$(tail -n1 "$LOG")" = "losetup -d /dev/loop7" ]
verdict $? "a failed mount fails and detaches the device" "$(cat "$LOG")"
run FAIL_LOSETUP=1; rc=$?
[ $rc != 0 ] && ! grep -q '^mount' "$LOG"
verdict $? "a failed attach fails and mounts nothing" "$(cat "$LOG")"
verdict_end
