#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the base kernel tree as a git repository tagged $BASE_TAG, then
# git-am onto branch faultaround the upstream part (patches/, its last
# commit tagged $UPSTREAM_TAG) and the lab-only part (patches/lab/).
# The base is Debian's linux-source-6.12, or with LINUX=<git tree> that
# tree's HEAD (or LINUX_BASE=<rev>), cloned with --shared into $TREE so
# that the user's repository, branches and working tree stay untouched.
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/linux-source-6.12.tar.xz

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

# faultaround.base records the source: a Debian version, or git:<path>.
describe() {
	case $1 in
	git:*)	echo "LINUX=${1#git:}" ;;
	"")	echo "an unknown source" ;;
	*)	echo "BASE_VERSION=$1 (Debian's linux-source-6.12)" ;;
	esac
}

if [ -n "${LINUX:-}" ]; then
	[ -d "$LINUX" ] || die "LINUX=$LINUX: no such directory"
	LINUX=$(git -C "$LINUX" rev-parse --show-toplevel 2>/dev/null) ||
		die "LINUX=$LINUX is not a git repository; give a Linux 6.12 git checkout"
	base=$(git -C "$LINUX" rev-parse -q --verify "${LINUX_BASE:-HEAD}^{commit}") ||
		die "LINUX_BASE=${LINUX_BASE:-HEAD} is not a commit in $LINUX"
	kv=$(kernelversion "$LINUX" "$base" 2>/dev/null || true)
	[[ $kv == 6.12.* ]] ||
		die "$LINUX at ${LINUX_BASE:-HEAD} is Linux '${kv:-?}', not 6.12.x; the series is for 6.12 (LINUX_BASE=<rev> picks another commit)"
	source=git:$LINUX
else
	installed=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
	[ "$installed" = "$BASE_VERSION" ] ||
		die "linux-source-6.12 is '${installed:-not installed}', but patches/BASE_VERSION pins $PINNED_VERSION.
  Install the pinned one:  apt-get install linux-source-6.12=$BASE_VERSION
  or build on the installed one at your own risk:  make tree BASE_VERSION=$installed"
	source=$BASE_VERSION
fi

if [ -d "$TREE/.git" ]; then
	have=$(git -C "$TREE" config faultaround.base || true)
	[ "$have" = "$source" ] ||
		die "$TREE was built from $(describe "$have"), not from $(describe "$source").
  Run with the same source (pass it to every make), use another O=<dir>, or remove the tree: rm -rf $TREE"
elif [ -n "${LINUX:-}" ]; then
	log "cloning $LINUX (shared objects) into $TREE"
	rm -rf "$TREE.tmp"
	git clone -q --shared --no-checkout "$LINUX" "$TREE.tmp"
	git -C "$TREE.tmp" config faultaround.base "$source"
	git -C "$TREE.tmp" tag -f "$BASE_TAG" "$base" >/dev/null
	git -C "$TREE.tmp" checkout -q --detach "$BASE_TAG"
	mv "$TREE.tmp" "$TREE"
else
	log "extracting $TARBALL ($BASE_VERSION)"
	rm -rf "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xf "$TARBALL" -C "$TREE.tmp" --strip-components=1
	git -C "$TREE.tmp" init -q -b faultaround
	git -C "$TREE.tmp" config faultaround.base "$source"
	# Debian's .gitignore ends with '/*': force-add, or the commit is empty.
	git -C "$TREE.tmp" add -f -A
	# Fixed identity and dates so that the base commit id, which the cover
	# letter names in base-commit:, is the same on every machine.
	GIT_AUTHOR_NAME=faultaround GIT_AUTHOR_EMAIL=faultaround@localhost \
	GIT_COMMITTER_NAME=faultaround GIT_COMMITTER_EMAIL=faultaround@localhost \
	GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
		git -C "$TREE.tmp" commit -q -m "Linux $BASE_VERSION (Debian linux-source-6.12)"
	git -C "$TREE.tmp" tag "$BASE_TAG"
	mv "$TREE.tmp" "$TREE"
fi
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
			echo "error: ${p#"$TOP"/} does not apply ($(describe "$source")); rejected hunks:" >&2
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
