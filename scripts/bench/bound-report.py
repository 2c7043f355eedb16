#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""vm.fault_around_bound=1 against 0, from make bench FOLIOS=1 BOUND=1.

usage: bound-report.py --out DIR [--meta KEY=VALUE]... RUNS.csv[,RUNS.csv]...

sweep.sh -c runs every order twice in each repetition, shuffled with the
others: setup "sweep" with vm.fault_around_bound=0 ("whole": 7.3 maps a
large folio whole) and setup "bound" with 1.  Each CSV is one boot.
--meta keys as bench-report.py's; it reads clock, qemu, sweep (the page
size) and "folios <workload>" (the folio sizes, order:pages).

Per workload, thread count and order, each boot is summarised by the
median of its runs, and bound is compared with whole paired by boot, as
scripts/bench/benchstats.py does for make bench's report: change = (bound -
whole) / whole, a 95% t interval on B - 1 degrees of freedom, for the
figure (the clock's: guest instructions under -icount) and the faults;
the figure's TOST at +-1% from its 90% interval (inside: equivalent
within +-1%, outside: different by more, blank: neither shown).  Pages
mapped and never read may be 0: their change is each boot's (bound -
whole) / whole, averaged, with the same t.  Per fault is each run's Rss
/ faults: the median over the runs and the most.  The tables are
descriptive: one interval a cell, not adjusted for their number.

Then the goals of Documentation/large-folios.rst that such a run can
judge, each MET, MISSED or NOT JUDGED (and why): 1, a sparse reader of
ext4 in large folios (sparse@ext4-ra; stride64k@ext4-ra, held out, is
judged but never tunes): with the bound, in every run at every order
from 0 to a page table, Rss / faults and (fault_around_mapped + faults)
/ faults at most 2^order, and the change in pages mapped and never read
has its 95% interval below 0 at every order below the largest folio
order of the file; 2, seq@ext4-ra, one thread, at the 64KiB window:
bound against whole equivalent within +-1% (TOST), and so the held-out
sequential readers fio-read@ext4-ra and mmap-xread-seq-mt@ext4-ra,
public rows (judged, never tuned on); 3, the controls
(anon, page_fault2, page_fault3): bound against whole equivalent within
+-1% in every cell of theirs that ran (the goal's other half, against
the kernel without the patch, is make bench AB=1 AB_PATCHES=16-16's
report).  A missed goal is
reported, never an error.  Prints the text and writes DIR/bound.json.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys

import benchstats
from benchreport.data import folio_order, load, per_fault, units
from benchreport.fmt import fit, fmt_int

SETUPS = ("sweep", "bound")
GOAL1 = ("sparse@ext4-ra", "stride64k@ext4-ra")
GOAL2_HELDOUT = ("fio-read@ext4-ra", "mmap-xread-seq-mt@ext4-ra")
HELDOUT = ("stride64k@ext4-ra",) + GOAL2_HELDOUT
GOAL2 = ("seq@ext4-ra",) + GOAL2_HELDOUT
GOAL2_BYTES = 65536	# the default window the goal names
GOAL3 = ("anon", "page_fault2", "page_fault3")
EPS = 1e-9


def faults(r):
    return r["minflt"] + r["majflt"]


def fa_per_fault(r):
    """(fault_around_mapped + faults) / faults; None without the counter."""
    return ((r["fa_mapped"] + faults(r)) / faults(r)
            if faults(r) > 0 and r["fa_mapped"] >= 0 else None)


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
    """One cell: bound against whole over the boots both ran in; per
    fault over every run of each."""
    boots = sorted(set(whole) & set(bound))

    def med(side, f):
        return [statistics.median(f(r) for r in side[b]) for b in boots]

    def pf(side):
        v = [per_fault(r) for b in side for r in side[b]]
        return (statistics.median(v), max(v)) if v and None not in v else None

    fig = benchstats.paired_ratio(med(bound, lambda r: r["ns"]),
                                  med(whole, lambda r: r["ns"]))
    c = {"boots": len(boots), "figure": fig,
         "faults": benchstats.paired_ratio(med(bound, faults),
                                           med(whole, faults)),
         "tost": benchstats.tost(fig),
         "per_fault": {"whole": pf(whole), "bound": pf(bound)},
         "fa_per_fault_max": max(
             (x if x is not None else math.inf for b in bound
              for x in map(fa_per_fault, bound[b])), default=None)}
    runs = [r for side in (whole, bound) for b in boots for r in side[b]]
    if boots and all(r["unread"] >= 0 for r in runs):
        w, b = med(whole, lambda r: r["unread"]), med(bound, lambda r: r["unread"])
        c["unread"] = {"whole": statistics.median(w),
                       "bound": statistics.median(b),
                       "change": (benchstats.mean_diff(
                           [(y - x) / x for x, y in zip(w, b)])
                           if min(w) > 0 else None)}
    return c


def pct(lo, hi):
    return f"[{(lo - 1) * 100:+.2f}, {(hi - 1) * 100:+.2f}]" if lo == lo else ""


def chg(r):
    return "-" if r.est != r.est else f"{r.chg():+.2f}% {pct(r.lo, r.hi)}".strip()


def pf_text(p):
    return "-" if not p else f"{p[0]:.2f} ({p[1]:.2f})"


def unread_chg(c):
    m = (c.get("unread") or {}).get("change")
    if not m or m.est != m.est:
        return "-"
    return (f"{m.est * 100:+.1f}%" +
            (f" [{m.lo * 100:+.1f}, {m.hi * 100:+.1f}]" if m.lo == m.lo else ""))


def table(key, cells):
    """A workload's two tables, pages then cost, a row per order each:
    together they would not fit 100 columns."""
    w, t = key
    n = max(c["boots"] for c in cells.values())
    out = [f"{w}, {t} thread{'s' if t > 1 else ''} ({n} boots, paired)",
           f"{'order':>5}  {'per fault whole':>16}  {'per fault bound':>16}  "
           f"{'unread whole':>12}  {'unread bound':>12}  "
           f"{'unread %chg [95% CI]':>22}"]
    for o in sorted(cells):
        c = cells[o]
        out.append(
            f"{o:>5}  {pf_text(c['per_fault']['whole']):>16}  "
            f"{pf_text(c['per_fault']['bound']):>16}  "
            f"{fmt_int((c.get('unread') or {}).get('whole')):>12}  "
            f"{fmt_int((c.get('unread') or {}).get('bound')):>12}  "
            f"{unread_chg(c):>22}")
    out += ["", f"{'order':>5}  {'faults %chg':>11}  "
            f"{'figure %chg [95% CI]':>28}  {'90% CI':>18}  +-1%"]
    for o in sorted(cells):
        c = cells[o]
        tt = c["tost"]
        out.append(
            f"{o:>5}  {chg(c['faults']).split(' ')[0]:>11}  "
            f"{chg(c['figure']):>28}  {pct(tt.lo, tt.hi):>18}  "
            f"{tt.side or ''}")
    return out


def page_size(meta):
    m = re.search(r"page (\d+) bytes", meta.get("sweep", ""))
    return int(m.group(1)) if m else None


def goal1(by, w, meta):
    cells = {o: c for (wl, t, o), c in by.items() if wl == w and t == 1}
    if not cells:
        return None, "not in this run"
    page = page_size(meta)
    if not page:
        return None, "the page size is unknown (no --meta sweep)"
    top = int(math.log2(page // 8))	# a page table of 8-byte entries
    missing = sorted(set(range(top + 1)) - set(cells))
    if any(c["per_fault"]["bound"] is None or c["fa_per_fault_max"] is None
           for c in cells.values()):
        return None, "a bound run without faults, Rss or the counters"
    over = [o for o, c in cells.items()
            if max(c["per_fault"]["bound"][1], c["fa_per_fault_max"]) > 2 ** o + EPS]
    fo = folio_order(meta, w)
    if fo is None:
        return None, "no folio sizes for its file (--meta folios)"
    below = sorted(o for o in cells if o < fo)
    kept = [o for o in below
            if not (cells[o].get("unread") or {}).get("change") or
            not (cells[o]["unread"]["change"].hi < 0 and
                 cells[o]["unread"]["change"].p == cells[o]["unread"]["change"].p)]
    why = (f"per fault above 2^order with the bound at orders {sorted(over)}"
           if over else "per fault (Rss and counters) at most 2^order in every bound run")
    why += (f"; unread not shown to fall at orders {kept}" if kept else
            f"; unread falls at orders {below} (folios up to order {fo})")
    if over or kept:
        return False, why
    if not below:
        return None, why + ": no order below the folio, nothing to judge"
    if missing:
        return None, why + f"; incomplete: orders {missing} did not run"
    return True, why


def goal2(by, w, meta):
    page = page_size(meta)
    if not page:
        return None, "the page size is unknown (no --meta sweep)"
    o = int(math.log2(GOAL2_BYTES // page)) if page <= GOAL2_BYTES else 0
    if not any(k[0] == w for k in by):
        return None, "not in this run"
    c = by.get((w, 1, o))
    if c is None:
        return None, f"order {o} (64KiB) not in this run"
    r, t = c["figure"], c["tost"]
    return (t.side == "inside" if t.side or r.se == r.se else None,
            f"order {o}: {chg(r)}, 90% {pct(t.lo, t.hi)}: "
            f"{t.side or 'neither equivalent nor different'}{need_text(c)}")


def need_text(c):
    """The boots TOST at +-1% needs for 80% power at the cell's spread."""
    r = c["figure"]
    if r.se != r.se:
        return ""
    need = benchstats.tost_boots(r.se * math.sqrt(c["boots"]), two_sample=False)
    return f", boots for 80% power at this spread: {need or 'more than 1000'}"


def goal3(by):
    """Every control cell equivalent within +-1%: one outside, or one
    not shown equivalent at its spread, misses."""
    cells = sorted((k, c) for k, c in by.items() if k[0] in GOAL3)
    if not cells:
        return None, "no control in this run"
    not_in = [f"{w} {t}T order {o}: {chg(c['figure'])} "
              f"({c['tost'].side or 'neither'}{need_text(c)})"
              for (w, t, o), c in cells if c["tost"].side != "inside"]
    if not_in:
        return False, "not equivalent within +-1%: " + "; ".join(not_in)
    return True, (f"{len(cells)} cells equivalent within +-1% "
                  f"({', '.join(sorted({w for (w, _t, _o), _c in cells}))})")


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
    out = ["vm.fault_around_bound: 1 (bound) against 0 (whole), paired by boot",
           f"  figure: {u['name']}; change = (bound - whole) / whole; per fault: "
           "pages, each run's Rss / faults, median (max) over runs; unread: "
           "pages mapped and never read, median of the boots' medians"]
    out += [f"  {k}: {v}" for k, v in meta.items()]
    for key in dict.fromkeys((w, t) for w, t, _o in by):
        out += [""] + table(key, {o: c for (w, t, o), c in by.items()
                                  if (w, t) == key})
    out += ["", "Goals (Documentation/large-folios.rst), fixed before the runs; "
            "held-out rows judge, never tune:"]
    res = [(f"1 ({w}{', held out' if w in HELDOUT else ''})", *goal1(by, w, meta))
           for w in GOAL1]
    res += [(f"2 ({w}{', held out' if w in HELDOUT else ''}, 1 thread, 64KiB)",
             *goal2(by, w, meta)) for w in GOAL2]
    res.append(("3 (controls, bound against whole)", *goal3(by)))
    for name, met, why in res:
        verdict = "NOT JUDGED" if met is None else "MET" if met else "MISSED"
        out.append(f"  goal {name}: {verdict}: {why}")
    print("\n".join(x for line in out for x in fit(line)))
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
        return {k: jsonable(getattr(x, k)) for k in x.__dataclass_fields__}
    if isinstance(x, float) and not math.isfinite(x):
        return None if x != x else str(x)
    return x


if __name__ == "__main__":
    main()
