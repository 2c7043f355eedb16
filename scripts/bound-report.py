#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""vm.fault_around_bound=1 against 0, from make bench FOLIOS=1 BOUND=1.

usage: bound-report.py --out DIR [--meta KEY=VALUE]... RUNS.csv[,RUNS.csv]...

sweep.sh -c runs every order twice in each repetition, shuffled with the
others: setup "sweep" with vm.fault_around_bound=0 ("whole": 7.3 maps a
large folio whole) and setup "bound" with 1.  Each CSV is one boot.

Per workload, thread count and order, each boot is summarised by the
median of its runs, and bound is compared with whole paired by boot, as
scripts/benchstats.py does for make bench's report: change = (bound -
whole) / whole, a 95% t interval on B - 1 degrees of freedom, for the
figure (the --meta clock's: guest instructions under -icount) and for
the faults; "+-1%" is the figure's TOST (inside: equivalent within +-1%,
outside: different by more, blank: neither shown).  Pages mapped (Rss)
and pages mapped and never read, which may be 0, are compared by the
boots' mean difference.  Per fault is each run's Rss / faults: the
median over the runs and the most.

Then the goals of Documentation/large-folios.rst that such a run can
judge, each MET or MISSED: 1 (a sparse reader of ext4 in large folios
maps no more than the window per fault with the bound, in every run, and
leaves fewer pages unread wherever the folio is larger than the window)
and 2 (seq on the same file at the default order, bound against whole
equivalent within +-1%).  A missed goal is reported, never an error.
Prints the text and writes DIR/bound.json.
"""
import argparse
import json
import os
import statistics
import sys

import benchstats
from benchreport.data import load, units

SETUPS = ("sweep", "bound")
# Goal 1's readers: sparse, and the held-out stride64k, on ext4 as a
# sequential read left it (large folios).
GOAL1 = ("sparse@ext4-ra", "stride64k@ext4-ra")
GOAL2 = "seq@ext4-ra"


def per_fault(r):
    """Rss / faults of one run; None without either."""
    f = r["minflt"] + r["majflt"]
    return r["mapped"] / f if f > 0 and r["mapped"] > 0 else None


def group(rows):
    """{(workload, threads, order): {setup: {boot: [runs]}}}"""
    g = {}
    for r in rows:
        if r["setup"] in SETUPS:
            k = (r["workload"], r["threads"], r["order"])
            g.setdefault(k, {}).setdefault(r["setup"], {}).setdefault(
                r["boot"], []).append(r)
    return g


def compare(whole, bound):
    """One cell: bound against whole over the boots both ran in."""
    boots = sorted(set(whole) & set(bound))

    def med(side, f):
        return [statistics.median(f(r) for r in side[b]) for b in boots]

    def pf(side):
        v = [x for b in boots for x in map(per_fault, side[b]) if x]
        return (statistics.median(v), max(v)) if v else None

    fig = benchstats.paired_ratio(med(bound, lambda r: r["ns"]),
                                  med(whole, lambda r: r["ns"]))
    faults = benchstats.paired_ratio(
        med(bound, lambda r: r["minflt"] + r["majflt"]),
        med(whole, lambda r: r["minflt"] + r["majflt"]))
    c = {"boots": len(boots), "figure": fig, "faults": faults,
         "tost": benchstats.tost(fig).side,
         "per_fault": {"whole": pf(whole), "bound": pf(bound)}}
    for f in ("mapped", "unread"):
        w, b = med(whole, lambda r: r[f]), med(bound, lambda r: r[f])
        if min(w + b, default=-1) < 0:	# not measured
            continue
        c[f] = {"whole": statistics.median(w), "bound": statistics.median(b),
                "diff": benchstats.mean_diff([y - x for x, y in zip(w, b)])}
    return c


def pct(r):
    if r.est != r.est:
        return "-"
    s = f"{r.chg():+.2f}%"
    return s if r.lo != r.lo else s + f" [{(r.lo - 1) * 100:+.2f}, {(r.hi - 1) * 100:+.2f}]"


def pf_text(p):
    return "-" if not p else f"{p[0]:.2f} ({p[1]:.2f})"


def table(key, cells, u):
    w, t = key
    n = max(c["boots"] for c in cells.values())
    out = [f"{w}, {t} thread{'s' if t > 1 else ''} ({n} boots; change = "
           f"(bound - whole) / whole, {u['name']})",
           f"{'order':>5}  {'per fault whole':>16}  {'per fault bound':>16}  "
           f"{'unread whole':>12}  {'unread bound':>12}  {'faults %chg':>12}  "
           f"{u['unit'] + ' %chg [95% CI]':>28}  +-1%"]
    for o in sorted(cells):
        c = cells[o]
        un = c.get("unread")
        out.append(
            f"{o:>5}  {pf_text(c['per_fault']['whole']):>16}  "
            f"{pf_text(c['per_fault']['bound']):>16}  "
            f"{fmt_count(un, 'whole'):>12}  {fmt_count(un, 'bound'):>12}  "
            f"{pct(c['faults']).split(' ')[0]:>12}  {pct(c['figure']):>28}  "
            f"{c['tost'] or ''}")
    return out


def fmt_count(c, side):
    return "-" if not c else f"{c[side]:,.0f}"


def goals(by, default):
    """Goals 1 and 2: (name, met or None if not run, why)."""
    res = []
    for w in GOAL1:
        cells = {o: c for (wl, _t, o), c in by.items() if wl == w}
        if not cells:
            res.append((f"1 ({w})", None, "not in this run"))
            continue
        over = [o for o, c in cells.items() if c["per_fault"]["bound"] and
                c["per_fault"]["bound"][1] > 2 ** o + 1e-9]
        # Where whole maps more than the window, unread must fall.
        wider = [o for o, c in cells.items() if c["per_fault"]["whole"] and
                 c["per_fault"]["whole"][0] > 2 ** o + 1e-9]
        kept = [o for o in wider if "unread" not in cells[o] or
                not cells[o]["unread"]["diff"].hi < 0]
        why = (f"per fault above 2^order with the bound at orders {over}"
               if over else "per fault at most 2^order in every run")
        why += (f"; unread not shown to fall at orders {kept}" if kept else
                f"; unread falls at every order the folio exceeds ({wider})")
        res.append((f"1 ({w})", not over and not kept, why))
    c = next((c for (wl, _t, o), c in by.items()
              if wl == GOAL2 and o == default), None)
    if c is None:
        res.append((f"2 ({GOAL2}, order {default})", None, "not in this run"))
    else:
        res.append((f"2 ({GOAL2}, order {default})", c["tost"] == "inside",
                    f"{pct(c['figure'])}, TOST +-1%: "
                    f"{c['tost'] or 'neither equivalent nor different'}"))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("runs")
    args = ap.parse_args()
    meta = dict(m.split("=", 1) for m in args.meta if "=" in m)
    u = units(meta.get("clock", "native"), meta.get("qemu"))
    rows, _ = load("bound", args.runs)
    g = group(rows)
    by = {k: compare(v["sweep"], v["bound"]) for k, v in g.items()
          if set(v) == set(SETUPS)}
    if not by:
        sys.exit("bound-report: no cell ran with both settings "
                 "(setups sweep and bound: sweep.sh -c)")
    given = meta.get("default_order", "")
    default = int(given) if given.isdigit() else 4
    out = ["vm.fault_around_bound: 1 (bound) against 0 (whole), paired by boot"]
    out += [f"  {k}: {v}" for k, v in meta.items()]
    for key in dict.fromkeys((w, t) for w, t, _o in by):
        out += [""] + table(key, {o: c for (w, t, o), c in by.items()
                                  if (w, t) == key}, u)
    out += ["", "Goals (Documentation/large-folios.rst), fixed before the runs:"]
    res = goals(by, default)
    for name, met, why in res:
        verdict = "not run" if met is None else "MET" if met else "MISSED"
        out.append(f"  goal {name}: {verdict}: {why}")
    print("\n".join(out))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bound.json"), "w") as f:
        json.dump({"meta": meta, "unit": u["name"],
                   "cells": [{"workload": w, "threads": t, "order": o,
                              **jsonable(c)} for (w, t, o), c in by.items()],
                   "goals": [{"goal": n, "met": m, "why": y}
                             for n, m, y in res]}, f, indent=1)


def jsonable(x):
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if hasattr(x, "__dataclass_fields__"):
        return {k: jsonable(getattr(x, k)) for k in ("est", "lo", "hi", "p")}
    if isinstance(x, float) and x != x:
        return None
    return x


if __name__ == "__main__":
    main()
