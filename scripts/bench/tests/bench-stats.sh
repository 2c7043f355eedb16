#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Usage: bench-stats.sh
# make bench-stats: the tests of the bench's statistics, in seconds:
# scripts/bench/benchstats.py's estimators (hand-checked cases, and a
# simulation of coverage and false positives under nested noise, which
# the old run-level method must fail), each part of bench-report.py
# (scripts/bench/benchreport/) and the report end to end on synthetic runs, and
# pressure-report.py's adaptive-policy goal, and bound-report.py's goals
# (FOLIOS=1 BOUND=1).  No QEMU, no kernel tree;
# build/ untouched.
tmp=$(mktemp -d) || exit
trap 'rm -rf "$tmp"' EXIT
export O=$tmp/build	# lib.sh makes $BUILD: a throwaway one
. "$(dirname "$0")/../../lib.sh"	# Debian's python3 first

cd "$TOP/scripts/bench/tests" || exit
python3 -m unittest -v test_benchstats test_bench_report_data test_bench_report_parts test_bench_report test_pressure_report test_bound_report
