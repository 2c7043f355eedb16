# SPDX-License-Identifier: GPL-2.0
"""pressure-report.py's goals: the adaptive policy against the default
order, and the bound against whole (goal 4 of
Documentation/large-folios.rst), each count's 'no more' test per boot."""
import numpy as np

import benchstats as bs
from benchreport.data import folio_order
from pressure_data import CONF, per_boot, mean_t, fmt, fmt_ci

# The adaptive policy (make bench PRESSURE=1 POLICY=adaptive) against the
# default order, issue 29's goal under pressure: no more refaults and
# activations, at no more faults.  "No more" is shown when the 95%
# interval of the mean difference per boot lies below +ADAPT_MARGIN of
# the default's count (at least one event); "more" when it lies wholly
# above it.
ADAPT_MARGIN = 0.01
ADAPT_COUNTS = (("memcg_workingset_refault_file", "refaults"),
                ("memcg_pgactivate", "activations"), ("faults", "faults"))
# Goal 4 has no faults in it: a bound maps fewer pages a fault, so takes
# more faults by design.
BOUND_COUNTS = ADAPT_COUNTS[:2]


def adaptive_goal(adapt, cells, fig, meta, scale, fig_unit, p, results):
    """The adaptive policy's runs against the default order's, per
    workload: the figure's ratio and each ADAPT_COUNTS count's
    difference, paired by boot, and the goal's verdict."""
    d = int(meta.get("default_order", 4))
    names = [w for w in sorted(adapt) if (w, d) in cells and (w, d) in fig]
    if not names:
        return
    p(f"Adaptive policy against the default order {d} (issue 29's goal under "
      "pressure: no more refaults and activations, at no more faults): per "
      f"boot, adaptive - order {d}, the mean with its {CONF:.0%} interval; "
      f"'no more' when the interval's top is at most +{ADAPT_MARGIN:.0%} of "
      f"order {d}'s mean, 'MORE' when its bottom is above that, "
      "'inconclusive' otherwise; the figure as a ratio, paired by boot")
    res = results["adaptive"] = {}
    for w in names:
        fa = per_boot(adapt[w], "ns")
        if fa is None:
            continue
        r = bs.paired_ratio(fa / scale, fig[(w, d)], CONF)
        res[w] = {"ratio": [r.est, r.lo, r.hi]}
        parts, goal = no_more(adapt[w], cells[(w, d)], ADAPT_COUNTS, res[w])
        ci = (f" [{r.lo:.4f}, {r.hi:.4f}]" if r.lo == r.lo else "")
        p(f"  {w}: {fig_unit} ratio {r.est:.4f}{ci}; "
          + "; ".join(parts) + ": " + GOAL_TEXT[goal])
    p("")


GOAL_TEXT = {True: "meets the goal", False: "MISSES the goal",
             None: "goal not shown either way"}


def no_more(new, base, counts, res):
    """Each count of @new's runs against @base's, per boot: 'no more'
    when the 95% interval of the mean difference lies below
    +ADAPT_MARGIN of @base's count (and at least one event: the counts of
    @unlimited are about 0), 'MORE' when it lies wholly above, else
    'inconclusive'; the parts to print and the goal (None: not shown)."""
    parts, goal = [], True
    for f, name in counts:
        a, b = per_boot(new, f), per_boot(base, f)
        if a is None or b is None or len(a) != len(b):
            parts.append(f"{name} -")
            goal = None if goal else goal
            continue
        m, lo, hi, _ = mean_t(a - b)
        lim = max(ADAPT_MARGIN * float(np.mean(b)), 1.0)
        v = ("no more" if hi == hi and hi <= lim else
             "MORE" if lo == lo and lo > lim else "inconclusive")
        if v == "MORE":
            goal = False
        elif v == "inconclusive" and goal:
            goal = None
        res[name] = {"diff": [m, lo, hi], "verdict": v}
        if v == "inconclusive" and len(a) > 1:
            n = bs.below_boots(float(np.std(a - b, ddof=1)), lim)
            res[name]["boots_for_80pct"] = n
            v += f"; 80% power needs {fmt(n) if n else 'over 100,000'} boots"
        parts.append(f"{name} {fmt_ci(m, lo, hi)} ({v})")
    res["goal"] = goal
    return parts, goal


def bound_goal(bound, cells, meta, p, results, placebo):
    """Goal 4: the bound's runs against whole's at each order below the
    largest folio order of the workload's file, where the bound maps
    fewer pages a fault by design (bound-report.py's goal 1 uses the same
    orders); at and above it the bound maps what whole does."""
    keys = [k for k in sorted(bound) if k in cells]
    if not keys:
        return
    p("vm.fault_around_bound=1 against 0 at the same order (goal 4 of "
      "Documentation/large-folios.rst, fixed before the runs: where the "
      "bound maps fewer pages a fault, no more refaults and activations), "
      "judged at each order below the largest folio of the workload's file "
      "(the sweep's folio sizes): per boot, bound - whole, the mean with "
      f"its {CONF:.0%} interval, 'no more' when its top is at most "
      f"+{ADAPT_MARGIN:.0%} of whole's mean (and 1 event), with the boots "
      "that would give it 80% power where it is inconclusive")
    res = results["bound"] = {}
    goal, judged = True, False
    for w, o in keys:
        fo = folio_order(meta, w)
        r = res.setdefault(w, {})[o] = {}
        if fo is None:
            p(f"  {w} order {o}: no folio sizes for its file: not judged")
            continue
        if o >= fo:
            continue
        judged = True
        parts, g = no_more(bound[(w, o)], cells[(w, o)], BOUND_COUNTS, r)
        if g is False or goal is True:
            goal = g
        p(f"  {w} order {o} (folios up to order {fo}): " + "; ".join(parts))
    res["goal"] = goal if judged else None
    p("  goal 4: " + ("NOT JUDGED: no order below a file's largest folio"
                      if not judged else {True: "MET", False: "MISSED",
                                          None: "NOT SHOWN either way, so not met"}[goal]))
    # The same test on the placebo, a true null: what it says of two
    # runs of one setting in these boots.
    nulls = [k for k in sorted(placebo) if k in cells]
    if nulls:
        p("  the same test on the placebo (the default order run twice, a "
          "true null), placebo - whole:")
    res["placebo"] = {}
    for w, o in nulls:
        r = res["placebo"].setdefault(w, {})[o] = {}
        parts, _ = no_more(placebo[(w, o)], cells[(w, o)], BOUND_COUNTS, r)
        p(f"    {w} order {o}: " + "; ".join(parts))
    p("")
