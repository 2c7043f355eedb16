#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the shape of a make bench QUICK=1 sweep (its smoke test).

usage: bench-shape.py results.csv

Reads the results.csv of bench-report.py (the first label's runs of setup
"sweep"; only its columns label, setup, workload, threads, order and
minflt, which no clock renames) and compares the median minor faults of
each order with those of the order before it:

- seq: they halve with each order step, within 3%, since every fault
  maps a whole 2^order-page window of a cached file.
- sparse: they do not change with the order, within 3%, since every
  touch is in a page table of its own.
- mmap-pread-seq with 1 task, if it ran: they halve, as seq's.
- anon, if it ran: they do not change, since no order applies to
  anonymous faults (the control).

Exits 1 if a check fails or the runs of seq or sparse are missing.
"""
import csv
import statistics
import sys

TOLERANCE = 0.03
# workload -> (what each order step does to the faults, which thread
# counts, whether its runs must be there)
SHAPES = {
    "seq": ("halve", None, True),
    "sparse": ("same", None, True),
    "mmap-pread-seq": ("halve", {1}, False),
    "anon": ("same", None, False),
}


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
    # The median, as the report's: one odd run does not move it.
    med = {k: statistics.median(v) for k, v in faults.items()}

    failed = checked = 0

    def check(ok, what):
        nonlocal failed, checked
        checked += 1
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} shape: {what}")

    seen = set()
    for (workload, threads, order), m in sorted(med.items()):
        if workload not in SHAPES:
            continue
        shape, counts, _ = SHAPES[workload]
        if counts and threads not in counts:
            continue
        prev = [o for (w, t, o) in med if (w, t) == (workload, threads) and o < order]
        if not prev:
            continue
        seen.add(workload)
        base = med[(workload, threads, max(prev))]
        word = "task" if workload.startswith("mmap-pread") else "thread"
        if shape == "halve":
            want = base / 2 ** (order - max(prev))
            expect = f"expected {want:.0f} +- 3%"
        else:
            want = base
            expect = "expected no change +- 3%"
        check(abs(m - want) <= TOLERANCE * want,
              f"{workload} {threads} {word}(s): order {max(prev)} -> {order}: "
              f"{base:.0f} -> {m:.0f} minor faults, {expect}")
    for workload, (_, counts, needed) in SHAPES.items():
        if needed and workload not in seen:
            check(False, f"no {workload} runs with two orders or more")
    print(f"shape: {checked - failed}/{checked} checks passed")
    sys.exit(1 if failed or not checked else 0)


if __name__ == "__main__":
    main()
