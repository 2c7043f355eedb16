#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the base kernel tree as a git repository tagged $BASE_TAG, then
# git-am onto branch faultaround the upstream part ($PATCHES: patches/, or
# patches/6.12/ with BASE=6.12; its last commit tagged $UPSTREAM_TAG) and
# the lab-only part ($PATCHES/lab/), in $TREE (build/linux, or
# build/linux-6.12).
# The base is Debian's linux-source-<line> (7.3; BASE=6.12: 6.12), the
# version basever.sh's rule picks (the pinned one while Debian serves it),
# downloaded and unpacked, never installed; it prints the version used
# and the rule applied ("base: linux-source-7.3 7.3.4-1~bpo13+1 (pinned)").
# With LINUX=<git tree> the base is that tree's HEAD (or LINUX_BASE=<rev>),
# which must be Linux <line>.x, cloned with --shared into $TREE so that the
# user's repository, branches and working tree stay untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/basever.sh"
# Only the main series falls forward to a newer line (basever.sh, rule 4).
BASE_FALLS_FORWARD=0
[ -n "$BASE_SUFFIX" ] || BASE_FALLS_FORWARD=1

# What make kernelversion prints for commit $2 of repository $1, read from
# that commit's Makefile: the user's working tree may be elsewhere, and
# make is not run in it.
kernelversion() {
	git -C "$1" show "$2:Makefile" | awk -F' *= *' '
		$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
		/^# \*DOCUMENTATION\*/ { exit }
		END { if (v != "") print v "." p "." s e }'
}

# The tree records its source in git config: faultaround.base, the
# package and version it was unpacked from (linux-source-7.3=<version>:
# the line is in it, so a 6.12 tree is never taken for a 7.3 one) or
# git:<path>; faultaround.request, what was asked (the package, and the
# pinned or the forced version), which the next make tree must ask again
# to reuse the tree without asking Debian; faultaround.rule, basever.sh's
# words for how the version was chosen.
describe() {
	case $1 in
	git:*)	echo "LINUX=${1#git:}" ;;
	"")	echo "an unknown source" ;;
	linux-source-*=*) echo "Debian's ${1%%=*} ${1#*=}" ;;
	*)	echo "Debian's linux-source $1 (recorded without its line: an older make tree)" ;;
	esac
}

describe_request() {
	case $1 in
	git:*)	describe "$1" ;;
	*" pinned "*) echo "Debian's ${1%% *} (pinned ${1##* })" ;;
	*)	echo "Debian's ${1%% *} (${1#* })" ;;
	esac
}

if [ -n "${LINUX:-}" ]; then
	[ -d "$LINUX" ] || die "LINUX=$LINUX: no such directory"
	LINUX=$(git -C "$LINUX" rev-parse --show-toplevel 2>/dev/null) ||
		die "LINUX=$LINUX is not a git repository; give a Linux $BASE_LINE git checkout"
	base=$(git -C "$LINUX" rev-parse -q --verify "${LINUX_BASE:-HEAD}^{commit}") ||
		die "LINUX_BASE=${LINUX_BASE:-HEAD} is not a commit in $LINUX"
	kv=$(kernelversion "$LINUX" "$base" 2>/dev/null || true)
	[[ $kv == "$BASE_LINE".* ]] ||
		die "$LINUX at ${LINUX_BASE:-HEAD} is Linux '${kv:-?}', not $BASE_LINE.x; the series in ${BASE_PATCHES#"$TOP"/}/ (BASE=$BASE) is for $BASE_LINE (LINUX_BASE=<rev> picks another commit)"
	request=git:$LINUX
else
	want=${FORCED_VERSION:-$PINNED_VERSION}
	line=$(line_of "$want") || die "BASE_VERSION=$want is not a Debian linux-source version"
	if [ -n "$FORCED_VERSION" ]; then
		request="linux-source-$line BASE_VERSION=$want"
	else
		request="linux-source-$line pinned $want"
	fi
fi

if [ -d "$TREE/.git" ]; then
	have=$(git -C "$TREE" config faultaround.base || true)
	[ "$(git -C "$TREE" config faultaround.request || true)" = "$request" ] ||
		die "$TREE was built from $(describe "$have"), not for $(describe_request "$request").
  Run with the same source (pass it to every make), use another O=<dir>, or remove the tree: rm -rf $TREE"
	source=$have
	rule=$(git -C "$TREE" config faultaround.rule || true)
	case $source in
	git:*)	log "base: LINUX=${source#git:} (${rule:-Linux $kv}; the tree as built)" ;;
	*)	log "base: ${source%%=*} ${source#*=} (${rule:-rule not recorded}; the tree as built)" ;;
	esac
elif [ "${FAULTAROUND_TREE_FROZEN:-}" = "$BUILD" ]; then
	die "no tree in $TREE: make test makes it before its checks (test-setup), which failed"
elif [ -n "${LINUX:-}" ]; then
	log "cloning $LINUX (shared objects) into $TREE"
	source=$request rule="Linux $kv"
	log "base: LINUX=$LINUX ($rule)"
	rm -rf "$TREE.tmp"
	git clone -q --shared --no-checkout "$LINUX" "$TREE.tmp"
	git -C "$TREE.tmp" config gc.auto 0	# see below
	git -C "$TREE.tmp" config faultaround.base "$source"
	git -C "$TREE.tmp" config faultaround.request "$request"
	git -C "$TREE.tmp" config faultaround.rule "$rule"
	git -C "$TREE.tmp" tag -f "$BASE_TAG" "$base" >/dev/null
	git -C "$TREE.tmp" checkout -q --detach "$BASE_TAG"
	mv "$TREE.tmp" "$TREE"
else
	base_get
	source=$BASE_PKG=$BASE_USED rule=$BASE_RULE
	log "base: $BASE_PKG $BASE_USED ($rule)"
	log "extracting ${BASE_TARBALL#"$TOP"/}"
	rm -rf "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xf "$BASE_TARBALL" -C "$TREE.tmp" --strip-components=1
	git -C "$TREE.tmp" init -q -b faultaround
	# The tree's ~90,000 loose objects would start git gc --auto, which
	# repacks the kernel in the background, beside the builds.  (Trees
	# made before this get it at their next re-application.)
	git -C "$TREE.tmp" config gc.auto 0
	git -C "$TREE.tmp" config faultaround.base "$source"
	git -C "$TREE.tmp" config faultaround.request "$request"
	git -C "$TREE.tmp" config faultaround.rule "$rule"
	# Debian's .gitignore ends with '/*': force-add, or the commit is empty.
	git -C "$TREE.tmp" add -f -A
	# Fixed identity and dates so that the base commit id, which the cover
	# letter names in base-commit:, is the same on every machine.
	GIT_AUTHOR_NAME=faultaround GIT_AUTHOR_EMAIL=faultaround@localhost \
	GIT_COMMITTER_NAME=faultaround GIT_COMMITTER_EMAIL=faultaround@localhost \
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
		git -C "$TREE.tmp" commit -q -m "Linux $BASE_USED (Debian $BASE_PKG)"
	git -C "$TREE.tmp" tag "$BASE_TAG"
	mv "$TREE.tmp" "$TREE"
fi
# What a patch that does not apply is named against: the base used, and
# what the series is pinned to.
case $source in
git:*)	onto="LINUX=$LINUX (Linux $kv; the series is pinned to linux-source-$BASE_LINE $PINNED_VERSION)" ;;
*=*)	onto="${source%%=*} ${source#*=} (${FORCED_VERSION:+BASE_VERSION=$FORCED_VERSION; }pinned $PINNED_VERSION)" ;;
*)	onto="$(describe "$source")" ;;
esac
# With LINUX the base follows that tree's HEAD (or LINUX_BASE).
[ -n "${LINUX:-}" ] || base=$(git -C "$TREE" rev-parse "$BASE_TAG^{commit}")

stamp=$(applied_stamp "$base")
head=$(git -C "$TREE" rev-parse -q --verify HEAD || true)
applied=$(git -C "$TREE" config faultaround.applied || true)
if [ "$applied" = "$stamp:$head" ] &&
   git -C "$TREE" rev-parse -q --verify "refs/tags/$UPSTREAM_TAG" >/dev/null; then
	log "tree is up to date: $(git -C "$TREE" rev-list --count "$BASE_TAG..$UPSTREAM_TAG") upstream and $(git -C "$TREE" rev-list --count "$UPSTREAM_TAG..HEAD") lab patches on $BASE_TAG"
	exit 0
fi
[ "${FAULTAROUND_TREE_FROZEN:-}" != "$BUILD" ] ||
	die "patches/ changed while make test ran: $TREE is not re-applied under the checks still building from it; run make test again"
git -C "$TREE" config gc.auto 0
# Never throw away a developer's commits: they belong in patches/ first.
if [ -n "$head" ] && [ "$head" != "$(git -C "$TREE" rev-parse -q --verify "$BASE_TAG^{commit}")" ] &&
   [ "$head" != "${applied##*:}" ] && [ -z "${FORCE:-}" ]; then
	die "$TREE has commits that are not in patches/; run 'make series' to keep them, or FORCE=1 to discard them"
fi

# Applied commits get a fixed committer too: make tree needs no identity,
# and the tree's commit ids depend only on the patches.
export GIT_COMMITTER_NAME=faultaround GIT_COMMITTER_EMAIL=faultaround@localhost
git -C "$TREE" tag -f "$BASE_TAG" "$base" >/dev/null
git -C "$TREE" am --abort >/dev/null 2>&1 || true
git -C "$TREE" checkout -q -f -B faultaround "$BASE_TAG"
git -C "$TREE" clean -qfdx
apply() {
	local p
	for p in "$@"; do
		if ! git -C "$TREE" am -q --committer-date-is-author-date "$p" >/dev/null 2>&1; then
			echo "error: ${p#"$TOP"/} does not apply to $onto: rejected hunks:" >&2
			git -C "$TREE" am --abort >/dev/null 2>&1 || true
			git -C "$TREE" apply --reject --verbose "$p" >&2 || true
			find "$TREE" -name '*.rej' -exec cat {} + >&2
			git -C "$TREE" checkout -q -f HEAD
			git -C "$TREE" clean -qfdx
			exit 1
		fi
		log "applied ${p#"$TOP"/}"
	done
}
apply $(series_patches)
git -C "$TREE" tag -f "$UPSTREAM_TAG" >/dev/null
apply $(lab_patches)
git -C "$TREE" config faultaround.applied "$stamp:$(git -C "$TREE" rev-parse HEAD)"
