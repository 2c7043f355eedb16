# SPDX-License-Identifier: GPL-2.0
"""The report's numbers: tables per workload and thread count, the
best and recommended orders, the control, the adaptive policy, the
module cost, the A/B, the A/A calibration and the cost fits.  No text."""
import json
import math
import os
import statistics
import sys
import zlib

from dataclasses import replace

import numpy as np

import benchstats as bs

from .data import (CONF, ALPHA, MIN_EFFECT, DEFAULT_ORDER, AB_CONF, AB_MARGIN,
                   CONTROL, EXECS, BUILDS, POLICIES, MOD_SETUPS, ADAPT_BEST,
                   ADAPT_MARGIN, CHANGING, SPARSE_GOAL, FLAG, PERF, PERF_CLOCKS,
                   FIO, is_cold,
                   cross_title, base_name, no_order, checked, per_page, per_fault,
                   perf_status, crosscheck)
from .compare import Cmp, Family, Stats, varies, verdict
from .costmodel import cost_model
from .fmt import who


class Report:
    """One report's runs (sets: (label, rows, timed) per kernel) and its
    numbers; analyse() computes them all."""

    def __init__(self, sets, meta, u):
        Cmp.flag = ""	# a new report's marks start unflagged
        self.sets, self.meta, self.u = sets, meta, u
        self.label = sets[0][0]
        rows = [r for _, rs, _ in sets for r in rs]
        self.sweep = [r for r in sets[0][1] if r["setup"] == "sweep"]
        self.modruns = [r for r in sets[0][1] if r["setup"].startswith("mod-")]
        self.base = ([r for r in sets[1][1] if r["setup"] == "sweep"]
                     if len(sets) > 1 else [])
        self.orders = sorted({r["order"] for r in self.sweep})
        self.workloads = list(dict.fromkeys(r["workload"] for r in self.sweep))
        self.threads = {w: sorted({r["threads"] for r in self.sweep
                                   if r["workload"] == w}) for w in self.workloads}
        # An empty or odd value (bench.sh could not read it) is no reason
        # to lose the report of a long sweep: fall back, and say so.
        given = meta.get("default_order", "")
        self.default = int(given) if given.isdigit() else DEFAULT_ORDER
        self.default_given = given.isdigit()
        self.family = Family()
        self.st = Stats(rows)
        self.aa = False	# set by main(): --aa
        self.pool_paths = []	# and --pool: the earlier A/A runs
        self.cross = cross_title(self.workloads)
        # The adaptive policy's runs: their order column is the order the
        # policy starts from (the kernel's default; one per sweep).
        self.policy_from = {}
        for r in sets[0][1]:
            if r["setup"] in POLICIES:
                self.policy_from.setdefault((r["workload"], r["threads"]),
                                            r["order"])
        self.perf = perf_status(sets[0][1])

    def key(self, w, t, o, setup="sweep", label=None):
        """A cell's key; an order of POLICIES is that policy's runs."""
        if o in POLICIES:
            return (label or self.label, o, w, t,
                    self.policy_from.get((w, t)))
        return (label or self.label, setup, w, t, o)

    @staticmethod
    def touched(w):
        """What a workload's pages column counts."""
        return ("program starts" if base_name(w) in EXECS else
                "programs linked" if w in BUILDS else "pages touched")

    def ab_cells(self):
        """(workload, threads, order) that both kernels ran."""
        have = {(r["workload"], r["threads"], r["order"]) for r in self.base}
        return [(w, t, o) for w in self.workloads for t in self.threads[w]
                for o in self.orders if (w, t, o) in have
                and self.st.has(self.key(w, t, o))]

    def mod_cells(self):
        """(workload, threads, order) of the module-cost runs."""
        return list(dict.fromkeys((r["workload"], r["threads"], r["order"])
                                  for r in self.modruns))

    def table(self, w, t):
        st, base = self.st, self.orders[0]
        cols = [o for o in self.orders if st.has(self.key(w, t, o))]
        # orders: the fixed ones; cols: the table's, the adaptive policy's
        # after the largest order, with the same statistics.
        tb = {"workload": w, "threads": t, "orders": cols, "cells": {},
              "cols": cols + [p for p in POLICIES
                              if st.has(self.key(w, t, p))]}
        for o in tb["cols"]:
            k = self.key(w, t, o)
            c = {f: st.median(k, f) for f in
                 ("minflt", "majflt", "fa_mapped", "mapped", "ns", "fixed_ns",
                  "teardown_ns", "pages", "distinct", "unread")}
            # A program's own count (fio's), minor and major together.
            c["prog_faults"] = statistics.median(
                r["prog_minflt"] + r["prog_majflt"]
                if r["prog_minflt"] >= 0 else -1 for r in st.runs(k))
            # The median of the sums, not the sum of the medians.
            c["faults"] = statistics.median(r["minflt"] + r["majflt"]
                                            for r in st.runs(k))
            # The pages mapped where there is no Rss: each fault's own
            # page and those mapped around it.
            c["maps"] = statistics.median(r["minflt"] + r["majflt"]
                                          + r["fa_mapped"] for r in st.runs(k))
            # What one fault maps (large folios: more than the window):
            # each run's Rss / faults, their median and the most.
            per = [x for x in map(per_fault, st.runs(k)) if x is not None]
            c["per_fault"] = (statistics.median(per), max(per)) if per else None
            c["major"] = any(r["majflt"] > 0 for r in st.runs(k))
            c["shape"] = st.shape(k)
            c["counters"] = all(r["fa_mapped"] >= 0 for r in st.runs(k))
            c["ns_ci"] = st.level(k)
            if o != base and base in cols:
                c["ratio"] = self.family.add(st.ratio(k, self.key(w, t, base)),
                                             f"{w}: its orders against {base}")
            tb["cells"][o] = c
        return tb

    def perf_table(self, tb):
        """The perf stat counts of a table's cells: each counted event's
        boot-level geometric mean and t interval, a clock's in ms per run, faults per
        run (beside the timed work's, minor + major), any other count per
        page touched (exec, dynexec: per program start) where every run
        touched as many, else per run."""
        st, w, t = self.st, tb["workload"], tb["threads"]
        cells = {}
        for o in tb["cols"]:
            k = self.key(w, t, o)
            pages = {r["pages"] for r in st.runs(k)}
            n = pages.pop() if len(pages) == 1 else 0
            cell = {"faults": tb["cells"][o]["faults"]}
            for e in self.perf["counted"]:
                if e in PERF_CLOCKS:
                    div, per, unit = 1e6, "run", "ms"
                elif e.endswith("faults") or n <= 0:
                    div, per, unit = 1, "run", "count"
                else:
                    div, unit = n, "count"
                    per = "program start" if base_name(w) in EXECS else "page touched"
                lo, hi = st.level(k, PERF + e)
                cell[e] = {"per": per, "unit": unit, "conf": CONF,
                           "median": st.median(k, PERF + e) / div,
                           "lo": lo / div, "hi": hi / div}
            cells[o] = cell
        return {"workload": w, "threads": t, "cols": tb["cols"], "cells": cells}

    def per_order(self, w, ts, cols, label=None):
        """{order: blocks x thread counts array of the blocks' medians},
        on the blocks that every order and thread count has."""
        keys = [self.key(w, t, o, label=label) for o in cols for t in ts]
        _, m = self.st.matrix(keys)
        if m is None:
            return {}
        k = len(ts)
        return {o: m[:, i * k:(i + 1) * k] for i, o in enumerate(cols)}

    def best_of(self, w, ts, cols, label=None):
        """The best of the fixed orders cols: the smallest boot-level
        geometric mean over the thread counts ts (benchstats.pick_orders)."""
        per = self.per_order(w, ts, cols, label)
        return bs.pick_orders(per, MIN_EFFECT, CONF)["best"] if per else None

    def recommend(self, w, label=None):
        """best and recommended (benchstats.stable_pick): the smallest
        order whose ratio to the best has its 95% interval's top below
        1 + MIN_EFFECT, shown to be at most 1% worse.  Not the point
        estimate's 1%: that flips between identical runs wherever an order
        sits near it; an order must be shown near, and the best itself
        is.  Each is marked stable when at most benchstats.FLIP_MAX of
        reruns simulated from the boots pick another order.  The comparisons of the
        tables' kernel join the Holm family; another label's (the A/A's
        B) do not."""
        st, ts = self.st, self.threads[w]
        label = label or self.label
        cols = [o for o in self.orders
                if all(st.has(self.key(w, t, o, label=label)) for t in ts)]
        if len(cols) < 2:
            return {"workload": w, "note": f"only order {cols[0] if cols else '-'} was run"}
        per = self.per_order(w, ts, cols, label)
        if not per:
            return {"workload": w, "note": "no boot ran every order"}
        # A seed of its own: the reruns' errors not shared by workloads.
        pick = bs.stable_pick(per, MIN_EFFECT, CONF,
                              seed=zlib.crc32(f"{w} {label}".encode()))
        best, rec = pick["best"], pick["recommended"]

        def vs(o, ref):
            # The order was picked from these runs among len(cols):
            # Bonferroni over them before Holm over the two references.
            r = bs.paired_ratio(per[o], per[ref], CONF)
            c = Cmp(replace(r, p=min(1.0, r.p * len(cols))) if r.p == r.p else r)
            return (self.family.add(c, f"{w}: its recommendation")
                    if label == self.label else c)

        res = {"workload": w, "threads": ts, "best": best, "recommended": rec,
               "to_best": Cmp(pick["to_best"][rec]), "near_best": pick["near_best"],
               "boots": pick["boots"], "unit": st.unit[label],
               "best_stable": pick["best_stable"], "rec_stable": pick["rec_stable"],
               "best_moves": pick["best_moves"], "rec_moves": pick["rec_moves"],
               "best_flip": pick["best_flip"], "rec_flip": pick["rec_flip"]}
        if rec != cols[0]:
            res["to_base"] = vs(rec, cols[0])
        res["base"] = cols[0]
        if self.default in cols and rec != self.default:
            res["to_default"] = vs(rec, self.default)
        pages = {}
        for t in ts:
            pages[t] = {o: tuple(st.median(self.key(w, t, o, label=label), f)
                                 for f in ("mapped", "fa_mapped", "distinct",
                                           "unread"))
                        for o in sorted({rec, best, self.default}) if o in cols}
        res["pages"] = pages
        return res

    def placebo(self, label=None):
        """The placebo arm (sweep.sh's setup placebo: the default order
        run a second time in every repetition, interleaved): one test
        over every workload and thread count, per boot the mean of the
        cells' log(placebo / default), a paired t over boots, with its
        TOST within +-AB_MARGIN; not in the report's Holm families.  It
        fails when that shows a change of at least MIN_EFFECT (p < ALPHA
        and |change| >= MIN_EFFECT, as a mark needs) or one outside the
        margin (TOST), or when any cell does, Holm over the cells: cells
        biased both ways cancel in the mean.  None without placebo runs
        (bench v3's, which had the anon control)."""
        st, o, lb = self.st, self.default, label or self.label

        def k(w, t, setup="sweep"):
            return self.key(w, t, o, setup, lb)
        pairs = [(w, t) for w in self.workloads for t in self.threads[w]
                 if st.has(k(w, t, "placebo")) and st.has(k(w, t))]
        if not pairs:
            return None
        c = Cmp(st.paired([k(w, t, "placebo") for w, t in pairs],
                          [k(w, t) for w, t in pairs]))
        cells = [(w, t, st.ratio(k(w, t, "placebo"), k(w, t))) for w, t in pairs]
        e = c.tost()
        c.padj = c.p if c.p == c.p else None	# a family of one
        for (_, _, x), q in zip(cells, bs.holm([x.p for _, _, x in cells])):
            x.padj = q if q == q else None
        bad = [x for _, _, x in cells if x.sig()]	# Holm-adjusted, >= 1%
        said = ("moves" if c.sig() or e.side == "outside" or bad
                else "holds" if e.equivalent else "inconclusive")
        worst = max(cells, key=lambda x: abs(math.log(x[2].est))
                    if x[2].est == x[2].est else -1)
        if said == "moves" and lb == self.label:
            Cmp.flag = FLAG
        return {"kind": "placebo", "order": o, "overall": (c, e), "cells": cells,
                "cmps": cells, "worst": worst, "verdict": said, "bad_cells": len(bad),
                "boots": c.r.n, "holds": said == "holds"}

    def control(self):
        """The placebo arm where the runs have one (placebo()), else
        bench v3's anon control: every order against the baseline, with
        the estimator of the tables (in the Holm family); its verdict
        waits for Holm (control_verdict())."""
        pl = self.placebo()
        if pl is not None:
            return pl
        w, st, base = CONTROL, self.st, self.orders[0]
        if w not in self.workloads:
            return None
        cmps = []
        for t in self.threads[w]:
            for o in self.orders[1:]:
                k, kb = self.key(w, t, o), self.key(w, t, base)
                if st.has(k) and st.has(kb):
                    c = self.family.add(st.ratio(k, kb), "the anon control")
                    cmps.append((t, o, c, c.tost()))
        if not cmps:
            return {"holds": None, "verdict": None, "cmps": []}
        return {"cmps": cmps}

    def control_verdict(self, ctl):
        """After Holm: the control moves on any Holm-adjusted rejection
        (p < ALPHA, whatever the size) or any ratio shown outside
        +-AB_MARGIN (its TOST interval wholly outside); it holds when every
        order is equivalent within +-AB_MARGIN (TOST); inconclusive
        otherwise.  A point estimate outside the margin with an interval
        across it shows nothing: with 3 boots one of 9 noisy ratios
        usually is, and flagging it would flag nearly every run.  A moving control flags every verdict of
        the report (Cmp.flag): the report is kept, and said suspect,
        rather than lost with the run."""
        if not ctl or not ctl["cmps"] or ctl.get("kind") == "placebo":
            return
        cmps = ctl["cmps"]
        rejected = [x for x in cmps if x[2].padj is not None and x[2].padj < ALPHA]
        outside = [x for x in cmps if x[3].side == "outside"]
        inside = [x for x in cmps if x[3].equivalent]
        said = ("moves" if rejected or outside else
                "holds" if len(inside) == len(cmps) else "inconclusive")
        worst = max(cmps, key=lambda x: abs(math.log(x[2].est))
                    if x[2].est == x[2].est else -1)
        ctl.update(holds=said == "holds", verdict=said, inside=len(inside),
                   rejected=len(rejected), outside=len(outside), worst=worst,
                   moved=len({id(x) for x in rejected + outside}))
        if said == "moves":
            Cmp.flag = FLAG

    def adaptive(self, tables):
        """The adaptive policy per workload and thread count: against the
        best fixed order there (best_of() at that thread count), a verdict
        from the interval against 1 + ADAPT_BEST and no mark (the best was
        picked from these runs); against the default order it starts from,
        marked like the orders; its pages mapped per page read (Rss, or
        where there is none its faults and fa-mapped pages; per distinct
        page read where the runs count them); for mixed, against every
        fixed order; where the pattern changes within one mapping
        (CHANGING), below every fixed order (each interval below 1) or
        not (one shown at or above 1); with one boot no goal is judged;
        where no order applies (no_order()), equivalent to
        the default order within +-ADAPT_MARGIN or not, by TOST from the
        same t (90%), as for the anon control."""
        lines = []
        for (w, t), tb in tables.items():
            for p in POLICIES:
                if p in tb["cells"]:
                    a = self.policy_line(w, t, tb, p)
                    if a:
                        lines.append(a)
        return lines

    def policy_line(self, w, t, tb, p):
        """adaptive()'s line of policy @p (one of POLICIES) at @w, @t."""
        st = self.st
        ka, c = self.key(w, t, p), tb["cells"][p]
        best = self.best_of(w, [t], tb["orders"])
        if best is None:
            return None
        a = {"workload": w, "threads": t, "policy": p, "from": ka[4],
             "best": best, "to_best": st.ratio(ka, self.key(w, t, best))}
        b = a["to_best"]
        a["best_verdict"] = (
            f"within {ADAPT_BEST:.0%} of the best" if b.hi <= 1 + ADAPT_BEST
            else f"NOT within {ADAPT_BEST:.0%}" if b.lo > 1 + ADAPT_BEST
            else f"inconclusive at {ADAPT_BEST:.0%}")
        if a["from"] in tb["orders"]:
            kd = self.key(w, t, a["from"])
            a["to_default"] = self.family.add(st.ratio(ka, kd),
                                              "the adaptive policy against the default")
            if no_order(w):
                e = a["equiv"] = a["to_default"].tost(ADAPT_MARGIN)
                a["equiv_verdict"] = {
                    "inside": f"equivalent to off within +-{ADAPT_MARGIN:.0%}",
                    "outside": "different", None: "inconclusive"}[e.side]
        if a["from"] != 4 and 4 in tb["orders"]:
            # Against 64 KiB on 4 KiB pages too where the cap is another.
            a["to_order4"] = self.family.add(
                st.ratio(ka, self.key(w, t, 4)),
                "the adaptive policy against order 4")
        per_page(a, c)
        if base_name(w) == "sparse" and "per_page" in a:
            a["goal"] = a["per_page"] <= SPARSE_GOAL
        if base_name(w) in CHANGING or base_name(w) == "mixed":
            # Beating every order takes every interval below 1 (not
            # the best's alone: it was picked from the same runs).
            a["to_each"] = {o: st.ratio(ka, self.key(w, t, o))
                            for o in tb["orders"]}
        if base_name(w) in CHANGING:
            each = a["to_each"].values()
            a["below_best"] = (True if all(x.hi < 1 for x in each) else
                               False if any(x.lo >= 1 for x in each)
                               else None)
        if self.st.unit.get(self.label) == "rep":
            # One boot: the reps are no replicate for a goal.
            a["best_verdict"] = "not judged (one boot)"
            a.pop("below_best", None)
            a["one_boot"] = True
        if base_name(w) == "mixed":
            a["beats_all"] = all(x.hi < 1 for x in a["to_each"].values())
        return a

    def modcost(self):
        """Each module setup against mod-off, paired by boot (they ran
        interleaved): the ratio, marked, and its verdict (verdict())."""
        st, lines = self.st, []
        for w, t, o in self.mod_cells():
            off = self.key(w, t, o, "mod-off")
            if not st.has(off):
                continue
            for setup, name in MOD_SETUPS:
                k = self.key(w, t, o, setup)
                if not st.has(k):
                    continue
                c = self.family.add(st.ratio(k, off), "the module's cost")
                lines.append({"workload": w, "threads": t, "order": o,
                              "setup": setup, "name": name, "boot": c,
                              "tost": c.tost(), "n": (len(st.values(k)),
                                                      len(st.values(off))),
                              "minflt": (st.median(k, "minflt"),
                                         st.median(off, "minflt"))})
        return lines

    def ab(self):
        """patched/base per workload, thread count and order both ran:
        Welch on the boots' median logs (the kernels ran in different
        boots), marked, with TOST from the same t; per boot, the ratio of
        the alternating boots' medians (descriptive)."""
        st, other, lines = self.st, self.sets[1][0], []
        for w, t, o in self.ab_cells():
            ka, kb = self.key(w, t, o), self.key(w, t, o, label=other)
            ma, mb = (list(st.blocks(k).values()) for k in (ka, kb))
            c = self.family.add(st.ratio(ka, kb), "the A/B")
            lines.append({"workload": w, "threads": t, "order": o,
                          "boot": c, "tost": c.tost(),
                          "nboots": (len(ma), len(mb)),
                          "n": (len(st.values(ka)), len(st.values(kb))),
                          "per_boot": [x / y for x, y in zip(ma, mb)],
                          "phases": self.phases(ka, kb)})
        return lines

    def phases(self, ka, kb):
        """Where an A/B's difference lies: the same ratio as the figure's
        (Welch on the boots' median logs, its 95% interval, unadjusted,
        descriptive) of the timed loop (the figure less the teardown) and
        of the teardown (the unmapping) alone; {} where a kernel's runs
        did not time the teardown or have none (a program's rows)."""
        timed = {label: t for label, _, t in self.sets}
        td = self.st.values(ka, "teardown_ns") + self.st.values(kb, "teardown_ns")
        if not (timed[ka[0]] and timed[kb[0]]) or not td or min(td) <= 0:
            return {}
        return {"loop": self.st.ratio(ka, kb, field=lambda r:
                                      r["ns"] - r["teardown_ns"]),
                "teardown": self.st.ratio(ka, kb, field="teardown_ns")}

    def margins(self, tables, fits, pooled):
        """The equivalence margin per fault where faults are the lever
        (the minor faults vary with the order): +-MIN_EFFECT of the figure
        at the default order (else the baseline) over its minor faults,
        in the cost model's unit per fault, beside the fitted cost of a
        fault (b: the workload's own fit, and the pooled one)."""
        lines = []
        for (w, t), tb in tables.items():
            cols = tb["orders"]
            mins = np.array([tb["cells"][o]["minflt"] for o in cols], float)
            if len(cols) < 2 or not varies(mins, mins):
                continue
            o = self.default if self.default in cols else cols[0]
            c = tb["cells"][o]
            if not c["minflt"] > 0:
                continue
            own_fit = next((f["b"] for f in fits if f.get("workload") == w
                            and f.get("threads") == t and "b" in f), None)
            pool = next((f["b"] for f in pooled if f.get("threads") == t
                         and "b" in f and w in f.get("workloads", ())), None)
            lines.append({"workload": w, "threads": t, "order": o,
                          "figure": c["ns"], "minflt": c["minflt"],
                          "per_fault": c["ns"] * MIN_EFFECT / c["minflt"],
                          "b": own_fit, "b_pooled": pool})
        return lines

    def calibrate(self, abl, tables):
        """The A/A (--aa: both labels one kernel, so every difference is
        noise): each verdict type's false-positive count, rate and
        Clopper-Pearson 95% interval.  Rows share boots, so they are not
        independent: the intervals are a guide, not exact."""
        other, res = self.sets[1][0], {}

        def rate(k, n, nominal):
            lo, hi = bs.clopper_pearson(k, n) if n else (float("nan"),) * 2
            status = ("EXCEEDS" if n and lo > nominal else
                      "above, not significantly" if n and k / n > nominal
                      else "at or below")
            return {"k": k, "n": n, "rate": k / n if n else float("nan"),
                    "lo": lo, "hi": hi, "nominal": nominal, "status": status}

        tested = [a for a in abl if a["boot"].p == a["boot"].p]
        res["ab_unadjusted"] = rate(sum(a["boot"].p < ALPHA for a in tested),
                                    len(tested), ALPHA)
        res["ab_marked"] = {"k": sum(a["boot"].sig() for a in abl), "n": len(abl)}
        res["ab_equivalent"] = sum(a["tost"].equivalent for a in abl)
        res["ab_outside"] = sum(a["tost"].side == "outside" for a in abl)
        res["ab_inconclusive"] = sum(a["tost"].side is None for a in abl)
        res["ab_rows"] = len(abl)
        # The sample size to fix before an A/B (no reruns until it
        # passes): boots a side for its TOST at +-1% to reach 80% power,
        # from each row's pooled boot-to-boot sd of the median logs.
        need = []
        for a in abl:
            ka = self.key(a["workload"], a["threads"], a["order"])
            kb = self.key(a["workload"], a["threads"], a["order"], label=other)
            la, lb = (np.log(list(self.st.blocks(k).values())) for k in (ka, kb))
            if len(la) > 1 and len(lb) > 1:
                sd = math.sqrt((la.var(ddof=1) + lb.var(ddof=1)) / 2)
                need.append((bs.tost_boots(sd, AB_MARGIN, (1 - AB_CONF) / 2),
                             sd, f"{a['workload']}/{a['threads']}@{a['order']}"))
        res["boots_needed"] = need
        # Within a kernel, where no order applies (anon, @huge): every
        # order against the baseline is a null too, in both labels.
        nulls = []
        for label in (self.label, other):
            for w in self.workloads:
                if not no_order(w):
                    continue
                for t in self.threads[w]:
                    kb = self.key(w, t, self.orders[0], label=label)
                    for o in self.orders[1:]:
                        k = self.key(w, t, o, label=label)
                        if self.st.has(k) and self.st.has(kb):
                            nulls.append(self.st.ratio(k, kb))
        tested = [c for c in nulls if c.p == c.p]
        res["paired_unadjusted"] = rate(sum(c.p < ALPHA for c in tested),
                                        len(tested), ALPHA)
        res["paired_equivalent"] = sum(c.tost().equivalent for c in nulls)
        res["paired_rows"] = len(nulls)
        # The placebo arm, in both labels: its cells' paired tests (the
        # design of every order verdict) and its one overall test.
        pls = [x for x in (self.placebo(lb) for lb in (self.label, other)) if x]
        cells = [c for x in pls for _, _, c in x["cells"] if c.p == c.p]
        res["placebo_cells_unadjusted"] = rate(sum(c.p < ALPHA for c in cells),
                                               len(cells), ALPHA)
        res["placebo_overall"] = rate(sum(x["verdict"] == "moves" for x in pls),
                                      len(pls), ALPHA)
        # Split halves: each label's own best and recommended order.
        split = {"best": [], "recommended": []}
        for w in self.workloads:
            if w == CONTROL:
                continue
            ra, rb = self.recommend(w), self.recommend(w, other)
            if "note" in ra or "note" in rb:
                continue
            for what, st_key in (("best", "best_stable"),
                                 ("recommended", "rec_stable")):
                fk = "best_flip" if what == "best" else "rec_flip"
                split[what].append({"workload": w, "A": ra[what], "B": rb[what],
                                    "stable": (ra[st_key], rb[st_key]),
                                    "flip": (ra[fk], rb[fk])})
        res["split"] = split
        return res

    @staticmethod
    def pool(cal, paths):
        """Each verdict type's false positives pooled over this A/A and
        the earlier ones' results.json (paths; bench.sh AA=1 gives
        Documentation/results/aa-*/): {type: {k, n, rate, lo, hi,
        nominal, status, runs}}, for the types each run has."""
        runs = [cal]
        for p in paths:
            try:
                with open(os.path.join(p, "results.json")) as f:
                    runs.append(json.load(f)["summary"]["aa_calibration"])
            except (OSError, ValueError, KeyError) as e:
                sys.exit(f"bench-report: --pool {p}: no A/A calibration ({e})")
        out = {}
        for name, x in cal.items():
            if not (isinstance(x, dict) and "nominal" in x):
                continue
            got = [r[name] for r in runs if isinstance(r.get(name), dict)
                   and r[name].get("n")]
            k, n = sum(g["k"] for g in got), sum(g["n"] for g in got)
            lo, hi = bs.clopper_pearson(k, n) if n else (float("nan"),) * 2
            out[name] = {"k": k, "n": n, "rate": k / n if n else float("nan"),
                         "lo": lo, "hi": hi, "nominal": x["nominal"],
                         "runs": len(got),
                         "status": ("EXCEEDS" if n and lo > x["nominal"] else
                                    "above, not significantly"
                                    if n and k / n > x["nominal"] else "at or below")}
        return out

    def costs(self):
        """Per workload and thread count, and pooled over the checked
        workloads (an intercept each) per thread count."""
        fits, pooled = [], []
        for w in self.workloads:
            for t in self.threads[w]:
                rows = [r for r in self.sweep if r["workload"] == w
                        and r["threads"] == t]
                if any(r["fa_mapped"] < 0 for r in rows):
                    fits.append({"what": f"{w:26} {who(w, t):9}", "workload": w,
                                 "threads": t, "note": "no counters"})
                    continue
                if base_name(w) in FIO and t == 1:
                    # Its figure is its I/O, its faults all of its life.
                    fits.append({"what": f"{w:26} {who(w, t):9}", "workload": w,
                                 "threads": t, "note": "not modelled: the "
                                 "figure is fio's I/O, the faults all of fio"})
                    continue
                res = cost_model(self.st, self.label, rows, (w, t))
                res.update(workload=w, threads=t, what=f"{w:26} {who(w, t):9}")
                fits.append(res)
        for t in sorted({t for ts in self.threads.values() for t in ts}):
            # Warm files only: a cold run's figure is mostly its I/O.
            rows = [r for r in self.sweep if checked(r["workload"])
                    and not is_cold(r["workload"])
                    and r["threads"] == t and r["fa_mapped"] >= 0]
            wls = list(dict.fromkeys(r["workload"] for r in rows))
            if len(wls) < 2:
                continue
            res = cost_model(self.st, self.label, rows, ("pooled", t))
            res.update(workloads=wls, threads=t,
                       what=f"pooled, {t} thread(s)/task(s)")
            pooled.append(res)
        return fits, pooled

    def power(self, tables, effects=(0.01, 0.02, 0.05)):
        """The power to mark each effect in the largest family of a
        workload's orders, at the boot-to-boot sd of the tables' paired
        log ratios: the median workload's and the noisiest one's (each a
        workload's median over its orders).  {"boots", "m", "at":
        [(what, sd, {effect: power})]}."""
        by = {}
        for (w, _), tb in tables.items():
            for c in tb["cells"].values():
                r = c["ratio"].r if c.get("ratio") else None
                if r is not None and isinstance(r.n, int) and r.se == r.se and r.se > 0:
                    by.setdefault(w, []).append(r.se * math.sqrt(r.n))
        fams = [m for q, m in self.family.sizes.items()
                if q.endswith(f"against {self.orders[0]}")]
        nb = len(self.st.boots.get(self.label, []))
        if not by or not fams or nb < 2:
            return None
        sd = {w: float(np.median(v)) for w, v in by.items()}
        mid = float(np.median(list(sd.values())))
        worst = max(sd, key=sd.get)
        m = max(fams)
        return {"boots": nb, "m": m,
                "at": [(what, s, {e: bs.power_paired(e, s, nb, m, ALPHA, MIN_EFFECT)
                                  for e in effects})
                       for what, s in (("the median workload", mid),
                                       (f"the noisiest, {worst}", sd[worst]))]}

    def analyse(self):
        """Every number of the report, in the order the statistics need:
        Holm over the whole family before the control's verdict (which
        may flag every verdict) and the verdicts' words."""
        n = {"tables": {(w, t): self.table(w, t) for w in self.workloads
                        for t in self.threads[w]}}
        tables = n["tables"]
        n["fits"], n["pooled"] = self.costs()
        n["recs"] = [self.recommend(w) for w in self.workloads
                     if w != CONTROL]
        n["ctl"] = self.control()
        n["mods"] = self.modcost()
        n["abl"] = self.ab() if len(self.sets) > 1 else []
        n["adapt"] = self.adaptive(tables)
        n["done"], n["bad"] = crosscheck([r for _, rs, _ in self.sets
                                          for r in rs if r["setup"] == "sweep"])
        n["margins"] = self.margins(tables, n["fits"], n["pooled"])
        n["ncmp"] = self.family.holm()
        n["power"] = self.power(tables)
        self.control_verdict(n["ctl"])
        for x in n["mods"] + n["abl"]:
            x["verdict"] = verdict(x)
        n["calib"] = self.calibrate(n["abl"], tables) if self.aa else None
        if n["calib"] and self.pool_paths:
            n["calib"]["pooled"] = self.pool(n["calib"], self.pool_paths)
        n["ptabs"] = ([self.perf_table(tables[(w, t)]) for w in self.workloads
                       for t in self.threads[w]]
                      if self.perf["counted"] else [])
        return n
