#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the fault_around KUnit suite on UML with kunit.py; fail unless the
# suite ran, has at least $KUNIT_MIN_CASES cases, and every case passed.
. "$(dirname "$0")/lib.sh"
require_tree

SUITE=fault_around
KUNIT_MIN_CASES=${KUNIT_MIN_CASES:-20}
json=$BUILD/kunit.json
mkdir -p "$BUILD/out"
rm -f "$json"
(cd "$TREE" && ./tools/testing/kunit/kunit.py run \
	--kunitconfig="$TOP/Kconfig.snippets/fault_around.kunitconfig" \
	--build_dir="$BUILD/out/kunit" --jobs="$JOBS" --json="$json" "$SUITE") ||
	die "kunit.py run failed"

python3 - "$json" "$SUITE" "$KUNIT_MIN_CASES" <<'PY'
import json, sys
path, suite, minimum = sys.argv[1], sys.argv[2], int(sys.argv[3])
groups = [g for g in json.load(open(path))["sub_groups"] if g["name"] == suite]
if not groups:
    sys.exit(f"kunit: suite {suite} did not run")
cases = groups[0]["test_cases"]
bad = [c["name"] for c in cases if c["status"] != "PASS"]
print(f"kunit: suite {suite}: {len(cases) - len(bad)}/{len(cases)} cases passed")
if bad:
    sys.exit("kunit: failed: " + ", ".join(bad))
if len(cases) < minimum:
    sys.exit(f"kunit: only {len(cases)} cases, expected at least {minimum}")
PY
