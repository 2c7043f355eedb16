#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Send the upstream part of the series (patches/NNNN-*.patch, never
# patches/lab/) with git send-email as the sender (lib.sh sender_identity,
# which refuses a placeholder, such as an address at an RFC 2606 domain):
# a dry run unless SEND=1.  Before anything, the pre-send gate, cheap
# checks first: a Signed-off-by of its author and of the sender, no
# lab-only patch, subject style, checkpatch --strict, git am onto a clean
# base, each patch built on its own.  Recipients come from the tree's
# get_maintainer.pl.
# BASE=6.12 sends the backport, patches/6.12/ (lib.sh's PATCHES), with
# patches/CC.  PATCHES=<dir> gates another copy of the series (make test
# uses it).
. "$(dirname "$0")/lib.sh"
require_tree

sender=$(sender_identity "make send") || exit 1
mapfile -t patches < <(numbered_patches "$PATCHES")
mapfile -t lab < <(numbered_patches "$PATCHES/lab")
cover=$(ls "$PATCHES"/0000-*.patch)
refuse() { echo "make send: refusing to send: $*" >&2; exit 1; }

subject() {	# the subject of a patch, without the [PATCH ...] tag
	mail_header Subject "$1" | sed 's/^\[[^]]*\] //'
}

log "gate: Signed-off-by, lab-only patches and subjects (sender: $sender)"
lab_subjects=$(for p in ${lab[@]+"${lab[@]}"}; do subject "$p"; done)
for p in "${patches[@]}"; do
	name=$(basename "$p")
	from=$(mail_header From "$p")
	grep -qxF "Signed-off-by: $from" "$p" ||
		refuse "$name: no Signed-off-by matching its From ($from)"
	grep -qxF "Signed-off-by: $sender" "$p" ||
		refuse "$name: no Signed-off-by of the sender ($sender); run make series to sign it"
	problem=$(identity_problem "$(ident_name "$from")" "$(ident_email "$from")")
	[ -z "$problem" ] || log "warning: $name: its author is not a real identity: $problem"
	s=$(subject "$p")
	! grep -qxF -- "$s" <<< "$lab_subjects" ||
		refuse "$name: '$s' is a lab-only patch (patches/lab/); it is never sent"
	[[ $s =~ ^(mm|ARM|Documentation|MAINTAINERS|arm64|(powerpc|x86|selftests)(/[a-z0-9_-]+)*):\ (.*)$ ]] ||
		refuse "$name: subject '$s' has no known prefix (mm:, selftests/mm:, powerpc/pseries:, ARM:, Documentation: ...)"
	rest=${BASH_REMATCH[4]##*: }
	[[ ${rest:0:1} =~ [A-Z] ]] && refuse "$name: subject '$s' is not lower-case after the prefix"
	[ ${#s} -le 75 ] || refuse "$name: subject is ${#s} characters, more than 75"
done

log "gate: checkpatch --strict"
"$TOP/scripts/checkpatch.sh" "${patches[@]}" || refuse "checkpatch found problems (above)"

log "gate: git am onto $BASE_TAG"
SRC=$BUILD/send-src$BASE_SUFFIX
[ ! -d "$SRC" ] || git -C "$SRC" am --abort >/dev/null 2>&1 || true
worktree_at "$SRC" "$BASE_TAG"
for p in "${patches[@]}"; do
	git -C "$SRC" am -q "$p" >/dev/null 2>&1 ||
		{ git -C "$SRC" am --abort; refuse "$(basename "$p") does not apply to $BASE_TAG"; }
done

# make test sets GATE_BUILT=1: its bisect check builds each patch.
if [ "${GATE_BUILT:-0}" != 1 ]; then
	log "gate: each patch builds on its own"
	"$TOP/scripts/bisect.sh" "$(git -C "$SRC" rev-parse HEAD)" ||
		refuse "a patch does not build on its own (above)"
fi

# Recipients: each patch's own from get_maintainer.pl, plus the recipients
# of the mm patches, which are also the cover letter's.
# patches/CC, the people in the series' history, are on every mail.
core=$({
	for p in "${patches[@]}"; do
		if [[ $(subject "$p") == mm:* ]]; then maintainers "$p"; fi
	done
	series_cc "$PATCHES"
} | sort -u)

args=(--confirm=never --suppress-cc=all --no-thread)
[ "${SEND:-0}" = 1 ] || args+=(--dry-run)
if [ "${SEND:-0}" = 1 ]; then
	git -C "$TREE" config sendemail.smtpserver >/dev/null ||
		refuse "SEND=1 needs a mail server: git config --global sendemail.smtpserver <host or sendmail-like program> (see git-send-email(1))"
fi
# Thread every patch under the cover letter (shallow), as send-email does.
msgid=""
for p in "$cover" "${patches[@]}"; do
	name=$(basename "$p")
	if [ "$p" = "$cover" ]; then
		to=$(printf '%s\n' "$core" "$(maintainers "${patches[@]}")" | sort -u)
	else
		to=$(printf '%s\n' "$core" "$(maintainers "$p")" | sort -u)
	fi
	echo "== $name"
	echo "   Subject: $(subject "$p")"
	echo "   From: $sender"
	echo "$to" | sed 's/^/   To\/Cc: /'
	send=(git -C "$TREE" send-email "${args[@]}" --from="$sender")
	while read -r r; do send+=(--to="$r"); done <<< "$to"
	[ -z "$msgid" ] || send+=(--in-reply-to="$msgid")
	out=$("${send[@]}" "$p" 2>&1) || { echo "$out"; refuse "git send-email failed for $name"; }
	echo "$out" | grep -E '^(Dry-)?(OK|Sent|Result)' | sed 's/^/   /'
	[ -n "$msgid" ] || msgid=$(echo "$out" | sed -n 's/^Message-ID: //Ip' | sed -n 1p)
done
[ "${SEND:-0}" = 1 ] || echo "dry run: nothing was sent (make send SEND=1 sends)"
