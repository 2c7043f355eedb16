#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the shape of a make bench QUICK=1 sweep (its smoke test).

usage: bench-shape.py results.csv

- seq: the mean minor faults halve with each order step, within 3%, since
  every fault maps a whole 2^order-page window of a cached file.
- sparse: the minor faults do not change with the order, within 3%, since
  every touch is in a page table of its own.

Exits 1 if a check fails or the runs to check are missing.
"""
import csv
import statistics
import sys

TOLERANCE = 0.03


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        rows = [r for r in csv.DictReader(f) if r["setup"] == "sweep"]
    label = rows[0]["label"] if rows else None
    faults = {}
    for r in rows:
        if r["label"] == label:
            key = (r["workload"], int(r["threads"]), int(r["order"]))
            faults.setdefault(key, []).append(int(r["minflt"]))
    mean = {k: statistics.fmean(v) for k, v in faults.items()}

    failed = checked = 0

    def check(ok, what):
        nonlocal failed, checked
        checked += 1
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} shape: {what}")

    for (workload, threads, order), m in sorted(mean.items()):
        prev = [o for (w, t, o) in mean if (w, t) == (workload, threads) and o < order]
        if not prev:
            continue
        base = mean[(workload, threads, max(prev))]
        if workload == "seq":
            want = base / 2 ** (order - max(prev))
            what = f"seq {threads} thread(s): order {max(prev)} -> {order}: " \
                   f"{base:.0f} -> {m:.0f} minor faults, expected {want:.0f} +- 3%"
        elif workload == "sparse":
            want = base
            what = f"sparse {threads} thread(s): order {max(prev)} -> {order}: " \
                   f"{base:.0f} -> {m:.0f} minor faults, expected no change +- 3%"
        else:
            continue
        check(abs(m - want) <= TOLERANCE * want, what)
    for workload in ("seq", "sparse"):
        if not any(w == workload for (w, _, _) in mean):
            check(False, f"no {workload} runs with two orders or more")
    print(f"shape: {checked - failed}/{checked} checks passed")
    sys.exit(1 if failed or not checked else 0)


if __name__ == "__main__":
    main()
