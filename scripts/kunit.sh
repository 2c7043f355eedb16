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

# target     kunit.py arguments (the geometry each must report: lib.sh)
targets="
um           --arch=um --kunitconfig=$TOP/Kconfig.snippets/kunit-um.kunitconfig
arm64-16k    --arch=arm64 --cross_compile=aarch64-linux-gnu- --kconfig_add CONFIG_ARM64_16K_PAGES=y
arm64-64k    --arch=arm64 --cross_compile=aarch64-linux-gnu- --kconfig_add CONFIG_ARM64_64K_PAGES=y
ppc64-radix  --qemu_config=$TOP/tests/kunit/powerpc64le_radix_64k.py --cross_compile=powerpc64le-linux-gnu-
arm          --arch=arm --cross_compile=arm-linux-gnueabihf-
"
want=${*:-${KUNIT_TARGETS:-}}
fail=0
mkdir -p "$BUILD/out$BASE_SUFFIX"
while read -r name args; do
	[ -n "$name" ] || continue
	[ -z "$want" ] || [[ " $want " == *" $name "* ]] || continue
	geo=$(geometry "$name") || die "no geometry for $name in lib.sh"
	read -r page_size ptes <<< "$geo"
	json=$BUILD/kunit-$name$BASE_SUFFIX.json raw=$BUILD/kunit-$name$BASE_SUFFIX.ktap
	rm -f "$json" "$raw"
	log "kunit: $name"
	# The raw KTAP keeps the suite's own lines (its geometry); kunit.py
	# parse then judges it the way kunit.py run would.
	# shellcheck disable=SC2086 # $args is a list of options
	if ! (cd "$TREE" && ./tools/testing/kunit/kunit.py run \
		--kunitconfig="$TOP/Kconfig.snippets/fault_around.kunitconfig" \
		--build_dir="$BUILD/out$BASE_SUFFIX/kunit-$name" --jobs="$JOBS" \
		--raw_output=kunit $args "$SUITE" > "$raw" 2> "$raw.err" &&
	      ./tools/testing/kunit/kunit.py parse --json="$json" "$raw" \
		> "$BUILD/kunit-$name$BASE_SUFFIX.log" 2>&1); then
		tail -n 40 "$raw.err" "$BUILD/kunit-$name$BASE_SUFFIX.log"
		echo "FAIL kunit fault_around on $name: kunit.py failed (logs: $raw, $raw.err)"
		fail=1
		continue
	fi
	# Where the order it booted with must come from: the lab patches
	# define arch_fault_around_bytes() on pseries and 32-bit ARM.
	case $name in
	ppc64-radix|arm) source="the platform" ;;
	*) source=CONFIG_FAULT_AROUND_ORDER ;;
	esac
	python3 - "$json" "$raw" "$SUITE" "$KUNIT_MIN_CASES" "$name" \
		"geometry: PAGE_SIZE $page_size PTRS_PER_PTE $ptes " "$source" <<'PY' || fail=1
import json, re, sys
path, raw, suite, minimum, name, geometry, source = sys.argv[1:]
def fail(why):
    sys.exit(f"FAIL kunit {suite} on {name}: {why}")
groups = [g for g in json.load(open(path))["sub_groups"] if g["name"] == suite]
if not groups:
    fail("the suite did not run")
cases = groups[0]["test_cases"]
bad = [c["name"] for c in cases if c["status"] not in ("PASS", "SKIP")]
skipped = [c["name"] for c in cases if c["status"] == "SKIP"]
if bad:
    fail("failed: " + ", ".join(bad))
if len(cases) < int(minimum):
    fail(f"only {len(cases)} cases, expected at least {minimum}")
text = open(raw, errors="replace").read()
if geometry not in text:
    fail(f"the kernel did not report '{geometry.strip()}'")
booted = re.search(r"fault-around: \d+ bytes \(order \d+\) from [^\r\n]*", text)
if not booted:
    fail("the kernel did not report the order it booted with")
booted = booted.group(0).strip()
if f"from {source}" not in booted:
    fail(f"'{booted}': expected it from {source}")
# One line, and only once every check passed: make test's summary lists it.
print(f"PASS kunit {suite} on {name} ({len(cases) - len(skipped)}/{len(cases)}"
      f" cases, {len(skipped)} skipped"
      + (f": {', '.join(skipped)}" if skipped else "")
      + f"; {geometry.strip()}; {booted})")
PY
done <<< "$targets"
exit $fail
