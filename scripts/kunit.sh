#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the fault_around KUnit suite with kunit.py on every geometry the series
# must hold on; fail unless, on each, the suite ran with at least
# $KUNIT_MIN_CASES cases, none failed, and the kernel had the page size and
# page-table size the target is for.
# Usage: kunit.sh [target...]  (default: all; KUNIT_TARGETS also selects)
. "$(dirname "$0")/lib.sh"
require_tree

SUITE=fault_around
KUNIT_MIN_CASES=${KUNIT_MIN_CASES:-15}

# target     PAGE_SIZE PTRS_PER_PTE  kunit.py arguments
targets="
um           4096      512           --arch=um
arm64-16k    16384     2048          --arch=arm64 --cross_compile=aarch64-linux-gnu- --kconfig_add CONFIG_ARM64_16K_PAGES=y
arm64-64k    65536     8192          --arch=arm64 --cross_compile=aarch64-linux-gnu- --kconfig_add CONFIG_ARM64_64K_PAGES=y
ppc64-radix  65536     32            --qemu_config=$TOP/tests/kunit/powerpc64le_radix_64k.py --cross_compile=powerpc64le-linux-gnu-
arm          4096      512           --arch=arm --cross_compile=arm-linux-gnueabihf-
"
want=${*:-${KUNIT_TARGETS:-}}
fail=0
mkdir -p "$BUILD/out"
while read -r name page_size ptes args; do
	[ -n "$name" ] || continue
	[ -z "$want" ] || [[ " $want " == *" $name "* ]] || continue
	json=$BUILD/kunit-$name.json raw=$BUILD/kunit-$name.ktap
	rm -f "$json" "$raw"
	log "kunit: $name"
	# The raw KTAP keeps the suite's own lines (its geometry); kunit.py
	# parse then judges it the way kunit.py run would.
	# shellcheck disable=SC2086 # $args is a list of options
	if ! (cd "$TREE" && ./tools/testing/kunit/kunit.py run \
		--kunitconfig="$TOP/Kconfig.snippets/fault_around.kunitconfig" \
		--build_dir="$BUILD/out/kunit-$name" --jobs="$JOBS" \
		--raw_output=kunit $args "$SUITE" > "$raw" 2> "$raw.err" &&
	      ./tools/testing/kunit/kunit.py parse --json="$json" "$raw" \
		> "$BUILD/kunit-$name.log" 2>&1); then
		tail -n 40 "$raw.err" "$BUILD/kunit-$name.log"
		echo "kunit: $name: kunit.py failed (logs: $raw, $raw.err)"
		fail=1
		continue
	fi
	python3 - "$json" "$raw" "$SUITE" "$KUNIT_MIN_CASES" "$name" \
		"geometry: PAGE_SIZE $page_size PTRS_PER_PTE $ptes " <<'PY' || fail=1
import json, sys
path, raw, suite, minimum, name, geometry = sys.argv[1:]
groups = [g for g in json.load(open(path))["sub_groups"] if g["name"] == suite]
if not groups:
    sys.exit(f"kunit: {name}: suite {suite} did not run")
cases = groups[0]["test_cases"]
bad = [c["name"] for c in cases if c["status"] not in ("PASS", "SKIP")]
skipped = [c["name"] for c in cases if c["status"] == "SKIP"]
print(f"kunit: {name}: suite {suite}: {len(cases) - len(bad) - len(skipped)}"
      f"/{len(cases)} cases passed, {len(skipped)} skipped"
      + (f" ({', '.join(skipped)})" if skipped else ""))
if bad:
    sys.exit(f"kunit: {name}: failed: " + ", ".join(bad))
if len(cases) < int(minimum):
    sys.exit(f"kunit: {name}: only {len(cases)} cases, expected at least {minimum}")
if geometry not in open(raw, errors="replace").read():
    sys.exit(f"kunit: {name}: the kernel did not report '{geometry.strip()}'")
print(f"kunit: {name}: {geometry.strip()}")
PY
done <<< "$targets"
exit $fail
