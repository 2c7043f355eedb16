#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: apt-retry-test.sh
# The lab's apt: lib.sh's apt_try (a transient apt fault never fails a
# check; a package that cannot be had fails with one line) and
# basever.sh's version rule, run by scripts/tree.sh itself, with a fake
# apt-get and apt-cache (APT_GET, APT_CACHE) over a made-up archive, a
# made-up /etc/apt (APT_ETC) and a fake sleep: seconds, no network, no
# kernel tree (tree.sh unpacks a one-file "kernel" the fake download
# builds, and the real patches fail on it), build/ untouched.  A PASS or
# FAIL line per step, then "N passed, N failed"; the exit status fails on
# any FAIL.
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
# lib.sh makes $BUILD: a throwaway one here.  The cases set the base
# themselves: not make test BASE=6.12's, nor the caller's apt settings.
export O=$tmp/build
unset BASE BASE_VERSION LINUX LINUX_BASE PATCHES APT_TRIES APT_SLEEPS APT_LOG FORCE
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib.sh"
. "$TOP/tests/lab/verdict.sh"

# The fake archive: $FAKE/served has "<package> <version>" a line.
# $FAKE/update-fails: how many apt-get updates fail (a number, or always),
# with the mirror-sync message; until one succeeds, the packages in
# $FAKE/needs-update are not in the lists.  $FAKE/download-fails and
# $FAKE/install-fails: how many downloads or installs fail first.  Every
# call is noted in $FAKE/calls.
mkdir -p "$tmp/bin"
cat > "$tmp/bin/apt-get" <<'EOF'
#!/bin/bash
args=()
while [ $# -gt 0 ]; do
	case $1 in -o) shift 2 ;; -q|-qq|-y|--no-install-recommends) shift ;; *) args+=("$1"); shift ;; esac
done
set -- "${args[@]}"
echo "apt-get $*" >> "$FAKE/calls"
# take <file>: true (and one fewer) while <file> says more failures.
take() {
	local n
	n=$(cat "$FAKE/$1" 2>/dev/null) || return 1
	[ "$n" = always ] && return 0
	[ "${n:-0}" -gt 0 ] || return 1
	echo $((n - 1)) > "$FAKE/$1"
}
listed() {	# listed <package>: in the lists, at version $2 if given
	[ -e "$FAKE/lists-ok" ] || ! grep -qxF "$1" "$FAKE/needs-update" 2>/dev/null || return 1
	if [ -n "${2:-}" ]; then grep -qxF "$1 $2" "$FAKE/served"; else grep -q "^$1 " "$FAKE/served"; fi
}
cmd=$1
shift
case $cmd in
update)
	if take update-fails; then
		echo "E: Failed to fetch http://mirror.invalid/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (356624 != 356976). Mirror sync in progress? [IP: 192.0.2.1 80]" >&2
		echo "E: Some index files failed to download. They have been ignored, or old ones used instead." >&2
		exit 100
	fi
	touch "$FAKE/lists-ok" ;;
install)
	take install-fails && { echo "E: Failed to fetch http://mirror.invalid/pool/x.deb  Hash Sum mismatch" >&2; exit 100; }
	for p; do listed "${p%%=*}" || { echo "E: Unable to locate package $p" >&2; exit 100; }; done ;;
download)
	take download-fails && { echo "E: Failed to fetch http://mirror.invalid/pool/x.deb  Connection timed out" >&2; exit 100; }
	for p; do
		name=${p%%=*} ver=${p#*=}
		[ "$ver" != "$p" ] || ver=$(grep "^$name " "$FAKE/served" | sed -n '$s/.* //p')
		listed "$name" "$ver" || { echo "E: Version '$ver' for '$name' was not found" >&2; exit 100; }
		# A .deb with the base tarball: a one-file kernel tree.
		d=$(mktemp -d)
		mkdir -p "$d/DEBIAN" "$d/usr/src" "$d/src/$name"
		printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: x <x@localhost>\nDescription: fake\n' \
			"${name%%:*}" "$ver" > "$d/DEBIAN/control"
		printf 'VERSION = %s\n' "$ver" > "$d/src/$name/Makefile"
		tar -C "$d/src" -cJf "$d/usr/src/$name.tar.xz" "$name"
		rm -rf "$d/src"
		dpkg-deb -b "$d" "${name}_${ver//:/%3a}_all.deb" > /dev/null || exit 100
		rm -rf "$d"
	done ;;
*)	echo "fake apt-get: $cmd?" >&2; exit 100 ;;
esac
EOF
cat > "$tmp/bin/apt-cache" <<'EOF'
#!/bin/bash
while [ "$1" = -o ]; do shift 2; done
echo "apt-cache $*" >> "$FAKE/calls"
case $1 in
madison) awk -v p="$2" '$1 == p { print p " | " $2 " | http://mirror.invalid/debian suite/main amd64 Packages" }' "$FAKE/served" ;;
pkgnames) awk -v p="$2" 'index($1, p) == 1 { print $1 }' "$FAKE/served" | sort -u ;;
*) echo "fake apt-cache: $1?" >&2; exit 100 ;;
esac
EOF
chmod +x "$tmp/bin/apt-get" "$tmp/bin/apt-cache"
export APT_GET=$tmp/bin/apt-get APT_CACHE=$tmp/bin/apt-cache

# A machine's apt sources: a deb822 file (the archive on a mirror, and a
# disabled entry) and a one-line list (security, and a third party).
mkdir -p "$tmp/etc/sources.list.d"
cat > "$tmp/etc/sources.list.d/debian.sources" <<'EOF'
Types: deb
# a comment
URIs: http://mirror.invalid/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://old.invalid/debian
Suites: bookworm
Components: main
Enabled: no
EOF
cat > "$tmp/etc/sources.list" <<'EOF'
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://mirror.invalid/debian-security bookworm-security main
deb https://vendor.invalid/apt stable main
EOF
printf 'VERSION_CODENAME=bookworm\n' > "$tmp/os-release"
export APT_ETC=$tmp/etc OS_RELEASE=$tmp/os-release

# A fresh fake archive: fake <served "pkg ver" lines> [<file>=<content>...]
fake() {
	FAKE=$tmp/fake.$((++nfake))
	export FAKE
	mkdir -p "$FAKE"
	printf '%s\n' "$1" | sed '/^$/d' > "$FAKE/served"
	shift
	local kv
	for kv; do printf '%s\n' "${kv#*=}" > "$FAKE/${kv%%=*}"; done
}
nfake=0 nrun=0
# The fake sleep: apt_try's backoff, noted, not slept.
sleep() { echo -n "$1 " >> "$FAKE/slept"; }
slept() { local s; s=$(cat "$FAKE/slept" 2>/dev/null); echo "${s% }"; }
count() { grep -c "^$1" "$FAKE/calls"; }

# try <what> <want: ok|fail> <package> <sleeps> <updates> <command...>:
# apt_try in a subshell (its failure exits nothing here).
try() {
	local what=$1 want=$2 pkg=$3 sleeps=$4 updates=$5 out rc=0 ok=0 msg
	shift 5
	out=$( (apt_try "$pkg" "$@") 2>&1) || rc=$?
	msg="error: could not get $pkg from Debian's archive after $APT_TRIES tries (may be transient: mirror sync; run again)"
	case $want in
	ok)	[ "$rc" = 0 ] && ! grep -q '^error:' <<< "$out" || ok=1 ;;
	fail)	[ "$rc" != 0 ] && [ "$(grep -c '^error:' <<< "$out")" = 1 ] &&
			[ "$(sed -n '$p' <<< "$out")" = "$msg" ] || ok=1 ;;
	esac
	[ "$(slept)" = "$sleeps" ] || ok=1
	[ "$(count 'apt-get update')" = "$updates" ] || ok=1
	verdict $ok "$what: $want after $updates updates, slept '$(slept)'" "$out
calls: $(tr '\n' ';' < "$FAKE/calls")"
}
install() { apt_get install -y -qq --no-install-recommends "$@"; }
download() { (cd "$FAKE" && apt_get download -qq "$@"); }

fake "bc 1.07" update-fails=1 needs-update=bc
try "update fails once (mirror sync), then the install" ok bc "5" 2 install bc
fake "bc 1.07" install-fails=1
try "install fails once, then succeeds" ok bc "5" 2 install bc
fake "busybox-static:armhf 1.35" download-fails=1
try "download fails once, then succeeds" ok busybox-static:armhf "5" 2 download busybox-static:armhf
fake "busybox-static:armhf 1.35" update-fails=always
try "update always fails (another index), the download works" ok busybox-static:armhf "" 1 download busybox-static:armhf
fake "bc 1.07" update-fails=always
try "never available: one line naming it" fail nosuch-pkg "5 15 45" 4 install nosuch-pkg
fake "busybox-static:armhf 1.35" download-fails=always
try "download always fails: one line, transient" fail busybox-static:armhf "5 15 45" 4 download busybox-static:armhf
fake "bc 1.07" update-fails=2 needs-update=bc
APT_TRIES=2 try "APT_TRIES=2, two updates failing: gives up" fail bc "5" 2 install bc

# tree_run <what> <want lines, | separated> <env...>: scripts/tree.sh in
# a fresh O= ($o), its output must hold each wanted line (a line starting
# "!" must not appear).
tree_run() {
	local what=$1 wants=$2 out ok=0 w
	shift 2
	o=$tmp/o.$((++nrun))
	out=$(env O="$o" "$@" "$TOP/scripts/tree.sh" 2>&1)
	IFS='|' read -ra w <<< "$wants"
	for w in "${w[@]}"; do
		if [[ $w == !* ]]; then
			! grep -qF -- "${w#!}" <<< "$out" || ok=1
		else
			grep -qxF -- "$w" <<< "$out" || ok=1
		fi
	done
	verdict $ok "$what" "$out"
}
pin=$PINNED_VERSION pin612=$(pinned_of "$TOP/patches/6.12")
p1=$(numbered_patches "$TOP/patches" | sed -n 1p)
p1=${p1#"$TOP"/}
p1612=$(numbered_patches "$TOP/patches/6.12" | sed -n 1p)
p1612=${p1612#"$TOP"/}

fake "linux-source-7.3 $pin
linux-source-7.3 7.3.9-1~bpo13+1
linux-source-7.4 7.4.1-1"
tree_run "rule (a): the pinned version is served: pinned" \
"==> base: linux-source-7.3 $pin (pinned)|!WARNING|error: $p1 does not apply to linux-source-7.3 $pin (pinned $pin): rejected hunks:"
grep -qxF "Suites: bookworm bookworm-updates trixie-backports" "$o/deps/apt/sources.list.d/faultaround.sources" &&
grep -qxF "URIs: http://mirror.invalid/debian" "$o/deps/apt/sources.list.d/faultaround.sources" &&
grep -qxF "URIs: http://mirror.invalid/debian-security" "$o/deps/apt/sources.list.d/faultaround.sources" &&
! grep -qe vendor.invalid -e old.invalid "$o/deps/apt/sources.list.d/faultaround.sources"
verdict $? "the private sources: the host's Debian suites, trixie-backports on the archive's URI, nothing else" \
	"$(cat "$o/deps/apt/sources.list.d/faultaround.sources")"
# The same O= again, tree removed: the tarball is there, Debian not asked.
: > "$FAKE/calls"
rm -rf "$o/linux"
out=$(O="$o" "$TOP/scripts/tree.sh" 2>&1)
grep -qxF "==> base: linux-source-7.3 $pin (pinned)" <<< "$out" && [ ! -s "$FAKE/calls" ]
verdict $? "rule (a) again: the unpacked pinned tarball is used, no apt call" "$out"

fake "linux-source-7.3 7.3.5-1~bpo13+1
linux-source-7.3 7.3.10-1~bpo13+1"
tree_run "rule (b): only newer uploads of 7.3: the newest, with a WARNING" \
"==> base: linux-source-7.3 7.3.10-1~bpo13+1 (pinned $pin is gone: newest of the 7.3 line)|WARNING: Debian no longer serves linux-source-7.3 $pin,|WARNING: Taking linux-source-7.3 7.3.10-1~bpo13+1 instead (newest of the 7.3 line).|error: $p1 does not apply to linux-source-7.3 7.3.10-1~bpo13+1 (pinned $pin): rejected hunks:"

fake "linux-source-7.2 7.2.9-1
linux-source-7.4 7.4.1-1~bpo13+1
linux-source-7.4 7.4.2-1~bpo13+1"
tree_run "rule (c): no 7.3, 7.4 and 7.2: the newest 7.4, with a WARNING" \
"==> base: linux-source-7.4 7.4.2-1~bpo13+1 (pinned $pin is gone, and the 7.3 line with it: newest line Debian serves, 7.4)|WARNING: Taking linux-source-7.4 7.4.2-1~bpo13+1 instead (newest line Debian serves, 7.4).|error: $p1 does not apply to linux-source-7.4 7.4.2-1~bpo13+1 (pinned $pin): rejected hunks:"

fake "linux-source-6.12 6.12.118-1~deb12u1
linux-source-7.3 $pin"
tree_run "rule (d): BASE=6.12, only 6.12.118 served: 6.12.118, with a WARNING" \
"==> base: linux-source-6.12 6.12.118-1~deb12u1 (pinned $pin612 is gone: newest of the 6.12 line)|WARNING: Debian no longer serves linux-source-6.12 $pin612,|error: $p1612 does not apply to linux-source-6.12 6.12.118-1~deb12u1 (pinned $pin612): rejected hunks:" BASE=6.12
[ -d "$o/linux-6.12/.git" ] && [ ! -e "$o/linux" ] &&
	[ "$(git -C "$o/linux-6.12" config faultaround.base)" = "linux-source-6.12=6.12.118-1~deb12u1" ]
verdict $? "BASE=6.12: its own tree, build/linux-6.12, recording linux-source-6.12=<version>"

fake "linux-source-6.12 $pin612"
tree_run "BASE=6.12, the pinned version served: pinned" \
"==> base: linux-source-6.12 $pin612 (pinned)|!WARNING" BASE=6.12

fake "linux-source-7.4 7.4.1-1"
tree_run "a backport's line gone: no falling forward to 7.4, one error line" \
"error: Debian serves no linux-source-6.12 any more (pinned $pin612): a backport stays on its line; force one with BASE_VERSION=<version>|!==> base:" BASE=6.12

fake "linux-source-7.3 7.3.9-1~bpo13+1" update-fails=always
tree_run "pinned gone while an index fails: no fallback, retried, one transient line" \
"error: could not get linux-source-7.3 from Debian's archive after 4 tries (may be transient: mirror sync; run again)|!==> base:" APT_SLEEPS=0

fake "linux-source-7.3 $pin" update-fails=always
tree_run "pinned served while an index fails: pinned" \
"==> base: linux-source-7.3 $pin (pinned)" APT_SLEEPS=0

fake "linux-source-7.3 $pin
linux-source-7.3 7.3.1-1~bpo13+1"
tree_run "BASE_VERSION= forces a served version" \
"==> base: linux-source-7.3 7.3.1-1~bpo13+1 (BASE_VERSION=7.3.1-1~bpo13+1; pinned $pin)|!WARNING" BASE_VERSION=7.3.1-1~bpo13+1
tree_run "BASE_VERSION= of a version not served: one error line" \
"error: Debian does not serve linux-source-7.3 7.3.0-1 (BASE_VERSION=); it serves: 7.3.1-1~bpo13+1 $pin" BASE_VERSION=7.3.0-1

# LINUX=<git tree> of another line: refused, naming the base's line.
mkdir -p "$tmp/linux612"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 9\nEXTRAVERSION =\n' > "$tmp/linux612/Makefile"
git -C "$tmp/linux612" init -q && git -C "$tmp/linux612" add Makefile &&
	git -C "$tmp/linux612" -c user.name=t -c user.email=t@localhost commit -qm t
tree_run "LINUX= of Linux 6.12 for the 7.3 series: refused" \
"error: $tmp/linux612 at HEAD is Linux '6.12.9', not 7.3.x; the series in patches/ (BASE=7.3) is for 7.3 (LINUX_BASE=<rev> picks another commit)" LINUX="$tmp/linux612"
tree_run "LINUX= of Linux 6.12 with BASE=6.12: taken" \
"==> base: LINUX=$tmp/linux612 (Linux 6.12.9)|error: $p1612 does not apply to LINUX=$tmp/linux612 (Linux 6.12.9; the series is pinned to linux-source-6.12 $pin612): rejected hunks:" LINUX="$tmp/linux612" BASE=6.12

verdict_end
