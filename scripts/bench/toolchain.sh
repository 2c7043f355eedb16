#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: toolchain.sh <variant> <image>
# The ext4 image of make bench's build rows (an x86_64 guest only): the
# seed's Power7 "Linux build" and "Linux rebuild" in miniature, run with
# Debian's gcc in the guest.  build is three of the host programs that a
# Linux build compiles first (scripts/basic/fixdep, scripts/kallsyms and
# scripts/asn1_compiler: cc1, as, collect2 and ld for each), rebuild the
# link step alone (scripts/kconfig/conf from its nine objects), both
# with the commands kbuild ran for the <variant> kernel (its .cmd
# files).  The image holds /build.sh and /rebuild.sh and every file they
# open, at the host's paths, found by running them here under strace:
# the guest runs them in a chroot (sweep.sh -B), writing to a tmpfs at
# /fa-out.  The seed's third row, a binutils build, needs sources that
# no package here holds.
. "$(dirname "$0")/../lib.sh"

variant=${1:?usage: toolchain.sh <variant> <image>}
img=${2:?usage: toolchain.sh <variant> <image>}
kout=$BUILD/out$BASE_SUFFIX/qemu-$variant
[ -f "$kout/scripts/kconfig/.conf.cmd" ] || die "build the $variant kernel first"
command -v strace > /dev/null || die "no strace (scripts/deps.sh installs it)"

# savedcmd <file.cmd>: the command kbuild saved, run from $kout; its
# relative paths (outputs, and conf's objects) made absolute in $kout
# for the objects, left relative (to /fa-out) for the outputs.
savedcmd() {
	[ -f "$kout/$1" ] || die "no $kout/$1: the $variant kernel did not build it"
	sed -n "s/^savedcmd_[^ ]* := //p" "$kout/$1"
}
stage=$(mktemp -d) out=$(mktemp -d)
trap 'rm -rf "$stage" "$out"' EXIT
{
	echo 'PATH=/usr/bin:/bin TMPDIR=$1; export TMPDIR; cd "$1" && /bin/busybox mkdir -p scripts/basic scripts/kconfig || exit'
	for c in scripts/basic/.fixdep.cmd scripts/.kallsyms.cmd scripts/.asn1_compiler.cmd; do
		echo "$(savedcmd "$c") || exit"
	done
} > "$stage/build.sh"
# conf's objects where the image holds them: $kout's paths.
link=
for word in $(savedcmd scripts/kconfig/.conf.cmd); do
	case $word in scripts/kconfig/*.o) word=$kout/$word ;; esac
	link="$link $word"
done
{
	echo 'PATH=/usr/bin:/bin TMPDIR=$1; export TMPDIR; cd "$1" && /bin/busybox mkdir -p scripts/kconfig || exit'
	echo "${link# } || exit"
} > "$stage/rebuild.sh"
grep -q "$kout/scripts/kconfig/conf.o" "$stage/rebuild.sh" || die "cannot read conf's link"

# Every file the two scripts open or start, as strace sees them here,
# run as the guest runs them: busybox's shell, an empty environment.
# The ELF interpreters, which the kernel opens unseen, and ld.so's
# configuration (its cache is made for the image below) besides.
mkdir -p "$stage/root/bin" "$stage/root/fa-out"
bb=$(busybox_of x86_64)
for s in build rebuild; do
	env -i PATH=/usr/bin:/bin strace -f -qq -e trace=%file,%process \
		-o "$out/trace" "$bb" sh "$stage/$s.sh" "$out" || die "$s.sh fails here"
	# Each call's path, but not of those that failed (an execve that
	# strace splits has its result on another line: it is kept).
	grep -v ' = -1 ' "$out/trace" |
		sed -n 's/^[0-9]* *[a-z0-9]*(\(AT_FDCWD, \)\?"\(\/[^"]*\)".*/\2/p'
done | sort -u > "$out/files"
for f in $(cat "$out/files"); do
	if [ -f "$f" ] && head -c 4 "$f" | grep -q ELF; then
		readelf -l "$f" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p'
	fi
done | sort -u >> "$out/files"
printf "%s\n" /etc/ld.so.conf /etc/ld.so.conf.d/*.conf >> "$out/files"
sort -u "$out/files" | while read -r f; do
	[ -f "$f" ] || continue			# directories, gone temporaries
	case $f in "$out"/*|"$stage"/*|"$bb"|/etc/ld.so.cache|/proc/*|/dev/*) continue ;; esac
	mkdir -p "$stage/root$(dirname "$f")"
	cp -L "$f" "$stage/root$f"
done
mkdir -p "$stage/root/etc" && ldconfig -r "$stage/root"
cp "$stage/build.sh" "$stage/rebuild.sh" "$stage/root/"
cp "$bb" "$stage/root/bin/busybox"
ln -s busybox "$stage/root/bin/sh"
[ -f "$stage/root/bin/sh" ] && [ -n "$(find "$stage/root" -name cc1)" ] ||
	die "the image would have no shell or no cc1"
size=$(du -sm "$stage/root" | cut -f1)
rm -f "$img"
/sbin/mke2fs -q -F -t ext4 -E lazy_itable_init=0,lazy_journal_init=0 \
	-d "$stage/root" "$img" "$((size + size / 4 + 16))M" > /dev/null
