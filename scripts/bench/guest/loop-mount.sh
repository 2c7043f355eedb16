#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: loop-mount.sh <ext4 image> <dir> [-r]
# Mount the image at dir on a loop device of its own (-r: read-only),
# the device freed again where the mount fails.  losetup first: busybox's
# mount -o loop fails in the lab's guests.  For the guest's init (the
# kselftest's ext4 directory) and sweep-states.sh (the bench's @ext4 states).
loop=$(losetup -f) && losetup $3 "$loop" "$1" || exit
mount -t ext4 ${3:+-o ro} "$loop" "$2" && exit
losetup -d "$loop"
exit 1
