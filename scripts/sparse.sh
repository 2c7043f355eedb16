#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: sparse.sh
# Print the path of a sparse that the tree's kbuild accepts.  Since 6.14
# kbuild runs sparse only if scripts/checker-valid.sh passes (it needs
# __typeof_unqual__), and otherwise warns and checks nothing.  Debian 12's
# sparse 0.6.4 fails it, and sid's binary needs a newer glibc, so sid's
# source package is built here: only the sparse program, from the upstream
# tarball (Debian's patches only make it call gcc-16), with the host's gcc,
# whose headers the kernel is built with.
#
# The version rule: $SPARSE_VERSION (tested), else the newest sparse
# source Debian's $SPARSE_SUITE serves, with a WARNING; either way it must
# pass checker-valid.sh, or this fails naming the version.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/basever.sh"
require_tree

SPARSE_VERSION=${SPARSE_VERSION:-0.6.5~rc1-2}
SPARSE_SUITE=${SPARSE_SUITE:-sid}
valid=$TREE/scripts/checker-valid.sh

accepts() {
	[ ! -f "$valid" ] || [ "$(sh "$valid" "$1" -m64 2>/dev/null)" = 1 ]
}

host=$(command -v sparse || true)
if [ -n "$host" ] && accepts "$host"; then
	echo "$host"
	exit 0
fi
dir=$BUILD/deps/sparse
if [ -x "$dir/sparse" ] && accepts "$dir/sparse"; then
	echo "$dir/sparse"
	exit 0
fi

BASE_APT=$BUILD/deps/apt-src BASE_SUITES=$SPARSE_SUITE
base_apt_setup src
sparse_fetch() {
	local vers
	vers=$(apt_cache showsrc sparse 2>/dev/null | sed -n 's/^Version: //p' | sort -u)
	used=$SPARSE_VERSION
	if ! grep -qxF -- "$used" <<< "$vers"; then
		[ "$APT_UPDATE_OK" = 1 ] || return 1
		used=$(newest_version <<< "$vers")
		[ -n "$used" ] || return 3
	fi
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" &&
		(cd "$dir.tmp" && apt_get source -q --download-only "sparse=$used")
}
log "building sparse from Debian's $SPARSE_SUITE source (the host's fails ${valid#"$TREE"/})"
apt_try "sparse's source" sparse_fetch ||
	die "Debian's $SPARSE_SUITE serves no sparse source (pinned $SPARSE_VERSION)"
[ "$used" = "$SPARSE_VERSION" ] ||
	echo "WARNING: Debian's $SPARSE_SUITE no longer serves sparse $SPARSE_VERSION (tested); building $used" >&2
tar -xzf "$dir".tmp/sparse_*.orig.tar.gz -C "$dir.tmp"
make -s -C "$dir".tmp/sparse-*/ -j"$JOBS" sparse > "$dir.tmp/build.log" 2>&1 ||
	{ tail "$dir.tmp/build.log" >&2; die "sparse $used did not build"; }
rm -rf "$dir" && mkdir -p "$dir"
cp "$dir".tmp/sparse-*/sparse "$dir/" && rm -rf "$dir.tmp"
accepts "$dir/sparse" || die "sparse $used fails ${valid#"$TREE"/}: kbuild would check nothing"
echo "$dir/sparse"
