# SPDX-License-Identifier: GPL-2.0
# Shared settings for the faultaround scripts; sourced, never run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${O:-$TOP/build}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
BASE_TAG=faultaround-base
# The last upstream commit in the tree: the lab-only patches sit above it.
UPSTREAM_TAG=faultaround-upstream
# The base (BASE=, PATCHES, TREE, BASE_SUFFIX...) is chosen below, after die.
JOBS=${JOBS:-$(nproc)}
# The boot lab's guests: kernel.sh builds a kernel for each variant
# (guest_of), initramfs.sh its user space, qemu-run.sh boots it.  Name,
# kernel ARCH, CROSS_COMPILE (- for none), the image QEMU boots, and the
# Debian architecture of the guest's programs.  Each has a config
# fragment, Kconfig.snippets/qemu-<name>.config, and a geometry below.
GUESTS="
x86_64       x86_64   -                       arch/x86/boot/bzImage  amd64
arm64-4k     arm64    aarch64-linux-gnu-      arch/arm64/boot/Image  arm64
arm64-64k    arm64    aarch64-linux-gnu-      arch/arm64/boot/Image  arm64
ppc64le-4k   powerpc  powerpc64le-linux-gnu-  vmlinux                ppc64el
ppc64le-64k  powerpc  powerpc64le-linux-gnu-  vmlinux                ppc64el
arm          arm      arm-linux-gnueabihf-    arch/arm/boot/zImage   armhf
"
# guest_field <guest> <1-4>: its ARCH, CROSS_COMPILE, image or Debian
# architecture.
guest_field() {
	awk -v g="$1" -v f="$2" '$1 == g { v = $(f + 1); found = 1 }
		END { if (!found) exit 1; print (v == "-") ? "" : v }' <<< "$GUESTS" ||
		die "unknown guest $1"
}
# The boot lab guest a kernel.sh variant is for: the x86_64 variants
# (normal, debug, release, base...) are x86_64, the others are guests.
guest_of() {
	if awk -v g="$1" '$1 == g { f = 1 } END { exit !f }' <<< "$GUESTS"; then
		echo "$1"
	else
		echo x86_64
	fi
}
# A foreign guest's busybox (deps.sh <Debian arch> unpacks Debian's
# busybox-static there; x86_64 guests use the host's).
busybox_of() {
	local arch
	arch=$(guest_field "$1" 4)
	if [ "$arch" = amd64 ]; then echo /bin/busybox; else echo "$BUILD/deps/$arch/bin/busybox"; fi
}

# The page-table geometry each KUnit target and boot lab kernel must
# report: name, PAGE_SIZE, PTRS_PER_PTE.
GEOMETRIES="
um           4096   512
x86_64       4096   512
arm64-4k     4096   512
arm64-16k    16384  2048
arm64-64k    65536  8192
ppc64-radix  65536  32
ppc64le-4k   4096   512
ppc64le-64k  65536  256
arm          4096   512
"
geometry() { awk -v n="$1" '$1 == n { print $2, $3; f = 1 } END { exit !f }' <<< "$GEOMETRIES"; }

# The lab's test programs are built with these, in the guest's initramfs
# (initramfs.sh) and natively (bench.sh NATIVE=1); tests/include/ has C
# helpers of the test and bench programs.
LAB_CFLAGS="-O2 -Wall -Wextra -Werror -pthread -I$TOP/tests/include"

# lab_ext4_image <image> <MiB> [mke2fs options]: an ext4 for a loop
# device: make bench's @ext4 workloads' and the kselftest's.  Initialized
# in full: a lazy init would write in the background of the runs.
lab_ext4_image() {
	rm -f "$1"
	/sbin/mke2fs -q -F -t ext4 -E lazy_itable_init=0,lazy_journal_init=0 \
		"${@:3}" "$1" "$2M" >/dev/null
}

# The boot lab's accelerator, in three parts that qemu-run.sh chains and
# tests/lab/qemu-accel-test.sh tests with a fake probe and a fake boot:
#   qemu_accel "$guest" "$QEMU_OPTS" accel_cached <cache> kvm_probe /dev/kvm <boot...>
# They run in $(...), where set -e is off: hence the explicit returns.

# qemu_accel <arch> <qemu opts> <probe...>: kvm or tcg for a qemu-run.sh
# guest of kernel ARCH <arch> booted with <qemu opts> (QEMU_OPTS).
# Decides only: <probe...> says whether KVM works here, and runs only
# when the answer depends on it, so an arm, arm64, powerpc or -icount boot
# neither boots a probe nor reads or writes the probe's cache.
qemu_accel() {
	local guest=$1 opts=$2 acc w words
	shift 2
	case $guest in
	x86_64) ;;
	# The host is x86_64: its KVM runs x86_64 guests only.
	arm|arm64|powerpc) echo tcg; return ;;
	*) die "qemu_accel: unknown guest arch '$guest'" ;;
	esac
	# QEMU refuses -icount with KVM.  QEMU_OPTS reaches QEMU word-split,
	# and QEMU takes an option as -name or --name, nothing else.
	read -rd '' -a words <<< "$opts" || true
	for w in "${words[@]}"; do
		case $w in -icount|--icount) echo tcg; return ;; esac
	done
	acc=$("$@") || return
	case $acc in
	kvm|tcg) echo "$acc" ;;
	*) die "qemu_accel: the probe ($1) said '$acc', not kvm or tcg" ;;
	esac
}

# accel_cached <cache> <probe...>: the answer kept in <cache>, or else the
# probe's, then kept there (a KVM probe boot takes up to 30 s; rm <cache>
# to probe again).  Written by a rename: a probe killed halfway or a run
# beside this one never leaves a partial cache.
accel_cached() {
	local cache=$1 acc
	shift
	acc=$(cat "$cache" 2>/dev/null) || true
	case $acc in kvm|tcg) echo "$acc"; return ;; esac
	acc=$("$@") || return
	case $acc in
	kvm|tcg) ;;
	*) die "accel_cached: the probe ($1) said '$acc', not kvm or tcg" ;;
	esac
	echo "$acc" > "$cache.$$" && mv -f "$cache.$$" "$cache" || return
	echo "$acc"
}

# kvm_probe <kvm device> <boot...>: kvm if <boot...>, a guest booted under
# KVM, succeeds; tcg if it fails, or at once, booting nothing, if the
# device is not writable (no KVM, or no access to it).  The boot gets no
# QEMU_OPTS: the cached answer must hold for every caller's, and an
# -icount there would fail it (QEMU refuses -icount with KVM).
kvm_probe() {
	local dev=$1
	shift
	if [ -w "$dev" ] && QEMU_OPTS='' "$@" > /dev/null; then
		echo kvm
	else
		echo tcg
	fi
}

# ccache through scripts/ccache-cc, in depend mode but where it lets an
# .incbin through, for native and cross gcc alike (deps.sh's masquerade
# directory; before it is made, the compilers themselves; CCACHE_NODEPEND=1
# for ccache's default mode).  Then Debian's python3 before any other (a
# pyenv one, say): deps.sh installs the modules the scripts and the
# kernel's tools need into it (python3-ply for checkpatch's spdxcheck.py,
# python3-scipy for the bench).
export PATH=$BUILD/deps/cc:/usr/bin:$PATH
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/faultaround-ccache}
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
[ -n "${CCACHE_NODEPEND:-}" ] || export CCACHE_DEPEND=1
# Relative paths in the hash: a clone elsewhere still hits the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_TIMESTAMP='1970-01-01'
export KBUILD_BUILD_USER=faultaround KBUILD_BUILD_HOST=lab

# kcsan_reports <console log...>: a line per KCSAN report (the kcsan
# kernel's), "ours <title>" if it names mod_faultaround or a fault_around
# function, else "other <title>": qemu-run.sh fails a boot on ours.
kcsan_reports() {
	awk '/BUG: KCSAN: / { t = $0; sub(/.*BUG: KCSAN: /, "", t)
			      o = t ~ /mod_faultaround|fault_around/; next }
	     t != "" && /====================/ { print (o ? "ours " : "other ") t; t = ""; next }
	     t != "" && /mod_faultaround|fault_around/ { o = 1 }
	     END { if (t != "") print (o ? "ours " : "other ") t }' "$@"
}

# With pipefail, never end a pipeline in head: the writer may die of SIGPIPE
# and fail the pipeline.  sed -n 1p reads all of its input.
log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The base the series is built on, BASE=<line> (every target takes it):
#   - default: the main series, patches/, on Debian's linux-source-<line>,
#     the line being the first two numbers of patches/BASE_VERSION's
#     version (7.3); BASE=<that line> says the same;
#   - BASE=6.12: the LTS backport, patches/6.12/ (its own BASE_VERSION,
#     numbered patches, cover-letter.txt and lab/; CC and VERSION stay
#     shared in patches/).
# Each base has its own tree and build outputs, so both live side by side
# in one build/: TREE=$BUILD/linux for the main one, $BUILD/linux-6.12 for
# the backport, and every per-tree directory under $BUILD carries
# $BASE_SUFFIX (empty, or -6.12): out$BASE_SUFFIX/, mod$BASE_SUFFIX/,
# boot$BASE_SUFFIX/, logs$BASE_SUFFIX/...  $BUILD/deps/ (busybox, the
# base tarballs) is shared.
# PINNED_VERSION: the version the base's series was tested on (its
# BASE_VERSION file); BASE_VERSION=<version> on the command line forces
# another (scripts/basever.sh has the rule when Debian has moved on).
# PATCHES: the series make tree applies, $BASE_PATCHES, unless the
# environment names another copy (series.sh writes one, send.sh gates one).
pinned_of() { grep -v '^#' "$1/BASE_VERSION" | sed -n 1p; }
# line_of <Debian version>: its first two numbers, 7.3 of 7.3.4-1~bpo13+1.
line_of() { [[ $1 =~ ^([0-9]+\.[0-9]+) ]] && echo "${BASH_REMATCH[1]}"; }
MAIN_LINE=$(line_of "$(pinned_of "$TOP/patches")") ||
	die "patches/BASE_VERSION names no Debian version"
BASE=${BASE:-$MAIN_LINE}
if [ "$BASE" = "$MAIN_LINE" ]; then
	BASE_PATCHES=$TOP/patches BASE_SUFFIX=
elif [[ $BASE =~ ^[0-9]+\.[0-9]+$ ]] && [ -f "$TOP/patches/$BASE/BASE_VERSION" ]; then
	BASE_PATCHES=$TOP/patches/$BASE BASE_SUFFIX=-$BASE
else
	die "BASE=$BASE: no such series; BASE=$MAIN_LINE (patches/, the default) or a backport of patches/<line>/: $(cd "$TOP/patches" && ls -d [0-9]*.[0-9]*/ 2>/dev/null | tr -d / | tr '\n' ' ')"
fi
PATCHES=${PATCHES:-$BASE_PATCHES}
PINNED_VERSION=$(pinned_of "$BASE_PATCHES")
[ -n "$PINNED_VERSION" ] || die "${BASE_PATCHES#"$TOP"/}/BASE_VERSION names no version"
# Set on the command line (forced), or empty: basever.sh tells them apart.
FORCED_VERSION=${BASE_VERSION:-}
[ "$FORCED_VERSION" != "$PINNED_VERSION" ] || FORCED_VERSION=
BASE_VERSION=${BASE_VERSION:-$PINNED_VERSION}
# The line of the base: what LINUX=<git tree> must be, and the package.
BASE_LINE=$(line_of "$PINNED_VERSION") || die "${BASE_PATCHES#"$TOP"/}/BASE_VERSION: '$PINNED_VERSION' is not a Debian version"
TREE=$BUILD/linux$BASE_SUFFIX
export BASE

# A file of the series shared by every base (patches/CC, patches/VERSION):
# $1's own if it has one, else patches/'s.
series_file() { if [ -e "$1/$2" ]; then echo "$1/$2"; else echo "$TOP/patches/$2"; fi; }

# apt-get, retried: the one wrapper every apt-get of the scripts goes
# through (deps.sh's install and busybox download, basever.sh's base
# download).  A mirror syncing makes apt-get update fail for one index
# ("File has unexpected size ... Mirror sync in progress?") and pass
# minutes later; that must never fail a check by itself.  So:
#   apt_try <what> <command...>
# up to $APT_TRIES times (4): apt-get update, whatever its status (one
# index failing says nothing of the one <what> comes from; its status is
# left in $APT_UPDATE_OK, 1 or 0), then <command...> (an apt_get install or
# download, or a function); done as soon as <command> succeeds, else a
# sleep of the next of $APT_SLEEPS seconds (5 15 45; the test sets 0) and
# again.  <command> returning 3 means final: no retry, status 1, and the
# command's own message.  After the last try, one line, and status 1:
#   error: could not get <what> from Debian's archive after N tries (may be transient: mirror sync; run again)
# apt_get runs $APT_GET (apt-get; the test's fake) with the options in the
# array APT_OPTIONS (basever.sh's private sources and lists; empty: the
# host's apt).  Its output goes to $APT_LOG, whose last error line is shown
# when a try fails.
APT_GET=${APT_GET:-apt-get}
APT_CACHE=${APT_CACHE:-apt-cache}
APT_TRIES=${APT_TRIES:-4}
APT_SLEEPS=${APT_SLEEPS:-5 15 45}
APT_OPTIONS=()
APT_UPDATE_OK=0
apt_get() { "$APT_GET" ${APT_OPTIONS[@]+"${APT_OPTIONS[@]}"} "$@"; }
apt_cache() { "$APT_CACHE" ${APT_OPTIONS[@]+"${APT_OPTIONS[@]}"} "$@"; }
apt_try() {
	local what=$1 try=1 sleeps s why rc
	shift
	read -ra sleeps <<< "$APT_SLEEPS"
	APT_LOG=${APT_LOG:-$BUILD/deps/apt-get.log}
	mkdir -p "$(dirname "$APT_LOG")"
	while :; do
		rc=0
		apt_get -q update > "$APT_LOG" 2>&1 || rc=$?
		if [ "$rc" = 0 ]; then
			APT_UPDATE_OK=1
		else
			APT_UPDATE_OK=0
			why=$(grep -E '^(E|W|Err):' "$APT_LOG" | sed -n '$p')
			log "apt-get update failed (${why:-status $rc}); trying $what anyway"
		fi
		rc=0
		"$@" >> "$APT_LOG" 2>&1 || rc=$?
		[ "$rc" != 0 ] || return 0
		# 3: the command's own verdict, final (what it wants is not
		# served, and the update was clean): no retry, its message.
		[ "$rc" != 3 ] || return 1
		[ "$try" -lt "$APT_TRIES" ] || break
		s=${sleeps[try - 1]:-${sleeps[${#sleeps[@]} - 1]:-0}}
		why=$(grep -E '^(E|W|Err):' "$APT_LOG" | sed -n '$p')
		log "apt: $what: try $try of $APT_TRIES failed (${why:-no reason given}); again in ${s}s"
		sleep "$s"
		try=$((try + 1))
	done
	echo "error: could not get $what from Debian's archive after $APT_TRIES tries (may be transient: mirror sync; run again)" >&2
	return 1
}

# The numbered patches in directory $1, in order, without the cover letter
# (it carries no diff).  Only $1 itself: patches/lab/ is not patches/.
numbered_patches() {
	[ -d "$1" ] || return 0
	find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
		! -name '0000-*' | sort
}

# The upstream part (what make send sends) and the lab-only part (applied
# on top, never sent).
series_patches() { numbered_patches "$PATCHES"; }
lab_patches() { numbered_patches "$PATCHES/lab"; }

# What the tree is built from, as tree.sh and series.sh record it: the
# names and contents of both parts, and the base commit ($1, default the tag).
applied_stamp() {
	local files
	files=$( (series_patches; lab_patches) | sed "s|^$PATCHES/||")
	printf '%s:%s\n' \
		"$(cd "$PATCHES" && sha256sum $files /dev/null | sha256sum | cut -d' ' -f1)" \
		"$(git -C "$TREE" rev-parse "${1:-$BASE_TAG}^{commit}")"
}

# The tree's commit with the first $1 upstream patches applied (0: the base).
series_commit() {
	local n=$1 total
	total=$(git -C "$TREE" rev-list --count "$BASE_TAG..$UPSTREAM_TAG")
	[ "$n" -le "$total" ] || die "the series has $total upstream patches, not $n"
	git -C "$TREE" rev-parse "$UPSTREAM_TAG~$((total - n))^{commit}"
}

# worktree_at <dir> <commit>: <dir>, a worktree of the tree, at <commit>
# (created the first time), for a build or check beside the main tree.
worktree_at() {
	[ -d "$1" ] || git -C "$TREE" worktree add -q --detach "$1" "$2"
	git -C "$1" checkout -q -f --detach "$2"
}

# Header $1 of a mail or patch file $2, unfolded (one continuation line).
mail_header() {
	sed -n "/^$1: /{s/^$1: //;N;s/\n[[:space:]]\+/ /;s/\n.*//;p;q}" "$2"
}

# The name and the email of an identity "Name <email>".
ident_name() { printf '%s\n' "${1% <*}"; }
ident_email() { local e=${1##*<}; printf '%s\n' "${e%>}"; }

# A reason why "$1 <$2>" is not a real person's identity, or nothing.
# RFC 2606 reserves the top-level domains .example, .test, .invalid and
# .localhost and the domains example.com/.org/.net: no one gets mail
# there, whatever comes before them (a noreply-looking address included).
identity_problem() {
	local name=$1 email=$2 domain=${2##*@}
	domain=${domain,,}
	domain=${domain%.}
	if [[ ! $email =~ ^[^@[:space:]]+@[^@[:space:]]+$ ]]; then
		echo "'$email' is not an email address"
	elif [[ $domain =~ (^|\.)(example|test|invalid|localhost)$ ]]; then
		echo "$email is not a real address: RFC 2606 reserves the top-level domain .${BASH_REMATCH[2]}"
	elif [[ $domain =~ (^|\.)(example\.(com|org|net))$ ]]; then
		echo "$email is not a real address: RFC 2606 reserves the domain ${BASH_REMATCH[2]}"
	elif [[ $domain == localhost.* ]]; then
		echo "$email is at localhost"
	elif [[ ${name,,} =~ ^(your|full|real)\ name$|^name$|^faultaround ]]; then
		echo "'$name' is a placeholder name"
	fi
}

# The identity make series signs with and make send sends as: sendemail.from
# if set (git send-email and b4 send both use it), else user.name and
# user.email, by the normal git config lookup from the checkout.  Prints
# "Name <email>"; dies, naming the setting, if it is missing, and if it is a
# placeholder, unless $2 is "warn".  make series warns and signs: the
# patches kept in the repository may carry a placeholder; make send
# refuses it.  $1 is the command, for the message.
sender_identity() {
	local who=$1 placeholder=${2:-refuse} from name email where problem
	local fix="  set your own: git config --global user.name 'Your Full Name'; git config --global user.email you@your.domain"
	from=$(git -C "$TOP" config sendemail.from || true)
	if [ -n "$from" ]; then
		where=sendemail.from
		[[ $from =~ ^(.*[^[:space:]])[[:space:]]*\<([^<>]*)\>$ ]] ||
			die "$who: refusing sendemail.from '$from': it is not 'Full Name <email>'"
		name=${BASH_REMATCH[1]} email=${BASH_REMATCH[2]}
	else
		where="user.name/user.email"
		name=$(git -C "$TOP" config user.name || true)
		email=$(git -C "$TOP" config user.email || true)
		[ -n "$name$email" ] ||
			die "$who: refusing without an identity: git config user.name and user.email are not set (nor sendemail.from)
$fix"
		[ -n "$name" ] || die "$who: refusing without an identity: git config user.name is not set
$fix"
		[ -n "$email" ] || die "$who: refusing without an identity: git config user.email is not set
$fix"
	fi
	problem=$(identity_problem "$name" "$email")
	if [ -n "$problem" ] && [ "$placeholder" = warn ]; then
		log "warning: $who: signing as the placeholder identity '$name <$email>' ($where): $problem; make send refuses it"
	elif [ -n "$problem" ]; then
		die "$who: refusing the placeholder identity '$name <$email>' ($where): $problem
$fix"
	fi
	printf '%s <%s>\n' "$name" "$email"
}

# The people of $1/CC (patches/CC, shared by the bases: the series'
# history), one a line.
series_cc() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$(series_file "$1" CC)"; }

# A patch's recipients from the tree's get_maintainer.pl, one a line.
maintainers() {
	(cd "$TREE" && ./scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-tree "$@") | grep -v '^$' | sort -u
}

# A copy of mod_faultaround's sources in $1, where kbuild may write next
# to them: one per kernel it is built against.
module_sources() {
	mkdir -p "$1"
	rsync -rlpD --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='.*' \
		--exclude='*.mod*' --exclude='modules.order' --exclude='Module.symvers' \
		"$TOP/mod_faultaround/" "$1/"
}

require_tree() {
	[ -d "$TREE/.git" ] || die "no kernel tree in $TREE; run 'make tree' first"
}

# Commits of the series up to $1 (default HEAD), oldest first.
series_commits() {
	git -C "$TREE" rev-list --reverse "$BASE_TAG..${1:-HEAD}"
}

# Kernel objects built from the C files a commit range touches.
touched_objects() {
	# tools/ is user space (the kselftest): kbuild does not build it.
	git -C "$TREE" diff --name-only "$@" -- '*.c' ':!tools/' | sed 's/\.c$/.o/'
}

# Findings in $2 that $1 does not have, ignoring line and column numbers,
# so that code moved by the series does not count as new.
new_findings() {
	local norm='s/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/'
	diff <(sed -E "$norm" "$1" | sort) <(sed -E "$norm" "$2" | sort) |
		sed -n 's/^> //p'
}

# Findings in $1 ("file:line:...") on lines the series adds.
findings_on_added_lines() {
	git -C "$TREE" diff -U0 "$BASE_TAG" HEAD | awk -v findings="$1" '
		/^\+\+\+ b\// { file = substr($0, 7) }
		/^@@/ {
			split($3, r, ",")
			start = substr(r[1], 2); n = (r[2] == "") ? 1 : r[2]
			for (i = 0; i < n; i++) added[file ":" start + i] = 1
		}
		END {
			while ((getline line < findings) > 0) {
				split(line, f, ":")
				if ((f[1] ":" f[2]) in added) print line
			}
		}'
}
