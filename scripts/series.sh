#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Regenerate patches/ from the faultaround branch of the tree with
# git format-patch: versioned, with base-commit: and the cover letter kept
# in patches/cover-letter.txt (first line: subject; then the body).
. "$(dirname "$0")/lib.sh"
require_tree

version=$(cat "$TOP/patches/VERSION")
cover=$TOP/patches/cover-letter.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Threading headers carry a time-based Message-Id, so they are added by
# git send-email at send time; without them the output is reproducible.
# The cover letter is from the series' author, not whoever runs this.
first=$(git -C "$TREE" rev-list --reverse "$BASE_TAG..HEAD" | sed -n 1p)
git -C "$TREE" -c user.name="$(git -C "$TREE" log -1 --format=%an "$first")" \
	-c user.email="$(git -C "$TREE" log -1 --format=%ae "$first")" \
	format-patch -q -v"$version" --cover-letter \
	--base="$BASE_TAG" --no-thread --zero-commit -o "$tmp" \
	"$BASE_TAG..HEAD"

python3 - "$tmp" "$cover" <<'PY'
import glob, sys
tmp, cover = sys.argv[1], sys.argv[2]
subject, _, body = open(cover).read().partition("\n")
path = glob.glob(f"{tmp}/*-0000-cover-letter.patch")[0]
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject.strip())
text = text.replace("*** BLURB HERE ***\n", body.strip("\n") + "\n")
# A fixed date: the cover letter is otherwise stamped with the current time.
lines = text.split("\n")
date = [l for l in open(sorted(glob.glob(f"{tmp}/*-0001-*.patch"))[0]).read().split("\n")
        if l.startswith("Date: ")][0]
lines = [date if l.startswith("Date: ") else l for l in lines]
open(path, "w").write("\n".join(lines))
PY

rm -f "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch
for f in "$tmp"/*.patch; do
	name=$(basename "$f")
	cp "$f" "$TOP/patches/${name#v"$version"-}"
done
# patches/ now matches the tree: tell tree.sh nothing needs re-applying.
git -C "$TREE" config faultaround.applied \
	"$(cat $(series_patches) /dev/null | sha256sum | cut -d' ' -f1):$(git -C "$TREE" rev-parse HEAD)"
ls "$TOP/patches"
