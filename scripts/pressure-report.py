#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Report make bench PRESSURE=1: what pages mapped ahead cost reclaim.

usage: pressure-report.py --out DIR [--meta KEY=VALUE]... patched=RUNS.csv[,RUNS.csv]...

The runs are sweep.sh -M's: workload hotcold (a hot file re-read at
random after each chunk of a stream read in order, both on ext4, in a
cgroup v2 memory.max below their pages) and hotcold@unlimited (the same
with memory.max=max), every order, in several boots (one CSV a boot).

Each boot is the replicate (scripts/benchstats.py): a boot's value for a
cell (workload, order) is the median of its runs; a count's level is the
mean of the boots' values with its t interval (B - 1 df); the figure's
ratios to order 0 are benchstats.paired_ratio's; the figure's
differences in M insn, paired t intervals of the boots' differences.

What fault-around saves and what reclaim costs, per order o against
order 0, from the figure (guest instructions under -icount: the reclaim
work, the refaults and the loop device's reads are instructions too):
  saves(o)   = unlimited(0) - unlimited(o)
  reclaim(o) = [limited(o) - unlimited(o)] - [limited(0) - unlimited(0)]
  net(o)     = saves(o) - reclaim(o) = limited(0) - limited(o)
Reclaim costs more than fault-around saves at order o when net(o) < 0
with its whole interval: the window beyond which it does is the smallest
such order.  The pages mapped ahead (fault_around_mapped) end one of
three ways, from fa-bench's look at the page table before each read:
read while still mapped (hits), still mapped and never read at the end
(unread), or unmapped before a read, reclaimed (the rest).

Prints the report and writes DIR/results.csv and DIR/results.json.
"""
import argparse
import csv
import json
import math
import statistics
import sys
from collections import defaultdict

import numpy as np

import benchstats as bs

CONF = 0.95
ALPHA = 0.05
LIMITED, FREE = "hotcold", "hotcold@unlimited"
# The tables' columns: the figure and the pages' fates, then the reclaim
# counts.  psi_* are microseconds of the guest's clock (under -icount,
# instructions / 1000).
TABLES = [
    [("ns", "M insn"), ("chg", "%chg vs 0"), ("minflt", "minor faults"),
     ("majflt", "major faults"), ("fa_mapped", "fa-mapped"),
     ("hits", "read mapped"), ("unread", "never read"),
     ("ahead_reclaimed", "reclaimed unread"),
     ("reclaimed_read", "reclaimed, reread")],
    [("pgscan", "pgscan"), ("pgsteal", "pgsteal"), ("pgactivate", "pgactivate"),
     ("pgdeactivate", "pgdeactivate"),
     ("workingset_refault_file", "refault_file"),
     ("workingset_activate_file", "wset_activate_file"),
     ("slabs_scanned", "slabs_scanned"), ("allocstall", "allocstall")],
    [("memcg_pgscan", "memcg pgscan"), ("memcg_pgsteal", "memcg pgsteal"),
     ("memcg_pgactivate", "memcg pgactivate"),
     ("memcg_workingset_refault_file", "memcg refault_file"),
     ("memcg_max", "memory.events max"), ("memcg_oom", "memory.events oom"),
     ("psi_some_us", "PSI some us"), ("psi_full_us", "PSI full us")],
]


def load(paths):
    """{(workload, order): [per-boot list of run dicts]}, boots in order."""
    cells = defaultdict(lambda: [[] for _ in paths])
    for b, path in enumerate(paths):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["setup"] != "sweep":
                    continue
                row = {k: (v if k in ("workload", "setup") else float(v))
                       for k, v in r.items()}
                fa, hits, unread = row["fa_mapped"], row["hits"], row["unread"]
                row["ahead_reclaimed"] = (fa - hits - unread
                                          if min(fa, hits, unread) >= 0 else -1)
                cells[(row["workload"], int(row["order"]))][b].append(row)
    return cells


def per_boot(cell, field):
    """The boots' medians of a field; None if a boot has no runs or the
    field is not measured (-1)."""
    vals = []
    for runs in cell:
        xs = [r[field] for r in runs if field in r]
        if not xs or min(xs) < 0:
            return None
        vals.append(statistics.median(xs))
    return np.array(vals)


def mean_t(x, conf=CONF):
    """benchstats.mean_diff as a tuple: (mean, lo, hi, p)."""
    r = bs.mean_diff(x, conf)
    return r.est, r.lo, r.hi, r.p


def fmt(x, digits=0):
    if x != x:
        return "-"
    if digits:
        return f"{x:,.{digits}f}"
    return f"{x:,.0f}"


def fmt_ci(m, lo, hi, digits=0):
    return f"{fmt(m, digits)} [{fmt(lo, digits)}, {fmt(hi, digits)}]"


def null_nan(x):
    """JSON has no NaN: an undefined number is null."""
    if isinstance(x, dict):
        return {str(k): null_nan(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [null_nan(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return None if x != x else float(x)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--aa", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    meta = dict(m.split("=", 1) for m in a.meta)
    paths = a.sets[0].split("=", 1)[1].split(",")
    cells = load(paths)
    boots = len(paths)
    orders = sorted({o for (w, o) in cells})
    icount = meta.get("clock") == "icount"
    unit = "M insn (guest instructions under QEMU -icount, not time)" if icount \
        else f"ms ({meta.get('clock', 'native')} clock)"
    scale = 1e6
    out = []
    p = out.append
    p("make bench PRESSURE=1: what pages mapped ahead cost reclaim")
    for k in ("kernel", "config", "cpu", "qemu", "clock", "commit", "sweep"):
        if k in meta:
            p(f"  {k}: {meta[k]}")
    p(f"  boots: {boots} (the replicate); per boot, each cell's value is the "
      "median of its runs")
    p(f"  figure: {unit}; counts are the kernel's own (/proc/vmstat, whose "
      "pgscan and pgsteal count global reclaim only, and the cgroup's "
      "memory.stat and memory.events, which count its limit's), which emulation "
      "does not distort; PSI (memory.pressure) is stall time by the guest's "
      "clock, in us: under -icount, thousands of instructions")
    p(f"  intervals: {CONF:.0%} t intervals over boots (B - 1 df); ratios "
      "(new - baseline) / baseline against order 0, negative is less; marks "
      "'*' where the Holm-adjusted p over this report is below "
      f"{ALPHA}, '~' otherwise (not shown, not 'no effect')")
    p("")

    results = {"meta": meta, "boots": boots, "cells": [], "verdicts": {}}
    # Every test of the report, for Holm: (key, p).
    tests = {}
    fig = {}
    for w in (LIMITED, FREE):
        for o in orders:
            if (w, o) in cells:
                v = per_boot(cells[(w, o)], "ns")
                if v is not None:
                    fig[(w, o)] = v / scale
    for w in (LIMITED, FREE):
        for o in orders:
            if o and (w, o) in fig and (w, 0) in fig:
                tests[("ratio", w, o)] = bs.paired_ratio(fig[(w, o)], fig[(w, 0)], CONF)
    net = {}
    for o in orders:
        if o and all((w, x) in fig for w in (LIMITED, FREE) for x in (0, o)):
            saves = fig[(FREE, 0)] - fig[(FREE, o)]
            rec = (fig[(LIMITED, o)] - fig[(FREE, o)]) - (fig[(LIMITED, 0)] - fig[(FREE, 0)])
            net[o] = (mean_t(saves), mean_t(rec), mean_t(saves - rec))
            tests[("net", o)] = net[o][2][3]
    keys = list(tests)
    adj = dict(zip(keys, bs.holm([t.p if isinstance(t, bs.Ratio) else t
                                  for t in tests.values()])))

    def mark(key):
        q = adj.get(key, math.nan)
        return "*" if q == q and q < ALPHA else "~"

    for w in (LIMITED, FREE):
        present = [o for o in orders if (w, o) in cells]
        if not present:
            continue
        runs = sum(len(r) for o in present for r in cells[(w, o)])
        p(f"{w} ({'memory.max below its pages' if w == LIMITED else 'no memory limit'}; "
          f"{runs} runs): per order, the mean over boots +- the half-width of "
          "its 95% CI")
        for group in TABLES:
            fields = [(f, n) for f, n in group if f == "chg" or any(
                per_boot(cells[(w, o)], f) is not None for o in present)]
            if not fields:
                continue
            p("  order " + "".join(f"{n:>{max(len(n), 14) + 2}}" for _, n in fields))
            for o in present:
                vals = []
                for f, n in fields:
                    v = fig.get((w, o)) if f == "ns" else per_boot(cells[(w, o)], f)
                    width = max(len(n), 14) + 2
                    if f == "chg":
                        r = tests.get(("ratio", w, o))
                        x = "baseline" if o == 0 else "-" if r is None else \
                            f"{r.chg():+.2f}% {mark(('ratio', w, o))}"
                        vals.append(f"{x:>{width}}")
                        continue
                    if v is None:
                        vals.append(f"{'-':>{width}}")
                        continue
                    m, lo, hi, _ = mean_t(v)
                    d = 3 if f == "ns" else 0
                    h = (hi - lo) / 2 if hi == hi else math.nan
                    vals.append(f"{fmt(m, d) + ' +-' + fmt(h, d):>{width}}")
                    results["cells"].append({"workload": w, "order": o, "field": f,
                                             "mean": m, "lo": lo, "hi": hi,
                                             "boots": [float(x) for x in v]})
                p(f"  {o:>5} " + "".join(vals))
            p("")

    p("Fault-around's saving against reclaim's cost, per order against order 0 "
      f"({unit.split(' (')[0]}, mean over boots [95% CI]):")
    p("  saves = unlimited(0) - unlimited(o); reclaim = extra cost of the limit at o "
      "over that at 0; net = saves - reclaim = limited(0) - limited(o)")
    worse = None
    for o in sorted(net):
        s, r, n = net[o]
        p(f"  order {o:>2}: saves {fmt_ci(*s[:3], 3)}  reclaim {fmt_ci(*r[:3], 3)}  "
          f"net {fmt_ci(*n[:3], 3)} {mark(('net', o))}")
        if worse is None and n[2] < 0 and mark(("net", o)) == "*":
            worse = o
    lim = {o: fig[(LIMITED, o)] for o in orders if (LIMITED, o) in fig}
    pick = bs.stable_pick(lim, 0.01, CONF) if len(lim) > 1 else None
    verdict = results["verdicts"]
    if pick:
        stab = {True: "stable", False: "unstable", None: "stability not tested"}
        p(f"  under the limit: best order {pick['best']} "
          f"({stab[pick['best_stable']]}"
          f"{': leaving a boot out gives ' + ', '.join(map(str, pick['best_moves'])) if pick['best_moves'] else ''}), "
          f"recommended {pick['recommended']} (the smallest shown within 1% of the best; "
          f"{stab[pick['rec_stable']]})")
        verdict.update(best=pick["best"], recommended=pick["recommended"],
                       best_stable=pick["best_stable"], rec_stable=pick["rec_stable"])
    if worse is None:
        p("  reclaim costs more than fault-around saves at no order measured "
          f"(no net shown below 0 after Holm, orders up to {max(orders)})")
    else:
        p(f"  reclaim costs more than fault-around saves from order {worse} "
          f"({1 << worse} pages a window; net shown below 0 after Holm)")
    verdict["window_net_negative_from"] = worse
    verdict["net"] = {o: {"saves": net[o][0][:3], "reclaim": net[o][1][:3],
                          "net": net[o][2][:3], "mark": mark(("net", o))}
                      for o in net}
    p("")
    text = "\n".join(out)
    print(text)
    with open(f"{a.out}/results.json", "w") as f:
        json.dump(null_nan(results), f, indent=1)
    with open(f"{a.out}/results.csv", "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["workload", "order", "field", "mean", "lo", "hi", "boots"])
        for c in results["cells"]:
            wr.writerow([c["workload"], c["order"], c["field"], c["mean"], c["lo"],
                         c["hi"], " ".join(f"{x:g}" for x in c["boots"])])
    return 0


if __name__ == "__main__":
    sys.exit(main())
