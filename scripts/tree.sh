#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the base kernel tree from Debian's linux-source-6.12 as a git
# repository tagged $BASE_TAG, then git-am patches/ onto branch faultaround.
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/linux-source-6.12.tar.xz
# Fixed identity and dates so that the base commit id, which the cover
# letter names in base-commit:, is the same on every machine.
export GIT_AUTHOR_NAME=faultaround GIT_AUTHOR_EMAIL=faultaround@localhost
export GIT_COMMITTER_NAME=faultaround GIT_COMMITTER_EMAIL=faultaround@localhost
export GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'

installed=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
[ "$installed" = "$BASE_VERSION" ] ||
	die "linux-source-6.12 is '${installed:-not installed}', but patches/BASE_VERSION pins $PINNED_VERSION.
  Install the pinned one:  apt-get install linux-source-6.12=$BASE_VERSION
  or build on the installed one at your own risk:  make tree BASE_VERSION=$installed"

if [ -d "$TREE/.git" ]; then
	have=$(git -C "$TREE" config faultaround.base || true)
	[ "$have" = "$BASE_VERSION" ] ||
		die "$TREE was built from $have, not $BASE_VERSION; remove it (rm -rf $TREE) or pass BASE_VERSION=$have"
else
	log "extracting $TARBALL ($BASE_VERSION)"
	rm -rf "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -xf "$TARBALL" -C "$TREE.tmp" --strip-components=1
	git -C "$TREE.tmp" init -q -b faultaround
	git -C "$TREE.tmp" config faultaround.base "$BASE_VERSION"
	# Debian's .gitignore ends with '/*': force-add, or the commit is empty.
	git -C "$TREE.tmp" add -f -A
	git -C "$TREE.tmp" commit -q -m "Linux $BASE_VERSION (Debian linux-source-6.12)"
	git -C "$TREE.tmp" tag "$BASE_TAG"
	mv "$TREE.tmp" "$TREE"
fi

unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE
stamp=$(cat $(series_patches) /dev/null | sha256sum | cut -d' ' -f1)
head=$(git -C "$TREE" rev-parse HEAD)
if [ "$(git -C "$TREE" config faultaround.applied || true)" = "$stamp:$head" ]; then
	log "tree is up to date: $(git -C "$TREE" rev-list --count "$BASE_TAG..HEAD") patches on $BASE_TAG"
	exit 0
fi
# Never throw away a developer's commits: they belong in patches/ first.
applied_head=$(git -C "$TREE" config faultaround.applied | cut -d: -f2 || true)
if [ "$head" != "$(git -C "$TREE" rev-parse "$BASE_TAG")" ] &&
   [ "$head" != "$applied_head" ] && [ -z "${FORCE:-}" ]; then
	die "$TREE has commits that are not in patches/; run 'make series' to keep them, or FORCE=1 to discard them"
fi

git -C "$TREE" am --abort >/dev/null 2>&1 || true
git -C "$TREE" checkout -q -f -B faultaround "$BASE_TAG"
git -C "$TREE" clean -qfdx
for p in $(series_patches); do
	if ! git -C "$TREE" am -q --committer-date-is-author-date "$p" >/dev/null 2>&1; then
		echo "error: $(basename "$p") does not apply to $BASE_TAG ($BASE_VERSION); rejected hunks:" >&2
		git -C "$TREE" am --abort >/dev/null 2>&1 || true
		git -C "$TREE" apply --reject --verbose "$p" >&2 || true
		find "$TREE" -name '*.rej' -exec cat {} + >&2
		git -C "$TREE" checkout -q -f HEAD
		git -C "$TREE" clean -qfdx
		exit 1
	fi
	log "applied $(basename "$p")"
done
git -C "$TREE" config faultaround.applied "$stamp:$(git -C "$TREE" rev-parse HEAD)"
