#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Report make bench PRESSURE=1: what pages mapped ahead cost reclaim.

usage: pressure-report.py --out DIR [--meta KEY=VALUE]... patched=RUNS.csv[,RUNS.csv]...

The runs are sweep.sh -M's: workloads hotcold (a hot file re-read at
random after each chunk of a stream read in order, both on ext4, in a
cgroup v2 memory.max below their pages) and hotscan (the same reading
one stream page in 4), each also as <workload>@unlimited (the same with
memory.max=max), every order, in several boots (one CSV a boot).

Each boot is the replicate (scripts/bench/benchstats.py): a boot's value for a
cell (workload, order) is the median of its runs; a count's level is the
mean of the boots' values with its t interval (B - 1 df); the figure's
ratios to order 0 are benchstats.paired_ratio's; the figure's
differences in M insn, paired t intervals of the boots' differences.

What fault-around saves and what the limit costs, per order o against
order 0, from the figure (guest instructions under -icount: the reclaim
work, the refaults and the loop device's reads are instructions too):
  saves(o) = unlimited(0) - unlimited(o)
  net(o)   = limited(0) - limited(o)
  extra(o) = saves(o) - net(o): what the limit costs at o beyond what it
             costs at 0 (reclaim and refaults, and the savings that pages
             unmapped before use lose)
Each is a paired t over boots, Holm-adjusted within its own family.  The
verdicts, per workload: the best window under the limit (stable_pick:
beyond it each doubling costs more than it saves); whether fault-around
saves at all without the limit (some saves(o) shown > 0: if none, there
is no break-even to find); the largest order no worse than order 0
under the limit (the 90% interval's lower end of net(o) above -1% of
order 0's figure, TOST's side) and the smallest from which every order
is shown worse; and the orders where the limit turns a saving into a
loss (saves, -net and extra all shown > 0).  Fewer than 2 boots: no
verdict.  The pages mapped ahead (fault_around_mapped, mapping events)
end one of three ways, from fa-bench's look at the page table around
each read: used (read while mapped), mapped at the end and never read,
or unmapped (reclaimed) first; never used = fa-mapped - used.

With make bench PRESSURE=1 BOUND=1 (sweep.sh -c: each order also with
vm.fault_around_bound=1, setup "bound"), goal 4 of
Documentation/large-folios.rst: where the bound maps fewer pages a fault,
it takes no more refaults and activations than whole at the same order,
by the adaptive goal's test, which the placebo (the default order run
twice) also takes against whole, a true null.  The bound maps fewer
pages a fault by design at the orders below the largest folio of the
workload's file (the sweep's folio sizes, --meta "folios <workload>"),
which are judged; no counter gives the pages mapped (fault_around_mapped
leaves out what finish_fault() maps with a whole folio), and faults move
with reclaim.

Prints the report and writes DIR/results.csv and DIR/results.json.
"""
import argparse
import csv
import json
import math
import sys
from collections import defaultdict

import numpy as np

import benchstats as bs
from benchreport.fmt import fit
from pressure_data import (CONF, ALPHA, BOUND, PLACEBO, load, per_boot,
                           mean_t, fmt, fmt_ci, null_nan)
from pressure_goals import adaptive_goal, bound_goal

UNLIMITED = "@unlimited"	# the same workload with memory.max=max
DELTA = 0.01	# "no worse than order 0": by at most 1% of its figure
# The tables' columns: the figure and the pages' fates, then the reclaim
# counts.  psi_* are microseconds of the guest's clock (under -icount,
# instructions / 1000).
TABLES = [
    [("ns", "M insn"), ("chg", "%chg vs 0"), ("minflt", "minor faults"),
     ("majflt", "major faults"), ("fa_mapped", "fa-mapped"),
     ("hits", "used"), ("never_used", "never used"),
     ("unread", "  mapped at end"), ("ahead_reclaimed", "  unmapped first"),
     ("reclaimed_read", "read, unmapped, reread")],
    [("pgscan", "pgscan (global)"), ("pgsteal", "pgsteal (global)"),
     ("pgactivate", "pgactivate"), ("pgdeactivate", "pgdeactivate"),
     ("workingset_refault_file", "refault_file"),
     ("workingset_activate_file", "wset_activate_file"),
     ("slabs_scanned", "slabs_scanned"), ("allocstall", "allocstall (global)"),
     ("pgunmap_file_old", "unmapped old")],
    [("memcg_pgscan", "memcg pgscan"), ("memcg_pgsteal", "memcg pgsteal"),
     ("memcg_pgactivate", "memcg pgactivate"),
     ("memcg_workingset_refault_file", "memcg refault_file"),
     ("memcg_max", "memory.events max"), ("memcg_oom", "memory.events oom"),
     ("psi_some_us", "PSI some us"), ("psi_full_us", "PSI full us")],
]


def header(meta, boots, unit, p):
    p("make bench PRESSURE=1: what pages mapped ahead cost reclaim")
    for k in ("kernel", "config", "cpu", "qemu", "clock", "commit", "runs", "sweep"):
        if k in meta:
            p(f"  {k}: {meta[k]}")
    p(f"  boots: {boots} (the replicate); per boot, each cell's value is the "
      "median of its runs (the figure) or their mean (a count)")
    p(f"  figure: {unit}; counts are the kernel's own (/proc/vmstat, whose "
      "pgscan and pgsteal count global reclaim only, and the cgroup's "
      "memory.stat and memory.events, which count its limit's), which emulation "
      "does not distort; PSI (memory.pressure) is stall time by the guest's "
      "clock, in us: under -icount, thousands of instructions (one task in "
      "the cgroup: some and full are the same stall)")
    p(f"  intervals: {CONF:.0%} t intervals over boots (B - 1 df); %chg = "
      "(new - baseline) / baseline against order 0, negative is less; marks "
      f"'*' where the Holm-adjusted p is below {ALPHA}, within one family "
      "(the tables' ratios; each workload's saves, limit's extra and net), "
      "'~' otherwise (not shown, not 'no effect')")
    p("")


class Tests:
    """Families, each Holm-adjusted on its own: per workload's orders,
    net(o), saves(o) and the reclaim penalty.  The tables' %chg are
    ratios (for their size) marked by net or saves: one mark a test."""

    def __init__(self, fig, names, bases, orders):
        self.fams = defaultdict(dict)
        for w in names:
            for o in orders:
                if o and (w, o) in fig and (w, 0) in fig:
                    self.fams["ratio"][(w, o)] = bs.paired_ratio(
                        fig[(w, o)], fig[(w, 0)], CONF)
        self.net = defaultdict(dict)
        for b in bases:
            lim, free = b, b + UNLIMITED
            for o in orders:
                if o and all((w, x) in fig for w in (lim, free) for x in (0, o)):
                    saves = fig[(free, 0)] - fig[(free, o)]
                    n = fig[(lim, 0)] - fig[(lim, o)]
                    extra = saves - n
                    self.net[b][o] = {
                        "saves": bs.mean_diff(saves, CONF),
                        "extra": bs.mean_diff(extra, CONF),
                        "net": bs.mean_diff(n, CONF),
                        # TOST's lower side: net >= -1% of L(0)
                        "net90": bs.mean_diff(n, 1 - 2 * ALPHA)}
                    for k in ("saves", "extra", "net"):
                        self.fams[k][(b, o)] = self.net[b][o][k]
        self.adj = {}
        for k, fam in self.fams.items():
            if k == "ratio":
                continue	# sizes only: marked by net or saves
            keys = list(fam)
            self.adj.update({(k,) + key: q for key, q in
                             zip(keys, bs.holm([fam[x].p for x in keys]))})

    def mark(self, key):
        q = self.adj.get(key, math.nan)
        return "*" if q == q and q < ALPHA else "~"

    def shown(self, key, sign):
        """The family's test rejects, with the estimate's sign."""
        r = self.fams[key[0]][key[1:]]
        return self.mark(key) == "*" and r.est * sign > 0


def cell_text(w, o, f, width, cells, fig, tests, results):
    """One table cell: a %chg with its mark, or a mean +- its half-width."""
    if f == "chg":
        # Its mark is its own test's: net (limited) or saves
        # (unlimited), the same null L(o) = L(0).
        r = tests.fams["ratio"].get((w, o))
        base = w[:-len(UNLIMITED)] if w.endswith(UNLIMITED) else w
        fam = "saves" if w.endswith(UNLIMITED) else "net"
        x = "baseline" if o == 0 else "-" if r is None else \
            f"{r.chg():+.2f}% {tests.mark((fam, base, o))}"
        return f"{x:>{width}}"
    v = fig.get((w, o)) if f == "ns" else per_boot(cells[(w, o)], f)
    if v is None:
        return f"{'-':>{width}}"
    m, lo, hi, _ = mean_t(v)
    d = 3 if f == "ns" else 0
    h = (hi - lo) / 2 if hi == hi else math.nan
    results["cells"].append({"workload": w, "order": o, "field": f,
                             "mean": m, "lo": lo, "hi": hi,
                             "boots": [float(x) for x in v]})
    return f"{fmt(m, d) + ' +-' + fmt(h, d):>{width}}"


def workload_tables(w, orders, cells, fig, tests, results, p):
    present = [o for o in orders if (w, o) in cells]
    if not present:
        return
    runs = sum(len(r) for o in present for r in cells[(w, o)])
    p(f"{w} ({'no memory limit' if w.endswith(UNLIMITED) else 'memory.max below its pages'}; "
      f"{runs} runs): per order, the mean over boots +- the half-width of "
      "its 95% CI")
    for group in TABLES:
        fields = [(f, n) for f, n in group if f == "chg" or any(
            per_boot(cells[(w, o)], f) is not None for o in present)]
        # As many columns a table as fit 100, each under the orders.
        chunks = []
        for f, n in fields:
            wide = 8 + sum(max(len(x), 14) + 2 for _, x in chunks[-1]) \
                if chunks else 100
            if wide + max(len(n), 14) + 2 > 100:
                chunks.append([])
            chunks[-1].append((f, n))
        for fields in chunks:
            p("  order " + "".join(f"{n:>{max(len(n), 14) + 2}}" for _, n in fields))
            for o in present:
                p(f"  {o:>5} " + "".join(
                    cell_text(w, o, f, max(len(n), 14) + 2, cells, fig,
                              tests, results) for f, n in fields))
            p("")


def break_even(b, orders, fig, boots, tests, fig_unit, results, p):
    """What fault-around saves against what the limit costs for one
    workload, and its verdicts."""
    net, mark, shown = tests.net, tests.mark, tests.shown
    l0 = float(np.mean(fig[(b, 0)]))
    p(f"{b}: what fault-around saves against what the limit costs, per order "
      f"against order 0 ({fig_unit}, mean over boots [95% CI]; marks: Holm "
      "within each column's family)")
    p(f"  saves = {b}{UNLIMITED}(0) - {b}{UNLIMITED}(o); reclaim penalty = "
      "what the limit costs at o beyond what it costs at 0 (reclaim, "
      "refaults, and the savings that pages unmapped before use lose; "
      "negative: fault-around helps under the limit); net = saves - "
      f"penalty = {b}(0) - {b}(o)")
    for o in sorted(net[b]):
        c = net[b][o]
        p(f"  order {o:>2}: saves {fmt_ci(c['saves'].est, c['saves'].lo, c['saves'].hi, 3)} "
          f"{mark(('saves', b, o))}  reclaim penalty {fmt_ci(c['extra'].est, c['extra'].lo, c['extra'].hi, 3)} "
          f"{mark(('extra', b, o))}  net {fmt_ci(c['net'].est, c['net'].lo, c['net'].hi, 3)} "
          f"{mark(('net', b, o))}")
    verdict = results["verdicts"].setdefault(b, {})
    if boots < 2:
        p("  untestable: fewer than 2 boots give no interval, so no verdict")
        verdict["untestable"] = True
        p("")
        return
    os_ = sorted(net[b])
    saves = [o for o in os_ if shown(("saves", b, o), 1)]
    neg = [o for o in os_ if shown(("net", b, o), -1)]
    ok = [o for o in os_ if net[b][o]["net90"].lo > -DELTA * l0]
    lost = [o for o in neg if o in saves and shown(("extra", b, o), 1)]
    verdict.update(saves=saves, net_negative=neg, no_worse=ok,
                   limit_turns_saving_into_loss=lost)
    pick = bs.stable_pick({o: fig[(b, o)] for o in orders if (b, o) in fig},
                          DELTA, CONF)
    stab = {True: "stable", False: "UNSTABLE", None: "stability not assessed"}
    moves = (f": {pick['best_flip']:.0%} of simulated reruns pick "
             f"{', '.join(map(str, pick['best_moves']))}"
             if pick["best_moves"] else "")
    near = [o for o in pick["near_best"] if o != pick["best"]]
    p(f"  under the limit the smallest figure is at order {pick['best']} "
      f"({stab[pick['best_stable']]}{moves})" +
      (f"; orders {', '.join(map(str, near))} are shown within 1% of it"
       if near else "") + "; an order not listed is not shown to be as good")
    verdict.update(best=pick["best"], best_stable=pick["best_stable"])
    if not saves:
        p("  fault-around saves nothing here without the limit (no saves(o) "
          "shown > 0): there is no break-even to find")
    else:
        w_lo = max(ok) if ok else 0
        w_hi = next((o for o in os_ if all(x in neg for x in os_ if x >= o)), None)
        p(f"  without the limit fault-around saves at order(s) "
          f"{', '.join(map(str, saves))}; under it, no worse than order 0 "
          f"by more than {DELTA:.0%} of its figure ({DELTA * l0:.3f} "
          f"{fig_unit}; the 90% interval's lower end) up to order {w_lo}" +
          (f", and shown worse than order 0, by any amount, from order "
           f"{w_hi} on" if w_hi is not None
           else ", and shown worse at no larger order throughout"))
        if any(o < w_lo for o in neg):
            p("  not monotone: some order below that is worse than order 0")
        verdict.update(break_even_above=w_lo, break_even_at_most=w_hi)
    if lost:
        p(f"  at order(s) {', '.join(map(str, lost))} the limit turns what "
          "fault-around saves into a loss (saves > 0, net < 0, penalty > 0, "
          "all shown)")
    verdict["net"] = {o: {k: [net[b][o][k].est, net[b][o][k].lo, net[b][o][k].hi]
                          for k in ("saves", "extra", "net")} for o in net[b]}
    p("")


def write(out_dir, results):
    with open(f"{out_dir}/results.json", "w") as f:
        json.dump(null_nan(results), f, indent=1)
    with open(f"{out_dir}/results.csv", "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["workload", "order", "field", "mean", "lo", "hi", "boots"])
        for c in results["cells"]:
            wr.writerow([c["workload"], c["order"], c["field"], c["mean"], c["lo"],
                         c["hi"], " ".join(f"{x:g}" for x in c["boots"])])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    meta = dict(m.split("=", 1) for m in a.meta)
    paths = a.sets[0].split("=", 1)[1].split(",")
    cells, adapt, other = load(paths)
    boots = len(paths)
    orders = sorted({o for (w, o) in cells})
    icount = meta.get("clock") == "icount"
    unit = "M insn (guest instructions under QEMU -icount, not time)" if icount \
        else f"ms ({meta.get('clock', 'native')} clock)"
    fig_unit = unit.split(" (")[0]
    scale = 1e6
    out = []
    p = out.append
    header(meta, boots, unit, p)
    results = {"meta": meta, "boots": boots, "cells": [], "verdicts": {}}
    # Each workload under the limit, and its run without it.
    bases = sorted({w for (w, o) in cells if not w.endswith(UNLIMITED)})
    names = [x for b in bases for x in (b, b + UNLIMITED)]
    fig = {}
    for w in names:
        for o in orders:
            if (w, o) in cells:
                v = per_boot(cells[(w, o)], "ns")
                if v is not None:
                    fig[(w, o)] = v / scale
    tests = Tests(fig, names, bases, orders)
    for w in names:
        workload_tables(w, orders, cells, fig, tests, results, p)
    for b in bases:
        if tests.net[b]:
            break_even(b, orders, fig, boots, tests, fig_unit, results, p)
    adaptive_goal(adapt, cells, fig, meta, scale, fig_unit, p, results)
    bound_goal(other[BOUND], cells, meta, p, results, other[PLACEBO])
    print("\n".join(x for line in out for x in fit(line)))
    write(a.out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
