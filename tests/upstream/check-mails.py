#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the mails that make send SEND=1 stored through sendmail-store.

Usage: check-mails.py MAILDIR PATCHES EXPECTED SENDER

MAILDIR holds the stored NNNN.eml and NNNN.rcpt; PATCHES is the series
that was sent (its lab/ the lab-only part); EXPECTED holds, for each
patch file name, the recipients get_maintainer.pl gives it, one a line;
SENDER is "Name <email>".  Prints a PASS or FAIL line per property and
exits 1 if any failed.
"""
import email
import email.policy
import email.utils
import glob
import os
import re
import sys

maildir, patches, expected, sender = sys.argv[1:5]
failed = False


def verdict(ok, what):
    global failed
    print(("PASS" if ok else "FAIL") + " mail: " + what)
    failed |= not ok


def load(path):
    """A stored mail, or a git format-patch file without its mbox line."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"From "):
        data = data.split(b"\n", 1)[1]
    return email.message_from_bytes(data, policy=email.policy.default)


def subject(msg):
    """The subject without its [PATCH ...] tag, white space folded."""
    return re.sub(r"^\[[^]]*\] ", "", " ".join(str(msg["Subject"]).split()))


def addresses(values):
    return {a.lower() for _, a in email.utils.getaddresses(values) if a}


def header(msg, name):
    return " ".join(str(msg.get(name, "")).split())


cover = glob.glob(os.path.join(patches, "0000-*.patch"))[0]
series = sorted(p for p in glob.glob(os.path.join(patches, "[0-9]" * 4 + "-*.patch"))
                if p != cover)
lab = sorted(glob.glob(os.path.join(patches, "lab", "[0-9]" * 4 + "-*.patch")))
mails = {}
for path in sorted(glob.glob(os.path.join(maildir, "*.eml"))):
    msg = load(path)
    with open(path[:-4] + ".rcpt") as f:
        msg.envelope = {a.lower() for a in f.read().split() if "@" in a}
    mails[subject(msg)] = msg

sent = {p: mails[subject(load(p))] for p in [cover] + series
        if subject(load(p)) in mails}
verdict(len(mails) == len(series) + 1 and len(sent) == len(mails),
        f"{len(mails)} mails stored, {len(sent)} of them the cover letter and"
        f" the {len(series)} patches")
if cover not in sent:
    sys.exit(1)

cover_id = header(sent[cover], "Message-Id")
name, addr = email.utils.parseaddr(sender)
for p, msg in sent.items():
    problems = []
    if p != cover:
        if not (header(msg, "In-Reply-To") == cover_id == header(msg, "References")):
            problems.append(f"not threaded under the cover letter {cover_id}")
        if f"Signed-off-by: {sender}" not in msg.get_content():
            problems.append("no Signed-off-by of the sender")
    if email.utils.parseaddr(str(msg["From"])) != (name, addr):
        problems.append(f"From {msg['From']}, not the sender")
    rcpt = addresses([str(v) for h in ("To", "Cc") for v in msg.get_all(h, [])])
    with open(os.path.join(expected, os.path.basename(p))) as f:
        want = addresses(f.read().splitlines())
    if not want or not want <= rcpt:
        problems.append(f"To/Cc lacks {sorted(want - rcpt) or 'recipients'}")
    if not rcpt <= msg.envelope:
        problems.append(f"envelope lacks {sorted(rcpt - msg.envelope)}")
    good = (f"From the sender, To/Cc ({len(rcpt)}) has its {len(want)}"
            " get_maintainer.pl recipients")
    if p != cover:
        good = "in reply to the cover letter, signed off by the sender, " + good
    verdict(not problems, os.path.basename(p) + ": " + ("; ".join(problems) or good))

lab_subjects = {subject(load(p)) for p in lab}
verdict(not lab_subjects & set(mails),
        f"none of the {len(lab)} lab-only patches was sent")
sys.exit(1 if failed else 0)
