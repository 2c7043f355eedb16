#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test the upstream workflow; no mail leaves the machine:
#  - `make series`, run by the signer of patches/ (its cover letter's From),
#    leaves patches/ and patches/lab/ byte-identical, warning if that
#    identity is a placeholder;
#  - `make series` by the project's own identity, at an RFC 2606 domain
#    (.example), warns and goes on; `make send SEND=1` by it is refused by
#    name and stores no mail;
#  - `make series` by a real-looking sender signs a copy of the series;
#    the pre-send gate passes on that copy and its dry run is clean;
#  - it refuses, by name, a copy of the series with a broken patch, and one
#    with a lab-only patch among the upstream ones;
#  - `make send SEND=1` by that sender really sends, to
#    tests/upstream/sendmail-store, and tests/upstream/check-mails.py
#    checks the stored mails: one per upstream patch plus the cover letter,
#    threaded under it, From the sender, signed off by the sender, to the
#    get_maintainer.pl recipients, and no lab-only patch;
#  - with no identity, make send and make series refuse, naming the
#    missing setting; make send refuses every placeholder one by name (RFC
#    2606 domains, localhost, placeholder names) and takes real ones.
# Identities come from a throwaway git config, so the user's is untouched.
# With BASE=6.12 all of it runs on patches/6.12/ (lib.sh's PATCHES).
. "$(dirname "$0")/lib.sh"
require_tree

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/home"
: > "$tmp/gitconfig"
cover=$PATCHES/0000-cover-letter.patch
# Who signed patches/: make series by them must reproduce it byte for byte.
signer=$(mail_header From "$cover")
# The project's own git identity: a noreply-looking address under .example,
# which RFC 2606 reserves.  The patches kept here may carry it; no mail may
# be sent as it.
project="Seed 5731e51b maintainers <maintainers@users.noreply.a-seed-5731e51b.example>"
project_problem="maintainers@users.noreply.a-seed-5731e51b.example is not a real address: RFC 2606 reserves the top-level domain .example"
# A real-looking sender for the gate and the real send; the mail only
# reaches tests/upstream/sendmail-store.
sender="Ada Lovelace <ada@kernel.org>"
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
as_ident() {	# as_ident "Name <email>" <command...>
	local id=$1
	shift
	as "$(ident_name "$id")" "$(ident_email "$id")" "$@"
}
as_sender() { as_ident "$sender" "$@"; }
verdict() {	# verdict <ok: 0 or not> <what>
	if [ "$1" = 0 ]; then echo "PASS $2"; else echo "FAIL $2"; fail=1; fi
}

cp -a "$PATCHES" "$tmp/series"
ok=0
as_ident "$signer" env PATCHES="$tmp/series" "$TOP/scripts/series.sh" > "$tmp/series.log" 2>&1 ||
	{ cat "$tmp/series.log"; ok=1; }
diff -r "$PATCHES" "$tmp/series" || ok=1
problem=$(identity_problem "$(ident_name "$signer")" "$(ident_email "$signer")")
if [ -n "$problem" ] && ! grep -F "warning: make series" "$tmp/series.log" | grep -qF -- "$problem"; then
	cat "$tmp/series.log"
	ok=1
fi
verdict $ok "series: make series by the signer ($signer) leaves patches/ byte-identical${problem:+, warning: $problem}"

# The project's identity: make series warns and signs, make send refuses.
cp -a "$PATCHES" "$tmp/project"
ok=0
as_ident "$project" env PATCHES="$tmp/project" "$TOP/scripts/series.sh" > "$tmp/project.log" 2>&1 ||
	{ cat "$tmp/project.log"; ok=1; }
grep -F "warning: make series" "$tmp/project.log" | grep -qF -- "$project_problem" &&
	grep -qxF "Signed-off-by: $project" "$(numbered_patches "$tmp/project" | sed -n 1p)" ||
	{ cat "$tmp/project.log"; ok=1; }
verdict $ok "series: make series by the project's identity warns and signs: $(grep -m1 -F 'warning: make series' "$tmp/project.log")"

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

# A real send as the project's identity: refused, naming the address and
# RFC 2606, before a mail reaches the store.
mkdir "$tmp/mail-project"
refused "$project_problem" project-send.log "send SEND=1: the project's identity ($project)" \
	as_ident "$project" env SEND=1 FA_MAILDIR="$tmp/mail-project" "$TOP/scripts/send.sh"
n=$(find "$tmp/mail-project" -name '*.eml' | wc -l)
verdict "$n" "send SEND=1: no mail stored as the project's identity ($n)"

# The real sender signs a copy of the series, which the rest sends.
cp -a "$PATCHES" "$tmp/real"
ok=0
as_sender env PATCHES="$tmp/real" "$TOP/scripts/series.sh" > "$tmp/real.log" 2>&1 ||
	{ cat "$tmp/real.log"; ok=1; }
! grep -F "warning: make series" "$tmp/real.log" || ok=1
verdict $ok "series: make series by a real sender ($sender) signs without a warning"

ok=0
as_sender env PATCHES="$tmp/real" "$TOP/scripts/send.sh" > "$tmp/send.log" 2>&1 ||
	{ cat "$tmp/send.log"; ok=1; }
verdict $ok "send: the gate passes and the dry run is clean ($(grep -c '^== ' "$tmp/send.log") messages, From: $sender)"

# patches/CC, the people in the history, are on every message.
msgs=$(grep -c '^== ' "$tmp/send.log") ok=0
while read -r who; do
	n=$(grep -cxF "   To/Cc: $who" "$tmp/send.log")
	[ "$n" = "$msgs" ] || { echo "$who is on $n of $msgs messages"; ok=1; }
done < <(series_cc "$tmp/real")
verdict $ok "send: the $(series_cc "$tmp/real" | wc -l) people of patches/CC are on all $msgs messages"

# The gate must name 0003, which lost its Signed-off-by lines.
cp -a "$tmp/real" "$tmp/broken"
broken=$(ls "$tmp"/broken/0003-*.patch)
sed -i '/^Signed-off-by: /d' "$broken"
refused "$(basename "$broken"): no Signed-off-by" broken.log "gate: a patch without Signed-off-by" \
	as_sender env PATCHES="$tmp/broken" "$TOP/scripts/send.sh"

mapfile -t lab < <(numbered_patches "$tmp/real/lab")
if [ ${#lab[@]} -gt 0 ]; then
	cp -a "$tmp/real" "$tmp/withlab"
	last=$(basename "$(numbered_patches "$tmp/real" | sed -n '$p')")
	name=$(basename "${lab[0]}")
	cp "${lab[0]}" "$tmp/withlab/$(printf '%04d' $((10#${last%%-*} + 1)))-${name#*-}"
	refused "lab-only patch" withlab.log "gate: a lab-only patch among the upstream ones" \
		as_sender env PATCHES="$tmp/withlab" "$TOP/scripts/send.sh"
else
	echo "SKIP gate: patches/lab/ is empty (the sent mails are still checked for lab patches)"
fi

# A real send into $tmp/mail, then check what arrived.
ok=0
as_sender env SEND=1 PATCHES="$tmp/real" FA_MAILDIR="$tmp/mail" "$TOP/scripts/send.sh" > "$tmp/sent.log" 2>&1 ||
	{ cat "$tmp/sent.log"; ok=1; }
verdict $ok "send SEND=1: git send-email sent $(ls "$tmp"/mail/*.eml 2>/dev/null | wc -l) mails to tests/upstream/sendmail-store"
mkdir "$tmp/expect"
for p in $(numbered_patches "$tmp/real"); do
	maintainers "$p" > "$tmp/expect/$(basename "$p")"
done
maintainers $(numbered_patches "$tmp/real") > "$tmp/expect/$(basename "$cover")"
"$TOP/tests/upstream/check-mails.py" "$tmp/mail" "$tmp/real" "$tmp/expect" "$sender" || fail=1

# The identity: missing ones are refused by name, both by make send and
# make series (one check in lib.sh), placeholder ones by make send; real
# ones, a real account's noreply address among them, are accepted.
refused "user.name and user.email are not set" none.log "identity: none configured" \
	as "" "" "$TOP/scripts/send.sh"
refused "user.email is not set" noemail.log "identity: no user.email" \
	as "Ada Lovelace" "" "$TOP/scripts/send.sh"
refused "user.name and user.email are not set" none-series.log "identity: make series with none configured" \
	as "" "" env PATCHES="$tmp/series" "$TOP/scripts/series.sh"
refused "faultaround-dev@example.org" old.log "identity: the old shared one" \
	as "Faultaround Developers" faultaround-dev@example.org "$TOP/scripts/send.sh"
# lib.sh's check alone, as make send calls it.
identity=(bash -c '. "$1/scripts/lib.sh"; sender_identity "make send"' - "$TOP")
while IFS=$'\t' read -r name email why; do
	refused "$why" "id-$email.log" "identity: $name <$email>" \
		as "$name" "$email" "${identity[@]}"
done <<'EOF'
Your Name	you@example.com	you@example.com is not a real address: RFC 2606 reserves the domain example.com
Ada Lovelace	ada@mail.example.net	ada@mail.example.net is not a real address: RFC 2606 reserves the domain example.net
Ada Lovelace	ada@Lists.Example.ORG	ada@Lists.Example.ORG is not a real address: RFC 2606 reserves the domain example.org
Ada Lovelace	ada@users.noreply.kernel.example	ada@users.noreply.kernel.example is not a real address: RFC 2606 reserves the top-level domain .example
Ada Lovelace	ada@lab.test	ada@lab.test is not a real address: RFC 2606 reserves the top-level domain .test
Ada Lovelace	ada@nowhere.invalid	ada@nowhere.invalid is not a real address: RFC 2606 reserves the top-level domain .invalid
Ada Lovelace	ada@localhost	ada@localhost is not a real address: RFC 2606 reserves the top-level domain .localhost
Ada Lovelace	ada@lab.localhost	ada@lab.localhost is not a real address: RFC 2606 reserves the top-level domain .localhost
Ada Lovelace	ada@localhost.localdomain	ada@localhost.localdomain is at localhost
Your Name	ada@kernel.org	placeholder name
faultaround	ada@kernel.org	placeholder name
EOF
FROM="Ada Lovelace <ada@example.com>" refused "ada@example.com is not a real address" from-example.log \
	"identity: sendemail.from at example.com" \
	as "Ada Lovelace" ada@kernel.org "${identity[@]}"
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
accepted "a real address" "$sender" as_sender "${identity[@]}"
accepted "a real account's noreply address" \
	"Ada Lovelace <12345+ada@users.noreply.github.com>" \
	as "Ada Lovelace" 12345+ada@users.noreply.github.com "${identity[@]}"
accepted "a host named test under a real domain" \
	"Ada Lovelace <ada@test.kernel.org>" \
	as "Ada Lovelace" ada@test.kernel.org "${identity[@]}"
FROM="Ada Lovelace <ada@kernel.org>" accepted "sendemail.from (b4 send uses it too)" \
	"Ada Lovelace <ada@kernel.org>" \
	as "" "" "${identity[@]}"
exit $fail
