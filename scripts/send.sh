#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Send the series with git send-email: a dry run unless SEND=1.  Before
# anything, the pre-send gate: checkpatch --strict, git am onto a clean
# base, each patch built on its own, Signed-off-by matching From, and
# subject style.  Recipients come from the tree's get_maintainer.pl.
# PATCHES=<dir> gates another copy of the series (make test uses it).
. "$(dirname "$0")/lib.sh"
require_tree

PATCHES=${PATCHES:-$TOP/patches}
mapfile -t patches < <(ls "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-)
cover=$(ls "$PATCHES"/0000-*.patch)
refuse() { echo "make send: refusing to send: $*" >&2; exit 1; }

subject() {	# the subject of a patch, without the [PATCH ...] tag
	sed -n '/^Subject: /{s/^Subject: //;N;s/\n / /;s/\n.*//;p;q}' "$1" |
		sed 's/^\[[^]]*\] //'
}

log "gate: checkpatch --strict"
"$TOP/scripts/checkpatch.sh" "${patches[@]}" || refuse "checkpatch found problems (above)"

log "gate: Signed-off-by and subjects"
for p in "${patches[@]}"; do
	name=$(basename "$p")
	from=$(sed -n 's/^From: //p;/^$/q' "$p" | sed -n 1p)
	grep -qxF "Signed-off-by: $from" "$p" ||
		refuse "$name: no Signed-off-by matching its From ($from)"
	s=$(subject "$p")
	[[ $s =~ ^(mm|ARM|Documentation|powerpc(/[a-z0-9_-]+)*|arm64|x86(/[a-z0-9_-]+)*|MAINTAINERS):\ (.*)$ ]] ||
		refuse "$name: subject '$s' has no known prefix (mm:, powerpc/pseries:, ARM:, Documentation: ...)"
	rest=${BASH_REMATCH[3]##*: }
	[[ ${rest:0:1} =~ [A-Z] ]] && refuse "$name: subject '$s' is not lower-case after the prefix"
	[ ${#s} -le 75 ] || refuse "$name: subject is ${#s} characters, more than 75"
done

log "gate: git am onto $BASE_TAG"
SRC=$BUILD/send-src
[ -d "$SRC" ] || git -C "$TREE" worktree add -q --detach "$SRC" "$BASE_TAG"
git -C "$SRC" am --abort >/dev/null 2>&1 || true
git -C "$SRC" checkout -q -f --detach "$BASE_TAG"
for p in "${patches[@]}"; do
	git -C "$SRC" am -q "$p" >/dev/null 2>&1 ||
		{ git -C "$SRC" am --abort; refuse "$(basename "$p") does not apply to $BASE_TAG"; }
done

# make test sets GATE_BUILT=1: its bisect check has just built each patch.
if [ "${GATE_BUILT:-0}" != 1 ]; then
	log "gate: each patch builds on its own"
	"$TOP/scripts/bisect.sh" "$(git -C "$SRC" rev-parse HEAD)" ||
		refuse "a patch does not build on its own (above)"
fi

# Recipients: each patch's own from get_maintainer.pl, plus the recipients
# of the mm patches, which are also the cover letter's.
recipients() {
	(cd "$TREE" && ./scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --no-tree "$@") | grep -v '^$' | sort -u
}
core=$(for p in "${patches[@]}"; do
	if [[ $(subject "$p") == mm:* ]]; then recipients "$p"; fi
done | sort -u)

args=(--confirm=never --suppress-cc=all --no-thread)
[ "${SEND:-0}" = 1 ] || args+=(--dry-run)
if [ "${SEND:-0}" = 1 ]; then
	git config sendemail.smtpserver >/dev/null ||
	git config sendemail.from >/dev/null ||
		refuse "SEND=1 needs a sendemail identity: git config --global sendemail.smtpserver <host> (see git-send-email(1))"
fi
from=$(sed -n 's/^From: //p;/^$/q' "$cover" | sed -n 1p)
# Thread every patch under the cover letter (shallow), as send-email does.
msgid=""
for p in "$cover" "${patches[@]}"; do
	name=$(basename "$p")
	if [ "$p" = "$cover" ]; then
		to=$(printf '%s\n' "$core" "$(recipients "${patches[@]}")" | sort -u)
	else
		to=$(printf '%s\n' "$core" "$(recipients "$p")" | sort -u)
	fi
	echo "== $name"
	echo "   Subject: $(subject "$p")"
	echo "$to" | sed 's/^/   To\/Cc: /'
	send=(git -C "$TREE" send-email "${args[@]}" --from="$from")
	while read -r r; do send+=(--to="$r"); done <<< "$to"
	[ -z "$msgid" ] || send+=(--in-reply-to="$msgid")
	out=$("${send[@]}" "$p" 2>&1) || { echo "$out"; refuse "git send-email failed for $name"; }
	echo "$out" | grep -E '^(Dry-)?(OK|Sent|Result)' | sed 's/^/   /'
	[ -n "$msgid" ] || msgid=$(echo "$out" | sed -n 's/^Message-ID: //Ip' | sed -n 1p)
done
[ "${SEND:-0}" = 1 ] || echo "dry run: nothing was sent (make send SEND=1 sends)"
