#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: deps.sh [<Debian architecture> | perf]
# Install the Debian packages the lab needs; apt-get runs only if one is
# absent.  "deps.sh <arch>" (arm64, ppc64el or armhf: a foreign boot lab
# guest, from initramfs.sh) also fetches Debian's busybox-static for that
# architecture: the first time, that adds it as a foreign architecture to
# dpkg (dpkg --add-architecture).  "deps.sh perf" (make bench NATIVE=1,
# whose runs perf stat counts) also installs linux-perf.
# The base's linux-source is not installed: tree.sh downloads and unpacks
# it (scripts/basever.sh).  Every apt-get goes through lib.sh's apt_try:
# an index failing in apt-get update (a mirror syncing) fails nothing by
# itself, and a package that cannot be had is retried, then named in one
# error line.
. "$(dirname "$0")/lib.sh"

pkgs=(
	bc bison flex e2fsprogs libelf-dev libssl-dev dwarves kmod cpio xz-utils rsync
	python3 python3-ply python3-git git ccache sparse coccinelle ocaml-nox
	gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu gcc-powerpc64le-linux-gnu
	libc6-dev-arm64-cross libc6-dev-ppc64el-cross libc6-dev-armhf-cross
	qemu-system-x86 qemu-system-arm qemu-system-ppc busybox-static git-email libmailtools-perl python3-scipy gnuplot-nox fio strace
)

arch=
case ${1:-} in
"" | amd64) ;;
perf)	pkgs+=(linux-perf) ;;
*)	arch=$1 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case $have in
	"install ok installed "*)
		[ "$name" = "$want" ] || [ "${have##* }" = "$want" ] && continue ;;
	esac
	missing+=("$p")
done

# A foreign guest's busybox: Debian's package for its architecture,
# unpacked (it cannot be installed beside the amd64 one) where lib.sh's
# busybox_of looks.
fetch_busybox() {
	local arch=$1 dir=$BUILD/deps/$1 tmp
	dpkg --print-foreign-architectures | grep -qx "$arch" || {
		[ "$(id -u)" = 0 ] || die "need root to add the $arch architecture"
		dpkg --add-architecture "$arch"
	}
	tmp=$(mktemp -d)
	mkdir -p "$dir"
	# apt_try updates first: after --add-architecture the lists have no
	# $arch package yet, and an old list may name a version the mirror
	# no longer has.
	get() { (cd "$tmp" && apt_get download -qq -o APT::Sandbox::User=root "busybox-static:$arch"); }
	apt_try "busybox-static:$arch" get || exit 1
	dpkg-deb -x "$tmp"/busybox-static_*_"$arch".deb "$dir"
	rm -rf "$tmp"
}

# masquerade: lib.sh's compilers, $BUILD/deps/cc: a link to
# scripts/ccache-cc for each compiler Debian's ccache knows
# (/usr/lib/ccache), and the ccache namespace it reads there: the
# installed -dev packages' versions (depend mode hashes no system header).
# Under a lock, as checks beside run deps.sh too; never fatal: without
# the masquerade the compilers run without ccache.
masquerade() {
	local dir=$BUILD/deps/cc ns n
	[ -d /usr/lib/ccache ] && command -v ccache > /dev/null || return 0
	ns=fa2-$( (dpkg-query -W -f='${db:Status-Abbrev}${Package}:${Architecture}=${Version}\n' \
		'*-dev*' || true) | awk '/^ii/ { print $2 }' | sha256sum | cut -c1-16)
	(
		flock 9
		mkdir -p "$dir"
		for n in /usr/lib/ccache/*; do
			[ "$(readlink "$dir/${n##*/}")" = "$TOP/scripts/ccache-cc" ] ||
				ln -sfn "$TOP/scripts/ccache-cc" "$dir/${n##*/}"
		done
		[ "$(cat "$dir/namespace" 2> /dev/null)" = "$ns" ] ||
			{ echo "$ns" > "$dir/namespace.new" && mv "$dir/namespace.new" "$dir/namespace"; }
	) 9> "$BUILD/deps/cc.lock" ||
		log "warning: the compiler masquerade $dir failed: compiles run without ccache"
}

export DEBIAN_FRONTEND=noninteractive
if [ -n "$arch" ] && [ ! -x "$BUILD/deps/$arch/bin/busybox" ]; then
	log "fetching busybox-static:$arch into $BUILD/deps/$arch"
	fetch_busybox "$arch"
fi
mkdir -p "$BUILD/deps"
[ ${#missing[@]} -gt 0 ] || { masquerade; exit 0; }
log "installing: ${missing[*]}"
[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
apt_try "${missing[*]}" apt_get install -y -qq --no-install-recommends "${missing[@]}" || exit 1
update-ccache-symlinks || true
masquerade
