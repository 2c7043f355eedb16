#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate patches/ from the faultaround branch of the tree with
# git format-patch: the upstream part ($BASE_TAG..$UPSTREAM_TAG) versioned,
# with base-commit: and the cover letter kept in patches/cover-letter.txt
# (first line: subject; then the body), and the lab-only part
# ($UPSTREAM_TAG..HEAD) in patches/lab/, without a cover letter.  Each patch
# is From its commit's author and signed off by whoever runs this: a
# placeholder identity only gets a warning (the patches kept in the
# repository may carry one; make send refuses it).
# With BASE=6.12, patches/6.12/ from build/linux-6.12 (lib.sh's PATCHES
# and TREE); patches/VERSION is shared by both.
# PATCHES=<dir> writes another copy of patches/ (make test uses it).
. "$(dirname "$0")/lib.sh"
require_tree

sender=$(sender_identity "make series" warn) || exit 1
# patches/VERSION: a number N for "[PATCH vN ...]", RFC for a fresh
# "[RFC PATCH ...]" series, which carries no version, or "RFC vN" for
# "[RFC PATCH vN ...]".
version=$(cat "$(series_file "$PATCHES" VERSION)")
case $version in
RFC)	reroll=(--rfc) prefix= ;;
"RFC v"[2-9]|"RFC v"[1-9][0-9])
	prefix=v${version#RFC v}- reroll=(--rfc -v"${version#RFC v}") ;;
[1-9]|[1-9][0-9]) prefix=v$version- reroll=(-v"$version") ;;
*)	die "$PATCHES/VERSION is '$version': give a version number, RFC or \"RFC vN\"" ;;
esac
cover=$PATCHES/cover-letter.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$TREE" rev-parse -q --verify "refs/tags/$UPSTREAM_TAG" >/dev/null ||
	die "no $UPSTREAM_TAG tag in $TREE: run 'make tree'"
# After a rebase the tag may be left on a commit that is no longer there.
git -C "$TREE" merge-base --is-ancestor "$BASE_TAG" "$UPSTREAM_TAG" &&
git -C "$TREE" merge-base --is-ancestor "$UPSTREAM_TAG" HEAD ||
	die "$UPSTREAM_TAG is not between $BASE_TAG and HEAD of $TREE (after a rebase?); point it at the last upstream commit: git -C $TREE tag -f $UPSTREAM_TAG <commit>"
[ "$(git -C "$TREE" rev-parse "$BASE_TAG")" != "$(git -C "$TREE" rev-parse "$UPSTREAM_TAG")" ] ||
	die "no upstream patches between $BASE_TAG and $UPSTREAM_TAG in $TREE"

# --signoff and the cover letter's From take the committer: the sender.
GIT_COMMITTER_NAME=$(ident_name "$sender")
GIT_COMMITTER_EMAIL=$(ident_email "$sender")
export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
# Threading headers carry a time-based Message-Id, so they are added by
# git send-email at send time; without them the output is reproducible.
# So is a fixed abbrev: git's default grows with the object count (after a
# gc, or in a tree with history), changing every index line.
format_patch() {
	git -C "$TREE" -c core.abbrev=12 format-patch -q "${reroll[@]}" \
		--filename-max-length=$((64 + ${#prefix})) \
		--signoff --no-thread --zero-commit "$@"
}
format_patch --cover-letter --base="$BASE_TAG" -o "$tmp/upstream" \
	"$BASE_TAG..$UPSTREAM_TAG"
format_patch -o "$tmp/lab" "$UPSTREAM_TAG..HEAD"

python3 - "$tmp/upstream" "$cover" <<'PY'
import glob, sys
tmp, cover = sys.argv[1], sys.argv[2]
subject, _, body = open(cover).read().partition("\n")
path = glob.glob(f"{tmp}/*0000-cover-letter.patch")[0]
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject.strip())
text = text.replace("*** BLURB HERE ***\n", body.strip("\n") + "\n")
# A fixed date: the cover letter is otherwise stamped with the current time.
lines = text.split("\n")
date = [l for l in open(sorted(glob.glob(f"{tmp}/*0001-*.patch"))[0]).read().split("\n")
        if l.startswith("Date: ")][0]
lines = [date if l.startswith("Date: ") else l for l in lines]
open(path, "w").write("\n".join(lines))
PY

# Copy $1's patches into $2 without the version prefix (the same names for
# every version: git counts the prefix in --filename-max-length), replacing
# the old;
# a part without patches leaves no directory behind.
install_part() {
	local f name
	rm -f "$2"/[0-9][0-9][0-9][0-9]-*.patch
	for f in "$1"/*.patch; do
		[ -e "$f" ] || continue
		mkdir -p "$2"
		name=$(basename "$f")
		cp "$f" "$2/${name#"$prefix"}"
	done
	rmdir "$2" 2>/dev/null || true
}
install_part "$tmp/upstream" "$PATCHES"
install_part "$tmp/lab" "$PATCHES/lab"
# patches/ now matches the tree: tell tree.sh nothing needs re-applying.
if [ "$PATCHES" = "$BASE_PATCHES" ]; then
	git -C "$TREE" config faultaround.applied \
		"$(applied_stamp):$(git -C "$TREE" rev-parse HEAD)"
fi
log "signed off by $sender"
ls "$PATCHES" "$PATCHES/lab" 2>/dev/null || true
