#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test the upstream workflow; no mail leaves the machine:
#  - `make series`, run by the sender of patches/ (its cover letter's From),
#    leaves patches/ and patches/lab/ byte-identical;
#  - the pre-send gate passes on patches/ and its dry run is clean;
#  - it refuses, by name, a copy of the series with a broken patch, and one
#    with a lab-only patch among the upstream ones;
#  - `make send SEND=1` really sends, to tests/upstream/sendmail-store,
#    and tests/upstream/check-mails.py checks the stored mails: one per
#    upstream patch plus the cover letter, threaded under it, From the
#    sender, signed off by the sender, to the get_maintainer.pl recipients,
#    and no lab-only patch;
#  - with no identity, or a placeholder one, make send and make series
#    refuse, naming it.
# Identities come from a throwaway git config, so the user's is untouched.
. "$(dirname "$0")/lib.sh"
require_tree

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/home"
: > "$tmp/gitconfig"
cover=$TOP/patches/0000-cover-letter.patch
sender=$(mail_header From "$cover")
# The per-patch builds of the gate are the bisect check's; skip them here.
export GATE_BUILT=1

# Run "$@" as user.name $1 and user.email $2 (empty: not set) and
# sendemail.from $FROM (default not set), with no global or system config,
# and the mail server tests/upstream/sendmail-store.  GIT_CONFIG_COUNT also
# overrides the checkout's own config.
as() {
	local name=$1 email=$2
	shift 2
	HOME=$tmp/home GIT_CONFIG_GLOBAL=$tmp/gitconfig GIT_CONFIG_NOSYSTEM=1 \
	GIT_CONFIG_COUNT=4 \
	GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$name" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$email" \
	GIT_CONFIG_KEY_2=sendemail.from GIT_CONFIG_VALUE_2="${FROM:-}" \
	GIT_CONFIG_KEY_3=sendemail.smtpserver \
	GIT_CONFIG_VALUE_3="$TOP/tests/upstream/sendmail-store" \
		"$@"
}
as_sender() { as "$(ident_name "$sender")" "$(ident_email "$sender")" "$@"; }
verdict() {	# verdict <ok: 0 or not> <what>
	if [ "$1" = 0 ]; then echo "PASS $2"; else echo "FAIL $2"; fail=1; fi
}

cp -a "$TOP/patches" "$tmp/series"
ok=0
as_sender env PATCHES="$tmp/series" "$TOP/scripts/series.sh" > "$tmp/series.log" 2>&1 ||
	{ cat "$tmp/series.log"; ok=1; }
diff -r "$TOP/patches" "$tmp/series" || ok=1
verdict $ok "series: make series by the sender ($sender) leaves patches/ byte-identical"

ok=0
as_sender "$TOP/scripts/send.sh" > "$tmp/send.log" 2>&1 || { cat "$tmp/send.log"; ok=1; }
verdict $ok "send: the gate passes and the dry run is clean ($(grep -c '^== ' "$tmp/send.log") messages, From: $sender)"

# refused <name> <log> <what> <command...>: the command must fail, saying
# "refusing" and naming <name>.
refused() {
	local name=$1 log=$tmp/$2 what=$3
	shift 3
	if "$@" > "$log" 2>&1; then
		verdict 1 "$what: accepted"
	elif grep 'refus' "$log" | grep -qF -- "$name"; then
		verdict 0 "$what: refused: $(grep 'refus' "$log" | grep -m1 -F -- "$name")"
	else
		cat "$log"
		verdict 1 "$what: failed without naming $name"
	fi
}

# The gate must name 0003, which lost its Signed-off-by lines.
cp -a "$TOP/patches" "$tmp/broken"
broken=$(ls "$tmp"/broken/0003-*.patch)
sed -i '/^Signed-off-by: /d' "$broken"
refused "$(basename "$broken"): no Signed-off-by" broken.log "gate: a patch without Signed-off-by" \
	as_sender env PATCHES="$tmp/broken" "$TOP/scripts/send.sh"

mapfile -t lab < <(lab_patches)
if [ ${#lab[@]} -gt 0 ]; then
	cp -a "$TOP/patches" "$tmp/withlab"
	last=$(basename "$(series_patches | sed -n '$p')")
	name=$(basename "${lab[0]}")
	cp "${lab[0]}" "$tmp/withlab/$(printf '%04d' $((10#${last%%-*} + 1)))-${name#*-}"
	refused "lab-only patch" withlab.log "gate: a lab-only patch among the upstream ones" \
		as_sender env PATCHES="$tmp/withlab" "$TOP/scripts/send.sh"
else
	echo "SKIP gate: patches/lab/ is empty (the sent mails are still checked for lab patches)"
fi

# A real send into $tmp/mail, then check what arrived.
ok=0
as_sender env SEND=1 FA_MAILDIR="$tmp/mail" "$TOP/scripts/send.sh" > "$tmp/sent.log" 2>&1 ||
	{ cat "$tmp/sent.log"; ok=1; }
verdict $ok "send SEND=1: git send-email sent $(ls "$tmp"/mail/*.eml 2>/dev/null | wc -l) mails to tests/upstream/sendmail-store"
mkdir "$tmp/expect"
for p in $(series_patches); do
	maintainers "$p" > "$tmp/expect/$(basename "$p")"
done
maintainers $(series_patches) > "$tmp/expect/$(basename "$cover")"
"$TOP/tests/upstream/check-mails.py" "$tmp/mail" "$TOP/patches" "$tmp/expect" "$sender" || fail=1

# The identity: missing or placeholder ones are refused by name, both by
# make send and make series (one check in lib.sh); the noreply address
# of a real account is accepted.
refused "user.name and user.email are not set" none.log "identity: none configured" \
	as "" "" "$TOP/scripts/send.sh"
refused "user.email is not set" noemail.log "identity: no user.email" \
	as "Ada Lovelace" "" "$TOP/scripts/send.sh"
refused "faultaround-dev@example.org" old.log "identity: the old shared one" \
	as "Faultaround Developers" faultaround-dev@example.org "$TOP/scripts/send.sh"
refused "faultaround-dev@example.org" old-series.log "identity: make series with the old shared one" \
	as "Faultaround Developers" faultaround-dev@example.org \
	env PATCHES="$tmp/series" "$TOP/scripts/series.sh"
# lib.sh's check alone, as make send calls it.
identity=(bash -c '. "$1/scripts/lib.sh"; sender_identity "make send"' - "$TOP")
while IFS=$'\t' read -r name email why; do
	refused "$why" "id-$email.log" "identity: $name <$email>" \
		as "$name" "$email" "${identity[@]}"
done <<'EOF'
Your Name	you@example.com	example.com
Ada Lovelace	ada@localhost	localhost
Ada Lovelace	ada@mail.example.net	example.net
Your Name	ada@kernel.org	placeholder name
faultaround	ada@kernel.org	placeholder name
EOF
FROM="Ada Lovelace" refused "sendemail.from 'Ada Lovelace'" from-bad.log \
	"identity: sendemail.from without an address" \
	as "Ada Lovelace" ada@kernel.org "${identity[@]}"
# accepted <what> <identity> <command...>: the command must print <identity>.
accepted() {
	local what=$1 want=$2 got
	shift 2
	got=$("$@" 2>&1) || true
	[ "$got" = "$want" ] && verdict 0 "identity: $what is accepted: $got" ||
		verdict 1 "identity: $what is not accepted: $got"
}
accepted "a noreply address" \
	"Seed 5731e51b maintainers <maintainers@users.noreply.a-seed-5731e51b.example>" \
	as "Seed 5731e51b maintainers" maintainers@users.noreply.a-seed-5731e51b.example \
	"${identity[@]}"
FROM="Ada Lovelace <ada@kernel.org>" accepted "sendemail.from (b4 send uses it too)" \
	"Ada Lovelace <ada@kernel.org>" \
	as "" "" "${identity[@]}"
exit $fail
